package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// WDDM 2.0 residency with a process budget ("Driver residency in WDDM 2.0",
// "Process residency budgets"), an option beside the WDDM 1.x model
// (Config.ResidencyBudget): the user-mode driver keeps a residency list per
// device with MakeResident and Evict (pfnMakeResidentCb, pfnEvictCb), and
// Dxgkrnl charges the allocations on those lists to the process's budget.
// "Prior to Microsoft Direct3D 12, the budget is handled by the user mode
// driver in the form of Trim notifications and MakeResident failures with
// STATUS_NO_MEMORY. TrimToBudget notification, Evict, and failed
// MakeResident calls all return the latest budget in the form of an integer
// NumBytesToTrim value". A buffer that names an allocation off every
// residency list is an access to a nonresident allocation: "GPU access to
// allocations that aren't resident is illegal and will result in the device
// removed for the application that generated the error".
//
// The simulated process is the whole run: every device's list is charged
// to one budget. The simulated driver still submits allocation lists (the
// WDDM 1.x submission), and the video memory manager still pages an
// allocation in when the first buffer that uses it is scheduled, where a
// WDDM 2.0 one pages at MakeResident and returns a paging fence: the
// paging is the same, its time is not.

// Residency reports whether the WDDM 2.0 residency model is on, and the
// budget and what the residency lists hold now, in bytes.
func (k *Dxgkrnl) Residency() (on bool, budget, charged uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.cfg.ResidencyBudget > 0, k.cfg.ResidencyBudget, k.charged
}

// overLocked is how far the lists are over the budget (NumBytesToTrim).
func (k *Dxgkrnl) overLocked(extra uint64) uint64 {
	if t := k.charged + extra; t > k.cfg.ResidencyBudget {
		return t - k.cfg.ResidencyBudget
	}
	return 0
}

// MakeResident puts dev's allocations on its residency list
// (D3DDDI_MAKERESIDENT). Over the budget it adds none and fails with
// STATUS_NO_MEMORY, numBytesToTrim saying how much the process must evict
// first.
func (k *Dxgkrnl) MakeResident(dev HDevice, hs []HAllocation) (numBytesToTrim uint64, err error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	if k.cfg.ResidencyBudget == 0 {
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_NOT_SUPPORTED, "MakeResident: residency lists are WDDM 2.0's (option wddm2.budget)")
	}
	var add []*allocation
	var extra uint64
	for _, h := range hs {
		a, err := k.ownedLocked("MakeResident", dev, h)
		if err != nil {
			k.mu.Unlock()
			return 0, err
		}
		if !a.inSet && !contains(add, a) {
			add = append(add, a)
			extra += a.region
		}
	}
	if over := k.overLocked(extra); over > 0 {
		charged, budget := k.charged, k.cfg.ResidencyBudget
		k.mu.Unlock()
		k.event(trace.Message, "ResidencyBudgetExceeded", trace.Event{Args: trace.UintArg(trace.KeySize, over),
			Msg: fmt.Sprintf("MakeResident of %d bytes: the residency lists hold %d of the process's %d-byte budget; STATUS_NO_MEMORY, NumBytesToTrim %d", extra, charged, budget, over)})
		return over, errorf(dxgkddi.STATUS_NO_MEMORY, "MakeResident: %d bytes more would take the process past its residency budget of %d bytes (NumBytesToTrim %d)", extra, budget, over)
	}
	for _, a := range add {
		a.inSet = true
	}
	k.charged += extra
	k.mu.Unlock()
	return 0, nil
}

func contains(as []*allocation, a *allocation) bool {
	for _, x := range as {
		if x == a {
			return true
		}
	}
	return false
}

// Evict takes dev's allocations off its residency list (D3DDDICB_EVICT):
// the budget no longer counts them, and the video memory manager may page
// them out; the GPU must not use them until they are made resident again.
// It returns NumBytesToTrim for the budget as it stands.
func (k *Dxgkrnl) Evict(dev HDevice, hs []HAllocation) (numBytesToTrim uint64, err error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	if k.cfg.ResidencyBudget == 0 {
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_NOT_SUPPORTED, "Evict: residency lists are WDDM 2.0's (option wddm2.budget)")
	}
	var out []*allocation
	for _, h := range hs {
		a, err := k.ownedLocked("Evict", dev, h)
		if err != nil {
			k.mu.Unlock()
			return 0, err
		}
		if a.inSet {
			out = append(out, a)
		}
	}
	for _, a := range out {
		a.inSet = false
		k.charged -= a.region
	}
	over := k.overLocked(0)
	k.mu.Unlock()
	return over, nil
}

// dropFromSetLocked uncharges a destroyed allocation.
func (k *Dxgkrnl) dropFromSetLocked(a *allocation) {
	if a.inSet {
		a.inSet = false
		k.charged -= a.region
	}
}

// nonResidentLocked is the first allocation b names that is on no
// residency list, in the WDDM 2.0 model (nil when none, or in WDDM 1.x).
// Primaries and the present's own buffers are Dxgkrnl's.
func (k *Dxgkrnl) nonResidentLocked(b *dmaBuffer) *allocation {
	if k.cfg.ResidencyBudget == 0 || b.paging || b.present {
		return nil
	}
	for _, a := range b.allocs {
		if !a.inSet && !a.primary {
			return a
		}
	}
	return nil
}

// refuseNonResident removes the device whose buffer names an allocation
// that is not resident, and drops the buffer ("Access to nonresident
// allocation"). It reports whether it did.
func (k *Dxgkrnl) refuseNonResident(b *dmaBuffer) bool {
	k.mu.Lock()
	a := k.nonResidentLocked(b)
	k.mu.Unlock()
	if a == nil {
		return false
	}
	reason := fmt.Sprintf("%s uses %v (%s), which is on no residency list: GPU access to a nonresident allocation", b.describe(), a.h, a.obj)
	k.event(trace.Message, "NonResidentAccess", trace.Event{Handle: a.h.String(), Obj: a.obj, DMA: b.id, Fence: b.fence, Msg: reason})
	k.removeDevice(b.dev, RemovedPageFault, reason)
	k.retire(b, true)
	return true
}

// SetResidencyBudget changes the process's budget (memory pressure: "This
// budget can change over time") and returns how far the residency lists
// are over it: the NumBytesToTrim of the trim notification the process
// gets (D3DKMT_TRIMNOTIFICATION, TrimToBudget), 0 for none.
func (k *Dxgkrnl) SetResidencyBudget(budget uint64) (numBytesToTrim uint64, err error) {
	k.mu.Lock()
	if k.cfg.ResidencyBudget == 0 {
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_NOT_SUPPORTED, "SetResidencyBudget: budgets are WDDM 2.0's (option wddm2.budget)")
	}
	k.cfg.ResidencyBudget = max(budget, 1)
	over, charged := k.overLocked(0), k.charged
	k.mu.Unlock()
	k.event(trace.Message, "ResidencyBudgetChanged", trace.Event{Args: trace.UintArg(trace.KeySize, budget),
		Msg: fmt.Sprintf("the process's residency budget is %d bytes; its residency lists hold %d: NumBytesToTrim %d", budget, charged, over)})
	return over, nil
}
