package apitrace

import (
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// The compute stage's calls, with d3d11.h's signatures and apitrace's
// argument names: CreateComputeShader, CSSetShader, the CS*Set*
// bindings, Dispatch and DispatchIndirect, and the CSGet* getters.
// CreateUnorderedAccessView writes its D3D11_UNORDERED_ACCESS_VIEW_DESC,
// CSSetUnorderedAccessViews its pUAVInitialCounts.

var (
	fnCreateCS         = method("ID3D11Device", "CreateComputeShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppComputeShader")
	fnCSSetShader      = method("ID3D11DeviceContext", "CSSetShader", "pComputeShader", "ppClassInstances", "NumClassInstances")
	fnCSSetCB          = method("ID3D11DeviceContext", "CSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnCSSetSRV         = method("ID3D11DeviceContext", "CSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnCSSetSamplers    = method("ID3D11DeviceContext", "CSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnCSGetShader      = method("ID3D11DeviceContext", "CSGetShader", "ppComputeShader", "ppClassInstances", "pNumClassInstances")
	fnCSGetCB          = method("ID3D11DeviceContext", "CSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnCSGetSRV         = method("ID3D11DeviceContext", "CSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnCSGetSamplers    = method("ID3D11DeviceContext", "CSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnCSGetUAVs        = method("ID3D11DeviceContext", "CSGetUnorderedAccessViews", "StartSlot", "NumUAVs", "ppUnorderedAccessViews")
	fnDispatch         = method("ID3D11DeviceContext", "Dispatch", "ThreadGroupCountX", "ThreadGroupCountY", "ThreadGroupCountZ")
	fnDispatchIndirect = method("ID3D11DeviceContext", "DispatchIndirect", "pBufferForArgs", "AlignedByteOffsetForArgs")
)

func computeRows() []*row {
	return append([]*row{
		custom(dev, "CreateComputeShader", "device", "CreateComputeShader", fnCreateCS, expCreateShader(fnCreateCS), impCreateShader("cs")),
		custom(ctx, "CSSetShader", "context", "CSSetShader", fnCSSetShader, expSetShader(fnCSSetShader), impSetShader),
		custom(ctx, "CSSetConstantBuffers", "context", "CSSetConstantBuffers", fnCSSetCB, expSlots(fnCSSetCB, "BUF"), impSlots("BUF")),
		custom(ctx, "CSSetShaderResources", "context", "CSSetShaderResources", fnCSSetSRV, expSlots(fnCSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "CSSetSamplers", "context", "CSSetSamplers", fnCSSetSamplers, expSlots(fnCSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		simple(ctx, "Dispatch", "context", "Dispatch", false, u("ThreadGroupCountX", "X"), u("ThreadGroupCountY", "Y"), u("ThreadGroupCountZ", "Z")),
		simple(ctx, "DispatchIndirect", "context", "DispatchIndirect", false, o("pBufferForArgs", "BUF"), u("AlignedByteOffsetForArgs", "OFFSET")),
		getter("CSGetShader", fnCSGetShader),
		getter("CSGetConstantBuffers", fnCSGetCB, "SLOT", "COUNT"),
		getter("CSGetShaderResources", fnCSGetSRV, "SLOT", "COUNT"),
		getter("CSGetSamplers", fnCSGetSamplers, "SLOT", "COUNT"),
		getter("CSGetUnorderedAccessViews", fnCSGetUAVs, "SLOT", "COUNT"),
	}, append(append(uavRows(), omUAVRows()...), clearUAVRows()...)...)
}

var (
	sigUAVDim      = seqEnum("D3D11_UAV_DIMENSION_", 0, "UNKNOWN", "BUFFER", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY", "6", "7", "TEXTURE3D")
	sigBufferUAV   = flagsSig("D3D11_BUFFER_UAV_FLAG_", bf{"RAW", 1}, bf{"APPEND", 2}, bf{"COUNTER", 4})
	stUAVDesc      = structSig("D3D11_UNORDERED_ACCESS_VIEW_DESC", "Format", "ViewDimension", "")
	stBufferUAV    = structSig("D3D11_BUFFER_UAV", "FirstElement", "NumElements", "Flags")
	stTex2DUAV     = structSig("D3D11_TEX2D_UAV", "MipSlice")
	stUAVBufUnion  = structSig("", "Buffer")
	stUAVTex2Union = structSig("", "Texture2D")
	fnCreateUAV    = method("ID3D11Device", "CreateUnorderedAccessView", "pResource", "pDesc", "ppUAView")
	fnCSSetUAVs    = method("ID3D11DeviceContext", "CSSetUnorderedAccessViews", "StartSlot", "NumUAVs", "ppUnorderedAccessViews", "pUAVInitialCounts")
)

func uavRows() []*row {
	return []*row{
		custom(dev, "CreateUnorderedAccessView", "device", "CreateUnorderedAccessView", fnCreateUAV, expCreateUAV, impCreateUAV),
		custom(ctx, "CSSetUnorderedAccessViews", "context", "CSSetUnorderedAccessViews", fnCSSetUAVs, expCSSetUAVs, impCSSetUAVs),
	}
}

// expCreateUAV writes the D3D11_UNORDERED_ACCESS_VIEW_DESC the scenario's
// call made (its defaults resolved as the scenario does: a buffer's view
// is BUFFER of the rest of the buffer, a texture's TEXTURE2D).
func expCreateUAV(e *Exporter, th uint64, r *scenario.CallRecord) {
	res, _ := objArg(r, "RES").(*d3d11.Resource)
	format := int64(bitsArg(r, "Format", 0))
	flags := uint64(bitsArg(r, "Flags", 0))
	var desc Value
	if res != nil && res.Kind == d3d11.KindBuffer {
		first, n := uintArg(r, "FirstElement"), uintArg(r, "NumElements")
		if a := r.Arg("NumElements"); a == nil || !a.Given {
			elem := uint64(4)
			switch {
			case res.Desc.StructureByteStride != 0 && flags&1 == 0:
				elem = uint64(res.Desc.StructureByteStride)
			case flags&1 == 0 && d3d11.FormatSize(d3d11.Format(format)) != 0:
				elem = uint64(d3d11.FormatSize(d3d11.Format(format)))
			}
			n = uint64(res.Desc.Width)/elem - min(first, uint64(res.Desc.Width)/elem)
		}
		desc = StructV(stUAVDesc, EnumV(sigDXGIFormat, format), EnumV(sigUAVDim, 1),
			StructV(stUAVBufUnion, StructV(stBufferUAV, UintV(first), UintV(n), BitmaskV(sigBufferUAV, flags))))
	} else if d := texUAVDesc(r, format); d != nil {
		desc = *d
	} else {
		desc = StructV(stUAVDesc, EnumV(sigDXGIFormat, format), EnumV(sigUAVDim, 4),
			StructV(stUAVTex2Union, StructV(stTex2DUAV, UintV(uintArg(r, "MipSlice")))))
	}
	e.write(th, fnCreateUAV, []Arg{e.this(r), {1, e.obj(objArg(r, "RES"))}, {2, ArrayV(desc)}}, e.outObj(r, 3, 0), hr(r), 0)
}

func impCreateUAV(m *importer, c *Call, d *object) error {
	res, err := m.objArg(c, "pResource", "texture", "buffer")
	if err != nil {
		return err
	}
	if res == nil {
		return skip("pResource is NULL")
	}
	vals := map[string]string{"RES": m.ref(res)}
	desc := c.Arg("pDesc").Deref()
	if desc == nil || desc.Kind == KNull {
		if res.typ != "texture" {
			return skip("a view of a buffer without a description")
		}
	} else {
		f, fname, ok := enumOf(m.member(desc, "Format"), sigDXGIFormat)
		if !ok {
			return skip("the view's Format is %s", describe(m.member(desc, "Format")))
		}
		if f != 0 {
			name, err := scenarioEnum("Format", f, fname)
			if err != nil {
				return err
			}
			vals["Format"] = name
		}
		_, dim, _ := enumOf(m.member(desc, "ViewDimension"), sigUAVDim)
		switch {
		case strings.HasSuffix(dim, "_BUFFER"):
			b := m.member(desc, "Buffer")
			for _, k := range []string{"FirstElement", "NumElements"} {
				if n, ok := valInt(m.member(b, k)); ok && (n != 0 || k == "NumElements") {
					vals[k] = fmtU(uint64(n))
				}
			}
			s, n, err := m.scenarioFlagsArg(m.member(b, "Flags"), sigBufferUAV, "BufferUAVFlags", "Flags")
			if err != nil {
				return err
			}
			if n != 0 {
				vals["Flags"] = s
			}
		case strings.HasSuffix(dim, "_TEXTURE2D"):
			if n, _ := valInt(m.member(m.member(desc, "Texture2D"), "MipSlice")); n != 0 {
				vals["MipSlice"] = fmtU(uint64(n))
			}
		default:
			if !impTexUAV(m, desc, dim, vals) {
				return skip("ViewDimension %s: the simulated unordered access views are buffers and 1D, 2D and 3D textures and arrays", dim)
			}
		}
	}
	v := m.out(c, "ppUAView", "uav", "uav")
	if v != nil {
		v.dev = d
	}
	m.emit(c, m.bind(v)+m.callText(d, "CreateUnorderedAccessView", vals), hrOf(c))
	return nil
}

// expCSSetUAVs writes the views and their initial counts (-1 for the
// ones the statement does not set).
func expCSSetUAVs(e *Exporter, th uint64, r *scenario.CallRecord) {
	objs := posObjects(r, "UAV")
	vals := make([]Value, len(objs))
	for i, o := range objs {
		vals[i] = e.obj(o)
	}
	counts := Null
	if a := r.Arg("UAVInitialCounts"); a != nil && a.Given && len(a.Value.U32) == len(objs) {
		cs := make([]Value, len(objs))
		for i, n := range a.Value.U32 {
			cs[i] = UintV(uint64(n))
		}
		counts = ArrayV(cs...)
	}
	e.write(th, fnCSSetUAVs, []Arg{e.this(r), {1, UintV(uintArg(r, "SLOT"))}, {2, UintV(uint64(len(objs)))}, {3, ArrayV(vals...)}, {4, counts}}, nil, nil, 0)
}

func impCSSetUAVs(m *importer, c *Call, ctx *object) error {
	start, err := m.uintOf(c, "StartSlot")
	if err != nil {
		return err
	}
	n, err := m.uintOf(c, "NumUAVs")
	if err != nil {
		return err
	}
	if n == 0 {
		return nil
	}
	if n > 8 {
		return skip("NumUAVs %d: the compute stage has 8 slots", n)
	}
	objs := elems(c.Arg("ppUnorderedAccessViews"))
	text := m.ref(ctx) + ".CSSetUnorderedAccessViews " + fmtU(start)
	for i := uint64(0); i < n; i++ {
		ref := "NULL"
		if int(i) < len(objs) {
			o, err := m.objOf(&objs[i])
			if err != nil {
				return err
			}
			if o != nil && o.typ != "uav" {
				return skip("ppUnorderedAccessViews[%d] is a %s", i, orKind(o))
			}
			ref = m.ref(o)
		}
		text += " " + ref
	}
	keep := true
	var counts []string
	for i, v := range elems(c.Arg("pUAVInitialCounts")) {
		if uint64(i) >= n {
			break
		}
		k, _ := valInt(&v)
		counts = append(counts, fmtU(uint64(uint32(k))))
		keep = keep && uint32(k) == 0xFFFFFFFF
	}
	if len(counts) == int(n) && !keep {
		text += " UAVInitialCounts=u32[" + strings.Join(counts, " ") + "]"
	}
	m.emit(c, text, "")
	return nil
}
