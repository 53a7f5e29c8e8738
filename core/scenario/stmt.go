package scenario

import (
	"errors"
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Running a statement: exec dispatches one statement of a thread; an API
// call goes through the method table (table.go, exec.go) to the runtime,
// then the runner checks its result and the run's budgets.

// exec runs one statement of t and reports whether it was an API call.
func (r *Run) exec(t *thread) bool {
	st := t.next()
	if st == nil {
		return false
	}
	if !r.sim.IsRunning(t.name) {
		r.sim.Switch(t.name)
	}
	s, ok := st.(*Call)
	if !ok {
		return r.execOther(t, st)
	}
	// (r.cur restored: a preempting thread's statement runs inside
	// another's. The statement of a run of Draws: without a deferred
	// closure, about 30 instructions a statement, and in a function with
	// no defer; r.inCall is not deferred either, and a call that panics
	// ends the run)
	prev := r.cur
	r.cur = t
	r.line = s.Line
	r.setLine(r.line)
	t.advance()
	r.inCall++
	// The call's state is the thread's: one allocation per statement was
	// most of what a Draw allocated, and a free list of them about 25
	// instructions a statement. A thread runs one statement at a time (one
	// inside another's call is another thread, and a parked thread is not
	// picked); nothing keeps x, which the thread's next call sets whole.
	x := &t.x
	*x = call{run: r, st: s}
	r.callWith(t, s, x)
	r.inCall--
	r.cur = prev
	return true
}

// execOther is exec of a statement that is not an API call.
func (r *Run) execOther(t *thread, st Stmt) bool {
	prev := r.cur
	r.cur = t
	defer func() { r.cur = prev }()
	r.line = Position(st).Line
	r.setLine(r.line)
	switch s := st.(type) {
	case *Thread:
		t.advance()
		if len(r.threads) >= maxThreads {
			r.limitf(s.Pos, "thread %s: more than %d threads started, the limit", s.Name, maxThreads)
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
	case *Until:
		r.until(t, s)
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
		r.observeExpect(t, s)
		r.expect(t, s)
	}
	r.check()
	// Statements that are not API calls count against the step budget too,
	// or a loop of them (repeat 1000000000 { expect violations == 0 })
	// would never end. Found by fuzzing the runner.
	if r.other++; r.other >= r.opt.maxsteps && !r.done {
		r.limitf(Position(st), "step budget of %d reached by statements that are not API calls (option maxsteps=N raises it)", r.opt.maxsteps)
		r.stop()
	}
	return false
}

// liveObjects counts the API objects the run's devices hold, the devices
// themselves not included.
func (r *Run) liveObjects() int {
	n := 0
	for _, d := range r.devs {
		n += d.LiveObjects()
	}
	return n - len(r.devs)
}

// maxShapeBytes bounds the trace's table of distinct event shapes
// (trace.Recorder.ShapeBytes), checked every 256 API calls.
const maxShapeBytes = 64 << 20

// maxThreads bounds the scenario threads one run starts (a thread statement
// in a loop would otherwise start millions); maxDevices the devices it
// creates.
const (
	maxThreads = 1000
	maxDevices = 256
)

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
	if s.Target == "" && s.Method == "D3D11CreateDevice" && len(r.rt.Devices()) >= maxDevices {
		// Each device keeps its runtime, UMD and kernel state: a creation
		// loop would exhaust memory long before the step budget.
		r.limitf(s.Pos, "D3D11CreateDevice: %d devices created in this run, the limit", maxDevices)
		r.stop()
		return
	}
	memo, hit := r.memoFor(t, s)
	if hit {
		x.tgt, x.m, x.lead = memo.tgt, memo.m, memo.lead
	} else if !r.resolve(s, x) {
		return
	} else {
		made, of := r.lastMade(t, s)
		lead := 0
		for lead < len(s.Args) && s.Args[lead].Key == "" {
			lead++
		}
		x.lead = lead
		*memo = stmtMemo{s: s, t: t, binds: r.binds, tgt: x.tgt, m: x.m, made: made, madeOf: of,
			void: s.Target != "" && d3d11.VoidMethod(s.Method), draw: strings.HasPrefix(s.Method, "Draw"), lead: lead}
	}
	void, draw := memo.void, memo.draw // (a call that preempts this one may take the slot)
	if memo.madeOf != "" {
		r.handOff(memo.madeOf, memo.made)
	}
	from := uint64(r.rec.Len())
	err := x.m.exec(x)
	if err == nil && draw && len(r.shaders.by) > 0 {
		r.noteDraw(t, s, x, from)
	}
	if r.onCall != nil {
		r.onCall(CallDone{Thread: t.name, Line: s.Line, Method: s.Method, Target: x.tgt, From: from, Err: err})
	}
	if r.opt.sync && err == nil && r.nesting == 0 {
		// (a preempting call is synced with the call it ran inside: the
		// immediate context belongs to that one's thread)
		r.syncAll()
	}
	t.lastErr, t.lastHR, t.lastPos = err, hresult.Of(err), s.Pos
	t.lastVoid, t.lastDropped = void, dropped(void, err)
	if c, ok := x.tgt.(*d3d11.DeviceContext); ok && c.TakeDropped() && t.lastVoid {
		t.lastDropped = true // dropped silently: an object of another device
	}
	if r.obs != nil {
		r.observe(t, s, x, err)
	}
	r.steps++
	if s.Target == "" && s.Method == "D3D11CreateDevice" {
		r.devs = r.rt.Devices()
	}
	t.from, t.to = from, r.check() // (check reads the trace's length first)
	if r.steps%256 == 0 && r.rec.ShapeBytes() > maxShapeBytes {
		// The trace interns the distinct combinations of names an event
		// carries; each new object or handle adds some, and the ring's
		// byte limit does not count them (a loop of failing creations
		// grew them by 5 KB a call). Checked before the call's result:
		// failed calls add to it too.
		r.limitf(s.Pos, "the trace's table of distinct events passed %d MiB after %d API calls (each new object or handle adds to it), the limit", maxShapeBytes>>20, r.steps)
		r.stop()
		return
	}
	if bad := badInputOf(err); bad != nil {
		r.failf(s.MethodPos, "%s", bad.msg)
		r.badInput = true
		r.stop()
		return
	}
	if err != nil && hresult.Of(err).Failed() {
		if e, ok := t.peek().(*Expect); ok && e.Kind == ExpectHR {
			return
		}
		if u := t.testsHR(); u != nil {
			return // the last call of an until block: its hr condition looks at the failure (Run.until)
		}
		if t.lastDropped {
			r.failf(s.Pos, "%s was dropped by the runtime (a void method: no HRESULT, the debug layer says why): %v (add `expect hr == %s` after it if that is intended)", callName(s), err, Dropped)
		} else {
			r.failf(s.Pos, "%s failed: %v (add `expect hr == %s` after it if that is intended)", callName(s), err, hresult.Of(err).Name())
		}
		r.stop()
		return
	}
	// The trace itself is a ring (option maxevents): it never stops a run.
	// Virtual time bounds the GPU work a run can wait for: a loop that
	// copies 64 MiB and maps the result costs milliseconds of real time per
	// call, so the step budget alone would let it run for hours.
	if r.steps >= r.opt.maxsteps {
		r.limitf(s.Pos, "step budget of %d API calls reached (option maxsteps=N raises it)", r.opt.maxsteps)
		r.stop()
	} else if now := r.sim.Now(); now > r.opt.maxtime {
		r.limitf(s.Pos, "time budget of %d ms of virtual time reached after %d API calls (option maxtime=MS raises it)", r.opt.maxtime/1e6, r.steps)
		r.stop()
	} else if r.gpuBudgets(s.Pos) {
		r.stop()
	} else if n := r.liveObjects(); n > r.opt.maxobjects {
		// Each device holds at most maxobjects (its creations fail past
		// it); the run as a whole too, or 100 devices × 100,000 blend
		// states (17 GB) would pass.
		r.limitf(s.Pos, "%d API objects alive in this run, the limit (option maxobjects=%d bounds each device and the run as a whole)", n, r.opt.maxobjects)
		r.stop()
	} else if b := r.mach.GPUCommitted(); b > r.opt.sysmem {
		// The same for memory: each device's allocations are held to
		// sysmem when made, the run's as a whole after each call.
		r.limitf(s.Pos, "%d bytes of GPU memory committed in this run, past the limit of %d (option sysmem=SIZE bounds each device and the run as a whole)", b, r.opt.sysmem)
		r.stop()
	}
}

// until runs `until COND max N { ... }` on t. The statement is met once on
// entry and once after each run of its block (it stays the frame's current
// statement meanwhile, frame.iter counting the runs): the block runs
// first, then COND is tested, as the polling loop of "Changes from
// Direct3D 10" calls GetData before it tests the result. Past N runs the
// run stops with a failure naming the line.
func (r *Run) until(t *thread, s *Until) {
	f := t.stack[len(t.stack)-1]
	if f.iter > 0 {
		ok, now := r.holds(t, s.Cond)
		if ok {
			f.iter = 0
			t.advance()
			r.untilDone(t, s)
			return
		}
		if f.iter >= s.Max {
			f.iter = 0
			t.advance()
			r.failf(s.Pos, "until %s: still false after %d runs of the block (max %d): %s", s.Cond.Text, s.Max, s.Max, now)
			r.stop()
			return
		}
	}
	f.iter++
	t.stack = append(t.stack, &frame{stmts: s.Body, until: s})
}

// untilDone ends an until loop whose hr condition holds: a failure it
// looked at and did not name (`until hr != S_FALSE` ended by
// DXGI_ERROR_DEVICE_REMOVED) stops the run as a failing call does, unless an
// `expect hr` follows the loop.
func (r *Run) untilDone(t *thread, s *Until) {
	c := s.Cond
	if c.Data != nil || !t.lastHR.Failed() || c.Op == OpEq {
		return
	}
	if e, ok := t.peek().(*Expect); ok && e.Kind == ExpectHR {
		return
	}
	r.failf(t.lastPos, "the call failed: %v, which ended the loop `until %s` (line %d) (add `expect hr == %s` after the loop if that is intended)",
		t.lastErr, c.Text, s.Line, t.lastHR.Name())
	r.stop()
}

// testsHR returns the until loop whose block t has just run to its end, if
// its condition is on hr: the failure of the block's last call is for
// that condition to judge.
func (t *thread) testsHR() *Until {
	f := t.stack[len(t.stack)-1]
	if f.until == nil || f.pc < len(f.stmts) || f.until.Cond.Data != nil {
		return nil
	}
	return f.until
}

// polling reports whether t runs the block of an until loop again (its
// second run or later): a GetData there answers the same question as the
// first run's, so QueryResult.N does not count it.
func (t *thread) polling() bool {
	for i := len(t.stack) - 1; i > 0; i-- {
		if t.stack[i].until != nil {
			return t.stack[i-1].iter > 1
		}
	}
	return false
}

// holds tests an until's condition on t; now says what was seen, for the
// message of a loop that runs out.
func (r *Run) holds(t *thread, c Cond) (ok bool, now string) {
	if c.Data != nil {
		ok, now, _ = r.compareData(c.Data)
		return ok, now
	}
	want, _ := hresult.Parse(c.HR)
	now = fmt.Sprintf("the last call (line %d) returned %s", t.lastPos.Line, t.lastHR.Name())
	return (t.lastHR == want) == (c.Op == OpEq), now
}

// syncAll makes every call complete on the GPU before it returns (option
// sync=true: the synchronous baseline rule ASYNC-SAME compares the
// asynchronous runs with).
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
		return map[d3d11.ViewKind]string{d3d11.ViewRTV: tRTV, d3d11.ViewSRV: tSRV, d3d11.ViewDSV: tDSV, d3d11.ViewUAV: tUAV}[o.ViewKind]
	case *d3d11.Shader:
		return o.Stage
	case *d3d11.State:
		return o.Kind
	case *d3d11.Query:
		return tQuery
	case *d3d11.CommandList:
		return tCommandList
	case *d3d11.Fence:
		return tFence
	}
	return ""
}

