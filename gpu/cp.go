package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"fmt"
)

// The command processor: it walks a DMA buffer packet by packet, keeps the
// buffer's state (fresh for every buffer: a buffer is self-contained, which is
// also what isolates processes from each other), runs each packet and adds
// up its cost. Bad packet content is a Fault of the buffer, never a panic;
// execution goes on with the next packet, except after a framing error, where
// nothing after it can be trusted.

// maxFaultsPerBuffer bounds the faults recorded and traced for one buffer; the
// rest are summed up in one last fault.
const maxFaultsPerBuffer = 8

// result is what executing a buffer produced.
type result struct {
	packets  int
	cost     int64
	fence    uint64
	hasFence bool
	frames   []Frame
	faults   []Fault
	// overrun says why the buffer is still running at the deadline of
	// timeout detection (Limits.RunNS): its execution stopped there and it
	// never completes ("" for a buffer that completes).
	overrun string
	// paused: the buffer reached a packet boundary after
	// Limits.PreemptCheckNS of work and goes on from there in a later
	// event, where a preemption request may stop it (preempt.go).
	paused bool
}

// executor runs one buffer at a time; it lives in the GPU so its scratch
// (clipping buffers, state) is reused, and is only used under GPU.mu.
type executor struct {
	g   *GPU
	e   *engine
	dma uint64
	t0  int64
	res result

	pkt        int // ordinal of the packet running
	op         isa.Opcode
	suppressed int  // faults past maxFaultsPerBuffer
	page       bool // the fault being recorded is a page fault (pageFault)

	st state
	// stReset: st is reset (the last buffer's end reset it): the next
	// buffer starts from it as it is.
	stReset bool
	draw    drawScratch
	wx      packetWatch // the pixel watch's, while a packet runs (watch.go)
	// swWord is the running packet's first word, noted while a shader
	// watch is set (shaderwatch.go).
	swWord int
	// at is the running packet's first word (a draw's key in the draw
	// log: watchclip.go); clipCheckTargets: the draw running under a
	// clipping watch has its targets checked once it is done.
	at               int
	clipCheckTargets bool
	// gen is the state generation: bumped by every packet that is not a
	// draw and at the start of every buffer (a new or restored state), so
	// a draw that finds it unchanged since the last one sees the same
	// targets, viewport and pipeline (pipeCache, pipecache.go).
	gen uint64
}

// countPackets counts the well-formed packets at the start of buf.
func countPackets(buf []uint32) int {
	n := 0
	for i := 0; i < len(buf); n++ {
		_, next, err := isa.Next(buf, i)
		if err != nil {
			break
		}
		i = next
	}
	return n
}

// run executes the buffer j on engine e, starting at virtual time t0.
func (ex *executor) run(e *engine, j *job, t0 int64) result {
	g := ex.g
	ex.e, ex.dma, ex.t0 = e, j.id, t0
	ex.res = result{}
	if j.pc == 0 {
		ex.res.cost = g.costs.BufferStartNS
	}
	ex.pkt, ex.suppressed = j.pkt, 0
	ex.gen++
	first := ex.pkt
	if j.saved != nil {
		ex.st = *j.saved // the state the buffer's packets set before it paused
		j.saved = nil
	} else if !ex.stReset {
		ex.st.reset()
	}
	ex.stReset = false
	e.ctr = g.ctr
	next := ex.loop(j.dma, j.pc)
	g.ctr = e.ctr
	if ex.res.paused {
		s := ex.st
		j.pc, j.pkt, j.saved = next, ex.pkt, &s
	}
	if ex.suppressed > 0 {
		// A summary, not a fault of its own: the suppressed ones were
		// counted.
		f := g.keepFaultLocked(Fault{DMA: ex.dma, Packet: ex.pkt, Reason: fmt.Sprintf("%d more faults in this buffer", ex.suppressed)})
		ex.res.faults = append(ex.res.faults, f)
	}
	ex.res.packets = ex.pkt - first
	if !ex.res.paused {
		g.stats.Buffers++
	}
	g.stats.Packets += uint64(ex.pkt - first)
	res := ex.res
	ex.res = result{}
	ex.st.reset() // drop references to memory; the next buffer starts from it
	ex.stReset = true
	ex.draw.pipe, ex.draw.pipeCache.kept = pipe{}, false
	ex.draw.memo.forget()
	return res
}

// internalError starts the reason of the fault recorded when executing a
// buffer panicked: a bug of the simulator, not of the buffer.
const internalError = "gpu: internal error: "

