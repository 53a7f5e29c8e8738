package gpu

import (
	"math"

	"d3dsim/gpu/isa"
)

// The rasterizer: fixed-point edge functions with 8 bits of subpixel
// precision, pixel centres at +0.5, D3D's top-left fill rule, walked in 8x8
// blocks that are rejected or accepted whole when an edge allows it.
//
// Coordinates are in 24.8 fixed point and at most 2^17 pixels from the
// origin, so an edge function value (a product of two coordinate differences)
// fits in 2^51 and int64 arithmetic is exact.

const (
	subBits = 8
	half    = 1 << (subBits - 1) // a pixel centre is at +0.5
	blk     = 8
)

// edgeFn is the edge function of the edge from (xi, yi) to (xi+dx, yi+dy):
// E(P) = (Py-yi)*dx - (Px-xi)*dy. It is positive inside a triangle that is
// clockwise on the screen (y down).
type edgeFn struct {
	xi, yi int64
	dx, dy int64
	a, b   int64 // change of E for one pixel step in x and in y
	bias   int64 // 0 on a top or left edge, -1 otherwise: E+bias >= 0 is inside
}

func makeEdge(from, to [2]int64) edgeFn {
	var e edgeFn
	e.set(from, to)
	return e
}

// set makes e the edge from from to to, in place (set-up writes a
// triangle's three edges so: returned, each was built and then copied,
// 14 instructions an edge).
func (e *edgeFn) set(from, to [2]int64) {
	dx, dy := to[0]-from[0], to[1]-from[1]
	e.xi, e.yi, e.dx, e.dy = from[0], from[1], dx, dy
	e.a, e.b = -dy<<subBits, dx<<subBits
	// On a clockwise triangle a top edge is horizontal and goes right, a left
	// edge goes up. A pixel centre exactly on any other edge is outside.
	e.bias = 0
	if !(dy < 0 || (dy == 0 && dx > 0)) {
		e.bias = -1
	}
}

// at is E at the centre of pixel (px, py).
func (e *edgeFn) at(px, py int) int64 {
	x := int64(px)<<subBits + half
	y := int64(py)<<subBits + half
	return (y-e.yi)*e.dx - (x-e.xi)*e.dy
}

// tri is a triangle set up for rasterization and interpolation.
type tri struct {
	v              [3][2]int64 // fixed-point vertices, clockwise
	e              [3]edgeFn   // e[i] is the edge opposite vertex i: E_i ∝ weight of vertex i
	x0, y0, x1, y1 int         // pixels to visit (x1, y1 exclusive)
	invArea        float64

	z0, dz1, dz2 float64 // depth: linear in screen space

	// Attributes: a = (a0 + b1*d1 + b2*d2) [/ (iw0 + b1*diw1 + b2*diw2)]
	// where b1, b2 are the screen-space weights of vertices 1 and 2. With
	// perspective, a0, d1, d2 interpolate a/w and the iw terms 1/w.
	persp           bool
	iw0, diw1, diw2 float64
	w0              float64   // clip w of vertex 0 (SV_Position.w without perspective)
	a0, d1, d2      []float64 // the draw's attributes' planes, out of line (varyings.go: attachPlanes)

	// For the Gouraud fast path (pixel.go, spanColor): no perspective and
	// every colour value of the three vertices in [0, 1]; alpha is the
	// alpha byte when all three vertices have the same alpha, else above
	// 0xFF.
	inRange bool
	// finite: every attribute plane (a0, d1, d2) is finite, so that a
	// NaN in the interpolation can only be made by its last operation,
	// with the machine's one default NaN whatever the order of the
	// operands; the pixel stage's row and column terms (pixelstage.go)
	// take only such triangles: two NaN operands would make the result's
	// bits depend on the order the compiler chose.
	finite bool
	alpha  uint32
	// deferred: set up only as far as its bounds (setupEdges) and stash;
	// finish makes its edges and planes, on the tile workers.
	deferred bool
	// front: the primitive faces front (a triangle by its winding and
	// the rasterizer state; points and lines always; a wireframe
	// triangle's edges as the triangle): the stencil's face and
	// SV_IsFrontFace.
	front bool
}

