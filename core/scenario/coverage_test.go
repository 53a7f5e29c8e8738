package scenario

import (
	"encoding/hex"
	"fmt"
	"testing"

	"d3dsim/core/dxbc"
)

// coverageInPS writes SV_Coverage's input, the pixel's covered samples, as
// a float in red: (float(vCoverage), 0, 0, 1).
const coverageInPS = `//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input vCoverage
dcl_output o0.xyzw
utof o0.x, vCoverage.x
mov o0.yzw, l(0, 0, 0, 1.0)
ret
`

// coverageOutPS writes white with SV_Coverage's output %d (oMask).
const coverageOutPS = `//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
// SV_Coverage              0   x      4294967295 COVERAGE    uint   x
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_output o0.xyzw
dcl_output oMask
mov o0.xyzw, l(1.0, 1.0, 1.0, 1.0)
mov oMask, l(%d)
ret
`

func assembledHex(t *testing.T, src string) string {
	t.Helper()
	bc, err := dxbc.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(bc)
}

// TestMultisampleCoverageInput: SV_Coverage as a pixel shader's input, each
// triangle's own coverage. A rectangle over x in [0, 1.5] pixels of a 4x1
// target, two triangles split by the diagonal from (1.5, 0) to (0, 1), y =
// 1 - x/1.5. Pixel 0's samples (the standard 4-sample pattern: (0.375,
// 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875)): 0, 1 and 2 above
// the diagonal (mask 7, the first triangle), 3 below (mask 8, the second):
// resolved (7 x 3 + 8)/4 = 7.25. Pixel 1, whose centre is on the right
// edge: samples 0 (1.375, 0.125) and 2 (1.125, 0.625), both below the
// diagonal: mask 5 on two of four samples, 2.5. At one sample pixel 0's
// centre is in the first triangle (mask 1) and pixel 1 is not drawn (the
// top-left rule leaves a right edge's pixel out).
func TestMultisampleCoverageInput(t *testing.T) {
	// The same shader from HLSL (core/hlsl: dcl_input vCoverage).
	const hlslIn = `hlsl covin {
float4 main(float4 p : SV_Position, uint c : SV_Coverage) : SV_Target {
    return float4(c, 0, 0, 1);
}
}
`
	prelude := func(n int, ps string) string {
		return fmt.Sprintf(`dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader %s
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.RSSetViewports 0 0 4 1
ms = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=RENDER_TARGET SampleCount=%d
rtv = dev.CreateRenderTargetView ms
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv #00000000
imm.Draw 6 0
`, ps, msaaRect(-1, -1, -0.25, 1, 0.5), n)
	}
	for _, ps := range []string{"bytes:" + assembledHex(t, coverageInPS), "hlsl:covin entry=main target=ps_5_0"} {
		runOK(t, hlslIn+prelude(4, ps)+`out = dev.CreateTexture2D Width=4 Height=1 Format=R16G16B16A16_FLOAT BindFlags=SHADER_RESOURCE
imm.ResolveSubresource out 0 ms 0 R16G16B16A16_FLOAT
expect pixel out 0 0 == f32[7.25 0 0 1]
expect pixel out 1 0 == f32[2.5 0 0 0.5]
expect pixel out 2 0 == f32[0 0 0 0]
`)
		runOK(t, hlslIn+prelude(1, ps)+`expect pixel ms 0 0 == f32[1 0 0 1]
expect pixel ms 1 0 == f32[0 0 0 0]
`)
	}
}

// TestMultisampleCoverageOutput: SV_Coverage as a pixel shader's output
// (oMask) is ANDed with the pixel's coverage and the sample mask. White
// over black at 4 samples: mask 0b1010 writes two samples of each pixel
// (0x80 resolved, 127.5 rounded; alpha 1 over the clear's 1), with SampleMask 0b0011 one (0x40, 63.75);
// at one sample an even mask leaves the pixel out, an odd one writes it.
func TestMultisampleCoverageOutput(t *testing.T) {
	src := func(n, mask int) string {
		cov := "bytes:" + assembledHex(t, fmt.Sprintf(coverageOutPS, mask))
		if mask&4 != 0 { // the same from HLSL (core/hlsl: dcl_output oMask)
			cov = "hlsl:covout entry=main target=ps_5_0"
		}
		return fmt.Sprintf(`hlsl covout {
float4 main(float4 p : SV_Position, out uint m : SV_Coverage) : SV_Target {
    m = %d & 3;
    return 1;
}
}
`, mask) + msaaPrelude(n) + fmt.Sprintf(`cov = dev.CreatePixelShader %s
full = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.PSSetShader cov
imm.OMSetRenderTargets rtv
imm.IASetVertexBuffers 0 full Stride=36
imm.Draw 6 0
`, cov, msaaRect(-1, -1, 1, 1, 0.5))
	}
	runOK(t, src(4, 0b1010)+`imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 0 0 == #808080ff
expect pixel out 3 0 == #808080ff
b = dev.CreateBlendState
imm.OMSetBlendState b SampleMask=3
imm.ClearRenderTargetView rtv #00000000
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 2 0 == #40404040
`)
	runOK(t, src(1, 0b1010)+"expect pixel ms 1 0 == #000000ff\n")
	runOK(t, src(1, 0b0011)+"expect pixel ms 1 0 == #ffffffff\n")
	// From HLSL: m = mask & 3, 0b0110 & 3 = 2 and 0b0111 & 3 = 3.
	runOK(t, src(1, 0b0110)+"expect pixel ms 1 0 == #000000ff\n")
	runOK(t, src(1, 0b0111)+"expect pixel ms 1 0 == #ffffffff\n")
	runOK(t, src(4, 0b0110)+`imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 2 0 == #404040ff
`)
}
