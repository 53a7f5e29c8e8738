package gpu

import (
	"bytes"
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// refRaster is the slow, obviously correct rasterizer the fast one is tested
// against: it orients the triangle itself, visits every pixel of the scissor
// rectangle, evaluates each edge function from scratch at the pixel centre
// and spells the top-left rule out. Covered pixels go one at a time to the
// general pixel pipeline (pixel, never a span fast path) with the weights it
// computed. It returns how many it covered.
func refRaster(v [3]*svert, t *tri, p *pipe) int {
	pos := [3][2]int64{{v[0].x, v[0].y}, {v[1].x, v[1].y}, {v[2].x, v[2].y}}
	cross := (pos[2][1]-pos[0][1])*(pos[1][0]-pos[0][0]) - (pos[2][0]-pos[0][0])*(pos[1][1]-pos[0][1])
	if cross == 0 {
		return 0
	}
	if cross < 0 { // make it clockwise on the screen
		pos[1], pos[2] = pos[2], pos[1]
	}
	n := 0
	for y := p.sy0; y < p.sy1; y++ {
		for x := p.sx0; x < p.sx1; x++ {
			cx, cy := int64(x)*256+128, int64(y)*256+128
			var w [3]int64
			inside := true
			for i := 0; i < 3; i++ {
				a, b := pos[(i+1)%3], pos[(i+2)%3] // the edge opposite vertex i
				e := (cy-a[1])*(b[0]-a[0]) - (cx-a[0])*(b[1]-a[1])
				w[i] = e
				top := b[1] == a[1] && b[0] > a[0] // horizontal, interior below
				left := b[1] < a[1]                // going up, interior to the right
				if e < 0 || (e == 0 && !top && !left) {
					inside = false
				}
			}
			if inside {
				n++
				if t != nil {
					ri, bi := p.order()
					p.shaded++
					p.pixel(t, x, y, float64(w[1])*t.invArea, float64(w[2])*t.invArea, ri, bi)
				}
			}
		}
	}
	return n
}

// The pixel stages of testPipeOf.
const (
	psColor    = "color"    // ps_vertexcolor: the copy program's Gouraud spans
	psCounter  = "counter"  // ps_solid, additive blending: every write adds one to red
	psOpaque   = "opaque"   // ps_solid without blending
	psFaulting = "faulting" // a faulted draw: the warning colour
)

// testPipeOf is a pipeline writing to a fresh w x h surface of format fm
// that starts off bytes into its memory, rows pitch bytes apart (an odd off
// or pitch makes pixel words unaligned): a draw's pipe as the executor
// prepares it, with vs_passthrough and the pixel stage ps, no depth buffer.
// Colours are varying v1, the vertex attributes 4..7.
func testPipeOf(w, h int, ps string, fm isa.Format, off, pitch int) *pipe {
	mem := make([]byte, off+pitch*h)[off:]
	ex := &executor{}
	s := &ex.st
	s.reset()
	s.rt[0] = surface{mem: mem, w: w, h: h, pitch: pitch, fmt: fm, bpp: 4}
	s.vp, s.vpSet = viewport{w: float64(w), h: float64(h), maxZ: 1}, true
	bind := func(stage int, name string) {
		p, err := shaderisa.Assemble(BuiltinSource(name))
		if err != nil {
			panic(err)
		}
		s.prog[stage] = progBinding{mem: progBytes(p.Encode()), bound: true}
	}
	bind(isa.StageVS, "vs_passthrough")
	switch ps {
	case psColor:
		bind(isa.StagePS, "ps_vertexcolor")
	case psOpaque:
		bind(isa.StagePS, "ps_solid")
		s.cb[isa.StagePS][0] = f32bytes(0.2, 0.4, 0.6, 0.8)
	case psCounter:
		bind(isa.StagePS, "ps_solid")
		s.cb[isa.StagePS][0] = f32bytes(1.0/255, 0, 0, 0)
		s.blend[0] = blendState{enable: true, src: isa.BlendOne, dst: isa.BlendOne, op: isa.BlendOpAdd, srcA: isa.BlendOne, dstA: isa.BlendOne, opA: isa.BlendOpAdd, mask: 0xF}
	}
	if !ex.prepareProgram() || !ex.preparePipe(ps == psFaulting) {
		panic("testPipeOf: the draw does not run")
	}
	return &ex.draw.pipe
}

func randVert(rng *rand.Rand, w, h int) svert {
	coord := func(n int) float64 {
		switch rng.IntN(4) {
		case 0: // exactly on a pixel centre: edge cases of the fill rule
			return float64(rng.IntN(n+8)-4) + 0.5
		case 1: // on a pixel corner
			return float64(rng.IntN(n+8) - 4)
		case 2: // on the subpixel grid
			return float64(rng.IntN((n+40)*256)-20*256) / 256
		}
		return rng.Float64()*float64(n+40) - 20
	}
	v := svert{x: toFixed(coord(w)), y: toFixed(coord(h)), z: rng.Float64(), w: 0.5 + rng.Float64()}
	for k := range v.a {
		v.a[k] = rng.Float64()
	}
	switch rng.IntN(8) {
	case 0: // far off the target, up to the fixed-point clamp
		v.x, v.y = toFixed((rng.Float64()*2-1)*fixLimit), toFixed((rng.Float64()*2-1)*fixLimit)
	case 1: // an infinite or NaN coordinate, clamped as project clamps it
		bad := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300}
		v.x = toFixed(bad[rng.IntN(len(bad))])
	case 2: // colours outside [0, 1], or not numbers: the fast path must step aside
		bad := []float64{-0.25, 1.5, 1e30, -1e30, math.NaN(), math.Inf(1), math.Inf(-1)}
		v.a[4+rng.IntN(4)] = bad[rng.IntN(len(bad))]
	case 3: // the same w as the others (no perspective): see randTri
		v.w = 1
	}
	return v
}

