package machine

import (
	"strings"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// TestOfferReclaim: IDXGIDevice2::OfferResources and ReclaimResources
// ("Video Memory Offer and Reclaim") through every layer: the driver's
// pfnOfferResources, pfnOfferAllocationsCb, Dxgkrnl. With 1 MiB of VRAM,
// four more 256 KiB render targets push one allocation out. Offered, the
// texture is evicted first, its content dropped (DxgkDdiBuildPagingBuffer
// DISCARD_CONTENT, no TRANSFER to its backing store), and ReclaimResources
// says so: its bytes are zero. Not offered, the least recently used
// allocation is paged out whole and keeps its bytes. Offered and reclaimed
// without pressure, nothing is lost.
func TestOfferReclaim(t *testing.T) {
	red := [4]float32{1, 0, 0, 1}
	for _, tt := range []struct {
		desc             string
		offer, pressure  bool
		discarded, isRed bool
	}{
		{"offered under pressure", true, true, true, false},
		{"not offered under pressure", false, true, false, true},
		{"offered without pressure", true, false, false, true},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			c := config()
			c.VRAM = 1 << 20
			m := New(c)
			dev, imm, err := m.Runtime().D3D11CreateDevice("dev", 0)
			if err != nil {
				t.Fatal(err)
			}
			target := func(name string) *d3d11.Resource {
				tex, err := dev.CreateTexture2D(name, d3d11.Texture2DDesc{Width: 256, Height: 256, Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget}, nil)
				if err != nil {
					t.Fatal(err)
				}
				rtv, err := dev.CreateView(name+".rtv", ddi.ViewRTV, tex)
				if err != nil {
					t.Fatal(err)
				}
				imm.ClearRenderTargetView(rtv, red)
				imm.Flush()
				m.Idle()
				return tex
			}
			a := target("a")
			if tt.offer {
				if err := dev.OfferResources([]*d3d11.Resource{a}, 1); err != nil {
					t.Fatal(err)
				}
			}
			if tt.pressure {
				for _, n := range []string{"b", "c", "d", "e"} {
					target(n)
				}
			}
			if tt.offer {
				d, err := dev.ReclaimResources([]*d3d11.Resource{a})
				if err != nil {
					t.Fatal(err)
				}
				if d[0] != tt.discarded {
					t.Errorf("discarded %v, want %v", d[0], tt.discarded)
				}
			} else if _, err := dev.ReclaimResources([]*d3d11.Resource{a}); err == nil {
				t.Error("ReclaimResources of a resource never offered succeeded")
			}
			data, err := m.ReadBack(a)
			if err != nil {
				t.Fatal(err)
			}
			if isRed := data[0] == 255 && data[3] == 255; isRed != tt.isRed {
				t.Errorf("a's first texel %v: red %v, want %v", data[:4], isRed, tt.isRed)
			}
			var discard, calls int
			for _, e := range m.Recorder().Events() {
				if e.Kind == trace.Call && e.Name == "DxgkDdiBuildPagingBuffer" && e.Obj == "a" && strings.Contains(e.Msg, "offered") {
					discard++
				}
				if e.Kind == trace.Call && (e.Name == "pfnOfferAllocationsCb" || e.Name == "pfnReclaimAllocationsCb" || e.Name == "OfferResourcesDXGI") {
					calls++
				}
			}
			if want := map[bool]int{true: 1}[tt.discarded]; discard != want {
				t.Errorf("%d evictions of offered a, want %d", discard, want)
			}
			if want := map[bool]int{true: 3, false: 1}[tt.offer]; calls != want { // (a refused reclaim still calls pfnReclaimAllocationsCb)
				t.Errorf("%d offer and reclaim calls, want %d", calls, want)
			}
		})
	}
}
