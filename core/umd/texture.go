package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// Textures of more than one subresource, buffer views and full samplers:
// the resources laid out as the GPU's texture unit reads them
// (isa.Subresources: slice by slice, each slice's levels from the most
// detailed, rows packed tightly -- so D3D11CalcSubresource's order, each
// subresource packed tightly, is the allocation's bytes), the views bound
// with SET_VIEW and the samplers with SET_SAMPLER_EX. A one-level 2D
// texture, a view of it and a sampler SET_SAMPLER can say keep SET_TEX and
// SET_SAMPLER: their command buffers are what they always were.

// texLayout is a texture's subresources (nil for a one-level 2D texture).
type texLayout struct {
	kind     ddi.ResourceDimension
	w, h, d  uint32 // level 0; d a 3D texture's depth, else 1
	mips     uint32
	slices   uint32 // array slices (six per cube), 1 for a 3D texture
	subs     []isa.Subresource
	cubeable bool // TEXTURECUBE: views may see it as cubes
}

// multiSub reports whether CreateResource's arguments describe a texture
// laid out by layoutTexture.
func multiSub(a *ddi.CreateResourceArgs) bool {
	switch a.Dimension {
	case ddi.DimTexture1D, ddi.DimTexture3D:
		return true
	case ddi.DimTexture2D:
		return a.MipLevels > 1 || a.ArraySize > 1 || a.MiscFlags.Has(ddi.ResourceMiscTextureCube)
	}
	return false
}

// layoutTexture sizes a texture of several subresources (or a 1D or 3D
// one) for its allocation.
func (d *Device) layoutTexture(r *resource, a *ddi.CreateResourceArgs, info *ddi.AllocationInfo) error {
	r.format = gpuFormat(a.Format)
	if r.format == isa.FmtNone {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: format %s cannot be a texture", ddi.FormatName(a.Format))
	}
	// (A multisampled array's samples side by side, as one slice's: msaa.go.)
	t := &texLayout{kind: a.Dimension, w: a.Width * max(a.SampleCount, 1), h: max(a.Height, 1), d: 1, mips: max(a.MipLevels, 1), slices: max(a.ArraySize, 1),
		cubeable: a.MiscFlags.Has(ddi.ResourceMiscTextureCube)}
	switch a.Dimension {
	case ddi.DimTexture1D:
		t.h = 1
	case ddi.DimTexture3D:
		t.d, t.slices = max(a.Depth, 1), 1
	}
	subs, size, err := isa.Subresources(r.format, t.w, t.h, t.d, t.mips, t.slices)
	if err != nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s: %v", ddi.FormatName(a.Format), err)
	}
	t.subs = subs
	r.tex, r.size, r.pitch = t, size, subs[0].RowPitch
	info.Width, info.Height, info.Pitch, info.GPUFormat = t.w, t.h, r.pitch, uint32(r.format)
	return nil
}

// srvView is a shader-resource view that SET_VIEW binds: its kind and
// what it sees of the resource.
type srvView struct {
	kind                 uint32 // isa.View*
	fm                   isa.Format
	mipRange, sliceRange uint32 // first | count<<16 (a buffer's: first element, count)
	stride               uint32 // a structured buffer's
	samples              uint32 // a multisampled texture's samples a pixel (isa.ViewWord), else 0
}

