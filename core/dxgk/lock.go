package dxgk

import (
	"strings"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Locking an allocation for the CPU, as pfnLockCb asks it of the video
// memory manager ("PFND3DDDI_LOCKCB callback function (d3dumddi.h)"): the
// lock synchronises the CPU's access with the GPU's. Unless told otherwise
// it blocks the calling thread until the GPU no longer uses the allocation
// in a conflicting way; with DonotWait it fails at once instead
// ("D3DDDICB_LOCKFLAGS structure (d3dukmdt.h)"); with Discard it may rename
// the allocation to a free instance instead of stalling ("Requesting to
// rename an allocation", rename.go).

// LockFlags mirrors the members of D3DDDICB_LOCKFLAGS this video memory
// manager honours.
type LockFlags struct {
	ReadOnly   bool // the CPU only reads: wait for the GPU's writes (RAW)
	WriteOnly  bool // the CPU only writes: wait for the GPU's reads and writes (WAR, WAW)
	DonotWait  bool // fail with STATUS_GRAPHICS_ALLOCATION_BUSY instead of waiting
	IgnoreSync bool // do not check whether the GPU uses the allocation
	Discard    bool // the content may go: rename the allocation if it is busy
}

// String is the set flags joined by '|' ("0" for none), as the trace shows them.
func (f LockFlags) String() string {
	var s []string
	for _, x := range []struct {
		on   bool
		name string
	}{{f.ReadOnly, "ReadOnly"}, {f.WriteOnly, "WriteOnly"}, {f.DonotWait, "DonotWait"}, {f.IgnoreSync, "IgnoreSync"}, {f.Discard, "Discard"}} {
		if x.on {
			s = append(s, x.name)
		}
	}
	if len(s) == 0 {
		return "0"
	}
	return strings.Join(s, "|")
}

// LockWith is Lock with the synchronisation pfnLockCb's flags ask for: it
// waits (a WaitForFence event on the calling thread, inside the lock, naming
// the allocation and the hazard) until the GPU work the CPU access conflicts
// with is done. A read waits for the last GPU write; a write for the last GPU
// read or write. With DonotWait a busy allocation fails with
// STATUS_GRAPHICS_ALLOCATION_BUSY (pfnLockCb's D3DERR_WASSTILLDRAWING);
// with IgnoreSync nothing is checked; with Discard a busy CPU-visible
// allocation is renamed and never waits, unless no memory is left for a new
// instance (then it waits, as the page allows under memory pressure).
//
// It returns the handle of the instance locked: h, or after a rename the new
// instance's ("D3DDDICB_LOCK structure", hAllocation [in/out]), which the
// caller names from then on.
func (k *Dxgkrnl) LockWith(dev HDevice, h HAllocation, f LockFlags) ([]byte, HAllocation, error) {
	if f.DonotWait {
		k.watchdog() // a thread polling with DonotWait still meets a hung GPU's TDR
	}
	k.mu.Lock()
	a, err := k.ownedLocked("Lock", dev, h)
	if err == nil && a.dev.reportsRemoval() {
		err = a.dev.removedErr("Lock " + h.String())
	}
	if err != nil {
		k.mu.Unlock()
		k.charge(k.cfg.Costs.Transition)
		return nil, h, err
	}
	c, need, hazard := a.busyLocked(f)
	var renamed *trace.Event
	if need > 0 && f.Discard && a.cpuVisible {
		if ev, ok := k.renameLocked(a); ok {
			renamed, need = &ev, 0
			h = a.cur
		}
	}
	k.mu.Unlock()
	if renamed != nil {
		k.event(trace.Message, "VidMmRename", *renamed)
	}
	if need > 0 {
		if f.DonotWait {
			k.charge(k.cfg.Costs.Transition)
			return nil, h, errorf(dxgkddi.STATUS_GRAPHICS_ALLOCATION_BUSY, "Lock %v (%s) with DonotWait: fence %d of %v still uses it (%s)", h, a.obj, need, c.h, hazard)
		}
		if err := k.waitFence(c, need, "", WaitReason{Allocation: h, Obj: a.obj, Hazard: hazard}); err != nil {
			k.charge(k.cfg.Costs.Transition)
			return nil, h, err
		}
	}
	data, err := k.Lock(dev, h)
	return data, h, err
}

// busyLocked is the fence a lock with flags f must wait for (0: none) on the
// context that last used the allocation, and the hazard it waits for.
func (a *allocation) busyLocked(f LockFlags) (*context, uint64, string) {
	c := a.lastCtx
	if f.IgnoreSync || c == nil {
		return nil, 0, ""
	}
	need, hazard := a.lastWrite, "RAW"
	if !f.ReadOnly {
		need, hazard = max(a.lastRead, a.lastWrite), "WAR"
		if a.lastWrite >= a.lastRead {
			hazard = "WAW"
		}
	}
	if need <= c.completed || c.dev.removed {
		return nil, 0, ""
	}
	return c, need, hazard
}
