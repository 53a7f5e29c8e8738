package umd

import (
	"errors"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/gpu/isa"
)

// The immediate context's DDIs. What sets it apart from a deferred context:
// it submits its command buffer through pfnRenderCb (by itself when the
// buffer is full) and asks for presents with pfnPresentCb, waits for the
// GPU where a Map needs it, performs the deferred destructions once a
// submission carries the resources' last use, and lets the runtime do its
// amortized work.

// immediateContext is the immediate context: the shared core plus the
// command buffer's limits, what rides on the unsubmitted buffer, and the
// pacing of pfnPerformAmortizedProcessingCb. The Device embeds it.
type immediateContext struct {
	context

	ctx      ddi.HCONTEXT // the GPU context pfnCreateContextCb gave
	cmdCap   int          // words: the command buffer the runtime gave last
	listCap  int
	patchCap int
	maxCap   int         // words: the most this driver asks for (4 times the first buffer)
	filled   bool        // the buffer being submitted could not take the next command
	used     []*resource // resources the unsubmitted buffer names
	// CommandListExecute's scratch: a group's packets and the allocation
	// list entries they name (not a map made for every group).
	execPkts       []isa.Packet
	execAllocs     firstUse[uint32]
	pendingDealloc []pendingFree
	submits        uint64
	fences         uint64          // submissions the kernel accepted: the n-th is done at the context's fence n
	foreign        ddi.HALLOCATION // umd.foreign and umd.overrun injections
	foreignOff     uint32          // where they write in it
	overrun        uint32          // umd.overrun: the allocation's size (0: umd.foreign)
	displayMode    ddi.HALLOCATION // the primary SetDisplayModeDXGI switched to
	refreshNext    bool            // after CommandListExecute: refresh the bound state at the next DDI

	// Pacing of pfnPerformAmortizedProcessingCb.
	epoch            uint64 // counts DDI entries that do work
	amortizedEpoch   uint64 // the entry that last amortized (once per DDI, but see amortize)
	amortizedSubmits uint64 // submissions counted then
	workSince        bool   // DDI work since then
}

var (
	_ ddi.Device = (*Device)(nil)
	_ recorder   = (*immediateContext)(nil)
)

// ensure makes room for a command: when the command buffer or the allocation
// list cannot take it, the UMD submits what it has with pfnRenderCb, without
// a Flush from the application (WDDM operation flow, step 8; rule WDDM-FULL).
//
// The GPU's predication goes with it: SET_PREDICATION is sent first when
// the command buffer's predication is not what the context set (a fresh
// buffer starts without).
func (d *immediateContext) ensure(words, allocs int) {
	pw, pa := d.predicationRoom()
	d.room(words+pw, allocs+pa)
	d.syncPredication()
}

func (d *immediateContext) room(words, allocs int) {
	if len(d.cmd.Words)+words <= d.cmdCap && len(d.list)+allocs <= d.listCap || len(d.cmd.Words) == 0 || d.cfg.Bugs.Has(rules.WDDMFull) {
		// (the WDDM-FULL bug lets the buffer grow in place past what
		// the runtime gave)
		return
	}
	d.filled = true
	d.submit()
}

// ref notes that the unsubmitted command buffer uses r, so a Map waits for
// it and a destruction waits for its submission.
func (d *immediateContext) ref(r *resource, write bool, offset uint32) uint64 {
	if !r.inBuffer {
		r.inBuffer = true
		d.used = append(d.used, r)
	}
	if write {
		r.writeInBuffer = true
	}
	if d.cfg.Bugs.Has(rules.FTAlloc) && r.shared() && len(r.extra) == 0 {
		// The bug: at its first use the driver supplements a shared
		// resource with a second allocation (say, compression metadata)
		// on the immediate context's thread, outside its CreateResource.
		// Fine for a resource nobody shares; for a shared one pfnAllocateCb
		// belongs to the thread inside CreateResource.
		cb := ddi.AllocateCb{Resource: r.rt, Allocations: []ddi.AllocationInfo{{Size: 4096, Width: 4096, Height: 1, Pitch: 4096, Obj: r.args.Obj}}}
		if d.cb.PfnAllocateCb(d.rt, &cb) == nil {
			r.extra = append(r.extra, cb.Allocations[0].Allocation)
		}
	}
	return d.refAlloc(r.alloc, write, offset)
}

