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
