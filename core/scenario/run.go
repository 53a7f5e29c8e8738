package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"runtime"

	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/verify"
)

// Run is one execution of a scenario on a fresh simulated machine.
type Run struct {
	sinceYield int // statements since the goroutine last yielded (StepStatement)
	mach       *machine.Machine
	sim        *sim.Sim        // the machine's simulation: the scenario's threads run on it
	rec        *trace.Recorder // the machine's trace
	rt         *d3d11.Runtime  // the API the statements call
	devs       []*d3d11.Device // the devices created so far (liveObjects)
	script     *Script
	opt        options

	vars    map[string]any
	names   map[d3d11.Object]string
	threads []*thread
	events  map[string]bool
	signals map[string]signalled // when and by whom each event was first signalled
	made    map[string]signalled // when and on which thread each name was last bound
	binds   uint64               // names bound so far (bind): a memo made before the last is stale
	memos   [16]stmtMemo         // what call statements found in vars and made (memo.go)

	frames    []Frame         // the presented frames kept (maxFrameBytes), oldest first
	dropped   int             // older frames let go
	frameMem  int             // bytes of pixels in frames
	scanned   uint64          // pixels presented in all (pixel budget)
	failures  tally           // failures, bounded (tally.go)
	lastFail  *pendingFailure // the last failure counted and not kept
	done      bool
	badInput  bool   // the run stopped on a problem with the scenario itself (Summary.BadInput)
	limit     string // the limit that stopped the run (Summary.Limit)
	steps     int
	other     int // work of statements that are not API calls, in steps (budget too)
	lastData  uint64
	lastQuery d3d11.QueryData // GetData's whole answer (CallRecord.Query)
	// got is what the last getter returned (IAGetVertexBuffers,
	// PSGetShaderResources, ...), for expect got: object names, NULL,
	// enum names and numbers.
	got []string
	// support is the last CheckFormatSupport's answer, for expect support.
	support struct {
		f    d3d11.Format
		s    d3d11.FormatSupport
		done bool
	}
	queries   []QueryResult              // every GetData, for rule ASYNC-SAME
	queryRuns map[int]int                // GetData statements run so far, by line
	qdata     map[*d3d11.Query]queryData // the last GetData of each query (expect data, until data)
	cur       *thread                    // the thread whose statement runs (exec)

	hash     string // of the last frame, computed once per frame, when Summary asks
	hashed   int    // frames hashed
	hashPix  []byte // the pixels hashed: a repeated picture's frames share them
	messages tally  // debug-layer messages seen so far (onEvent), bounded

	readbackStep int           // r.steps at the last readback flush
	readbackDev  *d3d11.Device // and its device

	line    int // line of the statement running now
	recLine int // the line last given to the recorder (setLine)
	nesting int // > 0 while a preempting thread's statement runs
	inCall  int // > 0 while an API call statement runs (expectations are not preempted)

	verifier *verify.Verifier
	expected map[string]bool  // rules named by `expect violation`
	deferred []*deferredCalls // written under the recorder's lock (onEvent)
	polled   uint64           // events handed to the verifier so far
	lostRead bool             // the ring dropped events the verifier had not read

	shaders shaderBook     // the shaders created and the draws that ran them (shaders.go)
	obs     *Observer      // sees each call and inject (observe.go)
	onCall  func(CallDone) // the inspector's hook (inspect.go)

	// The GPU's counts the budgets look at (gpuBudgets), as of the
	// simulation's event gpuSeen; gpuRead is false when they must be read
	// again.
	gpuPixels, gpuInstr, gpuSeen uint64
	gpuRead                      bool

	// The last method looked up (callWith): a loop calls the same one.
	lastTyp, lastMethod string
	lastM               *method
}

// deferredCalls is an `expect calls` checked once the run is over, when the
// asynchronous consequences of the statement (kernel, GPU, interrupt, DPC)
// have all happened. Its events are collected as they are written.
type deferredCalls struct {
	e    *Expect
	i    int             // names found so far, in order (see)
	seen []string        // the first names the statement's events carry, for the message
	dmas map[uint64]bool // DMA buffers the statement submitted
	lost bool            // the ring dropped some of its own events first
}

