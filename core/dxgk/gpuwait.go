package dxgk

import (
	"errors"
	"fmt"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// GPU-side waits: pfnWaitForSynchronizationObjectCb "inserts a wait for the
// specified synchronization objects in the specified context DMA stream"
// ("PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB callback function
// (d3dumddi.h)"). The call returns at once; it is the context that waits:
// the DMA buffers submitted on it after the wait are not scheduled until
// the objects reach the value. Other contexts' buffers run meanwhile. This
// is what ID3D11DeviceContext4::Wait asks for ("waits until the specified
// fence reaches or exceeds the specified value before future work can
// begin").

// ErrHeld is what Idle's error also matches when queued DMA buffers can
// never run: a GPU-side wait holds them and nothing left can signal it.
var ErrHeld = errors.New("a GPU-side wait holds queued work")

// gpuWait is a wait queued in a context's stream.
type gpuWait struct {
	after uint64 // the context's last fence when queued: later buffers wait
	obj   *syncObject
	value uint64
}

// reached is whether the wait is over: the object took the value, or it
// was destroyed (nothing can signal it any more).
func (k *Dxgkrnl) reachedLocked(w gpuWait) bool {
	return w.obj.value >= w.value || k.syncs[w.obj.h] != w.obj
}

// WaitForSynchronizationObject queues a wait in the context's stream
// (D3DKMTWaitForSynchronizationObject, behind
// pfnWaitForSynchronizationObjectCb): the context's DMA buffers submitted
// from now on run once every object has reached value. It never blocks the
// calling thread. An object may belong to another device of the adapter (as
// a shared fence opened there would).
func (k *Dxgkrnl) WaitForSynchronizationObject(ctx HContext, objs []HSyncObject, value uint64) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	c := k.contexts[ctx]
	switch {
	case c == nil || c.destroyed:
		k.mu.Unlock()
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "WaitForSynchronizationObject: %v is not a context", ctx)
	case c.dev.reportsRemoval():
		k.mu.Unlock()
		return c.dev.removedErr("WaitForSynchronizationObject")
	case len(objs) == 0:
		k.mu.Unlock()
		return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "WaitForSynchronizationObject on %v: no object", ctx)
	}
	var evs []trace.Event
	for _, h := range objs {
		o := k.syncs[h]
		if o == nil {
			k.mu.Unlock()
			return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "WaitForSynchronizationObject on %v: %v is not a synchronization object", ctx, h)
		}
		w := gpuWait{after: c.submitted, obj: o, value: value}
		msg := fmt.Sprintf("%v's DMA buffers after fence %d wait on the GPU until %s (%v) reaches %d", c.h, w.after, o.name, o.h, value)
		if k.reachedLocked(w) {
			msg += fmt.Sprintf(": it is at %d already", o.value)
		} else {
			c.gpuWaits = append(c.gpuWaits, w)
		}
		evs = append(evs, trace.Event{Handle: o.h.String(), Obj: o.name, Fence: value, Args: hctxArg(c.h), Msg: msg})
	}
	k.mu.Unlock()
	for _, ev := range evs {
		k.event(trace.Message, "GpuWaitQueued", ev)
	}
	return nil
}

// heldLocked is whether a queued DMA buffer must not be scheduled yet: a
// wait queued before it on its context is not over.
func (k *Dxgkrnl) heldLocked(b *dmaBuffer) bool {
	if b.ctx == nil || b.dev.removed {
		return false
	}
	for _, w := range b.ctx.gpuWaits {
		if b.fence > w.after && !k.reachedLocked(w) {
			return true
		}
	}
	return false
}

// releaseGpuWaits ends the GPU-side waits that are over (after a signal),
// each with a GpuWaitDone event, and kicks the scheduler for the buffers they
// held.
func (k *Dxgkrnl) releaseGpuWaits() {
	var evs []trace.Event
	k.mu.Lock()
	for h := HContext(1); h <= HContext(k.lastCtx); h++ {
		c := k.contexts[h]
		if c == nil || len(c.gpuWaits) == 0 {
			continue
		}
		keep := c.gpuWaits[:0]
		for _, w := range c.gpuWaits {
			if !k.reachedLocked(w) {
				keep = append(keep, w)
				continue
			}
			state := fmt.Sprintf("is at %d", w.obj.value)
			if k.syncs[w.obj.h] != w.obj {
				state = "was destroyed"
			}
			evs = append(evs, trace.Event{Handle: w.obj.h.String(), Obj: w.obj.name, Fence: w.value, Args: hctxArg(c.h),
				Msg: fmt.Sprintf("%s (%v) %s: %v's DMA buffers after fence %d may run", w.obj.name, w.obj.h, state, c.h, w.after)})
		}
		c.gpuWaits = keep
	}
	k.mu.Unlock()
	for _, ev := range evs {
		k.event(trace.Message, "GpuWaitDone", ev)
	}
	if len(evs) > 0 {
		k.s.Schedule(k.s.Now(), "kernel", k.kick)
	}
}

// heldReason says which GPU-side wait holds queued DMA buffers ("" if
// none): for a wait that can never end.
func (k *Dxgkrnl) heldReason() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, b := range k.schedQ {
		if !k.heldLocked(b) {
			continue
		}
		for _, w := range b.ctx.gpuWaits {
			if b.fence > w.after && !k.reachedLocked(w) {
				return fmt.Sprintf("%s waits on the GPU until %s (%v) reaches %d, it is at %d, and nothing left to run can signal it",
					b.describe(), w.obj.name, w.obj.h, w.value, w.obj.value)
			}
		}
	}
	return ""
}
