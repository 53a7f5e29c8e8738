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
	Line int    `json:"line,omitempty"`
}

func (c WaitCall) text() string {
	s := c.Name
	if c.Obj != "" {
		s += "(" + c.Obj + ")"
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
	Calls     []WaitCall `json:"calls,omitempty"`
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
	Res     string    `json:"res,omitempty"` // the allocation
	Obj     string    `json:"obj,omitempty"` // the resource's scenario name
	Held    bool      `json:"held,omitempty"`
	Reason  string    `json:"reason,omitempty"` // the wait's own message
	Buffer  *DMACard  `json:"buffer,omitempty"`
	// Sentence says it all in words.
	Sentence string `json:"sentence"`
}

// events is a trace in seq order, searched by seq.
type events []trace.Event

func (ev events) index(seq uint64) int {
	i := sort.Search(len(ev), func(i int) bool { return ev[i].Seq >= seq })
	if i < len(ev) && ev[i].Seq == seq {
		return i
	}
	return -1
}

// apiCall is the application's API call an event belongs to: its
// outermost ancestor called from the app layer (-1: none).
func (ev events) apiCall(i int) int {
	for n := 0; i >= 0 && n < 64; n++ {
		e := &ev[i]
		if e.From == trace.App && e.Kind == trace.Call {
			return i
		}
		if e.Parent == 0 {
			break
		}
		i = ev.index(e.Parent)
	}
	return -1
}

func (ev events) ref(i int) *WaitCall {
	e := &ev[i]
	return &WaitCall{Seq: e.Seq, T: e.T, Name: e.Name, Ctx: e.Ctx, Obj: e.Obj, Line: e.Line}
}

// ExplainWait explains the wait at event seq: a wait event (its start or
// its end), or an API call with a wait inside it (the first one).
func ExplainWait(all []trace.Event, seq uint64) (*WaitAnswer, error) {
	ev := events(all)
	i := ev.index(seq)
	if i < 0 {
		return nil, fmt.Errorf("inspect: no event %d in the trace", seq)
	}
	start := -1
	switch e := &ev[i]; {
	case e.Kind == trace.Wait && e.Args.Has(trace.KeyDone) || e.Kind == trace.Wait && strings.HasPrefix(e.Args.String(), "done"):
		for j := i - 1; j >= 0; j-- {
			s := &ev[j]
			if s.Kind == trace.Wait && s.Thread == e.Thread && s.Name == e.Name && !isDone(s) {
				start = j
				break
			}
		}
	case e.Kind == trace.Wait:
		start = i
	default:
		c := ev.apiCall(i)
		if c < 0 {
			return nil, fmt.Errorf("inspect: event %d is neither a wait nor inside an API call", seq)
		}
		call := &ev[c]
		for j := c + 1; j < len(ev); j++ {
			s := &ev[j]
			if s.Thread != call.Thread {
				continue
			}
			if s.Kind == trace.Wait && !isDone(s) && ev.apiCall(j) == c {
				start = j
				break
			}
			if s.Kind == trace.Return && s.From == trace.App && s.Name == call.Name {
				break
			}
		}
		if start < 0 {
			return nil, fmt.Errorf("inspect: %s (event %d) did not wait: no wait event inside it", ev.ref(c).text(), call.Seq)
		}
	}
	if start < 0 {
		return nil, fmt.Errorf("inspect: the start of the wait that ends at event %d is not in the trace", seq)
	}
	return ev.explain(start), nil
}

func isDone(e *trace.Event) bool {
	return e.Args.Has(trace.KeyDone) || strings.HasPrefix(e.Args.String(), "done")
}

// explain answers for the wait that starts at events[s].
func (ev events) explain(s int) *WaitAnswer {
	w := &ev[s]
	a := &WaitAnswer{Seq: w.Seq, Name: w.Name, Thread: w.Thread, Line: w.Line, Start: w.T, End: -1, Context: w.Handle, Fence: w.Fence,
		Hazard: w.Args.Str(trace.KeyHazard), Res: w.Args.Str(trace.KeyRes), Obj: w.Obj, Reason: w.Msg}
	for j := s + 1; j < len(ev); j++ {
		if e := &ev[j]; e.Kind == trace.Wait && e.Thread == w.Thread && e.Name == w.Name && isDone(e) {
			a.EndSeq, a.End, a.Lost = e.Seq, e.T, e.T-w.T
			break
		}
	}
	if c := ev.apiCall(s); c >= 0 {
		a.Call = ev.ref(c)
	}
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
		a.Buffer = ev.card(w.DMA)
	} else if a.Why == "idle" && a.EndSeq != 0 {
		// The buffer that finished last before the GPU went idle.
		for j := ev.index(a.EndSeq) - 1; j > s; j-- {
			if e := &ev[j]; e.Kind == trace.Fence && e.Name == "FenceSignaled" && e.DMA != 0 {
				a.Buffer = ev.card(e.DMA)
				break
			}
		}
	}
	a.Sentence = a.sentence()
	return a
}

// card gathers DMA buffer id's events.
func (ev events) card(id uint64) *DMACard {
	c := &DMACard{ID: id, Submitted: -1, Started: -1, Done: -1}
	render := -1
	for j := range ev {
		e := &ev[j]
		if e.DMA != id {
			continue
		}
		switch {
		case render < 0 && e.Kind == trace.Call && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent" || e.Name == "DxgkDdiRenderKm"):
			render = j
			c.Context = e.Handle
			c.Allocs = e.Args.Str(trace.KeyAllocs)
			if c.Allocs == "" {
				c.Allocs = allocsText(e.Args)
			}
		case e.Kind == trace.Return && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") && c.Fence == 0:
			c.Fence = e.Fence
		case e.Kind == trace.Call && e.Name == "DxgkDdiSubmitCommand" && c.Submitted < 0:
			c.Submitted = e.T
		case e.Kind == trace.Exec && e.Name == "DmaBufferStart" && c.Started < 0:
			c.Started = e.T
		case e.Kind == trace.Fence && e.Name == "FenceSignaled" && c.Done < 0:
			c.Done = e.T
		}
	}
	if render < 0 {
		return c
	}
	b := ev.apiCall(render)
	if b < 0 {
		return c
	}
	c.Built, c.BuiltSeq = ev.ref(b), ev[b].Seq
	// The calls whose commands it carries: the API calls on the building
	// call's context that reached the driver (a DDI of the UMD inside
	// them) since the context's previous buffer was built.
	prev := -1
	for j := render - 1; j >= 0; j-- {
		if e := &ev[j]; e.Kind == trace.Call && e.Handle == c.Context && e.DMA != 0 && e.DMA != id &&
			(e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") {
			prev = j
			break
		}
	}
	ctx := ev[b].Ctx
	last := -1
	for j := max(prev, 0); j <= render; j++ {
		e := &ev[j]
		if e.Layer != trace.UMD || e.Kind != trace.Call || e.Ctx != ctx || noCommands.MatchString(e.Name) {
			continue
		}
		k := ev.apiCall(j)
		if k < 0 || k == last || k < prev {
			continue
		}
		last = k
		c.Calls = append(c.Calls, *ev.ref(k))
	}
	return c
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
			obj := a.Obj
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
		if c.Done >= 0 {
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
