package gpu

import (
	"math"
	"math/rand"
	"testing"

	"d3dsim/gpu/isa"
)

// vsClipW is the built-in vertex's program with the position scaled by
// the colour's alpha (its w) and the texture coordinates in o2: u and v the
// distances SET_CLIP_DIST names.
const vsClipW = `vs inputs=3 outputs=3
mul o0, v0, v1.wwww
mov o1, v1
mov o2, v2`

// clipRef is whether the pixel centre (px, py) of a w x h target is drawn
// by the screen-covering triangle whose vertices have clip-space w ws and
// distances ds (clipped where the perspective-correct distance is below
// 0), and how far the distance is from 0 there, in screen-space barycentrics
// computed here from the triangle's corners.
func clipRef(px, py float64, w, h int, ndc [3][2]float64, ws, ds [3]float64) (in bool, margin float64) {
	var sx, sy [3]float64
	for i := range 3 {
		sx[i] = (ndc[i][0] + 1) / 2 * float64(w)
		sy[i] = (1 - ndc[i][1]) / 2 * float64(h)
	}
	area := (sx[1]-sx[0])*(sy[2]-sy[0]) - (sx[2]-sx[0])*(sy[1]-sy[0])
	var b [3]float64
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		b[i] = ((sx[k]-sx[j])*(py-sy[j]) - (px-sx[j])*(sy[k]-sy[j])) / area
	}
	var num, den float64
	for i := range 3 {
		num += b[i] * ds[i] / ws[i]
		den += b[i] / ws[i]
	}
	d := num / den
	return d >= 0, math.Abs(d)
}

// TestClipDistances: a triangle covering the target, at random depths w
// and with random clip distances at its corners, lights the pixels where
// the perspective-correct interpolated distance is at least 0 (pixels
// within 1e-3 of 0 skipped: rounding may go either way there); a cull
// distance below 0 at every corner draws nothing, at one corner only
// everything; a NaN clip distance drops the triangle.
func TestClipDistances(t *testing.T) {
	r := newRig(t)
	rng := rand.New(rand.NewSource(27))
	const W, H = 16, 16
	ndc := [3][2]float64{{-1, -1}, {-1, 3}, {3, -1}}
	addr, n := r.program(vsClipW)
	draw := func(ws, ds, cull [3]float64, word uint32) target {
		rt := r.target(W, H, isa.FmtRGBA8)
		b := r.scene(rt, "ps_solid", nil)
		rt.clear(b, [4]float32{0, 0, 0, 1})
		b.SetProgram(isa.StageVS, addr, n, 0)
		b.SetClipDist(word)
		r.consts(b, 1, 1, 1, 1)
		var vs []vtx
		for i := range 3 {
			vs = append(vs, vtx{float32(ndc[i][0]), float32(ndc[i][1]), 0.5, 1, 1, 1, float32(ws[i]), float32(ds[i]), float32(cull[i])})
		}
		data := vbytes(vs...)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.Draw(3, 0)
		r.mustExec(b)
		return rt
	}
	clipU := isa.ClipDistWord([2]int{2, -1}, 0x1, 0)
	for trial := range 12 {
		var ws, ds [3]float64
		for i := range 3 {
			ws[i] = 0.5 + 1.5*rng.Float64()
			ds[i] = 2*rng.Float64() - 1
		}
		rt := draw(ws, ds, [3]float64{}, clipU)
		lit, checked := 0, 0
		for y := range H {
			for x := range W {
				in, margin := clipRef(float64(x)+0.5, float64(y)+0.5, W, H, ndc, ws, ds)
				if margin < 1e-3 {
					continue
				}
				checked++
				got := r.px(rt, x, y)[0] == 255
				if got != in {
					t.Fatalf("trial %d (w %v, distances %v): pixel (%d, %d) lit %v, want %v", trial, ws, ds, x, y, got, in)
				}
				if got {
					lit++
				}
			}
		}
		if checked < W*H/2 {
			t.Fatalf("trial %d: only %d pixels checked", trial, checked)
		}
	}
	// Cull distances in v (distance 1), the clip distance u 1 everywhere.
	ws, one := [3]float64{1, 1, 1}, [3]float64{1, 1, 1}
	cullV := isa.ClipDistWord([2]int{2, -1}, 0x1, 0x2)
	for _, c := range []struct {
		cull [3]float64
		want int
	}{
		{[3]float64{-1, -0.5, -2}, 0},
		{[3]float64{-1, 0.5, -2}, W * H},
		{[3]float64{0, 0, 0}, W * H},
	} {
		rt := draw(ws, one, c.cull, cullV)
		if got := litCount(r, rt); got != c.want {
			t.Errorf("cull distances %v: %d pixels lit, want %d", c.cull, got, c.want)
		}
	}
	if got := litCount(r, draw(ws, [3]float64{1, math.NaN(), 1}, one, clipU)); got != 0 {
		t.Errorf("a NaN clip distance: %d pixels lit, want 0", got)
	}
	if got := litCount(r, draw(ws, [3]float64{-1, -1, -1}, one, 0)); got != W*H {
		t.Errorf("no SET_CLIP_DIST: %d pixels lit, want all %d", got, W*H)
	}
}

func litCount(r *rig, rt target) int {
	n := 0
	for y := range rt.h {
		for x := range rt.w {
			if r.px(rt, x, y)[0] == 255 {
				n++
			}
		}
	}
	return n
}

// TestClipDistanceFaults: SET_CLIP_DIST naming the position, a register
// past the outputs, or a distance both clip and cull faults the draw.
func TestClipDistanceFaults(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		word uint32
		want string
	}{
		{isa.ClipDistWord([2]int{0, -1}, 1, 0), "distance 0 in o0"},
		{isa.ClipDistWord([2]int{-1, 5}, 0x10, 0), "distance 4 in o5"},
		{isa.ClipDistWord([2]int{-1, -1}, 1, 0), "distance 0 in o-1"},
		{isa.ClipDistWord([2]int{2, -1}, 1, 1), "both clip and cull"},
	} {
		rt := r.target(4, 4, isa.FmtRGBA8)
		b := r.scene(rt, "ps_solid", nil)
		b.SetClipDist(c.word)
		r.quad(b, rt)
		if fs := r.exec(b); !hasFault(fs, c.want) {
			t.Errorf("SET_CLIP_DIST %#x: faults %v, want %q", c.word, fs, c.want)
		}
	}
}
