package gpu

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shaderisa"
)

func immOf(v [4]uint32) string { return fmt.Sprintf("l(%d, %d, %d, %d)", v[0], v[1], v[2], v[3]) }

// quadHS is a hull program for quad patches of four control points (the
// position only): phase 0 copies input control point SV_OutputControlPointID
// to the output, phase 1 writes the edge factors to o0 and the inside
// factors to o1.xy (FACTORS).
func quadHS(part, out uint32, edges, inside string) string {
	d := shaderisa.HSDecl{InCP: 4, OutCP: 4, Domain: shaderisa.TessDomainQuad, Part: part, Output: out,
		InStride: 1, OutStride: 1, PCRegs: 2,
		EdgeFactor: [4]uint8{0, 1, 2, 3}, InsideFactor: [4]uint8{4, 5, shaderisa.NoFactor, shaderisa.NoFactor}}
	return `hs inputs=9 outputs=2 temps=1
dcl_hs ` + immOf(d.Imm()) + `
ieq r0.x, v8.z, l(0, 0, 0, 0)
if_nz r0.x
mov r0.x, v8.y
mov o0, v0[4][r0.x + 0]
ret
endif
mov o0, ` + edges + `
mov o1, ` + inside + `
ret
`
}

// quadDS places a domain point bilinearly between the four control
// points (0,0) (1,0) (1,1) (0,1) of the patch and colours it with its
// domain location: red u, green v.
var quadDS = `ds inputs=8 outputs=2 temps=2
dcl_ds ` + immOf(shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainQuad, Stride: 1, PCRegs: 2}.Imm()) + `
add r0, v1, -v0
mad r0, r0, v6.xxxx, v0
add r1, v2, -v3
mad r1, r1, v6.xxxx, v3
add r1, r1, -r0
mad o0, r1, v6.yyyy, r0
mov o1, v6
mov o1.zw, l(0, 0, 0, 1.0)
ret
`

// tessScene draws one quad patch over the whole 16x16 target.
func (r *rig) tessScene(rt target, hs, ds string) *isa.Builder {
	corners := []vtx{pxv(0, 0, 16, 16, white), pxv(16, 0, 16, 16, white), pxv(16, 16, 16, 16, white), pxv(0, 16, 16, 16, white)}
	b := r.isaScene(rt, vsPass, psGSColor, corners)
	a, n := r.program(hs)
	b.SetProgram(isa.StageHS, a, n, 0)
	a, n = r.program(ds)
	b.SetProgram(isa.StageDS, a, n, 0)
	b.SetTopology(isa.TopoPatchList1 + 3)
	return b
}

// A quad patch at integer factor 2: 9 domain points, 8 triangles that
// cover the target once; each pixel's colour is its domain location,
// interpolated across the triangles from the domain program's values
// ((x+0.5)/16, (y+0.5)/16: the mapping is affine, so exactly).
func TestTessQuadPatch(t *testing.T) {
	for _, out := range []uint32{shaderisa.TessOutTriangleCW, shaderisa.TessOutTriangleCCW} {
		r := newRig(t)
		rt := r.target(16, 16, isa.FmtRGBA8)
		b := r.tessScene(rt, quadHS(shaderisa.TessPartInteger, out, "l(2.0, 2.0, 2.0, 2.0)", "l(2.0, 2.0, 0.0, 0.0)"), quadDS)
		q := r.alloc(256)
		b.Query(isa.QueryStatsBegin, q)
		b.Draw(4, 0)
		b.Query(isa.QueryStatsEnd, q)
		r.mustExec(b)
		for y := range 16 {
			for x := range 16 {
				got := r.px(rt, x, y)
				wu, wv := (float64(x)+0.5)/16*255, (float64(y)+0.5)/16*255
				if math.Abs(float64(got[0])-wu) > 1 || math.Abs(float64(got[1])-wv) > 1 || got[2] != 0 || got[3] != 255 {
					t.Fatalf("output %d: pixel %d,%d = %v, want about %.1f %.1f 0 255", out, x, y, got, wu, wv)
				}
			}
		}
		//                 IAV IAP VS GSI GSP CI CP  PS HS DS CS
		want := [11]uint64{4, 1, 4, 0, 0, 8, 8, 256, 1, 9, 0}
		if got := r.stats(q); got != want {
			t.Errorf("output %d: statistics %v, want %v", out, got, want)
		}
	}
}

