package gpu

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// The GPU's own packet format. A DMA buffer is a slice of 32-bit words: a
// header (opcode in bits 31..24, payload length in words in bits 23..0)
// followed by the payload. Addresses are 64-bit GPU physical addresses in two
// words (low, high); the KMD writes them as zero and records a patch location,
// and DxgkDdiPatch fills them in (seed 003, step 13). Floats are IEEE bits.
//
// The GPU knows nothing about D3D: formats, blend factors and the rest below
// are the hardware's own encodings, which the KMD translates to.

// Opcode is a packet type.
type Opcode uint8

const (
	OpNop         Opcode = 0x00
	OpSetRT       Opcode = 0x01 // addr(2) width height pitch format
	OpSetDS       Opcode = 0x02 // addr(2) width height pitch format; addr 0 = no depth buffer
	OpSetVB       Opcode = 0x03 // slot addr(2) size stride offset
	OpSetIB       Opcode = 0x04 // addr(2) size indexBytes(2|4) offset
	OpSetCB       Opcode = 0x05 // stage slot addr(2) size
	OpSetTex      Opcode = 0x06 // slot addr(2) width height pitch format
	OpSetSampler  Opcode = 0x07 // slot filter addressU addressV borderRGBA8
	OpSetShader   Opcode = 0x08 // stage program
	OpSetViewport Opcode = 0x09 // x y w h minDepth maxDepth (f32)
	OpSetRaster   Opcode = 0x0A // cull frontCCW depthClip
	OpSetBlend    Opcode = 0x0B // enable src dst op srcAlpha dstAlpha opAlpha writeMask
	OpSetDepth    Opcode = 0x0C // enable writeMask func
	OpSetTopology Opcode = 0x0D // topology
	OpDraw        Opcode = 0x10 // count start
	OpDrawIndexed Opcode = 0x11 // count start base(int32)
	OpClearRT     Opcode = 0x12 // addr(2) width height pitch format r g b a (f32)
	OpClearDS     Opcode = 0x13 // addr(2) width height pitch format depth (f32)
	OpCopy        Opcode = 0x14 // dst(2) src(2) nbytes
	OpWrite       Opcode = 0x15 // dst(2) nbytes data(ceil(nbytes/4) words)
	OpFence       Opcode = 0x16 // value(2): on completion of the buffer, write the fence register and interrupt
	OpQuery       Opcode = 0x17 // kind addr(2): writes a uint64 at addr
	OpScanout     Opcode = 0x18 // addr(2) width height pitch format: the display engine shows this surface
	OpFill        Opcode = 0x19 // dst(2) nbytes value: fill nbytes (a multiple of 4) with the 32-bit value (paging FILL)
)

var opNames = map[Opcode]string{
	OpNop: "NOP", OpSetRT: "SET_RT", OpSetDS: "SET_DS", OpSetVB: "SET_VB", OpSetIB: "SET_IB",
	OpSetCB: "SET_CB", OpSetTex: "SET_TEX", OpSetSampler: "SET_SAMPLER", OpSetShader: "SET_SHADER",
	OpSetViewport: "SET_VIEWPORT", OpSetRaster: "SET_RASTER", OpSetBlend: "SET_BLEND",
	OpSetDepth: "SET_DEPTH", OpSetTopology: "SET_TOPOLOGY", OpDraw: "DRAW", OpDrawIndexed: "DRAW_INDEXED",
	OpClearRT: "CLEAR_RT", OpClearDS: "CLEAR_DS", OpCopy: "COPY", OpWrite: "WRITE", OpFence: "FENCE",
	OpQuery: "QUERY", OpScanout: "SCANOUT", OpFill: "FILL",
}

func (o Opcode) String() string {
	if s, ok := opNames[o]; ok {
		return s
	}
	return fmt.Sprintf("OP_%#02x", uint8(o))
}

// payloadLen is the fixed payload length of each opcode; OpWrite is variable
// (at least 3).
var payloadLen = map[Opcode]int{
	OpNop: 0, OpSetRT: 6, OpSetDS: 6, OpSetVB: 6, OpSetIB: 5, OpSetCB: 5, OpSetTex: 7,
	OpSetSampler: 5, OpSetShader: 2, OpSetViewport: 6, OpSetRaster: 3, OpSetBlend: 8,
	OpSetDepth: 3, OpSetTopology: 1, OpDraw: 2, OpDrawIndexed: 3, OpClearRT: 10, OpClearDS: 7,
	OpCopy: 5, OpFence: 2, OpQuery: 3, OpScanout: 6, OpFill: 4,
}

