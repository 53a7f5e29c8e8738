package gpu

import (
	"bytes"
	"testing"

	"d3dsim/gpu/isa"
)

// A pixel program that returns its colour input, as the translator makes it
// from HLSL (mov o0, v1 and a ret), is drawn by the Gouraud spans, with the
// pictures and the instruction count of the same work done by the program
// a block at a time (two movs through a temp, which the spans do not
// recognise).
func TestCopyAndRetTakesTheSpans(t *testing.T) {
	verts := []vtx{
		pxv(1, 1, 32, 32, [4]float32{1, 0, 0, 1}), pxv(30, 3, 32, 32, [4]float32{0, 1, 0, 1}), pxv(5, 29, 32, 32, [4]float32{0, 0, 1, 1}),
		pxv(31, 31, 32, 32, [4]float32{0.25, 0.5, 0.75, 1}), pxv(30, 3, 32, 32, [4]float32{0, 1, 0, 1}), pxv(5, 29, 32, 32, [4]float32{1, 1, 0, 0.5}),
	}
	draw := func(ps string) ([]byte, Stats, spanKind) {
		r := newRig(t)
		tg := r.target(32, 32, isa.FmtBGRA8)
		b := r.isaScene(tg, vsPass, ps, verts)
		tg.clear(b, [4]float32{0, 0, 0, 1})
		b.SetTopology(isa.TopoTriangleList)
		b.Draw(6, 0)
		r.mustExec(b)
		// (the pipe as the draw prepared it: the buffer's end drops it)
		return r.rgba(tg), r.g.Stats(), r.g.ex.draw.pipeCache.pipe.kind
	}
	got, gs, kind := draw("ps inputs=2 outputs=1\nmov o0, v1\nret")
	want, ws, _ := draw("ps inputs=2 outputs=1 temps=1\nmov r0, v1\nmov o0, r0")
	if kind != spanColor {
		t.Errorf("the draw's spans are of kind %d, want the Gouraud spans (%d)", kind, spanColor)
	}
	if !bytes.Equal(got, want) {
		t.Error("the Gouraud spans' pixels differ from the program's")
	}
	if gs.Pixels == 0 || gs.Pixels != ws.Pixels || gs.Instructions != ws.Instructions {
		t.Errorf("spans: %d pixels, %d instructions; the program: %d, %d", gs.Pixels, gs.Instructions, ws.Pixels, ws.Instructions)
	}
}
