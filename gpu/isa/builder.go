package isa

import "math"

// Builder writes packets: each method appends one packet of the opcode it
// is named after, with the payload the opcode table describes. Methods that
// take an address return the word offset of its low word, which is where a
// patch location points.
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
	b.Words = append(b.Words, DrawHeader, count, start) // (one append: a driver's hot path)
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