// payloadLens is payloadLen indexed by opcode, -1 for an unknown one: the
// command processor looks each packet up (issue 8: no map look-up per
// packet).
var payloadLens = func() (t [256]int16) {
	for i := range t {
		t[i] = -1
	}
	for op, n := range payloadLen {
		t[op] = int16(n)
	}
	return t
}()

// Format is a surface format of the hardware.
type Format uint32

const (
	FmtNone  Format = 0
	FmtRGBA8 Format = 1 // 4 bytes: R, G, B, A unorm
	FmtBGRA8 Format = 2 // 4 bytes: B, G, R, A unorm
	FmtD32F  Format = 3 // 4 bytes: float32 depth
	FmtD24S8 Format = 4 // 4 bytes little endian: depth unorm24 in bits 0..23, stencil in 24..31
	FmtR32F  Format = 5 // 4 bytes: float32
	FmtR16UI Format = 6 // 2 bytes (index buffers)
	FmtR32UI Format = 7 // 4 bytes (index buffers)
)

// BytesPerPixel of a surface format (0 for unknown formats).
func (f Format) BytesPerPixel() int {
	switch f {
	case FmtRGBA8, FmtBGRA8, FmtD32F, FmtD24S8, FmtR32F, FmtR32UI:
		return 4
	case FmtR16UI:
		return 2
	}
	return 0
}

// Shader stages and built-in programs (the GPU's microcode; SCENARIO.md's
// builtin:NAME shaders map onto these).
const (
	StageVS = 0
	StagePS = 1

	ProgNone          = 0
	ProgVSPassthrough = 1 // position as given in clip space
	ProgVSTransform   = 2 // position * M, M = 16 floats row-major from VS constant buffer 0
	ProgPSVertexColor = 1 // interpolated vertex colour
	ProgPSSolid       = 2 // colour = 4 floats from PS constant buffer 0
	ProgPSTexture     = 3 // texture 0 sampled with sampler 0 at the interpolated uv
	ProgPSFault       = 4 // faults on the GPU: covered pixels get the warning colour
)

// Sampler filters and address modes.
const (
	FilterPoint  = 0
	FilterLinear = 1

	AddrWrap   = 0
	AddrClamp  = 1
	AddrMirror = 2
	AddrBorder = 3
)

// Rasterizer cull modes.
const (
	CullNone  = 0
	CullFront = 1
	CullBack  = 2
)

// Blend factors and operations.
const (
	BlendZero = iota
	BlendOne
	BlendSrcColor
	BlendInvSrcColor
	BlendSrcAlpha
	BlendInvSrcAlpha
	BlendDestAlpha
	BlendInvDestAlpha
	BlendDestColor
	BlendInvDestColor
)

const (
	BlendOpAdd = iota
	BlendOpSubtract
	BlendOpRevSubtract
	BlendOpMin
	BlendOpMax
)

// Depth comparison functions.
const (
	CmpNever = iota
	CmpLess
	CmpEqual
	CmpLessEqual
	CmpGreater
	CmpNotEqual
	CmpGreaterEqual
	CmpAlways
)

// Primitive topologies.
const (
	TopoUndefined     = 0
	TopoPointList     = 1
	TopoLineList      = 2
	TopoLineStrip     = 3
	TopoTriangleList  = 4
	TopoTriangleStrip = 5
)

// Query kinds.
const (
	QueryOcclusionBegin = 0 // remember the samples-passed counter
	QueryOcclusionEnd   = 1 // write samples passed since the matching begin
	QueryTimestamp      = 2 // write the GPU's virtual time in ns
)

// Packet is one decoded packet.
type Packet struct {
	Op   Opcode
	Args []uint32 // the payload
	At   int      // word offset of the header in the buffer
}

func (p Packet) addr(i int) uint64 { return uint64(p.Args[i]) | uint64(p.Args[i+1])<<32 }
func (p Packet) f32(i int) float32 { return math.Float32frombits(p.Args[i]) }

