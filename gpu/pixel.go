package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"encoding/binary"
	"math"
	"unsafe"
)

// The pixel half of a draw: depth test, pixel program, blending and the write
// to the render target, for one pixel at a time.

// warning is the colour of a faulting draw's pixels: opaque magenta.
var warning = [4]float32{1, 0, 1, 1}

// pipe is the pixel pipeline of one draw, resolved from the state.
type pipe struct {
	sx0, sy0, sx1, sy1 int // scissor: viewport ∩ targets, x1/y1 exclusive
	tw, th             int // the targets' size
	lo, hi             int // attributes the pixel program reads
	// pv is the provoking vertex's attributes, for constant inputs
	// (interp.go): the primitive's first vertex, before clipping.
	pv *[numAttr]float64

	rt    surface // render target 0, for the fast paths
	color bool    // a colour is written
	fast  bool    // no blending, all four channels written
	fault bool    // the draw faulted: its pixels get the warning colour
	blend blendState

	// The general output merger (mergeLane): every render target (nrt:
	// 1 + the highest slot bound) and its blend, the blend factor, the
	// sample mask, alpha-to-coverage, the stencil, the pixel program's
	// depth output. generic: the draw needs it.
	generic     bool
	rts         *[isa.MaxRenderTargets]surface
	blends      *[isa.MaxRenderTargets]blendState
	nrt         int
	blendFactor [4]float32
	sampleMask  uint32
	a2c         bool
	stencil     bool // the stencil test is on (enabled, with a depth buffer that has stencil)
	st          stencilState
	depthOut    int    // the pixel program's output register of SV_Depth, or -1 (set with the program)
	depthKind   uint32 // and how the output merger takes it (isa.DepthOutAny, DepthOutGE, DepthOutLE)
	// early: the depth and stencil tests run before the pixel program
	// (early.go), earlyNow while they do (at the merge they are done).
	early, earlyNow bool
	earlyPass       [shader.Lanes]uint32 // on a multisampled target: each lane's samples that passed them
	// lineCov is the coverage of the alpha-antialiased line's pixel being
	// shaded, which multiplies o0.a (aaline.go); 0 for none.
	lineCov float32
	covOut  int  // its output register of SV_Coverage (oMask), or -1 (msaa.go)
	outs    int  // the pixel program's outputs
	front   bool // the primitive being drawn faces front (stencil faces, SV_IsFrontFace)

	// Depth bias (om.go): on, r for a UNORM depth buffer (0: float), and
	// the rasterizer state's three values.
	bias              bool
	biasR             float32
	depthBias         int32
	biasClamp, biasSS float32

	ds         surface
	depth      bool // depth test on (enabled and a depth buffer bound)
	depthWrite bool
	depthFn    uint32
	zmin, zmax float64

	tileable bool // may be rasterized in bands by several goroutines (tiles.go)

	prog *progState // the pixel program (pixelstage.go), or nil: none, or a fault
	// blk and m are the block scratch and the machine that run it: the
	// draw's, or a tile worker's own (tiles.go).
	blk *psBlock
	m   *shader.Machine

	rows   [blk]rowSpan // the rows of a block on their way to spans (not zeroed per block)
	kind   spanKind
	px     [4]byte  // spanSolid's pixel, in the target's byte order
	words  []uint32 // spanColor's view of the target (pixelWords), or nil
	wpitch int      // its row pitch in words
	// ch are the attributes spanColor writes as red, green, blue and
	// alpha: an input register's (through its swizzle) for a pixel
	// program that copies it (pixelstage.go).
	ch [4]uint8
	// colorOnly: the pixel program reads only the four attributes ch
	// names, in order, and interpolates them linearly
	// (raster.go: setupColor).
	colorOnly bool
	// copySteps is the copy program's instructions a pixel (1, or 2 with
	// its ret): what the machine would count for each (Stats.Instructions).
	copySteps uint64

	// cols is where spanColorCols keeps its column terms: the draw's, or a
	// tile worker's own (tiles.go). Outside the pipe, which is reset for
	// every draw: 6 KB to clear per Draw call would cost more than a
	// degenerate draw's whole rasterization. Nil: no spanColorCols.
	cols *colTerms

	shaded uint64 // pixels covered
	passed uint64 // samples that passed the depth test (occlusion)
	instrs uint64 // pixel program instructions executed (Stats.Instructions)

	// check is the draw's checkpoint (draw.go), nil on a tile worker's
	// pipe; stop is set once it said stop, and the rasterizer returns.
	check func() bool
	stop  bool

	watch *watchDraw // the pixel watch's, when a target holds its texel (watch.go)

	ms msPipe // a multisampled draw's (msaa.go)
}

