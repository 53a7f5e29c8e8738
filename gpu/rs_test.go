package gpu

import (
	"encoding/binary"
	"math"
	"testing"

	"d3dsim/gpu/isa"
)

// TestScissor: with the scissor flag, pixels outside rectangle 0 are
// culled; without it the rectangle does nothing; a clear ignores it.
func TestScissor(t *testing.T) {
	r := newRig(t)
	for _, on := range []bool{false, true} {
		rt := r.target(8, 8, isa.FmtRGBA8)
		b := r.scene(rt, "ps_solid", nil)
		rt.clear(b, [4]float32{0, 0, 0, 1})
		b.SetScissor(0, 2, 3, 5, 6)
		cull := uint32(isa.CullNone)
		if on {
			cull |= isa.RasterScissor
		}
		b.SetRaster(cull, false, true)
		r.consts(b, 1, 0, 0, 1)
		r.quad(b, rt)
		r.mustExec(b)
		for y := range 8 {
			for x := range 8 {
				in := !on || x >= 2 && x < 5 && y >= 3 && y < 6
				want := [4]byte{0, 0, 0, 255}
				if in {
					want = [4]byte{255, 0, 0, 255}
				}
				if got := r.px(rt, x, y); got != want {
					t.Fatalf("scissor %v: pixel (%d, %d) %v, want %v", on, x, y, got, want)
				}
			}
		}
	}
}

// TestDepthBias: a triangle's depth moves by DepthBias * r (r the depth
// format's step, or 2^(exponent - 23) for a float one) plus
// SlopeScaledDepthBias times its steepest slope, clamped.
func TestDepthBias(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		fm          isa.Format
		bias        int32
		clamp, ss   float32
		want        float64 // depth written at the centre of the flat quad at z 0.5
		slopeWanted bool
	}{
		{isa.FmtD24S8, 1000, 0, 0, 0.5 + 1000.0/16777215, false},
		{isa.FmtD16, -100, 0, 0, 0.5 - 100.0/65535, false},
		{isa.FmtD32F, 8, 0, 0, 0.5 + 8*math.Ldexp(1, -1-23), false},
		{isa.FmtD24S8, 100000, 0.001, 0, 0.5 + 0.001, false},
		{isa.FmtD32F, 0, 0, 2, 0, true}, // a sloped quad: z goes 0.25..0.75 over 8 pixels
	} {
		rt := r.target(8, 8, isa.FmtRGBA8)
		ds := r.fmtTarget(8, 8, c.fm)
		b := r.scene(rt, "ps_solid", nil)
		b.SetDS(ds.addr, 8, 8, uint32(ds.pitch), c.fm)
		b.ClearDS(ds.addr, 8, 8, uint32(ds.pitch), c.fm, 1)
		b.SetDepth(true, true, isa.CmpAlways)
		b.SetDepthBias(c.bias, c.clamp, c.ss)
		r.consts(b, 1, 1, 1, 1)
		w := [4]float32{1, 1, 1, 1}
		vs := []vtx{pxv(0, 0, 8, 8, w), pxv(8, 0, 8, 8, w), pxv(0, 8, 8, 8, w), pxv(8, 0, 8, 8, w), pxv(8, 8, 8, 8, w), pxv(0, 8, 8, 8, w)}
		if c.slopeWanted {
			for i := range vs {
				vs[i][2] = 0.25 + 0.5*(vs[i][0]+1)/2 // z from x
			}
		}
		data := vbytes(vs...)
		b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
		b.Draw(6, 0)
		r.mustExec(b)
		got := float64(math.Float32frombits(tdecodeDepth(r, ds, 4, 4)))
		want := c.want
		if c.slopeWanted {
			// z at the centre of pixel 4 is 0.25 + 0.5*4.5/8; the
			// slope is 0.5/8 per pixel along x: the bias 2 * 0.0625
			want = 0.25 + 0.5*4.5/8 + 2*0.0625
		}
		tol := 1.0 / 16777215
		if c.fm == isa.FmtD16 {
			tol = 1.0 / 65535 // the stored depth is 16 bits
		}
		if math.Abs(got-want) > tol {
			t.Errorf("%v bias %d clamp %g slope %g: depth %v, want %v", c.fm, c.bias, c.clamp, c.ss, got, want)
		}
	}
}

func tdecodeDepth(r *rig, ds target, x, y int) uint32 {
	b := r.texelAt(ds, x, y)
	switch ds.fmt {
	case isa.FmtD24S8:
		return math.Float32bits(float32(binary.LittleEndian.Uint32(b)&0xFFFFFF) / 16777215)
	case isa.FmtD16:
		return math.Float32bits(float32(binary.LittleEndian.Uint16(b)) / 65535)
	}
	return binary.LittleEndian.Uint32(b)
}

