package umd

import (
	"fmt"

	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
)

// checkVaryings refuses, when the shader is created, a vertex, domain or
// geometry shader that writes an output register past the ones the GPU's
// rasterizer interpolates (isa.MaxVaryings: o0..o31, Direct3D 11's 32;
// the translator has refused a vs_4_0's past its 16 already, regcount.go):
// the draw would fault on the GPU, so the driver says why at
// CreateVertexShader instead.
func checkVaryings(p *translate.Shader) error {
	stage, ok := map[shaderisa.Stage]string{shaderisa.StageVertex: "vertex", shaderisa.StageDomain: "domain",
		shaderisa.StageGeometry: "geometry"}[p.Stage]
	if !ok {
		return nil
	}
	for _, o := range p.Outputs {
		if o.ISA >= isa.MaxVaryings {
			return fmt.Errorf("translate: o%d: a %s shader's outputs are o0..o%d on this GPU (the %d registers its rasterizer interpolates)",
				o.Reg, stage, isa.MaxVaryings-1, isa.MaxVaryings)
		}
	}
	return nil
}
