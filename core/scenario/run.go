package scenario

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/machine"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/verify"
)

// Run is one execution of a scenario on a fresh simulated machine.
type Run struct {
	mach   *machine.Machine
	sim    *sim.Sim        // the machine's simulation: the scenario's threads run on it
	rec    *trace.Recorder // the machine's trace
	rt     *d3d11.Runtime  // the API the statements call
	script *Script
	opt    options

	vars      map[string]any
	freeCalls []*call // call states to reuse (Run.call)
	names     map[d3d11.Object]string
	threads   []*thread
	events    map[string]bool
	signals   map[string]signalled // when and by whom each event was first signalled
	made      map[string]signalled // when and on which thread each name was last bound

	frames    []Frame // the presented frames kept (maxFrameBytes), oldest first
	dropped   int     // older frames let go
	frameMem  int     // bytes of pixels in frames
	scanned   uint64  // pixels presented in all (pixel budget)
	failures  []string
	done      bool
	steps     int
	other     int // work of statements that are not API calls, in steps (budget too)
	lastData  uint64
	queries   []QueryResult // every GetData, for rule ASYNC-SAME
	queryRuns map[int]int   // GetData statements run so far, by line

	hash     string   // of the last frame, computed once per frame
	hashed   int      // frames hashed
	messages []string // debug-layer messages seen so far (onEvent)

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
}

type thread struct {
	name    string
	stack   []*frame
	waiting string
	lastHR  hresult.HRESULT
	lastErr error
	lastPos Pos
	from    uint64 // event range of the thread's previous call
	to      uint64
}

// signalled is the first `signal` of an event: a thread that waits for the
// event resumes no earlier than this, in virtual time.
type signalled struct {
	at     int64
	thread string
}

type frame struct {
	stmts []Stmt
	pc    int
	left  int // repeat iterations left after this one
}

// deferredCalls is an `expect calls` checked once the run is over, when the
// asynchronous consequences of the statement (kernel, GPU, interrupt, DPC)
// have all happened. Its events are collected as they are written.
type deferredCalls struct {
	e    *Expect
	seq  []trace.Event   // the statement's own events, then those it caused
	dmas map[uint64]bool // DMA buffers the statement submitted
	lost bool            // the ring dropped some of its own events first
}

// NewRun prepares a run. Nothing executes until Step or Finish.
func NewRun(s *Script, o Overrides) *Run {
	r := &Run{script: s, opt: decodeOptions(s, o), vars: map[string]any{}, names: map[d3d11.Object]string{},
		events: map[string]bool{}, signals: map[string]signalled{}, made: map[string]signalled{}, expected: map[string]bool{}}
	r.mach = machine.New(r.opt.machine(func(f machine.Frame) {
		r.addFrame(Frame{Width: f.Width, Height: f.Height, Pix: f.Pix})
	}, r.preempt))
	r.sim, r.rec, r.rt = r.mach.Sim(), r.mach.Recorder(), r.mach.Runtime()
	r.rec.SetLimit(r.opt.maxevents)
	r.rec.Subscribe(r.onEvent)
	r.verifier = verify.New(r.rec)
	r.threads = []*thread{{name: "main", stack: []*frame{{stmts: s.Stmts}}}}
	return r
}

func (r *Run) failf(p Pos, format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf("%d:%d: %s", p.Line, p.Col, fmt.Sprintf(format, args...)))
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
	return call, r.done
}

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

// pick chooses the next thread to run: a seeded choice among the runnable
// ones, so interleavings are deterministic for a seed.
func (r *Run) pick() *thread {
	var runnable []*thread
	var blocked *thread
	for _, t := range r.threads {
		if len(t.stack) == 0 {
			continue
		}
		if t.waiting != "" && !r.events[t.waiting] {
			blocked = t
			continue
		}
		runnable = append(runnable, t)
	}
	if len(runnable) == 0 {
		if blocked != nil {
			st := blocked.stack[len(blocked.stack)-1]
			r.failf(Position(st.stmts[st.pc]), "thread %s waits for %q, which no thread will signal", blocked.name, blocked.waiting)
		}
		return nil
	}
	if len(runnable) == 1 {
		return runnable[0]
	}
	return runnable[r.sim.Intn(len(runnable))]
}

