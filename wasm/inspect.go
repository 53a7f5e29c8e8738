package main

import (
	"strings"

	"d3dsim/core/trace"
)

// inspector builds the panel's command-list and handle views from the trace
// stream alone (no query into the simulator's internals): every fact it shows
// is an event the page can link to. It consumes events in seq order,
// incrementally, so the panel pays once per event however often it asks.
//
// What it tracks, and where each fact comes from:
//   - command lists ("Supporting command lists"): the API object from FinishCommandList, its
//     state in the state machine of "Supporting command lists", from the runtime's CommandListState
//     messages (valid, retired, cached, freed), where it was executed from
//     ExecuteCommandList;
//   - handles ("Using context-local DDI handles"): every DDI handle a Create* DDI returned, per
//     context (IC or DCn), the size of its driver part from the CalcPrivate*Size
//     Return before it, its size from CalcDeferredContextHandleSize, its
//     history until the Destroy* DDI; kernel handles (devices, contexts,
//     allocations) from the DxgkDdi Create/Destroy calls;
//   - the recycle caches ("Supporting command lists"): command-list handles through
//     RecycleDestroyCommandList, RecycleCommandList and
//     RecycleCreateCommandList; deferred-context handles through
//     CreateDeferredContext, RecycleCreateDeferredContext and DestroyDevice.
type inspector struct {
	seen uint64 // seq of the last event consumed

	lists  []*clInfo
	listBy map[string]*clInfo // API object name -> latest

	handles  []*handleInfo
	handleBy map[string]*handleInfo // ctx + "/" + handle -> latest
	private  map[string]int         // thread + "/" + object -> the size its CalcPrivate*Size just answered
	kernel   []*handleInfo
	kernelBy map[string]*handleInfo

	clCache []*cacheEntry
	clBy    map[string]*cacheEntry // handle -> entry
	dcCache []*cacheEntry
	dcBy    map[string]*cacheEntry
}

// clInfo is one ID3D11CommandList.
type clInfo struct {
	Obj      string    `json:"obj"`
	Handle   string    `json:"handle"`
	DC       string    `json:"dc"`
	Finish   int       `json:"finish"` // seq of FinishCommandList
	Line     int       `json:"line"`
	State    string    `json:"state"`
	History  []histEnt `json:"history"`
	Executed []execEnt `json:"executed"`
	// ReusedBy is the command list RecycleCreateCommandList gave this
	// list's cached handle and memory to (its last state is then
	// "reused"); Reuses is the list whose handle this one revived.
	ReusedBy string `json:"reusedBy,omitempty"`
	Reuses   string `json:"reuses,omitempty"`
}

// histEnt is one step of a history: what happened, at which event.
type histEnt struct {
	What string `json:"what"`
	Seq  uint64 `json:"seq"`
	Obj  string `json:"obj,omitempty"`
}

// execEnt is one ExecuteCommandList of a command list.
type execEnt struct {
	Ctx  string `json:"ctx"`
	Seq  uint64 `json:"seq"`
	Line int    `json:"line"`
}

// handleInfo is one DDI or kernel handle.
type handleInfo struct {
	Ctx       string `json:"ctx"` // IC, DCn; "" for kernel handles
	Handle    string `json:"handle"`
	Obj       string `json:"obj"`
	DDI       string `json:"ddi"`          // the Create* call
	Of        string `json:"of,omitempty"` // a context-local handle's IC handle (rt=)
	Size      int    `json:"size"`         // CalcDeferredContextHandleSize; 0: not asked
	Private   int    `json:"private"`      // an IC handle's driver part: what CalcPrivate*Size answered (-1: not asked)
	Type      int    `json:"type,omitempty"`
	Created   uint64 `json:"created"`
	Destroyed uint64 `json:"destroyed"` // 0: live
	Line      int    `json:"line"`
}

// cacheEntry is one handle passing through a recycle cache.
type cacheEntry struct {
	list    bool      // a command-list handle: Name follows the API object that holds it
	Handle  string    `json:"handle"`
	Name    string    `json:"name"`    // the deferred context (DCn) or command list
	InCache bool      `json:"inCache"` // retired or cached: waiting to be reused
	History []histEnt `json:"history"`
}

