package dxgk

import (
	"fmt"

	"d3dsim/core/trace"
)

// GPU page faults as WDDM reports them: the driver's ISR calls
// DxgkCbNotifyInterrupt with DXGK_INTERRUPT_DMA_PAGE_FAULTED and the fence
// of the faulting buffer; every buffer before it is done ("DXGK_PAGE_FAULT_FLAGS":
// the OS treats pending packets with lower fence ids as completed). The DPC
// retires those, then the GPU scheduler recovers as from a timeout, on
// thread "kernel": the engine (or adapter) is reset and the faulting
// buffer's device removed (RemovedPageFault).

// DxgkCbNotifyDmaPageFaulted records the engine's page fault
// (DxgkCbNotifyInterrupt with DXGK_INTERRUPT_DMA_PAGE_FAULTED).
func (cb *callbacks) DxgkCbNotifyDmaPageFaulted(eng int, fence uint64) {
	k := cb.k()
	var ab trace.ArgBuilder
	ev := trace.Event{Args: ab.Str(trace.KeyType, "DXGK_INTERRUPT_DMA_PAGE_FAULTED").Int(trace.KeyEngine, int64(eng)).Uint(trace.KeySubfence, fence).Args()}
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
		if e == nil || fence == 0 {
			return
		}
		k.mu.Lock()
		e.notified = max(e.notified, fence-1)
		e.pageFault = fence
		k.mu.Unlock()
	})
	k.mu.Lock()
	k.lastNotified = [2]uint64{ev.DMA, ev.Fence}
	k.mu.Unlock()
}

// schedulePageFaultRecovery, called by the DPC once it has retired the
// buffers before a faulting one, queues the recovery on thread "kernel".
func (k *Dxgkrnl) schedulePageFaultRecovery() {
	for _, e := range k.engines {
		k.mu.Lock()
		fence := e.pageFault
		e.pageFault = 0
		var bad *dmaBuffer
		for _, b := range e.inflight {
			if b.sub == fence {
				bad = b
			}
		}
		k.mu.Unlock()
		if bad == nil {
			continue
		}
		k.s.Schedule(k.s.Now(), "kernel", func() {
			k.mu.Lock()
			still := len(e.inflight) > 0 && e.inflight[0] == bad
			k.mu.Unlock()
			if still {
				k.recover(e, bad, RemovedPageFault, fmt.Sprintf("engine %d faulted on an address while running %s (DXGK_INTERRUPT_DMA_PAGE_FAULTED)", e.idx, bad.describe()))
			}
		})
	}
}
