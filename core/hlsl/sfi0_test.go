package hlsl

import (
	"testing"

	"d3dsim/core/dxbc"
)

// TestShaderFeatures: the SFI0 chunk's bits for what needs them, none (and
// no chunk) otherwise. The doubles sources are those of two fxc blobs in
// vkd3d's tests, whose SFI0 words are 1 (dmov) and 0x21 (dfma).
func TestShaderFeatures(t *testing.T) {
	for _, c := range []struct {
		target, src string
		want        dxbc.ShaderFeatures
	}{
		{"ps_4_0", "float4 main(float4 c : COLOR) : SV_Target { return c; }", 0},
		{"ps_5_0", "double2 src0;\nvoid main(out uint4 dst : SV_Target) { asuint(-src0.y, dst.x, dst.y); asuint(-src0.x, dst.z, dst.w); }", dxbc.RequiresDoubles},
		{"ps_5_0", "double2 src0;\nvoid main(out uint4 dst : SV_Target) { asuint(fma(src0.x, src0.y, 1.0000002433080226l), dst.x, dst.y); dst.zw = 0; }",
			dxbc.RequiresDoubles | dxbc.Requires11_1DoubleExtensions},
		{"cs_5_0", "RWTexture2D<float4> u;\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { u[id.xy] = u[id.xy] * 2; }", dxbc.RequiresTypedUAVLoadAdditionalFormats},
		{"cs_5_0", "RWTexture2D<float> u;\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { u[id.xy] = u[id.xy] * 2; }", 0},
		{"cs_5_0", "RWTexture2D<float4> u;\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { u[id.xy] = 2; }", 0},
		{"cs_5_0", "RWStructuredBuffer<uint> u : register(u9);\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { u[id.x] = 2; }", dxbc.Requires64UAVs},
		{"ps_5_0", "RasterizerOrderedBuffer<float> u : register(u1);\nfloat4 main(float4 p : SV_Position) : SV_Target { u[0] = p.x; return 0; }", dxbc.RequiresROVs},
		{"ps_4_0_level_9_3", "Texture2D t; SamplerComparisonState s;\nfloat4 main(float2 uv : TEXCOORD) : SV_Target { return t.SampleCmp(s, uv, 0.5); }", dxbc.RequiresLevel9ComparisonFiltering},
		{"ps_4_0", "Texture2D t; SamplerComparisonState s;\nfloat4 main(float2 uv : TEXCOORD) : SV_Target { return t.SampleCmp(s, uv, 0.5); }", 0},
	} {
		r := compileOK(t, c.src, "main", c.target)
		cont, err := dxbc.Parse(r.Bytecode)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cont.ShaderFeatures()
		if err != nil || got != c.want || r.Features != c.want || (cont.Chunk("SFI0") != nil) != (c.want != 0) {
			t.Errorf("%s: %s\nSFI0 %#x (%v), want %#x", c.target, c.src, got, err, c.want)
		}
		if _, err := dxbc.Validate(r.Bytecode, r.Program.Stage.programType()); err != nil {
			t.Errorf("%s: %v", c.src, err)
		}
	}
}
