package main

import (
	"fmt"

	"d3dsim/core/trace"
)

// oooScene is independent GPU work for option ooo=true (the SamBookshelf article on asynchronous Draw): n rounds
// of a full-target quad into each of two 256x256 render targets, drawn
// alternately, one DMA buffer per Flush. The A buffers depend on each other
// (WAW on texA), the B buffers likewise, and A and B not at all, so two
// engines can run the two chains side by side. It ends by composing both
// targets into the back buffer and checking a pixel of each.
func oooScene(n int) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
texA = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET|SHADER_RESOURCE
texB = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET|SHADER_RESOURCE
rtvA = dev.CreateRenderTargetView texA
rtvB = dev.CreateRenderTargetView texB
srvA = dev.CreateShaderResourceView texA
srvB = dev.CreateShaderResourceView texB
samp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT AddressU=CLAMP AddressV=CLAMP
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
color = dev.CreatePixelShader builtin:ps_vertexcolor
textured = dev.CreatePixelShader builtin:ps_texture
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader color
imm.RSSetViewports 0 0 256 256
repeat %d {
  imm.OMSetRenderTargets rtvA
  imm.Draw 6 0
  imm.Flush
  imm.OMSetRenderTargets rtvB
  imm.Draw 6 0
  imm.Flush
}
imm.OMSetRenderTargets rtv
imm.PSSetShader textured
imm.PSSetSamplers 0 samp
imm.RSSetViewports 0 0 32 64
imm.PSSetShaderResources 0 srvA
imm.Draw 6 0
imm.RSSetViewports 32 0 32 64
imm.PSSetShaderResources 0 srvB
imm.Draw 6 0
sc.Present
expect pixel bb 8 8 == #ffffffff
expect pixel bb 40 8 == #ffffffff
expect violations == 0
`, n)
}

// gpuDoneAt is when the GPU finished its last buffer, in virtual ns: the
// time of the last interrupt it raised.
func gpuDoneAt(events []trace.Event) int64 {
	var t int64
	for i := range events {
		if e := &events[i]; e.Layer == trace.GPU && e.Kind == trace.Interrupt {
			t = max(t, e.T)
		}
	}
	return t
}

// benchOOO runs oooScene in order on one engine and out of order on two
// (option ooo=true, gpu.engines=2) and returns when the GPU finished in
// each, in virtual ns. The frames must be the same (rule ASYNC-SAME).
func benchOOO(n int) (inOrder, outOfOrder int64, err error) {
	src := oooScene(n)
	r1, _, err := runScene(src)
	if err != nil {
		return 0, 0, err
	}
	r2, _, err := runScene("option ooo=true\noption gpu.engines=2\n" + src)
	if err != nil {
		return 0, 0, err
	}
	if a, b := r1.Summary().Hash, r2.Summary().Hash; a != b {
		return 0, 0, fmt.Errorf("out-of-order frame %s differs from in-order %s", b, a)
	}
	return gpuDoneAt(r1.Events()), gpuDoneAt(r2.Events()), nil
}
