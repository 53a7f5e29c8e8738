package scenario

import (
	"strings"
	"testing"
)

// offerSrc offers texture a, then four more 256 KiB render targets fill
// the 1 MiB of VRAM: a is evicted first and its content dropped.
const offerSrc = `option gpu.vram=1MiB
dev, imm = D3D11CreateDevice
a = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
ra = dev.CreateRenderTargetView a
imm.ClearRenderTargetView ra 1 0 0 1
imm.Flush
dev.OfferResources a Priority=LOW
expect calls OfferResources OfferResourcesDXGI pfnOfferAllocationsCb AllocationOffered
b = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rb = dev.CreateRenderTargetView b
c = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rc = dev.CreateRenderTargetView c
d = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rd = dev.CreateRenderTargetView d
e = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
re = dev.CreateRenderTargetView e
imm.ClearRenderTargetView rb 0 1 0 1
imm.ClearRenderTargetView rc 0 1 0 1
imm.ClearRenderTargetView rd 0 1 0 1
imm.ClearRenderTargetView re 0 1 0 1
expect pixel e 0 0 == #00ff00ff
dev.ReclaimResources a b
`

// TestOfferReclaimScenario: the language's OfferResources and
// ReclaimResources; what ReclaimResources returns is expect got's, and an
// offered texture evicted under pressure reads back as zero (its content
// was dropped, not paged out). A resource never offered cannot be
// reclaimed (the simulator refuses it: E_INVALIDARG).
func TestOfferReclaimScenario(t *testing.T) {
	r := runSource(t, strings.Replace(offerSrc, "dev.ReclaimResources a b\n", "dev.ReclaimResources a\nexpect calls ReclaimResources ReclaimResourcesDXGI pfnReclaimAllocationsCb AllocationReclaimed\nexpect got == TRUE\nexpect pixel a 0 0 == #00000000\n", 1))
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	r = runSource(t, strings.Replace(offerSrc, "dev.ReclaimResources a b\n", "dev.ReclaimResources a b\nexpect hr == E_INVALIDARG\n", 1))
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	// Not offered: the least recently used texture is paged out whole.
	r = runSource(t, strings.Replace(strings.Replace(offerSrc, "dev.OfferResources a Priority=LOW\nexpect calls OfferResources OfferResourcesDXGI pfnOfferAllocationsCb AllocationOffered\n", "", 1),
		"dev.ReclaimResources a b\n", "expect pixel a 0 0 == #ff0000ff\n", 1))
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	if _, err := Load("t.d3ds", []byte("dev, imm = D3D11CreateDevice\nt = dev.CreateTexture2D Width=4 Height=4\ndev.OfferResources t Priority=URGENT\n")); err == nil {
		t.Error("Priority=URGENT loads")
	}
}
