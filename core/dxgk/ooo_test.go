package dxgk_test

import (
	"bytes"
	"testing"

	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu"
)

// newOOOMachine is newMachine with two engines and the out-of-order
// scheduler.
func newOOOMachine(t testing.TB) *machine {
	t.Helper()
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := gpu.New(gpu.Config{VRAM: 64 << 20, Aperture: 64 << 20, Engines: 2}, s, rec)
	k := dxgk.New(s, rec, kmd.New(g, s, kmd.Config{Engines: 2}), dxgk.Config{TDRDelay: 5_000_000, OutOfOrder: true})
	k.SetSegments(gpu.VRAMBase, 64<<20, gpu.ApertureBase, 64<<20, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	return &machine{s: s, rec: rec, g: g, k: k}
}

// TestOutOfOrderFences: a big clear of A, then a small independent clear of
// B, then a second clear of A. B runs on the other engine and finishes
// first, but the context's fence stays monotonic: fence 2 (B) reads as
// signalled only once fence 1 (A) does, and waiting for fence 2 means A's
// first clear is done too. The two clears of A keep their order (WAW).
func TestOutOfOrderFences(t *testing.T) {
	m := newOOOMachine(t)
	d, c := m.device(t, "dev")
	a := m.target(d, 512, 512, "A")
	b := m.target(d, 8, 8, "B")
	la := []dxgk.AllocationListEntry{{Allocation: a, Write: true}}
	lb := []dxgk.AllocationListEntry{{Allocation: b, Write: true}}
	f1 := must(m.k.Render(c, clear(512, 512, [4]float32{1, 0, 0, 1}), la))
	f2 := must(m.k.Render(c, clear(8, 8, [4]float32{0, 0, 1, 1}), lb))
	f3 := must(m.k.Render(c, clear(512, 512, [4]float32{0, 1, 0, 1}), la))

	// Run until B's buffer is done on the GPU while A's first is not.
	sawHeld := false
	m.s.RunUntil(func() bool {
		for _, e := range m.rec.Events() {
			if e.Name == "FenceHeld" && e.Fence == f2 {
				sawHeld = true
			}
		}
		return sawHeld
	})
	if !sawHeld {
		t.Fatalf("B's buffer never finished ahead of A's")
	}
	if got := m.k.CompletedFence(c); got >= f2 {
		t.Fatalf("CompletedFence = %d while fence %d is pending: fences must stay monotonic", got, f1)
	}
	ok(t, m.k.WaitForFence(c, f2))
	if got := m.k.CompletedFence(c); got < f2 {
		t.Fatalf("after waiting for fence %d CompletedFence = %d", f2, got)
	}
	ok(t, m.k.WaitForFence(c, f3))
	if p := m.pixel(t, d, a, 100, 100, 4*512); !bytes.Equal(p, []byte{0, 255, 0, 255}) {
		t.Errorf("A = %v, want the second clear (green): WAW order lost", p)
	}
	if p := m.pixel(t, d, b, 1, 1, 4*8); !bytes.Equal(p, []byte{0, 0, 255, 255}) {
		t.Errorf("B = %v, want blue", p)
	}
	var deps, gpu1 int
	for _, e := range m.rec.Events() {
		if e.Kind == trace.Dep {
			deps++
			if e.DMA == 0 || e.Args.Str(trace.KeyHazard) != "WAW" {
				t.Errorf("unexpected edge %+v", e)
			}
		}
		if e.Thread == "gpu1" && e.Name == "DmaBufferStart" {
			gpu1++
		}
	}
	if deps != 1 || gpu1 == 0 {
		t.Errorf("%d dep events (want 1: A's second clear after its first), %d buffers on gpu1 (want some)", deps, gpu1)
	}
}
