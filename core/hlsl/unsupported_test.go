package hlsl

import (
	"strings"
	"testing"
)

// TestUnsupportedTypes: a type HLSL has and this compiler lacks (double's
// matrices) is named as such on its line, a 64-bit integer as fxc names it, not reported as a syntax error or an undeclared
// identifier; names that only begin like one are ordinary identifiers.
func TestUnsupportedTypes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"double4x4 m;\nfloat4 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: not supported by this compiler: 'double4x4' (matrices of 64-bit floats)"},
		{"uint64_t u;\nfloat4 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: unrecognized identifier 'uint64_t' (64-bit integers are shader model 6's"},
		{"uint64_t2 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: unrecognized identifier 'uint64_t2' (64-bit integers"},
	} {
		_, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_5_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
	for _, src := range []string{
		"float4 main(float4 p : SV_Position) : SV_Target {\n    float doubled = 2 * p.x;\n    return doubled;\n}",
		"float double5;\nfloat4 main() : SV_Target { return double5; }",
		"float4 main() : SV_Target {\n    float4 double = float4(1, 2, 3, 4);\n    return double;\n}",
	} {
		if _, err := Compile([]byte(src), "t.hlsl", "main", "ps_5_0"); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	for name, want := range map[string]string{"double": "", "double3x2": "matrices of 64-bit floats", "int64_t2": "64-bit integers",
		"double5": "", "doubles": "", "double4x": "", "float": ""} {
		if got := unsupportedType(name); got != want {
			t.Errorf("unsupportedType(%q) = %q, want %q", name, got, want)
		}
	}
}
