package isa

import "fmt"

// The stream-output stage's packets ("Stream-Output Stage"): the vertices
// of the primitives that reach the rasterizer (after the geometry program,
// or the vertex program without one) are written to up to four buffers.
//
// SET_SO_TARGET slot addr(2) bytes counter(2) offset
//
// binds buffer slot (0..MaxSOTargets-1): bytes bytes from addr, and its
// filled size, a 32-bit word at counter that the stage advances and
// DRAW_AUTO reads. offset is where writing starts, in bytes: it is
// written to the counter when the packet runs, except SOAppend, which
// keeps the counter (SOSetTargets' -1). Address 0 unbinds the slot.
//
// SET_SO_DECL flags stride0 stride1 stride2 stride3 entry...
//
// declares what each vertex writes: entries in order, each
// SOEntry(slot, reg, start, count) (reg SOGap: count components
// skipped), a slot's entries one after another in its vertex of strideN
// bytes. flags SORasterize: the primitives of the rasterized stream are
// also rasterized (off: D3D11_SO_NO_RASTERIZED_STREAM); SOSlotStream(slot,
// n) says slot takes the vertices of the geometry program's stream n
// (0..3, emit_stream m#), SORasterizedStream(n) which stream the
// rasterizer takes (0 when left out). No entries: stream output off.
//
// DRAW_AUTO counter(2) stride draws the vertices a stream-output buffer
// holds: its filled size (the word at counter) over stride, from vertex 0
// ("ID3D11DeviceContext::DrawAuto").
const (
	OpSetSOTarget Opcode = 0x53
	OpSetSODecl   Opcode = 0x54
	OpDrawAuto    Opcode = 0x55
)

// Limits of stream output (D3D11_SO_BUFFER_SLOT_COUNT, the entries of one
// stream's declaration this GPU takes, D3D11_SO_BUFFER_MAX_STRIDE_IN_BYTES).
const (
	MaxSOTargets = 4
	MaxSOEntries = 64
	MaxSOStride  = 2048
	SOAppend     = 0xFFFFFFFF
	SORasterize  = 1
	SOGap        = 0xFF
)

// SOSlotStream is SET_SO_DECL's flag bits saying output slot takes
// stream n; SORasterizedStream names the rasterized stream; SOStreamOf
// and SORasterizedOf read them back; SOFlagsMask is every flag bit.
func SOSlotStream(slot, n uint32) uint32   { return (n & 3) << (8 + 2*(slot&3)) }
func SORasterizedStream(n uint32) uint32   { return (n & 3) << 16 }
func SOStreamOf(flags, slot uint32) uint32 { return flags >> (8 + 2*(slot&3)) & 3 }
func SORasterizedOf(flags uint32) uint32   { return flags >> 16 & 3 }

const SOFlagsMask = SORasterize | 0xFF<<8 | 3<<16

// SOEntry is one SET_SO_DECL entry word: the output slot in bits 0-7,
// the register in 8-15 (SOGap for a gap), the first component in 16-23,
// the components in 24-31.
func SOEntry(slot, reg, start, count uint32) uint32 {
	return slot&0xFF | (reg&0xFF)<<8 | (start&0xFF)<<16 | (count&0xFF)<<24
}

// SplitSOEntry undoes SOEntry.
func SplitSOEntry(w uint32) (slot, reg, start, count uint32) {
	return w & 0xFF, w >> 8 & 0xFF, w >> 16 & 0xFF, w >> 24
}

// SetSOTarget encodes SET_SO_TARGET; it returns the word offsets of the
// buffer's address and the counter's.
func (b *Builder) SetSOTarget(slot uint32, addr uint64, bytes uint32, counter uint64, offset uint32) (at, counterAt int) {
	b.header(OpSetSOTarget, 7)
	b.Words = append(b.Words, slot)
	at = b.addr(addr)
	b.Words = append(b.Words, bytes)
	counterAt = b.addr(counter)
	b.Words = append(b.Words, offset)
	return at, counterAt
}

// SetSODecl encodes SET_SO_DECL (no entries: stream output off).
func (b *Builder) SetSODecl(flags uint32, strides [MaxSOTargets]uint32, entries []uint32) {
	b.header(OpSetSODecl, 5+len(entries))
	b.Words = append(b.Words, flags)
	b.Words = append(b.Words, strides[:]...)
	b.Words = append(b.Words, entries...)
}

// DrawAuto encodes DRAW_AUTO.
func (b *Builder) DrawAuto(counter uint64, stride uint32) int {
	b.header(OpDrawAuto, 3)
	at := b.addr(counter)
	b.Words = append(b.Words, stride)
	return at
}

func soString(p Packet) string {
	a := p.Args
	switch p.Op {
	case OpSetSOTarget:
		return fmt.Sprintf("%v slot=%d addr=%#x bytes=%d counter=%#x offset=%d", p.Op, a[0], p.Addr(1), a[3], p.Addr(4), int32(a[6]))
	case OpDrawAuto:
		return fmt.Sprintf("%v counter=%#x stride=%d", p.Op, p.Addr(0), a[2])
	}
	return fmt.Sprintf("%v flags=%d strides=%v entries=%d", p.Op, a[0], a[1:5], len(a)-5)
}