func (d *immediateContext) ClearRenderTargetView(_ ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	d.busy()
	d.clearRTV(d, uint32(v), rgba)
}

func (d *immediateContext) ClearDepthStencilView(_ ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, stencil uint8) {
	d.busy()
	d.clearDSV(d, uint32(v), flags, depth, stencil)
}

// drawState makes room for a draw and re-emits the state when it changed
// or the buffer is fresh (a submission to make room leaves it dirty; the
// fresh buffer has room for any state).
func (d *immediateContext) drawState() { d.drawStateAllocs(0) }

// drawStateAllocs is drawState for a draw that names more allocations.
func (d *immediateContext) drawStateAllocs(more int) {
	w, a := 0, more
	if d.st.dirty {
		w, a = d.extraWords(&d.st)
		a += more
	}
	d.ensure(drawWords+w, drawAllocs+a)
	if d.st.dirty {
		d.emitState(d, &d.st)
	}
}

// Draw is the hot path: the state is re-emitted only after it changed or a
// submission.
func (d *immediateContext) Draw(_ ddi.HDEVICE, count, start uint32) {
	d.busy()
	if d.st.vs == 0 {
		return // no vertex shader: nothing to draw (a draw needs one in Direct3D 11)
	}
	if !d.st.dirty && d.pred == d.gpuPred && (d.pred == nil || d.predValue == d.gpuPredValue) &&
		len(d.cmd.Words)+drawWords <= d.cmdCap && len(d.list)+drawAllocs <= d.listCap {
		// A draw that changes no state: what drawState would find (the
		// state and the predication sent, room for a draw), the packet
		// alone.
		d.cmd.Draw(count, start)
		return
	}
	d.drawState()
	d.cmd.Draw(count, start)
}

func (d *immediateContext) DrawInstanced(_ ddi.HDEVICE, count, instances, start, startInstance uint32) {
	d.busy()
	if d.st.vs == 0 {
		return
	}
	d.drawState()
	d.cmd.DrawInstanced(count, start, instances, startInstance)
}

func (d *immediateContext) DrawIndexedInstanced(_ ddi.HDEVICE, count, instances, start uint32, base int32, startInstance uint32) {
	d.busy()
	if d.st.vs == 0 {
		return
	}
	d.drawState()
	d.cmd.DrawIndexedInstanced(count, start, base, instances, startInstance)
}

// DrawInstancedIndirect and DrawIndexedInstancedIndirect draw with the
// arguments in buf at offset: DRAW_INDIRECT and DRAW_INDEXED_INDIRECT
// name the buffer's memory, which the GPU reads when the draw runs (so an
// earlier copy into the buffer in the same stream is seen).
func (d *immediateContext) DrawInstancedIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	d.drawIndirect(buf, offset, false)
}

func (d *immediateContext) DrawIndexedInstancedIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	d.drawIndirect(buf, offset, true)
}

func (d *immediateContext) drawIndirect(buf ddi.HRESOURCE, offset uint32, indexed bool) {
	d.busy()
	r := d.resource(buf)
	if d.st.vs == 0 || r == nil {
		return
	}
	d.drawStateAllocs(1) // (drawWords keeps room for the draw packet; its list entry may be new)
	if indexed {
		d.cmd.DrawIndexedIndirect(d.ref(r, false, offset))
	} else {
		d.cmd.DrawIndirect(d.ref(r, false, offset))
	}
}

func (d *immediateContext) DrawIndexed(_ ddi.HDEVICE, count, start uint32, base int32) {
	d.busy()
	if d.st.vs == 0 {
		return // no vertex shader: nothing to draw (a draw needs one in Direct3D 11)
	}
	d.drawState()
	d.cmd.DrawIndexed(count, start, base)
}

func (d *immediateContext) ResourceCopy(_ ddi.HDEVICE, dst, src ddi.HRESOURCE) {
	d.busy()
	d.copyResource(d, dst, src)
}

