package gpu

import (
	"bytes"
	"d3dsim/gpu/isa"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// newRigWorkers is newRig with a rasterizer of workers goroutines.
func newRigWorkers(t testing.TB, workers int) *rig {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	g := New(Config{VRAM: 256 << 20, Aperture: 64 << 20, Engines: 1, RasterWorkers: workers, PaintPageFaults: true}, s, rec)
	checkKeptPipes(t, g)
	return &rig{t: t, sim: s, rec: rec, g: g, next: VRAMBase}
}

// tileScene draws a random mix into a w x h target with a depth buffer and
// returns the target's and depth buffer's bytes, the GPU's counters and how
// many batches went parallel: big and small overlapping triangles (so
// batches go parallel), alpha blending (whose result depends on the order
// the triangles reach a pixel), depth tests that write or not, a texture,
// write masks, lines and points between the triangles, and, when alias is
// set, a texture that is the render target itself (the draw must not be
// split).
func tileScene(t *testing.T, workers int, seed uint64, alias bool) (rgba, depth []byte, st Stats, parallel uint64) {
	const w, h = 160, 120
	rng := rand.New(rand.NewPCG(seed, 99))
	r := newRigWorkers(t, workers)
	rt := r.target(w, h, isa.FmtRGBA8)
	ds := r.target(w, h, isa.FmtD32F)
	b := r.scene(rt, "ps_vertexcolor", nil)
	rt.clear(b, [4]float32{0.1, 0.2, 0.3, 1})
	ds.setDS(b)
	b.ClearDS(ds.addr, w, h, uint32(ds.pitch), isa.FmtD32F, 1)

	var vs []vtx
	tex := r.buffer(bytes.Repeat([]byte{200, 30, 90, 255, 10, 250, 60, 128}, 32))
	cb := r.buffer(f32bytes(0.3, 0.02, 0.7, 0.5))
	b.SetCB(isa.StagePS, 0, cb, 16)
	for d := 0; d < tileDraws(40); d++ {
		first := len(vs)
		n := 3 * (1 + rng.IntN(30))
		big := rng.IntN(2) == 0
		if !big && rng.IntN(3) == 0 {
			n = 3 * (batchTris + 100) // more than a batch
		}
		for i := 0; i < n; i++ {
			sz := float32(8)
			if big {
				sz = 3
			}
			x := (rng.Float32()*2 - 1) * sz / 2
			y := (rng.Float32()*2 - 1) * sz / 2
			if !big {
				x, y = rng.Float32()*2-1, rng.Float32()*2-1
				if i%3 != 0 {
					x, y = vs[len(vs)-1][0]+(rng.Float32()-0.5)*0.2, vs[len(vs)-1][1]+(rng.Float32()-0.5)*0.2
				}
			}
			vs = append(vs, vtx{x, y, rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()*1.2 - 0.1, rng.Float32() * 2, rng.Float32() * 2})
		}
		switch rng.IntN(4) {
		case 0:
			r.bind(b, "ps_vertexcolor")
		case 1:
			r.bind(b, "ps_solid")
		case 2, 3:
			r.bind(b, "ps_texture")
			if alias {
				b.SetTex(0, rt.addr, w, h, uint32(rt.pitch), isa.FmtRGBA8)
			} else {
				b.SetTex(0, tex, 8, 8, 32, isa.FmtRGBA8)
			}
			b.SetSampler(0, uint32(rng.IntN(2)), isa.AddrWrap, isa.AddrMirror, 0)
		}
		if rng.IntN(2) == 0 {
			b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
		} else {
			b.SetBlend(false, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, uint32(1+rng.IntN(15)))
		}
		b.SetDepth(rng.IntN(2) == 0, rng.IntN(2) == 0, uint32(isa.CmpLess+rng.IntN(6)))
		b.SetRaster(uint32(rng.IntN(3)), rng.IntN(2) == 0, true)
		topo := uint32(isa.TopoTriangleList)
		if rng.IntN(6) == 0 {
			topo = uint32(1 + rng.IntN(5)) // points, lines, strips
		}
		b.SetTopology(topo)
		data := vbytes(vs[first:]...)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.Draw(uint32(n), 0)
	}
	r.mustExec(b)
	return r.rgba(rt), r.mem(ds.addr, ds.pitch*h), r.g.Stats(), r.g.ex.draw.parallel
}

// tileDraws is how many draws a tile scene makes: with -short (make race)
// half, the same kinds (big and small triangles, draws longer than a batch,
// blending, the aliased texture, lines and points) over fewer draws.
func tileDraws(n int) int {
	if testing.Short() {
		return n / 2
	}
	return n
}

// tileWorkerCounts are the worker counts the tile tests compare with one
// goroutine: an even split, an odd one and more workers than tiles in a
// row; with -short (make race) the even and the widest, whose goroutines
// the detector watches as it would three's (a race between any two
// workers shows with two).
func tileWorkerCounts() []int {
	if testing.Short() {
		return []int{2, 5}
	}
	return []int{2, 3, 5}
}

// TestTilesSamePixels: the tile-parallel rasterizer draws exactly what one
// goroutine draws (and counts the same pixels), whatever the number of
// workers, with blending, depth tests, textures, lines and points in the mix.
func TestTilesSamePixels(t *testing.T) {
	seeds := uint64(4)
	if testing.Short() {
		seeds = 1 // make race (14 minutes for four at a load of 30): every worker count and aliasing, one scene
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		for _, alias := range []bool{false, true} {
			t.Run(fmt.Sprintf("seed %d alias %v", seed, alias), func(t *testing.T) {
				rgba1, depth1, st1, _ := tileScene(t, 1, seed, alias)
				for _, workers := range tileWorkerCounts() {
					rgba, depth, st, par := tileScene(t, workers, seed, alias)
					if !bytes.Equal(rgba, rgba1) {
						t.Errorf("%d workers: the target differs from one goroutine's", workers)
					}
					if !bytes.Equal(depth, depth1) {
						t.Errorf("%d workers: the depth buffer differs from one goroutine's", workers)
					}
					if st != st1 {
						t.Errorf("%d workers: stats %+v, one goroutine %+v", workers, st, st1)
					}
					if rasterWorkers(workers) > 1 && par == 0 && !alias {
						t.Errorf("%d workers: no batch was rasterized in parallel", workers)
					}
				}
			})
		}
	}
}

// TestTilesNonFinite: triangles with infinite, NaN and huge coordinates
// neither panic nor differ between one goroutine and several.
func TestTilesNonFinite(t *testing.T) {
	bad := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 3e38, -3e38, 1e7, -1e7}
	draw := func(workers int) []byte {
		r := newRigWorkers(t, workers)
		rt := r.target(96, 64, isa.FmtRGBA8)
		var vs []vtx
		for i, x := range bad {
			for j, y := range bad {
				vs = append(vs, vtx{x, -1, 0.5, 1, 0, 0, 1}, vtx{1, y, 0.5, 0, 1, 0, 1}, vtx{-1, 1, 0.5, 0, 0, 1, 1})
				vs = append(vs, vtx{-1, -1, 0.5, float32(i) / 8, float32(j) / 8, 1, 1}, vtx{1, 1, 0.5, 1, 1, 1, 1}, vtx{y, x, 0.5, 0, 0, 0, 1})
			}
		}
		b := r.scene(rt, "ps_vertexcolor", vs)
		b.Draw(uint32(len(vs)), 0)
		r.mustExec(b)
		return r.rgba(rt)
	}
	one := draw(1)
	if !bytes.Equal(draw(2), one) || !bytes.Equal(draw(4), one) {
		t.Error("non-finite coordinates: several workers draw differently from one")
	}
}

