package gpu

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// The pixel stage's fast paths against the general code they stand for, on
// seeded random inputs: every lane's bits must be the same.

// oddFloats are coordinates and values a fast path must treat as the
// general path does: signed zeros, denormals, infinities, NaNs, huge
// values and values next to 0 and 1.
var oddFloats = []float32{
	0, float32(math.Copysign(0, -1)), 1, -1, 0.5,
	math.Float32frombits(1), math.Float32frombits(0x807FFFFF), math.SmallestNonzeroFloat32,
	float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0xFFC00001),
	math.MaxFloat32, -math.MaxFloat32, 1 << 40, -(1 << 40),
	math.Nextafter32(1, 0), math.Nextafter32(1, 2), math.Nextafter32(0, 1), math.Nextafter32(0, -1),
}

// randCoord is a texture coordinate: mostly inside [-1.5, 2.5] (texel
// centres and edges on the way), sometimes an odd float.
func randCoord(r *rand.Rand, n int) float32 {
	switch r.IntN(8) {
	case 0:
		return oddFloats[r.IntN(len(oddFloats))]
	case 1: // on a texel edge or centre
		return float32(r.IntN(4*n+1)-n) / float32(2*n)
	}
	return float32(r.Float64()*4 - 1.5)
}

// randMask is a lane mask: full, empty, one lane or random.
func randMask(r *rand.Rand) uint64 {
	switch r.IntN(4) {
	case 0:
		return shader.AllLanes
	case 1:
		return 1 << r.IntN(shader.Lanes)
	case 2:
		return 0
	}
	return r.Uint64()
}

// filter8 samples every lane of the mask as surface.sample does, for every
// filter, address mode and 8-bit format, at sizes down to one texel and
// with padded rows, and leaves the other lanes alone.
func TestFilter8MatchesSample(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 1))
	sizes := [][2]int{{1, 1}, {1, 5}, {7, 3}, {2, 2}, {64, 64}, {13, 8}}
	for iter := range 3000 {
		sz := sizes[iter%len(sizes)]
		w, h := sz[0], sz[1]
		pitch := 4*w + 4*r.IntN(3)
		tex := surface{mem: make([]byte, pitch*h), w: w, h: h, pitch: pitch, fmt: isa.FmtRGBA8, bpp: 4}
		if r.IntN(2) == 0 {
			tex.fmt = isa.FmtBGRA8
		}
		for i := range tex.mem {
			tex.mem[i] = byte(r.Uint32())
		}
		sm := sampler{filter: uint32(r.IntN(2)), u: uint32(r.IntN(4)), v: uint32(r.IntN(4)),
			border: [4]float32{r.Float32(), r.Float32(), r.Float32(), r.Float32()}}
		var coord [2][shader.Lanes]uint32
		for l := range shader.Lanes {
			coord[0][l] = math.Float32bits(randCoord(r, w))
			coord[1][l] = math.Float32bits(randCoord(r, h))
		}
		if iter%2 == 0 {
			// A texture magnified along y: u the same down each column, v
			// in small steps, so that lanes share their texels and fx
			// with the lane above.
			v0, dv := randCoord(r, h), r.Float32()/float32(4*h)
			for x := range 8 {
				u := randCoord(r, w)
				for y := range 8 {
					l := shader.QuadLane(x, y)
					coord[0][l] = math.Float32bits(u)
					coord[1][l] = math.Float32bits(v0 + float32(y)*dv)
				}
			}
		}
		var out shader.Vec
		for k := range out {
			for l := range out[k] {
				out[k][l] = 0xDEADBEEF
			}
		}
		q := shader.TexQuery{Op: shader.TexSample, Mask: randMask(r), Out: &out}
		q.Coord[0], q.Coord[1] = &coord[0], &coord[1]
		filter8(&tex, &sm, &q)
		for l := range shader.Lanes {
			u, v := math.Float32frombits(coord[0][l]), math.Float32frombits(coord[1][l])
			want := [4]uint32{0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF, 0xDEADBEEF}
			if q.Mask>>l&1 != 0 {
				c := tex.sample(&sm, float64(u), float64(v))
				for k := range want {
					want[k] = math.Float32bits(c[k])
				}
			}
			for k := range want {
				if out[k][l] != want[k] {
					t.Fatalf("%dx%d pitch %d format %d sampler %+v, lane %d of mask %#x at (%g, %g): component %d is %#08x, sample gives %#08x",
						w, h, pitch, tex.fmt, sm, l, q.Mask, u, v, k, out[k][l], want[k])
				}
			}
		}
	}
}

