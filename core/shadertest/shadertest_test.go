package shadertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// TestOwnFiles runs this project's shader_test files and checks every
// case's outcome and what its reason names.
func TestOwnFiles(t *testing.T) {
	want := map[string]struct{ outcome, reason string }{
		"carry.shader_test:15":    {Pass, ""},
		"doubles.shader_test:22":  {Pass, ""},
		"doubles.shader_test:38":  {Pass, ""},
		"doubles.shader_test:55":  {Pass, ""},
		"doubles.shader_test:69":  {Pass, ""},
		"doubles.shader_test:86":  {Pass, ""},
		"doubles.shader_test:107": {Pass, ""},
		"carry.shader_test:29":    {Pass, ""},
		"carry.shader_test:47":    {Pass, ""},
		"carry.shader_test:61":    {Pass, ""},
		"carry.shader_test:82":    {Pass, ""},
		"carry.shader_test:86":    {Pass, ""},
		"carry.shader_test:95":    {Pass, ""},
		"carry.shader_test:99":    {Pass, ""},
		"compile.shader_test:3":   {Pass, "(6,12): error X3004: undeclared identifier 'undeclared'"},
		"compile.shader_test:9":   {Accepted, "compiled (ps_4_0)"},
		"compile.shader_test:16":  {Pass, ""},
		"compile.shader_test:22":  {Pass, "undeclared identifier 'missing'"},
		"compile.shader_test:28":  {Pass, ""},
		"compile.shader_test:34":  {Pass, "(39,12): error X3000: 'tex2D': shader model 1-3 sampling"}, // no backcompat option
		"compile.shader_test:45":  {Pass, ""},                                                         // options: backcompat: /Gec
		"draw.shader_test:19":     {Pass, ""},
		"draw.shader_test:25":     {Wrong, "probe of line 29: probe of rtv0_tex: texel (3, 4) is f32[0 0 1 1], expected f32[1 0 0 1]"},
		"gather.shader_test:36":   {Pass, ""},
		"sampling.shader_test:30": {Pass, ""},
		"sampling.shader_test:56": {Pass, ""},
		"sampling.shader_test:74": {Pass, ""},
		"layout.shader_test:37":   {Pass, ""},
		"packing.shader_test:39":  {Pass, ""},
		"skips.shader_test:10":    {NotApplicable, "Direct3D 12"},
		"skips.shader_test:20":    {NotApplicable, "Direct3D 9"},
		"skips.shader_test:31":    {Pass, ""}, // float64: the device reports D3D11_FEATURE_DOUBLES,
		"skips.shader_test:48":    {Skip, "unordered access view slot 9 (the compute stage and the output merger have 8)"},
		"targets.shader_test:25":  {Pass, ""},
		"targets.shader_test:55":  {Pass, ""},
		"targets.shader_test:79":  {Skip, "a multisampled [srv 0] with data"},
		"mscount.shader_test:21":  {Pass, ""}, // Texture2DMS<float4, 2> reads a 4-sample view's positions
		"mscount.shader_test:35":  {Pass, ""}, // copy rtv 0 srv 0: CopyResource
		"mscount.shader_test:52":  {Pass, ""}, // reads what :35 copied: that case runs first (Case.Replay); zeros would fail
	}
	files, _ := filepath.Glob("testdata/*.shader_test")
	rep := &Report{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rep.RunFile(filepath.Base(f), src, Options{Scenarios: true})
	}
	if len(rep.Errors) > 0 {
		t.Fatalf("unreadable: %v", rep.Errors)
	}
	seen := map[string]bool{}
	for _, r := range rep.Results {
		seen[r.Name] = true
		w, ok := want[r.Name]
		if !ok {
			t.Errorf("unexpected case %s: %s %s", r.Name, r.Outcome, r.Reason)
			continue
		}
		if r.Outcome != w.outcome || !strings.Contains(r.Reason, w.reason) {
			t.Errorf("%s: %s %q, want %s with %q", r.Name, r.Outcome, r.Reason, w.outcome, w.reason)
		}
		// A case is a scenario anyone can run again; one whose shader
		// must not compile fails to load, at the shader.
		if r.Name == "mscount.shader_test:52" && !strings.Contains(r.Scenario, "# [srv 0] holds what mscount.shader_test:35 copied into it: that case runs first") {
			t.Errorf("%s: no replay of :35 in\n%s", r.Name, r.Scenario)
		}
		if r.Name == "compile.shader_test:45" && !strings.Contains(r.Scenario, "hlsl:ps target=ps_4_0 flags=ENABLE_BACKWARDS_COMPATIBILITY") {
			t.Errorf("%s: no flags= in\n%s", r.Name, r.Scenario)
		}
		if r.Scenario != "" {
			_, err := scenario.Load(r.Name, []byte(r.Scenario))
			fails := r.Case.Kind == KindCompile && r.Case.Shaders[0].ExpectFail && r.Outcome == Pass
			if fails != (err != nil) {
				t.Errorf("%s: scenario loads with %v\n%s", r.Name, err, r.Scenario)
			}
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("case %s missing", name)
		}
	}
	all, _ := rep.Tally()
	if all.Pass != 33 || all.Wrong != 1 || all.NotApplicable != 2 || all.Applicable() != 37 {
		t.Errorf("tally %+v", all)
	}
}