// next returns the thread's next statement, unwinding finished blocks.
func (t *thread) next() Stmt {
	for len(t.stack) > 0 {
		f := t.stack[len(t.stack)-1]
		if f.pc < len(f.stmts) {
			return f.stmts[f.pc]
		}
		if f.left > 0 {
			f.left--
			f.pc = 0
			continue
		}
		t.stack = t.stack[:len(t.stack)-1]
	}
	return nil
}

func (t *thread) advance() { t.stack[len(t.stack)-1].pc++ }

// peek returns the statement that follows the one just advanced past, in
// the same block.
func (t *thread) peek() Stmt {
	f := t.stack[len(t.stack)-1]
	if f.pc < len(f.stmts) {
		return f.stmts[f.pc]
	}
	return nil
}

// exec runs one statement of t and reports whether it was an API call.
func (r *Run) exec(t *thread) bool {
	st := t.next()
	if st == nil {
		return false
	}
	r.sim.Switch(t.name)
	r.line = Position(st).Line
	r.setLine(r.line)
	switch s := st.(type) {
	case *Call:
		t.advance()
		r.inCall++
		r.call(t, s)
		r.inCall--
		return true
	case *Thread:
		t.advance()
		if len(r.threads) >= maxThreads {
			r.failf(s.Pos, "thread %s: more than %d threads started, the limit", s.Name, maxThreads)
			r.stop()
			return false
		}
		r.threads = append(r.threads, &thread{name: s.Name, stack: []*frame{{stmts: s.Body}}})
		// The new thread's clock starts here, whichever thread the seeded
		// choice runs next.
		r.sim.Start(s.Name)
		r.rec.Emit(trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Message, Name: "thread", Obj: s.Name, Msg: "starts thread " + s.Name})
	case *Repeat:
		t.advance()
		if s.Count > 0 && len(s.Body) > 0 { // an empty body repeats nothing
			t.stack = append(t.stack, &frame{stmts: s.Body, left: s.Count - 1})
		}
	case *Signal:
		t.advance()
		if !r.events[s.Event] {
			r.signals[s.Event] = signalled{r.sim.Now(), t.name}
		}
		r.events[s.Event] = true
		r.rec.Emit(trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Message, Name: "signal", Obj: s.Event, Msg: "signals " + s.Event})
	case *Wait:
		r.wait(t, s)
		if t.waiting != "" {
			return false
		}
		t.advance()
	case *Inject:
		t.advance()
		r.inject(s)
	case *Expect:
		t.advance()
		r.expect(t, s)
	}
	r.check()
	// Statements that are not API calls count against the step budget too,
	// or a loop of them (repeat 1000000000 { expect violations == 0 })
	// would never end. Found by fuzzing the runner.
	if r.other++; r.other >= r.opt.maxsteps && !r.done {
		r.failf(Position(st), "step budget of %d reached by statements that are not API calls (option maxsteps=N raises it)", r.opt.maxsteps)
		r.stop()
	}
	return false
}

// preempt runs when the current thread is descheduled inside a kernel
// callback (option preempt; see d3d11.Runtime.SetPreempt). A seeded choice
// either lets the thread go on or picks another thread whose next statement
// is a free-threaded call, and runs that statement now, while the first
// thread is still inside its DDI: the trace then shows the two overlap.
// One level deep: a preempting statement is not itself preempted.
func (r *Run) preempt() {
	if r.nesting > 0 || r.inCall == 0 || r.done {
		return
	}
	cur := r.sim.Thread()
	var cands []*thread
	for _, t := range r.threads {
		if t.name != cur && r.nestable(t) {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		return
	}
	i := r.sim.Intn(len(cands) + 1)
	if i == len(cands) {
		return
	}
	t, line := cands[i], r.line
	r.rec.Emit(trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Message, Name: "Preempted",
		Msg: fmt.Sprintf("%s is descheduled (inside the call this event belongs to); %s runs meanwhile", cur, t.name)})
	r.nesting++
	r.exec(t)
	r.nesting--
	r.sim.Switch(cur)
	r.line = line
	r.setLine(line)
}

