package d3d11

import (
	"d3dsim/core/rules"
	"errors"
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/dxgkddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// callbacks is the runtime's D3DDDI_DEVICECALLBACKS for one device. The UMD
// calls up only through it; each callback is traced (layer runtime, from
// umd) and reaches Dxgkrnl the way the D3DKMT thunks do.
type callbacks Device

var _ ddi.DeviceCallbacks = (*callbacks)(nil)

func (c *callbacks) dev() *Device { return (*Device)(c) }

func (c *callbacks) enter(name string, ev trace.Event) span {
	cfg := &c.rt.cfg
	cfg.Sim.Charge(cfg.Costs.Callback)
	ev.From, ev.Layer, ev.Kind, ev.Name = trace.UMD, trace.Runtime, trace.Call, name
	if ev.Ctx == "" {
		ev.Ctx = "IC"
	}
	cfg.Rec.Emit(ev)
	return span{rec: cfg.Rec, ev: keep(&ev), kernel: true}
}

// preempt is a point where the calling thread enters the kernel and may be
// descheduled: the scheduler may run other threads' free-threaded calls
// before it comes back (option preempt). A driver that is not free-threaded
// holds the runtime's DDI lock here, so nobody else could enter a DDI:
// nothing runs (unless bug=FT-CAP dropped the lock).
func (c *callbacks) preempt() {
	rt := c.rt
	if rt.preempt == nil || c.dead.Load() || c.imm == nil {
		return
	}
	if !rt.cfg.FreeThreaded && !rt.cfg.Bugs.Has(rules.FTCap) {
		return
	}
	rt.preempt()
}

// kernelErr maps Dxgkrnl's NTSTATUS failures onto the HRESULTs the DDI
// callbacks return.
func kernelErr(err error) error {
	if err == nil {
		return nil
	}
	var h hresult.HRESULT
	if errors.As(err, &h) {
		return err
	}
	if errors.Is(err, dxgk.ErrDeviceRemoved) {
		return fmt.Errorf("%w: %v", hresult.D3DDDIERR_DEVICEREMOVED, err)
	}
	var st dxgkddi.NTSTATUS
	if errors.As(err, &st) {
		switch st {
		case dxgkddi.STATUS_NO_MEMORY:
			return fmt.Errorf("%w: %v", hresult.E_OUTOFMEMORY, err)
		case dxgkddi.STATUS_DEVICE_REMOVED:
			return fmt.Errorf("%w: %v", hresult.D3DDDIERR_DEVICEREMOVED, err)
		case dxgkddi.STATUS_GRAPHICS_ALLOCATION_BUSY: // a lock with DonotWait
			return fmt.Errorf("%w: %v", hresult.D3DDDIERR_WASSTILLDRAWING, err)
		}
	}
	return fmt.Errorf("%w: %v", hresult.E_INVALIDARG, err)
}

func (c *callbacks) PfnCreateContextCb(_ ddi.HRTDEVICE, a *ddi.CreateContextCb) (err error) {
	done := c.enter("pfnCreateContextCb", trace.Event{Obj: c.name})
	defer func() { done.end(err) }()
	info, err := c.rt.cfg.Kernel.CreateContext(c.kdev)
	if err != nil {
		return kernelErr(err)
	}
	c.kctx = info.Context
	a.Context = ddi.HCONTEXT(info.Context)
	a.CommandBufferSize = info.CommandBufferSize
	a.AllocationListSize = info.AllocationListSize
	a.PatchLocationListSize = info.PatchLocationListSize
	if c.cmdBufSize == 0 {
		c.cmdBufSize = info.CommandBufferSize
	}
	return nil
}

func (c *callbacks) PfnDestroyContextCb(_ ddi.HRTDEVICE, h ddi.HCONTEXT) (err error) {
	done := c.enter("pfnDestroyContextCb", trace.Event{Obj: c.name})
	defer func() { done.end(err) }()
	return kernelErr(c.rt.cfg.Kernel.DestroyContext(dxgk.HContext(h)))
}

func (c *callbacks) PfnAllocateCb(_ ddi.HRTDEVICE, a *ddi.AllocateCb) (err error) {
	obj := ""
	if len(a.Allocations) > 0 {
		obj = a.Allocations[0].Obj
	}
	var args trace.Args
	if a.Resource != 0 {
		c.mu.Lock()
		if c.shared[a.Resource] {
			// (only shared resources say so: rule FT-ALLOC)
			var b trace.ArgBuilder
			args = b.Str(trace.KeyRes, handleName(c.resByRT[a.Resource])).Int(trace.KeyShared, 1).Args()
		}
		c.mu.Unlock()
	}
	done := c.enter("pfnAllocateCb", trace.Event{Obj: obj, Args: args})
	defer func() {
		done.end(err)
		if imm := c.dev().imm; err != nil && imm != nil {
			imm.ddi.noteCause(c.rt.cfg.Sim.Thread(), err) // the create that called it reports this (reportedError)
		}
	}()
	c.preempt()
	for i := range a.Allocations {
		ai := &a.Allocations[i]
		if max := c.rt.cfg.MaxAllocBytes; max > 0 {
			c.mu.Lock()
			// (the device's live objects' runtime and driver memory
			// counts against the same budget: memory.go)
			over := c.allocBytes+uint64(c.objBytes)+ai.Size > max
			allocBytes, objBytes := c.allocBytes, c.objBytes
			c.mu.Unlock()
			if over {
				return hresult.Errorf(hresult.E_OUTOFMEMORY, "%s: %d more bytes would pass the memory limit of %d bytes (option sysmem=SIZE): the device's allocations hold %d bytes and its live objects %d bytes of runtime and driver memory",
					ai.Obj, ai.Size, max, allocBytes, objBytes)
			}
		}
		h, err := c.rt.cfg.Kernel.CreateAllocation(c.kdev, dxgk.AllocationDesc{
			Size: ai.Size, CPUVisible: ai.CPUVisible, Primary: ai.Primary,
			Surface:     dxgkddi.SurfaceDesc{Width: ai.Width, Height: ai.Height, Pitch: ai.Pitch, Format: ai.GPUFormat},
			InitialData: ai.InitData, Obj: ai.Obj,
		})
		if err != nil {
			return kernelErr(err)
		}
		ai.Allocation = ddi.HALLOCATION(h)
		c.mu.Lock()
		c.allocBytes += ai.Size
		c.allocSize[ai.Allocation] = ai.Size
		if a.Resource != 0 {
			c.allocs[a.Resource] = append(c.allocs[a.Resource], ai.Allocation)
		}
		c.liveAllocs++
		c.mu.Unlock()
	}
	return nil
}

func (c *callbacks) PfnDeallocateCb(_ ddi.HRTDEVICE, a *ddi.DeallocateCb) (err error) {
	var args trace.Args
	if a.Resource != 0 {
		c.mu.Lock()
		args = strArg(trace.KeyRes, handleName(c.resByRT[a.Resource]))
		c.mu.Unlock()
	}
	done := c.enter("pfnDeallocateCb", trace.Event{Obj: a.Obj, Args: args})
	defer func() { done.end(err) }()
	for _, h := range a.Allocations {
		if e := c.rt.cfg.Kernel.DestroyAllocation(c.kdev, dxgk.HAllocation(h)); e != nil && err == nil {
			err = kernelErr(e)
		}
		c.mu.Lock()
		c.liveAllocs--
		c.allocBytes -= c.allocSize[h]
		delete(c.allocSize, h)
		c.mu.Unlock()
	}
	return err
}

func kernelList(l []ddi.AllocationListEntry) []dxgk.AllocationListEntry {
	out := make([]dxgk.AllocationListEntry, len(l))
	for i, e := range l {
		out[i] = dxgk.AllocationListEntry{Allocation: dxgk.HAllocation(e.Allocation), Write: e.WriteOperation}
	}
	return out
}

// PfnRenderCb submits a command buffer ("WDDM operation flow"). Rule FT-RENDER:
// only on the immediate context's thread.
//
// It also hands the UMD its next command buffer and lists, of the sizes it
// asked for in NewCommandBufferSize, NewAllocationListSize and
// NewPatchLocationListSize as far as the kernel grants them ("D3DDDICB_RENDER
// structure", [in/out]). The Call event's `next=` is the command buffer
// asked for, the Return's the one granted.
func (c *callbacks) PfnRenderCb(_ ddi.HRTDEVICE, a *ddi.RenderCb) (err error) {
	args := submitCbArgs(4*len(a.Commands), c.cmdBufSize, len(a.AllocationList), a.NewCommandBufferSize)
	done := c.enter("pfnRenderCb", trace.Event{Obj: c.name, Args: args})
	defer func() { done.end(err) }()
	c.preempt()
	req := dxgk.ContextInfo{CommandBufferSize: a.NewCommandBufferSize, AllocationListSize: a.NewAllocationListSize, PatchLocationListSize: a.NewPatchLocationListSize}
	_, got, err := c.rt.cfg.Kernel.RenderNext(dxgk.HContext(a.Context), a.Commands, kernelList(a.AllocationList), req)
	if err != nil {
		c.fail(err)
		return kernelErr(err)
	}
	a.NewCommandBufferSize, a.NewAllocationListSize, a.NewPatchLocationListSize = got.CommandBufferSize, got.AllocationListSize, got.PatchLocationListSize
	c.mu.Lock()
	c.cmdBufSize = got.CommandBufferSize
	c.mu.Unlock()
	done.ev.Args = submitCbArgs(4*len(a.Commands), int(argInt(args, trace.KeySize)), len(a.AllocationList), got.CommandBufferSize)
	return nil
}

// PfnPresentCb asks the kernel to present: a source allocation, a
// destination (0: the kernel picks) and the model, no command buffer
// ("PFND3DDDI_PRESENTCB": it "copies content from a source allocation";
// "DXGIDDICB_PRESENT"). The KMD's DxgkDdiPresent builds the present's
// commands (dxgk.Present).
func (c *callbacks) PfnPresentCb(_ ddi.HRTDEVICE, a *ddi.PresentCb) (err error) {
	var ab trace.ArgBuilder
	ab.Str(trace.KeySrc, fmt.Sprintf("a%d", a.SrcAllocation))
	if a.DstAllocation != 0 {
		ab.Str(trace.KeyDst, fmt.Sprintf("a%d", a.DstAllocation))
	}
	ab.Str(trace.KeyFlags, a.Flags.String())
	done := c.enter("pfnPresentCb", trace.Event{Obj: c.name, Args: ab.Args()})
	defer func() { done.end(err) }()
	c.preempt()
	// D3DDDICB_PRESENT carries no SyncInterval: the runtime, which has it
	// from IDXGISwapChain::Present, hands it to the kernel itself
	// (D3DKMT_PRESENT's FlipInterval).
	_, err = c.rt.cfg.Kernel.Present(dxgk.PresentInfo{Context: dxgk.HContext(a.Context), Src: dxgk.HAllocation(a.SrcAllocation),
		Dst: dxgk.HAllocation(a.DstAllocation), Flip: a.Flags.Flip, SyncInterval: c.presentSync.Load()})
	if err != nil {
		c.fail(err)
		return kernelErr(err)
	}
	return nil
}

// fail records a submission the kernel refused: the device is lost.
func (c *callbacks) fail(err error) {
	c.mu.Lock()
	if c.removedErr == nil {
		c.removedErr = err
	}
	c.mu.Unlock()
}

// PfnLockCb locks the allocation through the video memory manager, which
// waits inside the call for the GPU work the access conflicts with (the
// wait shows on the calling thread, within pfnLockCb), fails under
// DonotWait, or renames under Discard (dxgk.LockWith). A rename gives the
// new instance a new handle, returned in D3DDDICB_LOCK's hAllocation
// ([in/out]: "the video memory manager creates a new instance of the
// allocation and returns a new handle that represents the new instance");
// the Return event names it.
func (c *callbacks) PfnLockCb(_ ddi.HRTDEVICE, a *ddi.LockCb) (err error) {
	f := dxgk.LockFlags{ReadOnly: a.Flags.ReadOnly, WriteOnly: a.Flags.WriteOnly, DonotWait: a.Flags.DonotWait,
		IgnoreSync: a.Flags.IgnoreSync, Discard: a.Flags.Discard}
	var b trace.ArgBuilder
	done := c.enter("pfnLockCb", trace.Event{Handle: fmt.Sprintf("a%d", a.Allocation), Args: b.Str(trace.KeyFlags, f.String()).Args()})
	defer func() { done.end(err) }()
	if k, ok := c.rt.cfg.Kernel.(lockKernel); ok {
		var h dxgk.HAllocation
		a.Data, h, err = k.LockWith(c.kdev, dxgk.HAllocation(a.Allocation), f)
		if err == nil && ddi.HALLOCATION(h) != a.Allocation {
			c.renamed(a.Allocation, ddi.HALLOCATION(h))
			done.ev.Msg = fmt.Sprintf("renamed: the new instance's handle is a%d", h)
			done.ev.Handle = fmt.Sprintf("a%d", h)
			a.Allocation = ddi.HALLOCATION(h)
		}
	} else {
		a.Data, err = c.rt.cfg.Kernel.Lock(c.kdev, dxgk.HAllocation(a.Allocation))
	}
	return kernelErr(err)
}

// renamed moves the runtime's record of an allocation to the handle of its
// new instance: the UMD deallocates it under that handle.
func (c *callbacks) renamed(from, to ddi.HALLOCATION) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.allocSize[from]; ok {
		delete(c.allocSize, from)
		c.allocSize[to] = n
	}
}

