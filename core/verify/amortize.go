package verify

import (
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// Rules of "Changes from Direct3D 10" on pfnPerformAmortizedProcessingCb.

// amortizeLimit is how many immediate-context submissions may pass without
// an amortized call ("after it submits a command buffer, or at a similar
// frequency").
const amortizeLimit = 2

// amortizePeriod is the 1 ms example of "Changes from Direct3D 10", in
// virtual nanoseconds. The page gives it as an example and requires the
// driver only to choose which existing pfnRenderCb calls to accompany, so a
// longer busy stretch is a warning (Severity Warning), not a violation.
const amortizePeriod = 1_000_000

type amState struct {
	dcCalls map[string]int // deferred context -> amortized calls since its last FinishCommandList
	listAm  map[string]int // command list -> amortized calls made while it was recorded
	// (per thread: thState's submits, lastAt, work, lastWasAm, drawAt,
	// busyAt and execute)
}

// amInit makes the state's tables once.
func (v *Verifier) amInit() {
	if a := &v.am; a.dcCalls == nil {
		*a = amState{dcCalls: map[string]int{}, listAm: map[string]int{}}
	}
}

func (v *Verifier) amortize(e *trace.Event) []Violation {
	v.amInit()
	var out []Violation
	t := v.ths.of(e.Thread)
	if vs := v.amortizeDC(e, t); len(vs) > 0 {
		out = append(out, vs...)
	}
	switch {
	case e.Kind == trace.Call && e.Name == "pfnPerformAmortizedProcessingCb":
		if t.lastWasAm {
			out = append(out, v.violation(rules.AMBalance, e, "pfnPerformAmortizedProcessingCb twice back to back, with no work between"))
		}
		if p := v.parent(e); p == nil || p.Layer != trace.UMD {
			out = append(out, v.violation(rules.AMSubmit, e, "pfnPerformAmortizedProcessingCb called outside a DDI: it must come from the thread that entered the driver"))
		}
		t.submits, t.lastAt, t.work, t.lastWasAm = 0, e.T, false, true
	case e.Kind == trace.Call && (e.Name == "pfnRenderCb" || e.Name == "pfnPresentCb"):
		t.lastWasAm = false // a submission is work between two calls
	case e.Kind == trace.Call && e.Layer == trace.UMD:
		t.lastWasAm = false
		if e.Ctx == "IC" {
			if e.Name == "Draw" || e.Name == "DrawIndexed" {
				t.drawAt = e.T
			}
			if !t.work {
				t.busyAt = e.T
			}
			t.work = true
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Ctx == "IC" && (e.Name == "Draw" || e.Name == "DrawIndexed"):
		// Busy time only: from the first immediate-context DDI after the
		// last amortized call to this Draw's entry, where the driver could
		// have let the runtime work. An idle stretch (the thread waiting
		// for the GPU after the driver amortized, as with sync=true) does
		// not count, and neither does time inside the Draw itself.
		if gap := t.drawAt - max(t.lastAt, t.busyAt); t.work && gap > amortizePeriod {
			out = append(out, v.warning(rules.AMBalance, e, "a busy immediate context went %d ns without pfnPerformAmortizedProcessingCb. "+
				"1 ms is the example \"Changes from Direct3D 10\" gives (if the driver did not call it in a 1 millisecond time span, it must be time to pump the API); "+
				"the driver is required only to determine which of the existing pfnRenderCb calls should be accompanied by pfnPerformAmortizedProcessingCb", gap))
			t.lastAt = e.T // report once per stretch
		}
	case e.Kind == trace.Return && (e.Name == "pfnRenderCb" || e.Name == "pfnPresentCb") && e.Ctx == "IC":
		t.submits++
		if t.submits == amortizeLimit+1 {
			out = append(out, v.violation(rules.AMSubmit, e, "%d immediate-context submissions without pfnPerformAmortizedProcessingCb: the driver must call it after submitting", amortizeLimit+1))
		}
	}
	return out
}

// execN follows one CommandListExecute: the list and the immediate-context
// submissions inside it.
type execN struct {
	list    string
	renders int
}

// amortizeDC checks AM-DC: a deferred context that runs out of
// command-buffer space calls pfnPerformAmortizedProcessingCb (as often as an
// immediate context would at each submission). The trace shows the space a
// recording took when the list runs: every pfnRenderCb inside its
// CommandListExecute is a command buffer it filled. A list that needed k
// buffers had to let the runtime work at least k-2 times while it was
// recorded (one buffer of slack for what the immediate context already
// held, one for the last, partly filled buffer).
func (v *Verifier) amortizeDC(e *trace.Event, t *thState) []Violation {
	a := &v.am
	switch {
	case e.Kind == trace.Call && e.Name == "pfnPerformAmortizedProcessingCb" && e.Ctx != "IC" && e.Ctx != "":
		a.dcCalls[e.Ctx]++
	case e.Kind == trace.Return && e.Layer == trace.Runtime && e.From == trace.App && e.Name == "FinishCommandList":
		a.listAm[e.Obj] = a.dcCalls[e.Ctx]
		a.dcCalls[e.Ctx] = 0
	case e.Kind == trace.Call && e.Layer == trace.UMD && e.Name == "CommandListExecute":
		t.execute = &execN{list: e.Obj}
	case e.Kind == trace.Call && e.Name == "pfnRenderCb":
		if x := t.execute; x != nil {
			x.renders++
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Name == "CommandListExecute":
		x := t.execute
		t.execute = nil
		if x != nil && x.renders-2 > a.listAm[x.list] {
			return []Violation{v.violation(rules.AMDC, e, "command list %s filled %d command buffers, but its deferred context called pfnPerformAmortizedProcessingCb only %d times while recording it: a deferred context out of space must let the runtime work", x.list, x.renders, a.listAm[x.list])}
		}
	}
	return nil
}
