package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"math"
	"testing"
)

var white = [4]float32{1, 1, 1, 1}

// quadVerts is a pixel-space rectangle as two clockwise triangles.
func quadVerts(x0, y0, x1, y1 float32, w, h int, c [4]float32) []vtx {
	v := func(x, y float32) vtx { return pxv(x, y, w, h, c) }
	return []vtx{v(x0, y0), v(x1, y0), v(x0, y1), v(x1, y0), v(x1, y1), v(x0, y1)}
}

func countDrawn(r *rig, rt target) int {
	n := 0
	for y := 0; y < rt.h; y++ {
		for x := 0; x < rt.w; x++ {
			if r.px(rt, x, y)[0] != 0 {
				n++
			}
		}
	}
	return n
}

func TestCulling(t *testing.T) {
	cw := [][2]float32{{8, 8}, {56, 8}, {8, 56}} // clockwise on the screen
	ccw := [][2]float32{{8, 8}, {8, 56}, {56, 8}}
	tests := []struct {
		desc     string
		tri      [][2]float32
		cull     uint32
		frontCCW bool
		drawn    bool
	}{
		{"cw, cull back (D3D default): front, drawn", cw, isa.CullBack, false, true},
		{"ccw, cull back: back, culled", ccw, isa.CullBack, false, false},
		{"cw, cull front: culled", cw, isa.CullFront, false, false},
		{"ccw, cull front: drawn", ccw, isa.CullFront, false, true},
		{"cw, cull none", cw, isa.CullNone, false, true},
		{"ccw, cull none", ccw, isa.CullNone, false, true},
		{"cw, frontCCW, cull back: culled", cw, isa.CullBack, true, false},
		{"ccw, frontCCW, cull back: drawn", ccw, isa.CullBack, true, true},
		{"cw, frontCCW, cull front: drawn", cw, isa.CullFront, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(64, 64, isa.FmtRGBA8)
			var vs []vtx
			for _, p := range tc.tri {
				vs = append(vs, pxv(p[0], p[1], 64, 64, white))
			}
			b := r.scene(rt, "ps_vertexcolor", vs)
			b.SetRaster(tc.cull, tc.frontCCW, true)
			b.Draw(3, 0)
			r.mustExec(b)
			if n := countDrawn(r, rt); (n > 0) != tc.drawn {
				t.Errorf("%d pixels drawn, want drawn=%v", n, tc.drawn)
			}
		})
	}
	// The default state culls back faces with clockwise front.
	r := newRig(t)
	rt := r.target(64, 64, isa.FmtRGBA8)
	data := vbytes(pxv(8, 8, 64, 64, white), pxv(8, 56, 64, 64, white), pxv(56, 8, 64, 64, white))
	b := &isa.Builder{}
	rt.set(b)
	r.builtins(b, "vs_passthrough", "ps_vertexcolor")
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	b.Draw(3, 0)
	r.mustExec(b)
	if n := countDrawn(r, rt); n != 0 {
		t.Errorf("default state drew a counter-clockwise triangle (%d pixels)", n)
	}
}

func TestTriangleStrip(t *testing.T) {
	r := newRig(t)
	rt := r.target(32, 32, isa.FmtRGBA8)
	// Two separate quads as strips in one indexed draw, cut by 0xFFFF.
	var vs []vtx
	for _, p := range [][2]float32{{0, 0}, {16, 0}, {0, 32}, {16, 32}, {16, 0}, {32, 0}, {16, 32}, {32, 32}} {
		vs = append(vs, pxv(p[0], p[1], 32, 32, white))
	}
	b := r.scene(rt, "ps_solid", vs)
	r.counter(b)
	b.SetRaster(isa.CullBack, false, true) // both triangles of a strip are front-facing
	b.SetTopology(isa.TopoTriangleStrip)
	idx := []uint16{0, 1, 2, 3, 0xFFFF, 4, 5, 6, 7}
	var ibytes []byte
	for _, i := range idx {
		ibytes = binary.LittleEndian.AppendUint16(ibytes, i)
	}
	ib := r.buffer(ibytes)
	b.SetIB(ib, uint32(len(ibytes)), 2, 0)
	b.DrawIndexed(uint32(len(idx)), 0, 0)
	r.mustExec(b)
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			if n := r.px(rt, x, y)[0]; n != 1 {
				t.Fatalf("pixel (%d,%d) drawn %d times", x, y, n)
			}
		}
	}
}