// String prints a packet for traces and the panel.
func (p Packet) String() string {
	a := p.Args
	switch p.Op {
	case OpSetRT, OpSetDS, OpScanout:
		return fmt.Sprintf("%v addr=%#x %dx%d pitch=%d fmt=%d", p.Op, p.addr(0), a[2], a[3], a[4], a[5])
	case OpSetVB:
		return fmt.Sprintf("%v slot=%d addr=%#x size=%d stride=%d offset=%d", p.Op, a[0], p.addr(1), a[3], a[4], a[5])
	case OpSetIB:
		return fmt.Sprintf("%v addr=%#x size=%d index=%dB offset=%d", p.Op, p.addr(0), a[2], a[3], a[4])
	case OpSetCB:
		return fmt.Sprintf("%v stage=%d slot=%d addr=%#x size=%d", p.Op, a[0], a[1], p.addr(2), a[4])
	case OpSetTex:
		return fmt.Sprintf("%v slot=%d addr=%#x %dx%d pitch=%d fmt=%d", p.Op, a[0], p.addr(1), a[3], a[4], a[5], a[6])
	case OpSetViewport:
		return fmt.Sprintf("%v %g %g %g %g depth=%g..%g", p.Op, p.f32(0), p.f32(1), p.f32(2), p.f32(3), p.f32(4), p.f32(5))
	case OpDraw:
		return fmt.Sprintf("%v count=%d start=%d", p.Op, a[0], a[1])
	case OpDrawIndexed:
		return fmt.Sprintf("%v count=%d start=%d base=%d", p.Op, a[0], a[1], int32(a[2]))
	case OpClearRT:
		return fmt.Sprintf("%v addr=%#x %dx%d rgba=%g,%g,%g,%g", p.Op, p.addr(0), a[2], a[3], p.f32(6), p.f32(7), p.f32(8), p.f32(9))
	case OpClearDS:
		return fmt.Sprintf("%v addr=%#x %dx%d depth=%g", p.Op, p.addr(0), a[2], a[3], p.f32(6))
	case OpCopy:
		return fmt.Sprintf("%v dst=%#x src=%#x n=%d", p.Op, p.addr(0), p.addr(2), a[4])
	case OpWrite:
		return fmt.Sprintf("%v dst=%#x n=%d", p.Op, p.addr(0), a[2])
	case OpFence:
		return fmt.Sprintf("%v value=%d", p.Op, p.addr(0))
	case OpQuery:
		return fmt.Sprintf("%v kind=%d addr=%#x", p.Op, a[0], p.addr(1))
	case OpFill:
		return fmt.Sprintf("%v dst=%#x n=%d value=%#x", p.Op, p.addr(0), a[2], a[3])
	}
	var sb strings.Builder
	sb.WriteString(p.Op.String())
	for _, w := range a {
		fmt.Fprintf(&sb, " %d", w)
	}
	return sb.String()
}

// ErrMalformed is returned (wrapped) by Decode for a buffer that is not a
// sequence of well-formed packets.
var ErrMalformed = errors.New("gpu: malformed packet")

// Decode splits a DMA buffer into packets. It checks framing only (known
// opcode, payload length); it never panics, whatever the words.
func Decode(buf []uint32) ([]Packet, error) {
	return AppendDecode(nil, buf)
}

// AppendDecode is Decode appending to dst: a caller that decodes a command
// buffer per submission reuses one slice (issue 8: the KMD allocated a
// []Packet per command buffer). The packets' Args point into buf.
func AppendDecode(dst []Packet, buf []uint32) ([]Packet, error) {
	out := dst
	for i := 0; i < len(buf); {
		p, next, err := nextPacket(buf, i)
		if err != nil {
			return out, err
		}
		out = append(out, p)
		i = next
	}
	return out, nil
}

// Builder writes packets. Methods that take an address return the word offset
// of its low word, which is where a patch location points.
type Builder struct {
	Words []uint32
}

func (b *Builder) header(op Opcode, n int) { b.Words = append(b.Words, uint32(op)<<24|uint32(n)) }

func (b *Builder) addr(a uint64) int {
	at := len(b.Words)
	b.Words = append(b.Words, uint32(a), uint32(a>>32))
	return at
}

func f(v float32) uint32 { return math.Float32bits(v) }

func (b *Builder) SetRT(addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpSetRT, 6)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

func (b *Builder) SetDS(addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpSetDS, 6)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

func (b *Builder) SetVB(slot uint32, addr uint64, size, stride, offset uint32) int {
	b.header(OpSetVB, 6)
	b.Words = append(b.Words, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, size, stride, offset)
	return at
}

func (b *Builder) SetIB(addr uint64, size, indexBytes, offset uint32) int {
	b.header(OpSetIB, 5)
	at := b.addr(addr)
	b.Words = append(b.Words, size, indexBytes, offset)
	return at
}

func (b *Builder) SetCB(stage, slot uint32, addr uint64, size uint32) int {
	b.header(OpSetCB, 5)
	b.Words = append(b.Words, stage, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, size)
	return at
}

