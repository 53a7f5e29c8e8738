package hlsl

import (
	"strings"
	"testing"
)

// TestFxcRefuses: what fxc refuses below shader model 6 and this compiler
// used to take, refused on the line fxc names, beside the near sources fxc
// takes.
func TestFxcRefuses(t *testing.T) {
	for _, c := range []struct {
		name, src string
		err       string // "" compiles
	}{
		{"a static struct of numbers and a sampler", "struct s { SamplerState a; float4 b; };\nstatic s v;\nfloat4 main() : sv_target { return 1; }",
			"(2,10): error X3020: 'v': a static variable holds numbers or objects"},
		{"a static struct of samplers only", "struct s { SamplerState a; };\nstatic s v;\nfloat4 main() : sv_target { return 1; }", ""},
		{"a static texture read, never given one", "static Texture2D t;\nfloat4 main() : sv_target {\n return t.Load(int3(0, 0, 0)); }",
			"(3,11): error X3000: syntax error: the Texture2D<float4> is used before it is given a texture"},
		{"... read under if (0)", "static Texture2D t;\nfloat4 main() : sv_target {\n if (0) return t.Load(int3(0, 0, 0)); return 2; }", ""},
		{"... read into nothing", "static Texture2D t;\nfloat4 main() : sv_target {\n float4 x = t.Load(int3(0, 0, 0)); return 2; }", ""},
		{"... read under if (1)", "static Texture2D t;\nfloat4 main() : sv_target {\n if (1) return t.Load(int3(0, 0, 0)); return 2; }",
			"(3,18): error X3000: syntax error: the Texture2D<float4> is used before"},
		{"... given one first", "Texture2D r;\nstatic Texture2D t;\nfloat4 main() : sv_target { t = r; return t.Load(int3(0, 0, 0)); }", ""},
		{"[unroll] of 1,024 trips", "float4 main() : sv_target { int i;\n [unroll] for (i = 0; i < 1024; ++i); return i; }",
			"(2,11): error X3511: unable to unroll loop, loop does not appear to terminate in a timely manner (1024 iterations)"},
		{"[unroll] of 1,023 trips", "float4 main() : sv_target { int i;\n [unroll] for (i = 0; i < 1023; ++i); return i; }", ""},
		{"[unroll] counting down by 2", "float4 main() : sv_target { float s = 0;\n [unroll] for (int i = 3000; i >= 0; i -= 2) s += i; return s; }",
			"(2,11): error X3511"},
		{"[unroll(2000)]", "float4 main() : sv_target { float s = 0;\n [unroll(2000)] for (int i = 0; i < 2000; i++) s += i; return s; }", ""},
		{"a vector component picked by a uniform, written", "float4 v; float i;\nfloat4 main() : sv_target { float4 p = v;\n p[i] = 2.0; return p; }",
			"(3,3): error X3500: array reference cannot be used as an l-value; not natively addressable"},
		{"... read", "float4 v; float i;\nfloat4 main() : sv_target { return v[i]; }", ""},
		{"... written in a loop", "float4 v;\nfloat4 main() : sv_target { float4 p = v;\n for (int i = 0; i < 4; i++) p[i] = 2 * i; return p; }", ""},
		{"an array size that assigns", "float4 main() : sv_target { int x;\n float a[(x = 2)]; return 0; }", "(2,13): error X3000: array dimensions must be literal"},
		{"... by a constant local", "float4 v;\nfloat4 main() : sv_target { float4 p = v; int k = 2;\n p[k] = 2.0; return p; }", ""},
	} {
		_, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_4_0")
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want %q", c.name, err, c.err)
		}
	}
}
