package umd

import (
	"cmp"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
)

// WDDM 2.0 residency (Config.Residency; "Driver residency in WDDM 2.0",
// "Process residency budgets"): the driver makes every allocation a command
// buffer uses resident before it submits the buffer (pfnMakeResidentCb).
// When that fails past the process's budget (STATUS_NO_MEMORY with
// NumBytesToTrim), it evicts the least recently used allocations of its
// residency list that the buffer does not use (pfnEvictCb), one at a time,
// and tries again. "Prior to Microsoft Direct3D 12, the budget is handled by
// the user mode driver in the form of Trim notifications and MakeResident
// failures with STATUS_NO_MEMORY."

// residencySet is the driver's view of its device's residency list: each
// allocation with the submission that last used it.
type residencySet struct {
	used map[ddi.HALLOCATION]uint64
	tick uint64
	skip bool // inject umd.no-makeresident: the next submission makes nothing resident
	// lost: with bug=WDDM-RESIDENT, the allocations the driver evicted and
	// forgot it did: it counts them resident still.
	lost map[ddi.HALLOCATION]bool
}

// SkipMakeResident makes the driver's next submission skip
// pfnMakeResidentCb (`inject umd.no-makeresident`): a driver bug that
// leaves an evicted allocation off the residency list. It reports whether
// the driver runs the WDDM 2.0 residency model at all.
func (d *Device) SkipMakeResident() bool {
	if !d.cfg.Residency {
		return false
	}
	d.rs.skip = true
	return true
}

// makeResident makes list's allocations resident before a submission. The
// allocations it could not make resident stay off the list: the GPU may
// not use them, and Dxgkrnl removes the device if the buffer names them.
func (d *immediateContext) makeResident(list []ddi.AllocationListEntry) error {
	if !d.cfg.Residency {
		return nil
	}
	cb, ok := d.cb.(ddi.ResidencyCallbacks)
	if !ok {
		return nil
	}
	rs := &d.dev.rs
	if rs.used == nil {
		rs.used = map[ddi.HALLOCATION]uint64{}
	}
	rs.tick++
	inList := make(map[ddi.HALLOCATION]bool, len(list))
	var need []ddi.HALLOCATION
	for _, e := range list {
		if inList[e.Allocation] {
			continue
		}
		inList[e.Allocation] = true
		if _, ok := rs.used[e.Allocation]; !ok {
			need = append(need, e.Allocation)
		} else {
			rs.used[e.Allocation] = rs.tick
		}
	}
	if rs.skip {
		rs.skip = false
		return nil
	}
	for len(need) > 0 {
		mr := ddi.MakeResidentCb{Allocations: need}
		err := cb.PfnMakeResidentCb(d.rt, &mr)
		if err == nil {
			for _, a := range need {
				rs.used[a] = rs.tick
			}
			return nil
		}
		if mr.NumBytesToTrim == 0 {
			return err
		}
		v, ok := rs.victim(inList)
		if !ok {
			return err // nothing left to evict: over budget with this buffer alone
		}
		rs.evicted(v, d.cfg.Bugs.Has(rules.WDDMResident))
		ev := ddi.EvictCb{Allocations: []ddi.HALLOCATION{v}}
		_ = cb.PfnEvictCb(d.rt, &ev) // an allocation destroyed since is off the list already
	}
	return nil
}

// evicted takes v out of the set; with forget (bug=WDDM-RESIDENT) the
// driver keeps counting it resident, so it never makes it resident again.
func (rs *residencySet) evicted(v ddi.HALLOCATION, forget bool) {
	if !forget {
		delete(rs.used, v)
		return
	}
	if rs.lost == nil {
		rs.lost = map[ddi.HALLOCATION]bool{}
	}
	rs.lost[v] = true
}

// victim is the least recently used allocation of the set that the buffer
// being submitted does not use (lowest handle first among equals).
func (rs *residencySet) victim(inList map[ddi.HALLOCATION]bool) (ddi.HALLOCATION, bool) {
	var cands []ddi.HALLOCATION
	for a := range rs.used {
		if !inList[a] && !rs.lost[a] {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return 0, false
	}
	return slices.MinFunc(cands, func(x, y ddi.HALLOCATION) int {
		if c := cmp.Compare(rs.used[x], rs.used[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	}), true
}

// TrimResidencySet is the driver's pfnTrimResidencySet: asked to trim to
// the budget, it evicts its least recently used allocations, one at a time
// (pfnEvictCb), until Dxgkrnl's NumBytesToTrim says the process fits. An
// allocation it evicts that a later buffer uses is made resident again
// before that submission.
func (d *immediateContext) TrimResidencySet(_ ddi.HDEVICE, a *ddi.TrimResidencySetArgs) error {
	d.busy()
	cb, ok := d.cb.(ddi.ResidencyCallbacks)
	if !ok || !d.cfg.Residency || !a.TrimToBudget {
		return nil
	}
	rs := &d.dev.rs
	left := a.NumBytesToTrim
	for left > 0 {
		v, ok := rs.victim(nil)
		if !ok {
			return nil // nothing left to evict
		}
		rs.evicted(v, d.cfg.Bugs.Has(rules.WDDMResident))
		ev := ddi.EvictCb{Allocations: []ddi.HALLOCATION{v}}
		if cb.PfnEvictCb(d.rt, &ev) == nil {
			left = ev.NumBytesToTrim
		}
	}
	return nil
}
