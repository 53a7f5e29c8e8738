package gpu

import (
	"d3dsim/gpu/isa"
	"testing"
)

// TestBoundedFetch: the Direct3D 11 input assembler bounds its fetches. A
// draw that names vertices past the end of the vertex buffer, indices past
// the end of the index buffer, or an index that points past the vertex
// buffer reads zeros (an index of 0, a vertex element of zeros with the
// layout's defaults: w, and a colour's alpha, 1) and goes on:
// no fault, nothing read outside the binding. The memory after each binding
// holds junk, so a fetch that leaked past it would draw it.
func TestBoundedFetch(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	// A clockwise triangle covering the 8x8 target, and junk after it.
	full := []vtx{pxv(-8, -8, 8, 8, red), pxv(24, -8, 8, 8, red), pxv(-8, 24, 8, 8, red)}
	junk := vtx{0.9, 0.9, 0.5, 1, 1, 1, 1, 0, 0} // a white vertex no draw may read
	tests := []struct {
		desc     string
		verts    []vtx // in memory: the first bound are bound
		bound    int   // bytes of the vertex binding
		idx      []byte
		ibBound  uint32
		draw     func(b *isa.Builder)
		want     [4]byte // pixel (1, 1); the target is cleared to blue
		wantPx63 [4]byte // pixel (6, 3)
	}{
		{desc: "vertices past the end read zeros: the extra triangle is degenerate",
			verts: append(full, junk, junk, junk), bound: 3 * vertexBytes,
			draw: func(b *isa.Builder) { b.Draw(6, 0) }, want: [4]byte{255, 0, 0, 255}, wantPx63: [4]byte{255, 0, 0, 255}},
		{desc: "a draw wholly past the end draws nothing",
			verts: append(full, junk, junk, junk), bound: 3 * vertexBytes,
			draw: func(b *isa.Builder) { b.Draw(3, 3) }, want: [4]byte{0, 0, 255, 255}, wantPx63: [4]byte{0, 0, 255, 255}},
		{desc: "a start vertex near 2^32 reads zeros",
			verts: full, bound: 3 * vertexBytes,
			draw: func(b *isa.Builder) { b.Draw(3, 0xFFFFFFFF) }, want: [4]byte{0, 0, 255, 255}, wantPx63: [4]byte{0, 0, 255, 255}},
		{desc: "a partly bound vertex: its position is read, its colour is the defaults 0, 0, 0, 1",
			verts: []vtx{full[0], full[1], {-3, -5, 0.5, 1, 1, 1, 1, 0, 0}}, bound: 2*vertexBytes + 12,
			draw: func(b *isa.Builder) { b.Draw(3, 0) }, want: [4]byte{179, 0, 0, 255}, wantPx63: [4]byte{163, 0, 0, 255}},
		{desc: "indices past the end of the index buffer read 0",
			verts: full, bound: 3 * vertexBytes,
			idx: []byte{1, 0, 2, 0, 9, 0}, ibBound: 4, // index 2 reads 0, not the junk 9
			draw: func(b *isa.Builder) { b.DrawIndexed(3, 0, 0) }, want: [4]byte{255, 0, 0, 255}, wantPx63: [4]byte{255, 0, 0, 255}},
		{desc: "an index past the vertex buffer reads a vertex of zeros",
			verts: append(full, junk), bound: 3 * vertexBytes,
			idx: []byte{0, 0, 1, 0, 3, 0}, ibBound: 6, // vertex 3: (0, 0, 0) opaque black, not the white junk
			draw: func(b *isa.Builder) { b.DrawIndexed(3, 0, 0) }, want: [4]byte{53, 0, 0, 255}, wantPx63: [4]byte{0, 0, 255, 255}},
		{desc: "a negative index + base vertex reads zeros",
			verts: full, bound: 3 * vertexBytes,
			idx: []byte{5, 0, 6, 0, 7, 0}, ibBound: 6,
			draw: func(b *isa.Builder) { b.DrawIndexed(3, 0, -6) }, want: [4]byte{53, 0, 0, 255}, wantPx63: [4]byte{0, 0, 255, 255}},
		{desc: "the same indices with base vertex -5 draw the triangle",
			verts: full, bound: 3 * vertexBytes,
			idx: []byte{5, 0, 6, 0, 7, 0}, ibBound: 6,
			draw: func(b *isa.Builder) { b.DrawIndexed(3, 0, -5) }, want: [4]byte{255, 0, 0, 255}, wantPx63: [4]byte{255, 0, 0, 255}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(8, 8, isa.FmtRGBA8)
			b := r.scene(rt, "ps_vertexcolor", nil)
			rt.clear(b, [4]float32{0, 0, 1, 1})
			b.SetVB(0, r.buffer(vbytes(tc.verts...)), uint32(tc.bound), vertexBytes, 0)
			if tc.idx != nil {
				b.SetIB(r.buffer(tc.idx), tc.ibBound, 2, 0)
			}
			tc.draw(b)
			r.mustExec(b)
			if got := r.px(rt, 1, 1); got != tc.want {
				t.Errorf("pixel (1, 1) = %v, want %v", got, tc.want)
			}
			if got := r.px(rt, 6, 3); got != tc.wantPx63 {
				t.Errorf("pixel (6, 3) = %v, want %v", got, tc.wantPx63)
			}
		})
	}
}

// TestIndexBounds: an index not wholly inside the index buffer (past its
// end, or past an offset past the end) reads 0.
func TestIndexBounds(t *testing.T) {
	ib := ibuf{mem: []byte{1, 0, 2, 0, 3}, size: 2, bound: true}
	for i, want := range []uint32{1, 2, 0, 0} {
		if got := ib.index(uint64(i)); got != want {
			t.Errorf("index %d = %d, want %d", i, got, want)
		}
	}
	ib.offset = 7
	if got := ib.index(0); got != 0 {
		t.Errorf("index past an offset past the end = %d", got)
	}
}