// The interpolation with a weight per row or per column (axis-aligned
// edges) gives each lane of the quads the bits the per-lane weights give,
// for attributes of any value.
func TestSeparableInterpolation(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 2))
	prog, err := shaderisa.Assemble("ps inputs=2 outputs=1 temps=0\nmov o0, v1")
	if err != nil {
		t.Fatal(err)
	}
	e := &progEntry{prog: prog, m: shader.NewMachine(prog)}
	e.reads[1] = 0xF
	p := &pipe{sx1: 64, sy1: 64, hi: 8, kind: spanProgram, prog: &progState{ps: e, psIn: 2, psPos: -1}}
	p.blk, p.m = &p.prog.block, e.m
	odd := false // this triangle's attributes may be odd floats
	attr := func() float64 {
		if odd && r.IntN(6) == 0 {
			return float64(oddFloats[r.IntN(len(oddFloats))])
		}
		return r.Float64()*4 - 2
	}
	sep := 0
	for range 3000 {
		// A right triangle with legs along x and y, in some order and
		// orientation, or now and then any triangle.
		pts := rightTriangle(r, 20, 5)
		odd = r.IntN(3) == 0
		var sv [3]svert
		for i := range sv {
			sv[i] = svert{x: pts[i][0], y: pts[i][1], z: 0.5, w: 1}
			for a := range 8 {
				sv[i].a[a] = attr()
			}
		}
		tr := planedTri()
		if !tr.setup(&sv[0], &sv[1], &sv[2], isa.CullNone, false, p) {
			continue
		}
		tx, ty := tr.x0&^7, tr.y0&^7
		mask := randMask(r) | 1
		quads := quadLanes(mask)
		var got, want shader.Vec
		p.blk.lazy = false
		p.shadeBlock(&tr, tx, ty, mask)
		want = *e.m.In(1)
		p.blk.lazy = true
		p.shadeBlock(&tr, tx, ty, mask)
		got = *e.m.In(1)
		if k := p.blk.kind; k[0] != perLane || k[1] != perLane {
			sep++
		}
		for c := range 4 {
			for l := range shader.Lanes {
				if quads>>l&1 != 0 && got[c][l] != want[c][l] {
					t.Fatalf("triangle %v, block (%d, %d), lane %d component %d: %#08x, per lane %#08x", pts, tx, ty, l, c, got[c][l], want[c][l])
				}
			}
		}
	}
	if sep < 400 {
		t.Fatalf("only %d blocks took the row and column terms", sep)
	}
}

// quadLanes widens a lane mask to the quads it touches.
func quadLanes(mask uint64) uint64 {
	any := mask | mask>>1
	any |= any >> 2
	return (any & 0x1111111111111111) * 0xF
}