// ResourceUpdateSubresourceUP carries the data inline in the command buffer,
// in chunks that fit in one.
func (d *immediateContext) ResourceUpdateSubresourceUP(_ ddi.HDEVICE, dst ddi.HRESOURCE, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32) {
	d.busy()
	d.updateSubresource(d, dst, sub, box, data, rowPitch, depthPitch, min(writeChunk, (d.cmdCap-16)*4/2))
}

// ResourceMap gives the CPU the resource's memory through pfnLockCb, which
// synchronises the access with the GPU ("PFND3DDDI_LOCKCB callback
// function (d3dumddi.h)"). Work still in the command buffer that the map
// conflicts with is submitted first (the callback can only see submitted
// work); then the video memory manager blocks the thread inside pfnLockCb
// until the GPU is done with it — a read waits for GPU writes (RAW), a
// write for GPU reads and writes (WAR, WAW) — or, with DO_NOT_WAIT, fails
// with D3DDDIERR_WASSTILLDRAWING, which the driver reports through
// pfnSetErrorCb as DXGI_DDI_ERR_WASSTILLDRAWING and Map returns as
// DXGI_ERROR_WAS_STILL_DRAWING ("D3D11_MAP_FLAG enumeration (d3d11.h)").
// WRITE_DISCARD locks with Discard: a busy allocation is renamed by the
// video memory manager ("Requesting to rename an allocation"), never
// waited for, and the lock returns the new instance's handle.
// WRITE_NO_OVERWRITE locks with IgnoreSync: it never waits (the SamBookshelf
// article on asynchronous Draw).
//
// It is the multipurpose map behind the five map entries the runtime may
// call (ddi.MapEntry; "PFND3D10DDI_RESOURCEMAP": "The driver can implement
// one pair of ResourceMap and ResourceUnmap functions that can contain
// switch statements"), and returns nothing: errors go through
// pfnSetErrorCb, a removed device's as D3DDDIERR_DEVICEREMOVED.
func (d *immediateContext) ResourceMap(_ ddi.HDEVICE, h ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag, out *ddi.MappedSubresource) {
	r := d.resource(h)
	if r == nil {
		d.report(hresult.Errorf(hresult.E_INVALIDARG, "umd: Map of unknown resource"))
		return
	}
	d.busy()
	if err := d.injectedErr("ResourceMap"); err != nil {
		d.report(err)
		return
	}
	var lf ddi.LockFlags
	switch t {
	case ddi.MapWriteDiscard:
		// The unsubmitted buffer must keep the instance it used: submit
		// it before the rename.
		if r.inBuffer {
			d.submit()
		}
		lf = ddi.LockFlags{WriteOnly: true, Discard: true}
	case ddi.MapWriteNoOverwrite:
		lf = ddi.LockFlags{WriteOnly: true, IgnoreSync: true}
	default:
		if r.inBuffer && (t != ddi.MapRead || r.writeInBuffer) {
			d.submit()
		}
		lf = ddi.LockFlags{ReadOnly: t == ddi.MapRead, WriteOnly: t == ddi.MapWrite, DonotWait: flags&ddi.MapFlagDoNotWait != 0}
		lf.IgnoreSync = d.cfg.Bugs.Has(rules.MapHazard) && !lf.DonotWait // the bug: map without waiting
	}
	lk := ddi.LockCb{Allocation: r.alloc, Flags: lf}
	if err := d.cb.PfnLockCb(d.rt, &lk); err != nil {
		d.report(mapError(err))
		return
	}
	if lk.Allocation != r.alloc {
		// Renamed under Discard: the new instance has a new handle
		// ("D3DDDICB_LOCK structure", hAllocation [in/out]), which the
		// next allocation lists name. (The command buffer does not name r:
		// a DISCARD submits first.)
		r.alloc = lk.Allocation
	}
	r.mapped = true
	*out = ddi.MappedSubresource{Data: lk.Data, RowPitch: r.pitch}
}

