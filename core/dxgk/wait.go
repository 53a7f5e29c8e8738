package dxgk

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// WaitForFence blocks the running simulated thread until the DPC has
// signalled the context's fence: it runs simulation events until then. It
// emits a wait event saying what it waits for ("fence 7 of kc1 (DMA 12)")
// and one with Args "done" when it ends. A GPU that stops answering is
// reset by TDR (see the package comment); the wait then returns an error
// matching ErrDeviceRemoved if the context's device was removed.
func (k *Dxgkrnl) WaitForFence(ctx HContext, fence uint64) error {
	return k.WaitForFenceFor(ctx, fence, WaitReason{})
}

// WaitReason says why a thread waits for a fence, so that the wait explains
// itself in the trace (docs/architecture.md): the resource it wants — its allocation
// and the scenario's name for it — and the hazard between the CPU access
// and the GPU work that holds it (RAW, WAR or WAW; the SamBookshelf article on asynchronous Draw). The zero value
// gives no reason.
type WaitReason struct {
	Allocation HAllocation
	Obj        string
	Hazard     string
}

// WaitForFenceFor is WaitForFence with the reason of the wait (a Map that
// conflicts with queued GPU work, the SamBookshelf article on asynchronous Draw): both wait events carry it in
// args and obj.
func (k *Dxgkrnl) WaitForFenceFor(ctx HContext, fence uint64, why WaitReason) error {
	k.charge(k.cfg.Costs.Transition)
	k.mu.Lock()
	c := k.contexts[ctx]
	var err error
	switch {
	case c == nil:
		err = errorf(dxgkddi.STATUS_INVALID_HANDLE, "WaitForFence: %v is not a context", ctx)
	case fence > c.submitted:
		err = errorf(dxgkddi.STATUS_INVALID_PARAMETER, "WaitForFence: fence %d of %v was never submitted (the last is %d)", fence, ctx, c.submitted)
	case c.dev.reportsRemoval() && fence > c.completed:
		err = c.dev.removedErr(fmt.Sprintf("WaitForFence %d on %v", fence, ctx))
	}
	done := err == nil && c.completed >= fence
	k.mu.Unlock()
	if err != nil || done {
		return err
	}
	return k.waitFence(c, fence, "", why)
}

// waitFence waits for a fence with wait events: they name the DMA buffer
// that signals the fence — for an out-of-order buffer already done but
// held behind lower fences, that one, saying so — and the reason.
func (k *Dxgkrnl) waitFence(c *context, fence uint64, why string, reason WaitReason) error {
	k.mu.Lock()
	dma, held := c.dma[fence], ""
	if id, ok := c.early[fence]; ok && dma == 0 {
		dma, held = id, ", done but held until every lower fence of "+c.h.String()+" signals"
	}
	k.mu.Unlock()
	ev := trace.Event{Handle: c.h.String(), Fence: fence, DMA: dma, Obj: reason.Obj, Args: reason.args(fence, dma, false),
		Msg: fmt.Sprintf("fence %d of %v (DMA %d%s)%s", fence, c.h, dma, held, why)}
	if reason.Hazard != "" {
		ev.Msg += fmt.Sprintf(" for %s (%v): %s", reason.Obj, reason.Allocation, reason.Hazard)
	}
	k.event(trace.Wait, "WaitForFence", ev)
	err := k.waitUntil(func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return c.completed >= fence || c.dev.removed
	}, 0)
	k.mu.Lock()
	if err == nil && c.completed < fence && c.dev.reportsRemoval() {
		err = c.dev.removedErr(fmt.Sprintf("WaitForFence %d on %v", fence, c.h))
	}
	k.mu.Unlock()
	ev.Args = reason.args(fence, dma, true)
	if err != nil {
		ev.Msg, ev.HR = dxgkddi.Message(err), dxgkddi.StatusOf(err).Name()
	}
	k.event(trace.Wait, "WaitForFence", ev)
	return err
}

