package gpu

import (
	"d3dsim/gpu/isa"
	"math"
	"math/rand/v2"
	"testing"
)

func TestPoints(t *testing.T) {
	const w, h = 16, 16
	points := []struct {
		x, y   float32
		px, py int // the pixel lit; -1: none
	}{
		{3.5, 4.5, 3, 4},     // on a pixel centre
		{7.7, 2.2, 7, 2},     // inside a pixel
		{10, 12, 9, 11},      // on a pixel corner: the square's top-left rule
		{0.01, 15.99, 0, 15}, // near the target's corner
		{-3, 5, -1, -1},      // outside the viewport: dropped
		{5, 40, -1, -1},
	}
	r := newRig(t)
	rt := r.target(w, h, isa.FmtRGBA8)
	var vs []vtx
	for _, p := range points {
		vs = append(vs, pxv(p.x, p.y, w, h, white))
	}
	b := r.scene(rt, "ps_solid", vs)
	r.counter(b)
	b.SetTopology(isa.TopoPointList)
	b.Draw(uint32(len(vs)), 0)
	r.mustExec(b)
	want := make([]byte, w*h)
	for _, p := range points {
		if p.px >= 0 {
			want[p.py*w+p.px]++
		}
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			if got := r.px(rt, x, y)[0]; got != want[y*w+x] {
				t.Errorf("pixel (%d,%d) drawn %d times, want %d", x, y, got, want[y*w+x])
			}
		}
	}
}

func TestLines(t *testing.T) {
	const w, h = 16, 16
	type pt = [2]float32
	tests := []struct {
		desc  string
		topo  uint32
		pts   []pt
		want  func(x, y int) bool
		total int
	}{
		{"horizontal", isa.TopoLineList, []pt{{2.5, 5.5}, {12.5, 5.5}},
			func(x, y int) bool { return y == 5 && x >= 2 && x < 12 }, 10},
		{"diagonal", isa.TopoLineList, []pt{{0, 0}, {16, 16}},
			func(x, y int) bool { return x == y }, 16},
		{"steep, going up", isa.TopoLineList, []pt{{4.5, 14.5}, {6.5, 1.5}},
			func(x, y int) bool { return y >= 2 && y <= 14 && x == int(4.5+float64(14-y)*2/13) }, 13},
		{"closed square as a strip: each pixel once", isa.TopoLineStrip, []pt{{2.5, 2.5}, {12.5, 2.5}, {12.5, 12.5}, {2.5, 12.5}, {2.5, 2.5}},
			func(x, y int) bool {
				return (y == 2 || y == 12) && x >= 2 && x <= 12 || (x == 2 || x == 12) && y >= 2 && y <= 12
			}, 40},
		{"clipped at the viewport", isa.TopoLineList, []pt{{-100, 8.5}, {8.5, 8.5}},
			func(x, y int) bool { return y == 8 && x < 8 }, 8},
		{"outside", isa.TopoLineList, []pt{{-100, 8.5}, {-1, 8.5}},
			func(x, y int) bool { return false }, 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(w, h, isa.FmtRGBA8)
			var vs []vtx
			for _, p := range tc.pts {
				vs = append(vs, pxv(p[0], p[1], w, h, white))
			}
			b := r.scene(rt, "ps_solid", vs)
			r.counter(b)
			b.SetTopology(tc.topo)
			b.Draw(uint32(len(vs)), 0)
			r.mustExec(b)
			total := 0
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					n := r.px(rt, x, y)[0]
					total += int(n)
					if n > 1 || (n == 1) != tc.want(x, y) {
						t.Errorf("pixel (%d,%d) drawn %d times", x, y, n)
					}
				}
			}
			if total != tc.total {
				t.Errorf("%d pixels drawn, want %d", total, tc.total)
			}
		})
	}
	// Colour along a line is interpolated.
	r := newRig(t)
	rt := r.target(w, h, isa.FmtRGBA8)
	b := r.scene(rt, "ps_vertexcolor", []vtx{pxv(0, 0.5, w, h, [4]float32{1, 0, 0, 1}), pxv(16, 0.5, w, h, [4]float32{0, 1, 0, 1})})
	b.SetTopology(isa.TopoLineList)
	b.Draw(2, 0)
	r.mustExec(b)
	for x := 0; x < w; x++ {
		g := (float64(x) + 0.5) / 16 * 255
		if got := float64(r.px(rt, x, 0)[1]); math.Abs(got-g) > 1 {
			t.Errorf("pixel %d green %v, want %.1f", x, got, g)
		}
	}
}

