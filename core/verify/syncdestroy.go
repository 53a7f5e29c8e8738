package verify

import (
	"d3dsim/core/rules"
	"slices"

	"d3dsim/core/trace"
)

// DD-SYNC ("Changes from Direct3D 10"): the two synchronous-destruction patterns work.
//
//	Object::Release(); ClearState(); Flush();            // destroy as quickly as possible
//	... Flush(); End(EventQuery); while (S_FALSE == GetData(EventQuery)); Flush();  // destroy completely
//
// After the first Flush every object whose final Release came while the
// immediate context still bound it has been destroyed (its Destroy* DDI
// ran: ClearState only puts it in the runtime's destruction queue, which
// Flush drains; the driver's pfnDeallocateCb is rule DD-FLUSH's business). After the
// second Flush of the heavier pattern, every allocation the driver had
// deallocated before the End is gone in the kernel too
// (DxgkDdiDestroyAllocation).

type syncState struct {
	bound    map[string]bool // released while bound, not yet destroyed (object names)
	thread   string          // the thread running the pattern
	stage    int             // 0 none, 1 ClearState seen, 2 first Flush done, 3 End seen, 4 GetData == S_OK
	query    string
	waiting  []string        // objects the first Flush must have destroyed
	complete []string        // allocations the last Flush must see freed in the kernel
	freed    map[string]bool // allocation -> pfnDeallocateCb done (true), kernel freed (deleted)
}

func (v *Verifier) syncDestroy(e *trace.Event) []Violation {
	s := &v.sync
	if s.bound == nil {
		s.bound, s.freed = map[string]bool{}, map[string]bool{}
	}
	var out []Violation
	switch {
	case e.Kind == trace.Message && e.Name == "ReleasedWhileBound":
		s.bound[e.Obj] = true
		return nil
	case e.Kind == trace.Message && e.Name == "StateShared":
		// An identical create handed the released state object back to
		// the application: it holds a reference again, and ClearState;
		// Flush does not destroy it.
		delete(s.bound, e.Obj)
		return nil
	case e.Kind == trace.Call && e.Layer == trace.UMD && (e.Ctx == "IC" || e.Ctx == "") && len(e.Name) > 7 && e.Name[:7] == "Destroy":
		delete(s.bound, e.Obj)
		return nil
	case e.Handle != "" && e.Handle[0] == 'a' && (e.Name == "DxgkDdiDestroyAllocation" || e.Name == "DestroyAllocationDeferred"):
		// (not on the Return of a DxgkDdiDestroyAllocation whose Call
		// freed it: that left every freed allocation in the map)
		if p := v.parent(e); p != nil && p.Name == "pfnDeallocateCb" && e.Kind != trace.Return {
			s.freed[e.Handle] = true
		}
		if e.Name == "DxgkDdiDestroyAllocation" && e.Kind == trace.Call {
			delete(s.freed, e.Handle)
		}
		return nil
	}
	// The pattern itself: the application's calls on the immediate context.
	if e.Layer != trace.Runtime || e.From != trace.App || e.Ctx != "IC" {
		return nil
	}
	call, ret := e.Kind == trace.Call, e.Kind == trace.Return
	if call && e.Name == "ClearState" {
		s.stage, s.thread = 1, e.Thread
		return nil
	}
	if s.stage == 0 || e.Thread != s.thread {
		return nil
	}
	switch {
	case s.stage == 1 && ret && e.Name == "ClearState":
		s.waiting = s.waiting[:0]
		for o := range s.bound {
			s.waiting = append(s.waiting, o)
		}
		slices.Sort(s.waiting)
	case s.stage == 1 && call && e.Name == "Flush":
	case s.stage == 1 && ret && e.Name == "Flush":
		for _, o := range s.waiting {
			if s.bound[o] {
				out = append(out, v.violation(rules.DDSync, e, "Release; ClearState; Flush left %s alive: ClearState drops the immediate context's references and Flush must destroy the object (the runtime drains its destruction queue before the driver's Flush)", o))
			}
		}
		s.stage = 2
	case s.stage == 2 && call && e.Name == "End":
		s.stage, s.query = 3, e.Obj
		s.complete = s.complete[:0]
		for a := range s.freed {
			s.complete = append(s.complete, a)
		}
		slices.Sort(s.complete)
	case s.stage == 2 && (e.Name == "End" || e.Name == "Flush"):
	case s.stage == 3 && e.Name == "GetData" && e.Obj == s.query:
		if ret && e.HR == "S_OK" {
			s.stage = 4
		}
	case s.stage == 3 && e.Name == "End":
	case s.stage == 4 && (e.Name == "GetData" && e.Obj == s.query || call && e.Name == "Flush"):
	case s.stage == 4 && ret && e.Name == "Flush":
		for _, a := range s.complete {
			if s.freed[a] {
				out = append(out, v.violation(rules.DDSync, e, "the heavier pattern (Flush; End; GetData until S_OK; Flush) returned with allocation %s, deallocated before the End, still alive in the kernel: destruction must be complete", a))
			}
		}
		s.stage = 0
	default:
		s.stage = 0 // something else: not the pattern
	}
	return out
}
