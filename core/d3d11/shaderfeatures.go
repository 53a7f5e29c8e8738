package d3d11

import (
	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/trace"
)

// checkShaderFeatures checks the optional features a shader's SFI0 chunk
// says it needs (D3D_SHADER_REQUIRES_*) against the device, as the runtime
// does when the shader is created: doubles against the driver's
// D3D11DDICAPS_SHADER_DOUBLES (what CheckFeatureSupport reports as
// D3D11_FEATURE_DOUBLES); early depth-stencil, minimum precision (which a
// device may run at full precision) and feature level 9's comparison
// filtering are every feature level 11_0 device's; the others are
// features of later runtimes (11.1 to 11.3) than this device's Direct3D
// 11.0 one. A shader needing one the device lacks is E_INVALIDARG, the
// message naming the feature.
func (d *Device) checkShaderFeatures(api, name string, f dxbc.ShaderFeatures) error {
	for bit := dxbc.ShaderFeatures(1); bit != 0 && bit <= f; bit <<= 1 {
		if f&bit == 0 {
			continue
		}
		what := bit.Describe()[0] + " (" + bit.Names()[0] + ")"
		switch bit {
		case dxbc.RequiresEarlyDepthStencil, dxbc.RequiresMinimumPrecision, dxbc.RequiresLevel9ComparisonFiltering:
		case dxbc.RequiresDoubles:
			caps := d.ddiIC().with(d.name, handleName(uint32(d.hDev)), strArg(trace.KeyType, "D3D11DDICAPS_SHADER")).GetCaps(d.rt.cfg.Adapter)
			if caps&ddi.ShaderCapsDoubles == 0 {
				return d.invalid(api, name, "the shader needs %s: the driver does not report D3D11DDICAPS_SHADER_DOUBLES (D3D11_FEATURE_DOUBLES: DoublePrecisionFloatShaderOps is FALSE)", what)
			}
		default:
			return d.invalid(api, name, "the shader needs %s, a feature of a later runtime than this device's Direct3D 11.0 one", what)
		}
	}
	return nil
}