// preparePipe resolves the draw's viewport and pixel pipeline. It reports
// false when there is nothing to draw to: no render target or depth buffer,
// no viewport set, or none of the viewport's pixels on the targets.
func (ex *executor) preparePipe(faulted bool) bool {
	s, d := &ex.st, &ex.draw
	p := &d.pipe
	*p = pipe{cols: &d.cols, depthOut: -1, covOut: -1, check: d.check}
	d.pipeCache.kept = false
	// The pixels are those of the targets bound, render targets and depth
	// buffer alike (Direct3D 11 requires them the same size).
	w, h, any := math.MaxInt, math.MaxInt, false
	for k := range s.rt {
		if r := &s.rt[k]; r.bound() {
			w, h, any = min(w, r.w), min(h, r.h), true
			p.nrt = k + 1
		}
	}
	if s.ds.bound() {
		w, h, any = min(w, s.ds.w), min(h, s.ds.h), true
	}
	if !any {
		if w, h, any = ex.uavOnlySize(); !any {
			return false
		}
	} else if s.samples > 1 && !ex.prepareMS(&w) {
		return false
	}
	// No viewport, no pixels: Direct3D 11 has no implicit full-target
	// viewport (the runtime's default state, and ClearState's, sets none).
	if !s.vpSet {
		return false
	}
	d.vp, d.prog.curVP = s.vp, 0
	vp := &d.vp
	p.tw, p.th = w, h
	if !ex.viewportBounds(0) && ex.draw.prog.gs == nil {
		return false // (a geometry program may choose another viewport: SV_ViewportArrayIndex)
	}
	p.bias = !faulted && (s.depthBias != 0 || s.biasSS != 0) && s.ds.bound()
	if p.bias {
		p.biasR = biasUnit(s.ds.fmt)
		p.depthBias, p.biasClamp, p.biasSS = s.depthBias, s.biasClamp, s.biasSS
	}

	// A faulted draw writes the warning colour everywhere it covers, with
	// no depth test and no blending; otherwise the pixel program, if any
	// (preparePixelProgram), writes the colour: with none the draw tests
	// and writes depth only.
	p.rt, p.fault, p.blend = s.rt[0], faulted, s.blend[0]
	p.rts, p.blends = &s.rt, &s.blend
	p.blendFactor, p.sampleMask, p.a2c = s.blendFactor, s.sampleMask, s.a2c
	// The fast paths write one 8-bit RGBA or BGRA target; everything else
	// (other formats, several targets, the stencil, the sample mask,
	// alpha-to-coverage, the blend factor and dual-source factors) goes
	// through mergeLane, a pixel at a time.
	rt8 := (s.rt[0].fmt == isa.FmtRGBA8 || s.rt[0].fmt == isa.FmtBGRA8) && p.nrt == 1
	if faulted {
		p.color, p.fast = p.nrt > 0, rt8
		p.generic = !rt8 && p.color
	} else {
		p.fast = rt8 && !s.blend[0].enable && s.blend[0].mask == 0xF
		p.ds = s.ds
		p.depth = s.depth.enable && s.ds.bound()
		p.depthWrite, p.depthFn = s.depth.write, s.depth.fn
		p.zmin, p.zmax = min(vp.minZ, vp.maxZ), max(vp.minZ, vp.maxZ)
		p.stencil = s.stencil.enable && s.ds.bound() && s.ds.fmt.Info().Stencil
		p.st = s.stencil
		p.generic = (p.nrt > 0 && !rt8) || p.stencil || s.sampleMask&1 == 0 || s.a2c || extendedBlend(s.blend[:max(p.nrt, 1)])
	}
	if p.ms.samples > 1 {
		p.generic = true // every sample through mergeMS
	}
	if p.generic {
		p.fast = false
	}
	p.tileable = p.isTileable() && p.ms.samples == 0
	p.chooseSpan()
	ex.preparePixelProgram(faulted)
	if ex.g != nil && ex.g.watch != nil && p.ms.samples == 0 {
		ex.watchPipe() // (a multisampled draw's pixels are not watched: msaa.go)
	}
	return true
}

