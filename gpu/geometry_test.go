package gpu

import (
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
