package scenario

import "testing"

// wireframeSrc draws mesh:triangle filled, then with a rasterizer state of
// fill mode WIREFRAME: the inside (16, 20) stays the clear colour, the
// bottom edge (16, 23: the edge runs along the border of rows 23 and 24,
// through the bottom corners of row 23's diamonds) and the top vertex (16, 8)
// are lit.
const wireframeSrc = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=32 Height=32
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
wire = dev.CreateRasterizerState FillMode=WIREFRAME CullMode=NONE
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 32 32
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 3 0
sc.Present 0
expect pixel bb 16 20 == #386c5cff
imm.RSSetState wire
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 3 0
sc.Present 0
expect pixel bb 16 20 == #000000ff
expect pixel bb 16 23 == #008778ff
expect pixel bb 16 8 == #f70800ff
expect pixel bb 12 16 == #000000ff
expect violations == 0
`

// TestWireframe: FillMode=WIREFRAME reaches the GPU
// (the UMD maps it into SET_RASTER) and draws the triangle's edges only.
func TestWireframe(t *testing.T) {
	r := runSource(t, wireframeSrc)
	if sum := r.Summary(); !sum.OK() || sum.Violations != 0 {
		t.Fatalf("failures %q, %d violations", sum.Failures, sum.Violations)
	}
}
