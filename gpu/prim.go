package gpu

import "d3dsim/gpu/isa"

// Points and lines (aliased, one pixel wide; never culled).
//
// A point is the 1x1 pixel square centred on its vertex, rasterized as two
// triangles with the top-left rule, so it lights exactly one pixel. A point
// whose vertex is outside the clip volume is dropped.
//
// A line is clipped in homogeneous space, then rasterized with Direct3D 11's
// rule for aliased lines ("Rasterization Rules", line rasterization without
// multisampling): the diamond-exit rule. Each pixel has a diamond test area,
// |x-cx| + |y-cy| < 1/2 around its centre. An x-major line (-1 <= slope <=
// 1) uses a diamond that includes its lower-left and lower-right edges and
// its bottom corner and excludes the upper edges and the top, left and right
// corners; a y-major line's diamond includes the right corner too. A pixel is
// lit when the line leaves its diamond: the segment meets the diamond and
// does not end inside it. So a line lights one pixel per column (x-major) or
// row (y-major) it crosses, a strip's shared vertex is lit once, and a line
// that starts and ends inside one diamond lights nothing. It is computed
// exactly on the 24.8 fixed-point endpoints (lineWalk, tested against a
// slow reference in rational arithmetic). Attributes are perspective-correct
// along the line.
// point draws a point.
func (ex *executor) point(v *cvert) uint64 {
	if !finite(v) || ex.outcode(v) != 0 || ex.draw.cd.ncull != 0 && ex.draw.cd.culled(v) {
		return 0
	}
	d := &ex.draw
	d.pipe.pv = &v.a
	q := d.sv[:4]
	c := &q[0]
	d.project(v, c)
	const h = 1 << (subBits - 1) // half a pixel
	for i := 1; i < len(q); i++ {
		copySvert(&q[i], c, d.prog.nattr)
	}
	x, y := c.x, c.y
	q[0].x, q[0].y = x-h, y-h // top left
	q[1].x, q[1].y = x+h, y-h // top right
	q[2].x, q[2].y = x-h, y+h // bottom left
	q[3].x, q[3].y = x+h, y+h // bottom right
	if d.next().setup(&q[0], &q[1], &q[2], isa.CullNone, false, &d.pipe) {
		d.emit()
	}
	if d.next().setup(&q[1], &q[3], &q[2], isa.CullNone, false, &d.pipe) {
		d.emit()
	}
	return 1
}

// line draws a line from a to b.
func (ex *executor) line(a, b *cvert) uint64 {
	if !finite(a) || !finite(b) {
		return 0
	}
	// clip: the part of the segment a + t(b-a), t in [t0, t1], inside every
	// plane.
	ca, cb := ex.outcode(a), ex.outcode(b)
	cd := &ex.draw.cd
	if ca&cb != 0 || (ca|cb)&clipNaN != 0 || cd.ncull != 0 && cd.culled(a, b) {
		return 0
	}
	t0, t1 := 0.0, 1.0
	for k := 0; k < numPlanes+cd.nclip; k++ {
		if (ca|cb)&(1<<k) == 0 {
			continue
		}
		da, db := cd.dist(a, k), cd.dist(b, k)
		if da < 0 {
			t0 = max(t0, da/(da-db))
		} else if db < 0 {
			t1 = min(t1, da/(da-db))
		}
	}
	if !(t0 < t1) {
		return 0
	}
	d := &ex.draw
	d.flush() // a line writes pixels itself: the triangles before it go first
	p0, p1 := &d.seg[0], &d.seg[1]
	lerpVert(p0, a, b, t0, d.prog.nattr)
	lerpVert(p1, a, b, t1, d.prog.nattr)
	if lin := d.prog.linRegs(); lin != 0 {
		lerpLinear(p0, a, b, t0, lin)
		lerpLinear(p1, a, b, t1, lin)
	}
	if !d.wireLines {
		d.pipe.pv = &a.a
	}
	s0, s1 := &d.sv[0], &d.sv[1]
	d.project(p0, s0)
	d.project(p1, s1)
	mode := ex.lineMode() // (aaline.go)
	if mode == lineQuad {
		if s0.x != s1.x || s0.y != s1.y {
			ex.quadLine(s0, s1)
		}
		return 1
	}

	// walk
	p, t := &d.pipe, d.soloTri()
	t.setupAttrs(s0, s1, s1, &s0.a, &s1.a, &s1.a, p)
	t.front = !d.backEdges // a line faces front; a wireframe triangle's edges face as it does
	t.z0 += d.edgeBias     // a wireframe triangle's depth bias (Depth Bias: lines of a wireframe only)
	dx, dy := s1.x-s0.x, s1.y-s0.y
	if dx == 0 && dy == 0 {
		return 1 // passed the clipper: nothing to light
	}
	ri, bi := p.order()
	if mode == lineAlpha {
		const S = 1 << subBits
		alphaLine(float64(s0.x)/S, float64(s0.y)/S, float64(s1.x)/S, float64(s1.y)/S, p.sx0, p.sx1, p.sy0, p.sy1, func(px, py int, f, cov float64) {
			p.shaded++
			p.lineCov = float32(cov)
			p.pixel(t, px, py, f, 0, ri, bi)
		})
		p.lineCov = 0
		return 1
	}
	if abs(dx) >= abs(dy) {
		lineWalk(s0.x, s0.y, s1.x, s1.y, p.sx0, p.sx1, p.sy0, p.sy1, false, func(px, py int, f float64) {
			p.shaded++
			p.pixel(t, px, py, f, 0, ri, bi)
		})
		return 1
	}
	lineWalk(s0.y, s0.x, s1.y, s1.x, p.sy0, p.sy1, p.sx0, p.sx1, true, func(py, px int, f float64) {
		p.shaded++
		p.pixel(t, px, py, f, 0, ri, bi)
	})
	return 1
}

