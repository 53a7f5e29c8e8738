package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"d3dsim/core/inspect"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// The page's State, Resource and Pixel views ask the inspector's query API
// (core/inspect) what the CLI asks: the loaded run keeps a journal (the
// state at any event, at once), and a query that needs the machine at an
// event (a resource, a pixel's history, a pixel's shader steps) runs a copy
// of the scenario to it a slice at a time, so the page keeps answering.
// One query runs at a time: a new one replaces the one in flight.

// inspection is the inspector's side of the loaded run.
type inspection struct {
	loads   uint64 // the load it belongs to
	session *inspect.Session
	journal *inspect.Journal
	query   query
	gen     uint64            // bumped by every new query: a replaced one stops
	res     *inspect.Resource // the last resource answered (its picture and texels)

	cmp *inspect.Comparison // the last comparison answered (its pixel mask)

	probs  *inspect.ProblemScanner // the Problems view's, fed from the trace
	memory *inspect.MemoryTracker  // the timeline's memory lanes', fed from the trace
	// memFirst and probFirst are the seq of the first event the memory
	// tracker (inspect.IsMemoryCall) and the problem scanner
	// (inspect.MayBeProblem) may take and have not read, 0 when none (see
	// watch).
	memFirst, probFirst *atomic.Uint64
	problems            []inspect.Problem // found so far (at most maxProblems)
	more                int               // found past maxProblems
}

// maxProblems bounds the problems the page is told of (a runaway loop of
// violations counts the rest).
const maxProblems = 10000

// record starts the inspector's journal of a new run (load calls it).
func (a *app) recordLocked(s *scenario.Script, r *scenario.Run) {
	a.ins = &inspection{loads: a.loads, session: inspect.NewSession(s, scenario.Overrides{}), journal: inspect.Record(r),
		probs: inspect.NewProblemScanner(), memory: inspect.NewMemoryTracker(),
		memFirst: watch(r, inspect.IsMemoryCall), probFirst: watch(r, inspect.MayBeProblem)}
}

// watch subscribes to the run's recorder: the answer holds the seq of the
// first event since the last catchUp that match accepts (0: none), 1 at the
// start (what came before the subscription is read once). The page asks
// for the memory lanes and the problems as the run goes: a scanner that
// read each new event (a copy of it) took 2-4% of the page's main thread
// with a million Draws, none of them a memory call or a problem.
func watch(r *scenario.Run, match func(*trace.Event) bool) *atomic.Uint64 {
	first := new(atomic.Uint64)
	first.Store(1)
	r.Recorder().Subscribe(func(e *trace.Event) {
		if match(e) {
			first.CompareAndSwap(0, e.Seq)
		}
	})
	return first
}

// catchUp skips a scanner (skip) past the events watch saw no match among,
// and reports whether it has any to read (then it reads from the first).
func catchUp(first *atomic.Uint64, rec *trace.Recorder, skip func(uint64)) bool {
	if f := first.Swap(0); f != 0 {
		skip(f - 1)
		return true
	}
	n, _ := rec.LenDropped()
	skip(uint64(n))
	return false
}

// memoryAnswer is inspectMemory's answer: the memory events from index
// From on, of Total found in the load Loads.
type memoryAnswer struct {
	Loads uint64                `json:"loads"`
	From  int                   `json:"from"`
	Total int                   `json:"total"`
	List  []inspect.MemoryEvent `json:"list"`
}

// inspectMemory feeds the memory tracker the events the run added since
// the last ask and answers its events from index from on (at most n), as
// JSON: the timeline's memory lanes (core/inspect Memory).
func (a *app) inspectMemory(from, n int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil || a.run == nil {
		return errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	if a.synth > 0 { // the panel's trace is synthetic: the run's memory is not its
		return toJSON(memoryAnswer{Loads: a.ins.loads, List: []inspect.MemoryEvent{}})
	}
	m := a.ins.memory
	if rec := a.run.Recorder(); catchUp(a.ins.memFirst, rec, m.Skip) {
		m.Scan(rec)
	}
	from = min(max(from, 0), len(m.Events))
	to := min(from+max(n, 0), len(m.Events))
	return toJSON(memoryAnswer{Loads: a.ins.loads, From: from, Total: len(m.Events), List: append([]inspect.MemoryEvent{}, m.Events[from:to]...)})
}

// problemsAnswer is inspectProblems' answer: the problems from index From
// on, of Total found in the load Loads.
type problemsAnswer struct {
	Loads uint64            `json:"loads"`
	From  int               `json:"from"`
	Total int               `json:"total"` // found so far, those past maxProblems included
	List  []inspect.Problem `json:"list"`
}

// inspectProblems scans the events the run added since the last ask and
// answers the problems from index from on (at most n), as JSON.
func (a *app) inspectProblems(from, n int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil || a.run == nil {
		return errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	in := a.ins
	var found []inspect.Problem
	if rec := a.run.Recorder(); catchUp(in.probFirst, rec, in.probs.Skip) {
		found = in.probs.Scan(rec)
	}
	for _, p := range found {
		if len(in.problems) < maxProblems {
			in.problems = append(in.problems, p)
		} else {
			in.more++
		}
	}
	from = min(max(from, 0), len(in.problems))
	to := min(from+max(n, 0), len(in.problems))
	return toJSON(problemsAnswer{Loads: in.loads, From: from, Total: len(in.problems) + in.more, List: append([]inspect.Problem{}, in.problems[from:to]...)})
}

// errJSON is an answer that failed.
func errJSON(err error) []byte {
	b, _ := json.Marshal(map[string]string{"error": err.Error()})
	return b
}

func toJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return errJSON(err)
	}
	return b
}

