package scenario

import (
	"slices"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// The state-refresh callbacks of "Supporting command lists": during the
// driver's CommandListExecute every one of them still shows the state bound
// before the call; at the driver's next DDI every one shows the cleared
// state, except what the application bound since.
func TestStateRefreshAroundCommandListExecute(t *testing.T) {
	r := runSource(t, `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
ds = dev.CreateTexture2D Width=16 Height=16 Format=D32_FLOAT Usage=DEFAULT BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView ds
tex = dev.CreateTexture2D Width=2 Height=2 Format=R8G8B8A8_UNORM Usage=IMMUTABLE BindFlags=SHADER_RESOURCE Data=u32[1 2 3 4]
srv = dev.CreateShaderResourceView tex
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
ib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2]
cb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=CONSTANT_BUFFER Data=f32[0 1 0 1]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_texture
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT] elem[COLOR 0 R32G32B32A32_FLOAT] elem[TEXCOORD 0 R32G32_FLOAT]
smp = dev.CreateSamplerState
bs = dev.CreateBlendState
dss = dev.CreateDepthStencilState
rs = dev.CreateRasterizerState CullMode=NONE
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.ClearRenderTargetView rtv 0 0 1 1
cl = dc.FinishCommandList FALSE
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb
imm.IASetIndexBuffer ib Format=R16_UINT
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.VSSetConstantBuffers 0 cb
imm.PSSetShader ps
imm.PSSetConstantBuffers 1 cb
imm.PSSetShaderResources 0 srv
imm.PSSetSamplers 0 smp
imm.VSSetShaderResources 5 srv
imm.VSSetSamplers 15 smp
imm.OMSetRenderTargets rtv dsv
imm.OMSetBlendState bs
imm.OMSetDepthStencilState dss
imm.RSSetState rs
imm.RSSetViewports 0 0 16 16
imm.RSSetScissorRects 0 0 16 16
imm.ExecuteCommandList cl FALSE
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 1 0 1
sc.Present
expect pixel bb 2 2 == #00ff00ff
expect violations == 0
`)
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%s", strings.Join(s.Failures, "\n"))
	}
	all := []string{"pfnStateIaInputLayoutCb", "pfnStateIaVertexBufCb", "pfnStateIaIndexBufCb", "pfnStateIaPrimitiveTopologyCb", "pfnStateVsShaderCb",
		"pfnStateVsConstBufCb", "pfnStateVsSrvCb", "pfnStateVsSamplerCb", "pfnStatePsShaderCb", "pfnStatePsConstBufCb", "pfnStatePsSrvCb", "pfnStatePsSamplerCb",
		"pfnStateOmRenderTargetsCb", "pfnStateOmBlendStateCb", "pfnStateOmDepthStateCb", "pfnStateRsRastStateCb", "pfnStateRsViewportsCb",
		"pfnStateRsScissorCb"}
	inside, after := map[string]string{}, map[string]string{}
	executing, executed := false, false
	for _, e := range r.Events() {
		switch {
		case e.Name == "CommandListExecute" && e.Layer == trace.UMD && e.Kind == trace.Call:
			executing = true
		case e.Name == "CommandListExecute" && e.Layer == trace.UMD && e.Kind == trace.Return:
			executing, executed = false, true
		case e.Kind == trace.Call && strings.HasPrefix(e.Name, "pfnState"):
			m := after
			if executing {
				m = inside
			} else if !executed {
				t.Errorf("%s before CommandListExecute", e.Name)
			}
			if _, seen := m[e.Name]; !seen {
				m[e.Name] = e.Args.Str(trace.KeyBound)
			}
		}
	}
	for _, cb := range all {
		if v, ok := inside[cb]; !ok || v == "none" {
			t.Errorf("inside CommandListExecute %s shows %q, want the old binding", cb, v)
		}
		want := "none"
		if cb == "pfnStateOmRenderTargetsCb" {
			want = "" // the application bound a render target again
		}
		if v, ok := after[cb]; !ok || (want == "none" && v != "none") || (want == "" && v == "none") {
			t.Errorf("at the next DDI %s shows %q, want %s", cb, v, cmpOr(want, "the new render target"))
		}
	}
	for cb := range inside {
		if !slices.Contains(all, cb) {
			t.Errorf("unexpected state-refresh callback %s", cb)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