func TestIndexedDraw(t *testing.T) {
	quad := []vtx{
		{9, 9, 9}, {9, 9, 9}, // two vertices the base vertex skips
		pxv(4, 4, 32, 32, [4]float32{1, 0, 0, 1}), pxv(28, 4, 32, 32, [4]float32{0, 1, 0, 1}),
		pxv(4, 28, 32, 32, [4]float32{0, 0, 1, 1}), pxv(28, 28, 32, 32, [4]float32{1, 1, 1, 1}),
	}
	plain := []vtx{quad[2], quad[3], quad[4], quad[3], quad[5], quad[4]}
	idx := []uint32{0, 1, 2, 1, 3, 2}
	r := newRig(t)
	ref := r.target(32, 32, isa.FmtRGBA8)
	b := r.scene(ref, "ps_vertexcolor", plain)
	b.Draw(6, 0)
	r.mustExec(b)
	want := r.rgba(ref)

	tests := []struct {
		desc      string
		size      int
		offset    int // bytes of padding before the indices
		start     uint32
		base      int32
		prefixIdx int // indices before start
	}{
		{"16-bit", 2, 0, 0, 2, 0},
		{"32-bit", 4, 0, 0, 2, 0},
		{"16-bit with offset and start", 2, 6, 3, 2, 3},
		{"32-bit with start, base 1, indices +1", 4, 0, 2, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			rt := r.target(32, 32, isa.FmtRGBA8)
			var ib []byte = make([]byte, tc.offset)
			add := uint32(2 - tc.base)
			for i := 0; i < tc.prefixIdx; i++ {
				ib = append(ib, make([]byte, tc.size)...)
			}
			for _, i := range idx {
				if tc.size == 2 {
					ib = binary.LittleEndian.AppendUint16(ib, uint16(i+add))
				} else {
					ib = binary.LittleEndian.AppendUint32(ib, i+add)
				}
			}
			b := r.scene(rt, "ps_vertexcolor", quad)
			b.SetIB(r.buffer(ib), uint32(len(ib)), uint32(tc.size), uint32(tc.offset))
			b.DrawIndexed(6, tc.start, tc.base)
			r.mustExec(b)
			if got := r.rgba(rt); string(got) != string(want) {
				t.Error("indexed draw differs from the plain one")
			}
		})
	}
}