// srvOf works out a shader-resource view's SET_VIEW, nil for a view SET_TEX
// binds (the whole of a one-level 2D texture, as before). The runtime has
// checked the description against the resource.
func srvOf(a *ddi.CreateViewArgs, r *resource, f ddi.Format) (*srvView, error) {
	s := &a.SRV
	gpu := gpuFormat(f)
	if r.args.Dimension == ddi.DimBuffer {
		v := &srvView{kind: isa.ViewBuffer, fm: gpu, mipRange: s.FirstElement, sliceRange: s.NumElements}
		switch {
		case s.Dimension == ddi.SRVDimBufferEx && s.Raw:
			v.kind, v.fm = isa.ViewRawBuffer, isa.FmtNone
		case r.args.MiscFlags.Has(ddi.ResourceMiscBufferStructured):
			v.kind, v.fm, v.stride = isa.ViewStructured, isa.FmtNone, r.args.StructureByteStride
		case gpu == isa.FmtNone:
			return nil, hresult.Errorf(hresult.E_INVALIDARG, "umd: a buffer view of format %s", ddi.FormatName(f))
		}
		return v, nil
	}
	t := r.tex
	ms := r.samples() > 1
	if t == nil && !ms && (s.Dimension == ddi.SRVDimUnknown || s.Dimension == ddi.SRVDimTexture2D) {
		return nil, nil // SET_TEX
	}
	if t == nil {
		t = &texLayout{kind: ddi.DimTexture2D, w: r.texels(), h: r.args.Height, d: 1, mips: 1, slices: 1}
	}
	dim := s.Dimension
	mip0, mips, slice0, slices := s.MostDetailedMip, s.MipLevels, s.FirstArraySlice, s.ArraySize
	if ms, ok := msViewDims[dim]; ok {
		dim, mips = ms, 1 // the samples as texels of a 2D texture or array (msaa.go)
	}
	if dim == ddi.SRVDimUnknown {
		// The whole resource as its own kind.
		mip0, mips, slice0, slices = 0, t.mips, 0, t.slices
		switch {
		case t.kind == ddi.DimTexture1D && t.slices > 1:
			dim = ddi.SRVDimTexture1DArray
		case t.kind == ddi.DimTexture1D:
			dim = ddi.SRVDimTexture1D
		case t.kind == ddi.DimTexture3D:
			dim = ddi.SRVDimTexture3D
		case t.slices > 1:
			dim = ddi.SRVDimTexture2DArray
		default:
			dim = ddi.SRVDimTexture2D
		}
	}
	if mips == ddi.AllMips {
		mips = t.mips - min(mip0, t.mips)
	}
	v := &srvView{fm: gpu}
	if ms {
		// The samples as texels, their count in the view (msaa.go).
		v.samples = r.samples()
	}
	switch dim {
	case ddi.SRVDimTexture1D, ddi.SRVDimTexture2D, ddi.SRVDimTexture3D:
		slice0, slices = 0, 1
	case ddi.SRVDimTextureCube:
		slice0, slices = 0, 6
	case ddi.SRVDimTextureCubeArray:
		slices *= 6 // First2DArrayFace, NumCubes
	}
	v.kind = map[ddi.SRVDimension]uint32{ddi.SRVDimTexture1D: isa.ViewTex1D, ddi.SRVDimTexture1DArray: isa.ViewTex1DArray,
		ddi.SRVDimTexture2D: isa.ViewTex2D, ddi.SRVDimTexture2DArray: isa.ViewTex2DArray, ddi.SRVDimTexture3D: isa.ViewTex3D,
		ddi.SRVDimTextureCube: isa.ViewTexCube, ddi.SRVDimTextureCubeArray: isa.ViewTexCubeArray}[dim]
	if v.kind == 0 || mips == 0 || mip0+mips > t.mips || slices == 0 || slice0+slices > t.slices || mips > 0xFFFF || slices > 0xFFFF {
		return nil, hresult.Errorf(hresult.E_INVALIDARG, "umd: a view of dimension %d, levels %d+%d, slices %d+%d of a resource of %d levels and %d slices",
			dim, mip0, mips, slice0, slices, t.mips, t.slices)
	}
	v.mipRange, v.sliceRange = mip0|mips<<16, slice0|slices<<16
	return v, nil
}

