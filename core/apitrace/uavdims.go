package apitrace

import (
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// The texture views of D3D11_UNORDERED_ACCESS_VIEW_DESC beyond a
// Texture2D's: D3D11_TEX1D_UAV, D3D11_TEX1D_ARRAY_UAV,
// D3D11_TEX2D_ARRAY_UAV and D3D11_TEX3D_UAV.

var (
	stTex1DUAV          = structSig("D3D11_TEX1D_UAV", "MipSlice")
	stTex1DArrayUAV     = structSig("D3D11_TEX1D_ARRAY_UAV", "MipSlice", "FirstArraySlice", "ArraySize")
	stTex2DArrayUAV     = structSig("D3D11_TEX2D_ARRAY_UAV", "MipSlice", "FirstArraySlice", "ArraySize")
	stTex3DUAV          = structSig("D3D11_TEX3D_UAV", "MipSlice", "FirstWSlice", "WSize")
	stUAVTex1Union      = structSig("", "Texture1D")
	stUAVTex1ArrayUnion = structSig("", "Texture1DArray")
	stUAVTex2ArrayUnion = structSig("", "Texture2DArray")
	stUAVTex3Union      = structSig("", "Texture3D")
)

// texUAVDesc is the description of the view the statement made, when it
// is a 1D, array or 3D one (nil otherwise).
func texUAVDesc(r *scenario.CallRecord, format int64) *Value {
	if len(r.Results) == 0 {
		return nil
	}
	v, ok := r.Results[0].(*d3d11.View)
	if !ok || v == nil {
		return nil
	}
	u := v.UAV
	var body Value
	switch u.Dimension {
	case d3d11.UAVDimTexture1D:
		body = StructV(stUAVTex1Union, StructV(stTex1DUAV, UintV(uint64(u.MipSlice))))
	case d3d11.UAVDimTexture1DArray:
		body = StructV(stUAVTex1ArrayUnion, StructV(stTex1DArrayUAV, UintV(uint64(u.MipSlice)), UintV(uint64(u.FirstArraySlice)), UintV(uint64(u.ArraySize))))
	case d3d11.UAVDimTexture2DArray:
		body = StructV(stUAVTex2ArrayUnion, StructV(stTex2DArrayUAV, UintV(uint64(u.MipSlice)), UintV(uint64(u.FirstArraySlice)), UintV(uint64(u.ArraySize))))
	case d3d11.UAVDimTexture3D:
		body = StructV(stUAVTex3Union, StructV(stTex3DUAV, UintV(uint64(u.MipSlice)), UintV(uint64(u.FirstWSlice)), UintV(uint64(u.WSize))))
	default:
		return nil
	}
	d := StructV(stUAVDesc, EnumV(sigDXGIFormat, format), EnumV(sigUAVDim, int64(u.Dimension)), body)
	return &d
}

// impTexUAV reads a 1D, array or 3D view's fields into the statement's
// arguments; false for another dimension.
func impTexUAV(m *importer, desc *Value, dim string, vals map[string]string) bool {
	var member string
	var fields []string
	switch {
	case strings.HasSuffix(dim, "_TEXTURE1D"):
		member, fields = "Texture1D", []string{"MipSlice"}
	case strings.HasSuffix(dim, "_TEXTURE1DARRAY"):
		member, fields = "Texture1DArray", []string{"MipSlice", "FirstArraySlice", "ArraySize"}
	case strings.HasSuffix(dim, "_TEXTURE2DARRAY"):
		member, fields = "Texture2DArray", []string{"MipSlice", "FirstArraySlice", "ArraySize"}
	case strings.HasSuffix(dim, "_TEXTURE3D"):
		member, fields = "Texture3D", []string{"MipSlice", "FirstWSlice", "WSize"}
	default:
		return false
	}
	vals["ViewDimension"] = strings.TrimPrefix(dim, "D3D11_UAV_DIMENSION_")
	t := m.member(desc, member)
	for _, k := range fields {
		n, ok := valInt(m.member(t, k))
		switch {
		case !ok:
		case k == "WSize" && uint32(n) == 0xFFFFFFFF:
			vals[k] = "-1"
		case n != 0 || k == "ArraySize" || k == "WSize":
			vals[k] = fmtU(uint64(uint32(n)))
		}
	}
	return true
}
