package isa

import "fmt"

// CLEAR_UAV clears an unordered access view (ClearUnorderedAccessViewUint
// and ClearUnorderedAccessViewFloat):
//
//	CLEAR_UAV addr(2) kind format bytes stride elements height pitch mode v0 v1 v2 v3 depth slicePitch
//
// The view is laid out as SET_UAV's (kind ViewBuffer typed, ViewRawBuffer,
// ViewStructured or a texture view, from addr) with SET_UAV_SLICES' depth
// and slice pitch (1 and 0 for one slice). mode ClearUAVUint writes the
// low bits of v0..v3 to each channel as they are (bit-precise; a raw or
// structured view gets v0 in every 32-bit word); ClearUAVFloat converts
// the floats v0..v3 to a typed view's format (FLOAT, UNORM, SNORM).
const OpClearUAV Opcode = 0x5A

// CLEAR_UAV's modes.
const (
	ClearUAVUint  = 0
	ClearUAVFloat = 1
)

// ClearUAV encodes CLEAR_UAV; it returns the word offset of the address.
func (b *Builder) ClearUAV(addr uint64, kind uint32, fm Format, bytes, stride, elements, height, pitch, mode uint32, v [4]uint32, depth, slicePitch uint32) int {
	b.header(OpClearUAV, 16)
	at := b.addr(addr)
	b.Words = append(b.Words, kind, uint32(fm), bytes, stride, elements, height, pitch, mode, v[0], v[1], v[2], v[3], depth, slicePitch)
	return at
}

// SET_UAV_SLICES stageSlot depth slicePitch follows a SET_UAV of an array
// or 3D texture view (kind ViewTex1DArray, ViewTex2DArray, ViewTex3D)
// with more than one slice: the view has depth slices (a 1D array's rows)
// slicePitch bytes apart, inside its bytes. SET_UAV alone binds one.
const OpSetUAVSlices Opcode = 0x5B

// SetUAVSlices encodes SET_UAV_SLICES.
func (b *Builder) SetUAVSlices(stageSlot, depth, slicePitch uint32) {
	b.header(OpSetUAVSlices, 3)
	b.Words = append(b.Words, stageSlot, depth, slicePitch)
}

func clearUAVString(p Packet) string {
	a := p.Args
	mode := "uint"
	if a[9] == ClearUAVFloat {
		mode = "float"
	}
	return fmt.Sprintf("%v addr=%#x %s fmt=%d bytes=%d stride=%d elements=%d height=%d pitch=%d %s %#x %#x %#x %#x depth=%d slicePitch=%d",
		p.Op, p.Addr(0), ViewKindName(a[2]), a[3], a[4], a[5], a[6], a[7], a[8], mode, a[10], a[11], a[12], a[13], a[14], a[15])
}
