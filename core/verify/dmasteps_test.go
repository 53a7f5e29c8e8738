package verify

import (
	"math/rand/v2"
	"testing"
)

// TestDMASteps: dmaSteps answers as the two maps it replaced would, for ids
// in order, out of order, far apart and past the dense part.
func TestDMASteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var d dmaSteps
	built, patched := map[uint64]bool{}, map[uint64]bool{}
	ids := []uint64{0, 1, 2, 3, dmaDense - 1, dmaDense, dmaDense + 1, 1 << 40, ^uint64(0)}
	for i := 0; i < 20000; i++ {
		var id uint64
		switch rng.IntN(4) {
		case 0:
			id = ids[rng.IntN(len(ids))]
		case 1:
			id = uint64(i) // in order, as Dxgkrnl numbers them
		case 2:
			id = rng.Uint64N(5000)
		default:
			id = rng.Uint64()
		}
		switch rng.IntN(3) {
		case 0:
			d.set(id, dmaBuilt)
			built[id] = true
		case 1:
			d.set(id, dmaPatched)
			patched[id] = true
		}
		for _, q := range []uint64{id, id + 1, id - 1, ids[rng.IntN(len(ids))]} {
			if d.has(q, dmaBuilt) != built[q] || d.has(q, dmaPatched) != patched[q] {
				t.Fatalf("id %d: has built %v patched %v, want %v %v", q, d.has(q, dmaBuilt), d.has(q, dmaPatched), built[q], patched[q])
			}
		}
	}
	if len(d.dense) > dmaDense {
		t.Fatalf("dense part %d bytes, bound %d", len(d.dense), dmaDense)
	}
}
