package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"math"
)

// The stream-output stage ("Stream-Output Stage"): SET_SO_TARGET binds the
// buffers, SET_SO_DECL what each vertex writes; every primitive on its way
// to the clipper (the geometry program's, or the input assembler's
// without one) is written whole, vertex by vertex, before clipping, to
// every buffer its declaration names, in order: strips become lists. A
// primitive that does not fit in every buffer is written to none
// (PrimitivesStorageNeeded counts it, NumPrimitivesWritten does not, and
// the overflow predicate is set). With SORasterize off the primitive goes
// no further (D3D11_SO_NO_RASTERIZED_STREAM). A geometry program's
// emit_stream m# puts its vertices in stream #: each buffer takes one
// stream's primitives (its own counters, SO_STATISTICS_STREAMn), and
// only the rasterized stream's reach the rasterizer. DRAW_AUTO draws
// what a buffer holds.

// soTarget is a bound stream-output buffer.
type soTarget struct {
	mem     []byte // the buffer's bytes
	counter []byte // its filled size, 4 bytes
}

// soState is the stage's state.
type soState struct {
	target    [isa.MaxSOTargets]soTarget
	on        bool
	rasterize bool
	strides   [isa.MaxSOTargets]uint32
	used      [isa.MaxSOTargets]bool
	stream    [isa.MaxSOTargets]uint32 // the stream each slot takes
	rast      uint32                   // the rasterized stream
	cur       uint32                   // the stream of the primitive on its way (gsDraw)
	entries   []uint32
}

// setSO runs SET_SO_TARGET and SET_SO_DECL.
func (ex *executor) setSO(p isa.Packet) {
	s, a := &ex.st.so, p.Args
	switch p.Op {
	case isa.OpSetSOTarget:
		slot := a[0]
		if slot >= isa.MaxSOTargets {
			ex.fault("stream-output slot %d outside 0..%d", slot, isa.MaxSOTargets-1)
			return
		}
		s.target[slot] = soTarget{}
		if p.Addr(1) == 0 {
			return
		}
		mem, ok := ex.bytes("stream-output buffer", p.Addr(1), uint64(a[3]))
		ctr, ok2 := ex.bytes("stream-output filled size", p.Addr(4), 4)
		if !ok || !ok2 {
			return
		}
		if a[6] != isa.SOAppend {
			binary.LittleEndian.PutUint32(ctr, a[6])
		}
		s.target[slot] = soTarget{mem: mem, counter: ctr}
	case isa.OpSetSODecl:
		s.on, s.rasterize, s.used, s.entries, s.rast = false, true, [isa.MaxSOTargets]bool{}, s.entries[:0], 0
		if a[0]&^isa.SOFlagsMask != 0 {
			ex.fault("SET_SO_DECL flags %#x", a[0])
			return
		}
		for slot := range s.stream {
			s.stream[slot] = isa.SOStreamOf(a[0], uint32(slot))
		}
		s.rast = isa.SORasterizedOf(a[0])
		copy(s.strides[:], a[1:5])
		for _, st := range s.strides {
			if st%4 != 0 || st > isa.MaxSOStride {
				ex.fault("stream-output stride %d: a multiple of 4 up to %d", st, isa.MaxSOStride)
				return
			}
		}
		var fill [isa.MaxSOTargets]uint32
		for _, e := range a[5:] {
			slot, reg, start, count := isa.SplitSOEntry(e)
			if slot >= isa.MaxSOTargets || count == 0 || reg != isa.SOGap && (reg >= isa.MaxVaryings || start+count > 4) || count > 4 {
				ex.fault("stream-output entry %#x: slot 0..3, register o0..o%d, components inside xyzw", e, isa.MaxVaryings-1)
				return
			}
			fill[slot] += 4 * count
			if fill[slot] > s.strides[slot] {
				ex.fault("stream-output slot %d: its entries take %d bytes of a vertex, its stride is %d", slot, fill[slot], s.strides[slot])
				return
			}
			s.used[slot] = true
		}
		s.entries = append(s.entries, a[5:]...)
		s.on, s.rasterize = len(s.entries) > 0, a[0]&isa.SORasterize != 0 || len(a) == 5
	}
}

