package hlsl

import (
	"strings"
	"testing"
)

// TestOneComponentVectors: float1 and int1 compute as scalars but are told
// apart where fxc tells them apart (onevec.go).
func TestOneComponentVectors(t *testing.T) {
	const m = "float4x4 y = float4x4(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);\n"
	for _, c := range []struct {
		src  string
		want [4]float32
	}{
		{"float4 main() : sv_target {\n float1 x = float1(10.0);\n" + m + " return mul(x, y);\n}", [4]float32{10, 20, 30, 40}},
		{"float4 main() : sv_target {\n float1 x = float1(10.0);\n" + m + " return mul(y, x);\n}", [4]float32{10, 50, 90, 130}},
		{"float4 main() : sv_target {\n float x = 10.0;\n" + m + " return mul(x, y)[1];\n}", [4]float32{50, 60, 70, 80}},
		{"static float1x1 cond = {1};\nstatic float1 a = {2}, b = {3};\nfloat4 main() : sv_target { return (cond ? a : b)[0]; }", [4]float32{2, 2, 2, 2}},
		{"static float1x1 m = {5};\nfloat4 main() : sv_target { float1 f = {6}; return float4(m[0][0], m[0], f[0], f + 1); }", [4]float32{5, 5, 6, 7}},
	} {
		r := compileOK(t, c.src, "main", "ps_4_0")
		out, err := Run(r.Program, &Env{})
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		if got := floats4(out.Regs[0]); got != c.want {
			t.Errorf("%s: %v, want %v", c.src, got, c.want)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"float1 v;\nfloat4 main() : sv_target { return determinant(v); }", "'determinant': no matching 1 parameter"},
		{"float4 main() : sv_target { float1 b = 0; return dst(b, b); }", "'dst': no matching 2 parameter"},
		{"float4 main() : sv_target { float2x2 a = {1, 2, 3, 4}; float1 b = {2}; ldexp(a, b); return 0; }", "'ldexp': no matching 2 parameter"},
		{"float4 main() : sv_target { float2x2 a = {1, 2, 3, 4}; float1 b = {3}; step(a, b); return 0; }", "'step': no matching 2 parameter"},
		{"static float1x1 cond = {1};\nstatic float1 a = {2}, b = {3};\nfloat4 main() : sv_target { return (cond ? a : b)[0][0]; }", "a scalar of type 'float' is not indexed"},
		{"float4 main() : sv_target { float4 vec = {0, 1, 2, 3}; int1 idx = {3}; return vec[idx]; }", "an index of type 'int1'"},
	} {
		if _, err := Compile([]byte(c.src), "o.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
