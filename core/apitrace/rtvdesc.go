package apitrace

import (
	"fmt"

	"d3dsim/core/d3d11"
	"d3dsim/core/scenario"
)

// Render-target and depth-stencil views of any subresource both ways:
// D3D11_RENDER_TARGET_VIEW_DESC's and D3D11_DEPTH_STENCIL_VIEW_DESC's
// ViewDimension and the union member it selects (D3D11_TEX2D_ARRAY_RTV and
// the rest, d3d11.h's names), for the scenario's ViewDimension, MipSlice,
// FirstArraySlice, ArraySize, FirstWSlice, WSize, FirstElement and
// NumElements.

type targetMember struct {
	member string
	st     *StructSig
	union  *StructSig
}

func targetMembers(typ string, ms ...targetMember) map[int64]targetMember {
	out := map[int64]targetMember{}
	first := int64(1) // D3D11_DSV_DIMENSION_TEXTURE1D
	if typ == "rtv" {
		first = 0 // D3D11_RTV_DIMENSION_BUFFER is 1
	}
	for i, m := range ms {
		if m.member == "" {
			continue
		}
		m.union = structSig("", m.member)
		out[first+int64(i)] = m
	}
	return out
}

var (
	rtvUnion = targetMembers("rtv", targetMember{}, // (UNKNOWN)
		targetMember{member: "Buffer", st: structSig("D3D11_BUFFER_RTV", "FirstElement", "NumElements")},
		targetMember{member: "Texture1D", st: structSig("D3D11_TEX1D_RTV", "MipSlice")},
		targetMember{member: "Texture1DArray", st: structSig("D3D11_TEX1D_ARRAY_RTV", "MipSlice", "FirstArraySlice", "ArraySize")},
		targetMember{member: "Texture2D", st: stTex2DRTV},
		targetMember{member: "Texture2DArray", st: structSig("D3D11_TEX2D_ARRAY_RTV", "MipSlice", "FirstArraySlice", "ArraySize")},
		targetMember{member: "Texture2DMS", st: stTex2DMSRTV},
		targetMember{member: "Texture2DMSArray", st: structSig("D3D11_TEX2DMS_ARRAY_RTV", "FirstArraySlice", "ArraySize")},
		targetMember{member: "Texture3D", st: structSig("D3D11_TEX3D_RTV", "MipSlice", "FirstWSlice", "WSize")})
	dsvUnion = targetMembers("dsv",
		targetMember{member: "Texture1D", st: structSig("D3D11_TEX1D_DSV", "MipSlice")},
		targetMember{member: "Texture1DArray", st: structSig("D3D11_TEX1D_ARRAY_DSV", "MipSlice", "FirstArraySlice", "ArraySize")},
		targetMember{member: "Texture2D", st: stTex2DDSV},
		targetMember{member: "Texture2DArray", st: structSig("D3D11_TEX2D_ARRAY_DSV", "MipSlice", "FirstArraySlice", "ArraySize")},
		targetMember{member: "Texture2DMS", st: stTex2DMSDSV},
		targetMember{member: "Texture2DMSArray", st: structSig("D3D11_TEX2DMS_ARRAY_DSV", "FirstArraySlice", "ArraySize")})
)

// targetFields are the scenario's parameters of a target view's dimension
// and subresources.
var targetFields = []string{"ViewDimension", "MipSlice", "FirstArraySlice", "ArraySize", "FirstWSlice", "WSize", "FirstElement", "NumElements"}

