package gpu

import (
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// A compute program that moves particles (a structured buffer of
// position xy, velocity xy) by dt from cb0 and counts, with an atomic on a
// raw view, the particles that left [0, 1), and appends each one's index to
// an append view (its hidden counter).
const moveParticles = `cs inputs=4 outputs=0 temps=3
dcl_thread_group l(32, 1, 1, 0)
ld_structured r0, v0.x, l(0, 0, 0, 0), u0.xyzw
mad r0.xy, r0.zwzz, cb0[0].xxxx, r0.xyxx
store_structured u0.xy, v0.x, l(0, 0, 0, 0), r0.xyxx
ge r1.x, r0.x, l(1.0, 1.0, 1.0, 1.0)
lt r1.y, r0.x, l(0, 0, 0, 0)
or r1.x, r1.x, r1.y
if_nz r1.x
  atomic_iadd u1, l(0, 0, 0, 0), l(1, 1, 1, 1)
  imm_atomic_alloc r2.x, u2
  ishl r2.y, r2.x, l(2, 2, 2, 2)
  store_raw u3.x, r2.y, v0.x
endif
ret
`

func TestDispatchMovesParticles(t *testing.T) {
	r := newRig(t)
	const n = 100 // four groups of 32: the last group's threads past 99 read and write nothing
	parts := make([]byte, 16*n)
	want := make([][2]float32, n)
	out := 0
	for i := range n {
		p := [4]float32{float32(i) / n, 0.5, float32(i%7) - 3, 1}
		for c, v := range p {
			binary.LittleEndian.PutUint32(parts[16*i+4*c:], math.Float32bits(v))
		}
		dt := float32(0.125)
		want[i] = [2]float32{float32(p[2]*dt) + p[0], float32(p[3]*dt) + p[1]}
		if want[i][0] >= 1 || want[i][0] < 0 {
			out++
		}
	}
	pb := r.buffer(parts)
	counter := r.buffer(make([]byte, 16)) // word 0: the count; word 2: the append view's hidden counter
	list := r.buffer(make([]byte, 4*n))
	cb := r.buffer([]byte{0, 0, 0, 0x3e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}) // 0.125
	prog, words := r.program(moveParticles)
	var b isa.Builder
	b.SetProgram(isa.StageCS, prog, words, 0)
	b.SetCB(isa.StageCS, 0, cb, 16)
	b.SetUAV(0, pb, isa.ViewStructured, 0, 16*n, 16, n, 0, 0, 0)
	b.SetUAV(1, counter, isa.ViewRawBuffer, 0, 4, 4, 1, 0, 0, 0)
	b.SetUAV(2, list, isa.ViewRawBuffer, 0, 4*n, 4, n, 0, 0, counter+8)
	b.SetUAV(3, list, isa.ViewRawBuffer, 0, 4*n, 4, n, 0, 0, 0)
	b.Dispatch(4, 1, 1)
	r.mustExec(&b)
	got := r.mem(pb, 16*n)
	for i := range n {
		x := math.Float32frombits(binary.LittleEndian.Uint32(got[16*i:]))
		y := math.Float32frombits(binary.LittleEndian.Uint32(got[16*i+4:]))
		if x != want[i][0] || y != want[i][1] {
			t.Fatalf("particle %d at %v, %v, want %v", i, x, y, want[i])
		}
	}
	c := r.mem(counter, 12)
	if cnt, alloc := binary.LittleEndian.Uint32(c), binary.LittleEndian.Uint32(c[8:]); cnt != uint32(out) || alloc != uint32(out) || out == 0 {
		t.Fatalf("count %d, append counter %d, want %d", cnt, alloc, out)
	}
	if st := r.g.Stats(); st.Instructions == 0 {
		t.Error("no instructions counted")
	}
}

// Bad dispatches fault with the reason, never a panic; an endless compute
// loop stops at the run's instruction budget like a draw.
func TestDispatchFaults(t *testing.T) {
	r := newRig(t)
	var b isa.Builder
	b.Dispatch(1, 1, 1)
	if f := r.exec(&b); len(f) != 1 || !strings.Contains(f[0].Reason, "no compute program") {
		t.Fatalf("faults %v", f)
	}
	ps, pn := r.program("ps inputs=1 outputs=1\nmov o0, v0")
	b = isa.Builder{}
	b.SetProgram(isa.StageCS, ps, pn, 0)
	b.Dispatch(1, 1, 1)
	b.Dispatch(65536, 1, 1)
	b.SetUAV(9, 0x1000, isa.ViewRawBuffer, 0, 4, 4, 1, 0, 0, 0)
	f := r.exec(&b)
	if len(f) != 3 || !strings.Contains(f[0].Reason, "is a ps program") || !strings.Contains(f[1].Reason, "at most 65535") ||
		!strings.Contains(f[2].Reason, "slot 9") {
		t.Fatalf("faults %v", f)
	}
	cs, cn := r.program("cs inputs=4 temps=1\ndcl_thread_group l(64, 1, 1, 0)\nloop\nendloop\nret")
	b = isa.Builder{}
	b.SetProgram(isa.StageCS, cs, cn, 0)
	b.Dispatch(1000, 1, 1)
	f = r.exec(&b)
	if len(f) != 1 || !strings.Contains(f[0].Reason, "compute program: shader: instruction 2: more than 65536 instructions in one block: shader: step limit (thread group 0, 0, 0)") {
		t.Fatalf("faults %v", f)
	}
	// A long loop that ends stops at the run's instruction budget.
	r = newRig(t)
	r.g.SetLimits(Limits{MaxInstructions: 1_000_000})
	cs, cn = r.program("cs inputs=4 temps=1\ndcl_thread_group l(64, 1, 1, 0)\nmov r0.x, l(1000, 0, 0, 0)\nloop\nbreakc_z r0.x\niadd r0.x, r0.x, l(-1, 0, 0, 0)\nendloop\nret")
	b = isa.Builder{}
	b.SetProgram(isa.StageCS, cs, cn, 0)
	b.Dispatch(1000, 1, 1)
	b.Dispatch(1, 1, 1) // skipped
	r.mustExec(&b)
	if s := r.g.Stopped(); s == nil || s.Op != "DISPATCH" || s.Limit != "instructions" {
		t.Fatalf("stopped %+v", s)
	}
	if n := r.g.Stats().Instructions; n < 1_000_000 || n > 1_000_000+3*64*1000+64*10 {
		t.Errorf("%d instructions at a budget of 1,000,000", n)
	}
}

// A dispatch that runs past the buffer's deadline (timeout detection) is a
// hang like a draw's: the buffer never completes and DmaBufferOverrun
// names the DISPATCH.
func TestDispatchOverrunIsAHang(t *testing.T) {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := New(Config{VRAM: 64 << 20, Aperture: 16 << 20, Engines: 1, Costs: DefaultCosts(), PaintPageFaults: true}, s, rec)
	r := &rig{t: t, sim: s, rec: rec, g: g, next: VRAMBase}
	g.SetLimits(Limits{RunNS: 50_000})
	cs, cn := r.program("cs inputs=4 temps=1\ndcl_thread_group l(256, 1, 1, 0)\nmov r0.x, l(20000, 0, 0, 0)\nloop\nbreakc_z r0.x\niadd r0.x, r0.x, l(-1, 0, 0, 0)\nendloop\nret")
	var b isa.Builder
	b.SetProgram(isa.StageCS, cs, cn, 0)
	b.Dispatch(1000, 1, 1)
	b.Fence(1)
	g.Submit(0, 1, b.Words)
	s.RunUntil(func() bool { return false })
	if g.CompletedFence(0) != 0 || !g.Busy(0) {
		t.Fatalf("fence %d, busy %v: the buffer completed", g.CompletedFence(0), g.Busy(0))
	}
	var msg string
	for _, e := range rec.Events() {
		if e.Name == "DmaBufferOverrun" {
			msg = e.Msg
		}
	}
	if !strings.Contains(msg, "DISPATCH (packet") || !strings.Contains(msg, "the deadline of timeout detection") {
		t.Errorf("DmaBufferOverrun %q", msg)
	}
}
