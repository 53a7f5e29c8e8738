package hlsl

import (
	"strings"
	"testing"
)

// TestEffectSyntax checks the effects framework's syntax that fxc parses,
// checks and ignores for a shader profile: state blocks, sampler_state,
// techniques. Each source compiles for ps_4_0, or fails on the line given.
func TestEffectSyntax(t *testing.T) {
	const ret = "\nfloat4 main() : sv_target { return 0; }\n"
	tests := []struct {
		desc string
		src  string
		line int // 0: compiles
	}{
		{"sampler state block", "sampler s { Filter = LINEAR; dogs[3] = {1, {2, \"x\"}, any}; };" + ret, 0},
		{"state block list, one per element", "sampler s[2] { { Filter = A; }, { } };" + ret, 0},
		{"state block list of a float3[2]", "float3 a[2] { {}, {}, {}, {}, {}, {} };" + ret, 0},
		{"local state blocks ignored", "float4 main() : sv_target {\n float z = 0;\n float b { foo = z++; foo = float4(bar, 1, 2, 3); };\n return z;\n}", 0},
		{"sampler_state initial value", "sampler s = sampler_state { texture = NULL; };\nsampler t[2] = { sampler_state {}, sampler_state {} };" + ret, 0},
		{"unknown names are scalars", "DepthStencilState d { F = foobar.x; };" + ret, 0},
		{"a type as a value", "sampler s\n{ foo = float; };" + ret, 2},
		{"a list short of the components", "sampler s[2]\n{ { } };" + ret, 2},
		{"a trailing comma in a list", "sampler s[2] { {},\n{}, };" + ret, 2},
		{"an index that is not a literal", "sampler s {\n d[1 + 2] = 1; };" + ret, 2},
		{"an undefined function", "sampler s {\n c = fun(); };" + ret, 2},
		{"an unknown name's second component", "sampler s {\n c = foo.y; };" + ret, 2},
		{"an initialiser after the block", "float f {} = 1;" + ret, 1},
		{"sampler_state for a float4", "float4 f =\n sampler_state { mipfilter = LINEAR; };" + ret, 2},
		{"a technique and its passes", "float4 f(uniform float4 a) : sv_target { return a; }\ntechnique11 T <string s = \"x\";> { pass P { PixelShader = compile ps_4_0 f(1); SetPixelShader(CompileShader(ps_4_0, f(2))); } }" + ret, 0},
		{"an effect group", "fxgroup g { technique10 { pass { a = b; } } technique11 t { pass { c = d; } } }" + ret, 0},
		{"effect objects declared and ignored", "float4 f() : sv_target { return 1; }\nPixelShader p = compile ps_4_0 f();\nBlendState b { x = 1; };\nTexture t = NULL;\nGeometryShader g = ConstructGSWithSO(\"a\", \"b\");" + ret, 0},
		{"technique is a keyword in any case", "float4 main() : sv_target {\n float4 teChnique = 0; return 0; }", 2},
		{"a group's technique without version", "fxgroup g {\n technique { pass { } } }" + ret, 2},
		{"compile with the wrong uniforms", "float4 f(uniform float4 a) : sv_target { return a; }\ntechnique { pass {\n p = compile ps_4_0 f(1, 2); } }" + ret, 3},
		{"a profile effects do not take", "float4 f() : sv_target { return 1; }\nPixelShader p =\n compile ps_6_0 f();" + ret, 3},
		{"an effect object in the shader", "PixelShader p;\nfloat4 main() : sv_target {\n return p; }", 3},
		{"NULL for a float4", "float4 v =\n NULL;" + ret, 2},
		{"an implicit size the initializer does not fill", "float4 main() : sv_target {\n float4 a[] = {1, 2, 3}; return a[0]; }", 2},
		{"an implicit size without an initializer", "float4 main() : sv_target {\n float4 a[]; return 0; }", 2},
		{"an implicit inner size", "float4 main() : sv_target {\n float2 a[2][] = {1, 2, 3, 4}; return 0; }", 2},
		{"an implicit size for a parameter", "float4 f(float4 a[]) { return a[0]; }\nfloat4 main() : sv_target { float4 b[1] = {1, 2, 3, 4}; return f(b); }", 1},
		{"strings, declared and ignored", "string s = \"a\\\"b\" \"c\";\nString t;\nstring u[2] = {\"x\", \"y\"};\nsingle cbuffer c { float4 single; };" + ret, 0},
		{"a string in a struct", "struct S {\n string b; };" + ret, 2},
		{"sampler_state in an expression", "Texture2D t;\nfloat4 main() : sv_target {\n return t.Sample(sampler_state {}, 0); }", 3},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Compile([]byte(tc.src), "fx.hlsl", "main", "ps_4_0")
			switch {
			case tc.line == 0 && err != nil:
				t.Fatalf("does not compile: %v", err)
			case tc.line != 0 && err == nil:
				t.Fatalf("compiled; want an error on line %d", tc.line)
			case tc.line != 0 && !strings.HasPrefix(err.Error(), "fx.hlsl("+itoa(tc.line)+","):
				t.Fatalf("error %q; want it on line %d", err, tc.line)
			}
		})
	}
}

