package hlsl

import (
	"strings"
	"testing"
)

// TestFxcRejects: sources fxc refuses for shader models 4 and 5 are
// refused, with the line of the construct and fxc's kind of message (not
// "not supported by this compiler").
func TestFxcRejects(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float4 main() : SV_Target\n{\n    int x = 1;\n    int y = 0;\n    return x % y;\n}", "(5,1): error X4010: integer divide by zero"},
		{"float4 main() : SV_Target\n{\n    uint x = 1, y = 0;\n    return x / y;\n}", "(4,1): error X4010: integer divide by zero"},
		{"[one]\nfloat4 f;\nfloat4 main() : sv_target { return 0; }", "(2,1): error X3000: syntax error: attribute 'one' on a variable"},
		{"struct apple { float4 a : packoffset(c0); };\ncbuffer b { struct apple a; }\nfloat4 main() : sv_target { return 0; }", "(1,23): error X3000: syntax error: packoffset is for the variables of a constant buffer"},
		{"float4 u;\nfloat4 main() : sv_target\n{\n    [branch] [flatten]\n    if (u.x > 0) return 1;\n    return 0;\n}", "(5,5): error X3000: syntax error: [branch] contradicts [flatten]"},
		{"texture<float> t;\nfloat4 main() : sv_target { return 0; }", "(1,1): error X3000: syntax error: the shader model 1-3 texture type takes no element type"},
		{"typedef Texture2D mytex_t;\nmytex_t<float> t;\nfloat4 main() : sv_target { return 0; }", "(2,1): error X3000: syntax error: 'mytex_t' is a typedef"},
		{"float4 main() : sv_target\n{\n    matrix m = matrix<float, 4>(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);\n    return m[1];\n}", "(3,16): error X3000: syntax error: matrix<float> needs 2 size arguments"},
		{"float4 main() : sv_target\n{\n    vector<float> v = 1;\n    return v;\n}", "(3,5): error X3000: syntax error: vector<float> needs 1 size arguments"},
	} {
		_, err := Compile([]byte(c.src), "r.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "not supported by this compiler") {
			t.Errorf("%s\n: %v, want %q", c.src, err, c.want)
		}
	}
	// What stays accepted: a division by a non-constant, a constant
	// float division, attributes on statements and functions, vector
	// and matrix with all their sizes.
	compileOK(t, "uint d; float4 main() : sv_target { uint x = 7; return x / d + 1.0 / 0.0; }", "main", "ps_4_0")
	compileOK(t, "[loop] float4 f() { return 1; } float4 main() : sv_target { vector<float, 4> v = f(); matrix<float, 2, 2> m = 0; [branch] if (v.x > 0) return m[0].xyxy; return v; }", "main", "ps_4_0")
}

// TestSystemValueInputs: SV_Position as a vertex shader input is an input
// like any other (no system value in the signature), and SV_IsFrontFace a
// pixel shader input declared dcl_input_ps_sgv ... is_front_face.
func TestSystemValueInputs(t *testing.T) {
	r := compileOK(t, "float4 main(float4 p : SV_Position) : SV_Position { return p * 2; }", "main", "vs_4_0")
	if len(r.Inputs) != 1 || r.Inputs[0].SysVal != SysNone || r.Outputs[0].SysVal != SysPosition {
		t.Errorf("inputs %+v outputs %+v", r.Inputs, r.Outputs)
	}
	r = compileOK(t, "float4 main(float4 p : SV_Position, bool face : SV_IsFrontFace) : SV_Target { return face ? 1 : p; }", "main", "ps_4_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "dcl_input_ps_sgv constant v1.x, is_front_face") {
		t.Errorf("listing:\n%s", text)
	}
	if r.Inputs[1].SysVal != SysFrontFace || r.Inputs[1].SysVal.String() != "FFACE" {
		t.Errorf("inputs %+v", r.Inputs)
	}
	for _, src := range []string{
		"float4 main(float face : SV_IsFrontFace) : SV_Target { return face; }",
		"float4 main(bool face : SV_IsFrontFace) : SV_Position { return face; }",
	} {
		target := "ps_4_0"
		if strings.Contains(src, ": SV_Position {") {
			target = "vs_4_0"
		}
		if _, err := Compile([]byte(src), "f.hlsl", "main", target); err == nil || !strings.Contains(err.Error(), "SV_IsFrontFace is a pixel shader input") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
