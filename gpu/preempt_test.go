package gpu

import (
	"encoding/binary"
	"strings"
	"testing"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
)

// preemptRig is a one-engine GPU whose pixels cost 1 µs each, so that an
// 8x8 draw takes 64 µs of virtual time, checking for preemption at every
// packet boundary.
func preemptRig(t *testing.T, paintLoops bool) *rig {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	c := DefaultCosts()
	c.PixelNS = 1000
	g := New(Config{VRAM: 64 << 20, Aperture: 16 << 20, Engines: 1, Costs: c, PaintEndlessLoops: paintLoops}, s, rec)
	g.SetLimits(Limits{RunNS: 50_000_000, PreemptCheckNS: 1})
	return &rig{t: t, sim: s, rec: rec, g: g, next: VRAMBase}
}

// TestPreemptStopsAtABoundaryAndResumes: a buffer of ten draws asked to
// preempt while its third draw runs stops at the packet boundary after it,
// answers with the preemption fence and the last completed fence, and,
// submitted again, goes on at the packet it stopped before: every draw runs
// once, the pixels are those of a run without preemption, and the queued
// buffer behind it did not start.
func TestPreemptStopsAtABoundaryAndResumes(t *testing.T) {
	run := func(preempt bool) (*rig, Stats, []byte) {
		r := preemptRig(t, false)
		b, rt := loopScene(r, 8, 8, 0, 1)
		for range 9 {
			b.Draw(6, 0)
		}
		b.Fence(1)
		r.g.Submit(0, 1, b.Words)
		var q []uint32
		q = append(q, b.Words...)
		if !preempt {
			if !r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= 1 }) {
				t.Fatal("never completed")
			}
			return r, r.g.Stats(), r.rgba(rt)
		}
		r.g.Submit(0, 2, q) // queued behind it
		r.sim.Schedule(r.sim.Now()+150_000, "kernel", func() { r.g.Preempt(0, 3) })
		var pf, last uint64
		var ok bool
		r.sim.RunUntil(func() bool { pf, last, ok = r.g.Preempted(0); return ok })
		if !ok || pf != 3 || last != 0 {
			t.Fatalf("Preempted = %d, %d, %v; want preemption fence 3, last completed 0", pf, last, ok)
		}
		if r.g.Busy(0) {
			t.Fatal("busy after the preemption")
		}
		st := r.g.Stats()
		if st.Draws < 2 || st.Draws >= 10 {
			t.Fatalf("%d draws ran before the preemption", st.Draws)
		}
		var msg string
		for _, e := range r.rec.Events() {
			if e.Name == "DmaBufferPreempted" {
				msg = e.Msg
			}
		}
		if !strings.Contains(msg, "it resumes there when submitted again") || !strings.Contains(msg, "1 queued buffers behind it did not start") {
			t.Errorf("DmaBufferPreempted %q", msg)
		}
		r.g.Submit(0, 1, b.Words)
		if !r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= 1 }) {
			t.Fatal("the resubmitted buffer never completed")
		}
		resumed := false
		for _, e := range r.rec.Events() {
			resumed = resumed || e.Name == "DmaBufferResume" && e.DMA == 1
		}
		if !resumed {
			t.Error("no DmaBufferResume")
		}
		return r, r.g.Stats(), r.rgba(rt)
	}
	_, want, wantPx := run(false)
	_, got, gotPx := run(true)
	if got.Draws != want.Draws || got.Pixels != want.Pixels || got.Buffers != 1 {
		t.Errorf("preempted and resumed: %d draws, %d pixels, %d buffers; without preemption %d draws, %d pixels", got.Draws, got.Pixels, got.Buffers, want.Draws, want.Pixels)
	}
	if string(gotPx) != string(wantPx) {
		t.Error("the pixels differ from a run without preemption")
	}
}

// TestEndlessLoopNeverAnswers: a pixel program past the step limit is a
// draw that never reaches its boundary: the buffer never completes, a
// preemption request gets no answer, and the trace says why; with
// PaintEndlessLoops the draw paints the warning colour and completes.
func TestEndlessLoopNeverAnswers(t *testing.T) {
	for _, paint := range []bool{false, true} {
		r := preemptRig(t, paint)
		rt := r.target(4, 4, isa.FmtRGBA8)
		b := r.isaScene(rt, vsPass, BuiltinSource("ps_fault"), quadVerts(0, 0, 4, 4, 4, 4, white))
		b.Draw(6, 0)
		b.Fence(1)
		r.g.Submit(0, 1, b.Words)
		r.sim.Schedule(r.sim.Now()+100_000, "kernel", func() { r.g.Preempt(0, 2) })
		r.sim.RunUntil(func() bool { return false })
		_, _, answered := r.g.Preempted(0)
		done := r.g.CompletedFence(0) == 1
		if paint {
			if !done {
				t.Error("PaintEndlessLoops: the buffer did not complete")
			}
			continue
		}
		if done || answered || !r.g.Busy(0) {
			t.Fatalf("completed %v, answered %v, busy %v: want a buffer that never ends", done, answered, r.g.Busy(0))
		}
		var msg string
		for _, e := range r.rec.Events() {
			if e.Name == "DmaBufferOverrun" {
				msg = e.Msg
			}
		}
		if !strings.Contains(msg, "never reaches its boundary") || !strings.Contains(msg, "step limit") {
			t.Errorf("DmaBufferOverrun %q", msg)
		}
	}
}

// TestPreemptBetweenDispatches: a DISPATCH is one packet, so compute work
// is preempted between dispatches (D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY)
// and, resumed, runs every dispatch once: the atomic counter counts each
// thread of the ten dispatches exactly once.
func TestPreemptBetweenDispatches(t *testing.T) {
	r := preemptRig(t, false)
	counter := r.buffer(make([]byte, 16))
	prog, words := r.program(`cs inputs=4 outputs=0 temps=1
dcl_thread_group l(64, 1, 1, 0)
loop
  iadd r0.x, r0.x, l(1, 1, 1, 1)
  uge r0.y, r0.x, l(64, 64, 64, 64)
  breakc_nz r0.y
endloop
atomic_iadd u0, l(0, 0, 0, 0), l(1, 1, 1, 1)
ret
`)
	var b isa.Builder
	b.SetProgram(isa.StageCS, prog, words, 0)
	b.SetUAV(0, counter, isa.ViewRawBuffer, 0, 4, 4, 1, 0, 0, 0)
	for range 10 {
		b.Dispatch(64, 1, 1)
	}
	b.Fence(1)
	r.g.Submit(0, 1, b.Words)
	r.sim.Schedule(r.sim.Now()+3000, "kernel", func() { r.g.Preempt(0, 2) })
	var ok bool
	r.sim.RunUntil(func() bool { _, _, ok = r.g.Preempted(0); return ok || r.g.CompletedFence(0) >= 1 })
	if !ok {
		t.Fatal("the ten dispatches completed before the request: make them longer")
	}
	ran := binary.LittleEndian.Uint32(r.mem(counter, 4))
	if ran == 0 || ran%(64*64) != 0 || ran >= 10*64*64 {
		t.Fatalf("%d threads ran before the preemption: want whole dispatches, fewer than ten", ran)
	}
	r.g.Submit(0, 1, b.Words)
	if !r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= 1 }) {
		t.Fatal("the resubmitted buffer never completed")
	}
	if got := binary.LittleEndian.Uint32(r.mem(counter, 4)); got != 10*64*64 {
		t.Errorf("%d threads ran in all, want %d: a dispatch ran twice or not at all", got, 10*64*64)
	}
}
