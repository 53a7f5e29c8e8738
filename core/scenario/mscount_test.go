package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// standardPattern is D3D11_STANDARD_MULTISAMPLE_PATTERN's sample positions
// ("D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS enumeration"), in sixteenths
// of a pixel from its centre, x then y (y down), written from that page
// rather than from the GPU's table: 2 and 4 samples, which this GPU
// renders.
var standardPattern = map[int][][2]int{
	2: {{4, 4}, {-4, -4}},
	4: {{-2, -6}, {6, -2}, {-6, 2}, {2, 6}},
}

// TestSampleCountFromTheView: a Texture2DMS's Load(xy, s),
// GetSamplePosition(s) and GetDimensions use the bound view's sample count,
// whatever count the shader declares (Texture2DMS<float4, N> or
// Texture2DMS<float4>, dcl_resource_texture2dms(0)), as Direct3D 11 does.
// Each sample s of a 2x1 target holds (s+1, 0.5, 0, 1) (a sample-frequency
// fill); the reading shader's row 0 pixel x is (position of sample x,
// samples, width) and row 1 sample x of pixel (0, 0): the standard
// pattern's positions and the samples up to the view's count, then zeros
// (a sample index out of range: samplepos gives a zero vector, ld2dms
// reads outside). With the debug layer, a declared count that differs
// from the view's is reported at the draw (DEVICE_DRAW_RESOURCE_SAMPLE_COUNT_MISMATCH,
// naming the slot, the view and both counts), and the draw still runs.
func TestSampleCountFromTheView(t *testing.T) {
	for _, c := range []struct {
		view  int
		decl  string
		wrong bool // a declared count that is not the view's
	}{
		{4, "<float4, 2>", true},
		{4, "<float4>", false},
		{2, "<float4, 4>", true},
		{2, "<float4, 2>", false},
	} {
		t.Run(fmt.Sprintf("%d samples, Texture2DMS%s", c.view, c.decl), func(t *testing.T) {
			var sb strings.Builder
			fmt.Fprintf(&sb, `hlsl fill {
float4 main(float4 p : SV_Position, uint s : SV_SampleIndex) : SV_Target { return float4(s + 1, 0.5, 0, 1); }
}
hlsl read {
Texture2DMS%s t : register(t0);
float4 main(float4 p : SV_Position) : SV_Target {
    uint x = (uint)p.x;
    uint w, h, n;
    t.GetDimensions(w, h, n);
    if (p.y < 1)
        return float4(t.GetSamplePosition(x), n, w);
    return t.Load(int2(0, 0), x);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
fill = dev.CreatePixelShader hlsl:fill entry=main target=ps_5_0
read = dev.CreatePixelShader hlsl:read entry=main target=ps_5_0
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
ms = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=%d
msrt = dev.CreateRenderTargetView ms
srv = dev.CreateShaderResourceView ms ViewDimension=TEXTURE2DMS
out = dev.CreateTexture2D Width=8 Height=2 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
ort = dev.CreateRenderTargetView out
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader fill
imm.OMSetRenderTargets msrt
imm.RSSetViewports 0 0 2 1
imm.Draw 6 0
imm.OMSetRenderTargets ort
imm.RSSetViewports 0 0 8 2
imm.PSSetShader read
imm.PSSetShaderResources 0 srv
imm.Draw 6 0
expect hr == S_OK
`, c.decl, c.view)
			for x := range 8 {
				pos, load := [2]float32{}, [4]float32{}
				if x < c.view {
					p := standardPattern[c.view][x]
					pos = [2]float32{float32(p[0]) / 16, float32(p[1]) / 16}
					load = [4]float32{float32(x + 1), 0.5, 0, 1}
				}
				fmt.Fprintf(&sb, "expect probe out %d 0 == f32[%g %g %d 2]\n", x, pos[0], pos[1], c.view)
				fmt.Fprintf(&sb, "expect probe out %d 1 == f32[%g %g %g %g]\n", x, load[0], load[1], load[2], load[3])
			}
			r := runOK(t, sb.String())
			var got []string
			for _, m := range r.Summary().Messages {
				if strings.Contains(m, "SAMPLE_COUNT_MISMATCH") {
					got = append(got, m)
				}
			}
			if !c.wrong {
				if len(got) != 0 {
					t.Fatalf("a mismatch reported: %q", got)
				}
				return
			}
			declared := strings.TrimSuffix(strings.TrimPrefix(c.decl, "<float4, "), ">")
			want := []string{"D3D11 ERROR: Draw:", "view srv in slot 0 of the pixel shader stage", fmt.Sprintf("sample count of %d", c.view),
				"pixel shader read", fmt.Sprintf("t0 a Texture2DMS of %s samples", declared), "DEVICE_DRAW_RESOURCE_SAMPLE_COUNT_MISMATCH"}
			if len(got) != 1 {
				t.Fatalf("%d mismatch messages, want 1 (the read draw's): %q", len(got), got)
			}
			for _, w := range want {
				if !strings.Contains(got[0], w) {
					t.Errorf("the message %q does not say %q", got[0], w)
				}
			}
		})
	}
}