// TestTilesSamePixelsRects: axis-aligned Gouraud rectangles — the triangles
// whose colour is a row term plus a column term (spanColorCols, each tile
// worker with its own column terms) — drawn by one goroutine and by several
// give the same picture, and its colours are those of the general rows
// (spanColor), which the same draw takes when alpha varies across a
// triangle.
func TestTilesSamePixelsRects(t *testing.T) {
	const w, h = 700, 90 // wider than colChunk
	draw := func(workers int, varyAlpha bool) ([]byte, uint64) {
		rng := rand.New(rand.NewPCG(5, 8))
		r := newRigWorkers(t, workers)
		rt := r.target(w, h, isa.FmtRGBA8)
		var vs []vtx
		k := 0 // alpha does not take numbers from rng: the colours stay the same
		for range 150 {
			x0, x1 := rng.Float32()*2.4-1.2, rng.Float32()*2.4-1.2
			y0, y1 := rng.Float32()*2.4-1.2, rng.Float32()*2.4-1.2
			c := func(x, y float32) vtx {
				a := float32(1)
				if k++; varyAlpha {
					a = float32(k%5) / 4
				}
				return vtx{x, y, 0.5, rng.Float32(), rng.Float32(), rng.Float32(), a}
			}
			tl, tr, bl, br := c(x0, y1), c(x1, y1), c(x0, y0), c(x1, y0)
			vs = append(vs, tl, tr, bl, bl, tr, br)
		}
		b := r.scene(rt, "ps_vertexcolor", vs)
		b.Draw(uint32(len(vs)), 0)
		r.mustExec(b)
		px := r.rgba(rt)
		if varyAlpha { // compare colour only
			for i := 3; i < len(px); i += 4 {
				px[i] = 0
			}
		}
		return px, r.g.ex.draw.parallel
	}
	one, _ := draw(1, false)
	for _, workers := range []int{2, 3} {
		got, par := draw(workers, false)
		if !bytes.Equal(got, one) {
			t.Errorf("%d workers: the rectangles differ from one goroutine's", workers)
		}
		if rasterWorkers(workers) > 1 && par == 0 {
			t.Errorf("%d workers: no batch was rasterized in parallel", workers)
		}
	}
	// The colour channels do not depend on alpha: drawn with alpha varying
	// per vertex (spanColor's general rows), they are the same.
	general, _ := draw(1, true)
	for i := 3; i < len(one); i += 4 {
		one[i] = 0
	}
	if !bytes.Equal(general, one) {
		t.Error("the rectangles' colours differ between spanColorCols and spanColor")
	}
}

