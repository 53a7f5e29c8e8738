package scenario

import (
	"fmt"
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

// TestVaryingsPastTheRasterizerRefused: a vertex shader of nine packed
// output registers (the most this GPU once interpolated was eight) is
// created; one that writes o32 (past D3D11's 32, D3D11_VS_OUTPUT_REGISTER_COUNT)
// or a vs_4_0 that writes o16 (past its 16, "Registers - vs_4_0") is
// refused when it is created, the message naming the register and the
// count.
func TestVaryingsPastTheRasterizerRefused(t *testing.T) {
	listing := func(profile string, reg int) string {
		const sig = `//
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
// SV_Position              0   xyzw        0      POS   float   xyzw
// TEXCOORD                 0   xyzw     %6d     NONE   float   xyzw
//
`
		return fmt.Sprintf(sig, reg) + fmt.Sprintf("%s\ndcl_input v0.xyz\ndcl_output_siv o0.xyzw, position\ndcl_output o%d.xyzw\nmov o0.xyz, v0.xyzx\nmov o0.w, l(1.0)\nmov o%d.xyzw, l(0.5, 0.5, 0.5, 1.0)\nret\n", profile, reg, reg)
	}
	for _, c := range []struct {
		name, profile string
		reg           int
		want          string // "" for created
	}{
		{"o8 vs_4_0", "vs_4_0", 8, ""},
		{"o15 vs_4_0", "vs_4_0", 15, ""},
		{"o16 vs_4_0", "vs_4_0", 16, "o16: a vs_4_0 shader has 16 output registers, o0..o15"},
		{"o31 vs_4_1", "vs_4_1", 31, ""},
		{"o31 vs_5_0", "vs_5_0", 31, ""},
		{"o32 vs_5_0", "vs_5_0", 32, "o32: a vs_5_0 shader has 32 output registers, o0..o31"},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			hr := "S_OK"
			if c.want != "" {
				hr = "E_INVALIDARG"
			}
			r := runSource(t, "dev, imm = D3D11CreateDevice\nvs = dev.CreateVertexShader bytes:"+assembledHex(t, listing(c.profile, c.reg))+"\nexpect hr == "+hr+"\n")
			if sum := r.Summary(); !sum.OK() {
				t.Fatalf("failures: %q", sum.Failures)
			}
			if c.want == "" {
				return
			}
			var msg string
			for _, e := range r.Events() {
				if strings.Contains(e.Msg, c.want) {
					msg = e.Msg
				}
			}
			if msg == "" {
				t.Errorf("no event says %q", c.want)
			}
		})
	}
}