// lockKernel is the video memory manager's lock with pfnLockCb's flags
// (*dxgk.Dxgkrnl); a kernel without it locks without synchronising.
type lockKernel interface {
	LockWith(dev dxgk.HDevice, h dxgk.HAllocation, f dxgk.LockFlags) ([]byte, dxgk.HAllocation, error)
}

var _ lockKernel = (*dxgk.Dxgkrnl)(nil)

func (c *callbacks) PfnUnlockCb(_ ddi.HRTDEVICE, h ddi.HALLOCATION) (err error) {
	done := c.enter("pfnUnlockCb", trace.Event{Handle: fmt.Sprintf("a%d", h)})
	defer func() { done.end(err) }()
	return kernelErr(c.rt.cfg.Kernel.Unlock(c.kdev, dxgk.HAllocation(h)))
}

// PfnWaitForSynchronizationObjectCb inserts a wait in the context's DMA
// stream (D3DKMTWaitForSynchronizationObject): the context's later DMA
// buffers run once the objects reach the value. It returns at once: the GPU
// waits, not the caller. It names the HCONTEXT: one thread at a time (rule
// FT-HCTX).
func (c *callbacks) PfnWaitForSynchronizationObjectCb(_ ddi.HRTDEVICE, w *ddi.WaitForSynchronizationObjectCb) (err error) {
	return c.gpuWait("pfnWaitForSynchronizationObjectCb", w)
}

