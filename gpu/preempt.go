package gpu

import (
	"fmt"

	"d3dsim/core/trace"
)

// GPU preemption ("GPU preemption", "DXGKDDI_PREEMPTCOMMAND"): the driver
// asks an engine to stop (Preempt) with a preemption fence id; the command
// processor stops at its next boundary, keeps where the buffer stopped and
// the state its packets had set (the context it would save), drops the
// buffers queued behind it on the ring ("can prevent all pending DMA
// buffers in the hardware queue from running",
// D3DKMDT_GRAPHICS_PREEMPTION_GRANULARITY) and raises its interrupt; the
// ISR reads the answer (Preempted) and reports DXGK_INTERRUPT_DMA_PREEMPTED
// with the preemption fence and the last completed fence. When the stopped
// buffer is submitted again (the same DMA buffer id) it resumes at the
// packet it stopped before, not at its start.
//
// The boundaries are packet boundaries: a draw is one packet, so the engine
// stops between draws, never inside one (a primitive in the sense of
// DXGI_GRAPHICS_PREEMPTION_GRANULARITY: "a section in a DMA buffer"). The
// command processor looks at the request at the first packet boundary after
// every Limits.PreemptCheckNS of a buffer's work, and at the start of every
// buffer. A draw that never reaches its boundary (a hung buffer, a draw past
// the deadline of timeout detection, a shader loop that never ends) never
// answers: that is what the scheduler's timeout detection waits for.

// preemptReport is what the engine answers a preemption request with.
type preemptReport struct {
	fence uint64 // the preemption fence id the driver gave
	last  uint64 // the fence register: the last completed buffer's FENCE
}

// Preempt asks the engine to stop at its next boundary and answer with
// fence (DxgkDdiPreemptCommand's PreemptionFenceId). An idle engine answers
// at once.
func (g *GPU) Preempt(engine int, fence uint64) {
	g.mu.Lock()
	e := g.engine(engine)
	if e == nil {
		g.mu.Unlock()
		return
	}
	if e.cur != nil {
		e.preemptReq = fence
		g.mu.Unlock()
		return
	}
	e.preempted = &preemptReport{fence: fence, last: e.fence}
	gen := e.gen
	g.mu.Unlock()
	g.sim.Schedule(g.sim.Now(), e.thread, func() { g.raisePreempted(e, gen, 0, "the engine was idle: nothing to stop") })
}

// Preempted reads and clears an engine's answer to a preemption request:
// the preemption fence id and the last completed fence (ok false: none).
func (g *GPU) Preempted(engine int) (fence, lastCompleted uint64, ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.engine(engine)
	if e == nil || e.preempted == nil {
		return 0, 0, false
	}
	r := e.preempted
	e.preempted = nil
	return r.fence, r.last, true
}

// preemptLocked stops the engine before j's next packet (a boundary), with
// the request pending. The caller holds mu; preemptLocked releases it.
func (g *GPU) preemptLocked(e *engine, j *job) {
	rep := &preemptReport{fence: e.preemptReq, last: e.fence}
	e.preemptReq, e.preempted = 0, rep
	if j.pc > 0 {
		if g.paused == nil {
			g.paused = make(map[uint64]*job)
		}
		j.engine = e.idx
		g.paused[j.id] = j
	}
	queued := len(e.ring)
	e.ring, e.cur = nil, nil
	e.freeAt = g.sim.Now()
	total := countPackets(j.dma)
	gen := e.gen
	g.mu.Unlock()
	var ab trace.ArgBuilder
	where := "before its first packet"
	if j.pc > 0 {
		where = fmt.Sprintf("at the boundary before packet %d of %d: it resumes there when submitted again", j.pkt, total)
	}
	msg := fmt.Sprintf("DMA buffer %d stopped %s (preemption fence %d, last completed fence %d)", j.id, where, rep.fence, rep.last)
	if queued > 0 {
		msg += fmt.Sprintf("; %d queued buffers behind it did not start", queued)
	}
	g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Message,
		Name: "DmaBufferPreempted", DMA: j.id, Msg: msg,
		Args: ab.Int(trace.KeyPacket, int64(j.pkt)).Int(trace.KeyPackets, int64(total)).Int(trace.KeyDropped, int64(queued)).Args()})
	g.raisePreempted(e, gen, j.id, "")
}

// raisePreempted raises the engine's interrupt for its answer to a
// preemption request.
func (g *GPU) raisePreempted(e *engine, gen, dma uint64, note string) {
	g.mu.Lock()
	if e.gen != gen || e.preempted == nil {
		g.mu.Unlock()
		return
	}
	rep := *e.preempted
	intr := g.interrupt
	g.mu.Unlock()
	var ab trace.ArgBuilder
	g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Interrupt,
		Name: "Interrupt", Fence: rep.last, DMA: dma, Msg: note,
		Args: ab.Str(trace.KeyType, "DXGK_INTERRUPT_DMA_PREEMPTED").Uint(trace.KeySubfence, rep.fence).Args()})
	if intr != nil {
		intr(e.idx)
	}
}