// setLine stamps the events that follow with line. Only this sets the
// recorder's line, so it is called only when the line changes (a statement
// in a loop runs at the same line each time: no lock round trip).
func (r *Run) setLine(line int) {
	if line != r.recLine {
		r.rec.SetLine(line)
		r.recLine = line
	}
}

// nestable says whether t's next statement may run while another thread is
// inside a DDI: a free-threaded call (seed 000) — a Device's Create* (but
// CreateSwapChain, whose primaries belong to the immediate context's thread,
// and CreateDeferredContext), Escape, or the Release/AddRef of a resource
// that is not a primary, a view, a shader or a state.
func (r *Run) nestable(t *thread) bool {
	if len(t.stack) == 0 || t.waiting != "" {
		return false
	}
	c, ok := t.next().(*Call)
	if !ok || c.Target == "" {
		return false
	}
	switch o := r.vars[c.Target].(type) {
	case *d3d11.Device:
		return strings.HasPrefix(c.Method, "Create") && c.Method != "CreateSwapChain" && c.Method != "CreateDeferredContext" || c.Method == "Escape"
	case *d3d11.Resource:
		return (c.Method == "Release" || c.Method == "AddRef") && !o.Desc.Primary
	case *d3d11.View, *d3d11.Shader, *d3d11.State:
		return c.Method == "Release" || c.Method == "AddRef"
	}
	return false
}

// wait runs `wait EVENT` on t. Before the event is signalled the thread
// blocks (a wait event on its lane). Once it is, the thread resumes no
// earlier in virtual time than the signal: its clock moves forward to the
// signaller's time if it is behind, and the wait's end is a second wait
// event with args "done". A wait that neither blocked nor is behind the
// signal leaves no event.
func (r *Run) wait(t *thread, s *Wait) {
	ev := trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Wait, Name: "wait", Obj: s.Event, Msg: "waits for signal " + s.Event}
	if !r.events[s.Event] {
		if t.waiting == "" {
			t.waiting = s.Event
			r.rec.Emit(ev)
		}
		return
	}
	sig := r.signals[s.Event]
	blocked := t.waiting != ""
	if !blocked && r.sim.Now() >= sig.at {
		return
	}
	if !blocked {
		r.rec.Emit(ev)
	}
	t.waiting = ""
	r.sim.AdvanceTo(sig.at)
	ev.Args = "done"
	ev.Msg = fmt.Sprintf("signal %s came from thread %s at t=%d", s.Event, sig.thread, sig.at)
	r.rec.Emit(ev)
}

// handOff keeps a call that names an object another thread made from
// running before that object existed: the thread's clock moves forward to
// the end of the creating call (a wait with its reason on the thread's
// lane). A scenario that passes objects between threads through `signal`
// and `wait` is already there; this covers one that relies on the
// interleaving alone.
func (r *Run) handOff(t *thread, s *Call) {
	var latest signalled
	var name string
	use := func(n string) {
		if m, ok := r.made[n]; ok && m.thread != t.name && m.at > latest.at {
			latest, name = m, n
		}
	}
	use(s.Target)
	for i := range s.Args {
		if s.Args[i].Value.Kind == VIdent {
			use(s.Args[i].Value.Ident)
		}
	}
	if name == "" || latest.at <= r.sim.Now() {
		return
	}
	ev := trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Wait, Name: "wait", Obj: name,
		Msg: fmt.Sprintf("uses %s, which thread %s made at t=%d", name, latest.thread, latest.at)}
	r.rec.Emit(ev)
	r.sim.AdvanceTo(latest.at)
	ev.Args = "done"
	r.rec.Emit(ev)
}

// maxThreads bounds the scenario threads one run starts (a thread statement
// in a loop would otherwise start millions); maxDevices the devices it
// creates.
const (
	maxThreads = 1000
	maxDevices = 256
)