// PfnWaitForSynchronizationObjectFromGpuCb is the WDDM 2.0 form for
// monitored fences ("Context Monitoring", GPU wait): "The graphics
// kernel queues the dependency to its internal database, then returns immediately to the UMD
// so that it can continue to queue work behind the wait operation".
func (c *callbacks) PfnWaitForSynchronizationObjectFromGpuCb(_ ddi.HRTDEVICE, w *ddi.WaitForSynchronizationObjectCb) (err error) {
	return c.gpuWait("pfnWaitForSynchronizationObjectFromGpuCb", w)
}

func (c *callbacks) gpuWait(name string, w *ddi.WaitForSynchronizationObjectCb) (err error) {
	obj := ""
	objs := make([]dxgk.HSyncObject, len(w.ObjectHandleArray))
	for i, h := range w.ObjectHandleArray {
		objs[i] = dxgk.HSyncObject(h)
	}
	if len(objs) > 0 {
		obj = objs[0].String()
	}
	var b trace.ArgBuilder
	ev := trace.Event{Obj: obj, Fence: w.FenceValue, Args: b.Str(trace.KeyDev, c.name).Str(trace.KeyHctx, fmt.Sprintf("c%d", w.Context)).Args()}
	done := c.enter(name, ev)
	defer func() { done.end(err) }()
	c.preempt()
	k, ok := c.rt.cfg.Kernel.(gpuWaitKernel)
	if !ok {
		return kernelErr(fmt.Errorf("d3d11: the kernel has no GPU-side waits"))
	}
	return kernelErr(k.WaitForSynchronizationObject(dxgk.HContext(w.Context), objs, w.FenceValue))
}

