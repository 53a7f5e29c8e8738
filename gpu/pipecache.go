package gpu

import (
	"unsafe"

	"d3dsim/gpu/isa"
)

// The pipe of a draw that follows another with nothing in between.
//
// A stream of draws with no state packet between them (the common case of
// an engine's batches, and of a page drawing a thousand small things a
// frame) resolves the same targets, viewport, scissor, depth, stencil and
// blend into the same pipe every time: preparePipe's work is a function of
// the state, the programs and the inspector's watches. pipeCache keeps the
// pipe preparePipe made, with what it depends on (the executor's state
// generation, bumped by every packet that is not a draw and by every buffer,
// whose state is new or restored after a preemption, and the programs'
// entries), and gives a copy of it to the next draw that finds them the
// same. Draws that prepare more than the pipe are not cached: a faulted
// draw (the warning colour), a multisampled target (prepareMS), a pixel
// program with UAVs (bindPixelUAVs binds them per draw), and any draw while
// the pixel or shader watch is set (the inspector changes the pipe).
type pipeCache struct {
	ok    bool
	gen   uint64
	progs [5]*progEntry // vs, ps, gs, hs, ds
	pipe  pipe
	// the pixel block's view of the target (runInstances drops it after
	// every draw so as not to keep the target's memory)
	words []uint32
	wp    int
	hits  uint64 // draws that took the copy (for tests)
	off   bool   // every draw prepares its pipe and programs, every triangle takes the clip path (for tests: the reference)
	// kept: the draw's pipe is pipe but for what a draw changes in it
	// (keepPipe), so the next draw that takes the copy resets those fields
	// instead of copying 1.7 KB. preparePipe, and anything else that
	// writes the draw's pipe outside a draw, clears it.
	kept  bool
	kepts uint64 // draws that took it so (for tests)
	// check, if set, sees every kept pipe before keepPipe resets it (for
	// tests: TestKeptPipe compares it with the copy not made)
	check func(kept *pipe)
}

// isDrawOp reports whether op is one of the draw packets, the only ones
// that leave the state generation alone.
func isDrawOp(op isa.Opcode) bool {
	switch op {
	case isa.OpDraw, isa.OpDrawIndexed, isa.OpDrawInstanced, isa.OpDrawIndexedInstanced,
		isa.OpDrawIndirect, isa.OpDrawIndexedIndirect:
		return true
	}
	return false
}

// progKey is the programs prepareProgram chose for the draw.
func (ps *progState) progKey() [5]*progEntry {
	return [5]*progEntry{ps.vs, ps.ps, ps.gs, ps.hs, ps.ds}
}

// cachedPipe is preparePipe for a draw that may reuse the last draw's pipe:
// the copy when nothing it depends on changed, otherwise preparePipe's
// work, kept for the next draw when it may be.
func (ex *executor) cachedPipe(faulted bool) bool {
	d := &ex.draw
	c := &d.pipeCache
	g := ex.g
	cacheable := !faulted && g.watch == nil && g.swatch == nil && !c.off
	key := d.prog.progKey()
	if cacheable && c.ok && c.gen == ex.gen && samePrograms(&c.progs, &key) { // (the arrays' == is a call to memequal)
		if c.kept {
			if c.check != nil {
				c.check(&d.pipe)
			}
			keepPipe(&d.pipe, &c.pipe)
			c.kepts++
		} else {
			setPipe(&d.pipe, &c.pipe)
			c.kept = true
		}
		d.vp, d.prog.curVP = ex.st.vp, 0
		d.prog.block.words, d.prog.block.wp = c.words, c.wp
		c.hits++
		return true
	}
	c.ok, c.words, c.kept = false, nil, false
	if !ex.preparePipe(faulted) {
		return false
	}
	p := &d.pipe
	if cacheable && p.ms.samples == 0 && ex.st.samples <= 1 && p.watch == nil &&
		(d.prog.ps == nil || !d.prog.ps.uav) {
		c.ok, c.gen, c.progs, c.pipe = true, ex.gen, key, *p
		c.words, c.wp = d.prog.block.words, d.prog.block.wp
		c.kept = true
	}
	return true
}

// keepPipe gives the draw's pipe p, which a draw left as the copy c but for
// what a draw changes, c's values of those: the counters, the stop, the
// primitive's provoking vertex, facing and line coverage, the early tests'
// phase and the multisampled counters. The scratch (rows, earlyPass) is
// written before it is read. A field a draw comes to change must be added
// here: TestKeptPipe compares the pipe with the copy after every draw.
func keepPipe(p, c *pipe) {
	p.shaded, p.passed, p.instrs, p.stop = c.shaded, c.passed, c.instrs, c.stop
	if p.pv != c.pv {
		p.pv = c.pv
	}
	p.front, p.earlyNow, p.lineCov = c.front, c.earlyNow, c.lineCov
	p.ms.extra, p.ms.cur = c.ms.extra, c.ms.cur
}

// alignPipePtrs gives dst src's pointer words (pointers, slices' arrays,
// the check func), each assigned only where it differs.
func alignPipePtrs(dst, src *pipe) {
	alignPtr(&dst.pv, src.pv)
	alignPtr(&dst.rts, src.rts)
	alignPtr(&dst.blends, src.blends)
	alignPtr(&dst.prog, src.prog)
	alignPtr(&dst.blk, src.blk)
	alignPtr(&dst.m, src.m)
	alignPtr(&dst.cols, src.cols)
	alignPtr(&dst.watch, src.watch)
	if *(*unsafe.Pointer)(unsafe.Pointer(&dst.check)) != *(*unsafe.Pointer)(unsafe.Pointer(&src.check)) {
		dst.check = src.check
	}
	for _, s := range [2][2]*surface{{&dst.rt, &src.rt}, {&dst.ds, &src.ds}} {
		alignSlice(&s[0].mem, s[1].mem)
		alignPtr(&s[0].layers, s[1].layers)
	}
	alignSlice(&dst.words, src.words)
	dm, sm := &dst.ms, &src.ms
	for i := range dm.cov {
		alignSlice(&dm.cov[i], sm.cov[i])
		alignSlice(&dm.full[i], sm.full[i])
	}
	alignSlice(&dm.rows, sm.rows)
	alignSlice(&dm.srows, sm.srows)
}

// alignPtr sets *d to s if it is not s already.
func alignPtr[T any](d **T, s *T) {
	if *d != s {
		*d = s
	}
}

// alignSlice sets *d to s if its array is not s's already (its length and
// capacity are setPipe's bytes).
func alignSlice[T any](d *[]T, s []T) {
	if unsafe.SliceData(*d) != unsafe.SliceData(s) {
		*d = s
	}
}
