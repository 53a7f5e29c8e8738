package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
)

// Render-target and depth-stencil views of any subresource
// ("D3D11_RENDER_TARGET_VIEW_DESC structure", "D3D11_DEPTH_STENCIL_VIEW_DESC
// structure"): a mip slice of a 1D, 2D or 3D texture, a range of an array's
// slices, a range of a 3D mip's depth slices, a buffer's elements. The
// runtime checks the description against the resource as the reference
// pages and the debug layer do (a dimension the resource does not have, a
// mip past MipLevels, a slice range past ArraySize or the mip's depth, a
// field of another dimension: E_INVALIDARG naming the field) and resolves
// it, so the driver sees the view's shape: a NULL description (UNKNOWN) is
// the whole of mip 0, every slice; WSize -1 every depth slice from
// FirstWSlice.

// TargetDesc is a render-target or depth-stencil view's description beyond
// its format and flags (ddi.TargetDesc).
type TargetDesc = ddi.TargetDesc

// RTVDimension and DSVDimension are D3D11_RTV_DIMENSION and
// D3D11_DSV_DIMENSION.
type (
	RTVDimension = ddi.RTVDimension
	DSVDimension = ddi.DSVDimension
)

const (
	RTVDimTexture1DArray   = ddi.RTVDimTexture1DArray
	RTVDimTexture2DArray   = ddi.RTVDimTexture2DArray
	RTVDimTexture2DMSArray = ddi.RTVDimTexture2DMSArray
	RTVDimTexture3D        = ddi.RTVDimTexture3D
)

// targetDims are the view dimensions of each kind of resource, one sample
// and multisampled.
func targetDims(kind ddi.ViewKind, res *Resource) []ddi.RTVDimension {
	switch {
	case res.Kind == KindBuffer:
		return []ddi.RTVDimension{ddi.RTVDimBuffer}
	case res.Desc.Dimension == ddi.DimTexture1D:
		return []ddi.RTVDimension{ddi.RTVDimTexture1D, ddi.RTVDimTexture1DArray}
	case res.Desc.Dimension == ddi.DimTexture3D:
		if kind == ddi.ViewDSV {
			return nil // no TEXTURE3D in D3D11_DSV_DIMENSION
		}
		return []ddi.RTVDimension{ddi.RTVDimTexture3D}
	case res.samples() > 1:
		return []ddi.RTVDimension{ddi.RTVDimTexture2DMS, ddi.RTVDimTexture2DMSArray}
	}
	return []ddi.RTVDimension{ddi.RTVDimTexture2D, ddi.RTVDimTexture2DArray}
}

// targetDimName names a view dimension as the view's own enumeration does.
func targetDimName(kind ddi.ViewKind, d ddi.RTVDimension) string {
	if kind == ddi.ViewDSV {
		if d == ddi.RTVDimUnknown || d == ddi.RTVDimBuffer || d > ddi.RTVDimTexture2DMSArray {
			return "D3D11_DSV_DIMENSION_" + enumNameOr("DSVDimension", uint32(d))
		}
		return "D3D11_DSV_DIMENSION_" + enumNameOr("DSVDimension", uint32(d)-1)
	}
	return "D3D11_RTV_DIMENSION_" + enumNameOr("RTVDimension", uint32(d))
}