// setup prepares the triangle; it reports false when there is nothing to
// draw: degenerate, culled, or no pixel of the scissor rectangle in reach.
// Clockwise on the screen is front unless frontCCW.
func (t *tri) setup(v0, v1, v2 *svert, cull uint32, frontCCW bool, p *pipe) bool {
	ok, swapped := t.setupEdges(v0, v1, v2, cull, frontCCW, p, false)
	if !ok {
		return false
	}
	if swapped {
		v1, v2 = v2, v1
	}
	t.setupAttrs(v0, v1, v2, &v0.a, &v1.a, &v2.a, p)
	return true
}

// setupEdges is setup's first part, which reads the vertices' positions
// only: the tests that reject the triangle, its bounds, its vertices in
// clockwise order and, unless deferred (setupEdgeFns makes them later, on
// a tile worker: finish), its edges. It
// reports whether the triangle is drawn, and whether v1 and v2 were
// swapped to make it clockwise (setupAttrs takes them in that order).
func (t *tri) setupEdges(v0, v1, v2 *svert, cull uint32, frontCCW bool, p *pipe, deferred bool) (ok, swapped bool) {
	area := (v2.y-v0.y)*(v1.x-v0.x) - (v2.x-v0.x)*(v1.y-v0.y)
	if area == 0 {
		return false, false
	}
	front := (area > 0) != frontCCW
	if (cull == isa.CullBack && !front) || (cull == isa.CullFront && front) {
		return false, false
	}
	t.front = front
	if area < 0 {
		v1, v2 = v2, v1
		area = -area
		swapped = true
	}

	// Pixels whose centres can be inside, within the scissor rectangle.
	minX, maxX := min(v0.x, v1.x, v2.x), max(v0.x, v1.x, v2.x)
	minY, maxY := min(v0.y, v1.y, v2.y), max(v0.y, v1.y, v2.y)
	if p.ms.samples > 1 {
		t.msBounds(minX, minY, maxX, maxY, p)
	} else {
		t.x0 = max(int((minX-half+(1<<subBits)-1)>>subBits), p.sx0)
		t.y0 = max(int((minY-half+(1<<subBits)-1)>>subBits), p.sy0)
		t.x1 = min(int((maxX-half)>>subBits)+1, p.sx1)
		t.y1 = min(int((maxY-half)>>subBits)+1, p.sy1)
	}
	if t.x0 >= t.x1 || t.y0 >= t.y1 {
		return false, false
	}

	// (Element by element, and the edges from the vertices, not from
	// t.v: the literal was built and then copied.)
	t.v[0][0], t.v[0][1] = v0.x, v0.y
	t.v[1][0], t.v[1][1] = v1.x, v1.y
	t.v[2][0], t.v[2][1] = v2.x, v2.y
	if !deferred {
		t.e[0].set([2]int64{v1.x, v1.y}, [2]int64{v2.x, v2.y})
		t.e[1].set([2]int64{v2.x, v2.y}, [2]int64{v0.x, v0.y})
		t.e[2].set([2]int64{v0.x, v0.y}, [2]int64{v1.x, v1.y})
		t.invArea = 1 / float64(area)
	}
	return true, swapped
}

// setupEdgeFns is set-up's part that needs only t.v (clockwise): the edge
// functions and 1/area.
func (t *tri) setupEdgeFns() {
	v := &t.v
	t.e[0].set(v[1], v[2])
	t.e[1].set(v[2], v[0])
	t.e[2].set(v[0], v[1])
	area := (v[2][1]-v[0][1])*(v[1][0]-v[0][0]) - (v[2][0]-v[0][0])*(v[1][1]-v[0][1]) // > 0: clockwise
	t.invArea = 1 / float64(area)
}

