package dxgk

import (
	"fmt"
	"strconv"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Synchronization objects: the kernel objects pfnSignalSynchronizationObjectCb
// signals. A signal is not done when the callback returns: it is inserted
// in the context's DMA stream, so the object is signalled once the GPU has
// finished every DMA buffer submitted on that context before it (the
// signal's context fence). Each object here is a fence-type object: it
// holds a 64-bit value, and a signal gives it a new one.

// HSyncObject is a synchronization object's kernel handle, printed s<N>.
type HSyncObject uint32

func (h HSyncObject) String() string { return "s" + strconv.FormatUint(uint64(h), 10) }

type syncObject struct {
	h       HSyncObject
	dev     *device
	name    string
	value   uint64
	pending []queuedSignal // in the order they were queued
}

// queuedSignal is a signal waiting in a context's stream for its fence.
type queuedSignal struct {
	ctx   *context
	fence uint64 // the context's last fence when the signal was queued
	value uint64
}

// CreateSynchronizationObject makes a fence-type synchronization object on
// the device with an initial value; obj names it in the trace.
func (k *Dxgkrnl) CreateSynchronizationObject(dev HDevice, initial uint64, obj string) (HSyncObject, error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	defer k.mu.Unlock()
	d := k.devices[dev]
	if d == nil || d.destroyed {
		return 0, errorf(dxgkddi.STATUS_INVALID_HANDLE, "CreateSynchronizationObject: %v is not a device", dev)
	}
	if k.syncs == nil {
		k.syncs = map[HSyncObject]*syncObject{}
	}
	k.lastSync++
	h := HSyncObject(k.lastSync)
	k.syncs[h] = &syncObject{h: h, dev: d, name: obj, value: initial}
	return h, nil
}

// DestroySynchronizationObject destroys the object; signals still queued
// for it are dropped, and GPU-side waits on it end (nothing can signal it
// any more).
func (k *Dxgkrnl) DestroySynchronizationObject(h HSyncObject) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	if k.syncs[h] == nil {
		k.mu.Unlock()
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "DestroySynchronizationObject: %v is not a synchronization object", h)
	}
	delete(k.syncs, h)
	k.mu.Unlock()
	k.releaseGpuWaits()
	return nil
}

// SignalSynchronizationObject queues a signal of the objects to value in the
// context's stream (D3DKMTSignalSynchronizationObject, behind
// pfnSignalSynchronizationObjectCb): each object takes the value once the
// GPU has finished the work submitted on the context so far — at once when
// that is done already. It returns the context fence the signal follows.
func (k *Dxgkrnl) SignalSynchronizationObject(ctx HContext, objs []HSyncObject, value uint64) (uint64, error) {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	c := k.contexts[ctx]
	if c == nil || c.destroyed {
		k.mu.Unlock()
		return 0, errorf(dxgkddi.STATUS_INVALID_HANDLE, "SignalSynchronizationObject: %v is not a context", ctx)
	}
	if c.dev.reportsRemoval() {
		k.mu.Unlock()
		return 0, c.dev.removedErr("SignalSynchronizationObject")
	}
	for _, h := range objs {
		o := k.syncs[h]
		if o == nil || o.dev != c.dev {
			k.mu.Unlock()
			return 0, errorf(dxgkddi.STATUS_INVALID_PARAMETER, "SignalSynchronizationObject: %v is not a synchronization object of %v's device", h, ctx)
		}
	}
	fence := c.submitted
	for _, h := range objs {
		o := k.syncs[h]
		o.pending = append(o.pending, queuedSignal{ctx: c, fence: fence, value: value})
	}
	k.mu.Unlock()
	k.signalReached(c)
	return fence, nil
}

