package inspect

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"d3dsim/core/trace"
)

// Explaining a wait: any wait of the trace — a Map that waits for the GPU
// in pfnLockCb, a Present throttled by the frame latency, a submission
// held back by a context's full DMA queue, a fence held by the
// out-of-order scheduler, a wait for the GPU to go idle — is linked to what
// it waited for: the fence, the DMA buffer that signals it, the API calls
// whose commands that buffer carries, the hazard, and the virtual time the
// thread lost, said as a sentence. It reads the trace alone (Dxgkrnl's
// wait events name the fence and the DMA buffer: docs/scenario.md, "Trace:
// why a wait waits"), so it needs no run.

// WaitCall is an API call of the trace, with its time and object.
type WaitCall struct {
	Seq  uint64 `json:"seq"`
	T    int64  `json:"t"`
	Name string `json:"name"`
	Ctx  string `json:"ctx,omitempty"`
	Obj  string `json:"obj,omitempty"`
	// Debug is the object's debug name (WKPDID_D3DDebugObjectName), if it
	// had one then.
	Debug string `json:"debug,omitempty"`
	Line  int    `json:"line,omitempty"`
}

// named is an object's name with its debug name.
func named(obj, debug string) string {
	if debug == "" {
		return obj
	}
	return fmt.Sprintf("%s %q", obj, debug)
}

func (c WaitCall) text() string {
	s := c.Name
	if c.Obj != "" {
		s += "(" + named(c.Obj, c.Debug) + ")"
	}
	if c.Line > 0 {
		s += fmt.Sprintf(" at line %d", c.Line)
	}
	return s
}

// DMACard is what the trace says of one DMA buffer: the call that built
// and submitted it, when the GPU started and finished it, and the API
// calls whose commands it carries.
type DMACard struct {
	ID        uint64     `json:"id"`
	Context   string     `json:"context,omitempty"` // the kernel context (kc1)
	Fence     uint64     `json:"fence,omitempty"`   // the context fence it signals
	Allocs    string     `json:"allocs,omitempty"`  // its allocation list (DxgkDdiRender's)
	Built     *WaitCall  `json:"built,omitempty"`   // the API call that flushed it (pfnRenderCb, pfnPresentCb inside it)
	BuiltSeq  uint64     `json:"builtSeq,omitempty"`
	Submitted int64      `json:"submitted"` // DxgkDdiSubmitCommand (-1: not in the trace)
	Started   int64      `json:"started"`   // DmaBufferStart on the GPU (-1: not yet)
	Done      int64      `json:"done"`      // FenceSignaled (-1: not yet)
	Finished  int64      `json:"finished"`  // the GPU wrote its fence (FenceWrite; -1: not yet)
	ISR       int64      `json:"isr"`       // DxgkDdiInterruptRoutine saw it (-1: not yet)
	DPC       int64      `json:"dpc"`       // DxgkDdiDpcRoutine ran for it (-1: not yet)
	Engine    int        `json:"engine"`    // the GPU engine it ran on
	Packets   int        `json:"packets,omitempty"`
	Patches   int        `json:"patches,omitempty"`
	Paging    bool       `json:"paging,omitempty"` // a paging buffer (DxgkDdiBuildPagingBuffer's)
	For       uint64     `json:"for,omitempty"`    // the DMA buffer a paging buffer was built for
	Submit    uint64     `json:"submitSeq,omitempty"`
	Start     uint64     `json:"startSeq,omitempty"`
	Signal    uint64     `json:"signalSeq,omitempty"`
	Calls     []WaitCall `json:"calls,omitempty"`
	// The buffer itself (Journal.Contents; dmacard.go): its packets
	// decoded, its allocation and patch location lists; a paging buffer's
	// operations (from the trace).
	PacketList  []CardPacket     `json:"packetList,omitempty"`
	PacketsLeft int              `json:"packetsLeft,omitempty"` // packets past MaxCardPackets
	PacketNote  string           `json:"packetNote,omitempty"`  // why the packets are not listed
	Words       int              `json:"words,omitempty"`
	AllocList   []CardAllocation `json:"allocList,omitempty"`
	PatchList   []CardPatch      `json:"patchList,omitempty"`
	Ops         []PagingOp       `json:"ops,omitempty"`
}

