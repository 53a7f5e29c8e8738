package gpu

import (
	"unsafe"

	"d3dsim/gpu/shader"
)

// The draw that changes no state, again.
//
// A draw's geometry is a function of its inputs: the state (the targets,
// viewport, layout, buffers' bindings, topology, clip and raster state,
// which only a packet other than a draw changes: the state generation
// ex.gen), its programs' words, the bytes its vertices are fetched from
// and its arguments. When nothing of the last draw reached the rasterizer
// (no triangle, line or point was set up: a triangle of one point, one
// outside the clip volume) and it wrote nothing — no stream output, no
// UAV, no pixel — the next draw with the same inputs does exactly what it
// did: the same vertices shaded, primitives assembled and clipped, the
// same statistics and costs, no pixel. drawMemo keeps that outcome, and
// such a draw replays it: its counters, its instructions and its one
// checkpoint, where a budget or the host may stop it as they would have
// stopped the draw (checkpoint); everything the draw packet charges around
// them (drawInstances) runs as for any draw.
//
// Nothing can have changed those inputs between the kept draw and the
// next: the kept draw wrote nothing, a replay writes nothing, any other
// draw forgets it, every other packet begins another state generation (a
// WRITE, COPY or FILL among them), and so does every buffer (the CPU
// writes memory — a Map, an update — between the GPU's buffers, never
// inside one: the host's turn inside a draw, SetYield, changes nothing by
// its contract). The tests hold it: with verify set (newRig sets it), the
// kept draw's vertex bytes and programs are copied and every replay
// compares them. Only a draw that replays exactly is kept: not indexed,
// one instance, one block of vertices (shader.Lanes at most) through a
// vertex program of movs read straight from the buffers (direct.go: its
// outputs are the fetched words, no constant, texture or vertex id), no
// geometry or tessellation stage, no stream output, no watch. Any other
// draw forgets it.
type drawMemo struct {
	ok                          bool
	gen                         uint64
	count, start, startInstance uint32
	ctr                         drawCounters // the draw's statistics
	vsInstrs                    uint64
	hits                        uint64 // draws that replayed it (for tests)
	off                         bool   // every draw runs (for tests: the reference; pipeCache.off too)
	// verify, if set, is told of a replay whose inputs are not the kept
	// draw's (for tests): spans are then the bytes the kept draw's
	// vertices were read from, one a vertex buffer, live (the buffer's
	// memory) and as they were (in keep).
	verify func(what string)
	spans  []memoSpan
	keep   []byte
}

// memoSpan is a range [lo, hi) of a vertex buffer's memory buf, and where
// keep holds its bytes as they were.
type memoSpan struct {
	buf        []byte
	lo, hi, at int
}

// memoMark is what drawInstances notes before it runs a draw, for noteMemo
// to tell what the draw did.
type memoMark struct {
	faults, checks, setups, direct uint64
}

// mark notes the counters noteMemo compares after the draw.
func (ex *executor) memoMark(faults uint64) memoMark {
	d := &ex.draw
	return memoMark{faults: faults, checks: d.checks, setups: d.setups, direct: d.direct.hits}
}

// replayable reports whether the draw (not indexed: a DRAW or a
// DRAW_INSTANCED) is the kept one again: the same state generation and
// arguments, and nothing that watches a draw.
func (ex *executor) replayable(count, start, instances, startInstance uint32) bool {
	m, g := &ex.draw.memo, ex.g
	return m.gen == ex.gen && m.count == count && m.start == start && instances == 1 && m.startInstance == startInstance &&
		!g.faultNext && g.watch == nil && g.swatch == nil && !m.off && !ex.draw.pipeCache.off
}

// verifyMemo tells m.verify what of the kept draw's inputs differs now.
func (ex *executor) verifyMemo() {
	m := &ex.draw.memo
	if c := &ex.draw.prog.prepared; !c.ok || c.gen != ex.gen || !c.sameCode(&ex.st) {
		m.verify("programs")
	}
	for i := range m.spans {
		sp := &m.spans[i]
		if string(sp.buf[sp.lo:sp.hi]) != string(m.keep[sp.at:sp.at+sp.hi-sp.lo]) {
			m.verify("vertex bytes")
		}
	}
}

