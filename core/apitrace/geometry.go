package apitrace

// The geometry stage's calls, with d3d11.h's signatures and apitrace's
// argument names: CreateGeometryShader, GSSetShader, the GS*Set*
// bindings and the GSGet* getters.

var (
	fnCreateGS      = method("ID3D11Device", "CreateGeometryShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppGeometryShader")
	fnGSSetShader   = method("ID3D11DeviceContext", "GSSetShader", "pShader", "ppClassInstances", "NumClassInstances")
	fnGSSetCB       = method("ID3D11DeviceContext", "GSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnGSSetSRV      = method("ID3D11DeviceContext", "GSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnGSSetSamplers = method("ID3D11DeviceContext", "GSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnGSGetShader   = method("ID3D11DeviceContext", "GSGetShader", "ppGeometryShader", "ppClassInstances", "pNumClassInstances")
	fnGSGetCB       = method("ID3D11DeviceContext", "GSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnGSGetSRV      = method("ID3D11DeviceContext", "GSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnGSGetSamplers = method("ID3D11DeviceContext", "GSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
)

func geometryRows() []*row {
	return []*row{
		custom(dev, "CreateGeometryShader", "device", "CreateGeometryShader", fnCreateGS, expCreateShader(fnCreateGS), impCreateShader("gs")),
		custom(ctx, "GSSetShader", "context", "GSSetShader", fnGSSetShader, expSetShader(fnGSSetShader), impSetShader),
		custom(ctx, "GSSetConstantBuffers", "context", "GSSetConstantBuffers", fnGSSetCB, expSlots(fnGSSetCB, "BUF"), impSlots("BUF")),
		custom(ctx, "GSSetShaderResources", "context", "GSSetShaderResources", fnGSSetSRV, expSlots(fnGSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "GSSetSamplers", "context", "GSSetSamplers", fnGSSetSamplers, expSlots(fnGSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		getter("GSGetShader", fnGSGetShader),
		getter("GSGetConstantBuffers", fnGSGetCB, "SLOT", "COUNT"),
		getter("GSGetShaderResources", fnGSGetSRV, "SLOT", "COUNT"),
		getter("GSGetSamplers", fnGSGetSamplers, "SLOT", "COUNT"),
	}
}
