package trace

import (
	"bufio"
	"encoding/binary"
	"io"
	"math"
	"unsafe"

	"d3dsim/core/xsync"
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
// counts them (Dropped). Past its byte limit (SetByteLimit, DefaultByteLimit)
// it drops its oldest events by whole chunks the same way, and no event
// carries more than MaxText bytes of text nor names longer than MaxName.
// Seq numbers keep counting, so a reader that
// remembers a seq can tell what it missed. Readers that must see every event
// — the verifier, the scenario runner's `expect calls` — read events as they
// are written (after every statement, or Subscribe), not after the run.
//
// Events are stored compactly (at most 64 bytes an event on average): a
// pointer-free 20-byte record per event in fixed-size chunks, the strings
// that repeat (thread, layers, kind, name, ctx, obj, handle, hr, rule)
// interned together as one "shape" id, Seq implicit in the position, Parent
// as a distance, and Msg, Args, Fence and DMA (when set) in the chunk's text
// bytes. The garbage collector has nothing to scan, nothing is copied when
// the trace grows, and a chunk whose events were all dropped is reused. The
// readers decode events on demand: Events, Since and Snapshot return fresh
// slices (the caller owns them); At, AppendSince, ScanBack and Subscribe do
// not allocate per event. An event the same as the one four before it (a
// Draw that changes no state: its call and return, the runtime's and the
// DDI's) is stored as that record again with its own time (EmitPart, again), and
// a reader that knows the earlier event can take it by its time (Repeats).
type Recorder struct {
	mu      xsync.Mutex
	chunks  []*chunk // chunks[i] holds the events of positions (c0+i)<<chunkBits ..
	c0      uint64   // chunk number of chunks[0]
	free    []*chunk // chunks whose events were all dropped, for reuse
	first   uint64   // seq of the oldest event held (seq+1 when none)
	seq     uint64
	limit   int    // 0: unbounded
	full    uint64 // first+limit: the seq of the first event the ring has no room for (MaxUint64: unbounded)
	dropped uint64 // events dropped from the front so far
	// The bytes the held events take (records and text, by capacity), and
	// the ceiling that makes the ring drop by bytes too (SetByteLimit).
	bytes     int64
	byteLimit int64
	cut       uint64 // events stored without their text: one chunk alone was over the byte limit
	now       func() int64
	thread    func() string
	stamp     func() (int64, string) // now and thread in one call (SetStamp)
	stampAny  func() (int64, string) // stamp, or now and thread in one call: EmitPart's repeats, no test
	line      int
	open      map[string]*callStack // thread -> its open calls
	lastTh    string                // the thread of the last event and
	lastSt    *callStack            // its stack: most events follow one on the same thread
	subs      []subscriber
	subKinds  uint32 // the kinds some subscriber takes whatever its DMA id (a bit per Kind)
	cur       Event  // the event being emitted, handed to subscribers
	scan      Event  // the event ScanBack hands to its fn

	shapes  []shape             // interned shapes, by id
	shapeID map[shape]uint32    // and their ids
	shapeB  int64               // bytes the shapes take, about (ShapeBytes)
	compact int64               // shapeB at which the table is compacted next (compactShapes)
	compFst uint64              // first at the last compaction: nothing dropped since, nothing to compact
	recent  [recentSlots]uint32 // shape ids by a cheap hash (shapeSlot): most events repeat a recent shape
	byRef   [refSlots]uint32    // shape ids + 1 by the addresses of the strings (refSlot; 0: none)
	far     map[uint64]uint64   // seq -> parent when the distance does not fit a record
	// The last againN events EmitPart stored, by seq modulo againN: an
	// event the same as the one againN before it is stored again as its
	// record (EmitPart, again).
	again  [againN]partAgain
	agains uint64 // events EmitPart stored again (tests)
	// The seq of the last event stored the full way (emit): every event
	// after it EmitPart stored again, each the record of the event againN
	// before it but for its time, so Repeats takes their times without
	// comparing records.
	fullAt uint64
	sure   uint64 // repeats Repeats took as such, uncompared (tests)
	// The newest chunk and its number plus one (0: none), for EmitPart's
	// events stored again: chunkFor's look-up is about 12 instructions.
	tail  *chunk
	tailN uint64
}

// chunkBits sizes a chunk: 4,096 events (160 KiB of records).
const (
	chunkBits = 12
	chunkSize = 1 << chunkBits
)

// record is one event in memory: 20 bytes, no pointers.
// (Repeats compares the four fields after dt as one array.)
type record struct {
	dt     int32  // T minus the chunk's t0; farTime: see chunk.wide
	shape  uint32 // index into Recorder.shapes
	parent uint32 // seq - Parent; 0: no parent; farParent: see Recorder.far
	line   int32
	off    uint32 // offset in the chunk's text of [fence][dma][msg length, msg][args length, args] (offMask), and hasFence, hasDMA, hasMsg, hasArgs
}

// farTime marks a record whose time is not within an int32 of its chunk's
// first event's (over 2.1 virtual seconds apart): chunk.wide has it.
const farTime = math.MinInt32

// The four high bits of record.off say whether the text holds a fence, a
// DMA buffer id, a Msg and Args (each of the last two after its length, a
// uvarint: most events have neither, and a record with two 16-bit lengths
// was 24 bytes); the offset is the rest (a chunk's text stays far below 256
// MiB: 4,096 events of at most two MaxText texts, a few bytes more, their
// lengths and two ids, about 34 MB).
const (
	hasMsg   = 1 << 28
	hasArgs  = 1 << 29
	hasFence = 1 << 30
	hasDMA   = 1 << 31
	offMask  = 1<<28 - 1
)

const farParent = math.MaxUint32

// chunk holds chunkSize consecutive events. Its text is append-only: the
// strings decoded events hand out point into it, so bytes once written are
// never changed (a full text is replaced by a bigger copy, never grown in
// place, and a reused chunk starts a new one).
type chunk struct {
	recs [chunkSize]record
	text []byte
	t0   int64 // the time of its first event: records keep theirs as a difference
	// wide has the times of the records marked farTime, by position; nil
	// until one is (a run of sparse events over virtual seconds): a chunk
	// never takes more than a record of 32 bytes an event.
	wide []int64
}

// shape is what an event shares with many others: the interned part.
type shape struct {
	thread, name, ctx, obj, handle, hr, rule string
	from, layer                              Layer
	kind                                     Kind
}

// sameShape says whether e has shape a, comparing the strings' pointers
// first: an event's strings are mostly the same constants as the cached
// shape's.
func sameShape(a *shape, e *Event) bool {
	return a.from == e.From && a.layer == e.Layer && a.kind == e.Kind && sameStr(a.name, e.Name) &&
		sameStr(a.thread, e.Thread) && sameStr(a.ctx, e.Ctx) && sameStr(a.obj, e.Obj) &&
		sameStr(a.handle, e.Handle) && sameStr(a.hr, e.HR) && sameStr(a.rule, e.Rule)
}

func sameStr(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b) || a == b)
}