// WaitAnswer explains one wait.
type WaitAnswer struct {
	Seq     uint64    `json:"seq"`    // the wait's start event
	EndSeq  uint64    `json:"endSeq"` // its end (0: the trace ends inside it)
	Name    string    `json:"name"`   // WaitForFence, WaitForIdle, ...
	Thread  string    `json:"thread"`
	Line    int       `json:"line,omitempty"` // the scenario line that waited
	Start   int64     `json:"start"`
	End     int64     `json:"end"`
	Lost    int64     `json:"lost"` // virtual nanoseconds the thread waited
	Call    *WaitCall `json:"call,omitempty"`
	Why     string    `json:"why"` // map, present, queue, idle, vblank, paging, sync, lock, signal, wait
	Context string    `json:"context,omitempty"`
	Fence   uint64    `json:"fence,omitempty"`
	Hazard  string    `json:"hazard,omitempty"`
	Res     string    `json:"res,omitempty"`   // the allocation
	Obj     string    `json:"obj,omitempty"`   // the resource's scenario name
	Debug   string    `json:"debug,omitempty"` // and its debug name
	Held    bool      `json:"held,omitempty"`
	Reason  string    `json:"reason,omitempty"` // the wait's own message
	Buffer  *DMACard  `json:"buffer,omitempty"`
	// Sentence says it all in words.
	Sentence string `json:"sentence"`
}

// Source is a trace read by seq: a *trace.Recorder (the run's ring, read
// in place), or Events (a slice of it).
type Source interface {
	At(seq uint64) (trace.Event, bool)
	LenDropped() (int, uint64) // the last seq, and how many the ring dropped before the first held
}

// Events is a trace in seq order as a Source.
type Events []trace.Event

func (ev Events) At(seq uint64) (trace.Event, bool) {
	i := sort.Search(len(ev), func(i int) bool { return ev[i].Seq >= seq })
	if i < len(ev) && ev[i].Seq == seq {
		return ev[i], true
	}
	return trace.Event{}, false
}

func (ev Events) LenDropped() (int, uint64) {
	if len(ev) == 0 {
		return 0, 0
	}
	return int(ev[len(ev)-1].Seq), ev[0].Seq - 1
}

// scanLimit bounds each walk over the trace (a million events).
const scanLimit = 1 << 20

// reader walks a Source by seq.
type reader struct {
	src         Source
	first, last uint64
	debug       map[string]string // debugName's answers
}

func newReader(src Source) reader {
	n, dropped := src.LenDropped()
	return reader{src: src, first: dropped + 1, last: uint64(n), debug: map[string]string{}}
}

// debugName is the debug name obj had at event before: the last
// SetPrivateData(WKPDID_D3DDebugObjectName) on it.
func (r reader) debugName(obj string, before uint64) string {
	if obj == "" {
		return ""
	}
	if d, ok := r.debug[obj]; ok {
		return d
	}
	d := ""
	for s := before; s >= r.first && s > 0 && before-s < scanLimit; s-- {
		e, _ := r.get(s)
		if e.Kind == trace.Call && e.From == trace.App && e.Name == "SetPrivateData" && e.Obj == obj {
			if g := e.Args.Str(trace.KeyGUID); g == "WKPDID_D3DDebugObjectName" || g == "WKPDID_D3DDebugObjectNameW" {
				d = e.Msg
				break
			}
		}
	}
	r.debug[obj] = d
	return d
}

func (r reader) get(seq uint64) (trace.Event, bool) {
	if seq < r.first || seq > r.last {
		return trace.Event{}, false
	}
	return r.src.At(seq)
}

// apiCall is the application's API call event seq belongs to: its
// outermost ancestor called from the app layer (0: none).
func (r reader) apiCall(seq uint64) uint64 {
	for n := 0; n < 64; n++ {
		e, ok := r.get(seq)
		if !ok {
			return 0
		}
		if e.From == trace.App && e.Kind == trace.Call {
			return seq
		}
		if e.Parent == 0 {
			return 0
		}
		seq = e.Parent
	}
	return 0
}

func refOf(e *trace.Event) *WaitCall {
	return &WaitCall{Seq: e.Seq, T: e.T, Name: e.Name, Ctx: e.Ctx, Obj: e.Obj, Line: e.Line}
}

func (r reader) ref(seq uint64) *WaitCall {
	e, _ := r.get(seq)
	c := refOf(&e)
	c.Debug = r.debugName(c.Obj, seq)
	return c
}

