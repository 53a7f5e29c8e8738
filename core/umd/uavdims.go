package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// A texture's unordered access view: one mip level of a 1D or 2D texture,
// of a range of an array's slices, or of a range of a 3D mip's depth
// slices. The slices of one mip level lie slicePitch bytes apart (a 3D
// mip's DepthPitch; an array's distance from one slice's subresource to
// the next's), so the view is the bytes from its first slice's to the end
// of its last; SET_UAV_SLICES tells the GPU the count and the distance.

var uavKinds = map[ddi.UAVDimension]uint32{
	ddi.UAVDimTexture1D: isa.ViewTex1D, ddi.UAVDimTexture1DArray: isa.ViewTex1DArray, ddi.UAVDimTexture2D: isa.ViewTex2D,
	ddi.UAVDimTexture2DArray: isa.ViewTex2DArray, ddi.UAVDimTexture3D: isa.ViewTex3D,
}

// textureUAV lays out u, a view of r (validated by the runtime).
func textureUAV(u *uavView, r *resource, fm isa.Format, desc *ddi.UAVDesc) error {
	kind, ok := uavKinds[desc.Dimension]
	if !ok {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: a UAV of dimension %d", desc.Dimension)
	}
	var mips, slices uint32 = 1, 1
	if r.tex != nil {
		mips, slices = r.tex.mips, r.tex.slices
	}
	first, n := uint32(0), uint32(1)
	switch kind {
	case isa.ViewTex1DArray, isa.ViewTex2DArray:
		first, n = desc.FirstArraySlice, desc.ArraySize
	case isa.ViewTex3D:
		first, n = desc.FirstWSlice, desc.WSize
	}
	sub := desc.MipSlice
	if kind != isa.ViewTex3D {
		sub += first * mips
	}
	s, ok := r.subresourceAt(sub)
	if !ok || desc.MipSlice >= mips || n == 0 || (kind != isa.ViewTex3D && first+n > slices) || (kind == isa.ViewTex3D && first+n > s.D) {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: UAV of mip %d, slices %d+%d of a texture of %d levels and %d slices", desc.MipSlice, first, n, mips, slices)
	}
	u.kind, u.fm = kind, fm
	u.stride = uint32(fm.Info().Bytes)
	u.offset, u.elements, u.height, u.pitch, u.depth = uint32(s.Offset), s.W, s.H, s.RowPitch, n
	switch {
	case kind == isa.ViewTex3D:
		u.offset += first * s.DepthPitch
		u.slicePitch = s.DepthPitch
	case n > 1:
		next, _ := r.subresourceAt(sub + mips)
		u.slicePitch = uint32(next.Offset - s.Offset)
	}
	u.bytes = u.slicePitch*(n-1) + s.RowPitch*(s.H-1) + uint32(fm.RowBytes(s.W))
	return nil
}

// sendSlices follows a view's SET_UAV with its SET_UAV_SLICES when it has
// more than one slice.
func (c *context) sendSlices(stageSlot uint32, u *uavView) {
	if u.depth > 1 {
		c.cmd.SetUAVSlices(stageSlot, u.depth, u.slicePitch)
	}
}
