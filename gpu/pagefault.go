package gpu

import "d3dsim/core/trace"

// A page fault as Windows sees it ("DXGK_INTERRUPT_TYPE",
// DXGK_INTERRUPT_DMA_PAGE_FAULTED): the engine stops on the buffer that
// faulted, writes no fence, and raises its interrupt; the fault register
// (PageFault) holds that buffer's fence, for the driver's ISR to report. The
// simulated command processor runs a buffer's packets at once, so the
// packets after the faulting one have run too; what the fault changes is
// that the buffer never completes and the engine stays stopped until Reset.

// hasPageFault reports whether any of faults is a page fault.
func hasPageFault(faults []Fault) bool {
	for _, f := range faults {
		if f.Page {
			return true
		}
	}
	return false
}

// pageFaulted raises the interrupt of an engine a page fault stopped.
func (g *GPU) pageFaulted(e *engine, gen uint64, j *job, fence uint64) {
	g.mu.Lock()
	if e.gen != gen || e.cur != j {
		g.mu.Unlock()
		return
	}
	e.faulted, e.pfFence = true, fence
	intr := g.interrupt
	g.mu.Unlock()
	g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Interrupt,
		Name: "Interrupt", Fence: fence, DMA: j.id, Args: trace.FlagArgs(trace.KeyPageFault)})
	if intr != nil {
		intr(e.idx)
	}
}

// PageFault reads an engine's fault register: whether a page fault stopped
// it, and the FENCE value of the buffer that faulted. Reset clears it.
func (g *GPU) PageFault(engine int) (fence uint64, faulted bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if e := g.engine(engine); e != nil && e.faulted {
		return e.pfFence, true
	}
	return 0, false
}