// gpuWaitKernel is Dxgkrnl's GPU-side wait (*dxgk.Dxgkrnl).
type gpuWaitKernel interface {
	WaitForSynchronizationObject(ctx dxgk.HContext, objs []dxgk.HSyncObject, value uint64) error
}

var _ gpuWaitKernel = (*dxgk.Dxgkrnl)(nil)

func (c *callbacks) CompletedFence(_ ddi.HRTDEVICE, h ddi.HCONTEXT) uint64 {
	return c.rt.cfg.Kernel.CompletedFence(dxgk.HContext(h))
}

// PfnPerformAmortizedProcessingCb is the runtime's amortized work ("Changes
// from Direct3D 10":
// the API uses it "to trim high watermarks and flush out its deferred
// object destruction queue, among other things"): it trims the high-water mark of its
// context-local handle allocator back to what is in use and, called by the
// immediate context, drains the runtime's destruction queue (objects
// released while bound, queued when the immediate context unbound them).
// Both are visible in the trace (TrimHighWaterMarks, DrainDestroyQueue).
//
// The core-layer handle says which context calls: a deferred context that
// ran out of command-buffer space calls it with its own (rule AM-DC); the
// page asks "at least" the trimming of it, and the queue waits for the
// immediate context's thread, whose bindings put the objects there.
func (c *callbacks) PfnPerformAmortizedProcessingCb(core ddi.HRTCORELAYER) {
	c.mu.Lock()
	ctx, immediate := "IC", true
	if x := c.contexts[core]; x != nil {
		ctx, immediate = x.name, !x.Deferred()
	}
	c.mu.Unlock()
	done := c.enter("pfnPerformAmortizedProcessingCb", trace.Event{Obj: c.name, Ctx: ctx})
	high, open, freed := c.dev().trimCLS() // (memory.go)
	c.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "TrimHighWaterMarks", Obj: c.name,
		Args: clsArgs(high, open), Msg: fmt.Sprintf("context-local handle allocator trimmed from %d to %d slots, %d bytes freed", high, open, freed)})
	if immediate {
		c.dev().drainDestroyQueue(ctx, "amortized")
	}
	done.end(nil)
}

