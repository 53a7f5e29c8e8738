package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestSwapChainFormats: a swap chain's buffers may be any format the
// display scans out ("DXGI_SWAP_CHAIN_DESC1": R16G16B16A16_FLOAT,
// B8G8R8A8_UNORM, R8G8B8A8_UNORM, R10G10B10A2_UNORM for the flip model; the
// bitblt model also the _SRGB 8-bit ones), and the presented frame shows
// the cleared colour as a display would: 8- and 10-bit UNORM as their
// value, _SRGB as the encoded bytes the clear stored, a float buffer as
// linear scRGB encoded for an sRGB display. The expected bytes are worked
// out here from the formulas, not by the simulator's codecs.
func TestSwapChainFormats(t *testing.T) {
	srgb := func(l float64) byte { // IEC 61966-2-1
		if l <= 0.0031308 {
			return byte(math.Round(255 * 12.92 * l))
		}
		return byte(math.Round(255 * (1.055*math.Pow(l, 1/2.4) - 0.055)))
	}
	unorm := []byte{128, 64, 255, 255} // 0.5, 0.25, 1, 1 at 8 bits (and 10 bits' top 8)
	encoded := []byte{srgb(0.5), srgb(0.25), 255, 255}
	for _, tc := range []struct {
		format, effect string
		want           []byte
	}{
		{"R8G8B8A8_UNORM", "DISCARD", unorm},
		{"B8G8R8A8_UNORM", "DISCARD", unorm},
		{"B8G8R8A8_UNORM", "FLIP_DISCARD", unorm},
		{"R10G10B10A2_UNORM", "FLIP_SEQUENTIAL", unorm},
		{"R10G10B10A2_UNORM", "SEQUENTIAL", unorm},
		{"R16G16B16A16_FLOAT", "FLIP_DISCARD", encoded},
		{"R16G16B16A16_FLOAT", "DISCARD", encoded},
		{"R8G8B8A8_UNORM_SRGB", "DISCARD", encoded},
		{"B8G8R8A8_UNORM_SRGB", "SEQUENTIAL", encoded},
	} {
		name := tc.format + " " + tc.effect
		r := mustRun(t, fmt.Sprintf(`dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=4 Height=4 BufferCount=2 SwapEffect=%s Format=%s
sc.GetDesc
expect got == 4 4 %s 2 %s TRUE
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.ClearRenderTargetView rtv 0.5 0.25 1 1
sc.Present 1
bb2 = sc.GetBuffer 0
rtv2 = dev.CreateRenderTargetView bb2
imm.ClearRenderTargetView rtv2 0.5 0.25 1 1
sc.Present 1
`, tc.effect, tc.format, tc.format, tc.effect))
		f, ok := r.LastFrame()
		if !ok {
			t.Fatalf("%s: no frame presented", name)
		}
		if got := f.Pix[4*(4*2+1) : 4*(4*2+1)+4]; string(got) != string(tc.want) {
			t.Errorf("%s: the display shows %v at (1, 2), want %v", name, got, tc.want)
		}
	}
}

// TestSwapChainFormatRefusals: what a swap chain cannot be is refused with
// DXGI_ERROR_INVALID_CALL and the debug layer's reason, at creation and in
// ResizeBuffers; NewFormat changes the buffers' format.
func TestSwapChainFormatRefusals(t *testing.T) {
	r := mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=4 Height=4 BufferCount=2 SwapEffect=FLIP_DISCARD Format=R8G8B8A8_UNORM_SRGB
expect hr == DXGI_ERROR_INVALID_CALL
sc = dev.CreateSwapChain Width=4 Height=4 Format=R32_FLOAT
expect hr == DXGI_ERROR_INVALID_CALL
sc = dev.CreateSwapChain Width=4 Height=4 BufferCount=2 SwapEffect=FLIP_DISCARD
sc.ResizeBuffers NewFormat=B8G8R8A8_UNORM_SRGB
expect hr == DXGI_ERROR_INVALID_CALL
sc.ResizeBuffers NewFormat=R10G10B10A2_UNORM
expect hr == S_OK
sc.GetDesc
expect got == 4 4 R10G10B10A2_UNORM 2 FLIP_DISCARD TRUE
sc.ResizeBuffers Width=8
sc.GetDesc
expect got == 8 4 R10G10B10A2_UNORM 2 FLIP_DISCARD TRUE
`)
	msgs := strings.Join(r.Summary().Messages, "\n")
	for _, want := range []string{
		"Format R8G8B8A8_UNORM_SRGB: a flip-model swap chain's buffers are R16G16B16A16_FLOAT, B8G8R8A8_UNORM, R8G8B8A8_UNORM or R10G10B10A2_UNORM",
		"Format R32_FLOAT: not a format the display scans out",
		"NewFormat B8G8R8A8_UNORM_SRGB: a flip-model swap chain's buffers are",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no message %q in\n%s", want, msgs)
		}
	}
}