// waitPaging waits until a paging buffer has been retired; own as in
// waitUntil.
func (k *Dxgkrnl) waitPaging(b *dmaBuffer, msg string, own int) error {
	ev := trace.Event{DMA: b.id, Msg: msg}
	k.event(trace.Wait, "WaitForPaging", ev)
	err := k.waitUntil(func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		return b.retired
	}, own)
	ev.Args = doneArgs
	if err != nil {
		ev.Msg, ev.HR = dxgkddi.Message(err), dxgkddi.StatusOf(err).Name()
	}
	k.event(trace.Wait, "WaitForPaging", ev)
	return err
}

// Idle waits until all submitted work everywhere is done: nothing queued to
// the scheduler, nothing on the GPU (with TDR on a hang), nothing left for
// the worker thread to free. It returns an error matching ErrDeviceRemoved
// if a TDR removed a device meanwhile.
func (k *Dxgkrnl) Idle() error {
	k.charge(k.cfg.Costs.Transition)
	idle := func() bool {
		k.mu.Lock()
		defer k.mu.Unlock()
		if len(k.schedQ) > 0 || len(k.resubmitQ) > 0 || k.scheduling || k.workerQueued > 0 || k.vsyncCalls > 0 {
			return false
		}
		for _, e := range k.engines {
			if len(e.inflight) > 0 || len(e.held) > 0 {
				return false
			}
		}
		for _, c := range k.contexts {
			if len(c.presents) > 0 && !c.dev.removed {
				return false // a frame still to show (a flip at a vertical blank)
			}
		}
		return true
	}
	if idle() {
		return nil
	}
	k.mu.Lock()
	removals := k.removals
	k.mu.Unlock()
	ev := trace.Event{Msg: "all submitted DMA and paging buffers"}
	k.event(trace.Wait, "WaitForIdle", ev)
	err := k.waitUntil(idle, 0)
	if why := k.heldReason(); err != nil && why != "" {
		err = fmt.Errorf("%w: %w", errorf(dxgkddi.STATUS_INVALID_DEVICE_STATE, "Idle: %s", why), ErrHeld)
	}
	k.mu.Lock()
	if err == nil && k.removals > removals {
		err = errorf(dxgkddi.STATUS_DEVICE_REMOVED, "Idle: a TDR removed %d device(s)", k.removals-removals)
	}
	k.mu.Unlock()
	ev.Args = doneArgs
	if err != nil {
		ev.Msg, ev.HR = dxgkddi.Message(err), dxgkddi.StatusOf(err).Name()
	}
	k.event(trace.Wait, "WaitForIdle", ev)
	return err
}

// waitUntil runs simulation events until done holds. When the oldest
// buffer on an engine is still not done at its TDR deadline (TDRDelay after
// it could start) and no event before the deadline remains, the engine is
// hung: a TDR is scheduled at the deadline and the wait goes on.
//
// own is how many simulation events the wait runs inside of: 0 for a wait on
// an application's call, 1 for the scheduler's own waits (the kick event's
// eviction). It must be passed, not read off the simulation when the wait
// begins: with real goroutines on the free-threaded entry points, another
// goroutine may be running an event at that moment, and counting it as the
// wait's own would hide the very event the wait needs (a false TDR).
func (k *Dxgkrnl) waitUntil(done func() bool, own int) error {
	k.mu.Lock()
	before := k.wakeAt
	k.mu.Unlock()
	for {
		hung, yield := false, false
		var eng int
		var at int64
		ok := k.s.RunUntil(func() bool {
			if done() {
				return true
			}
			started, running := k.s.Activity()
			e, dl, busy := k.oldestDeadline()
			if !busy {
				return false
			}
			if next, has := k.s.NextAt(); !has || next > dl {
				// Nothing queued before the deadline. Unless another
				// goroutine ran or is running an event meanwhile (it
				// may be the one that completes the buffer: see
				// othersRunning), the engine is hung.
				if started2, running2 := k.s.Activity(); running > own || running2 > own || started2 != started {
					yield = true
				} else {
					hung, eng, at = true, e, dl
				}
				return true
			}
			return false
		})
		if done() {
			// The wait ends when what it waited for happened on its own
			// thread (the DPC's clock), not when that event was due.
			k.mu.Lock()
			at := k.wakeAt
			k.mu.Unlock()
			if at > before {
				k.s.AdvanceTo(at)
			}
			return nil
		}
		if hung {
			k.scheduleTDR(eng, at)
			continue
		}
		if yield {
			runtime.Gosched()
			continue
		}
		if !ok {
			if k.othersRunning(done, own) {
				continue
			}
			return errorf(dxgkddi.STATUS_INVALID_DEVICE_STATE, "nothing left to run can end the wait")
		}
	}
}

