package isa

import "fmt"

// The compute stage's packets. A compute program is bound with SET_PROGRAM
// (stage StageCS, sysReg 0), its constant buffers with SET_CB, its shader
// resource views and samplers with SET_VIEW and SET_SAMPLER_EX (stage
// StageCS in the slot word), and its unordered access views with:
//
// SET_UAV slot addr(2) kind format bytes stride elements height pitch counter(2)
//
// u# slot (0..MaxUAVSlots-1) sees bytes bytes from addr: a typed buffer
// (ViewBuffer: elements of format, stride its size), a raw buffer
// (ViewRawBuffer: 32-bit words, format 0, stride 4), a structured buffer
// (ViewStructured: elements of stride bytes) or one mip level of a 2D
// texture (ViewTex2D: elements x height texels of format, rows pitch bytes
// apart). counter is the view's hidden counter, a 32-bit word (0: none),
// which imm_atomic_alloc and imm_atomic_consume change. Address 0 unbinds
// the slot.
//
// DISPATCH x y z runs x*y*z thread groups of the bound compute program
// (each count 1..MaxDispatch; 0 in any runs nothing, as D3D11's Dispatch
// does). DISPATCH_INDIRECT addr(2) reads the three counts at addr
// ("ID3D11DeviceContext::DispatchIndirect").
const (
	OpSetUAV           Opcode = 0x50
	OpDispatch         Opcode = 0x51
	OpDispatchIndirect Opcode = 0x52
)

// Limits of the compute packets, D3D11's
// (D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION, the CS's UAV slots
// at feature level 11_0).
const (
	MaxDispatch           = 65535
	MaxUAVSlots           = 8
	IndirectDispatchBytes = 12
)

// SetUAV encodes SET_UAV (see above); it returns the word offsets of the
// view's address and the counter's.
func (b *Builder) SetUAV(slot uint32, addr uint64, kind uint32, fm Format, bytes, stride, elements, height, pitch uint32, counter uint64) (at, counterAt int) {
	b.header(OpSetUAV, 12)
	b.Words = append(b.Words, slot)
	at = b.addr(addr)
	b.Words = append(b.Words, kind, uint32(fm), bytes, stride, elements, height, pitch)
	counterAt = b.addr(counter)
	return at, counterAt
}

// Dispatch encodes DISPATCH.
func (b *Builder) Dispatch(x, y, z uint32) {
	b.header(OpDispatch, 3)
	b.Words = append(b.Words, x, y, z)
}

// DispatchIndirect encodes DISPATCH_INDIRECT.
func (b *Builder) DispatchIndirect(addr uint64) int {
	b.header(OpDispatchIndirect, 2)
	return b.addr(addr)
}

func uavString(p Packet) string {
	a := p.Args
	stage, slot := SplitUAVStageSlot(a[0])
	st := "cs"
	if stage == StagePS {
		st = "ps"
	}
	return fmt.Sprintf("%v %s slot=%d addr=%#x %s fmt=%d bytes=%d stride=%d elements=%d height=%d pitch=%d counter=%#x",
		p.Op, st, slot, p.Addr(1), ViewKindName(a[3]), a[4], a[5], a[6], a[7], a[8], a[9], p.Addr(10))
}