// ExplainWait explains the wait at event seq: a wait event (its start or
// its end), or an API call with a wait inside it (the first one).
func ExplainWait(src Source, seq uint64) (*WaitAnswer, error) {
	r := newReader(src)
	e, ok := r.get(seq)
	if !ok {
		return nil, fmt.Errorf("inspect: no event %d in the trace", seq)
	}
	var start uint64
	switch {
	case e.Kind == trace.Wait && isDone(&e):
		for s := seq - 1; s >= r.first && s > 0 && seq-s < scanLimit; s-- {
			w, _ := r.get(s)
			if w.Kind == trace.Wait && w.Thread == e.Thread && w.Name == e.Name && !isDone(&w) {
				start = s
				break
			}
		}
	case e.Kind == trace.Wait:
		start = seq
	default:
		c := r.apiCall(seq)
		if c == 0 {
			return nil, fmt.Errorf("inspect: event %d is neither a wait nor inside an API call", seq)
		}
		call, _ := r.get(c)
		for s := c + 1; s <= r.last && s-c < scanLimit; s++ {
			w, _ := r.get(s)
			if w.Thread != call.Thread {
				continue
			}
			if w.Kind == trace.Wait && !isDone(&w) && r.apiCall(s) == c {
				start = s
				break
			}
			if w.Kind == trace.Return && w.From == trace.App && w.Name == call.Name {
				break
			}
		}
		if start == 0 && call.Name == "GetData" {
			if a := r.poll(c); a != nil {
				return a, nil
			}
		}
		if start == 0 {
			return nil, fmt.Errorf("inspect: %s (event %d) did not wait: no wait event inside it", refOf(&call).text(), c)
		}
	}
	if start == 0 {
		return nil, fmt.Errorf("inspect: the start of the wait that ends at event %d is not in the trace", seq)
	}
	return r.explain(start), nil
}

func isDone(e *trace.Event) bool {
	return e.Args.Has(trace.KeyDone) || strings.HasPrefix(e.Args.String(), "done")
}

// explain answers for the wait that starts at event s.
func (r reader) explain(s uint64) *WaitAnswer {
	w, _ := r.get(s)
	a := &WaitAnswer{Seq: w.Seq, Name: w.Name, Thread: w.Thread, Line: w.Line, Start: w.T, End: -1, Context: w.Handle, Fence: w.Fence,
		Hazard: w.Args.Str(trace.KeyHazard), Res: w.Args.Str(trace.KeyRes), Obj: w.Obj, Reason: w.Msg}
	for j := s + 1; j <= r.last && j-s < scanLimit; j++ {
		if e, _ := r.get(j); e.Kind == trace.Wait && e.Thread == w.Thread && e.Name == w.Name && isDone(&e) {
			a.EndSeq, a.End, a.Lost = e.Seq, e.T, e.T-w.T
			break
		}
	}
	if c := r.apiCall(s); c != 0 {
		a.Call = r.ref(c)
	}
	a.Debug = r.debugName(a.Obj, s)
	a.Held = strings.Contains(w.Msg, "done but held")
	switch {
	case w.Name == "WaitForFence" && a.Hazard != "":
		a.Why = "map"
	case w.Name == "WaitForFence" && strings.Contains(w.Msg, "maximum frame latency"):
		a.Why = "present"
	case w.Name == "WaitForFence" && strings.Contains(w.Msg, "the most a context may have"):
		a.Why = "queue"
	case w.Name == "WaitForFence":
		a.Why = "fence"
	case w.Name == "WaitForIdle":
		a.Why = "idle"
	case w.Name == "WaitForVerticalBlank":
		a.Why = "vblank"
	case w.Name == "WaitForPaging":
		a.Why = "paging"
	case w.Name == "WaitForSynchronizationObject":
		a.Why = "sync"
	case w.Name == "HContextLock":
		a.Why = "lock"
	default:
		a.Why = "wait"
	}
	if w.DMA != 0 {
		a.Buffer = r.card(w.DMA, s)
	} else if a.Why == "idle" && a.EndSeq != 0 {
		// The buffer that finished last before the GPU went idle.
		for j := a.EndSeq - 1; j > s; j-- {
			if e, _ := r.get(j); e.Kind == trace.Fence && e.Name == "FenceSignaled" && e.DMA != 0 {
				a.Buffer = r.card(e.DMA, j)
				break
			}
		}
	}
	a.Sentence = a.sentence()
	return a
}

