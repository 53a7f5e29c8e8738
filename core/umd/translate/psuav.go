package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Pixel shaders (ps_5_0) read, write and run atomics on the unordered
// access views the output merger binds
// (OMSetRenderTargetsAndUnorderedAccessViews), their u# numbered as the
// slots, after the render targets. They have no thread groups,
// groupshared memory or barriers: those stay a compute shader's.

// takes reports whether the shader being translated may use op, an
// instruction refusals names or a view's ld_raw, ld_structured or
// bufinfo: a compute shader takes every one, a pixel shader the unordered
// access ones.
func (t *translator) takes(op dxbc.Opcode) bool {
	switch t.out.Stage {
	case shaderisa.StageCompute:
		return true
	case shaderisa.StagePixel:
		// ld_raw, ld_structured and bufinfo of a u# are not computeOps
		// (a t# takes them in every stage).
		return !computeOps[op] || refusals[op] == featUAV
	}
	return false
}

// typedUAVDims are the typed views the GPU has (dcl_uav_typed_*): a
// buffer and the 1D, 2D and 3D textures and arrays; ld_uav_typed and
// store_uav_typed address them with x, then y (a 1D array's slice), then
// z (a 2D array's slice, a 3D texture's depth).
var typedUAVDims = map[dxbc.ResourceDimension]bool{
	dxbc.DimBuffer: true, dxbc.DimTexture1D: true, dxbc.DimTexture1DArray: true, dxbc.DimTexture2D: true,
	dxbc.DimTexture2DArray: true, dxbc.DimTexture3D: true,
}
