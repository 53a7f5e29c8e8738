package apitrace

import (
	"strconv"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// The mapping between D3D11/DXGI calls and scenario statements, one row a
// method: the call's name and signature, the scenario method it is, and
// how each direction converts. Most rows are "simple": their arguments map
// one to one onto the scenario method's parameters (argMap), and both
// directions are generic. The others name an export and an import
// function. A method the scenario language gains is a row here.

// conv is how one argument converts.
type conv uint8

const (
	cUint  conv = iota + 1 // UINT <-> a whole number
	cInt                   // INT <-> a whole number
	cFloat                 // FLOAT <-> a number
	cBool                  // BOOL <-> TRUE or FALSE
	cEnum                  // an enum <-> one name of the scenario's enum table
	cFlags                 // a bitmask <-> names joined by |
	cObj                   // an interface pointer <-> an object name or NULL
	cNull                  // a pointer the scenario has no parameter for: NULL on export, ignored on import
)

// argMap is one argument of a simple row.
type argMap struct {
	name  string // the trace argument
	param string // the scenario parameter
	conv  conv
	enum  *EnumSig
	mask  *BitmaskSig
	def   int64 // an enum's default in the scenario (omitted on import when equal)
}

func u(name, param string) argMap   { return argMap{name: name, param: param, conv: cUint} }
func i32(name, param string) argMap { return argMap{name: name, param: param, conv: cInt} }
func o(name, param string) argMap   { return argMap{name: name, param: param, conv: cObj} }
func b(name, param string) argMap   { return argMap{name: name, param: param, conv: cBool} }
func null(name string) argMap       { return argMap{name: name, conv: cNull} }
func en(name, param string, s *EnumSig, def int64) argMap {
	return argMap{name: name, param: param, conv: cEnum, enum: s, def: def}
}
func fl(name, param string, s *BitmaskSig) argMap {
	return argMap{name: name, param: param, conv: cFlags, mask: s}
}

// export is the argument's trace value from a scenario call.
func (a argMap) export(e *Exporter, r *scenario.CallRecord) Value {
	ar := r.Arg(a.param)
	switch a.conv {
	case cUint:
		if ar == nil {
			return UintV(0)
		}
		return UintV(uint64(ar.Num))
	case cInt:
		if ar == nil {
			return IntV(0)
		}
		return IntV(int64(ar.Num))
	case cFloat:
		if ar == nil {
			return FloatV(0)
		}
		return FloatV(float32(ar.Num))
	case cBool:
		return boolV(ar != nil && ar.Given && ar.Bool)
	case cEnum:
		v := a.def
		if ar != nil && ar.Given {
			v = int64(ar.Bits)
		}
		return EnumV(a.enum, v)
	case cFlags:
		v := uint64(0)
		if ar != nil && ar.Given {
			v = uint64(ar.Bits)
		}
		return BitmaskV(a.mask, v)
	case cObj:
		if ar == nil {
			return Null
		}
		return e.obj(ar.Obj)
	}
	return Null
}

// row maps one D3D11/DXGI method onto one scenario method.
type row struct {
	iface  string // the interface family (ID3D11DeviceContext), "" for a function
	name   string // the method or function
	typ    string // the scenario's object type ("" for D3D11CreateDevice)
	method string // the scenario method
	sig    *FuncSig
	hr     bool // returns an HRESULT
	args   []argMap
	exp    exportFunc
	imp    importFunc
}

// simple is a row whose arguments map one to one.
func simple(iface, name, typ, method string, hr bool, args ...argMap) *row {
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a.name
	}
	r := &row{iface: iface, name: name, typ: typ, method: method, sig: method_(iface, name, names...), hr: hr, args: args}
	r.exp = expSimple(r)
	r.imp = impSimple(r)
	return r
}

func method_(iface, name string, args ...string) *FuncSig { return method(iface, name, args...) }

// custom is a row with its own functions.
func custom(iface, name, typ, m string, sig *FuncSig, exp exportFunc, imp importFunc) *row {
	return &row{iface: iface, name: name, typ: typ, method: m, sig: sig, exp: exp, imp: imp}
}

const (
	ctx = "ID3D11DeviceContext"
	dev = "ID3D11Device"
	swp = "IDXGISwapChain"
)