// inspectState is the state at event seq (ctx: a context's name, "" the
// call's own) as JSON.
func (a *app) inspectState(seq uint64, ctx string) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil {
		return errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	st, err := a.ins.journal.State(seq, ctx)
	if err != nil {
		return errJSON(err)
	}
	return toJSON(st)
}

// inspectWait explains the wait at event seq (a wait event, or an API
// call with a wait inside it) from the run's trace, as JSON; {error} for
// an event that is no wait.
func (a *app) inspectWait(seq uint64) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	w, err := inspect.ExplainWait(a.run.Recorder(), seq)
	if err != nil {
		return errJSON(err)
	}
	return toJSON(w)
}

// inspectDMA is the card of the DMA buffer event seq names, as JSON.
func (a *app) inspectDMA(seq uint64) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.run == nil {
		return errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	c, err := inspect.ExplainDMA(a.run.Recorder(), seq)
	if err != nil {
		return errJSON(err)
	}
	if a.ins != nil {
		a.ins.journal.Contents(c)
	}
	return toJSON(c)
}

// inspectResolve names an event (a seq, NAME#K, line:N) as its seq.
func (a *app) inspectResolve(at string) (uint64, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil {
		return 0, fmt.Errorf("inspect: no scenario loaded")
	}
	return a.ins.journal.Resolve(at)
}

// query is a question answered a slice at a time: an inspect.Query, or a
// comparison's other run (inspect.CompareQuery).
type query interface {
	Step(l scenario.SliceLimits) bool
	Answer() (any, error)
}

// queryArgs are a query's arguments as the page sends them.
type queryArgs struct {
	// Against and At are a comparison's: "edit" (the text loaded before
	// this one) or a mode (sync, in-order, out-of-order); the event whose
	// states are compared ("" none).
	Against string `json:"against"`
	At      string `json:"at"`

	Seq      uint64 `json:"seq"`
	Name     string `json:"name"`
	X        int    `json:"x"`
	Y        int    `json:"y"`
	Fragment *int   `json:"fragment"`
	// Mip and Slice, either given, name the subresource of a history's or
	// a step's pixel (absent: what Name shows).
	Mip     *int                    `json:"mip"`
	Slice   *int                    `json:"slice"`
	Options inspect.ResourceOptions `json:"options"`

	// A vertex's (stepVertex): the draw's vertex and its instance; a
	// compute thread's (stepThread): its group and its thread in it.
	Vertex   uint32    `json:"vertex"`
	Instance uint32    `json:"instance"`
	Group    [3]uint32 `json:"group"`
	Thread   [3]uint32 `json:"thread"`
}

// subresource is the subresource Mip and Slice name (nil: neither given).
func (qa *queryArgs) subresource() *inspect.Subresource {
	if qa.Mip == nil && qa.Slice == nil {
		return nil
	}
	sub := &inspect.Subresource{}
	if qa.Mip != nil {
		sub.Mip = *qa.Mip
	}
	if qa.Slice != nil {
		sub.Slice = *qa.Slice
	}
	return sub
}

// pendingQuery is one query in flight.
type pendingQuery struct {
	a    *app
	ins  *inspection
	gen  uint64
	kind string
	q    query
}