func (r *Run) call(t *thread, s *Call) {
	// The call's state comes from a free list: one allocation per
	// statement was most of what a Draw allocated. A stack, as a
	// call may run inside another (preemption); nothing keeps x.
	var x *call
	if n := len(r.freeCalls); n > 0 {
		x, r.freeCalls = r.freeCalls[n-1], r.freeCalls[:n-1]
	} else {
		x = new(call)
	}
	*x = call{run: r, st: s}
	r.callWith(t, s, x)
	*x = call{}
	r.freeCalls = append(r.freeCalls, x)
}

// badInputOf is err as a *badInput, or nil (errors.As only for an error:
// its target escapes, an allocation per statement otherwise).
func badInputOf(err error) *badInput {
	if err == nil {
		return nil
	}
	var bad *badInput
	if errors.As(err, &bad) {
		return bad
	}
	return nil
}

func (r *Run) callWith(t *thread, s *Call, x *call) {
	if s.Target == "" {
		x.m = globals[s.Method]
	} else {
		x.tgt = r.vars[s.Target]
		if x.tgt == nil {
			r.failf(s.TargetPos, "%s is not set (its creating call failed or has not run yet on this thread's path)", s.Target)
			r.stop()
			return
		}
		x.m = lookupMethod(typeOf(x.tgt), s.Method)
	}
	if x.m == nil {
		r.failf(s.MethodPos, "%s has no method %s", s.Target, s.Method)
		r.stop()
		return
	}
	n := 0
	for i := range s.Args {
		if s.Args[i].Key == "" {
			n++
		}
	}
	if s.Target == "" && s.Method == "D3D11CreateDevice" && len(r.rt.Devices()) >= maxDevices {
		// Each device keeps its runtime, UMD and kernel state: a creation
		// loop would exhaust memory long before the step budget.
		r.failf(s.Pos, "D3D11CreateDevice: %d devices created in this run, the limit", maxDevices)
		r.stop()
		return
	}
	// An object argument whose creating call has not run on this path
	// would silently act as NULL.
	for i := range n {
		if i >= len(x.m.pos) || x.m.pos[i].kind != pObj {
			continue
		}
		if a := x.posArgP(i); a != nil && a.Value.Kind == VIdent && a.Value.Ident != "NULL" && r.vars[a.Value.Ident] == nil {
			r.failf(a.Pos, "%s is not set (its creating call failed or has not run yet on this thread's path)", a.Value.Ident)
			r.stop()
			return
		}
	}
	r.handOff(t, s)
	from := uint64(r.rec.Len())
	err := x.m.exec(x)
	if r.opt.sync && err == nil && r.nesting == 0 {
		// (a preempting call is synced with the call it ran inside: the
		// immediate context belongs to that one's thread)
		r.syncAll()
	}
	t.lastErr, t.lastHR, t.lastPos = err, hresult.Of(err), s.Pos
	r.steps++
	t.from, t.to = from, r.check() // (check reads the trace's length first)
	if bad := badInputOf(err); bad != nil {
		r.failf(s.MethodPos, "%s", bad.msg)
		r.stop()
		return
	}
	if err != nil && hresult.Of(err).Failed() {
		if e, ok := t.peek().(*Expect); ok && e.Kind == ExpectHR {
			return
		}
		r.failf(s.Pos, "%s failed: %v (add `expect hr == %s` after it if that is intended)", callName(s), err, hresult.Of(err).Name())
		r.stop()
		return
	}
	// The trace itself is a ring (option maxevents): it never stops a run.
	// Virtual time bounds the GPU work a run can wait for: a loop that
	// copies 64 MiB and maps the result costs milliseconds of real time per
	// call, so the step budget alone would let it run for hours.
	if r.steps >= r.opt.maxsteps {
		r.failf(s.Pos, "step budget of %d API calls reached (option maxsteps=N raises it)", r.opt.maxsteps)
		r.stop()
	} else if now := r.sim.Now(); now > r.opt.maxtime {
		r.failf(s.Pos, "time budget of %d ms of virtual time reached after %d API calls (option maxtime=MS raises it)", r.opt.maxtime/1e6, r.steps)
		r.stop()
	} else if st := r.mach.GPUStats(); st.Pixels+st.BytesCopied/4+r.scanned > r.opt.maxpixels {
		// Shading a pixel costs the simulator far more real time than
		// the virtual time it charges: bound the pixels themselves —
		// shaded, cleared or copied (a pixel per 4 bytes), and presented
		// (the display engine copies each frame out).
		r.failf(s.Pos, "pixel budget of %d pixels shaded, written or presented reached after %d API calls (option maxpixels=N raises it)", r.opt.maxpixels, r.steps)
		r.stop()
	}
}

