package dxgk

import (
	"d3dsim/core/rules"
	"fmt"
	"slices"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// Interrupt is the GPU's interrupt line: connect it with
// gpu.ConnectInterrupt. The ISR (DxgkDdiInterruptRoutine) runs on the
// simulated thread "isr" shortly after (WDDM operation flow, step 15).
// engine is the engine that raised it, or dxgkddi.DisplayInterruptLine for
// the display's vertical blank.
func (k *Dxgkrnl) Interrupt(engine int) {
	k.s.Schedule(k.s.Now()+k.cfg.Costs.InterruptLatency, "isr", func() { k.isr(engine) })
}

// The ISR and DPC events carry the DMA buffer they serve (and its fence),
// so the steps of the WDDM operation flow that follow a submission — the
// interrupt, DxgkCbNotifyInterrupt, DxgkCbQueueDpc, the DPC — can be
// followed from the statement that submitted it (expect calls).

func (k *Dxgkrnl) isr(engine int) {
	args := dxgkddi.InterruptRoutineArgs{Engine: engine}
	claimed := false
	ev := trace.Event{Args: trace.IntArg(trace.KeyEngine, int64(engine))}
	if engine == dxgkddi.DisplayInterruptLine {
		ev = trace.Event{Msg: "the display's vertical-blank interrupt"}
	}
	k.mu.Lock()
	if b := k.servedLocked(engine); b != nil {
		ev.DMA, ev.Fence = b.id, b.fence
	}
	k.mu.Unlock()
	k.ddi("DxgkDdiInterruptRoutine", ev, func() error {
		claimed = k.drv.DxgkDdiInterruptRoutine(&args)
		return nil
	})
	if !claimed {
		what := fmt.Sprintf("engine %d", engine)
		if engine == dxgkddi.DisplayInterruptLine {
			what = "the display"
		}
		k.event(trace.Message, "InterruptNotClaimed", trace.Event{Msg: "the driver did not claim the interrupt of " + what})
	}
}

// servedLocked is the buffer an interrupt of engine reports: an engine runs
// its buffers in order and interrupts as each completes, so it is the oldest
// one the driver has not reported yet (nil when none). The caller holds mu.
func (k *Dxgkrnl) servedLocked(engine int) *dmaBuffer {
	if engine < 0 || engine >= len(k.engines) {
		return nil
	}
	e := k.engines[engine]
	for _, b := range e.inflight {
		if b.sub > e.notified {
			return b
		}
	}
	return nil
}

// callbacks is the DXGKRNL_INTERFACE handed to the driver.
type callbacks Dxgkrnl

var _ dxgkddi.DxgkrnlInterface = (*callbacks)(nil)

func (cb *callbacks) k() *Dxgkrnl { return (*Dxgkrnl)(cb) }

// callback traces a DxgkCb* call (layer dxgkrnl, from kmd).
func (cb *callbacks) callback(name string, ev trace.Event, fn func()) {
	k := cb.k()
	k.charge(k.cfg.Costs.Callback)
	ev.Kind, ev.Layer, ev.From, ev.Name = trace.Call, trace.Dxgkrnl, trace.KMD, name
	k.rec.Emit(ev)
	fn()
	ev.Kind, ev.HR = trace.Return, dxgkddi.STATUS_SUCCESS.Name()
	k.rec.Emit(ev)
}

// DxgkCbNotifyInterrupt records that the engine finished every buffer up to
// submission fence fence (WDDM operation flow, step 16); the DPC retires them.
func (cb *callbacks) DxgkCbNotifyInterrupt(eng int, fence uint64) {
	k := cb.k()
	var ab trace.ArgBuilder
	ev := trace.Event{Args: ab.Int(trace.KeyEngine, int64(eng)).Uint(trace.KeySubfence, fence).Args()}
	k.mu.Lock()
	var e *engine
	if eng >= 0 && eng < len(k.engines) {
		e = k.engines[eng]
		for _, b := range e.inflight {
			if b.sub == fence {
				ev.Handle, ev.Fence, ev.DMA = b.handle(), b.fence, b.id
			}
		}
	}
	k.mu.Unlock()
	cb.callback("DxgkCbNotifyInterrupt", ev, func() {
		if e == nil {
			return
		}
		k.mu.Lock()
		e.notified = max(e.notified, fence)
		k.mu.Unlock()
	})
	k.mu.Lock()
	k.lastNotified = [2]uint64{ev.DMA, ev.Fence}
	k.mu.Unlock()
}

// DxgkCbNotifyCrtcVsync records the vertical blank the driver reports
// (DxgkCbNotifyInterrupt with DXGK_INTERRUPT_CRTC_VSYNC); the DPC processes
// it (vsyncDpc).
func (cb *callbacks) DxgkCbNotifyCrtcVsync(target int, vblank int64, addr uint64) {
	k := cb.k()
	var ab trace.ArgBuilder
	ev := trace.Event{Args: ab.Str(trace.KeyType, "DXGK_INTERRUPT_CRTC_VSYNC").Int(trace.KeyVBlank, vblank).Args(),
		Msg: fmt.Sprintf("vertical blank %d of video present target %d", vblank, target)}
	if addr != 0 {
		ev.Msg += fmt.Sprintf(", scanning out %#x", addr)
	}
	cb.callback("DxgkCbNotifyInterrupt", ev, func() {
		k.mu.Lock()
		if target == 0 && (k.vsyncNew == nil || vblank > k.vsyncNew.vblank) {
			k.vsyncNew = &vsyncReport{vblank: vblank, addr: addr}
		}
		k.mu.Unlock()
	})
	k.mu.Lock()
	k.lastNotified = [2]uint64{}
	k.mu.Unlock()
}

// DxgkCbQueueDpc queues the DPC on thread "dpc" unless it is queued already.
func (cb *callbacks) DxgkCbQueueDpc() bool {
	k := cb.k()
	queued := false
	k.mu.Lock()
	ev := trace.Event{DMA: k.lastNotified[0], Fence: k.lastNotified[1]} // the buffer the ISR just reported
	k.mu.Unlock()
	cb.callback("DxgkCbQueueDpc", ev, func() {
		k.mu.Lock()
		queued = !k.dpcQueued
		k.dpcQueued = true
		k.mu.Unlock()
		if queued {
			k.s.Schedule(k.s.Now()+k.cfg.Costs.DPCLatency, "dpc", k.dpc)
		}
	})
	return queued
}

// dpc runs DxgkDdiDpcRoutine; the driver calls DxgkCbNotifyDpc from it,
// where Dxgkrnl does its part of the DPC (notifyDpc).
func (k *Dxgkrnl) dpc() {
	k.mu.Lock()
	k.dpcQueued = false
	ev := k.dpcEventLocked()
	k.mu.Unlock()
	k.ddi("DxgkDdiDpcRoutine", ev, func() error { k.drv.DxgkDdiDpcRoutine(); return nil })
}

// dpcEventLocked names the newest buffer the DPC retires. The caller holds
// mu.
func (k *Dxgkrnl) dpcEventLocked() trace.Event {
	var ev trace.Event
	for _, e := range k.engines {
		for _, b := range e.inflight {
			if b.sub <= e.notified && b.id > ev.DMA {
				ev.DMA, ev.Fence = b.id, b.fence
			}
		}
	}
	return ev
}

// DxgkCbNotifyDpc is Dxgkrnl's part of the DPC: it retires every buffer the
// ISR reported done (their fences are signalled, their allocations
// released, and allocations whose destruction waited for them are freed),
// starts the recovery of a page fault, and processes a vertical blank.
func (cb *callbacks) DxgkCbNotifyDpc() {
	k := cb.k()
	k.mu.Lock()
	ev := k.dpcEventLocked()
	k.mu.Unlock()
	cb.callback("DxgkCbNotifyDpc", ev, k.notifyDpc)
}

func (k *Dxgkrnl) notifyDpc() {
	for _, e := range k.engines {
		k.mu.Lock()
		n := 0
		for n < len(e.inflight) && e.inflight[n].sub <= e.notified {
			n++
		}
		done := append([]*dmaBuffer(nil), e.inflight[:n]...)
		e.inflight = append(e.inflight[:0], e.inflight[n:]...)
		if n > 0 {
			e.lastRetire = k.s.Now()
		}
		k.mu.Unlock()
		for _, b := range done {
			k.retire(b, false)
		}
	}
	k.schedulePageFaultRecovery()
	k.preemptedDpc()
	k.vsyncDpc()
}

// retire ends a buffer: done (its fence signalled) or dropped (cancelled).
// Allocations it held and that wait for destruction are freed.
func (k *Dxgkrnl) retire(b *dmaBuffer, dropped bool) {
	k.mu.Lock()
	if b.retired {
		k.mu.Unlock()
		return
	}
	b.retired = true
	k.wakeAt = max(k.wakeAt, k.s.Now())
	c := b.ctx
	ooo := k.cfg.OutOfOrder
	var sig [][2]uint64 // OutOfOrder: fences that now read as signalled, with their DMA buffers
	if c != nil {
		switch {
		case dropped:
		case ooo:
			sig = k.retireOOO(c, b)
		default:
			c.completed = max(c.completed, b.fence)
			c.signalled = max(c.signalled, b.fence)
		}
		delete(c.dma, b.fence)
	}
	if ooo {
		k.unlockLocked(b)
	}
	kickAgain := len(k.schedQ) > 0 && (ooo || len(k.engines) > 1) // a buffer may wait for this one (nextReadyLocked, placeLocked)
	free := k.unrefLocked(b)
	k.mu.Unlock()
	switch {
	case dropped:
		k.event(trace.Message, "DmaBufferDropped", trace.Event{Handle: b.handle(), Fence: b.fence, DMA: b.id,
			Msg: fmt.Sprintf("%s was dropped before it completed: its device was removed", b.describe())})
	case b.paging:
		k.event(trace.Fence, "FenceSignaled", trace.Event{DMA: b.id, Args: pagingFor(b.forDMA),
			Msg: fmt.Sprintf("paging buffer done (submission fence %d on engine %d)", b.sub, b.engine)})
	case ooo:
		if len(sig) == 0 {
			k.event(trace.Message, "FenceHeld", trace.Event{Handle: c.hs, Fence: b.fence, DMA: b.id,
				Msg: fmt.Sprintf("%s is done before an earlier fence of %v: fence %d reads as signalled once every lower fence does", b.describe(), c.h, b.fence)})
		}
		for _, s := range sig {
			ev := trace.Event{Handle: c.hs, Fence: s[0], DMA: s[1]}
			if s[1] == b.id {
				ev.Args = trace.UintArg(trace.KeySubfence, b.sub)
			}
			k.event(trace.Fence, "FenceSignaled", ev)
		}
	default:
		k.event(trace.Fence, "FenceSignaled", trace.Event{Handle: c.hs, Fence: b.fence, DMA: b.id,
			Args: trace.UintArg(trace.KeySubfence, b.sub)})
	}
	if c != nil && !dropped {
		k.signalReached(c) // signals queued behind the fence (sync.go)
	}
	if c != nil {
		k.advance(c) // a frame may be ready to show (display.go)
	}
	k.freeOnWorker(free)
	if kickAgain {
		k.s.Schedule(k.s.Now(), "kernel", k.kick)
	}
}

// unrefLocked drops b's references to its allocations and returns those
// whose destruction waited for them (to free).
func (k *Dxgkrnl) unrefLocked(b *dmaBuffer) []*allocation {
	var free []*allocation
	for _, a := range b.allocs {
		a.refs--
		if a.refs == 0 && a.destroyed && !a.freeing {
			a.freeing = true
			free = append(free, a)
		}
	}
	b.allocs = nil
	return free
}

// release drops a buffer the driver rejected.
func (k *Dxgkrnl) release(b *dmaBuffer) {
	k.mu.Lock()
	free := k.unrefLocked(b)
	k.mu.Unlock()
	for _, a := range free {
		k.free(a)
	}
}

// removeDevice marks a device removed and cancels its pending fences: they
// read as signalled, and waiters return an error matching ErrDeviceRemoved.
// why is what GetDeviceRemovedReason will tell.
func (k *Dxgkrnl) removeDevice(d *device, why RemovalReason, reason string) {
	k.mu.Lock()
	if d.removed {
		k.mu.Unlock()
		return
	}
	d.removed, d.why, d.reason = true, why, reason
	d.hidden = k.cfg.Bugs.Has(rules.ErrAsync)
	k.removals++
	k.wakeAt = max(k.wakeAt, k.s.Now())
	type cancel struct {
		c          *context
		from, to   uint64
		dmaByFence map[uint64]uint64
	}
	var cs []cancel
	ctxs := slices.Clone(d.contexts)
	for _, c := range d.contexts {
		if c.signalled < c.submitted {
			m := make(map[uint64]uint64, len(c.dma))
			for f, id := range c.dma {
				m[f] = id
			}
			cs = append(cs, cancel{c, c.signalled + 1, c.submitted, m})
			c.signalled = c.submitted
		}
	}
	k.mu.Unlock()
	k.event(trace.Message, "DeviceRemoved", trace.Event{Handle: d.h.String(), Obj: d.name, HR: dxgkddi.STATUS_DEVICE_REMOVED.Name(), Msg: why.String() + ": " + reason})
	for _, x := range cs {
		for f := x.from; f <= x.to; f++ {
			k.event(trace.Fence, "FenceCancelled", trace.Event{Handle: x.c.h.String(), Fence: f, DMA: x.dmaByFence[f],
				Msg: fmt.Sprintf("fence %d of %v cancelled: device %v was removed", f, x.c.h, d.h)})
		}
	}
	for _, c := range ctxs {
		k.signalReached(c) // what the signals queued behind them waited for reads as done
	}
}
