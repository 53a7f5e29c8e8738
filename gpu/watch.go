package gpu

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"unsafe"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	tfmt "d3dsim/gpu/texel"
)

// The pixel watch: what an inspector's pixel history asks of the
// hardware. With a PixelWatch set, the command processor reports every
// packet that writes or reads one texel of memory, and a draw whose render
// target or depth buffer holds it reports each of its fragments there:
// the primitive, the pixel program's outputs, the coverage, stencil and
// depth tests with the values they compared, the blend's inputs and
// result, and the texel before and after. A draw that covers the texel
// takes the general output merger (mergeLane), one pixel at a time, so
// every fragment passes where it is recorded; the fast paths compute the
// same pixels (their tests hold them to it), so the picture does not
// change. With no watch (the default) the pipeline pays a nil check per
// packet and per pixel of the general path.

// PixelWatch is what to watch.
type PixelWatch struct {
	// Where returns the GPU address of the watched texel's first byte, as
	// the allocation that holds it lives now (ok false: it is nowhere the
	// GPU reaches). The command processor asks before every packet: an
	// allocation moves between DMA buffers (paging, eviction).
	Where func() (addr uint64, ok bool)
	// Size is the texel's bytes.
	Size int
	// Trace chooses the draws, by their DMA buffer and the word their
	// packet starts at, whose pixel program is traced at the watched pixel
	// (shader.Trace, in Fragment.Trace). Nil: none.
	Trace func(dma uint64, word int) bool
	// On receives each event, on the GPU's thread with the GPU's lock
	// held: it must not call the GPU.
	On func(PixelEvent)
	// Clip, if set, returns what the draw at a DMA buffer's word charged
	// in the run being replayed (SetDrawLog): a draw it knows and whose
	// targets hold the texel then rasterizes only the texel's 8x8 block
	// (watchclip.go). Spoiled says why the clipped run cannot be trusted
	// ("" when it can): read it once the GPU is done.
	Clip    func(dma uint64, word int) (DrawCharge, bool)
	Spoiled string
	Clipped int // draws clipped
	taint   []span
}

// PixelEvent is one packet that touched the watched texel.
type PixelEvent struct {
	DMA    uint64     // the DMA buffer
	Packet int        // the packet's ordinal in it
	Word   int        // and the word it starts at
	Op     isa.Opcode // what it is
	// Write: the packet wrote (or a fragment of it tried to write) the
	// texel; otherwise it only read it (a COPY's source, a SCANOUT).
	Write         bool
	Before, After []byte    // the texel's bytes around it (around the fragment for a draw)
	Fragment      *Fragment // a draw's fragment, nil for other packets
}

// Fragment is one fragment of a draw at the watched pixel.
type Fragment struct {
	X, Y   int
	Prim   int  // the primitive in the draw (instances counted on)
	Front  bool // it faces front
	B1, B2 float64
	// Target is the watched texel's binding: render target slot 0..7, or
	// -1 for the depth-stencil buffer; Format its surface's; Slice the
	// slice of a layered target it is in (SV_RenderTargetArrayIndex).
	Target int
	Slice  int
	Format isa.Format
	// Discarded: the pixel program discarded it; Fault: the draw faulted
	// (its fragments take the warning colour).
	Discarded, Fault bool
	// Coverage is why the output merger dropped it before its tests (the
	// sample mask, alpha-to-coverage), "" when it did not.
	Coverage string
	// Depth is the depth tested (SV_Depth when OwnDepth), clamped to the
	// viewport's range.
	Depth    float64
	OwnDepth bool
	// The stencil test: the reference and the stored value (before the
	// test's write), both through the read mask, the function, the result
	// and the value after.
	StencilTest                 bool
	StencilPass                 bool
	StencilFunc                 uint32
	StencilRef, StencilReadMask uint8
	StencilBefore, StencilAfter uint8
	// The depth test: the stored depth before it, the function, the result.
	DepthTest   bool
	DepthPass   bool
	DepthFunc   uint32
	DepthBefore float64
	DepthWrite  bool
	// Passed: it survived coverage and both tests.
	Passed bool
	// Outputs are the pixel program's o# registers for it (float or
	// integer bits).
	Outputs [][4]uint32
	// Blend is what the output merger did with the watched render
	// target's colour (nil for the depth buffer, or when no colour was
	// written).
	Blend *BlendRecord
	// Trace is the pixel program traced for it (PixelWatch.Trace),
	// Lane its lane in the traced quad (0..3).
	Trace *shader.Trace
	Lane  int
}