// checkTargetDesc checks and resolves a render-target or depth-stencil
// view's Target; any other view's must be empty.
func (d *Device) checkTargetDesc(api, name string, kind ddi.ViewKind, res *Resource, desc *ViewDesc) error {
	t := &desc.Target
	if kind != ddi.ViewRTV && kind != ddi.ViewDSV {
		if *t != (ddi.TargetDesc{}) {
			return d.invalid(api, name, "the view description is a render target or depth stencil view's")
		}
		return nil
	}
	if kind == ddi.ViewDSV && t.Dimension != ddi.RTVDimUnknown {
		dsv := ddi.DSVDimension(t.Dimension)
		if t.Dimension = dsv.RTV(); t.Dimension == ddi.RTVDimUnknown {
			return d.invalid(api, name, "ViewDimension %d is not a D3D11_DSV_DIMENSION", uint32(dsv))
		}
	}
	want := targetDims(kind, res)
	slices := res.ArraySlices()
	if t.Dimension == ddi.RTVDimUnknown {
		// A NULL description: mip 0 of the resource as its own kind,
		// every slice.
		if res.Kind == KindBuffer {
			return d.invalid(api, name, "ViewDimension: a render target view of buffer %s names BUFFER and its elements", res.name)
		}
		if len(want) == 0 {
			return d.invalid(api, name, "%s is a Texture3D: a depth stencil view is of a 1D or 2D texture", res.name)
		}
		if *t != (ddi.TargetDesc{}) {
			return d.invalid(api, name, "ViewDimension: a view with MipSlice, slices or elements names its dimension")
		}
		t.Dimension = want[0]
		switch {
		case res.Desc.Dimension == ddi.DimTexture3D:
			t.WSize = ddi.AllSlices
		case slices > 1:
			t.Dimension, t.ArraySize = want[1], slices
		}
	}
	ok := false
	for _, w := range want {
		ok = ok || w == t.Dimension
	}
	if !ok {
		s := ""
		for i, w := range want {
			if i > 0 {
				s += " or "
			}
			s += targetDimName(kind, w)
		}
		if s == "" {
			s = "none: a depth stencil view is of a 1D or 2D texture"
		}
		return d.invalid(api, name, "ViewDimension %s does not view %s: its views are %s", targetDimName(kind, t.Dimension), res.name, s)
	}
	if msg := targetRangeError(kind, res, desc); msg != "" {
		return d.invalid(api, name, "%s", msg)
	}
	return nil
}

// targetRangeError checks a view's fields against its dimension and the
// resource ("" when they fit), resolving WSize -1.
func targetRangeError(kind ddi.ViewKind, res *Resource, desc *ViewDesc) string {
	t := &desc.Target
	dim := targetDimName(kind, t.Dimension)
	slices := res.ArraySlices()
	mips := max(res.Desc.MipLevels, 1)
	var elems, array, w, mip bool // the fields the dimension has
	switch t.Dimension {
	case ddi.RTVDimBuffer:
		elems = true
	case ddi.RTVDimTexture1D, ddi.RTVDimTexture2D:
		mip = true
	case ddi.RTVDimTexture1DArray, ddi.RTVDimTexture2DArray:
		mip, array = true, true
	case ddi.RTVDimTexture2DMSArray:
		array = true
	case ddi.RTVDimTexture3D:
		mip, w = true, true
	}
	switch {
	case !elems && (t.FirstElement != 0 || t.NumElements != 0):
		return fmt.Sprintf("FirstElement, NumElements: a %s view has none (a buffer's view has them)", dim)
	case !array && (t.FirstArraySlice != 0 || t.ArraySize != 0):
		return fmt.Sprintf("FirstArraySlice, ArraySize: a %s view has none (an array's view has them)", dim)
	case !w && (t.FirstWSlice != 0 || t.WSize != 0):
		return fmt.Sprintf("FirstWSlice, WSize: a %s view has none (a Texture3D's view has them)", dim)
	case !mip && t.MipSlice != 0:
		return fmt.Sprintf("MipSlice %d: a %s view has no mip levels", t.MipSlice, dim)
	case mip && t.MipSlice >= mips:
		return fmt.Sprintf("MipSlice %d: %s has %d mip levels", t.MipSlice, res.name, mips)
	case elems:
		return targetElementsError(res, desc)
	case array && (t.ArraySize == 0 || uint64(t.FirstArraySlice)+uint64(t.ArraySize) > uint64(slices)):
		return fmt.Sprintf("FirstArraySlice %d, ArraySize %d: %s has %d array slices", t.FirstArraySlice, t.ArraySize, res.name, slices)
	case w:
		depth := max(res.Desc.Depth>>t.MipSlice, 1)
		if t.WSize == ddi.AllSlices && t.FirstWSlice < depth {
			t.WSize = depth - t.FirstWSlice
		}
		if t.WSize == 0 || uint64(t.FirstWSlice)+uint64(t.WSize) > uint64(depth) {
			return fmt.Sprintf("FirstWSlice %d, WSize %d: mip %d of %s has %d depth slices", t.FirstWSlice, int32(t.WSize), t.MipSlice, res.name, depth)
		}
	}
	return ""
}

