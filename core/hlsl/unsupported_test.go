package hlsl

import (
	"strings"
	"testing"
)

// TestUnsupportedTypes: a type HLSL has and this compiler lacks is named
// as such on its line, not reported as a syntax error or an undeclared
// identifier; names that only begin like one are ordinary identifiers.
func TestUnsupportedTypes(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float4 main() : SV_Target {\n    double d = 1;\n    return d;\n}", "t.hlsl(2,5): error X3000: not supported by this compiler: 'double' (64-bit floats)"},
		{"float4 main() : SV_Target {\n    double2 d = 1;\n    return d.xyxy;\n}", "t.hlsl(2,5): error X3000: not supported by this compiler: 'double2' (64-bit floats)"},
		{"double4x4 m;\nfloat4 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: not supported by this compiler: 'double4x4' (64-bit floats)"},
		{"float4 main(float4 p : SV_Position) : SV_Target {\n    return (double)p.x;\n}", "t.hlsl(2,13): error X3000: not supported by this compiler: 'double' (64-bit floats)"},
		{"uint64_t u;\nfloat4 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: not supported by this compiler: 'uint64_t' (64-bit integers)"},
		{"float4 main(float4 p : SV_Position) : SV_Target {\n    return double2(p.xy).xyxy;\n}", "t.hlsl(2,12): error X3000: not supported by this compiler: 'double2' (64-bit floats)"},
		{"uint64_t2 main() : SV_Target { return 0; }", "t.hlsl(1,1): error X3000: not supported by this compiler: 'uint64_t2' (64-bit integers)"},
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
	for name, want := range map[string]string{"double": "64-bit floats", "double3x2": "64-bit floats", "int64_t2": "64-bit integers",
		"double5": "", "doubles": "", "double4x": "", "float": ""} {
		if got := unsupportedType(name); got != want {
			t.Errorf("unsupportedType(%q) = %q, want %q", name, got, want)
		}
	}
}