// The state-refresh callbacks re-send one part of the context's bound state
// to the driver through its DDI, and say in the trace what they showed
// (bound: the immediate handles, or "none"). "Supporting command lists":
// inside CommandListExecute they still show the bindings of before the
// call; the runtime clears its bindings when the call returns, so from the
// driver's next DDI on they show the cleared state (rule CL-EXEC).

// refresh runs one state-refresh callback for the context core names.
func (c *callbacks) refresh(core ddi.HRTCORELAYER, name string, bound func(x *DeviceContext) string, resend func(x *DeviceContext, u ddi.Device)) {
	c.mu.Lock()
	x := c.contexts[core]
	c.mu.Unlock()
	if x == nil {
		return
	}
	args := noneBound
	if b := bound(x); b != "none" {
		args = strArg(trace.KeyBound, b)
	}
	done := c.enter(name, trace.Event{Ctx: x.name, Args: args})
	resend(x, x.ddi.umd)
	done.end(nil)
}

// noneBound is a refresh's Args when it shows nothing bound (most of them).
var noneBound = strArg(trace.KeyBound, "none")

// slotRange clips [start, start+count) to n slots.
func slotRange(start, count uint32, n int) (int, int) {
	lo := min(int(start), n)
	return lo, min(lo+int(count), n)
}

// shown is what a refresh shows of objects: their immediate handles, or
// "none".
func shown[T Object](vs ...T) string {
	var hs []string
	for _, o := range vs {
		if !isNil(o) {
			h, _ := ddiHandle(o)
			hs = append(hs, handleName(h))
		}
	}
	if len(hs) == 0 {
		return "none"
	}
	return strings.Join(hs, " ")
}

// A refresh of a table of slots looks only below the table's mark (the
// slots at and above it are empty): marked is the part of slots[lo:hi]
// below mark n.
func marked[T any](slots []T, lo, hi, n int) []T { return slots[lo:max(lo, min(hi, n))] }

// refreshed is the handles a refresh sends for slots[lo:hi] (the same
// DDI call, whatever the mark: every slot of the range): those of the
// slots below mark n, then zeros. With nothing below the mark it is a
// slice of zeros, shared and never written (the driver copies what it is
// sent).
func refreshed[T any, H ~uint32](slots []T, lo, hi, n int, zeros []H, h func(T) H) []H {
	bound := marked(slots, lo, hi, n)
	if len(bound) == 0 {
		return zeros[:hi-lo]
	}
	hs := make([]H, hi-lo)
	for i, o := range bound {
		hs[i] = h(o)
	}
	return hs
}

// The zeros refreshed sends for empty slots.
var (
	noResources [iaSlots]ddi.HRESOURCE // (iaSlots >= ddi.ConstantBufferSlots)
	noSRVs      [ddi.ShaderResourceSlots]ddi.HSHADERRESOURCEVIEW
	noSamplers  [ddi.SamplerSlots]ddi.HSAMPLER
)