// othersRunning covers real goroutines on the free-threaded entry points
// (docs/architecture.md): every API call polls the simulation, so another goroutine
// may have taken the event this wait needs off the queue and still be
// running it. While any event is being run elsewhere the wait yields; it
// can go on once something is queued again or what it waits for happened.
// own is the number of events running when the wait began: the ones it is
// inside of. In a scenario run (one goroutine) nothing else runs, and a
// real deadlock is reported at once.
func (k *Dxgkrnl) othersRunning(done func() bool, own int) bool {
	for k.s.Running() > own {
		if done() || k.s.Pending() {
			return true
		}
		runtime.Gosched()
	}
	return done() || k.s.Pending()
}

// watchdog is timeout detection for threads that poll a fence instead of
// waiting: Windows' TDR runs on a timer, so a hang is caught even if no
// thread ever blocks. Once the calling thread's time has passed the oldest
// in-flight buffer's deadline with nothing left to run before it, the engine
// is hung as in waitUntil: the TDR is scheduled at the deadline and runs at
// the next poll of the simulation.
func (k *Dxgkrnl) watchdog() {
	started, running := k.s.Activity()
	if running > 0 {
		// Another goroutine is running an event, perhaps the one
		// that completes the buffer: not a hang to call yet.
		return
	}
	e, dl, busy := k.oldestDeadline()
	if !busy || k.s.Now() < dl {
		return
	}
	if next, has := k.s.NextAt(); !has || next > dl {
		if started2, running2 := k.s.Activity(); started2 == started && running2 == 0 {
			k.scheduleTDR(e, dl)
		}
	}
}

// oldestDeadline is the earliest deadline of timeout detection over the
// engines' oldest in-flight buffers: PreemptAfter after the buffer could
// start, the scheduler asks to preempt it; TDRDelay after that request, with
// no answer, the engine has timed out ("Timeout Detection and Recovery
// (TDR)": the preemption's wait is the TDR timeout).
func (k *Dxgkrnl) oldestDeadline() (engine int, deadline int64, busy bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, e := range k.engines {
		if len(e.inflight) == 0 {
			continue
		}
		dl := max(e.inflight[0].submittedAt, e.lastRetire) + k.cfg.PreemptAfter
		if e.preempted == e.inflight[0] {
			dl = e.preemptAt + k.cfg.TDRDelay
		}
		if !busy || dl < deadline {
			engine, deadline, busy = e.idx, dl, true
		}
	}
	return engine, deadline, busy
}

// scheduleTDR queues the next step of an engine's timeout detection on
// thread "kernel": the preemption request, or, once that went unanswered,
// the reset.
func (k *Dxgkrnl) scheduleTDR(eng int, at int64) {
	k.mu.Lock()
	e := k.engines[eng]
	if e.tdrPending || len(e.inflight) == 0 {
		k.mu.Unlock()
		return
	}
	e.tdrPending = true
	hung := e.inflight[0]
	step := k.preempt
	if e.preempted == hung {
		step = k.tdr
	}
	k.mu.Unlock()
	k.s.Schedule(at, "kernel", func() { step(e, hung) })
}

