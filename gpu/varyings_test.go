package gpu

import "testing"

// planedTri is a triangle with planes for every attribute, for the tests
// that set one up outside a draw (the draw's come from attachPlanes).
func planedTri() (t tri) {
	p := make([]float64, 3*numAttr)
	t.a0, t.d1, t.d2 = p[:numAttr:numAttr], p[numAttr:2*numAttr:2*numAttr], p[2*numAttr:]
	return t
}

// TestBatchSlotsOwnPlanes: each slot next gives has planes of at least the
// draw's attributes (drawScratch.planesNa), its own (no other slot of the
// batch writes them), through draws of more attributes than the slots had,
// fewer, none, and more slots than attachPlanes gives planes at once.
func TestBatchSlotsOwnPlanes(t *testing.T) {
	var d drawScratch
	d.pipe.tileable = true
	for _, na := range []int{8, 4, 128, 8, 0, 12} {
		d.planesNa = na
		d.batch = d.batch[:0]
		for i := range 600 {
			tr := d.next()
			if len(tr.a0) < na || len(tr.d1) < na || len(tr.d2) < na {
				t.Fatalf("%d attributes: slot %d has planes of %d, %d, %d", na, i, len(tr.a0), len(tr.d1), len(tr.d2))
			}
			for k := range na {
				tr.a0[k], tr.d1[k], tr.d2[k] = float64(3*i), float64(3*i+1), float64(3*i+2)
			}
			d.batch = d.batch[:len(d.batch)+1] // (emit)
		}
		for i := range d.batch {
			tr := &d.batch[i]
			for k := range na {
				if tr.a0[k] != float64(3*i) || tr.d1[k] != float64(3*i+1) || tr.d2[k] != float64(3*i+2) {
					t.Fatalf("%d attributes: slot %d's planes were written through another slot or plane", na, i)
				}
			}
		}
	}
}