func (c *callbacks) PfnStateIaVertexBufCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.refresh(core, "pfnStateIaVertexBufCb", func(x *DeviceContext) string {
		lo, hi := slotRange(start, count, iaSlots)
		return shown(marked(x.vb[:], lo, hi, int(x.vbN))...)
	}, func(x *DeviceContext, u ddi.Device) {
		lo, hi := slotRange(start, count, iaSlots)
		if hi > lo {
			u.IaSetVertexBuffers(x.h, uint32(lo), refreshed(x.vb[:], lo, hi, int(x.vbN), noResources[:], x.resH), x.vbStride[lo:hi], x.vbOffset[lo:hi])
		}
	})
}

func (c *callbacks) PfnStateIaInputLayoutCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateIaInputLayoutCb", func(x *DeviceContext) string { return shown(x.layout) }, func(x *DeviceContext, u ddi.Device) {
		var h uint32
		if x.layout != nil {
			h = x.local(x.layout)
		}
		u.IaSetInputLayout(x.h, ddi.HELEMENTLAYOUT(h))
	})
}

func (c *callbacks) PfnStateIaIndexBufCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateIaIndexBufCb", func(x *DeviceContext) string { return shown(x.ib) }, func(x *DeviceContext, u ddi.Device) {
		u.IaSetIndexBuffer(x.h, x.resH(x.ib), x.ibFormat, x.ibOffset)
	})
}

func (c *callbacks) PfnStateIaPrimitiveTopologyCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateIaPrimitiveTopologyCb", func(x *DeviceContext) string {
		if x.topo == ddi.TopologyUndefined {
			return "none"
		}
		return fmt.Sprint(x.topo)
	}, func(x *DeviceContext, u ddi.Device) {
		u.IaSetTopology(x.h, x.topo)
	})
}

func (c *callbacks) PfnStateVsShaderCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateVsShaderCb", func(x *DeviceContext) string { return shown(x.vs) }, func(x *DeviceContext, u ddi.Device) {
		u.VsSetShader(x.h, x.shH(x.vs))
	})
}

func (c *callbacks) PfnStatePsShaderCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStatePsShaderCb", func(x *DeviceContext) string { return shown(x.ps) }, func(x *DeviceContext, u ddi.Device) {
		u.PsSetShader(x.h, x.shH(x.ps))
	})
}

func (c *callbacks) stateCB(core ddi.HRTCORELAYER, name string, stage Stage, start, count uint32) {
	c.refresh(core, name, func(x *DeviceContext) string {
		lo, hi := slotRange(start, count, ddi.ConstantBufferSlots)
		t := &x.stages[stage]
		return shown(marked(t.cb[:], lo, hi, int(t.cbN))...)
	}, func(x *DeviceContext, u ddi.Device) {
		lo, hi := slotRange(start, count, ddi.ConstantBufferSlots)
		if hi == lo {
			return
		}
		t := &x.stages[stage]
		hs := refreshed(t.cb[:], lo, hi, int(t.cbN), noResources[:], x.resH)
		if stage == StageVS {
			u.VsSetConstantBuffers(x.h, uint32(lo), hs)
		} else {
			u.PsSetConstantBuffers(x.h, uint32(lo), hs)
		}
	})
}

func (c *callbacks) PfnStateVsConstBufCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.stateCB(core, "pfnStateVsConstBufCb", StageVS, start, count)
}

func (c *callbacks) PfnStatePsConstBufCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.stateCB(core, "pfnStatePsConstBufCb", StagePS, start, count)
}

func (c *callbacks) srvCB(core ddi.HRTCORELAYER, name string, stage Stage, start, count uint32) {
	c.refresh(core, name, func(x *DeviceContext) string {
		lo, hi := slotRange(start, count, ddi.ShaderResourceSlots)
		t := &x.stages[stage]
		return shown(marked(t.srv[:], lo, hi, int(t.srvN))...)
	}, func(x *DeviceContext, u ddi.Device) {
		lo, hi := slotRange(start, count, ddi.ShaderResourceSlots)
		if hi == lo {
			return
		}
		t := &x.stages[stage]
		hs := refreshed(t.srv[:], lo, hi, int(t.srvN), noSRVs[:], func(v *View) ddi.HSHADERRESOURCEVIEW { return ddi.HSHADERRESOURCEVIEW(x.viewH(v)) })
		if stage == StageVS {
			u.VsSetShaderResources(x.h, uint32(lo), hs)
		} else {
			u.PsSetShaderResources(x.h, uint32(lo), hs)
		}
	})
}

func (c *callbacks) PfnStateVsSrvCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.srvCB(core, "pfnStateVsSrvCb", StageVS, start, count)
}

func (c *callbacks) PfnStatePsSrvCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.srvCB(core, "pfnStatePsSrvCb", StagePS, start, count)
}

