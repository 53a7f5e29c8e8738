package scenario

import (
	"strings"
	"testing"
)

// The two halves of a DualTextureEffect-like pair as fxc compiles them: the
// signatures are fxc's for DirectXTK's VSDualTexture and PSDualTexture
// (fxc packs TEXCOORD0 and TEXCOORD1, two float2, into register 2), the
// code this test's own. fxcPackedVS writes constants the pixel shader
// tells apart; fxcPackedPS returns (TEXCOORD0, TEXCOORD1.x, COLOR1.w).
const fxcPackedVS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// POSITION                 0   xyz         0     NONE   float   xyz
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyzw        0     NONE   float   xyzw
// COLOR                    1   xyzw        1     NONE   float   xyzw
// TEXCOORD                 0   xy          2     NONE   float   xy
// TEXCOORD                 1     zw        2     NONE   float     zw
// SV_Position              0   xyzw        3      POS   float   xyzw
//
vs_4_0
dcl_input v0.xyz
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xy
dcl_output o2.zw
dcl_output_siv o3.xyzw, position
mov o0.xyzw, l(0.500000,0.500000,0.500000,1.000000)
mov o1.xyzw, l(0,0,0,0.250000)
mov o2.xyzw, l(0.125000,0.375000,0.750000,1.000000)
mov o3.xyz, v0.xyzx
mov o3.w, l(1.000000)
ret
`

const fxcPackedPS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// COLOR                    0   xyzw        0     NONE   float
// COLOR                    1   xyzw        1     NONE   float      w
// TEXCOORD                 0   xy          2     NONE   float   xy
// TEXCOORD                 1     zw        2     NONE   float     z
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_input_ps linear v1.w
dcl_input_ps linear v2.xy
dcl_input_ps linear v2.z
dcl_output o0.xyzw
mov o0.xyz, v2.xyzx
mov o0.w, v1.w
ret
`

// TestPackedSignaturesLinkWithFxc: a pixel shader d3dsim compiles links
// with a vertex shader whose outputs fxc packed (TEXCOORD1 in o2.zw) and
// reads the right components, and a vertex shader d3dsim compiles feeds a
// pixel shader fxc compiled for that packing: both pairs draw (0.125,
// 0.375, 0.75, 0.25), the constants through the registers fxc chose.
func TestPackedSignaturesLinkWithFxc(t *testing.T) {
	const shaders = `hlsl packed {
struct Tx2 { float4 Diffuse : COLOR0; float4 Specular : COLOR1; float2 TexCoord : TEXCOORD0; float2 TexCoord2 : TEXCOORD1; };
struct VSOut { float4 Diffuse : COLOR0; float4 Specular : COLOR1; float2 TexCoord : TEXCOORD0; float2 TexCoord2 : TEXCOORD1; float4 Pos : SV_Position; };
float4 psmain(Tx2 pin) : SV_Target0 { return float4(pin.TexCoord, pin.TexCoord2.x, pin.Specular.w); }
VSOut vsmain(float3 pos : POSITION) {
    VSOut o;
    o.Diffuse = float4(0.5, 0.5, 0.5, 1);
    o.Specular = float4(0, 0, 0, 0.25);
    o.TexCoord = float2(0.125, 0.375);
    o.TexCoord2 = float2(0.75, 1);
    o.Pos = float4(pos, 1);
    return o;
}
}
`
	draw := func(vs, ps string) string {
		return shaders + `dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader ` + vs + `
ps = dev.CreatePixelShader ` + ps + `
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0 0 0 0 0 0 0  -1 3 0 0 0 0 0 0 0  3 -1 0 0 0 0 0 0 0]
rt = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.RSSetViewports 0 0 4 4
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 0 0 0
imm.Draw 3 0
expect pixel rt 0 0 == f32[0.125 0.375 0.75 0.25]
expect pixel rt 3 3 == f32[0.125 0.375 0.75 0.25]
`
	}
	fxcVS := "bytes:" + assembledHex(t, fxcPackedVS)
	fxcPS := "bytes:" + assembledHex(t, fxcPackedPS)
	for _, c := range []struct{ name, src string }{
		{"fxc VS, d3dsim PS", draw(fxcVS, "hlsl:packed entry=psmain target=ps_4_0")},
		{"d3dsim VS, fxc PS", draw("hlsl:packed entry=vsmain target=vs_4_0", fxcPS)},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) { runOK(t, c.src) })
	}
}

// TestVaryingsPastTheRasterizerRefused: a vertex shader whose packed
// outputs take nine registers (valid: Direct3D 11 has 32) is refused when
// it is created, naming o8 and the GPU's eight interpolated registers,
// rather than faulting at the draw.
func TestVaryingsPastTheRasterizerRefused(t *testing.T) {
	r := runSource(t, `hlsl nine {
struct V { float4 pos : SV_Position; float a[8] : A; };
V main(float3 p : POSITION) { V o = (V)0; o.pos = float4(p, 1); return o; }
}
dev, imm = D3D11CreateDevice
vs = dev.CreateVertexShader hlsl:nine target=vs_4_0
expect hr == E_INVALIDARG
`)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	var msg string
	for _, e := range r.Events() {
		if strings.Contains(e.Msg, "o8") {
			msg = e.Msg
		}
	}
	if !strings.Contains(msg, "o0..o7") {
		t.Errorf("no event names o8 and o0..o7: %q", msg)
	}
}
