package scenario

import "d3dsim/core/d3d11"

// The hull and domain stages' calls (D3D11's names): CreateHullShader,
// CreateDomainShader, HSSetShader, DSSetShader, HS*/DS*SetConstantBuffers,
// SetShaderResources and SetSamplers, and the getters. Patch lists are
// IASetPrimitiveTopology's N_CONTROL_POINT_PATCHLIST (1..32).

const (
	tHS = "hs" // a hull shader
	tDS = "ds" // a domain shader
)

func init() {
	allTypes = append(allTypes, tHS, tDS)
	dev, ctx := methods[tDevice], methods[tContext]
	dev["CreateHullShader"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "hs"}}, named: shaderNamed,
		results: []string{tHS}, exec: execCreateShader("hs")}
	dev["CreateDomainShader"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "ds"}}, named: shaderNamed,
		results: []string{tDS}, exec: execCreateShader("ds")}
	ctx["HSSetShader"] = &method{pos: []param{{name: "SHADER", kind: pObj, types: tHS, opt: true}},
		exec: func(x *call) error { return x.ctx().HSSetShader(x.shader(0)) }}
	ctx["DSSetShader"] = &method{pos: []param{{name: "SHADER", kind: pObj, types: tDS, opt: true}},
		exec: func(x *call) error { return x.ctx().DSSetShader(x.shader(0)) }}
	for _, st := range []d3d11.Stage{d3d11.StageHS, d3d11.StageDS} {
		p := st.String()
		ctx[p+"SetConstantBuffers"] = setCBs(st)
		ctx[p+"SetShaderResources"] = setSRVs(st)
		ctx[p+"SetSamplers"] = setSamplers(st)
		ctx[p+"GetConstantBuffers"] = getCBs(st)
		ctx[p+"GetShaderResources"] = getSRVs(st)
		ctx[p+"GetSamplers"] = getSamplers(st)
	}
	ctx["HSGetShader"] = &method{exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().HSGetShader()}, nil) }}
	ctx["DSGetShader"] = &method{exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().DSGetShader()}, nil) }}
}
