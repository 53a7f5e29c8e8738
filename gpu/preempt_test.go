package gpu

import (
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