// card gathers DMA buffer id's events, around event near (one of them, or
// a wait for it): the buffer was built before it, and runs near it.
func (r reader) card(id, near uint64) *DMACard {
	c := &DMACard{ID: id, Submitted: -1, Started: -1, Done: -1, Finished: -1, ISR: -1, DPC: -1}
	var render uint64
	for s := near; s >= r.first && s > 0 && near-s < scanLimit; s-- {
		if e, _ := r.get(s); e.DMA == id && e.Kind == trace.Call && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") {
			render = s
			c.Context = e.Handle
			if c.Allocs = e.Args.Str(trace.KeyAllocs); c.Allocs == "" {
				c.Allocs = allocsText(e.Args)
			}
			break
		}
	}
	from := render
	if from == 0 {
		from = near
	}
	for s := from; s <= r.last && s-from < scanLimit && c.Done < 0; s++ {
		e, _ := r.get(s)
		if e.DMA != id {
			continue
		}
		switch {
		case e.Kind == trace.Return && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") && c.Fence == 0:
			c.Fence = e.Fence
		case e.Kind == trace.Call && e.Name == "DxgkDdiSubmitCommand" && c.Submitted < 0:
			c.Submitted, c.Submit = e.T, e.Seq
			if n, ok := e.Args.Uint(trace.KeyPatches); ok {
				c.Patches = int(n)
			}
			if n, ok := e.Args.Uint(trace.KeyEngine); ok {
				c.Engine = int(n)
			}
			c.Paging = e.Args.Has(trace.KeyPaging)
			if n, ok := e.Args.Uint(trace.KeyFor); ok {
				c.For = n
			}
			if c.Context == "" {
				c.Context = e.Handle
			}
		case e.Kind == trace.Exec && e.Name == "DmaBufferStart" && c.Started < 0:
			c.Started, c.Start = e.T, e.Seq
			if n, ok := e.Args.Uint(trace.KeyPackets); ok {
				c.Packets = int(n)
			}
		case e.Kind == trace.Fence && e.Name == "FenceWrite" && c.Finished < 0:
			c.Finished = e.T
		case e.Kind == trace.Call && e.Name == "DxgkDdiInterruptRoutine" && c.ISR < 0:
			c.ISR = e.T
		case e.Kind == trace.Call && e.Name == "DxgkDdiDpcRoutine" && c.DPC < 0:
			c.DPC = e.T
		case e.Kind == trace.Fence && e.Name == "FenceSignaled":
			c.Done, c.Signal = e.T, e.Seq
		}
	}
	if c.Paging && c.Submit != 0 {
		c.Ops = r.pagingOps(id, c.Submit)
	}
	if render == 0 {
		return c
	}
	b := r.apiCall(render)
	if b == 0 {
		return c
	}
	built := r.ref(b)
	c.Built, c.BuiltSeq = built, b
	// The calls whose commands it carries: the API calls on the building
	// call's context whose DDIs put commands in a buffer, since the
	// context's previous buffer was built.
	var prev uint64
	for s := render - 1; s >= r.first && s > 0 && render-s < scanLimit; s-- {
		if e, _ := r.get(s); e.Kind == trace.Call && e.Handle == c.Context && e.DMA != 0 && e.DMA != id &&
			(e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") {
			prev = s
			break
		}
	}
	if prev == 0 {
		prev = max(r.first, render-min(render, scanLimit))
	}
	var last uint64
	for s := prev; s <= render; s++ {
		e, _ := r.get(s)
		if e.Layer != trace.UMD || e.Kind != trace.Call || e.Ctx != built.Ctx || noCommands.MatchString(e.Name) {
			continue
		}
		k := r.apiCall(s)
		if k == 0 || k == last || k < prev {
			continue
		}
		last = k
		c.Calls = append(c.Calls, *r.ref(k))
	}
	return c
}

