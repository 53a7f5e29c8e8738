package hlsl

import (
	"strings"

	"d3dsim/core/dxbc"
)

// shaderFeatures are the SFI0 bits fxc sets for the program (dxbc's
// ShaderFeatures): doubles and the 11.1 double extensions (ddiv, dfma);
// unordered access views outside the pixel and compute stages, past u7
// (64 UAV slots) or rasterizer ordered; a typed UAV load of an element
// of more than one component (R32_FLOAT, R32_UINT and R32_SINT loads are
// every device's, the others an optional capability); comparison
// sampling on a _level_9_x profile; SV_RenderTargetArrayIndex or
// SV_ViewportArrayIndex written by a vertex or domain shader. Minimum
// precision is not among them: this compiler computes min16float and its
// siblings at full precision and writes no minimum-precision operand.
func (g *gen) shaderFeatures(p *Program, hull *HullDecl, outs []SigElement) dxbc.ShaderFeatures {
	var f dxbc.ShaderFeatures
	code := p.Code
	if hull != nil {
		code = append(code[:len(code):len(code)], hull.PCCode...)
	}
	if d, ext := hasDoubles(code); d {
		f |= dxbc.RequiresDoubles
		if ext {
			f |= dxbc.Requires11_1DoubleExtensions
		}
	}
	for _, u := range p.UAVs {
		if p.Stage != Pixel && p.Stage != Compute {
			f |= dxbc.RequiresUAVsAtEveryStage
		}
		if u.Slot >= 8 {
			f |= dxbc.Requires64UAVs
		}
		if u.ROV {
			f |= dxbc.RequiresROVs
		}
	}
	for _, in := range code {
		switch {
		case in.Op == OpLdUAVTyped && len(in.Src) > 1 && g.uavComps(in.Src[1].Index) > 1:
			f |= dxbc.RequiresTypedUAVLoadAdditionalFormats
		case (in.Op == OpSampleC || in.Op == OpSampleCLz) && g.level9 != "":
			f |= dxbc.RequiresLevel9ComparisonFiltering
		}
	}
	if p.Stage == Vertex || p.Stage == Domain {
		for _, e := range outs {
			if strings.EqualFold(e.Semantic, "SV_RenderTargetArrayIndex") || strings.EqualFold(e.Semantic, "SV_ViewportArrayIndex") {
				f |= dxbc.RequiresViewportAndRTArrayIndexFromAnyShaderFeedingRasterizer
			}
		}
	}
	return f
}

// uavComps is the components of the element of the typed view in slot u
// (1 when no typed view holds it).
func (g *gen) uavComps(u int) int {
	for _, r := range g.uavs {
		if r.elem != nil && u >= r.slot && u < r.slot+max(r.count, 1) {
			return max(r.elem.Cols, 1)
		}
	}
	return 1
}
