package apitrace

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// Multisampling: CreateTexture2D's DXGI_SAMPLE_DESC both ways,
// CheckMultisampleQualityLevels and ResolveSubresource with d3d11.h's
// signatures. CheckMultisampleQualityLevels is exported and not imported:
// a query with no effect on the simulation, which `apitrace dump` leaves
// out (CALL_FLAG_VERBOSE), so that a dump and its capture import alike.

var (
	fnCheckMSQuality = method("ID3D11Device", "CheckMultisampleQualityLevels", "Format", "SampleCount", "pNumQualityLevels")
	fnResolve        = method("ID3D11DeviceContext", "ResolveSubresource", "pDstResource", "DstSubresource", "pSrcResource", "SrcSubresource", "Format")
)

func msaaRows() []*row {
	return []*row{
		custom(dev, "CheckMultisampleQualityLevels", "device", "CheckMultisampleQualityLevels", fnCheckMSQuality, expCheckMSQuality, nil),
		simple(ctx, "ResolveSubresource", "context", "ResolveSubresource", false, o("pDstResource", "DST"), u("DstSubresource", "DSTSUB"),
			o("pSrcResource", "SRC"), u("SrcSubresource", "SRCSUB"), en("Format", "FORMAT", sigDXGIFormat, 0)),
	}
}

// sampleDescV is a CreateTexture2D statement's DXGI_SAMPLE_DESC (Count 1,
// Quality 0 when it gives none).
func sampleDescV(r *scenario.CallRecord) Value {
	n, q := uint64(1), uint64(0)
	if a := r.Arg("SampleCount"); a != nil && a.Given {
		n = uint64(a.Num)
	}
	if a := r.Arg("SampleQuality"); a != nil && a.Given {
		q = uint64(a.Num)
	}
	return StructV(stSampleDesc, UintV(n), EnumV(sigQuality, int64(q)))
}

// sampleDesc reads a D3D11_TEXTURE2D_DESC's SampleDesc into the
// statement's SampleCount and SampleQuality (left out at one sample).
func (m *importer) sampleDesc(desc *Value, vals map[string]string) {
	sd := m.member(desc, "SampleDesc")
	if n, err := m.uintMember(sd, "Count"); err == nil && n != 1 {
		vals["SampleCount"] = fmtU(n)
	}
	if q, _, ok := enumOf(m.member(sd, "Quality"), sigQuality); ok && q != 0 {
		vals["SampleQuality"] = fmtU(uint64(uint32(q))) // (DXGI_STANDARD_MULTISAMPLE_QUALITY_PATTERN: an enum's value)
	}
}

func expCheckMSQuality(e *Exporter, th uint64, r *scenario.CallRecord) {
	e.write(th, fnCheckMSQuality, []Arg{e.this(r), {1, EnumV(sigDXGIFormat, int64(bitsArg(r, "FORMAT", 0)))}, {2, UintV(uintArg(r, "COUNT"))}},
		nil, hr(r), 0)
}

var (
	stTex2DMSRTV = structSig("D3D11_TEX2DMS_RTV", "UnusedField_NothingToDefine")
	stTex2DMSDSV = structSig("D3D11_TEX2DMS_DSV", "UnusedField_NothingToDefine")
	// The unions' member for the dimension (apitrace writes the member the
	// dimension selects).
	stRTVUnionMS = structSig("", "Texture2DMS")
	stDSVUnionMS = structSig("", "Texture2DMS")
)

// msViewDesc is the description of a render-target or depth-stencil view
// of a multisampled texture: D3D11_RTV_DIMENSION_TEXTURE2DMS (6) or
// D3D11_DSV_DIMENSION_TEXTURE2DMS (5); ok false for any other view.
func msViewDesc(typ string, res *d3d11.Resource, format int64, flags uint64) (Value, bool) {
	if res == nil || res.Desc.SampleCount <= 1 {
		return Null, false
	}
	switch typ {
	case "rtv":
		return ArrayV(StructV(stRTVDesc, EnumV(sigDXGIFormat, format), EnumV(sigRTVDim, 6), StructV(stRTVUnionMS, StructV(stTex2DMSRTV, UintV(0))))), true
	case "dsv":
		return ArrayV(StructV(stDSVDesc, EnumV(sigDXGIFormat, format), EnumV(sigDSVDim, 5), BitmaskV(sigDSVFlag, flags), StructV(stDSVUnionMS, StructV(stTex2DMSDSV, UintV(0))))), true
	}
	return Null, false
}