// rows is the table. Methods the scenario lacks but a capture holds with
// no effect on the simulation (markers, debug names, the DXGI factory and
// adapter, QueryInterface) are the import's own (import.go).
var rows = append([]*row{
	custom("", "D3D11CreateDevice", "", "D3D11CreateDevice", fnD3D11CreateDevice, expCreateDevice, impCreateDevice),
	custom("", "D3D11CreateDeviceAndSwapChain", "", "", nil, nil, impCreateDeviceAndSwapChain),
	custom("IDXGIFactory", "CreateSwapChain", "device", "CreateSwapChain", fnFactoryCreateSwap, expCreateSwapChain, impCreateSwapChain),
	custom(swp, "GetBuffer", "swapchain", "GetBuffer", fnSwapGetBuffer, expGetBuffer, impGetBuffer),
	simple(swp, "Present", "swapchain", "Present", true, u("SyncInterval", "SYNCINTERVAL"), fl("Flags", "Flags", sigPresent)),
	simple(swp, "SetFullscreenState", "swapchain", "SetFullscreenState", true, b("Fullscreen", "FULLSCREEN"), null("pTarget")),
	custom(swp, "GetDesc", "swapchain", "GetDesc", fnSwapGetDesc, expSwapGetDesc, impSwapGetDesc),
	custom(swp, "ResizeBuffers", "swapchain", "ResizeBuffers", fnSwapResize, expSwapResize, impSwapResize),
	custom(dev, "CreateBuffer", "device", "CreateBuffer", fnCreateBuffer, expCreateBuffer, impCreateBuffer),
	custom(dev, "CreateTexture2D", "device", "CreateTexture2D", fnCreateTexture2D, expCreateTexture(2), impCreateTexture(2)),
	custom(dev, "CreateRenderTargetView", "device", "CreateRenderTargetView", fnCreateRTV, expCreateView(fnCreateRTV, "rtv"), impCreateView("rtv")),
	custom(dev, "CreateShaderResourceView", "device", "CreateShaderResourceView", fnCreateSRV, expCreateView(fnCreateSRV, "srv"), impCreateView("srv")),
	custom(dev, "CreateDepthStencilView", "device", "CreateDepthStencilView", fnCreateDSV, expCreateView(fnCreateDSV, "dsv"), impCreateView("dsv")),
	custom(dev, "CheckFormatSupport", "device", "CheckFormatSupport", fnCheckFormat, expCheckFormatSupport, impCheckFormatSupport),
	custom(dev, "CreateVertexShader", "device", "CreateVertexShader", fnCreateVS, expCreateShader(fnCreateVS), impCreateShader("vs")),
	custom(dev, "CreatePixelShader", "device", "CreatePixelShader", fnCreatePS, expCreateShader(fnCreatePS), impCreateShader("ps")),
	custom(dev, "CreateInputLayout", "device", "CreateInputLayout", fnCreateInputLayout, expCreateInputLayout, impCreateInputLayout),
	custom(dev, "CreateBlendState", "device", "CreateBlendState", fnCreateBlend, expCreateBlend, impCreateBlend),
	custom(dev, "CreateRasterizerState", "device", "CreateRasterizerState", fnCreateRaster, expCreateRaster, impCreateRaster),
	custom(dev, "CreateDepthStencilState", "device", "CreateDepthStencilState", fnCreateDepth, expCreateDepth, impCreateDepth),
	custom(dev, "CreateSamplerState", "device", "CreateSamplerState", fnCreateSampler, expCreateSampler, impCreateSampler),
	custom(dev, "CreateQuery", "device", "CreateQuery", fnCreateQuery, expCreateQuery, impCreateQuery),
	custom(dev, "CreateDeferredContext", "device", "CreateDeferredContext", fnCreateDeferred,
		func(e *Exporter, th uint64, r *scenario.CallRecord) {
			e.write(th, fnCreateDeferred, []Arg{e.this(r), {1, UintV(0)}}, e.outObj(r, 2, 0), hr(r), 0)
		}, impCreateDeferred),
	custom(dev, "CreateFence", "device", "CreateFence", fnCreateFence, expCreateFence, impCreateFence),
	simple(dev, "GetDeviceRemovedReason", "device", "GetDeviceRemovedReason", true),
	custom("IDXGIDevice", "SetMaximumFrameLatency", "device", "SetMaximumFrameLatency", fnDXGISetLatency, expSetLatency, impSetLatency),
	custom("IDXGIDevice", "GetMaximumFrameLatency", "device", "GetMaximumFrameLatency", fnDXGIGetLatency, expGetLatency, impGetLatency),
	custom("IDXGIDevice", "OfferResources", "device", "OfferResources", fnDXGIOffer, expOffer, impOffer),
	custom("IDXGIDevice", "ReclaimResources", "device", "ReclaimResources", fnDXGIReclaim, expReclaim, impReclaim),

	custom(ctx, "IASetVertexBuffers", "context", "IASetVertexBuffers", fnIASetVertexBuffers, expIASetVertexBuffers, impIASetVertexBuffers),
	simple(ctx, "IASetIndexBuffer", "context", "IASetIndexBuffer", false, o("pIndexBuffer", "BUF"),
		en("Format", "Format", sigDXGIFormat, int64(d3d11.Enum("Format")["R16_UINT"])), u("Offset", "Offset")),
	simple(ctx, "IASetPrimitiveTopology", "context", "IASetPrimitiveTopology", false, en("Topology", "TOPOLOGY", sigTopology, -1)),
	simple(ctx, "IASetInputLayout", "context", "IASetInputLayout", false, o("pInputLayout", "LAYOUT")),
	custom(ctx, "VSSetShader", "context", "VSSetShader", fnVSSetShader, expSetShader(fnVSSetShader), impSetShader),
	custom(ctx, "PSSetShader", "context", "PSSetShader", fnPSSetShader, expSetShader(fnPSSetShader), impSetShader),
	custom(ctx, "VSSetConstantBuffers", "context", "VSSetConstantBuffers", fnVSSetCB, expSlots(fnVSSetCB, "BUF"), impSlots("BUF")),
	custom(ctx, "PSSetConstantBuffers", "context", "PSSetConstantBuffers", fnPSSetCB, expSlots(fnPSSetCB, "BUF"), impSlots("BUF")),
	custom(ctx, "PSSetShaderResources", "context", "PSSetShaderResources", fnPSSetSRV, expSlots(fnPSSetSRV, "SRV"), impSlots("SRV")),
	custom(ctx, "PSSetSamplers", "context", "PSSetSamplers", fnPSSetSamplers, expSlots(fnPSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
	custom(ctx, "OMSetRenderTargets", "context", "OMSetRenderTargets", fnOMSetRT, expOMSetRenderTargets, impOMSetRenderTargets),
	custom(ctx, "OMSetBlendState", "context", "OMSetBlendState", fnOMSetBlend, expOMSetBlendState, impOMSetBlendState),
	custom(ctx, "OMSetDepthStencilState", "context", "OMSetDepthStencilState", fnOMSetDepth, expOMSetDepthStencilState, impOMSetDepthStencilState),
	simple(ctx, "RSSetState", "context", "RSSetState", false, o("pRasterizerState", "STATE")),
	custom(ctx, "RSSetViewports", "context", "RSSetViewports", fnRSSetViewports, expRSSetViewports, impRSSetViewports),
	custom(ctx, "ClearRenderTargetView", "context", "ClearRenderTargetView", fnClearRTV, expClearRTV, impClearRTV),
	custom(ctx, "ClearDepthStencilView", "context", "ClearDepthStencilView", fnClearDSV, expClearDSV, impClearDSV),
	simple(ctx, "Draw", "context", "Draw", false, u("VertexCount", "COUNT"), u("StartVertexLocation", "START")),
	simple(ctx, "DrawIndexed", "context", "DrawIndexed", false, u("IndexCount", "COUNT"), u("StartIndexLocation", "START"), i32("BaseVertexLocation", "BASE")),
	simple(ctx, "DrawInstanced", "context", "DrawInstanced", false, u("VertexCountPerInstance", "COUNT"), u("InstanceCount", "INSTANCES"),
		u("StartVertexLocation", "START"), u("StartInstanceLocation", "STARTINSTANCE")),
	simple(ctx, "DrawIndexedInstanced", "context", "DrawIndexedInstanced", false, u("IndexCountPerInstance", "COUNT"), u("InstanceCount", "INSTANCES"),
		u("StartIndexLocation", "START"), i32("BaseVertexLocation", "BASE"), u("StartInstanceLocation", "STARTINSTANCE")),
	simple(ctx, "CopyResource", "context", "CopyResource", false, o("pDstResource", "DST"), o("pSrcResource", "SRC")),
	custom(ctx, "UpdateSubresource", "context", "UpdateSubresource", fnUpdateSubresource, expUpdateSubresource, impUpdateSubresource),
	custom(ctx, "Map", "context", "Map", fnMap, expMap, impMap),
	custom(ctx, "Unmap", "context", "Unmap", fnUnmap, expUnmap, impUnmap),
	custom("", "memcpy", "buffer", "Write", fnMemcpy, expWrite, impMemcpy),
	simple(ctx, "Begin", "context", "Begin", false, o("pAsync", "QUERY")),
	simple(ctx, "End", "context", "End", false, o("pAsync", "QUERY")),
	custom(ctx, "GetData", "context", "GetData", fnGetData, expGetData, impGetData),
	custom(dev, "CreatePredicate", "device", "CreatePredicate", fnCreatePredicate, expCreatePredicate, impCreatePredicate),
	simple(ctx, "SetPredication", "context", "SetPredication", false, o("pPredicate", "PREDICATE"), b("PredicateValue", "VALUE")),
	custom(ctx, "GetPredication", "context", "GetPredication", fnGetPredication, expGetPredication, impGetPredication),
	simple(ctx, "Flush", "context", "Flush", false),
	simple(ctx, "ClearState", "context", "ClearState", false),
	custom(ctx, "FinishCommandList", "context", "FinishCommandList", fnFinishCommandList, expFinishCommandList, impFinishCommandList),
	simple(ctx, "ExecuteCommandList", "context", "ExecuteCommandList", false, o("pCommandList", "CL"), b("RestoreContextState", "RESTORE")),
	simple(ctx+"4", "Signal", "context", "Signal", true, o("pFence", "FENCE"), u("Value", "VALUE")),
	simple(ctx+"4", "Wait", "context", "Wait", true, o("pFence", "FENCE"), u("Value", "VALUE")),
	custom("ID3D11Fence", "GetCompletedValue", "fence", "GetCompletedValue", fnFenceCompleted, expGetCompletedValue, impGetCompletedValue),
	simple("ID3D11Fence", "SetEventOnCompletion", "fence", "SetEventOnCompletion", true, u("Value", "VALUE"), null("hEvent")),
	custom("", "AddRef", "", "AddRef", nil, expRef(+1), impAddRef),
	custom("", "Release", "", "Release", nil, expRef(-1), impRelease),
}, breadthRows()...)

// exportMappings finds the export of a scenario method: "type.Method",
// ".Method" for the methods of every object.
var exportMappings = func() map[string]exportFunc {
	m := map[string]exportFunc{}
	for _, r := range rows {
		if r.exp == nil {
			continue
		}
		m[r.typ+"."+r.method] = r.exp
	}
	m["texture.Write"] = expWrite
	return m
}()

// importMappings finds the import of a call: "Family::Method" (the
// interface without its version digits), or the function's name.
var importMappings = func() map[string]*row {
	m := map[string]*row{}
	for _, r := range rows {
		if r.imp == nil {
			continue
		}
		k := r.name
		if r.iface != "" {
			k = family(r.iface) + "::" + r.name
		}
		m[k] = r
	}
	return m
}()

// Supported lists the calls the import maps, by family and method, for
// docs/apitrace.md and the tests.
func Supported() []string {
	var out []string
	for _, r := range rows {
		if r.imp == nil {
			continue
		}
		k := r.name
		if r.iface != "" {
			k = family(r.iface) + "::" + r.name
		} else if r.typ != "" && r.name != "memcpy" {
			k = "*::" + r.name
		}
		out = append(out, k)
	}
	return out
}

func fmtU(v uint64) string { return strconv.FormatUint(v, 10) }