// A pixel program that only copies an input (mov o0, v#, any swizzle) is
// drawn by the Gouraud spans; its pixels are those of the same copy made
// through a temp, which runs the program, for colours inside [0, 1] and
// out of it (those triangles run the program), in both byte orders.
func TestCopyProgramSpans(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 3))
	const w, h = 48, 40
	swz := "xyzw"
	value := func() float32 {
		switch r.IntN(10) {
		case 0:
			return oddFloats[r.IntN(len(oddFloats))]
		case 1:
			return r.Float32()*3 - 1
		}
		return r.Float32()
	}
	for iter := range 60 {
		rg := newRig(t)
		fm := isa.FmtRGBA8
		if iter%2 == 1 {
			fm = isa.FmtBGRA8
		}
		var verts []vtx
		for range 12 {
			for range 3 {
				v := vtx{r.Float32()*2.4 - 1.2, r.Float32()*2.4 - 1.2, 0.5}
				if r.IntN(3) == 0 { // axis-aligned neighbours: the column terms
					v[0], v[1] = float32(r.IntN(5))/2-1, float32(r.IntN(5))/2-1
				}
				inRange := r.IntN(3) != 0
				for k := 3; k < 9; k++ {
					v[k] = r.Float32()
					if !inRange {
						v[k] = value()
					}
				}
				verts = append(verts, v)
			}
		}
		src := "v1."
		if r.IntN(4) == 0 {
			src = "v2."
		}
		for range 4 {
			src += string(swz[r.IntN(4)])
		}
		var got [2][]byte
		for i, ps := range []string{
			"ps inputs=3 outputs=1\nmov o0, " + src,
			"ps inputs=3 outputs=1 temps=1\nmov r0, " + src + "\nmov o0, r0",
		} {
			rt := rg.target(w, h, fm)
			b := rg.isaScene(rt, vsPass, ps, verts)
			rt.clear(b, [4]float32{0.25, 0.5, 0.75, 1})
			b.Draw(uint32(len(verts)), 0)
			rg.mustExec(b)
			prog, err := shaderisa.Assemble(ps)
			if err != nil {
				t.Fatal(err)
			}
			if in, _ := copiedInput(prog); (in >= 0) != (i == 0) {
				t.Fatalf("program %q: copiedInput %d", ps, in)
			}
			got[i] = rg.rgba(rt)
		}
		for i := 0; i < len(got[0]); i += 4 {
			if string(got[0][i:i+4]) != string(got[1][i:i+4]) {
				t.Fatalf("iteration %d, mov o0, %s, pixel (%d, %d): %v, through a temp %v", iter, src, i/4%w, i/4/w, got[0][i:i+4], got[1][i:i+4])
			}
		}
	}
}

// unormW is unorm8 for every float: all 2^32 bit patterns would take too
// long, so every 97th, and every pattern near the edges of its ranges.
func TestUnormW(t *testing.T) {
	check := func(x uint32) {
		if got, want := unormW(x), uint32(unorm8(math.Float32frombits(x))); got != want {
			t.Fatalf("unormW(%#08x) = %d, unorm8 gives %d", x, got, want)
		}
	}
	for x := uint64(0); x < 1<<32; x += 97 {
		check(uint32(x))
	}
	for _, e := range []uint32{0, 1, 0x3F000000, 0x3F7FFFFF, 0x3F800000, 0x7F800000, 0x7F800001, 0x7FFFFFFF, 0x80000000, 0xBF800000, 0xFF800000, 0xFFFFFFFF} {
		for d := uint32(0); d < 4096; d++ {
			check(e + d)
			check(e - d)
		}
	}
}

