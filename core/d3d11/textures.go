package d3d11

import (
	"fmt"
	"math"

	"d3dsim/core/ddi"
)

// Textures of more than one subresource (mip chains, arrays, cubes, 1D and
// 3D textures), buffer shader-resource views, the rest of
// D3D11_SAMPLER_DESC, UpdateSubresource of one subresource and
// GenerateMips: the runtime's checks of their descriptions ("D3D11_TEXTURE1D_DESC",
// "D3D11_TEXTURE2D_DESC", "D3D11_TEXTURE3D_DESC", "D3D11_SHADER_RESOURCE_VIEW_DESC",
// "D3D11_SAMPLER_DESC" structures), then the DDI.

const (
	KindTexture1D ResourceKind = 3
	KindTexture3D ResourceKind = 4
)

// MipLevelsFull is a descriptor's MipLevels for D3D11's 0: every level
// down to 1x1 (here 0 and 1 both mean one level, so a descriptor that does
// not name its levels has one).
const MipLevelsFull = ^uint32(0)

// AllMips is a shader-resource view's MipLevels of D3D11's -1: every level
// from MostDetailedMip.
const AllMips = ddi.AllMips

// Texture1DDesc mirrors D3D11_TEXTURE1D_DESC.
type Texture1DDesc struct {
	Width          uint32
	MipLevels      uint32 // 0 and 1: one; MipLevelsFull: the whole chain
	ArraySize      uint32 // 0 and 1: one
	Format         ddi.Format
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
}

// Texture3DDesc mirrors D3D11_TEXTURE3D_DESC.
type Texture3DDesc struct {
	Width, Height, Depth uint32
	MipLevels            uint32 // 0 and 1: one; MipLevelsFull: the whole chain
	Format               ddi.Format
	Usage                ddi.Usage
	BindFlags            ddi.BindFlag
	CPUAccessFlags       ddi.CPUAccess
	MiscFlags            ddi.ResourceMisc
}

// SRVDesc is a shader-resource view's description beyond its format.
type SRVDesc = ddi.SRVDesc

// SRVDimension is D3D11_SRV_DIMENSION.
type SRVDimension = ddi.SRVDimension

const (
	SRVDimBuffer           = ddi.SRVDimBuffer
	SRVDimTexture1D        = ddi.SRVDimTexture1D
	SRVDimTexture1DArray   = ddi.SRVDimTexture1DArray
	SRVDimTexture2D        = ddi.SRVDimTexture2D
	SRVDimTexture2DArray   = ddi.SRVDimTexture2DArray
	SRVDimTexture3D        = ddi.SRVDimTexture3D
	SRVDimTextureCube      = ddi.SRVDimTextureCube
	SRVDimTextureCubeArray = ddi.SRVDimTextureCubeArray
	SRVDimBufferEx         = ddi.SRVDimBufferEx
)

// ArraySlices is a texture's array size (six per cube), 1 for the
// others.
func (r *Resource) ArraySlices() uint32 { return max(r.Desc.ArraySize, 1) }

// BufferElements is how many elements a view of buffer r sees whole: its
// structures (a structured buffer), 32-bit words (raw), or elements of
// format f.
func (r *Resource) BufferElements(f Format, raw bool) uint32 {
	elem := uint32(4)
	switch {
	case r.Desc.MiscFlags.Has(ddi.ResourceMiscBufferStructured):
		elem = r.Desc.StructureByteStride
	case !raw:
		elem = uint32(ddi.Describe(f).Bytes)
	}
	if elem == 0 {
		return 0
	}
	return r.Desc.Width / elem
}

// Box is D3D11_BOX.
type Box = ddi.Box

// CalcSubresource is D3D11CalcSubresource.
func CalcSubresource(mipSlice, arraySlice, mipLevels uint32) uint32 {
	return ddi.CalcSubresource(mipSlice, arraySlice, mipLevels)
}

