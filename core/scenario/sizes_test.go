package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestSizesAsked: the runtime uses the sizes it asks the driver for. Each
// object's driver part is allocated with CalcPrivate*Size's answer (traced
// on the DDI's Return); CheckDeferredContextHandleSizes' array makes the
// context-local handle allocator's pools; a deferred context's handles take
// slots of CalcDeferredContextHandleSize's sizes (the UMD's: 64 for a
// resource, 32 for a view), which stay until the amortized processing after
// the next submission trims them, freeing what TrimHighWaterMarks reports.
func TestSizesAsked(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
vs = dev.CreateVertexShader builtin:vs_passthrough
q = dev.CreateQuery Query=EVENT
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView rtv 0 0 0 1
cl = dc.FinishCommandList FALSE
imm.ExecuteCommandList cl FALSE
imm.Flush
expect violations == 0
`
	r := runSource(t, src)
	if s := r.Summary(); !s.OK() {
		t.Fatalf("%s", strings.Join(s.Failures, "\n"))
	}
	want := map[string]int64{"CalcPrivateResourceSize": 256, "CalcPrivateRenderTargetViewSize": 64, "CalcPrivateShaderSize": 128, "CalcPrivateQuerySize": 96}
	got := map[string]int64{}
	trims := []string{}
	for _, e := range r.Events() {
		if e.Kind == trace.Return && want[e.Name] != 0 {
			got[e.Name], _ = e.Args.Int(trace.KeySize)
		}
		if e.Name == "TrimHighWaterMarks" {
			trims = append(trims, e.Msg)
		}
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s returns size=%d, want %d", name, got[name], w)
		}
	}
	// The list's two handles (t: 64 bytes, rtv: 32) closed at
	// FinishCommandList; the Flush's amortized processing frees them.
	if !strings.Contains(strings.Join(trims, "\n"), "trimmed from 2 to 0 slots, 96 bytes freed") {
		t.Errorf("trims %q: none frees the two handles' 96 bytes", trims)
	}
	dev := r.mach.Runtime().Devices()[0]
	if n := dev.CLSBytes(); n != 0 {
		t.Errorf("the allocator holds %d bytes after the trim", n)
	}
	sizes := map[int]bool{}
	for _, p := range dev.CLSPools() {
		sizes[p.Size] = true
	}
	for _, s := range []int{64, 32, 48, 16, 128} { // the UMD's CheckDeferredContextHandleSizes array
		if !sizes[s] {
			t.Errorf("no pool of %d bytes: %v", s, dev.CLSPools())
		}
	}
}
