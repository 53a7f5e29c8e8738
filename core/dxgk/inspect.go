package dxgk

import "d3dsim/core/dxgkddi"

// Read-only views of Dxgkrnl for the inspector (core/inspect, through
// core/machine): nothing in Dxgkrnl calls them, none waits, locks an
// allocation for the CPU or writes the trace, so looking does not change
// the run.

// DMAInfo is one DMA buffer as DxgkDdiRender or DxgkDdiPresent wrote it:
// the packets with their address words still zero, the allocation list
// they are relative to and the patch locations DxgkDdiPatch fills.
type DMAInfo struct {
	ID      uint64
	Context HContext
	Device  HDevice
	Fence   uint64 // the context's fence that signals its completion
	Present bool   // written by DxgkDdiPresent
	// Words, Allocations and Patches are the buffer's own: read only.
	Words       []uint32
	Allocations []dxgkddi.AllocationListEntry
	Patches     []dxgkddi.PatchLocation
}

// ObserveDMA has fn see every DMA buffer a DxgkDdiRender or DxgkDdiPresent
// writes, on the submitting thread, right after the DDI returns (nil: none,
// the default). It costs nothing when off.
func (k *Dxgkrnl) ObserveDMA(fn func(DMAInfo)) {
	k.mu.Lock()
	k.onDMA = fn
	k.mu.Unlock()
}

// observeDMA reports buffer b, just written, to the observer if any.
func (k *Dxgkrnl) observeDMA(b *dmaBuffer, fence uint64, words []uint32, patches []dxgkddi.PatchLocation) {
	k.mu.Lock()
	fn := k.onDMA
	k.mu.Unlock()
	if fn == nil {
		return
	}
	fn(DMAInfo{ID: b.id, Context: b.ctx.h, Device: b.dev.h, Fence: fence, Present: b.present,
		Words: words, Allocations: b.list, Patches: patches})
}

// Instance is an earlier instance of a renamed allocation the GPU may
// still use ("Requesting to rename an allocation").
type Instance struct {
	Address uint64   // its system-memory backing store
	Context HContext // whose fence retires it
	Fence   uint64   // the last fence of Context that uses it
	Idle    bool     // the GPU is done with it
}

// AllocationInfo is where an allocation lives and what holds it.
type AllocationInfo struct {
	Handle HAllocation
	Device HDevice
	Obj    string
	Size   uint64
	// Segment and Address are where the GPU reaches it now: VRAM while
	// resident, else its system pages through the aperture segment.
	Segment    dxgkddi.SegmentID
	Address    uint64
	Resident   bool   // in VRAM
	InAperture bool   // paged into the aperture segment for want of VRAM
	Backing    uint64 // the current instance's system-memory backing store
	// LastRead and LastWrite are the fences of Context's last DMA buffers
	// that read and wrote it; LastDMA the last buffer that named it.
	LastRead, LastWrite uint64
	Context             HContext
	LastDMA             uint64
	Instances           []Instance // its renaming list, oldest first
	Destroyed           bool       // by the runtime, freed once the GPU is done with it
}

// AllocationInfo answers where allocation h lives now.
func (k *Dxgkrnl) AllocationInfo(h HAllocation) (AllocationInfo, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	a := k.allocs[h]
	if a == nil {
		return AllocationInfo{}, false
	}
	seg, addr := a.location()
	in := AllocationInfo{Handle: a.h, Device: a.dev.h, Obj: a.obj, Size: a.size, Segment: seg, Address: addr,
		Resident: a.resident, InAperture: a.inAperture, Backing: a.backing,
		LastRead: a.lastRead, LastWrite: a.lastWrite, LastDMA: a.lastDMA, Destroyed: a.destroyed}
	if a.lastCtx != nil {
		in.Context = a.lastCtx.h
	}
	for _, r := range a.renaming {
		i := Instance{Address: r.addr, Fence: r.fence, Idle: r.idle()}
		if r.ctx != nil {
			i.Context = r.ctx.h
		}
		in.Instances = append(in.Instances, i)
	}
	return in, true
}

// Peek copies n bytes at addr of GPU memory as they are now (false: not
// committed). It is not a Lock: nothing waits and nothing is traced.
func (k *Dxgkrnl) Peek(addr, n uint64) ([]byte, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.mem == nil {
		return nil, false
	}
	b, ok := k.mem.Bytes(addr, n)
	if !ok {
		return nil, false
	}
	return append([]byte(nil), b...), true
}