// CreateTexture1D creates a 1D texture (an array of them with ArraySize).
// Data holds every subresource in D3D11CalcSubresource order, each packed
// tightly (nil: none).
func (d *Device) CreateTexture1D(name string, desc Texture1DDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateTexture1D", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	return d.createTexture("CreateTexture1D", name, texDesc{kind: KindTexture1D, w: desc.Width, h: 1, depth: 1, mips: desc.MipLevels,
		slices: desc.ArraySize, format: desc.Format, usage: desc.Usage, bind: desc.BindFlags, cpu: desc.CPUAccessFlags, misc: desc.MiscFlags}, data, false)
}

// CreateTexture3D creates a volume texture.
func (d *Device) CreateTexture3D(name string, desc Texture3DDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateTexture3D", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	return d.createTexture("CreateTexture3D", name, texDesc{kind: KindTexture3D, w: desc.Width, h: desc.Height, depth: desc.Depth,
		mips: desc.MipLevels, slices: 1, format: desc.Format, usage: desc.Usage, bind: desc.BindFlags, cpu: desc.CPUAccessFlags, misc: desc.MiscFlags}, data, false)
}

// texDesc is what the three texture descriptors say.
type texDesc struct {
	kind         ResourceKind
	w, h, depth  uint32
	mips, slices uint32
	format       ddi.Format
	usage        ddi.Usage
	bind         ddi.BindFlag
	cpu          ddi.CPUAccess
	misc         ddi.ResourceMisc
	// samples, quality: a 2D texture's SampleDesc (msaa.go).
	samples, quality uint32
}

// maxMips is how many levels a texture of these sizes has, down to 1x1x1.
func maxMips(w, h, d uint32) uint32 {
	n := uint32(1)
	for m := max(w, h, d); m > 1; m >>= 1 {
		n++
	}
	return n
}

// mipSize is a dimension of n at level m: halved, never below 1.
func mipSize(n, m uint32) uint32 {
	if m >= 32 {
		return 1
	}
	return max(n>>m, 1)
}

