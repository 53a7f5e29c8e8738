package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestEarlyDepthStencil: a pixel shader declared [earlydepthstencil] runs
// only for the pixels that pass the depth test, which runs first. An 8x8
// depth buffer holds 0.25 over its top half (a depth-only quad) and 1
// below; a full quad at 0.5 with LESS then passes on the bottom half
// only. With the attribute the shader counts 32 pixels in its view (the
// failing ones write nothing), PIPELINE_STATISTICS counts 32
// PSInvocations, and the pixels it discards (x < 4) still have their depth
// written: the bottom half reads 0.5 everywhere, green only at x >= 4.
// Without it the shader counts all 64 and a discarded pixel keeps its 1.
// The expected depth and colour of each pixel are computed here.
func TestEarlyDepthStencil(t *testing.T) {
	var top strings.Builder
	for _, v := range [][2]float64{{-1, 1}, {1, 1}, {-1, 0}, {1, 1}, {1, 0}, {-1, 0}} {
		fmt.Fprintf(&top, "%g %g 0.25 1 1 1 1 0 0  ", v[0], v[1])
	}
	for _, early := range []bool{true, false} {
		attr, word, invocations := "", 1, 64
		if early {
			attr, word, invocations = "[earlydepthstencil]", 0, 32
		}
		src := `hlsl s {
RWBuffer<uint> cnt : register(u1);
` + attr + `
float4 main(float4 pos : SV_Position) : SV_Target {
    InterlockedAdd(cnt[` + fmt.Sprint(word) + `], 1);
    if (pos.x < 4)
        discard;
    return float4(0, 1, 0, 1);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
d = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
dsv = dev.CreateDepthStencilView d
c = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView c
cnt = dev.CreateBuffer ByteWidth=8 BindFlags=UNORDERED_ACCESS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_UINT
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
top = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[` + strings.TrimSpace(top.String()) + `]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:s target=ps_5_0
q = dev.CreateQuery Query=PIPELINE_STATISTICS
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.ClearDepthStencilView dsv 1
imm.ClearRenderTargetView rtv 0 0 0 1
imm.OMSetRenderTargets NULL dsv
imm.IASetVertexBuffers 0 top
imm.Draw 6 0
imm.OMSetRenderTargetsAndUnorderedAccessViews rtv dsv cntv
imm.PSSetShader ps
imm.IASetVertexBuffers 0 quad
imm.Begin q
imm.Draw 6 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.PSInvocations == ` + fmt.Sprint(invocations) + `
expect probe cnt ` + fmt.Sprint(word) + ` 0 == u32[` + fmt.Sprint(invocations) + `]
`
		for y := range 8 {
			for x := range 8 {
				depth, colour := 0.25, "#000000ff"
				if y >= 4 {
					depth = 0.5
					if x >= 4 {
						colour = "#00ff00ff"
					} else if !early {
						depth = 1
					}
				}
				src += fmt.Sprintf("expect probe d %d %d == f32[%g]\nexpect pixel c %d %d == %s\n", x, y, depth, x, y, colour)
			}
		}
		src += "expect violations == 0\n"
		t.Run(fmt.Sprint("early=", early), func(t *testing.T) { mustRun(t, src) })
	}
}

// TestEarlyDepthStencilMultisampled: on a 4-sample target the early tests
// run per sample. A depth-only quad at 0.25 covers x < 3.5 pixels, so of
// column 3's samples (the standard pattern's x offsets -1/8, 3/8, -3/8,
// 1/8 from the centre) 0 and 2 lie under it and 1 and 3 do not. A
// triangle over the target at 0.5 with LESS then runs its
// [earlydepthstencil] shader for the pixels with a passing sample, columns
// 3..7, each marking its pixel in a view (columns 0..2 mark nothing), and
// writes green to the passing samples alone: resolved, column 3 is half
// green, columns 4..7 green, 0..2 black.
func TestEarlyDepthStencilMultisampled(t *testing.T) {
	var occ, marks strings.Builder
	for i := range 64 {
		if i%8 >= 3 {
			marks.WriteString("1 ")
		} else {
			marks.WriteString("0 ")
		}
	}
	ran := strings.TrimSpace(marks.String())
	x := 3.5/4 - 1 // x = 3.5 pixels in an 8-wide viewport
	for _, v := range [][2]float64{{-1, 1}, {x, 1}, {-1, -1}, {x, 1}, {x, -1}, {-1, -1}} {
		fmt.Fprintf(&occ, "%g %g 0.25 1 1 1 1 0 0  ", v[0], v[1])
	}
	src := `hlsl s {
RWBuffer<uint> cnt : register(u1);
[earlydepthstencil]
float4 main(float4 pos : SV_Position) : SV_Target {
    cnt[(uint)pos.y * 8 + (uint)pos.x] = 1;
    return float4(0, 1, 0, 1);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
d = dev.CreateTexture2D Width=8 Height=8 Format=D32_FLOAT BindFlags=DEPTH_STENCIL SampleCount=4
dsv = dev.CreateDepthStencilView d
c = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=4
rtv = dev.CreateRenderTargetView c
res = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
cnt = dev.CreateBuffer ByteWidth=256 BindFlags=UNORDERED_ACCESS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_UINT
big = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1 1 1 1 0 0  -1 3 0.5 1 1 1 1 0 0  3 -1 0.5 1 1 1 1 0 0]
occ = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[` + strings.TrimSpace(occ.String()) + `]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader hlsl:s target=ps_5_0
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.ClearDepthStencilView dsv 1
imm.ClearRenderTargetView rtv 0 0 0 1
imm.OMSetRenderTargets NULL dsv
imm.IASetVertexBuffers 0 occ
imm.Draw 6 0
imm.OMSetRenderTargetsAndUnorderedAccessViews rtv dsv cntv
imm.PSSetShader ps
imm.IASetVertexBuffers 0 big
imm.Draw 3 0
expect probe cnt 0 0 == u32[` + ran + `]
imm.ResolveSubresource res 0 c 0 R8G8B8A8_UNORM
`
	for y := range 8 {
		for x := range 8 {
			g := 0.0
			switch {
			case x == 3:
				g = 0.5
			case x > 3:
				g = 1
			}
			src += fmt.Sprintf("expect pixel res %d %d == f32[0 %g 0 1] within 0.005\n", x, y, g)
		}
	}
	mustRun(t, src+"expect violations == 0\n")
}
