package scenario

import (
	"fmt"
	"math"
	"testing"
)

// TestConservativeDepth: a pixel shader writing SV_DepthGreaterEqual
// (oDepthGE) or SV_DepthLessEqual (oDepthLE) has its depth held to its
// promise ("Semantics": greater than or equal to, less than or equal to,
// the value the rasterizer determined): over the quad at 0.5 the depth
// buffer gets max(written, 0.5) or min(written, 0.5); SV_Depth takes the
// written value whatever it is. The depth test is ALWAYS, so each draw
// writes what the output merger took.
func TestConservativeDepth(t *testing.T) {
	const raster = 0.5
	for _, c := range []struct {
		sem  string
		take func(z float64) float64
	}{
		{"SV_Depth", func(z float64) float64 { return z }},
		{"SV_DepthGreaterEqual", func(z float64) float64 { return math.Max(z, raster) }},
		{"SV_DepthLessEqual", func(z float64) float64 { return math.Min(z, raster) }},
	} {
		for _, z := range []float64{0.25, 0.75} {
			src := fmt.Sprintf(`hlsl deep {
struct O { float4 c : SV_Target; float d : %s; };
O main(float4 pos : SV_Position) { O o; o.c = float4(0, 1, 0, 1); o.d = %g; return o; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
d = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView d
c = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView c
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:deep target=ps_5_0
always = dev.CreateDepthStencilState DepthFunc=ALWAYS
imm.OMSetDepthStencilState always
imm.OMSetRenderTargets rtv dsv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearDepthStencilView dsv 1
imm.Draw 6 0
expect probe d 0 0 8 8 == f32[%g]
expect pixel c 3 3 == #00ff00ff
expect violations == 0
`, c.sem, z, c.take(z))
			t.Run(fmt.Sprintf("%s=%g", c.sem, z), func(t *testing.T) { mustRun(t, src) })
		}
	}
}
