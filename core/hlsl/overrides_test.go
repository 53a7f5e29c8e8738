package hlsl

import (
	"strings"
	"testing"
)

// TestIntrinsicOverride: a function named as an intrinsic is called where
// its parameters take the arguments; other calls of the name still reach
// the intrinsic.
func TestIntrinsicOverride(t *testing.T) {
	src := `float2 max(float2 a, float3 b) { return a + b.xy; }
float4 main() : sv_target { return float4(max(0.25, 0.5), max(float2(1, 6), float2(3, 4))); }`
	r := compileOK(t, src, "main", "ps_4_0")
	out, err := Run(r.Program, &Env{})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{0.75, 0.75, 3, 6} {
		t.Errorf("got %v, want the user's max then the intrinsic's: [0.75 0.75 3 6]", got)
	}
	_, err = Compile([]byte("float2 max(float2 a, float3 b) { return a; }\nfloat4 main() : sv_target { return max(1, 2, 3).x; }"), "t.hlsl", "main", "ps_4_0")
	if err == nil || !strings.Contains(err.Error(), "(2,36): error X3013: 'max': no matching 3 parameter function") {
		t.Errorf("neither the function nor the intrinsic: %v", err)
	}
}

// TestPatchConstantOverloads: of a patch constant function's overloads,
// the last with a body is the one the hull shader runs.
func TestPatchConstantOverloads(t *testing.T) {
	other := "PC consts() { PC o = (PC)0; return o; }\n"
	src := strings.Replace(quadHullSrc, "[domain(", other+"[domain(", 1)
	if _, err := Compile([]byte(src), "hs.hlsl", "main", "hs_5_0"); err != nil {
		t.Errorf("an overload before the last: %v", err)
	}
	bad := "PC consts(uint x) { PC o = (PC)x; return o; }\n"
	src = strings.Replace(quadHullSrc, "[domain(", bad+"[domain(", 1)
	if _, err := Compile([]byte(src), "hs.hlsl", "main", "hs_5_0"); err == nil || !strings.Contains(err.Error(), "(13,16): error X3000: 'x': a hull shader's inputs are") {
		t.Errorf("the last overload lacks a semantic: %v", err)
	}
}
