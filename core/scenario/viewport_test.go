package scenario

import "testing"

// noViewportSrc draws a full-target quad three times: with no viewport set
// (nothing drawn), after RSSetViewports (drawn), and from a command list
// recorded on a deferred context that set no viewport (a command list starts
// from the cleared state, so nothing drawn although the immediate context
// has one).
const noViewportSrc = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=32 Height=32
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=216 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 1 1
imm.Draw 6 0
sc.Present 0
expect pixel bb 16 16 == #0000ffff
imm.RSSetViewports 0 0 32 32
imm.Draw 6 0
sc.Present 0
expect pixel bb 16 16 == #ffffffff
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb Stride=36
dc.VSSetShader vs
dc.PSSetShader ps
dc.ClearRenderTargetView rtv 0 0 1 1
dc.Draw 6 0
cl = dc.FinishCommandList FALSE
imm.ClearRenderTargetView rtv 0 1 0 1
imm.ExecuteCommandList cl FALSE
sc.Present 0
expect pixel bb 16 16 == #0000ffff
expect violations == 0
`

// sameBufferSrc: the immediate context draws with a viewport, then runs a
// command list whose deferred context set none, in the same DMA buffer: the
// list's draw covers nothing (the UMD sends an empty viewport, for the GPU's
// state within a buffer still holds the immediate context's).
const sameBufferSrc = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=32 Height=32
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=216 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb Stride=36
dc.VSSetShader vs
dc.PSSetShader ps
dc.ClearRenderTargetView rtv 0 0 1 1
dc.Draw 6 0
cl = dc.FinishCommandList FALSE
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 32 32
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 1 0 1
imm.Draw 6 0
imm.ExecuteCommandList cl FALSE
sc.Present 0
expect pixel bb 16 16 == #0000ffff
expect violations == 0
`

// TestNoViewportDrawsNothing: Direct3D 11 has no
// implicit full-target viewport; a draw with none set covers nothing. The
// runner sets none on its own either: RSSetViewports is the only way.
func TestNoViewportDrawsNothing(t *testing.T) {
	r := runSource(t, noViewportSrc)
	if sum := r.Summary(); !sum.OK() || sum.Violations != 0 {
		t.Fatalf("failures %q, %d violations", sum.Failures, sum.Violations)
	}
	for _, e := range r.Events() {
		if e.Name == "SetViewports" && e.Line != 18 {
			t.Errorf("SetViewports at line %d: only line 18 sets a viewport", e.Line)
		}
	}
	r = runSource(t, sameBufferSrc)
	if sum := r.Summary(); !sum.OK() || sum.Violations != 0 {
		t.Fatalf("same buffer: failures %q, %d violations", sum.Failures, sum.Violations)
	}
}
