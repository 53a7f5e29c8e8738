package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestThrottle: Dxgkrnl keeps at most 3 presents (DXGI's maximum frame
// latency) and 64 DMA buffers of a context queued; a submission past either
// waits for the oldest fence that brings it back under, saying which limit.
func TestThrottle(t *testing.T) {
	tests := []struct {
		desc, body, limit string
		most              int // queued buffers never more than this
	}{
		// Each frame is two DMA buffers: its draws (pfnRenderCb) and the
		// present's copy (pfnPresentCb).
		{"presents", "repeat 20 {\n imm.ClearRenderTargetView rtv 1 0 0 1\n sc.Present\n}\n", "maximum frame latency", 2 * 3},
		{"flushes", "repeat 200 {\n imm.ClearRenderTargetView rtv 1 0 0 1\n imm.Flush\n}\n", "the most a context may have", 64},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, "dev, imm = D3D11CreateDevice\nsc = dev.CreateSwapChain Width=1024 Height=1024\nbb = sc.GetBuffer 0\nrtv = dev.CreateRenderTargetView bb\n"+tt.body)
			if f := r.Summary().Failures; len(f) > 0 {
				t.Fatal(f)
			}
			var waits, queued, most int
			for _, e := range r.Events() {
				switch {
				case e.Kind == trace.Wait && e.Name == "WaitForFence" && !e.Args.Has(trace.KeyDone) && strings.Contains(e.Msg, tt.limit):
					waits++
				case e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent":
					if e.Kind == trace.Return && e.HR == "STATUS_SUCCESS" {
						queued++
					}
				case e.Kind == trace.Fence && e.Name == "FenceSignaled" && !e.Args.Has(trace.KeyPaging):
					queued--
				}
				most = max(most, queued)
			}
			t.Logf("%d throttling waits, at most %d buffers queued", waits, most)
			if waits == 0 {
				t.Errorf("no WaitForFence naming %q", tt.limit)
			}
			if most > tt.most+1 {
				t.Errorf("%d buffers queued at once, want at most %d (+1 being submitted)", most, tt.most)
			}
		})
	}
}