// gpuBudgets checks the run's GPU budgets after a statement (and at the
// end of the run, once the GPU is idle), and reports whether one was
// passed (limitf said which).
func (r *Run) gpuBudgets(p Pos) bool {
	if mark, idle := r.sim.Events(); !r.gpuRead || mark != r.gpuSeen || !idle {
		// The GPU works only in the simulation's events: its counts are
		// read again (under its lock) only when one started or ended since the
		// last read or one is running now (a preempting statement's).
		r.gpuPixels, r.gpuInstr = r.mach.GPUBudgeted()
		r.gpuSeen, r.gpuRead = mark, idle
	}
	pixels, instr := r.gpuPixels, r.gpuInstr
	switch {
	case pixels+r.scanned > r.opt.maxpixels:
		// Shading a pixel costs the simulator far more real time than
		// the virtual time it charges: bound the pixels themselves —
		// shaded, cleared or copied (a pixel per 4 bytes), and presented
		// (the display engine copies each frame out). The GPU checks
		// the same inside each draw and stops it there (gpu.Limits).
		r.limitf(p, "pixel budget of %d pixels shaded, written or presented reached after %d API calls%s (option maxpixels=N raises it)", r.opt.maxpixels, r.steps, r.stoppedDraw("pixels"))
	case instr > r.opt.maxinstr:
		// A shader's loop runs far longer in the simulator than the
		// virtual time it charges: bound the instructions themselves,
		// inside each draw (gpu.Limits).
		r.limitf(p, "instruction budget of %d shader instructions executed reached after %d API calls%s (option maxinstructions=N raises it)", r.opt.maxinstr, r.steps, r.stoppedDraw("instructions"))
	default:
		return false
	}
	return true
}

