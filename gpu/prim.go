package gpu

import "d3dsim/gpu/isa"

// Points and lines (aliased, one pixel wide; never culled).
//
// A point is the 1x1 pixel square centred on its vertex, rasterized as two
// triangles with the top-left rule, so it lights exactly one pixel. A point
// whose vertex is outside the clip volume is dropped.
//
// A line is clipped in homogeneous space, then walked along its major axis:
// it lights, in each pixel column (row for a steep line) whose centre lies in
// [start, end) along the direction of travel, the pixel whose centre is
// nearest the line there. That is a half-open walk close to D3D's diamond-exit
// rule (the last pixel is left for the next line of a strip), not a bit-exact
// copy of it. Attributes are perspective-correct along the line.

// point draws a point.
func (ex *executor) point(v *cvert) {
	if !finite(v) || ex.outcode(v) != 0 {
		return
	}
	d := &ex.draw
	var c svert
	d.project(v, &c)
	const h = 1 << (subBits - 1) // half a pixel
	q := d.sv[:4]
	for i := range q {
		q[i] = c
	}
	q[0].x, q[0].y = c.x-h, c.y-h // top left
	q[1].x, q[1].y = c.x+h, c.y-h // top right
	q[2].x, q[2].y = c.x-h, c.y+h // bottom left
	q[3].x, q[3].y = c.x+h, c.y+h // bottom right
	if d.tri.setup(&q[0], &q[1], &q[2], isa.CullNone, false, &d.pipe) {
		d.emit()
	}
	if d.tri.setup(&q[1], &q[3], &q[2], isa.CullNone, false, &d.pipe) {
		d.emit()
	}
}

// line draws a line from a to b.
func (ex *executor) line(a, b *cvert) {
	if !finite(a) || !finite(b) {
		return
	}
	// clip: the part of the segment a + t(b-a), t in [t0, t1], inside every
	// plane.
	ca, cb := ex.outcode(a), ex.outcode(b)
	if ca&cb != 0 {
		return
	}
	t0, t1 := 0.0, 1.0
	for k := 0; k < numPlanes; k++ {
		if (ca|cb)&(1<<k) == 0 {
			continue
		}
		da, db := dist(a, k), dist(b, k)
		if da < 0 {
			t0 = max(t0, da/(da-db))
		} else if db < 0 {
			t1 = min(t1, da/(da-db))
		}
	}
	if !(t0 < t1) {
		return
	}
	d := &ex.draw
	d.flush() // a line writes pixels itself: the triangles before it go first
	var p0, p1 cvert
	lerpVert(&p0, a, b, t0)
	lerpVert(&p1, a, b, t1)
	s0, s1 := &d.sv[0], &d.sv[1]
	d.project(&p0, s0)
	d.project(&p1, s1)

	// walk
	p, t := &d.pipe, &d.tri
	t.setupAttrs(s0, s1, s1, p)
	dx, dy := s1.x-s0.x, s1.y-s0.y
	if dx == 0 && dy == 0 {
		return
	}
	ri, bi := p.order()
	if abs(dx) >= abs(dy) {
		lo, hi := walkRange(s0.x, s1.x, p.sx0, p.sx1)
		for px := lo; px < hi; px++ {
			cx := int64(px)<<subBits + half
			py := int((s0.y + floorDiv((cx-s0.x)*dy, dx)) >> subBits)
			if py >= p.sy0 && py < p.sy1 {
				p.shaded++
				p.pixel(t, px, py, float64(cx-s0.x)/float64(dx), 0, ri, bi)
			}
		}
		return
	}
	lo, hi := walkRange(s0.y, s1.y, p.sy0, p.sy1)
	for py := lo; py < hi; py++ {
		cy := int64(py)<<subBits + half
		px := int((s0.x + floorDiv((cy-s0.y)*dx, dy)) >> subBits)
		if px >= p.sx0 && px < p.sx1 {
			p.shaded++
			p.pixel(t, px, py, float64(cy-s0.y)/float64(dy), 0, ri, bi)
		}
	}
}

// walkRange returns the pixels [lo, hi) along one axis whose centres are in
// [from, to) going up, or (to, from] going down, within the scissor [s0, s1).
func walkRange(from, to int64, s0, s1 int) (lo, hi int) {
	if to > from {
		lo = int(floorDiv(from-half+(1<<subBits)-1, 1<<subBits))
		hi = int(floorDiv(to-half+(1<<subBits)-1, 1<<subBits))
	} else {
		lo = int(floorDiv(to-half, 1<<subBits)) + 1
		hi = int(floorDiv(from-half, 1<<subBits)) + 1
	}
	return max(lo, s0), min(hi, s1)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Wireframe triangles (fill mode WIREFRAME): a triangle that survives
// culling is drawn as its three edges, each an aliased line with the rules
// above (so an edge lights at least one pixel per column or row it crosses,
// and a vertex is lit once, by the edge that leaves it). The facing is that
// of the triangle after clipping, as for a filled one, and a degenerate
// triangle draws nothing; but only the triangle's own edges are drawn, each
// clipped as a line: the borders clipping adds to a filled triangle are not
// edges. Adjacent triangles draw their shared edge twice (it matters only
// when blending).

// wireTriangle draws the edges of a triangle whose vertices have outcodes
// whose union is out.
func (ex *executor) wireTriangle(v0, v1, v2 *cvert, out uint32) {
	d, s := &ex.draw, &ex.st
	// facing, from the clipped polygon's signed area on the screen
	poly := d.poly[0][:3]
	poly[0], poly[1], poly[2] = *v0, *v1, *v2
	dst := 1
	for k := 0; k < numPlanes && len(poly) >= 3; k++ {
		if out&(1<<k) != 0 {
			poly = clipPoly(poly, d.poly[dst][:0], k)
			dst ^= 1
		}
	}
	if len(poly) < 3 {
		return
	}
	for i := range poly {
		d.project(&poly[i], &d.sv[i])
	}
	var area int64
	a := &d.sv[0]
	for i := 1; i+1 < len(poly); i++ {
		b, c := &d.sv[i], &d.sv[i+1]
		area += (c.y-a.y)*(b.x-a.x) - (c.x-a.x)*(b.y-a.y)
	}
	if area == 0 {
		return
	}
	front := (area > 0) != s.frontCCW
	if (s.cull == isa.CullBack && !front) || (s.cull == isa.CullFront && front) {
		return
	}
	// edges
	ex.line(v0, v1)
	ex.line(v1, v2)
	ex.line(v2, v0)
}
