package gpu

import (
	"encoding/binary"
	"math"
	"testing"

	"d3dsim/gpu/isa"
)

// A triangle strip with adjacency into a geometry program that emits its
// six input vertices as points, each vertex's strip index (its colour's
// red) streamed out: the order of each primitive's vertices is the table
// of "Primitive Topologies" (and OpenGL's "Triangle strips with
// adjacency", the same order), written here from the table, 1-based
// indices less one: the first triangle 1 3 5 with 2 7 4 beside it, an odd
// middle one 2i+3 2i+1 2i+5 with 2i-1 2i+4 2i+7, an even last one 2i+1
// 2i+3 2i+5 with 2i-1 2i+6 2i+4, an odd last one ... 2i-1 2i+4 2i+6, a
// lone one 1 3 5 with 2 6 4; the geometry program's v[0..5] are the
// triangle's vertices with the adjacent one after each.
func TestGeometryTriangleStripAdj(t *testing.T) {
	const gsEcho = `gs inputs=20 outputs=2 temps=0
dcl_gs l(263, 1, 6, 3)
mov o0, v0
mov o1, v1
emit
mov o0, v3
mov o1, v4
emit
mov o0, v6
mov o1, v7
emit
mov o0, v9
mov o1, v10
emit
mov o0, v12
mov o1, v13
emit
mov o0, v15
mov o1, v16
emit
ret
`
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	var verts []vtx
	for i := range 10 {
		verts = append(verts, pxv(float32(i), 8, 16, 16, [4]float32{float32(i), 0, 0, 1}))
	}
	b := r.isaScene(rt, vsPass, psGSColor, verts)
	a, n := r.program(gsEcho)
	b.SetProgram(isa.StageGS, a, n, 0)
	b.SetTopology(isa.TopoTriStripAdj)
	const prims = 7
	buf := r.alloc(4 * 6 * prims)
	ctr := r.buffer([]byte{0, 0, 0, 0})
	b.SetSOTarget(0, buf, 4*6*prims, ctr, 0)
	b.SetSODecl(0, [4]uint32{4}, []uint32{isa.SOEntry(0, 1, 0, 1)}) // colour.x only, nothing rasterized
	q := r.alloc(256)
	b.Query(isa.QueryStatsBegin, q)
	// Nine vertices: two triangles, the first and an odd last one.
	b.Draw(9, 0)
	// Strips of 10, 6 and 7 vertices between cut indices: three
	// triangles (first, odd middle, even last), then a lone one twice
	// (the seventh vertex unused).
	idx := []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0xFFFFFFFF, 0, 1, 2, 3, 4, 5, 0xFFFFFFFF, 0, 1, 2, 3, 4, 5, 6}
	b.SetIB(r.buffer(u32bytes(idx...)), uint32(4*len(idx)), 4, 0)
	b.DrawIndexed(uint32(len(idx)), 0, 0)
	b.Query(isa.QueryStatsEnd, q)
	r.mustExec(b)
	want := [prims][6]float32{
		{0, 1, 2, 6, 4, 3}, // 9 vertices: first
		{4, 0, 2, 5, 6, 7}, // last, odd
		{0, 1, 2, 6, 4, 3}, // 10 vertices: first
		{4, 0, 2, 5, 6, 8}, // middle, odd
		{4, 2, 6, 9, 8, 7}, // last, even
		{0, 1, 2, 5, 4, 3}, // 6 vertices: lone
		{0, 1, 2, 5, 4, 3}, // 7 vertices: lone
	}
	got := r.mem(buf, 4*6*prims)
	for p := range prims {
		for v := range 6 {
			if g := math.Float32frombits(binary.LittleEndian.Uint32(got[4*(6*p+v):])); g != want[p][v] {
				t.Fatalf("primitive %d vertex %d is strip vertex %v, want %v", p, v, g, want[p][v])
			}
		}
	}
	if s := r.stats(q); s[3] != prims || s[4] != 6*prims {
		t.Errorf("GSInvocations %d, GSPrimitives %d, want %d and %d", s[3], s[4], prims, 6*prims)
	}
}

// Stream output needs nothing to rasterize into: with no render target
// bound the vertex program's triangle is still written (its three
// vertices' positions), and nothing is drawn.
func TestStreamOutputNoTarget(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	white := [4]float32{1, 1, 1, 1}
	tri := quadVerts(0, 0, 8, 8, 16, 16, white)[:3]
	b := r.isaScene(rt, vsPass, psGSColor, tri)
	b.SetRT(0, 0, 0, 0, 0) // unbound
	buf := r.alloc(16 * 3)
	ctr := r.buffer([]byte{0, 0, 0, 0})
	b.SetSOTarget(0, buf, 16*3, ctr, 0)
	b.SetSODecl(isa.SORasterize, [4]uint32{16}, []uint32{isa.SOEntry(0, 0, 0, 4)})
	b.Draw(3, 0)
	r.mustExec(b)
	got := r.mem(buf, 16*3)
	for i, v := range tri {
		for k := range 3 {
			if g := math.Float32frombits(binary.LittleEndian.Uint32(got[16*i+4*k:])); g != v[k] {
				t.Fatalf("vertex %d component %d = %v, want %v", i, k, g, v[k])
			}
		}
	}
	if countDrawn(r, rt) != 0 {
		t.Error("pixels drawn with no render target bound")
	}
}
