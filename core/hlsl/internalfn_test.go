package hlsl

import (
	"testing"
)

// TestExpandedIntrinsics: every intrinsic written as an HLSL function
// (internalFns) compiles where it is called, for scalars, vectors and the
// matrix sizes it takes (the functions' text went through a lexer without
// a token budget, and every call was an internal compiler error).
func TestExpandedIntrinsics(t *testing.T) {
	calls := []string{
		"asin(v.x)", "acos(v)", "atan2(v.y, v.x)", "atan2(v, v.yzwx)", "sinh(v.x)", "cosh(v.xy).xyxy", "tanh(v)",
		"faceforward(v.xyz, v.yzw, v.zwx).xyzz", "modf(v, ip)", "refract(v.xyz, v.yzw, v.w).xyzz", "lit(v.x, v.y, v.z)",
		"dst(v, v.wzyx)", "determinant(float2x2(v))", "determinant(float3x3(v.xyz, v.yzw, v.zwx))",
		"determinant(float4x4(v, v.yzwx, v.zwxy, v.wxyz))",
		// fxc's determinant of a scalar, of a 1xN or Nx1 matrix (its first
		// value) and of a matrix that is not square (its leading square).
		"determinant(v.x)", "determinant(float2x1(v.xy))", "determinant(float3x4(v, v.yzwx, v.zwxy))",
	}
	for _, c := range calls {
		src := "float4 main(float4 v : TEXCOORD0) : SV_Target {\n    float4 ip;\n    return " + c + ";\n}"
		r, err := Compile([]byte(src), "t.hlsl", "main", "ps_4_0")
		if err != nil {
			t.Errorf("%s: %v", c, err)
			continue
		}
		if len(r.Program.Code) < 2 {
			t.Errorf("%s: %d instructions", c, len(r.Program.Code))
		}
		for _, in := range r.Program.Code {
			if in.Line != 3 && in.Line != 0 {
				t.Errorf("%s: an instruction on line %d, want the call's line 3", c, in.Line)
				break
			}
		}
	}
}
