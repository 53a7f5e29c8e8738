package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// shaderInfoOf is the shader called obj in r's record.
func shaderInfoOf(t *testing.T, r *Run, obj string) ShaderInfo {
	t.Helper()
	list, _ := r.Shaders()
	for _, s := range list {
		if s.Obj == obj {
			return s
		}
	}
	t.Fatalf("no shader %s among %d", obj, len(list))
	return ShaderInfo{}
}

// drawEvent checks that d names an API draw event of r's trace on ctx.
func drawEvent(t *testing.T, r *Run, d ShaderDraw, name, ctx string, line int) {
	t.Helper()
	if d.Name != name || d.Ctx != ctx || d.Line != line {
		t.Errorf("draw %+v, want %s on %s at line %d", d, name, ctx, line)
	}
	e, ok := r.Recorder().At(d.Seq)
	if !ok || e.Kind != trace.Call || e.From != trace.App || e.Name != name || e.Line != line {
		t.Errorf("draw's event #%d is %+v, want the API call %s of line %d", d.Seq, e, name, line)
	}
}

func TestShadersFromHLSL(t *testing.T) {
	r := runAsset(t, "hlsl-textured", Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatal(s.Failures)
	}
	list, dropped := r.Shaders()
	if len(list) != 2 || dropped != 0 {
		t.Fatalf("%d shaders (%d dropped), want vs and ps", len(list), dropped)
	}
	for _, c := range []struct {
		obj, stage, entry, target, hlsl, listing, isa string
		line                                          int
	}{
		{"vs", "vs", "vsmain", "vs_4_0", "PSIn vsmain(VSIn input)", "vs_4_0", "mov", 47},
		{"ps", "ps", "psmain", "ps_4_0", "texture0.Sample(sampler0, input.uv)", "sample", "sample", 48},
	} {
		s := shaderInfoOf(t, r, c.obj)
		if s.Stage != c.stage || s.Source != ShaderHLSL || s.Block != "imgui" || s.Entry != c.entry || s.Target != c.target || s.Line != c.line {
			t.Errorf("%s: %+v", c.obj, s)
		}
		if !strings.Contains(s.HLSL, c.hlsl) || !strings.Contains(s.HLSL, "Texture2D texture0") || s.HLSLLine != 6 {
			t.Errorf("%s: HLSL (line %d) %q", c.obj, s.HLSLLine, s.HLSL)
		}
		l, err := s.Listing()
		if err != nil || !strings.Contains(l, c.target) || !strings.Contains(l, c.listing) || !strings.Contains(l, "dcl_") {
			t.Errorf("%s: listing %q (%v)", c.obj, l, err)
		}
		code, err := s.ISA()
		if err != nil || !strings.HasPrefix(code, c.stage+" ") || !strings.Contains(code, c.isa) {
			t.Errorf("%s: ISA %q (%v)", c.obj, code, err)
		}
		if tr := s.Translation(); !strings.HasPrefix(tr, "// "+c.target+" -> "+c.stage) || !strings.Contains(tr, c.isa) {
			t.Errorf("%s: translation %q", c.obj, tr)
		}
		if s.Seq == 0 {
			t.Errorf("%s: no creating event", c.obj)
		} else if e, _ := r.Recorder().At(s.Seq); e.Obj != c.obj || e.From != trace.App || !strings.HasPrefix(e.Name, "Create") {
			t.Errorf("%s: creating event %+v", c.obj, e)
		}
		if s.DrawCount != 1 || len(s.Draws) != 1 {
			t.Fatalf("%s: draws %d %+v, want the one Draw", c.obj, s.DrawCount, s.Draws)
		}
		drawEvent(t, r, s.Draws[0], "Draw", "IC", 59)
	}
}

