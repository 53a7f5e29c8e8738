package dxgk

import (
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// AllocationDesc describes an allocation (pfnAllocateCb's
// D3DDDI_ALLOCATIONINFO as the runtime passes it on).
type AllocationDesc struct {
	Size        uint64
	CPUVisible  bool // dynamic/staging: stays in system memory, reached through the aperture, locked in place
	Primary     bool
	Surface     dxgkddi.SurfaceDesc // the private driver data for the KMD
	InitialData []byte              // written to the allocation's backing store at creation
	Obj         string              // the scenario's name, for traces
}

// AllocationListEntry is one entry of a command buffer's allocation list
// (D3DDDI_ALLOCATIONLIST).
type AllocationListEntry struct {
	Allocation HAllocation
	Write      bool
}

type allocation struct {
	h          HAllocation
	dev        *device
	obj        string
	size       uint64 // as requested
	region     uint64 // bytes occupied in a segment (size rounded to the alignment)
	align      uint64
	cpuVisible bool
	primary    bool
	surface    dxgkddi.SurfaceDesc // the private driver data it was created with
	redirect   HAllocation         // the redirection surface Dxgkrnl made for its bitblt presents (present.go)

	// backing is the allocation's system-memory backing store, committed
	// at creation. The simulated aperture segment maps every system page
	// at a fixed GPU address, so this is also where the GPU reaches the
	// pages through the aperture once they are mapped.
	backing    uint64
	vram       uint64 // where it lives in VRAM, when resident
	resident   bool   // in VRAM
	inAperture bool   // mapped into the aperture segment for want of VRAM (MAP_APERTURE_SEGMENT)
	content    bool   // its bytes matter (initial data, CPU or GPU writes): page in with TRANSFER, not FILL
	lru        uint64 // last scheduled use
	inSet      bool   // WDDM 2.0: on its device's residency list, charged to the budget (residency.go)
	locks      int
	refs       int          // queued or running DMA and paging buffers that name it
	paging     *dmaBuffer   // the last paging buffer that moved it
	lock       resourceLock // OutOfOrder: its place in the dependency graph (ooo.go)

	lastRead, lastWrite uint64 // fences of lastCtx
	lastCtx             *context
	lastDMA             uint64
	renaming            []instance  // earlier instances the GPU may still use (rename.go)
	cur                 HAllocation // the handle of the current instance: h until a Discard lock renamed it (rename.go)

	destroyed bool // by the runtime; freed once refs is 0
	freeing   bool

	offered   bool          // offered (offer.go): evicted first, its content dropped
	offerPrio OfferPriority // how readily
	discarded bool          // its content was dropped while offered
}

// location is where the GPU reaches the allocation now: VRAM while
// resident, else its system pages through the aperture segment.
func (a *allocation) location() (dxgkddi.SegmentID, uint64) {
	if a.resident {
		return dxgkddi.SegmentVRAM, a.vram
	}
	return dxgkddi.SegmentAperture, a.backing
}

// CreateAllocation creates an allocation on the device (WDDM operation flow, step 6):
// DxgkDdiCreateAllocation, then its backing store in system memory, with its
// initial data. It does not touch VRAM: the first DMA buffer that uses it
// makes it resident.
func (k *Dxgkrnl) CreateAllocation(dev HDevice, d AllocationDesc) (HAllocation, error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	dv := k.devices[dev]
	switch {
	case dv == nil || dv.destroyed:
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_INVALID_HANDLE, "CreateAllocation %s: %v is not a device", d.Obj, dev)
	case dv.removed:
		dv.hidden = false
		k.mu.Unlock()
		return 0, dv.removedErr("CreateAllocation " + d.Obj)
	case d.Size == 0:
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "CreateAllocation %s: size 0", d.Obj)
	}
	k.lastAlloc++
	h := HAllocation(k.lastAlloc)
	k.mu.Unlock()

	args := dxgkddi.CreateAllocationArgs{Device: dev, Allocation: h, Size: d.Size,
		Flags: dxgkddi.AllocationFlags{CPUVisible: d.CPUVisible, Primary: d.Primary}, PrivateDriverData: d.Surface}
	if err := k.ddi("DxgkDdiCreateAllocation", trace.Event{Handle: h.String(), Obj: d.Obj, Args: allocArgs(dev, &d)},
		func() error { return k.drv.DxgkDdiCreateAllocation(&args) }); err != nil {
		return 0, err
	}
	align := args.Info.Alignment
	if align == 0 || align&(align-1) != 0 {
		align = defaultAlignment
	}
	region := alignUp(max(args.Info.Size, d.Size), align)
	a := &allocation{h: h, cur: h, dev: dv, obj: d.Obj, size: d.Size, region: region, align: align,
		cpuVisible: d.CPUVisible, primary: d.Primary, surface: d.Surface, content: len(d.InitialData) > 0}

	k.mu.Lock()
	addr, err := k.commitLocked(&k.aperture, region, align)
	if err == nil {
		a.backing = addr
		if len(d.InitialData) > 0 && k.mem != nil {
			n := min(uint64(len(d.InitialData)), d.Size)
			if b, ok := k.mem.Bytes(addr, n); ok {
				copy(b, d.InitialData)
			}
		}
		k.allocs[h] = a
	}
	k.mu.Unlock()
	if err != nil {
		k.ddi("DxgkDdiDestroyAllocation", trace.Event{Handle: h.String(), Obj: d.Obj},
			func() error {
				return k.drv.DxgkDdiDestroyAllocation(&dxgkddi.DestroyAllocationArgs{Device: dev, Allocation: h})
			})
		return 0, errorf(dxgkddi.STATUS_NO_MEMORY, "CreateAllocation %s: %v", d.Obj, err)
	}
	return h, nil
}