// ExplainDMA is the card of the DMA buffer event seq names (its dma): the
// call that built it, when Dxgkrnl submitted it, when the GPU started it,
// the interrupt, the DPC and the fence, its allocation list, and the API
// calls whose commands it carries.
func ExplainDMA(src Source, seq uint64) (*DMACard, error) {
	r := newReader(src)
	e, ok := r.get(seq)
	if !ok {
		return nil, fmt.Errorf("inspect: no event %d in the trace", seq)
	}
	if e.DMA != 0 {
		return r.card(e.DMA, seq), nil
	}
	// An API call: the DMA buffer its commands went into, the next one
	// its context built from it on.
	c := r.apiCall(seq)
	if c == 0 {
		return nil, fmt.Errorf("inspect: event %d (%s) names no DMA buffer and is inside no API call", seq, e.Name)
	}
	if card := r.bufferOf(c); card != nil {
		return card, nil
	}
	call, _ := r.get(c)
	return nil, fmt.Errorf("inspect: the commands of %s (event %d) went into no DMA buffer the trace holds (not submitted yet)", refOf(&call).text(), c)
}

// bufferOf is the card of the DMA buffer API call c's commands went into:
// the next one its context built from c on (nil: none yet).
func (r reader) bufferOf(c uint64) *DMACard {
	call, _ := r.get(c)
	for s := c; s <= r.last && s-c < scanLimit; s++ {
		b, _ := r.get(s)
		if b.DMA == 0 || b.Kind != trace.Call || b.Name != "DxgkDdiRender" && b.Name != "DxgkDdiPresent" {
			continue
		}
		if k := r.apiCall(s); k != 0 {
			if bc, _ := r.get(k); bc.Ctx == call.Ctx {
				return r.card(b.DMA, s)
			}
		}
	}
	return nil
}

// poll explains a GetData that answered S_FALSE: the run of polls of its
// query, from the first after the query's End to the one that answered
// S_OK, and the DMA buffer the End went into, which the GPU had to finish
// first (nil: the call did not answer S_FALSE, or no End is in the trace).
func (r reader) poll(c uint64) *WaitAnswer {
	call, _ := r.get(c)
	q, th := call.Obj, call.Thread
	var returned int64                // the time the last call answer looked at returned
	answer := func(s uint64) string { // the HRESULT GetData call s returned
		for j := s + 1; j <= r.last && j-s < scanLimit; j++ {
			if e, _ := r.get(j); e.Thread == th && e.Kind == trace.Return && e.From == trace.App && e.Name == "GetData" && e.Obj == q {
				returned = e.T
				return e.HR
			}
		}
		return ""
	}
	isGetData := func(e *trace.Event) bool {
		return e.Kind == trace.Call && e.From == trace.App && e.Name == "GetData" && e.Obj == q && e.Thread == th
	}
	if answer(c) != "S_FALSE" {
		return nil
	}
	// Back to the query's End: the first poll after it.
	first, end := c, uint64(0)
	for s := c - 1; s >= r.first && s > 0 && c-s < scanLimit; s-- {
		e, _ := r.get(s)
		if e.Kind == trace.Call && e.From == trace.App && e.Name == "End" && e.Obj == q {
			end = s
			break
		}
		if isGetData(&e) {
			first = s
		}
	}
	if end == 0 {
		return nil
	}
	// On to the poll that answered S_OK.
	polls, last, ok := 0, c, false
	for s := first; s <= r.last && s-first < scanLimit; s++ {
		e, _ := r.get(s)
		if !isGetData(&e) {
			continue
		}
		last = s
		if hr := answer(s); hr == "S_FALSE" {
			polls++
		} else {
			ok = hr == "S_OK"
			break
		}
	}
	f, _ := r.get(first)
	a := &WaitAnswer{Seq: first, EndSeq: last, Name: "GetData", Thread: th, Line: f.Line, Start: f.T, End: returned, Lost: returned - f.T,
		Call: r.ref(first), Why: "poll", Obj: q, Reason: fmt.Sprintf("%d polls answered S_FALSE", polls)}
	if !ok {
		a.EndSeq, a.End = 0, -1
	}
	a.Debug = r.debugName(q, c)
	a.Buffer = r.bufferOf(end)
	if a.Buffer != nil {
		a.Fence, a.Context = a.Buffer.Fence, a.Buffer.Context
	}
	endRef := r.ref(end)
	var b strings.Builder
	fmt.Fprintf(&b, "%s answered S_FALSE %d times", a.Call.text(), polls)
	if ok {
		fmt.Fprintf(&b, ", for %s until it answered S_OK (events %d to %d)", Duration(a.Lost), first, last)
	} else {
		b.WriteString(" to the end of the trace")
	}
	fmt.Fprintf(&b, ": the query's %s", endRef.text())
	if c := a.Buffer; c != nil {
		fmt.Fprintf(&b, " went into DMA buffer %d (fence %d of %s), and GetData answers S_OK once the GPU has finished it", c.ID, c.Fence, c.Context)
		if c.Done >= 0 {
			fmt.Fprintf(&b, ": done at %s", Duration(c.Done))
		}
		if c.Built != nil {
			fmt.Fprintf(&b, "; it was built by %s", c.Built.text())
		}
	} else {
		b.WriteString(" had not reached the GPU")
	}
	b.WriteString(".")
	a.Sentence = b.String()
	return a
}

