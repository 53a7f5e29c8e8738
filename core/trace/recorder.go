package trace

import (
	"io"
	"sync"
)

// Recorder collects events in seq order. It is safe for concurrent use: the
// free-threaded D3D11 entry points may emit from real goroutines.
//
// The recorder keeps a stack of open calls per simulated thread so every
// event knows its parent call; the browser's flow view and the verifier use
// that tree.
//
// With a limit N (SetLimit), the recorder is a ring: it holds at most N
// events; once N are held it drops all but the newest N/4 in one step and
// counts them (Dropped). Seq numbers keep counting, so a reader that
// remembers a seq can tell what it missed. Readers that must see every event
// — the verifier, the scenario runner's `expect calls` — read events as they
// are written (Since after every statement, or Subscribe), not after the run.
//
// The ring lives in one array of 5N/4 events that is reused: a runaway
// scenario allocates nothing more and the garbage collector has no new
// memory to scan (a fresh array per drop cost more than the rest of the
// simulation). Events stays one contiguous slice. The price: a slice returned
// by Events or Since, or an event from Get, is unchanged only until N/4 more
// events are recorded; a reader that keeps events longer copies them. An
// unbounded recorder never reuses memory.
type Recorder struct {
	mu      sync.Mutex
	buf     []Event // buf[lo:hi] are the events held: buf[lo+i].Seq == first+i
	lo, hi  int
	first   uint64 // seq of buf[lo] (1 until something is dropped)
	seq     uint64
	limit   int    // 0: unbounded
	dropped uint64 // events dropped from the front so far
	now     func() int64
	thread  func() string
	line    int
	open    map[string]*callStack // thread -> its open calls
	lastTh  string                // the thread of the last event and
	lastSt  *callStack            // its stack: most events follow one on the same thread
	subs    []func(*Event)
}

type callStack struct{ calls []openCall }

// openCall is a Call not yet returned: its seq and its own parent, which its
// Return inherits even when the Call itself was dropped.
type openCall struct{ seq, parent uint64 }

// NewRecorder returns an unbounded recorder that stamps events with now() and
// thread().
func NewRecorder(now func() int64, thread func() string) *Recorder {
	return &Recorder{now: now, thread: thread, open: map[string]*callStack{}, first: 1}
}

// SetLimit bounds the events held in memory to n (n <= 0: unbounded), as a
// ring (see Recorder).
func (r *Recorder) SetLimit(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limit = max(n, 0)
	if r.limit > 0 && r.hi-r.lo > r.limit {
		r.drop(r.hi - r.lo - r.limit)
	}
}

// Limit is the ring's size (0: unbounded).
func (r *Recorder) Limit() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limit
}

// drop forgets the oldest n events held. The caller holds mu.
func (r *Recorder) drop(n int) {
	r.lo += n
	r.first += uint64(n)
	r.dropped += uint64(n)
}

// room makes space for one more event at buf[hi]. The caller holds mu.
func (r *Recorder) room() {
	if r.limit > 0 && r.hi-r.lo >= r.limit {
		r.drop(r.hi - r.lo - r.limit/4)
	}
	if r.hi < len(r.buf) {
		return
	}
	n := r.hi - r.lo
	if r.limit > 0 && len(r.buf) >= r.limit+r.limit/4 && r.lo >= n {
		// Full size: move the events held to the front, over events
		// dropped at least N/4 events ago (the regions do not overlap).
		copy(r.buf, r.buf[r.lo:r.hi])
	} else {
		// Growing: a fresh array, so slices handed out stay unchanged.
		c := max(2*len(r.buf), 256)
		if r.limit > 0 {
			c = min(c, r.limit+r.limit/4)
		}
		fresh := make([]Event, max(c, n+1))
		copy(fresh, r.buf[r.lo:r.hi])
		r.buf = fresh
	}
	r.lo, r.hi = 0, n
}

// SetLine sets the scenario line stamped on the events that follow.
func (r *Recorder) SetLine(line int) {
	r.mu.Lock()
	r.line = line
	r.mu.Unlock()
}

