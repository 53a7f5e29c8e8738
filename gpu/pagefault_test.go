package gpu

import (
	"testing"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
)

// TestPageFaultStopsEngine: by default a page fault stops the engine as
// Windows expects of a GPU ("DXGK_INTERRUPT_TYPE",
// DXGK_INTERRUPT_DMA_PAGE_FAULTED): the buffer's fence is not written, the
// interrupt is raised, the fault register holds the buffer's fence, and the
// buffer behind it waits until Reset. With PaintPageFaults (the SamBookshelf
// article's illustration) the buffer completes and nothing is reported.
func TestPageFaultStopsEngine(t *testing.T) {
	tests := []struct {
		desc  string
		paint bool
	}{{"stop and report", false}, {"paint and go on", true}}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s := sim.New(1)
			rec := trace.NewRecorder(s.Now, s.Thread)
			g := New(Config{VRAM: 1 << 20, Aperture: 1 << 16, Engines: 1, PaintPageFaults: tt.paint}, s, rec)
			interrupts := 0
			g.ConnectInterrupt(func(int) { interrupts++ })
			bad := &isa.Builder{}
			bad.Write(0x1234, []byte{1}) // nothing is committed there
			bad.Fence(1)
			good := &isa.Builder{}
			good.Fence(2)
			g.Submit(0, 1, bad.Words)
			g.Submit(0, 2, good.Words)
			for s.Step() {
			}
			fence, faulted := g.PageFault(0)
			if tt.paint {
				if faulted || g.CompletedFence(0) != 2 || interrupts != 2 {
					t.Fatalf("fault register %d %v, fence %d, %d interrupts; want none, 2, 2", fence, faulted, g.CompletedFence(0), interrupts)
				}
				return
			}
			if !faulted || fence != 1 || g.CompletedFence(0) != 0 || interrupts != 1 || !g.Busy(0) {
				t.Fatalf("fault register %d %v, fence %d, %d interrupts, busy %v; want 1 true, 0, 1, true", fence, faulted, g.CompletedFence(0), interrupts, g.Busy(0))
			}
			g.Reset(0)
			if _, faulted := g.PageFault(0); faulted || g.Busy(0) {
				t.Fatalf("after Reset: faulted %v, busy %v", faulted, g.Busy(0))
			}
		})
	}
}