// BlendRecord is the blend of one fragment into one render target.
type BlendRecord struct {
	Enable                       bool
	Src, Src1, Dst, Factor       [4]float32 // the blend's inputs: the program's colour, its second output, the target's, the blend factor
	Result                       [4]float32 // what the blend made (the source when it is off), before the write mask
	Mask                         uint8      // the write mask
	SrcBlend, DestBlend, Op      uint32
	SrcAlpha, DestAlpha, OpAlpha uint32
	Whole                        bool // the warning colour of a faulted draw, written whole
}

// SetPixelWatch sets the pixel watch (nil: none).
func (g *GPU) SetPixelWatch(w *PixelWatch) {
	g.mu.Lock()
	g.watch = w
	g.mu.Unlock()
}

// packetWatch is the command processor's side of the watch while a packet
// runs.
type packetWatch struct {
	inside bool   // watchExec is running the packet
	addr   uint64 // the texel's address for this packet
	texel  []byte // its bytes in memory (nil: not committed)
	word   int    // the packet's first word
	// draw is the draw's watch when one of its targets holds the texel,
	// in whichever slice (the pipe's watch only while the draw renders
	// into that slice: watchLayer).
	draw *watchDraw
}

// watchLayer follows a layered draw to slice i of its targets (useLayer):
// the pipe watches the texel while the draw renders into the slice that
// holds it, and not otherwise (a fragment at the same pixel of another
// slice is not the texel's).
func (ex *executor) watchLayer(i uint32) {
	wd := ex.wx.draw
	if wd == nil {
		return
	}
	p := &ex.draw.pipe
	s, cur := &ex.st.ds, 0
	if wd.slot >= 0 {
		s = &ex.st.rt[wd.slot]
	}
	if s.layers != nil && i < uint32(s.layers.n) {
		cur = int(i)
	}
	p.watch = nil
	if cur == wd.layer {
		p.watch, wd.surf = wd, &p.ds
		if wd.slot >= 0 {
			wd.surf = &p.rts[wd.slot]
		}
	}
}

// watchExec runs packet p under the watch: the texel before and after,
// and what the packet did to it.
func (ex *executor) watchExec(p isa.Packet) {
	w := ex.g.watch
	wx := &ex.wx
	wx.inside, wx.word, wx.texel = true, p.At, nil
	defer func() { wx.inside = false }()
	if addr, ok := w.Where(); ok && w.Size > 0 {
		if b, ok := ex.g.mem.Bytes(addr, uint64(w.Size)); ok {
			wx.addr, wx.texel = addr, b
		}
	}
	before := bytes.Clone(wx.texel)
	ex.watchTaint(p)
	ex.exec(p)
	ex.watchTaintAfter(p)
	if wx.texel == nil {
		return
	}
	ev := PixelEvent{DMA: ex.dma, Packet: ex.pkt, Word: p.At, Op: p.Op, Before: before}
	write, read := false, false
	a := p.Args
	in := func(at uint64, n uint64) bool { return wx.addr >= at && wx.addr < at+n }
	switch p.Op {
	case isa.OpClearRT, isa.OpClearDS, isa.OpClearStencil:
		write = len(a) >= 6 && in(p.Addr(0), surfaceBytes(a))
	case isa.OpCopy:
		write = len(a) >= 5 && in(p.Addr(0), uint64(a[4]))
		read = len(a) >= 5 && in(p.Addr(2), uint64(a[4]))
	case isa.OpWrite, isa.OpFill:
		write = len(a) >= 3 && in(p.Addr(0), uint64(a[2]))
	case isa.OpScanout:
		read = len(a) >= 6 && in(p.Addr(0), surfaceBytes(a))
	case isa.OpDraw, isa.OpDrawIndexed, isa.OpDrawInstanced, isa.OpDrawIndexedInstanced:
		return // its fragments reported themselves (watchMerge)
	}
	if !write && !bytes.Equal(before, wx.texel) {
		write = true // any other packet that changed it
	}
	switch {
	case write:
		ev.Write = true
	case !read:
		return
	}
	ev.After = bytes.Clone(wx.texel)
	w.On(ev)
}

// surfaceBytes is the extent of the surface fields addr(2) w h pitch fmt.
func surfaceBytes(a []uint32) uint64 {
	w, h, pitch, f := a[2], a[3], a[4], isa.Format(a[5])
	if h == 0 {
		return 0
	}
	if !f.Known() {
		return uint64(pitch) * uint64(h)
	}
	return uint64(pitch)*uint64(f.Rows(h)-1) + f.RowBytes(w)
}