// shapeSlot is a cheap hash of an event's shape for Recorder.recent: the
// lengths of its strings and a few of their bytes (the ends of names,
// objects and handles, where "vb" and "cl", "h12" and "h13" differ). With
// the lengths and the name alone, shapes of equal lengths took each
// other's slot: a DISCARD round missed the cache on 62% of its events
// (178 shapes in all) and a command-list round on 88% (a fifth of them new
// shapes), and a miss hashes seven strings for the map (in software under
// WebAssembly: 5-10% of node's profile of those scenes).
func shapeSlot(e *Event) int {
	h := uint(len(e.Name))*31 + uint(e.Kind)*7 + uint(e.Layer)*3 + uint(e.From) + uint(len(e.Obj))*17 + uint(len(e.Handle))*5 +
		uint(len(e.Thread))*11 + uint(len(e.Ctx))*13 + uint(len(e.HR))*29 + uint(len(e.Rule))*37
	if n := len(e.Name); n > 0 {
		h += uint(e.Name[n-1])*19 + uint(e.Name[n/2])*23
	}
	if n := len(e.Obj); n > 0 {
		h += uint(e.Obj[0])*41 + uint(e.Obj[n-1])*43
	}
	if n := len(e.Handle); n > 0 {
		h += uint(e.Handle[n-1])*47 + uint(e.Handle[n/2])*53
	}
	if n := len(e.Ctx); n > 0 {
		h += uint(e.Ctx[n-1]) * 59
	}
	if n := len(e.Thread); n > 0 {
		h += uint(e.Thread[n-1]) * 61
	}
	// (Fibonacci hashing: the top bits mix every term.) The first slot of
	// a pair.
	return int(uint64(h)*0x9e3779b97f4a7c15>>(64-recentBits)) &^ 1
}

// refSlot is where Recorder.byRef keeps the shape of an event with e's
// strings at their addresses: a hash of the addresses of its name, object
// and handle, and its kind and layer. An event emitted again from the same
// place (a Draw's Call and Return, each layer's) finds its shape there with
// no string read (sameRefs): shapeSlot and sameShape read every string's
// length and some of its bytes, about 180 instructions an event. The
// addresses change from run to run, the shapes' ids (first appearance) do
// not: only which events find their shape here does.
func refSlot(e *Event) int {
	h := uintptr(unsafe.Pointer(unsafe.StringData(e.Name)))>>3 + uintptr(unsafe.Pointer(unsafe.StringData(e.Obj)))>>3*7 +
		uintptr(unsafe.Pointer(unsafe.StringData(e.Handle)))>>3*13 + uintptr(e.Kind)*31 + uintptr(e.Layer)*5
	return int(uint64(h) * 0x9e3779b97f4a7c15 >> (64 - refBits))
}

// sameRefs says whether e has shape a, each string the same bytes at the
// same address (or both empty): one compare a field. Equal strings at
// other addresses say no: the caller then asks shapeOf.
func sameRefs(a *shape, e *Event) bool {
	return a.kind == e.Kind && a.layer == e.Layer && a.from == e.From &&
		sameRef(a.name, e.Name) && sameRef(a.obj, e.Obj) && sameRef(a.handle, e.Handle) && sameRef(a.thread, e.Thread) &&
		sameRef(a.ctx, e.Ctx) && sameRef(a.hr, e.HR) && sameRef(a.rule, e.Rule)
}

func sameRef(a, b string) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.StringData(a) == unsafe.StringData(b))
}

// refSlots is the size of Recorder.byRef.
const (
	refBits  = 8
	refSlots = 1 << refBits
)

// recentSlots is the size of Recorder.recent: 256 pairs.
const (
	recentBits  = 9
	recentSlots = 1 << recentBits
)

type callStack struct{ calls []openCall }

// openCall is a Call not yet returned: its seq and its own parent, which its
// Return inherits even when the Call itself was dropped.
type openCall struct{ seq, parent uint64 }

// NewRecorder returns a recorder that stamps events with now() and
// thread(), unbounded in events and bounded to DefaultByteLimit bytes.
func NewRecorder(now func() int64, thread func() string) *Recorder {
	r := &Recorder{now: now, thread: thread, open: map[string]*callStack{}, first: 1, full: math.MaxUint64, shapeID: map[shape]uint32{}, byteLimit: DefaultByteLimit}
	r.setStampAny()
	return r
}