func newInspector() *inspector {
	return &inspector{
		listBy:   map[string]*clInfo{},
		handleBy: map[string]*handleInfo{},
		private:  map[string]int{},
		kernelBy: map[string]*handleInfo{},
		clBy:     map[string]*cacheEntry{},
		dcBy:     map[string]*cacheEntry{},
	}
}

// intOr is the integer value of key k (-1: none).
func intOr(a trace.Args, k trace.Key) int {
	n, ok := a.Int(k)
	if !ok {
		return -1
	}
	return int(n)
}

// consume feeds events in seq order; events already seen are skipped.
func (in *inspector) consume(evs []trace.Event) {
	for i := range evs {
		e := &evs[i]
		if e.Seq <= in.seen {
			continue
		}
		in.seen = e.Seq
		in.event(e)
	}
}

func (in *inspector) event(e *trace.Event) {
	switch {
	case e.Kind == trace.Message && e.Name == "CommandListState":
		in.listState(e)
	case e.Kind == trace.Message && e.Name == "DeferredContextState":
		// A released deferred context whose driver handle the runtime keeps
		// for RecycleCreateDeferredContext ("Supporting command lists").
		if c := in.dcBy[e.Handle]; c != nil {
			c.step("retired at its Release: the handle waits for RecycleCreateDeferredContext", e, true)
		}
	case e.Kind == trace.Return && e.Layer == trace.UMD && strings.HasPrefix(e.Name, "CalcPrivate"):
		// The size the runtime allocates the object's driver part with,
		// handed to the Create* DDI that follows on this thread.
		if n := intOr(e.Args, trace.KeySize); n >= 0 {
			in.private[e.Thread+"/"+e.Obj] = n
		}
	case e.Kind != trace.Call:
	case e.From == trace.App:
		in.apiCall(e)
	case e.From == trace.Runtime && e.Layer == trace.UMD:
		in.ddiCall(e)
	case e.From == trace.Dxgkrnl && e.Layer == trace.KMD:
		in.kernelCall(e)
	}
}

// apiCall notes FinishCommandList and ExecuteCommandList.
func (in *inspector) apiCall(e *trace.Event) {
	switch e.Name {
	case "FinishCommandList":
		l := &clInfo{Obj: e.Obj, DC: e.Ctx, Finish: int(e.Seq), Line: e.Line, History: []histEnt{}, Executed: []execEnt{}}
		in.lists = append(in.lists, l)
		in.listBy[e.Obj] = l
	case "ExecuteCommandList":
		if l := in.listBy[e.Obj]; l != nil {
			l.Executed = append(l.Executed, execEnt{Ctx: e.Ctx, Seq: e.Seq, Line: e.Line})
		}
	}
}

// listState follows the state machine of "Supporting command lists" from the runtime's messages.
func (in *inspector) listState(e *trace.Event) {
	state := e.Args.Str(trace.KeyState)
	l := in.listBy[e.Obj]
	if l == nil {
		// A state before FinishCommandList returned (or a list the
		// inspector missed the start of): make the entry now.
		l = &clInfo{Obj: e.Obj, DC: e.Ctx, History: []histEnt{}, Executed: []execEnt{}}
		in.lists = append(in.lists, l)
		in.listBy[e.Obj] = l
	}
	l.Handle = e.Handle
	l.State = state
	l.History = append(l.History, histEnt{What: state, Seq: e.Seq})
}

// reused follows a cached command list's handle and memory into the list
// RecycleCreateCommandList revives it for ("Supporting command lists": the
// cached handle becomes valid again, as the new list): the old list's
// history ends there, "reused" by the new one, instead of staying "cached".
func (in *inspector) reused(e *trace.Event) {
	for i := len(in.lists) - 1; i >= 0; i-- {
		l := in.lists[i]
		if l.Handle != e.Handle || l.Obj == e.Obj || l.State != "cached" {
			continue
		}
		l.State = "reused"
		l.ReusedBy = e.Obj
		l.History = append(l.History, histEnt{What: "reused", Seq: e.Seq, Obj: e.Obj})
		if n := in.listBy[e.Obj]; n != nil {
			n.Reuses = l.Obj
		}
		return
	}
}

