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
	dcCalls   map[string]int    // deferred context -> amortized calls since its last FinishCommandList
	listAm    map[string]int    // command list -> amortized calls made while it was recorded
	executes  map[string]*execN // thread -> the CommandListExecute it is in
	submits   map[string]int    // thread -> IC submissions since its last amortized call
	lastAt    map[string]int64  // thread -> time of its last amortized call
	work      map[string]bool   // thread -> immediate-context DDI work since then
	lastWasAm map[string]bool   // thread -> no DDI since the last amortized call
	drawAt    map[string]int64  // thread -> entry time of the Draw it is in
	busyAt    map[string]int64  // thread -> entry of its first immediate-context DDI since its last amortized call
}

func (v *Verifier) amortize(e *trace.Event) []Violation {
	a := &v.am
	if a.submits == nil {
		*a = amState{submits: map[string]int{}, lastAt: map[string]int64{}, work: map[string]bool{}, lastWasAm: map[string]bool{},
			dcCalls: map[string]int{}, listAm: map[string]int{}, executes: map[string]*execN{}, drawAt: map[string]int64{}, busyAt: map[string]int64{}}
	}
	var out []Violation
	th := e.Thread
	out = append(out, v.amortizeDC(e)...)
	switch {
	case e.Kind == trace.Call && e.Name == "pfnPerformAmortizedProcessingCb":
		if a.lastWasAm[th] {
			out = append(out, v.violation("AM-BALANCE", e, "pfnPerformAmortizedProcessingCb twice back to back, with no work between"))
		}
		if p := v.parent(e); p == nil || p.Layer != trace.UMD {
			out = append(out, v.violation("AM-SUBMIT", e, "pfnPerformAmortizedProcessingCb called outside a DDI: it must come from the thread that entered the driver"))
		}
		a.submits[th], a.lastAt[th], a.work[th], a.lastWasAm[th] = 0, e.T, false, true
	case e.Kind == trace.Call && (e.Name == "pfnRenderCb" || e.Name == "pfnPresentCb"):
		a.lastWasAm[th] = false // a submission is work between two calls
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
func (v *Verifier) amortizeDC(e *trace.Event) []Violation {
	a := &v.am
	switch {
	case e.Kind == trace.Call && e.Name == "pfnPerformAmortizedProcessingCb" && e.Ctx != "IC" && e.Ctx != "":
		a.dcCalls[e.Ctx]++
	case e.Kind == trace.Return && e.Layer == trace.Runtime && e.From == trace.App && e.Name == "FinishCommandList":
		a.listAm[e.Obj] = a.dcCalls[e.Ctx]
		a.dcCalls[e.Ctx] = 0
	case e.Kind == trace.Call && e.Layer == trace.UMD && e.Name == "CommandListExecute":
		a.executes[e.Thread] = &execN{list: e.Obj}
	case e.Kind == trace.Call && e.Name == "pfnRenderCb":
		if x := a.executes[e.Thread]; x != nil {
			x.renders++
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && e.Name == "CommandListExecute":
		x := a.executes[e.Thread]
		delete(a.executes, e.Thread)
		if x != nil && x.renders-2 > a.listAm[x.list] {
			return []Violation{v.violation("AM-DC", e, "command list %s filled %d command buffers, but its deferred context called pfnPerformAmortizedProcessingCb only %d times while recording it: a deferred context out of space must let the runtime work", x.list, x.renders, a.listAm[x.list])}
		}
	}
	return nil
}
