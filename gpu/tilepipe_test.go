package gpu

import (
	"bytes"
	"d3dsim/gpu/isa"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// workersRunAhead: tile workers exist to hand batches to (not under
// WebAssembly, whose one thread rasterizes in place: tiles_wasm.go, where
// these tests still compare every worker count's pixels and stops).
func workersRunAhead() bool { return rasterWorkers(2) > 1 }

// aheadScene draws n small triangles in one draw (several batches) with
// blending, so that the order the triangles reach a pixel shows, into a
// 512x512 target, under lim; with aliasVB its vertex buffer is in the
// target's last rows (which no triangle reaches). It returns the target,
// the statistics, the stop, the faults and the batches handed to the tile
// workers running ahead.
func aheadScene(t *testing.T, workers, n int, ps string, lim Limits, aliasVB bool) (px []byte, st Stats, stop Stop, faults string, handed uint64) {
	return aheadSceneVS(t, workers, n, "", ps, lim, aliasVB)
}

// aheadSceneVS is aheadScene with the vertex program vs (in the ISA; "":
// the built-in passthrough).
func aheadSceneVS(t *testing.T, workers, n int, vsProg, ps string, lim Limits, aliasVB bool) (px []byte, st Stats, stop Stop, faults string, handed uint64) {
	const w, h = 512, 512
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	r := newRigWorkers(t, workers)
	rt := r.target(w, h, isa.FmtRGBA8)
	var vs []vtx
	for range n {
		x, y := rng.Float32()*2-1, rng.Float32()*0.8+0.2 // the top 205 rows
		for k := range 3 {
			dx, dy := float32(k&1)*0.02, float32(k>>1)*0.02
			vs = append(vs, vtx{x + dx, y - dy, 0.5, rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32(), rng.Float32()})
		}
	}
	b := r.scene(rt, ps, nil)
	if vsProg != "" {
		b = r.isaScene(rt, vsProg, BuiltinSource(ps), nil)
	}
	rt.clear(b, [4]float32{0.1, 0.2, 0.3, 1})
	if ps == "ps_texture" {
		b.SetTex(0, r.buffer(bytes.Repeat([]byte{200, 30, 90, 255, 10, 250, 60, 128}, 32)), 8, 8, 32, isa.FmtRGBA8)
		b.SetSampler(0, isa.FilterLinear, isa.AddrWrap, isa.AddrMirror, 0)
	}
	b.SetBlend(true, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
	data := vbytes(vs...)
	vb := r.buffer(data)
	if aliasVB {
		vb = rt.addr + uint64(rt.pitch*h-len(data))
		copy(r.mem(vb, len(data)), data)
	}
	b.SetVB(0, vb, uint32(len(data)), vertexBytes, 0)
	b.Draw(uint32(len(vs)), 0)
	r.g.SetLimits(lim)
	b.Fence(1)
	r.g.Submit(0, 1, b.Words)
	r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= 1 }) // (a draw stopped at a budget ends the run)
	fs := r.g.Faults()
	if s := r.g.Stopped(); s != nil {
		stop = *s
	}
	return r.rgba(rt), r.g.Stats(), stop, fmt.Sprint(fs), r.g.ex.draw.tp.handed
}

// TestTilesAheadSameWork: the tile workers rasterizing batches while the
// command processor goes on with the draw's geometry draw what one
// goroutine draws, and a draw stopped at a budget (pixels, instructions,
// the buffer's deadline) stops at the same place, with the same pixels,
// statistics and faults, however many workers there are and however far
// they got.
func TestTilesAheadSameWork(t *testing.T) {
	const n = 2*batchTris + 500
	for _, ps := range []string{"ps_vertexcolor", "ps_texture"} {
		px1, st1, _, f1, _ := aheadScene(t, 1, n, ps, Limits{}, false)
		cases := []Limits{{}}
		if ps == "ps_vertexcolor" { // (the texture's program counted the same way: the test kept short)
			for _, f := range []uint64{10, 60, 99} {
				cases = append(cases, Limits{MaxPixels: st1.Pixels * f / 100})
			}
			cases = append(cases, Limits{MaxInstructions: st1.Instructions * 3 / 5}, Limits{RunNS: 300_000}, Limits{RunNS: 2_000_000})
			if testing.Short() {
				cases = []Limits{{}, cases[2], cases[4], cases[5]} // (make race)
			}
		}
		for _, lim := range cases {
			want, wst, wstop, wf := px1, st1, Stop{}, f1
			workers := []int{2, 3}
			if lim != (Limits{}) {
				want, wst, wstop, wf, _ = aheadScene(t, 1, n, ps, lim, false)
				workers = workers[:1]
			}
			for _, w := range workers {
				got, st, stop, f, handed := aheadScene(t, w, n, ps, lim, false)
				name := fmt.Sprintf("%s, %+v, %d workers", ps, lim, w)
				if !bytes.Equal(got, want) {
					t.Errorf("%s: the target differs from one goroutine's", name)
				}
				if st != wst || stop != wstop || f != wf {
					t.Errorf("%s: stats %+v, stop %+v, faults %s; one goroutine %+v, %+v, %s", name, st, stop, f, wst, wstop, wf)
				}
				if lim == (Limits{}) && handed == 0 && workersRunAhead() {
					t.Errorf("%s: no batch was handed to the workers running ahead", name)
				}
			}
		}
	}
}