// extendedBlend reports whether a blend of bs uses a factor past the first
// ten (the blend factor, saturated alpha, dual-source): only the general
// path (mergeLane) knows them.
func extendedBlend(bs []blendState) bool {
	for i := range bs {
		b := &bs[i]
		if b.enable && max(b.src, b.dst, b.srcA, b.dstA) > isa.BlendInvDestColor {
			return true
		}
	}
	return false
}

// chooseSpan picks the draw's fast path (span) when it has no pixel
// program: the warning colour's for a faulted draw; preparePixelProgram
// picks a program's.
func (p *pipe) chooseSpan() {
	p.kind = spanGeneric
	ri, bi := p.order()
	p.words = nil
	if p.fault && p.color && p.fast && !p.depth {
		c := warning
		p.kind = spanSolid
		p.px[ri], p.px[1], p.px[bi], p.px[3] = unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])
	}
}

// order returns the byte offsets of red and blue in a target pixel.
func (p *pipe) order() (ri, bi int) {
	if p.rt.fmt == isa.FmtBGRA8 {
		return 2, 0
	}
	return 0, 2
}

// rowSpan is a run of covered pixels x0..x1-1 of row y; w1 and w2 are the
// values, at x0, of the edges opposite vertices 1 and 2 (their barycentric
// weights times the area), exact integers.
type rowSpan struct {
	y, x0, x1 int
	w1, w2    int64
}

// spans runs the pipeline for runs of covered pixels of triangle t (at most
// a block's rows at a time, so that a small triangle costs one call).
//
// Fast paths for the common cases, chosen once per draw (chooseSpan,
// preparePixelProgram) and per triangle (setupAttrs), fall back to the
// pixel program a block at a time; each computes exactly what pixel would,
// so the pictures are the same.
func (p *pipe) spans(t *tri, rows []rowSpan) {
	if p.watch != nil && p.kind == spanColor && p.watch.inRows(rows) {
		p.programRows(t, rows) // the watched pixel's block through watchRunBlock
		return
	}
	switch p.kind {
	case spanProgram:
		p.programRows(t, rows)
		return
	case spanColor:
		if t.inRange && p.words != nil {
			var n int
			for _, r := range rows {
				n += r.x1 - r.x0
			}
			p.shaded += uint64(n)
			p.passed += uint64(n)
			p.instrs += uint64(n) * p.copySteps // the copy program's instructions a pixel
			// Column terms pay off when several rows share them: not for
			// the few pixels of a small triangle's block.
			if len(rows) >= 4 && n >= 32 && p.cols != nil && t.alpha <= 0xFF && t.separable() {
				p.spanColorCols(t, rows)
				return
			}
			t.spanColor(p.words, p.wpitch, rows, &p.ch, p.rt.fmt == isa.FmtBGRA8)
			return
		}
		if p.prog != nil {
			p.programRows(t, rows)
			return
		}
	case spanSolid:
		for _, r := range rows {
			p.shaded += uint64(r.x1 - r.x0)
			p.passed += uint64(r.x1 - r.x0)
			row := p.rt.mem[r.y*p.rt.pitch+4*r.x0 : r.y*p.rt.pitch+4*r.x1]
			for i := 0; i+4 <= len(row); i += 4 {
				copy(row[i:i+4], p.px[:])
			}
		}
		return
	}
	s1, s2 := t.e[1].a, t.e[2].a
	ri, bi := p.order()
	for _, r := range rows {
		p.shaded += uint64(r.x1 - r.x0)
		for x, w1, w2 := r.x0, r.w1, r.w2; x < r.x1; x, w1, w2 = x+1, w1+s1, w2+s2 {
			p.pixel(t, x, r.y, float64(w1)*t.invArea, float64(w2)*t.invArea, ri, bi)
		}
	}
}

// spanKind is the fast path of a draw's spans.
type spanKind uint8

const (
	spanGeneric spanKind = iota // one pixel at a time (pixel)
	spanColor                   // a program copying an input to o0, no depth test, no blending, all channels written, RGBA8/BGRA8
	spanSolid                   // the warning colour of a faulted draw, no depth test, no blending, all channels written
	spanProgram                 // the pixel program, a block at a time (pixelstage.go)
)

