package tess

import "math"

// isolineDomain tessellates an isoline patch: density lines at v = 0,
// 1/density, ... (the line at v=1 is not drawn), each of detail segments
// along u. The density is always integer-partitioned; the detail follows
// the patch's partitioning.
func (t *tessellator) isolineDomain(density, detail float32) {
	if !(density > 0) || !(detail > 0) {
		return
	}
	lo, hi := t.bounds()
	density = clampFactor(density, MinOddFactor, MaxFactor)
	detail = clampFactor(detail, lo, hi)

	detailOdd := t.fracOdd()
	if t.integerLike() {
		detail = float32(math.Ceil(float64(detail)))
		detailOdd = !evenInt(detail)
	}
	detailSpec := newEdgeSpec(toFixed(detail), detailOdd)

	density = float32(math.Ceil(float64(density)))
	densitySpec := newEdgeSpec(toFixed(density), !evenInt(density))
	lines := densitySpec.points - 1

	for line := range lines {
		v := densitySpec.place(line)
		for p := range detailSpec.points {
			t.point(detailSpec.place(p), v)
		}
	}
	if t.out == OutPoint {
		t.allPoints()
		return
	}
	n := detailSpec.points
	for line := range lines {
		for p := 1; p < n; p++ {
			t.index(line*n + p - 1)
			t.index(line*n + p)
		}
	}
}
