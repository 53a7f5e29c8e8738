package trace

import "sync"

// Recorder collects events in seq order. It is safe for concurrent use: the
// free-threaded D3D11 entry points may emit from real goroutines.
//
// The recorder keeps a stack of open calls per simulated thread so every
// event knows its parent call; the browser's flow view and the verifier use
// that tree.
type Recorder struct {
	mu     sync.Mutex
	events []Event
	seq    uint64
	now    func() int64
	thread func() string
	line   int
	open   map[string][]uint64 // thread -> stack of open call seqs
	subs   []func(*Event)
}

// NewRecorder returns a recorder that stamps events with now() and thread().
func NewRecorder(now func() int64, thread func() string) *Recorder {
	return &Recorder{now: now, thread: thread, open: map[string][]uint64{}}
}

// SetLine sets the scenario line stamped on the events that follow.
func (r *Recorder) SetLine(line int) {
	r.mu.Lock()
	r.line = line
	r.mu.Unlock()
}

// Subscribe calls fn for every event emitted from now on, in seq order, with
// the recorder's lock held: fn must not emit.
func (r *Recorder) Subscribe(fn func(*Event)) {
	r.mu.Lock()
	r.subs = append(r.subs, fn)
	r.mu.Unlock()
}

// Emit stamps e with seq, time, thread and line (when unset) and appends it.
// A Call opens a nested scope on its thread until the matching Return.
func (r *Recorder) Emit(e Event) uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
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
	stack := r.open[e.Thread]
	if e.Parent == 0 && len(stack) > 0 {
		e.Parent = stack[len(stack)-1]
	}
	switch e.Kind {
	case Call:
		r.open[e.Thread] = append(stack, e.Seq)
	case Return:
		if len(stack) > 0 {
			// The return belongs to the open call: its parent is that
			// call's parent.
			call := stack[len(stack)-1]
			r.open[e.Thread] = stack[:len(stack)-1]
			e.Parent = r.events[call-1].Parent
		}
	}
	r.events = append(r.events, e)
	for _, fn := range r.subs {
		fn(&r.events[len(r.events)-1])
	}
	return e.Seq
}

// Len is the number of events recorded.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.events)
}

// Events returns the events recorded so far. The slice is shared: do not
// modify it.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.events[:len(r.events):len(r.events)]
}

// Since returns the events with seq > after.
func (r *Recorder) Since(after uint64) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	if after >= uint64(len(r.events)) {
		return nil
	}
	return r.events[after:len(r.events):len(r.events)]
}