// mapError is what the driver reports for a lock that failed: the
// video memory manager's D3DDDIERR_WASSTILLDRAWING (DonotWait) is the
// DXGI DDI's DXGI_DDI_ERR_WASSTILLDRAWING, a removal D3DDDIERR_DEVICEREMOVED
// ("PFND3D10DDI_RESOURCEMAP").
func mapError(err error) error {
	switch {
	case errors.Is(err, hresult.D3DDDIERR_WASSTILLDRAWING):
		return hresult.Errorf(hresult.DXGI_DDI_ERR_WASSTILLDRAWING, "umd: the lock would wait (%v)", err)
	case removedHR(err):
		return hresult.Errorf(hresult.D3DDDIERR_DEVICEREMOVED, "umd: %v", err)
	}
	return err
}

// removedHR is whether a callback's error says the device is gone.
func removedHR(err error) bool {
	return errors.Is(err, hresult.DXGI_ERROR_DEVICE_REMOVED) || errors.Is(err, hresult.DXGI_ERROR_DEVICE_HUNG) ||
		errors.Is(err, hresult.DXGI_ERROR_DEVICE_RESET) || errors.Is(err, hresult.D3DDDIERR_DEVICEREMOVED)
}

func (d *immediateContext) ResourceUnmap(_ ddi.HDEVICE, h ddi.HRESOURCE) {
	r := d.resource(h)
	if r == nil || !r.mapped {
		return
	}
	r.mapped = false
	d.cb.PfnUnlockCb(d.rt, r.alloc)
}

func (d *immediateContext) QueryBegin(_ ddi.HDEVICE, h ddi.HQUERY) { d.queryBegin(d, d.query(h)) }

func (d *immediateContext) QueryEnd(_ ddi.HDEVICE, h ddi.HQUERY) {
	q := d.query(h)
	if q == nil {
		return
	}
	d.queryEnd(d, q)
	if !q.inBuffer {
		q.inBuffer = true
		d.ended = append(d.ended, q)
	}
}

// QueryGetData submits a pending End (as GetData does without
// D3D11_ASYNC_GETDATA_DONOTFLUSH) and, until the GPU has passed it, reports
// DXGI_DDI_ERR_WASSTILLDRAWING through pfnSetErrorCb: "the driver can pass
// DXGI_DDI_ERR_WASSTILLDRAWING in a call to pfnSetErrorCb to indicate that
// the query is not finished yet" ("PFND3D10DDI_QUERYGETDATA"). The DDI
// returns nothing; once the query is done it writes the data.
func (d *immediateContext) QueryGetData(_ ddi.HDEVICE, h ddi.HQUERY, data []byte, _ uint32) {
	q := d.query(h)
	if q == nil || !q.ended {
		d.report(hresult.Errorf(hresult.E_INVALIDARG, "umd: QueryGetData of a query that was never ended"))
		return
	}
	if err := checkDataSize(q, data); err != nil {
		d.report(err)
		return
	}
	d.busy()
	if q.inBuffer {
		d.submit()
	}
	if q.fence > d.cb.CompletedFence(d.rt, d.ctx) {
		d.report(hresult.DXGI_DDI_ERR_WASSTILLDRAWING)
		return
	}
	if q.kind == ddi.QueryEvent {
		queryData(q, nil, data)
		return
	}
	lk := ddi.LockCb{Allocation: q.alloc}
	if err := d.cb.PfnLockCb(d.rt, &lk); err != nil {
		d.report(mapError(err))
		return
	}
	queryData(q, lk.Data, data)
	d.cb.PfnUnlockCb(d.rt, q.alloc)
}

// Flush submits the command buffer with pfnRenderCb (WDDM operation flow, step 9) and
// processes the deferred-destruction queue even when there was nothing to
// submit (rule DD-FLUSH).
func (d *immediateContext) Flush(ddi.HDEVICE) {
	d.busy()
	if len(d.cmd.Words) > 0 || d.foreign != 0 {
		var shown ddi.HALLOCATION
		if d.cfg.Bugs.Has(rules.FTPresent) {
			// The bug: the driver shows the render target the flushed
			// buffer drew into, with pfnPresentCb outside PresentDXGI.
			for _, r := range d.used {
				if r.writeInBuffer && (r.format == isa.FmtRGBA8 || r.format == isa.FmtBGRA8) {
					shown = r.alloc
					break
				}
			}
		}
		d.submit()
		if shown != 0 && d.cb.PfnPresentCb(d.rt, &ddi.PresentCb{Context: d.ctx, SrcAllocation: shown, Flags: ddi.PresentFlags{Blt: true}}) == nil {
			d.fences++ // the copy's DMA buffer
		}
		return
	}
	if !d.cfg.Bugs.Has(rules.DDFlush) { // the bug: only a submission drains the queue
		d.processDestroyQueue()
	}
	d.freePending()
}

