package dxbc_test

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/builtins"
	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
	"d3dsim/core/scenario"
)

// shader is one shader of the repository and where it comes from.
type shader struct {
	name  string
	code  []byte
	ours  bool // made by d3dsim's HLSL compiler (else by fxc)
	exact bool // its text keeps every bit (no float literal cut to six decimals)
}

// repoShaders is every shader in the repository: the built-ins, the HLSL
// of core/hlsl's and core/dxbc's testdata compiled by d3dsim's compiler,
// the fxc headers of core/dxbc's testdata (fxc's own bytes), and the
// shaders of every example and tutorial scenario.
func repoShaders(t *testing.T) []shader {
	t.Helper()
	var out []shader
	for _, stage := range []string{"vs", "ps"} {
		for _, n := range builtins.Names(stage) {
			s, err := builtins.Lookup(n)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, shader{name: "builtin:" + n, code: s.Bytecode, ours: true})
		}
	}
	compile := func(dir, file, entry, target string) {
		src, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		r, err := hlsl.Compile(src, file, entry, target)
		if err != nil {
			t.Fatalf("%s %s %s: %v", file, entry, target, err)
		}
		out = append(out, shader{name: file + "/" + entry + "/" + target, code: r.Bytecode, ours: true})
	}
	for _, c := range []struct{ file, entry, target string }{
		{"imgui_vs.hlsl", "main", "vs_4_0"}, {"imgui_ps.hlsl", "main", "ps_4_0"}, {"nuklear.hlsl", "vs", "vs_5_0"},
		{"nuklear.hlsl", "ps", "ps_5_0"}, {"tutorial06.hlsl", "VS", "vs_4_0"}, {"tutorial06.hlsl", "PS", "ps_4_0"},
		{"tutorial06.hlsl", "PSSolid", "ps_5_0"}, {"phong.hlsl", "VSMain", "vs_5_0"}, {"phong.hlsl", "PSMain", "ps_5_0"},
	} {
		compile("../hlsl/testdata", c.file, c.entry, c.target)
	}
	for _, c := range []struct{ file, entry, target string }{
		{"nuklear_d3d11.hlsl", "vs", "vs_4_0"}, {"nuklear_d3d11.hlsl", "ps", "ps_4_0"},
		{"sdl_D3D11_VertexShader.hlsl", "main", "vs_4_0"}, // (the pixel shaders #include a file: fxc's bytes only)
	} {
		compile("testdata", c.file, c.entry, c.target)
	}
	headers, _ := filepath.Glob("testdata/*.h")
	for _, h := range headers {
		text, err := os.ReadFile(h)
		if err != nil {
			t.Fatal(err)
		}
		b, err := dxbc.ParseFxcHeader(string(text))
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		out = append(out, shader{name: filepath.Base(h), code: b})
	}
	var srcs [][2]string
	for _, n := range assets.Scenarios() {
		s, _ := assets.Scenario(n)
		srcs = append(srcs, [2]string{n, string(s)})
	}
	for _, n := range assets.Tutorials() {
		s, _, _ := assets.Tutorial(n)
		srcs = append(srcs, [2]string{n, string(s)})
	}
	for _, s := range srcs {
		sc, err := scenario.Load(s[0], []byte(s[1]))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range callsOf(sc.Stmts) {
			for _, a := range c.Args {
				if len(a.Value.Bytes) > 0 && a.Value.Kind != scenario.VBuiltin {
					out = append(out, shader{name: s[0] + ":" + a.Value.Text, code: a.Value.Bytes, ours: a.Value.Kind == scenario.VHLSL})
				}
			}
		}
	}
	for i := range out {
		out[i].exact = out[i].ours
	}
	return out
}

func callsOf(stmts []scenario.Stmt) []*scenario.Call {
	var out []*scenario.Call
	for _, s := range stmts {
		switch s := s.(type) {
		case *scenario.Call:
			out = append(out, s)
		case *scenario.Thread:
			out = append(out, callsOf(s.Body)...)
		case *scenario.Repeat:
			out = append(out, callsOf(s.Body)...)
		case *scenario.Until:
			out = append(out, callsOf(s.Body)...)
		}
	}
	return out
}