// pixelWords views the target's pixels as 32-bit words (little-endian, as on
// every platform Go and WebAssembly run d3dsim on), when its memory and rows
// are 4-aligned; otherwise nil.
func pixelWords(s *surface) []uint32 {
	b := s.mem
	if len(b) < 4 || uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 != 0 || s.pitch%4 != 0 {
		return nil
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

// wordChannels are the attributes of the channels in the low, second and
// third bytes of a target word: red, green and blue (ch[0..2]), or blue,
// green and red when bgra.
func wordChannels(ch *[4]uint8, bgra bool) (r, g, c uint8) {
	r, g, c = ch[0], ch[1], ch[2]
	if bgra {
		r, c = c, r
	}
	return r, g, c
}

// plane is attribute k's plane: a0, d1, d2.
func (t *tri) plane(k uint8) (a0, d1, d2 float64) {
	return t.a0[k], t.d1[k], t.d2[k]
}

// spanColor is the Gouraud span: per pixel exactly the pixel stage's
// arithmetic for a program that copies its input to o0 (runBlock: b =
// float64(w)*invArea, a0 + b1*d1 + b2*d2 rounded to float32, then unorm8
// of it), with no clamp; its row loops are functions of their own
// (spanRow and the like, below). setupAttrs allows it only when every colour value
// of the three vertices is in [0, 1]: the interpolated value is then in
// [0, 1] up to a few ulps, float32(v*255)+0.5 is in [0.5-ε, 255.5], and its
// integer part is what unorm8 gives. words is the target as pixel words,
// wpitch words a row; bgra swaps red and blue.
func (t *tri) spanColor(words []uint32, wpitch int, rows []rowSpan, ch *[4]uint8, bgra bool) {
	inv := t.invArea
	s1, s2 := t.e[1].a, t.e[2].a
	r, g, c := wordChannels(ch, bgra)
	r0, r1, r2 := t.plane(r)
	g0, g1, g2 := t.plane(g)
	c0, c1, c2 := t.plane(c)
	if t.alpha <= 0xFF {
		// Alpha the same at the three vertices: its byte is constant.
		alpha := t.alpha << 24
		switch {
		case s1 == 0:
			// The edge opposite vertex 1 is horizontal: b1, and so
			// a0 + b1*d1, are the same along a row.
			for _, row := range rows {
				o := row.y*wpitch + row.x0
				b1 := float64(row.w1) * inv
				spanRowB1(words[o:o+row.x1-row.x0], row.w2, s2, inv,
					r0+float64(b1*r1), g0+float64(b1*g1), c0+float64(b1*c1), r2, g2, c2, alpha)
			}
		case s2 == 0:
			// The edge opposite vertex 2 is horizontal: b2*d2 is the
			// same along a row.
			for _, row := range rows {
				o := row.y*wpitch + row.x0
				b2 := float64(row.w2) * inv
				k := [3]float64{float64(b2 * r2), float64(b2 * g2), float64(b2 * c2)}
				spanRowB2(words[o:o+row.x1-row.x0], row.w1, s1, inv, &[3]float64{r0, g0, c0}, &[3]float64{r1, g1, c1}, &k, alpha)
			}
		default:
			for _, row := range rows {
				o := row.y*wpitch + row.x0
				spanRow(words[o:o+row.x1-row.x0], row.w1, row.w2, s1, s2, inv,
					&[3]float64{r0, g0, c0}, &[3]float64{r1, g1, c1}, &[3]float64{r2, g2, c2}, alpha)
			}
		}
		return
	}
	a0, a1, a2 := t.a0[ch[3]], t.d1[ch[3]], t.d2[ch[3]]
	for _, row := range rows {
		o := row.y*wpitch + row.x0
		out := words[o : o+row.x1-row.x0]
		w1, w2 := row.w1, row.w2
		for i := range out {
			b1, b2 := float64(w1)*inv, float64(w2)*inv
			r := unormIn(float32(r0 + float64(b1*r1) + float64(b2*r2)))
			g := unormIn(float32(g0 + float64(b1*g1) + float64(b2*g2)))
			b := unormIn(float32(c0 + float64(b1*c1) + float64(b2*c2)))
			a := unormIn(float32(a0 + float64(b1*a1) + float64(b2*a2)))
			out[i] = r | g<<8 | b<<16 | a<<24
			w1 += s1
			w2 += s2
		}
	}
}

// colChunk is how many columns spanColorCols keeps terms for at a time.
const colChunk = 256

// colTerms is spanColorCols' per-column colour terms: red, green and blue
// (in the target's byte order) of colChunk columns.
type colTerms [3][colChunk]float64

// separable reports whether the colour of the triangle is a term of the row
// plus a term of the column: one of the weights b1, b2 is the same along a
// row (the edge opposite its vertex is horizontal) and the other the same
// down a column (its edge is vertical). Axis-aligned quads — full-screen
// passes, sprites, the fill scene — are made of such triangles.
func (t *tri) separable() bool {
	return t.e[2].a == 0 && t.e[1].b == 0 || t.e[1].a == 0 && t.e[2].b == 0
}

// spanColorCols is spanColor for a separable triangle with one alpha: the
// column terms are computed once per column for all the rows of the call (a
// block's rows), so a pixel costs an addition and unorm8 per channel. The
// arithmetic is spanColor's, operation for operation: with b2 constant
// along the row it is (a0 + b1*d1) + b2*d2 — the first sum per column —
// and with b1 constant it is (a0 + b1*d1) + b2*d2 with b2*d2 per column;
// float addition is commutative, so both are col + row exactly.
func (p *pipe) spanColorCols(t *tri, rows []rowSpan) {
	inv := t.invArea
	bgra := p.rt.fmt == isa.FmtBGRA8
	words, wpitch := p.words, p.wpitch
	r, g, c := wordChannels(&p.ch, bgra)
	r0, r1, r2 := t.plane(r)
	g0, g1, g2 := t.plane(g)
	c0, c1, c2 := t.plane(c)
	alpha := t.alpha << 24
	rowB1 := t.e[1].a == 0 && t.e[2].b == 0 // b1 per row, b2 per column
	xlo, xhi := rows[0].x0, rows[0].x1
	for _, r := range rows[1:] {
		xlo, xhi = min(xlo, r.x0), max(xhi, r.x1)
	}
	// The column weight at xlo: its edge value does not depend on y.
	wc, sc := rows[0].w2+int64(xlo-rows[0].x0)*t.e[2].a, t.e[2].a
	if !rowB1 {
		wc, sc = rows[0].w1+int64(xlo-rows[0].x0)*t.e[1].a, t.e[1].a
	}
	cr, cg, cc := &p.cols[0], &p.cols[1], &p.cols[2]
	for cx := xlo; cx < xhi; cx += colChunk {
		n := min(colChunk, xhi-cx)
		for j := range n {
			b := float64(wc) * inv
			if rowB1 {
				cr[j], cg[j], cc[j] = float64(b*r2), float64(b*g2), float64(b*c2)
			} else {
				cr[j], cg[j], cc[j] = r0+float64(b*r1), g0+float64(b*g1), c0+float64(b*c1)
			}
			wc += sc
		}
		for _, row := range rows {
			x0, x1 := max(row.x0, cx), min(row.x1, cx+n)
			if x0 >= x1 {
				continue
			}
			var kr, kg, kc float64
			if rowB1 {
				b1 := float64(row.w1) * inv
				kr, kg, kc = r0+float64(b1*r1), g0+float64(b1*g1), c0+float64(b1*c1)
			} else {
				b2 := float64(row.w2) * inv
				kr, kg, kc = float64(b2*r2), float64(b2*g2), float64(b2*c2)
			}
			o := row.y*wpitch + x0
			out := words[o : o+x1-x0]
			j := x0 - cx
			colSpan(out, cr[j:], cg[j:], cc[j:], kr, kg, kc, alpha)
		}
	}
}

// colSpan writes out[i] = unorm8 of cr[i]+kr, cg[i]+kg, cc[i]+kc and alpha.
// A function of its own so that the loop has the registers to itself.
//
//go:noinline
func colSpan(out []uint32, cr, cg, cc []float64, kr, kg, kc float64, alpha uint32) {
	if k := colSpanVec(out, cr, cg, cc, kr, kg, kc, alpha); k > 0 {
		out, cr, cg, cc = out[k:], cr[k:], cg[k:], cc[k:]
	}
	cr, cg, cc = cr[:len(out)], cg[:len(out)], cc[:len(out)]
	for i := range out {
		x := unormIn(float32(cr[i]+kr)) | alpha
		x |= unormIn(float32(cg[i]+kg)) << 8
		x |= unormIn(float32(cc[i]+kc)) << 16
		out[i] = x
	}
}

// The row loops of spanColor, each a function of its own (not inlined) so
// that its loop has the registers to itself: inlined into spanColor they
// spilled a third of their values to the stack on every pixel. Each
// computes spanColor's arithmetic, in the same order. The planes are read
// through their pointers in the loop, as memory operands of the products
// and sums (loads, not floating-point work), which leaves the sixteen
// registers to the weights and the sums: held in registers they spilled.
// The edge values step
// as float64, not int64 converted a pixel: they are integers below 2^52
// (raster.go's bound, one pixel past a row's end included), which float64
// holds and adds exactly, so float64(w) + k*float64(s) is float64(w + k*s)
// bit for bit, and a pixel saves two conversions and their register
// clears, which share the floating-point units with the rest of the row.

// spanRowB1 is a row where a0 + b1*d1 is p (per channel).
//
//go:noinline
func spanRowB1(out []uint32, w2, s2 int64, inv, pr, pg, pc, r2, g2, c2 float64, alpha uint32) {
	f2, fs2 := float64(w2), float64(s2)
	if k := spanRowB1Vec(out, f2, fs2, inv, pr, pg, pc, r2, g2, c2, alpha); k > 0 {
		out, f2 = out[k:], f2+float64(k)*fs2
	}
	for i := range out {
		b2 := f2 * inv
		x := unormIn(float32(pr+float64(b2*r2))) | alpha
		x |= unormIn(float32(pg+float64(b2*g2))) << 8
		x |= unormIn(float32(pc+float64(b2*c2))) << 16
		out[i] = x
		f2 += fs2
	}
}

// spanRowB2 is a row where b2*d2 is k (per channel).
//
//go:noinline
func spanRowB2(out []uint32, w1, s1 int64, inv float64, a0, d1, k *[3]float64, alpha uint32) {
	f1, fs1 := float64(w1), float64(s1)
	if m := spanRowB2Vec(out, f1, fs1, inv, a0, d1, k, alpha); m > 0 {
		out, f1 = out[m:], f1+float64(m)*fs1
	}
	for i := range out {
		b1 := f1 * inv
		x := unormIn(float32(a0[0]+float64(b1*d1[0])+k[0])) | alpha
		x |= unormIn(float32(a0[1]+float64(b1*d1[1])+k[1])) << 8
		x |= unormIn(float32(a0[2]+float64(b1*d1[2])+k[2])) << 16
		out[i] = x
		f1 += fs1
	}
}

// spanRow is a row where both weights change.
//
//go:noinline
func spanRow(out []uint32, w1, w2, s1, s2 int64, inv float64, a0, d1, d2 *[3]float64, alpha uint32) {
	f1, f2, fs1, fs2 := float64(w1), float64(w2), float64(s1), float64(s2)
	if k := spanRowVec(out, f1, f2, fs1, fs2, inv, a0, d1, d2, alpha); k > 0 {
		out = out[k:]
		f1, f2 = f1+float64(k)*fs1, f2+float64(k)*fs2
	}
	for i := range out {
		b1, b2 := f1*inv, f2*inv
		x := unormIn(float32(a0[0]+float64(b1*d1[0])+float64(b2*d2[0]))) | alpha
		x |= unormIn(float32(a0[1]+float64(b1*d1[1])+float64(b2*d2[1]))) << 8
		x |= unormIn(float32(a0[2]+float64(b1*d1[2])+float64(b2*d2[2]))) << 16
		out[i] = x
		f1 += fs1
		f2 += fs2
	}
}

// unormIn is unorm8 for v in [-ε, 1+ε] (see spanColor): no clamp needed.
func unormIn(v float32) uint32 { return uint32(int32(float32(v*255) + 0.5)) }

// pixel runs the pipeline for one covered pixel; b1 and b2 are the
// screen-space weights of vertices 1 and 2.
func (p *pipe) pixel(t *tri, x, y int, b1, b2 float64, ri, bi int) {
	if p.prog != nil {
		p.programPixel(t, x, y, b1, b2, ri, bi)
		return
	}
	if w := p.watch; w != nil && x == w.x && y == w.y && !p.generic {
		p.watchPixel(t, x, y, b1, b2)
		return
	}
	if p.generic {
		p.mergeLane(t, x, y, -1, b1, b2)
		return
	}
	if !p.depthTest(t, x, y, b1, b2) {
		return
	}
	p.passed++
	// No pixel program: a faulted draw's warning colour, or no colour (a
	// depth-only draw).
	if !p.color {
		return
	}
	p.merge(x, y, warning, ri, bi)
}

// depthTest tests (and writes) the depth of pixel (x, y) at weights b1, b2;
// false: the pixel is discarded.
func (p *pipe) depthTest(t *tri, x, y int, b1, b2 float64) bool {
	if p.depth {
		z := t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)
		if !(z >= p.zmin) {
			z = p.zmin
		} else if z > p.zmax {
			z = p.zmax
		}
		o := y*p.ds.pitch + p.ds.bpp*x
		switch p.ds.fmt {
		case isa.FmtD32F, isa.FmtD32FS8:
			px := p.ds.mem[o : o+4 : o+4]
			src := float32(z)
			if !compare(p.depthFn, src, math.Float32frombits(binary.LittleEndian.Uint32(px))) {
				return false
			}
			if p.depthWrite {
				binary.LittleEndian.PutUint32(px, math.Float32bits(src))
			}
		case isa.FmtD16:
			px := p.ds.mem[o : o+2 : o+2]
			src := unorm16(z)
			if !compare(p.depthFn, src, uint32(binary.LittleEndian.Uint16(px))) {
				return false
			}
			if p.depthWrite {
				binary.LittleEndian.PutUint16(px, uint16(src))
			}
		default:
			px := p.ds.mem[o : o+4 : o+4]
			old := binary.LittleEndian.Uint32(px)
			src := unorm24(z)
			if !compare(p.depthFn, src, old&0xFFFFFF) {
				return false
			}
			if p.depthWrite {
				binary.LittleEndian.PutUint32(px, old&0xFF000000|src)
			}
		}
	}
	return true
}

// merge is the output merger: colour c to pixel (x, y) of the target,
// through blending and the write mask.
func (p *pipe) merge(x, y int, c [4]float32, ri, bi int) {
	o := y*p.rt.pitch + 4*x
	px := p.rt.mem[o : o+4 : o+4]
	if p.fast {
		px[ri], px[1], px[bi], px[3] = unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])
		return
	}
	if p.blend.enable {
		dst := [4]float32{float32(px[ri]) / 255, float32(px[1]) / 255, float32(px[bi]) / 255, float32(px[3]) / 255}
		c = blend(&p.blend, c, &dst)
	}
	m := p.blend.mask
	if m&1 != 0 {
		px[ri] = unorm8(c[0])
	}
	if m&2 != 0 {
		px[1] = unorm8(c[1])
	}
	if m&4 != 0 {
		px[bi] = unorm8(c[2])
	}
	if m&8 != 0 {
		px[3] = unorm8(c[3])
	}
}

