package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Render-target and depth-stencil views of any subresource: the view's
// first slice is a surface at an offset in the resource's allocation (its
// mip's width, height and row pitch, as isa.Subresources lays the texture
// out), and the view's further slices -- an array's, a 3D mip's depth
// slices -- lie slicePitch bytes apart. SET_RT, SET_RT_SLOT and SET_DS name
// the first slice, SET_RT_LAYERS all of them (layered rendering); a clear
// clears each slice the view holds and nothing else.

// targetView is where a render-target or depth-stencil view's pixels lie.
type targetView struct {
	offset, w, h, pitch uint32 // the first slice's surface: w in texels (a multisampled target's samples side by side)
	slices, slicePitch  uint32
}

// targetOf lays out a view of r (the runtime has checked and resolved the
// description).
func targetOf(a *ddi.CreateViewArgs, r *resource, fm isa.Format) (*targetView, error) {
	d := &a.Target
	bad := func() (*targetView, error) {
		return nil, hresult.Errorf(hresult.E_INVALIDARG, "umd: %s of dimension %d, mip %d, slices %d+%d, depth slices %d+%d, elements %d+%d does not fit its resource",
			viewDDI[a.Kind], d.Dimension, d.MipSlice, d.FirstArraySlice, d.ArraySize, d.FirstWSlice, d.WSize, d.FirstElement, d.NumElements)
	}
	if r.args.Dimension == ddi.DimBuffer {
		bpp := uint32(fm.Info().Bytes)
		if d.Dimension != ddi.RTVDimBuffer || bpp == 0 || d.NumElements == 0 || uint64(d.FirstElement+d.NumElements)*uint64(bpp) > r.size ||
			d.FirstElement+d.NumElements < d.FirstElement {
			return bad()
		}
		return &targetView{offset: d.FirstElement * bpp, w: d.NumElements, h: 1, pitch: d.NumElements * bpp, slices: 1}, nil
	}
	if r.tex == nil {
		if d.MipSlice != 0 || d.FirstArraySlice != 0 || d.Slices() != 1 || d.FirstWSlice != 0 {
			return bad()
		}
		return &targetView{w: r.texels(), h: r.args.Height, pitch: r.pitch, slices: 1}, nil
	}
	t := r.tex
	n := d.Slices()
	first, sub := uint32(0), d.MipSlice
	switch d.Dimension {
	case ddi.RTVDimTexture1DArray, ddi.RTVDimTexture2DArray, ddi.RTVDimTexture2DMSArray:
		first = d.FirstArraySlice
		sub += first * t.mips
	case ddi.RTVDimTexture3D:
		first = d.FirstWSlice
	}
	s, ok := r.subresourceAt(sub)
	switch {
	case !ok || d.MipSlice >= t.mips:
		return bad()
	case d.Dimension == ddi.RTVDimTexture3D && uint64(first)+uint64(n) > uint64(s.D):
		return bad()
	case d.Dimension != ddi.RTVDimTexture3D && uint64(first)+uint64(n) > uint64(t.slices):
		return bad()
	}
	v := &targetView{offset: uint32(s.Offset), w: s.W, h: s.H, pitch: s.RowPitch, slices: n}
	switch {
	case d.Dimension == ddi.RTVDimTexture3D:
		v.offset += first * s.DepthPitch
		v.slicePitch = s.DepthPitch
	case n > 1:
		next, _ := r.subresourceAt(sub + t.mips)
		v.slicePitch = uint32(next.Offset - s.Offset)
	}
	return v, nil
}

// layerAt is the offset of slice i of the view.
func (t *targetView) layerAt(i uint32) uint32 { return t.offset + i*t.slicePitch }

// bindTarget sends a render target's (slot 0..7) or the depth-stencil
// view's (slot isa.DSLayers) surface: SET_RT, SET_RT_SLOT or SET_DS for one
// slice, SET_RT_LAYERS for several.
func (c *context) bindTarget(rec recorder, slot uint32, v *view, r *resource) {
	t, b := v.target, &c.cmd
	if t == nil {
		t = &targetView{w: r.texels(), h: r.args.Height, pitch: r.pitch, slices: 1}
	}
	addr := rec.ref(r, true, t.offset)
	switch {
	case t.slices > 1:
		b.SetRTLayers(slot, addr, t.w, t.h, t.pitch, v.gpu, t.slices, t.slicePitch)
	case slot == isa.DSLayers:
		b.SetDS(addr, t.w, t.h, t.pitch, v.gpu)
	case slot == 0:
		b.SetRT(addr, t.w, t.h, t.pitch, v.gpu)
	default:
		b.SetRTSlot(slot, addr, t.w, t.h, t.pitch, v.gpu)
	}
}

// targetSlices calls clear once for each slice of a view: its address, and
// its surface.
func (c *context) targetSlices(rec recorder, v *view, r *resource, clear func(addr uint64, t *targetView)) {
	t := v.target
	if t == nil {
		t = &targetView{w: r.texels(), h: r.args.Height, pitch: r.pitch, slices: 1}
	}
	for i := range t.slices {
		rec.ensure(16, 2)
		clear(rec.ref(r, true, t.layerAt(i)), t)
	}
}

// layerWords is what SET_RT_LAYERS takes beyond the SET_RT, SET_RT_SLOT or
// SET_DS its views would have had (extraWords).
func (c *context) layerWords(st *state) int {
	n := 0
	o := c.dev
	o.mu.Lock()
	defer o.mu.Unlock()
	layered := func(h uint32) {
		if v := o.views[h]; h != 0 && v != nil && v.target != nil && v.target.slices > 1 {
			n += 3
		}
	}
	for _, h := range st.rtv {
		layered(uint32(h))
	}
	layered(uint32(st.dsv))
	return n
}
