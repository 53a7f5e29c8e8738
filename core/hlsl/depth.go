package hlsl

import "d3dsim/core/dxbc"

// SV_Depth, SV_DepthGreaterEqual and SV_DepthLessEqual ("Semantics", HLSL
// reference): a pixel shader's float output that replaces the pixel's
// depth (oDepth), or, at shader model 5, one the shader promises is not
// less (oDepthGE) or not greater (oDepthLE) than the interpolated depth,
// so the driver may keep its early depth test. Like oMask (coverage.go)
// they are no o#: the IR names them registers of the output file past the
// 32 a signature has, the encoder writes DXBC's oDepth, oDepthGE and
// oDepthLE (one component), declared with dcl_output, and the output
// signature lists them with no register and their system value (DEPTH,
// DEPTHGE, DEPTHLE), as fxc lists them.

// The IR registers of oDepth, oDepthGE and oDepthLE.
const (
	depthReg = coverageReg + 1 + iota
	depthGEReg
	depthLEReg
)

// The system values of the depth outputs (D3D_NAME).
const (
	SysDepth   SysVal = SysVal(dxbc.SVDepth)
	SysDepthGE SysVal = SysVal(dxbc.SVDepthGreaterEqual)
	SysDepthLE SysVal = SysVal(dxbc.SVDepthLessEqual)
)

// SV_ClipDistance and SV_CullDistance: a vertex, domain or geometry
// shader's float outputs (a float to float4, or an array of them: a
// semantic index each), the distances to the user clip and cull planes.
// fxc packs them into registers of their own (as many as two, eight
// distances), a float2 and a float sharing one, declared with
// dcl_output_siv clip_distance or cull_distance.
const (
	SysClipDist SysVal = SysVal(dxbc.SVClipDistance)
	SysCullDist SysVal = SysVal(dxbc.SVCullDistance)
)

// clipCullName is SV_ClipDistance's or SV_CullDistance's system value, or
// SysNone after an error.
func (g *gen) clipCullName(p pos, up string, t *Type, input bool) SysVal {
	name, sv := "SV_ClipDistance", SysClipDist
	if up == "SV_CULLDISTANCE" {
		name, sv = "SV_CullDistance", SysCullDist
	}
	switch {
	case input || g.stage != Vertex && g.stage != Domain && g.stage != Geometry:
		g.errorf(p, eNotImplemented, "not supported by this compiler: %s other than as a vertex, domain or geometry shader's output", name)
		return SysNone
	case t.Base != Float || t.Kind == KMatrix:
		g.errorf(p, eConvert, "%s of type '%s': a float, float2, float3 or float4", name, t)
		return SysNone
	}
	return sv
}

// SysSampleIndex: SV_SampleIndex, a pixel shader's uint input from
// shader model 4.1 on, the sample the invocation runs for (it makes the
// shader run once per sample), declared dcl_input_ps_sgv constant ...,
// sampleIndex, as fxc declares it.
const SysSampleIndex SysVal = SysVal(dxbc.SVSampleIndex)

// specialOut is a pixel shader's output that is no o#: its IR register,
// its DXBC register type, its name in a listing and its system value.
type specialOut struct {
	typ  dxbc.RegisterType
	name string
	sv   SysVal
}

var specialOuts = map[int]specialOut{
	coverageReg: {dxbc.RegOutputCoverageMask, "oMask", SysCoverage},
	depthReg:    {dxbc.RegOutputDepth, "oDepth", SysDepth},
	depthGEReg:  {dxbc.RegOutputDepthGE, "oDepthGE", SysDepthGE},
	depthLEReg:  {dxbc.RegOutputDepthLE, "oDepthLE", SysDepthLE},
}

// specialOutput is the output register reg is when it is no o#.
func specialOutput(reg int) (specialOut, bool) {
	s, ok := specialOuts[reg]
	return s, ok
}

// depthSig is SV_Depth's (or SV_DepthGreaterEqual's, SV_DepthLessEqual's)
// signature value: a pixel shader's float output.
func (g *gen) depthSig(p pos, t *Type, el SigElement, up string, input bool) (*value, []SigElement) {
	reg, sv := depthReg, SysDepth
	switch up {
	case "SV_DEPTHGREATEREQUAL":
		reg, sv = depthGEReg, SysDepthGE
	case "SV_DEPTHLESSEQUAL":
		reg, sv = depthLEReg, SysDepthLE
	}
	name := map[SysVal]string{SysDepth: "SV_Depth", SysDepthGE: "SV_DepthGreaterEqual", SysDepthLE: "SV_DepthLessEqual"}[sv]
	switch {
	case g.stage != Pixel || input:
		g.errorf(p, eNotImplemented, "%s is a pixel shader's output", name)
		return poison, nil
	case t.Cols != 1 || t.Kind != KScalar && t.Kind != KVector || t.Base != Float:
		g.errorf(p, eConvert, "%s of type '%s': a float", name, t)
		return poison, nil
	case sv != SysDepth && g.major < 5:
		g.errorf(p, eNotImplemented, "%s needs shader model 5 (ps_5_0)", name)
		return poison, nil
	}
	el.SysVal, el.Register, el.Mask = sv, reg, 1
	return &value{t: t, c: regComps(FileOutput, reg, 1)}, []SigElement{el}
}