// SetDisplayModeDXGI switches the display to a primary's mode with
// pfnSetDisplayModeCb, the one DDI allowed to call it (rule FT-MODE).
func (d *Device) SetDisplayModeDXGI(_ ddi.HDEVICE, h ddi.HRESOURCE) error {
	r := d.resource(h)
	if r == nil || !r.args.Primary {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: SetDisplayModeDXGI needs a primary")
	}
	d.displayMode = r.alloc
	d.fullscreenDraw()
	if d.cfg.Bugs.Has(rules.FTMode) {
		return nil // the bug: switch the mode later, from PresentDXGI
	}
	return d.cb.PfnSetDisplayModeCb(d.rt, r.alloc)
}

// fullscreenDraw hot-swaps the immediate context's pfnDraw entry for the
// full-screen path. This is legal: SetDisplayModeDXGI runs on the immediate
// context's thread, and only that thread calls the context's entries
// (rule FT-TABLE). (The simulated GPU draws the same either way; a real
// driver would, say, render straight into the scanned-out primary.)
func (d *Device) fullscreenDraw() {
	if d.table == nil || d.table.Get("pfnDraw").Impl == "DrawFullscreen" {
		return
	}
	d.table.Set("pfnDraw", "DrawFullscreen", d.drawEntry)
	if d.cfg.Bugs.Has(rules.FTTable) {
		// The bug: a create entry swapped too, while other threads may be
		// inside CreateResource.
		d.table.Set("pfnCreateResource", "CreateResourceFullscreen", nil)
	}
}

// PresentDXGI submits the command buffer with pfnRenderCb, then asks for
// the present with pfnPresentCb, naming only the source's allocation, the
// destination's (0 here: the kernel picks it) and the model
// ("DXGI_DDI_BASE_FUNCTIONS", pfnPresent: "The driver must submit all
// partially built render data (command buffers) using the pfnRenderCb
// function. Thereafter, the driver must translate the resource handle
// parameters into kernel handles and use those kernel handles in a call to
// pfnPresentCbDXGI"). The KMD writes the present's commands in
// DxgkDdiPresent. A bitblt present is a DMA buffer on the context (the
// copy): it takes the context's next fence, and it reads the source.
func (d *immediateContext) PresentDXGI(_ ddi.HDEVICE, a *ddi.PresentArg) error {
	d.busy()
	if d.cfg.Bugs.Has(rules.FTMode) && d.displayMode != 0 {
		d.cb.PfnSetDisplayModeCb(d.rt, d.displayMode)
		d.displayMode = 0
	}
	r := d.resource(a.SurfaceToPresent)
	if r == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: Present of unknown resource")
	}
	var dst ddi.HALLOCATION
	if a.DstResource != 0 {
		x := d.resource(a.DstResource)
		if x == nil {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: Present to unknown resource")
		}
		dst = x.alloc
	}
	pending := len(d.cmd.Words) > 0 || d.foreign != 0
	late := d.cfg.Bugs.Has(rules.WDDMPresent) // the bug: present first, render data after
	if pending && !late {
		if err := d.submit(); err != nil {
			return err
		}
	}
	err := d.cb.PfnPresentCb(d.rt, &ddi.PresentCb{Context: d.ctx, SrcAllocation: r.alloc, DstAllocation: dst, Flags: a.Flags})
	if err == nil && a.Flags.Blt {
		d.fences++ // the copy's DMA buffer
		r.lastFence = d.fences
	}
	if pending && late {
		if serr := d.submit(); err == nil {
			err = serr
		}
	}
	d.amortize()
	return err
}

