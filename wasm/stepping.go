package main

import (
	"slices"

	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// Running the scenario a piece at a time: the bridge's run(), step(n), Step
// frame and step to line, each bounded by calls, statements and (for the
// sliced ones) the page clock, so the page keeps answering.

// stepLocked runs up to n API calls of the loaded run, guarded by
// guardLocked.
func (a *app) stepLocked(n int) (done bool) {
	return a.guardLocked(func() bool { return a.run.Step(n) })
}

// sliceLocked runs one slice of at most calls API calls (and
// sliceStatements statements, and the page clock's sliceMillis). A panic
// in the simulator becomes a failure of the run (guardLocked).
func (a *app) sliceLocked(calls int) (done bool) {
	return a.guardLocked(func() bool {
		l := scenario.SliceLimits{Calls: calls, Statements: sliceStatements}
		a.y.over = nil
		if a.clock != nil {
			a.y.over = a.clock() // a draw inside the slice suspends past it (yield.go)
			l.Over = everyNth(a.y.over, 8)
		}
		_, done := a.run.Slice(l)
		return done
	})
}

// step runs up to n API calls and stops playing.
func (a *app) step(n int) scenario.Summary {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.playing = false
	a.cancel++
	if n > 0 {
		a.stepLocked(n)
	}
	return a.summaryLocked()
}

// startRun begins a run() call.
func (a *app) startRun() *runner {
	a.mu.Lock()
	defer a.mu.Unlock()
	return &runner{a: a, cancel: a.cancel}
}

// startFrame begins a runFrame() call: step frame in slices, so a frame of
// many or heavy calls does not hold the page (stepFrame runs in one JS
// call). Like a step, it stops playing and ends other runners.
func (a *app) startFrame() *runner {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.playing = false
	a.cancel++
	r := &runner{a: a, cancel: a.cancel, frame: true}
	if a.run != nil {
		r.seen = uint64(a.run.Recorder().Len()) // the last seq
	}
	return r
}

// slice runs one slice. It reports whether the runner is finished, and the
// summary to answer with then.
func (r *runner) slice() (scenario.Summary, bool) {
	a := r.a
	a.mu.Lock()
	defer a.mu.Unlock()
	if r.suspendable {
		// run() turns run on a goroutine of their own (bridge_js.go): the
		// slice may suspend inside a long draw.
		a.y.may = true
		defer func() { a.y.may = false }()
	}
	if a.cancel != r.cancel || a.run == nil {
		return a.summaryLocked(), true
	}
	if r.frame {
		var over func() bool
		a.y.over = nil
		if a.clock != nil {
			a.y.over = a.clock()
			over = everyNth(a.y.over, 8)
		}
		left := sliceStatements
		if presented, done := a.toPresentLocked(&r.seen, &left, sliceCalls, over); presented || done {
			return a.summaryLocked(), true
		}
		return scenario.Summary{}, false
	}
	if a.sliceLocked(sliceCalls) {
		a.playing = false
		return a.summaryLocked(), true
	}
	return scenario.Summary{}, false
}

// stepCallLocked runs statements up to and including the next API call, at
// most *left of them, and takes what it ran off *left. A panic becomes a
// failure of the run (guardLocked).
func (a *app) stepCallLocked(left *int) (done bool) {
	if *left <= 0 {
		return true
	}
	return a.guardLocked(func() bool {
		n, done := a.run.Slice(scenario.SliceLimits{Calls: 1, Statements: *left})
		*left -= n
		return done
	})
}

// stepFrame runs API calls up to and including the next Present (or until
// the run ends, or maxStepCalls), and stops playing. The frame lands on the
// canvas when the GPU has scanned it out, which may be later: Present only
// queues it.
func (a *app) stepFrame() scenario.Summary {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.playing = false
	a.cancel++
	if a.run == nil {
		return a.summaryLocked()
	}
	seen := uint64(a.run.Recorder().Len()) // the last seq
	left := maxStepStatements
	a.toPresentLocked(&seen, &left, maxStepCalls, nil)
	return a.summaryLocked()
}

// toPresentLocked runs statements, one API call at a time, until an
// application Present has run after seq *seen (presented), the run ends
// (done), or maxCalls calls, *left statements or over (when not nil) end
// this turn first. *seen and *left carry over to the next turn.
func (a *app) toPresentLocked(seen *uint64, left *int, maxCalls int, over func() bool) (presented, done bool) {
	rec := a.run.Recorder()
	for range maxCalls {
		if a.stepCallLocked(left) {
			return false, *left > 0 || a.crash != ""
		}
		// Into the app's buffer: a slice of events a call was garbage a
		// call, thousands a frame for the collector (the runFrame figure).
		evs := rec.AppendSince(a.seenBuf[:0], *seen, 0)
		if cap(evs) <= 4096 { // not the buffer of one huge call for good
			a.seenBuf = evs[:0]
		}
		*seen = max(*seen, lastSeq(evs))
		if slices.ContainsFunc(evs, func(e trace.Event) bool {
			return e.From == trace.App && e.Kind == trace.Call && e.Name == "Present"
		}) {
			// Shown once the GPU has finished it, as a real present is:
			// the application waits here while the GPU catches up.
			a.run.WaitGPU()
			*seen = max(*seen, uint64(rec.Len()))
			return true, false
		}
		if over != nil && over() {
			break
		}
	}
	return false, false
}

// lastSeq is the seq of the last of evs (0 when none).
func lastSeq(evs []trace.Event) uint64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}

// stepToLine runs API calls until one made by scenario line line (or a later
// one) has run, and stops playing: a tutorial step "@line N" shows the
// state right after line N. Lines before the current position are already
// done: nothing runs.
func (a *app) stepToLine(line int) scenario.Summary {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.playing = false
	a.cancel++
	if a.run == nil {
		return a.summaryLocked()
	}
	rec := a.run.Recorder()
	last := 0
	rec.ScanBack(0, func(e *trace.Event) bool { // the newest API call held
		last = lastAPILine([]trace.Event{*e})
		return last == 0
	})
	seen := uint64(rec.Len()) // the last seq
	left := maxStepStatements
	for i := 0; i < maxStepCalls && last < line; i++ {
		if a.stepCallLocked(&left) {
			break
		}
		evs := rec.Since(seen)
		if len(evs) > 0 {
			seen = evs[len(evs)-1].Seq
			if l := lastAPILine(evs); l > 0 {
				last = l
			}
		}
	}
	return a.summaryLocked()
}

// lastAPILine is the scenario line of the last API call (an app->runtime
// call) among evs, 0 when none.
func lastAPILine(evs []trace.Event) int {
	for i := len(evs) - 1; i >= 0; i-- {
		if e := &evs[i]; e.From == trace.App && e.Kind == trace.Call && e.Line > 0 {
			return e.Line
		}
	}
	return 0
}

// everyNth is over asked at every nth call only, for the run loop's check
// after each API call: the calls of a 1,000-draw frame are about ten
// microseconds apart in the page and each reading of the page clock is a
// call out to JavaScript (1.8% of the page's main thread in the draws
// figure, 2026-11-29), so a slice overruns its time by about a tenth of a
// millisecond. A long draw's pieces, milliseconds each, ask over itself
// (app.y.over): at every 8th piece of the 8,150-round loop shader of
// hostile.test.mjs a slice would overrun by tens of milliseconds.
func everyNth(over func() bool, n int) func() bool {
	k := 0
	return func() bool {
		k++
		return k%n == 0 && over()
	}
}
