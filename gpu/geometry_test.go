package gpu

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
)

// A geometry program that makes each point a 4x4-pixel square (on a 16x16
// target: 0.25 in clip space either side) as a triangle strip of four
// vertices, coloured with the point's colour, and emits nothing for the
// points whose SV_PrimitiveID is odd.
const gsBillboard = `gs inputs=5 outputs=2 temps=1
dcl_gs l(257, 5, 4, 3)
and r0.x, v3.x, l(1, 1, 1, 1)
retc_nz r0.x
mov o1, v1
add o0, v0, l(-0.25, 0.25, 0, 0)
emit
add o0, v0, l(0.25, 0.25, 0, 0)
emit
add o0, v0, l(-0.25, -0.25, 0, 0)
emit
add o0, v0, l(0.25, -0.25, 0, 0)
emit
cut
ret
`

const psGSColor = "ps inputs=2 outputs=1\nmov o0, v1"

func TestGeometryBillboards(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	red, green := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1}
	// Primitives 0 (red at 4,4), 1 (green at 12,12: odd, no output) and 2
	// (green at 12,4).
	pts := []vtx{pxv(4, 4, 16, 16, red), pxv(12, 12, 16, 16, green), pxv(12, 4, 16, 16, green)}
	b := r.isaScene(rt, vsPass, psGSColor, pts)
	a, n := r.program(gsBillboard)
	b.SetProgram(isa.StageGS, a, n, 0)
	b.SetTopology(isa.TopoPointList)
	q := r.alloc(256)
	b.Query(isa.QueryStatsBegin, q)
	b.Draw(3, 0)
	b.Query(isa.QueryStatsEnd, q)
	r.mustExec(b)
	for y := range 16 {
		for x := range 16 {
			want := [4]byte{}
			switch {
			case x >= 2 && x < 6 && y >= 2 && y < 6:
				want = [4]byte{255, 0, 0, 255}
			case x >= 10 && x < 14 && y >= 2 && y < 6:
				want = [4]byte{0, 255, 0, 255}
			}
			if got := r.px(rt, x, y); got != want {
				t.Fatalf("pixel %d,%d = %v, want %v", x, y, got, want)
			}
		}
	}
	//                 IAV IAP VS GSI GSP CI CP  PS HS DS CS
	want := [11]uint64{3, 3, 3, 3, 4, 4, 4, 32, 0, 0, 0}
	if got := r.stats(q); got != want {
		t.Errorf("statistics %v, want %v", got, want)
	}
}

// A line strip of three vertices per primitive: with a cut after the
// second only the first segment is drawn, as with dcl_maxout 2 (the third
// emit is dropped).
func TestGeometryCutAndMaxout(t *testing.T) {
	const gsLines = `gs inputs=5 outputs=2 temps=0
dcl_gs l(257, 3, %MAX%, 3)
mov o1, v1
add o0, v0, l(-0.5, 0, 0, 0)
emit
add o0, v0, l(0.5, 0, 0, 0)
emit
%CUT%
add o0, v0, l(0.5, -0.5, 0, 0)
emit
ret
`
	tests := []struct {
		name, max, cut string
		lit, below     int // lit pixels, and those below the point's row
	}{
		// A horizontal segment over pixels 4..11 of row 4, then a
		// vertical one down column 12 (its diamond-exit pixels 4..7).
		{"no cut", "3", "", 12, 3},
		{"cut", "3", "cut", 8, 0},
		{"maxout 2", "2", "", 8, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			white := [4]float32{1, 1, 1, 1}
			b := r.isaScene(rt, vsPass, psGSColor, []vtx{pxv(8.5, 4.5, 16, 16, white)})
			src := strings.NewReplacer("%MAX%", tc.max, "%CUT%", tc.cut).Replace(gsLines)
			a, n := r.program(src)
			b.SetProgram(isa.StageGS, a, n, 0)
			b.SetTopology(isa.TopoPointList)
			b.Draw(1, 0)
			r.mustExec(b)
			lit, below := 0, 0
			for y := range 16 {
				for x := range 16 {
					if r.px(rt, x, y)[0] == 0 {
						continue
					}
					lit++
					if y > 4 {
						below++
					}
				}
			}
			if lit != tc.lit || below != tc.below {
				t.Errorf("%d pixels lit, %d below row 4, want %d and %d", lit, below, tc.lit, tc.below)
			}
		})
	}
}

// The geometry program's input primitive must be the topology's.
func TestGeometryTopologyMismatch(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	white := [4]float32{1, 1, 1, 1}
	b := r.isaScene(rt, vsPass, psGSColor, quadVerts(0, 0, 4, 4, 16, 16, white))
	a, n := r.program(gsBillboard)
	b.SetProgram(isa.StageGS, a, n, 0)
	b.Draw(6, 0)
	if fs := r.exec(b); !hasFault(fs, "input primitive is point, but the topology TRIANGLELIST makes triangle") {
		t.Fatalf("faults %v", fs)
	}
}