func (c *callbacks) samplerCB(core ddi.HRTCORELAYER, name string, stage Stage, start, count uint32) {
	c.refresh(core, name, func(x *DeviceContext) string {
		lo, hi := slotRange(start, count, ddi.SamplerSlots)
		t := &x.stages[stage]
		return shown(marked(t.samp[:], lo, hi, int(t.sampN))...)
	}, func(x *DeviceContext, u ddi.Device) {
		lo, hi := slotRange(start, count, ddi.SamplerSlots)
		if hi == lo {
			return
		}
		t := &x.stages[stage]
		hs := refreshed(t.samp[:], lo, hi, int(t.sampN), noSamplers[:], func(s *State) ddi.HSAMPLER { return ddi.HSAMPLER(x.stH(s)) })
		if stage == StageVS {
			u.VsSetSamplers(x.h, uint32(lo), hs)
		} else {
			u.PsSetSamplers(x.h, uint32(lo), hs)
		}
	})
}

func (c *callbacks) PfnStateVsSamplerCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.samplerCB(core, "pfnStateVsSamplerCb", StageVS, start, count)
}

func (c *callbacks) PfnStatePsSamplerCb(core ddi.HRTCORELAYER, start, count uint32) {
	c.samplerCB(core, "pfnStatePsSamplerCb", StagePS, start, count)
}

func (c *callbacks) PfnStateOmRenderTargetsCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateOmRenderTargetsCb", func(x *DeviceContext) string { return shown(append(x.renderTargets(), x.dsv)...) }, func(x *DeviceContext, u ddi.Device) {
		var rtvs []ddi.HRENDERTARGETVIEW
		for _, v := range x.renderTargets() {
			rtvs = append(rtvs, ddi.HRENDERTARGETVIEW(x.viewH(v)))
		}
		u.SetRenderTargets(x.h, rtvs, ddi.HDEPTHSTENCILVIEW(x.viewH(x.dsv)))
	})
}

func (c *callbacks) PfnStateOmBlendStateCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateOmBlendStateCb", func(x *DeviceContext) string { return shown(x.blend) }, func(x *DeviceContext, u ddi.Device) {
		u.SetBlendState(x.h, ddi.HBLENDSTATE(x.stH(x.blend)), x.blendFactor, x.sampleMask)
	})
}

func (c *callbacks) PfnStateOmDepthStateCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateOmDepthStateCb", func(x *DeviceContext) string { return shown(x.depth) }, func(x *DeviceContext, u ddi.Device) {
		u.SetDepthStencilState(x.h, ddi.HDEPTHSTENCILSTATE(x.stH(x.depth)), x.stencilRef)
	})
}

func (c *callbacks) PfnStateRsRastStateCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateRsRastStateCb", func(x *DeviceContext) string { return shown(x.rs) }, func(x *DeviceContext, u ddi.Device) {
		u.SetRasterizerState(x.h, ddi.HRASTERIZERSTATE(x.stH(x.rs)))
	})
}

func (c *callbacks) PfnStateRsScissorCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateRsScissorCb", func(x *DeviceContext) string {
		if len(x.scissors) == 0 {
			return "none"
		}
		r := x.scissors[0]
		return fmt.Sprintf("%d rects, %d,%d..%d,%d", len(x.scissors), r.Left, r.Top, r.Right, r.Bottom)
	}, func(x *DeviceContext, u ddi.Device) {
		u.SetScissorRects(x.h, x.scissors)
	})
}

func (c *callbacks) PfnStateRsViewportsCb(core ddi.HRTCORELAYER) {
	c.refresh(core, "pfnStateRsViewportsCb", func(x *DeviceContext) string {
		if vp := x.viewport(); vp != nil {
			return fmt.Sprintf("%gx%g@%g,%g", vp.Width, vp.Height, vp.X, vp.Y)
		}
		return "none"
	}, func(x *DeviceContext, u ddi.Device) {
		u.SetViewports(x.h, x.vps)
	})
}

// PfnSetDisplayModeCb switches the display to a primary (the D3DKMT call
// behind it is the display's mode set); the runtime records the mode.
func (c *callbacks) PfnSetDisplayModeCb(_ ddi.HRTDEVICE, a ddi.HALLOCATION) error {
	done := c.enter("pfnSetDisplayModeCb", trace.Event{Obj: c.name, Handle: fmt.Sprintf("a%d", a)})
	c.mu.Lock()
	c.displayMode = a
	c.mu.Unlock()
	done.end(nil)
	return nil
}

