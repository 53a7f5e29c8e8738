package shader

import (
	"encoding/binary"
	"errors"
	"math/bits"

	. "d3dsim/gpu/shaderisa"
)

// The compute stage's side of the machine: unordered access views (u#),
// groupshared memory (g#), their loads, stores and atomics, and thread
// groups larger than a block, which RunGroup runs block by block between
// the program's sync_g_t barriers.
//
// Out-of-range accesses follow the "Direct3D 11.3 Functional
// Specification" for UAVs: a load outside the view (or a structure's
// stride) reads 0, a store or atomic there does nothing, an imm_ atomic
// returns 0; an unbound u# behaves as an empty view. Groupshared memory
// outside its declaration, which D3D11 leaves undefined, does the same here,
// so that a run is deterministic.

// UAV is a view bound at a u# slot of the compute stage. Mem is the view's
// bytes (from its first element); Kind is a SET_VIEW kind (ViewBuffer
// typed, ViewRawBuffer, ViewStructured, ViewTex2D).
type UAV struct {
	Kind     uint32
	Mem      []byte
	Elements uint32 // typed and structured views: elements; raw: 32-bit words
	Stride   uint32 // bytes per element: a structure's stride, a typed format's size
	Width    uint32 // texture views: the mip level's size and row pitch
	Height   uint32
	Pitch    uint32
	// Depth and SlicePitch: an array view's slices or a 3D view's depth
	// slices, SlicePitch bytes apart (Depth 1 for one).
	Depth      uint32
	SlicePitch uint32
	Typed      TypedFormat // typed views: the format's conversion
	// Counter is the view's hidden counter (an append or consume view,
	// or one created with D3D11_BUFFER_UAV_FLAG_COUNTER): nil for none.
	Counter *uint32
}

// TypedFormat converts one element of a typed view: the gpu package
// implements it over its texel formats. Load gives the shader's four
// components (float bits, or integers for integer formats), Store writes
// them.
type TypedFormat interface {
	Load(b []byte) [4]uint32
	Store(b []byte, v [4]uint32)
}

// computeState is the compute stage's binding of a Machine.
type computeState struct {
	uav    [MaxUAVs]*UAV
	shared []uint32 // the group's groupshared memory
	decls  []SharedDecl
	yield  bool    // sync_g_t parks the block (RunGroup with several blocks)
	parked *parked // where Run resumes
	// traceBlock is the block a trace follows (SetTraceBlock).
	traceBlock int
}

// parked is a block stopped at sync_g_t: Run goes on from pc.
type parked struct {
	pc                int
	mask, alive, live uint64
	steps             int
	lanes             uint64
	stack             []frame
}

// errSynced is Run's return when a block parks at sync_g_t.
var errSynced = errors.New("shader: parked at sync_g_t")

// BindCompute binds the views of u0..u7 (nil: unbound).
func (m *Machine) BindCompute(uavs [MaxUAVs]*UAV) {
	m.compute.uav = uavs
	if m.compute.decls == nil {
		m.compute.decls, _ = m.prog.Shared()
	}
}

// SharedWords is the groupshared memory a group of the program needs, in
// 32-bit words.
func (m *Machine) SharedWords() int {
	_, n := m.prog.Shared()
	return int(n)
}