// createTexture checks a texture's descriptor and creates it: one level of
// one slice of a 2D texture as it always was, the others with their
// subresources described for the driver.
func (d *Device) createTexture(call, name string, t texDesc, data []byte, primary bool) (*Resource, error) {
	limit := map[ResourceKind]uint32{KindTexture1D: 16384, KindTexture2D: 16384, KindTexture3D: 2048}[t.kind]
	switch {
	case t.w == 0 || t.h == 0 || t.depth == 0 || t.w > limit || t.h > limit || t.depth > limit:
		if t.kind == KindTexture3D {
			return nil, d.invalid(call, name, "size %dx%dx%d is outside 1..2048", t.w, t.h, t.depth)
		}
		if t.kind == KindTexture1D {
			return nil, d.invalid(call, name, "Width %d is outside 1..16384", t.w)
		}
		return nil, d.invalid(call, name, "size %dx%d is outside 1..16384", t.w, t.h)
	case t.slices > 2048:
		return nil, d.invalid(call, name, "ArraySize %d is outside 1..2048", t.slices)
	}
	t.slices = max(t.slices, 1)
	full := maxMips(t.w, t.h, t.depth)
	switch {
	case t.mips == MipLevelsFull:
		t.mips = full
	case t.mips == 0:
		t.mips = 1
	case t.mips > full:
		return nil, d.invalid(call, name, "MipLevels %d: a %dx%dx%d texture has %d levels down to 1x1", t.mips, t.w, t.h, t.depth, full)
	}
	fd := ddi.Describe(t.format)
	if ddi.Required(t.format)&ddi.SupportTexture2D == 0 {
		return nil, d.invalid(call, name, "format %s is not a supported texture format", formatName(t.format))
	}
	if fd.Block == 4 && t.kind == KindTexture1D {
		return nil, d.invalid(call, name, "a %s texture cannot be 1D: block-compressed formats are for 2D and 3D textures", formatName(t.format))
	}
	if fd.Block == 4 && (t.w%4 != 0 || t.h%4 != 0) {
		// "Texture Block Compression in Direct3D 11": the top level of a
		// block-compressed texture is whole blocks.
		return nil, d.invalid(call, name, "a %s texture's Width and Height must be multiples of 4 (the block size), not %dx%d",
			formatName(t.format), t.w, t.h)
	}
	if err := d.checkSampleDesc(call, name, &t); err != nil {
		return nil, err
	}
	if t.samples > 1 && data != nil {
		return nil, d.invalid(call, name, "pInitialData: a multisampled texture is created without data (it is rendered to)")
	}
	if msg := formatBindError(t.format, t.bind); msg != "" {
		return nil, d.invalid(call, name, "%s: %s", call, msg)
	}
	if t.bind.Has(ddi.BindVertexBuffer | ddi.BindIndexBuffer | ddi.BindConstantBuffer) {
		return nil, d.invalid(call, name, "a texture cannot be bound as a vertex, index or constant buffer")
	}
	if t.kind == KindTexture3D && t.bind.Has(ddi.BindDepthStencil) {
		return nil, d.invalid(call, name, "a 3D texture cannot be a depth stencil")
	}
	if err := d.validateUsage(call, name, t.usage, t.bind, t.cpu, data != nil); err != nil {
		return nil, err
	}
	if err := d.validateMisc(call, name, t.misc, t.usage); err != nil {
		return nil, err
	}
	if t.misc.Has(ddi.ResourceMiscBufferAllowRawViews | ddi.ResourceMiscBufferStructured) {
		return nil, d.invalid(call, name, "MiscFlags: BUFFER_ALLOW_RAW_VIEWS and BUFFER_STRUCTURED are a buffer's")
	}
	if t.misc.Has(ddi.ResourceMiscTextureCube) {
		switch {
		case t.kind != KindTexture2D:
			return nil, d.invalid(call, name, "MiscFlags: TEXTURECUBE is a 2D texture's")
		case t.slices%6 != 0:
			return nil, d.invalid(call, name, "MiscFlags: TEXTURECUBE needs ArraySize a multiple of 6 (a cube's faces), not %d", t.slices)
		case t.w != t.h:
			return nil, d.invalid(call, name, "MiscFlags: TEXTURECUBE needs square faces, not %dx%d", t.w, t.h)
		}
	}
	if t.misc.Has(ddi.ResourceMiscGenerateMips) && (!t.bind.Has(ddi.BindRenderTarget) || !t.bind.Has(ddi.BindShaderResource)) {
		return nil, d.invalid(call, name, "MiscFlags: GENERATE_MIPS needs BindFlags RENDER_TARGET and SHADER_RESOURCE")
	}
	if t.kind == KindTexture2D && t.mips == 1 && t.slices == 1 && !t.misc.Has(ddi.ResourceMiscTextureCube) {
		// One 2D level: the resource as it always was.
		size := int(ddi.RowBytes(t.format, t.w) * ddi.Rows(t.format, t.h))
		if data != nil && len(data) < size {
			padded := make([]byte, size)
			copy(padded, data)
			data = padded
		}
		args := ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: t.w, Height: t.h, Format: t.format,
			Usage: t.usage, BindFlags: t.bind, CPUAccessFlags: t.cpu, MiscFlags: t.misc, InitData: data, Primary: primary, Obj: name}
		if t.samples > 1 {
			args.SampleCount, args.SampleQuality = t.samples, t.quality
		}
		return d.createResource(name, KindTexture2D, args)
	}
	if primary {
		return nil, d.invalid(call, name, "a swap chain's buffer has one level and one slice")
	}
	size := texBytes(t)
	if data != nil && uint64(len(data)) < size {
		padded := make([]byte, size)
		copy(padded, data)
		data = padded
	}
	dim := map[ResourceKind]ddi.ResourceDimension{KindTexture1D: ddi.DimTexture1D, KindTexture2D: ddi.DimTexture2D, KindTexture3D: ddi.DimTexture3D}[t.kind]
	args := ddi.CreateResourceArgs{Dimension: dim, Width: t.w, Height: t.h, Format: t.format, Usage: t.usage, BindFlags: t.bind,
		CPUAccessFlags: t.cpu, MiscFlags: t.misc, InitData: data, Obj: name, MipLevels: t.mips, ArraySize: t.slices}
	if t.kind == KindTexture3D {
		args.Depth, args.ArraySize = t.depth, 1
	}
	if t.samples > 1 { // a multisampled array (msaa.go)
		args.SampleCount, args.SampleQuality = t.samples, t.quality
	}
	return d.createResource(name, t.kind, args)
}