// DestroyAllocation destroys the runtime's allocation. The handle is invalid
// at once; the real freeing (DxgkDdiDestroyAllocation, decommit) waits until
// no queued or running DMA buffer references it. The DPC that retires the
// last one only notes that; the freeing runs at PASSIVE_LEVEL on Dxgkrnl's
// worker thread (freeOnWorker).
func (k *Dxgkrnl) DestroyAllocation(dev HDevice, h HAllocation) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	a, err := k.ownedLocked("DestroyAllocation", dev, h)
	if err != nil {
		k.mu.Unlock()
		return err
	}
	a.destroyed = true
	a.locks = 0
	if r := a.redirect; r != 0 {
		// Its window's redirection surface goes with it (present.go).
		a.redirect = 0
		defer k.DestroyAllocation(dev, r)
	}
	if a.refs > 0 {
		msg := fmt.Sprintf("%v is still named by %d queued or running DMA buffers (the last: DMA %d): freed when they retire", h, a.refs, a.lastDMA)
		k.mu.Unlock()
		k.event(trace.Message, "DestroyAllocationDeferred", trace.Event{Handle: h.String(), Obj: a.obj, DMA: a.lastDMA, Msg: msg})
		return nil
	}
	a.freeing = true
	k.mu.Unlock()
	k.free(a)
	return nil
}

// workerThread is the simulated thread of Dxgkrnl's worker: a system thread
// at PASSIVE_LEVEL, where pageable DDIs may run.
const workerThread = "worker"

// freeOnWorker hands allocations the DPC found free of references to
// Dxgkrnl's worker thread. A DPC runs at DISPATCH_LEVEL, and
// DxgkDdiDestroyAllocation is pageable and runs at PASSIVE_LEVEL
// ("DXGKDDI_DESTROYALLOCATION callback function"): the DPC only notes that
// nothing names the allocations any more.
func (k *Dxgkrnl) freeOnWorker(free []*allocation) {
	if len(free) == 0 {
		return
	}
	for _, a := range free {
		k.event(trace.Message, "AllocationUnreferenced", trace.Event{Handle: a.h.String(), Obj: a.obj,
			Msg: fmt.Sprintf("no DMA buffer names %v any more: its DxgkDdiDestroyAllocation is queued to Dxgkrnl's worker thread (PASSIVE_LEVEL)", a.h)})
	}
	k.mu.Lock()
	k.workerQueued += len(free)
	k.mu.Unlock()
	k.s.Schedule(k.s.Now()+k.cfg.Costs.WorkerLatency, workerThread, func() {
		for _, a := range free {
			k.free(a)
		}
		k.mu.Lock()
		k.workerQueued -= len(free)
		k.wakeAt = max(k.wakeAt, k.s.Now())
		k.mu.Unlock()
	})
}

// passiveLevel is the payload of a DDI that runs at PASSIVE_LEVEL.
var passiveLevel = func() trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyIRQL, "PASSIVE_LEVEL").Args()
}()

