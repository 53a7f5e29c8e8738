package gpu

import (
	"bytes"
	"math"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
)

// watchRig watches texel (x, y) of t and collects what the GPU reports.
func (r *rig) watch(t target, x, y int) *[]PixelEvent {
	var evs []PixelEvent
	n := int(t.fmt.Info().Bytes)
	addr := t.addr + uint64(y*t.pitch+x*n)
	r.g.SetPixelWatch(&PixelWatch{Where: func() (uint64, bool) { return addr, true }, Size: n,
		On: func(e PixelEvent) { evs = append(evs, e) }})
	return &evs
}

// drawAt appends a full-target quad at depth z and returns the word its
// DRAW packet starts at.
func (r *rig) drawAt(b *isa.Builder, t target, z float32) int {
	w := [4]float32{1, 1, 1, 1}
	vs := []vtx{pxv(0, 0, t.w, t.h, w), pxv(float32(t.w), 0, t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w),
		pxv(float32(t.w), 0, t.w, t.h, w), pxv(float32(t.w), float32(t.h), t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w)}
	for i := range vs {
		vs[i][2] = z
	}
	data := vbytes(vs...)
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	at := len(b.Words)
	b.Draw(6, 0)
	return at
}

// blendScene: a clear, then two additive draws of 1/255 red (the
// counter's blend) over an 8x8 RGBA8 target.
func blendScene(r *rig) (target, *isa.Builder, [2]int) {
	t := r.target(8, 8, isa.FmtRGBA8)
	b := r.scene(t, "", nil)
	t.clear(b, [4]float32{0, 0, 0, 1})
	r.counter(b)
	var at [2]int
	at[0] = r.drawAt(b, t, 0.5)
	at[1] = r.drawAt(b, t, 0.5)
	return t, b, at
}

// The watch reports the clear and both draws' fragments at the pixel, with
// the blend's inputs and result, and changes no pixel.
func TestPixelWatchHistory(t *testing.T) {
	plain := newRig(t)
	pt, pb, _ := blendScene(plain)
	plain.mustExec(pb)

	r := newRig(t)
	tg, b, at := blendScene(r)
	evs := r.watch(tg, 5, 2)
	r.mustExec(b)
	if !bytes.Equal(r.rgba(tg), plain.rgba(pt)) {
		t.Fatal("the watched run drew other pixels than the plain one")
	}
	var ops []isa.Opcode
	for _, e := range *evs {
		ops = append(ops, e.Op)
	}
	if len(ops) != 3 || ops[0] != isa.OpClearRT || ops[1] != isa.OpDraw || ops[2] != isa.OpDraw {
		t.Fatalf("events %v, want CLEAR_RT, DRAW, DRAW", ops)
	}
	for i, e := range (*evs)[1:] {
		f := e.Fragment
		if f == nil || e.Word != at[i] || !f.Passed || f.Blend == nil || !f.Blend.Enable {
			t.Fatalf("draw %d: event %+v, want a passed, blended fragment of the packet at word %d", i, e, at[i])
		}
		if want := float32(i) / 255; math.Abs(float64(f.Blend.Dst[0]-want)) > 1e-6 {
			t.Errorf("draw %d: dst red %v, want %v", i, f.Blend.Dst[0], want)
		}
		if f.Blend.Src[0] != 1.0/255 || f.Blend.Result[0] != f.Blend.Src[0]+f.Blend.Dst[0] {
			t.Errorf("draw %d: src %v + dst %v = %v", i, f.Blend.Src, f.Blend.Dst, f.Blend.Result)
		}
		if e.After[0] != byte(i+1) || e.Before[0] != byte(i) {
			t.Errorf("draw %d: red %d -> %d, want %d -> %d", i, e.Before[0], e.After[0], i, i+1)
		}
		if f.Prim != 0 && f.Prim != 1 {
			t.Errorf("draw %d: primitive %d of a two-triangle quad", i, f.Prim)
		}
	}
}

// A fragment that fails the depth test says so with the depth it was
// compared with; one the pixel program discards says that; the traced
// draw's fragment carries its program's steps.
func TestPixelWatchDepthDiscardTrace(t *testing.T) {
	r := newRig(t)
	tg := r.target(8, 8, isa.FmtRGBA8)
	ds := r.fmtTarget(8, 8, isa.FmtD32F)
	b := r.scene(tg, "", nil)
	ds.setDS(b)
	b.ClearDS(ds.addr, 8, 8, uint32(ds.pitch), ds.fmt, 1)
	b.SetDepth(true, true, isa.CmpLess)
	r.omProgram(b, `ps inputs=1 outputs=1 temps=1
mov r0, cb0[0]
discard_nz r0.w
mov o0, r0`, 0)
	r.consts(b, 0.25, 0.5, 0.75, 0)
	near := r.drawAt(b, tg, 0.25)
	r.drawAt(b, tg, 0.75) // behind: fails LESS
	r.consts(b, 1, 1, 1, 1)
	r.drawAt(b, tg, 0.1) // discarded
	evs := r.watch(tg, 3, 3)
	dma := r.id + 1
	r.g.watch.Trace = func(d uint64, w int) bool { return d == dma && w == near }
	r.mustExec(b)
	var frags []*Fragment
	for _, e := range *evs {
		if e.Fragment != nil {
			frags = append(frags, e.Fragment)
		}
	}
	if len(frags) != 3 {
		t.Fatalf("%d fragments, want 3", len(frags))
	}
	if f := frags[0]; !f.Passed || !f.DepthTest || !f.DepthPass || f.DepthBefore != 1 || f.Trace == nil {
		t.Errorf("near fragment: %+v, want passed against depth 1, traced", f)
	} else {
		tr := f.Trace
		if len(tr.Steps) != 3 {
			t.Errorf("trace of %d steps, want 3", len(tr.Steps))
		}
		end := tr.At(len(tr.Steps))
		if got := math.Float32frombits(end[shader.Index(tr.Inputs, 1, f.Lane)]); got != 0.5 {
			t.Errorf("traced o0.y = %v, want 0.5", got)
		}
	}
	if f := frags[1]; f.Passed || !f.DepthTest || f.DepthPass || float32(f.DepthBefore) != 0.25 || float32(f.Depth) != 0.75 {
		t.Errorf("far fragment: %+v, want failing LESS: 0.75 against 0.25", f)
	}
	if f := frags[2]; !f.Discarded || f.Passed || f.Trace != nil {
		t.Errorf("third fragment: %+v, want discarded and not traced", f)
	}
}