// TestConstantBufferChecks checks what fxc refuses in constant buffer
// layouts and register offsets, and the offsets it folds.
func TestConstantBufferChecks(t *testing.T) {
	tests := []struct {
		desc string
		src  string
		line int // 0: compiles
	}{
		{"overlapping reservations, read", "float4 a : register(c3);\nfloat4 b : register(c3);\nfloat4 main() : sv_target { return b; }", 1},
		{"overlapping reservations, unread", "float4 a : register(c3);\nfloat4 b : register(c3);\nfloat4 main() : sv_target { return 0; }", 0},
		{"packoffset on some variables only", "cbuffer c\n{ float4 a : packoffset(c0); float4 b; }\nfloat4 main() : sv_target { return a + b; }", 1},
		{"an array not at .x", "cbuffer c {\n float a[1] : packoffset(c0.y); }\nfloat4 main() : sv_target { return 0; }", 2},
		{"packoffset outside a cbuffer", "float4 a\n : packoffset(c0);\nfloat4 main() : sv_target { return 0; }", 1},
		{"a texture in a cbuffer is a global", "cbuffer c { float4 f : packoffset(c0); Texture2D t : register(t1); }\nSamplerState s;\nfloat4 main() : sv_target { return t.Sample(s, 0) + f; }", 0},
		{"a texture's packoffset(t0)", "cbuffer c {\n Texture2D t : packoffset(t0); }\nfloat4 main() : sv_target { return 0; }", 2},
		{"manual packing and a texture without a register", "cbuffer c\n{ float4 f : packoffset(c0); Texture2D t; }\nfloat4 main() : sv_target { return f; }", 1},
		{"default values, ignored", "static const float k = 7;\ncbuffer c { float2 a = {1, 2}; float4x2 b = {1, 2, 3, 4, 5, 6, 7, 8}; }\nfloat4 g = {1, 2, k, 4};\nfloat4 main() : sv_target { return float4(a, b[1]) + g; }", 0},
		{"a default value that is not literal", "float a = 7;\nfloat4 b = {1, 2,\n a, 4};\nfloat4 main() : sv_target { return b; }", 3},
		{"a folded register offset", "float a : register(c0[0.6 + 0.6 + true]);\nfloat b : register(c2[-1]);\nfloat4 main() : sv_target { return a + b; }", 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Compile([]byte(tc.src), "cb.hlsl", "main", "ps_4_0")
			switch {
			case tc.line == 0 && err != nil:
				t.Fatalf("does not compile: %v", err)
			case tc.line != 0 && err == nil:
				t.Fatalf("compiled; want an error on line %d", tc.line)
			case tc.line != 0 && !strings.HasPrefix(err.Error(), "cb.hlsl("+itoa(tc.line)+","):
				t.Fatalf("error %q; want it on line %d", err, tc.line)
			}
		})
	}
	// c0[0.6 + 0.6 + true] is c2, c2[-1] is c1: a at byte 32, b at 16.
	r, err := Compile([]byte("float a : register(c0[0.6 + 0.6 + true]);\nfloat b : register(c2[-1]);\nfloat4 main() : sv_target { return a + b; }"), "cb.hlsl", "main", "ps_4_0")
	if err != nil {
		t.Fatal(err)
	}
	offs := map[string]int{}
	for _, cb := range r.CBuffers {
		for _, v := range cb.Vars {
			offs[v.Name] = v.Offset
		}
	}
	if offs["a"] != 32 || offs["b"] != 16 {
		t.Errorf("offsets %v, want a 32 and b 16", offs)
	}
}