// free destroys an allocation nothing references: DxgkDdiDestroyAllocation,
// then its VRAM extent and its backing store are decommitted. It runs at
// PASSIVE_LEVEL: on the thread that destroyed the allocation or the device,
// or on the worker (freeOnWorker).
func (k *Dxgkrnl) free(a *allocation) {
	k.ddi("DxgkDdiDestroyAllocation", trace.Event{Handle: a.h.String(), Obj: a.obj, Args: passiveLevel},
		func() error {
			return k.drv.DxgkDdiDestroyAllocation(&dxgkddi.DestroyAllocationArgs{Device: a.dev.h, Allocation: a.h})
		})
	k.mu.Lock()
	if a.resident {
		k.decommitLocked(&k.vram, a.vram, a.region)
		a.resident = false
	}
	k.decommitLocked(&k.aperture, a.backing, a.region)
	k.dropFromSetLocked(a)
	k.freeInstancesLocked(a)
	delete(k.allocs, a.h)
	for h, x := range k.instances {
		if x == a {
			delete(k.instances, h)
		}
	}
	k.mu.Unlock()
}

// allocLocked finds an allocation by any of its handles: the one
// CreateAllocation gave, or the handle of an instance a Discard lock made
// (rename.go).
func (k *Dxgkrnl) allocLocked(h HAllocation) *allocation {
	if a := k.allocs[h]; a != nil {
		return a
	}
	return k.instances[h]
}

// ownedLocked finds a live allocation of dev.
func (k *Dxgkrnl) ownedLocked(op string, dev HDevice, h HAllocation) (*allocation, error) {
	a := k.allocLocked(h)
	switch {
	case a == nil || a.destroyed:
		return nil, errorf(dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE, "%s: %v is not an allocation", op, h)
	case a.dev.h != dev:
		return nil, errorf(dxgkddi.STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE, "%s: %v (%s) belongs to %v, not %v", op, h, a.obj, a.dev.h, dev)
	}
	return a, nil
}

// Lock returns the CPU's view of the allocation's bytes, wherever they live
// now (its system-memory backing store, or VRAM while resident): a slice aliasing the simulated
// memory, valid until Unlock. It waits for a paging operation moving the
// allocation; it does not wait for rendering (the runtime checks
// AllocationFence for Map hazards). A locked allocation is not evicted, and
// a DMA buffer uses a locked, non-resident allocation where it is.
func (k *Dxgkrnl) Lock(dev HDevice, h HAllocation) ([]byte, error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	a, err := k.ownedLocked("Lock", dev, h)
	if err == nil && a.dev.reportsRemoval() {
		err = a.dev.removedErr("Lock " + h.String())
	}
	var pg *dmaBuffer
	if err == nil && a.paging != nil && !a.paging.retired {
		pg = a.paging
	}
	k.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if pg != nil {
		k.waitPaging(pg, fmt.Sprintf("%v (%s) is being paged by %s", h, a.obj, pg.describe()), 0)
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.mem == nil {
		return nil, errorf(dxgkddi.STATUS_INVALID_DEVICE_STATE, "Lock %v: no memory (SetSegments was not called)", h)
	}
	_, addr := a.location()
	b, ok := k.mem.Bytes(addr, a.size)
	if !ok {
		return nil, errorf(dxgkddi.STATUS_GRAPHICS_ALLOCATION_INVALID, "Lock %v: %d bytes at %#x are not committed", h, a.size, addr)
	}
	a.locks++
	a.content = true // the CPU may write
	return b, nil
}

// Unlock ends a Lock.
func (k *Dxgkrnl) Unlock(dev HDevice, h HAllocation) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	defer k.mu.Unlock()
	a, err := k.ownedLocked("Unlock", dev, h)
	if err != nil {
		return err
	}
	if a.locks == 0 {
		return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "Unlock: %v (%s) is not locked", h, a.obj)
	}
	a.locks--
	return nil
}

// AllocationFence returns the fences of the last submitted buffers that read
// and wrote the allocation, in the numbering of the context that last used
// it (0: none). Map hazards upstairs compare them with CompletedFence.
func (k *Dxgkrnl) AllocationFence(h HAllocation) (lastRead, lastWrite uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if a := k.allocLocked(h); a != nil {
		return a.lastRead, a.lastWrite
	}
	return 0, 0
}
