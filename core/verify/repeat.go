package verify

// A repeat of a quiet call: the four events of the call quiet took last
// (quiet.go), again, with nothing between — a Draw after a Draw that
// changed no state. The recorder says which events are the same records as
// the event four before them but for their times (trace.Recorder.Repeats);
// such a call is the last one but for its seqs and times, and the
// verifier's state is what quiet left. So quiet, given it, would take it:
// every condition it tests is on the events' fields (the same) or on state
// no quiet call changes (DD-SYNC's stage, FinishCommandList, the empty
// device key, the DDIs other threads are inside), but one — AM-BALANCE's
// busy stretch at a Draw's return, which depends on the time — and it
// would make the same changes: the thread's Draw time (when the DDI is a
// Draw), and the removal seen inside the call, forgotten. repeats applies
// those from the times alone, four events a call, without decoding them;
// at the first call whose return would warn (or the first events that are
// not a repeat) it stops and Poll reads on the full way. TestRepeatSame
// and TestQuietSame compare it with quiet and with every event through
// event.
// It says whether it read up to the newest event (Poll has nothing more to
// read).
func (v *Verifier) repeats() bool {
	t := v.quietT
	for {
		// The common case: every event since was stored again, and the
		// one time a call needs is its DDI call's (Recorder.AgainTimes).
		ts, newest, ok := v.rec.AgainTimes(v.next, 1, v.times[:0])
		if !ok {
			return v.repeatsCompared()
		}
		n := len(ts)
		for g := range n {
			drawAt := t.drawAt
			if v.quietDraw[0] {
				drawAt = ts[g]
			}
			if v.quietDraw[1] && drawAt-max(t.lastAt, t.busyAt) > amortizePeriod {
				n = g
				break
			}
			t.drawAt = drawAt
			if len(v.as.sawRm) > 0 {
				delete(v.as.sawRm, v.next+uint64(4*g)+1)
			}
		}
		v.quietN += n
		v.repeatN += n
		v.next += uint64(4 * n)
		v.quietEnd = v.next
		if n < len(ts) || newest || len(ts) < cap(v.times) {
			// a warning at a call's return, the newest event, or events
			// left that are not a whole call: Poll reads on the full way
			// but for the newest
			return n == len(ts) && newest
		}
	}
}

// repeatsCompared is repeats from the recorder's comparison of records
// (Recorder.Repeats): some event since was stored the full way.
func (v *Verifier) repeatsCompared() bool {
	t := v.quietT
	for {
		ts, newest := v.rec.Repeats(v.next, 4, v.times[:0])
		n := len(ts) &^ 3
		for g := 0; g < n; g += 4 {
			// quiet's conditions that depend on the time: the warning at
			// the Draw's return (busyAt does not change: the thread is at
			// work since the last call)
			drawAt := t.drawAt
			if v.quietDraw[0] {
				drawAt = ts[g+1]
			}
			if v.quietDraw[1] && drawAt-max(t.lastAt, t.busyAt) > amortizePeriod {
				n = g
				break
			}
			t.drawAt = drawAt
			if len(v.as.sawRm) > 0 {
				delete(v.as.sawRm, v.next+uint64(g)+1)
			}
		}
		v.quietN += n / 4
		v.repeatN += n / 4
		v.next += uint64(n)
		v.quietEnd = v.next
		if n < len(v.times) {
			return newest && n == len(ts)
		}
	}
}

// Repeated is how many calls the verifier took as repeats of the last quiet
// call (repeats): a test of a run of Draws checks they went that way.
func (v *Verifier) Repeated() int { return v.repeatN }