// RunGroup runs one thread group of n threads (1..MaxGroupThreads) over
// groupshared memory shared (SharedWords long; the caller clears it). fill
// fills the inputs of the lanes of block b (threads 64b...). Threads run in
// blocks of Lanes; a group of more than one block runs each block up to the
// next sync_g_t, then the next block, until every thread has passed the
// barrier: the barrier's semantics, deterministically. steps is the
// lane-steps of the whole group (what the GPU charges).
func (m *Machine) RunGroup(n int, shared []uint32, fill func(b int)) (steps uint64, err error) {
	m.compute.shared = shared
	if m.compute.decls == nil {
		m.compute.decls, _ = m.prog.Shared()
	}
	blocks := (n + Lanes - 1) / Lanes
	maskOf := func(b int) uint64 {
		if k := n - b*Lanes; k < Lanes {
			return 1<<uint(k) - 1
		}
		return AllLanes
	}
	// A trace (SetTrace) follows block TraceBlock's quad only: the other
	// blocks run untraced, and the trace is finished when its block is.
	tr := m.trace
	defer func() { m.trace = tr }()
	traceOn := func(b int) {
		if tr != nil {
			m.trace = nil
			if b == m.compute.traceBlock {
				m.trace = tr
			}
		}
	}
	traceEnd := func(b int) {
		if tr != nil && b == m.compute.traceBlock {
			tr.Finish(m)
		}
	}
	if blocks == 1 {
		// One block runs in lockstep: every thread reaches a barrier at
		// the same instruction.
		m.compute.yield = false
		fill(0)
		traceOn(0)
		_, err := m.Run(maskOf(0))
		traceEnd(0)
		return m.LaneSteps, err
	}
	m.compute.yield = true
	defer func() { m.compute.yield, m.compute.parked = false, nil }()
	type block struct {
		regs []Vec
		park *parked
		done bool
	}
	bs := make([]block, blocks)
	for b := range bs {
		bs[b].regs = make([]Vec, len(m.regs))
	}
	first := true
	for left := blocks; left > 0; first = false {
		for b := range bs {
			k := &bs[b]
			if k.done {
				continue
			}
			if first {
				fill(b)
			} else {
				copy(m.regs, k.regs)
				m.compute.parked = k.park
			}
			traceOn(b)
			_, err := m.Run(maskOf(b))
			steps += m.LaneSteps
			switch {
			case err == errSynced:
				k.park = m.compute.parked
				m.compute.parked = nil
				copy(k.regs, m.regs)
			case err != nil:
				return steps, err
			default:
				traceEnd(b)
				k.done = true
				left--
			}
		}
	}
	return steps, nil
}

// memory runs a load, store or atomic on a view or groupshared memory.
func (m *Machine) memory(in *xinst, mask uint64) {
	// Where the memory operand is, and the register sources after it.
	var file File
	var index uint32
	var swz [4]uint8
	var srcs [maxSrcs]*[4]*[Lanes]uint32
	nreg := 0
	if in.op.MemDst() {
		file, index = in.dstFile, in.dstBase
	}
	for k, cls := range in.op.Srcs() {
		switch cls {
		case ArgRes, ArgUAV, ArgMem:
			file, index, swz = in.src[k].file, in.src[k].index, in.src[k].swz
		default:
			srcs[nreg] = m.fetch(in, k)
			nreg++
		}
	}
	mem := m.target(file, index)
	switch in.op {
	case OpLdUAVTyped, OpLdRaw, OpLdStructured:
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			var v [4]uint32
			if in.op == OpLdUAVTyped {
				v = mem.loadTyped(srcs[0], i)
			} else {
				for c := range 4 {
					if p, ok := mem.word(in.op, srcs, i, uint32(c)); ok {
						v[c] = *p
					}
				}
			}
			for c := range 4 {
				m.res[c][i] = v[swz[c]]
			}
		}
		m.commit(in, mask, false)
	case OpStoreUAVTyped:
		val := srcs[1]
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			mem.storeTyped(srcs[0], i, [4]uint32{val[0][i], val[1][i], val[2][i], val[3][i]})
		}
	case OpStoreRaw, OpStoreStructured:
		val := srcs[nreg-1]
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			for c := range 4 {
				if in.mask>>c&1 == 0 {
					continue
				}
				if p, ok := mem.word(in.op, srcs, i, uint32(c)); ok {
					*p = val[c][i]
					mem.flush(p)
				}
			}
		}
	case OpImmAtomicAlloc, OpImmAtomicConsume:
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			var v uint32
			if u := mem.uav; u != nil && u.Counter != nil {
				if in.op == OpImmAtomicAlloc {
					v = *u.Counter
					*u.Counter++
				} else {
					*u.Counter--
					v = *u.Counter
				}
			}
			m.res[0][i] = v
		}
		m.commit(in, mask, true)
	default:
		// The atomics: lanes in order, each a read-modify-write of one
		// word, as if each thread's ran alone.
		imm := !in.op.MemDst()
		args := srcs[1:nreg]
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			p, ok := mem.atomicWord(srcs[0], i)
			if !ok {
				m.res[0][i] = 0
				continue
			}
			old := *p
			*p = atomic(in.op, old, args[0][0][i], args[len(args)-1][0][i])
			mem.flush(p)
			m.res[0][i] = old
		}
		if imm {
			m.commit(in, mask, true)
		}
	}
}