// TestScenarioOfWrongCase: the scenario of a case that read a wrong value
// fails the same way when run on its own (what a shared link replays).
func TestScenarioOfWrongCase(t *testing.T) {
	src, err := os.ReadFile("testdata/draw.shader_test")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("draw.shader_test", src)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	text, _ := cases[1].Scenario(nil)
	s, err := scenario.Load("case.d3ds", []byte(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	sum := scenario.NewRun(s, scenario.Overrides{}).Finish()
	if len(sum.Failures) != 1 || !strings.Contains(sum.Failures[0], "expected f32[1 0 0 1]") {
		t.Errorf("failures %v\n%s", sum.Failures, text)
	}
	for _, w := range []string{"hlsl ps {", "expect probe rtv0_tex 3 4 4 5 == f32[1 0 0 1]", "imm.UpdateSubresource cb"} {
		if !strings.Contains(text, w) {
			t.Errorf("scenario lacks %q:\n%s", w, text)
		}
	}
}

// TestParseErrors: malformed files are refused with the line and the rule.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"[pixel shader wrong]\n", "x:1: malformed section header"},
		{"[nonsense]\n", "x:1: unknown section [nonsense]"},
		{"float4 x;\n", "x:1: malformed line"},
		{"[srv x]\n", "x:1: malformed slot"},
		{"[require]\nshader model >= 9.9\n", "x:2: unknown shader model"},
		{"[require]\nfrobnicate\n", "x:2: unknown require directive"},
		{"[test]\nexplode\n", "x:2: unknown test directive"},
		{"[test]\nprobe (0, 0) rgba (1, 2)\n", "x:2: malformed probe arguments"},
		{"[test]\nprobe (4, 4, 2, 2) rgba (1, 2, 3, 4)\n", "x:2: malformed probe arguments"},
		{"[test]\nuniform 0 float4 1 2\n", "x:2: malformed float4 constant"},
		{"[test]\nuniform 0 quaternion 1\n", "x:2: unknown uniform type"},
		{"[test]\ndraw line loop 3\n", "x:2: unknown primitive topology"},
		{"[srv 0]\nformat r99-float\n", "x:2: unknown format"},
		{"[srv 0]\nsize (3d, 1, 1, 1)\n", "x:2: malformed resource size"},
		{"[srv 0]\nformat r32-float\n1 2 x\n", "x:3: malformed resource data"},
		{"[sampler 0]\nfilter cubic\n", "x:2: unknown sampler filter"},
		{"[input layout]\n0 r32-float\n", "x:2: malformed input layout directive"},
		{"[uav 0]\nsize (2d, 1, 1)\n", "x:1: format must be specified for UAV resources"},
		{"[test]\nif(sm<7) draw quad\n", "x:2: unknown condition"},
	} {
		f, err := Parse("x", []byte(c.src))
		if err == nil {
			_, err = f.Cases()
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
}

// TestQualifiers: fail/todo/notimpl qualifiers and test-line conditions
// at the case's shader model.
func TestQualifiers(t *testing.T) {
	src := `[pixel shader fail(sm<6) todo]
float4 main() : sv_target { return 1; }
[pixel shader fail(sm>=6)]
float4 main() : sv_target { return 2; }
[pixel shader notimpl(sm<4)]
float4 main() : sv_target { return 3; }
[require]
shader model >= 5.0
[pixel shader fail(sm>=4 & sm<6)]
float4 main() : sv_target { return 4; }
[pixel shader fail(sm<4 | d3d12)]
float4 main() : sv_target { return 5; }
`
	f, err := Parse("q", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	want := []bool{true, false, false, true, false}
	if len(cases) != len(want) {
		t.Fatalf("%d cases", len(cases))
	}
	for i, c := range cases {
		if c.Shaders[0].ExpectFail != want[i] {
			t.Errorf("case %d (line %d): ExpectFail %v", i, c.Line, c.Shaders[0].ExpectFail)
		}
	}
	if cases[3].Model != sm50 || cases[3].Shaders[0].Profile(cases[3].Model) != "ps_5_0" {
		t.Errorf("model %v", cases[3].Model)
	}
}

// TestUniformLayout: uniforms grow in fours, unset values 0x7f7f7f7f, and
// a test's uniforms reach the later tests.
func TestUniformLayout(t *testing.T) {
	src := "[pixel shader]\nfloat4 main() : sv_target { return 1; }\n[test]\nuniform 5 int -3\ndraw quad\n[test]\nuniform 0 uint 0x10\ndraw quad\n"
	f, _ := Parse("u", []byte(src))
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	u := cases[1].Uniforms
	if len(u) != 8 || u[5] != 0xfffffffd || u[0] != 0x7f7f7f7f {
		t.Errorf("uniforms at the second test %#x", u)
	}
	last := cases[1].Cmds[0].Uniforms
	if last[0] != 0x10 || last[5] != 0xfffffffd {
		t.Errorf("after the directive %#x", last)
	}
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.shader_test")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte("[test]\nprobe rtv 1 (0, 0, 1, 1) rgbaui (1, 2, 3, 4)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz", src)
		if err != nil {
			return
		}
		cases, err := file.Cases()
		if err != nil {
			return
		}
		for _, c := range cases {
			text, _ := c.Scenario(nil)
			if len(text) > 64<<20 {
				t.Fatalf("scenario of %d bytes", len(text))
			}
			_ = c.unsupported()
		}
	})
}

// TestCarriedTargets: a case starts from what the file's earlier cases
// left in its render target (a clear to one colour, or the texels of a
// small target), and its scenario, run on its own as a shared link would
// be, passes with them.
func TestCarriedTargets(t *testing.T) {
	src, err := os.ReadFile("testdata/carry.shader_test")
	if err != nil {
		t.Fatal(err)
	}
	rep := &Report{}
	rep.RunFile("carry.shader_test", src, Options{Scenarios: true})
	want := map[string]string{
		"carry.shader_test:15": "imm.ClearRenderTargetView rtv0 0 0 0 0",
		"carry.shader_test:29": "imm.ClearRenderTargetView rtv0 0.25 0.5 0.75 1",
		"carry.shader_test:47": "imm.ClearRenderTargetView rtv0 0 0 0 0",
		"carry.shader_test:61": "BindFlags=RENDER_TARGET Data=u32[",
		"carry.shader_test:82": "imm.ClearRenderTargetView rtv0 0 0 0 0",
		"carry.shader_test:86": "imm.ClearRenderTargetView rtv0 0.5 0.25 1 1",
		"carry.shader_test:95": "imm.ClearRenderTargetView rtv0 0 0 0 0",
		"carry.shader_test:99": "imm.ClearRenderTargetView rtv0 0 0 0 0",
	}
	if len(rep.Results) != len(want) {
		t.Fatalf("%d cases, want %d", len(rep.Results), len(want))
	}
	for _, r := range rep.Results {
		if r.Outcome != Pass {
			t.Errorf("%s: %s %s", r.Name, r.Outcome, r.Reason)
		}
		if !strings.Contains(r.Scenario, want[r.Name]) {
			t.Errorf("%s: the scenario lacks %q:\n%s", r.Name, want[r.Name], r.Scenario)
		}
		s, err := scenario.Load(r.Name, []byte(r.Scenario))
		if err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		if sum := scenario.NewRun(s, scenario.Overrides{}).Finish(); len(sum.Failures) > 0 {
			t.Errorf("%s on its own: %v", r.Name, sum.Failures)
		}
	}
}
