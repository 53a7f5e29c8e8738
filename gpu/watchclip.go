package gpu

import (
	"fmt"
	"unsafe"

	"d3dsim/gpu/isa"
)

// The clipped pixel watch: a pixel's history needs one texel, not the
// frame. With PixelWatch.Clip set, a draw whose target holds the watched
// texel rasterizes only the 8x8 block of pixels that holds it (the
// rasterizer's own block, so the pixel's 2x2 quad, its derivatives and a
// traced program are those of the whole draw), and it is charged what the
// same draw charged in the run the watch replays (DrawCharge, from
// SetDrawLog): its pixels shaded, samples passed and pixel-program
// instructions, so virtual time, queries, statistics and the run's limits
// are the run's. The pixels of its targets outside the block are left as
// they were: the watch notes them (the taint) and reports in
// PixelWatch.Spoiled any later packet that reads them for anything but a
// clipped draw's output merger at the same block — a texture, a buffer, a
// copy's source (a copy carries the taint to its destination, which only
// the display may read) or the target of a draw that is not clipped — and
// the caller runs again without clipping.

// DrawCharge is what one draw charged for its pixels.
type DrawCharge struct {
	Shaded, Passed, Instrs uint64
}

// SetDrawLog sets a function that receives every draw's charge, by its
// DMA buffer and the word its packet starts at, on the GPU's thread (nil:
// none). A draw that faulted or stopped is not logged: it cannot be
// clipped.
func (g *GPU) SetDrawLog(f func(dma uint64, word int, c DrawCharge)) {
	g.mu.Lock()
	g.drawLog = f
	g.mu.Unlock()
}

// clipBlock is a clipped draw's block and the charge it takes.
type clipBlock struct {
	on     bool
	x0, y0 int
	charge DrawCharge
}

// span is a range of memory the taint covers.
type span struct{ lo, hi uintptr }

func spanOf(b []byte) span {
	if len(b) == 0 {
		return span{}
	}
	lo := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return span{lo, lo + uintptr(len(b))}
}

func (s span) meets(b []byte) bool {
	o := spanOf(b)
	return s.hi > s.lo && o.hi > o.lo && o.lo < s.hi && s.lo < o.hi
}

// watchClip decides whether the watched draw is clipped, and narrows its
// pixels to the watched pixel's block when it is.
func (ex *executor) watchClip(wd *watchDraw) {
	w, s, d := wd.w, &ex.st, &ex.draw
	p := &d.pipe
	if w.Clip == nil || w.Spoiled != "" || p.fault || p.ms.samples > 1 || d.prog.gs != nil || d.prog.hs != nil {
		return
	}
	for i := range s.psUAV {
		if s.psUAV[i].bound {
			return
		}
	}
	c, ok := w.Clip(ex.dma, ex.wx.word)
	if !ok {
		return
	}
	d.clip = clipBlock{on: true, x0: wd.x &^ 7, y0: wd.y &^ 7, charge: c}
	w.Clipped++
	ex.clipBounds()
	for k := range p.nrt {
		if s.rt[k].bound() {
			w.addTaint(s.rt[k].mem)
		}
	}
	if s.ds.bound() {
		w.addTaint(s.ds.mem)
	}
}

// addTaint notes memory b as left partly drawn.
func (w *PixelWatch) addTaint(b []byte) {
	t := spanOf(b)
	for _, o := range w.taint {
		if o.lo <= t.lo && t.hi <= o.hi {
			return
		}
	}
	w.taint = append(w.taint, t)
}

// clipBounds narrows the draw's pixels to its clip block.
func (ex *executor) clipBounds() {
	c, p := &ex.draw.clip, &ex.draw.pipe
	if !c.on {
		return
	}
	p.sx0, p.sy0 = max(p.sx0, c.x0), max(p.sy0, c.y0)
	p.sx1, p.sy1 = min(p.sx1, c.x0+8), min(p.sy1, c.y0+8)
}

// chargeClipped replaces a clipped draw's counts by the run's.
func (ex *executor) chargeClipped() {
	d := &ex.draw
	if !d.clip.on {
		return
	}
	p, c := &d.pipe, d.clip.charge
	p.shaded, p.passed, p.instrs, p.ms.extra = c.Shaded, c.Passed, c.Instrs, 0
}