// TestRoundsOneGoroutine: on one goroutine a batch that no budget can stop
// is rasterized in one round (each triangle visited once), and one that a
// budget can stop goes round by round of roundRows rows with the draw's
// checkpoint between two: a pixel budget below the first round's pixels
// stops the draw after it, rows below it drawn and none past it.
func TestRoundsOneGoroutine(t *testing.T) {
	sc := FillScene() // two triangles over 640x480
	sc.Draws = 1
	for _, c := range []struct {
		desc   string
		limit  uint64
		pixels uint64
	}{
		{"no budget", 0, 640 * 480},
		{"a budget the first round passes", 10000, 640 * roundRows},
	} {
		r := NewBenchRig(sc, 1)
		r.g.SetLimits(Limits{MaxPixels: c.limit})
		r.Frame()
		if px := r.Stats().Pixels; px != c.pixels {
			t.Errorf("%s: %d pixels, want %d", c.desc, px, c.pixels)
		}
		img, pitch := r.Target(), 4*640
		for _, y := range []int{0, roundRows - 1, roundRows, 479} {
			drawn := !bytes.Equal(img[y*pitch:y*pitch+4], []byte{0, 0, 0, 0})
			if want := c.limit == 0 || y < roundRows; drawn != want {
				t.Errorf("%s: row %d drawn %v, want %v", c.desc, y, drawn, want)
			}
		}
	}
}