func (b *Builder) SetTex(slot uint32, addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpSetTex, 7)
	b.Words = append(b.Words, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

func (b *Builder) SetSampler(slot, filter, addrU, addrV, borderRGBA8 uint32) {
	b.header(OpSetSampler, 5)
	b.Words = append(b.Words, slot, filter, addrU, addrV, borderRGBA8)
}

func (b *Builder) SetShader(stage, program uint32) {
	b.header(OpSetShader, 2)
	b.Words = append(b.Words, stage, program)
}

func (b *Builder) SetViewport(x, y, w, h, minZ, maxZ float32) {
	b.header(OpSetViewport, 6)
	b.Words = append(b.Words, f(x), f(y), f(w), f(h), f(minZ), f(maxZ))
}

func (b *Builder) SetRaster(cull uint32, frontCCW, depthClip bool) {
	b.header(OpSetRaster, 3)
	b.Words = append(b.Words, cull, b2u(frontCCW), b2u(depthClip))
}

func (b *Builder) SetBlend(enable bool, src, dst, op, srcA, dstA, opA, writeMask uint32) {
	b.header(OpSetBlend, 8)
	b.Words = append(b.Words, b2u(enable), src, dst, op, srcA, dstA, opA, writeMask)
}

func (b *Builder) SetDepth(enable, write bool, fn uint32) {
	b.header(OpSetDepth, 3)
	b.Words = append(b.Words, b2u(enable), b2u(write), fn)
}

func (b *Builder) SetTopology(t uint32) {
	b.header(OpSetTopology, 1)
	b.Words = append(b.Words, t)
}

func (b *Builder) Draw(count, start uint32) {
	b.header(OpDraw, 2)
	b.Words = append(b.Words, count, start)
}

func (b *Builder) DrawIndexed(count, start uint32, base int32) {
	b.header(OpDrawIndexed, 3)
	b.Words = append(b.Words, count, start, uint32(base))
}

func (b *Builder) ClearRT(addr uint64, w, h, pitch uint32, fm Format, rgba [4]float32) int {
	b.header(OpClearRT, 10)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm), f(rgba[0]), f(rgba[1]), f(rgba[2]), f(rgba[3]))
	return at
}

func (b *Builder) ClearDS(addr uint64, w, h, pitch uint32, fm Format, depth float32) int {
	b.header(OpClearDS, 7)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm), f(depth))
	return at
}

// Copy returns the offsets of the destination and source address words.
func (b *Builder) Copy(dst, src uint64, n uint32) (dstAt, srcAt int) {
	b.header(OpCopy, 5)
	dstAt = b.addr(dst)
	srcAt = b.addr(src)
	b.Words = append(b.Words, n)
	return dstAt, srcAt
}

// Write carries data inline; the GPU copies it to dst.
func (b *Builder) Write(dst uint64, data []byte) int {
	nw := (len(data) + 3) / 4
	b.header(OpWrite, 3+nw)
	at := b.addr(dst)
	b.Words = append(b.Words, uint32(len(data)))
	for i := 0; i < nw; i++ {
		var w uint32
		for j := 0; j < 4 && 4*i+j < len(data); j++ {
			w |= uint32(data[4*i+j]) << (8 * j)
		}
		b.Words = append(b.Words, w)
	}
	return at
}

// Fill writes n bytes (a multiple of 4) of the repeated 32-bit value at dst.
func (b *Builder) Fill(dst uint64, n, value uint32) int {
	b.header(OpFill, 4)
	at := b.addr(dst)
	b.Words = append(b.Words, n, value)
	return at
}

func (b *Builder) Fence(value uint64) {
	b.header(OpFence, 2)
	b.addr(value)
}

func (b *Builder) Query(kind uint32, addr uint64) int {
	b.header(OpQuery, 3)
	b.Words = append(b.Words, kind)
	return b.addr(addr)
}

func (b *Builder) Scanout(addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpScanout, 6)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

// Patch writes a 64-bit address at word offset at (DxgkDdiPatch's job).
func Patch(buf []uint32, at int, addr uint64) {
	buf[at] = uint32(addr)
	buf[at+1] = uint32(addr >> 32)
}

func b2u(v bool) uint32 {
	if v {
		return 1
	}
	return 0
}

// AddrFields lists the payload indices of the 64-bit address fields of op
// (low word index). The KMD uses it to validate and patch command buffers.
func AddrFields(op Opcode) []int {
	switch op {
	case OpSetRT, OpSetDS, OpSetIB, OpClearRT, OpClearDS, OpWrite, OpScanout, OpFill:
		return []int{0}
	case OpSetVB, OpSetTex, OpQuery:
		return []int{1}
	case OpSetCB:
		return []int{2}
	case OpCopy:
		return []int{0, 2}
	}
	return nil
}
