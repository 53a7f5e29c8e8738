package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

var updateFxc = flag.Bool("update-fxc", false, "rewrite testdata/fxc_*.golden from d3dsim fxc's output")

const hlslTestdata = "../../core/hlsl/testdata"

// TestFxcVerb: d3dsim fxc's options, outputs and exit codes, as fxc's.
func TestFxcVerb(t *testing.T) {
	dir := t.TempDir()
	imguiPS := filepath.Join(hlslTestdata, "imgui_ps.hlsl")
	phong := filepath.Join(hlslTestdata, "phong.hlsl")
	bad := filepath.Join(dir, "bad.hlsl")
	os.WriteFile(bad, []byte("float4 main() : SV_Target {\n  return foo;\n}\n"), 0o644)
	warn := filepath.Join(dir, "warn.hlsl")
	os.WriteFile(warn, []byte("float4 main(float4 a : A) : SV_Target {\n  float2 x = a;\n  return x.xyxy;\n}\n"), 0o644)
	blocker := filepath.Join(dir, "blocker")
	os.WriteFile(blocker, []byte("a file where a directory should be"), 0o644)
	tests := []struct {
		desc        string
		stdin       string
		args        []string
		code        int
		out, errOut string // substrings of standard output and error
		files       []string
		notOnStdout string
	}{
		{"listing to stdout", "", []string{"/T", "ps_4_0", imguiPS}, 0, "sample r0.xyzw, v2.xyxx, t0.xyzw, s0", "", nil, ""},
		{"dash options, attached", "", []string{"-Tps_5_0", "-EPSMain", phong}, 0, "sample_indexable(texture2d)(float,float,float,float)", "", nil, ""},
		{"shader model 5 flags", "", []string{"/T", "vs_5_0", "/E", "VSMain", phong}, 0, "vs_5_0\ndcl_globalFlags refactoringAllowed\n", "", nil, ""},
		{"standard input", "float4 main() : SV_Target { return 1; }", []string{"/T", "ps_4_0", "-"}, 0, "mov o0.xyzw", "", nil, ""},
		{"object file", "", []string{"/T", "ps_4_0", "/Fo", filepath.Join(dir, "o.cso"), imguiPS}, 0, "compilation object save succeeded; see " + filepath.Join(dir, "o.cso"), "", []string{"o.cso"}, "dcl_sampler"},
		{"all outputs", "", []string{"/T", "ps_4_0", "/Fo", filepath.Join(dir, "a.cso"), "/Fh", filepath.Join(dir, "a.h"), "/Fc", filepath.Join(dir, "a.asm"), "/Vn", "g_imgui", "/nologo", imguiPS}, 0, "compilation header save succeeded", "", []string{"a.cso", "a.h", "a.asm"}, "dcl_sampler"},
		{"warning", "", []string{"/T", "ps_4_0", warn}, 0, "ps_4_0", "warn.hlsl(2,10): warning X3206: implicit truncation of vector type", nil, ""},
		{"compile error", "", []string{"/T", "ps_4_0", bad}, 2, "", "bad.hlsl(2,10): error X3004: undeclared identifier 'foo'\n\ncompilation failed; no code produced", nil, ""},
		{"entry not found", "", []string{"/T", "ps_4_0", "/E", "nope", imguiPS}, 2, "", "error X3501: 'nope': entrypoint not found", nil, ""},
		{"level 9 profile", "", []string{"/T", "ps_4_0_level_9_1", imguiPS}, 0, "// Level9 shader bytecode:\n//\n    ps_2_0\n", "", nil, ""},
		{"level 9 rule", "int a;\nfloat4 main() : SV_Target { return a >> 1; }", []string{"/T", "ps_4_0_level_9_3", "-"}, 2, "", "stdin(2,38): error X3535: Bitwise operations not supported on legacy targets.", nil, ""},
		{"tex2D without /Gec", "sampler s;\nfloat4 main(float2 uv : UV) : SV_Target { return tex2D(s, uv); }", []string{"/T", "ps_4_0", "-"}, 2, "", "stdin(2,50): error X3000: 'tex2D': shader model 1-3 sampling: use a Texture object's Sample with a SamplerState, or enable backwards compatibility mode (/Gec", nil, ""},
		{"tex2D with /Gec", "sampler s;\nfloat4 main(float2 uv : UV) : SV_Target { return tex2D(s, uv); }", []string{"/T", "ps_4_0", "/Gec", "-"}, 0, "sample o0.xyzw, v0.xyxx, t0.xyzw, s0", "", nil, ""},
		{"unsupported profile", "", []string{"/T", "ps_6_0", imguiPS}, 2, "", "error X3000: unsupported target 'ps_6_0'", nil, ""},
		{"no profile", "", []string{imguiPS}, 2, "", "give the target profile: /T", nil, ""},
		{"unknown option", "", []string{"/T", "ps_4_0", "-Zi", imguiPS}, 2, "", "unknown option -Zi (known: /T, /E", nil, ""},
		{"option twice", "", []string{"/T", "ps_4_0", "/T", "ps_5_0", imguiPS}, 2, "", "option /T given twice", nil, ""},
		{"option without value", "", []string{imguiPS, "/T"}, 2, "", "option /T needs a value", nil, ""},
		{"bad variable name", "", []string{"/T", "ps_4_0", "/Vn", "1x", "/Fh", filepath.Join(dir, "x.h"), imguiPS}, 2, "", `option /Vn "1x": must be a C identifier`, nil, ""},
		{"two files", "", []string{"/T", "ps_4_0", imguiPS, phong}, 2, "", "give one source FILE", nil, ""},
		{"missing file", "", []string{"/T", "ps_4_0", filepath.Join(dir, "nope.hlsl")}, 2, "", "no such file", nil, ""},
		{"unwritable output", "", []string{"/T", "ps_4_0", "/Fo", filepath.Join(blocker, "o.cso"), imguiPS}, 3, "", "writing /Fo", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			code, out, errOut := runCLIIn(tc.stdin, append([]string{"fxc"}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.out) || !strings.Contains(errOut, tc.errOut) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q", code, out, errOut, tc.code, tc.out, tc.errOut)
			}
			if tc.notOnStdout != "" && strings.Contains(out, tc.notOnStdout) {
				t.Errorf("stdout has the listing although an output file was given: %q", out)
			}
			for _, f := range tc.files {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s not written: %v", f, err)
				}
			}
		})
	}

	// The three files say the same thing: the object is valid bytecode,
	// the header's array holds its bytes under /Vn's name with the listing
	// in its comment, and /Fc is that listing.
	blob, _ := os.ReadFile(filepath.Join(dir, "a.cso"))
	if _, err := dxbc.Validate(blob, dxbc.PixelShader); err != nil {
		t.Fatalf("/Fo: %v", err)
	}
	header, _ := os.ReadFile(filepath.Join(dir, "a.h"))
	listing, _ := os.ReadFile(filepath.Join(dir, "a.asm"))
	back, err := dxbc.ParseFxcHeader(string(header))
	if err != nil || !bytes.Equal(back, blob) {
		t.Errorf("/Fh does not round-trip through ParseFxcHeader (err %v)", err)
	}
	if !strings.HasPrefix(string(header), "#if 0\n"+string(listing)+"#endif\n\nconst BYTE g_imgui[] =\n{\n     68,  88,  66,  67,") {
		t.Errorf("/Fh does not start as fxc's does:\n%.400s", header)
	}
	if !strings.HasSuffix(string(header), "\n};\n") {
		t.Errorf("/Fh does not end with };")
	}
	// d3dsim dxbc reads the header back and checks it as CreatePixelShader.
	if code, out, errOut := runCLI("dxbc", filepath.Join(dir, "a.h"), "--stage", "ps"); code != 0 || !strings.Contains(out, "// valid ps shader") || !strings.HasPrefix(out, string(listing)) {
		t.Errorf("d3dsim dxbc on the /Fh header: exit %d, %q %q", code, out, errOut)
	}
	// The default variable is g_ENTRY.
	h := filepath.Join(dir, "d.h")
	if code, _, errOut := runCLI("fxc", "/T", "vs_5_0", "/E", "VSMain", "/Fh", h, phong); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if text, _ := os.ReadFile(h); !strings.Contains(string(text), "const BYTE g_VSMain[] =") {
		t.Errorf("default /Vn: %.200s", text)
	}
}

