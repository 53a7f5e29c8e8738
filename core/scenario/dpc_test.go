package scenario

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestInterruptAndDPCCarryTheirBuffer: the ISR and DPC events name the DMA
// buffer they serve, so `expect calls` after a Present follows it through
// the last steps of the WDDM operation flow (the interrupt, the driver's
// DxgkCbNotifyInterrupt and DxgkCbQueueDpc, the DPC) — and fails when a
// step is missing.
func TestInterruptAndDPCCarryTheirBuffer(t *testing.T) {
	const src = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=16 Height=16
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.ClearRenderTargetView rtv 1 0 0 1
sc.Present 0
expect calls Present pfnPresentCb DxgkDdiPresent DxgkDdiSubmitCommand DxgkDdiInterruptRoutine DxgkCbNotifyInterrupt DxgkCbQueueDpc DxgkDdiDpcRoutine %s
expect pixel bb 0 0 == #ff0000ff
`
	run := func(extra string) (Summary, *Run) {
		t.Helper()
		s, err := Load("dpc", []byte(strings.Replace(src, "%s", extra, 1)))
		if err != nil {
			t.Fatal(err)
		}
		r := NewRun(s, Overrides{})
		return r.Finish(), r
	}
	sum, r := run("")
	if !sum.OK() {
		t.Fatalf("the Present is not followed to its DPC: %v", sum.Failures)
	}
	var present uint64
	for _, e := range r.Events() {
		if e.Name == "DxgkDdiPresent" && e.Kind == trace.Call {
			present = e.DMA
		}
	}
	for _, name := range []string{"DxgkDdiInterruptRoutine", "DxgkCbQueueDpc", "DxgkDdiDpcRoutine"} {
		found := false
		for _, e := range r.Events() {
			found = found || e.Name == name && e.Kind == trace.Call && e.DMA == present && e.Fence != 0
		}
		if !found {
			t.Errorf("no %s event carries the Present's DMA buffer %d and its fence", name, present)
		}
	}
	if sum, _ := run("DxgkDdiNoSuchStep"); sum.OK() {
		t.Error("an expect calls naming a step that never comes passed")
	}
}
