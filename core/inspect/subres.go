package inspect

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/machine"
	"d3dsim/core/scenario"
	"d3dsim/gpu/isa"
)

// watchedTexel is where texel (x, y) of what name shows lies in its
// resource's allocation (the bytes from off): a view's first subresource
// -- its mip, its first array slice, a Texture3D view's first depth
// slice -- so that a pixel history on a render-target view of slice k
// follows slice k, where a layered draw's SV_RenderTargetArrayIndex k
// writes; subresource 0 of a resource or a swap chain. The allocation
// holds the subresources as the GPU's texture unit reads them
// (isa.Subresources: D3D11CalcSubresource's order, each packed tightly).
// w and h are the subresource's size, size the texel's bytes; ok false
// when the format has no whole texels (block-compressed).
//
// sub, if not nil, names the subresource instead: level sub.Mip and array
// slice sub.Slice of the resource (a Texture3D's depth slice sub.Slice of
// the level), whatever view name is.
func watchedTexel(r *scenario.Run, name string, sub *Subresource, res *d3d11.Resource, x, y int) (off uint64, w, h, size int, ok bool) {
	d := &res.Desc
	g := machine.GPUFormat(d.Format)
	if g.Info().Block != 1 {
		return 0, 0, 0, 0, false
	}
	size = int(g.Info().Bytes)
	mips, slices := max(d.MipLevels, 1), max(d.ArraySize, 1)
	if d.Dimension == ddi.DimTexture2D && mips == 1 && slices == 1 && (sub == nil || *sub == Subresource{}) {
		// One level of one slice: the rows of the resource's width.
		return uint64(y)*g.RowBytes(d.Width) + uint64(x*size), int(d.Width), int(d.Height), size, true
	}
	mip, slice, wslice := viewFirst(r, name)
	if sub != nil {
		if sub.Mip < 0 || sub.Slice < 0 || sub.Mip >= 1<<16 || sub.Slice >= 1<<16 {
			return 0, 0, 0, 0, false
		}
		mip, slice, wslice = uint32(sub.Mip), uint32(sub.Slice), 0
		if d.Dimension == ddi.DimTexture3D {
			slice, wslice = 0, uint32(sub.Slice)
		}
	}
	tw, th, td := d.Width*max(d.SampleCount, 1), max(d.Height, 1), uint32(1)
	switch d.Dimension {
	case ddi.DimTexture1D:
		th = 1
	case ddi.DimTexture3D:
		td, slices = max(d.Depth, 1), 1
	}
	subs, _, err := isa.Subresources(g, tw, th, td, mips, slices)
	si := slice*mips + mip
	if err != nil || mip >= mips || si >= uint32(len(subs)) || wslice >= subs[si].D {
		return 0, 0, 0, 0, false
	}
	s := subs[si]
	return s.Offset + uint64(wslice)*uint64(s.DepthPitch) + uint64(y)*uint64(s.RowPitch) + uint64(x*size), int(s.W), int(s.H), size, true
}

// viewFirst is the first mip, array slice and depth slice the view name
// sees (zeros for a resource, a swap chain and a view of all of one).
func viewFirst(r *scenario.Run, name string) (mip, slice, wslice uint32) {
	v, ok := r.Object(name).(*d3d11.View)
	if !ok {
		return 0, 0, 0
	}
	switch v.ViewKind {
	case ddi.ViewRTV, ddi.ViewDSV:
		t := &v.Target
		switch t.Dimension {
		case ddi.RTVDimTexture1DArray, ddi.RTVDimTexture2DArray, ddi.RTVDimTexture2DMSArray:
			return t.MipSlice, t.FirstArraySlice, 0
		case ddi.RTVDimTexture3D:
			return t.MipSlice, 0, t.FirstWSlice
		case ddi.RTVDimBuffer:
			return 0, 0, 0
		}
		return t.MipSlice, 0, 0
	case ddi.ViewSRV:
		s := &v.SRV
		switch s.Dimension {
		case ddi.SRVDimTexture1DArray, ddi.SRVDimTexture2DArray, ddi.SRVDimTexture2DMSArray, ddi.SRVDimTextureCubeArray:
			return s.MostDetailedMip, s.FirstArraySlice, 0
		case ddi.SRVDimBuffer, ddi.SRVDimBufferEx:
			return 0, 0, 0
		}
		return s.MostDetailedMip, 0, 0
	}
	return 0, 0, 0
}
