package dxgk

import (
	"slices"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// CreateDevice creates a device: DxgkDdiCreateDevice, WDDM operation flow, step 1 (which
// comes before the UMD's CreateDevice). name is for traces and messages.
func (k *Dxgkrnl) CreateDevice(name string) (HDevice, error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	k.lastDevice++
	h := HDevice(k.lastDevice)
	k.mu.Unlock()
	args := dxgkddi.CreateDeviceArgs{Device: h, Name: name}
	if err := k.ddi("DxgkDdiCreateDevice", trace.Event{Handle: h.String(), Obj: name},
		func() error { return k.drv.DxgkDdiCreateDevice(&args) }); err != nil {
		return 0, err
	}
	k.mu.Lock()
	k.devices[h] = &device{h: h, hs: h.String(), name: name, info: args.Info}
	k.mu.Unlock()
	return h, nil
}

// DestroyDevice waits until the GPU is done with the device's work, destroys
// its contexts and allocations and then the device (DxgkDdiDestroyContext,
// DxgkDdiDestroyAllocation, DxgkDdiDestroyDevice). A removed device can be
// destroyed too.
func (k *Dxgkrnl) DestroyDevice(h HDevice) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	d := k.devices[h]
	if d == nil || d.destroyed {
		k.mu.Unlock()
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "DestroyDevice: %v is not a device", h)
	}
	d.destroyed = true // no new contexts or allocations
	ctxs := slices.Clone(d.contexts)
	k.mu.Unlock()

	for _, c := range ctxs {
		k.drainContext(c, "DestroyDevice")
	}
	// Another device's buffer may still name one of ours (only with the
	// WDDM-ISOLATE bug switch): wait for those too, and for the worker to
	// free what the DPC handed it, so every DxgkDdiDestroyAllocation comes
	// before DxgkDdiDestroyDevice.
	k.waitUntil(func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		for _, a := range k.allocs {
			if a.dev == d && (a.refs > 0 || a.freeing) {
				return false
			}
		}
		return true
	}, 0)
	for _, c := range ctxs {
		k.destroyContext(c)
	}
	k.mu.Lock()
	var own []*allocation
	for _, a := range k.allocs {
		if a.dev == d {
			own = append(own, a)
		}
	}
	slices.SortFunc(own, func(x, y *allocation) int { return int(x.h) - int(y.h) })
	var free []*allocation
	for _, a := range own {
		a.destroyed = true
		if a.refs == 0 && !a.freeing {
			a.freeing = true
			free = append(free, a)
		}
	}
	k.mu.Unlock()
	for _, a := range free {
		k.free(a)
	}
	err := k.ddi("DxgkDdiDestroyDevice", trace.Event{Handle: h.String(), Obj: d.name},
		func() error { return k.drv.DxgkDdiDestroyDevice(h) })
	k.mu.Lock()
	delete(k.devices, h)
	k.mu.Unlock()
	return err
}

// CreateContext creates a GPU context on the device's node 0 (WDDM operation
// flow, step 3, inside the UMD's pfnCreateContextCb): see CreateContextOnNode.
func (k *Dxgkrnl) CreateContext(dev HDevice) (ContextInfo, error) {
	return k.CreateContextOnNode(dev, 0)
}