// loop executes the packets of buf from word pc; it returns the word it
// paused at (res.paused) for the buffer to go on from.
func (ex *executor) loop(buf []uint32, pc int) (next int) {
	// Never let a bug take the whole simulation (or a browser page) down:
	// the buffer faults, loudly, and still completes.
	defer func() {
		if v := recover(); v != nil {
			ex.op = isa.OpNop
			ex.addFault(fmt.Sprintf("%s%v", internalError, v))
			ex.tailFence(buf, 0)
		}
	}()
	for i := pc; i < len(buf); {
		var p isa.Packet
		var next int
		var err error
		if buf[i] == isa.DrawHeader && len(buf)-i >= isa.DrawWords {
			// (a DRAW: most packets of a stream of draws)
			p, next = isa.Packet{Op: isa.OpDraw, Args: buf[i+1 : i+isa.DrawWords], At: i}, i+isa.DrawWords
		} else if p, next, err = isa.Next(buf, i); err != nil {
			ex.op = isa.OpNop
			ex.fault("%v", err)
			ex.tailFence(buf, i)
			return 0
		}
		ex.op = p.Op
		ex.res.cost += ex.g.costs.PacketNS
		ex.exec(p)
		ex.pkt++
		i = next
		// A packet boundary: the deadline of timeout detection is checked
		// here (the draws check inside themselves too, checkpoint in
		// draw.go), and after Limits.PreemptCheckNS of work the buffer
		// pauses here, for a preemption request to take effect
		// (preempt.go).
		if lim := ex.g.limits.RunNS; lim > 0 && ex.res.cost > lim && ex.res.overrun == "" {
			ex.res.overrun = fmt.Sprintf("%s (packet %d) took the buffer past %d ns of virtual time, the deadline of timeout detection: it is still running when the engine is reset, so the GPU executes no more of it", ex.op, ex.pkt-1, lim)
		}
		if ex.res.overrun != "" {
			return 0
		}
		if q := ex.g.limits.PreemptCheckNS; q > 0 && ex.res.cost >= q && i < len(buf) {
			ex.res.paused = true
			return i
		}
	}
	return 0
}

// tailFence is for a buffer whose execution stopped at word i: nothing after
// that can be trusted, but the KMD ends every buffer with its FENCE, so a
// well-formed one in the last three words (past i) is honoured and the buffer
// still signals.
func (ex *executor) tailFence(buf []uint32, i int) {
	if n := len(buf); n-3 >= i && n >= 3 && buf[n-3] == uint32(isa.OpFence)<<24|2 {
		ex.res.fence = uint64(buf[n-2]) | uint64(buf[n-1])<<32
		ex.res.hasFence = true
	}
}