// preempt asks the driver to preempt the engine's running buffer
// (DxgkDdiPreemptCommand) with a new preemption fence id, the node's next
// submission fence id. The engine answers at its next boundary
// (DXGK_INTERRUPT_DMA_PREEMPTED, preempt.go); one that never reaches a
// boundary never answers: TDRDelay later the engine has timed out.
func (k *Dxgkrnl) preempt(e *engine, b *dmaBuffer) {
	k.mu.Lock()
	e.tdrPending = false
	if len(e.inflight) == 0 || e.inflight[0] != b {
		k.mu.Unlock()
		return
	}
	e.preempted, e.preemptAt = b, k.s.Now()
	e.sub++
	pf := e.sub
	e.preemptFence = pf
	k.mu.Unlock()
	var ab trace.ArgBuilder
	ev := trace.Event{Handle: b.handle(), Fence: b.fence, DMA: b.id,
		Args: ab.Int(trace.KeyEngine, int64(e.idx)).Uint(trace.KeySubfence, pf).Args(),
		Msg:  fmt.Sprintf("%s has run %d ns: preemption fence %d on engine %d", b.describe(), k.s.Now()-max(b.submittedAt, e.lastRetire), pf, e.idx)}
	k.ddi("DxgkDdiPreemptCommand", ev, func() error {
		return k.drv.DxgkDdiPreemptCommand(&dxgkddi.PreemptCommandArgs{PreemptionFenceID: pf, Engine: e.idx})
	})
}

// tdr recovers from a preemption that timed out. When the driver reported
// SupportPerEngineTDR it resets the engine alone (DxgkDdiResetEngine, "TDR
// changes in Windows 8"): the device that owned the hung buffer is removed
// as hung (for a paging buffer, the device whose buffer needed it) and the
// other devices' buffers on the engine are submitted again. Otherwise, or if
// the engine reset fails, or if the hung buffer was a paging buffer ("If the
// engine reset affected a paging packet, the GPU scheduler follows the
// engine reset with an adapter-wide reset"), it resets the adapter
// (DxgkDdiResetFromTimeout, then DxgkDdiRestartFromTimeout): every engine
// loses its work and every device is removed, the guilty one as hung, the
// others as reset. Paging buffers are submitted again first, in their
// order, with their submission fence ids; the render buffers kept get new
// ones ("Packets unaffected by engine reset").
func (k *Dxgkrnl) tdr(e *engine, hung *dmaBuffer) {
	k.mu.Lock()
	e.tdrPending = false
	if len(e.inflight) == 0 || e.inflight[0] != hung {
		k.mu.Unlock()
		return
	}
	k.mu.Unlock()
	k.recover(e, hung, RemovedHung, fmt.Sprintf("engine %d: %s did not complete or preempt within %d ns: timeout detection and recovery", e.idx, hung.describe(), k.cfg.TDRDelay))
}

// resetEngines is the per-engine reset of "TDR changes in Windows 8": the
// scheduler asks the driver how the timed-out node is doing
// (DxgkDdiQueryEngineStatus) and which nodes a reset of it takes along
// (DxgkDdiQueryDependentEngineGroup, called with every DxgkDdiResetEngine),
// then resets those nodes in ordinal order. It returns the engines reset,
// or adapter true when a query or a reset failed and only an adapter reset
// is left.
func (k *Dxgkrnl) resetEngines(e *engine, hung *dmaBuffer) (reset []*engine, adapter bool) {
	at := func(idx int) trace.Event {
		return trace.Event{Handle: hung.handle(), Fence: hung.fence, DMA: hung.id, Args: trace.IntArg(trace.KeyEngine, int64(idx))}
	}
	status := dxgkddi.QueryEngineStatusArgs{Engine: e.idx}
	ev := at(e.idx)
	err := k.ddiRet("DxgkDdiQueryEngineStatus", ev, func(ret *trace.Event) error {
		err := k.drv.DxgkDdiQueryEngineStatus(&status)
		if err == nil {
			ret.Msg = "not responsive"
			if status.Responsive {
				ret.Msg = "responsive"
			}
		}
		return err
	})
	if err != nil {
		return nil, true
	}
	group := dxgkddi.QueryDependentEngineGroupArgs{Engine: e.idx}
	err = k.ddiRet("DxgkDdiQueryDependentEngineGroup", at(e.idx), func(ret *trace.Event) error {
		err := k.drv.DxgkDdiQueryDependentEngineGroup(&group)
		if err == nil {
			ret.Msg = fmt.Sprintf("DependentNodeOrdinalMask=%#x", group.DependentNodeOrdinalMask)
		}
		return err
	})
	mask := group.DependentNodeOrdinalMask | 1<<e.idx
	if err != nil {
		return nil, true
	}
	for _, x := range k.engines {
		if x.idx >= 64 || mask>>x.idx&1 == 0 {
			continue
		}
		args := dxgkddi.ResetEngineArgs{Engine: x.idx}
		if k.ddi("DxgkDdiResetEngine", at(x.idx), func() error { return k.drv.DxgkDdiResetEngine(&args) }) != nil {
			return nil, true
		}
		reset = append(reset, x)
	}
	return reset, false
}