// setView binds a SET_VIEW shader-resource view to slot of stage.
func (c *context) setView(rec recorder, stage, slot int, v *view, r *resource) {
	s, b := v.srv, &c.cmd
	if isa.IsBuffer(s.kind) {
		b.SetViewStage(uint32(stage), uint32(slot), rec.ref(r, false, 0), s.kind, s.fm, uint32(r.size), s.stride, 0, 0, s.mipRange, s.sliceRange)
		return
	}
	t := r.tex
	if t == nil {
		t = &texLayout{w: r.texels(), h: r.args.Height, d: 1, mips: 1, slices: 1}
	}
	depth := t.slices
	if t.kind == ddi.DimTexture3D {
		depth = t.d
	}
	b.SetViewStage(uint32(stage), uint32(slot), rec.ref(r, false, 0), isa.ViewWord(s.kind, s.samples), s.fm, t.w, t.h, depth, t.mips, s.mipRange, s.sliceRange)
}

// setSampler binds a sampler: SET_SAMPLER when it says all of it (the
// point or linear filter of every stage, the four address modes it has
// for U and V, a border of 8-bit channels; and W clamped, no bias and
// every level, unless every bound view is SET_TEX's one 2D level, where
// those change nothing), else SET_SAMPLER_EX with the whole description.
func (c *context) setSampler(stage, slot int, desc *ddi.SamplerDesc, plainViews bool) {
	b := &c.cmd
	bc := desc.BorderColor
	border := unorm8(bc[0]) | unorm8(bc[1])<<8 | unorm8(bc[2])<<16 | unorm8(bc[3])<<24
	exact := true
	for _, x := range bc {
		exact = exact && float32(unorm8(x))/255 == x
	}
	old := func(m ddi.AddressMode) bool { return m >= ddi.AddressWrap && m <= ddi.AddressBorder }
	if (desc.Filter == ddi.FilterMinMagMipPoint || desc.Filter == ddi.FilterMinMagMipLinear) && old(desc.AddressU) && old(desc.AddressV) &&
		exact && (plainViews || desc.AddressW == ddi.AddressClamp && desc.MipLODBias == 0 && desc.MinLOD <= -16 && desc.MaxLOD >= 16) {
		filter := uint32(isa.FilterLinear)
		if desc.Filter == ddi.FilterMinMagMipPoint {
			filter = isa.FilterPoint
		}
		if stage == isa.StagePS {
			b.SetSampler(uint32(slot), filter, addressMode[desc.AddressU], addressMode[desc.AddressV], border)
		} else {
			b.SetSamplerStage(uint32(stage), uint32(slot), filter, addressMode[desc.AddressU], addressMode[desc.AddressV], border)
		}
		return
	}
	addr := func(m ddi.AddressMode) uint32 {
		if m == ddi.AddressMirrorOnce {
			return isa.AddrMirrorOnce
		}
		return addressMode[m]
	}
	cmp := uint32(isa.CmpNever)
	if desc.ComparisonFunc != 0 {
		cmp = cmpFunc[desc.ComparisonFunc]
	}
	maxAniso := min(max(desc.MaxAnisotropy, 1), isa.MaxAnisotropyBits)
	b.SetSamplerExStage(uint32(stage), uint32(slot), uint32(desc.Filter)&isa.FilterValidMask, addr(desc.AddressU), addr(desc.AddressV), addr(desc.AddressW),
		desc.MipLODBias, maxAniso, cmp, desc.BorderColor, desc.MinLOD, desc.MaxLOD)
}

// subresourceAt is where subresource sub of r lies: its layout (one level
// of a one-level texture or a buffer, the whole of it).
func (r *resource) subresourceAt(sub uint32) (isa.Subresource, bool) {
	if r.tex == nil {
		if sub != 0 {
			return isa.Subresource{}, false
		}
		if r.args.Dimension == ddi.DimBuffer {
			return isa.Subresource{RowPitch: uint32(r.size), DepthPitch: uint32(r.size), W: uint32(r.size), H: 1, D: 1}, true
		}
		return isa.Subresource{RowPitch: r.pitch, DepthPitch: uint32(r.size), W: r.args.Width, H: r.args.Height, D: 1}, true
	}
	if sub >= uint32(len(r.tex.subs)) {
		return isa.Subresource{}, false
	}
	return r.tex.subs[sub], true
}