// watchDraw is a draw's side of the watch: the pixel and the surface that
// hold the watched texel.
type watchDraw struct {
	w       *PixelWatch
	ex      *executor
	x, y    int
	layer   int // the slice of a layered target that holds the texel
	slot    int // render target slot, -1 the depth buffer
	surf    *surface
	inside  bool          // watchMerge is running mergeLane
	block   bool          // watchRunBlock is running the pixel's block
	traced  bool          // this draw's pixel program is traced
	pending *shader.Trace // the trace of the block being shaded, for its fragment
	lane    int
}

// watchPipe sets the draw's pipe up for the watch when one of its targets
// holds the texel: the general path for every pixel.
func (ex *executor) watchPipe() {
	wx := &ex.wx
	p := &ex.draw.pipe
	p.watch = nil
	if wx.texel == nil {
		return
	}
	wx.draw = nil
	ptr := uintptr(unsafe.Pointer(unsafe.SliceData(wx.texel)))
	// at finds the texel in a surface: in its first slice, or in another
	// slice of a layered one (layer).
	at := func(s *surface) (x, y, layer int, ok bool) {
		if !s.bound() || len(s.mem) == 0 {
			return 0, 0, 0, false
		}
		mem := s.mem
		if s.layers != nil {
			mem = s.layers.all
		}
		base := uintptr(unsafe.Pointer(unsafe.SliceData(mem)))
		if ptr < base || ptr >= base+uintptr(len(mem)) {
			return 0, 0, 0, false
		}
		off := int(ptr - base)
		if s.layers != nil && s.layers.pitch > 0 {
			layer, off = off/s.layers.pitch, off%s.layers.pitch
			if off >= len(s.mem) || layer >= s.layers.n {
				return 0, 0, 0, false
			}
		}
		y, x = off/s.pitch, off%s.pitch/max(s.bpp, 1)
		return x, y, layer, x < s.w && y < s.h
	}
	wd := &watchDraw{w: ex.g.watch, ex: ex, slot: -2}
	for k := range p.nrt {
		if x, y, layer, ok := at(&p.rts[k]); ok {
			wd.x, wd.y, wd.layer, wd.slot, wd.surf = x, y, layer, k, &p.rts[k]
			break
		}
	}
	if wd.slot == -2 {
		if x, y, layer, ok := at(&ex.st.ds); ok {
			wd.x, wd.y, wd.layer, wd.slot, wd.surf = x, y, layer, -1, &ex.st.ds
		}
	}
	if wd.slot == -2 {
		return
	}
	wd.traced = wd.w.Trace != nil && wd.w.Trace(ex.dma, wx.word)
	wx.draw = wd
	if wd.layer == 0 {
		p.watch = wd // (another slice: watchLayer, once the draw reaches it)
	}
	ex.watchClip(wd)
	// Bands on other goroutines would report out of order: one goroutine.
	p.tileable = false
	if p.kind == spanSolid {
		// A faulted draw's warning colour: every pixel through mergeLane.
		p.generic, p.fast, p.kind = true, false, spanGeneric
	}
}

// The watched pixel takes the general output merger, the rest of the draw
// its fast paths: the block holding the pixel runs through watchRunBlock,
// a run of Gouraud spans over it through the pixel program (programRows),
// and a pixel with no program through mergeLane.

// covers reports whether the block at (tx, ty) shades the watched pixel.
func (wd *watchDraw) covers(tx, ty int, mask uint64) bool {
	if wd.block || wd.x < tx || wd.x >= tx+8 || wd.y < ty || wd.y >= ty+8 {
		return false
	}
	return mask>>shader.QuadLane(wd.x-tx, wd.y-ty)&1 != 0
}

// inRows reports whether the rows of spans cover the watched pixel.
func (wd *watchDraw) inRows(rows []rowSpan) bool {
	for _, r := range rows {
		if r.y == wd.y && r.x0 <= wd.x && wd.x < r.x1 {
			return true
		}
	}
	return false
}

