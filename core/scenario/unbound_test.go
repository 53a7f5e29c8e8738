package scenario

import "testing"

// Bindings the application unbinds (ClearState here) are unbound on the GPU
// too, within the same DMA buffer: a draw with no vertex buffer reads zeros
// (Direct3D 11's input assembler rules) instead of the buffer bound before
// ClearState, and a draw with no vertex shader draws nothing and faults
// nothing. Without the UMD's unbinding, the second draw would paint the
// quad again (white at its centre) from the stale vertex buffer.
func TestUnboundSlotsAreUnboundOnTheGPU(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 6 0
imm.ClearRenderTargetView rtv 0 0 0 1
imm.ClearState
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.Draw 6 0
imm.VSSetShader vs
imm.PSSetShader ps
imm.Draw 6 0
expect pixel bb 8 8 == #000000ff
expect violations == 0
`
	r := runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%q", s.Failures)
	}
	for _, e := range r.Events() {
		if e.Name == "GpuFault" {
			t.Errorf("GPU fault: %s", e.Msg)
		}
	}
}