// setStampAny sets stampAny from stamp, now and thread. The caller holds
// mu (or has the only reference).
func (r *Recorder) setStampAny() {
	if r.stamp != nil {
		r.stampAny = r.stamp
		return
	}
	now, thread := r.now, r.thread
	r.stampAny = func() (t int64, th string) {
		if now != nil {
			t = now()
		}
		if thread != nil {
			th = thread()
		}
		return t, th
	}
}

// SetLimit bounds the events held in memory to n (n <= 0: unbounded), as a
// ring (see Recorder).
func (r *Recorder) SetLimit(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.limit = max(n, 0)
	r.setFull()
	if held := r.held(); r.limit > 0 && held > uint64(r.limit) {
		r.drop(held - uint64(r.limit))
	}
}

// Limit is the ring's size (0: unbounded).
func (r *Recorder) Limit() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.limit
}

// setFull sets full from first and limit. The caller holds mu.
func (r *Recorder) setFull() {
	r.full = math.MaxUint64
	if r.limit > 0 {
		r.full = r.first + uint64(r.limit)
	}
}

// held is the number of events held. The caller holds mu.
func (r *Recorder) held() uint64 { return r.seq + 1 - r.first }

// drop forgets the oldest n events held and recycles the chunks left empty.
// The caller holds mu.
func (r *Recorder) drop(n uint64) {
	r.first += n
	r.dropped += n
	r.setFull()
	r.tail, r.tailN = nil, 0 // (never the newest chunk's events: kept for safety)
	k := 0
	for k < len(r.chunks) && (r.c0+uint64(k)+1)<<chunkBits <= r.first-1 {
		c := r.chunks[k]
		r.bytes -= int64(cap(c.text))
		c.text = nil // strings handed out may still point into the old one
		if c.wide != nil {
			r.bytes -= 8 * chunkSize
			c.wide = nil
		}
		r.free = append(r.free, c)
		k++
	}
	if k > 0 {
		r.chunks = append(r.chunks[:0], r.chunks[k:]...)
		r.c0 += uint64(k)
	}
	for s := range r.far {
		if s < r.first {
			delete(r.far, s)
		}
	}

}

// SetLine sets the scenario line stamped on the events that follow.
func (r *Recorder) SetLine(line int) {
	r.mu.Lock()
	r.line = line
	r.mu.Unlock()
}

// Line is the scenario line SetLine set last: the statement running.
func (r *Recorder) Line() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.line
}

// Subscribe calls fn for every event emitted from now on, in seq order, with
// the recorder's lock held: fn must not call the recorder, nor keep the
// pointer (copy the event).
func (r *Recorder) Subscribe(fn func(*Event)) {
	r.SubscribeTo(Filter{All: true}, fn)
}

// Filter says which events a subscriber is called for (SubscribeTo): all,
// those of the kinds in Kinds (a bit per Kind), and those with a DMA buffer
// id. A subscriber that looks at a few events is not called (nor the event
// copied for it) for the others: a Draw's four events, each a call of the
// scenario's subscriber that returned at once, were about 50 instructions
// each.
type Filter struct {
	All   bool
	Kinds uint32
	DMA   bool
}

// wants says whether f takes e.
func (f *Filter) wants(e *Event) bool {
	return f.All || f.Kinds>>(e.Kind&31)&1 != 0 || f.DMA && e.DMA != 0
}

type subscriber struct {
	f  Filter
	fn func(*Event)
}

// SubscribeTo is Subscribe of the events f takes.
func (r *Recorder) SubscribeTo(f Filter, fn func(*Event)) {
	r.mu.Lock()
	r.subs = append(r.subs, subscriber{f, fn})
	if f.All {
		r.subKinds = ^uint32(0)
	}
	r.subKinds |= f.Kinds
	r.mu.Unlock()
}

// Do calls fn with the recorder's lock held, so nothing is emitted (and no
// subscriber runs) meanwhile. fn must not call the recorder.
func (r *Recorder) Do(fn func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn()
}

// View calls fn with the lock held and the events held, so a reader can catch
// up on what is held and start following new events (Subscribe) without a gap
// or a duplicate. fn must not call the recorder. It decodes every event held:
// ViewSince reads only the newer ones, Do none.
func (r *Recorder) View(fn func(held []Event)) {
	r.ViewSince(0, fn)
}

// ViewSince is View of the events held with seq > after.
func (r *Recorder) ViewSince(after uint64, fn func(held []Event)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn(r.appendSince(nil, after, 0))
}

// Emit stamps e with seq, time, thread and line (when unset) and appends it.
// A Call opens a nested scope on its thread until the matching Return.
func (r *Recorder) Emit(e Event) uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	seq := r.emit(&e)
	r.mu.Unlock()
	return seq
}

// Part is what the two events of a call share (a span's Call and Return):
// an Event but for its kind and HRESULT, and the fields the recorder
// stamps. Half an Event's size, so that a span that keeps it until its
// Return is cheap to pass around.
type Part struct {
	Name, Ctx, Obj, Handle, Msg string
	Args                        Args
	Fence                       uint64
	From, Layer                 Layer
	fixed                       uint32 // a FixedPart's id (in the padding): its words need no compare
}

// FixedPart is a Part that never changes once made (NewFixedPart): EmitFixed
// of it checks a repeat of its last event by its id, not by comparing its
// words (13 compares an event: a Draw's four events were about 40
// instructions each). Its fields are its own: a copy keeps the id and the
// words together.
type FixedPart struct{ p Part }

// fixedParts counts the FixedParts made: the next one's id. Past
// MaxUint32 a FixedPart's id is 0, and its repeats are compared word by
// word.
var fixedParts xsync.Uint64

