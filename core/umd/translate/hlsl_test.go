package translate

import (
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

// HLSL's SampleGrad, SampleBias and GetDimensions, compiled by core/hlsl,
// translate and run on the ISA as the reference runs the DXBC.
func TestHLSLTextureMethods(t *testing.T) {
	for i, tc := range []struct{ src, target string }{
		{`Texture2D t0 : register(t0); SamplerState s0 : register(s1);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, float4 k : K) : SV_Target {
	uint w, h, n; float fw, fh, fn;
	t0.GetDimensions(w, h);
	t0.GetDimensions(asuint(k.w) & 15, fw, fh, fn);
	float4 g = t0.SampleGrad(s0, uv, uv * k.x, k.zw) + t0.SampleBias(s0, uv * 2, k.y * 10);
	return g + float4(w, h, fw, fh) + fn + n;
}`, "ps_4_0"},
		{`Texture2D t : register(t1); SamplerState s : register(s0);
float4 main(float4 p : POSITION, float2 uv : TEXCOORD0) : SV_Position {
	float w, h; t.GetDimensions(w, h);
	return p + t.SampleGrad(s, uv, uv * 0.5, float2(w, h));
}`, "vs_5_0"},
	} {
		r, err := hlsl.Compile([]byte(tc.src), "t.hlsl", "main", tc.target)
		if err != nil {
			t.Fatalf("%s: %v", tc.target, err)
		}
		stage := dxbc.PixelShader
		if tc.target[0] == 'v' {
			stage = dxbc.VertexShader
		}
		s, err := dxbc.Validate(r.Bytecode, stage)
		if err != nil {
			t.Fatal(err)
		}
		checkEquiv(t, s.Program, uint64(7000+i), 20)
	}
}
