package apitrace

import (
	"fmt"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/scenario"
)

// The rows of D3D11's breadth beyond the first triangle: textures of one
// and three dimensions with mips and slices, the vertex shader's views and
// samplers, scissor rectangles, GenerateMips, the indirect draws and the
// getters. The signatures are the Windows SDK's (d3d11.h), with the
// argument names apitrace's specs/d3d11.py gives them.

var (
	stTexture1DDesc = structSig("D3D11_TEXTURE1D_DESC", "Width", "MipLevels", "ArraySize", "Format", "Usage", "BindFlags", "CPUAccessFlags", "MiscFlags")
	stTexture3DDesc = structSig("D3D11_TEXTURE3D_DESC", "Width", "Height", "Depth", "MipLevels", "Format", "Usage", "BindFlags", "CPUAccessFlags", "MiscFlags")
	stRect          = structSig("tagRECT", "left", "top", "right", "bottom")

	fnCreateTexture1D      = method("ID3D11Device", "CreateTexture1D", "pDesc", "pInitialData", "ppTexture1D")
	fnCreateTexture3D      = method("ID3D11Device", "CreateTexture3D", "pDesc", "pInitialData", "ppTexture3D")
	fnVSSetSRV             = method("ID3D11DeviceContext", "VSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnVSSetSamplers        = method("ID3D11DeviceContext", "VSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnRSSetScissorRects    = method("ID3D11DeviceContext", "RSSetScissorRects", "NumRects", "pRects")
	fnIAGetVertexBuffers   = method("ID3D11DeviceContext", "IAGetVertexBuffers", "StartSlot", "NumBuffers", "ppVertexBuffers", "pStrides", "pOffsets")
	fnVSGetCB              = method("ID3D11DeviceContext", "VSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnPSGetCB              = method("ID3D11DeviceContext", "PSGetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnVSGetSRV             = method("ID3D11DeviceContext", "VSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnPSGetSRV             = method("ID3D11DeviceContext", "PSGetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnVSGetSamplers        = method("ID3D11DeviceContext", "VSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnPSGetSamplers        = method("ID3D11DeviceContext", "PSGetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnOMGetRenderTargets   = method("ID3D11DeviceContext", "OMGetRenderTargets", "NumViews", "ppRenderTargetViews", "ppDepthStencilView")
	fnIAGetIndexBuffer     = method("ID3D11DeviceContext", "IAGetIndexBuffer", "pIndexBuffer", "Format", "Offset")
	fnIAGetInputLayout     = method("ID3D11DeviceContext", "IAGetInputLayout", "ppInputLayout")
	fnIAGetTopology        = method("ID3D11DeviceContext", "IAGetPrimitiveTopology", "pTopology")
	fnVSGetShader          = method("ID3D11DeviceContext", "VSGetShader", "ppVertexShader", "ppClassInstances", "pNumClassInstances")
	fnPSGetShader          = method("ID3D11DeviceContext", "PSGetShader", "ppPixelShader", "ppClassInstances", "pNumClassInstances")
	fnOMGetBlendState      = method("ID3D11DeviceContext", "OMGetBlendState", "ppBlendState", "BlendFactor", "pSampleMask")
	fnOMGetDepthStencil    = method("ID3D11DeviceContext", "OMGetDepthStencilState", "ppDepthStencilState", "pStencilRef")
	fnRSGetState           = method("ID3D11DeviceContext", "RSGetState", "ppRasterizerState")
	fnRSGetViewports       = method("ID3D11DeviceContext", "RSGetViewports", "pNumViewports", "pViewports")
	fnRSGetScissorRects    = method("ID3D11DeviceContext", "RSGetScissorRects", "pNumRects", "pRects")
	fnDrawInstancedIndir   = method("ID3D11DeviceContext", "DrawInstancedIndirect", "pBufferForArgs", "AlignedByteOffsetForArgs")
	fnDrawIndexedInstIndir = method("ID3D11DeviceContext", "DrawIndexedInstancedIndirect", "pBufferForArgs", "AlignedByteOffsetForArgs")
)

// breadthRows are appended to rows (mapping.go).
func breadthRows() []*row {
	return append(annotationRows(), append([]*row{
		custom(dev, "CreateTexture1D", "device", "CreateTexture1D", fnCreateTexture1D, expCreateTexture(1), impCreateTexture(1)),
		custom(dev, "CreateTexture3D", "device", "CreateTexture3D", fnCreateTexture3D, expCreateTexture(3), impCreateTexture(3)),
		custom(ctx, "VSSetShaderResources", "context", "VSSetShaderResources", fnVSSetSRV, expSlots(fnVSSetSRV, "SRV"), impSlots("SRV")),
		custom(ctx, "VSSetSamplers", "context", "VSSetSamplers", fnVSSetSamplers, expSlots(fnVSSetSamplers, "SAMPLER"), impSlots("SAMPLER")),
		custom(ctx, "RSSetScissorRects", "context", "RSSetScissorRects", fnRSSetScissorRects, expRSSetScissorRects, impRSSetScissorRects),
		simple(ctx, "GenerateMips", "context", "GenerateMips", false, o("pShaderResourceView", "SRV")),
		simple(ctx, "DrawInstancedIndirect", "context", "DrawInstancedIndirect", false, o("pBufferForArgs", "BUF"), u("AlignedByteOffsetForArgs", "OFFSET")),
		simple(ctx, "DrawIndexedInstancedIndirect", "context", "DrawIndexedInstancedIndirect", false, o("pBufferForArgs", "BUF"), u("AlignedByteOffsetForArgs", "OFFSET")),
		// The getters: the scenario keeps what they return for `expect
		// got`; the capture holds the call (its outputs are the run's).
		getter("IAGetVertexBuffers", fnIAGetVertexBuffers, "SLOT", "COUNT"),
		getter("VSGetConstantBuffers", fnVSGetCB, "SLOT", "COUNT"),
		getter("PSGetConstantBuffers", fnPSGetCB, "SLOT", "COUNT"),
		getter("VSGetShaderResources", fnVSGetSRV, "SLOT", "COUNT"),
		getter("PSGetShaderResources", fnPSGetSRV, "SLOT", "COUNT"),
		getter("VSGetSamplers", fnVSGetSamplers, "SLOT", "COUNT"),
		getter("PSGetSamplers", fnPSGetSamplers, "SLOT", "COUNT"),
		getter("OMGetRenderTargets", fnOMGetRenderTargets, "COUNT"),
		getter("IAGetIndexBuffer", fnIAGetIndexBuffer),
		getter("IAGetInputLayout", fnIAGetInputLayout),
		getter("IAGetPrimitiveTopology", fnIAGetTopology),
		getter("VSGetShader", fnVSGetShader),
		getter("PSGetShader", fnPSGetShader),
		getter("OMGetBlendState", fnOMGetBlendState),
		getter("OMGetDepthStencilState", fnOMGetDepthStencil),
		getter("RSGetState", fnRSGetState),
		getter("RSGetViewports", fnRSGetViewports),
		getter("RSGetScissorRects", fnRSGetScissorRects),
	}, append(computeRows(), append(geometryRows(), append(streamRows(), append(msaaRows(), append(tessRows(), featureRows()...)...)...)...)...)...)...)
}

// getter is a row for a Get method whose inputs are the scenario's
// parameters params (the leading UINT arguments of the signature, in order)
// and whose other arguments are outputs.
func getter(name string, sig *FuncSig, params ...string) *row {
	exp := func(e *Exporter, th uint64, r *scenario.CallRecord) {
		in := []Arg{e.this(r)}
		for i, p := range params {
			in = append(in, Arg{i + 1, UintV(uintArg(r, p))})
		}
		e.write(th, sig, in, nil, nil, 0)
	}
	imp := func(m *importer, c *Call, tgt *object) error {
		text := m.ref(tgt) + "." + name
		for i, p := range params {
			n, err := m.uintOf(c, sig.Args[i+1])
			if err != nil {
				return err
			}
			if p == "COUNT" && n == 1 {
				continue
			}
			text += " " + fmtU(n)
		}
		m.emit(c, text, "")
		return nil
	}
	return custom(ctx, name, "context", name, sig, exp, imp)
}

// expRSSetScissorRects writes every rectangle of the statement.
func expRSSetScissorRects(e *Exporter, th uint64, r *scenario.CallRecord) {
	var rects []Value
	var cur []Value
	for _, a := range r.Args {
		switch a.Name {
		case "LEFT", "TOP", "RIGHT", "BOTTOM":
			if a.Given {
				cur = append(cur, IntV(int64(a.Num)))
			}
		}
		if len(cur) == 4 {
			rects = append(rects, StructV(stRect, cur...))
			cur = nil
		}
	}
	arr := Null
	if len(rects) > 0 {
		arr = ArrayV(rects...)
	}
	e.write(th, fnRSSetScissorRects, []Arg{e.this(r), {1, UintV(uint64(len(rects)))}, {2, arr}}, nil, nil, 0)
}

func impRSSetScissorRects(m *importer, c *Call, ctx *object) error {
	n, err := m.uintOf(c, "NumRects")
	if err != nil {
		return err
	}
	rects := elems(c.Arg("pRects"))
	if uint64(len(rects)) < n {
		return skip("NumRects is %d but pRects holds %d", n, len(rects))
	}
	if n > 16 {
		return skip("NumRects %d: D3D11 has 16 scissor rectangles", n)
	}
	text := m.ref(ctx) + ".RSSetScissorRects"
	for i := range n {
		for _, f := range []string{"left", "top", "right", "bottom"} {
			v, ok := valInt(m.member(&rects[i], f))
			if !ok {
				return skip("pRects[%d].%s is not an integer", i, f)
			}
			text += " " + fmt.Sprint(v)
		}
	}
	m.emit(c, text, "")
	return nil
}

// mipCount is a texture's levels: MipLevels, or the whole chain for 0.
func mipCount(mips uint32, dims ...uint32) uint32 {
	if mips != 0 {
		return mips
	}
	big := uint32(1)
	for _, d := range dims {
		big = max(big, d)
	}
	n := uint32(1)
	for big > 1 {
		big >>= 1
		n++
	}
	return n
}

func mipDim(d, m uint32) uint32 { return max(d>>m, 1) }

// subresourceData splits the scenario's packed Data (every slice's levels
// in D3D11's subresource order, tightly packed) into the
// D3D11_SUBRESOURCE_DATA array the call takes, padding what is short.
func subresourceData(data []byte, f uint32, w, h, d, mips, slices uint32) Value {
	var subs []Value
	off := 0
	for range slices {
		for m := range mips {
			mw, mh, md := mipDim(w, m), mipDim(h, m), mipDim(d, m)
			row := ddi.RowBytes(ddi.Format(f), mw)
			plane := row * ddi.Rows(ddi.Format(f), mh)
			n := int(plane * md)
			b := make([]byte, n)
			if off < len(data) {
				copy(b, data[off:])
			}
			off += n
			subs = append(subs, StructV(stSubresource, BlobV(b), UintV(uint64(row)), UintV(uint64(plane))))
		}
	}
	return ArrayV(subs...)
}

// expCreateTexture writes CreateTexture1D (dim 1), CreateTexture2D (2) or
// CreateTexture3D (3).
func expCreateTexture(dim int) exportFunc {
	return func(e *Exporter, th uint64, r *scenario.CallRecord) {
		w, f := uint32(uintArg(r, "Width")), bitsArg(r, "Format", 0)
		h, d, slices := uint32(1), uint32(1), uint32(1)
		mipsArg := uint32(1)
		if a := r.Arg("MipLevels"); a != nil && a.Given {
			mipsArg = uint32(a.Num)
		}
		usage, bind := EnumV(sigUsage, int64(bitsArg(r, "Usage", 0))), BitmaskV(sigBindFlag, uint64(bitsArg(r, "BindFlags", 0)))
		cpu, misc := BitmaskV(sigCPUAccess, uint64(bitsArg(r, "CPUAccessFlags", 0))), BitmaskV(sigMiscFlag, uint64(bitsArg(r, "MiscFlags", 0)))
		var desc Value
		sig := fnCreateTexture1D
		if a := r.Arg("ArraySize"); a != nil && a.Given && dim != 3 {
			slices = uint32(a.Num)
		}
		switch dim {
		case 1:
			desc = StructV(stTexture1DDesc, UintV(uint64(w)), UintV(uint64(mipsArg)), UintV(uint64(slices)), EnumV(sigDXGIFormat, int64(f)), usage, bind, cpu, misc)
		case 2:
			sig = fnCreateTexture2D
			h = uint32(uintArg(r, "Height"))
			desc = StructV(stTexture2DDesc, UintV(uint64(w)), UintV(uint64(h)), UintV(uint64(mipsArg)), UintV(uint64(slices)), EnumV(sigDXGIFormat, int64(f)),
				sampleDescV(r), usage, bind, cpu, misc)
		default:
			sig = fnCreateTexture3D
			h, d = uint32(uintArg(r, "Height")), uint32(uintArg(r, "Depth"))
			desc = StructV(stTexture3DDesc, UintV(uint64(w)), UintV(uint64(h)), UintV(uint64(d)), UintV(uint64(mipsArg)), EnumV(sigDXGIFormat, int64(f)), usage, bind, cpu, misc)
		}
		init := Null
		if data := r.Arg("Data"); data != nil && data.Given {
			init = subresourceData(data.Bytes, f, w, h, d, mipCount(mipsArg, w, h, d), slices)
		}
		out := e.outObj(r, 3, 0)
		if out != nil {
			e.dims[r.Results[0]] = [3]uint32{w, h, f}
		}
		e.write(th, sig, []Arg{e.this(r), {1, ArrayV(desc)}, {2, init}}, out, hr(r), 0)
	}
}

// impCreateTexture reads CreateTexture1D (dim 1) or CreateTexture3D (3).
func impCreateTexture(dim int) importFunc {
	method, outName := "CreateTexture1D", "ppTexture1D"
	members := []string{"Width", "MipLevels", "ArraySize"}
	switch dim {
	case 2:
		method, outName = "CreateTexture2D", "ppTexture2D"
		members = []string{"Width", "Height", "MipLevels", "ArraySize"}
	case 3:
		method, outName = "CreateTexture3D", "ppTexture3D"
		members = []string{"Width", "Height", "Depth", "MipLevels"}
	}
	return func(m *importer, c *Call, d *object) error {
		desc := c.Arg("pDesc")
		vals := map[string]string{}
		if dim == 2 {
			m.sampleDesc(desc, vals) // (msaa.go)
		}
		got := map[string]uint32{"Height": 1, "Depth": 1, "ArraySize": 1}
		for _, f := range members {
			n, err := m.uintMember(desc, f)
			if err != nil {
				return err
			}
			got[f] = uint32(n)
			if (f == "MipLevels" || f == "ArraySize") && n == 1 {
				continue
			}
			vals[f] = fmtU(n)
		}
		format, fv, err := m.scenarioEnumArg(m.member(desc, "Format"), sigDXGIFormat, "Format", "Format")
		if err != nil {
			return err
		}
		vals["Format"] = format
		usage, err := m.resourceFlags(desc, vals)
		if err != nil {
			return err
		}
		w, h, dd := got["Width"], got["Height"], got["Depth"]
		if init := c.Arg("pInitialData"); init != nil && init.Kind != KNull {
			subs := elems(init)
			mips := mipCount(got["MipLevels"], w, h, dd)
			want := int(mips * got["ArraySize"])
			if len(subs) < want {
				return skip("pInitialData holds %d subresources of the %d the texture has", len(subs), want)
			}
			var all []byte
			noBytes := true
			for i := range want {
				sub := &subs[i]
				sys := m.member(sub, "pSysMem")
				b, err := m.bytesOf(sys, fmt.Sprintf("pInitialData[%d]", i))
				if err != nil {
					return err
				}
				noBytes = noBytes && sys.NoBytes
				mip := uint32(i) % mips
				mw, mh, md := mipDim(w, mip), mipDim(h, mip), mipDim(dd, mip)
				row := ddi.RowBytes(ddi.Format(fv), mw)
				rows := ddi.Rows(ddi.Format(fv), mh)
				pitch, _ := m.uintMember(sub, "SysMemPitch")
				slicePitch, _ := m.uintMember(sub, "SysMemSlicePitch")
				for z := range md {
					start := uint64(z) * slicePitch
					var plane []byte
					if start < uint64(len(b)) {
						plane = b[start:]
					}
					all = append(all, repack(padTo(plane, int(max(uint64(pitch), uint64(row))*uint64(rows))), uint32(pitch), row, rows)...)
				}
			}
			if !(noBytes && usage != 1) {
				s, err := m.dataArg(all, "pInitialData")
				if err != nil {
					return err
				}
				vals["Data"] = s
			}
		}
		t := m.out(c, outName, "texture", "tex")
		if t != nil {
			t.w, t.h, t.format, t.dev = w, h, uint32(fv), d
			t.mips, t.slices = mipCount(got["MipLevels"], w, h, dd), got["ArraySize"]
		}
		m.emit(c, m.bind(t)+m.callText(d, method, vals), hrOf(c))
		return nil
	}
}

// padTo is b with zeros up to n bytes.
func padTo(b []byte, n int) []byte {
	if len(b) >= n {
		return b
	}
	return append(append([]byte(nil), b...), make([]byte, n-len(b))...)
}

// The shader-resource view's union, one member a dimension (d3d11.h's
// D3D11_SHADER_RESOURCE_VIEW_DESC; apitrace writes the member the
// dimension selects).
var (
	stBufferSRV     = structSig("D3D11_BUFFER_SRV", "FirstElement", "NumElements")
	stTex1DSRV      = structSig("D3D11_TEX1D_SRV", "MostDetailedMip", "MipLevels")
	stTex1DArrSRV   = structSig("D3D11_TEX1D_ARRAY_SRV", "MostDetailedMip", "MipLevels", "FirstArraySlice", "ArraySize")
	stTex2DArrSRV   = structSig("D3D11_TEX2D_ARRAY_SRV", "MostDetailedMip", "MipLevels", "FirstArraySlice", "ArraySize")
	stTex3DSRV      = structSig("D3D11_TEX3D_SRV", "MostDetailedMip", "MipLevels")
	stTexCubeSRV    = structSig("D3D11_TEXCUBE_SRV", "MostDetailedMip", "MipLevels")
	stTexCubeArrSRV = structSig("D3D11_TEXCUBE_ARRAY_SRV", "MostDetailedMip", "MipLevels", "First2DArrayFace", "NumCubes")
	stBufferExSRV   = structSig("D3D11_BUFFEREX_SRV", "FirstElement", "NumElements", "Flags")
	sigBufferExFlag = flagsSig("D3D11_BUFFEREX_SRV_FLAG_", bf{"RAW", 1})

	// srvUnion is the union's member of each dimension: its name and
	// signature.
	srvUnion = map[int64]struct {
		member string
		st     *StructSig
		union  *StructSig
	}{
		1:  {"Buffer", stBufferSRV, structSig("", "Buffer")},
		2:  {"Texture1D", stTex1DSRV, structSig("", "Texture1D")},
		3:  {"Texture1DArray", stTex1DArrSRV, structSig("", "Texture1DArray")},
		4:  {"Texture2D", stTex2DSRV, stSRVUnion},
		5:  {"Texture2DArray", stTex2DArrSRV, structSig("", "Texture2DArray")},
		8:  {"Texture3D", stTex3DSRV, structSig("", "Texture3D")},
		9:  {"TextureCube", stTexCubeSRV, structSig("", "TextureCube")},
		10: {"TextureCubeArray", stTexCubeArrSRV, structSig("", "TextureCubeArray")},
		11: {"BufferEx", stBufferExSRV, structSig("", "BufferEx")},
	}
)

// srvFields are the scenario's parameters of a view's dimension and ranges.
var srvFields = []string{"ViewDimension", "MostDetailedMip", "MipLevels", "FirstArraySlice", "ArraySize", "First2DArrayFace", "NumCubes", "FirstElement", "NumElements", "Flags"}

// ownDimension is the dimension of a view of the whole resource as its
// own kind.
func ownDimension(res *d3d11.Resource) int64 {
	switch res.Kind {
	case d3d11.KindBuffer:
		return 1
	case d3d11.KindTexture1D:
		if res.ArraySlices() > 1 {
			return 3
		}
		return 2
	case d3d11.KindTexture3D:
		return 8
	}
	if res.ArraySlices() > 1 {
		return 5
	}
	return 4
}

// srvDescValue is the D3D11_SHADER_RESOURCE_VIEW_DESC of a
// CreateShaderResourceView statement that names its dimension or ranges,
// completed as the scenario completes it (core/scenario's srvDesc);
// ok false when it names none of them (pDesc NULL or the Format alone).
func srvDescValue(r *scenario.CallRecord, res *d3d11.Resource, format int64) (Value, bool) {
	given := func(n string) bool { a := r.Arg(n); return a != nil && a.Given }
	any := false
	for _, f := range srvFields {
		any = any || given(f)
	}
	if !any || res == nil {
		return Null, false
	}
	dim := int64(bitsArg(r, "ViewDimension", 0))
	if dim == 0 {
		dim = ownDimension(res)
	}
	mips := uint64(0xFFFFFFFF)
	if a := r.Arg("MipLevels"); a != nil && a.Given {
		mips = uint64(uint32(int32(a.Num)))
	}
	most := UintV(uintArg(r, "MostDetailedMip"))
	slices := uint64(res.ArraySlices())
	first := uintArg(r, "FirstArraySlice")
	count := uintArg(r, "ArraySize")
	if !given("ArraySize") && slices > first {
		count = slices - first
	}
	var member Value
	u := srvUnion[dim]
	switch dim {
	case 1, 11:
		raw := bitsArg(r, "Flags", 0)&1 != 0
		fe := uintArg(r, "FirstElement")
		ne := uintArg(r, "NumElements")
		if n := uint64(res.BufferElements(d3d11.Format(format), raw)); !given("NumElements") && n > fe {
			ne = n - fe
		}
		if dim == 1 {
			member = StructV(u.st, UintV(fe), UintV(ne))
		} else {
			member = StructV(u.st, UintV(fe), UintV(ne), BitmaskV(sigBufferExFlag, uint64(bitsArg(r, "Flags", 0))))
		}
	case 3, 5:
		member = StructV(u.st, most, UintV(mips), UintV(first), UintV(count))
	case 10:
		cubes := uintArg(r, "NumCubes")
		face := uintArg(r, "First2DArrayFace")
		if !given("NumCubes") && slices > face {
			cubes = (slices - face) / 6
		}
		member = StructV(u.st, most, UintV(mips), UintV(face), UintV(cubes))
	default:
		if u.st == nil {
			return Null, false // a multisampled dimension: the run refused it
		}
		member = StructV(u.st, most, UintV(mips))
	}
	return ArrayV(StructV(stSRVDesc, EnumV(sigDXGIFormat, format), EnumV(sigSRVDim, dim), StructV(u.union, member))), true
}

// impSRVDesc reads a shader-resource view's dimension and ranges into the
// scenario's named arguments, leaving out what the scenario's defaults
// give (the whole resource as its own kind).
func (m *importer) impSRVDesc(desc *Value, res *object, vals map[string]string) error {
	_, dim, err := m.scenarioEnumArg(m.member(desc, "ViewDimension"), sigSRVDim, "SRVDimension", "ViewDimension")
	if err != nil {
		return err
	}
	u, ok := srvUnion[dim]
	if !ok {
		return skip("ViewDimension %d: the simulated resources have one sample", dim)
	}
	body, err := m.unionMember(desc, u.member)
	if err != nil {
		return err
	}
	// A 2D view of a 2D texture of one slice, every level: the
	// default, written as the Format alone (as before this breadth).
	if n, _ := m.uintMember(body, "MostDetailedMip"); dim == 4 && n == 0 && res.slices <= 1 && res.typ == "texture" {
		if l, _ := m.uintMember(body, "MipLevels"); uint32(l) == 0xFFFFFFFF || l == uint64(max(res.mips, 1)) {
			return nil
		}
	}
	name, err := scenarioEnum("SRVDimension", dim, u.member)
	if err != nil {
		return err
	}
	vals["ViewDimension"] = name
	for _, f := range u.st.Members {
		v := m.member(body, f)
		if v == nil {
			continue
		}
		if f == "Flags" {
			s, n, err := m.scenarioFlagsArg(v, sigBufferExFlag, "BufferExFlags", "Flags")
			if err != nil {
				return err
			}
			if n != 0 {
				vals["Flags"] = s
			}
			continue
		}
		n, ok := valInt(v)
		if !ok {
			return skip("%s.%s is not an integer", u.member, f)
		}
		if f == "MipLevels" {
			if uint32(n) == 0xFFFFFFFF {
				continue
			}
			vals[f] = fmt.Sprint(int32(uint32(n)))
			continue
		}
		vals[f] = fmt.Sprint(n)
	}
	return nil
}