// The factors the hull program writes decide the work: a quad of integer
// factor n has (n+1)^2 domain points and 2n^2 triangles; an edge factor of
// 0 culls the patch (no domain program runs, nothing is drawn).
func TestTessFactorsFromTheHullProgram(t *testing.T) {
	cases := []struct {
		part          uint32
		edges, inside string
		dsInv, cInv   uint64
	}{
		{shaderisa.TessPartInteger, "l(1.0, 1.0, 1.0, 1.0)", "l(1.0, 1.0, 0.0, 0.0)", 4, 2},
		{shaderisa.TessPartInteger, "l(4.0, 4.0, 4.0, 4.0)", "l(4.0, 4.0, 0.0, 0.0)", 25, 32},
		{shaderisa.TessPartInteger, "l(2.5, 2.5, 2.5, 2.5)", "l(2.5, 2.5, 0.0, 0.0)", 16, 18},
		{shaderisa.TessPartInteger, "l(64.0, 64.0, 64.0, 64.0)", "l(64.0, 64.0, 0.0, 0.0)", 65 * 65, 2 * 64 * 64},
		{shaderisa.TessPartInteger, "l(4.0, 0.0, 4.0, 4.0)", "l(4.0, 4.0, 0.0, 0.0)", 0, 0},
		{shaderisa.TessPartFractionalOdd, "l(3.0, 3.0, 3.0, 3.0)", "l(3.0, 3.0, 0.0, 0.0)", 16, 18},
	}
	for _, c := range cases {
		r := newRig(t)
		rt := r.target(16, 16, isa.FmtRGBA8)
		b := r.tessScene(rt, quadHS(c.part, shaderisa.TessOutTriangleCW, c.edges, c.inside), quadDS)
		q := r.alloc(256)
		b.Query(isa.QueryStatsBegin, q)
		b.Draw(4, 0)
		b.Query(isa.QueryStatsEnd, q)
		r.mustExec(b)
		st := r.stats(q)
		if st[9] != c.dsInv || st[5] != c.cInv || st[8] != 1 {
			t.Errorf("%s %s: DS %d, C %d, HS %d; want DS %d, C %d, HS 1", c.edges, c.inside, st[9], st[5], st[8], c.dsInv, c.cInv)
		}
		if c.cInv == 0 && st[7] != 0 {
			t.Errorf("culled patch shaded %d pixels", st[7])
		}
	}
}

// Mismatched stages and topologies fault the draw with a reason.
func TestTessFaults(t *testing.T) {
	hs := quadHS(shaderisa.TessPartInteger, shaderisa.TessOutTriangleCW, "l(2.0, 2.0, 2.0, 2.0)", "l(2.0, 2.0, 0.0, 0.0)")
	triDS := strings.Replace(quadDS, immOf(shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainQuad, Stride: 1, PCRegs: 2}.Imm()),
		immOf(shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainTri, Stride: 1, PCRegs: 2}.Imm()), 1)
	tests := []struct {
		name  string
		build func(r *rig, rt target) *isa.Builder
		want  string
	}{
		{"patch list without programs", func(r *rig, rt target) *isa.Builder {
			b := r.isaScene(rt, vsPass, psGSColor, quadVerts(0, 0, 16, 16, 16, 16, white))
			b.SetTopology(isa.TopoPatchList1 + 2)
			return b
		}, "without hull and domain programs"},
		{"hull program without domain program", func(r *rig, rt target) *isa.Builder {
			b := r.tessScene(rt, hs, quadDS)
			b.SetProgram(isa.StageDS, 0, 0, 0)
			return b
		}, "a hull program needs a domain program"},
		{"triangle list into a hull program", func(r *rig, rt target) *isa.Builder {
			b := r.tessScene(rt, hs, quadDS)
			b.SetTopology(isa.TopoTriangleList)
			return b
		}, "not a patch list"},
		{"three control points into a four", func(r *rig, rt target) *isa.Builder {
			b := r.tessScene(rt, hs, quadDS)
			b.SetTopology(isa.TopoPatchList1 + 2)
			return b
		}, "4 input control points, but the topology's patches have 3"},
		{"domains differ", func(r *rig, rt target) *isa.Builder {
			return r.tessScene(rt, hs, triDS)
		}, "tri domain, but the hull program outputs 4 of the quad domain"},
		{"a domain program at the vertex stage", func(r *rig, rt target) *isa.Builder {
			b := r.tessScene(rt, hs, quadDS)
			a, n := r.program(quadDS)
			b.SetProgram(isa.StageVS, a, n, 0)
			return b
		}, "vertex program is a ds program"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			b := tc.build(r, rt)
			b.Draw(4, 0)
			if fs := r.exec(b); !hasFault(fs, tc.want) {
				t.Errorf("faults %v, want one with %q", fs, tc.want)
			}
		})
	}
}

