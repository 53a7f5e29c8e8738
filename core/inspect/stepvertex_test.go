package inspect

import (
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/scenario"
)

// reg is register name's component c in lane l after step i (0: before
// the first).
func reg(t *testing.T, s *Steps, name string, c, i int) uint32 {
	t.Helper()
	for r, n := range s.Registers {
		if n == name || strings.HasPrefix(n, name+" ") {
			return s.RegistersAt(i)[(r*4+c)*4+s.Lane]
		}
	}
	t.Fatalf("no register %s in %v", name, s.Registers)
	return 0
}

func f32(x uint32) float32 { return math.Float32frombits(x) }

// TestStepVertex: hlsl-triangle's second vertex through its vertex shader:
// its inputs are the vertex buffer's second vertex, its outputs the
// position and the colour, each step with its HLSL line, DXBC and GPU
// instruction.
func TestStepVertex(t *testing.T) {
	s, j := session(t, "assets/scenarios/hlsl-triangle.d3ds")
	st, err := s.StepVertex(j, at(t, j, "Draw"), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if st.Stage != "vs" || st.Shader != "vs" || st.Vertex == nil || *st.Vertex != 1 || st.VertexID != 1 || st.Lane != 1 || len(st.Steps) == 0 {
		t.Fatalf("steps: %+v", st)
	}
	end := len(st.Steps)
	if x, y := f32(reg(t, st, "v0", 0, 0)), f32(reg(t, st, "v0", 1, 0)); x != 0.5 || y != -0.5 {
		t.Errorf("v0 = %v, %v: want the second vertex's position (0.5, -0.5)", x, y)
	}
	if g := f32(reg(t, st, "o1", 1, end)); g != 1 {
		t.Errorf("o1.y = %v at the end: want the vertex's green 1", g)
	}
	if w := f32(reg(t, st, "o0", 3, end)); w != 1 {
		t.Errorf("o0.w = %v at the end, want 1", w)
	}
	if st.Steps[0].Line == 0 || st.Steps[0].DXBC == "" || st.Steps[0].ISA == "" || !st.Steps[0].Active {
		t.Errorf("first step: %+v", st.Steps[0])
	}
	text := st.Text()
	for _, want := range []string{"vertex 1 (SV_VertexID 1) of instance 0 in Draw", "HLSL 7: o.pos = float4(i.pos, 1);", "o1 = (0, 1, 0, 1)"} {
		if !strings.Contains(text, want) {
			t.Errorf("text has no %q:\n%s", want, text)
		}
	}
	// A vertex the draw has not, an instance it has not, a call that is no draw.
	for _, c := range []struct {
		v, inst uint32
		at      string
		want    string
	}{{3, 0, "Draw", "shaded no vertex 3"}, {0, 1, "Draw", "of instance 1"}, {0, 0, "Present", "needs a Draw"}} {
		if _, err := s.StepVertex(j, at(t, j, c.at), c.v, c.inst); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("vertex %d of instance %d at %s: %v, want %q", c.v, c.inst, c.at, err, c.want)
		}
	}
}

// TestStepThread: a prefix sum over two groups of 256 threads (four blocks
// of 64 lanes each, parked at every barrier): thread 200 of group 1 sums
// 201 ones; its ids are its inputs.
func TestStepThread(t *testing.T) {
	text, err := os.ReadFile("../umd/translate/testdata/compute/prefix_sum.asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	ones := strings.TrimSpace(strings.Repeat("1 ", 512))
	src := `dev, imm = D3D11CreateDevice
buf = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS Data=u32[` + ones + `]
uav = dev.CreateUnorderedAccessView buf Format=R32_TYPELESS Flags=RAW
cs = dev.CreateComputeShader bytes:` + hex.EncodeToString(bc) + `
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 uav
imm.Dispatch 2
imm.Flush
`
	sc, err := scenario.Load("prefix.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(sc, scenario.Overrides{})
	_, j := s.Run()
	st, err := s.StepThread(j, at(t, j, "Dispatch"), [3]uint32{1, 0, 0}, [3]uint32{200, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	if st.Stage != "cs" || st.Group == nil || st.Thread == nil || (*st.Thread)[0] != 200 || st.Lane != 0 || st.Truncated {
		t.Fatalf("steps: %+v", st)
	}
	if id := reg(t, st, "v0", 0, 0); id != 456 {
		t.Errorf("SV_DispatchThreadID.x = %d, want 456", id)
	}
	syncs := 0
	for _, x := range st.Steps {
		if strings.HasPrefix(x.DXBC, "sync_g_t") {
			syncs++
		}
	}
	if syncs < 17 { // one, then two per pass of the loop (8 passes)
		t.Errorf("%d barriers stepped, want 17", syncs)
	}
	if sum := reg(t, st, "r0", 1, len(st.Steps)); sum != 201 {
		t.Errorf("r0.y = %d at the end: want the sum of 201 ones", sum)
	}
	if !strings.Contains(st.Text(), "thread 200,0,0 of group 1,0,0 in Dispatch") || !strings.Contains(st.Text(), "input v0 (SV_DispatchThreadID) = (456, 0, 0, 0)") {
		t.Errorf("text:\n%s", st.Text())
	}
	for _, c := range []struct {
		g, th [3]uint32
		want  string
	}{{[3]uint32{2, 0, 0}, [3]uint32{0, 0, 0}, "ran no group 2,0,0"}, {[3]uint32{0, 0, 0}, [3]uint32{256, 0, 0}, "outside the thread group"}} {
		if _, err := s.StepThread(j, at(t, j, "Dispatch"), c.g, c.th); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("group %v thread %v: %v, want %q", c.g, c.th, err, c.want)
		}
	}
}