// stoppedDraw names the draw the GPU stopped at the budget limit, for
// the budget's message ("" when none did).
func (r *Run) stoppedDraw(limit string) string {
	st, ok := r.mach.GPUStopped()
	if !ok || st.Limit != limit {
		return ""
	}
	shaders := ""
	switch {
	case st.VS != "" && st.PS != "":
		shaders = fmt.Sprintf(" running vertex shader %s and pixel shader %s", st.VS, st.PS)
	case st.VS != "":
		shaders = fmt.Sprintf(" running vertex shader %s and no pixel shader", st.VS)
	}
	return fmt.Sprintf(": the GPU stopped %s%s there", st.Draw, shaders)
}

// resolve finds the object s's target names and its method, and checks that
// every object argument names a set object; false: it failed the run.
func (r *Run) resolve(s *Call, x *call) bool {
	if s.Target == "" {
		x.m = globals[s.Method]
	} else {
		x.tgt = r.vars[s.Target]
		if x.tgt == nil {
			r.failf(s.TargetPos, "%s is not set (its creating call failed or has not run yet on this thread's path)", s.Target)
			r.badInput = true
			r.stop()
			return false
		}
		if typ := typeOf(x.tgt); typ == r.lastTyp && s.Method == r.lastMethod && r.lastM != nil {
			x.m = r.lastM
		} else {
			x.m = lookupMethod(typ, s.Method)
			r.lastTyp, r.lastMethod, r.lastM = typ, s.Method, x.m
		}
	}
	if x.m == nil {
		r.failf(s.MethodPos, "%s has no method %s", s.Target, s.Method)
		r.badInput = true
		r.stop()
		return false
	}
	n := 0
	for i := range s.Args {
		if s.Args[i].Key == "" {
			n++
		}
	}
	// An object argument whose creating call has not run on this path
	// would silently act as NULL.
	for i := range n {
		if i >= len(x.m.pos) || x.m.pos[i].kind != pObj {
			continue
		}
		if a := x.posArgP(i); a != nil && a.Value.Kind == VIdent && a.Value.Ident != "NULL" && r.vars[a.Value.Ident] == nil {
			r.failf(a.Pos, "%s is not set (its creating call failed or has not run yet on this thread's path)", a.Value.Ident)
			r.badInput = true
			r.stop()
			return false
		}
	}
	return true
}