// tileISAScene draws a random mix of pixel programs from memory (texture ×
// colour, a discard, derivatives, a copy, SV_Position, a loop, a counted
// loop) over big and
// small triangles, with blending and depth tests, on a rasterizer of
// workers goroutines; alias binds the target as the texture too (the draw
// must not be split). It returns the target, the depth buffer, the counters
// and how many batches went parallel.
func tileISAScene(t *testing.T, workers int, seed uint64, alias bool) (rgba, depth []byte, st Stats, parallel uint64) {
	const w, h = 160, 120
	rng := rand.New(rand.NewPCG(seed, 7))
	r := newRigWorkers(t, workers)
	rt := r.target(w, h, isa.FmtRGBA8)
	ds := r.target(w, h, isa.FmtD32F)
	b := r.scene(rt, "", nil)
	rt.clear(b, [4]float32{0.1, 0.2, 0.3, 1})
	ds.setDS(b)
	b.ClearDS(ds.addr, w, h, uint32(ds.pitch), isa.FmtD32F, 1)
	b.SetLayout(isa.BuiltinLayout())
	a, n := r.program(vsPass)
	b.SetProgram(isa.StageVS, a, n, 0)
	programs := []string{
		TexturedColorPS,
		"ps inputs=3 outputs=1 temps=1\nsample r0, v2.xyxx, t0, s0\nadd r0.x, r0.x, l(-0.5, 0, 0, 0)\ndiscard_z r0.x\nmul o0, r0, v1",
		"ps inputs=3 outputs=1 temps=1\nderiv_rtx r0, v1\nderiv_rty_fine r0.zw, v2.xxxy\nadd o0, r0, v1",
		"ps inputs=3 outputs=1\nmov o0, v1.zyxw",
		"ps inputs=3 outputs=1 temps=1\nmul r0, v0, l(0.01, 0.01, 1, 1)\nmov o0, r0",
		"ps inputs=3 outputs=1 temps=2\nmov r0, v1\nmov r1.x, l(0, 0, 0, 0)\nloop\niadd r1.x, r1.x, l(1, 0, 0, 0)\nige r1.y, r1.x, l(3, 0, 0, 0)\nbreakc_nz r1.y\nmul r0.x, r0.x, l(0.5, 0, 0, 0)\nendloop\nmov o0, r0",
		LoopPS, // a counted loop (countedLoops): tileable
	}
	tex := r.buffer(bytes.Repeat([]byte{200, 30, 90, 255, 10, 250, 60, 128}, 32))
	var vs []vtx
	for range tileDraws(30) {
		first := len(vs)
		n := 3 * (1 + rng.IntN(20))
		big := rng.IntN(2) == 0
		if !big && rng.IntN(4) == 0 {
			n = 3 * (batchTris + 50) // more than a batch
		}
		for i := 0; i < n; i++ {
			x, y := (rng.Float32()*2-1)*1.5, (rng.Float32()*2-1)*1.5
			if !big && i%3 != 0 {
				x, y = vs[len(vs)-1][0]+(rng.Float32()-0.5)*0.2, vs[len(vs)-1][1]+(rng.Float32()-0.5)*0.2
			}
			vs = append(vs, vtx{x, y, rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()*1.2 - 0.1, rng.Float32() * 2, rng.Float32() * 2})
		}
		a, n2 := r.program(programs[rng.IntN(len(programs))])
		b.SetProgram(isa.StagePS, a, n2, 0)
		if alias {
			b.SetTex(0, rt.addr, w, h, uint32(rt.pitch), isa.FmtRGBA8)
		} else {
			b.SetTex(0, tex, 8, 8, 32, isa.FmtRGBA8)
		}
		b.SetSampler(0, uint32(rng.IntN(2)), isa.AddrWrap, isa.AddrMirror, 0)
		if rng.IntN(3) == 0 {
			b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
		} else {
			b.SetBlend(false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF)
		}
		b.SetDepth(rng.IntN(2) == 0, rng.IntN(2) == 0, uint32(isa.CmpLess+rng.IntN(6)))
		data := vbytes(vs[first:]...)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.Draw(uint32(n), 0)
	}
	r.mustExec(b)
	return r.rgba(rt), r.mem(ds.addr, ds.pitch*h), r.g.Stats(), r.g.ex.draw.parallel
}

// The pixel programs run by the tile workers, each with its own machine,
// draw what one goroutine draws and count the same pixels.
func TestTilesISASamePixels(t *testing.T) {
	seeds := uint64(3)
	if testing.Short() {
		seeds = 1 // make race: every worker count and aliasing, one scene
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		for _, alias := range []bool{false, true} {
			rgba1, depth1, st1, _ := tileISAScene(t, 1, seed, alias)
			for _, workers := range tileWorkerCounts() {
				rgba, depth, st, par := tileISAScene(t, workers, seed, alias)
				if !bytes.Equal(rgba, rgba1) || !bytes.Equal(depth, depth1) {
					t.Errorf("seed %d alias %v, %d workers: the target or depth buffer differs from one goroutine's", seed, alias, workers)
				}
				if st != st1 {
					t.Errorf("seed %d alias %v, %d workers: stats %+v, one goroutine %+v", seed, alias, workers, st, st1)
				}
				if rasterWorkers(workers) > 1 && !alias && par == 0 {
					t.Errorf("seed %d, %d workers: no batch was rasterized in parallel", seed, workers)
				}
			}
		}
	}
}