func TestClipping(t *testing.T) {
	const w, h = 32, 32
	tests := []struct {
		desc      string
		vs        []vtx
		depthClip bool
		check     func(x, y int, n byte) bool // n: times drawn
	}{
		{"crossing the near plane: z<0 on the left is clipped", []vtx{
			{-1, 1, -1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1}, {-1, -1, -1, 1, 1, 1, 1},
			{1, 1, 1, 1, 1, 1, 1}, {1, -1, 1, 1, 1, 1, 1}, {-1, -1, -1, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return x < 15 && n == 0 || x > 16 && n == 1 || x == 15 || x == 16 }},
		{"crossing the near plane without depth clip: all drawn once", []vtx{
			{-1, 1, -1, 1, 1, 1, 1}, {1, 1, 1, 1, 1, 1, 1}, {-1, -1, -1, 1, 1, 1, 1},
			{1, 1, 1, 1, 1, 1, 1}, {1, -1, 1, 1, 1, 1, 1}, {-1, -1, -1, 1, 1, 1, 1}}, false,
			func(x, y int, n byte) bool { return n == 1 }},
		{"crossing the far plane: z>1 at the bottom is clipped", []vtx{
			{-1, 1, 0, 1, 1, 1, 1}, {1, 1, 0, 1, 1, 1, 1}, {-1, -1, 2, 1, 1, 1, 1},
			{1, 1, 0, 1, 1, 1, 1}, {1, -1, 2, 1, 1, 1, 1}, {-1, -1, 2, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return y < 15 && n == 1 || y > 16 && n == 0 || y == 15 || y == 16 }},
		{"far outside the viewport, covering it", []vtx{
			{-1e6, -1e6, 0.5, 1, 1, 1, 1}, {0, 1e6, 0.5, 1, 1, 1, 1}, {1e6, -1e6, 0.5, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return n == 1 }},
		{"absurdly far outside (precision is lost, but nothing breaks)", []vtx{
			{-1e30, -1e30, 0.5, 1, 1, 1, 1}, {0, 1e30, 0.5, 1, 1, 1, 1}, {1e30, -1e30, 0.5, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return n <= 1 }},
		{"far outside the viewport, not covering it", []vtx{
			{2, 2, 0.5, 1, 1, 1, 1}, {1e30, 5, 0.5, 1, 1, 1, 1}, {3, 1e20, 0.5, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return n == 0 }},
		{"huge and infinite coordinates", []vtx{
			{float32(math.Inf(1)), 0, 0.5, 1, 1, 1, 1}, {0, 1, 0.5, 1, 1, 1, 1}, {1, 0, 0.5, 1, 1, 1, 1},
			{float32(math.NaN()), 0, 0.5, 1, 1, 1, 1}, {0, 1, 0.5, 1, 1, 1, 1}, {1, 0, 0.5, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return n == 0 }},
		{"partly off the left edge", []vtx{
			{-3, 1, 0.5, 1, 1, 1, 1}, {0, 1, 0.5, 1, 1, 1, 1}, {-3, -1, 0.5, 1, 1, 1, 1},
			{0, 1, 0.5, 1, 1, 1, 1}, {0, -1, 0.5, 1, 1, 1, 1}, {-3, -1, 0.5, 1, 1, 1, 1}}, true,
			func(x, y int, n byte) bool { return x < 16 && n == 1 || x >= 16 && n == 0 }},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(w, h, isa.FmtRGBA8)
			b := r.scene(rt, "ps_solid", tc.vs)
			r.counter(b)
			b.SetRaster(isa.CullNone, false, tc.depthClip)
			b.Draw(uint32(len(tc.vs)), 0)
			r.mustExec(b)
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					if n := r.px(rt, x, y)[0]; !tc.check(x, y, n) {
						t.Fatalf("pixel (%d,%d) drawn %d times", x, y, n)
					}
				}
			}
		})
	}
}

// transform sets the VS transform program with matrix m.
func (r *rig) transform(b *isa.Builder, m [16]float32) {
	cb := r.buffer(f32bytes(m[:]...))
	b.SetCB(isa.StageVS, 0, cb, 64)
	r.bind(b, "vs_transform")
}

func TestBehindTheCamera(t *testing.T) {
	// w = z: a triangle with one vertex behind the eye. Its visible part
	// flares out to the top of the screen and never goes below y/w = -0.5.
	r := newRig(t)
	rt := r.target(32, 32, isa.FmtRGBA8)
	b := r.scene(rt, "ps_solid", []vtx{{-1, -1, 2}, {1, -1, 2}, {0, 1, -1}})
	r.counter(b)
	r.transform(b, [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0})
	b.Draw(3, 0)
	r.mustExec(b)
	for x := 0; x < 32; x++ {
		if n := r.px(rt, x, 0)[0]; n != 1 {
			t.Errorf("top row pixel %d drawn %d times", x, n)
		}
		for y := 25; y < 32; y++ { // ndc y < -0.5
			if n := r.px(rt, x, y)[0]; n != 0 {
				t.Errorf("pixel (%d,%d) below the visible part drawn", x, y)
			}
		}
	}
}

func TestVSTransform(t *testing.T) {
	// Scale by 0.5 and translate by (0.5, 0): the full-screen quad lands on
	// ndc x 0..1, y -0.5..0.5 = pixels 16..31 x 8..23 of 32x32.
	r := newRig(t)
	rt := r.target(32, 32, isa.FmtRGBA8)
	b := r.scene(rt, "ps_vertexcolor", quadVerts(0, 0, 32, 32, 32, 32, white))
	r.transform(b, [16]float32{0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1, 0, 0.5, 0, 0, 1})
	b.Draw(6, 0)
	r.mustExec(b)
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			in := x >= 16 && y >= 8 && y < 24
			if got := r.px(rt, x, y)[0] == 255; got != in {
				t.Fatalf("pixel (%d,%d) drawn %v, want %v", x, y, got, in)
			}
		}
	}
}

