package kmd

import (
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/gpu/isa"
)

// BenchmarkRender measures validating and translating a command buffer of
// 100 draws (about 2,000 words).
func BenchmarkRender(b *testing.B) {
	r := newRig(b)
	var cb isa.Builder
	for i := 0; i < 100; i++ {
		cb.SetRT(la(0, 0), 64, 64, 256, isa.FmtRGBA8)
		cb.SetVB(0, la(1, 0), 4096, 36, 0)
		cb.SetTopology(isa.TopoTriangleList)
		cb.Draw(3, 0)
	}
	l := list(1, 2)
	b.SetBytes(int64(4 * len(cb.Words)))
	for b.Loop() {
		a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: cb.Words, AllocationList: l}
		if err := r.d.DxgkDdiRender(&a); err != nil {
			b.Fatal(err)
		}
	}
}