// randTri is three random vertices; most share w = 1 (affine, the Gouraud
// fast path), many share alpha at two or three vertices.
func randTri(rng *rand.Rand, w, h int) (v0, v1, v2 svert) {
	v0, v1, v2 = randVert(rng, w, h), randVert(rng, w, h), randVert(rng, w, h)
	if rng.IntN(4) != 0 {
		v0.w, v1.w, v2.w = 1, 1, 1
	}
	switch rng.IntN(4) { // alpha: attribute 7
	case 0:
		v1.a[7], v2.a[7] = v0.a[7], v0.a[7]
	case 1:
		v1.a[7] = v0.a[7]
	case 2:
		v2.a[7] = v0.a[7]
	}
	return v0, v1, v2
}

// TestRasterMatchesReference draws many random triangles with the fast
// rasterizer and the reference one and compares the pictures pixel for pixel,
// both the interpolated colours and a count of writes per pixel.
func TestRasterMatchesReference(t *testing.T) {
	// 48x40 is small enough for a readable map of differences; 600 columns
	// are more than spanColorCols keeps terms for at once (colChunk).
	for _, size := range []struct{ w, h, n int }{{48, 40, 6000}, {600, 24, 1500}} {
		if testing.Short() {
			size.n /= 10 // make race: the same kinds of triangle, a tenth of them
		}
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			rasterMatchesReference(t, size.w, size.h, size.n)
		})
	}
}

