package scenario

import (
	"strings"
	"testing"
)

// Regression tests for what running real fxc shaders found (TestFxcCorpusRun).

// TestDrawWithoutPosition: a vertex shader written for a hull shader or for
// stream output writes no SV_Position; drawn with nothing after it, the
// runtime drops the draw, naming DEVICE_DRAW_POSITION_NOT_PRESENT, where
// the GPU used to fault and the device was removed.
func TestDrawWithoutPosition(t *testing.T) {
	r := runSource(t, `hlsl s {
float4 vsmain(float4 p : POSITION) : TEXCOORD0 { return p; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
tex = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView tex
vs = dev.CreateVertexShader hlsl:s entry=vsmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1  -1 3 0.5 1  3 -1 0.5 1]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb Stride=16
imm.VSSetShader vs
imm.Draw 3
expect hr == DROPPED
imm.DrawInstanced 3 2
expect hr == DROPPED
imm.Flush
dev.GetDeviceRemovedReason
expect hr == S_OK
`)
	sum := r.Summary()
	if !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	if len(sum.Messages) != 2 || !strings.Contains(sum.Messages[0], "vertex shader vs writes no SV_Position") ||
		!strings.Contains(sum.Messages[0], "DEVICE_DRAW_POSITION_NOT_PRESENT") {
		t.Errorf("messages: %q", sum.Messages)
	}
	for _, e := range r.Events() {
		if e.Name == "GpuFault" || e.Name == "DeviceRemoved" {
			t.Fatalf("%s: %s", e.Name, e.Msg)
		}
	}
}