// setupAttrs prepares the interpolation of depth and of the attributes the
// pixel program reads (pipe.lo, pipe.hi: progState.readSpan), from the
// vertices' screen positions and their attributes a0, a1, a2 (the clip
// vertices' own when the triangle was not clipped: no copy).
func (t *tri) setupAttrs(v0, v1, v2 *svert, a0, a1, a2 *[numAttr]float64, p *pipe) {
	t.z0, t.dz1, t.dz2 = v0.z, v1.z-v0.z, v2.z-v0.z
	t.persp = !(v0.w == v1.w && v1.w == v2.w)
	t.w0 = v0.w
	if p.colorOnly && !t.persp {
		lo := p.lo
		t.setupColor((*[4]float64)(a0[lo:lo+4]), (*[4]float64)(a1[lo:lo+4]), (*[4]float64)(a2[lo:lo+4]), lo)
		return
	}
	lo, hi := p.lo, p.hi
	s0, s1, s2 := t.a0[lo:hi], t.d1[lo:hi], t.d2[lo:hi]
	s1, s2 = s1[:len(s0)], s2[:len(s0)]
	x0, x1, x2 := a0[lo:hi], a1[lo:hi], a2[lo:hi]
	x1, x2 = x1[:len(x0)], x2[:len(x0)]
	// Every plane finite: v-v is +0 for a finite v and NaN otherwise, and
	// a NaN makes the sum NaN (one test, no branch a value); summed as
	// the planes are made, in the same order.
	z := 0.0
	if t.persp {
		iw0, iw1, iw2 := 1/v0.w, 1/v1.w, 1/v2.w
		t.iw0, t.diw1, t.diw2 = iw0, iw1-iw0, iw2-iw0
		for k := range x0 {
			b0, b1, b2 := float64(x0[k]*iw0), float64(x1[k]*iw1), float64(x2[k]*iw2)
			d1, d2 := b1-b0, b2-b0
			s0[k], s1[k], s2[k] = b0, d1, d2
			z += (b0 - b0) + (d1 - d1) + (d2 - d2)
		}
	} else {
		for k := range x0 {
			b0 := x0[k]
			d1, d2 := x1[k]-b0, x2[k]-b0
			s0[k], s1[k], s2[k] = b0, d1, d2
			z += (b0 - b0) + (d1 - d1) + (d2 - d2)
		}
	}
	if p.prog != nil && p.prog.flat|p.prog.lin != 0 {
		t.setupModes(a0, a1, a2, p)
		z = 0 // (the planes setupModes made)
		for k := range s0 {
			z += (s0[k] - s0[k]) + (s1[k] - s1[k]) + (s2[k] - s2[k])
		}
	}
	if p.prog != nil {
		t.finite = z == 0
	}
	t.inRange, t.alpha = false, 0x100
	if p.kind == spanColor && !t.persp {
		// Every colour value in [0, 1] (unit): v+0 is v but for -0,
		// which becomes +0, and the bits of a value in [+0, 1] are at
		// most 1's, those of a negative value, a NaN or one above 1 more
		// (no branch a value).
		m := uint64(0)
		for _, k := range &p.ch {
			k &= numAttr - 1 // (no bounds check)
			m = max(m, math.Float64bits(a0[k]+0), math.Float64bits(a1[k]+0), math.Float64bits(a2[k]+0))
		}
		t.inRange = m <= math.Float64bits(1)
		if a := p.ch[3]; t.d1[a] == 0 && t.d2[a] == 0 {
			t.alpha = uint32(unorm8(float32(t.a0[a])))
		}
	}
}

// setupColor is setupAttrs without perspective for a pixel program that
// reads one register and writes it as its colour, red to alpha
// (pipe.colorOnly: ps_vertexcolor), in straight code: the same planes,
// inRange, alpha and finite (four values of [0, 1] a vertex make finite
// planes; the sum of setupAttrs otherwise). x0, x1, x2 are the vertices'
// four values (attributes lo.. of each). Tris: 307 -> 193 instructions a
// triangle.
func (t *tri) setupColor(x0, x1, x2 *[4]float64, lo int) {
	s0, s1, s2 := (*[4]float64)(t.a0[lo:lo+4]), (*[4]float64)(t.d1[lo:lo+4]), (*[4]float64)(t.d2[lo:lo+4])
	m := max(colorPlane(x0, x1, x2, s0, s1, s2, 0), colorPlane(x0, x1, x2, s0, s1, s2, 1),
		colorPlane(x0, x1, x2, s0, s1, s2, 2), colorPlane(x0, x1, x2, s0, s1, s2, 3))
	t.inRange = m <= math.Float64bits(1)
	if t.inRange {
		t.finite = true
	} else {
		z := 0.0
		for k := range s0 {
			z += (s0[k] - s0[k]) + (s1[k] - s1[k]) + (s2[k] - s2[k])
		}
		t.finite = z == 0
	}
	t.alpha = 0x100
	if s1[3] == 0 && s2[3] == 0 {
		t.alpha = uint32(unorm8(float32(s0[3])))
	}
}