// recover resets after a timeout or a page fault on engine e while it ran
// bad (see tdr); bad's device is removed with why.
func (k *Dxgkrnl) recover(e *engine, hung *dmaBuffer, why RemovalReason, reason string) {
	k.mu.Lock()
	perEngine := k.perEngineTDR
	k.mu.Unlock()
	k.event(trace.Message, "TDR", trace.Event{Handle: hung.handle(), Fence: hung.fence, DMA: hung.id, Msg: reason})
	adapter := !perEngine
	engines := []*engine{e}
	if perEngine {
		engines, adapter = k.resetEngines(e, hung)
		if !adapter && hung.paging {
			adapter = true
			k.event(trace.Message, "TdrPromotedToAdapterReset", trace.Event{Handle: hung.handle(), Fence: hung.fence, DMA: hung.id,
				Msg: fmt.Sprintf("the engine reset affected a paging packet (%s): \"the GPU scheduler follows the engine reset with an adapter-wide reset\" (TdrEngineTimeoutPromotedToAdapterReset, \"TDR changes in Windows 8\")", hung.describe())})
		}
	}
	if adapter {
		k.ddi("DxgkDdiResetFromTimeout", trace.Event{}, func() error { return k.drv.DxgkDdiResetFromTimeout(&dxgkddi.ResetFromTimeoutArgs{}) })
		k.ddi("DxgkDdiRestartFromTimeout", trace.Event{}, func() error { return k.drv.DxgkDdiRestartFromTimeout(&dxgkddi.RestartFromTimeoutArgs{}) })
		engines = k.engines
	}

	k.mu.Lock()
	var lost []*dmaBuffer
	for _, x := range engines {
		lost = append(lost, x.inflight...)
		lost = append(lost, x.held...)
		x.inflight, x.preempted, x.held = nil, nil, nil
		x.preemptFence, x.answered = 0, nil
		x.lastRetire = k.s.Now()
	}
	guilty := hung.dev
	var innocent []*device
	if adapter {
		for _, d := range k.devices {
			if d != guilty && !d.removed && !d.destroyed {
				innocent = append(innocent, d)
			}
		}
		slices.SortFunc(innocent, func(a, b *device) int { return cmp.Compare(a.h, b.h) })
	}
	var again, drop []*dmaBuffer
	for _, b := range lost {
		switch {
		case b == hung && b.resubmits > 0, !b.paging && (b.dev == guilty || adapter):
			drop = append(drop, b)
		default:
			again = append(again, b)
		}
	}
	k.mu.Unlock()
	if guilty != nil {
		k.removeDevice(guilty, why, reason)
	}
	for _, d := range innocent {
		k.removeDevice(d, RemovedReset, fmt.Sprintf("the adapter was reset (DxgkDdiResetFromTimeout) for %s on engine %d", hung.describe(), e.idx))
	}
	for _, b := range drop {
		k.retire(b, true)
	}
	// Paging packets first, in the order they were submitted, with their
	// fence ids; then the rest, with new ones.
	slices.SortStableFunc(again, func(a, b *dmaBuffer) int {
		if a.paging != b.paging {
			if a.paging {
				return -1
			}
			return 1
		}
		if a.paging {
			return cmp.Compare(a.sub, b.sub)
		}
		return 0
	})
	for _, b := range again {
		b.resubmits++
		note := ", resubmitted after the TDR"
		if b.paging {
			b.keepSub = true
			note = ", resubmitted after the TDR with its original fence id"
		}
		k.submitToGPU(b, note)
	}
}