// texBytes is the bytes of every subresource packed tightly.
func texBytes(t texDesc) uint64 {
	var n uint64
	for m := range t.mips {
		w, h, dd := mipSize(t.w, m), mipSize(t.h, m), mipSize(t.depth, m)
		n += uint64(ddi.RowBytes(t.format, w)) * uint64(ddi.Rows(t.format, h)) * uint64(dd)
	}
	return n * uint64(t.slices)
}

// Subresources is how many subresources a resource has (a buffer one).
func (r *Resource) Subresources() uint32 {
	return max(r.Desc.MipLevels, 1) * max(r.Desc.ArraySize, 1)
}

// SubresourceSize is the width, height and depth of subresource sub (the
// zeros for a subresource it does not have).
func (r *Resource) SubresourceSize(sub uint32) (w, h, depth uint32) {
	if sub >= r.Subresources() {
		return 0, 0, 0
	}
	if r.Kind == KindBuffer {
		return r.Desc.Width, 1, 1
	}
	m := sub % max(r.Desc.MipLevels, 1)
	return mipSize(r.Desc.Width, m), mipSize(max(r.Desc.Height, 1), m), mipSize(max(r.Desc.Depth, 1), m)
}

// bufferMiscError checks a buffer's MiscFlags and StructureByteStride.
func bufferMiscError(desc *BufferDesc) string {
	m := desc.MiscFlags
	switch {
	case m.Has(ddi.ResourceMiscTextureCube | ddi.ResourceMiscGenerateMips):
		return "MiscFlags: TEXTURECUBE and GENERATE_MIPS are a texture's"
	case m.Has(ddi.ResourceMiscBufferStructured) && m.Has(ddi.ResourceMiscBufferAllowRawViews):
		return "MiscFlags: a buffer is BUFFER_STRUCTURED or BUFFER_ALLOW_RAW_VIEWS, not both"
	case m.Has(ddi.ResourceMiscBufferStructured) && desc.BindFlags.Has(ddi.BindConstantBuffer|ddi.BindVertexBuffer|ddi.BindIndexBuffer):
		return "MiscFlags: a BUFFER_STRUCTURED buffer cannot be a vertex, index or constant buffer"
	case m.Has(ddi.ResourceMiscBufferStructured) && (desc.StructureByteStride == 0 || desc.StructureByteStride%4 != 0 || desc.StructureByteStride > 2048):
		return "StructureByteStride: a BUFFER_STRUCTURED buffer's is a multiple of 4 in 4..2048"
	case m.Has(ddi.ResourceMiscBufferStructured) && desc.ByteWidth%desc.StructureByteStride != 0:
		return "ByteWidth: a BUFFER_STRUCTURED buffer holds whole structures (a multiple of StructureByteStride)"
	case m.Has(ddi.ResourceMiscBufferAllowRawViews) && desc.ByteWidth%4 != 0:
		return "ByteWidth: a BUFFER_ALLOW_RAW_VIEWS buffer holds whole 32-bit words"
	}
	return ""
}