// TestTilesAheadHeavyVertices: a vertex program that loops makes the
// instructions grow while batches are in flight; a draw stopped at an
// instruction budget still stops where one goroutine stops (a checkpoint
// that cannot prove the workers' batches leave it passing waits for them).
func TestTilesAheadHeavyVertices(t *testing.T) {
	const n = 2*batchTris + 500
	const vs = "vs inputs=3 outputs=3 temps=1\nmov r0.x, l(40, 0, 0, 0)\nloop\nbreakc_z r0.x\niadd r0.x, r0.x, l(-1, 0, 0, 0)\nendloop\nmov o0, v0\nmov o1, v1\nmov o2, v2"
	_, st1, _, _, _ := aheadSceneVS(t, 1, n, vs, "ps_vertexcolor", Limits{}, false)
	for _, f := range []uint64{20, 50, 53, 80} { // (50 and 53 fail with the checkpoint not waiting)
		lim := Limits{MaxInstructions: st1.Instructions * f / 100}
		want, wst, wstop, _, _ := aheadSceneVS(t, 1, n, vs, "ps_vertexcolor", lim, false)
		got, st, stop, _, _ := aheadSceneVS(t, 2, n, vs, "ps_vertexcolor", lim, false)
		if !bytes.Equal(got, want) || st != wst || stop != wstop {
			t.Errorf("%d%% of the instructions: 2 workers %+v, %+v; one goroutine %+v, %+v", f, st, stop, wst, wstop)
		}
	}
}

// TestTilesAheadNotOverTheirInput: a draw whose vertex buffer shares memory
// with its target is not run ahead (a vertex fetched after a batch could
// read what the batch wrote), and draws what one goroutine draws.
func TestTilesAheadNotOverTheirInput(t *testing.T) {
	const n = batchTris + 100
	want, _, _, _, _ := aheadScene(t, 1, n, "ps_vertexcolor", Limits{}, true)
	got, _, _, _, handed := aheadScene(t, 2, n, "ps_vertexcolor", Limits{}, true)
	if handed != 0 {
		t.Errorf("%d batches handed to the workers running ahead, want none", handed)
	}
	if !bytes.Equal(got, want) {
		t.Error("the target differs from one goroutine's")
	}
	if _, _, _, _, handed := aheadScene(t, 2, n, "ps_vertexcolor", Limits{}, false); handed == 0 && workersRunAhead() {
		t.Error("the same draw with its vertex buffer apart: no batch handed over")
	}
}

// TestTilesAheadOneCore: with one core (GOMAXPROCS 1) the command processor
// runs until the workers' channels are full, drawing the oldest batches
// itself, while the worker has not taken them from its channel yet; a batch's
// buffer filled again under it (the worker then draws the new batch's pieces
// before the batches between, waiting for them forever) hangs the draw. Same
// pixels as one goroutine.
func TestTilesAheadOneCore(t *testing.T) {
	if !workersRunAhead() {
		t.Skip("no tile workers (WebAssembly)")
	}
	const n = 6 * batchTris
	want, wst, _, _, _ := aheadScene(t, 1, n, "ps_vertexcolor", Limits{}, false)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, w := range []int{2, 3} {
		got, st, _, _, handed := aheadScene(t, w, n, "ps_vertexcolor", Limits{}, false)
		if !bytes.Equal(got, want) || st != wst {
			t.Errorf("%d workers: stats %+v; one goroutine %+v, or the pixels differ", w, st, wst)
		}
		if handed < 5 {
			t.Errorf("%d workers: %d batches handed over, want 5 or more", w, handed)
		}
	}
}
