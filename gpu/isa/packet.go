package isa

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Packet is one decoded packet.
type Packet struct {
	Op   Opcode
	Args []uint32 // the payload
	At   int      // word offset of the header in the buffer
}

// Addr reads the 64-bit address whose low word is payload word i.
func (p Packet) Addr(i int) uint64 { return uint64(p.Args[i]) | uint64(p.Args[i+1])<<32 }

// F32 reads payload word i as a float.
func (p Packet) F32(i int) float32 { return math.Float32frombits(p.Args[i]) }

// String prints a packet for traces and the panel.
func (p Packet) String() string {
	a := p.Args
	switch p.Op {
	case OpSetRT, OpSetDS, OpScanout:
		return fmt.Sprintf("%v addr=%#x %dx%d pitch=%d fmt=%d", p.Op, p.Addr(0), a[2], a[3], a[4], a[5])
	case OpSetVB:
		return fmt.Sprintf("%v slot=%d addr=%#x size=%d stride=%d offset=%d", p.Op, a[0], p.Addr(1), a[3], a[4], a[5])
	case OpSetIB:
		return fmt.Sprintf("%v addr=%#x size=%d index=%dB offset=%d", p.Op, p.Addr(0), a[2], a[3], a[4])
	case OpSetCB:
		return fmt.Sprintf("%v stage=%d slot=%d addr=%#x size=%d", p.Op, a[0], a[1], p.Addr(2), a[4])
	case OpSetTex:
		return fmt.Sprintf("%v slot=%d addr=%#x %dx%d pitch=%d fmt=%d", p.Op, a[0], p.Addr(1), a[3], a[4], a[5], a[6])
	case OpSetView:
		return fmt.Sprintf("%v slot=%d addr=%#x %s fmt=%d %dx%dx%d mips=%d mipRange=%#x sliceRange=%#x", p.Op, a[0], p.Addr(1), ViewKindName(a[3]), a[4], a[5], a[6], a[7], a[8], a[9], a[10])
	case OpSetSamplerEx:
		return fmt.Sprintf("%v slot=%d filter=%#x address=%d,%d,%d bias=%g aniso=%d cmp=%d border=%g,%g,%g,%g lod=%g..%g", p.Op, a[0], a[1], a[2], a[3], a[4], p.F32(5), a[6], a[7], p.F32(8), p.F32(9), p.F32(10), p.F32(11), p.F32(12), p.F32(13))
	case OpSetViewport:
		return fmt.Sprintf("%v %g %g %g %g depth=%g..%g", p.Op, p.F32(0), p.F32(1), p.F32(2), p.F32(3), p.F32(4), p.F32(5))
	case OpDraw:
		return fmt.Sprintf("%v count=%d start=%d", p.Op, a[0], a[1])
	case OpDrawIndexed:
		return fmt.Sprintf("%v count=%d start=%d base=%d", p.Op, a[0], a[1], int32(a[2]))
	case OpClearRT:
		return fmt.Sprintf("%v addr=%#x %dx%d rgba=%g,%g,%g,%g", p.Op, p.Addr(0), a[2], a[3], p.F32(6), p.F32(7), p.F32(8), p.F32(9))
	case OpClearDS:
		return fmt.Sprintf("%v addr=%#x %dx%d depth=%g", p.Op, p.Addr(0), a[2], a[3], p.F32(6))
	case OpCopy:
		return fmt.Sprintf("%v dst=%#x src=%#x n=%d", p.Op, p.Addr(0), p.Addr(2), a[4])
	case OpWrite:
		return fmt.Sprintf("%v dst=%#x n=%d", p.Op, p.Addr(0), a[2])
	case OpFence:
		return fmt.Sprintf("%v value=%d", p.Op, p.Addr(0))
	case OpQuery:
		return fmt.Sprintf("%v kind=%d addr=%#x", p.Op, a[0], p.Addr(1))
	case OpSetPredication:
		return fmt.Sprintf("%v addr=%#x value=%d", p.Op, p.Addr(0), a[2])
	case OpFill:
		return fmt.Sprintf("%v dst=%#x n=%d value=%#x", p.Op, p.Addr(0), a[2], a[3])
	case OpDrawInstanced:
		return fmt.Sprintf("%v count=%d start=%d instances=%d startInstance=%d", p.Op, a[0], a[1], a[2], a[3])
	case OpDrawIndexedInstanced:
		return fmt.Sprintf("%v count=%d start=%d base=%d instances=%d startInstance=%d", p.Op, a[0], a[1], int32(a[2]), a[3], a[4])
	case OpSetProgram:
		return fmt.Sprintf("%v stage=%d addr=%#x words=%d sys=%d", p.Op, a[0], p.Addr(1), a[3], int32(a[4]))
	case OpSetRTSlot:
		return fmt.Sprintf("%v slot=%d addr=%#x %dx%d pitch=%d fmt=%d", p.Op, a[0], p.Addr(1), a[3], a[4], a[5], a[6])
	case OpSetTexStage:
		return fmt.Sprintf("%v stage=%d slot=%d addr=%#x %dx%d pitch=%d fmt=%d", p.Op, a[0], a[1], p.Addr(2), a[4], a[5], a[6], a[7])
	case OpSetBlendFactor:
		return fmt.Sprintf("%v %g %g %g %g mask=%#x flags=%d", p.Op, p.F32(0), p.F32(1), p.F32(2), p.F32(3), a[4], a[5])
	case OpClearStencil:
		return fmt.Sprintf("%v addr=%#x %dx%d stencil=%d", p.Op, p.Addr(0), a[2], a[3], a[6])
	case OpSetScissor:
		return fmt.Sprintf("%v index=%d %d,%d..%d,%d", p.Op, a[0], int32(a[1]), int32(a[2]), int32(a[3]), int32(a[4]))
	case OpSetViewportN:
		return fmt.Sprintf("%v index=%d %g %g %g %g depth=%g..%g", p.Op, a[0], p.F32(1), p.F32(2), p.F32(3), p.F32(4), p.F32(5), p.F32(6))
	case OpSetDepthBias:
		return fmt.Sprintf("%v bias=%d clamp=%g slope=%g", p.Op, int32(a[0]), p.F32(1), p.F32(2))
	case OpDrawIndirect, OpDrawIndexedIndirect:
		return fmt.Sprintf("%v args=%#x", p.Op, p.Addr(0))
	case OpSetUAV:
		return uavString(p)
	case OpSetSOTarget, OpSetSODecl, OpDrawAuto:
		return soString(p)
	case OpClearUAV:
		return clearUAVString(p)
	case OpSetSamples, OpResolve:
		return msaaString(p)
	case OpSetRTLayers:
		return layersString(p)
	case OpSetClipDist:
		return clipDistString(p)
	case OpSetUAVSlices:
		stage, slot := SplitUAVStageSlot(a[0])
		return fmt.Sprintf("%v stage=%d slot=%d depth=%d slicePitch=%d", p.Op, stage, slot, a[1], a[2])
	case OpDispatch:
		return fmt.Sprintf("%v %d %d %d", p.Op, a[0], a[1], a[2])
	case OpDispatchIndirect:
		return fmt.Sprintf("%v args=%#x", p.Op, p.Addr(0))
	case OpSetLayout:
		l, err := ParseLayout(a)
		if err != nil {
			return fmt.Sprintf("%v (%v)", p.Op, err)
		}
		return p.Op.String() + " " + l.String()
	}
	var sb strings.Builder
	sb.WriteString(p.Op.String())
	for _, w := range a {
		fmt.Fprintf(&sb, " %d", w)
	}
	return sb.String()
}

