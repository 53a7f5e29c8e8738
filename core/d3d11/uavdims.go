package d3d11

import "d3dsim/core/ddi"

// The texture views of D3D11_UNORDERED_ACCESS_VIEW_DESC: one mip slice of
// a Texture1D (TEXTURE1D), a range of a 1D array's slices
// (TEXTURE1DARRAY: FirstArraySlice, ArraySize), of a Texture2D
// (TEXTURE2D) or of a 2D array's slices (TEXTURE2DARRAY), and a range of a
// Texture3D mip's depth slices (TEXTURE3D: FirstWSlice, WSize, -1 for all
// from FirstWSlice). A non-array dimension views a resource of one slice.

const (
	UAVDimTexture1D      = ddi.UAVDimTexture1D
	UAVDimTexture1DArray = ddi.UAVDimTexture1DArray
	UAVDimTexture2DArray = ddi.UAVDimTexture2DArray
	UAVDimTexture3D      = ddi.UAVDimTexture3D
	UAVAllSlices         = ddi.AllSlices
)

// checkUAVTexture checks a texture's view dimension, mip slice and slice
// range, naming the field.
func (d *Device) checkUAVTexture(api, name string, res *Resource, u *ddi.UAVDesc) error {
	want := map[ddi.ResourceDimension][]ddi.UAVDimension{
		ddi.DimTexture1D: {ddi.UAVDimTexture1D, ddi.UAVDimTexture1DArray},
		ddi.DimTexture2D: {ddi.UAVDimTexture2D, ddi.UAVDimTexture2DArray},
		ddi.DimTexture3D: {ddi.UAVDimTexture3D},
	}[res.Desc.Dimension]
	ok := false
	for _, w := range want {
		ok = ok || w == u.Dimension
	}
	slices := max(res.Desc.ArraySize, 1)
	switch {
	case !ok:
		return d.invalid(api, name, "ViewDimension %d: a view of %s is %s", u.Dimension, res.name, uavDimNames(want))
	case u.MipSlice >= max(res.Desc.MipLevels, 1):
		return d.invalid(api, name, "MipSlice %d: %s has %d mip levels", u.MipSlice, res.name, max(res.Desc.MipLevels, 1))
	}
	switch u.Dimension {
	case ddi.UAVDimTexture1D, ddi.UAVDimTexture2D:
		if slices > 1 {
			return d.invalid(api, name, "ViewDimension %s of %s, an array of %d slices: its views are %sARRAY", enumName("UAVDimension", uint32(u.Dimension)), res.name, slices, enumName("UAVDimension", uint32(u.Dimension)))
		}
		if u.FirstArraySlice != 0 || u.ArraySize != 0 || u.FirstWSlice != 0 || u.WSize != 0 {
			return d.invalid(api, name, "FirstArraySlice, ArraySize, FirstWSlice and WSize are an array or 3D view's")
		}
	case ddi.UAVDimTexture1DArray, ddi.UAVDimTexture2DArray:
		if u.ArraySize == 0 || uint64(u.FirstArraySlice)+uint64(u.ArraySize) > uint64(slices) {
			return d.invalid(api, name, "FirstArraySlice %d, ArraySize %d: %s has %d array slices", u.FirstArraySlice, u.ArraySize, res.name, slices)
		}
		if u.FirstWSlice != 0 || u.WSize != 0 {
			return d.invalid(api, name, "FirstWSlice and WSize are a Texture3D view's")
		}
	case ddi.UAVDimTexture3D:
		depth := max(res.Desc.Depth>>u.MipSlice, 1)
		if u.WSize == ddi.AllSlices && u.FirstWSlice < depth {
			u.WSize = depth - u.FirstWSlice
		}
		if u.WSize == 0 || uint64(u.FirstWSlice)+uint64(u.WSize) > uint64(depth) {
			return d.invalid(api, name, "FirstWSlice %d, WSize %d: mip %d of %s has %d depth slices", u.FirstWSlice, int32(u.WSize), u.MipSlice, res.name, depth)
		}
		if u.FirstArraySlice != 0 || u.ArraySize != 0 {
			return d.invalid(api, name, "FirstArraySlice and ArraySize are an array view's")
		}
	}
	return nil
}

func uavDimNames(ds []ddi.UAVDimension) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += " or "
		}
		s += "D3D11_UAV_DIMENSION_" + enumName("UAVDimension", uint32(d))
	}
	if s == "" {
		s = "a buffer's or a texture's"
	}
	return s
}

// UAVDesc is D3D11_UNORDERED_ACCESS_VIEW_DESC beyond its format.
type UAVDesc = ddi.UAVDesc
