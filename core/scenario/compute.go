package scenario

import "d3dsim/core/d3d11"

// The compute stage's calls (D3D11's names): CreateComputeShader,
// CreateUnorderedAccessView, CSSetShader, CSSetConstantBuffers,
// CSSetShaderResources, CSSetSamplers, CSSetUnorderedAccessViews (with
// UAVInitialCounts), Dispatch, DispatchIndirect and the CSGet* getters.

const (
	tCS  = "cs"  // a compute shader
	tUAV = "uav" // an unordered access view
)

func init() {
	allTypes = append(allTypes, tCS, tUAV)
	dev, ctx := methods[tDevice], methods[tContext]
	dev["CreateComputeShader"] = &method{pos: []param{{name: "PROGRAM", kind: pBuiltin, enum: "cs"}}, named: shaderNamed,
		results: []string{tCS}, exec: execCreateShader("cs")}
	dev["CreateUnorderedAccessView"] = &method{pos: []param{{name: "RES", kind: pObj, types: tTexture + "|" + tBuffer}},
		named: []param{{name: "Format", kind: pEnum, enum: "Format", opt: true}, {name: "ViewDimension", kind: pEnum, enum: "UAVDimension", opt: true},
			{name: "FirstElement", kind: pUint, opt: true}, {name: "NumElements", kind: pUint, opt: true},
			{name: "Flags", kind: pFlags, enum: "BufferUAVFlags", opt: true}, {name: "MipSlice", kind: pUint, opt: true},
			{name: "FirstArraySlice", kind: pUint, opt: true}, {name: "ArraySize", kind: pUint, opt: true},
			{name: "FirstWSlice", kind: pUint, opt: true}, {name: "WSize", kind: pInt, opt: true}},
		results: []string{tUAV}, exec: execCreateUAV}
	ctx["CSSetShader"] = &method{pos: []param{{name: "SHADER", kind: pObj, types: tCS, opt: true}},
		exec: func(x *call) error { return x.ctx().CSSetShader(x.shader(0)) }}
	ctx["CSSetConstantBuffers"] = setCBs(d3d11.StageCS)
	ctx["CSSetShaderResources"] = setSRVs(d3d11.StageCS)
	ctx["CSSetSamplers"] = setSamplers(d3d11.StageCS)
	ctx["CSSetUnorderedAccessViews"] = &method{pos: slotObjects("UAV", tUAV, 8),
		named: []param{{name: "UAVInitialCounts", kind: pData, opt: true}}, exec: execCSSetUAVs}
	ctx["Dispatch"] = &method{pos: []param{{name: "X", kind: pUint}, {name: "Y", kind: pUint, opt: true, def: 1}, {name: "Z", kind: pUint, opt: true, def: 1}},
		exec: func(x *call) error { return x.ctx().Dispatch(x.uint(0), x.uint(1), x.uint(2)) }}
	ctx["DispatchIndirect"] = &method{pos: []param{{name: "BUF", kind: pObj, types: tBuffer, opt: true}, {name: "OFFSET", kind: pUint, opt: true}},
		exec: func(x *call) error { return x.ctx().DispatchIndirect(x.res(0), x.uint(1)) }}
	ctx["CSGetShader"] = &method{exec: func(x *call) error { return got(x, []*d3d11.Shader{x.ctx().CSGetShader()}, nil) }}
	ctx["CSGetConstantBuffers"] = getCBs(d3d11.StageCS)
	ctx["CSGetShaderResources"] = getSRVs(d3d11.StageCS)
	ctx["CSGetSamplers"] = getSamplers(d3d11.StageCS)
	ctx["CSGetUnorderedAccessViews"] = &method{pos: getRange, exec: func(x *call) error {
		return got(x, x.ctx().CSGetUnorderedAccessViews(x.uint(0), x.uint(1)), nil)
	}}
}

// execCreateUAV builds a D3D11_UNORDERED_ACCESS_VIEW_DESC: a buffer's
// view is BUFFER of NumElements from FirstElement (the rest of the buffer
// when left out), a texture's TEXTURE2D of MipSlice.
func execCreateUAV(x *call) error {
	res := x.res(0)
	if res == nil {
		return x.bad("needs a resource")
	}
	desc := d3d11.ViewDesc{Format: d3d11.Format(x.enumNamed("Format", 0))}
	u := &desc.UAV
	u.Dimension = d3d11.UAVDimension(x.enumNamed("ViewDimension", 0))
	u.FirstElement, u.NumElements, u.MipSlice = x.uintNamed("FirstElement"), x.uintNamed("NumElements"), x.uintNamed("MipSlice")
	u.Flags = x.enumNamed("Flags", 0)
	uavSlices(x, res, u)
	if res.Kind == d3d11.KindBuffer && u.NumElements == 0 && !x.hasNamed("NumElements") {
		// The rest of the buffer, in elements of the view's size.
		elem := uint32(4)
		switch {
		case res.Desc.StructureByteStride != 0 && u.Flags&d3d11.BufferUAVRaw == 0:
			elem = res.Desc.StructureByteStride
		case u.Flags&d3d11.BufferUAVRaw == 0 && d3d11.FormatSize(desc.Format) != 0:
			elem = d3d11.FormatSize(desc.Format)
		}
		u.NumElements = res.Desc.Width/elem - min(u.FirstElement, res.Desc.Width/elem)
	}
	v, err := x.dev().CreateViewDesc(x.result(0), d3d11.ViewUAV, res, desc)
	if err == nil {
		x.bind(0, v)
	}
	return err
}

func execCSSetUAVs(x *call) error {
	views := objects(x, 1, x.view)
	var counts []uint32
	if a, ok := x.namedArg("UAVInitialCounts"); ok {
		if a.Value.Kind != VU32 && a.Value.Kind != VI32 || len(a.Value.U32) != len(views) {
			return x.bad("UAVInitialCounts is one count per view: u32[...] (or i32[...], -1 keeping the counter) of %d", len(views))
		}
		counts = a.Value.U32
	}
	return x.ctx().CSSetUnorderedAccessViews(x.uint(0), views, counts)
}
