package dxgk

import (
	"fmt"

	"d3dsim/core/trace"
)

// GPU preemption ("GPU preemption", "DXGKDDI_PREEMPTCOMMAND",
// "DXGKARGCB_NOTIFY_INTERRUPT_DATA"): the scheduler asks the driver to
// preempt a buffer that has run PreemptAfter (wait.go); the engine stops at
// its next boundary and the ISR reports DXGK_INTERRUPT_DMA_PREEMPTED with
// the preemption fence and the last completed fence. At DPC time the
// buffers up to that fence are retired as done and the rest come off the
// engine: the scheduler submits them again (DxgkDdiSubmitCommand, with new
// submission fence ids, the preemption fence having taken the next one),
// before any other buffer, and the stopped one resumes where it stopped.
// The engine answered, so the timeout detection starts over.

// preemptAnswer is a DXGK_INTERRUPT_DMA_PREEMPTED report, for the DPC.
type preemptAnswer struct {
	fence, last uint64
}

// DxgkCbNotifyDmaPreempted records the engine's answer to a preemption
// request (DxgkCbNotifyInterrupt with DXGK_INTERRUPT_DMA_PREEMPTED).
func (cb *callbacks) DxgkCbNotifyDmaPreempted(eng int, pf, last uint64) {
	k := cb.k()
	var ab trace.ArgBuilder
	ev := trace.Event{Args: ab.Str(trace.KeyType, "DXGK_INTERRUPT_DMA_PREEMPTED").Int(trace.KeyEngine, int64(eng)).Uint(trace.KeySubfence, pf).Args(),
		Msg: fmt.Sprintf("engine %d stopped for preemption fence %d; last completed fence %d", eng, pf, last)}
	k.mu.Lock()
	var e *engine
	if eng >= 0 && eng < len(k.engines) {
		e = k.engines[eng]
		for _, b := range e.inflight {
			if b.sub > last {
				ev.Handle, ev.Fence, ev.DMA = b.handle(), b.fence, b.id // the buffer it stopped
				break
			}
		}
	}
	k.mu.Unlock()
	cb.callback("DxgkCbNotifyInterrupt", ev, func() {
		if e == nil {
			return
		}
		k.mu.Lock()
		e.notified = max(e.notified, last)
		if pf == e.preemptFence {
			e.answered = &preemptAnswer{fence: pf, last: last}
		}
		k.mu.Unlock()
	})
	k.mu.Lock()
	k.lastNotified = [2]uint64{ev.DMA, ev.Fence}
	k.mu.Unlock()
}

// preemptedDpc takes the buffers a preemption stopped off their engines
// (the done ones were retired just before) and has the scheduler submit
// them again.
func (k *Dxgkrnl) preemptedDpc() {
	k.mu.Lock()
	var again []*dmaBuffer
	var answers []string
	var evs []trace.Event
	for _, e := range k.engines {
		a := e.answered
		if a == nil {
			continue
		}
		e.answered, e.preemptFence, e.preempted = nil, 0, nil
		e.lastRetire = k.s.Now() // the engine answered: timeout detection starts over
		again = append(again, e.inflight...)
		again = append(again, e.held...)
		var ev trace.Event
		if len(e.inflight) > 0 {
			b := e.inflight[0] // the buffer the engine stopped
			ev = trace.Event{Handle: b.handle(), Fence: b.fence, DMA: b.id}
		}
		ev.Args = trace.IntArg(trace.KeyEngine, int64(e.idx))
		ev.Msg = fmt.Sprintf("engine %d answered preemption fence %d (last completed fence %d): %d buffers to submit again", e.idx, a.fence, a.last, len(e.inflight)+len(e.held))
		evs = append(evs, ev)
		answers = append(answers, ev.Msg)
		e.inflight, e.held = nil, nil
	}
	k.resubmitQ = append(k.resubmitQ, again...)
	k.mu.Unlock()
	for _, ev := range evs {
		k.event(trace.Message, "DmaPreempted", ev)
	}
	if len(answers) > 0 {
		k.s.Schedule(k.s.Now(), "kernel", k.kick)
	}
}

// resubmitLocked submits the first buffer a preemption took off its engine,
// if any, and reports whether it did; the caller holds mu (released while
// the driver runs).
func (k *Dxgkrnl) resubmitLocked() bool {
	if len(k.resubmitQ) == 0 {
		return false
	}
	b := k.resubmitQ[0]
	k.resubmitQ = k.resubmitQ[1:]
	k.mu.Unlock()
	if !k.dropIfRemoved(b) {
		k.submitToGPU(b, ", submitted again after DXGK_INTERRUPT_DMA_PREEMPTED")
	}
	k.mu.Lock()
	return true
}