// NewFixedPart is a FixedPart of p's fields.
func NewFixedPart(p Part) *FixedPart {
	id := fixedParts.Add(1)
	if id > math.MaxUint32 {
		id = 0
	}
	p.fixed = uint32(id)
	return &FixedPart{p}
}

// Part is f's fields.
func (f *FixedPart) Part() Part {
	p := f.p
	p.fixed = 0
	return p
}

// EmitFixed is EmitPart of f's fields: a caller that emits the same call
// again and again (a Draw's spans) keeps a FixedPart for it.
func (r *Recorder) EmitFixed(f *FixedPart, k Kind, hr string) uint64 {
	return r.EmitPart(&f.p, k, hr)
}

// EmitPart is Emit of the event of kind k with p's fields and the HRESULT
// hr, built where the subscribers read it: an Event built by the caller
// and passed by value is 200 bytes copied twice (into Emit's argument and
// to the subscribers), about 90 instructions an event.
func (r *Recorder) EmitPart(p *Part, k Kind, hr string) uint64 {
	if r == nil {
		return 0
	}
	r.mu.Lock()
	// The event againN before, kept when it had no text: the same part
	// (its words, in line), kind, HRESULT and scenario line, and room in
	// the ring: then the same event again, stored as that record with its
	// own time — when its thread and its parent's distance are the same
	// too. A small function of its own, the full way in another: its frame
	// and the values kept around the stamp's call are few (they were about
	// 40 instructions an event with the full way in line, and a call more
	// as emitAgain).
	seq := r.seq + 1
	m := &r.again[seq%againN]
	x, y := (*[partWords]uint64)(unsafe.Pointer(&m.p)), (*[partWords]uint64)(unsafe.Pointer(p))
	if m.next != seq || m.k != k || m.line != r.line || !sameRef(m.hr, hr) ||
		m.p.fixed != p.fixed || // (the same FixedPart: the same words, From and Layer too)
		p.fixed == 0 && *(*uint16)(unsafe.Pointer(&m.p.From)) != *(*uint16)(unsafe.Pointer(&p.From)) || // (From and Layer)
		p.fixed == 0 && partWords == 13 && (x[0]^y[0])|(x[1]^y[1])|(x[2]^y[2])|(x[3]^y[3])|(x[4]^y[4])|(x[5]^y[5])|(x[6]^y[6])|
			(x[7]^y[7])|(x[8]^y[8])|(x[9]^y[9])|(x[10]^y[10])|(x[11]^y[11])|(x[12]^y[12]) != 0 ||
		p.fixed == 0 && partWords != 13 && *x != *y || seq >= r.full {
		return r.emitPart(p, k, hr)
	}
	// (From here on m's part, kind and HRESULT stand for the caller's, the
	// same words: fewer values kept across the stamp's call.)
	t, th := r.stampAny()
	// the same thread, and the parent emit would give the event at the
	// same distance as the record keeps it (m.parent is never farParent,
	// and a distance is never 0 nor seq)
	st := m.st // (stackOf(th): th is m's thread)
	var parent uint64
	n := len(st.calls)
	if n > 0 {
		parent = st.calls[n-1].seq
		if m.k == Return {
			parent = st.calls[n-1].parent
		}
	}
	if !sameRef(th, m.thread) || parent+uint64(m.parent) != seq && parent|uint64(m.parent) != 0 {
		// (a copy: emit may compact the shapes, which clears m)
		p := m.p
		return r.emitPart(&p, m.k, m.hr)
	}
	r.seq = seq
	if m.k == Call {
		st.calls = append(st.calls, openCall{seq, parent})
	} else if m.k == Return && n > 0 {
		st.calls = st.calls[:n-1]
	}
	pos := seq - 1
	c := r.tail
	if r.tailN != pos>>chunkBits+1 {
		c = r.chunkFor(pos)
	}
	rc := &c.recs[pos&(chunkSize-1)]
	rc.dt, rc.shape, rc.parent, rc.line, rc.off = r.dt(c, pos, t), m.shape, m.parent, m.rline, 0
	m.next = seq + againN
	r.agains++
	if r.subKinds>>(m.k&31)&1 != 0 {
		r.emitAgainSubs(seq, m.k)
	}
	r.mu.Unlock()
	return seq
}

// emitPart is EmitPart the full way: the event built and emitted. The
// caller holds mu, which it releases.
func (r *Recorder) emitPart(p *Part, k Kind, hr string) uint64 {
	e := &r.cur
	// (field by field: *e = Event{...} builds the event aside and copies it)
	e.Seq, e.T, e.Thread, e.From, e.Layer, e.Kind = 0, 0, "", p.From, p.Layer, k
	e.Name, e.Ctx, e.Obj, e.Handle, e.HR = p.Name, p.Ctx, p.Obj, p.Handle, hr
	e.Fence, e.DMA, e.Rule, e.Msg, e.Args, e.Line, e.Parent = p.Fence, 0, "", p.Msg, p.Args, 0, 0
	line := r.line
	seq := r.emit(e)
	// What EmitPart needs to store the same event again as this record,
	// when it has no text (and a near parent). (Not a record whose text
	// was cut, past the byte limit: the same event may keep it next time.)
	m := &r.again[seq%againN]
	m.next = 0
	if rc := r.recordOf(seq); p.Msg == "" && p.Args.IsZero() && p.Fence == 0 && rc.parent != farParent {
		m.next, m.p, m.k, m.hr, m.thread, m.line, m.shape, m.parent = seq+againN, *p, k, hr, e.Thread, line, rc.shape, rc.parent
		m.st, m.rline = r.lastSt, rc.line // (emit's stackOf(e.Thread) left it there)
	}
	r.mu.Unlock()
	return seq
}

// againN is the period of the calls EmitPart stores again: the four
// events of a Draw, the runtime's call and the DDI's.
const againN = 4