// withoutLevel9 is a listing without its Direct3D 9 sections, from the
// first mapping table or "Level9 shader bytecode:" to the profile line.
func withoutLevel9(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	skip := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !skip && (strings.HasPrefix(t, "// Constant buffer to DX9 ") || strings.HasPrefix(t, "// Sampler/Resource to DX9 ") ||
			strings.HasPrefix(t, "// Runtime generated constant mappings:") || t == "// Level9 shader bytecode:") {
			skip = true
			out = out[:len(out)-1] // the "//" before the title
		}
		if skip && len(t) == 6 && t[2] == '_' && t[4] == '_' && t[3] >= '4' {
			skip = false
		}
		if !skip {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestAssembleRoundTrip assembles the disassembly of every shader in the
// repository: the result disassembles to the same text, and what d3dsim's
// compiler made comes back whole, byte for byte (reflection, signatures,
// program and checksum). fxc's bytes keep their program; they lose what
// the text does not hold (the rest of the statistics chunk, shader model 2
// chunks, signature bits outside the mask).
func TestAssembleRoundTrip(t *testing.T) {
	shaders := repoShaders(t)
	if len(shaders) < 30 {
		t.Fatalf("only %d shaders", len(shaders))
	}
	exact, sameCode, floatDigits := 0, 0, 0
	for _, s := range shaders {
		text, err := dxbc.D3DDisassemble(s.code)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		code, err := dxbc.Assemble(text)
		if err != nil {
			t.Errorf("%s: %v\n%s", s.name, err, text)
			continue
		}
		again, err := dxbc.D3DDisassemble(code)
		if err != nil {
			t.Errorf("%s: the assembled bytecode does not disassemble: %v", s.name, err)
			continue
		}
		if orig, _ := dxbc.Parse(s.code); orig != nil && orig.Chunk("Aon9") != nil {
			// The Direct3D 9 shader is not assembled: compare the rest.
			text = withoutLevel9(text)
		}
		if again != text {
			t.Errorf("%s: the assembled bytecode disassembles differently:\n%s", s.name, diffLines(text, again))
			continue
		}
		orig, _ := dxbc.Parse(s.code)
		asm, err := dxbc.Parse(code)
		if err != nil {
			t.Errorf("%s: the assembled container: %v", s.name, err)
			continue
		}
		op, _ := orig.Program()
		ap, _ := asm.Program()
		ow, _ := op.Words()
		aw, _ := ap.Words()
		if equalWords(ow, aw) {
			sameCode++
		}
		if s.ours {
			if !bytes.Equal(code, s.code) && sameButPrintedFloats(orig, asm, ow, aw) {
				// A float literal the listing prints in six decimals (fxc's %f:
				// 2.0/3 is "0.666667") comes back as the nearest float to the
				// text, not the compiler's bits: the rest is byte for byte.
				floatDigits++
				continue
			}
			if !bytes.Equal(code, s.code) {
				t.Errorf("%s: %d bytes assembled, not the compiler's %d", s.name, len(code), len(s.code))
				for _, ch := range orig.Chunks {
					if b := asm.Chunk(ch.FourCC); b == nil || !bytes.Equal(b.Data, ch.Data) {
						t.Errorf("  chunk %s differs", ch.FourCC)
					}
				}
			} else {
				exact++
			}
		}
	}
	t.Logf("%d shaders assembled to the same text; %d to the same program; %d of d3dsim's compiler's byte for byte, %d but for float literals the listing prints in six decimals", len(shaders), sameCode, exact, floatDigits)
}

// sameButPrintedFloats: two containers whose chunks are equal but for the
// program, whose words differ only where both print as the same six-decimal
// float (the listing's form of a literal), in a program of the same length.
func sameButPrintedFloats(orig, asm *dxbc.Container, ow, aw []uint32) bool {
	if len(ow) != len(aw) || len(orig.Chunks) != len(asm.Chunks) {
		return false
	}
	for _, ch := range orig.Chunks {
		b := asm.Chunk(ch.FourCC)
		if b == nil {
			return false
		}
		if ch.FourCC != "SHEX" && ch.FourCC != "SHDR" && !bytes.Equal(b.Data, ch.Data) {
			return false
		}
	}
	differ := false
	for i := range ow {
		if ow[i] == aw[i] {
			continue
		}
		differ = true
		f := func(w uint32) string { return strconv.FormatFloat(float64(math.Float32frombits(w)), 'f', 6, 64) }
		if f(ow[i]) != f(aw[i]) {
			return false
		}
	}
	return differ
}

// TestAssembleErrors: text that is not a shader gets an error naming the
// line.
func TestAssembleErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"", "no profile line"},
		{"hello\nvs_4_0\n", "line 1"},
		{"vs_4_0\nfrobnicate r0.x\n", "line 2: unknown instruction"},
		{"vs_4_0\nmov r0.xyzw\n", "line 2: mov takes 2 operands"},
		{"vs_4_0\nmov r0.xyzw, q7\n", "not a register"},
		{"vs_4_0\nmov r0.xyzw, l(1.0, 2.0)\n", "one or four values"},
		{"vs_4_0\ndcl_resource_texture9d (float,float,float,float) t0\n", "resource dimension"},
		{"vs_4_0\nmov r0.xyzw, cb0[r0.x + zz].xyzw\n", "index offset"},
		{"//\n// Input signature:\n//\n// POSITION garbage\n//\nvs_4_0\n", "line 4: \"POSITION garbage\" is not a signature row"},
		{"vs_4_0\ncustomdata class 4, 3 words\n", "customdata"},
	} {
		_, err := dxbc.Assemble(c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
}

func equalWords(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func diffLines(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return "  " + x + "\n  " + y
		}
	}
	return ""
}