// colorPlane makes the planes of component k of the three vertices' values
// and returns the largest of their bits (setupAttrs' inRange); the planes
// may be the values (all three read first).
func colorPlane(x0, x1, x2, s0, s1, s2 *[4]float64, k int) uint64 {
	b0, b1, b2 := x0[k], x1[k], x2[k]
	s0[k], s1[k], s2[k] = b0, b1-b0, b2-b0
	return max(math.Float64bits(b0+0), math.Float64bits(b1+0), math.Float64bits(b2+0))
}

// stash keeps what setupAttrs reads of the three vertices (depth, w, the
// attributes the pixel program reads) in the triangle's own fields and
// planes, for planes to make the planes on a tile worker (finish): a0, d1,
// d2 hold the vertices' attributes, z0, dz1, dz2 their depths, w0, iw0,
// diw1 their w.
func (t *tri) stash(v0, v1, v2 *svert, a0, a1, a2 *[numAttr]float64, p *pipe) {
	t.z0, t.dz1, t.dz2 = v0.z, v1.z, v2.z
	t.w0, t.iw0, t.diw1 = v0.w, v1.w, v2.w
	lo, hi := p.lo, p.hi
	s0, s1, s2 := t.a0[lo:hi], t.d1[lo:hi], t.d2[lo:hi]
	for k := range s0 {
		s0[k], s1[k], s2[k] = a0[lo+k], a1[lo+k], a2[lo+k]
	}
}

// planes is setupAttrs on what stash kept, in place: the same operations
// on the same values (TestTilesSamePixels compares one worker, which sets
// up with setupAttrs, with several, which finish), for a pixel program
// with no flat or noperspective input (drawScratch.deferSetup).
func (t *tri) planes(p *pipe) {
	z0, z1, z2 := t.z0, t.dz1, t.dz2
	w0, w1, w2 := t.w0, t.iw0, t.diw1
	t.z0, t.dz1, t.dz2 = z0, z1-z0, z2-z0
	t.persp = !(w0 == w1 && w1 == w2)
	t.inRange, t.alpha = false, 0x100
	if p.kind == spanColor && !t.persp {
		// The vertices' colours, before they become planes.
		t.inRange = true
		for _, k := range p.ch {
			t.inRange = t.inRange && unit(t.a0[k]) && unit(t.d1[k]) && unit(t.d2[k])
		}
	}
	lo, hi := p.lo, p.hi
	s0, s1, s2 := t.a0[lo:hi], t.d1[lo:hi], t.d2[lo:hi]
	s1, s2 = s1[:len(s0)], s2[:len(s0)]
	if t.persp {
		iw0, iw1, iw2 := 1/w0, 1/w1, 1/w2
		t.iw0, t.diw1, t.diw2 = iw0, iw1-iw0, iw2-iw0
		for k := range s0 {
			a0, a1, a2 := float64(s0[k]*iw0), float64(s1[k]*iw1), float64(s2[k]*iw2)
			s0[k], s1[k], s2[k] = a0, a1-a0, a2-a0
		}
	} else {
		for k := range s0 {
			a0, a1, a2 := s0[k], s1[k], s2[k]
			s0[k], s1[k], s2[k] = a0, a1-a0, a2-a0
		}
	}
	if p.prog != nil {
		z := 0.0 // (setupAttrs: every plane finite)
		for k := range s0 {
			z += (s0[k] - s0[k]) + (s1[k] - s1[k]) + (s2[k] - s2[k])
		}
		t.finite = z == 0
	}
	if p.kind == spanColor && !t.persp {
		if a := p.ch[3]; t.d1[a] == 0 && t.d2[a] == 0 {
			t.alpha = uint32(unorm8(float32(t.a0[a])))
		}
	}
}

// finish completes the set-up of a triangle the geometry left to the tile
// workers (tri.deferred): its edges and planes.
func (t *tri) finish(p *pipe) {
	t.setupEdgeFns()
	t.planes(p)
	t.deferred = false
}

// unit reports whether v is in [0, 1] (false for NaN).
func unit(v float64) bool { return v >= 0 && v <= 1 }

// span returns the smallest and largest value of edge e over a block of
// w x h pixels whose top-left pixel has value v.
func (e *edgeFn) span(v int64, w, h int) (lo, hi int64) {
	ax, by := e.a*int64(w-1), e.b*int64(h-1)
	lo, hi = v, v
	if ax < 0 {
		lo += ax
	} else {
		hi += ax
	}
	if by < 0 {
		lo += by
	} else {
		hi += by
	}
	return lo, hi
}

