package scenario

import (
	"strings"
	"testing"
)

// Command lists own what they record and give state back exactly
// ("Supporting command lists"; ID3D11DeviceContext::ExecuteCommandList and
// FinishCommandList's Restore flags; ClearState). Each scenario runs on the
// driver's command lists and on the runtime's emulation of them (option
// driver.commandlists=false): the pixels and expectations must hold on both.

// bothPaths runs src as written (the driver builds the command lists) and
// with the runtime emulating them; every expectation must hold on both,
// except `expect calls` lines naming the driver's DDIs, which the lines
// marked "#driver" keep to the driver path.
func bothPaths(t *testing.T, src string) {
	t.Helper()
	var emulated []string
	for _, l := range strings.Split(src, "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "#driver") {
			continue
		}
		emulated = append(emulated, l)
	}
	for _, tc := range []struct{ desc, src string }{
		{"driver", src},
		{"emulated", "option driver.commandlists=false\n" + strings.Join(emulated, "\n")},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			if s := runSource(t, tc.src).Summary(); !s.OK() {
				t.Errorf("%s", strings.Join(s.Failures, "\n"))
			}
		})
	}
}

// The application releases every buffer, shader, view and state right after
// FinishCommandList and executes the list later: the list's references keep
// them alive (no device loss, same pixels), and drop with the list.
func TestCommandListOwnsWhatItRecords(t *testing.T) {
	bothPaths(t, `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
tex = dev.CreateTexture2D Width=2 Height=2 Format=R8G8B8A8_UNORM Usage=IMMUTABLE BindFlags=SHADER_RESOURCE Data=u32[0xff00ff00 0xff00ff00 0xff00ff00 0xff00ff00]
rtv = dev.CreateRenderTargetView bb
srv = dev.CreateShaderResourceView tex
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_texture
smp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
bs = dev.CreateBlendState
rs = dev.CreateRasterizerState CullMode=NONE
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 16 16
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb
dc.VSSetShader vs
dc.PSSetShader ps
dc.PSSetShaderResources 0 srv
dc.PSSetSamplers 0 smp
dc.OMSetBlendState bs
dc.RSSetState rs
dc.ClearRenderTargetView rtv 1 0 0 1
dc.Draw 6 0
cl = dc.FinishCommandList FALSE
vb.Release
vs.Release
ps.Release
srv.Release
tex.Release
smp.Release
bs.Release
rs.Release
rtv.Release
imm.Flush
imm.ExecuteCommandList cl FALSE
sc.Present
expect pixel bb 8 8 == #00ff00ff
expect hash bb == 0b3b4eba5c7d53be
cl.Release
expect calls RecycleDestroyCommandList DestroyShader DestroyResource #driver
dc.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`)
}

// restoreSetup is a 16x16 target and the state an exact restore must bring
// back: a vertex buffer read at stride 36 from offset 36 (its first vertex is
// junk), an R32_UINT index buffer read from offset 4, and a viewport over the
// left half. With any of them restored wrong, the red triangle is not drawn
// where it should be.
const restoreSetup = `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[9 9 9 0 0 0 0 0 0  -1 -1 0.5 1 0 0 1 0 0  -1 3 0.5 1 0 0 1 0 0  3 -1 0.5 1 0 0 1 0 0]
ib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u32[7 0 1 2]
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
quadib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2 3 4 5]
green = dev.CreateBuffer Usage=IMMUTABLE BindFlags=CONSTANT_BUFFER Data=f32[0 1 0 1]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
solid = dev.CreatePixelShader builtin:ps_solid
`

// bindRed binds that state on CTX.
func bindRed(ctx string) string {
	return strings.NewReplacer("CTX", ctx).Replace(`
CTX.OMSetRenderTargets rtv
CTX.RSSetViewports 0 0 8 16
CTX.IASetPrimitiveTopology TRIANGLELIST
CTX.IASetVertexBuffers 0 vb Stride=36 Offset=36
CTX.IASetIndexBuffer ib Format=R32_UINT Offset=4
CTX.VSSetShader vs
CTX.PSSetShader ps
`)
}

// ExecuteCommandList(RestoreContextState=TRUE) gives the immediate context
// back exactly the state it had, strides, offsets, index format and
// viewport included; the list itself binds other buffers, another viewport
// and shader.
func TestExecuteCommandListRestoresExactState(t *testing.T) {
	bothPaths(t, restoreSetup+`
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 16 16
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 quad
dc.IASetIndexBuffer quadib Format=R16_UINT
dc.VSSetShader vs
dc.PSSetShader solid
dc.PSSetConstantBuffers 0 green
dc.DrawIndexed 6 0 0
cl = dc.FinishCommandList FALSE
`+bindRed("imm")+`
imm.ClearRenderTargetView rtv 0 0 0 1
imm.ExecuteCommandList cl TRUE
expect pixel bb 12 8 == #00ff00ff
imm.ClearRenderTargetView rtv 0 0 0 1
imm.DrawIndexed 3 0 0
expect pixel bb 4 8 == #ff0000ff
expect pixel bb 12 8 == #000000ff
# FALSE: the immediate context is left in the default state
imm.ExecuteCommandList cl FALSE
imm.DrawIndexed 3 0 0
expect hr == E_INVALIDARG
expect violations == 0
`)
}

