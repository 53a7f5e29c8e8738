package verify

import "d3dsim/core/trace"

// Rules of seed 000 on pfnPerformAmortizedProcessingCb.

// amortizeLimit is how many immediate-context submissions may pass without
// an amortized call ("after it submits a command buffer, or at a similar
// frequency").
const amortizeLimit = 2

// amortizePeriod is seed 000's 1 ms, in virtual nanoseconds.
const amortizePeriod = 1_000_000

type amState struct {
	submits   map[string]int   // thread -> IC submissions since its last amortized call
	lastAt    map[string]int64 // thread -> time of its last amortized call
	work      map[string]bool  // thread -> immediate-context DDI work since then
	lastWasAm map[string]bool  // thread -> no DDI since the last amortized call
	drawAt    map[string]int64 // thread -> entry time of the Draw it is in
	busyAt    map[string]int64 // thread -> entry of its first immediate-context DDI since its last amortized call
}

func (v *Verifier) amortize(e *trace.Event) []Violation {
	a := &v.am
	if a.submits == nil {
		*a = amState{submits: map[string]int{}, lastAt: map[string]int64{}, work: map[string]bool{}, lastWasAm: map[string]bool{}, drawAt: map[string]int64{}, busyAt: map[string]int64{}}
	}
	var out []Violation
	th := e.Thread
	switch {
	case e.Kind == trace.Call && e.Name == "pfnPerformAmortizedProcessingCb":
		if a.lastWasAm[th] {
			out = append(out, v.violation("AM-BALANCE", e, "pfnPerformAmortizedProcessingCb twice back to back, with no work between"))
		}
		if p := v.parent(e); p == nil || p.Layer != trace.UMD {
			out = append(out, v.violation("AM-SUBMIT", e, "pfnPerformAmortizedProcessingCb called outside a DDI: it must come from the thread that entered the driver"))
		}
		a.submits[th], a.lastAt[th], a.work[th], a.lastWasAm[th] = 0, e.T, false, true
	case e.Kind == trace.Call && e.Layer == trace.UMD:
		a.lastWasAm[th] = false
		if e.Ctx == "IC" {
			if e.Name == "Draw" || e.Name == "DrawIndexed" {
				a.drawAt[th] = e.T
			}
			if !a.work[th] {
				a.busyAt[th] = e.T
			}
			a.work[th] = true
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Ctx == "IC" && (e.Name == "Draw" || e.Name == "DrawIndexed"):
		// Busy time only: from the first immediate-context DDI after the
		// last amortized call to this Draw's entry, where the driver could
		// have let the runtime work. An idle stretch (the thread waiting
		// for the GPU after the driver amortized, as with sync=true) does
		// not count, and neither does time inside the Draw itself.
		if gap := a.drawAt[th] - max(a.lastAt[th], a.busyAt[th]); a.work[th] && gap > amortizePeriod {
			out = append(out, v.violation("AM-BALANCE", e, "a busy immediate context went %d ns without pfnPerformAmortizedProcessingCb (at most 1 ms)", gap))
			a.lastAt[th] = e.T // report once per stretch
		}
	case e.Kind == trace.Return && (e.Name == "pfnRenderCb" || e.Name == "pfnPresentCb") && e.Ctx == "IC":
		a.submits[th]++
		if a.submits[th] == amortizeLimit+1 {
			out = append(out, v.violation("AM-SUBMIT", e, "%d immediate-context submissions without pfnPerformAmortizedProcessingCb: the driver must call it after submitting", amortizeLimit+1))
		}
	}
	return out
}
