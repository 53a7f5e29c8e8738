package scenario

import (
	"strings"
	"testing"
)

// TestRenderThenPresent: PresentDXGI submits the frame's render data with
// pfnRenderCb before pfnPresentCb ("DXGI_DDI_BASE_FUNCTIONS"), so the copy
// or flip shows the frame. With bug=WDDM-PRESENT the driver presents first:
// the verifier reports the late pfnRenderCb (rule WDDM-PRESENT), and what the
// display shows is the back buffer before this frame's clear.
func TestRenderThenPresent(t *testing.T) {
	for _, effect := range []string{"SEQUENTIAL", "FLIP_SEQUENTIAL BufferCount=2"} {
		src := "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=8 Height=8 SwapEffect=" + effect +
			"\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\nimm.ClearRenderTargetView rtv 1 0 0 1\nsc.Present 0\n"
		for _, bug := range []bool{false, true} {
			name := effect + map[bool]string{false: "", true: " bug=WDDM-PRESENT"}[bug]
			t.Run(name, func(t *testing.T) {
				s := src
				if bug {
					s = "option bug=WDDM-PRESENT\n" + s
				}
				r := runSource(t, s)
				late := 0
				for _, v := range r.Violations() {
					if v.Rule == "WDDM-PRESENT" && strings.Contains(v.Msg, "pfnRenderCb after pfnPresentCb") {
						late++
					}
				}
				if want := map[bool]int{false: 0, true: 1}[bug]; late != want {
					t.Errorf("%d late-pfnRenderCb violations, want %d", late, want)
				}
				f := r.Frames()
				if len(f) != 1 {
					t.Fatalf("%d frames, want 1", len(f))
				}
				red := f[0].Pix[0] == 0xff && f[0].Pix[1] == 0 && f[0].Pix[2] == 0
				if red == bug {
					t.Errorf("frame's first pixel %v: want the clear (red) %v", f[0].Pix[:4], !bug)
				}
			})
		}
	}
}