// floats views shader bits as floats.
func floats(v [4]uint32) [4]float32 {
	return [4]float32{math.Float32frombits(v[0]), math.Float32frombits(v[1]), math.Float32frombits(v[2]), math.Float32frombits(v[3])}
}

// compare is the depth function fn applied to the incoming and stored depth.
func compare[T float32 | uint32](fn uint32, src, dst T) bool {
	switch fn {
	case isa.CmpLess:
		return src < dst
	case isa.CmpEqual:
		return src == dst
	case isa.CmpLessEqual:
		return src <= dst
	case isa.CmpGreater:
		return src > dst
	case isa.CmpNotEqual:
		return src != dst
	case isa.CmpGreaterEqual:
		return src >= dst
	case isa.CmpAlways:
		return true
	}
	return false
}

// blend combines the pixel program's colour with an 8-bit UNORM target's.
func blend(b *blendState, src [4]float32, dst *[4]float32) [4]float32 {
	return blendIn(b, src, dst, isa.NumUNorm)
}

// blendIn combines the pixel program's colour with the target's, whose
// channels hold num (blendOps with no blend factor and no second source).
func blendIn(b *blendState, src [4]float32, dst *[4]float32, num isa.Number) [4]float32 {
	return blendOps(b, &blendInputs{src: src, dst: *dst}, num)
}