// partAgain is what EmitPart keeps of an event it emitted: what it was
// given and the record it stored.
type partAgain struct {
	next   uint64 // the seq of the event againN after it, which may repeat it (0: none kept)
	p      Part
	k      Kind
	hr     string
	thread string // its thread, which the stamp gave
	line   int    // r.line when it was emitted
	shape  uint32
	parent uint32     // the record's parent field: a distance
	rline  int32      // and its line
	st     *callStack // the stack of calls of its thread (stacks are never removed)
}

// partWords is the number of 8-byte words of a Part before From: its
// strings, Args and Fence (13 where a pointer is 8 bytes, natively and
// under WebAssembly).
const partWords = unsafe.Offsetof(Part{}.From) / 8

// emitAgainSubs hands the subscribers that take kind k the event seq,
// stored again by EmitPart's fast path, decoded from its record. The
// caller holds mu.
func (r *Recorder) emitAgainSubs(seq uint64, k Kind) {
	for i := range r.subs {
		if sub := &r.subs[i]; sub.f.All || sub.f.Kinds>>(k&31)&1 != 0 {
			r.decode(seq, &r.cur)
			sub.fn(&r.cur)
		}
	}
}

// recordOf is the record of the event seq, which is held. The caller holds
// mu.
func (r *Recorder) recordOf(seq uint64) *record {
	pos := seq - 1
	return &r.chunks[pos>>chunkBits-r.c0].recs[pos&(chunkSize-1)]
}