// targetDescValue is the description of a render-target ("rtv") or
// depth-stencil ("dsv") view whose statement names its dimension or
// subresources; ok false when it names none (the description is then
// what it always was).
func targetDescValue(r *scenario.CallRecord, res *d3d11.Resource, typ string, format int64, flags uint64) (Value, bool) {
	given := func(n string) bool { a := r.Arg(n); return a != nil && a.Given }
	any := false
	for _, f := range targetFields {
		any = any || given(f)
	}
	if !any || res == nil {
		return Null, false
	}
	dim := int64(bitsArg(r, "ViewDimension", 0))
	members, sig := rtvUnion, sigRTVDim
	if typ == "dsv" {
		members, sig = dsvUnion, sigDSVDim
	}
	u, ok := members[dim]
	if !ok {
		return Null, false // UNKNOWN with fields: the run refused it
	}
	vals := map[string]uint64{}
	for _, f := range u.st.Members {
		vals[f] = uintArg(r, f)
	}
	slices := uint64(res.ArraySlices())
	if _, ok := vals["ArraySize"]; ok && !given("ArraySize") && slices > vals["FirstArraySlice"] {
		vals["ArraySize"] = slices - vals["FirstArraySlice"]
	}
	if _, ok := vals["WSize"]; ok {
		vals["WSize"] = uint64(uint32(int32(uintArg(r, "WSize"))))
		if !given("WSize") {
			vals["WSize"] = 0xFFFFFFFF
		}
	}
	var fields []Value
	for _, f := range u.st.Members {
		fields = append(fields, UintV(vals[f]))
	}
	member := StructV(u.union, StructV(u.st, fields...))
	if typ == "dsv" {
		return ArrayV(StructV(stDSVDesc, EnumV(sigDXGIFormat, format), EnumV(sig, dim), BitmaskV(sigDSVFlag, flags), member)), true
	}
	return ArrayV(StructV(stRTVDesc, EnumV(sigDXGIFormat, format), EnumV(sig, dim), member)), true
}

// impTargetDesc reads a render-target or depth-stencil view's dimension and
// subresources into the statement's named arguments, leaving them out for
// mip 0 of a 2D texture of one slice, one sample (the statement's default).
func (m *importer) impTargetDesc(desc *Value, res *object, typ string, vals map[string]string) error {
	members, sig, enum := rtvUnion, sigRTVDim, "RTVDimension"
	if typ == "dsv" {
		members, sig, enum = dsvUnion, sigDSVDim, "DSVDimension"
	}
	_, dim, err := m.scenarioEnumArg(m.member(desc, "ViewDimension"), sig, enum, "ViewDimension")
	if err != nil {
		return err
	}
	u, ok := members[dim]
	if !ok {
		return skip("ViewDimension %d is not a view of a resource", dim)
	}
	body, err := m.unionMember(desc, u.member)
	if err != nil {
		return err
	}
	got := map[string]uint64{}
	for _, f := range u.st.Members {
		if f == "UnusedField_NothingToDefine" {
			continue
		}
		v := m.member(body, f)
		if v == nil {
			continue
		}
		n, ok := valInt(v)
		if !ok {
			return skip("%s.%s is not an integer", u.member, f)
		}
		got[f] = uint64(uint32(n))
	}
	plain := (u.member == "Texture2D" || u.member == "Texture2DMS") && got["MipSlice"] == 0 && res.slices <= 1 && res.typ == "texture"
	if plain {
		return nil
	}
	name, err := scenarioEnum(enum, dim, u.member)
	if err != nil {
		return err
	}
	vals["ViewDimension"] = name
	for f, n := range got {
		switch {
		case n == 0 && (f == "MipSlice" || f == "FirstArraySlice" || f == "FirstWSlice" || f == "FirstElement"):
			continue // (the statement's default)
		case f == "WSize":
			vals[f] = fmt.Sprint(int32(uint32(n)))
		default:
			vals[f] = fmt.Sprint(n)
		}
	}
	return nil
}

// unionMember is the member of a view description's union its dimension
// selects (apitrace writes it inside the anonymous union, or beside it).
func (m *importer) unionMember(desc *Value, member string) (*Value, error) {
	body := m.member(m.member(desc, ""), member)
	if body == nil {
		body = m.member(desc, member)
	}
	if body == nil {
		return nil, skip("the view's description has no %s member", member)
	}
	return body, nil
}