// signalReached applies the signals queued on c whose fence now reads as
// signalled (after a DMA buffer retires, or the device is removed), each
// with a SyncObjectSignaled event on the running thread (the DPC's, or the
// signaller's when nothing was outstanding).
func (k *Dxgkrnl) signalReached(c *context) {
	type done struct {
		o     *syncObject
		s     queuedSignal
		value uint64
	}
	var out []done
	k.mu.Lock()
	if len(k.syncs) > 0 {
		for h := HSyncObject(1); h <= HSyncObject(k.lastSync); h++ {
			o := k.syncs[h]
			if o == nil {
				continue
			}
			keep := o.pending[:0]
			for _, s := range o.pending {
				if s.ctx == c && s.fence <= c.signalled {
					o.value = s.value
					out = append(out, done{o, s, s.value})
					continue
				}
				keep = append(keep, s)
			}
			o.pending = keep
		}
		if len(out) > 0 {
			k.wakeAt = max(k.wakeAt, k.s.Now())
		}
	}
	k.mu.Unlock()
	for _, x := range out {
		k.event(trace.Fence, "SyncObjectSignaled", trace.Event{Handle: x.o.h.String(), Obj: x.o.name, Fence: x.value,
			Args: hctxArg(c.h),
			Msg:  fmt.Sprintf("%s (%v) takes value %d: %v's work up to fence %d is done", x.o.name, x.o.h, x.value, c.h, x.s.fence)})
	}
	if len(out) > 0 {
		k.releaseGpuWaits() // buffers held by a GPU-side wait on these objects (gpuwait.go)
	}
}

// SynchronizationObjectValue is the object's value as the CPU reads it (a
// fence's completed value: no kernel transition).
func (k *Dxgkrnl) SynchronizationObjectValue(h HSyncObject) uint64 {
	k.watchdog()
	k.mu.Lock()
	defer k.mu.Unlock()
	if o := k.syncs[h]; o != nil {
		return o.value
	}
	return 0
}

// WaitForSynchronizationObjectFromCpu blocks the running thread until the
// object's value reaches value (D3DKMTWaitForSynchronizationObjectFromCpu),
// with wait events naming it. A wait on a removed device's object returns
// an error matching ErrDeviceRemoved once nothing can signal it.
func (k *Dxgkrnl) WaitForSynchronizationObjectFromCpu(h HSyncObject, value uint64) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	o := k.syncs[h]
	if o == nil {
		k.mu.Unlock()
		return errorf(dxgkddi.STATUS_INVALID_HANDLE, "WaitForSynchronizationObjectFromCpu: %v is not a synchronization object", h)
	}
	reached, pending := o.value >= value, len(o.pending) > 0
	removed := o.dev.reportsRemoval()
	k.mu.Unlock()
	if reached {
		return nil
	}
	if !pending {
		if removed {
			return o.dev.removedErr(fmt.Sprintf("WaitForSynchronizationObjectFromCpu %d on %v", value, h))
		}
		return errorf(dxgkddi.STATUS_INVALID_PARAMETER, "WaitForSynchronizationObjectFromCpu: %s (%v) is at %d and no signal is queued for it: waiting for %d would never end", o.name, h, o.value, value)
	}
	ev := trace.Event{Handle: h.String(), Obj: o.name, Fence: value, Msg: fmt.Sprintf("%s (%v) to reach %d", o.name, h, value)}
	k.event(trace.Wait, "WaitForSynchronizationObject", ev)
	err := k.waitUntil(func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return o.value >= value || len(o.pending) == 0 || o.dev.removed
	}, 0)
	k.mu.Lock()
	if err == nil && o.value < value {
		if o.dev.reportsRemoval() {
			err = o.dev.removedErr(fmt.Sprintf("WaitForSynchronizationObjectFromCpu %d on %v", value, h))
		} else {
			err = errorf(dxgkddi.STATUS_INVALID_PARAMETER, "WaitForSynchronizationObjectFromCpu: %s (%v) stopped at %d, below %d, with no signal queued", o.name, h, o.value, value)
		}
	}
	k.mu.Unlock()
	ev.Args = doneArgs
	if err != nil {
		ev.Msg, ev.HR = dxgkddi.Message(err), dxgkddi.StatusOf(err).Name()
	}
	k.event(trace.Wait, "WaitForSynchronizationObject", ev)
	return err
}

func hctxArg(h HContext) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyHctx, h.String()).Args()
}
