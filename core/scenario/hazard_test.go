package scenario

import (
	"strings"
	"testing"
)

// A resource is bound for output or for input, never both: binding its
// depth-stencil view (or a render target view) unbinds its shader resource
// views on every stage, and binding a shader resource view of a resource
// bound for output binds NULL instead, each with the debug layer's warning
// (DEVICE_OMSETRENDERTARGETS_HAZARD, DEVICE_PSSETSHADERRESOURCES_HAZARD).
// A shadow map's two passes meet both.
func TestOutputInputHazard(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
sm = dev.CreateTexture2D Width=8 Height=8 Format=R32_TYPELESS BindFlags=DEPTH_STENCIL|SHADER_RESOURCE
dsv = dev.CreateDepthStencilView sm Format=D32_FLOAT
srv = dev.CreateShaderResourceView sm Format=R32_FLOAT
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE
rtv = dev.CreateRenderTargetView t
tsrv = dev.CreateShaderResourceView t
imm.PSSetShaderResources 0 srv
imm.VSSetShaderResources 2 srv
imm.OMSetRenderTargets NULL dsv
imm.PSGetShaderResources 0
expect got == NULL
imm.VSGetShaderResources 2
expect got == NULL
imm.PSSetShaderResources 1 srv
imm.PSGetShaderResources 1
expect got == NULL
imm.OMSetRenderTargets rtv
imm.PSSetShaderResources 1 srv tsrv
imm.PSGetShaderResources 1 2
expect got == srv NULL
imm.OMSetRenderTargets NULL
imm.PSSetShaderResources 2 tsrv
imm.PSGetShaderResources 2
expect got == tsrv
expect violations == 0
`
	r := runText(t, src, Overrides{})
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%q", s.Failures)
	}
	var warned []string
	for _, e := range r.Events() {
		if strings.Contains(e.Msg, "still bound on") {
			warned = append(warned, e.Msg)
		}
	}
	want := []string{
		"Resource being set to OM DepthStencil is still bound on input! Forcing VS shader resource slot 2 to NULL",
		"Resource being set to OM DepthStencil is still bound on input! Forcing PS shader resource slot 0 to NULL",
		"Resource being set to PS shader resource slot 1 is still bound on output! Forcing to NULL",
		"Resource being set to PS shader resource slot 2 is still bound on output! Forcing to NULL",
	}
	if len(warned) != len(want) {
		t.Fatalf("warnings %q, want %d", warned, len(want))
	}
	for i, w := range want {
		if !strings.Contains(warned[i], w) {
			t.Errorf("warning %d: %q, want %q", i, warned[i], w)
		}
	}
}
