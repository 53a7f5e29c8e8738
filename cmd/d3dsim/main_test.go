package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/link"
)

func runCLI(args ...string) (code int, out, errOut string) {
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

func TestRunExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(src), 0o644)
		return p
	}
	good := write("good.d3ds", "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv 1 0 0 1\nsc.Present\nexpect pixel bb 1 1 == #ff0000ff\n")
	failing := write("fail.d3ds", "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv 1 0 0 1\nsc.Present\nexpect pixel bb 1 1 == #00ff00ff\n")
	tests := []struct {
		desc string
		args []string
		code int
		want string
	}{
		{"passing scenario", []string{"run", good}, 0, "frames: 1"},
		{"failing expectation", []string{"run", failing}, 1, "fail.d3ds:7:1: pixel (1, 1) of bb is #ff0000ff, expected #00ff00ff"},
		{"syntax error", []string{"run", write("syn.d3ds", "dev, imm = D3D11CreateDevice\nthread t {\n")}, 2, "syn.d3ds:"},
		{"unknown method", []string{"run", write("m.d3ds", "dev, imm = D3D11CreateDevice\ndev.Frobnicate\n")}, 2, "m.d3ds:2:5: unknown method dev.Frobnicate"},
		{"unknown enum", []string{"run", write("e.d3ds", "dev, imm = D3D11CreateDevice\nimm.IASetPrimitiveTopology TRIANGLES\n")}, 2, "e.d3ds:2:28: unknown TOPOLOGY value \"TRIANGLES\""},
		{"missing file", []string{"run", filepath.Join(dir, "nope.d3ds")}, 2, "no such file"},
		{"malformed link", []string{"run", "--link", "http://x/#s=1.!!!"}, 2, "link"},
		{"unknown command", []string{"fly"}, 2, "unknown command"},
		{"unknown flag", []string{"run", good, "--speed", "3"}, 2, "unknown flag --speed"},
		{"bad seed", []string{"run", good, "--seed", "x"}, 2, "--seed"},
		{"verify clean", []string{"verify", good}, 0, "0 violations"},
		// A violation names the rule, its source page, the scenario line and the event.
		{"verify violation", []string{"verify", write("v.d3ds", "option bug=FT-TABLE\ndev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8\nsc.SetFullscreenState TRUE\n")}, 1,
			"v.d3ds:line 4: FT-TABLE (\"Changes from Direct3D 10\"): the driver rewrote pfnCreateResource"},
		{"verify event", []string{"verify", filepath.Join(dir, "v.d3ds")}, 1, "[event #"},
		// Debug-layer messages (kind message) are in the summary: per "Changes from Direct3D 10",
		// D3DDDIERR_APPLICATIONERROR blames the application.
		{"debug messages", []string{"run", write("d.d3ds", "dev, imm = D3D11CreateDevice Flags=DEBUG\nt = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32_FLOAT BindFlags=RENDER_TARGET\nexpect hr == E_INVALIDARG\n")}, 0,
			"message: 2: D3D11 ERROR: CreateResource(t): the driver found the application's call invalid (D3DDDIERR_APPLICATIONERROR): the application is at fault"},
		// The runtime's own format check names the call, the format and the flag.
		{"format check", []string{"run", write("f.d3ds", "dev, imm = D3D11CreateDevice Flags=DEBUG\nt = dev.CreateTexture2D Width=4 Height=4 Format=D32_FLOAT BindFlags=DEPTH_STENCIL|SHADER_RESOURCE\nexpect hr == E_INVALIDARG\n")}, 0,
			"message: 2: D3D11 ERROR: CreateTexture2D: the format (0x28, D32_FLOAT) cannot be bound as a ShaderResource: it does not support D3D11_BIND_SHADER_RESOURCE"},
		{"step budget", []string{"run", write("loop.d3ds", "option maxsteps=5000\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n imm.Flush\n}\n")}, 1, "loop.d3ds:4:2: step budget of 5000 API calls reached"},
		{"trace ring", []string{"run", write("ring.d3ds", "option maxevents=1000\ndev, imm = D3D11CreateDevice\nrepeat 2000 {\n imm.Flush\n}\n")}, 0, "dropped: "},
		{"source too large", []string{"run", write("big.d3ds", strings.Repeat("# padding\n", 110000))}, 2, "big.d3ds:1:1: scenario too large"},
		{"link not base64", []string{"run", "--link", "http://x/#s=1.%%%"}, 2, "link"},
		{"link without fragment", []string{"run", "--link", "http://x/"}, 2, "link"},
		{"link truncated", []string{"run", "--link", "http://x/#s=1.eJzLSM3JyVcozy_KSQEAGgQEXQ"}, 2, "link"},
		{"link zip bomb", []string{"run", "--link", link.URL("http://x/", strings.Repeat("a", 2<<20))}, 2, "link payload too large"},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("%s: exit %d, output %q%q; want exit %d containing %q", tt.desc, code, out, errOut, tt.code, tt.want)
		}
	}
}

func TestLinkRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.d3ds")
	src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv #336699ff\nsc.Present\n"
	os.WriteFile(p, []byte(src), 0o644)
	code, out, _ := runCLI("link", p, "--base", "https://example.org/d3dsim/")
	if code != 0 || !strings.HasPrefix(out, "https://example.org/d3dsim/#s=1.") {
		t.Fatalf("link: exit %d %q", code, out)
	}
	back, err := link.FromURL(strings.TrimSpace(out))
	if err != nil || string(back) != src {
		t.Fatalf("decoded %q, %v", back, err)
	}
	_, direct, _ := runCLI("run", p)
	code, viaLink, _ := runCLI("run", "--link", strings.TrimSpace(out))
	if code != 0 || direct != viaLink {
		t.Fatalf("run --link gives %q, run FILE gives %q", viaLink, direct)
	}
}

func TestRunWritesOutputs(t *testing.T) {
	out := t.TempDir()
	code, _, errOut := runCLI("run", "../../assets/scenarios/spinning-cube.d3ds", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range []string{"frame-000.png", "frame-001.png", "frame-002.png", "trace.jsonl", "trace.perfetto.json"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// TestRunOutRepeatedFrames: --out writes a PNG for every Present, those that
// repeat the picture before (sharing its pixels in the run) included, each
// the picture presented.
func TestRunOutRepeatedFrames(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.d3ds")
	os.WriteFile(p, []byte("dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=4 Height=2\nbb = sc.GetBuffer 0\n"+
		"rtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv #336699ff\nsc.Present\nsc.Present\n"+
		"imm.ClearRenderTargetView rtv #336698ff\nsc.Present\nimm.ClearRenderTargetView rtv #336699ff\nsc.Present\nsc.Present\n"), 0o644)
	out := t.TempDir()
	if code, _, errOut := runCLI("run", p, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for i, want := range []color.RGBA{{0x33, 0x66, 0x99, 0xff}, {0x33, 0x66, 0x99, 0xff}, {0x33, 0x66, 0x98, 0xff}, {0x33, 0x66, 0x99, 0xff}, {0x33, 0x66, 0x99, 0xff}} {
		b, err := os.ReadFile(filepath.Join(out, fmt.Sprintf("frame-%03d.png", i)))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("frame %d: %v", i, err)
		}
		if img.Bounds().Dx() != 4 || img.Bounds().Dy() != 2 {
			t.Fatalf("frame %d is %v", i, img.Bounds())
		}
		for y := 0; y < 2; y++ {
			for x := 0; x < 4; x++ {
				if got := color.RGBAModel.Convert(img.At(x, y)); got != want {
					t.Fatalf("frame %d pixel (%d, %d) = %v, want %v", i, x, y, got, want)
				}
			}
		}
	}
	if _, err := os.Stat(filepath.Join(out, "frame-005.png")); err == nil {
		t.Error("a sixth frame")
	}
}

func TestNoInputPanics(t *testing.T) {
	inputs := []string{"", "\x00\x01", "{", "}", "repeat -1 {\n}\n", "dev, imm = D3D11CreateDevice\nimm.Draw 4294967295 4294967295\n",
		"dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=0 Height=0\n", "expect pixel x 1 1 == #00000000\n",
		"dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=16384 Height=16384 BufferCount=16\n"}
	for _, in := range inputs {
		p := filepath.Join(t.TempDir(), "x.d3ds")
		os.WriteFile(p, []byte(in), 0o644)
		code, _, _ := runCLI("run", p)
		if code < 0 || code > 2 {
			t.Errorf("%q: exit %d", in, code)
		}
	}
}

// TestBenchScenesPass runs every benchmark scene small: each must run clean
// (no failure, no violation), so `d3dsim bench` measures a correct run.
func TestBenchScenesPass(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the bench scenes, two minutes under -race at a load of 30 (make race); make unit runs it")
	}
	scenes := map[string]string{
		"draws":            drawScene(3000),
		"fill":             fillScene(5),
		"cmdlist cold":     cmdlistScene(1000, false),
		"cmdlist recycled": cmdlistScene(1000, true),
		"discard":          discardScene(2000),
	}
	for name, src := range scenes {
		if _, _, err := runScene(src); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestShadertest: the verb runs a directory of shader_test files, prints
// the cases that did not pass and the counts, exits 1 for a failing case,
// writes the cases as scenarios, and gives JSON.
func TestShadertest(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	code := run([]string{"shadertest", "../../core/shadertest/testdata", "--out", dir}, nil, &out, &errb)
	if code != exitFailed {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitFailed, errb.String())
	}
	for _, w := range []string{"wrong        draw.shader_test:25  probe of line 29", "accepted     compile.shader_test:9", "all                              37     33      1"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "draw-25.d3ds"))
	if err != nil || !strings.Contains(string(b), "expect probe rtv0_tex 3 4 4 5") {
		t.Errorf("draw-25.d3ds: %v\n%s", err, b)
	}
	out.Reset()
	if code := run([]string{"shadertest", "../../core/shadertest/testdata/draw.shader_test", "--json"}, nil, &out, &errb); code != exitFailed {
		t.Fatalf("--json exit %d", code)
	}
	var j struct {
		Total struct{ Pass, Wrong int } `json:"total"`
	}
	if err := json.Unmarshal(out.Bytes(), &j); err != nil || j.Total.Pass != 1 || j.Total.Wrong != 1 {
		t.Errorf("json %+v %v:\n%s", j, err, out.String())
	}
	if code := run([]string{"shadertest", "no-such-file"}, nil, &out, &errb); code != exitBadIn {
		t.Errorf("missing file: exit %d", code)
	}
}

// `d3dsim VERB --help` (or -h) prints that command's part of the usage,
// with run's and verify's flags, and exits 0: a subcommand's --help was an
// "unknown flag" before.
func TestVerbHelp(t *testing.T) {
	for _, c := range []struct {
		args          []string
		want, notWant []string
	}{
		{[]string{"bench", "--help"}, []string{"d3dsim bench [--json]", "--scene: only these scenes", "exit status:"}, []string{"d3dsim run FILE", "--max-steps N"}},
		{[]string{"inspect", "x.d3ds", "-h"}, []string{"d3dsim inspect FILE|- --at EVENT", "--mip N --slice N", "d3dsim inspect FILE|- --memory"}, []string{"d3dsim diff"}},
		{[]string{"run", "--help"}, []string{"d3dsim run --link URL", "flags of run and verify:", "--max-steps N"}, []string{"d3dsim bench"}},
		{[]string{"verify", "-help"}, []string{"d3dsim verify FILE", "--max-objects N"}, []string{"d3dsim gallery"}},
		{[]string{"diff", "--help"}, []string{"d3dsim diff A B", "d3dsim diff FILE --modes"}, []string{"flags of run and verify:"}},
	} {
		code, out, errOut := runCLI(c.args...)
		if code != exitOK || errOut != "" {
			t.Errorf("%v: exit %d, stderr %q", c.args, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: the help lacks %q:\n%s", c.args, w, out)
			}
		}
		for _, w := range c.notWant {
			if strings.Contains(out, w) {
				t.Errorf("%v: the help has %q, another command's:\n%s", c.args, w, out)
			}
		}
	}
}