// emit is Emit of e (r.cur, or an event of the caller's), with mu held.
func (r *Recorder) emit(e *Event) uint64 {
	if r.limit > 0 && r.held() >= uint64(r.limit) {
		r.drop(r.held() - uint64(r.limit/4))
	}
	if len(e.Msg) > MaxText || e.Args.Len() > MaxText ||
		len(e.Obj)|len(e.Name)|len(e.Handle)|len(e.Ctx)|len(e.Thread)|len(e.HR)|len(e.Rule) > MaxName {
		capEvent(e) // (the common case checked here: no call)
	}
	r.seq++
	e.Seq = r.seq
	r.fullAt = r.seq
	if r.stamp != nil {
		t, th := r.stamp()
		e.T = t
		if e.Thread == "" {
			e.Thread = th
		}
	} else {
		if r.now != nil {
			e.T = r.now()
		}
		if e.Thread == "" && r.thread != nil {
			e.Thread = r.thread()
		}
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
	r.store(e)
	for i := range r.subs {
		if sub := &r.subs[i]; sub.f.wants(e) {
			// (r.cur keeps the last event's strings until the next: not
			// cleared, one copy less per event; a subscriber handed the
			// caller's event would make every Emit's escape to the heap)
			if e != &r.cur {
				r.cur = *e
				e = &r.cur
			}
			sub.fn(&r.cur)
		}
	}
	return e.Seq
}

// store writes e, whose seq is r.seq, as a record. The caller holds mu.
func (r *Recorder) store(e *Event) {
	pos := e.Seq - 1
	c := r.chunkFor(pos)
	rc := &c.recs[pos&(chunkSize-1)]
	// First the shape last stored for strings at these addresses (most
	// events are emitted from the same few places with the same strings);
	// then a two-way cache in front of the map: comparing strings that are
	// mostly the same constants costs less than hashing seven of them. The
	// shape found or added goes first in its pair, the other second.
	ref := refSlot(e)
	id := r.byRef[ref] - 1
	if int(id) >= len(r.shapes) || !sameRefs(&r.shapes[id], e) {
		id = r.shapeOf(e)
		r.byRef[ref] = id + 1
	}
	*rc = record{dt: r.dt(c, pos, e.T), shape: id, line: int32(min(max(e.Line, math.MinInt32), math.MaxInt32))}
	if r.shapeB > max(r.compact, minCompact) {
		if r.first == 1 || r.first == r.compFst {
			// No event dropped since the last compaction: every shape is
			// still some held event's, and compacting would renumber
			// nothing (ids follow first appearance).
			r.compact = 2 * r.shapeB
		} else {
			r.compactShapes()
		}
	}
	if e.Parent != 0 {
		if d := e.Seq - e.Parent; e.Parent < e.Seq && d < farParent {
			rc.parent = uint32(d)
		} else {
			rc.parent = farParent
			if r.far == nil {
				r.far = map[uint64]uint64{}
			}
			r.far[e.Seq] = e.Parent
		}
	}
	if e.Fence == 0 && e.DMA == 0 && e.Msg == "" && e.Args.IsZero() {
		return
	}
	msg, args := e.Msg, e.Args.b
	if len(msg) > math.MaxUint16 || len(args) > math.MaxUint16 { // cannot happen (capEvent): kept for safety
		msg, args = "", ""
		r.cut++
	}
	need := len(msg) + len(args) + 16 + 2*binary.MaxVarintLen16
	// A chunk's text stays under half the byte limit (and offMask): past
	// that, keep the record and cut the text.
	textCap := int64(offMask)
	if r.byteLimit > 0 {
		textCap = min(textCap, r.byteLimit/2)
	}
	if (msg != "" || args != "") && int64(len(c.text)+need) > textCap {
		msg, args = "", ""
		need = 16
		r.cut++
	}
	if cap(c.text)-len(c.text) < need {
		// Never grow in place: strings handed out point into the old bytes.
		n := max(int(min(int64(max(2*cap(c.text), 1024)), textCap)), len(c.text)+need)
		if r.overBytes(int64(n - cap(c.text))) {
			r.dropBytes()
		}
		t := make([]byte, len(c.text), n)
		copy(t, c.text)
		r.bytes += int64(cap(t) - cap(c.text))
		c.text = t
	}
	if len(c.text)+need > offMask { // cannot happen (see offMask): kept for safety
		return
	}
	rc.off = uint32(len(c.text))
	if e.Fence != 0 {
		rc.off |= hasFence
		c.text = binary.LittleEndian.AppendUint64(c.text, e.Fence)
	}
	if e.DMA != 0 {
		rc.off |= hasDMA
		c.text = binary.LittleEndian.AppendUint64(c.text, e.DMA)
	}
	if msg != "" {
		rc.off |= hasMsg
		c.text = binary.AppendUvarint(c.text, uint64(len(msg)))
		c.text = append(c.text, msg...)
	}
	if args != "" {
		rc.off |= hasArgs
		c.text = binary.AppendUvarint(c.text, uint64(len(args)))
		c.text = append(c.text, args...)
	}
}

// chunkFor is the chunk of the event at position pos (its seq minus one),
// the newest or the next, which it adds. The caller holds mu.
func (r *Recorder) chunkFor(pos uint64) *chunk {
	ci := pos >> chunkBits
	if ci-r.c0 >= uint64(len(r.chunks)) {
		var c *chunk
		if n := len(r.free); n > 0 {
			c, r.free = r.free[n-1], r.free[:n-1]
		} else {
			c = new(chunk)
		}
		if len(r.chunks) == 0 {
			r.c0 = ci
		}
		r.chunks = append(r.chunks, c)
	}
	c := r.chunks[ci-r.c0]
	if ci-r.c0 == uint64(len(r.chunks)-1) {
		r.tail, r.tailN = c, ci+1
	}
	return c
}

// dt is the record's time field of the event at pos, in chunk c, at time
// t (farTime: in c.wide). The caller holds mu.
func (r *Recorder) dt(c *chunk, pos uint64, t int64) int32 {
	if pos&(chunkSize-1) == 0 {
		c.t0 = t // a chunk is filled in order from its first record
	}
	if d := t - c.t0; d > math.MinInt32 && d <= math.MaxInt32 {
		return int32(d)
	}
	if c.wide == nil {
		c.wide = make([]int64, chunkSize)
		r.bytes += 8 * chunkSize
	}
	c.wide[pos&(chunkSize-1)] = t
	return farTime
}

// shapeOf is the id of e's shape, from the two-way cache (Recorder.recent)
// or the map, where it is added if new. The caller holds mu.
func (r *Recorder) shapeOf(e *Event) uint32 {
	slot := shapeSlot(e)
	id := r.recent[slot]
	if int(id) < len(r.shapes) && sameShape(&r.shapes[id], e) {
		return id
	}
	if id2 := r.recent[slot+1]; int(id2) < len(r.shapes) && sameShape(&r.shapes[id2], e) {
		r.recent[slot], r.recent[slot+1] = id2, id
		return id2
	}
	sh := shape{thread: e.Thread, name: e.Name, ctx: e.Ctx, obj: e.Obj, handle: e.Handle, hr: e.HR, rule: e.Rule,
		from: e.From, layer: e.Layer, kind: e.Kind}
	old := id
	id, ok := r.shapeID[sh]
	if !ok {
		id = uint32(len(r.shapes))
		r.shapes = append(r.shapes, sh)
		r.shapeID[sh] = id
		r.shapeB += shapeSize(&sh)
	}
	r.recent[slot], r.recent[slot+1] = id, old
	return id
}

// decode fills e with the event seq, which is held. The caller holds mu.
// It allocates nothing: Msg and Args point into the chunk's text, whose
// bytes never change.
func (r *Recorder) decode(seq uint64, e *Event) {
	pos := seq - 1
	c := r.chunks[pos>>chunkBits-r.c0]
	rc := &c.recs[pos&(chunkSize-1)]
	sh := &r.shapes[rc.shape]
	// Field by field: *e = Event{...} builds the event aside and copies it.
	e.Seq, e.T, e.Line = seq, c.t0+int64(rc.dt), int(rc.line)
	if rc.dt == farTime {
		e.T = c.wide[pos&(chunkSize-1)]
	}
	e.Thread, e.Name, e.Ctx, e.Obj, e.Handle, e.HR, e.Rule = sh.thread, sh.name, sh.ctx, sh.obj, sh.handle, sh.hr, sh.rule
	e.From, e.Layer, e.Kind = sh.from, sh.layer, sh.kind
	switch rc.parent {
	case 0:
		e.Parent = 0
	case farParent:
		e.Parent = r.far[seq]
	default:
		e.Parent = seq - uint64(rc.parent)
	}
	e.Fence, e.DMA, e.Msg, e.Args = 0, 0, "", Args{}
	if rc.off&^offMask == 0 {
		return
	}
	off := int(rc.off & offMask)
	if rc.off&hasFence != 0 {
		e.Fence = binary.LittleEndian.Uint64(c.text[off:])
		off += 8
	}
	if rc.off&hasDMA != 0 {
		e.DMA = binary.LittleEndian.Uint64(c.text[off:])
		off += 8
	}
	if rc.off&hasMsg != 0 {
		n, k := binary.Uvarint(c.text[off:])
		off += k
		e.Msg = unsafe.String(&c.text[off], int(n))
		off += int(n)
	}
	if rc.off&hasArgs != 0 {
		n, k := binary.Uvarint(c.text[off:])
		e.Args = argsAt(&c.text[off+k], int(n))
	}
}

// stackOf is the open calls of a thread. The caller holds mu.
func (r *Recorder) stackOf(th string) *callStack {
	if r.lastSt != nil && (sameRef(th, r.lastTh) || th == r.lastTh) { // (the same string, most often: no call)
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
	// (No defer in these getters: every statement reads them, and under
	// WebAssembly a deferred Unlock is two calls more.)
	r.mu.Lock()
	n := r.seq
	r.mu.Unlock()
	return int(n)
}

// LenDropped is Len and Dropped read together, under one lock.
func (r *Recorder) LenDropped() (int, uint64) {
	r.mu.Lock()
	n, d := r.seq, r.dropped
	r.mu.Unlock()
	return int(n), d
}

// Dropped is the number of old events the ring has dropped.
// ShapeBytes is about how many bytes the table of distinct event shapes
// (thread, name, context, object, handle, HRESULT, rule) takes. The table
// is not part of the ring: it grows by one entry per new combination (a
// call on a new object or handle adds a few), and the byte limit does not
// count it; once it has doubled it is compacted to the shapes of the
// events still held (compactShapes). So it follows what the ring holds,
// and only a ring full of events with distinct shapes keeps it big: a run
// must still bound it itself (core/scenario does).
func (r *Recorder) ShapeBytes() int64 {
	r.mu.Lock()
	b := r.shapeB
	r.mu.Unlock()
	return b
}

// shapeOverhead is what a shape costs besides its strings: its slice entry
// (7 string headers and 3 bytes) and its map entry (the key again and the id).
const shapeOverhead = 2*(7*16+8) + 16

func shapeSize(sh *shape) int64 {
	return int64(len(sh.thread)+len(sh.name)+len(sh.ctx)+len(sh.obj)+len(sh.handle)+len(sh.hr)+len(sh.rule)) + shapeOverhead
}

// minCompact is the size of the table of shapes below which it is never
// compacted.
const minCompact = 4 << 20

// compactShapes keeps only the shapes of the events still held, so the
// table follows the ring and not the run: objects created and released
// round after round give new handles, and each added shapes that stayed
// after the ring had dropped every event naming them (a loop creating and
// releasing a shader grew the table by about 4 KB a round until the run
// stopped at its limit). It runs when the table has doubled since the
// last time, so its cost is amortised over the shapes added. The caller
// holds mu; the record being stored already has its shape.
func (r *Recorder) compactShapes() {
	remap := make(map[uint32]uint32)
	var shapes []shape
	ids := make(map[shape]uint32)
	var bytes int64
	for seq := r.first; seq <= r.seq; seq++ {
		pos := seq - 1
		rc := &r.chunks[pos>>chunkBits-r.c0].recs[pos&(chunkSize-1)]
		id, ok := remap[rc.shape]
		if !ok {
			id = uint32(len(shapes))
			sh := r.shapes[rc.shape]
			shapes = append(shapes, sh)
			ids[sh] = id
			bytes += shapeSize(&sh)
			remap[rc.shape] = id
		}
		rc.shape = id
	}
	r.shapes, r.shapeID, r.shapeB = shapes, ids, bytes
	r.recent, r.byRef = [recentSlots]uint32{}, [refSlots]uint32{}
	r.again = [againN]partAgain{} // (their shapes' ids changed)
	r.compact = 2 * bytes
	r.compFst = r.first
}

func (r *Recorder) Dropped() uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Held is the number of events held (Len minus Dropped).
func (r *Recorder) Held() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return int(r.held())
}

// Events returns the events held, oldest first: every event recorded when
// nothing was dropped, else those from seq Dropped()+1 on. The slice is
// the caller's (decoded on each call: a reader that follows the trace uses
// AppendSince).
func (r *Recorder) Events() []Event {
	return r.Since(0)
}

// Since returns the events held with seq > after, in a new slice.
func (r *Recorder) Since(after uint64) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appendSince(nil, after, 0)
}

