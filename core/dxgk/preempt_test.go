package dxgk_test

import (
	"errors"
	"testing"

	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
	"d3dsim/gpu/isa"
)

// TestPreemptionKeepsALongBufferAlive: one DMA buffer of 100 clears runs
// longer than the TDR delay (1 ms). With the GPU answering preemption
// requests at packet boundaries, the scheduler's requests are answered
// (DXGK_INTERRUPT_DMA_PREEMPTED), the buffer is submitted again and resumes,
// and it completes with no TDR and the last clear's colour. With an engine
// that never looks at the request (the old model), the same buffer is reset
// and its device removed.
func TestPreemptionKeepsALongBufferAlive(t *testing.T) {
	run := func(preemptible bool) (*trace.Recorder, error, dxgk.RemovalReason, []byte) {
		s := sim.New(1)
		rec := trace.NewRecorder(s.Now, s.Thread)
		g := gpu.New(gpu.Config{VRAM: 64 << 20, Aperture: 64 << 20}, s, rec)
		k := dxgk.New(s, rec, kmd.New(g, s, kmd.Config{}), dxgk.Config{TDRDelay: 1_000_000})
		k.SetSegments(gpu.VRAMBase, 64<<20, gpu.ApertureBase, 64<<20, g.Memory())
		g.ConnectInterrupt(k.Interrupt)
		lim := gpu.Limits{RunNS: k.TimeoutAfter() + k.TimeoutAfter()/100}
		if preemptible {
			lim.PreemptCheckNS = k.PreemptAfter() / 10
		}
		g.SetLimits(lim)
		m := &machine{s: s, rec: rec, g: g, k: k}
		d, c := m.device(t, "dev")
		a := m.target(d, 512, 512, "rt")
		var b isa.Builder
		for i := range 100 {
			b.ClearRT(la(0, 0), 512, 512, 4*512, isa.FmtRGBA8, [4]float32{float32(i%2) * 1, 0, 1, 1})
		}
		f := must(k.Render(c, b.Words, []dxgk.AllocationListEntry{{Allocation: a, Write: true}}))
		err := k.WaitForFence(c, f)
		var px []byte
		if err == nil {
			px = m.pixel(t, d, a, 7, 7, 4*512)
		}
		return rec, err, k.RemovedReason(d), px
	}
	rec, err, why, px := run(true)
	if err != nil || why != dxgk.NotRemoved {
		t.Fatalf("preemptible: wait %v, removed %v", err, why)
	}
	n := map[string]int{}
	for _, e := range rec.Events() {
		n[e.Name]++
	}
	if n["DmaBufferPreempted"] < 2 || n["DmaPreempted"] != n["DmaBufferPreempted"] || n["DmaBufferResume"] < 2 || n["TDR"] != 0 {
		t.Errorf("events %v: want several preemptions answered and resumed, no TDR", n)
	}
	if want := []byte{255, 0, 255, 255}; string(px) != string(want) { // the 100th clear: i = 99, red 1
		t.Errorf("pixel %v, want %v", px, want)
	}
	_, err, why, _ = run(false)
	if !errors.Is(err, dxgk.ErrDeviceRemoved) || why != dxgk.RemovedHung {
		t.Errorf("an engine that does not answer: wait %v, removed %v; want a TDR", err, why)
	}
}
