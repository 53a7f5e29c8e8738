package scenario

import (
	"strings"
	"testing"
)

// A draw with no pixel shader is a depth-only pass (a shadow map's first
// pass): the rasterizer and the depth test run and the depth is written, and
// the debug layer does not warn that the draw draws nothing. A draw with no
// vertex shader does draw nothing, and is warned about.
func TestDepthOnlyPass(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
d = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView d
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
imm.OMSetRenderTargets NULL dsv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.ClearDepthStencilView dsv 1
imm.Draw 6 0
expect probe d 0 0 8 8 == f32[0.5]
imm.VSSetShader NULL
imm.Draw 6 0
`
	r := runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%q", s.Failures)
	}
	var warned []string
	for _, e := range r.Events() {
		if strings.Contains(e.Msg, "draws nothing") {
			warned = append(warned, e.Msg)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "no vertex shader") {
		t.Errorf("warnings %q, want one for the draw with no vertex shader", warned)
	}
}