// NewRun prepares a run. Nothing executes until Step or Finish.
func NewRun(s *Script, o Overrides) *Run {
	r := &Run{script: s, opt: decodeOptions(s, o), vars: map[string]any{}, names: map[d3d11.Object]string{},
		events: map[string]bool{}, signals: map[string]signalled{}, made: map[string]signalled{}, expected: map[string]bool{},
		qdata: map[*d3d11.Query]queryData{}}
	r.mach = machine.New(r.opt.machine(func(f machine.Frame) {
		r.addFrame(Frame{Width: f.Width, Height: f.Height, Pix: f.Pix})
	}, r.preempt))
	r.sim, r.rec, r.rt = r.mach.Sim(), r.mach.Recorder(), r.mach.Runtime()
	r.sim.SetBlocking(r.park, r.wake) // (threads.go: a thread run inside another may wait for its lock)
	r.rec.SetLimit(r.opt.maxevents)
	r.rec.SubscribeTo(trace.Filter{Kinds: 1 << trace.Message, DMA: true}, r.onEvent) // (the events onEvent looks at)
	r.verifier = verify.New(r.rec)
	r.threads = []*thread{{name: "main", stack: []*frame{{stmts: s.Stmts}}}}
	return r
}

// failf records a failure. Past the first few only its line is counted,
// and it is not even formatted (a loop of failing expectations), unless it
// is the last one before the run stops (stop).
func (r *Run) failf(p Pos, format string, args ...any) {
	if r.failures.full() {
		r.failures.count(p.Line)
		r.lastFail = &pendingFailure{p, format, args}
		return
	}
	r.lastFail = nil
	r.failures.add(p.Line, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...)))
}