// TestFxcHeaderLayout: fxc's layout, six bytes a row, the last without a
// comma, for sizes around a row's end.
func TestFxcHeaderLayout(t *testing.T) {
	for _, n := range []int{1, 5, 6, 7, 12, 13} {
		blob := make([]byte, n)
		for i := range blob {
			blob[i] = byte(200 + i)
		}
		text := fxcHeader("g_x", "// listing\n", blob)
		back, err := dxbc.ParseFxcHeader(text)
		if err != nil || !bytes.Equal(back, blob) {
			t.Errorf("%d bytes: read back %v, %v\n%s", n, back, err, text)
		}
		rows := strings.Count(text, "\n    ")
		if want := (n + 5) / 6; rows != want {
			t.Errorf("%d bytes: %d rows, want %d\n%s", n, rows, want, text)
		}
		if strings.Contains(text, ",\n};") || strings.Contains(text, ", \n") {
			t.Errorf("%d bytes: a trailing comma or space:\n%s", n, text)
		}
	}
}

// TestFxcGoldenListing compares the listing of the ImGui vertex shader
// with testdata/fxc_imgui_vs.golden (regenerate with -update-fxc).
func TestFxcGoldenListing(t *testing.T) {
	code, out, errOut := runCLI("fxc", "/T", "vs_4_0", "/E", "main", filepath.Join(hlslTestdata, "imgui_vs.hlsl"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden := filepath.Join("testdata", "fxc_imgui_vs.golden")
	if *updateFxc {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-fxc to write it)", err)
	}
	if out != string(want) {
		t.Errorf("listing differs from %s (regenerate with -update-fxc if intended):\n%s", golden, out)
	}
}
