package scenario

import (
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// The scenario's threads: each is a simulated application thread of the
// machine's simulation. The runner picks the next one to run by a seeded
// choice, lets one run inside another's kernel callback (option preempt),
// and keeps their `wait`s and the objects they hand each other in order in
// virtual time.

type thread struct {
	name    string
	stack   []*frame
	waiting string
	lastHR  hresult.HRESULT
	lastErr error
	lastPos Pos
	// lastVoid says the previous call was a void method (void.go), and
	// lastDropped that the runtime dropped it.
	lastVoid, lastDropped bool
	from                  uint64 // event range of the thread's previous call
	to                    uint64
	aside                 *aside // while it runs inside another thread's call (preempt), on its own goroutine
	x                     call   // the state of its call statement running (Run.call)
}

// aside is a thread that runs inside another's call (preempt) on a
// goroutine of its own, so that it can block on a lock the descheduled
// thread holds (sim.Mutex): one of the two goroutines runs at a time, and
// step says which way control came back — true when the thread parked,
// false when its statement is done.
type aside struct {
	step   chan bool
	resume chan struct{}
	line   int // the line the parked thread was running
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
	left  int    // repeat iterations left after this one
	until *Until // the loop whose block this frame runs, if it is an until's
	iter  int    // runs so far of the block of the until at pc (0: not entered)
}

// pick chooses the next thread to run: a seeded choice among the runnable
// ones, so interleavings are deterministic for a seed.
func (r *Run) pick() *thread {
	if len(r.threads) == 1 {
		// (one thread, the main one, not waiting: most scenarios)
		if t := r.threads[0]; len(t.stack) > 0 && t.aside == nil && t.waiting == "" {
			return t
		}
	}
	return r.pickAmong()
}

// pickAmong is pick's choice among the threads (one waiting for an event
// among them).
func (r *Run) pickAmong() *thread {
	var runnable []*thread
	var blocked *thread
	for _, t := range r.threads {
		if len(t.stack) == 0 || t.aside != nil { // (a parked thread is inside its statement)
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
	hctx := r.inHContextCallback(cur)
	var cands []*thread
	for _, t := range r.threads {
		if t.name != cur && r.nestable(t, hctx) {
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
	r.runAside(t)
	r.nesting--
	r.sim.Switch(cur)
	r.line = line
	r.setLine(line)
}

// hctxCallbacks are the kernel callbacks that name the immediate context's
// HCONTEXT and may deschedule the thread ("Changes from Direct3D 10").
var hctxCallbacks = map[string]bool{"pfnRenderCb": true, "pfnPresentCb": true,
	"pfnWaitForSynchronizationObjectCb": true, "pfnSignalSynchronizationObjectCb": true,
	"pfnWaitForSynchronizationObjectFromGpuCb": true, "pfnSignalSynchronizationObjectFromGpuCb": true}

// inHContextCallback says whether thread th is descheduled inside one of
// them: the runtime calls the preemption hook right after the callback's
// Call event.
func (r *Run) inHContextCallback(th string) bool {
	e, ok := r.rec.At(uint64(r.rec.Len()))
	return ok && e.Thread == th && e.Kind == trace.Call && hctxCallbacks[e.Name]
}

// runAside runs t's next statement on a goroutine of its own and returns
// when it is done or t parked on a lock the current thread holds
// (sim.Mutex; the driver's HCONTEXT lock): the holder's Unlock then wakes
// it (wake) and it finishes there.
func (r *Run) runAside(t *thread) {
	a := &aside{step: make(chan bool), resume: make(chan struct{})}
	t.aside = a
	go func() {
		r.exec(t)
		a.step <- false
	}()
	if parked := <-a.step; !parked {
		t.aside = nil
	}
}

// park blocks the running thread, if it runs aside, until wake: control
// goes back to the thread it runs inside. It reports false for a thread
// that does not run aside (it cannot park: the lock blocks it for real).
func (r *Run) park() bool {
	t := r.threadNamed(r.sim.Thread())
	if t == nil || t.aside == nil {
		return false
	}
	a := t.aside
	a.line = r.line
	a.step <- true
	<-a.resume
	return true
}

// wake runs a parked thread, from the Unlock of the lock it waits for,
// until its statement is done (or it parks again), then comes back.
func (r *Run) wake(name string) {
	t := r.threadNamed(name)
	if t == nil || t.aside == nil {
		return
	}
	a := t.aside
	cur, line := r.sim.Thread(), r.line
	r.nesting++
	r.sim.Switch(name)
	r.line = a.line
	r.setLine(a.line)
	a.resume <- struct{}{}
	if parked := <-a.step; !parked {
		t.aside = nil
	}
	r.nesting--
	r.sim.Switch(cur)
	r.line = line
	r.setLine(line)
}

func (r *Run) threadNamed(name string) *thread {
	for _, t := range r.threads {
		if t.name == name {
			return t
		}
	}
	return nil
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
// inside a DDI: a free-threaded call (D3D11DDICAPS_FREETHREADED) — a
// Device's Create* (but CreateSwapChain, whose primaries belong to the
// immediate context's thread, and CreateDeferredContext), Escape, or the
// Release/AddRef of a resource that is not a primary, a view, a shader or a
// state — or, when the descheduled thread is inside a kernel callback of
// the immediate context (hctx), a Flush, Signal or Wait of that context: two
// threads take turns driving it, and the driver's lock on its HCONTEXT
// (rule FT-HCTX) makes such a call wait until the descheduled thread
// leaves its DDI.
func (r *Run) nestable(t *thread, hctx bool) bool {
	if len(t.stack) == 0 || t.waiting != "" || t.aside != nil {
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
	case *d3d11.DeviceContext:
		return hctx && !o.Deferred() && (c.Method == "Flush" || c.Method == "Signal" || c.Method == "Wait")
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
	ev.Args = waitDone
	ev.Msg = fmt.Sprintf("signal %s came from thread %s at t=%d", s.Event, sig.thread, sig.at)
	r.rec.Emit(ev)
}

// handOff keeps a call that names an object another thread made from
// running before that object existed: the thread's clock moves forward to
// the end of the creating call (a wait with its reason on the thread's
// lane). A scenario that passes objects between threads through `signal`
// and `wait` is already there; this covers one that relies on the
// interleaving alone. The creation it waits for is lastMade's.
func (r *Run) handOff(name string, latest signalled) {
	if name == "" || latest.at <= r.sim.Now() {
		return
	}
	ev := trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Wait, Name: "wait", Obj: name,
		Msg: fmt.Sprintf("uses %s, which thread %s made at t=%d", name, latest.thread, latest.at)}
	r.rec.Emit(ev)
	r.sim.AdvanceTo(latest.at)
	ev.Args = waitDone
	r.rec.Emit(ev)
}

// lastMade is the latest creation, by a thread other than t, of a name s
// uses (its target or an argument), and that name ("": none).
func (r *Run) lastMade(t *thread, s *Call) (latest signalled, name string) {
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
	return latest, name
}

// waitDone is the payload of a wait's end.
var waitDone = trace.FlagArgs(trace.KeyDone)
