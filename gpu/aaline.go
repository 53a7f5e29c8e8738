package gpu

import (
	"math"

	"d3dsim/gpu/isa"
)

// The line algorithms of D3D11_RASTERIZER_DESC's table, chosen by
// MultisampleEnable and AntialiasedLineEnable (SET_RASTER's
// RasterMultisample and RasterAALine):
//
//   - MultisampleEnable TRUE, whatever AntialiasedLineEnable says:
//     quadrilateral lines. "Rasterization Rules": a line is treated as a
//     rectangle made up of two triangles, with a line width of 1.4; here
//     the rectangle runs from one end point to the other and is 0.7 pixel
//     to either side, and its triangles are rasterized as triangles are
//     (the top-left rule at one sample, the sample positions on a
//     multisampled target), its corners taking their end point's
//     attributes.
//   - MultisampleEnable FALSE, AntialiasedLineEnable TRUE, at one sample:
//     alpha antialiased lines. "Rasterization Rules" (antialiased, without
//     multisampling): the line is rasterized as a rectangle of width 1
//     (here from end point to end point, 1/2 pixel to either side), whose
//     intersection with each pixel's square is the pixel's coverage; every
//     pixel it covers at all runs the pixel shader, and the coverage is
//     multiplied into the shader's o0.a, which the blend then uses. The
//     page lets hardware choose its filter; this is the exact area, which
//     a test checks against a supersampled rectangle. On a multisampled
//     target there is no antialiasing: the lines are aliased.
//   - Both FALSE: aliased lines, the diamond-exit rule (prim.go).

// Line modes.
const (
	lineAliased = iota
	lineQuad
	lineAlpha
)

// lineMode is the draw's line algorithm.
func (ex *executor) lineMode() int {
	s := &ex.st
	switch {
	case s.msaaLines:
		return lineQuad
	case s.aaLines && s.samples <= 1:
		return lineAlpha
	}
	return lineAliased
}

// quadLine draws the line s0-s1 (projected) as the 1.4-pixel-wide
// rectangle's two triangles.
func (ex *executor) quadLine(s0, s1 *svert) {
	d := &ex.draw
	dx, dy := float64(s1.x-s0.x), float64(s1.y-s0.y)
	n := 0.7 * (1 << subBits) / math.Hypot(dx, dy) // the half-width, along the normal (-dy, dx), in fixed point
	ox, oy := int64(math.Round(-dy*n)), int64(math.Round(dx*n))
	q := d.sv[2:6]
	q[0], q[1], q[2], q[3] = *s0, *s0, *s1, *s1
	q[0].x, q[0].y = s0.x+ox, s0.y+oy
	q[1].x, q[1].y = s0.x-ox, s0.y-oy
	q[2].x, q[2].y = s1.x+ox, s1.y+oy
	q[3].x, q[3].y = s1.x-ox, s1.y-oy
	for _, tr := range [2][3]int{{0, 1, 2}, {2, 1, 3}} {
		if t := d.next(); t.setup(&q[tr[0]], &q[tr[1]], &q[tr[2]], isa.CullNone, false, &d.pipe) {
			t.front = !d.backEdges
			t.z0 += d.edgeBias
			d.emit()
		}
	}
}

// alphaLine lights every pixel the width-1 rectangle around (x0, y0)-(x1,
// y1) (pixels) covers, in [sx0, sx1) x [sy0, sy1), with lit(x, y, f,
// coverage): f the position of the pixel centre along the line, 0 at
// (x0, y0) to 1 at (x1, y1).
func alphaLine(x0, y0, x1, y1 float64, sx0, sx1, sy0, sy1 int, lit func(x, y int, f, cov float64)) {
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if !(l > 0) {
		return
	}
	ux, uy := dx/l, dy/l
	// The rectangle's corners, then the pixels of its bounding box.
	nx, ny := -uy/2, ux/2
	xlo := max(sx0, int(math.Floor(min(x0, x1)-0.5)))
	xhi := min(sx1, int(math.Ceil(max(x0, x1)+0.5)))
	ylo := max(sy0, int(math.Floor(min(y0, y1)-0.5)))
	yhi := min(sy1, int(math.Ceil(max(y0, y1)+0.5)))
	// The rectangle as four half-planes a x + b y <= c.
	planes := [4][3]float64{
		{-ux, -uy, -(ux*x0 + uy*y0)},        // past the start
		{ux, uy, ux*x1 + uy*y1},             // before the end
		{nx, ny, nx*x0 + ny*y0 + 0.25},      // within 1/2 on one side (|n| = 1/2)
		{-nx, -ny, -(nx*x0 + ny*y0) + 0.25}, // and the other
	}
	for y := ylo; y < yhi; y++ {
		for x := xlo; x < xhi; x++ {
			cov := squareArea(float64(x), float64(y), &planes)
			if cov <= 0 {
				continue
			}
			cx, cy := float64(x)+0.5, float64(y)+0.5
			f := min(max(((cx-x0)*ux+(cy-y0)*uy)/l, 0), 1)
			lit(x, y, f, min(cov, 1))
		}
	}
}

// squareArea is the area of the unit square at (x, y) inside every
// half-plane (Sutherland-Hodgman, then the shoelace formula).
func squareArea(x, y float64, planes *[4][3]float64) float64 {
	var buf [2][12][2]float64
	poly := append(buf[0][:0], [2]float64{x, y}, [2]float64{x + 1, y}, [2]float64{x + 1, y + 1}, [2]float64{x, y + 1})
	dst := 1
	for _, pl := range planes {
		out := buf[dst][:0]
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			da, db := pl[0]*a[0]+pl[1]*a[1]-pl[2], pl[0]*b[0]+pl[1]*b[1]-pl[2]
			if da <= 0 {
				out = append(out, a)
			}
			if (da <= 0) != (db <= 0) {
				t := da / (da - db)
				out = append(out, [2]float64{a[0] + t*(b[0]-a[0]), a[1] + t*(b[1]-a[1])})
			}
		}
		poly, dst = out, dst^1
		if len(poly) < 3 {
			return 0
		}
	}
	area := 0.0
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		area += a[0]*b[1] - b[0]*a[1]
	}
	return math.Abs(area) / 2
}