// checkSRVDesc checks a shader-resource view's description against its
// resource and completes it: the dimension of the resource's own kind
// when it names none, MipLevels AllMips resolved.
//
// (bufferViewElem checks the raw and structured cases for both kinds of
// buffer view, SRV and UAV.)
func (d *Device) checkSRVDesc(api, name string, res *Resource, desc *ViewDesc) error {
	s := &desc.SRV
	if res.Kind == KindBuffer {
		structured := res.Desc.MiscFlags.Has(ddi.ResourceMiscBufferStructured)
		switch s.Dimension {
		case ddi.SRVDimBuffer, ddi.SRVDimBufferEx:
		case ddi.SRVDimUnknown:
			return d.invalid(api, name, "ViewDimension: a view of buffer %s names BUFFER or BUFFEREX and its elements", res.name)
		default:
			return d.invalid(api, name, "ViewDimension %d: %s is a buffer", s.Dimension, res.name)
		}
		var elem uint32
		switch {
		case s.Raw:
			if s.Dimension != ddi.SRVDimBufferEx {
				return d.invalid(api, name, "Flags: RAW is BUFFEREX's")
			}
			var err error
			if elem, err = d.bufferViewElem(api, name, res, desc.Format, true); err != nil {
				return err
			}
		case structured:
			var err error
			if elem, err = d.bufferViewElem(api, name, res, desc.Format, false); err != nil {
				return err
			}
		default:
			if res.Desc.MiscFlags.Has(ddi.ResourceMiscBufferAllowRawViews) && desc.Format == formatR32Typeless {
				return d.invalid(api, name, "Flags: a view of R32_TYPELESS over %s is raw (BUFFEREX, RAW)", res.name)
			}
			fd := ddi.Describe(desc.Format)
			if desc.Format == ddi.FormatUnknown || fd.Typeless || fd.Block == 4 || (ddi.Required(desc.Format)|ddi.Optional(desc.Format))&ddi.SupportShaderLoad == 0 {
				return d.invalid(api, name, "Format: a typed buffer view names a typed format shaders load, not %s", formatName(desc.Format))
			}
			elem = uint32(fd.Bytes)
		}
		if s.NumElements == 0 || uint64(s.FirstElement)+uint64(s.NumElements) > uint64(res.Desc.Width/elem) {
			return d.invalid(api, name, "FirstElement %d, NumElements %d: %s holds %d elements of %d bytes", s.FirstElement, s.NumElements, res.name, res.Desc.Width/elem, elem)
		}
		return nil
	}
	if s.FirstElement != 0 || s.NumElements != 0 || s.Raw {
		return d.invalid(api, name, "FirstElement, NumElements and RAW are a buffer view's")
	}
	mips := max(res.Desc.MipLevels, 1)
	slices := max(res.Desc.ArraySize, 1)
	cube := res.Desc.MiscFlags.Has(ddi.ResourceMiscTextureCube)
	want := map[ResourceKind][]ddi.SRVDimension{
		KindTexture1D: {ddi.SRVDimTexture1D, ddi.SRVDimTexture1DArray},
		KindTexture2D: {ddi.SRVDimTexture2D, ddi.SRVDimTexture2DArray, ddi.SRVDimTextureCube, ddi.SRVDimTextureCubeArray},
		KindTexture3D: {ddi.SRVDimTexture3D},
	}[res.Kind]
	if ms, err := d.checkSRVSamples(api, name, res, s); ms || err != nil {
		return err // (msaa.go)
	}
	if s.Dimension == ddi.SRVDimUnknown {
		return nil // the whole resource as its own kind
	}
	ok := false
	for _, w := range want {
		ok = ok || w == s.Dimension
	}
	if !ok {
		return d.invalid(api, name, "ViewDimension %s does not view %s", enumName("SRVDimension", uint32(s.Dimension)), res.name)
	}
	if (s.Dimension == ddi.SRVDimTextureCube || s.Dimension == ddi.SRVDimTextureCubeArray) && !cube {
		return d.invalid(api, name, "ViewDimension %s: %s was not created with TEXTURECUBE", enumName("SRVDimension", uint32(s.Dimension)), res.name)
	}
	if s.MipLevels == AllMips {
		if s.MostDetailedMip >= mips {
			return d.invalid(api, name, "MostDetailedMip %d: %s has %d levels", s.MostDetailedMip, res.name, mips)
		}
		s.MipLevels = mips - s.MostDetailedMip
	}
	if s.MipLevels == 0 || uint64(s.MostDetailedMip)+uint64(s.MipLevels) > uint64(mips) {
		return d.invalid(api, name, "MostDetailedMip %d, MipLevels %d: %s has %d levels", s.MostDetailedMip, s.MipLevels, res.name, mips)
	}
	first, count := s.FirstArraySlice, s.ArraySize
	switch s.Dimension {
	case ddi.SRVDimTexture1D, ddi.SRVDimTexture2D, ddi.SRVDimTexture3D:
		first, count = 0, 1
		if s.FirstArraySlice != 0 || s.ArraySize > 1 {
			return d.invalid(api, name, "FirstArraySlice, ArraySize: a %s view has one slice", enumName("SRVDimension", uint32(s.Dimension)))
		}
	case ddi.SRVDimTextureCube:
		first, count = 0, 6
	case ddi.SRVDimTextureCubeArray:
		count *= 6 // First2DArrayFace, NumCubes
	}
	if count == 0 || uint64(first)+uint64(count) > uint64(slices) {
		return d.invalid(api, name, "FirstArraySlice %d, ArraySize %d: %s has %d slices", s.FirstArraySlice, s.ArraySize, res.name, slices)
	}
	return nil
}

