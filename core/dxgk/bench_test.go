package dxgk

import "testing"

// BenchmarkRenderWait measures one command buffer through the whole kernel
// path — DxgkDdiRender, scheduling, patch, submit, ISR, DPC, fence — over the
// fake driver and hardware.
func BenchmarkRenderWait(b *testing.B) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(b, "dev")
	l := []AllocationListEntry{{Allocation: w.alloc(b, d, 4096, nil, "rt"), Write: true}, {Allocation: w.alloc(b, d, 4096, nil, "vb")}}
	for b.Loop() {
		f, err := w.k.Render(c, []uint32{1, 2, 3}, l)
		if err != nil {
			b.Fatal(err)
		}
		if err := w.k.WaitForFence(c, f); err != nil {
			b.Fatal(err)
		}
	}
}
