package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// sampleIndexPS writes SV_SampleIndex + 1 in red: a pixel shader that
// runs once per covered sample.
const sampleIndexPS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// SV_SampleIndex           0   x           1   SAMPLE    uint   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps_sgv constant v1.x, sampleIndex
dcl_output o0.xyzw
dcl_temps 1
utof r0.x, v1.x
add o0.x, r0.x, l(1.000000)
mov o0.yzw, l(0,0,0,1.000000)
ret
`

// sampleInputPS writes its COLOR's red, declared linear sample: at
// sample frequency, interpolated at each sample's position.
const sampleInputPS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// COLOR                    0   xyzw        1     NONE   float   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps linear sample v1.x
dcl_output o0.xyzw
mov o0.x, v1.x
mov o0.yzw, l(0,0,0,1.000000)
ret
`

// perSampleScene draws the vertex buffer's rectangle with the pixel
// shader ps on a 4x1 target of n samples (R16G16B16A16_FLOAT, cleared
// to 0), counting the pixel shader's invocations, then reads every
// sample of pixels 0 and 1 into out (Texture2DMS.Load, a pixel's four
// samples in red, green, blue and alpha) at 4 samples, and resolves it.
func perSampleScene(n int, ps, vb string) string {
	s := fmt.Sprintf(`hlsl load4 {
Texture2DMS<float4, 4> t : register(t0);
float4 main(float4 p : SV_Position) : SV_Target {
    int2 c = int2(p.xy);
    return float4(t.Load(c, 0).x, t.Load(c, 1).x, t.Load(c, 2).x, t.Load(c, 3).x);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader %s
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.RSSetViewports 0 0 4 1
ms = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=%d
rtv = dev.CreateRenderTargetView ms
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv #00000000
st = dev.CreateQuery Query=PIPELINE_STATISTICS
imm.Begin st
imm.Draw 6 0
imm.End st
until hr == S_OK max 100 {
  imm.GetData st
}
`, ps, vb, n)
	if n == 4 {
		s += `res = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=SHADER_RESOURCE
imm.ResolveSubresource res 0 ms 0 R16G16B16A16_FLOAT
out = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
orv = dev.CreateRenderTargetView out
srv = dev.CreateShaderResourceView ms ViewDimension=TEXTURE2DMS
load = dev.CreatePixelShader hlsl:load4 entry=main target=ps_5_0
full = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=` + msaaRect(-1, -1, 1, 1, 0.5) + `
imm.OMSetRenderTargets orv
imm.PSSetShader load
imm.PSSetShaderResources 0 srv
imm.IASetVertexBuffers 0 full Stride=36
imm.Draw 6 0
`
	}
	return s
}

// TestSampleFrequencySampleIndex: a pixel shader reading SV_SampleIndex
// runs once per covered sample and writes that sample only. The
// rectangle over x in [0, 1.5] pixels (TestMultisampleCoverageInput's)
// covers pixel 0's four samples and pixel 1's samples 0 and 2 (those left
// of x = 1.5: the standard pattern's 1.375 and 1.125): Load gives pixel
// 0's samples 1, 2, 3, 4 (index + 1) and pixel 1's 1, 0, 3, 0 (the clear
// where uncovered), resolved 2.5 and 1; 6 invocations, one a covered
// sample. At one sample it runs once a pixel with index 0: pixel 0 gets
// 1, pixel 1 (its centre on the right edge) nothing, one invocation.
func TestSampleFrequencySampleIndex(t *testing.T) {
	ps := "bytes:" + assembledHex(t, sampleIndexPS)
	vb := msaaRect(-1, -1, -0.25, 1, 0.5)
	runOK(t, perSampleScene(4, ps, vb)+`expect data st.PSInvocations == 6
expect pixel out 0 0 == f32[1 2 3 4]
expect pixel out 1 0 == f32[1 0 3 0]
expect pixel out 2 0 == f32[0 0 0 0]
expect pixel res 0 0 == f32[2.5 0 0 1]
expect pixel res 1 0 == f32[1 0 0 0.5]
`)
	runOK(t, perSampleScene(1, ps, vb)+`expect data st.PSInvocations == 1
expect pixel ms 0 0 == f32[1 0 0 1]
expect pixel ms 1 0 == f32[0 0 0 0]
`)
}

// TestSampleFrequencyInput: an input declared linear sample makes the
// shader run per sample with the input interpolated at each sample's
// position. A rectangle over the whole target whose red is the x
// coordinate in pixels (0 at the left edge, 4 at the right): sample s of
// pixel p gets p plus the standard 4-sample pattern's x, 0.375, 0.875,
// 0.125, 0.625 (one pixel centre's 0.5 at one sample).
func TestSampleFrequencyInput(t *testing.T) {
	ps := "bytes:" + assembledHex(t, sampleInputPS)
	v := func(x, y, r float32) string { return fmt.Sprintf("%g %g 0.5 %g 0 0 1 0 0", x, y, r) }
	vb := "f32[" + strings.Join([]string{v(-1, 1, 0), v(1, 1, 4), v(-1, -1, 0), v(-1, -1, 0), v(1, 1, 4), v(1, -1, 4)}, "  ") + "]"
	runOK(t, perSampleScene(4, ps, vb)+`expect data st.PSInvocations == 16
expect pixel out 0 0 == f32[0.375 0.875 0.125 0.625]
expect pixel out 1 0 == f32[1.375 1.875 1.125 1.625]
`)
	runOK(t, perSampleScene(1, ps, vb)+`expect pixel ms 0 0 == f32[0.5 0 0 1]
expect pixel ms 3 0 == f32[3.5 0 0 1]
`)
}