// RotateResourceIdentitiesDXGI swaps the allocations behind the resources,
// with what the driver knows of each allocation's use: resources X, Y, Z
// come to refer to what Y, Z, X referred to. The runtime handles stay. The
// views onto them name the resource, and every binding is emitted again
// at the next draw, so nothing needs re-creating ("DXGI_DDI_BASE_FUNCTIONS",
// pfnRotateResourceIdentities: "the driver might be required to reapply
// currently bound views").
func (d *immediateContext) RotateResourceIdentitiesDXGI(_ ddi.HDEVICE, res []ddi.HRESOURCE) {
	d.busy()
	rs := make([]*resource, 0, len(res))
	for _, h := range res {
		if r := d.resource(h); r != nil {
			rs = append(rs, r)
		}
	}
	if len(rs) < 2 {
		return
	}
	type ident struct {
		alloc                     ddi.HALLOCATION
		extra                     []ddi.HALLOCATION
		lastFence, lastWriteFence uint64
	}
	first := ident{rs[0].alloc, rs[0].extra, rs[0].lastFence, rs[0].lastWriteFence}
	for i, r := range rs {
		next := first
		if i+1 < len(rs) {
			n := rs[i+1]
			next = ident{n.alloc, n.extra, n.lastFence, n.lastWriteFence}
		}
		r.alloc, r.extra, r.lastFence, r.lastWriteFence = next.alloc, next.extra, next.lastFence, next.lastWriteFence
	}
	d.st.dirty = true
}

// submit hands the command buffer to the runtime, then records the fence on
// everything it used and performs the deallocations that waited for it.
func (d *immediateContext) submit() error {
	if d.foreign != 0 {
		// A rogue command: write into an allocation of another device, or
		// across the end of one of its own (never predicated).
		if d.gpuPred != nil {
			d.cmd.SetPredication(isa.NullAddress, false)
		}
		if d.overrun != 0 {
			d.cmd.Fill(d.refAlloc(d.foreign, true, d.foreignOff), overrunBytes, 0xdeadbeef)
			d.cmd.Write(d.refAlloc(d.foreign, true, d.overrun), []byte{0xef, 0xbe, 0xad, 0xde})
		} else {
			d.cmd.Write(d.refAlloc(d.foreign, true, d.foreignOff), []byte{0xef, 0xbe, 0xad, 0xde})
		}
		d.foreign, d.foreignOff, d.overrun = 0, 0, 0
	}
	words := append([]uint32(nil), d.cmd.Words...)
	list := append([]ddi.AllocationListEntry(nil), d.list...)
	// The buffer is handed over before the callback: a thread that got in
	// meanwhile (only with bug=FT-HCTX, which drops the HCONTEXT lock)
	// finds it empty instead of submitting it twice.
	used := append([]*resource(nil), d.used...)
	ended := append([]*query(nil), d.ended...)
	d.used = d.used[:0]
	d.ended = d.ended[:0]
	d.cmd.Words = d.cmd.Words[:0]
	d.onGPU = gpuBindings{} // the GPU starts the next buffer with nothing bound
	d.gpuPred = nil         // and without predication
	d.cs.sent = csSent{}    // the compute stage's bindings too
	d.list = d.list[:0]
	d.listIdx.reset()
	// Ask for the next buffer and lists (D3DDDICB_RENDER, [in/out]): the
	// same sizes again, or, after a buffer that filled up, twice the
	// command buffer (up to four times the first) with a patch-location
	// list grown alike (a buffer's patch locations grow with its
	// commands), which the runtime may grant or not.
	rc := ddi.RenderCb{Context: d.ctx, Commands: words, AllocationList: list,
		NewCommandBufferSize: 4 * d.cmdCap, NewAllocationListSize: d.listCap, NewPatchLocationListSize: d.patchCap}
	if d.filled {
		if grown := min(2*d.cmdCap, d.maxCap); grown > d.cmdCap {
			rc.NewCommandBufferSize = 4 * grown
			rc.NewPatchLocationListSize = d.patchCap * grown / d.cmdCap
		}
		d.filled = false
	}
	// WDDM 2.0: what the buffer uses goes on the residency list first (a
	// failure leaves it off, and Dxgkrnl removes the device that
	// submits it).
	_ = d.makeResident(list)
	err := d.cb.PfnRenderCb(d.rt, &rc)
	if err == nil && rc.NewCommandBufferSize > 0 {
		// (a runtime that grants the buffer and not its patch list would
		// see the KMD refuse a full buffer: the simulated one grants both)
		d.cmdCap = max(rc.NewCommandBufferSize/4, 512)
		if rc.NewAllocationListSize > 0 {
			d.listCap = max(rc.NewAllocationListSize, 16)
		}
		if rc.NewPatchLocationListSize > 0 {
			d.patchCap = rc.NewPatchLocationListSize
		}
	}
	var fence uint64 // pfnRenderCb returns none (D3DDDICB_RENDER): the UMD counts
	if err == nil {
		d.fences++
		fence = d.fences
	}
	d.submits++
	for _, r := range used {
		if fence != 0 {
			r.lastFence = fence
			if r.writeInBuffer {
				r.lastWriteFence = fence
			}
		}
		r.inBuffer, r.writeInBuffer = false, false
	}
	for _, q := range ended {
		q.fence = fence
		q.inBuffer = false
	}
	d.st.dirty = true
	d.processDestroyQueue() // everything destroyed before this submission is now safe
	d.freePending()
	d.amortize()
	return err
}

