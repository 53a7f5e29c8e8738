package verify

import (
	"testing"

	"d3dsim/core/trace"
)

// TestViolationsBounded: a rule broken in a loop is counted, not kept
// without bound; a rule broken first after the others is still kept.
func TestViolationsBounded(t *testing.T) {
	rec := trace.NewRecorder(nil, nil)
	v := New(rec)
	// pfnPresentCb outside PresentDXGI breaks FT-PRESENT each time.
	const n = 5000
	for i := 0; i < n; i++ {
		rec.Emit(trace.Event{Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: "pfnPresentCb", Ctx: "IC"})
		rec.Emit(trace.Event{Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: "pfnPresentCb", Ctx: "IC"})
		if i%500 == 0 {
			v.Poll()
		}
	}
	v.Poll()
	rulesSeen := map[string]bool{}
	for _, x := range v.Violations() {
		rulesSeen[x.Rule] = true
	}
	if v.Count() < n || !rulesSeen["FT-PRESENT"] {
		t.Fatalf("Count %d, want at least %d FT-PRESENT", v.Count(), n)
	}
	if k := len(v.Violations()); k > maxKept+len(rulesSeen) {
		t.Errorf("kept %d violations, want at most %d", k, maxKept+len(rulesSeen))
	}
	before := v.Count()
	// Another rule, broken after: kept.
	rec.Emit(trace.Event{Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Call, Name: "pfnSetDisplayModeCb", Ctx: "IC"})
	rec.Emit(trace.Event{Thread: "main", From: trace.UMD, Layer: trace.Runtime, Kind: trace.Return, Name: "pfnSetDisplayModeCb", Ctx: "IC"})
	v.Poll()
	last := v.Violations()[len(v.Violations())-1]
	if last.Rule != "FT-MODE" || v.Count() <= before {
		t.Errorf("the first FT-MODE after %d others: last kept %s, count %d", n, last.Rule, v.Count())
	}
}
