package scenario

import (
	"os"
	"strings"
	"testing"
)

// TestLevel9Shaders: shaders of the _level_9_x profiles on the default
// device (feature level 11_0), which runs their shader model 4 code: fxc's
// own blobs of Nuklear's renderer (vs_4_0_level_9_0 and ps_4_0_level_9_0,
// each with the Aon9 chunk, the Direct3D 9 shader, beside it), and an HLSL
// block compiled for ps_4_0_level_9_1, drawn with Nuklear's vertex shader.
func TestLevel9Shaders(t *testing.T) {
	header := func(name string) string {
		b, err := os.ReadFile("../dxbc/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	vs, ps := header("nuklear_d3d11_vertex_shader.h"), header("nuklear_d3d11_pixel_shader.h")
	for _, h := range []string{vs, ps} {
		if !strings.Contains(h, "65, 111, 110,  57") { // "Aon9"
			t.Fatal("the fixture has no Aon9 chunk")
		}
	}
	src := "fxc nkvs {\n" + vs + "\n}\nfxc nkps {\n" + ps + "\n}\n" + `hlsl colour {
struct PS_INPUT { float4 pos : SV_POSITION; float4 col : COLOR0; float2 uv : TEXCOORD0; };
float4 main(PS_INPUT i) : SV_Target { return i.col.bgra * float4(1, 1, 1, 0.5) + float4(0, 0, 0, 0.5); }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
nkvs = dev.CreateVertexShader fxc:nkvs
expect hr == S_OK
nkps = dev.CreatePixelShader fxc:nkps
expect hr == S_OK
ps = dev.CreatePixelShader hlsl:colour target=ps_4_0_level_9_1
expect hr == S_OK
cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=f32[1 0 0 0 0 1 0 0 0 0 1 0 0 0 0 1]
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1 0 0 1 0 0  -1 3 0.5 1 0 0 1 0 0  3 -1 0.5 1 0 0 1 0 0]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 16 16
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader nkvs
imm.VSSetConstantBuffers 0 cb
imm.PSSetShader ps
imm.Draw 3 0
expect pixel bb 8 8 == #0000ffff
`
	mustRun(t, src)
}
