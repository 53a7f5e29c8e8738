package verify

import (
	"d3dsim/core/rules"
	"fmt"
	"slices"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// Rule describes one rule (core/rules declares them).
type Rule = rules.Rule

// Rules lists the rules this verifier checks.
var Rules = rules.All

// RuleByID finds a rule.
func RuleByID(id string) (Rule, bool) { return rules.ByID(rules.ID(id)) }

// Severity says how firmly the source states what a report checks.
type Severity uint8

const (
	// Error: the source says must. Only errors count as violations
	// (Count, `expect violations == 0`) and fail a run.
	Error Severity = iota
	// Warning: the source gives the check as an example ("for example,
	// ... 1 millisecond") or says "almost always"; the report says so in the
	// source's words, is listed and traced ("warning: ...") and never fails
	// a run.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Violation is one broken rule, or with Severity Warning one departure from
// an example the source gives.
type Violation struct {
	Rule     string
	Source   string // the public page the rule comes from, by title
	Msg      string
	Seq      uint64 // the offending event
	Line     int    // its scenario line
	Event    string // the offending event, printed
	Severity Severity
}

func (v Violation) String() string {
	w := ""
	if v.Severity == Warning {
		w = "warning: "
	}
	return fmt.Sprintf("line %d: %s%s (%q): %s [event %s]", v.Line, w, v.Rule, v.Source, v.Msg, v.Event)
}

// Verifier consumes a recorder's events incrementally.
type Verifier struct {
	rec   *trace.Recorder
	next  uint64 // seq of the last event read
	vs    []Violation
	count int             // errors found, kept or not (Count)
	warns int             // warnings found, kept or not (WarningCount)
	kept  map[string]bool // rules with a violation kept
	// Poll's batch, decoded under one lock into this array (no allocation,
	// nothing to zero per statement); parent finds an event's enclosing
	// calls here first, without the recorder's lock and a decode.
	batch [pollBatch]trace.Event
	cur   []trace.Event  // the batch being checked (a slice of batch)
	par   [8]trace.Event // parent's results, reused in turn
	parN  int
	ths   threads // per-thread state (threads.go)
	names names   // the checks each name goes to (dispatch.go)
	all   bool    // every event to every check (SetDispatch)
	// noQuiet turns quiet (quiet.go) off: every event goes through event
	// (tests compare).
	noQuiet bool
	quietN  int // calls quiet took (tests)
	// quietNames: the names of the last call quiet took
	quietNames [4]string
	// The last call quiet took (repeat.go): the seq of its last event, its
	// thread's state, whether its DDI is a Draw's; repeats of it are checked
	// by their times. noRepeat turns that off (tests compare).
	quietEnd  uint64
	quietT    *thState
	quietDraw [2]bool // the DDI's call and return are a Draw's
	noRepeat  bool
	repeatN   int // calls taken as repeats (tests)
	times     [pollBatch]int64

	// WDDM-FLOW state
	kernelDeviceReady bool
	resourceCalls     map[uint64]bool // open CreateResource DDI calls -> saw pfnAllocateCb
	allocateCalls     map[uint64]bool // open pfnAllocateCb calls -> saw DxgkDdiCreateAllocation
	dma               dmaSteps        // the DMA ids DxgkDdiRender/DxgkDdiPresent produced and DxgkDdiPatch patched
	interrupts        map[uint64]int  // open DxgkDdiInterruptRoutine calls -> callbacks seen (bits)
	dpcs              map[uint64]bool // open DxgkDdiDpcRoutine calls -> DxgkCbNotifyDpc seen
	presents          map[uint64]bool // open PresentDXGI calls -> pfnPresentCb seen
	// WDDM-ISOLATE state
	foreign map[uint64]string // open render calls naming foreign allocations -> what
	// MAP-HAZARD state
	renders map[uint64]trace.Args      // open DxgkDdiRender/Present calls -> their payload (its allocation list)
	pending map[string]map[uint64]bool // allocation -> DMA buffer -> writes it
	usage   map[string]string          // DDI resource handle -> usage
	// LIFE-DANGLING state
	destroyed      map[string]string // DDI handle -> object name, once its Destroy* DDI ran (the newest maxDestroyed)
	destroyedOrder []string          // destroyed's keys, oldest first
	released       map[string]bool   // object name -> released while bound, not yet destroyed
	objOf          map[string]string // immediate-context DDI handle -> object name, from its Create* DDI

	cl   clState    // CLS-* and CL-* rules
	am   amState    // AM-* rules
	dd   ddState    // DD-* rules
	exec execState  // CL-EXEC
	as   asyncState // ASYNC-SAME, ERR-ASYNC (async.go)
	ft   ftState    // FT-CAP, FT-CALC, FT-HCTX, FT-ALLOC, FT-TABLE
	sync syncState  // DD-SYNC
}

// New returns a verifier reading rec from its first event.
func New(rec *trace.Recorder) *Verifier {
	return &Verifier{rec: rec, resourceCalls: map[uint64]bool{}, allocateCalls: map[uint64]bool{},
		interrupts: map[uint64]int{}, dpcs: map[uint64]bool{}, presents: map[uint64]bool{}, foreign: map[uint64]string{},
		renders: map[uint64]trace.Args{}, pending: map[string]map[uint64]bool{}, usage: map[string]string{}, destroyed: map[string]string{}, released: map[string]bool{}, objOf: map[string]string{}}
}

// SetDispatch(false) sends every event to every check, as before the speed work's
// dispatch (dispatch.go); the violations found are the same (tests compare).
func (v *Verifier) SetDispatch(on bool) { v.all = !on }

// Violations returns what was found so far.
func (v *Verifier) Violations() []Violation { return v.vs }

// Count is the number of violations of Error severity found, kept or not:
// past the first maxKept, only the first of each rule is kept (a rule broken
// in a loop must not grow the verifier without bound), the rest are counted.
func (v *Verifier) Count() int { return v.count }

// WarningCount is the number of reports of Warning severity found, kept or
// not.
func (v *Verifier) WarningCount() int { return v.warns }

// Warnings returns the kept reports of Warning severity: they are listed
// with the violations (Violations) but fail nothing.
func (v *Verifier) Warnings() []Violation {
	var ws []Violation
	for _, f := range v.vs {
		if f.Severity == Warning {
			ws = append(ws, f)
		}
	}
	return ws
}

// maxKept is how many violations are kept whatever their rule.
const maxKept = 1000

// Poll checks the events recorded since the last call and records a
// violation event for each rule broken.
func (v *Verifier) Poll() {
	for {
		if v.quietEnd == v.next && v.next != 0 && !v.noRepeat && v.repeats() {
			return
		}
		// In batches decoded under one lock into the verifier's array: no
		// allocation per event. The ring may have dropped some:
		// go by seq.
		evs := v.rec.AppendSince(v.batch[:0], v.next, pollBatch)
		if len(evs) == 0 {
			return
		}
		v.next = evs[len(evs)-1].Seq
		v.cur = evs
		var found []Violation
		for i := 0; i < len(evs); i++ {
			if evs[i].Kind == trace.Violation {
				continue
			}
			if evs[i].Kind == trace.Call && v.quiet(evs[i:]) {
				i += 3 // a quiet call's four events at once
				continue
			}
			found = appendAll(found, v.event(&evs[i]))
		}
		v.cur = nil
		for _, f := range found {
			msg := f.Msg
			if f.Severity == Warning {
				v.warns++
				msg = "warning: " + msg
			} else {
				v.count++
			}
			if len(v.vs) < maxKept || !v.kept[f.Rule] {
				if v.kept == nil {
					v.kept = map[string]bool{}
				}
				v.kept[f.Rule] = true
				v.vs = append(v.vs, f)
			}
			v.rec.Emit(trace.Event{Thread: "verify", Layer: trace.LayerNone, Kind: trace.Violation, Name: f.Rule,
				Rule: f.Rule, Msg: msg, Line: f.Line, Parent: f.Seq})
		}
		if len(found) == 0 && len(evs) < pollBatch {
			return // read up to the newest event; nothing emitted since
		}
	}
}

// pollBatch is how many events Poll decodes at a time.
const pollBatch = 32

func (v *Verifier) violation(rule rules.ID, e *trace.Event, format string, args ...any) Violation {
	r, _ := rules.ByID(rule)
	return Violation{Rule: string(rule), Source: string(r.Source), Msg: fmt.Sprintf(format, args...), Seq: e.Seq, Line: e.Line,
		Event: fmt.Sprintf("#%d %s %s %s", e.Seq, e.Layer, e.Kind, e.Name)}
}

// warning is violation for a check the source gives as an example, or words
// as "almost always" (CL-DESTROY, from "Supporting command lists":
// "If DC still alive, almost always recycle"): reported, traced, but not
// counted as an error.
func (v *Verifier) warning(rule rules.ID, e *trace.Event, format string, args ...any) Violation {
	w := v.violation(rule, e, format, args...)
	w.Severity = Warning
	return w
}

func (v *Verifier) parentName(e *trace.Event) (string, trace.Layer) {
	if e.Parent == 0 {
		return "", trace.LayerNone
	}
	p := v.parent(e)
	if p == nil { // dropped by the trace ring
		return "", trace.LayerNone
	}
	return p.Name, p.Layer
}

func (v *Verifier) event(e *trace.Event) []Violation {
	var out []Violation
	call := e.Kind == trace.Call
	ret := e.Kind == trace.Return
	m := v.checks(e) // dispatch.go
	if m&ckFlow != 0 {
		out = v.flow(e, call, ret)
	}
	if ret && m&ckClose != 0 {
		out = appendAll(out, v.closeCall(e))
	}
	if m&ckMapHazard != 0 {
		out = appendAll(out, v.mapHazard(e))
	}
	if m&ckDangling != 0 {
		out = appendAll(out, v.dangling(e))
	}
	if m&ckCL2 != 0 {
		out = appendAll(out, v.commandLists2(e))
	}
	if m&ckCLExec != 0 {
		out = appendAll(out, v.commandListExec(e))
	}
	if m&ckSizes != 0 {
		out = appendAll(out, v.sizes(e))
	}
	if m&ckCL != 0 {
		out = appendAll(out, v.commandLists(e))
	}
	if m&ckAm != 0 {
		out = appendAll(out, v.amortize(e))
	}
	if m&ckDestroy != 0 {
		out = appendAll(out, v.destruction(e))
	}
	if m&ckCallbacks != 0 {
		out = appendAll(out, v.callbacks(e))
	}
	if m&ckAsync != 0 {
		out = appendAll(out, v.async(e))
	}
	if m&ckFT != 0 {
		out = appendAll(out, v.freeThreading(e))
	}
	if m&ckSync != 0 {
		out = appendAll(out, v.syncDestroy(e))
	}
	if m&ckFlow != 0 {
		out = appendAll(out, v.flowLate(e, call))
	}
	return out
}

// flow checks WDDM-FLOW's steps.
func (v *Verifier) flow(e *trace.Event, call, ret bool) []Violation {
	var out []Violation
	switch {
	// WDDM-FLOW, steps 1-3: DxgkDdiCreateDevice before the UMD's CreateDevice,
	// pfnCreateContextCb inside it.
	case call && e.Name == "D3D11CreateDevice":
		v.kernelDeviceReady = false
	case call && e.Name == "DxgkDdiCreateDevice":
		v.kernelDeviceReady = true
	case call && e.Name == "CreateDevice" && e.Layer == trace.UMD:
		if !v.kernelDeviceReady {
			out = append(out, v.violation(rules.WDDMFlow, e, "the UMD's CreateDevice ran before Dxgkrnl's DxgkDdiCreateDevice (WDDM operation flow, steps 1-2)"))
		}
	case call && e.Name == "pfnCreateContextCb":
		if n, l := v.parentName(e); n != "CreateDevice" || l != trace.UMD {
			out = append(out, v.violation(rules.WDDMFlow, e, "pfnCreateContextCb called outside the UMD's CreateDevice (WDDM operation flow, step 3)"))
		}
	// Steps 4-6: CreateResource -> pfnAllocateCb -> DxgkDdiCreateAllocation.
	case call && e.Name == "CreateResource" && e.Layer == trace.UMD && (e.Ctx == "IC" || e.Ctx == ""):
		// (on a deferred context CreateResource opens a context-local
		// handle and allocates nothing, "Using context-local DDI handles")
		v.resourceCalls[e.Seq] = false
	case call && e.Name == "pfnAllocateCb":
		v.allocateCalls[e.Seq] = false
		if _, open := v.resourceCalls[e.Parent]; open {
			v.resourceCalls[e.Parent] = true
		}
	case call && e.Name == "DxgkDdiCreateAllocation":
		if _, open := v.allocateCalls[e.Parent]; open {
			v.allocateCalls[e.Parent] = true
		}
	// Steps 10-14: the DMA buffer is built, patched, then submitted.
	case ret && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") && e.DMA != 0:
		v.dma.set(e.DMA, dmaBuilt)
	case call && e.Name == "DxgkDdiPatch" && e.DMA != 0:
		if !v.dma.has(e.DMA, dmaBuilt) {
			out = append(out, v.violation(rules.WDDMFlow, e, "DxgkDdiPatch of DMA buffer %d before DxgkDdiRender/DxgkDdiPresent built it (WDDM operation flow, steps 10, 13)", e.DMA))
		}
		v.dma.set(e.DMA, dmaPatched)
	case call && e.Name == "DxgkDdiSubmitCommand" && e.DMA != 0 && !e.Args.Has(trace.KeyPaging):
		if !v.dma.has(e.DMA, dmaPatched) {
			out = append(out, v.violation(rules.WDDMFlow, e, "DxgkDdiSubmitCommand of DMA buffer %d before DxgkDdiPatch (WDDM operation flow, steps 13-14)", e.DMA))
		}
	// Steps 15-16: the interrupt routine notifies and queues the DPC.
	case call && e.Name == "DxgkDdiInterruptRoutine":
		v.interrupts[e.Seq] = 0
	case call && (e.Name == "DxgkCbNotifyInterrupt" || e.Name == "DxgkCbQueueDpc"):
		if _, open := v.interrupts[e.Parent]; open {
			bit := 1
			if e.Name == "DxgkCbQueueDpc" {
				bit = 2
			}
			v.interrupts[e.Parent] |= bit
		}
	// The DPC tells the GPU scheduler about the ISR's events at DPC time.
	case call && e.Name == "DxgkDdiDpcRoutine":
		v.dpcs[e.Seq] = false
	case call && e.Name == "DxgkCbNotifyDpc":
		if _, open := v.dpcs[e.Parent]; open {
			v.dpcs[e.Parent] = true
		}
	// Steps 9-10 for a present, as "DXGI_DDI_BASE_FUNCTIONS" words them
	// for PresentDXGI: "The driver must submit all partially built render
	// data (command buffers) using the pfnRenderCb function. Thereafter"
	// pfnPresentCb. Render data submitted after the present misses the frame.
	case call && e.Name == "PresentDXGI" && e.Layer == trace.UMD:
		v.presents[e.Seq] = false
	case call && e.Name == "pfnPresentCb":
		if _, open := v.presents[e.Parent]; open {
			v.presents[e.Parent] = true
		}
	// WDDM 2.0 residency: Dxgkrnl found a buffer naming an allocation on no
	// residency list ("Driver residency in WDDM 2.0").
	case e.Kind == trace.Message && e.Name == "NonResidentAccess":
		out = append(out, v.violation(rules.WDDMResident, e, "%s (the driver did not make it resident with pfnMakeResidentCb before pfnRenderCb)", e.Msg))
	case call && e.Name == "pfnRenderCb":
		if v.presents[e.Parent] {
			out = append(out, v.violation(rules.WDDMPresent, e, "pfnRenderCb after pfnPresentCb in PresentDXGI: the frame's render data reaches the GPU after its present (DXGI_DDI_BASE_FUNCTIONS: submit it with pfnRenderCb, thereafter pfnPresentCbDXGI)"))
		}
	}
	return out
}

// flowLate checks WDDM-FULL and follows WDDM-ISOLATE, after the other
// checks.
func (v *Verifier) flowLate(e *trace.Event, call bool) []Violation {
	var out []Violation
	// WDDM-FULL: no command buffer larger than the one the runtime gave.
	if call && e.Name == "pfnRenderCb" {
		bytes, size := argInt64(e.Args, trace.KeyBytes), argInt64(e.Args, trace.KeySize)
		if size > 0 && bytes > size {
			out = append(out, v.violation(rules.WDDMFull, e, "%s submitted %d bytes, more than the %d-byte command buffer the runtime gave (pfnCreateContextCb, or the last pfnRenderCb's NewCommandBufferSize): a full buffer must be submitted, not grown in place", e.Name, bytes, size))
		}
	}
	// WDDM-ISOLATE: a page fault on the GPU is a command buffer the KMD
	// accepted although it reaches outside the allocations it names (a
	// validating KMD rejects it at DxgkDdiRender/DxgkDdiPresent).
	if e.Kind == trace.Message && e.Name == "GpuFault" && e.Args.Has(trace.KeyPageFault) {
		packet, _ := e.Args.Int(trace.KeyPacket)
		out = append(out, v.violation(rules.WDDMIsolate, e, "the KMD accepted DMA buffer %d although its packet %d reaches outside the allocations it names (GPU: %s)", e.DMA, packet, e.Msg))
	}
	out = appendAll(out, v.patchOutside(e))
	// WDDM-ISOLATE: a render naming another device's allocation must fail.
	if call && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent") {
		if f := foreignAllocs(e.Args); f != "" {
			v.foreign[e.Seq] = f
		}
	}
	return out
}

// appendAll is append(out, vs...) without the call when vs is empty, which
// it nearly always is (a dozen checks per event).
func appendAll(out, vs []Violation) []Violation {
	if len(vs) == 0 {
		return out
	}
	return append(out, vs...)
}

// closeCall finishes the checks that need a call's return.
func (v *Verifier) closeCall(e *trace.Event) []Violation {
	var out []Violation
	// The call a Return closes is the most recent open Call with that name
	// on that thread; find it through the open maps.
	switch e.Name {
	case "CreateResource":
		for seq, saw := range v.resourceCalls {
			if v.threadOf(seq) == e.Thread {
				// (CreateResource is void: it succeeded when the driver
				// reported no error, which its Return's message would name)
				if !saw && (e.HR == "S_OK" || e.HR == "" && e.Msg == "") {
					out = append(out, v.violation(rules.WDDMFlow, e, "CreateResource returned without calling pfnAllocateCb (WDDM operation flow, steps 4-5)"))
				}
				delete(v.resourceCalls, seq)
			}
		}
	case "pfnAllocateCb":
		for seq, saw := range v.allocateCalls {
			if v.threadOf(seq) == e.Thread {
				if !saw && e.HR == "S_OK" {
					out = append(out, v.violation(rules.WDDMFlow, e, "pfnAllocateCb returned without DxgkDdiCreateAllocation (WDDM operation flow, steps 5-6)"))
				}
				delete(v.allocateCalls, seq)
			}
		}
	case "DxgkDdiInterruptRoutine":
		for seq, bits := range v.interrupts {
			if v.threadOf(seq) == e.Thread {
				if bits != 3 {
					out = append(out, v.violation(rules.WDDMFlow, e, "DxgkDdiInterruptRoutine returned without calling both DxgkCbNotifyInterrupt and DxgkCbQueueDpc (WDDM operation flow, steps 15-16)"))
				}
				delete(v.interrupts, seq)
			}
		}
	case "PresentDXGI":
		for seq := range v.presents {
			if v.threadOf(seq) == e.Thread {
				delete(v.presents, seq)
			}
		}
	case "DxgkDdiDpcRoutine":
		for seq, saw := range v.dpcs {
			if v.threadOf(seq) == e.Thread {
				if !saw {
					out = append(out, v.violation(rules.WDDMFlow, e, "DxgkDdiDpcRoutine returned without calling DxgkCbNotifyDpc: the GPU scheduler hears of what the ISR reported only from it (DXGKCB_NOTIFY_DPC)"))
				}
				delete(v.dpcs, seq)
			}
		}
	case "DxgkDdiRender", "DxgkDdiPresent":
		for seq, what := range v.foreign {
			if v.threadOf(seq) == e.Thread {
				if e.HR == "STATUS_SUCCESS" || e.HR == "" {
					out = append(out, v.violation(rules.WDDMIsolate, e, "%s accepted a command buffer naming %s", e.Name, what))
				}
				delete(v.foreign, seq)
			}
		}
	}
	return out
}

// threadOf is the thread of the event seq ("" once the trace ring dropped
// it).
func (v *Verifier) threadOf(seq uint64) string {
	if e, ok := v.rec.At(seq); ok {
		return e.Thread
	}
	return ""
}

// argUint is the unsigned value of key k (0 when absent).
func argUint(a trace.Args, k trace.Key) uint64 {
	n, _ := a.Uint(k)
	return n
}

// argInt64 is the integer value of key k (0 when absent).
func argInt64(a trace.Args, k trace.Key) int64 {
	n, _ := a.Int(k)
	return n
}

// argIs reports whether key k is present with the integer value v.
func argIs(a trace.Args, k trace.Key, v int64) bool {
	n, ok := a.Int(k)
	return ok && n == v
}

// foreignAllocs describes the entries of a render's allocation list whose
// owner is not the submitting device (KeyDevice).
func foreignAllocs(args trace.Args) string {
	dev := args.Str(trace.KeyDevice)
	if dev == "" {
		return ""
	}
	var bad []string
	for a := range args.Allocs() {
		if owner := a.OwnerName(); owner != dev {
			bad = append(bad, fmt.Sprintf("allocation %s of device %s (submitted by %s)", a.Name(), owner, dev))
		}
	}
	return strings.Join(bad, ", ")
}

// parent returns the event's enclosing call (nil at top level, or when the
// trace ring dropped it). The event is decoded into one of 8 slots used in
// turn, so nothing is allocated: a pointer stays valid for the next 7 calls
// (callers hold at most two at once). A parent in the batch being checked
// is that batch's event, valid until the next batch.
func (v *Verifier) parent(e *trace.Event) *trace.Event {
	if e.Parent == 0 {
		return nil
	}
	// Most parents are in the batch being checked (a Draw's DDI call and
	// its API call come from one statement): the same event At decodes.
	if n := len(v.cur); n > 0 && e.Parent >= v.cur[0].Seq && e.Parent <= v.cur[n-1].Seq {
		return &v.cur[e.Parent-v.cur[0].Seq]
	}
	p, ok := v.rec.At(e.Parent)
	if !ok {
		return nil
	}
	v.parN = (v.parN + 1) % len(v.par)
	v.par[v.parN] = p
	return &v.par[v.parN]
}

// enclosingMap finds the map DDI call (any of the map entries,
// ddi.MapEntries) an event happens inside.
func (v *Verifier) enclosingMap(e *trace.Event) *trace.Event {
	for p := v.parent(e); p != nil; p = v.parent(p) {
		if ddi.IsMapDDI(p.Name) && p.Layer == trace.UMD && p.Kind == trace.Call {
			return p
		}
	}
	return nil
}

// mapHazard follows which submitted DMA buffers read or write each
// allocation until their fences signal, and checks every Map against them
// (the SamBookshelf article on asynchronous Draw: RAW for READ, WAR/WAW for WRITE).
func (v *Verifier) mapHazard(e *trace.Event) []Violation {
	switch {
	case e.Kind == trace.Call && e.Name == "CreateResource" && e.Layer == trace.UMD:
		v.usage[e.Handle] = strings.Clone(e.Args.Str(trace.KeyUsage))
	case e.Kind == trace.Return && e.Name == "CreateResource" && e.Layer == trace.UMD && createFailed(e):
		delete(v.usage, e.Handle)
	case e.Kind == trace.Call && ddi.IsMapDDI(e.Name) && e.Layer == trace.UMD:
		if v.usage[e.Handle] == "IMMUTABLE" {
			return []Violation{v.violation(rules.MapHazard, e, "%s of IMMUTABLE resource %s (%s): an IMMUTABLE resource can never be mapped", e.Name, e.Obj, e.Handle)}
		}
	case e.Kind == trace.Call && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent"):
		v.renders[e.Seq] = e.Args
	case e.Kind == trace.Return && (e.Name == "DxgkDdiRender" || e.Name == "DxgkDdiPresent"):
		for seq, allocs := range v.renders {
			if v.threadOf(seq) != e.Thread {
				continue
			}
			delete(v.renders, seq)
			if e.HR != "STATUS_SUCCESS" || e.DMA == 0 {
				continue
			}
			for a := range allocs.Allocs() {
				h := a.Name()
				if v.pending[h] == nil {
					v.pending[h] = map[uint64]bool{}
				}
				v.pending[h][e.DMA] = v.pending[h][e.DMA] || a.Write
			}
		}
	case e.Name == "FenceSignaled" || e.Name == "FenceCancelled" || e.Name == "DmaBufferDropped":
		if e.DMA != 0 {
			for _, m := range v.pending {
				delete(m, e.DMA)
			}
		}
	case e.Kind == trace.Return && e.Name == "pfnLockCb" && e.HR == "S_OK":
		// Checked when the lock returns: the video memory manager waits
		// inside pfnLockCb ("PFND3DDDI_LOCKCB callback function").
		m := v.enclosingMap(e)
		if m == nil {
			return nil
		}
		typ := m.Args.Str(trace.KeyType)
		dmas := make([]uint64, 0, len(v.pending[e.Handle]))
		for dma := range v.pending[e.Handle] {
			dmas = append(dmas, dma)
		}
		slices.Sort(dmas) // report the oldest: deterministic messages
		for _, dma := range dmas {
			writes := v.pending[e.Handle][dma]
			switch {
			case typ == "READ" && writes:
				return []Violation{v.violation(rules.MapHazard, e, "Map(READ) of %s locked allocation %s while DMA buffer %d still writes it (RAW): the map must wait for its fence", m.Obj, e.Handle, dma)}
			case typ == "WRITE" || typ == "READ_WRITE":
				hz := "WAR"
				if writes {
					hz = "WAW"
				}
				return []Violation{v.violation(rules.MapHazard, e, "Map(%s) of %s locked allocation %s while DMA buffer %d still uses it (%s): the map must wait for its fence", typ, m.Obj, e.Handle, dma, hz)}
			}
		}
	case e.Kind == trace.Wait && !e.Args.Has(trace.KeyDone) && e.Args.Str(trace.KeyHazard) != "":
		// A wait for the resource (one with a hazard), not the flow
		// control of a submission the map makes first.
		if m := v.enclosingMap(e); m != nil {
			if t := m.Args.Str(trace.KeyType); t == "WRITE_DISCARD" || t == "WRITE_NO_OVERWRITE" {
				return []Violation{v.violation(rules.MapHazard, e, "Map(%s) of %s waited for the GPU: DISCARD and NO_OVERWRITE never wait", t, m.Obj)}
			}
		}
	}
	return nil
}

// dangling reports a DDI call that names an object after the application's
// final Release: the handle of an object whose Destroy* DDI already ran, or
// an object released while a binding kept it alive (ReleasedWhileBound),
// named by a call the application made (a top-level API call: the runtime's
// own calls inside ExecuteCommandList or FinishCommandList that restore a
// saved state or replay an emulated list may name it). A Create* on the
// immediate context under the same name is a new object; a StateShared
// message gives the application a reference again.
// maxDestroyed bounds the destroyed handles the verifier remembers: a
// handle used after more than that many later destructions is not
// reported (handles are never reused, and a run that creates and destroys
// objects in a loop kept every one).
const maxDestroyed = 1 << 14

// destroy notes that handle h of object obj was destroyed: its name moves
// from objOf to destroyed, which keeps the newest maxDestroyed.
// createFailed says whether e, the return of a Create* DDI, reports that the
// driver failed it (through pfnSetErrorCb, whose message a void DDI's return
// carries, or an HRESULT): the runtime never destroys a handle whose
// creation failed, so the tables by handle forget it here, or a loop of
// failing creations would grow them by a few hundred bytes a call.
func createFailed(e *trace.Event) bool {
	return strings.HasPrefix(e.Name, "Create") && (e.Msg != "" || e.HR != "" && e.HR != "S_OK")
}

func (v *Verifier) destroy(h, obj string) {
	if _, ok := v.destroyed[h]; !ok {
		v.destroyedOrder = append(v.destroyedOrder, h)
	}
	v.destroyed[h] = obj
	delete(v.objOf, h)
	for len(v.destroyed) > maxDestroyed && len(v.destroyedOrder) > 0 {
		delete(v.destroyed, v.destroyedOrder[0])
		v.destroyedOrder = v.destroyedOrder[1:]
	}
	if len(v.destroyedOrder) > 2*maxDestroyed {
		// (handles created again and destroyed twice left stale entries)
		kept := v.destroyedOrder[:0:0]
		for _, k := range v.destroyedOrder {
			if _, ok := v.destroyed[k]; ok {
				kept = append(kept, k)
			}
		}
		v.destroyedOrder = kept
	}
}

func (v *Verifier) dangling(e *trace.Event) []Violation {
	if e.Kind == trace.Message {
		switch e.Name {
		case "ReleasedWhileBound":
			v.released[e.Obj] = true
		case "StateShared":
			delete(v.released, e.Obj)
		}
		return nil
	}
	if e.Kind == trace.Return && e.Layer == trace.UMD && e.Handle != "" && (e.Ctx == "IC" || e.Ctx == "") && createFailed(e) {
		delete(v.objOf, e.Handle)
		return nil
	}
	if e.Kind != trace.Call || e.Layer != trace.UMD || e.Handle == "" {
		return nil
	}
	ic := e.Ctx == "IC" || e.Ctx == ""
	// (the recycle DDIs of "Supporting command lists" destroy and create too)
	create := strings.HasPrefix(e.Name, "Create") || strings.HasPrefix(e.Name, "Open") || strings.HasPrefix(e.Name, "RecycleCreate")
	switch {
	case strings.HasPrefix(e.Name, "RecycleDestroy"):
		// the handle is retired for a later Recycle* call, not dead: only
		// the released object is gone
		delete(v.released, e.Obj)
		return nil
	case strings.HasPrefix(e.Name, "Destroy"):
		v.destroy(e.Handle, e.Obj)
		if ic {
			delete(v.released, e.Obj)
		}
		return nil
	case strings.HasPrefix(e.Name, "Calc"):
		return nil
	case !create:
		if obj, dead := v.destroyed[e.Handle]; dead {
			return []Violation{v.violation(rules.LifeDangling, e, "%s reached the UMD with handle %s of %s, destroyed after its final Release", e.Name, e.Handle, obj)}
		}
	}
	// The objects the call names: its own (not a creation's: that is the
	// new object) and the resources its payload names (a copy's src=, a
	// view creation's res=).
	var out []Violation
	names := []string{v.objOf[e.Args.Str(trace.KeySrc)], v.objOf[e.Args.Str(trace.KeyRes)]}
	if !create {
		names = append(names, e.Obj)
	}
	for _, obj := range names {
		if obj == "" || !v.released[obj] {
			continue
		}
		if p := v.parent(e); p != nil && p.Parent == 0 && p.From == trace.App && p.Layer == trace.Runtime {
			out = append(out, v.violation(rules.LifeDangling, e, "%s reached the UMD naming %s, which the application had released: a binding or a view kept it alive inside the runtime, but the application's %s named it after its final Release", e.Name, obj, p.Name))
			break
		}
	}
	if create && ic {
		delete(v.released, e.Obj)
		delete(v.destroyed, e.Handle)
		v.objOf[e.Handle] = e.Obj
	}
	return out
}
