package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// The input and output registers a shader model gives a stage, as its
// "Registers - <profile>" page lists them: 32 v# and 32 o# from shader
// model 4.1 on and at every geometry, hull, domain and pixel shader
// input (D3D11_VS_OUTPUT_REGISTER_COUNT, D3D11_PS_INPUT_REGISTER_COUNT,
// D3D11_GS_OUTPUT_REGISTER_COUNT, D3D11_DS_OUTPUT_REGISTER_COUNT: 32), but
// 16 of each in a vs_4_0 ("Registers - vs_4_0": Direct3D 10's
// D3D10_VS_OUTPUT_REGISTER_COUNT). fxc never writes past them; a blob that
// does is refused by the register and the profile's count. The GPU runs
// all 32 (gpu/isa's MaxVaryings): past these the translator's own limits
// (shaderisa.MaxInputs, MaxOutputs) name the GPU's.

// modelRegisters is the v# (out false) or o# (out true) registers p's
// profile has, 0 where the profile sets no count below the GPU's (a pixel
// shader's outputs are its render targets', checked apart).
func modelRegisters(p *dxbc.Program, out bool) uint32 {
	if p == nil || p.Type == dxbc.PixelShader && out {
		return 0
	}
	if p.Type == dxbc.VertexShader && p.Major == 4 && p.Minor == 0 {
		return 16
	}
	return shaderisa.MaxOutputs // 32: MaxInputs is the same
}

// checkModelRegister refuses register reg (a v# when out is false, an o#
// when true) past the profile's count.
func (t *translator) checkModelRegister(reg uint32, out bool) error {
	n := modelRegisters(t.prog, out)
	if n == 0 || reg < n {
		return nil
	}
	kind, what := "v", "input"
	if out {
		kind, what = "o", "output"
	}
	prof := t.prog.Profile()
	return t.fail("%s%d: a %s shader has %d %s registers, %s0..%s%d (\"Registers - %s\")", kind, reg, prof, n, what, kind, kind, n-1, prof)
}
