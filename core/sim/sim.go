package sim

import (
	"container/heap"
	"math"
	"math/rand/v2"
	_ "sync"        // (xsync's lock in line: see core/xsync)
	_ "sync/atomic" // (xsync's atomics in line: see core/xsync)
	"unsafe"

	"d3dsim/core/xsync"
)

// Sim holds virtual time. App threads are advanced by the cost of what they
// do (Charge); event threads run queued events, each at its own time. Safe for
// concurrent use by real goroutines (the free-threaded D3D11 entry points).
type Sim struct {
	mu      xsync.Mutex
	clocks  map[string]*clock    // thread -> its clock
	byID    []*clock             // the clocks by id-1 (written under mu)
	cur     xsync.Pointer[clock] // the running thread's (written under mu)
	q       events
	next    xsync.Int64 // q[0].at, math.MaxInt64 when q is empty (written under mu): PollCharge's look without the lock
	nseq    uint64
	rng     *rand.Rand
	steps   uint64
	running int // events being run (runNext), on every goroutine
	// activity is steps in its high 32 bits and running in its low ones
	// (written with them, under mu): Events reads both in one atomic load.
	activity xsync.Uint64

	park func() bool         // SetBlocking (mutex.go)
	wake func(thread string) //
}

// clock is a simulated thread's local time. Its time is changed
// atomically, so that Now, Thread and Stamp read the running thread's clock
// without the lock (every trace event is stamped), and Charge and
// PollCharge add to it without the lock (every API and DDI call: a lock
// round trip each was about 45 instructions of a Draw, issue 32's draw
// rate); a clock moved forward to a time (AdvanceTo, Start, an event run
// on it) is moved by compare-and-swap, so no charge made meanwhile is
// lost (raiseTo).
type clock struct {
	name string
	t    xsync.Int64
	id   int32 // 1 + its index in Sim.byID (Mutex.owner: a number, no pointer to store)
}

// New returns a simulation whose choices come from seed.
func New(seed uint64) *Sim {
	main := &clock{name: "main", id: 1}
	s := &Sim{
		clocks: map[string]*clock{"main": main},
		byID:   []*clock{main},
		rng:    rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
	}
	s.cur.Store(main)
	s.next.Store(math.MaxInt64)
	return s
}

// raiseTo moves c's time forward to t (never backwards), atomically with
// the Adds of Charge and PollCharge.
func (c *clock) raiseTo(t int64) {
	for {
		old := c.t.Load()
		if t <= old || c.t.CompareAndSwap(old, t) {
			return
		}
	}
}

// queued sets next after a change of q. The caller holds mu.
func (s *Sim) queued() {
	if len(s.q) == 0 {
		s.next.Store(math.MaxInt64)
	} else {
		s.next.Store(s.q[0].at)
	}
}

// newClock registers a thread's clock at time t. The caller holds mu.
func (s *Sim) newClock(name string, t int64) *clock {
	c := &clock{name: name, id: int32(len(s.byID) + 1)}
	c.t.Store(t)
	s.clocks[name] = c
	s.byID = append(s.byID, c)
	return c
}

// clockNamed is the name of the clock id ("" for 0).
func (s *Sim) clockNamed(id int32) string {
	if id == 0 {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byID[id-1].name
}

// Now is the current thread's local time in virtual nanoseconds.
func (s *Sim) Now() int64 { return s.cur.Load().t.Load() }

// Stamp is Now and Thread read together: what a trace event is stamped
// with.
func (s *Sim) Stamp() (int64, string) {
	c := s.cur.Load()
	return c.t.Load(), c.name
}

// Thread is the name of the simulated thread that is running.
func (s *Sim) Thread() string { return s.cur.Load().name }

// Start registers a thread started by the running one: its clock starts at
// the starter's time (or stays where it is, if later), so it cannot act in
// the past of whoever started it, whichever thread runs in between.
func (s *Sim) Start(name string) {
	s.mu.Lock()
	t := s.cur.Load().t.Load()
	if c := s.clocks[name]; c == nil {
		if t > 0 {
			s.newClock(name, t)
		}
	} else {
		c.raiseTo(t)
	}
	s.mu.Unlock()
}

// IsRunning reports whether name, the very string (not a copy of it), is
// the running thread's: a test in line before Switch, which a scenario
// makes before every statement, to the thread already running nearly
// always.
func (s *Sim) IsRunning(name string) bool {
	c := s.cur.Load()
	return unsafe.StringData(name) == unsafe.StringData(c.name) && len(name) == len(c.name)
}

// Switch makes name the running thread and returns the previous one. A
// thread that never ran and was not Started begins at the previous running
// thread's time.
func (s *Sim) Switch(name string) string {
	if c := s.cur.Load(); len(name) == len(c.name) && (unsafe.StringData(name) == unsafe.StringData(c.name) || name == c.name) {
		// (a scenario statement switches to its thread each time, by the
		// same string: no call to compare the bytes)
		return name
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	prev := s.cur.Load()
	c, ok := s.clocks[name]
	if !ok {
		c = s.newClock(name, prev.t.Load())
	}
	s.cur.Store(c)
	return prev.name
}

// ThreadTime is the local time of a thread (0 if it never ran).
func (s *Sim) ThreadTime(name string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.clocks[name]; c != nil {
		return c.t.Load()
	}
	return 0
}

// Charge spends ns of the running thread's time.
func (s *Sim) Charge(ns int64) {
	s.cur.Load().t.Add(ns)
}

// AdvanceTo moves the running thread's clock forward to t (a wait that ends at
// t). It never moves a clock backwards.
func (s *Sim) AdvanceTo(t int64) {
	s.mu.Lock()
	s.cur.Load().raiseTo(t)
	s.mu.Unlock()
}

// Schedule queues fn to run on thread at time at. Events at equal times run in
// the order they were scheduled.
func (s *Sim) Schedule(at int64, thread string, fn func()) {
	s.mu.Lock()
	s.nseq++
	heap.Push(&s.q, event{at: at, seq: s.nseq, thread: thread, fn: fn})
	s.queued()
	s.mu.Unlock()
}

// Pending reports whether any event is queued.
func (s *Sim) Pending() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q) > 0
}