// TestAdjacencyPrimitiveNumbers: each primitive of a topology with
// adjacency is numbered as the ones without it are (a pixel's history and
// SV_PrimitiveID read the number): the strip's second triangle, drawn over
// (6, 6), is primitive 1.
func TestAdjacencyPrimitiveNumbers(t *testing.T) {
	c := [4]float32{1, 0, 0, 1}
	off := func() vtx { return vtx{50, 50, 0.5, 0, 0, 1, 1, 0, 0} }
	for _, tc := range []struct {
		name string
		topo uint32
		vs   []vtx
	}{
		{"triangle list with adjacency", isa.TopoTriangleAdj, []vtx{
			pxv(0, 0, 8, 8, c), off(), pxv(8, 0, 8, 8, c), off(), pxv(0, 8, 8, 8, c), off(),
			pxv(8, 0, 8, 8, c), off(), pxv(8, 8, 8, 8, c), off(), pxv(0, 8, 8, 8, c), off()}},
		{"triangle strip with adjacency", isa.TopoTriStripAdj, []vtx{
			pxv(0, 0, 8, 8, c), off(), pxv(8, 0, 8, 8, c), off(), pxv(0, 8, 8, 8, c), off(), pxv(8, 8, 8, 8, c), off()}},
	} {
		r := newRig(t)
		rt := r.target(8, 8, isa.FmtRGBA8)
		b := r.scene(rt, "ps_vertexcolor", tc.vs)
		b.SetTopology(tc.topo)
		b.Draw(uint32(len(tc.vs)), 0)
		evs := r.watch(rt, 6, 6)
		r.mustExec(b)
		if len(*evs) != 1 || (*evs)[0].Fragment == nil {
			t.Fatalf("%s: events at (6, 6) %+v, want one fragment", tc.name, *evs)
		}
		if p := (*evs)[0].Fragment.Prim; p != 1 {
			t.Errorf("%s: the fragment at (6, 6) is of primitive %d, want 1", tc.name, p)
		}
	}
}

// TestAdjacencyTopologies draws the primitives of each topology with
// adjacency: the adjacent vertices (here far off the target) are neither
// drawn nor joined to the others.
func TestAdjacencyTopologies(t *testing.T) {
	r := newRig(t)
	far := [4]float32{0, 0, 1, 1}
	c := [4]float32{1, 0, 0, 1}
	off := func() vtx { return vtx{50, 50, 0.5, far[0], far[1], far[2], far[3], 0, 0} }
	for _, tc := range []struct {
		name string
		topo uint32
		vs   []vtx
		lit  [][2]int
		dark [][2]int
	}{
		{"triangle list with adjacency", isa.TopoTriangleAdj,
			[]vtx{pxv(0, 0, 8, 8, c), off(), pxv(8, 0, 8, 8, c), off(), pxv(0, 8, 8, 8, c), off()},
			[][2]int{{1, 1}, {5, 1}}, [][2]int{{7, 7}}},
		{"triangle strip with adjacency", isa.TopoTriStripAdj,
			[]vtx{pxv(0, 0, 8, 8, c), off(), pxv(8, 0, 8, 8, c), off(), pxv(0, 8, 8, 8, c), off(), pxv(8, 8, 8, 8, c), off()},
			[][2]int{{1, 1}, {7, 7}, {6, 6}}, nil},
		{"line list with adjacency", isa.TopoLineListAdj,
			[]vtx{off(), pxv(0, 3.5, 8, 8, c), pxv(8, 3.5, 8, 8, c), off()},
			[][2]int{{0, 3}, {7, 3}}, [][2]int{{0, 4}, {3, 0}}},
		{"line strip with adjacency", isa.TopoLineStripAdj,
			[]vtx{off(), pxv(0, 3.5, 8, 8, c), pxv(4.5, 3.5, 8, 8, c), pxv(4.5, 8, 8, 8, c), off()},
			[][2]int{{1, 3}, {4, 6}}, [][2]int{{7, 3}}},
	} {
		rt := r.target(8, 8, isa.FmtRGBA8)
		b := r.scene(rt, "ps_vertexcolor", tc.vs)
		rt.clear(b, [4]float32{0, 0, 0, 1})
		b.SetTopology(tc.topo)
		b.Draw(uint32(len(tc.vs)), 0)
		r.mustExec(b)
		for _, p := range tc.lit {
			if got := r.px(rt, p[0], p[1]); got != [4]byte{255, 0, 0, 255} {
				t.Errorf("%s: pixel %v %v, want red", tc.name, p, got)
			}
		}
		for _, p := range tc.dark {
			if got := r.px(rt, p[0], p[1]); got != [4]byte{0, 0, 0, 255} {
				t.Errorf("%s: pixel %v %v, want black", tc.name, p, got)
			}
		}
		// no blue: an adjacent vertex never joins a primitive
		for y := range 8 {
			for x := range 8 {
				if got := r.px(rt, x, y); got[2] != 0 {
					t.Fatalf("%s: pixel (%d, %d) %v has an adjacent vertex's blue", tc.name, x, y, got)
				}
			}
		}
	}
}