// FuzzAssemble: any text assembles or gets an AsmError (or the container
// builder's error), never a panic.
func FuzzAssemble(f *testing.F) {
	for _, s := range []string{
		"vs_4_0\ndcl_input v0.xyzw\ndcl_output_siv o0.xyzw, position\nmov o0.xyzw, v0.xyzw\nret \n",
		"//\n// Generated by d3dsim HLSL compiler\n//\n//\n// Buffer Definitions: \n//\n// cbuffer C\n// {\n//\n//   float4x4 m;                          // Offset:    0 Size:    64\n//\n// }\n//\n",
		"ps_5_0\nsample_indexable(texture2d)(float,float,float,float) r0.xyzw, v1.xyxx, t0.xyzw, s0\nmov o0.xyzw, -|cb0[r0.x + 1].xyzw|\n",
		"ps_4_0\ndcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},\n { 0, 1, 2, 3} }\nif_nz r0.x\nelse\nendif\n",
		"vs_4_0\ndcl_resource_texture2dms(4) (float,float,float,float) t0\nsample_l_aoffimmi(1,-1,0) r0.xyzw, l(1,2,3,4), t0.xyzw, s0, l(0.5)\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		b, err := dxbc.Assemble(text)
		if err == nil {
			if _, err := dxbc.Parse(b); err != nil {
				t.Fatalf("assembled bytes do not parse: %v", err)
			}
		}
	})
}

// TestAssembleHullDeclarations: the hull and domain shaders' declarations
// (control-point counts, the tessellator's domain, partitioning and
// output primitive, the max tess factor, fork-phase instances) assemble
// and disassemble back to the same text.
func TestAssembleHullDeclarations(t *testing.T) {
	for _, name := range []string{"quad_hs", "quad_ds"} {
		text, err := os.ReadFile(filepath.Join("..", "umd", "translate", "testdata", "tess", name+".asm"))
		if err != nil {
			t.Fatal(err)
		}
		code, err := dxbc.Assemble(string(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		again, err := dxbc.D3DDisassemble(code)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, want := range []string{"dcl_input_control_point_count 4", "dcl_tessellator_domain domain_quad"} {
			if !strings.Contains(again, want+"\n") {
				t.Errorf("%s: the disassembly lacks %q:\n%s", name, want, again)
			}
		}
		if name == "quad_hs" {
			for _, want := range []string{"dcl_output_control_point_count 4", "dcl_tessellator_partitioning partitioning_integer",
				"dcl_tessellator_output_primitive output_triangle_cw", "dcl_hs_max_tessfactor l(64.000000)", "dcl_hs_fork_phase_instance_count 4"} {
				if !strings.Contains(again, want+"\n") {
					t.Errorf("%s: the disassembly lacks %q", name, want)
				}
			}
		}
		if code2, err := dxbc.Assemble(again); err != nil || !bytes.Equal(code2, code) {
			t.Errorf("%s: the disassembly does not assemble to the same bytes: %v", name, err)
		}
	}
	for _, bad := range []string{"dcl_input_control_point_count 33", "dcl_tessellator_domain domain_cube", "dcl_hs_max_tessfactor 64"} {
		if _, err := dxbc.Assemble("hs_5_0\nhs_decls\n" + bad + "\n"); err == nil || !strings.Contains(err.Error(), strings.Fields(bad)[0]) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