func TestPerspectiveCorrect(t *testing.T) {
	// A quad whose left edge is at depth w=1 and right edge at w=3, red
	// going 0 -> 1 from left to right. Along it, x/w = (-1+2t)/(1+2t).
	const w = 64
	r := newRig(t)
	rt := r.target(w, 16, isa.FmtRGBA8)
	l0, l1 := vtx{-1, 1, 1, 0, 0, 0, 1}, vtx{-1, -1, 1, 0, 0, 0, 1}
	r0, r1 := vtx{1, 3, 3, 1, 0, 0, 1}, vtx{1, -3, 3, 1, 0, 0, 1}
	b := r.scene(rt, "ps_vertexcolor", []vtx{l0, r0, l1, r0, r1, l1})
	r.transform(b, [16]float32{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.5, 1, 0, 0, 0, 0})
	b.Draw(6, 0)
	r.mustExec(b)
	for x := 2; x < 40; x++ {
		s := (float64(x)+0.5)/w*2 - 1 // ndc x of the pixel centre
		tt := (1 + s) / (2 * (1 - s))
		want := tt * 255
		got := float64(r.px(rt, x, 8)[0])
		if math.Abs(got-want) > 1 {
			t.Errorf("pixel %d: red %v, want %.1f (perspective-correct)", x, got, want)
		}
	}
}

func TestViewportAndScissor(t *testing.T) {
	// A full-screen quad into a viewport at (4, 2) of 8x6: only those pixels.
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	vs := []vtx{{-1, 1, 0, 1, 1, 1, 1}, {1, 1, 0, 1, 1, 1, 1}, {-1, -1, 0, 1, 1, 1, 1}, {1, 1, 0, 1, 1, 1, 1}, {1, -1, 0, 1, 1, 1, 1}, {-1, -1, 0, 1, 1, 1, 1}}
	b := r.scene(rt, "ps_solid", vs)
	r.counter(b)
	b.SetViewport(4, 2, 8, 6, 0, 1)
	b.Draw(6, 0)
	// And a viewport hanging off the target: clipped to it.
	b.SetViewport(12, 12, 100, 100, 0, 1)
	b.Draw(6, 0)
	r.mustExec(b)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			in := x >= 4 && x < 12 && y >= 2 && y < 8 || x >= 12 && y >= 12
			if n := r.px(rt, x, y)[0]; (n == 1) != in || n > 1 {
				t.Fatalf("pixel (%d,%d) drawn %d times, inside: %v", x, y, n, in)
			}
		}
	}
}

func TestStateDoesNotCarryOver(t *testing.T) {
	r := newRig(t)
	rt := r.target(8, 8, isa.FmtRGBA8)
	b := r.scene(rt, "ps_vertexcolor", quadVerts(0, 0, 8, 8, 8, 8, white))
	r.mustExec(b)
	b = &isa.Builder{}
	b.Draw(6, 0) // no RT, no VS, no VB: this buffer starts from scratch
	if fs := r.exec(b); !hasFault(fs, "no vertex program") {
		t.Errorf("faults %v", fs)
	}
	if countDrawn(r, rt) != 0 {
		t.Error("a draw used the previous buffer's state")
	}
}

// TestNoViewportDrawsNothing: Direct3D 11 has no implicit viewport. A
// buffer that draws before any SET_VIEWPORT covers no pixel (and does not
// fault); the same draw after SET_VIEWPORT covers the target.
func TestNoViewportDrawsNothing(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	for _, vp := range []bool{false, true} {
		r := newRig(t)
		rt := r.target(8, 8, isa.FmtRGBA8)
		b := &isa.Builder{}
		rt.set(b)
		rt.clear(b, [4]float32{0, 0, 1, 1})
		if vp {
			b.SetViewport(0, 0, 8, 8, 0, 1)
		}
		r.builtins(b, "vs_passthrough", "ps_vertexcolor")
		data := vbytes(pxv(-8, -8, 8, 8, red), pxv(24, -8, 8, 8, red), pxv(-8, 24, 8, 8, red))
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.Draw(3, 0)
		before := r.g.Stats().Pixels
		r.mustExec(b)
		want, pixels := [4]byte{0, 0, 255, 255}, uint64(0)
		if vp {
			want, pixels = [4]byte{255, 0, 0, 255}, 64
		}
		if got := r.px(rt, 3, 3); got != want {
			t.Errorf("viewport %v: pixel (3, 3) = %v, want %v", vp, got, want)
		}
		if got := r.g.Stats().Pixels - before; got != pixels {
			t.Errorf("viewport %v: %d pixels shaded, want %d", vp, got, pixels)
		}
	}
}
