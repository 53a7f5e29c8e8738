package umd

import (
	"math/rand/v2"
	"testing"

	"d3dsim/core/ddi"
)

// TestSetSRVsBits checks setSRVs (which clears a range's bits a word at a
// time) against the slot-by-slot rule: after any sequence of calls, bit i
// of srvs is set exactly when slot i holds a handle, and the slots hold
// what was last sent (ranges across the word boundary, to the last slot,
// past it, and empty).
func TestSetSRVsBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 1))
	var c context
	var want [ddi.ShaderResourceSlots]ddi.HSHADERRESOURCEVIEW
	for step := range 2000 {
		start := rng.IntN(ddi.ShaderResourceSlots + 4)
		views := make([]ddi.HSHADERRESOURCEVIEW, rng.IntN(ddi.ShaderResourceSlots+1))
		for i := range views {
			if rng.IntN(3) == 0 {
				views[i] = ddi.HSHADERRESOURCEVIEW(1 + rng.IntN(9))
			}
		}
		c.setSRVs(1, uint32(start), views)
		for i, h := range views {
			if j := start + i; j < len(want) {
				want[j] = h
			}
		}
		ss := &c.st.stages[1]
		if ss.srv != want {
			t.Fatalf("step %d (start %d, %d views): the slots differ", step, start, len(views))
		}
		for i, h := range want {
			if on := ss.srvs[i/64]&(1<<(i%64)) != 0; on != (h != 0) {
				t.Fatalf("step %d (start %d, %d views): slot %d holds %d, bit %v", step, start, len(views), i, h, on)
			}
		}
	}
}
