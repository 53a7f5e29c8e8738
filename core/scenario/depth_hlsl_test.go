package scenario

import "testing"

// TestDepthOutputHLSL: a pixel shader compiled from HLSL that writes
// SV_Depth (oDepth) puts its value, not the quad's interpolated 0.5, in
// the depth buffer; with the depth test LESS a second draw of the same
// quad at 0.5 then fails it and leaves the colour target as the first
// draw wrote it.
func TestDepthOutputHLSL(t *testing.T) {
	mustRun(t, `hlsl deep {
struct O { float4 c : SV_Target; float d : SV_Depth; };
O main(float4 pos : SV_Position) { O o; o.c = float4(0, 1, 0, 1); o.d = 0.25; return o; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
d = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView d
c = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView c
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:deep
red = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv dsv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearDepthStencilView dsv 1
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 6 0
expect probe d 0 0 8 8 == f32[0.25]
expect pixel c 3 3 == #00ff00ff
imm.PSSetShader red
imm.Draw 6 0
expect probe d 0 0 8 8 == f32[0.25]
expect pixel c 3 3 == #00ff00ff
expect violations == 0
`)
}