// Text is the card as `d3dsim inspect --dma` prints it.
func (c *DMACard) Text() string {
	var b strings.Builder
	kind := "DMA buffer"
	if c.Paging {
		kind = "paging buffer"
	}
	fmt.Fprintf(&b, "%s %d", kind, c.ID)
	if c.Context != "" {
		fmt.Fprintf(&b, " of %s", c.Context)
	}
	fmt.Fprintf(&b, " on engine %d", c.Engine)
	if c.Fence != 0 {
		fmt.Fprintf(&b, ", fence %d", c.Fence)
	}
	if c.For != 0 {
		fmt.Fprintf(&b, ", for DMA buffer %d", c.For)
	}
	b.WriteString("\n")
	if c.Built != nil {
		fmt.Fprintf(&b, "built by   #%d %s\n", c.Built.Seq, c.Built.text())
	}
	at := func(t int64) string {
		if t < 0 {
			return "not yet"
		}
		return Duration(t)
	}
	fmt.Fprintf(&b, "submitted  %s\nstarted    %s", at(c.Submitted), at(c.Started))
	if c.Submitted >= 0 && c.Started >= 0 {
		fmt.Fprintf(&b, " (%s in the queue)", Duration(c.Started-c.Submitted))
	}
	fmt.Fprintf(&b, "\nfinished   %s\ninterrupt  %s\nDPC        %s\ndone       %s", at(c.Finished), at(c.ISR), at(c.DPC), at(c.Done))
	if c.Started >= 0 && c.Done >= 0 {
		fmt.Fprintf(&b, " (%s after it started)", Duration(c.Done-c.Started))
	}
	b.WriteString("\n")
	if c.Packets > 0 || c.Patches > 0 {
		fmt.Fprintf(&b, "packets    %d, %d patch locations\n", c.Packets, c.Patches)
	}
	if c.Allocs != "" {
		fmt.Fprintf(&b, "allocs     %s\n", c.Allocs)
	}
	for _, k := range c.Calls {
		fmt.Fprintf(&b, "carries    #%d %s\n", k.Seq, k.text())
	}
	c.contentsText(&b)
	return b.String()
}

// noCommands are the UMD's DDIs that put nothing in a DMA buffer: maps,
// flushes, object creation and destruction, the size and format queries.
var noCommands = regexp.MustCompile(`Map$|Unmap$|^Flush$|^Calc|^Create|^Destroy|^Check|^Recycle|^Abandon|^Open|^Close|^Retrieve|^QueryGetData$|Escape`)

// allocsText is the allocation list of a payload as its text prints it.
func allocsText(a trace.Args) string {
	for _, f := range strings.Fields(a.String()) {
		if v, ok := strings.CutPrefix(f, "allocs="); ok {
			return v
		}
	}
	return ""
}

// Duration is virtual nanoseconds in words: 850 ns, 6.52 µs, 1.234 ms.
func Duration(ns int64) string {
	switch {
	case ns < 1000:
		return fmt.Sprintf("%d ns", ns)
	case ns < 1000000:
		return fmt.Sprintf("%.2f µs", float64(ns)/1e3)
	case ns < 1000000000:
		return fmt.Sprintf("%.3f ms", float64(ns)/1e6)
	}
	return fmt.Sprintf("%.3f s", float64(ns)/1e9)
}

var hazardWords = map[string]string{
	"RAW": "read after write: the map reads %s, which the GPU had still to write",
	"WAR": "write after read: the map writes %s, which the GPU had still to read",
	"WAW": "write after write: the map writes %s, which the GPU had still to write",
}