// startQuery starts a query of kind resource, history or step; the page
// runs it with slices (pendingQuery.slice).
func (a *app) startQuery(kind string, args []byte) (*pendingQuery, []byte) {
	var qa queryArgs
	if err := json.Unmarshal(args, &qa); err != nil {
		return nil, errJSON(fmt.Errorf("inspect: bad arguments: %v", err))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	ins := a.ins
	if ins == nil {
		return nil, errJSON(fmt.Errorf("inspect: no scenario loaded"))
	}
	ins.gen++
	var q query
	switch kind {
	case "compare":
		cq, err := a.compareQuery(qa.Against, qa.At)
		if err != nil {
			return nil, errJSON(err)
		}
		q = cq
	case "resource":
		q = ins.session.ResourceQuery(ins.journal, qa.Seq, qa.Name, qa.Options)
	case "history":
		q = ins.session.HistoryQueryAt(ins.journal, qa.Seq, qa.Name, qa.subresource(), qa.X, qa.Y)
	case "step":
		frag := -1
		if qa.Fragment != nil {
			frag = *qa.Fragment
		}
		q = ins.session.StepQueryAt(ins.journal, qa.Seq, qa.Name, qa.subresource(), qa.X, qa.Y, frag)
	case "stepVertex":
		q = ins.session.StepVertexQuery(ins.journal, qa.Seq, qa.Vertex, qa.Instance)
	case "stepThread":
		q = ins.session.StepThreadQuery(ins.journal, qa.Seq, qa.Group, qa.Thread)
	default:
		return nil, errJSON(fmt.Errorf("inspect: no query %q (resource, history, step, stepVertex, stepThread, compare)", kind))
	}
	ins.query = q
	return &pendingQuery{a: a, ins: ins, gen: ins.gen, kind: kind, q: q}, nil
}

// slice runs one slice of the query; done with its answer as JSON once it
// is answered (or replaced by another query, or its load by another).
func (p *pendingQuery) slice(over func() bool) (answer []byte, done bool) {
	a := p.a
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins != p.ins || p.ins.gen != p.gen {
		return errJSON(fmt.Errorf("inspect: replaced by a newer question")), true
	}
	if !p.q.Step(scenario.SliceLimits{Calls: sliceCalls, Statements: sliceStatements, Over: over}) {
		return nil, false
	}
	v, err := p.q.Answer()
	p.ins.query = nil
	if err != nil {
		return errJSON(err), true
	}
	if r, ok := v.(*inspect.Resource); ok {
		p.ins.res = r
	}
	if c, ok := v.(*inspect.Comparison); ok {
		p.ins.cmp = c
	}
	return toJSON(v), true
}

// imageOptions are the picture's options as the page sends them.
type imageOptions struct {
	Channels uint8   `json:"channels"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
}

// resourceImage is the last resource's texture as RGBA8 (nil: none).
func (a *app) resourceImage(opts []byte) (pix []byte, w, h int) {
	var o imageOptions
	_ = json.Unmarshal(opts, &o) // the zero options are the defaults
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil || a.ins.res == nil || a.ins.res.Texture == nil {
		return nil, 0, 0
	}
	r := a.ins.res
	return r.Image(inspect.ImageOptions{Channels: o.Channels, Lo: o.Lo, Hi: o.Hi}), r.Width, r.Height
}

// resourceTexel is texel (x, y) of the last resource as JSON ("null":
// none there).
func (a *app) resourceTexel(x, y int) []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil || a.ins.res == nil {
		return []byte("null")
	}
	t, ok := a.ins.res.Texel(x, y)
	if !ok {
		return []byte("null")
	}
	return toJSON(t)
}

// compareQuery starts comparing the loaded run with another: the text
// loaded before this one ("edit"), or this one in a mode. The caller holds
// mu.
func (a *app) compareQuery(against, at string) (*inspect.CompareQuery, error) {
	cur := inspect.DiffSide{Label: "this run", Run: a.run, Journal: a.ins.journal}
	if against == "edit" {
		if a.prevSrc == nil {
			return nil, fmt.Errorf("inspect: no earlier text to compare with: edit the scenario and run it (Ctrl+Enter), then compare")
		}
		s, err := scenario.Load("", a.prevSrc)
		if err != nil {
			return nil, err
		}
		return inspect.NewCompareQuery(cur, "before the edit", s, scenario.Overrides{}, true, at), nil
	}
	s, err := scenario.Load("", a.src)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, m := range scenario.Modes(s, scenario.Overrides{}) {
		if m.Name == against {
			return inspect.NewCompareQuery(cur, m.Name, s, m.O, false, at), nil
		}
		names = append(names, m.Name)
	}
	return nil, fmt.Errorf("inspect: compare against %q: give edit or a mode (%s)", against, strings.Join(names, ", "))
}

// compareMask is the last comparison's mask of differing pixels as RGBA8
// (nil: none).
func (a *app) compareMask() (pix []byte, w, h int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.ins == nil || a.ins.cmp == nil {
		return nil, 0, 0
	}
	m := a.ins.cmp.Pixels.Mask()
	if m == nil {
		return nil, 0, 0
	}
	return m.Pix, m.Rect.Dx(), m.Rect.Dy()
}