func TestShadersBuiltin(t *testing.T) {
	r := runAsset(t, "command-lists", Overrides{})
	for _, c := range []struct{ obj, builtin, hlsl, dxbc, isa string }{
		// Built-ins are HLSL (assets/shaders) compiled at load and
		// translated by the UMD like any bytecode.
		{"vs", "vs_passthrough", "SV_Position", "vs_4_0", "mov o"},
		{"ps", "ps_vertexcolor", "SV_Target", "ps_4_0", "mov o0"},
	} {
		s := shaderInfoOf(t, r, c.obj)
		if s.Source != ShaderBuiltin || s.Builtin != c.builtin || !strings.Contains(s.HLSL, c.hlsl) || len(s.Bytecode) == 0 {
			t.Errorf("%s: %+v", c.obj, s)
		}
		if l, err := s.Listing(); !strings.Contains(l, c.dxbc) || err != nil || s.Translation() == "" {
			t.Errorf("%s: listing %q (%v), translation %q", c.obj, l, err, s.Translation())
		}
		if code, err := s.ISA(); !strings.Contains(code, c.isa) || err != nil {
			t.Errorf("%s: ISA %q (%v)", c.obj, code, err)
		}
		// The one draw is recorded on the deferred context: that call,
		// not the ExecuteCommandList that runs it.
		if s.DrawCount != 1 || len(s.Draws) != 1 {
			t.Fatalf("%s: draws %d %+v", c.obj, s.DrawCount, s.Draws)
		}
		drawEvent(t, r, s.Draws[0], "Draw", "DC1", 30)
	}
}

// A draw counts for the shaders bound when it ran, not those bound later
// or on another context; a dropped draw ran nothing.
func TestShaderDrawsFollowBindings(t *testing.T) {
	r := runText(t, `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
a = dev.CreatePixelShader builtin:ps_vertexcolor
b = dev.CreatePixelShader builtin:ps_solid
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader a
imm.Draw 3 0
imm.Draw 3 0
imm.PSSetShader b
imm.DrawInstanced 3 2 0 0
imm.ClearState
imm.Draw 3 0
`, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatal(s.Failures)
	}
	vs, a, b := shaderInfoOf(t, r, "vs"), shaderInfoOf(t, r, "a"), shaderInfoOf(t, r, "b")
	if vs.DrawCount != 3 || a.DrawCount != 2 || b.DrawCount != 1 {
		t.Fatalf("draws: vs %d, a %d, b %d; want 3, 2, 1 (the draw after ClearState ran none)", vs.DrawCount, a.DrawCount, b.DrawCount)
	}
	drawEvent(t, r, a.Draws[0], "Draw", "IC", 15)
	drawEvent(t, r, a.Draws[1], "Draw", "IC", 16)
	drawEvent(t, r, b.Draws[0], "DrawInstanced", "IC", 18)
	drawEvent(t, r, vs.Draws[2], "DrawInstanced", "IC", 18)
	if n, d := r.ShaderCount(); n != 3 || d != 3 {
		t.Errorf("ShaderCount %d, %d; want 3 shaders, 3 draws", n, d)
	}
}

// Bytecode: listed as such, its listing and the UMD's program, no HLSL; a
// draw recorded by the runtime for a driver without command lists counts
// on its deferred context; a draw the runtime drops (signatures that do not
// link) ran nothing.
func TestShadersFromBytecode(t *testing.T) {
	src := triangleScene("option driver.commandlists=false\n", compileHex(t, "vsmain", "vs_5_0", nil), "hlsl:shaders entry=psmain target=ps_4_0", true)
	r := runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatal(s.Failures)
	}
	vs := shaderInfoOf(t, r, "vs")
	if vs.Source != ShaderBytecode || vs.HLSL != "" || vs.Block != "" || len(vs.Bytecode) == 0 {
		t.Errorf("vs: %+v", vs)
	}
	if l, err := vs.Listing(); err != nil || !strings.Contains(l, "vs_5_0") || !strings.Contains(l, "dcl_output_siv o0.xyzw, position") {
		t.Errorf("vs: listing %q (%v)", l, err)
	}
	if code, err := vs.ISA(); err != nil || !strings.HasPrefix(code, "vs inputs=") {
		t.Errorf("vs: ISA %q (%v)", code, err)
	}
	if vs.DrawCount != 1 || len(vs.Draws) != 1 {
		t.Fatalf("vs: draws %+v", vs.Draws)
	}
	drawEvent(t, r, vs.Draws[0], "Draw", "DC1", vs.Draws[0].Line)

	src = triangleScene("", "hlsl:shaders entry=vsmain", "hlsl:shaders entry=psuv", false)
	src = strings.Replace(src, "imm.Draw 3 0\n", "imm.Draw 3 0\nexpect hr == DROPPED\n", 1)
	r = runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatal(s.Failures)
	}
	if vs, ps := shaderInfoOf(t, r, "vs"), shaderInfoOf(t, r, "ps"); vs.DrawCount != 0 || ps.DrawCount != 0 {
		t.Errorf("a dropped draw counts: vs %d, ps %d", vs.DrawCount, ps.DrawCount)
	}
}
