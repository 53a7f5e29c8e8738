package translate

import (
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// tessShader assembles testdata/tess/NAME.asm and translates it.
func tessShader(t *testing.T, name string, stage dxbc.ProgramType) *Shader {
	t.Helper()
	text, err := os.ReadFile("testdata/tess/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, stage)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// A quad-domain hull shader as fxc writes one: a control-point phase
// that copies point SV_OutputControlPointID (position and texture
// coordinate), a fork phase of four instances writing the edge factors
// through o[r0.x] and two fork phases for the inside factors, all from
// cb0. Phase 0 must copy each lane's control point, phase 1 put the
// factors where dcl_hs says they are.
func TestHullQuad(t *testing.T) {
	sh := tessShader(t, "quad_hs", dxbc.HullShader)
	d := sh.HS
	want := shaderisa.HSDecl{InCP: 4, OutCP: 4, Domain: shaderisa.TessDomainQuad, Part: shaderisa.TessPartInteger,
		Output: shaderisa.TessOutTriangleCW, InStride: 2, OutStride: 2, PCRegs: 6,
		EdgeFactor: [4]uint8{0 << 2, 1 << 2, 2 << 2, 3 << 2}, InsideFactor: [4]uint8{4 << 2, 5 << 2, shaderisa.NoFactor, shaderisa.NoFactor}}
	if sh.Stage != shaderisa.StageHull || d != want {
		t.Fatalf("stage %v, declaration %+v, want %+v", sh.Stage, d, want)
	}
	f := math.Float32bits
	m := shader.NewMachine(sh.Program)
	if err := m.Bind(fixedCB{f(3), f(5), 0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	// Input control point n: position (n, 10n, 0, 1), texcoord (n/4, 1).
	for n := range 4 {
		for l := range 4 {
			pos, tc := m.In(2*n), m.In(2*n+1)
			pos[0][l], pos[1][l], pos[2][l], pos[3][l] = f(float32(n)), f(float32(10*n)), 0, f(1)
			tc[0][l], tc[1][l] = f(float32(n)/4), f(1)
		}
	}
	id := m.In(int(d.IDReg()))
	for l := range 4 {
		id[0][l], id[1][l], id[2][l] = 7, uint32(3-l), 0 // lane l makes output point 3-l
	}
	if _, err := m.Run(0xF); err != nil {
		t.Fatal(err)
	}
	for l := range 4 {
		n := float32(3 - l)
		if got := math.Float32frombits(m.Out(0)[1][l]); got != 10*n {
			t.Errorf("phase 0 lane %d: position.y %g, want %g", l, got, 10*n)
		}
		if got := math.Float32frombits(m.Out(1)[0][l]); got != n/4 {
			t.Errorf("phase 0 lane %d: texcoord.x %g, want %g", l, got, n/4)
		}
	}
	id[2][0] = 1
	for r := range 6 {
		*m.Out(r) = shader.Vec{}
	}
	if _, err := m.Run(1); err != nil {
		t.Fatal(err)
	}
	for k, loc := range d.EdgeFactor {
		if got := math.Float32frombits(m.Out(int(loc >> 2))[loc&3][0]); got != 3 {
			t.Errorf("edge factor %d at o%d.%d: %g, want 3", k, loc>>2, loc&3, got)
		}
	}
	for k, loc := range d.InsideFactor[:2] {
		if got := math.Float32frombits(m.Out(int(loc >> 2))[loc&3][0]); got != 5 {
			t.Errorf("inside factor %d: %g, want 5", k, got)
		}
	}
}

// The quad-domain domain shader places a point bilinearly between the
// four control points and passes SV_DomainLocation on.
func TestDomainQuad(t *testing.T) {
	sh := tessShader(t, "quad_ds", dxbc.DomainShader)
	d := sh.DS
	if sh.Stage != shaderisa.StageDomain || d != (shaderisa.DSDecl{CP: 4, Domain: shaderisa.TessDomainQuad, Stride: 1, PCRegs: 0}) {
		t.Fatalf("stage %v, declaration %+v", sh.Stage, d)
	}
	f := math.Float32bits
	m := shader.NewMachine(sh.Program)
	if err := m.Bind(fixedCB{}, nil); err != nil {
		t.Fatal(err)
	}
	corners := [4][2]float32{{-1, 1}, {1, 1}, {1, -1}, {-1, -1}} // (0,0) (1,0) (1,1) (0,1) of the domain
	uv := [][2]float32{{0, 0}, {0.5, 0.5}, {0.25, 0.75}, {1, 0}}
	for l := range uv {
		for n, c := range corners {
			p := m.In(n)
			p[0][l], p[1][l], p[2][l], p[3][l] = f(c[0]), f(c[1]), 0, f(1)
		}
		loc := m.In(int(d.LocationReg()))
		loc[0][l], loc[1][l] = f(uv[l][0]), f(uv[l][1])
	}
	if _, err := m.Run(0xF); err != nil {
		t.Fatal(err)
	}
	for l, p := range uv {
		x, y := math.Float32frombits(m.Out(0)[0][l]), math.Float32frombits(m.Out(0)[1][l])
		if x != 2*p[0]-1 || y != 1-2*p[1] {
			t.Errorf("domain point %v: position %g %g, want %g %g", p, x, y, 2*p[0]-1, 1-2*p[1])
		}
		if u := math.Float32frombits(m.Out(1)[0][l]); u != p[0] {
			t.Errorf("domain point %v: texcoord.x %g", p, u)
		}
	}
	if o := sh.Outputs; len(o) != 2 || o[0].SystemValue != dxbc.SVPosition {
		t.Errorf("outputs %+v", o)
	}
}

// What a hull shader cannot do on this GPU is refused by name.
func TestHullRefusals(t *testing.T) {
	text, err := os.ReadFile("testdata/tess/quad_hs.asm")
	if err != nil {
		t.Fatal(err)
	}
	src := string(text)
	cases := []struct{ desc, from, to, want string }{
		{"no inside factor", "dcl_output_siv o5.x, finalQuadVInsideTessFactor\nmov o5.x, cb0[0].y\n", "dcl_output o5.x\nmov o5.x, cb0[0].y\n", "inside 1 is missing"},
		{"lines from a quad", "output_triangle_cw", "output_line", "the quad domain does not output line"},
		{"too many instances", "dcl_hs_fork_phase_instance_count 4", "dcl_hs_fork_phase_instance_count 33", "1..32 instances"},
	}
	for _, c := range cases {
		if !strings.Contains(src, c.from) {
			t.Fatalf("%s: the listing lacks %q", c.desc, c.from)
		}
		bc, err := dxbc.Assemble(strings.Replace(src, c.from, c.to, 1))
		if err != nil {
			t.Fatalf("%s: %v", c.desc, err)
		}
		if _, err := Translate(bc, dxbc.HullShader); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.desc, err, c.want)
		}
	}
	// The tessellator's declarations stay refused outside hull and domain shaders.
	bc, err := dxbc.Assemble("vs_5_0\ndcl_tessellator_domain domain_quad\nret\n")
	if err == nil {
		if _, err = Translate(bc, dxbc.VertexShader); err == nil || !strings.Contains(err.Error(), "dcl_tessellator_domain") {
			t.Errorf("a vertex shader's dcl_tessellator_domain: %v", err)
		}
	}
}

// A triangle-domain hull shader as fxc writes one for an inside factor
// computed from the edges: a fork phase of three instances writes edge
// factor i as cb0.x + i through o[r0.x], and the join phase reads them
// back (vpc0..vpc2) for their average. No control-point phase: the
// points pass through.
func TestHullJoinPhase(t *testing.T) {
	sh := tessShader(t, "tri_join_hs", dxbc.HullShader)
	d := sh.HS
	if d.Domain != shaderisa.TessDomainTri || d.Part != shaderisa.TessPartFractionalOdd || d.PCRegs != 4 ||
		d.EdgeFactor != [4]uint8{0 << 2, 1 << 2, 2 << 2, shaderisa.NoFactor} || d.InsideFactor[0] != 3<<2 {
		t.Fatalf("declaration %+v", d)
	}
	f := math.Float32bits
	m := shader.NewMachine(sh.Program)
	if err := m.Bind(fixedCB{f(2), 0, 0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	for n := range 3 {
		m.In(n)[0][0], m.In(n)[0][1], m.In(n)[0][2] = f(float32(n)), f(float32(n)), f(float32(n))
	}
	id := m.In(int(d.IDReg()))
	// Phase 0: the points pass through (lane l makes point l).
	for l := range 3 {
		id[1][l], id[2][l] = uint32(l), 0
	}
	if _, err := m.Run(0x7); err != nil {
		t.Fatal(err)
	}
	for l := range 3 {
		if got := math.Float32frombits(m.Out(0)[0][l]); got != float32(l) {
			t.Errorf("phase 0 lane %d: %g, want %d", l, got, l)
		}
	}
	id[2][0] = 1
	if _, err := m.Run(1); err != nil {
		t.Fatal(err)
	}
	for k, want := range []float32{2, 3, 4, 3} {
		got := math.Float32frombits(m.Out(k)[0][0])
		if math.Abs(float64(got-want)) > 1e-5 {
			t.Errorf("patch constant o%d.x = %g, want %g", k, got, want)
		}
	}
}

// Hull shaders as fxc writes them for what the phases may do that the
// translator once refused: indexable temps (each phase its own x0, of
// different lengths) and a ret inside a block of a fork phase (an early
// return: the instance runs as a subroutine). The join-phase shader's
// factors must come out as TestHullJoinPhase's: 2, 3, 4 and their mean 3;
// with the early return taken (cb0.y nonzero) instance 1 writes 10.
func TestHullIndexableTempsAndEarlyReturn(t *testing.T) {
	sh := editedHull(t, "tri_join_hs", "x0[2], 4\nmov x0[1].x", // (the fork phase's edit: the early return's 10 below)
		"dcl_indexrange o0.x 3\nmov r0.x, vForkInstanceID.x\nutof r0.y, r0.x\nadd r0.y, r0.y, cb0[0].x\nmov o[r0.x + 0].x, r0.y\nret",
		"dcl_indexrange o0.x 3\ndcl_indexableTemp x0[3], 4\nmov r0.x, vForkInstanceID.x\nutof r0.y, r0.x\nadd r0.y, r0.y, cb0[0].x\n"+
			"mov x0[r0.x + 0].x, r0.y\nmov r0.y, x0[r0.x + 0].x\nieq r0.z, r0.x, l(1)\nand r0.z, r0.z, cb0[0].y\nif_nz r0.z\n"+
			"mov o[r0.x + 0].x, l(10.000000)\nret\nendif\nmov o[r0.x + 0].x, r0.y\nret",
		"dcl_temps 1\nadd r0.x, vpc0.x, vpc1.x", "dcl_temps 1\ndcl_indexableTemp x0[2], 4\nmov x0[1].x, vpc1.x\nadd r0.x, vpc0.x, x0[1].x")
	f := math.Float32bits
	for _, tc := range []struct {
		early uint32
		want  []float32
	}{{0, []float32{2, 3, 4, 3}}, {1, []float32{2, 10, 4, 16.0 / 3}}} {
		m := shader.NewMachine(sh.Program)
		if err := m.Bind(fixedCB{f(2), tc.early, 0, 0}, nil); err != nil {
			t.Fatal(err)
		}
		id := m.In(int(sh.HS.IDReg()))
		id[2][0] = 1 // phase 1
		if _, err := m.Run(1); err != nil {
			t.Fatal(err)
		}
		for k, want := range tc.want {
			if got := math.Float32frombits(m.Out(k)[0][0]); math.Abs(float64(got-want)) > 1e-5 {
				t.Errorf("early return %d: patch constant o%d.x = %g, want %g", tc.early, k, got, want)
			}
		}
	}
}

// A control-point phase that reads v[r0.x + 0][r0.y + 0], both indices
// from registers over dcl_indexrange v[4][0] 2 (as fxc writes an input
// patch indexed by a variable register): output point n's o0 is input
// point n's register n&1, its position (n, 10n, 0, 1) when even, its
// texture coordinate (n/4, 1, 0, 0) when odd.
func TestHullControlPointIndexRange(t *testing.T) {
	sh := editedHull(t, "quad_hs", "v[r0.x + 0][r0.y + 0]", "dcl_temps 1\nmov r0.x, vOutputControlPointID\nmov o0.xyzw, v[r0.x + 0][0].xyzw",
		"dcl_temps 1\ndcl_indexrange v[4][0].xyzw 2\nmov r0.x, vOutputControlPointID\nand r0.y, r0.x, l(1)\nmov o0.xyzw, v[r0.x + 0][r0.y + 0].xyzw")
	f := math.Float32bits
	m := shader.NewMachine(sh.Program)
	if err := m.Bind(fixedCB{f(3), f(5), 0, 0}, nil); err != nil {
		t.Fatal(err)
	}
	for n := range 4 {
		for l := range 4 {
			pos, tc := m.In(2*n), m.In(2*n+1)
			pos[0][l], pos[1][l], pos[2][l], pos[3][l] = f(float32(n)), f(float32(10*n)), 0, f(1)
			tc[0][l], tc[1][l] = f(float32(n)/4), f(1)
		}
	}
	id := m.In(int(sh.HS.IDReg()))
	for l := range 4 {
		id[0][l], id[1][l], id[2][l] = 7, uint32(3-l), 0 // lane l makes output point 3-l
	}
	if _, err := m.Run(0xF); err != nil {
		t.Fatal(err)
	}
	for l := range 4 {
		n := 3 - l
		want := [2]float32{float32(n), float32(10 * n)}
		if n&1 == 1 {
			want = [2]float32{float32(n) / 4, 1}
		}
		if x, y := math.Float32frombits(m.Out(0)[0][l]), math.Float32frombits(m.Out(0)[1][l]); x != want[0] || y != want[1] {
			t.Errorf("point %d: o0.xy (%g, %g), want %v", n, x, y, want)
		}
	}
}

// editedHull translates testdata/tess/NAME.asm with the replacer's pairs
// applied (the edited text must contain mark).
func editedHull(t *testing.T, name, mark string, pairs ...string) *Shader {
	t.Helper()
	text, err := os.ReadFile("testdata/tess/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.NewReplacer(pairs...).Replace(string(text))
	if !strings.Contains(src, mark) {
		t.Fatal("the listing did not change as planned")
	}
	bc, err := dxbc.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	sh, err := Translate(bc, dxbc.HullShader)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}