// lineWalk lights the pixels of the line (a0, b0)-(a1, b1), in 24.8 fixed
// point along its major axis a (|a1-a0| >= |b1-b0| > or = 0, a1 != a0) and
// minor axis b, by the diamond-exit rule: major is x (yMajor false) or y
// (yMajor true). Pixels outside [alo, ahi) x [blo, bhi) are skipped. lit gets
// the pixel (major index, minor index) and the position of its centre along
// the line, 0 at a0 to 1 at a1.
//
// In a frame where the line travels towards +a (a mirrored when it does not:
// the rule is symmetric), the line crosses the diamond of the pixel whose
// centre cb on the minor axis satisfies -1/2 < e <= 1/2, e = b(ca) - cb (the
// corner at +b is included, at -b not, for either major axis); it leaves the
// diamond at ca + u, u in [0, 1/2] the solution of u + |e + m u| = 1/2 (m the
// slope). The pixel is lit when a0 < ca+u and the line ends past the exit
// point, or at it when the exit point is outside the diamond (and starts
// before it, or at it when it is inside): for an x-major
// line the exit point is inside when it is on a lower edge; for a y-major one
// the edges and the corner towards +a are inside going +a, outside going -a
// (in the mirrored frame: the side the line travels to), and the corner at +b
// (where it leaves when e = 1/2) is inside. All of it in exact integers: with
// coordinates below 2^26 (fixLimit), no product exceeds 2^61.
func lineWalk(a0, b0, a1, b1 int64, alo, ahi, blo, bhi int, yMajor bool, lit func(pa, pb int, f float64)) {
	const S = 1 << subBits
	dir := int64(1)
	if a1 < a0 {
		dir = -1
	}
	// the mirrored frame: travel towards +a
	m0, m1 := dir*a0, dir*a1
	D, G := m1-m0, b1-b0
	// columns whose exit point can lie in (a0, a1]: centres in [a0 - 1/2, a1]
	lo, hi := min(a0, a1)-S, max(a0, a1)+S
	p0 := max(int(floorDiv(lo, S)), alo)
	p1 := min(int(floorDiv(hi, S))+1, ahi)
	for pa := p0; pa < p1; pa++ {
		ca := int64(pa)<<subBits + half
		mca := dir * ca
		// b at the centre column: N/D; the pixel row: cb in [b - 1/2, b + 1/2)
		N := b0*D + (mca-m0)*G
		pb := -floorDiv(-N, D*S) - 1
		if pb < int64(blo) || pb >= int64(bhi) {
			continue
		}
		cb := pb<<subBits + half
		E := N - cb*D // e·D, in (-D/2, D/2]
		// the exit: u = num/den
		var num, den int64
		lower := E+G*half >= 0 && D+G > 0
		if lower {
			num, den = half*D-E, D+G
		} else {
			num, den = half*D+E, D-G
		}
		inside := false // is the exit point inside the diamond?
		if yMajor {
			// the edges towards +a, the corner at +b (u = 0)
			inside = dir > 0 || num == 0
		} else {
			inside = lower && num < half*den // on a lower edge, not the corner
		}
		// The segment meets the diamond: it starts before the exit point,
		// or at it when that point is inside. (m0 - mca)·den vs num.
		if start := (m0 - mca) * den; start > num || (start == num && !inside) {
			continue
		}
		// It does not end inside: it ends past the exit point, or at it
		// when that point is outside.
		if end := (m1 - mca) * den; end < num || (end == num && inside) {
			continue
		}
		f := float64(ca-a0) / float64(a1-a0)
		lit(pa, int(pb), min(max(f, 0), 1))
	}
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
	n := d.prog.nattr
	copyCvert(&poly[0], v0, n)
	copyCvert(&poly[1], v1, n)
	copyCvert(&poly[2], v2, n)
	dst := 1
	for k := 0; k < numPlanes+d.cd.nclip && len(poly) >= 3; k++ {
		if out&(1<<k) != 0 {
			poly = clipPoly(poly, d.poly[dst][:0], k, d.prog.linRegs(), &d.cd, n)
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
	d.backEdges = !front
	if d.pipe.bias {
		d.edgeBias = d.pipe.triBias(&d.sv[0], &d.sv[1], &d.sv[2])
	}
	d.pipe.pv, d.wireLines = &v0.a, true
	if d.pvSecond {
		d.pipe.pv = &v1.a
	}
	ex.line(v0, v1)
	ex.line(v1, v2)
	ex.line(v2, v0)
	d.backEdges, d.edgeBias, d.wireLines = false, 0, false
}
