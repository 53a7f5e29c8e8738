package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image/png"
	"slices"
	"strings"
	"sync"

	"d3dsim/assets"
	"d3dsim/core/link"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// app is the browser app's state: the loaded scenario and its run. It knows
// nothing about JavaScript or Ebiten (bridge_js.go and main_js.go wrap it), so
// it builds and tests natively.
//
// Threading: every method takes a.mu. In the browser the Ebiten loop, the JS
// callbacks of the bridge and the run() loops are goroutines of one thread;
// the lock keeps each of them from seeing a half-done step of another.
type app struct {
	mu       sync.Mutex
	src      []byte
	run      *scenario.Run
	gen      uint64 // bumped by every load and every step: the canvas and the panel poll it
	loads    uint64 // scenarios loaded so far: the panel resets its trace when it changes
	sum      scenario.Summary
	sumGen   uint64 // gen the cached summary was taken at (0: none)
	playing  bool   // Update (or the fallback pump) advances the run
	cancel   uint64 // bumped by load and pause: pending run() loops stop
	crash    string // a panic caught while running, reported as a failure
	ticks    uint64 // Update calls, so the pump knows whether Ebiten is running
	notice   string // shown above the editor: a broken link, no canvas
	speed    int    // API calls per tick while playing (0: sliceCalls)
	pending  string // a notice for the page, taken by the bridge (takePending)
	endNoted uint64 // loads when the end of the run was noted (noteEndLocked)

	insp  *inspector    // the Command lists and Handles views, fed from the trace
	enc   columnEncoder // the panel's event batches
	synth int           // >0: the panel's trace is this many synthetic events

	// clock, when set, starts a slice's page clock: the predicate it
	// returns says when the slice has had its time (sliceMillis). Only the
	// JS bridge sets it (bridge_js.go overAfter); natively slices end on
	// their counts alone, so the tests are deterministic. Where a slice
	// ends never changes the run (core/scenario TestSlicesDoNotChangeTheRun):
	// only how soon the page gets the thread back.
	clock func() func() bool
}

// A slice is the work the page does before it gets the thread back: an
// Ebiten tick while playing, one turn of run(). It ends after sliceCalls API
// calls, sliceStatements statements (a loop of expectations makes no call)
// or sliceMillis of page clock (one Present of a big frame can take
// longer than a thousand small calls), whichever comes first.
const (
	sliceCalls      = 2000
	sliceStatements = 40000
	sliceMillis     = 25
)

// maxEvents bounds one events() answer.
const maxEvents = 20000

// load parses src and, if it is valid, replaces the run with a fresh one,
// paused before the first statement. The error is "LINE:COL: message".
func (a *app) load(src []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("1:1: internal error while loading: %v", p)
		}
	}()
	s, err := scenario.Load("", src)
	if err != nil {
		return err
	}
	r := scenario.NewRun(s, scenario.Overrides{})
	a.mu.Lock()
	defer a.mu.Unlock()
	a.src = append([]byte(nil), src...)
	a.run = r
	a.gen++
	a.loads++
	a.crash = ""
	a.playing = false
	a.cancel++
	a.insp = nil
	a.synth = 0
	return nil
}

// source is the text of the loaded scenario.
func (a *app) source() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.src)
}

// stepLocked runs up to n API calls of the loaded run, guarded by
// guardLocked.
func (a *app) stepLocked(n int) (done bool) {
	return a.guardLocked(func() bool { return a.run.Step(n) })
}

// guardLocked runs f on the loaded run unless there is none or it crashed,
// and reports whether the run is done. A panic in the simulator becomes a
// failure of the run (a.crash), never a dead page.
func (a *app) guardLocked(f func() bool) (done bool) {
	if a.run == nil || a.crash != "" {
		return true
	}
	defer func() {
		if p := recover(); p != nil {
			a.crash = fmt.Sprintf("internal error: %v (please report it with the Share link)", p)
			done = true
		}
		if done {
			a.noteEndLocked()
		}
	}()
	a.gen++
	return f()
}

// noteEndLocked leaves a notice for the page, once per load, when the run
// ended at a limit (naming it) or crashed (with a hint to Restart): never a
// frozen page with stale counters.
func (a *app) noteEndLocked() {
	if a.endNoted == a.loads {
		return
	}
	a.endNoted = a.loads
	if a.crash != "" {
		a.pending = crashNotice(a.crash)
		return
	}
	func() {
		defer func() { recover() }() // the summary of a broken run: no notice
		if s := a.run.Summary(); s.Limit != "" {
			a.pending = limitNotice(s.Limit)
		}
	}()
}

// takePending returns the notice left for the page ("" for none) and
// clears it.
func (a *app) takePending() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := a.pending
	a.pending = ""
	return n
}