// PfnEscapeCb carries a driver-private escape to the kernel (D3DKMTEscape).
// The simulated escapes ask Dxgkrnl for the context's completed fence
// (code 1) or its last submitted one (any other code). A context-bound
// escape names the HCONTEXT: one thread at a time (rule FT-HCTX).
func (c *callbacks) PfnEscapeCb(_ ddi.HRTDEVICE, a *ddi.EscapeCb) (err error) {
	hctx := "0"
	if a.Context != 0 {
		hctx = fmt.Sprintf("c%d", a.Context)
	}
	done := c.enter("pfnEscapeCb", trace.Event{Obj: c.name, Args: escapeArgs(hctx, a.Code)})
	defer func() { done.end(err) }()
	kctx := dxgk.HContext(a.Context)
	if kctx == 0 {
		kctx = c.kctx
	}
	if a.Code == 1 {
		a.Result = c.rt.cfg.Kernel.CompletedFence(kctx)
	} else {
		a.Result = c.rt.cfg.Kernel.SubmittedFence(kctx)
	}
	return nil
}

// PfnSetErrorCb takes a driver error for one context: each deferred context
// reports through its own core-layer handle ("Using context-local DDI
// handles", rule ERR-DC).
//
// The driver may say why (an *hresult.Error, as its shader DDIs do): the
// callback's event carries the text, and the failed call's error says it.
func (c *callbacks) PfnSetErrorCb(core ddi.HRTCORELAYER, err error) {
	hr := hresult.Of(err)
	var why *hresult.Error
	if !errors.As(err, &why) || why.Code != hr {
		why = nil
	}
	c.mu.Lock()
	ctx := c.contexts[core]
	c.mu.Unlock()
	name := "IC"
	if ctx != nil {
		name = ctx.name
	}
	ev := trace.Event{HR: hr.Name(), Ctx: name}
	if why != nil {
		ev.Msg = why.Msg
	}
	done := c.enter("pfnSetErrorCb", ev)
	done.end(nil)
	// A create DDI in progress on this thread fails with it (ddiCall).
	table := (*ddiTable)(nil)
	if ctx != nil {
		table = &ctx.ddi
	} else if imm := c.dev().imm; imm != nil {
		table = &imm.ddi
	}
	if table != nil {
		table.noteError(c.rt.cfg.Sim.Thread(), hr)
		if why != nil {
			table.noteCause(c.rt.cfg.Sim.Thread(), why)
		}
	}
	switch {
	case hr == hresult.D3DDDIERR_DEVICEREMOVED:
		c.fail(hr)
	case ctx != nil && ctx.recycling():
		// RecycleCommandList may only report device removal; anything else
		// is critical ("Supporting command lists", rule CL-RECYCLE-ERR).
		c.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "pfnSetErrorCb", Ctx: name,
			HR: hr.Name(), Msg: "D3D11 CORRUPTION: RecycleCommandList reported " + hr.Name() + ": only D3DDDIERR_DEVICEREMOVED is allowed there; treated as critical"})
	case ctx != nil && hr == hresult.E_OUTOFMEMORY:
		ctx.outOfMemory() // a deferred context's recording is thrown away (afterDDI)
	}
}

// submitCbArgs is pfnRenderCb's payload: the bytes submitted, the command
// buffer's size, the allocation list's length and the size of the next
// command buffer (asked for on the Call, granted on the Return).
func submitCbArgs(bytes, size, allocs, next int) trace.Args {
	var b trace.ArgBuilder
	b.Int(trace.KeyBytes, int64(bytes)).Int(trace.KeySize, int64(size)).Int(trace.KeyAllocs, int64(allocs))
	if next > 0 {
		b.Int(trace.KeyNext, int64(next))
	}
	return b.Args()
}

func argInt(a trace.Args, k trace.Key) int64 {
	v, _ := a.Int(k)
	return v
}

// clsArgs is the trim message's payload: the allocator's high mark and the
// slots in use.
func clsArgs(high, open int) trace.Args {
	var b trace.ArgBuilder
	return b.Int(trace.KeyCLSHigh, int64(high)).Int(trace.KeyCLSInUse, int64(open)).Args()
}

// escapeArgs is pfnEscapeCb's payload: the HCONTEXT named (0: none) and the
// code.
func escapeArgs(hctx string, code uint32) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyHctx, hctx).Uint(trace.KeyCode, uint64(code)).Args()
}
