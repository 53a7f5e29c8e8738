package verify

import (
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// TestAmortizeSeverity: "Changes from Direct3D 10" requires the driver to
// call pfnPerformAmortizedProcessingCb after immediate-context submissions
// (or at a similar frequency) and gives 1 ms only as an example, so a busy
// stretch longer than 1 ms is a warning, worded as the page words it, and
// never a violation; three submissions without a call stay an error.
func TestAmortizeSeverity(t *testing.T) {
	tests := []struct {
		desc         string
		gap          int64 // ns between the first DDI and the Draw
		submits      int
		wantErrors   int
		wantWarnings int
	}{
		{"busy 0.5 ms", 500_000, 0, 0, 0},
		{"busy 3 ms: a warning", 3_000_000, 0, 0, 1},
		{"three submissions without a call: an error", 0, 3, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			var now int64
			rec := trace.NewRecorder(func() int64 { return now }, func() string { return "main" })
			emit := func(k trace.Kind, l, from trace.Layer, name string) {
				rec.Emit(trace.Event{Kind: k, Layer: l, From: from, Name: name, Ctx: "IC"})
			}
			emit(trace.Call, trace.UMD, trace.Runtime, "IASetVertexBuffers")
			emit(trace.Return, trace.UMD, trace.Runtime, "IASetVertexBuffers")
			for i := 0; i < tt.submits; i++ {
				emit(trace.Call, trace.UMD, trace.Runtime, "Flush")
				emit(trace.Call, trace.Runtime, trace.UMD, "pfnRenderCb")
				emit(trace.Return, trace.Runtime, trace.UMD, "pfnRenderCb")
				emit(trace.Return, trace.UMD, trace.Runtime, "Flush")
			}
			now += tt.gap
			emit(trace.Call, trace.UMD, trace.Runtime, "Draw")
			emit(trace.Return, trace.UMD, trace.Runtime, "Draw")
			v := New(rec)
			v.Poll()
			errs := 0
			for _, f := range v.Violations() { // warnings are listed with the violations
				if f.Severity == Error {
					errs++
				}
			}
			if errs != tt.wantErrors || v.Count() != tt.wantErrors {
				t.Errorf("violations %v (Count %d), want %d", v.Violations(), v.Count(), tt.wantErrors)
			}
			ws := v.Warnings()
			if len(ws) != tt.wantWarnings {
				t.Fatalf("warnings %v, want %d", ws, tt.wantWarnings)
			}
			for _, w := range ws {
				if w.Rule != "AM-BALANCE" || w.Severity != Warning || !strings.Contains(w.Msg, "1 millisecond") || !strings.Contains(w.Msg, "existing pfnRenderCb") {
					t.Errorf("warning %v: want AM-BALANCE in the page's words", w)
				}
			}
		})
	}
}
