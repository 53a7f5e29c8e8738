//go:build !wasm

package gpu

import (
	"bytes"
	"testing"
)

// TestTilesOneRound: a batch that no budget can stop (runAhead's bound)
// is rasterized in one round of rows, one start of the other workers; one
// that a budget could stop goes round by round of roundRows rows, so that
// it stops where one goroutine stops. The pixels are one goroutine's.
func TestTilesOneRound(t *testing.T) {
	sc := FillScene()
	sc.Draws, sc.Triangles, sc.Pixels = 1, 2, sc.Pixels/200
	one := NewBenchRig(sc, 1)
	one.Frame()
	want := one.Target()
	for _, c := range []struct {
		desc   string
		limit  bool // a pixel budget the bounding boxes (twice the pixels) would pass
		rounds uint64
	}{
		{"no budget", false, 1},
		{"a budget the bounding boxes reach", true, (480 + roundRows - 1) / roundRows},
	} {
		r := NewBenchRig(sc, 2)
		if c.limit {
			r.g.SetLimits(Limits{MaxPixels: sc.Pixels * 3 / 2})
		}
		r.Frame()
		d := &r.g.ex.draw
		if d.rounds != c.rounds {
			t.Errorf("%s: %d rounds, want %d", c.desc, d.rounds, c.rounds)
		}
		if px := r.Stats().Pixels; px != sc.Pixels || len(r.Faults()) != 0 {
			t.Errorf("%s: %d pixels, faults %v; want %d and none", c.desc, px, r.Faults(), sc.Pixels)
		}
		if !bytes.Equal(r.Target(), want) {
			t.Errorf("%s: the target differs from one goroutine's", c.desc)
		}
	}
}
