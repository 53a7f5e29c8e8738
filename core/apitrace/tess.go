package apitrace

// The hull and domain stages' calls, with d3d11.h's signatures and
// apitrace's argument names: CreateHullShader, CreateDomainShader,
// HSSetShader, DSSetShader, the HS*/DS*Set* bindings and the getters.

var (
	fnCreateHS      = method("ID3D11Device", "CreateHullShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppHullShader")
	fnCreateDS      = method("ID3D11Device", "CreateDomainShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppDomainShader")
	fnHSSetShader   = method("ID3D11DeviceContext", "HSSetShader", "pHullShader", "ppClassInstances", "NumClassInstances")
	fnDSSetShader   = method("ID3D11DeviceContext", "DSSetShader", "pDomainShader", "ppClassInstances", "NumClassInstances")
	fnHSSetCB       = method("ID3D11DeviceContext", "HSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnHSSetSRV      = method("ID3D11DeviceContext", "HSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnHSSetSamplers = method("ID3D11DeviceContext", "HSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnDSSetCB       = method("ID3D11DeviceContext", "DSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnDSSetSRV      = method("ID3D11DeviceContext", "DSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnDSSetSamplers = method("ID3D11DeviceContext", "DSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnHSGetShader   = method("ID3D11DeviceContext", "HSGetShader", "ppHullShader", "ppClassInstances", "pNumClassInstances")
	fnDSGetShader   = method("ID3D11DeviceContext", "DSGetShader", "ppDomainShader", "ppClassInstances", "pNumClassInstances")
	fnHSGetCB       = method("ID3D11DeviceContext", "HSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnHSGetSRV      = method("ID3D11DeviceContext", "HSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnHSGetSamplers = method("ID3D11DeviceContext", "HSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnDSGetCB       = method("ID3D11DeviceContext", "DSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnDSGetSRV      = method("ID3D11DeviceContext", "DSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnDSGetSamplers = method("ID3D11DeviceContext", "DSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
)

func tessRows() []*row {
	return []*row{
		custom(dev, "CreateHullShader", "device", "CreateHullShader", fnCreateHS, expCreateShader(fnCreateHS), impCreateShader("hs")),
		custom(dev, "CreateDomainShader", "device", "CreateDomainShader", fnCreateDS, expCreateShader(fnCreateDS), impCreateShader("ds")),
		custom(ctx, "HSSetShader", "context", "HSSetShader", fnHSSetShader, expSetShader(fnHSSetShader), impSetShader),
		custom(ctx, "DSSetShader", "context", "DSSetShader", fnDSSetShader, expSetShader(fnDSSetShader), impSetShader),
		custom(ctx, "HSSetConstantBuffers", "context", "HSSetConstantBuffers", fnHSSetCB, expSlots(fnHSSetCB, "BUF"), impSlots("BUF")),
		custom(ctx, "HSSetShaderResources", "context", "HSSetShaderResources", fnHSSetSRV, expSlots(fnHSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "HSSetSamplers", "context", "HSSetSamplers", fnHSSetSamplers, expSlots(fnHSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		custom(ctx, "DSSetConstantBuffers", "context", "DSSetConstantBuffers", fnDSSetCB, expSlots(fnDSSetCB, "BUF"), impSlots("BUF")),
		custom(ctx, "DSSetShaderResources", "context", "DSSetShaderResources", fnDSSetSRV, expSlots(fnDSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "DSSetSamplers", "context", "DSSetSamplers", fnDSSetSamplers, expSlots(fnDSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		getter("HSGetShader", fnHSGetShader),
		getter("DSGetShader", fnDSGetShader),
		getter("HSGetConstantBuffers", fnHSGetCB, "SLOT", "COUNT"),
		getter("HSGetShaderResources", fnHSGetSRV, "SLOT", "COUNT"),
		getter("HSGetSamplers", fnHSGetSamplers, "SLOT", "COUNT"),
		getter("DSGetConstantBuffers", fnDSGetCB, "SLOT", "COUNT"),
		getter("DSGetShaderResources", fnDSGetSRV, "SLOT", "COUNT"),
		getter("DSGetSamplers", fnDSGetSamplers, "SLOT", "COUNT"),
	}
}