// watchRunBlock runs the block holding the watched pixel as runBlock does,
// through the general path: each live lane through mergeLane (the watched
// one through watchMerge), no fused or word-at-a-time writes.
func (p *pipe) watchRunBlock(t *tri, tx, ty int, mask, quads uint64, ri, bi int) {
	wd, blk := p.watch, p.blk
	generic, fast, words, fused := p.generic, p.fast, blk.words, blk.fused.on
	p.generic, p.fast, blk.words, blk.fused.on = true, false, nil, false
	if blk.kind[0] != perLane || blk.kind[1] != perLane {
		// Weights by row and column: the lanes' own, which mergeLane reads.
		for l := range blk.b1 {
			x, y := laneXY[l][0], laneXY[l][1]
			for k, w := range [2]*[shader.Lanes]float64{&blk.b1, &blk.b2} {
				if blk.kind[k] == perRow {
					w[l] = blk.w8[k][y]
				} else {
					w[l] = blk.w8[k][x]
				}
			}
		}
	}
	wd.block = true
	p.runBlock(t, tx, ty, mask, quads, ri, bi)
	wd.block = false
	p.generic, p.fast, blk.words, blk.fused.on = generic, fast, words, fused
}

// watchPixel runs the watched pixel of a draw with no pixel program
// through mergeLane (pixel's other path writes it straight).
func (p *pipe) watchPixel(t *tri, x, y int, b1, b2 float64) {
	generic, fast := p.generic, p.fast
	p.generic, p.fast = true, false
	p.mergeLane(t, x, y, -1, b1, b2)
	p.generic, p.fast = generic, fast
}

// watchTrace returns the trace to run the block at (tx, ty) with, when it
// shades the watched pixel of the traced draw (nil otherwise).
func (p *pipe) watchTrace(tx, ty int, mask uint64) *shader.Trace {
	wd := p.watch
	wd.pending = nil
	if !wd.traced || !wd.block || wd.x < tx || wd.x >= tx+8 || wd.y < ty || wd.y >= ty+8 {
		return nil
	}
	l := shader.QuadLane(wd.x-tx, wd.y-ty)
	if mask>>l&1 == 0 {
		return nil
	}
	wd.pending, wd.lane = &shader.Trace{Quad: l / 4}, l%4
	return wd.pending
}

// watchBlock records the watched pixel's fragment when the pixel program
// discarded it (the lanes alive go on to mergeLane).
func (p *pipe) watchBlock(t *tri, tx, ty int, mask, alive uint64) {
	wd := p.watch
	if !wd.block || wd.x < tx || wd.x >= tx+8 || wd.y < ty || wd.y >= ty+8 {
		return
	}
	l := shader.QuadLane(wd.x-tx, wd.y-ty)
	if mask>>l&1 == 0 || alive>>l&1 != 0 {
		return
	}
	f := wd.fragment(p, t, l, p.blk.b1[l], p.blk.b2[l])
	f.Discarded = true
	wd.report(f, wd.texel(), wd.texel())
}

// texel is a copy of the watched texel's bytes now.
func (wd *watchDraw) texel() []byte {
	s := wd.surf
	o := wd.y*s.pitch + wd.x*s.bpp
	return bytes.Clone(s.mem[o : o+s.bpp])
}

// fragment starts the record of lane l's fragment (l -1: no program).
func (wd *watchDraw) fragment(p *pipe, t *tri, l int, b1, b2 float64) *Fragment {
	f := &Fragment{X: wd.x, Y: wd.y, Slice: wd.layer, Prim: wd.ex.draw.prim, Front: t.front, B1: b1, B2: b2, Target: wd.slot,
		Format: wd.surf.fmt, Fault: p.fault}
	if l >= 0 && p.prog != nil {
		for r := range p.outs {
			f.Outputs = append(f.Outputs, laneOut(p, r, l))
		}
	}
	if wd.pending != nil {
		f.Trace, f.Lane = wd.pending, wd.lane
		wd.pending = nil
	}
	return f
}

func (wd *watchDraw) report(f *Fragment, before, after []byte) {
	wd.w.On(PixelEvent{DMA: wd.ex.dma, Packet: wd.ex.pkt, Word: wd.ex.wx.word, Op: wd.ex.op, Write: true,
		Before: before, After: after, Fragment: f})
}

