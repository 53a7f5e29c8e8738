package hlsl

import (
	"math"
	"testing"
)

// TestBoolInputAnyBits: a bool input of a user semantic is true for any
// nonzero bits (0x80000000 and 2 included: vkd3d's bool-semantics case, as
// Direct3D 11 hardware runs it), read once through ine; SV_IsFrontFace,
// all bits set or zero already, is read as it is.
func TestBoolInputAnyBits(t *testing.T) {
	res, err := Compile([]byte(`float4 main(bool3 b : FLAG, int i : INDEX) : SV_Target {
	return float4(b, i);
}`), "b.hlsl", "main", "ps_4_0")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		bits [3]uint32
		want [3]float32
	}{
		{[3]uint32{0x80000000, 0, 2}, [3]float32{1, 0, 1}},
		{[3]uint32{0xffffffff, 1, 0}, [3]float32{1, 1, 0}},
	} {
		in := make([][4]uint32, 2)
		for _, e := range res.Inputs {
			if e.Semantic == "FLAG" {
				copy(in[e.Register][:], c.bits[:])
			} else {
				in[e.Register][0] = 7
			}
		}
		out, err := Run(res.Program, &Env{Inputs: in})
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range c.want {
			if got := math.Float32frombits(out.Regs[0][k]); got != w {
				t.Errorf("bits %#x: component %d = %g, want %g", c.bits, k, got, w)
			}
		}
	}
	ff, err := Compile([]byte(`float4 main(bool f : SV_IsFrontFace) : SV_Target { return f ? 1 : 0; }`), "f.hlsl", "main", "ps_4_0")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range ff.Program.Code {
		if in.Op == OpIne {
			t.Errorf("SV_IsFrontFace read through ine: %v", ff.Program.Code)
		}
	}
}