// TestEntryInout checks an inout parameter of an entry point: an input and
// an output of one semantic, the output starting as the input.
func TestEntryInout(t *testing.T) {
	r := compileOK(t, "void main(inout float4 t : TEXCOORD, float4 a : A, out float4 p : SV_Position) { t = t * 2 + a; p = a; }", "main", "vs_4_0")
	var in, out int
	for _, e := range r.Inputs {
		if e.Semantic == "TEXCOORD" {
			in++
		}
	}
	for _, e := range r.Outputs {
		if e.Semantic == "TEXCOORD" {
			out++
		}
	}
	if in != 1 || out != 1 {
		t.Fatalf("TEXCOORD: %d inputs and %d outputs, want 1 and 1", in, out)
	}
	// A constant float pixel input is declared constant (the GPU gives it
	// the provoking vertex's value).
	r = compileOK(t, "float4 main(nointerpolation float4 t : T) : SV_Target { return t; }", "main", "ps_4_0")
	if l := r.Program.String(); !strings.Contains(l, "dcl_input_ps constant v0.xyzw") {
		t.Errorf("nointerpolation float input:\n%s", l)
	}
}

// TestEntryUniforms checks that an entry point's uniform parameters live in
// a constant buffer of their own, $Params, laid out as fxc lays it out.
func TestEntryUniforms(t *testing.T) {
	r := compileOK(t, "float4 main(uniform float2x2 m, uniform float4 v : register(c5)) : sv_target { return float4(m[0][1], v.y, 0, 0); }", "main", "ps_4_0")
	var got []string
	for _, cb := range r.CBuffers {
		for _, v := range cb.Vars {
			got = append(got, cb.Name+"."+v.Name+"@"+itoa(v.Offset))
		}
	}
	if want := "$Params.m@0 $Params.v@32"; strings.Join(got, " ") != want {
		t.Errorf("constant buffers %v, want %s", got, want)
	}
}

// TestMatrixAndArraySignatures checks signature elements of matrices (a
// register per column, or per row when row_major) and arrays (an element
// each), with successive semantic indexes, and two inputs of one semantic.
func TestMatrixAndArraySignatures(t *testing.T) {
	for _, src := range []string{
		"float4x1 main() : sv_target { return float4(1.0, 2.0, 3.0, 4.0); }",
		"row_major float1x4 main() : sv_target { return float4(1.0, 2.0, 3.0, 4.0); }",
	} {
		r := compileOK(t, src, "main", "ps_4_0")
		out, err := Run(r.Program, &Env{})
		if err != nil {
			t.Fatalf("%s: run: %v", src, err)
		}
		if got := floats4(out.Regs[0]); got != [4]float32{1, 2, 3, 4} {
			t.Errorf("%s: o0 = %v, want (1, 2, 3, 4)", src, got)
		}
	}
	r := compileOK(t, "struct A { float4x2 m[2] : TEXCOORD1; };\nfloat4 main(float3 tp[2] : T, A a) : sv_target { return float4(tp[1].x, a.m[1][0].x, 0, 0); }", "main", "ps_4_0")
	var got []string
	for _, e := range r.Inputs {
		got = append(got, e.Semantic+itoa(e.Index))
	}
	if want := "T0 T1 TEXCOORD1 TEXCOORD2 TEXCOORD3 TEXCOORD4"; strings.Join(got, " ") != want {
		t.Errorf("inputs %v, want %s", got, want)
	}
	for _, tc := range []struct{ src, want string }{
		{"float4 main(float2 a : T, int2 b : T) : sv_target { return 0; }", "error X3000: 'main': semantic T0 is given to two outputs, or to two inputs of different layouts"},
	} {
		if _, err := Compile([]byte(tc.src), "s.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.src, err, tc.want)
		}
	}
}
