package gpu

import "d3dsim/gpu/isa"

// The built-in programs written in the GPU's shader ISA (package
// gpu/shader's assembly): what SET_SHADER's microcode computes, as
// programs a driver can place in memory and bind with SET_PROGRAM. Varying
// registers follow the built-in vertex (isa.BuiltinLayout): o0/v0 the
// position, o1/v1 the colour, o2/v2 the texture coordinate. The vertex
// programs write SV_Position to o0; the pixel programs read it in v0.
// The driver's built-in shaders are HLSL (assets/shaders) that the UMD
// translates into programs computing the same bits as these
// (TestBuiltinsComputeTheISAPrograms in core/builtins).
var builtinSource = map[[2]uint32]string{
	{isa.StageVS, isa.ProgVSPassthrough}: `vs inputs=3 outputs=3
mov o0, v0
mov o1, v1
mov o2, v2`,
	// Row vector on the left, row-major M in cb0[0..3]: (x y z 1) · M.
	{isa.StageVS, isa.ProgVSTransform}: `vs inputs=3 outputs=3 temps=1
mul r0, v0.xxxx, cb0[0]
mad r0, v0.yyyy, cb0[1], r0
mad r0, v0.zzzz, cb0[2], r0
add o0, r0, cb0[3]
mov o1, v1
mov o2, v2`,
	{isa.StagePS, isa.ProgPSVertexColor}: `ps inputs=2 outputs=1
mov o0, v1`,
	{isa.StagePS, isa.ProgPSSolid}: `ps inputs=1 outputs=1
mov o0, cb0[0]`,
	{isa.StagePS, isa.ProgPSTexture}: `ps inputs=3 outputs=1
sample o0, v2.xyxx, t0, s0`,
	// A loop that never ends: the GPU stops it at the step limit and the
	// draw faults.
	{isa.StagePS, isa.ProgPSFault}: `ps inputs=1 outputs=1
loop
endloop
mov o0, v0`,
}

// BuiltinSource returns the assembly of built-in program prog of stage
// (isa.StageVS or isa.StagePS), or "" for none.
func BuiltinSource(stage, prog uint32) string { return builtinSource[[2]uint32{stage, prog}] }