// Stream output of the billboard geometry program: each square's strip
// is written as two triangles (the second with its first two vertices
// swapped), position and colour's xyz to slot 0 (28 bytes a vertex),
// with nothing rasterized; the odd primitive writes nothing; the
// statistics count two primitives written per square; appending goes on
// from the filled size, and a primitive that does not fit is not written.
func TestStreamOutput(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	red := [4]float32{1, 0, 0, 1}
	pts := []vtx{pxv(4, 4, 16, 16, red), pxv(12, 12, 16, 16, red)}
	b := r.isaScene(rt, vsPass, psGSColor, pts)
	a, n := r.program(gsBillboard)
	b.SetProgram(isa.StageGS, a, n, 0)
	b.SetTopology(isa.TopoPointList)
	buf := r.alloc(28 * 6 * 2)
	ctr := r.buffer([]byte{0, 0, 0, 0})
	b.SetSOTarget(0, buf, 28*6+28*2, ctr, 0) // room for one square, not a third triangle
	b.SetSODecl(0, [4]uint32{28}, []uint32{isa.SOEntry(0, 0, 0, 4), isa.SOEntry(0, 1, 0, 3)})
	q := r.alloc(64)
	b.Query(isa.QuerySOBegin, q)
	b.Draw(2, 0)
	b.Draw(1, 0) // appends: no room for the second square
	b.Query(isa.QuerySOEnd, q)
	r.mustExec(b)
	got := r.mem(buf, 28*6)
	x0, y0 := float32(-0.5)-0.25, float32(0.5)+0.25 // pixel (4, 4): clip (-0.5, 0.5)
	corners := [][2]float32{{x0, y0}, {x0 + 0.5, y0}, {x0, y0 - 0.5}, {x0 + 0.5, y0 - 0.5}}
	order := []int{0, 1, 2, 2, 1, 3} // triangles (0 1 2) and (2 1 3): the odd one swapped
	for i, c := range order {
		want := []float32{corners[c][0], corners[c][1], 0.5, 1, 1, 0, 0}
		for k, w := range want {
			if g := math.Float32frombits(binary.LittleEndian.Uint32(got[28*i+4*k:])); g != w {
				t.Fatalf("vertex %d component %d = %v, want %v", i, k, g, w)
			}
		}
	}
	if filled := binary.LittleEndian.Uint32(r.mem(ctr, 4)); filled != 28*6 {
		t.Errorf("filled size %d, want %d", filled, 28*6)
	}
	if countDrawn(r, rt) != 0 {
		t.Error("pixels drawn with no rasterized stream")
	}
	st := r.mem(q, 16)
	if w, need := binary.LittleEndian.Uint64(st), binary.LittleEndian.Uint64(st[8:]); w != 2 || need != 4 {
		t.Errorf("NumPrimitivesWritten %d, PrimitivesStorageNeeded %d, want 2 and 4", w, need)
	}
}

// DRAW_AUTO draws the vertices a stream-output buffer holds: a vertex
// program's triangle, streamed out (no geometry program) and rasterized
// into one target, is drawn again from the buffer into another, the same
// pixels.
func TestDrawAuto(t *testing.T) {
	r := newRig(t)
	rt, rt2 := r.target(16, 16, isa.FmtRGBA8), r.target(16, 16, isa.FmtRGBA8)
	white := [4]float32{1, 1, 1, 1}
	b := r.isaScene(rt, vsPass, psGSColor, quadVerts(0, 0, 8, 8, 16, 16, white)[:3])
	buf := r.alloc(36 * 3)
	ctr := r.buffer([]byte{0, 0, 0, 0})
	b.SetSOTarget(0, buf, 36*3, ctr, 0)
	// The built-in vertex again: position xyz, colour, uv (36 bytes).
	b.SetSODecl(isa.SORasterize, [4]uint32{36}, []uint32{isa.SOEntry(0, 0, 0, 3), isa.SOEntry(0, 1, 0, 4), isa.SOEntry(0, 2, 0, 2)})
	b.Draw(3, 0)
	b.SetSODecl(0, [4]uint32{}, nil)
	b.SetSOTarget(0, 0, 0, 0, 0)
	rt2.set(b)
	b.SetVB(0, buf, 36*3, 36, 0)
	b.DrawAuto(ctr, 36)
	r.mustExec(b)
	if n := countDrawn(r, rt); n == 0 || !bytes.Equal(r.rgba(rt), r.rgba(rt2)) {
		t.Errorf("%d pixels drawn directly, %d from the stream-output buffer: want the same, more than none", n, countDrawn(r, rt2))
	}
}
