package hlsl

import (
	"strings"
	"testing"
)

// TestHalfOverloads: half is a type of its own in overload resolution
// (f(float4) and f(half4) are two functions), a cast and a variable keep
// it, arithmetic and the other intrinsics convert it as a float, and
// refract of two halves is a half, as fxc picks (vkd3d's refract case).
func TestHalfOverloads(t *testing.T) {
	src := `float4 r;
float detect(float4 x) { return 1; }
float detect(half4 x) { return 2; }
float only(float4 x) { return 3; }
float4 main() : sv_target
{
    half4 h = (half4)r;
    return float4(detect((half4)r) + only(h), detect(h), detect(h * 2 + r), detect(refract((half4)r, h, 1)));
}`
	r := compileOK(t, src, "main", "ps_4_0")
	if want := "l(5.000000, 2.000000, 1.000000, 2.000000)"; !strings.Contains(r.Program.String(), want) {
		t.Errorf("got\n%s\nwant %s", r.Program, want)
	}
	if _, err := Compile([]byte("float f(half4 x) { return 1; }\nfloat f(half4 y) { return 2; }\nfloat4 main() : sv_target { return 0; }"), "t.hlsl", "main", "ps_4_0"); err == nil {
		t.Error("two f(half4) bodies: accepted")
	}
}