// AppendSince appends to dst the events held with seq > after, at most max
// of them (max <= 0: all), and returns it. A reader that reuses dst
// allocates nothing per event.
func (r *Recorder) AppendSince(dst []Event, after uint64, max int) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appendSince(dst, after, max)
}

func (r *Recorder) appendSince(dst []Event, after uint64, limit int) []Event {
	from := max(after+1, r.first)
	if from > r.seq {
		return dst
	}
	n := r.seq - from + 1
	if limit > 0 {
		n = min(n, uint64(limit))
	}
	if dst == nil {
		dst = make([]Event, 0, n)
	}
	for s := from; s < from+n; s++ {
		if len(dst) < cap(dst) {
			dst = dst[:len(dst)+1] // decode sets every field: no zeroing first
		} else {
			dst = append(dst, Event{})
		}
		r.decode(s, &dst[len(dst)-1])
	}
	return dst
}

// Repeats appends to dst the times of the events held after seq after
// that each repeat the event period before it — the same record but for
// its time: the same shape (kind, layers, thread, name, context, object,
// handle, HRESULT, rule), the same distance to its parent, the same line,
// and neither with a fence, a DMA buffer id, a Msg or Args — up to the
// first that does not, the newest event or cap(dst) (at least one is read
// when dst has no room: dst is never grown past its capacity then), and
// returns it, and whether it read up to the newest event. A reader that has checked the events up to after, and knows
// the period events before them, knows every other field of the repeats
// without decoding them: the verifier checks a run of Draws that change no
// state, each four such events, by their times (issue 32's draw rate).
func (r *Recorder) Repeats(after uint64, period int, dst []int64) (times []int64, newest bool) {
	r.mu.Lock() // (no defer: every statement of a run of Draws asks)
	if period <= 0 || after < uint64(period) || after+1-uint64(period) < r.first {
		r.mu.Unlock()
		return dst, false
	}
	room := uint64(max(cap(dst)-len(dst), 1))
	s, end := after+1, min(r.seq, after+room)
	if period == againN && after >= r.fullAt {
		// Every event after `after` EmitPart stored again as the record of the
		// event againN before it (Recorder.fullAt): their times alone.
		// (About 15 instructions an event instead of 65.)
		r.sure += end + 1 - s
		for s <= end {
			pos := s - 1
			c := r.chunks[pos>>chunkBits-r.c0]
			i, last := pos&(chunkSize-1), min(end-1-pos+pos&(chunkSize-1), chunkSize-1)
			for ; i <= last; i, s = i+1, s+1 {
				t := c.t0 + int64(c.recs[i].dt)
				if c.recs[i].dt == farTime {
					t = c.wide[i]
				}
				dst = append(dst, t)
			}
		}
		r.mu.Unlock()
		return dst, s > r.seq
	}
	for s <= end {
		// the events of one chunk at a time
		pos := s - 1
		c := r.chunks[pos>>chunkBits-r.c0]
		i, last := pos&(chunkSize-1), min(end-1-pos+pos&(chunkSize-1), chunkSize-1)
		for ; i <= last; i, s = i+1, s+1 {
			rc := &c.recs[i]
			var ro *record
			if i >= uint64(period) {
				ro = &c.recs[i-uint64(period)]
			} else {
				old := s - 1 - uint64(period)
				ro = &r.chunks[old>>chunkBits-r.c0].recs[old&(chunkSize-1)]
			}
			// (the fields after dt, as one array: two compares)
			if *(*[4]uint32)(unsafe.Pointer(&rc.shape)) != *(*[4]uint32)(unsafe.Pointer(&ro.shape)) ||
				rc.parent == farParent || rc.off&^offMask != 0 {
				r.mu.Unlock()
				return dst, false
			}
			t := c.t0 + int64(rc.dt)
			if rc.dt == farTime {
				t = c.wide[i]
			}
			dst = append(dst, t)
		}
	}
	newest = s > r.seq
	r.mu.Unlock()
	return dst, newest
}

