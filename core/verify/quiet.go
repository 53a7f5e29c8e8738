package verify

import "d3dsim/core/trace"

// A quiet call: the application's call on the immediate context that makes
// exactly one DDI call with nothing inside it and returns — a Draw that
// changes no state is one, four events. Through the dispatch (dispatch.go)
// its events reach four checks, whose effect on them is known in advance:
//
//   - async (ERR-ASYNC): the call opens and closes the thread's API call in
//     progress (openRoot) and forgets any removal reported inside it (sawRm);
//     a call that cannot report a removal (canReportRemoval) checks nothing;
//   - amortize (AM-BALANCE): the DDI call is immediate-context work (work,
//     busyAt, lastWasAm; drawAt for a Draw), a Draw's return measures the busy
//     stretch (a warning past amortizePeriod);
//   - freeThreading (FT-CAP): the DDI enters and leaves (ddis, inDDIs: no net
//     change), a driver without the free-threaded cap checks that no other
//     thread is inside one;
//   - callbacks (ERR-APP): the application's return clears the thread's blame.
//
// quiet applies those effects to the four events at once, without decoding
// dispatch masks or calling the checks; when any of them would report (FT-CAP
// or the AM-BALANCE warning) or the verifier's state would send an event to
// another check (a DD-SYNC pattern in progress, a FinishCommandList
// collecting DDIs, an empty device key), it declines and the events go the
// full way. TestQuietSame compares the two on random event streams,
// TestDispatchSame (core/scenario) on every scenario and bug switch.
func (v *Verifier) quiet(evs []trace.Event) bool {
	if v.all || v.noQuiet || len(evs) < 4 {
		return false
	}
	a, b, c, d := &evs[0], &evs[1], &evs[2], &evs[3]
	// the application's call and return, the DDI's call and return inside
	// it, on one thread and the immediate context
	if a.Kind != trace.Call || a.Layer != trace.Runtime || a.From != trace.App || a.Parent != 0 ||
		b.Kind != trace.Call || b.Layer != trace.UMD || b.From != trace.Runtime || b.Parent != a.Seq ||
		c.Kind != trace.Return || c.Layer != trace.UMD || c.From != trace.Runtime || c.Parent != a.Seq ||
		d.Kind != trace.Return || d.Layer != trace.Runtime || d.From != trace.App || d.Parent != 0 {
		return false
	}
	if a.Ctx != "IC" || b.Ctx != "IC" || c.Ctx != "IC" || d.Ctx != "IC" ||
		a.Thread != b.Thread || a.Thread != c.Thread || a.Thread != d.Thread {
		return false
	}
	// nothing that sends the DDI's events to another check (checks): no
	// handle (LIFE-DANGLING), no payload or error (ERR-ASYNC's device), no
	// CL-FINISH, DD-SYNC or empty-key state
	if b.Handle != "" || !b.Args.IsZero() || !c.Args.IsZero() || c.HR != "" ||
		v.sync.stage != 0 || len(v.cl.finishing) > 0 || v.as.emptyKey {
		return false
	}
	// names no check tests for, a DDI FT-CAP follows, a call that cannot
	// report a removal
	// (the names' answer depends on the names only: the last four that
	// passed are remembered, a Draw after a Draw compares four strings)
	if q := &v.quietNames; a.Name != q[0] || b.Name != q[1] || c.Name != q[2] || d.Name != q[3] {
		if v.names.of(a.Name) != 0 || v.names.of(b.Name) != 0 || v.names.of(c.Name) != 0 || v.names.of(d.Name) != 0 ||
			calcDDI(b.Name) || calcDDI(c.Name) {
			return false
		}
		*q = [4]string{a.Name, b.Name, c.Name, d.Name}
	}
	if canReportRemoval(d) {
		return false
	}
	t := v.ths.of(a.Thread)
	// FT-CAP would look for another thread inside a DDI
	if v.ft.notFree && v.ft.inDDIs > min(len(t.ddis), 1) {
		return false
	}
	drawAt, busyAt := t.drawAt, t.busyAt
	if isDrawName(b.Name) {
		drawAt = b.T
	}
	if !t.work {
		busyAt = b.T
	}
	// AM-BALANCE's warning at the Draw's return
	if isDrawName(c.Name) && drawAt-max(t.lastAt, busyAt) > amortizePeriod {
		return false
	}
	// the checks' lazily made tables, as the first event through them makes
	v.asInit()
	v.amInit()
	if v.ft.hctx == nil {
		v.ft.hctx = map[string]map[string][]openCb{}
	}
	t.lastWasAm, t.drawAt, t.busyAt, t.work = false, drawAt, busyAt, true
	t.blame = ""
	t.openRoot = 0
	if len(v.as.sawRm) > 0 {
		delete(v.as.sawRm, a.Seq)
	}
	v.quietN++
	v.quietEnd, v.quietT, v.quietDraw = d.Seq, t, [2]bool{isDrawName(b.Name), isDrawName(c.Name)}
	return true
}

func isDrawName(name string) bool { return name == "Draw" || name == "DrawIndexed" }
