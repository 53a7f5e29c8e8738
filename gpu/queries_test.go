package gpu

import (
	"encoding/binary"
	"testing"

	"d3dsim/gpu/isa"
)

// stats reads the eleven pipeline statistics at addr.
func (r *rig) stats(addr uint64) [11]uint64 {
	var s [11]uint64
	b := r.mem(addr, 88)
	for i := range s {
		s[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
	return s
}

// TestPipelineStatistics counts a draw's work by hand: a 4x4-pixel quad
// of two triangles (six vertices, sixteen pixels), a triangle strip of four
// vertices wholly outside the clip volume, and a triangle with one vertex
// past the right plane (the clipper cuts it into a quadrilateral: two
// triangles), drawn with no pixel program.
func TestPipelineStatistics(t *testing.T) {
	r := newRig(t)
	rt := r.target(8, 8, isa.FmtRGBA8)
	q := r.alloc(256)
	white := [4]float32{1, 1, 1, 1}
	b := r.scene(rt, "ps_vertexcolor", quadVerts(0, 0, 4, 4, 8, 8, white))
	b.Query(isa.QueryStatsBegin, q)
	b.Draw(6, 0)
	b.Query(isa.QueryStatsEnd, q)
	r.mustExec(b)
	//                 IAV IAP VS GSI GSP CI CP PS HS DS CS
	want := [11]uint64{6, 2, 6, 0, 0, 2, 2, 16, 0, 0, 0}
	if got := r.stats(q); got != want {
		t.Errorf("quad: %v, want %v", got, want)
	}

	off := func(x, y float32) vtx { return vtx{x, y, 0.5, 1, 1, 1, 1, 0, 0} }
	b = r.scene(rt, "", []vtx{off(2, 2), off(3, 2), off(2, 3), off(3, 3), off(0, 0), off(2, 0), off(0, 0.5)})
	b.Query(isa.QueryStatsBegin, q+128)
	b.SetTopology(isa.TopoTriangleStrip)
	b.Draw(4, 0)
	b.SetTopology(isa.TopoTriangleList)
	b.Draw(3, 4)
	b.Query(isa.QueryStatsEnd, q+128)
	r.mustExec(b)
	want = [11]uint64{7, 3, 7, 0, 0, 3, 2, 0, 0, 0, 0}
	if got := r.stats(q + 128); got != want {
		t.Errorf("clipped: %v, want %v", got, want)
	}
}

// TestPredication: a predicated draw, clear and copy are skipped when the
// predicate's data (nonzero is TRUE) equals SET_PREDICATION's value, and run
// otherwise; address 0 turns predication off.
func TestPredication(t *testing.T) {
	r := newRig(t)
	rt := r.target(4, 4, isa.FmtRGBA8)
	pred := r.buffer([]byte{7, 0, 0, 0, 0, 0, 0, 0}) // TRUE
	src := r.buffer([]byte{1, 2, 3, 4})
	dst := r.buffer([]byte{0, 0, 0, 0})
	white := [4]float32{1, 1, 1, 1}
	for _, tc := range []struct {
		value bool
		skip  bool
	}{{true, true}, {false, false}} {
		b := r.scene(rt, "ps_vertexcolor", quadVerts(0, 0, 4, 4, 4, 4, white))
		rt.clear(b, [4]float32{0, 0, 1, 1})
		copy(r.mem(dst, 4), []byte{0, 0, 0, 0})
		b.SetPredication(pred, tc.value)
		rt.clear(b, [4]float32{1, 0, 0, 1})
		b.Draw(6, 0)
		b.Copy(dst, src, 4)
		r.mustExec(b)
		px, cp := r.px(rt, 1, 1), r.mem(dst, 4)[0]
		if tc.skip && (px != [4]byte{0, 0, 255, 255} || cp != 0) {
			t.Errorf("value %v: pixel %v, copied byte %d; want the clear before and nothing copied", tc.value, px, cp)
		}
		if !tc.skip && (px != [4]byte{255, 255, 255, 255} || cp != 1) {
			t.Errorf("value %v: pixel %v, copied byte %d; want the draw and the copy", tc.value, px, cp)
		}
	}
	b := r.scene(rt, "ps_vertexcolor", nil)
	b.SetPredication(pred, true)
	b.SetPredication(0, false) // off
	rt.clear(b, [4]float32{0, 1, 0, 1})
	r.mustExec(b)
	if px := r.px(rt, 0, 0); px != [4]byte{0, 255, 0, 255} {
		t.Errorf("after predication off: pixel %v, want the clear", px)
	}
}

// TestTimestampDisjoint: a TIMESTAMP_DISJOINT query reports the GPU's
// frequency and whether an engine reset came between its begin and end.
func TestTimestampDisjoint(t *testing.T) {
	r := newRig(t)
	q := r.alloc(64)
	for _, reset := range []bool{false, true} {
		b := &isa.Builder{}
		b.Query(isa.QueryDisjointBegin, q)
		r.mustExec(b)
		if reset {
			r.g.Reset(1)
		}
		b = &isa.Builder{}
		b.Query(isa.QueryDisjointEnd, q)
		r.mustExec(b)
		m := r.mem(q, 16)
		freq, disjoint := binary.LittleEndian.Uint64(m), binary.LittleEndian.Uint32(m[8:])
		if freq != 1e9 || disjoint != map[bool]uint32{false: 0, true: 1}[reset] {
			t.Errorf("reset %v: Frequency %d Disjoint %d", reset, freq, disjoint)
		}
	}
}
