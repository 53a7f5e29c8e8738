package main

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

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
	ticking  atomic.Bool // a tickAsync goroutine is running
	src      []byte
	prevSrc  []byte // the text loaded before src, when it differed (the page's Compare view: before the edit)
	run      *scenario.Run
	gen      uint64 // bumped by every load and every step: the canvas and the panel poll it
	loads    uint64 // scenarios loaded so far: the panel resets its trace when it changes
	sum      scenario.Summary
	sumFrame scenario.Frame // the run's last frame when sum was taken: hashed when the page is given sum (frameHash)
	hashPix  *byte          // the frame hashed last (its first byte: each frame has pixels of its own)
	hashed   []byte         // its pixels (a frame's pixels never change once presented)
	hash     string         // and its hash
	hashes   int            // SHA-256s of frames computed (for tests)
	sumGen   uint64         // gen the cached summary was taken at (0: none)
	sumLoads uint64         // loads when it was taken: a summary of an earlier scenario is not this one's
	playing  bool           // Update (or the fallback pump) advances the run
	cancel   uint64         // bumped by load and pause: pending run() loops stop
	crash    string         // a panic caught while running, reported as a failure
	ticks    uint64         // Update calls, so the pump knows whether Ebiten is running
	pumps    atomic.Uint64  // slices the pump ran (pumpIfStalled; read without the lock)
	// playWake wakes the pump (main_js.go) when a run starts playing: an
	// idle page's pump sleeps on it instead of waking every 100 ms (nil
	// natively, where there is no pump: a send to it is dropped).
	playWake chan struct{}
	notice   string   // shown above the editor: a broken link, no canvas
	speed    int      // API calls per tick while playing (0: sliceCalls)
	pending  string   // a notice for the page, taken by the bridge (takePending)
	endNoted uint64   // loads when the end of the run was noted (noteEndLocked)
	told     stageKey // the picture the stage was last woken for (stageNews)

	insp  *inspector    // the Command lists and Handles views, fed from the trace
	enc   columnEncoder // the panel's event batches
	synth int           // >0: the panel's trace is this many synthetic events
	shv   *shaderCache  // the Shaders view's answers for the loaded run (shaders.go)
	ins   *inspection   // the State, Resource and Pixel views' journal and query (inspector.go)

	// clock, when set, starts a slice's page clock: the predicate it
	// returns says when the slice has had its time (sliceMillis). Only the
	// JS bridge sets it (bridge_js.go overAfter); natively slices end on
	// their counts alone, so the tests are deterministic. Where a slice
	// ends never changes the run (core/scenario TestSlicesDoNotChangeTheRun):
	// only how soon the page gets the thread back.
	clock func() func() bool

	y suspender // slices suspended inside long draws (yield.go)

	seenBuf  []trace.Event // toPresentLocked's events of one call, reused
	batchBuf []trace.Event // batch's events, reused (at most batchMax)
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
	r.SetGPUYield(a.gpuYield)
	a.mu.Lock()
	defer a.mu.Unlock()
	a.y.abort.Store(false)
	if len(a.src) > 0 && !bytes.Equal(a.src, src) {
		a.prevSrc = a.src
	}
	a.src = append([]byte(nil), src...)
	a.run = r
	a.gen++
	a.loads++
	a.crash = ""
	a.playing = false
	a.cancel++
	a.insp = nil
	a.synth = 0
	a.recordLocked(s, r)
	return nil
}

// source is the text of the loaded scenario.
func (a *app) source() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return string(a.src)
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
		if s := a.run.Progress(); s.Limit != "" {
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

// tick is one Ebiten Update: a slice of the run while playing.
func (a *app) tick() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ticks++
	n := a.speed
	if n <= 0 {
		n = sliceCalls
	}
	// Ebiten's Update is a goroutine of its own: it may suspend.
	a.y.may = true
	defer func() { a.y.may = false }()
	if a.playing && a.sliceLocked(n) {
		a.playing = false
	}
}

// tickAsync runs tick on a goroutine of its own unless the last one is
// still running (suspended inside a long draw): the canvas's Update never
// waits for a slice (main_js.go).
func (a *app) tickAsync() {
	if !a.ticking.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer a.ticking.Store(false)
		a.tick()
	}()
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
	a.y.may = true // the pump is a goroutine of its own
	defer func() { a.y.may = false }()
	if a.playing && a.ticks == lastTicks {
		// A tick's calls, at the speed set (setSpeed): a run played at 10
		// calls a tick took 2,000 at once whenever two animation frames
		// were more than the pump's 100 ms apart.
		n := a.speed
		if n <= 0 {
			n = sliceCalls
		}
		a.pumps.Add(1)
		if a.sliceLocked(n) {
			a.playing = false
		}
	}
	return a.ticks
}

// pumpCount is the number of slices the pump ran (d3dsim.pumpSlices()).
func (a *app) pumpCount() uint64 { return a.pumps.Load() }