// soPosReg is the output register of SV_Position the stage's vertices
// hold in cvert.p (the geometry program's, or the vertex program's).
func (ex *executor) soPosReg() int {
	if ps := &ex.draw.prog; ps.gs != nil {
		return ps.gsPos
	} else {
		return ps.vsPos
	}
}

// streamOut writes one primitive of vs, of stream s.cur, to the bound
// buffers that take that stream.
func (ex *executor) streamOut(vs ...*cvert) {
	s := &ex.st.so
	c := &ex.e.ctr
	c[ctrSONeeded+s.cur]++
	n := uint32(len(vs))
	var at [isa.MaxSOTargets]uint32
	var mine [isa.MaxSOTargets]bool
	for slot := range s.used {
		if !s.used[slot] || s.stream[slot] != s.cur {
			continue
		}
		mine[slot] = true
		t := &s.target[slot]
		if t.mem == nil {
			// An unbound slot takes nothing: D3D11 writes to no buffer
			// there and the others go on.
			continue
		}
		at[slot] = binary.LittleEndian.Uint32(t.counter)
		if uint64(at[slot])+uint64(n)*uint64(s.strides[slot]) > uint64(len(t.mem)) {
			c[ctrSOOverflow+s.cur]++
			return
		}
	}
	pos := ex.soPosReg()
	flat := ex.draw.prog.flatRegs() // registers the vertices carry as bits (interp.go)
	for _, v := range vs {
		var off [isa.MaxSOTargets]uint32
		for _, e := range s.entries {
			slot, reg, start, count := isa.SplitSOEntry(e)
			if !mine[slot] {
				continue
			}
			t := &s.target[slot]
			if reg != isa.SOGap && t.mem != nil {
				for k := start; k < start+count; k++ {
					var f float64
					switch {
					case int(reg) == pos:
						f = v.p[k]
					case int(4*reg+k) < ex.draw.prog.nattr:
						f = v.a[4*reg+k] // (past the draw's attributes: a register no program wrote, 0)
					}
					o := at[slot] + off[slot] + 4*(k-start)
					if int(reg) != pos && flat>>reg&1 != 0 {
						binary.LittleEndian.PutUint32(t.mem[o:], uint32(f))
						continue
					}
					binary.LittleEndian.PutUint32(t.mem[o:], math.Float32bits(float32(f)))
				}
			}
			off[slot] += 4 * count
		}
		for slot := range at {
			at[slot] += s.strides[slot]
		}
	}
	for slot := range s.used {
		if t := &s.target[slot]; mine[slot] && t.mem != nil {
			binary.LittleEndian.PutUint32(t.counter, at[slot])
		}
	}
	c[ctrSOWritten+s.cur]++
}

// The primitives on their way to the clipper: stream output first, then
// the rasterizer unless the declaration says no rasterized stream or the
// primitive is of another stream.

// soDropped reports whether the primitive that went to stream output
// goes no further.
func (ex *executor) soDropped() bool {
	s := &ex.st.so
	return !s.rasterize || ex.draw.soOnly || s.cur != s.rast
}

func (ex *executor) outPoint(v *cvert) uint64 {
	if ex.st.so.on {
		ex.streamOut(v)
		if ex.soDropped() {
			return 0
		}
	}
	return ex.point(v)
}

func (ex *executor) outLine(a, b *cvert) uint64 {
	if ex.st.so.on {
		ex.streamOut(a, b)
		if ex.soDropped() {
			return 0
		}
	}
	return ex.line(a, b)
}

func (ex *executor) outTriangle(a, b, c *cvert) uint64 {
	if ex.st.so.on {
		ex.streamOut(a, b, c)
		if ex.soDropped() {
			return 0
		}
	}
	return ex.triangle(a, b, c)
}

// drawAuto runs DRAW_AUTO: the vertices the buffer's filled size holds.
func (ex *executor) drawAuto(p isa.Packet) {
	stride := p.Args[2]
	ctr, ok := ex.bytes("stream-output filled size", p.Addr(0), 4)
	if !ok {
		return
	}
	if stride == 0 {
		ex.fault("DRAW_AUTO with a vertex stride of 0")
		return
	}
	ex.drawInstances(false, binary.LittleEndian.Uint32(ctr)/stride, 0, 0, 1, 0)
}