// replay is the draw's geometry, as the kept draw ran it: the vertex
// stage's count and instructions, then its one checkpoint (directVertices'),
// then, if the draw goes on, its primitives' counts.
func (ex *executor) replay() {
	d := &ex.draw
	m, ps := &d.memo, &d.prog
	ps.chunk.n = 0 // (as prepareProgram: the next draw shades its own block)
	m.hits++
	if m.verify != nil {
		ex.verifyMemo()
	}
	d.ctr.vsInv, d.vsInstrs = m.ctr.vsInv, m.vsInstrs
	if !ex.checkpoint() {
		return
	}
	d.ctr = m.ctr
}

// noteMemo keeps the draw that just ran (not faulted, not indexed) when it
// may be replayed (drawMemo), or forgets the last one.
func (ex *executor) noteMemo(mk memoMark, count, start, instances, startInstance uint32) {
	d, g, s := &ex.draw, ex.g, &ex.st
	m, ps, p := &d.memo, &d.prog, &d.pipe
	m.ok = false
	if instances != 1 || count > shader.Lanes || m.off || d.pipeCache.off || !d.pipeCache.ok ||
		g.watch != nil || g.swatch != nil || g.stopped != nil || g.abandoned || g.faultNext ||
		s.so.on || d.soOnly || ps.gs != nil || ps.hs != nil || ps.vs == nil || ps.vs.movedOut == nil ||
		!ps.prepared.ok || ps.prepared.gen != ex.gen || !samePrograms(&ps.prepared.progs, &[5]*progEntry{ps.vs, ps.ps, ps.gs, ps.hs, ps.ds}) ||
		g.stats.Faults != mk.faults || ps.failed || d.stop || ex.res.overrun != "" ||
		d.checks != mk.checks+1 || d.setups != mk.setups || d.direct.hits != mk.direct+1 ||
		p.shaded != 0 || p.passed != 0 || p.instrs != 0 || p.ms.extra != 0 || d.uavCounters || d.clip.on {
		return
	}
	fc := &d.fetch
	if !fc.ok || fc.gen != ex.gen || !fc.linear {
		return
	}
	m.ok, m.gen, m.count, m.start, m.startInstance = true, ex.gen, count, start, startInstance
	m.ctr, m.vsInstrs = d.ctr, d.vsInstrs
	if m.verify != nil {
		m.keepInputs(fc, start, count)
	}
}

// keepInputs copies the bytes the kept draw's vertices count from start
// were read from (verify).
func (m *drawMemo) keepInputs(fc *fetchCheck, start, count uint32) {
	// The bytes of the draw's vertices, a span a buffer (its elements'
	// ranges joined).
	m.spans, m.keep = m.spans[:0], m.keep[:0]
	for k := range fc.nels {
		e := &fc.els[k&(len(fc.els)-1)]
		lo := e.at + e.stride*uint64(start)
		hi := lo + e.stride*uint64(count-1) + 4*uint64(e.w)
		if hi > uint64(len(e.mem)) {
			m.verify("vertices past their buffer") // (linearFetch checked the draw's last vertex)
			return
		}
		joined := false
		for i := range m.spans {
			if sp := &m.spans[i]; unsafe.SliceData(sp.buf) == unsafe.SliceData(e.mem) {
				sp.lo, sp.hi, joined = min(sp.lo, int(lo)), max(sp.hi, int(hi)), true
				break
			}
		}
		if !joined {
			m.spans = append(m.spans, memoSpan{buf: e.mem, lo: int(lo), hi: int(hi)})
		}
	}
	for i := range m.spans {
		sp := &m.spans[i]
		sp.at = len(m.keep)
		m.keep = append(m.keep, sp.buf[sp.lo:sp.hi]...)
	}
}

// forget drops the kept draw and its references to memory (at a buffer's
// end).
func (m *drawMemo) forget() {
	m.ok = false
	clear(m.spans)
	m.spans = m.spans[:0]
}
