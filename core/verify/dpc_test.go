package verify

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestDpcNotifies: a DPC that returns without DxgkCbNotifyDpc breaks
// WDDM-FLOW; one that calls it does not.
func TestDpcNotifies(t *testing.T) {
	for _, notify := range []bool{true, false} {
		rec := trace.NewRecorder(nil, nil)
		v := New(rec)
		rec.Emit(trace.Event{Thread: "dpc", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Call, Name: "DxgkDdiDpcRoutine"})
		if notify {
			rec.Emit(trace.Event{Thread: "dpc", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Call, Name: "DxgkCbNotifyDpc"})
			rec.Emit(trace.Event{Thread: "dpc", From: trace.KMD, Layer: trace.Dxgkrnl, Kind: trace.Return, Name: "DxgkCbNotifyDpc"})
		}
		rec.Emit(trace.Event{Thread: "dpc", From: trace.Dxgkrnl, Layer: trace.KMD, Kind: trace.Return, Name: "DxgkDdiDpcRoutine"})
		v.Poll()
		var got []string
		for _, x := range v.Violations() {
			got = append(got, x.Rule+": "+x.Msg)
		}
		flagged := len(got) == 1 && strings.Contains(got[0], "WDDM-FLOW: DxgkDdiDpcRoutine returned without calling DxgkCbNotifyDpc")
		if notify && len(got) != 0 || !notify && !flagged {
			t.Errorf("notify=%v: violations %q", notify, got)
		}
	}
}