// An isoline patch of density 4 and detail 3 is four lines of three
// segments, at v = 0, 1/4, 1/2 and 3/4 (the line at v = 1 is not drawn):
// 16 domain points, 12 lines at the clipper.
func TestTessIsolines(t *testing.T) {
	d := shaderisa.HSDecl{InCP: 4, OutCP: 4, Domain: shaderisa.TessDomainIsoline, Part: shaderisa.TessPartInteger, Output: shaderisa.TessOutLine,
		InStride: 1, OutStride: 1, PCRegs: 2,
		EdgeFactor: [4]uint8{0, 1, shaderisa.NoFactor, shaderisa.NoFactor}, InsideFactor: [4]uint8{shaderisa.NoFactor, shaderisa.NoFactor, shaderisa.NoFactor, shaderisa.NoFactor}}
	hs := strings.Replace(quadHS(shaderisa.TessPartInteger, shaderisa.TessOutTriangleCW, "l(4.0, 3.0, 0.0, 0.0)", "l(0.0, 0.0, 0.0, 0.0)"), immOf(shaderisa.HSDecl{InCP: 4, OutCP: 4, Domain: shaderisa.TessDomainQuad, Part: shaderisa.TessPartInteger, Output: shaderisa.TessOutTriangleCW,
		InStride: 1, OutStride: 1, PCRegs: 2,
		EdgeFactor: [4]uint8{0, 1, 2, 3}, InsideFactor: [4]uint8{4, 5, shaderisa.NoFactor, shaderisa.NoFactor}}.Imm()), immOf(d.Imm()), 1)
	ds := strings.Replace(quadDS, immOf(shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainQuad, Stride: 1, PCRegs: 2}.Imm()),
		immOf(shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainIsoline, Stride: 1, PCRegs: 2}.Imm()), 1)
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	b := r.tessScene(rt, hs, ds)
	q := r.alloc(256)
	b.Query(isa.QueryStatsBegin, q)
	b.Draw(4, 0)
	b.Query(isa.QueryStatsEnd, q)
	r.mustExec(b)
	st := r.stats(q)
	//                 IAV IAP VS GSI GSP CI  CP  PS     HS DS  CS
	want := [11]uint64{4, 1, 4, 0, 0, 12, 12, st[7], 1, 16, 0}
	if st != want || st[7] < 48 {
		t.Errorf("statistics %v, want %v with at least 48 pixels", st, want)
	}
	// The lines lie on pixel-row boundaries (y = 0, 4, 8 and 12): each
	// lights the row above it across the target (the diamond-exit rule),
	// the one on the target's top edge none.
	for y := range 16 {
		for x := range 16 {
			lit := r.px(rt, x, y)[3] != 0
			if want := y == 3 || y == 7 || y == 11; lit != want {
				t.Fatalf("pixel %d,%d lit %v, want %v", x, y, lit, want)
			}
		}
	}
}