// watchMerge runs the output merger for the watched pixel's fragment (lane
// l of the pixel program, -1 for none) and records what each stage did.
func (p *pipe) watchMerge(t *tri, x, y, l int, b1, b2 float64) {
	wd := p.watch
	f := wd.fragment(p, t, l, b1, b2)
	prog := l >= 0 && p.prog != nil
	switch {
	case p.sampleMask&1 == 0 && !p.fault:
		f.Coverage = fmt.Sprintf("the sample mask %#x leaves out sample 0, the pixel's one sample (SampleMask of OMSetBlendState)", p.sampleMask)
	case prog && p.covOut >= 0 && p.m.Out(p.covOut)[0][l]&1 == 0 && !p.fault:
		f.Coverage = fmt.Sprintf("the pixel shader's SV_Coverage %#x leaves out sample 0, the pixel's one sample", p.m.Out(p.covOut)[0][l])
	case prog && p.a2c && p.outs > 0 && !p.fault:
		if a := math.Float32frombits(p.m.Out(0)[3][l]); !(a >= 0.5) {
			f.Coverage = fmt.Sprintf("alpha-to-coverage: o0.a = %g covers no sample (below 0.5)", a)
		}
	}
	z, own := 0.0, false
	if prog && p.depthOut >= 0 {
		z, own = float64(math.Float32frombits(p.m.Out(p.depthOut)[0][l])), true
	}
	if !own {
		z = t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)
	} else if p.depthKind != isa.DepthOutAny {
		z = p.conservative(t, b1, b2, z)
	}
	if !(z >= p.zmin) {
		z = p.zmin
	} else if z > p.zmax {
		z = p.zmax
	}
	f.Depth, f.OwnDepth = z, own
	var dsBefore []byte
	ds := &p.ds
	if (p.depth || p.stencil) && ds.bound() {
		o := y*ds.pitch + ds.bpp*x
		dsBefore = bytes.Clone(ds.mem[o : o+ds.bpp])
	}
	before := wd.texel()
	passed := p.passed
	wd.inside = true
	p.mergeLane(t, x, y, l, b1, b2)
	wd.inside = false
	after := wd.texel()
	f.Passed = p.passed > passed
	if f.Coverage == "" && dsBefore != nil {
		o := y*ds.pitch + ds.bpp*x
		dsAfter := ds.mem[o : o+ds.bpp]
		si := 3
		if ds.fmt == isa.FmtD32FS8 {
			si = 4
		}
		stencilPass := true
		if p.stencil {
			face := &p.st.face[0]
			if !t.front {
				face = &p.st.face[1]
			}
			f.StencilTest, f.StencilFunc = true, face.Func
			f.StencilRef, f.StencilReadMask = p.st.ref, p.st.readMask
			f.StencilBefore, f.StencilAfter = dsBefore[si], dsAfter[si]
			rm := uint32(p.st.readMask)
			stencilPass = compare(face.Func, uint32(p.st.ref)&rm, uint32(dsBefore[si])&rm)
			f.StencilPass = stencilPass
		}
		if p.depth && stencilPass {
			f.DepthTest, f.DepthFunc, f.DepthWrite = true, p.depthFn, p.depthWrite
			f.DepthBefore = depthValue(ds.fmt, dsBefore)
			f.DepthPass = f.Passed
		}
	}
	if f.Passed && p.color && wd.slot >= 0 {
		f.Blend = p.blendRecord(wd.slot, l, prog, before)
	}
	wd.report(f, before, after)
}

// blendRecord is what mergeTarget does with lane l's colour for target k,
// whose texel held before.
func (p *pipe) blendRecord(k, l int, prog bool, before []byte) *BlendRecord {
	rt := &p.rts[k]
	b := &p.blends[k]
	r := &BlendRecord{Mask: uint8(b.mask), SrcBlend: b.src, DestBlend: b.dst, Op: b.op, SrcAlpha: b.srcA, DestAlpha: b.dstA, OpAlpha: b.opA}
	r.Dst = floats(tfmt.Decode(rt.fmt, before))
	r.Factor = p.blendFactor
	if p.fault {
		r.Src, r.Result, r.Mask, r.Whole = warning, warning, 0xF, true
		return r
	}
	if !prog || k >= p.outs || k == p.depthOut {
		return nil
	}
	r.Src = floats(laneOut(p, k, l))
	if k == 0 && p.outs > 1 {
		r.Src1 = floats(laneOut(p, 1, l))
	}
	r.Result = r.Src
	if b.enable && !rt.fmt.Int() {
		r.Enable = true
		in := blendInputs{src: r.Src, src1: r.Src1, dst: r.Dst, bf: r.Factor}
		r.Result = blendOps(b, &in, rt.fmt.Info().Number)
	}
	return r
}

// depthValue is the depth a depth-buffer texel holds.
func depthValue(f isa.Format, px []byte) float64 {
	switch f {
	case isa.FmtD32F, isa.FmtD32FS8:
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(px)))
	case isa.FmtD16:
		return float64(binary.LittleEndian.Uint16(px)) / 0xFFFF
	}
	return float64(binary.LittleEndian.Uint32(px)&0xFFFFFF) / 0xFFFFFF
}