// atomic is the new value of one atomic operation on old (b: the compare
// and exchange's value; a: every other operation's operand or the
// comparand).
func atomic(op Op, old, a, b uint32) uint32 {
	switch op {
	case OpAtomicAnd, OpImmAtomicAnd:
		return old & a
	case OpAtomicOr, OpImmAtomicOr:
		return old | a
	case OpAtomicXor, OpImmAtomicXor:
		return old ^ a
	case OpAtomicIAdd, OpImmAtomicIAdd:
		return old + a
	case OpAtomicIMax, OpImmAtomicIMax:
		return uint32(max(int32(old), int32(a)))
	case OpAtomicIMin, OpImmAtomicIMin:
		return uint32(min(int32(old), int32(a)))
	case OpAtomicUMax, OpImmAtomicUMax:
		return max(old, a)
	case OpAtomicUMin, OpImmAtomicUMin:
		return min(old, a)
	case OpImmAtomicExch:
		return a
	case OpAtomicCmpStore, OpImmAtomicCmpExch:
		if old == a {
			return b
		}
	}
	return old
}

// memTarget is the memory an instruction reads or writes: a view or a
// groupshared declaration. Word accesses go through a scratch word so that
// views keep their little-endian bytes.
type memTarget struct {
	uav     *UAV
	shared  []uint32 // the declaration's words
	stride  uint32   // groupshared: a structured declaration's stride (0: raw)
	scratch uint32
	at      []byte // the view bytes scratch came from
}

func (m *Machine) target(f File, index uint32) *memTarget {
	t := &memTarget{}
	if f == FileUAV {
		t.uav = m.compute.uav[index]
		return t
	}
	if int(index) < len(m.compute.decls) {
		d := m.compute.decls[index]
		if end := d.Word + d.Bytes/4; int(end) <= len(m.compute.shared) {
			t.shared, t.stride = m.compute.shared[d.Word:end], d.Stride
		}
	}
	return t
}

// byteAddr is the byte an access of component c of lane i names: raw
// memory's byte offset (x), a structure's index (x) and offset (y), or
// ld_structured's and store_structured's two sources; ok false outside
// the memory (or the structure).
func (t *memTarget) byteAddr(op Op, srcs [maxSrcs]*[4]*[Lanes]uint32, i int, c uint32) (uint64, bool) {
	structured := t.stride != 0
	var stride, count uint64
	switch {
	case t.uav != nil:
		structured = t.uav.Kind == ViewStructured
		stride = uint64(t.uav.Stride)
		count = uint64(t.uav.Elements)
		if !structured {
			count = uint64(len(t.uav.Mem)) / 4 * 4
		}
	case t.shared != nil:
		stride = uint64(t.stride)
		count = uint64(len(t.shared)) * 4
		if structured {
			count /= stride
		}
	default:
		return 0, false
	}
	if !structured {
		off := uint64(srcs[0][0][i]&^3) + 4*uint64(c)
		return off, off+4 <= count
	}
	var idx, off uint64
	if op == OpLdStructured || op == OpStoreStructured {
		idx, off = uint64(srcs[0][0][i]), uint64(srcs[1][0][i]&^3)
	} else {
		idx, off = uint64(srcs[0][0][i]), uint64(srcs[0][1][i]&^3)
	}
	off += 4 * uint64(c)
	if idx >= count || off+4 > stride {
		return 0, false
	}
	return idx*stride + off, true
}