// Tessellated points into a geometry shader: each of a quad patch's 9
// domain points (integer factor 2, output point) is a primitive of the
// geometry stage, which makes it a square of two triangles.
func TestTessIntoGeometry(t *testing.T) {
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	b := r.tessScene(rt, quadHS(shaderisa.TessPartInteger, shaderisa.TessOutPoint, "l(2.0, 2.0, 2.0, 2.0)", "l(2.0, 2.0, 0.0, 0.0)"), quadDS)
	a, n := r.program(gsBillboard)
	b.SetProgram(isa.StageGS, a, n, 0)
	q := r.alloc(256)
	b.Query(isa.QueryStatsBegin, q)
	b.Draw(4, 0)
	b.Query(isa.QueryStatsEnd, q)
	r.mustExec(b)
	st := r.stats(q)
	if st[1] != 1 || st[3] != 9 || st[4] != 18 || st[8] != 1 || st[9] != 9 {
		t.Errorf("statistics %v: want 1 patch, 9 GS invocations, 18 GS primitives, 1 HS, 9 DS", st)
	}
	// The centre point (domain location 0.5, 0.5) is a square around pixel
	// (8, 8) in its colour.
	if got := r.px(rt, 8, 8); got[0] < 120 || got[0] > 136 || got[1] < 120 || got[1] > 136 {
		t.Errorf("pixel 8,8 = %v, want about the domain location (0.5, 0.5)", got)
	}
}

// A triangle patch tessellated at integer factor 3 (12 domain points, 13
// triangles) covers exactly the pixels the triangle covers drawn whole:
// the small triangles share their edges, so the top-left rule gives each
// pixel to one of them, and none past the patch's edges.
func TestTessTriangleCoverage(t *testing.T) {
	d := shaderisa.HSDecl{InCP: 3, OutCP: 3, Domain: shaderisa.TessDomainTri, Part: shaderisa.TessPartInteger, Output: shaderisa.TessOutTriangleCW,
		InStride: 1, OutStride: 1, PCRegs: 1,
		EdgeFactor: [4]uint8{0, 1, 2, shaderisa.NoFactor}, InsideFactor: [4]uint8{3, shaderisa.NoFactor, shaderisa.NoFactor, shaderisa.NoFactor}}
	hs := `hs inputs=7 outputs=1 temps=1
dcl_hs ` + immOf(d.Imm()) + `
ieq r0.x, v6.z, l(0, 0, 0, 0)
if_nz r0.x
mov r0.x, v6.y
mov o0, v0[3][r0.x + 0]
ret
endif
mov o0, l(3.0, 3.0, 3.0, 3.0)
ret
`
	// SV_DomainLocation (u, v, w) weighs control points 0, 1 and 2.
	ds := `ds inputs=6 outputs=2 temps=1
dcl_ds ` + immOf(shaderisa.DSDecl{CP: 3, Domain: shaderisa.TessDomainTri, Stride: 1, PCRegs: 1}.Imm()) + `
mul r0, v0, v4.xxxx
mad r0, v1, v4.yyyy, r0
mad o0, v2, v4.zzzz, r0
mov o1, l(1.0, 1.0, 1.0, 1.0)
ret
`
	tri := []vtx{pxv(1.3, 2.1, 16, 16, white), pxv(14.6, 4.7, 16, 16, white), pxv(5.2, 15.1, 16, 16, white)}
	count := func(tess bool) ([11]uint64, [16][16]bool) {
		r := newRig(t)
		rt := r.target(16, 16, isa.FmtRGBA8)
		b := r.isaScene(rt, vsPass, psGSColor, tri)
		if tess {
			a, n := r.program(hs)
			b.SetProgram(isa.StageHS, a, n, 0)
			a, n = r.program(ds)
			b.SetProgram(isa.StageDS, a, n, 0)
			b.SetTopology(isa.TopoPatchList1 + 2)
		}
		q := r.alloc(256)
		b.Query(isa.QueryStatsBegin, q)
		b.Draw(3, 0)
		b.Query(isa.QueryStatsEnd, q)
		r.mustExec(b)
		var lit [16][16]bool
		for y := range 16 {
			for x := range 16 {
				lit[y][x] = r.px(rt, x, y)[3] != 0
			}
		}
		return r.stats(q), lit
	}
	whole, want := count(false)
	st, got := count(true)
	if st[9] != 12 || st[5] != 13 || st[8] != 1 {
		t.Errorf("statistics %v: want 12 domain points, 13 triangles, 1 patch", st)
	}
	if whole[7] < 50 {
		t.Fatalf("the whole triangle shades %d pixels", whole[7])
	}
	if got != want || st[7] != whole[7] {
		t.Errorf("the tessellated triangle shades %d pixels, the whole one %d (or other pixels)", st[7], whole[7])
	}
}
