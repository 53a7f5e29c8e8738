package gpu

// Rows of a wide Gouraud triangle found by division, not by blocks.
//
// rasterRows walks 8x8 blocks, and a block that an edge crosses is walked
// pixel by pixel to find each row's run: for a triangle whose edges are not
// horizontal or vertical (a turned quad, the diagonal of any quad), a band
// of blocks along each edge, and every row split into as many runs as the
// blocks it crosses cut it into. For the Gouraud spans, whose pixels do not
// depend on how a row is cut into runs, a wide triangle's row is instead
// one run whose ends come from the three edge functions by one division
// each: the same exact integers, so the same pixels, weights and counts.

// rowRunsWidth is the narrowest triangle (bounding box, pixels) whose rows
// are found by division: a narrow triangle's few blocks cost less than
// three divisions a row.
const rowRunsWidth = 4 * blk

// rowRuns reports whether triangle t's rows go through rasterRuns: the
// Gouraud spans of a single-sampled target, with no watch (which takes
// the rows of a block through the pixel program), on a wide triangle with
// no horizontal or vertical edge. A triangle with one (each half of an
// axis-aligned quad) keeps the blocks: their whole rows and columns take
// spanColorCols' column terms and spanRowB1's row terms, which one run a
// row does not.
func (t *tri) rowRuns(p *pipe) bool {
	// (The width first: most triangles of a scene of many are narrower.)
	return t.x1-t.x0 >= rowRunsWidth && p.kind == spanColor && t.inRange && p.words != nil && p.watch == nil &&
		p.ms.samples <= 1 &&
		t.e[0].dx != 0 && t.e[0].dy != 0 && t.e[1].dx != 0 && t.e[1].dy != 0 && t.e[2].dx != 0 && t.e[2].dy != 0
}

// rasterRuns is rasterRows for a triangle that rowRuns accepts: the rows
// [y0, y1) a block's height at a time (the draw's checkpoint between two,
// where rasterRows has it), each row's covered pixels one run.
func (t *tri) rasterRuns(p *pipe, y0, y1 int) {
	e0, e1, e2 := &t.e[0], &t.e[1], &t.e[2]
	xs, n := t.x0, int64(t.x1-t.x0)
	r0, r1, r2 := e0.at(xs, y0), e1.at(xs, y0), e2.at(xs, y0)
	for by := y0; by < y1 && !p.stop; by += blk {
		if by > y0 && p.check != nil && !p.check() {
			return
		}
		bh := min(blk, y1-by)
		rows, k := &p.rows, 0
		for y := by; y < by+bh; y++ {
			lo, hi := int64(0), n
			lo, hi = e0.inside(r0, lo, hi)
			lo, hi = e1.inside(r1, lo, hi)
			lo, hi = e2.inside(r2, lo, hi)
			if lo < hi {
				rows[k] = rowSpan{y: y, x0: xs + int(lo), x1: xs + int(hi), w1: r1 + lo*e1.a, w2: r2 + lo*e2.a}
				k++
			}
			r0 += e0.b
			r1 += e1.b
			r2 += e2.b
		}
		if k > 0 {
			p.spans(t, rows[:k])
		}
	}
}

// inside narrows [lo, hi), pixel steps from a row's first pixel where the
// edge's value is v, to the steps inside the edge: v + bias + a*k >= 0.
// The values are exact integers (below 2^52, a below 2^34), so the
// division's rounding is all there is to get right: up for the first step
// in, down for the last.
func (e *edgeFn) inside(v, lo, hi int64) (int64, int64) {
	v += e.bias
	switch {
	case e.a > 0:
		if v < 0 {
			lo = max(lo, (-v+e.a-1)/e.a)
		}
	case e.a < 0:
		if v < 0 {
			return lo, lo
		}
		hi = min(hi, v/(-e.a)+1)
	default:
		if v < 0 {
			return lo, lo
		}
	}
	return lo, hi
}