// ddiCall tracks UMD handles and the recycle caches.
func (in *inspector) ddiCall(e *trace.Event) {
	switch e.Name {
	case "CalcDeferredContextHandleSize":
		if h := in.handleBy[e.Ctx+"/"+e.Handle]; h != nil {
			h.Size = max(0, intOr(e.Args, trace.KeySize))
			h.Type = max(0, intOr(e.Args, trace.KeyType))
		}
		return
	case "RecycleDestroyCommandList":
		in.cache(&in.clCache, in.clBy, e.Handle, e.Obj).step("retired by RecycleDestroyCommandList (light destruction: the deferred context lives)", e, true)
		return
	case "RecycleCommandList":
		in.cache(&in.clCache, in.clBy, e.Handle, e.Obj).step("folded into "+e.Ctx+"'s cache by RecycleCommandList", e, true)
		return
	case "RecycleCreateCommandList":
		in.cache(&in.clCache, in.clBy, e.Handle, e.Obj).step("reused for "+e.Obj+" by RecycleCreateCommandList", e, false)
		in.reused(e)
		in.created(e, "IC", e.Handle)
		return
	case "RecycleCreateDeferredContext":
		dc := e.Obj
		in.cache(&in.dcCache, in.dcBy, e.Handle, dc).step("recycled by RecycleCreateDeferredContext: ready to record again", e, false)
		return
	case "AbandonCommandList":
		if c := in.dcBy[e.Handle]; c != nil {
			c.step("AbandonCommandList", e, false)
		}
		return
	}
	if strings.HasPrefix(e.Name, "Destroy") {
		in.destroyed(e)
		return
	}
	if strings.HasPrefix(e.Name, "Create") && e.Handle != "" {
		in.created(e, e.Ctx, e.Handle)
		switch e.Name {
		case "CreateCommandList":
			in.cache(&in.clCache, in.clBy, e.Handle, e.Obj).step("created by CreateCommandList (cold path) for "+e.Obj, e, false)
		case "CreateDeferredContext":
			name := e.Args.Str(trace.KeyDC)
			switch {
			case name == "":
				name = e.Obj
			case e.Obj != "" && e.Obj != name:
				name += " (" + e.Obj + ")"
			}
			in.cache(&in.dcCache, in.dcBy, e.Handle, name).step("created by CreateDeferredContext", e, false)
		}
	}
}

// created records a new handle (or a fresh life of a recycled one).
func (in *inspector) created(e *trace.Event, ctx, handle string) {
	if ctx == "" {
		ctx = "IC"
	}
	key := ctx + "/" + handle
	if old := in.handleBy[key]; old != nil && old.Destroyed == 0 && e.Name == "RecycleCreateCommandList" {
		old.Obj = e.Obj
		return
	}
	h := &handleInfo{Ctx: ctx, Handle: handle, Obj: e.Obj, DDI: e.Name, Of: strings.Clone(e.Args.Str(trace.KeyRT)), Created: e.Seq, Line: e.Line}
	h.Private = -1
	if k := e.Thread + "/" + e.Obj; ctx == "IC" {
		if n, ok := in.private[k]; ok {
			h.Private = n
			delete(in.private, k)
		}
	}
	if h.Of != "" {
		// A context-local handle has the size its IC handle was given.
		if ic := in.handleBy["IC/"+h.Of]; ic != nil {
			h.Size, h.Type = ic.Size, ic.Type
		}
	}
	in.handles = append(in.handles, h)
	in.handleBy[key] = h
}

// destroyed ends a handle's life.
func (in *inspector) destroyed(e *trace.Event) {
	ctx := e.Ctx
	if ctx == "" {
		ctx = "IC"
	}
	if h := in.handleBy[ctx+"/"+e.Handle]; h != nil && h.Destroyed == 0 {
		h.Destroyed = e.Seq
	}
	switch {
	case e.Name == "DestroyCommandList":
		in.cache(&in.clCache, in.clBy, e.Handle, e.Obj).step("destroyed by DestroyCommandList", e, false)
	case e.Name == "DestroyDevice" && strings.HasPrefix(ctx, "DC"):
		// The deferred context's own handle lives in the IC's table.
		if h := in.handleBy["IC/"+e.Handle]; h != nil && h.Destroyed == 0 {
			h.Destroyed = e.Seq
		}
		if c := in.dcBy[e.Handle]; c != nil {
			c.step("destroyed by DestroyDevice", e, false)
		}
	}
}