// FinishCommandList(RestoreDeferredContextState=TRUE) keeps the deferred
// context's exact state for the next list; FALSE leaves it in the default
// state.
func TestFinishCommandListRestoresExactState(t *testing.T) {
	bothPaths(t, restoreSetup+`
dc = dev.CreateDeferredContext
`+bindRed("dc")+`
dc.ClearRenderTargetView rtv 0 0 0 1
cl1 = dc.FinishCommandList TRUE
dc.DrawIndexed 3 0 0
cl2 = dc.FinishCommandList FALSE
dc.DrawIndexed 3 0 0
expect hr == E_INVALIDARG
imm.ExecuteCommandList cl1 FALSE
imm.ExecuteCommandList cl2 FALSE
expect pixel bb 4 8 == #ff0000ff
expect pixel bb 12 8 == #000000ff
expect violations == 0
`)
}

// ClearState resets every binding to the default, the viewport included:
// as in Direct3D 11 there is then no viewport, so a draw covers nothing
// until RSSetViewports sets one again.
func TestClearStateResetsEveryBinding(t *testing.T) {
	bothPaths(t, restoreSetup+`
dc = dev.CreateDeferredContext
`+bindRed("imm")+`
imm.ClearRenderTargetView rtv 0 0 0 1
imm.DrawIndexed 3 0 0
imm.ClearState
imm.DrawIndexed 3 0 0
expect hr == E_INVALIDARG
imm.OMSetRenderTargets rtv
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.PSSetShader ps
imm.Draw 6 0
expect pixel bb 12 8 == #000000ff
imm.RSSetViewports 0 0 16 16
imm.Draw 6 0
expect pixel bb 12 8 == #ffffffff
`+bindRed("dc")+`
dc.ClearState
dc.OMSetRenderTargets rtv
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 quad
dc.VSSetShader vs
dc.PSSetShader solid
dc.PSSetConstantBuffers 0 green
dc.Draw 6 0
dc.RSSetViewports 0 0 16 16
dc.Draw 6 0
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
expect pixel bb 12 8 == #00ff00ff
expect violations == 0
`)
}

// A query begun and ended on a deferred context is not signalled before its
// command list has been executed and the GPU has passed the End: GetData
// says S_FALSE until then ("Supporting command lists": the query rides on
// the list).
func TestDeferredQueryWaitsForExecution(t *testing.T) {
	bothPaths(t, `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
ev = dev.CreateQuery Query=EVENT
occ = dev.CreateQuery Query=OCCLUSION
# both queries were signalled once on the immediate context already
imm.Begin occ
imm.End occ
imm.End ev
imm.Flush
imm.ClearRenderTargetView rtv 0 0 1 1
sc.Present
expect pixel bb 1 1 == #0000ffff
imm.GetData ev
expect hr == S_OK
dc = dev.CreateDeferredContext
dc.Begin occ
dc.ClearRenderTargetView rtv 1 0 0 1
dc.End occ
dc.End ev
cl = dc.FinishCommandList FALSE
imm.Flush
imm.GetData ev
expect hr == S_FALSE
imm.GetData occ
expect hr == S_FALSE
imm.ExecuteCommandList cl FALSE
imm.GetData ev
expect hr == S_FALSE
imm.Flush
sc.Present
expect pixel bb 1 1 == #ff0000ff
imm.GetData ev
expect hr == S_OK
imm.GetData occ
expect hr == S_OK
expect violations == 0
`)
}

// ExecuteCommandList on a deferred context (legal in D3D11) records the
// list into that context's recording: the outer list draws what the inner
// one drew, holds it (the application releases it and its buffers first),
// ends its queries when it runs, and leaves the deferred context in the
// default state.
func TestExecuteCommandListOnDeferredContext(t *testing.T) {
	bothPaths(t, `
dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
ib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2 3 4 5]
color = dev.CreateBuffer Usage=IMMUTABLE BindFlags=CONSTANT_BUFFER Data=f32[0 1 0 1]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_solid
q = dev.CreateQuery Query=EVENT
dc1 = dev.CreateDeferredContext
dc1.OMSetRenderTargets rtv
dc1.IASetPrimitiveTopology TRIANGLELIST
dc1.IASetVertexBuffers 0 vb
dc1.VSSetShader vs
dc1.PSSetShader ps
dc1.PSSetConstantBuffers 0 color
dc1.RSSetViewports 0 0 8 16
dc1.Draw 6 0
dc1.End q
inner = dc1.FinishCommandList FALSE
dc2 = dev.CreateDeferredContext
dc2.OMSetRenderTargets rtv
dc2.IASetIndexBuffer ib Format=R16_UINT
dc2.ClearRenderTargetView rtv 1 0 0 1
dc2.ExecuteCommandList inner FALSE
expect calls ExecuteCommandList CreateCommandList CommandListExecute #driver
dc2.DrawIndexed 6 0 0
expect hr == E_INVALIDARG
outer = dc2.FinishCommandList FALSE
inner.Release
vb.Release
color.Release
imm.GetData q
expect hr == S_FALSE
imm.ExecuteCommandList outer FALSE
sc.Present
expect pixel bb 4 8 == #00ff00ff
expect pixel bb 12 8 == #ff0000ff
imm.GetData q
expect hr == S_OK
outer.Release
dc1.Release
dc2.Release
q.Release
ib.Release
vs.Release
ps.Release
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`)
}