// syncAll makes every call complete on the GPU before it returns (option
// sync=true, the synchronous baseline of seed 004).
func (r *Run) syncAll() {
	for _, d := range r.rt.Devices() {
		if d.Alive() && d.Removed() == nil {
			d.ImmediateContext().Flush()
		}
	}
	r.mach.Idle()
}

func callName(s *Call) string {
	if s.Target == "" {
		return s.Method
	}
	return s.Target + "." + s.Method
}

func typeOf(v any) string {
	switch o := v.(type) {
	case *d3d11.Device:
		return tDevice
	case *d3d11.DeviceContext:
		return tContext
	case *d3d11.SwapChain:
		return tSwap
	case *d3d11.Resource:
		if o.Kind == d3d11.KindBuffer {
			return tBuffer
		}
		return tTexture
	case *d3d11.View:
		return map[d3d11.ViewKind]string{d3d11.ViewRTV: tRTV, d3d11.ViewSRV: tSRV, d3d11.ViewDSV: tDSV}[o.ViewKind]
	case *d3d11.Shader:
		return o.Stage
	case *d3d11.State:
		return o.Kind
	case *d3d11.Query:
		return tQuery
	case *d3d11.CommandList:
		return tCommandList
	}
	return ""
}

// check feeds new events to the verifier. It runs after every statement, so
// the verifier reads each event before the trace ring can drop it — unless
// one statement makes more than a quarter of the ring's events, which is reported.
func (r *Run) check() uint64 {
	ln, dropped := r.rec.LenDropped()
	n := uint64(ln)
	if n > r.polled && dropped > r.polled && !r.lostRead { // event polled+1 was dropped
		r.lostRead = true
		r.failures = append(r.failures, fmt.Sprintf("%d:0: the trace ring dropped events before the verifier read them (one statement made more than a quarter of option maxevents=%d); the verification is incomplete", r.lastLine(), r.opt.maxevents))
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

// finish drains the GPU, evaluates deferred expectations and ends the run.
func (r *Run) finish() {
	if r.done {
		return
	}
	r.sim.Switch("main")
	r.mach.Idle()
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
	for _, v := range r.verifier.Violations() {
		if !r.expected[v.Rule] {
			r.failures = append(r.failures, fmt.Sprintf("%d:0: violation of %s (seed %s): %s", v.Line, v.Rule, v.Seed, v.Msg))
		}
	}
	r.done = true
}

// Summary reports the run so far.
func (r *Run) Summary() Summary {
	s := Summary{Frames: r.dropped + len(r.frames), Events: r.rec.Len(), Dropped: int(r.rec.Dropped()), Violations: len(r.verifier.Violations()),
		Failures: append([]string{}, r.failures...), Done: r.done, Steps: r.steps}
	// The page asks every frame: hash a new frame once, read new events once.
	if f, ok := r.LastFrame(); ok {
		if r.hashed != s.Frames {
			r.hash, r.hashed = HashBytes(f.Pix), s.Frames
		}
		s.Hash = r.hash
	}
	r.rec.Do(func() { s.Messages = append([]string{}, r.messages...) }) // onEvent collects them
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
// while the frames kept hold more than maxFrameBytes.
func (r *Run) addFrame(f Frame) {
	r.scanned += uint64(len(f.Pix) / 4)
	r.frames = append(r.frames, f)
	r.frameMem += len(f.Pix)
	n := 0
	for r.frameMem > maxFrameBytes && n < len(r.frames)-1 {
		r.frameMem -= len(r.frames[n].Pix)
		r.frames[n] = Frame{} // release its pixels
		n++
	}
	if n > 0 {
		r.frames = append([]Frame(nil), r.frames[n:]...)
		r.dropped += n
	}
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