// AgainTimes is Repeats of period four for a reader that needs one time a
// group of four: when every event after seq after was stored again by
// EmitPart (the record of the event four before it but for its time), it
// appends to dst the time of event off (0-3) of each whole group of four
// held after after, at most cap(dst)-len(dst) of them, and returns it, and
// whether those groups end at the newest event. ok false, nothing read:
// some event after after was stored the full way, or the group before
// after is no longer held — the caller asks Repeats. The verifier checks a
// Draw repeated by its DDI call's time alone: one time a Draw, not four
// copied and looked through (issue 32's draw rate).
func (r *Recorder) AgainTimes(after uint64, off int, dst []int64) (times []int64, newest, ok bool) {
	r.mu.Lock()
	if after < r.fullAt || after < againN || after+1-againN < r.first || uint(off) >= againN {
		r.mu.Unlock()
		return dst, false, false
	}
	g := min((r.seq-after)/againN, uint64(cap(dst)-len(dst)))
	r.sure += g * againN
	for s := after + 1 + uint64(off); s <= after+g*againN; s += againN {
		pos := s - 1
		c := r.chunks[pos>>chunkBits-r.c0]
		i := pos & (chunkSize - 1)
		t := c.t0 + int64(c.recs[i].dt)
		if c.recs[i].dt == farTime {
			t = c.wide[i]
		}
		dst = append(dst, t)
	}
	newest = after+g*againN == r.seq
	r.mu.Unlock()
	return dst, newest, true
}

// At returns the event with that seq, and false when it was dropped or not
// recorded yet. It allocates nothing.
func (r *Recorder) At(seq uint64) (Event, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var e Event
	if seq < r.first || seq > r.seq {
		return e, false
	}
	r.decode(seq, &e)
	return e, true
}

// Get returns the event with that seq, or nil when it was dropped or not
// recorded yet. The event is the caller's (a new one each call: At does not
// allocate).
func (r *Recorder) Get(seq uint64) *Event {
	e, ok := r.At(seq)
	if !ok {
		return nil
	}
	return &e
}

// ScanBack calls fn on the events held with seq < before, newest first,
// until fn returns false, with the lock held: fn must not call the
// recorder, nor keep the pointer. It allocates nothing.
func (r *Recorder) ScanBack(before uint64, fn func(*Event) bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := &r.scan // a field, not a local: fn would make a local escape
	defer func() { *e = Event{} }()
	for s := min(before-1, r.seq); s >= r.first && s > 0; s-- {
		r.decode(s, e)
		if !fn(e) {
			return
		}
	}
}

// Snapshot returns the events held and how many were dropped before them, as
// one consistent pair.
func (r *Recorder) Snapshot() (events []Event, dropped uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.appendSince(nil, 0, 0), r.dropped
}

// WriteJSONL writes the events held as JSON lines, opened by DroppedEvent
// when the ring dropped some.
func (r *Recorder) WriteJSONL(w io.Writer) error {
	// In batches: a million events decoded at once would be 200 MB.
	r.mu.Lock()
	dropped, next := r.dropped, r.first-1
	r.mu.Unlock()
	bw := bufio.NewWriter(w)
	var b []byte
	if dropped > 0 {
		d := DroppedEvent(dropped)
		b = append(AppendJSON(b, &d), '\n')
	}
	var evs []Event
	for {
		evs = r.AppendSince(evs[:0], next, 4096)
		if len(evs) == 0 {
			break
		}
		next = evs[len(evs)-1].Seq
		for i := range evs {
			b = append(AppendJSON(b, &evs[i]), '\n')
			if len(b) > 32<<10 {
				if _, err := bw.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
	}
	if _, err := bw.Write(b); err != nil {
		return err
	}
	return bw.Flush()
}

// WritePerfetto writes the events held in the Chrome trace-event format, with
// the dropped count in its metadata.
func (r *Recorder) WritePerfetto(w io.Writer) error {
	evs, dropped := r.Snapshot()
	return WritePerfettoDropped(w, evs, dropped)
}