// samplerDescError checks a D3D11_SAMPLER_DESC: Filter one of
// D3D11_FILTER's values, the address modes D3D11_TEXTURE_ADDRESS_MODE's,
// MaxAnisotropy 1..16 for an anisotropic filter, a comparison filter's
// function a D3D11_COMPARISON_FUNC, MipLODBias within [-16, 15.99],
// MinLOD <= MaxLOD, no NaN.
func samplerDescError(d *ddi.SamplerDesc) string {
	if enumName("Filter", uint32(d.Filter)) == "" {
		return "Filter " + hex(uint32(d.Filter)) + " is not a D3D11_FILTER value this device has"
	}
	for _, a := range []struct {
		name string
		v    ddi.AddressMode
	}{{"AddressU", d.AddressU}, {"AddressV", d.AddressV}, {"AddressW", d.AddressW}} {
		if enumName("Address", uint32(a.v)) == "" {
			return a.name + " " + hex(uint32(a.v)) + " is not a D3D11_TEXTURE_ADDRESS_MODE value"
		}
	}
	if d.Filter&0x40 != 0 && (d.MaxAnisotropy < 1 || d.MaxAnisotropy > 16) {
		return "MaxAnisotropy " + hex(d.MaxAnisotropy) + " is outside 1..16"
	}
	if d.Filter&ddi.FilterComparisonBit != 0 && enumName("Comparison", uint32(d.ComparisonFunc)) == "" {
		return "ComparisonFunc " + hex(uint32(d.ComparisonFunc)) + " is not a D3D11_COMPARISON_FUNC value"
	}
	for _, f := range []float32{d.MipLODBias, d.MinLOD, d.MaxLOD, d.BorderColor[0], d.BorderColor[1], d.BorderColor[2], d.BorderColor[3]} {
		if math.IsNaN(float64(f)) {
			return "a NaN in the sampler's MipLODBias, MinLOD, MaxLOD or BorderColor"
		}
	}
	if d.MipLODBias < -16 || d.MipLODBias > 15.99 {
		return "MipLODBias is outside -16..15.99"
	}
	if d.MinLOD > d.MaxLOD {
		return "MinLOD is above MaxLOD"
	}
	return ""
}

