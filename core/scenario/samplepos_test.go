package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestMultisampleSamplePositionHLSL: core/hlsl's GetRenderTargetSampleCount,
// GetRenderTargetSamplePosition and Texture2DMS.GetSamplePosition
// (sampleinfo and samplepos) on the GPU. The render target's count and its
// sample 1 at 1, 2 and 4 samples: 1 and the centre (0, 0); 2 and the
// standard pattern's (-4/16, -4/16); 4 and (6/16, -2/16). A 4-sample
// Texture2DMS's sample x of the 4x1 target's pixel x: x offsets -2/16,
// 6/16, -6/16, 2/16 and y offsets -6/16, -2/16, 2/16, 6/16.
func TestMultisampleSamplePositionHLSL(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`hlsl rastinfo {
float4 main(float4 p : SV_Position) : SV_Target {
    return float4(GetRenderTargetSampleCount(), GetRenderTargetSamplePosition(1), 0);
}
}
hlsl texpos {
Texture2DMS<float4, 4> t : register(t0);
float4 main(float4 p : SV_Position) : SV_Target {
    return float4(t.GetSamplePosition((uint)p.x), 0, 1);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:rastinfo entry=main target=ps_5_0
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.RSSetViewports 0 0 4 1
`)
	for _, c := range []struct {
		n    int
		want string
	}{{1, "0 0"}, {2, "-0.25 -0.25"}, {4, "0.375 -0.125"}} {
		fmt.Fprintf(&sb, `t%[1]d = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=%[1]d
v%[1]d = dev.CreateRenderTargetView t%[1]d
imm.OMSetRenderTargets v%[1]d
imm.Draw 6 0
`, c.n)
		src := fmt.Sprintf("t%d", c.n)
		if c.n > 1 {
			fmt.Fprintf(&sb, "o%[1]d = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=SHADER_RESOURCE\nimm.ResolveSubresource o%[1]d 0 t%[1]d 0 R16G16B16A16_FLOAT\n", c.n)
			src = fmt.Sprintf("o%d", c.n)
		}
		fmt.Fprintf(&sb, "expect pixel %s 2 0 == f32[%d %s 0]\n", src, c.n, c.want)
	}
	sb.WriteString(`out = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
orv = dev.CreateRenderTargetView out
srv = dev.CreateShaderResourceView t4 ViewDimension=TEXTURE2DMS
tp = dev.CreatePixelShader hlsl:texpos entry=main target=ps_5_0
imm.OMSetRenderTargets orv
imm.PSSetShader tp
imm.PSSetShaderResources 0 srv
imm.Draw 6 0
`)
	for x, p := range [][2]int{{-2, -6}, {6, -2}, {-6, 2}, {2, 6}} {
		fmt.Fprintf(&sb, "expect pixel out %d 0 == f32[%g %g 0 1]\n", x, float32(p[0])/16, float32(p[1])/16)
	}
	runOK(t, sb.String())
}