// NextAt is the time of the next queued event (ok false when none).
func (s *Sim) NextAt() (at int64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.q) == 0 {
		return 0, false
	}
	return s.q[0].at, true
}

// Poll runs every event due at or before the running thread's time, in time
// order, each on its own thread at its own time.
func (s *Sim) Poll() {
	// The running thread's time and the first look at the queue under one
	// lock: most calls find nothing due.
	s.mu.Lock()
	limit := s.cur.Load().t.Load()
	due := len(s.q) > 0 && s.q[0].at <= limit
	s.mu.Unlock()
	if !due {
		return
	}
	for s.runNext(limit, true) {
	}
}

// PollCharge is Poll then Charge(ns), with one lock round trip when nothing
// is due (an API call's entry).
func (s *Sim) PollCharge(ns int64) {
	if c := s.cur.Load(); s.next.Load() > c.t.Load() {
		c.t.Add(ns) // (nothing due: no lock)
		return
	}
	s.mu.Lock()
	c := s.cur.Load()
	limit := c.t.Load()
	if len(s.q) == 0 || s.q[0].at > limit {
		c.t.Add(ns)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	for s.runNext(limit, true) {
	}
	s.Charge(ns)
}

// Step runs the next queued event whatever its time, and reports whether there
// was one. The running thread's clock does not move: use AdvanceTo for a wait.
func (s *Sim) Step() bool { return s.runNext(0, false) }

// RunUntil runs events in time order until cond holds or none is left, then
// moves the running thread's clock to the time of the last event run (the
// thread was waiting for it). It reports whether cond holds.
func (s *Sim) RunUntil(cond func() bool) bool {
	for !cond() {
		at, ok := s.NextAt()
		if !ok {
			return false
		}
		s.runNext(0, false)
		s.AdvanceTo(at)
	}
	return true
}

func (s *Sim) runNext(limit int64, bounded bool) bool {
	s.mu.Lock()
	if len(s.q) == 0 || (bounded && s.q[0].at > limit) {
		s.mu.Unlock()
		return false
	}
	ev := heap.Pop(&s.q).(event)
	s.queued()
	prev := s.cur.Load()
	c, had := s.clocks[ev.thread]
	if !had {
		c = s.newClock(ev.thread, ev.at)
	} else {
		c.raiseTo(ev.at)
	}
	s.cur.Store(c)
	s.steps++
	s.running++
	s.activity.Add(1<<32 + 1)
	s.mu.Unlock()

	ev.fn()

	s.mu.Lock()
	s.cur.Store(prev)
	s.running--
	s.activity.Add(^uint64(0)) // (running - 1)
	s.mu.Unlock()
	return true
}

// Running is how many events are being run now: taken off the queue by a
// goroutine and not finished. Only real goroutines on the free-threaded
// entry points (which Poll) make it more than the caller's own.
func (s *Sim) Running() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// Activity is a snapshot for a caller that must know nothing happened
// between two looks at the simulation: how many events have been taken off
// the queue so far and how many are being run now.
func (s *Sim) Activity() (started uint64, running int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.steps, s.running
}

// Events is Activity without the lock, for a caller that keeps what events
// change (the GPU's work, which the run's budgets count: the GPU runs only
// in events) and looks again only when mark moved — an event started or
// ended since the last look — or idle is false (one is running now, and
// may change it after this look). Every API call statement asks.
func (s *Sim) Events() (mark uint64, idle bool) {
	a := s.activity.Load()
	return a, uint32(a) == 0
}

// Intn returns a seeded choice in [0, n).
func (s *Sim) Intn(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rng.IntN(n)
}

type event struct {
	at     int64
	seq    uint64
	thread string
	fn     func()
}

type events []event

func (q events) Len() int { return len(q) }
func (q events) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q events) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *events) Push(x any)   { *q = append(*q, x.(event)) }
func (q *events) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}