// TestWireframe: fill mode WIREFRAME draws a triangle's three edges as
// aliased lines and nothing inside; culling and facing are those of the
// filled triangle; a clipped triangle draws only its own edges, not the
// borders clipping adds; a degenerate triangle draws nothing; every edge
// lights at least one pixel per column (or row) it crosses.
func TestWireframe(t *testing.T) {
	white := [4]float32{1, 1, 1, 1}
	bg := [4]byte{0, 0, 255, 255}
	// A clockwise triangle with its vertices on the centres of the pixels
	// (2, 2) (13, 2) (2, 13) of 16x16.
	cw := []vtx{pxv(2.5, 2.5, 16, 16, white), pxv(13.5, 2.5, 16, 16, white), pxv(2.5, 13.5, 16, 16, white)}
	ccw := []vtx{cw[0], cw[2], cw[1]}
	big := []vtx{pxv(-20, 4.5, 16, 16, white), pxv(40, 4.5, 16, 16, white), pxv(4.5, 40, 16, 16, white)}
	degenerate := []vtx{pxv(2, 2, 16, 16, white), pxv(8, 8, 16, 16, white), pxv(14, 14, 16, 16, white)}
	tests := []struct {
		desc  string
		cull  uint32
		verts []vtx
		lit   []([2]int) // pixels that must be lit
		dark  []([2]int) // pixels that must keep the background
		count int        // pixels lit in all, -1: not checked
	}{
		{"edges, not the inside", isa.CullBack, cw,
			[][2]int{{2, 2}, {7, 2}, {12, 2}, {2, 7}, {2, 12}, {7, 8}}, [][2]int{{5, 5}, {4, 6}, {3, 3}}, -1},
		{"a back face is culled", isa.CullBack, ccw, nil, [][2]int{{2, 2}, {7, 2}, {2, 7}}, 0},
		{"a back face is drawn without culling", isa.CullNone, ccw, [][2]int{{2, 2}, {7, 2}, {2, 7}}, [][2]int{{5, 5}}, -1},
		{"a front face culled with CullFront", isa.CullFront, cw, nil, [][2]int{{2, 2}}, 0},
		{"clipping adds no edges", isa.CullNone, big,
			[][2]int{{0, 4}, {8, 4}, {15, 4}}, [][2]int{{15, 10}, {10, 15}, {0, 15}, {8, 10}}, -1},
		{"a degenerate triangle draws nothing", isa.CullNone, degenerate, nil, [][2]int{{8, 8}}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			b := r.scene(rt, "ps_vertexcolor", tc.verts)
			rt.clear(b, [4]float32{0, 0, 1, 1})
			b.SetRaster(tc.cull|isa.RasterWireframe, false, true)
			b.Draw(3, 0)
			r.mustExec(b)
			for _, p := range tc.lit {
				if got := r.px(rt, p[0], p[1]); got != [4]byte{255, 255, 255, 255} {
					t.Errorf("pixel %v = %v, want lit", p, got)
				}
			}
			for _, p := range tc.dark {
				if got := r.px(rt, p[0], p[1]); got != bg {
					t.Errorf("pixel %v = %v, want the background", p, got)
				}
			}
			n := 0
			for y := 0; y < 16; y++ {
				for x := 0; x < 16; x++ {
					if r.px(rt, x, y) != bg {
						n++
					}
				}
			}
			if tc.count >= 0 && n != tc.count {
				t.Errorf("%d pixels lit, want %d", n, tc.count)
			}
			if tc.count < 0 && n == 0 {
				t.Error("nothing lit")
			}
		})
	}

	// Every edge: one pixel in each column (row) it crosses, whatever its
	// slope: the triangle's top edge spans columns 2..12 in row 2.
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	b := r.scene(rt, "ps_vertexcolor", cw)
	rt.clear(b, [4]float32{0, 0, 1, 1})
	b.SetRaster(isa.CullBack|isa.RasterWireframe, false, true)
	b.Draw(3, 0)
	r.mustExec(b)
	for x := 2; x <= 12; x++ {
		if r.px(rt, x, 2) == bg {
			t.Errorf("top edge: column %d not lit", x)
		}
	}
	for y := 3; y <= 12; y++ { // (in row 13 the diagonal ends on the left edge's vertex)
		lit := 0
		for x := 0; x < 16; x++ {
			if x > 2 && r.px(rt, x, y) != bg {
				lit++
			}
		}
		if lit != 1 {
			t.Errorf("row %d: %d pixels of the diagonal edge, want 1", y, lit)
		}
	}
}

// TestPointTriangle: a triangle whose three positions are one point gives
// what the clip path gives it (pipeCache.off) — 0 outside a plane, 1 inside
// every plane — for points inside, outside, on each plane and at small or
// negative w, with depth clipping on and off.
func TestPointTriangle(t *testing.T) {
	r := newRig(t)
	ex := &r.g.ex
	ex.draw.vp = viewport{x: 0, y: 0, w: 64, h: 48, minZ: 0, maxZ: 1}
	edge := []float64{0, 1, -1, 0.5, -0.5, 2, -2, 1e-9, -1e-9, math.Copysign(0, -1), 1e300, -1e300}
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func() float64 {
		if rng.IntN(2) == 0 {
			return edge[rng.IntN(len(edge))]
		}
		return rng.Float64()*4 - 2
	}
	var ones, zeros int
	for i := range 20000 {
		var v cvert
		v.p = [4]float64{pick(), pick(), pick(), pick()}
		if i%3 == 0 {
			v.p[3] = 1 // most points in front of the eye
		}
		ex.st.depthClip = i%2 == 0
		a, b, c := v, v, v
		ex.draw.pipeCache.off = false
		got := ex.triangle(&a, &b, &c)
		ex.draw.pipeCache.off = true
		want := ex.triangle(&a, &b, &c)
		if got != want {
			t.Fatalf("point %v (depth clip %v): %d primitives, the clip path gives %d", v.p, ex.st.depthClip, got, want)
		}
		if got == 1 {
			ones++
		} else {
			zeros++
		}
	}
	if ones < 1000 || zeros < 1000 {
		t.Errorf("%d points inside and %d outside: the points do not cover both", ones, zeros)
	}
}
