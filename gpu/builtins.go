package gpu

import "slices"

// Reference programs in the GPU's ISA (package gpu/shaderisa's assembly) for
// the GPU's own tests and benchmarks, which place them in memory and bind
// them with SET_PROGRAM and the built-in vertex's SET_LAYOUT, as a driver
// does. The UMD never uses them: the driver's built-in shaders are HLSL
// (assets/shaders) that it translates into programs computing the same
// bits as these (TestBuiltinsComputeTheISAPrograms in core/builtins), and
// they carry the same names. Varying registers follow the built-in vertex
// (isa.BuiltinLayout): o0/v0 the position, o1/v1 the colour, o2/v2 the
// texture coordinate. The vertex programs write SV_Position to o0; the
// pixel programs read it in v0.
var builtinSource = map[string]string{
	"vs_passthrough": `vs inputs=3 outputs=3
mov o0, v0
mov o1, v1
mov o2, v2`,
	// Row vector on the left, row-major M in cb0[0..3]: (x y z 1) · M.
	"vs_transform": `vs inputs=3 outputs=3 temps=1
mul r0, v0.xxxx, cb0[0]
mad r0, v0.yyyy, cb0[1], r0
mad r0, v0.zzzz, cb0[2], r0
add o0, r0, cb0[3]
mov o1, v1
mov o2, v2`,
	"ps_vertexcolor": `ps inputs=2 outputs=1
mov o0, v1`,
	"ps_solid": `ps inputs=1 outputs=1
mov o0, cb0[0]`,
	"ps_texture": `ps inputs=3 outputs=1
sample o0, v2.xyxx, t0, s0`,
	// A loop that never ends: the GPU stops it at the step limit, the draw
	// faults and its covered pixels get the warning colour.
	"ps_fault": `ps inputs=1 outputs=1
loop
endloop
mov o0, v0`,
}

// BuiltinSource returns the assembly of the reference program name
// (vs_passthrough, vs_transform, ps_vertexcolor, ps_solid, ps_texture,
// ps_fault), or "" for none.
func BuiltinSource(name string) string { return builtinSource[name] }

// BuiltinNames lists the reference programs' names, sorted.
func BuiltinNames() []string {
	names := make([]string, 0, len(builtinSource))
	for n := range builtinSource {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