// play starts (or resumes) playing the run slice by slice.
func (a *app) play() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run != nil && !a.summaryLocked().Done {
		a.playing = true
		a.wakePump()
	}
}

// wakePump tells the pump a run is playing (never blocks).
func (a *app) wakePump() {
	select {
	case a.playWake <- struct{}{}:
	default:
	}
}

// mayTick says whether an Update should start a tick: the run plays, or a
// slice holds the lock (the tick waits for it, as it did before this
// check). A tick of a paused run does nothing but count, and its goroutine
// kept the stage busy (stageBusy).
func (a *app) mayTick() bool {
	if !a.mu.TryLock() {
		return true
	}
	defer a.mu.Unlock()
	return a.playing
}

// stageBusy says whether the canvas needs another Update after this one
// (main_js.go schedules it): a run playing, a tick still running, a frame
// not picked up yet (have is the generation the stage shows), or the lock
// held by a slice, which may present one. An idle page needs none: Ebiten
// then runs no Update and no Draw until something changes.
func (a *app) stageBusy(have uint64) bool {
	if a.ticking.Load() || !a.mu.TryLock() {
		return true
	}
	defer a.mu.Unlock()
	return a.playing || a.gen != have
}

// stageKey names the picture the stage shows: the scenario loaded and the
// last frame's pixels (a repeated picture's frames share them: gpu's
// scanFrame), or none.
type stageKey struct {
	loads uint64
	pix   *byte
	n     int
	w, h  int
}

// stageNews reports whether the canvas must wake after the bridge's call
// that may have changed the run (bridge.changed): a run playing (Update
// starts its ticker), the lock held by a slice (it may present), or a
// picture other than the one it was last woken for. A step or a frame of
// the page that presented the same picture again wakes nothing: Ebitengine's
// Update then found nothing to show, after a forced layout of the page
// (about 0.3 ms a frame of the draws figure). A stage woken runs until it
// has caught up (stageBusy), so it never misses a picture told.
func (a *app) stageNews() bool {
	if !a.mu.TryLock() {
		return true
	}
	defer a.mu.Unlock()
	k := stageKey{loads: a.loads}
	if a.run != nil {
		if f, ok := a.run.LastFrame(); ok && len(f.Pix) > 0 {
			k.pix, k.n, k.w, k.h = &f.Pix[0], len(f.Pix), f.Width, f.Height
		}
	}
	news := k != a.told
	a.told = k
	return news || a.playing
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
	// suspendable: its slices run on a goroutine of their own and may
	// suspend inside a long draw (yield.go).
	suspendable bool
}

// summary is the run's summary, cached until the next step, with its hash.
func (a *app) summary() scenario.Summary {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.summaryLocked()
	s.Hash = a.frameHash(s)
	return s
}

// progress is summary without the frame's hash, which costs a SHA-256 of
// the last frame (2.6 ms a 256x256 frame in the page): what the panel
// polls once an animation frame, never showing the hash.
func (a *app) progress() scenario.Summary {
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
		a.sum, a.sumGen, a.sumLoads = s, a.gen, a.loads
		a.sumFrame, _ = a.run.LastFrame()
	}()
	// Without the hash: the slices ask after each, and only a summary the
	// page is given pays its frame's SHA-256 (frameHash).
	return a.run.Progress()
}

// frameHash is s's Hash: the hash of the frame that was last when s, a
// summary of this app (summaryLocked), was taken, computed once per frame
// and only for a summary handed to the page. It takes no lock, as the
// bridge's busy answer does (a frame's pixels never change once presented):
// the module runs on one thread.
//
// A frame with the same pixels as the one hashed last has its hash: a
// scene that presents the same picture again (a still scene stepped a
// frame at a time, the draws figure's 1,000 draws of one triangle) pays a
// comparison of the pixels, not a SHA-256 of them. runFrame() answers with
// the hash, and a script that steps a frame an animation frame (the draws
// figure) asks 60 times a second: the SHA-256 of a 256x256 frame under
// WebAssembly took 6.9% of the page's main thread in the draws figure
// (2026-11-29); the comparison costs about an eighteenth of it (0.16 against
// 2.9 ms for 256 KiB under node, GOOS=js GOARCH=wasm, a loaded machine).
func (a *app) frameHash(s scenario.Summary) string {
	if s.Hash != "" || s.Frames == 0 || s.Frames != a.sum.Frames || len(a.sumFrame.Pix) == 0 {
		return s.Hash
	}
	if p := &a.sumFrame.Pix[0]; p != a.hashPix {
		if !bytes.Equal(a.sumFrame.Pix, a.hashed) {
			a.hash = scenario.HashBytes(a.sumFrame.Pix)
			a.hashes++
		}
		a.hashPix, a.hashed = p, a.sumFrame.Pix
	}
	return a.hash
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

// batchMax bounds one batch: about 3 MiB of columns.
const batchMax = 50000
