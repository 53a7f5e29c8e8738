package scenario

import "d3dsim/core/d3d11"

// The geometry stage's calls (D3D11's names): CreateGeometryShader,
// GSSetShader, GSSetConstantBuffers, GSSetShaderResources, GSSetSamplers
// and the GSGet* getters.

const tGS = "gs" // a geometry shader

func init() {
	allTypes = append(allTypes, tGS)
	dev, ctx := methods[tDevice], methods[tContext]
	dev["CreateGeometryShader"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "gs"}}, named: shaderNamed,
		results: []string{tGS}, exec: execCreateShader("gs")}
	ctx["GSSetShader"] = &method{pos: []param{{name: "SHADER", kind: pObj, types: tGS, opt: true}},
		exec: func(x *call) error { return x.ctx().GSSetShader(x.shader(0)) }}
	ctx["GSSetConstantBuffers"] = setCBs(d3d11.StageGS)
	ctx["GSSetShaderResources"] = setSRVs(d3d11.StageGS)
	ctx["GSSetSamplers"] = setSamplers(d3d11.StageGS)
	ctx["GSGetShader"] = &method{exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().GSGetShader()}, nil) }}
	ctx["GSGetConstantBuffers"] = getCBs(d3d11.StageGS)
	ctx["GSGetShaderResources"] = getSRVs(d3d11.StageGS)
	ctx["GSGetSamplers"] = getSamplers(d3d11.StageGS)
}
