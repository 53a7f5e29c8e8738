package hlsl

import (
	"strings"
	"testing"
)

// TestTypeNamesAsFxc: dword, matrix and vector in any case, and a
// function's typedefs and variables named as built-in types; what the
// global scope, arguments and "struct" still refuse.
func TestTypeNamesAsFxc(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      [4]float32 // o0; err set: refused
		err       string
	}{
		{name: "DWORD, Matrix and vectoR", src: `float4 main() : sv_target { DWORD d = 7; Matrix m = (Matrix)0; vectoR v = {1, 2, 3, 4};
    m[3][3] = 5; return float4(d, m._44, v.y, v.w); }`, want: [4]float32{7, 5, 2, 4}},
		{name: "a typedef of another case comes first", src: `typedef float2 mAtrix;
float4 main() : sv_target { mAtrix m = {1, 2}; return float4(m, 0, 0); }`, want: [4]float32{1, 2, 0, 0}},
		{name: "a variable named Matrix", src: `cbuffer c { float4x4 Matrix; };
float4 main() : sv_target { return mul(float4(1, 0, 0, 0), Matrix); }`},
		{name: "a function's typedef float and dword", src: `typedef float2 pair;
float4 f() { typedef pair float; typedef pair dword; float a = {1, 2}; dword b = {3, 4}; DWORD c = 5; return float4(a + b, c, 0); }
float4 g() { typedef float float; float x = 1; return x; }
float4 main() : sv_target { return f() + g(); }`, want: [4]float32{5, 7, 6, 1}},
		{name: "a local variable named float", src: `float4 main() : sv_target { float4 float = float4(1, 2, 3, 4); return float; }`, want: [4]float32{1, 2, 3, 4}},
		{name: "a function's typedef named matrix", src: "float4 main() : sv_target {\n typedef float2 matrix; return 0; }", err: "(2,17): error X3000: syntax error: unexpected token 'matrix'"},
		{name: "a global typedef named float", src: "typedef float2 float;\nfloat4 main() : sv_target { return 0; }", err: "(1,16): error X3000: syntax error: unexpected token 'float'"},
		{name: "Matrix with arguments", src: "Matrix<float, 2, 2> m;\nfloat4 main() : sv_target { return 0; }", err: "(1,7): error X3000"},
		{name: "struct DWORD", src: "struct DWORD s;\nfloat4 main() : sv_target { return 0; }", err: "(1,14): error X3000"},
	} {
		r, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_4_0")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.want == ([4]float32{}) {
			continue
		}
		out, err := Run(r.Program, &Env{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := floats4(out.Regs[0]); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestArraySizeFromConstants: an array's size read from a static const
// array's element or a static const struct's member, as fxc folds it.
func TestArraySizeFromConstants(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      float32
	}{
		{"an element", `static const float sizes[4] = {1, 2, 3, 4};
static const int k = 2;
static const float arr[sizes[k]] = {10, 20, 30};
float4 main() : sv_target { return arr[2]; }`, 30},
		{"a struct's member, swizzled", `static const struct { float f; float2x3 m[2]; } s = {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1};
uniform float u[s.m[1]._13_22_21.zxy.z];
float4 main() : sv_target { return u[2]; }`, 7},
	} {
		r := compileOK(t, c.src, "main", "ps_4_0")
		out, err := Run(r.Program, &Env{CB: [][][4]uint32{{fl4(5, 0, 0, 0), fl4(6, 0, 0, 0), fl4(7, 0, 0, 0)}}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := floats4(out.Regs[0])[0]; got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