// sliceLocked runs one slice of at most calls API calls (and
// sliceStatements statements, and the page clock's sliceMillis). A panic
// in the simulator becomes a failure of the run (guardLocked).
func (a *app) sliceLocked(calls int) (done bool) {
	return a.guardLocked(func() bool {
		l := scenario.SliceLimits{Calls: calls, Statements: sliceStatements}
		if a.clock != nil {
			l.Over = a.clock()
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

// tick is one Ebiten Update: a slice of the run while playing.
func (a *app) tick() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ticks++
	n := a.speed
	if n <= 0 {
		n = sliceCalls
	}
	if a.playing && a.sliceLocked(n) {
		a.playing = false
	}
}

// tickCount is the number of ticks so far.
func (a *app) tickCount() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ticks
}

// pumpIfStalled runs a slice when playing and no tick happened since the
// count the caller saw last: the canvas is not running (no WebGL, hidden
// tab), and the scenario must still finish.
func (a *app) pumpIfStalled(lastTicks uint64) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.playing && a.ticks == lastTicks && a.sliceLocked(sliceCalls) {
		a.playing = false
	}
	return a.ticks
}

// play starts (or resumes) playing the run slice by slice.
func (a *app) play() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run != nil && !a.summaryLocked().Done {
		a.playing = true
	}
}

// pause stops playing and ends pending run() loops.
func (a *app) pause() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.playing = false
	a.cancel++
}

// runner is one run() call in progress: it runs slices until the run is done
// or another load or pause cancels it.
type runner struct {
	a      *app
	cancel uint64
	frame  bool   // runFrame: finished after the next Present
	seen   uint64 // frame: the last seq looked at for a Present
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
	if a.cancel != r.cancel || a.run == nil {
		return a.summaryLocked(), true
	}
	if r.frame {
		var over func() bool
		if a.clock != nil {
			over = a.clock()
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

// summary is the run's summary, cached until the next step.
func (a *app) summary() scenario.Summary {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.summaryLocked()
}

// loadCount is the number of scenarios loaded so far.
func (a *app) loadCount() uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.loads
}

// isPlaying reports whether the run is playing.
func (a *app) isPlaying() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.playing
}

func (a *app) summaryLocked() (s scenario.Summary) {
	if a.run == nil {
		return scenario.Summary{Failures: []string{}, Messages: []string{}}
	}
	if a.sumGen == a.gen {
		return a.sum
	}
	defer func() {
		if p := recover(); p != nil {
			a.crash = fmt.Sprintf("internal error: %v (please report it with the Share link)", p)
			s = scenario.Summary{Done: true}
		}
		if a.crash != "" {
			s.Failures = append(s.Failures[:len(s.Failures):len(s.Failures)], a.crash)
			s.Done = true
		}
		if s.Failures == nil {
			s.Failures = []string{}
		}
		if s.Messages == nil {
			s.Messages = []string{}
		}
		a.sum, a.sumGen = s, a.gen
	}()
	return a.run.Summary()
}

// frame calls fn with the last presented frame (ok false: none yet) when
// anything changed since generation have, and returns the current
// generation. fn runs with the lock held and must not keep f.Pix.
func (a *app) frame(have uint64, fn func(f scenario.Frame, ok bool)) uint64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen == have {
		return have
	}
	var f scenario.Frame
	ok := false
	if a.run != nil {
		f, ok = a.run.LastFrame()
		ok = ok && f.Width > 0 && f.Height > 0 && len(f.Pix) >= f.Width*f.Height*4
	}
	fn(f, ok)
	return a.gen
}

// pixel is "#rrggbbaa" of the last presented frame, "" when none.
func (a *app) pixel(x, y int) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return ""
	}
	return a.run.Pixel(x, y)
}

// eventsJSON is a JSON array of the trace events after seq from (with
// nothing dropped, the count the caller already has), at most max of them,
// in the trace.jsonl form (docs/scenario.md, "Trace"). By seq, not by index: the
// index of an event shifts when the trace ring drops old ones. One string
// crosses to JavaScript instead of an object per field.
func (a *app) eventsJSON(from, max int) []byte {
	if from < 0 {
		from = 0
	}
	if max <= 0 || max > maxEvents {
		max = maxEvents
	}
	a.mu.Lock()
	var evs []trace.Event
	if a.run != nil {
		evs = a.run.Recorder().AppendSince(nil, uint64(from), max)
	}
	a.mu.Unlock()
	if len(evs) == 0 {
		return []byte("[]")
	}
	b := make([]byte, 0, 160*len(evs)+2)
	b = append(b, '[')
	for i := range evs {
		if i > 0 {
			b = append(b, ',')
		}
		b = trace.AppendJSON(b, &evs[i])
	}
	return append(b, ']')
}

// linkURL is the shareable URL of the loaded scenario: base (the page's
// origin and path) with the scenario in the #s= fragment.
func (a *app) linkURL(base string) string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return link.URL(base, string(a.src))
}

// setNotice sets the message shown above the editor.
func (a *app) setNotice(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notice = s
}

// getNotice is the message shown above the editor ("" for none).
func (a *app) getNotice() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.notice
}