// ErrMalformed is returned (wrapped) by Decode and Next for a buffer that is
// not a sequence of well-formed packets.
var ErrMalformed = errors.New("gpu: malformed packet")

// Decode splits a DMA buffer into packets. It checks framing only (known
// opcode, payload length); it never panics, whatever the words.
func Decode(buf []uint32) ([]Packet, error) {
	return AppendDecode(nil, buf)
}

// AppendDecode is Decode appending to dst, so a caller that decodes a
// command buffer per submission reuses one slice. The packets' Args point
// into buf.
func AppendDecode(dst []Packet, buf []uint32) ([]Packet, error) {
	out := dst
	for i := 0; i < len(buf); {
		p, next, err := Next(buf, i)
		if err != nil {
			return out, err
		}
		out = append(out, p)
		i = next
	}
	return out, nil
}

// Next decodes the packet at word i of buf and returns it with the index of
// the next one; i must be inside buf. It applies Decode's framing rules
// without building a slice of every packet: the command processor walks
// buffers of millions of packets with it (and the KMD, twice), so a packet
// of a fixed length is decoded in line and the rest by next.
func Next(buf []uint32, i int) (Packet, int, error) {
	h := buf[i]
	op, n := Opcode(h>>24), int(h&0xFFFFFF)
	if int(fixedLens[op]) == n && n < len(buf)-i {
		return Packet{Op: op, Args: buf[i+1 : i+1+n], At: i}, i + 1 + n, nil
	}
	return next(buf, i)
}

