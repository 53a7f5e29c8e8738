package isa

import "fmt"

// Views and samplers beyond SET_TEX and SET_SAMPLER's: what the texture
// unit needs for mip levels, arrays, cube maps, 1D and 3D textures, buffer
// views, and the whole D3D11_SAMPLER_DESC. SET_TEX (one 2D level) and
// SET_SAMPLER (point or linear, two address modes, an 8-bit border) stay
// for the views and samplers they describe, so that their command buffers
// are what they always were.
//
// SET_VIEW slot addr(2) kind format width height depth mips mipRange sliceRange
//
// (slot: StageSlot's word, the slot of a stage; kind: ViewWord's, the
// samples a pixel of a multisampled view in its bits 8..15, msaa.go) binds the view of kind (View*) over a resource at addr whose
// subresources are laid out as Subresources says (width x height x depth
// texels at level 0, depth the slices of an array, six per cube; mips
// levels), the view seeing levels mipRange&0xFFFF .. +mipRange>>16 and
// slices sliceRange&0xFFFF .. +sliceRange>>16 (for a cube view, six per
// cube). A buffer view (ViewBuffer, ViewRawBuffer, ViewStructured) reads
// width bytes from addr: elements of format (typed), words (raw) or
// height-byte structures (structured), first element mipRange, count
// sliceRange (depth and mips 0). Address 0 unbinds the slot.
//
// SET_SAMPLER_EX slot filter addressU addressV addressW mipLODBias(f32)
// maxAnisotropy comparison border(4 f32) minLOD(f32) maxLOD(f32)
//
// sets a sampler of a stage (slot as SET_VIEW's): filter is D3D11_FILTER's encoding (minification,
// magnification and mip filters of 1 bit each, bit 6 anisotropic, bit 7
// comparison), the address modes Addr* and AddrMirrorOnce, comparison one
// of Cmp* (the comparison filter's function).
const (
	OpSetView      Opcode = 0x2A
	OpSetSamplerEx Opcode = 0x2B
)

// View kinds of SET_VIEW.
const (
	ViewTex1D = iota + 1
	ViewTex1DArray
	ViewTex2D
	ViewTex2DArray
	ViewTex3D
	ViewTexCube
	ViewTexCubeArray
	ViewBuffer     // typed elements of format
	ViewRawBuffer  // 32-bit words (ByteAddressBuffer)
	ViewStructured // structures of a stride (StructuredBuffer)
	numViewKinds
)

// AddrMirrorOnce is D3D11_TEXTURE_ADDRESS_MIRROR_ONCE: mirrored once about
// 0, then clamped.
const AddrMirrorOnce = 4

// Sampler filter bits (D3D11_FILTER's encoding): point or linear for the
// minification, magnification and mip filters, anisotropic, comparison.
const (
	FilterMipLinear   = 0x01
	FilterMagLinear   = 0x04
	FilterMinLinear   = 0x10
	FilterAniso       = 0x40
	FilterComparison  = 0x80
	FilterValidMask   = 0xD5
	MaxAnisotropyBits = 16
)

// IsBuffer reports whether a view kind reads a buffer.
func IsBuffer(kind uint32) bool { return kind >= ViewBuffer && kind <= ViewStructured }

// ViewKindName names a view kind as D3D11_SRV_DIMENSION does.
func ViewKindName(kind uint32) string {
	if k, n := SplitViewWord(kind); n > 1 && (k == ViewTex2D || k == ViewTex2DArray) {
		return map[uint32]string{ViewTex2D: "TEXTURE2DMS", ViewTex2DArray: "TEXTURE2DMSARRAY"}[k] + fmt.Sprintf("(%d samples)", n)
	}
	names := [...]string{"", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY", "TEXTURE3D", "TEXTURECUBE",
		"TEXTURECUBEARRAY", "BUFFER", "BUFFEREX(RAW)", "BUFFER(STRUCTURED)"}
	if kind < uint32(len(names)) && names[kind] != "" {
		return names[kind]
	}
	return fmt.Sprintf("view kind %d", kind)
}

// Subresource is where one level of one slice of a texture lies: its
// offset from the resource's start, the bytes of a row (of 4x4 blocks for
// a compressed format) and of a 2D slice of a 3D level, and its size in
// texels.
type Subresource struct {
	Offset     uint64
	RowPitch   uint32
	DepthPitch uint32
	W, H, D    uint32
}

// MipSize is the size of level mip of a dimension of n texels: halved,
// rounded down, never below 1.
func MipSize(n, mip uint32) uint32 {
	if mip >= 32 {
		return 1
	}
	return max(n>>mip, 1)
}