// limitf records the failure of a limit that stops the run (the caller
// stops it): Summary.Limit says which, for the page's notice.
func (r *Run) limitf(p Pos, format string, args ...any) {
	r.limit = fmt.Sprintf("%d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...))
	r.failf(p, format, args...)
}

// keepLastFailure keeps the last failure in full, if it was only counted:
// the message saying which limit stopped a run is always shown.
func (r *Run) keepLastFailure() {
	if f := r.lastFail; f != nil {
		r.failures.uncount(f.pos.Line)
		r.failures.keep(fmt.Sprintf("%d:%d: %s", f.pos.Line, f.pos.Col, fmt.Sprintf(f.format, f.args...)))
		r.lastFail = nil
	}
}

// Step runs up to n more API calls and reports whether the scenario is done.
func (r *Run) Step(n int) bool {
	for calls := 0; calls < n && !r.done; {
		if call, _ := r.StepStatement(); call {
			calls++
		}
	}
	return r.done
}

// StepStatement runs the next statement — of the thread the seeded choice
// picks, as Step does — and reports whether it was an API call and whether
// the scenario is done. A caller that bounds its work by statements as well
// as by calls (the browser's slices) stops even inside a loop that makes no
// call. However the run is cut into steps, it is the same run: the choice of
// thread and everything after depend only on the statements run so far.
func (r *Run) StepStatement() (call, done bool) {
	if r.done {
		return false, true
	}
	t := r.pick()
	if t == nil {
		r.finish()
		return false, r.done
	}
	call = r.exec(t)
	if r.sinceYield++; r.sinceYield >= yieldEvery {
		// Under WebAssembly one goroutine runs everything and nothing
		// preempts it: the garbage collector's own goroutine gets no
		// turn until this one yields, and a cycle started by allocation
		// never ends. A loop that made 600 KB of garbage a statement
		// reached 1.2 GiB of heap in node this way (its live heap: 12 MiB).
		// Natively this costs nothing worth measuring; it changes nothing
		// of the run.
		r.sinceYield = 0
		runtime.Gosched()
	}
	return call, r.done
}

// yieldEvery is how many statements a run makes between two yields of its
// goroutine (StepStatement).
const yieldEvery = 64

// SliceLimits bound one slice of a run (Run.Slice): it ends after Calls API
// calls or Statements statements (either 0: no bound of that kind), or once
// Over, asked between statements, says so. Over is how the browser ends a
// slice on its page clock; the simulation never reads it, so where a slice
// ends does not change the run.
type SliceLimits struct {
	Calls      int
	Statements int
	Over       func() bool
}

// Slice runs statements until one of l's bounds is reached or the scenario
// is done. It reports how many statements it ran (at least one unless the
// run was already done) and whether the scenario is done.
func (r *Run) Slice(l SliceLimits) (stmts int, done bool) {
	calls := 0
	for !r.done {
		call, done := r.StepStatement()
		stmts++
		if call {
			calls++
		}
		if done || l.Calls > 0 && calls >= l.Calls || l.Statements > 0 && stmts >= l.Statements || l.Over != nil && l.Over() {
			break
		}
	}
	return stmts, r.done
}

// Finish runs the scenario to its end and returns the summary.
func (r *Run) Finish() Summary {
	for !r.Step(1 << 20) {
	}
	return r.Summary()
}

// check feeds new events to the verifier. It runs after every statement, so
// the verifier reads each event before the trace ring can drop it — unless
// one statement makes more than a quarter of the ring's events, which is reported.
func (r *Run) check() uint64 {
	ln, dropped := r.rec.LenDropped()
	n := uint64(ln)
	if n > r.polled && dropped > r.polled && !r.lostRead { // event polled+1 was dropped
		r.lostRead = true
		line := r.lastLine()
		r.failf(Pos{Line: line}, "the trace ring dropped events before the verifier read them (one statement made more than a quarter of option maxevents=%d); the verification is incomplete", r.opt.maxevents)
	}
	r.verifier.Poll()
	r.polled = n
	return n
}

// lastLine is the scenario line of the newest event held.
func (r *Run) lastLine() int {
	if e, ok := r.rec.At(uint64(r.rec.Len())); ok {
		return e.Line
	}
	return 0
}

// WaitGPU lets the GPU finish everything submitted so far while the thread
// that ran the last statement waits, as an application stopped at a
// debugger break after Present would: Dxgkrnl's WaitForIdle in the trace,
// then every frame presented so far is on screen. The browser's Step frame
// uses it so that the frame it stops at is shown. A run stepped this way has
// the same pixels as one that is not; its timeline differs from then on (the
// application resumes later in virtual time).
func (r *Run) WaitGPU() {
	if r.done {
		return
	}
	r.mach.Idle()
	r.check()
}

// finish drains the GPU, evaluates deferred expectations and ends the run.
func (r *Run) finish() {
	if r.done {
		return
	}
	r.sim.Switch("main")
	r.mach.Idle()
	r.gpuBudgets(Pos{Line: r.lastLine()}) // the GPU's last work ran in Idle
	r.check()
	var pending []*deferredCalls
	r.rec.Do(func() { pending, r.deferred = r.deferred, nil })
	for _, d := range pending {
		r.checkCalls(d)
	}
	r.stop()
}

// stop ends the run, reporting the violations nobody expected.
func (r *Run) stop() {
	if r.done {
		return
	}
	r.check()
	r.keepLastFailure()
	for _, v := range r.verifier.Violations() {
		if !r.expected[v.Rule] && v.Severity == verify.Error { // a warning never fails a run
			r.failf(Pos{Line: v.Line}, "violation of %s (%q): %s", v.Rule, v.Source, v.Msg)
		}
	}
	r.lastFail = nil
	r.done = true
}

// Summary reports the run so far, with the hash of the last frame.
func (r *Run) Summary() Summary {
	s := r.Progress()
	if f, ok := r.LastFrame(); ok {
		if r.hashed != s.Frames {
			// A frame that repeats the one before shares its pixels
			// (gpu's scanFrame): the same slice has the same hash.
			if len(f.Pix) == 0 || !samePix(f.Pix, r.hashPix) {
				r.hash, r.hashPix = HashBytes(f.Pix), f.Pix
			}
			r.hashed = s.Frames
		}
		s.Hash = r.hash
	}
	return s
}

// Progress is Summary without its Hash, which costs a SHA-256 of the last
// frame's pixels: the page asks the run's progress after every slice, and
// only some of those summaries reach the panel (HashBytes of LastFrame then).
func (r *Run) Progress() Summary {
	s := Summary{Frames: r.dropped + len(r.frames), Events: r.rec.Len(), Dropped: int(r.rec.Dropped()), Violations: r.verifier.Count(),
		Failures: r.failures.list(func(line, n int) string {
			return fmt.Sprintf("%d:0: … and %d more failures on line %d", line, n, line)
		}, func(n int) string {
			return fmt.Sprintf("0:0: … and %d more failures on other lines", n)
		}), FailureCount: r.failures.total, BadInput: r.badInput, Limit: r.limit, Done: r.done, Steps: r.steps}
	// The page asks every frame: read new events once.
	r.rec.Do(func() { // onEvent collects them
		s.Messages = r.messages.list(func(line, n int) string {
			return fmt.Sprintf("%d: … and %d more messages from line %d", line, n, line)
		}, func(n int) string {
			return fmt.Sprintf("0: … and %d more messages from other lines", n)
		})
		s.MessageCount = r.messages.total
	})
	return s
}

// HashBytes is the first 16 hex digits of the SHA-256 of b.
func HashBytes(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// maxFrameBytes bounds the pixels of the presented frames a run keeps: a
// loop of Presents of an 8192x8192 swap chain kept 256 MiB per frame until
// the process died.
const maxFrameBytes = 256 << 20

// addFrame keeps a presented frame, letting the oldest go (never the last)
// while the frames kept hold more than maxFrameBytes. A frame that repeats
// the one before shares its pixels (the GPU's display hands the same Pix
// again: gpu scanFrame), and frameMem counts a run of them once.
func (r *Run) addFrame(f Frame) {
	r.scanned += uint64(len(f.Pix) / 4)
	if n := len(r.frames); n == 0 || !samePix(r.frames[n-1].Pix, f.Pix) {
		r.frameMem += len(f.Pix)
	}
	r.frames = append(r.frames, f)
	n := 0
	for r.frameMem > maxFrameBytes && n < len(r.frames)-1 {
		if !samePix(r.frames[n].Pix, r.frames[n+1].Pix) {
			r.frameMem -= len(r.frames[n].Pix) // (the last of its run of shared pixels)
		}
		r.frames[n] = Frame{} // release its pixels
		n++
	}
	if n > 0 {
		// A window on the same array: append moves the frames kept to a new
		// one when it is full. A copy at each drop cost 48 KiB a frame at
		// 256x256 (1,024 frames kept).
		r.frames = r.frames[n:]
		r.dropped += n
	}
}

// samePix reports whether two frames' pixels are the same bytes in memory.
func samePix(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Frames returns the presented frames kept: all of them, unless they hold
// more than 256 MiB of pixels, then the newest (FramesDropped says how many
// came before).
func (r *Run) Frames() []Frame { return r.frames }

// FramesDropped is the number of presented frames let go before Frames.
func (r *Run) FramesDropped() int { return r.dropped }

// LastFrame returns the last presented frame.
func (r *Run) LastFrame() (Frame, bool) {
	if len(r.frames) == 0 {
		return Frame{}, false
	}
	return r.frames[len(r.frames)-1], true
}

// Pixel is "#rrggbbaa" of the last presented frame ("" when none or outside).
func (r *Run) Pixel(x, y int) string {
	f, ok := r.LastFrame()
	if !ok || x < 0 || y < 0 || x >= f.Width || y >= f.Height {
		return ""
	}
	i := (y*f.Width + x) * 4
	return fmt.Sprintf("#%02x%02x%02x%02x", f.Pix[i], f.Pix[i+1], f.Pix[i+2], f.Pix[i+3])
}

// Violations returns what the verifier found.
func (r *Run) Violations() []verify.Violation { return r.verifier.Violations() }

// Warnings returns the verifier's warnings: checks the sources give as
// examples, which fail nothing (verify.Warning).
func (r *Run) Warnings() []verify.Violation { return r.verifier.Warnings() }