// amortize calls pfnPerformAmortizedProcessingCb after a submission: once,
// not back to back, and only when there was work since the last call
// (rules AM-SUBMIT and AM-BALANCE).
//
// A DDI that keeps submitting (CommandListExecute of a list that fills
// several command buffers) calls it again every second submission: the
// submissions between are the work that keeps the calls from being back to
// back.
func (d *immediateContext) amortize() {
	if d.cfg.Bugs.Has(rules.AMSubmit) {
		return
	}
	if d.amortizedEpoch == d.epoch {
		if d.submits-d.amortizedSubmits < 2 {
			return // done already in this DDI
		}
	} else if !d.workSince {
		return // nothing to amortize
	}
	d.amortizedEpoch = d.epoch
	d.amortizedSubmits = d.submits
	d.cb.PfnPerformAmortizedProcessingCb(d.core)
	if d.cfg.Bugs.Has(rules.AMBalance) {
		d.cb.PfnPerformAmortizedProcessingCb(d.core) // the bug: twice, back to back
	}
	d.workSince = false
}

// busy notes the entry of a DDI that does work. The driver makes no
// amortized call of its own between submissions: "Changes from Direct3D 10"
// requires it only to choose which of its existing pfnRenderCb calls to
// accompany with pfnPerformAmortizedProcessingCb (its 1 ms is an example of
// when the API is due, which the verifier reports as a warning, AM-BALANCE).
func (d *immediateContext) busy() {
	if d.refreshNext {
		// The first DDI after CommandListExecute: the driver re-reads the
		// bound state, which the runtime now shows cleared.
		d.refreshNext = false
		ddi.RefreshAll(d.cb, d.core)
	}
	d.epoch++
	d.workSince = true
}

func (d *immediateContext) freePending() {
	pend := d.pendingDealloc
	d.pendingDealloc = nil
	for _, p := range pend {
		d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Resource: p.rt, Allocations: append([]ddi.HALLOCATION{p.alloc}, p.extra...), Obj: p.obj})
	}
}

// deallocRes frees every allocation of a destroyed resource.
func (d *immediateContext) deallocRes(r *resource) {
	d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Resource: r.rt, Allocations: append([]ddi.HALLOCATION{r.alloc}, r.extra...), Obj: r.args.Obj})
}

// processDestroyQueue runs on the immediate context's thread: resources whose
// last use is submitted are deallocated now, the others right after the
// submission that carries their use.
func (d *immediateContext) processDestroyQueue() {
	d.dev.finishDestroys() // views, shaders, states, queries (device.go)
	d.mu.Lock()
	q := d.dev.destroyQ
	d.dev.destroyQ = nil
	d.mu.Unlock()
	for _, r := range q {
		if r.inBuffer {
			d.pendingDealloc = append(d.pendingDealloc, pendingFree{r.alloc, r.args.Obj, r.rt, r.extra})
			continue
		}
		d.deallocRes(r)
	}
}