// kernelCall tracks kernel handles: devices, contexts, allocations.
func (in *inspector) kernelCall(e *trace.Event) {
	if e.Handle == "" {
		return
	}
	switch e.Name {
	case "DxgkDdiCreateDevice", "DxgkDdiCreateContext", "DxgkDdiCreateAllocation":
		h := &handleInfo{Handle: e.Handle, Obj: e.Obj, DDI: e.Name, Size: max(0, intOr(e.Args, trace.KeySize)), Created: e.Seq, Line: e.Line}
		in.kernel = append(in.kernel, h)
		in.kernelBy[e.Handle] = h
	case "DxgkDdiDestroyDevice", "DxgkDdiDestroyContext", "DxgkDdiDestroyAllocation":
		if h := in.kernelBy[e.Handle]; h != nil && h.Destroyed == 0 {
			h.Destroyed = e.Seq
		}
	}
}

// cache finds or makes the cache entry of a handle.
func (in *inspector) cache(list *[]*cacheEntry, by map[string]*cacheEntry, handle, name string) *cacheEntry {
	if c := by[handle]; c != nil {
		return c
	}
	c := &cacheEntry{list: list == &in.clCache, Handle: handle, Name: name, History: []histEnt{}}
	*list = append(*list, c)
	by[handle] = c
	return c
}

func (c *cacheEntry) step(what string, e *trace.Event, inCache bool) {
	c.History = append(c.History, histEnt{What: what, Seq: e.Seq, Obj: e.Obj})
	c.InCache = inCache
	if c.list && e.Obj != "" {
		c.Name = e.Obj
	}
}

// maxRows bounds each table of a snapshot: a long run keeps its newest rows.
const maxRows = 4000

// inspectSnapshot is what the panel's Command lists and Handles views show.
type inspectSnapshot struct {
	Lists    []*clInfo     `json:"lists"`
	Handles  []*handleInfo `json:"handles"`
	Kernel   []*handleInfo `json:"kernel"`
	CLCache  []*cacheEntry `json:"clCache"`
	DCCache  []*cacheEntry `json:"dcCache"`
	Live     liveCounts    `json:"live"`
	Dropped  int           `json:"dropped"` // rows left out (oldest first)
	Consumed uint64        `json:"consumed"`
}

// liveCounts are the handles alive now.
type liveCounts struct {
	IC           int `json:"ic"`
	DC           int `json:"dc"`
	Kernel       int `json:"kernel"`
	Allocations  int `json:"allocations"`
	CommandLists int `json:"commandLists"` // valid: usable by ExecuteCommandList
	InCache      int `json:"inCache"`      // command-list handles retired or cached
	Deferred     int `json:"deferred"`     // deferred contexts alive
}

func (in *inspector) snapshot() inspectSnapshot {
	s := inspectSnapshot{Consumed: in.seen}
	tail := func(n int) int {
		if n > maxRows {
			s.Dropped += n - maxRows
			return n - maxRows
		}
		return 0
	}
	s.Lists = in.lists[tail(len(in.lists)):]
	s.Handles = in.handles[tail(len(in.handles)):]
	s.Kernel = in.kernel[tail(len(in.kernel)):]
	s.CLCache = in.clCache[tail(len(in.clCache)):]
	s.DCCache = in.dcCache[tail(len(in.dcCache)):]
	for _, h := range in.handles {
		if h.Destroyed != 0 {
			continue
		}
		if h.Ctx == "IC" {
			s.Live.IC++
		} else {
			s.Live.DC++
		}
	}
	for _, h := range in.kernel {
		if h.Destroyed == 0 {
			s.Live.Kernel++
			if h.DDI == "DxgkDdiCreateAllocation" {
				s.Live.Allocations++
			}
		}
	}
	for _, l := range in.lists {
		if l.State == "valid" {
			s.Live.CommandLists++
		}
	}
	for _, c := range in.clCache {
		if c.InCache {
			s.Live.InCache++
		}
	}
	for _, c := range in.dcCache {
		if n := len(c.History); n > 0 && !c.InCache && !strings.HasPrefix(c.History[n-1].What, "destroyed") {
			s.Live.Deferred++
		}
	}
	if s.Lists == nil {
		s.Lists = []*clInfo{}
	}
	if s.Handles == nil {
		s.Handles = []*handleInfo{}
	}
	if s.Kernel == nil {
		s.Kernel = []*handleInfo{}
	}
	if s.CLCache == nil {
		s.CLCache = []*cacheEntry{}
	}
	if s.DCCache == nil {
		s.DCCache = []*cacheEntry{}
	}
	return s
}
