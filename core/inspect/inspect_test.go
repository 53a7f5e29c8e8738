package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// session loads a scenario (a path from the repository's root) and runs it
// to its end with a journal.
func session(t *testing.T, file string) (*Session, *Journal) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, src)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(sc, scenario.Overrides{})
	r, j := s.Run()
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("%s: %v", file, sum.Failures)
	}
	return s, j
}

func at(t *testing.T, j *Journal, event string) uint64 {
	t.Helper()
	seq, err := j.Resolve(event)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// row finds a stage's row by its binding.
func row(t *testing.T, st *State, stage, binding string) *Row {
	t.Helper()
	for i := range st.Stages {
		if st.Stages[i].Name != stage {
			continue
		}
		for k := range st.Stages[i].Rows {
			if r := &st.Stages[i].Rows[k]; r.Binding == binding {
				return r
			}
		}
	}
	t.Fatalf("state at %d: no %s row %q", st.Event, stage, binding)
	return nil
}

func field(r *Row, name string) string {
	for _, f := range r.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// The state at hello-triangle's Draw: the runtime's bindings beside the
// packets the UMD encoded for them, each address with its allocation and
// patch location, in DMA buffer 1 whose fence 1 signals it.
func TestStateAtDraw(t *testing.T) {
	_, j := session(t, "assets/scenarios/hello-triangle.d3ds")
	st, err := j.State(at(t, j, "Draw"), "")
	if err != nil {
		t.Fatal(err)
	}
	if st.Call.Name != "Draw" || st.Context != "IC" || st.Call.Line != 24 {
		t.Fatalf("call %+v on %s, want Draw on IC at line 24", st.Call, st.Context)
	}
	e := st.Encoded
	if e.DMA != 1 || e.Fence != 1 || !strings.HasPrefix(e.Packet, "DRAW count=3") || e.Patches != 5 {
		t.Fatalf("encoded %+v, want DRAW count=3 in DMA buffer 1 (fence 1, 5 patches)", e)
	}
	vb := row(t, st, "IA", "vertex buffer 0")
	if vb.Object != "vb" || !strings.HasPrefix(vb.Value, "stride 36, offset 0") || len(vb.Allocations) != 1 {
		t.Errorf("vertex buffer 0: %+v", vb)
	}
	if len(vb.Packets) != 1 || !strings.HasPrefix(vb.Packets[0].Text, "SET_VB slot=0") {
		t.Fatalf("vertex buffer 0 packets %+v, want one SET_VB", vb.Packets)
	}
	a := vb.Packets[0].Addresses[0]
	if a.Allocation != vb.Allocations[0] || a.Patch != vb.Packets[0].Word+2 || a.Write {
		t.Errorf("SET_VB's address %+v: want %s, read, patched at word %d", a, vb.Allocations[0], vb.Packets[0].Word+2)
	}
	rt := row(t, st, "OM", "render target 0")
	if rt.Object != "rtv" || rt.Resource != "sc.buffer0" || len(rt.Packets) != 1 || !rt.Packets[0].Addresses[0].Write {
		t.Errorf("render target 0: %+v", rt)
	}
	if r := row(t, st, "RS", "viewport 0"); r.Value != "0 0 64x64, depth 0..1" || len(r.Packets) != 1 {
		t.Errorf("viewport: %+v", r)
	}
	if r := row(t, st, "VS", "shader"); r.Object != "vs" || len(r.Packets) != 1 || !strings.HasPrefix(r.Packets[0].Text, "SET_PROGRAM stage=0") {
		t.Errorf("vertex shader: %+v", r)
	}
	// The runtime has no input layout (a built-in shader's vertex); the
	// UMD encoded its own fetch.
	if r := row(t, st, "IA", "input layout"); r.Value != "none" || len(r.Packets) != 1 {
		t.Errorf("input layout: %+v", r)
	}
}

// The state is the state at the event: before OMSetBlendState the blend is
// the default, after it the scenario's; the constant buffer's row carries
// the cbuffer layout the pixel shader's reflection gives.
func TestStateOverTime(t *testing.T) {
	_, j := session(t, "core/inspect/testdata/layers.d3ds")
	before, err := j.State(at(t, j, "Draw#3"), "")
	if err != nil {
		t.Fatal(err)
	}
	after, err := j.State(at(t, j, "Draw#4"), "")
	if err != nil {
		t.Fatal(err)
	}
	if b := row(t, before, "OM", "blend state"); b.Object != "" || field(b, "RenderTarget[0].BlendEnable") != "FALSE" {
		t.Errorf("blend before OMSetBlendState: %+v", b)
	}
	b := row(t, after, "OM", "blend state")
	if b.Object != "blend" || field(b, "RenderTarget[0].SrcBlend") != "SRC_ALPHA" || field(b, "RenderTarget[0].DestBlend") != "INV_SRC_ALPHA" {
		t.Errorf("blend after OMSetBlendState: %+v", b)
	}
	if len(b.Packets) == 0 || !strings.HasPrefix(b.Packets[0].Text, "SET_BLEND 1") {
		t.Errorf("blend's packets %+v, want SET_BLEND enabled", b.Packets)
	}
	if v := row(t, before, "IA", "vertex buffer 0"); v.Object != "cut" {
		t.Errorf("vertex buffer at the third draw: %s, want cut", v.Object)
	}
	cb := row(t, after, "PS", "constant buffer 0")
	if cb.Object != "tint" || cb.CBuffer == nil || cb.CBuffer.Name != "Tint" || len(cb.CBuffer.Variables) != 2 || cb.CBuffer.Variables[1].Name != "cut" {
		t.Errorf("constant buffer 0: %+v (layout %+v)", cb, cb.CBuffer)
	}
	if r := row(t, after, "OM", "depth-stencil view"); r.Object != "dsv" || r.Resource != "depth" {
		t.Errorf("depth-stencil view: %+v", r)
	}
}

// A constant buffer shows the values the scenario wrote at the event:
// UpdateSubresource rewrote it between the draws.
func TestResourceCBufferValues(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layers.d3ds")
	for _, c := range []struct{ at, tint, cut string }{
		{"Draw#1", "(1, 1, 1, 1)", "0.5"},
		{"Draw#4", "(0.5, 0.5, 0.5, 1)", "2"},
	} {
		res, err := s.Resource(j, at(t, j, c.at), "tint", ResourceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := res.Buffer
		if b == nil || b.Layout != "cbuffer" || len(b.Rows) != 2 {
			t.Fatalf("%s: tint %+v, want its cbuffer's two variables", c.at, b)
		}
		if b.Rows[0][0] != "tint" || b.Rows[0][3] != c.tint || b.Rows[1][0] != "cut" || b.Rows[1][3] != c.cut {
			t.Errorf("%s: rows %v, want tint %s and cut %s", c.at, b.Rows, c.tint, c.cut)
		}
	}
}

// A pixel's history lists the clears, the drawn fragment, the one that
// failed the depth test with the depths compared, the discarded one, the
// blended one with its inputs, and the present that read it.
func TestPixelHistory(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layers.d3ds")
	h, err := s.PixelHistory(j, at(t, j, "Present"), "bb", 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	var what []string
	for _, e := range h.Entries {
		if e.What == "paging" {
			continue
		}
		w := e.What
		if e.Call != nil {
			w += ":" + e.Call.Name
		}
		what = append(what, w)
	}
	want := "clear:ClearRenderTargetView draw:Draw draw:Draw draw:Draw draw:Draw present:Present"
	if strings.Join(what, " ") != want {
		t.Fatalf("history %v, want %s", what, want)
	}
	var draws []HistoryEntry
	for _, e := range h.Entries {
		if e.What == "draw" {
			draws = append(draws, e)
		}
	}
	if f := draws[0].Fragment; !f.Passed || draws[0].After != "(1, 0, 0, 1) #ff0000ff" || len(f.Tests) != 1 || !strings.Contains(f.Tests[0], "0.25 LESS 1: passed") {
		t.Errorf("near draw: %+v %+v", draws[0], f)
	}
	if f := draws[1].Fragment; f.Passed || !strings.Contains(draws[1].Why, "failed the depth test: depth 0.75 LESS 0.25: failed") {
		t.Errorf("far draw: %s", draws[1].Why)
	}
	if f := draws[2].Fragment; !f.Discarded || !strings.HasPrefix(draws[2].Why, "discarded by the pixel shader") {
		t.Errorf("cut draw: %s", draws[2].Why)
	}
	g := draws[3].Fragment
	if !g.Passed || g.Blend == nil || !g.Blend.Enabled {
		t.Fatalf("glass draw: %+v", g)
	}
	b := g.Blend
	if b.Source != "(0.5, 0.5, 0.5, 0.5)" || b.Dest != "(1, 0, 0, 1)" || b.Result != "(0.75, 0.25, 0.25, 0.5)" ||
		b.Color != "SRC_ALPHA * src ADD INV_SRC_ALPHA * dst" || !strings.HasSuffix(b.Written, "#bf404080") {
		t.Errorf("glass blend: %+v", b)
	}
	for _, d := range draws {
		if d.DMA == 0 || d.Fence == 0 || d.Call.Line == 0 {
			t.Errorf("draw %+v without its DMA buffer, fence or line", d)
		}
	}
	if !strings.HasSuffix(h.Final, "#bf404080") {
		t.Errorf("final %s, want #bf404080", h.Final)
	}
}

// Stepping a known pixel: hlsl-triangle's pixel shader moves the colour to
// o0; the pixel (32, 20) is #db160e, so o0 is 0xdb/255, 0x16/255, 0x0e/255
// rounded from what the rasterizer interpolated.
func TestStepPixel(t *testing.T) {
	s, j := session(t, "assets/scenarios/hlsl-triangle.d3ds")
	st, err := s.StepPixel(j, at(t, j, "Draw"), "", 32, 20, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Steps) != 2 || st.Steps[1].ISA != "ret" {
		t.Fatalf("%d steps, want 2 (mov o0, v1; ret)", len(st.Steps))
	}
	s0 := st.Steps[0]
	if s0.ISA != "mov o0, v1" || s0.DXBC != "mov o0.xyzw, v1.xyzw" || s0.Line != 14 || !s0.Active {
		t.Errorf("step %+v, want mov o0, v1 from mov o0.xyzw, v1.xyzw at HLSL line 14", s0)
	}
	if st.Registers[1] != "v1 (COLOR0)" || st.Registers[2] != "o0 (SV_Target0)" {
		t.Errorf("registers %v", st.Registers)
	}
	want := []string{"0.859375", "0.0859375", "0.0546875", "1"}
	got := map[string]string{}
	for _, w := range s0.Writes {
		if w.Lane == st.Lane {
			got[w.Name] = w.Value
		}
	}
	for c, v := range want {
		n := "o0." + "xyzw"[c:c+1]
		if got[n] != v {
			t.Errorf("%s = %s, want %s", n, got[n], v)
		}
	}
	// The input the rasterizer interpolated is in Start: v1 is o0.
	v1x := st.Start[(1*4+0)*4+st.Lane]
	if v1x != s0.Writes[st.Lane].Bits {
		t.Errorf("v1.x %#x, o0.x %#x", v1x, s0.Writes[st.Lane].Bits)
	}
}

// Stepping the discarded draw's pixel: the discard runs on the pixel's lane
// and it is reported discarded; the HLSL lines follow the source.
func TestStepDiscard(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layers.d3ds")
	st, err := s.StepPixel(j, at(t, j, "Draw#3"), "bb", 5, 7, -1)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Discarded || st.Passed {
		t.Errorf("discarded %v passed %v, want a discarded fragment", st.Discarded, st.Passed)
	}
	found := false
	for _, s := range st.Steps {
		if strings.HasPrefix(s.DXBC, "discard") && s.Active {
			found = true
			if s.Line != 21 {
				t.Errorf("discard at HLSL line %d, want 21", s.Line)
			}
		}
	}
	if !found {
		t.Errorf("no discard step ran on the pixel's lane: %+v", st.Steps)
	}
}

// A texture at an event: with the GPU's work before it done (the default)
// the render target holds the cleared and drawn pixels; read as the GPU had
// it at the moment of the Draw call, nothing was drawn yet (the draw is
// still in the UMD's command buffer).
func TestResourceAtEvent(t *testing.T) {
	s, j := session(t, "assets/scenarios/hello-triangle.d3ds")
	draw := at(t, j, "Draw")
	done, err := s.Resource(j, draw, "bb", ResourceOptions{X: 32, Y: 20, W: 1, H: 1})
	if err != nil {
		t.Fatal(err)
	}
	if tx := done.Texture.Texels[0][0]; tx.Hex != "db160eff" {
		t.Errorf("after the draw, pixel 32,20 is %s, want db160eff", tx.Hex)
	}
	now, err := s.Resource(j, draw, "bb", ResourceOptions{X: 32, Y: 20, W: 1, H: 1, GPUNow: true})
	if err != nil {
		t.Fatal(err)
	}
	if now.Settled || now.Texture.Texels[0][0].Hex == "db160eff" {
		t.Errorf("as the GPU had it at the Draw call: %+v", now.Texture.Texels[0][0])
	}
	img := done.Image(ImageOptions{})
	if len(img) != 4*64*64 || img[4*(20*64+32)] != 0xdb {
		t.Errorf("picture: %d bytes, red at 32,20 %#x", len(img), img[4*(20*64+32)])
	}
	in := done.Instances
	if len(in) != 1 || !in[0].Current || !in[0].Resident || in[0].Segment != "vram" {
		t.Errorf("instances %+v, want one, resident in VRAM", in)
	}
}

// A buffer renamed by Map(WRITE_DISCARD): after the second frame's Map the
// vertex buffer has an earlier instance on its renaming list, waiting for
// the fence of the frame that reads it; its vertices are the new ones.
func TestResourceRenamed(t *testing.T) {
	s, j := session(t, "assets/scenarios/dynamic-triangle.d3ds")
	res, err := s.Resource(j, at(t, j, "Draw#2"), "vb", ResourceOptions{GPUNow: true, Layout: "format", As: "R32G32B32_FLOAT", Stride: 36})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Renames) != 1 || len(res.Instances) != 2 || res.Instances[0].Current == res.Instances[1].Current {
		t.Fatalf("renames %+v instances %+v, want one rename and two instances", res.Renames, res.Instances)
	}
	old := res.Instances[1]
	if old.Fence == 0 || old.Context == "" || old.Segment != "aperture" {
		t.Errorf("earlier instance %+v, want a fence of a context", old)
	}
	if b := res.Buffer; b == nil || b.Stride != 36 || b.Rows[0][1] != "0.5 0.5 0.5" {
		t.Errorf("vertex 0: %+v, want the second frame's 0.5 0.5 0.5", b)
	}
}

// Events by name: a seq, NAME#K and line:N.
func TestResolve(t *testing.T) {
	_, j := session(t, "assets/scenarios/hello-triangle.d3ds")
	draw := at(t, j, "Draw#1")
	if at(t, j, "line:24") != draw || at(t, j, "Draw") != draw {
		t.Errorf("Draw#1 %d, line:24 %d, Draw %d", draw, at(t, j, "line:24"), at(t, j, "Draw"))
	}
	for _, bad := range []string{"Draw#2", "Draw#0", "line:x", "line:2", "Nope", "0"} {
		if _, err := j.Resolve(bad); err == nil {
			t.Errorf("%q resolved", bad)
		}
	}
	// An event inside a call (its DDI, the DMA buffer's kernel events)
	// belongs to it.
	st, err := j.State(draw+1, "")
	if err != nil || st.Call.Seq != draw {
		t.Errorf("event %d: %+v %v, want the Draw's state", draw+1, st, err)
	}
}

// A query run a statement at a time (as the page runs it, between its
// frames) answers what it answers in one go.
func TestQueryInSlices(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layers.d3ds")
	whole, err := s.PixelHistory(j, at(t, j, "Present"), "bb", 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	q := s.HistoryQuery(j, at(t, j, "Present"), "bb", 5, 7)
	slices := 0
	for !q.Step(scenario.SliceLimits{Statements: 1}) {
		slices++
	}
	a, err := q.Answer()
	if err != nil {
		t.Fatal(err)
	}
	if slices < 30 || a.(*History).Text() != whole.Text() {
		t.Errorf("%d slices; sliced:\n%s\nwhole:\n%s", slices, a.(*History).Text(), whole.Text())
	}
}
