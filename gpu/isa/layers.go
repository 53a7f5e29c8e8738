package isa

import "fmt"

// Layered rendering: a render target or depth buffer of several slices (a
// view of a range of a texture array's slices, or of a 3D mip's depth
// slices, "D3D11_RENDER_TARGET_VIEW_DESC structure"). The slices have one
// size, pitch and format and lie slicePitch bytes apart from the first; a
// geometry program's SV_RenderTargetArrayIndex output picks the slice each
// primitive is drawn into (SET_PROGRAM's system values, bits 16..23), an
// index past the slices drawing into slice 0 as D3D11 specifies. Without
// it every primitive is drawn into slice 0.

// SET_RT_LAYERS slot addr(2) width height pitch format slices slicePitch:
// render target slot (0..7) or, slot DSLayers, the depth buffer, as
// SET_RT / SET_RT_SLOT / SET_DS set it, with slices slices.
const OpSetRTLayers Opcode = 0x6A

// DSLayers is SET_RT_LAYERS' slot of the depth buffer.
const DSLayers = MaxRenderTargets

// SetRTLayers encodes SET_RT_LAYERS; it returns the word offset of its
// address.
func (b *Builder) SetRTLayers(slot uint32, addr uint64, w, h, pitch uint32, fm Format, slices, slicePitch uint32) int {
	b.header(OpSetRTLayers, 9)
	b.Words = append(b.Words, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm), slices, slicePitch)
	return at
}

func layersString(p Packet) string {
	a := p.Args
	return fmt.Sprintf("%v slot=%d addr=%#x %dx%d pitch=%d fmt=%d slices=%d slicePitch=%d", p.Op, a[0], p.Addr(1), a[3], a[4], a[5], a[6], a[7], a[8])
}

// RTArrayIndexShift is where SET_PROGRAM's system values of a geometry
// program hold SV_RenderTargetArrayIndex's output register + 1 (0: none).
const RTArrayIndexShift = 16