func rasterMatchesReference(t *testing.T, w, h, nColor int) {
	rng := rand.New(rand.NewPCG(7, 11))
	targets := []struct {
		fm          isa.Format
		off, pitch  int
		description string
	}{
		{isa.FmtRGBA8, 0, 4 * w, "RGBA8"},
		{isa.FmtBGRA8, 0, 4*w + 8, "BGRA8, padded rows"},
		{isa.FmtRGBA8, 1, 4*w + 3, "RGBA8, unaligned pixels"},
	}
	for _, ps := range []string{psColor, psCounter, psOpaque, psFaulting} {
		n := nColor
		if ps != psColor {
			n = nColor / 3
		}
		for i := 0; i < n; i++ {
			v0, v1, v2 := randTri(rng, w, h)
			switch i % 7 {
			case 0: // thin slivers
				v2.x, v2.y = v1.x+int64(rng.IntN(5)-2), v1.y+int64(rng.IntN(700)-350)
			case 1: // degenerate: three points on a line
				k := int64(rng.IntN(5) - 2)
				v2.x, v2.y = v0.x+k*(v1.x-v0.x), v0.y+k*(v1.y-v0.y)
			case 3, 4: // a horizontal edge (a weight constant along rows)
				switch rng.IntN(3) {
				case 0:
					v1.y = v0.y
				case 1:
					v2.y = v0.y
				case 2:
					v2.y = v1.y
				}
			case 5, 6: // axis-aligned right angle: a weight per row and one per column (spanColorCols)
				c, a, b := v0, v1, v2
				a.y, b.x = c.y, c.x
				if i%7 == 6 && rng.IntN(2) == 0 { // as big as the target and more
					c.x, c.y = toFixed(float64(rng.IntN(w))), toFixed(float64(rng.IntN(h)))
					a.x, a.y = toFixed(float64(rng.IntN(3*w)-w)), c.y
					b.x, b.y = c.x, toFixed(float64(rng.IntN(3*h)-h))
				}
				switch rng.IntN(3) { // the right angle at vertex 0, 1 or 2
				case 0:
					v0, v1, v2 = c, a, b
				case 1:
					v0, v1, v2 = a, c, b
				case 2:
					v0, v1, v2 = a, b, c
				}
			case 2: // huge, covering the whole target
				v0.x, v0.y = toFixed(-3000), toFixed(-2000)
				v1.x, v1.y = toFixed(5000), toFixed(-10)
				v2.x, v2.y = toFixed(20), toFixed(7000)
			}
			tg := targets[i%len(targets)]
			fast, ref := testPipeOf(w, h, ps, tg.fm, tg.off, tg.pitch), testPipeOf(w, h, ps, tg.fm, tg.off, tg.pitch)
			if i%3 == 0 { // a random scissor rectangle
				fast.sx0, fast.sy0 = rng.IntN(w/2), rng.IntN(h/2)
				fast.sx1, fast.sy1 = fast.sx0+1+rng.IntN(w-fast.sx0), fast.sy0+1+rng.IntN(h-fast.sy0)
				ref.sx0, ref.sy0, ref.sx1, ref.sy1 = fast.sx0, fast.sy0, fast.sx1, fast.sy1
			}
			tf, tr := planedTri(), planedTri()
			okf := tf.setup(&v0, &v1, &v2, isa.CullNone, false, fast)
			okr := tr.setup(&v0, &v1, &v2, isa.CullNone, false, ref)
			if okf {
				tf.raster(fast)
			}
			var n int
			if okr {
				n = refRaster([3]*svert{&v0, &v1, &v2}, &tr, ref)
			} else {
				n = refRaster([3]*svert{&v0, &v1, &v2}, nil, ref)
			}
			if !okf && n > 0 {
				t.Fatalf("ps %s triangle %d (%v %v %v): setup rejected it but it covers %d pixels", ps, i, v0, v1, v2, n)
			}
			if !bytes.Equal(fast.rt.mem, ref.rt.mem) {
				t.Fatalf("ps %s triangle %d (%v, %v, %v) on %s: fast and reference rasterizers differ\n%s", ps, i,
					[2]int64{v0.x, v0.y}, [2]int64{v1.x, v1.y}, [2]int64{v2.x, v2.y}, tg.description,
					diffImages(fast.rt.mem, ref.rt.mem, tg.pitch/4, h))
			}
			if uint64(n) != fast.shaded {
				t.Fatalf("triangle %d: fast shaded %d pixels, reference covers %d", i, fast.shaded, n)
			}
		}
	}
}

