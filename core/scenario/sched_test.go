package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// schedSrc: two independent render targets, one DMA buffer per Flush, on a
// GPU with two engines; the last statement follows a buffer from
// pfnRenderCb to the GPU.
const schedSrc = `option gpu.engines=2
%s
dev, imm = D3D11CreateDevice
big = dev.CreateTexture2D Width=256 Height=256 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET
small = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET
rtvBig = dev.CreateRenderTargetView big
rtvSmall = dev.CreateRenderTargetView small
imm.ClearRenderTargetView rtvBig 1 0 0 1
imm.Flush
imm.ClearRenderTargetView rtvSmall 0 0 1 1
imm.Flush
imm.ClearRenderTargetView rtvBig 0 1 0 1
imm.Flush
expect calls Flush pfnRenderCb DxgkDdiRender DxgkDdiPatch DxgkDdiSubmitCommand
expect pixel big 1 1 == #00ff00ff
expect pixel small 1 1 == #0000ffff
expect violations == 0
`

// TestSchedulerOption pins Windows' scheduling as the default: the one
// context of the device runs on one node and its DMA buffers start in
// submission order even though the second buffer is independent and an
// engine is idle ("Submitting a Command Buffer"; D3DDDICB_CREATECONTEXT's
// NodeOrdinal). scheduler=salvia, and its older name ooo=true, is the
// SamBookshelf article's design: the independent buffer runs on the other
// engine and overtakes.
func TestSchedulerOption(t *testing.T) {
	tests := []struct {
		desc, option string
		salvia       bool
	}{
		{"default", "", false},
		{"scheduler=wddm", "option scheduler=wddm", false},
		{"scheduler=salvia", "option scheduler=salvia", true},
		{"ooo=true is its alias", "option ooo=true", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, strings.Replace(schedSrc, "%s", tt.option, 1))
			if s := r.Summary(); !s.OK() {
				t.Fatalf("failures: %v", s.Failures)
			}
			var dma []uint64 // the context's buffers, in submission order
			started := map[uint64]string{}
			var order []uint64
			deps := 0
			for _, e := range r.Events() {
				switch {
				case e.Name == "pfnRenderCb" && e.Fence != 0:
					t.Errorf("pfnRenderCb carries fence %d: D3DDDICB_RENDER has none", e.Fence)
				case e.Name == "DxgkDdiRender" && e.Kind == trace.Return:
					dma = append(dma, e.DMA)
				case e.Name == "DmaBufferStart":
					started[e.DMA] = e.Thread
					order = append(order, e.DMA)
				case e.Kind == trace.Dep:
					deps++
				}
			}
			if len(dma) != 3 {
				t.Fatalf("%d DMA buffers, want 3", len(dma))
			}
			pos := map[uint64]int{}
			for i, id := range order {
				pos[id] = i
			}
			inOrder := pos[dma[0]] < pos[dma[1]] && pos[dma[1]] < pos[dma[2]]
			engines := map[string]bool{}
			for _, id := range dma {
				engines[started[id]] = true
			}
			switch {
			case !tt.salvia && (!inOrder || len(engines) != 1 || deps != 0):
				t.Errorf("WDDM: starts %v on %v, %d dep events: want the context's buffers in submission order on one engine", order, started, deps)
			case tt.salvia && (len(engines) != 2 || deps == 0):
				t.Errorf("SALVIA: the context's buffers ran on %v with %d dep events: want both engines and the dependency graph", engines, deps)
			}
		})
	}
}

// TestSubmissionFenceIDs: Dxgkrnl gives DxgkDdiPatch and DxgkDdiSubmitCommand
// the same SubmissionFenceId, counted per node from 1 with paging buffers
// ("Supplying Fence Identifiers"); the ISR reports it per node.
func TestSubmissionFenceIDs(t *testing.T) {
	r := runSource(t, strings.Replace(schedSrc, "%s", "option scheduler=salvia", 1))
	if s := r.Summary(); !s.OK() {
		t.Fatalf("failures: %v", s.Failures)
	}
	patched := map[uint64]uint64{}
	last := map[int64]uint64{}
	notified := map[int64]uint64{}
	for _, e := range r.Events() {
		if e.Kind != trace.Call {
			continue
		}
		sub, hasSub := e.Args.Uint(trace.KeySubfence)
		eng, hasEng := e.Args.Int(trace.KeyEngine)
		switch e.Name {
		case "DxgkDdiPatch", "DxgkDdiSubmitCommand":
			if !hasSub || !hasEng {
				t.Fatalf("%s of DMA %d: args %q lack engine= and subfence=", e.Name, e.DMA, e.Args)
			}
		}
		switch e.Name {
		case "DxgkDdiPatch":
			patched[e.DMA] = sub
		case "DxgkDdiSubmitCommand":
			if sub != last[eng]+1 {
				t.Errorf("DMA %d on engine %d: submission fence %d after %d", e.DMA, eng, sub, last[eng])
			}
			last[eng] = sub
			if p, ok := patched[e.DMA]; ok && p != sub {
				t.Errorf("DMA %d: DxgkDdiPatch got %d, DxgkDdiSubmitCommand %d", e.DMA, p, sub)
			}
		case "DxgkCbNotifyInterrupt":
			notified[eng] = max(notified[eng], sub)
		}
	}
	if len(patched) != 3 || last[0] == 0 || last[1] == 0 {
		t.Errorf("%d patched buffers, last ids per engine %v: want 3 and ids on both engines", len(patched), last)
	}
	for eng, n := range last {
		if notified[eng] != n {
			t.Errorf("engine %d: DxgkCbNotifyInterrupt reported up to %d, the last submission had %d", eng, notified[eng], n)
		}
	}
}

// TestSchedulerOptionBadValue: a value the option does not know is bad
// input naming the line.
func TestSchedulerOptionBadValue(t *testing.T) {
	_, err := Load("t.d3ds", []byte("option scheduler=fast\ndev, imm = D3D11CreateDevice\n"))
	if err == nil || !strings.Contains(err.Error(), "scheduler") {
		t.Fatalf("Load: %v, want an error about option scheduler", err)
	}
}
