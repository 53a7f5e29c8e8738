package scenario

import (
	"errors"
	"fmt"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// tdrSetup: device a's next DMA buffer hangs (inject gpu.hang) with more of
// its work queued behind it; device b has work in flight too. tdrRest runs
// once a's thread has seen the TDR: b keeps working.
const tdrSetup = `a, aimm = D3D11CreateDevice
asc = a.CreateSwapChain Width=16 Height=16
abb = asc.GetBuffer 0
artv = a.CreateRenderTargetView abb
astage = a.CreateTexture2D Width=16 Height=16 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ
ev = a.CreateQuery Query=EVENT
b, bimm = D3D11CreateDevice
bsc = b.CreateSwapChain Width=16 Height=16
bbb = bsc.GetBuffer 0
brtv = b.CreateRenderTargetView bbb
inject gpu.hang
aimm.ClearRenderTargetView artv 1 0 0 1
aimm.Flush
bimm.ClearRenderTargetView brtv 0 0 1 1
bimm.Flush
aimm.ClearRenderTargetView artv 0 1 0 1
aimm.CopyResource astage abb
aimm.End ev
`

const tdrSetupCalls = 17 // API calls in tdrSetup

const tdrRest = `bimm.ClearRenderTargetView brtv 0 1 0 1
bsc.Present
expect pixel bbb 3 3 == #00ff00ff
x = a.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
expect hr == DXGI_ERROR_DEVICE_REMOVED
expect violations == 0
`

// TestTDRPolling: a thread polling in a loop at the time of the hang — GetData
// on an EVENT query, Map with DO_NOT_WAIT — is not a wait, yet the hang must
// still be caught (Dxgkrnl's timeout detection runs on the passage of time,
// as Windows' does on a timer): DxgkDdiPreemptCommand, DxgkDdiResetEngine,
// device a removed, the loop ends with
// DXGI_ERROR_DEVICE_REMOVED, every fence of a is cancelled, b keeps running.
func TestTDRPolling(t *testing.T) {
	tests := []struct {
		desc string
		poll func(r *Run) (hresult.HRESULT, error)
	}{
		{"GetData loop", func(r *Run) (hresult.HRESULT, error) {
			_, hr, err := r.vars["aimm"].(*d3d11.DeviceContext).GetData(r.vars["ev"].(*d3d11.Query))
			return hr, err
		}},
		{"Map DO_NOT_WAIT loop", func(r *Run) (hresult.HRESULT, error) {
			ctx, stage := r.vars["aimm"].(*d3d11.DeviceContext), r.vars["astage"].(*d3d11.Resource)
			_, err := ctx.Map(stage, d3d11.MapRead, d3d11.MapFlagDoNotWait)
			if err == nil {
				ctx.Unmap(stage)
			}
			return hresult.Of(err), err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("tdr.d3ds", []byte(tdrSetup+tdrRest))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			if r.Step(tdrSetupCalls); r.done {
				t.Fatalf("setup ended the run: %q", r.Summary().Failures)
			}
			// The application polls about once a frame: 1 ms of its own
			// work between polls; the TDR delay is 2 s.
			polls := 0
			var hr hresult.HRESULT
			for ; polls < 10_000; polls++ {
				r.sim.Charge(1_000_000)
				hr, err = tt.poll(r)
				if hr != hresult.S_FALSE && hr != hresult.DXGI_ERROR_WAS_STILL_DRAWING {
					break
				}
			}
			if hr != hresult.DXGI_ERROR_DEVICE_REMOVED || !errors.Is(err, hresult.DXGI_ERROR_DEVICE_REMOVED) {
				t.Fatalf("after %d polls: %v, %v; want DXGI_ERROR_DEVICE_REMOVED", polls, hr, err)
			}
			if polls < 1900 || polls > 2200 {
				t.Errorf("the hang was caught after %d polls of 1 ms; the TDR delay is 2 s", polls)
			}
			sum := r.Finish()
			if !sum.OK() {
				t.Fatalf("failures %q", sum.Failures)
			}
			checkTDR(t, r)
		})
	}
}

// TestTDRBlockedThreads: scenario threads blocked in Map and in a wait for
// a signal when the GPU hangs: the Map returns DXGI_ERROR_DEVICE_REMOVED, no
// thread waits forever, b keeps running.
func TestTDRBlockedThreads(t *testing.T) {
	src := tdrSetup + `thread reader {
  aimm.Map astage READ
  expect hr == DXGI_ERROR_DEVICE_REMOVED
  signal read
}
thread drawer {
  wait read
  bimm.ClearRenderTargetView brtv 1 1 0 1
  bsc.Present
  signal drawn
}
wait drawn
expect pixel bbb 3 3 == #ffff00ff
` + tdrRest
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures %q", sum.Failures)
	}
	checkTDR(t, r)
}

// checkTDR: the reset DDIs ran once, only a was removed, and every fence any
// context was given is signalled or cancelled — nobody can wait for it
// forever.
func checkTDR(t *testing.T, r *Run) {
	t.Helper()
	count := map[string]int{}
	given := map[string]bool{}
	ended := map[string]bool{}
	for _, e := range r.Events() {
		key := fmt.Sprintf("%s/%d", e.Handle, e.Fence)
		switch {
		case e.Kind == trace.Call:
			count[e.Name]++
		case e.Kind == trace.Return && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") && e.Fence != 0:
			given[key] = true
		case e.Kind == trace.Fence && (e.Name == "FenceSignaled" || e.Name == "FenceCancelled") && e.Fence != 0:
			ended[key] = true
		}
	}
	// The driver reports SupportPerEngineTDR: the engine is reset, not the
	// adapter ("TDR changes in Windows 8").
	// Every DxgkDdiResetEngine comes with a DxgkDdiQueryDependentEngineGroup,
	// and the scheduler asks the node's status first
	// ("DXGKDDI_QUERYDEPENDENTENGINEGROUP callback function").
	if count["DxgkDdiPreemptCommand"] != 1 || count["DxgkDdiResetEngine"] != 1 || count["DxgkDdiResetFromTimeout"] != 0 ||
		count["DxgkDdiQueryEngineStatus"] != 1 || count["DxgkDdiQueryDependentEngineGroup"] != 1 {
		t.Errorf("DxgkDdiPreemptCommand %d times, DxgkDdiQueryEngineStatus %d, DxgkDdiQueryDependentEngineGroup %d, DxgkDdiResetEngine %d, DxgkDdiResetFromTimeout %d; want 1, 1, 1, 1, 0",
			count["DxgkDdiPreemptCommand"], count["DxgkDdiQueryEngineStatus"], count["DxgkDdiQueryDependentEngineGroup"], count["DxgkDdiResetEngine"], count["DxgkDdiResetFromTimeout"])
	}
	if len(given) < 3 {
		t.Errorf("only %d fences given: the test does not queue work behind the hang", len(given))
	}
	for k := range given {
		if !ended[k] {
			t.Errorf("fence %s was neither signalled nor cancelled", k)
		}
	}
	if r.vars["a"].(*d3d11.Device).Removed() == nil || r.vars["b"].(*d3d11.Device).Removed() != nil {
		t.Errorf("removed: a %v, b %v; want only a", r.vars["a"].(*d3d11.Device).Removed(), r.vars["b"].(*d3d11.Device).Removed())
	}
	if hr := hresult.Of(r.vars["a"].(*d3d11.Device).GetDeviceRemovedReason()); hr != hresult.DXGI_ERROR_DEVICE_HUNG {
		t.Errorf("a.GetDeviceRemovedReason: %v, want DXGI_ERROR_DEVICE_HUNG", hr)
	}
}
