package dxgk

import (
	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Renaming ("Requesting to rename an allocation"): when the user-mode driver
// locks a busy allocation with D3DDDICB_LOCKFLAGS.Discard, the video memory
// manager gives the lock another instance of the allocation instead of
// stalling the thread, and a handle for it: "If the Discard bit-field flag
// is set in the Flags member, the video memory manager creates a new
// instance of the allocation and returns a new handle that represents the
// new instance" ("D3DDDICB_LOCK structure", hAllocation [in/out]). The UMD
// names the new handle in its next allocation lists; a DMA buffer submitted
// with the old handle still reaches the old instance. The manager keeps, per
// allocation, a renaming list of the instances the GPU may still use and
// cycles through it: an instance whose last DMA buffer is done is handed out
// again, with its handle; otherwise a new backing store is committed with
// the original creation parameters, under a new handle. The display
// miniport driver is not called (no DxgkDdiCreateAllocation): to it, the
// same allocation is simply paged at several places at once. Every handle
// of an allocation destroys all of it.

// instance is an earlier backing store of a renamed allocation, on its
// renaming list until the GPU is done with it.
type instance struct {
	addr  uint64      // a system-memory backing store (its pages reached through the aperture)
	h     HAllocation // its handle
	ctx   *context    // the context whose fence retires it
	fence uint64      // the last fence of ctx that uses it
}

// idle is whether the GPU is done with the instance.
func (in instance) idle() bool {
	return in.ctx == nil || in.fence <= in.ctx.completed || in.ctx.dev.removed
}

// renameLocked makes a fresh instance the allocation's current one: the
// first idle instance of the renaming list, else a new backing store under a
// new handle. The busy current instance joins the list. It returns the
// VidMmRename event, or false when there is no memory for a new instance
// (the lock then waits).
func (k *Dxgkrnl) renameLocked(a *allocation) (trace.Event, bool) {
	old := instance{addr: a.backing, h: a.cur, ctx: a.lastCtx, fence: max(a.lastRead, a.lastWrite)}
	pick := -1
	for i, in := range a.renaming {
		if in.idle() {
			pick = i
			break
		}
	}
	var to uint64
	var toH HAllocation
	how := ""
	if pick >= 0 {
		to, toH = a.renaming[pick].addr, a.renaming[pick].h
		a.renaming = append(a.renaming[:pick], a.renaming[pick+1:]...)
		how = "an idle instance from its renaming list"
	} else {
		addr, err := k.commitLocked(&k.aperture, a.region, a.align)
		if err != nil {
			return trace.Event{}, false
		}
		k.lastAlloc++
		to, toH = addr, HAllocation(k.lastAlloc)
		k.instances[toH] = a
		how = "a new backing store (no DxgkDdiCreateAllocation)"
	}
	a.renaming = append(a.renaming, old)
	a.backing, a.cur = to, toH
	a.lastRead, a.lastWrite = 0, 0 // the new instance is idle
	var b trace.ArgBuilder
	b.Uint(trace.KeyFrom, old.addr).Uint(trace.KeyTo, to).Int(trace.KeyCount, int64(len(a.renaming)))
	msg := renameMsg(old.h, a.obj, old.addr, old.fence, old.ctx.h, how, to, toH, len(a.renaming))
	return trace.Event{Handle: toH.String(), Obj: a.obj, Fence: old.fence, Args: b.Args(), Msg: msg}, true
}

// instanceAt is where a DMA buffer that names handle h of a reaches it: for
// a CPU-visible allocation, the instance h names; 0 means wherever a lives
// when patched.
func instanceAt(a *allocation, h HAllocation) uint64 {
	if !a.cpuVisible {
		return 0
	}
	if h == a.cur {
		return a.backing
	}
	for _, in := range a.renaming {
		if in.h == h {
			return in.addr
		}
	}
	return a.backing
}

// patchLocation is where the buffer's i-th allocation-list entry is at
// patch time: the instance its handle names, if renamed since.
func (b *dmaBuffer) patchLocation(i int, a *allocation) (dxgkddi.SegmentID, uint64) {
	if i < len(b.inst) && b.inst[i] != 0 {
		return dxgkddi.SegmentAperture, b.inst[i]
	}
	return a.location()
}

// freeInstancesLocked decommits the renaming list of an allocation being
// freed (nothing references it any more, so every instance is idle).
func (k *Dxgkrnl) freeInstancesLocked(a *allocation) {
	for _, in := range a.renaming {
		k.decommitLocked(&k.aperture, in.addr, a.region)
	}
	a.renaming = nil
}

// RenamingList is the number of instances on the allocation's renaming list
// and how many of them the GPU is done with (for tests and the panel).
func (k *Dxgkrnl) RenamingList(h HAllocation) (instances, idle int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	a := k.allocLocked(h)
	if a == nil {
		return 0, 0
	}
	for _, in := range a.renaming {
		if in.idle() {
			idle++
		}
	}
	return len(a.renaming), idle
}