// fault records a fault of the packet running, prefixed with its opcode.
func (ex *executor) fault(format string, args ...any) {
	if len(ex.res.faults) >= maxFaultsPerBuffer {
		ex.suppressed++
		ex.g.stats.Faults++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if ex.op != isa.OpNop {
		msg = ex.op.String() + ": " + msg
	}
	ex.addFault(msg)
}

// pageFault records a page fault: an access outside the memory committed
// or bound for the packet, which a KMD that validates never lets through.
func (ex *executor) pageFault(format string, args ...any) {
	ex.page = true
	ex.fault("page fault: "+format, args...)
	ex.page = false
}

func (ex *executor) addFault(reason string) {
	f := ex.g.addFaultLocked(Fault{DMA: ex.dma, Packet: ex.pkt, Reason: reason, Page: ex.page})
	ex.res.faults = append(ex.res.faults, f)
}

// bytes resolves a memory range, faulting when it is not committed.
func (ex *executor) bytes(what string, addr, n uint64) ([]byte, bool) {
	b, ok := ex.g.mem.Bytes(addr, n)
	if !ok {
		ex.pageFault("%s [%#x, +%#x) is not inside one committed extent", what, addr, n)
	}
	return b, ok
}

func (ex *executor) chargeCopy(n uint64) {
	c := ex.g.costs
	ex.res.cost += int64((n+63)/64) * c.CopyPer64BNS
	ex.g.stats.BytesCopied += n
}

// exec runs one packet.
func (ex *executor) exec(p isa.Packet) {
	ex.at = p.At
	if !isDrawOp(p.Op) {
		ex.gen++ // (a state packet, a copy, a clear, a query: anything but a draw)
	}
	if ex.g.swatch != nil {
		ex.swWord = p.At
	}
	if ex.g.watch != nil && !ex.wx.inside {
		ex.watchExec(p)
		return
	}
	a := p.Args
	if ex.st.predAddr != 0 && isa.PredicatedOp(p.Op) && ex.predicatedOut() {
		return
	}
	switch p.Op {
	case isa.OpNop:
	case isa.OpSetRT, isa.OpSetDS, isa.OpSetVB, isa.OpSetIB, isa.OpSetCB, isa.OpSetTex, isa.OpSetSampler,
		isa.OpSetViewport, isa.OpSetRaster, isa.OpSetBlend, isa.OpSetDepth, isa.OpSetTopology, isa.OpSetProgram, isa.OpSetLayout,
		isa.OpSetRTSlot, isa.OpSetBlendRT, isa.OpSetBlendFactor, isa.OpSetStencil, isa.OpSetScissor, isa.OpSetViewportN, isa.OpSetDepthBias,
		isa.OpSetTexStage, isa.OpSetSamplerStage, isa.OpSetView, isa.OpSetSamplerEx, isa.OpSetClipDist:
		ex.setState(p)
	case isa.OpClearStencil:
		ex.clearStencil(p)
	case isa.OpSetRTLayers:
		ex.setRTLayers(p)
	case isa.OpDraw:
		ex.drawPacket(false, a[0], a[1], 0)
	case isa.OpDrawIndexed:
		ex.drawPacket(true, a[0], a[1], int32(a[2]))
	case isa.OpDrawInstanced:
		ex.drawInstances(false, a[0], a[1], 0, a[2], a[3])
	case isa.OpDrawIndexedInstanced:
		ex.drawInstances(true, a[0], a[1], int32(a[2]), a[3], a[4])
	case isa.OpDrawIndirect, isa.OpDrawIndexedIndirect:
		ex.drawIndirect(p)
	case isa.OpClearRT:
		ex.clearRT(p)
	case isa.OpClearDS:
		ex.clearDS(p)
	case isa.OpCopy:
		n := uint64(a[4])
		if n == 0 {
			return
		}
		dst, ok1 := ex.bytes("destination", p.Addr(0), n)
		src, ok2 := ex.bytes("source", p.Addr(2), n)
		if ok1 && ok2 {
			copy(dst, src)
			ex.chargeCopy(n)
		}
	case isa.OpWrite:
		n := uint64(a[2])
		if n == 0 {
			return
		}
		if dst, ok := ex.bytes("destination", p.Addr(0), n); ok {
			data := a[3:]
			for i := range dst {
				dst[i] = byte(data[i/4] >> (8 * (i % 4)))
			}
			ex.chargeCopy(n)
		}
	case isa.OpFill:
		n := uint64(a[2])
		if n%4 != 0 {
			ex.fault("%d bytes is not a multiple of 4", n)
			return
		}
		if n == 0 {
			return
		}
		if dst, ok := ex.bytes("destination", p.Addr(0), n); ok {
			binary.LittleEndian.PutUint32(dst, a[3])
			for i := 4; i < len(dst); i *= 2 {
				copy(dst[i:], dst[:i])
			}
			ex.chargeCopy(n)
		}
	case isa.OpFence:
		ex.res.fence = p.Addr(0)
		ex.res.hasFence = true
	case isa.OpQuery:
		ex.query(a[0], p.Addr(1))
	case isa.OpSetPredication:
		ex.st.predAddr, ex.st.predValue = p.Addr(0), a[2] != 0
	case isa.OpScanout:
		ex.scanoutPacket(p)
	case isa.OpSetUAV:
		ex.setUAV(p)
	case isa.OpClearUAV:
		ex.clearUAV(p)
	case isa.OpSetUAVSlices:
		ex.setUAVSlices(p)
	case isa.OpSetSamples:
		if !isa.SampleCountOK(a[0]) {
			ex.fault("SET_SAMPLES %d: this GPU renders at 1, 2 or 4 samples a pixel", a[0])
			return
		}
		ex.st.samples = a[0]
	case isa.OpResolve:
		ex.resolve(p)
	case isa.OpDispatch:
		ex.dispatch(a[0], a[1], a[2])
	case isa.OpDispatchIndirect:
		ex.dispatchIndirect(p)
	case isa.OpSetSOTarget, isa.OpSetSODecl:
		ex.setSO(p)
	case isa.OpDrawAuto:
		ex.drawAuto(p)
	default:
		ex.fault("opcode not implemented")
	}
}

// scanoutPacket copies the surface for the display engine (the last frame
// again when its pixels are the same: scanFrame); the frame is shown when the
// buffer completes.
func (ex *executor) scanoutPacket(p isa.Packet) {
	s, ok := ex.surface(p, 0, "scanout surface", useScanout)
	if !ok || ex.g.scanout == nil {
		return
	}
	ex.res.frames = append(ex.res.frames, ex.g.scanFrame(s.fmt, s.w, s.h, s.mem, s.pitch))
}
