package dxgk

import (
	"cmp"
	"fmt"
	"slices"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Render submits a command buffer (the pfnRenderCb path, WDDM operation flow, step 10):
// DxgkDdiRender runs on the calling thread; on success the context's next
// fence id is returned and the DMA buffer is queued to the GPU scheduler.
// A rejected buffer returns the driver's error (STATUS_INVALID_PARAMETER or
// STATUS_ILLEGAL_INSTRUCTION, rule WDDM-ISOLATE) and consumes no fence.
func (k *Dxgkrnl) Render(ctx HContext, cmd []uint32, list []AllocationListEntry) (fence uint64, err error) {
	return k.submit(ctx, cmd, list, nil, nil)
}

// RenderNext is Render with the sizes the caller asks for its next command
// buffer and lists (D3DKMT_RENDER's NewCommandBufferSize,
// NewAllocationListSize and NewPatchLocationListSize, [in/out], as
// D3DDDICB_RENDER has them): zero keeps a size. It returns what was
// granted, from then on the context's limits: a command buffer of 4 KiB up
// to 16 times the first one (64 MiB at most), lists of 16 entries up to 16
// times the first ones. "The DMA buffer can grow and shrink after the
// device is created" ("DXGK_DEVICEINFO structure").
func (k *Dxgkrnl) RenderNext(ctx HContext, cmd []uint32, list []AllocationListEntry, next ContextInfo) (fence uint64, granted ContextInfo, err error) {
	fence, err = k.submit(ctx, cmd, list, nil, &next)
	return fence, next, err
}

// grantLocked is the next sizes of c's buffer and lists for a request
// (RenderNext). The caller holds mu.
func (k *Dxgkrnl) grantLocked(c *context, req ContextInfo) ContextInfo {
	pick := func(want, cur, first, lo, hi int) int {
		if want <= 0 {
			return cur
		}
		return min(max(want, lo), max(first, min(16*first, hi)))
	}
	g := c.info
	g.CommandBufferSize = pick(req.CommandBufferSize, c.info.CommandBufferSize, c.first.CommandBufferSize, 4<<10, 64<<20)
	g.AllocationListSize = pick(req.AllocationListSize, c.info.AllocationListSize, c.first.AllocationListSize, 16, 1<<16)
	g.PatchLocationListSize = pick(req.PatchLocationListSize, c.info.PatchLocationListSize, c.first.PatchLocationListSize, 16, 1<<20)
	return g
}

// submit is Render (p nil) or the DMA-buffer part of Present (p, with
// list the present's three entries: present.go).
func (k *Dxgkrnl) submit(h HContext, cmd []uint32, list []AllocationListEntry, p *presentReq, next *ContextInfo) (uint64, error) {
	present := p != nil
	name, op := "DxgkDdiRender", "Render"
	if present {
		name, op = "DxgkDdiPresent", "Present"
	}
	k.charge(k.cfg.Costs.Transition)
	if err := k.throttle(h, present); err != nil {
		return 0, err
	}

	k.mu.Lock()
	c := k.contexts[h]
	var err error
	switch {
	case c == nil || c.destroyed:
		err = errorf(dxgkddi.STATUS_INVALID_HANDLE, "%s: %v is not a context", op, h)
	case c.dev.removed:
		c.dev.hidden = false
		err = c.dev.removedErr(op + " on " + h.String())
	case !present && 4*len(cmd) > c.info.CommandBufferSize:
		err = errorf(dxgkddi.STATUS_INVALID_PARAMETER, "%s on %v: a command buffer of %d bytes, the context's holds %d", op, h, 4*len(cmd), c.info.CommandBufferSize)
	case !present && len(list) > c.info.AllocationListSize:
		err = errorf(dxgkddi.STATUS_INVALID_PARAMETER, "%s on %v: an allocation list of %d entries, the context's holds %d", op, h, len(list), c.info.AllocationListSize)
	}
	if err != nil {
		k.mu.Unlock()
		return 0, err
	}
	kl := make([]dxgkddi.AllocationListEntry, len(list))
	entries := make([]*allocation, len(list)) // nil for a present's null entries
	named := 0
	for i, e := range list {
		if present && e.Allocation == 0 {
			continue
		}
		a := k.allocLocked(e.Allocation)
		if a == nil || a.destroyed {
			k.mu.Unlock()
			return 0, errorf(dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE, "%s on %v: allocation list entry %d: %v is not an allocation", op, h, i, e.Allocation)
		}
		// The driver gets its own handle for the allocation
		// (DXGK_ALLOCATIONLIST's hDeviceSpecificAllocation), whichever
		// instance handle the UMD named (rename.go).
		kl[i] = dxgkddi.AllocationListEntry{Allocation: a.h, WriteOperation: e.Write}
		entries[i] = a
		named++
	}
	// The verifier reads each entry's owner from here (rule WDDM-ISOLATE).
	var ab trace.ArgBuilder
	ab.Str(trace.KeyDevice, c.dev.hs).Allocs(named)
	for i, e := range kl {
		if entries[i] != nil {
			ab.Alloc(trace.Alloc{Handle: uint32(list[i].Allocation), Owner: uint32(entries[i].dev.h), Write: e.WriteOperation})
		}
	}
	if present {
		ab.Str(trace.KeyFlags, p.flags.String())
	}
	// The buffer exists from now on: its id names it in the DDI's trace (a
	// rejected buffer leaves a gap), and it holds its allocations so a
	// concurrent DestroyAllocation cannot free them under the driver. (A
	// flip without a DMA buffer gives its id back: present.go.)
	mmioFlip := present && p.flags.Flip && k.flipOnVSyncMmIo
	b := &dmaBuffer{ctx: c, dev: c.dev, engine: c.engine, list: kl, entries: entries, present: present}
	if !mmioFlip {
		k.lastDMA++
		b.id = k.lastDMA
	}
	b.allocs = make([]*allocation, 0, named)
	for _, a := range entries {
		if a != nil && !uses(b, a) {
			b.allocs = append(b.allocs, a)
			a.refs++
		}
	}
	id := b.id
	k.mu.Unlock()

	var dmaWords []uint32
	var patches []dxgkddi.PatchLocation
	var draws, occlQ bool
	ev := trace.Event{Handle: c.hs, DMA: id, Args: ab.Args()}
	if present {
		ev.Msg = p.describe()
	}
	var fence uint64
	err = k.ddiRet(name, ev, func(ret *trace.Event) error {
		var err error
		if present {
			pa := dxgkddi.PresentArgs{Device: c.dev.h, Context: h, AllocationList: kl, Flags: p.flags, FlipInterval: p.sync,
				NoDmaBuffer: mmioFlip, DmaBufferSize: c.info.CommandBufferSize, PatchLocationListSize: c.info.PatchLocationListSize}
			err = k.drv.DxgkDdiPresent(&pa)
			dmaWords, patches = pa.DmaBuffer, pa.PatchLocationList
		} else {
			ra := dxgkddi.RenderArgs{Device: c.dev.h, Context: h, CommandBuffer: cmd, AllocationList: kl,
				DmaBufferSize: c.info.CommandBufferSize, PatchLocationListSize: c.info.PatchLocationListSize}
			err = k.drv.DxgkDdiRender(&ra)
			dmaWords, patches, draws, occlQ = ra.DmaBuffer, ra.PatchLocationList, ra.Draws, ra.OcclusionQueries
		}
		if err == nil {
			k.mu.Lock()
			if mmioFlip {
				// No DMA buffer: the flip follows the context's work so far.
				fence = c.submitted
			} else {
				c.submitted++
				fence = c.submitted
				ret.Fence = fence
				c.lastDMA = id
			}
			if next != nil {
				*next = k.grantLocked(c, *next)
				c.info = *next
			}
			if present {
				c.lastSeq++
				c.presents = append(c.presents, p.frame(c.lastSeq, fence, id, c.lastDMA, mmioFlip))
				if !mmioFlip {
					if v := k.bltVBlankLocked(c, p); v != 0 {
						b.waitVBlank = v
						ab.Int(trace.KeyVBlank, v)
						ret.Args = ab.Args()
						ret.Msg += fmt.Sprintf("; the copy waits for vertical blank %d (%s)", v, msTime(k.VBlankTime(v)))
					}
				}
			}
			k.mu.Unlock()
		}
		return err
	})
	if err != nil || mmioFlip {
		k.release(b)
		if err == nil {
			k.queueFlip(c)
		}
		return 0, err
	}
	k.tracePatchesOutside(b.id, patches, entries)
	k.observeDMA(b, fence, dmaWords, patches)

	k.mu.Lock()
	b.fence, b.words, b.patches = fence, dmaWords, patches
	b.draws, b.occlQ = draws, occlQ
	b.inst = make([]uint64, len(entries))
	for i, a := range entries {
		if a != nil {
			b.inst[i] = instanceAt(a, list[i].Allocation)
		}
	}
	b.readyAt = k.s.Now() + k.cfg.Costs.SchedLatency
	c.dma[b.fence] = b.id
	for i, a := range entries {
		if a == nil {
			continue
		}
		if kl[i].WriteOperation {
			a.lastWrite = b.fence
		} else {
			a.lastRead = b.fence
		}
		a.lastCtx, a.lastDMA = c, b.id
	}
	i, _ := slices.BinarySearchFunc(k.schedQ, b, func(x, y *dmaBuffer) int {
		if c := cmp.Compare(x.readyAt, y.readyAt); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	k.schedQ = slices.Insert(k.schedQ, i, b)
	var deps []trace.Event
	if k.cfg.OutOfOrder {
		deps = k.enqueueLocked(b)
	}
	waitVBlank := b.waitVBlank != 0
	k.mu.Unlock()
	for _, ev := range deps {
		k.rec.Emit(ev)
	}
	k.s.Schedule(b.readyAt, "kernel", k.kick)
	if waitVBlank {
		k.updateVSync() // the copy is released at its blank's interrupt (display.go)
	}
	return b.fence, nil
}

// The most a context may have in flight. A submission past either limit
// waits first for the oldest fence that brings it back under (a WaitForFence
// saying why): like a real driver's pool of DMA buffers, this keeps an
// application that never waits from queueing GPU work without bound
// (docs/security.md: a Present loop on a large target queued gigabytes
// before). A present also waits while its device has as many frames queued
// and not shown as its maximum frame latency (display.go): for the fence of
// the frame that frees a slot when every frame up to it shows as soon as
// its buffer is done (SyncInterval 0), else for the vertical blank that
// shows it (a WaitForVerticalBlank).
const maxQueuedDMA = 64 // DMA buffers submitted and not done, per context

// throttle makes a submission on h wait while its context has maxQueuedDMA
// buffers or, for a present, while the frame queue is full.
func (k *Dxgkrnl) throttle(h HContext, present bool) error {
	k.mu.Lock()
	c := k.contexts[h]
	if c == nil || c.destroyed || c.dev.removed {
		k.mu.Unlock()
		return nil // submit reports it
	}
	k.mu.Unlock()
	if present {
		k.advance(c)
	}
	k.mu.Lock()
	var fence uint64
	var why string
	if n := c.submitted - c.completed; n >= maxQueuedDMA {
		fence = c.submitted - maxQueuedDMA + 1
		why = fmt.Sprintf(": %d DMA buffers of %v are queued, the most a context may have", n, h)
	}
	var vsync frame // the frame to wait for at a vertical blank
	var vwhy string
	if lat := c.dev.latencyLocked(); present && len(c.presents) >= lat {
		n := len(c.presents)
		f := c.presents[n-lat]
		msg := fmt.Sprintf(": %d presents of %v are queued, the maximum frame latency", n, h)
		if lat != DefaultMaxFrameLatency {
			msg += fmt.Sprintf(" (%d)", lat)
		}
		if !slices.ContainsFunc(c.presents[:n-lat+1], func(f frame) bool { return f.sync != 0 }) {
			if f.fence > fence {
				fence, why = f.fence, msg
			}
		} else {
			vsync, vwhy = f, msg
		}
	}
	k.mu.Unlock()
	if fence != 0 {
		if err := k.flowWait(c, k.waitFence(c, fence, why, WaitReason{})); err != nil {
			return err
		}
	}
	if vsync.seq != 0 {
		return k.flowWait(c, k.waitShown(c, vsync, vwhy))
	}
	return nil
}

// flowWait is the error of a throttle's wait: only a removal fails the
// submission.
func (k *Dxgkrnl) flowWait(c *context, err error) error {
	k.mu.Lock()
	removed := c.dev.removed
	k.mu.Unlock()
	if err != nil && !removed {
		// Flow control, not a reason to fail the submission: with real
		// goroutines on the free-threaded entry points another goroutine
		// may be running the events this wait needed (see othersRunning).
		return nil
	}
	return err
}

// kick runs the GPU scheduler on thread "kernel": every queued buffer whose
// time has come, in order. It may wait (for an eviction); a kick that comes
// meanwhile leaves its buffer to the one running.
func (k *Dxgkrnl) kick() {
	if k.cfg.OutOfOrder {
		k.kickOOO()
		return
	}
	k.mu.Lock()
	if k.scheduling {
		k.mu.Unlock()
		return
	}
	k.scheduling = true
	for {
		if k.resubmitLocked() {
			continue
		}
		i := k.nextReadyLocked()
		if i < 0 {
			break
		}
		b := k.schedQ[i]
		k.schedQ = slices.Delete(k.schedQ, i, i+1)
		k.mu.Unlock()
		k.schedule(b)
		k.mu.Lock()
	}
	k.scheduling = false
	k.mu.Unlock()
}

// nextReadyLocked is the index in schedQ of the buffer the WDDM scheduler
// takes next, or -1. A context runs on the node it was created on
// (D3DDDICB_CREATECONTEXT's NodeOrdinal) and its DMA buffers go there in
// submission order ("MCDM architecture": a context is a queue of work
// targeting an engine, held in a software queue until the OS scheduler
// submits it; "Submitting a Command Buffer"): the scheduler takes buffers in the
// order they became ready, and a buffer that must wait holds back the later
// buffers of its context, never those of other contexts. A buffer waits
// while an allocation it uses is being paged in by a paging buffer on
// another node (that node's ring does not order it). Work of different
// contexts is not ordered by the scheduler: the application orders it with
// synchronization objects: a GPU-side wait queued in a context's stream
// (pfnWaitForSynchronizationObjectCb, gpuwait.go) holds that context's later
// buffers.
func (k *Dxgkrnl) nextReadyLocked() int {
	now := k.s.Now()
	var held []*context
	for i, b := range k.schedQ {
		if b.readyAt > now {
			break
		}
		if slices.Contains(held, b.ctx) {
			continue
		}
		if k.heldLocked(b) || k.pagingElsewhereLocked(b) || k.vblankHeldLocked(b) || k.scanoutHeldLocked(b) { // a GPU-side wait (gpuwait.go), paging, a vertical blank or a flip (present.go)
			held = append(held, b.ctx)
			continue
		}
		return i
	}
	return -1
}

// pagingElsewhereLocked reports whether an allocation b uses waits for a
// paging buffer on another node than b's.
func (k *Dxgkrnl) pagingElsewhereLocked(b *dmaBuffer) bool {
	for _, a := range b.allocs {
		if p := a.paging; p != nil && !p.retired && p.engine != b.engine {
			return true
		}
	}
	return false
}

// schedule takes one DMA buffer to the GPU: residency and paging (steps
// 11-12), DxgkDdiPatch (13), DxgkDdiSubmitCommand (14).
func (k *Dxgkrnl) schedule(b *dmaBuffer) {
	k.charge(k.cfg.Costs.Schedule)
	if k.refuseNonResident(b) {
		return
	}
	pg := &pager{k: k, trigger: b}
	for _, a := range b.allocs {
		if k.dropIfRemoved(b) {
			pg.flush()
			return
		}
		k.makeResident(a, b, pg)
	}
	pg.flush()
	if k.dropIfRemoved(b) {
		return
	}

	k.mu.Lock()
	list := slices.Clone(b.list)
	for i, a := range b.entries {
		if a == nil {
			continue
		}
		list[i].SegmentID, list[i].PhysicalAddress = b.patchLocation(i, a)
	}
	for _, a := range b.allocs {
		k.lru++
		a.lru = k.lru
	}
	// The node's next submission fence id, the one DxgkDdiSubmitCommand
	// will carry too ("Supplying Fence Identifiers": the same id in
	// DXGKARG_PATCH and DXGKARG_SUBMITCOMMAND).
	e := k.engines[b.engine]
	e.sub++
	b.patchSub = e.sub
	k.mu.Unlock()
	pa := dxgkddi.PatchArgs{Context: b.ctx.h, Engine: b.engine, DmaBuffer: b.words, AllocationList: list, PatchLocationList: b.patches, SubmissionFenceID: b.patchSub}
	var ab trace.ArgBuilder
	ab.Int(trace.KeyPatches, int64(len(b.patches))).Int(trace.KeyEngine, int64(b.engine)).Uint(trace.KeySubfence, b.patchSub)
	err := k.ddi("DxgkDdiPatch", trace.Event{Handle: b.handle(), Fence: b.fence, DMA: b.id, Args: ab.Args(),
		Msg: patchMsg(b.engine, b.patchSub)},
		func() error { return k.drv.DxgkDdiPatch(&pa) })
	if err != nil {
		k.removeDevice(b.dev, RemovedByDriver, fmt.Sprintf("DxgkDdiPatch failed for %s: %v", b.describe(), err))
		k.retire(b, true)
		return
	}
	k.submitToGPU(b, "")
}

// dropIfRemoved retires a buffer of a removed device without running it.
func (k *Dxgkrnl) dropIfRemoved(b *dmaBuffer) bool {
	k.mu.Lock()
	removed := b.dev != nil && b.dev.removed && !b.paging
	k.mu.Unlock()
	if removed {
		k.retire(b, true)
	}
	return removed
}

// submitToGPU hands a buffer to the driver for the GPU's ring with the
// engine's next submission fence id (DxgkDdiSubmitCommand, steps 12 and
// 14).
func (k *Dxgkrnl) submitToGPU(b *dmaBuffer, note string) {
	k.mu.Lock()
	e := k.engines[b.engine]
	if e.preemptFence != 0 {
		// The engine is asked to stop: nothing new goes to it until it
		// answers (preempt.go).
		e.held = append(e.held, b)
		k.mu.Unlock()
		return
	}
	if b.keepSub {
		// A paging packet resubmitted after a TDR: "The GPU scheduler asks
		// the driver to resubmit paging packets with their original fence
		// IDs" ("TDR changes in Windows 8").
		b.keepSub = false
	} else if b.patchSub != 0 && b.patchSub == e.sub {
		// The id DxgkDdiPatch carried: nothing was submitted on the node
		// since, so it is still the node's newest.
		b.sub = b.patchSub
	} else {
		e.sub++
		b.sub = e.sub
	}
	b.patchSub = 0
	b.submittedAt = k.s.Now()
	e.inflight = append(e.inflight, b)
	k.mu.Unlock()
	sa := dxgkddi.SubmitCommandArgs{Engine: b.engine, DmaBufferID: b.id, DmaBuffer: b.words, SubmissionFenceID: b.sub,
		Flags: dxgkddi.SubmitCommandFlags{Paging: b.paging, Present: b.present}}
	ev := trace.Event{Handle: b.handle(), Fence: b.fence, DMA: b.id,
		Msg: submitMsg(b.engine, b.sub, len(b.words), note)}
	if b.paging {
		var ab trace.ArgBuilder
		ev.Args = ab.Flag(trace.KeyPaging).Uint(trace.KeyFor, b.forDMA).Int(trace.KeyEngine, int64(b.engine)).Uint(trace.KeySubfence, b.sub).Args()
	} else {
		sa.Context = b.ctx.h
		var ab trace.ArgBuilder
		ev.Args = ab.Int(trace.KeyAllocs, int64(len(b.list))).Int(trace.KeyPatches, int64(len(b.patches))).Int(trace.KeyEngine, int64(b.engine)).Uint(trace.KeySubfence, b.sub).Args()
	}
	err := k.ddi("DxgkDdiSubmitCommand", ev, func() error { return k.drv.DxgkDdiSubmitCommand(&sa) })
	if err != nil {
		k.mu.Lock()
		e.inflight = slices.DeleteFunc(e.inflight, func(x *dmaBuffer) bool { return x == b })
		k.mu.Unlock()
		if b.dev != nil {
			k.removeDevice(b.dev, RemovedByDriver, fmt.Sprintf("DxgkDdiSubmitCommand failed for %s: %v", b.describe(), err))
		}
		k.retire(b, true)
	}
}

// tracePatchesOutside traces, as a PatchOutsideAllocation message, every
// patch location the KMD returned whose offset is at or past the end of its
// allocation: an address outside an allocation, which a validating KMD never
// lets through (rule WDDM-ISOLATE). Dxgkrnl does not act on it; the verifier
// names it. (A reference that starts inside its allocation and runs past the
// end meets the GPU's page fault instead.)
func (k *Dxgkrnl) tracePatchesOutside(dma uint64, patches []dxgkddi.PatchLocation, entries []*allocation) {
	for _, p := range patches {
		if int64(p.AllocationIndex) >= int64(len(entries)) {
			continue
		}
		if a := entries[p.AllocationIndex]; a != nil && uint64(p.AllocationOffset) >= a.size {
			k.event(trace.Message, "PatchOutsideAllocation", trace.Event{DMA: dma,
				Msg: fmt.Sprintf("patch location at word %d: offset %d of allocation %v, a %d-byte allocation of %v", p.PatchOffset, p.AllocationOffset, a.h, a.size, a.dev.h)})
		}
	}
}