// word returns a pointer to the word component c of lane i addresses (for
// a view, scratch: flush writes it back), or false outside the memory.
func (t *memTarget) word(op Op, srcs [maxSrcs]*[4]*[Lanes]uint32, i int, c uint32) (*uint32, bool) {
	a, ok := t.byteAddr(op, srcs, i, c)
	if !ok {
		return nil, false
	}
	return t.wordAt(a)
}

func (t *memTarget) wordAt(a uint64) (*uint32, bool) {
	if t.uav != nil {
		if a+4 > uint64(len(t.uav.Mem)) {
			return nil, false
		}
		t.at = t.uav.Mem[a : a+4]
		t.scratch = binary.LittleEndian.Uint32(t.at)
		return &t.scratch, true
	}
	return &t.shared[a/4], true
}

// flush writes a view's scratch word back.
func (t *memTarget) flush(p *uint32) {
	if p == &t.scratch && t.at != nil {
		binary.LittleEndian.PutUint32(t.at, t.scratch)
	}
}

// atomicWord is the word an atomic's address names: a typed view's
// element at its coordinates (an R32 format), or raw or structured
// memory's word.
func (t *memTarget) atomicWord(addr *[4]*[Lanes]uint32, i int) (*uint32, bool) {
	if u := t.uav; u != nil && u.Kind != ViewRawBuffer && u.Kind != ViewStructured {
		b, ok := u.element(addr, i)
		if !ok || len(b) < 4 {
			return nil, false
		}
		return t.wordAt(uint64(len(u.Mem) - len(b)))
	}
	var srcs [maxSrcs]*[4]*[Lanes]uint32
	srcs[0] = addr
	a, ok := t.byteAddr(OpAtomicIAdd, srcs, i, 0)
	if !ok {
		return nil, false
	}
	return t.wordAt(a)
}

// element returns the bytes from a typed view's element at lane i's
// coordinates (x for a buffer, x and y for a 2D texture) to the view's
// end, or false outside it.
func (u *UAV) element(addr *[4]*[Lanes]uint32, i int) ([]byte, bool) {
	x := uint64(addr[0][i])
	var off uint64
	switch u.Kind {
	case ViewBuffer:
		if x >= uint64(u.Elements) {
			return nil, false
		}
		off = x * uint64(u.Stride)
	case ViewTex2D:
		y := uint64(addr[1][i])
		if x >= uint64(u.Width) || y >= uint64(u.Height) {
			return nil, false
		}
		off = y*uint64(u.Pitch) + x*uint64(u.Stride)
	case ViewTex1D, ViewTex1DArray, ViewTex2DArray, ViewTex3D:
		return u.sliceElement(addr, i)
	default:
		return nil, false
	}
	if off+uint64(u.Stride) > uint64(len(u.Mem)) {
		return nil, false
	}
	return u.Mem[off:], true
}

func (t *memTarget) loadTyped(addr *[4]*[Lanes]uint32, i int) [4]uint32 {
	u := t.uav
	if u == nil || u.Typed == nil {
		return [4]uint32{}
	}
	b, ok := u.element(addr, i)
	if !ok {
		return [4]uint32{}
	}
	return u.Typed.Load(b[:u.Stride])
}

func (t *memTarget) storeTyped(addr *[4]*[Lanes]uint32, i int, v [4]uint32) {
	u := t.uav
	if u == nil || u.Typed == nil {
		return
	}
	if b, ok := u.element(addr, i); ok {
		u.Typed.Store(b[:u.Stride], v)
	}
}

// SetTraceBlock chooses the block of Lanes threads whose quad RunGroup's
// trace follows (SetTrace): block b holds threads b*Lanes ...
func (m *Machine) SetTraceBlock(b int) { m.compute.traceBlock = b }