// Subscribe calls fn for every event emitted from now on, in seq order, with
// the recorder's lock held: fn must not call the recorder.
func (r *Recorder) Subscribe(fn func(*Event)) {
	r.mu.Lock()
	r.subs = append(r.subs, fn)
	r.mu.Unlock()
}

// View calls fn with the lock held and the events held, so a reader can catch
// up on what is held and start following new events (Subscribe) without a gap
// or a duplicate. fn must not call the recorder.
func (r *Recorder) View(fn func(held []Event)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn(r.buf[r.lo:r.hi:r.hi])
}

// Emit stamps e with seq, time, thread and line (when unset) and appends it.
// A Call opens a nested scope on its thread until the matching Return.
func (r *Recorder) Emit(e Event) uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	r.seq++
	e.Seq = r.seq
	if r.now != nil {
		e.T = r.now()
	}
	if e.Thread == "" && r.thread != nil {
		e.Thread = r.thread()
	}
	if e.Line == 0 {
		e.Line = r.line
	}
	st := r.stackOf(e.Thread)
	if n := len(st.calls); e.Parent == 0 && n > 0 {
		e.Parent = st.calls[n-1].seq
	}
	switch e.Kind {
	case Call:
		st.calls = append(st.calls, openCall{e.Seq, e.Parent})
	case Return:
		if n := len(st.calls); n > 0 {
			// The return belongs to the open call: its parent is that
			// call's parent.
			e.Parent = st.calls[n-1].parent
			st.calls = st.calls[:n-1]
		}
	}
	r.room()
	p := &r.buf[r.hi]
	*p = e
	r.hi++
	for _, fn := range r.subs {
		fn(p)
	}
	r.mu.Unlock()
	return e.Seq
}

// stackOf is the open calls of a thread. The caller holds mu.
func (r *Recorder) stackOf(th string) *callStack {
	if r.lastSt != nil && th == r.lastTh {
		return r.lastSt
	}
	st := r.open[th]
	if st == nil {
		st = &callStack{}
		r.open[th] = st
	}
	r.lastTh, r.lastSt = th, st
	return st
}

// Len is the number of events recorded since the start, dropped ones
// included: the seq of the last event.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(r.seq)
}

// Dropped is the number of old events the ring has dropped.
func (r *Recorder) Dropped() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Events returns the events held, oldest first: every event recorded when
// nothing was dropped, else those from seq Dropped()+1 on. The slice is
// shared: do not modify it; with a limit N it is unchanged only until N/4
// more events are recorded (see Recorder).
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf[r.lo:r.hi:r.hi]
}

// Since returns the events held with seq > after (shared like Events).
func (r *Recorder) Since(after uint64) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	i := uint64(0)
	if after >= r.first {
		i = after - r.first + 1
	}
	if i >= uint64(r.hi-r.lo) {
		return nil
	}
	return r.buf[r.lo+int(i) : r.hi : r.hi]
}

// Get returns the event with that seq, or nil when it was dropped or not
// recorded yet. The event is shared like Events.
func (r *Recorder) Get(seq uint64) *Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if seq < r.first || seq-r.first >= uint64(r.hi-r.lo) {
		return nil
	}
	return &r.buf[r.lo+int(seq-r.first)]
}

// Snapshot returns the events held and how many were dropped before them, as
// one consistent pair.
func (r *Recorder) Snapshot() (events []Event, dropped uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf[r.lo:r.hi:r.hi], r.dropped
}

// WriteJSONL writes the events held as JSON lines, opened by DroppedEvent
// when the ring dropped some.
func (r *Recorder) WriteJSONL(w io.Writer) error {
	evs, dropped := r.Snapshot()
	return WriteJSONLDropped(w, evs, dropped)
}

// WritePerfetto writes the events held in the Chrome trace-event format, with
// the dropped count in its metadata.
func (r *Recorder) WritePerfetto(w io.Writer) error {
	evs, dropped := r.Snapshot()
	return WritePerfettoDropped(w, evs, dropped)
}