// raster visits the triangle's pixels and hands each covered one to the
// pixel pipeline with its (exact, integer) barycentric weights.
func (t *tri) raster(p *pipe) {
	if p.ms.samples > 1 {
		t.rasterMS(p) // (msaa.go)
		return
	}
	t.rasterRows(p, t.y0, t.y1)
}

// rasterRows rasterizes the triangle's rows in [ylo, yhi), block by block.
// Blocks are visited from the triangle's own top-left pixel, not from a grid
// shared by all triangles, and every edge value is an exact integer, so a
// pixel's coverage and weights do not depend on which rows are asked for: a
// tile of rows draws exactly the pixels a whole-triangle pass draws there.
//
// Runs of whole blocks inside the triangle become one span per row (spans
// written straight into the target by the pixel pipeline); blocks outside an
// edge are skipped; the rest are walked row by row, where each row's covered
// pixels are one run.
func (t *tri) rasterRows(p *pipe, ylo, yhi int) {
	y0, y1 := max(t.y0, ylo), min(t.y1, yhi)
	if t.rowRuns(p) {
		t.rasterRuns(p, y0, y1) // rowspans.go
		return
	}
	e0, e1, e2 := &t.e[0], &t.e[1], &t.e[2]
	for by := y0; by < y1 && !p.stop; by += blk {
		if by > y0 && p.check != nil && !p.check() {
			return // a row of blocks at a time: the draw's checkpoint
		}
		bh := min(blk, y1-by)
		run := -1 // first x of a run of accepted blocks, -1 when none
		for bx := t.x0; bx < t.x1 && !p.stop; bx += blk {
			bw := min(blk, t.x1-bx)
			r0, r1, r2 := e0.at(bx, by), e1.at(bx, by), e2.at(bx, by)

			// Trivial reject: an edge is outside at every pixel. Trivial
			// accept: every edge is inside at every pixel.
			lo0, hi0 := e0.span(r0, bw, bh)
			lo1, hi1 := e1.span(r1, bw, bh)
			lo2, hi2 := e2.span(r2, bw, bh)
			if lo0+e0.bias >= 0 && lo1+e1.bias >= 0 && lo2+e2.bias >= 0 {
				if run < 0 {
					run = bx
				}
				continue
			}
			if run >= 0 {
				t.fullRows(p, run, bx, by, bh)
				run = -1
			}
			if hi0+e0.bias < 0 || hi1+e1.bias < 0 || hi2+e2.bias < 0 {
				continue
			}
			// Partly covered. A row's covered pixels are one run: each
			// edge's inside is an interval of x, and so is their
			// intersection.
			rows, n := &p.rows, 0
			for y := by; y < by+bh; y++ {
				w0, w1, w2 := r0+e0.bias, r1+e1.bias, r2+e2.bias
				x, end := bx, bx+bw
				for x < end && w0|w1|w2 < 0 {
					w0, w1, w2, x = w0+e0.a, w1+e1.a, w2+e2.a, x+1
				}
				start, s1, s2 := x, w1-e1.bias, w2-e2.bias
				for x < end && w0|w1|w2 >= 0 {
					w0, w1, w2, x = w0+e0.a, w1+e1.a, w2+e2.a, x+1
				}
				if x > start {
					rows[n] = rowSpan{y: y, x0: start, x1: x, w1: s1, w2: s2}
					n++
				}
				r0 += e0.b
				r1 += e1.b
				r2 += e2.b
			}
			if n > 0 {
				p.spans(t, rows[:n])
			}
		}
		if run >= 0 {
			t.fullRows(p, run, t.x1, by, bh)
		}
	}
}

// fullRows shades pixels x0..x1-1 of rows by..by+bh-1 (at most a block's),
// all inside the triangle: one span per row.
func (t *tri) fullRows(p *pipe, x0, x1, by, bh int) {
	e1, e2 := &t.e[1], &t.e[2]
	r1, r2 := e1.at(x0, by), e2.at(x0, by)
	rows := &p.rows
	for i := range bh {
		rows[i] = rowSpan{y: by + i, x0: x0, x1: x1, w1: r1, w2: r2}
		r1 += e1.b
		r2 += e2.b
	}
	p.spans(t, rows[:bh])
}