// updateRegion writes data into subresource sub of r: packed from the
// subresource's start when rowPitch is 0 (on into the next subresources
// if data is longer), else the box's rows and slices (the whole
// subresource for a nil box), each rowPitch and depthPitch apart in data,
// one WRITE per run of contiguous bytes (a box of whole rows is one).
func (c *context) updateRegion(rec recorder, r *resource, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32, chunk int) {
	s, ok := r.subresourceAt(sub)
	if !ok {
		return
	}
	write := func(off uint64, p []byte) {
		if off >= r.size {
			return
		}
		p = p[:min(uint64(len(p)), r.size-off)]
		for at := 0; at < len(p); at += chunk {
			end := min(at+chunk, len(p))
			rec.ensure(4+(end-at+3)/4, 2)
			c.cmd.Write(rec.ref(r, true, uint32(off)+uint32(at)), p[at:end])
		}
	}
	if rowPitch == 0 && box == nil {
		write(s.Offset, data)
		return
	}
	bx := ddi.Box{Right: s.W, Bottom: s.H, Back: s.D}
	if box != nil {
		bx = *box
	}
	if bx.Right > s.W || bx.Bottom > s.H || bx.Back > s.D || bx.Left >= bx.Right || bx.Top >= bx.Bottom || bx.Front >= bx.Back {
		return // an empty or outside box: nothing (the runtime checked it)
	}
	fm := r.format
	if r.args.Dimension == ddi.DimBuffer {
		fm = isa.FmtNone
	}
	rowBytes := func(n uint32) uint32 {
		if fm == isa.FmtNone {
			return n
		}
		return uint32(fm.RowBytes(n))
	}
	rows := func(n uint32) uint32 {
		if fm == isa.FmtNone {
			return n
		}
		return fm.Rows(n)
	}
	// (Rows of 4x4 blocks for a compressed format: the runtime checked
	// that the box's edges are on block boundaries.)
	x0, x1 := rowBytes(bx.Left), rowBytes(bx.Right)
	y0, y1 := rows(bx.Top), rows(bx.Bottom)
	if rowPitch == 0 {
		rowPitch = x1 - x0
	}
	if depthPitch == 0 {
		depthPitch = rowPitch * (y1 - y0)
	}
	whole := x0 == 0 && x1 == s.RowPitch && rowPitch == s.RowPitch
	for z := bx.Front; z < bx.Back; z++ {
		src := uint64(z-bx.Front) * uint64(depthPitch)
		dst := s.Offset + uint64(z)*uint64(s.DepthPitch)
		if whole {
			n := uint64(y1-y0) * uint64(rowPitch)
			if src+n > uint64(len(data)) {
				return
			}
			write(dst+uint64(y0)*uint64(s.RowPitch), data[src:src+n])
			continue
		}
		for y := y0; y < y1; y++ {
			at := src + uint64(y-y0)*uint64(rowPitch)
			if at+uint64(x1-x0) > uint64(len(data)) {
				return
			}
			write(dst+uint64(y)*uint64(s.RowPitch)+uint64(x0), data[at:at+uint64(x1-x0)])
		}
	}
}

// GenerateMips is pfnGenerateMips (generatemips.go builds its draws).
func (d *immediateContext) GenerateMips(_ ddi.HDEVICE, v ddi.HSHADERRESOURCEVIEW) {
	d.busy()
	d.generateMips(d, uint32(v))
}

// GenerateMips records the draws in the command list.
func (c *deferredContext) GenerateMips(_ ddi.HDEVICE, v ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("GenerateMips") {
		c.generateMips(c, c.icHandle(uint32(v)))
	}
}