// targetElementsError checks a buffer render-target view: a typed format
// that renders, and elements of it inside the buffer.
func targetElementsError(res *Resource, desc *ViewDesc) string {
	t := &desc.Target
	f := desc.Format
	fd := ddi.Describe(f)
	if f == ddi.FormatUnknown || fd.Typeless || fd.Bytes == 0 || (ddi.Required(f)|ddi.Optional(f))&ddi.SupportRenderTarget == 0 {
		return fmt.Sprintf("Format: a buffer's render target view names a typed format that renders, not %s", formatName(f))
	}
	elem := uint32(fd.Bytes)
	if n := res.Desc.Width / elem; t.NumElements == 0 || uint64(t.FirstElement)+uint64(t.NumElements) > uint64(n) {
		return fmt.Sprintf("FirstElement %d, NumElements %d: %s holds %d elements of %d bytes", t.FirstElement, t.NumElements, res.name, n, elem)
	}
	return ""
}

// TargetSize is the width and height of a render-target or depth-stencil
// view's mip (a buffer view's elements by 1): the size the output merger
// renders at.
func (v *View) TargetSize() (w, h uint32) {
	t := &v.Target
	if t.Dimension == ddi.RTVDimBuffer {
		return t.NumElements, 1
	}
	r := v.Res
	return max(r.Desc.Width>>t.MipSlice, 1), max(max(r.Desc.Height, 1)>>t.MipSlice, 1)
}

// subresources is the mip levels and array slices a view reaches (a 3D
// texture's one slice; a buffer's, an unordered access view's and a whole
// resource view's: all of them).
func (v *View) subresources() (mip0, mips, slice0, slices uint32) {
	r := v.Res
	allMips, allSlices := max(r.Desc.MipLevels, 1), r.ArraySlices()
	switch v.ViewKind {
	case ddi.ViewRTV, ddi.ViewDSV:
		t := &v.Target
		switch t.Dimension {
		case ddi.RTVDimTexture1DArray, ddi.RTVDimTexture2DArray, ddi.RTVDimTexture2DMSArray:
			return t.MipSlice, 1, t.FirstArraySlice, t.ArraySize
		case ddi.RTVDimTexture1D, ddi.RTVDimTexture2D, ddi.RTVDimTexture2DMS:
			return t.MipSlice, 1, 0, 1
		case ddi.RTVDimTexture3D:
			return t.MipSlice, 1, 0, allSlices
		}
	case ddi.ViewSRV:
		s := &v.SRV
		mip0, mips = s.MostDetailedMip, s.MipLevels
		switch s.Dimension {
		case ddi.SRVDimTexture1D, ddi.SRVDimTexture2D, ddi.SRVDimTexture3D:
			return mip0, mips, 0, 1
		case ddi.SRVDimTexture1DArray, ddi.SRVDimTexture2DArray:
			return mip0, mips, s.FirstArraySlice, s.ArraySize
		case ddi.SRVDimTextureCube:
			return mip0, mips, 0, 6
		case ddi.SRVDimTextureCubeArray:
			return mip0, mips, s.FirstArraySlice, s.ArraySize * 6
		}
	}
	return 0, allMips, 0, allSlices
}

// viewsOverlap reports whether two views reach a subresource in common
// (the output merger's hazard and its one-slot rule are per subresource).
func viewsOverlap(a, b *View) bool {
	if a.Res != b.Res {
		return false
	}
	am, an, as, ac := a.subresources()
	bm, bn, bs, bc := b.subresources()
	return am < bm+bn && bm < am+an && as < bs+bc && bs < as+ac
}

// targetSlicesError is OMSetRenderTargets' rule that the targets are "the
// same size in all dimensions (width and height, and depth for 3D or array
// size for *Array types)" ("ID3D11DeviceContext::OMSetRenderTargets"): v,
// ppRenderTargetViews[i], against the first target bound.
func targetSlicesError(i int, v, first *View) string {
	if n, m := v.Target.Slices(), first.Target.Slices(); n != m {
		return fmt.Sprintf("ppRenderTargetViews[%d] (%s) has %d slices and %s %d: the targets have one array size (or depth)", i, v.name, n, first.name, m)
	}
	return ""
}