// start loads what the page's URL asks for — the scenario a #s= link
// carries, else the default — and plays it. A link that cannot be read or
// whose scenario does not load leaves a notice and the default scenario.
func (a *app) start(href string) {
	src, notice := initialScenario(href)
	if err := a.load(src); err != nil {
		notice = "The scenario in this link does not load (" + err.Error() + "). Showing the default scenario instead."
		def, _ := assets.Scenario(assets.Default)
		if err := a.load(def); err != nil {
			notice += " The default scenario does not load either: " + err.Error()
		}
	}
	a.setNotice(notice)
	a.play()
}

// initialScenario picks the scenario for a page URL.
func initialScenario(href string) (src []byte, notice string) {
	def, _ := assets.Scenario(assets.Default)
	if !hasLink(href) {
		return def, ""
	}
	src, err := link.FromURL(href)
	if err != nil {
		why := strings.TrimPrefix(err.Error(), "link: ")
		return def, "This link is damaged and cannot be replayed: " + why + ". Showing the default scenario instead."
	}
	return src, ""
}

// hasLink reports whether a URL's fragment carries a scenario (#s=...).
func hasLink(href string) bool {
	_, frag, ok := strings.Cut(href, "#")
	if !ok {
		return false
	}
	for _, part := range strings.Split(frag, "&") {
		if strings.HasPrefix(part, "s=") {
			return true
		}
	}
	return false
}

// setSpeed sets how many API calls each tick runs while playing (the speed
// control): 1 lets a person watch each call land; 0 means sliceCalls.
func (a *app) setSpeed(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.speed = max(0, min(n, sliceCalls))
}

// maxStepCalls and maxStepStatements bound stepFrame and stepToLine: a
// scenario that never presents (or never reaches the line), or loops on
// statements that make no call, stops there instead of freezing the page;
// the summary tells how far it got. They run in one JS call, without the
// page clock.
const (
	maxStepCalls      = 20000
	maxStepStatements = 200000
)

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
		evs := rec.Since(*seen)
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

// check parses src without loading it: the editor marks errors as you type.
func check(src []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("1:1: internal error while parsing: %v", p)
		}
	}()
	_, err = scenario.Load("", src)
	return err
}

// batch encodes the trace events after seq after, at most max of them, for
// the panel. after == 0 starts a new string table (a new trace).
func (a *app) batch(after uint64, max int) columnBatch {
	a.mu.Lock()
	defer a.mu.Unlock()
	if after == 0 {
		a.enc.reset()
	}
	if max <= 0 || max > batchMax {
		max = batchMax
	}
	var evs []trace.Event
	switch {
	case a.synth > 0:
		evs = syntheticEvents(int(min(after, uint64(a.synth))), max, a.synth)
	case a.run != nil:
		evs = a.run.Recorder().AppendSince(nil, after, max)
	}
	return a.enc.encode(evs)
}

// batchMax bounds one batch: about 3 MiB of columns.
const batchMax = 50000

// loadSynthetic replaces the panel's trace by n synthetic events (for the
// timeline's load test); the scenario stays loaded, paused. The next load
// ends it.
func (a *app) loadSynthetic(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.synth = max(0, n)
	a.playing = false
	a.cancel++
	a.loads++ // the panel starts a fresh trace
	a.gen++
}

// inspect is the Command lists and Handles views' model as JSON, brought up
// to date with the trace first.
func (a *app) inspect() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.insp == nil {
		a.insp = newInspector()
	}
	if a.run != nil && a.synth == 0 {
		a.insp.consume(a.run.Recorder().Since(a.insp.seen))
	}
	b, err := json.Marshal(a.insp.snapshot())
	if err != nil {
		return []byte("{}")
	}
	return b
}

// traceFile is the run's trace as trace.jsonl or trace.perfetto.json (the
// download buttons; the same writers as `d3dsim run --out`).
func (a *app) traceFile(perfetto bool) []byte {
	a.mu.Lock()
	var evs []trace.Event
	if a.run != nil {
		evs = a.run.Events()
	}
	a.mu.Unlock()
	var buf bytes.Buffer
	if perfetto {
		trace.WritePerfetto(&buf, evs)
	} else {
		trace.WriteJSONL(&buf, evs)
	}
	return buf.Bytes()
}

// framePNG is the last presented frame as PNG, at its own size (nil when
// none).
func (a *app) framePNG() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return nil
	}
	f, ok := a.run.LastFrame()
	if !ok || f.Width <= 0 || f.Height <= 0 || len(f.Pix) < f.Width*f.Height*4 {
		return nil
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, f.Image()); err != nil {
		return nil
	}
	return buf.Bytes()
}

// frameSize is the last presented frame's size (0, 0 when none).
func (a *app) frameSize() (w, h int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return 0, 0
	}
	if f, ok := a.run.LastFrame(); ok {
		return f.Width, f.Height
	}
	return 0, 0
}