// DrawWords is a DRAW packet's words (its header, the vertex count and
// the first vertex) and DrawHeader its header: a stream of draws that
// change no state is runs of them, which the KMD and the command processor
// find by the header alone.
const (
	DrawWords  = 3
	DrawHeader = uint32(OpDraw)<<24 | (DrawWords - 1)
)

// next is Next for a packet of a variable length, or one that is not
// well formed.
func next(buf []uint32, i int) (Packet, int, error) {
	h := buf[i]
	op := Opcode(h >> 24)
	n := int(h & 0xFFFFFF)
	want, known := int(payloadLens[op]), payloadLens[op] >= 0
	switch {
	case op == OpWrite:
		if n < 3 {
			return Packet{}, 0, fmt.Errorf("%w: WRITE at word %d has %d payload words", ErrMalformed, i, n)
		}
	case op == OpSetLayout:
		if n < 1 || n > 1+3*MaxVertexElements || (n-1)%3 != 0 {
			return Packet{}, 0, fmt.Errorf("%w: SET_LAYOUT at word %d has %d payload words, want 1 + 3 per element (at most %d)", ErrMalformed, i, n, MaxVertexElements)
		}
	case op == OpSetSODecl:
		if n < 5 || n > 5+MaxSOEntries {
			return Packet{}, 0, fmt.Errorf("%w: SET_SO_DECL at word %d has %d payload words, want 5 + 1 per entry (at most %d)", ErrMalformed, i, n, MaxSOEntries)
		}
	case !known:
		return Packet{}, 0, fmt.Errorf("%w: unknown opcode %#02x at word %d", ErrMalformed, uint8(op), i)
	case n != want:
		return Packet{}, 0, fmt.Errorf("%w: %v at word %d has %d payload words, want %d", ErrMalformed, op, i, n, want)
	}
	if n > len(buf)-i-1 {
		return Packet{}, 0, fmt.Errorf("%w: %v at word %d runs past the end of the buffer", ErrMalformed, op, i)
	}
	p := Packet{Op: op, Args: buf[i+1 : i+1+n], At: i}
	if op == OpWrite && (int(p.Args[2])+3)/4 != n-3 {
		return Packet{}, 0, fmt.Errorf("%w: WRITE at word %d carries %d bytes in %d words", ErrMalformed, i, p.Args[2], n-3)
	}
	return p, i + 1 + n, nil
}

// AddrFields lists the payload indices of the 64-bit address fields of op
// (low word index). The KMD uses it to validate and patch command buffers,
// the UMD to relocate a command list into an immediate command buffer.
func AddrFields(op Opcode) []int {
	switch op {
	case OpSetRT, OpSetDS, OpSetIB, OpClearRT, OpClearDS, OpWrite, OpScanout, OpFill, OpClearUAV:
		return addr0
	case OpSetVB, OpSetTex, OpQuery, OpSetProgram, OpSetRTSlot, OpSetView, OpSetRTLayers:
		return addr1
	case OpClearStencil, OpDrawIndirect, OpDrawIndexedIndirect, OpSetPredication, OpDispatchIndirect, OpDrawAuto:
		return addr0
	case OpSetSOTarget:
		return addr1and4
	case OpSetUAV:
		return addr1and10
	case OpSetTexStage:
		return addr2
	case OpSetCB:
		return addr2
	case OpCopy, OpResolve:
		return addr02
	}
	return nil
}

var addr0, addr1, addr2, addr02, addr1and10, addr1and4 = []int{0}, []int{1}, []int{2}, []int{0, 2}, []int{1, 10}, []int{1, 4}

// NullAddress in an address field of a command buffer the UMD writes names
// no allocation (allocation-list index 0xFFFFFFFF): the KMD leaves it 0, the
// GPU's unbound slot, and records no patch location. A driver unbinds a slot
// with it.
const NullAddress uint64 = 0xFFFFFFFF