// diffImages draws a small map of where two RGBA8 images differ.
func diffImages(a, b []byte, w, h int) string {
	var buf bytes.Buffer
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			o := 4 * (y*w + x)
			switch {
			case !bytes.Equal(a[o:o+4], b[o:o+4]):
				buf.WriteByte('X')
			case a[o] != 0 || a[o+3] != 0:
				buf.WriteByte('#')
			default:
				buf.WriteByte('.')
			}
		}
		buf.WriteByte('\n')
	}
	return buf.String()
}

// coverCount draws triangles (pixel coordinates) through the whole pipeline
// into a fresh w x h target with the counter set up, and returns the number
// of writes per pixel.
func coverCount(t *testing.T, w, h int, tris [][3][2]float32) []int {
	r := newRig(t)
	rt := r.target(w, h, isa.FmtRGBA8)
	var vs []vtx
	for _, tr := range tris {
		for _, p := range tr {
			vs = append(vs, pxv(p[0], p[1], w, h, [4]float32{}))
		}
	}
	b := r.scene(rt, "ps_solid", vs)
	rt.clear(b, [4]float32{})
	r.counter(b)
	b.Draw(uint32(len(vs)), 0)
	r.mustExec(b)
	n := make([]int, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			n[y*w+x] = int(r.px(rt, x, y)[0])
		}
	}
	return n
}

// TestTopLeftRule checks that triangles sharing edges cover every pixel of
// their union exactly once: no cracks, no pixel drawn twice.
func TestTopLeftRule(t *testing.T) {
	const w, h = 64, 64
	fan := func(cx, cy, r float32, n int, phase float64) [][3][2]float32 {
		var out [][3][2]float32
		for i := 0; i < n; i++ {
			a0 := phase + 2*math.Pi*float64(i)/float64(n)
			a1 := phase + 2*math.Pi*float64(i+1)/float64(n)
			out = append(out, [3][2]float32{{cx, cy},
				{cx + r*float32(math.Cos(a0)), cy + r*float32(math.Sin(a0))},
				{cx + r*float32(math.Cos(a1)), cy + r*float32(math.Sin(a1))}})
		}
		return out
	}
	tests := []struct {
		desc string
		tris [][3][2]float32
		rect [4]int // when set: exactly the pixels with centres in [x0,x1)x[y0,y1) are covered
	}{
		{desc: "quad split along its diagonal, integer corners",
			tris: [][3][2]float32{{{8, 8}, {40, 8}, {8, 40}}, {{40, 8}, {40, 40}, {8, 40}}}, rect: [4]int{8, 8, 40, 40}},
		{desc: "quad split along the other diagonal",
			tris: [][3][2]float32{{{8, 8}, {40, 8}, {40, 40}}, {{8, 8}, {40, 40}, {8, 40}}}, rect: [4]int{8, 8, 40, 40}},
		{desc: "quad with corners on pixel centres",
			tris: [][3][2]float32{{{8.5, 8.5}, {40.5, 8.5}, {8.5, 40.5}}, {{40.5, 8.5}, {40.5, 40.5}, {8.5, 40.5}}}, rect: [4]int{8, 8, 40, 40}},
		{desc: "full-target quad", tris: [][3][2]float32{{{0, 0}, {64, 0}, {0, 64}}, {{64, 0}, {64, 64}, {0, 64}}}, rect: [4]int{0, 0, 64, 64}},
		{desc: "two triangles sharing a steep edge",
			tris: [][3][2]float32{{{10, 2}, {30.3, 60}, {3, 50}}, {{10, 2}, {50, 20}, {30.3, 60}}}},
		{desc: "shared edge through pixel centres",
			tris: [][3][2]float32{{{4.5, 4.5}, {60.5, 60.5}, {4.5, 60.5}}, {{4.5, 4.5}, {60.5, 4.5}, {60.5, 60.5}}}},
		{desc: "fan of 7 around a pixel centre", tris: fan(32.5, 32.5, 25, 7, 0.1)},
		{desc: "fan of 12 around a pixel corner", tris: fan(32, 32, 30, 12, 0)},
		{desc: "fan of 5 around a subpixel point", tris: fan(31.37, 29.81, 20.4, 5, 1.3)},
		{desc: "horizontal shared edge", tris: [][3][2]float32{{{5, 20.5}, {50, 20.5}, {30, 3}}, {{5, 20.5}, {30, 50}, {50, 20.5}}}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			n := coverCount(t, w, h, tc.tris)
			total := 0
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					c := n[y*w+x]
					total += c
					if c > 1 {
						t.Errorf("pixel (%d,%d) drawn %d times", x, y, c)
					}
					if tc.rect != [4]int{} {
						in := x >= tc.rect[0] && x < tc.rect[2] && y >= tc.rect[1] && y < tc.rect[3]
						if in != (c == 1) {
							t.Errorf("pixel (%d,%d): covered %d times, inside the rectangle: %v", x, y, c, in)
						}
					}
				}
			}
			if total == 0 {
				t.Fatal("nothing drawn")
			}
			// The union has no holes: every pixel whose centre is well
			// inside one of the triangles is covered.
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					for _, tr := range tc.tris {
						if insideBy(tr, float32(x)+0.5, float32(y)+0.5, 0.01) && n[y*w+x] != 1 {
							t.Errorf("pixel (%d,%d) inside a triangle is covered %d times", x, y, n[y*w+x])
						}
					}
				}
			}
		})
	}
}