// blendInputs are what blend factors read: the pixel program's colour
// (src), its second output for dual-source blending (src1), the target's
// colour (dst) and SET_BLEND_FACTOR's factor (bf).
type blendInputs struct {
	src, src1, dst, bf [4]float32
}

// blendOps combines the pixel program's colour with the target's, whose
// channels hold num (D3D11: the sources and the blend factor are clamped
// to [0, 1] for a UNORM or sRGB target, to [-1, 1] for an SNORM one, not at
// all for a float one; colour and alpha have their own factors and
// operation; min and max ignore the factors).
func blendOps(b *blendState, in *blendInputs, num isa.Number) [4]float32 {
	for i := range 4 {
		switch num {
		case isa.NumUNorm, isa.NumSRGB:
			in.src[i], in.src1[i], in.bf[i] = clamp01(in.src[i]), clamp01(in.src1[i]), clamp01(in.bf[i])
		case isa.NumSNorm:
			in.src[i], in.src1[i], in.bf[i] = clampSN(in.src[i]), clampSN(in.src1[i]), clampSN(in.bf[i])
		}
	}
	var out [4]float32
	for i := 0; i < 4; i++ {
		sf, df, op := b.src, b.dst, b.op
		if i == 3 {
			sf, df, op = b.srcA, b.dstA, b.opA
		}
		s, d := in.src[i], in.dst[i]
		switch op {
		case isa.BlendOpMin:
			out[i] = min(s, d)
			continue
		case isa.BlendOpMax:
			out[i] = max(s, d)
			continue
		}
		s = float32(s * factor(sf, in, i))
		d = float32(d * factor(df, in, i))
		switch op {
		case isa.BlendOpAdd:
			out[i] = s + d
		case isa.BlendOpSubtract:
			out[i] = s - d
		case isa.BlendOpRevSubtract:
			out[i] = d - s
		}
	}
	return out
}

