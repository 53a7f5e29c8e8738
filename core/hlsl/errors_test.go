package hlsl

import (
	"errors"
	"strings"
	"testing"
)

// TestErrorsInFxcForm checks the messages, numbers and positions of the
// common errors against fxc's own wording.
func TestErrorsInFxcForm(t *testing.T) {
	tests := []struct {
		desc  string
		src   string
		entry string
		want  []string // each a line of the error text, in order
	}{
		{"undeclared identifier", "float4 main() : SV_Target {\n  return foo;\n}", "main",
			[]string{"test.hlsl(2,10): error X3004: undeclared identifier 'foo'"}},
		{"syntax error", "float4 main() : SV_Target {\n  return 1 +;\n}", "main",
			[]string{"test.hlsl(2,13): error X3000: syntax error: unexpected token ';'"}},
		{"entrypoint not found", "float4 PSMain() : SV_Target { return 0; }", "main",
			[]string{"error X3501: 'main': entrypoint not found"}},
		{"no matching intrinsic overload", "float4 main(float4 a : A) : SV_Target { return dot(a); }", "main",
			[]string{"test.hlsl(1,48): error X3013: 'dot': no matching 1 parameter intrinsic function"}},
		{"no matching user function", "float f(float a, float b) { return a + b; }\nfloat4 main() : SV_Target { return f(1); }", "main",
			[]string{"test.hlsl(2,36): error X3013: 'f': no matching 1 parameter function"}},
		{"cannot convert float3 to float4", "float4 main(float3 a : A) : SV_Target {\n  float4 b = a;\n  return b;\n}", "main",
			[]string{"test.hlsl(2,10): error X3017: cannot implicitly convert from 'float3' to 'float4'"}},
		{"invalid subscript", "float4 main(float4 a : A) : SV_Target { return a.q; }", "main",
			[]string{"test.hlsl(1,50): error X3018: invalid subscript 'q'"}},
		{"vector and matrix mismatch", "float4 main(float2 a : A) : SV_Target {\n  float2x2 m = 1;\n  return (a + m)._m00;\n}", "main",
			[]string{"test.hlsl(3,13): error X3020: type mismatch"}},
		{"constructor with too few components", "float4 main() : SV_Target { return float4(1, 2); }", "main",
			[]string{"test.hlsl(1,36): error X3014: incorrect number of arguments to numeric-type constructor"}},
		{"redefinition", "float4 main() : SV_Target {\n  float x = 1;\n  float x = 2;\n  return x;\n}", "main",
			[]string{"test.hlsl(3,9): error X3003: redefinition of 'x'"}},
		{"writing a constant", "cbuffer C { float4 k; };\nfloat4 main() : SV_Target {\n  k = 1;\n  return k;\n}", "main",
			[]string{"test.hlsl(3,5): error X3025: l-value specifies const object"}},
		{"missing return value", "float f(float a) { if (a > 0) { a = 1; } }\nfloat4 main() : SV_Target { return f(2); }", "main",
			[]string{"test.hlsl(1,7): error X3080: 'f': function must return a value"}},
		{"several errors collected", "float4 main() : SV_Target {\n  float a = foo;\n  float b = bar;\n  return a + b;\n}", "main",
			[]string{"test.hlsl(2,13): error X3004: undeclared identifier 'foo'", "test.hlsl(3,13): error X3004: undeclared identifier 'bar'"}},
		{"missing semantic", "float4 main(float4 a) : SV_Target { return a; }", "main",
			[]string{"test.hlsl(1,20): error X3502: 'main': input parameter 'a' missing semantics"}},
		{"struct member without a semantic", "struct V { float4 p : SV_Position; float2 uv; };\nfloat4 main(V v) : SV_Target { return v.p; }", "main",
			[]string{"test.hlsl(2,15): error X3502: 'main': input parameter 'v' missing semantics"}},
		{"return value without a semantic", "float4 main() { return 0; }", "main",
			[]string{"test.hlsl(1,8): error X3502: 'main': function return value missing semantics"}},
		{"undeclared type", "Foo main() : SV_Target { return 0; }", "main",
			[]string{"test.hlsl(1,1): error X3004: undeclared identifier 'Foo'"}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := Compile([]byte(tc.src), "test.hlsl", tc.entry, "ps_4_0")
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v, want Errors", err)
			}
			got := strings.Split(err.Error(), "\n")
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestTruncationWarning(t *testing.T) {
	src := "float4 main(float4 a : A) : SV_Target {\n  float3 b = a;\n  return float4(b, 1);\n}"
	r := compileOK(t, src, "main", "ps_4_0")
	if len(r.Warnings) != 1 || r.Warnings[0].String() != "test.hlsl(2,10): warning X3206: implicit truncation of vector type" {
		t.Errorf("warnings %v", r.Warnings)
	}
}

func TestBadTarget(t *testing.T) {
	for _, c := range []struct{ target, want string }{
		{"vs_6_0", "unsupported target 'vs_6_0'"},
		// Level 9 profiles fxc does not take (level9_test.go has the ones it does).
		{"gs_4_0_level_9_1", "vertex and pixel shaders only"},
		{"ps_4_0_level_9_2", "runs ps_4_0_level_9_1 shaders"},
		{"ps_4_0_level_9_4", "the levels are 9_1"},
		{"ps_5_0_level_9_3", "vertex and pixel shaders only"},
	} {
		_, err := Compile([]byte("float4 main() : SV_Target { return 0; }"), "t.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.target, err, c.want)
		}
	}
}