// logDraw hands a finished draw's charge to the draw log.
func (ex *executor) logDraw(faults uint64) {
	g, d := ex.g, &ex.draw
	if g.drawLog == nil || d.stop || ex.res.overrun != "" || g.stats.Faults != faults || d.clip.on {
		return
	}
	p := &d.pipe
	g.drawLog(ex.dma, ex.at, DrawCharge{Shaded: p.shaded + p.ms.extra, Passed: p.passed, Instrs: p.instrs})
}

// watchTaint checks packet p, about to run under a clipping watch, for a
// read of the pixels clipped draws left behind (before), and notes what a
// copy carries (after).
func (ex *executor) watchTaint(p isa.Packet) {
	w := ex.g.watch
	if w.Clip == nil || len(w.taint) == 0 || w.Spoiled != "" {
		return
	}
	s := &ex.st
	read := func(b []byte, what string) bool {
		for _, t := range w.taint {
			if t.meets(b) {
				w.Spoiled = fmt.Sprintf("%s (DMA buffer %d, word %d) reads %s, which a clipped draw left partly drawn", p.Op, ex.dma, p.At, what)
				return true
			}
		}
		return false
	}
	switch p.Op {
	case isa.OpDraw, isa.OpDrawIndexed, isa.OpDrawInstanced, isa.OpDrawIndexedInstanced, isa.OpDrawIndirect, isa.OpDrawIndexedIndirect, isa.OpDrawAuto,
		isa.OpDispatch, isa.OpDispatchIndirect:
		for st := range s.tex {
			for k := range s.tex[st] {
				if read(s.tex[st][k].mem, "a texture") {
					return
				}
				if v := s.view[st][k]; v != nil && read(v.mem, "a view") {
					return
				}
			}
			for k := range s.cb[st] {
				if read(s.cb[st][k], "a constant buffer") {
					return
				}
			}
		}
		for k := range s.vb {
			if read(s.vb[k].mem, "a vertex buffer") {
				return
			}
		}
		if read(s.ib.mem, "the index buffer") {
			return
		}
		for k := range s.uav {
			if read(s.uav[k].view.Mem, "an unordered-access view") || read(s.psUAV[k].view.Mem, "an unordered-access view") {
				return
			}
		}
		for k := range s.so.target {
			if read(s.so.target[k].mem, "a stream-output buffer") {
				return
			}
		}
		if isa.PredicatedOp(p.Op) && p.Op != isa.OpDispatch && p.Op != isa.OpDispatchIndirect {
			ex.clipCheckTargets = true // after the draw: its targets, unless it was clipped
		}
	case isa.OpResolve, isa.OpCopy:
		n := uint64(0)
		if p.Op == isa.OpCopy && len(p.Args) >= 5 {
			n = uint64(p.Args[4])
		}
		if p.Op == isa.OpResolve {
			// (a multisampled draw is never clipped: a resolve's source
			// meets the taint only as a one-sample surface resolved)
			if len(p.Args) >= 6 {
				if src, ok := ex.g.mem.Bytes(p.Addr(2), 1); ok {
					read(src, "a resolve's source")
				}
			}
			return
		}
		if src, ok := ex.g.mem.Bytes(p.Addr(2), n); ok {
			for _, t := range w.taint {
				if t.meets(src) {
					if dst, ok := ex.g.mem.Bytes(p.Addr(0), n); ok {
						w.addTaint(dst)
					}
					break
				}
			}
		}
	}
}

// watchTaintAfter checks a draw that was not clipped for targets the
// taint covers.
func (ex *executor) watchTaintAfter(p isa.Packet) {
	if !ex.clipCheckTargets {
		return
	}
	ex.clipCheckTargets = false
	w, s := ex.g.watch, &ex.st
	if ex.draw.clip.on || w.Spoiled != "" {
		return
	}
	for _, t := range w.taint {
		for k := range s.rt {
			if t.meets(s.rt[k].mem) {
				w.Spoiled = fmt.Sprintf("%s (DMA buffer %d, word %d) draws into a render target a clipped draw left partly drawn", p.Op, ex.dma, p.At)
				return
			}
		}
		if t.meets(s.ds.mem) {
			w.Spoiled = fmt.Sprintf("%s (DMA buffer %d, word %d) tests against a depth buffer a clipped draw left partly drawn", p.Op, ex.dma, p.At)
			return
		}
	}
}