// factor is blend factor f for channel i ("D3D11_BLEND enumeration").
func factor(f uint32, in *blendInputs, i int) float32 {
	src, dst := &in.src, &in.dst
	switch f {
	case isa.BlendOne:
		return 1
	case isa.BlendSrcColor:
		return src[i]
	case isa.BlendInvSrcColor:
		return 1 - src[i]
	case isa.BlendSrcAlpha:
		return src[3]
	case isa.BlendInvSrcAlpha:
		return 1 - src[3]
	case isa.BlendDestAlpha:
		return dst[3]
	case isa.BlendInvDestAlpha:
		return 1 - dst[3]
	case isa.BlendDestColor:
		return dst[i]
	case isa.BlendInvDestColor:
		return 1 - dst[i]
	case isa.BlendSrcAlphaSat:
		// (f, f, f, 1), f = min(As, 1 - Ad)
		if i == 3 {
			return 1
		}
		return min(src[3], 1-dst[3])
	case isa.BlendFactor:
		return in.bf[i]
	case isa.BlendInvFactor:
		return 1 - in.bf[i]
	case isa.BlendSrc1Color:
		return in.src1[i]
	case isa.BlendInvSrc1Color:
		return 1 - in.src1[i]
	case isa.BlendSrc1Alpha:
		return in.src1[3]
	case isa.BlendInvSrc1Alpha:
		return 1 - in.src1[3]
	}
	return 0
}

func clampSN(v float32) float32 {
	if !(v > -1) {
		return -1
	}
	return min(v, 1)
}

func clamp01(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}

// viewportBounds sets the pixels viewport i covers (with scissor
// rectangle i under ScissorEnable, where an unset one is empty); it
// reports whether any are on the targets. A pixel is inside the viewport
// when its centre is.
func (ex *executor) viewportBounds(i int) bool {
	s, d := &ex.st, &ex.draw
	p := &d.pipe
	vp := &d.vp
	p.sx0 = max(0, int(math.Ceil(vp.x-0.5)))
	p.sy0 = max(0, int(math.Ceil(vp.y-0.5)))
	p.sx1 = min(p.tw, int(math.Ceil(vp.x+vp.w-0.5)))
	p.sy1 = min(p.th, int(math.Ceil(vp.y+vp.h-0.5)))
	if s.scissorOn {
		sc := &s.scissor[i]
		p.sx0, p.sy0 = max(p.sx0, int(sc.x0)), max(p.sy0, int(sc.y0))
		p.sx1, p.sy1 = min(p.sx1, int(sc.x1)), min(p.sy1, int(sc.y1))
	}
	ex.clipBounds()
	return p.sx0 < p.sx1 && p.sy0 < p.sy1
}
