package verify

import (
	"d3dsim/core/rules"
	"slices"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// Free-threading rules of "Changes from Direct3D 10" that need to see threads overlap: FT-CAP,
// FT-CALC, FT-HCTX, FT-ALLOC, FT-TABLE. Overlap is read from the trace: each
// event names its simulated thread, and a Call stays open on its thread
// until its Return, so "thread B enters X while thread A is inside Y" is
// B's Call of X seen while A's Call of Y has no Return yet.

// hctxCallbacks are the callbacks that name an HCONTEXT ("Changes from Direct3D 10"): one
// thread at a time per context.
var hctxCallbacks = map[string]bool{
	"pfnPresentCb": true, "pfnRenderCb": true, "pfnEscapeCb": true, "pfnDestroyContextCb": true,
	"pfnWaitForSynchronizationObjectCb": true, "pfnSignalSynchronizationObjectCb": true,
	// (their WDDM 2.0 forms for monitored fences name it too)
	"pfnWaitForSynchronizationObjectFromGpuCb": true, "pfnSignalSynchronizationObjectFromGpuCb": true,
}

type ftState struct {
	notFree bool                           // the driver does not report D3D11DDICAPS_FREETHREADED
	hctx    map[string]map[string][]openCb // HCONTEXT (its device) -> thread -> its open callbacks on it
	// (per thread: thState.ddis, its open DDI calls but CalcPrivate*)
	inDDIs int // threads with an open DDI call (a non-empty thState.ddis): FT-CAP walks the threads only when another is inside one
}

// openCb is an HCONTEXT callback a thread is inside: its name and the
// scenario line that called it (for the FT-HCTX message).
type openCb struct {
	name string
	line int
}

// calcDDI says whether a DDI is one "Changes from Direct3D 10" makes free-threaded even
// without the cap.
func calcDDI(name string) bool {
	return strings.HasPrefix(name, "CalcPrivate") || name == "CalcDeferredContextHandleSize"
}

// otherThreads lists, sorted, the threads other than th for which open
// holds something.
func otherThreads[T any](open map[string]T, th string, busy func(T) bool) []string {
	var out []string
	for t, x := range open {
		if t != th && busy(x) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

func (v *Verifier) freeThreading(e *trace.Event) []Violation {
	f := &v.ft
	if f.hctx == nil {
		f.hctx = map[string]map[string][]openCb{}
	}
	var out []Violation
	isDDI := e.Layer == trace.UMD && e.From == trace.Runtime
	cb := e.Layer == trace.Runtime && e.From == trace.UMD
	switch {
	case e.Kind == trace.Message && e.Name == "DriverCaps":
		f.notFree = argIs(e.Args, trace.KeyFreeThreaded, 0)

	// FT-CAP: without the cap, no two DDIs run at once (but the CalcPrivate
	// ones, rule FT-CALC).
	case e.Kind == trace.Call && isDDI && !calcDDI(e.Name):
		t := v.ths.of(e.Thread)
		if f.notFree && f.inDDIs > min(len(t.ddis), 1) {
			others := otherThreads(v.ths.m, e.Thread, func(s *thState) bool { return len(s.ddis) > 0 })
			if len(others) > 0 {
				o := v.ths.of(others[0])
				out = append(out, v.violation(rules.FTCap, e, "%s entered on thread %s while thread %s is inside %s: a driver without D3D11DDICAPS_FREETHREADED gets one DDI at a time", e.Name, e.Thread, others[0], o.ddis[len(o.ddis)-1]))
			}
		}
		if len(t.ddis) == 0 {
			f.inDDIs++
		}
		t.ddis = append(t.ddis, e.Name)
	case e.Kind == trace.Return && isDDI && !calcDDI(e.Name):
		if t := v.ths.of(e.Thread); len(t.ddis) > 0 {
			t.ddis = t.ddis[:len(t.ddis)-1]
			if len(t.ddis) == 0 {
				f.inDDIs--
			}
		}

	// FT-HCTX: one thread at a time inside the HCONTEXT callbacks of one
	// context.
	case e.Kind == trace.Call && cb && hctxCallbacks[e.Name]:
		key := hctxKey(e)
		if e.Name == "pfnEscapeCb" && e.Args.Str(trace.KeyHctx) == "0" {
			break // a device-wide escape names no context
		}
		if f.hctx[key] == nil {
			key = strings.Clone(key) // (kept past the event: Args.Clone)
			f.hctx[key] = map[string][]openCb{}
		}
		if others := otherThreads(f.hctx[key], e.Thread, func(o []openCb) bool { return len(o) > 0 }); len(others) > 0 {
			in := f.hctx[key][others[0]]
			o := in[len(in)-1]
			out = append(out, v.violation(rules.FTHCtx, e, "%s on thread %s (line %d) while thread %s is inside %s (line %d) on the same HCONTEXT (device %s's context): the driver must let one thread at a time call the callbacks that name it", e.Name, e.Thread, e.Line, others[0], o.name, o.line, key))
		}
		f.hctx[key][e.Thread] = append(f.hctx[key][e.Thread], openCb{e.Name, e.Line})
	case e.Kind == trace.Return && cb && hctxCallbacks[e.Name]:
		if m := f.hctx[hctxKey(e)]; m != nil && len(m[e.Thread]) > 0 {
			m[e.Thread] = m[e.Thread][:len(m[e.Thread])-1]
		}
	}

	switch {
	// FT-CALC: CalcPrivate* are free-threaded even for a driver without the
	// cap, so they run beside anything: they may not call back into the
	// runtime (nothing a callback does is safe there).
	case e.Kind == trace.Call && cb:
		if p := v.parent(e); p != nil && p.Layer == trace.UMD && calcDDI(p.Name) {
			out = append(out, v.violation(rules.FTCalc, e, "%s called from inside %s: the CalcPrivate* DDIs are free-threaded even when the driver is not, so they must not do the immediate context's work", e.Name, p.Name))
		}
		// FT-ALLOC: a shared resource's pfnAllocateCb only on the thread
		// inside its CreateResource.
		if e.Name == "pfnAllocateCb" && argIs(e.Args, trace.KeyShared, 1) {
			res := e.Args.Str(trace.KeyRes)
			if p := v.parent(e); p == nil || p.Name != "CreateResource" || p.Layer != trace.UMD || p.Handle != res {
				where := "outside any DDI"
				if p != nil {
					where = "inside " + p.Name
				}
				out = append(out, v.violation(rules.FTAlloc, e, "pfnAllocateCb for shared resource %s (%s) %s on thread %s: a shared resource's allocations are made on the thread inside its CreateResource", res, e.Obj, where, e.Thread))
			}
		}

	// FT-TABLE: after CreateDevice the create/open/destroy/CalcPrivate/Check
	// entries are fixed; the others may change from inside an
	// immediate-context DDI.
	case e.Kind == trace.Message && e.Name == "DeviceFuncsWrite":
		entry := e.Args.Str(trace.KeyEntry)
		if ddi.FixedEntry(entry) {
			out = append(out, v.violation(rules.FTTable, e, "the driver rewrote %s (to %s) after CreateDevice: entries starting with pfnCreate, pfnOpen, pfnDestroy, pfnCalcPrivate and pfnCheck are fixed, other threads may be inside them", entry, e.Args.Str(trace.KeyImpl)))
		} else if p := v.parent(e); p == nil || p.Layer != trace.UMD || (p.Ctx != "IC" && p.Ctx != "") {
			out = append(out, v.violation(rules.FTTable, e, "the driver hot-swapped %s outside an immediate-context DDI: only the thread driving the immediate context may change its entries", entry))
		}
	}
	return out
}

// hctxKey names the HCONTEXT a callback event uses by its device: the
// event's obj, or its dev= argument where obj names something else (a Map
// wait names the resource it waits for).
func hctxKey(e *trace.Event) string {
	if d := e.Args.Str(trace.KeyDev); d != "" {
		return d
	}
	return e.Obj
}