func (a *WaitAnswer) sentence() string {
	var b strings.Builder
	who := "thread " + a.Thread
	if a.Call != nil {
		who = a.Call.text()
	} else if a.Line > 0 {
		who = fmt.Sprintf("the statement at line %d (thread %s)", a.Line, a.Thread)
	}
	lost := "until the trace ends"
	if a.EndSeq != 0 {
		lost = Duration(a.Lost)
	}
	fmt.Fprintf(&b, "%s waited %s (%s, events %d", who, lost, a.Name, a.Seq)
	if a.EndSeq != 0 {
		fmt.Fprintf(&b, " to %d", a.EndSeq)
	}
	b.WriteString(")")
	switch a.Why {
	case "map", "present", "queue", "fence":
		fmt.Fprintf(&b, " for fence %d of %s", a.Fence, a.Context)
		if a.Buffer != nil {
			fmt.Fprintf(&b, ", which DMA buffer %d signals", a.Buffer.ID)
		}
		if a.Held {
			b.WriteString(" (done, but held by the out-of-order scheduler until every lower fence signalled)")
		}
		switch a.Why {
		case "map":
			obj := named(a.Obj, a.Debug)
			if obj == "" {
				obj = a.Res
			}
			fmt.Fprintf(&b, ": %s — "+hazardWords[a.Hazard], a.Hazard, obj)
			if a.Res != "" {
				fmt.Fprintf(&b, " (allocation %s)", a.Res)
			}
		case "present", "queue":
			if i := strings.Index(a.Reason, ": "); i >= 0 {
				b.WriteString(": " + a.Reason[i+2:])
			}
		}
	case "idle":
		b.WriteString(" for the GPU to finish every DMA and paging buffer submitted")
		if a.Buffer != nil {
			fmt.Fprintf(&b, "; the last to finish was DMA buffer %d", a.Buffer.ID)
		}
	default:
		if a.Reason != "" {
			b.WriteString(": " + a.Reason)
		}
	}
	b.WriteString(".")
	if c := a.Buffer; c != nil {
		if c.Built != nil {
			fmt.Fprintf(&b, " DMA buffer %d was built by %s", c.ID, c.Built.text())
			if len(c.Calls) > 0 {
				names := make([]string, 0, len(c.Calls))
				for i, k := range c.Calls {
					if i == 8 {
						names = append(names, fmt.Sprintf("%d more", len(c.Calls)-8))
						break
					}
					names = append(names, k.text())
				}
				fmt.Fprintf(&b, " and carries the commands of %s", strings.Join(names, ", "))
			}
			b.WriteString(";")
		} else {
			fmt.Fprintf(&b, " DMA buffer %d:", c.ID)
		}
		parts := []string{}
		if c.Submitted >= 0 {
			parts = append(parts, "submitted at "+Duration(c.Submitted))
		}
		if c.Started >= 0 {
			parts = append(parts, "started at "+Duration(c.Started))
		}
		if c.Finished >= 0 && c.Done > c.Finished && a.Held {
			parts = append(parts, "finished by the GPU at "+Duration(c.Finished), "its fence signalled at "+Duration(c.Done))
		} else if c.Done >= 0 {
			parts = append(parts, "done at "+Duration(c.Done))
		}
		if len(parts) > 0 {
			b.WriteString(" " + strings.Join(parts, ", "))
		}
		b.WriteString(".")
	}
	return b.String()
}

// Text is the answer as `d3dsim inspect --wait` prints it.
func (a *WaitAnswer) Text() string {
	var b strings.Builder
	b.WriteString(a.Sentence + "\n")
	fmt.Fprintf(&b, "wait       %s on %s, events %d..%d, %s lost\n", a.Name, a.Thread, a.Seq, a.EndSeq, Duration(max(a.Lost, 0)))
	if a.Call != nil {
		fmt.Fprintf(&b, "call       #%d %s\n", a.Call.Seq, a.Call.text())
	}
	if a.Fence != 0 {
		fmt.Fprintf(&b, "fence      %d of %s\n", a.Fence, a.Context)
	}
	if a.Hazard != "" {
		fmt.Fprintf(&b, "hazard     %s on %s (%s)\n", a.Hazard, a.Obj, a.Res)
	}
	if c := a.Buffer; c != nil {
		fmt.Fprintf(&b, "DMA buffer %d of %s, fence %d, allocations %s\n", c.ID, c.Context, c.Fence, c.Allocs)
		for _, k := range c.Calls {
			fmt.Fprintf(&b, "  carries  #%d %s\n", k.Seq, k.text())
		}
	}
	return b.String()
}