func hex(v uint32) string { return fmt.Sprintf("%#x", v) }

// UpdateSubresourceRegion is UpdateSubresource of one subresource:
// subresource sub of dst (D3D11CalcSubresource's number), within box (nil:
// all of it), from data whose rows are rowPitch and 2D slices depthPitch
// bytes apart (0: packed tightly).
func (c *DeviceContext) UpdateSubresourceRegion(dst *Resource, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32) error {
	if stop, err := c.checkArgs("UpdateSubresource", dst); stop {
		return err
	}
	if err := c.checkRegion(dst, sub, box, data, rowPitch, depthPitch); err != nil {
		c.api("UpdateSubresource", objName(dst)).end(err)
		return err
	}
	return c.contextKind.(subresourceCalls).updateRegion(dst, sub, box, data, rowPitch, depthPitch)
}

// subresourceCalls are UpdateSubresourceRegion's and GenerateMips's part
// in each kind of context.
type subresourceCalls interface {
	updateRegion(dst *Resource, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32) error
	generateMips(v *View) error
}

var (
	_ subresourceCalls = driverContext{}
	_ subresourceCalls = (*emulatedContext)(nil)
)

func (c driverContext) updateRegion(dst *Resource, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32) error {
	done := c.api("UpdateSubresource", objName(dst))
	if err := c.checkAll("UpdateSubresource", dst); err != nil {
		done.end(err)
		return err
	}
	if dst.Desc.Usage != ddi.UsageDefault {
		err := c.dev.invalid("UpdateSubresource", dst.name, "only DEFAULT resources can be updated with UpdateSubresource")
		done.end(err)
		return err
	}
	hd := c.resH(dst)
	c.ddi.on(dst.name, handleName(uint32(hd))).ResourceUpdateSubresourceUP(c.h, hd, sub, box, data, rowPitch, depthPitch)
	c.afterDDI()
	done.end(nil)
	return nil
}

func (c *emulatedContext) updateRegion(dst *Resource, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32) error {
	data = append([]byte(nil), data...)
	var b *Box
	if box != nil {
		bx := *box
		b = &bx
	}
	return c.record("UpdateSubresource", func(ic *DeviceContext) error {
		return ic.UpdateSubresourceRegion(dst, sub, b, data, rowPitch, depthPitch)
	}, dst)
}

// checkRegion checks UpdateSubresource's subresource, box and data.
func (c *DeviceContext) checkRegion(dst *Resource, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32) error {
	w, h, dd := dst.SubresourceSize(sub)
	if w == 0 {
		return c.dev.invalid("UpdateSubresource", dst.name, "DstSubresource %d: %s has %d subresources", sub, dst.name, dst.Subresources())
	}
	bx := Box{Right: w, Bottom: h, Back: dd}
	if box != nil {
		bx = *box
	}
	if bx.Left >= bx.Right || bx.Top >= bx.Bottom || bx.Front >= bx.Back || bx.Right > w || bx.Bottom > h || bx.Back > dd {
		return c.dev.invalid("UpdateSubresource", dst.name, "pDstBox (%d,%d,%d)-(%d,%d,%d) is empty or outside subresource %d (%dx%dx%d)",
			bx.Left, bx.Top, bx.Front, bx.Right, bx.Bottom, bx.Back, sub, w, h, dd)
	}
	f := dst.Desc.Format
	if dst.Kind == KindBuffer {
		return nil
	}
	if ddi.Describe(f).Block == 4 && (bx.Left%4 != 0 || bx.Top%4 != 0 || bx.Right%4 != 0 && bx.Right != w || bx.Bottom%4 != 0 && bx.Bottom != h) {
		return c.dev.invalid("UpdateSubresource", dst.name, "pDstBox: a %s box's edges are on 4x4 blocks", formatName(f))
	}
	row := ddi.RowBytes(f, bx.Right-bx.Left)
	if rowPitch == 0 {
		rowPitch = row
	}
	rows := ddi.Rows(f, bx.Bottom-bx.Top)
	if depthPitch == 0 {
		depthPitch = rowPitch * rows
	}
	if rowPitch < row || depthPitch < rowPitch*rows {
		return c.dev.invalid("UpdateSubresource", dst.name, "SrcRowPitch %d, SrcDepthPitch %d are below a row's %d bytes and a slice's", rowPitch, depthPitch, row)
	}
	need := uint64(depthPitch)*uint64(bx.Back-bx.Front-1) + uint64(rowPitch)*uint64(rows-1) + uint64(row)
	if uint64(len(data)) < need {
		return c.dev.invalid("UpdateSubresource", dst.name, "pSrcData has %d bytes, the box needs %d", len(data), need)
	}
	return nil
}