// insideBy reports whether (x, y) is inside triangle tr by at least margin
// pixels from each edge.
func insideBy(tr [3][2]float32, x, y, margin float32) bool {
	var sign float32
	for i := 0; i < 3; i++ {
		a, b := tr[i], tr[(i+1)%3]
		dx, dy := b[0]-a[0], b[1]-a[1]
		l := float32(math.Hypot(float64(dx), float64(dy)))
		d := ((y-a[1])*dx - (x-a[0])*dy) / l
		if i == 0 {
			sign = 1
			if d < 0 {
				sign = -1
			}
		}
		if d*sign < margin {
			return false
		}
	}
	return true
}

func TestFixedPointClamp(t *testing.T) {
	for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e300, -1e300} {
		got := toFixed(v)
		if got < -fixLimit<<subBits || got > fixLimit<<subBits {
			t.Errorf("toFixed(%v) = %d, outside the clamp", v, got)
		}
	}
	if got := toFixed(1.5); got != 384 {
		t.Errorf("toFixed(1.5) = %d, want 384", got)
	}
	if got := fmt.Sprint(toFixed(math.NaN())); got != fmt.Sprint(-fixLimit<<subBits) {
		t.Errorf("toFixed(NaN) = %s", got)
	}
}

// TestSetupInRange: setupAttrs lets a triangle take the Gouraud spans
// (inRange) exactly when every colour value of its three vertices is in
// [0, 1] (unit): -0, +0 and 1 are, the next value above 1, the smallest
// negative one, an infinity and a NaN are not, whichever vertex and
// channel holds them; and finite and the planes follow the values.
func TestSetupInRange(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, 0.5, math.Nextafter(1, 2), -math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 0x1p-1074, 2}
	p := &pipe{kind: spanColor, lo: 4, hi: 8, ch: [4]uint8{6, 5, 4, 7}, prog: &progState{}}
	planes := make([]float64, 3*8)
	tr := &tri{a0: planes[:8], d1: planes[8:16], d2: planes[16:]}
	sv := [3]svert{{w: 1}, {w: 1}, {w: 1}}
	var a [3][numAttr]float64
	for i := range 2000 {
		for v := range 3 {
			for c := 4; c < 8; c++ {
				a[v][c] = 0.25 * float64((i+v+c)%5)
			}
		}
		v, c := i%3, 4+i/3%4
		x := vals[i/12%len(vals)]
		a[v][c] = x
		tr.setupAttrs(&sv[0], &sv[1], &sv[2], &a[0], &a[1], &a[2], p)
		want := x >= 0 && x <= 1
		if tr.inRange != want {
			t.Fatalf("vertex %d channel %d = %v: inRange %v, want %v", v, c, x, tr.inRange, want)
		}
		if fin := !math.IsInf(x, 0) && !math.IsNaN(x); tr.finite != fin {
			t.Fatalf("vertex %d channel %d = %v: finite %v, want %v", v, c, x, tr.finite, fin)
		}
		if math.Float64bits(tr.a0[c]) != math.Float64bits(a[0][c]) || math.Float64bits(tr.d1[c]) != math.Float64bits(a[1][c]-a[0][c]) {
			t.Fatalf("vertex %d channel %d = %v: plane %v %v, want vertex 0's value and 1's less it", v, c, x, tr.a0[c], tr.d1[c])
		}
	}
}

