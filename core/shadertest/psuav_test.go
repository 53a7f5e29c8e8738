package shadertest

import (
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

// pixelUAVFile is a shader_test file of the suite's form whose pixel
// shader writes unordered access views: a counter (raw), a RWTexture2D<uint>
// of the pixels' ids and the list of ids in the order the pixels ran
// (structured), probed with `probe uav`. d3dsim's compiler does not make
// RWByteAddressBuffer and RWTexture2D yet: the test hands the runner the
// bytecode of core/umd/translate/testdata/pixel/count_pixels (the HLSL
// below) for the pixel shader, and compiles the runner's vertex shader
// itself.
const pixelUAVFile = `[require]
shader model >= 5.0

[rtv 0]
format r32g32b32a32-float
size (2d, 4, 4)

[uav 1]
format r32-uint
size (raw_buffer, 2)

0 0

[uav 2]
format r32-uint
size (2d, 4, 4)

0 0 0 0
0 0 0 0
0 0 0 0
0 0 0 0

[pixel shader]
RWByteAddressBuffer counter : register(u1);
RWTexture2D<uint> marks : register(u2);
RWStructuredBuffer<uint> order : register(u3);

float4 main(float4 pos : SV_Position) : SV_Target
{
    uint prev;
    uint2 p = uint2(pos.xy);
    counter.InterlockedAdd(0, 1, prev);
    counter.InterlockedMax(4, p.x * 16 + p.y);
    marks[p] = p.x + 100 * p.y + 1;
    order[prev] = p.x + 100 * p.y;
    return float4(1, 0, 0, 1);
}

[test]
draw quad
probe uav 1 (0) rui (16)
probe uav 1 (1) rui (51)
probe uav 2 (0, 0) rui (1)
probe uav 2 (3, 2) rui (204)
probe uav 2 (1, 3) rui (302)
probe (2, 2) rgba (1, 0, 0, 1)
probe uav 2 (2, 2) rui (7)
`

// TestPixelUAVCase: a pixel case with [uav N] runs as a scenario (the views
// bound with OMSetRenderTargetsAndUnorderedAccessViews after the render
// target, a probe per view) and passes, but for its deliberately wrong last
// probe, which reads what the shader wrote. The structured view u3 the
// shader writes is not declared: an unbound view, whose stores do nothing.
func TestPixelUAVCase(t *testing.T) {
	text, err := os.ReadFile("../umd/translate/testdata/pixel/count_pixels.asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("pixel-uav.shader_test", []byte(pixelUAVFile))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	var got *Result
	for _, c := range cases {
		if c.Kind == KindCompile {
			continue
		}
		got = Run(c, Options{Scenarios: true, Compile: func(stage, profile, source string, _ hlsl.Flags) ([]byte, error) {
			if stage == "ps" {
				return bc, nil
			}
			r, err := hlsl.Compile([]byte(source), "pixel-uav.shader_test", "main", profile)
			if err != nil {
				return nil, err
			}
			return r.Bytecode, nil
		}})
	}
	if got == nil || got.Outcome != Wrong || !strings.Contains(got.Reason, "expected u32[7]") {
		t.Fatalf("%+v", got)
	}
	if !strings.Contains(got.Scenario, "OMSetRenderTargetsAndUnorderedAccessViews rtv0 uav1 uav2 UAVStartSlot=1") {
		t.Errorf("scenario binds the views otherwise:\n%s", got.Scenario)
	}
}