// GenerateMips fills every level of the view below its most detailed one
// from the one above, filtering 2x2 texels into one (a box filter, as the
// driver's linear sampling of the level above halfway between its
// texels). The view's resource was created with GENERATE_MIPS.
func (c *DeviceContext) GenerateMips(v *View) error {
	if stop, err := c.checkArgs("GenerateMips", v); stop {
		return err
	}
	if err := c.checkGenerateMips(v); err != nil {
		c.api("GenerateMips", objName(v)).end(err)
		return err
	}
	return c.contextKind.(subresourceCalls).generateMips(v)
}

func (c driverContext) generateMips(v *View) error {
	done := c.api("GenerateMips", objName(v))
	if err := c.checkAll("GenerateMips", v); err != nil {
		done.end(err)
		return err
	}
	hv := c.local(v)
	c.ddi.on(v.name, handleName(hv)).GenerateMips(c.h, ddi.HSHADERRESOURCEVIEW(hv))
	c.afterDDI()
	done.end(nil)
	return nil
}

func (c *emulatedContext) generateMips(v *View) error {
	return c.record("GenerateMips", func(ic *DeviceContext) error { return ic.GenerateMips(v) }, v)
}

func (c *DeviceContext) checkGenerateMips(v *View) error {
	switch {
	case v == nil || v.ViewKind != ddi.ViewSRV:
		return c.dev.invalid("GenerateMips", objName(v), "GenerateMips takes a shader resource view")
	case !v.Res.Desc.MiscFlags.Has(ddi.ResourceMiscGenerateMips):
		return c.dev.invalid("GenerateMips", v.name, "resource %s was not created with GENERATE_MIPS", v.Res.name)
	case v.Res.Kind == KindBuffer:
		return c.dev.invalid("GenerateMips", v.name, "a buffer has no mip levels")
	}
	return nil
}

// formatR32Typeless is DXGI_FORMAT_R32_TYPELESS, a raw buffer view's.
const formatR32Typeless ddi.Format = 39

// bufferViewElem checks a raw (raw true) or structured view of buffer res,
// a shader resource or unordered access view alike, and answers its
// element size: a raw view is R32_TYPELESS over a buffer created with
// BUFFER_ALLOW_RAW_VIEWS (4-byte elements), a structured one has format
// UNKNOWN (elements of the buffer's StructureByteStride).
func (d *Device) bufferViewElem(api, name string, res *Resource, format ddi.Format, raw bool) (uint32, error) {
	if raw {
		if !res.Desc.MiscFlags.Has(ddi.ResourceMiscBufferAllowRawViews) {
			return 0, d.invalid(api, name, "a raw view of %s, which was not created with BUFFER_ALLOW_RAW_VIEWS", res.name)
		}
		if format != formatR32Typeless {
			return 0, d.invalid(api, name, "Format: a raw view's is R32_TYPELESS")
		}
		return 4, nil
	}
	if format != ddi.FormatUnknown {
		return 0, d.invalid(api, name, "Format: a view of structured buffer %s has UNKNOWN", res.name)
	}
	return res.Desc.StructureByteStride, nil
}