// TestSetupColorSameAsAttrs: setupColor (pipe.colorOnly: a pixel program
// that writes the four attributes it reads as its colour) sets up what
// setupAttrs' general loops do — the planes' bits, inRange, finite and
// alpha — for values in and out of [0, 1], -0, infinities, NaN, and finite
// values whose differences overflow (finite planes no longer follow from
// finite values), in any vertex and channel.
func TestSetupColorSameAsAttrs(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, 0.5, 0.75, math.Nextafter(1, 2), -math.SmallestNonzeroFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 2, math.MaxFloat64, -math.MaxFloat64, 1e300}
	general := &pipe{kind: spanColor, lo: 4, hi: 8, ch: [4]uint8{4, 5, 6, 7}, prog: &progState{}}
	color := *general
	color.colorOnly = true
	mk := func() *tri {
		planes := make([]float64, 3*8)
		return &tri{a0: planes[:8], d1: planes[8:16], d2: planes[16:]}
	}
	want, got := mk(), mk()
	sv := [3]svert{{w: 1}, {w: 1}, {w: 1}}
	var a [3][numAttr]float64
	s := uint32(1)
	for i := range 20000 {
		for v := range 3 {
			for c := 4; c < 8; c++ {
				s = s*1664525 + 1013904223
				if s>>28 < 12 {
					a[v][c] = 0.25 * float64(s>>8%5)
				} else {
					a[v][c] = vals[int(s>>8)%len(vals)]
				}
			}
		}
		want.setupAttrs(&sv[0], &sv[1], &sv[2], &a[0], &a[1], &a[2], general)
		got.setupAttrs(&sv[0], &sv[1], &sv[2], &a[0], &a[1], &a[2], &color)
		same := got.inRange == want.inRange && got.finite == want.finite && got.alpha == want.alpha
		for c := 4; c < 8; c++ {
			for _, pl := range [][2][]float64{{got.a0, want.a0}, {got.d1, want.d1}, {got.d2, want.d2}} {
				same = same && math.Float64bits(pl[0][c]) == math.Float64bits(pl[1][c])
			}
		}
		if !same {
			t.Fatalf("step %d, vertices %v: setupColor gave inRange %v finite %v alpha %#x planes %v %v %v; setupAttrs %v %v %#x, %v %v %v",
				i, a, got.inRange, got.finite, got.alpha, got.a0[4:], got.d1[4:], got.d2[4:],
				want.inRange, want.finite, want.alpha, want.a0[4:], want.d1[4:], want.d2[4:])
		}
	}
}