// MaxMips is the number of levels a texture of these dimensions can have
// (down to 1x1x1), as D3D11 counts them for MipLevels 0.
func MaxMips(w, h, d uint32) uint32 {
	m := max(w, h, d, 1)
	n := uint32(1)
	for m > 1 {
		m >>= 1
		n++
	}
	return n
}

// Subresources lays a texture out the way the UMD places it and the
// texture unit reads it: slice by slice, each slice's levels from the most
// detailed, each level's rows tightly packed (RowPitch = RowBytes of its
// width) and its 2D slices after one another; subresource mip + slice*mips
// (D3D11CalcSubresource's number) is element mip + slice*mips. It returns
// the layout and the total size, or an error for a texture the hardware
// cannot hold (no levels or slices, a dimension over its limit, a format
// it does not know).
func Subresources(f Format, w, h, d, mips, slices uint32) ([]Subresource, uint64, error) {
	switch {
	case !f.Known():
		return nil, 0, fmt.Errorf("format %v", f)
	case w == 0 || h == 0 || d == 0 || w > 16384 || h > 16384 || d > 2048:
		return nil, 0, fmt.Errorf("size %dx%dx%d outside 1..16384 (depth 2048)", w, h, d)
	case mips == 0 || mips > MaxMips(w, h, d):
		return nil, 0, fmt.Errorf("%d mip levels for %dx%dx%d (1..%d)", mips, w, h, d, MaxMips(w, h, d))
	case slices == 0 || slices > 2048 || d > 1 && slices > 1:
		return nil, 0, fmt.Errorf("%d array slices (1..2048, one for a 3D texture)", slices)
	}
	out := make([]Subresource, 0, mips*slices)
	var off uint64
	for range slices {
		for m := range mips {
			s := Subresource{Offset: off, W: MipSize(w, m), H: MipSize(h, m), D: MipSize(d, m)}
			s.RowPitch = uint32(f.RowBytes(s.W))
			s.DepthPitch = s.RowPitch * f.Rows(s.H)
			off += uint64(s.DepthPitch) * uint64(s.D)
			out = append(out, s)
		}
	}
	return out, off, nil
}

// StageSlot is SET_VIEW's and SET_SAMPLER_EX's slot word: the slot in
// bits 0-15, the stage plus one in bits 16-23 (0 there: the pixel stage,
// as SET_TEX and SET_SAMPLER bind).
func StageSlot(stage, slot uint32) uint32 {
	if stage == StagePS {
		return slot
	}
	return slot | (stage+1)<<16
}

// SplitStageSlot undoes StageSlot.
func SplitStageSlot(w uint32) (stage, slot uint32) {
	if s := w >> 16; s != 0 {
		return s - 1, w & 0xFFFF
	}
	return StagePS, w & 0xFFFF
}

// ViewRange splits SET_VIEW's mipRange and sliceRange words.
func ViewRange(w uint32) (first, count uint32) { return w & 0xFFFF, w >> 16 }

// SetView encodes SET_VIEW (see above) for the pixel stage.
func (b *Builder) SetView(slot uint32, addr uint64, kind uint32, fm Format, w, h, d, mips, mipRange, sliceRange uint32) int {
	return b.SetViewStage(StagePS, slot, addr, kind, fm, w, h, d, mips, mipRange, sliceRange)
}

// SetViewStage encodes SET_VIEW for a stage's slot.
func (b *Builder) SetViewStage(stage, slot uint32, addr uint64, kind uint32, fm Format, w, h, d, mips, mipRange, sliceRange uint32) int {
	b.header(OpSetView, 11)
	b.Words = append(b.Words, StageSlot(stage, slot))
	at := b.addr(addr)
	b.Words = append(b.Words, kind, uint32(fm), w, h, d, mips, mipRange, sliceRange)
	return at
}

// SetSamplerEx encodes SET_SAMPLER_EX (see above) for the pixel stage.
func (b *Builder) SetSamplerEx(slot, filter, u, v, w uint32, bias float32, maxAniso, cmp uint32, border [4]float32, minLOD, maxLOD float32) {
	b.SetSamplerExStage(StagePS, slot, filter, u, v, w, bias, maxAniso, cmp, border, minLOD, maxLOD)
}

// SetSamplerExStage encodes SET_SAMPLER_EX for a stage's slot.
func (b *Builder) SetSamplerExStage(stage, slot, filter, u, v, w uint32, bias float32, maxAniso, cmp uint32, border [4]float32, minLOD, maxLOD float32) {
	b.header(OpSetSamplerEx, 14)
	b.Words = append(b.Words, StageSlot(stage, slot), filter, u, v, w, f(bias), maxAniso, cmp, f(border[0]), f(border[1]), f(border[2]), f(border[3]), f(minLOD), f(maxLOD))
}