// CreateContextOnNode creates a GPU context on node (engine) node, the
// NodeOrdinal of D3DDDICB_CREATECONTEXT: DxgkDdiCreateContext. It returns the
// sizes of the context's command buffer and lists. Every DMA buffer of the
// context runs on that node, in submission order (with the SALVIA option,
// Config.OutOfOrder, the scheduler places buffers on any node instead).
func (k *Dxgkrnl) CreateContextOnNode(dev HDevice, node int) (ContextInfo, error) {
	k.charge(k.cfg.Costs.Transition)
	if node < 0 || node >= len(k.engines) {
		return ContextInfo{}, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "CreateContext: node %d, the adapter has %d", node, len(k.engines))
	}
	k.mu.Lock()
	d := k.devices[dev]
	switch {
	case d == nil || d.destroyed:
		k.mu.Unlock()
		return ContextInfo{}, errorf(dxgkddi.STATUS_INVALID_HANDLE, "CreateContext: %v is not a device", dev)
	case d.removed:
		k.mu.Unlock()
		return ContextInfo{}, d.removedErr("CreateContext")
	}
	k.lastCtx++
	h := HContext(k.lastCtx)
	k.mu.Unlock()
	args := dxgkddi.CreateContextArgs{Device: dev, Context: h, Engine: node}
	if err := k.ddi("DxgkDdiCreateContext", trace.Event{Handle: h.String(), Obj: d.name, Args: deviceEngine(dev, node)},
		func() error { return k.drv.DxgkDdiCreateContext(&args) }); err != nil {
		return ContextInfo{}, err
	}
	pick := func(cfg, ctx, dev, def int) int {
		for _, v := range []int{cfg, ctx, dev} {
			if v > 0 {
				return v
			}
		}
		return def
	}
	info := ContextInfo{
		Context:               h,
		CommandBufferSize:     pick(k.cfg.CommandBufferSize, args.Info.DmaBufferSize, d.info.DmaBufferSize, DefaultCommandBufferSize),
		AllocationListSize:    pick(k.cfg.AllocationListSize, args.Info.AllocationListSize, d.info.AllocationListSize, DefaultAllocationListSize),
		PatchLocationListSize: pick(k.cfg.PatchLocationListSize, args.Info.PatchLocationListSize, d.info.PatchLocationListSize, DefaultPatchLocationListSize),
	}
	c := &context{h: h, hs: h.String(), dev: d, engine: node, info: info, first: info, dma: map[uint64]uint64{}}
	k.mu.Lock()
	k.contexts[h] = c
	d.contexts = append(d.contexts, c)
	k.mu.Unlock()
	return info, nil
}

// DestroyContext waits for the context's work and destroys it
// (DxgkDdiDestroyContext).
func (k *Dxgkrnl) DestroyContext(h HContext) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	c := k.contexts[h]
	k.mu.Unlock()
	if c == nil || c.destroyed {
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "DestroyContext: %v is not a context", h)
	}
	k.drainContext(c, "DestroyContext")
	return k.destroyContext(c)
}

func (k *Dxgkrnl) destroyContext(c *context) error {
	k.mu.Lock()
	if c.destroyed {
		k.mu.Unlock()
		return nil
	}
	c.destroyed = true
	k.mu.Unlock()
	err := k.ddi("DxgkDdiDestroyContext", trace.Event{Handle: c.h.String(), Obj: c.dev.name},
		func() error { return k.drv.DxgkDdiDestroyContext(c.h) })
	k.mu.Lock()
	delete(k.contexts, c.h)
	c.dev.contexts = slices.DeleteFunc(c.dev.contexts, func(x *context) bool { return x == c })
	k.mu.Unlock()
	return err
}

// drainContext waits until every fence of the context is done or cancelled.
func (k *Dxgkrnl) drainContext(c *context, why string) {
	k.mu.Lock()
	fence, done := c.submitted, c.signalled >= c.submitted
	k.mu.Unlock()
	if !done {
		k.waitFence(c, fence, " before "+why, WaitReason{})
	}
}

// Removed reports whether the device was removed (by a TDR).
func (k *Dxgkrnl) Removed(dev HDevice) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	d := k.devices[dev]
	return d != nil && d.reportsRemoval()
}

// CompletedFence is the context's fence value as the runtime sees it (the
// monitored fence the UMD reads without a kernel call): the last fence whose
// DMA buffer the GPU finished. After the device is removed every submitted
// fence reads as signalled (cancelled), so nothing polls forever.
//
// Asking is also when a hang is noticed by a thread that polls instead of
// waiting (GetData, Map with DO_NOT_WAIT): see watchdog.
func (k *Dxgkrnl) CompletedFence(ctx HContext) uint64 {
	k.watchdog()
	k.mu.Lock()
	defer k.mu.Unlock()
	if c := k.contexts[ctx]; c != nil {
		return c.signalled
	}
	return 0
}

// SubmittedFence is the last fence Render or Present returned for the
// context.
func (k *Dxgkrnl) SubmittedFence(ctx HContext) uint64 {
	k.mu.Lock()
	defer k.mu.Unlock()
	if c := k.contexts[ctx]; c != nil {
		return c.submitted
	}
	return 0
}
