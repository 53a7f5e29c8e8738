package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"math"
	"math/bits"
)

// The programmable pixel stage: the rasterizer's covered pixels, grouped
// into the 8x8 blocks of the target's grid (a lane per pixel, quads for
// derivatives: shader.QuadLane), run through the pixel program; the lanes
// still alive go through the depth test and the output merger of the
// fixed-function pipeline. Inputs are interpolated per lane in float64,
// then rounded to float32, so that a program that moves its input to its
// output writes the pixel the Gouraud spans write (spanColor).

// psBlock is the block being shaded: the weights of its lanes.
type psBlock struct {
	b1, b2 [shader.Lanes]float64
	// kind[k] is how weight b1 (k 0) or b2 (k 1) varies over the block:
	// per lane (both in b1 and b2), or one the same along each row and
	// the other down each column (their edges horizontal and vertical:
	// the edge value at (x, y) is w + x*a + y*b, and a or b is 0), in
	// w8[k] by row or column.
	kind [2]weightKind
	w8   [2][8]float64
	// lazy: the draw needs no lane's weights besides its inputs (no depth
	// test, no SV_Position read), so that kind may be perRow and perCol.
	lazy bool
	// off is each lane's word offset from its block's top-left pixel in
	// the target viewed as words (pixelWords), for the draw's pitch.
	off   [shader.Lanes]int
	offWP int      // the pitch off is for (0: none yet): a draw at the same pitch keeps it
	words []uint32 // the target as words, or nil
	wp    int      // its pitch in words
	// fused: the texture × colour program drawn without the machine
	// (fused.go).
	fused fusedBlock
}

// laneXY is the pixel of each lane within its block.
var laneXY = func() (xy [shader.Lanes][2]int) {
	for y := range 8 {
		for x := range 8 {
			xy[shader.QuadLane(x, y)] = [2]int{x, y}
		}
	}
	return xy
}()

// weightKind is how a weight varies over a block (psBlock.kind).
type weightKind uint8

const (
	perLane weightKind = iota
	perRow
	perCol
)

// rowLanes[y][x0][x1] is the lanes of pixels x0..x1-1 of row y of a block.
var rowLanes = func() (t [8][9][9]uint64) {
	for y := range 8 {
		for x0 := range 9 {
			for x1 := x0; x1 <= 8; x1++ {
				var m uint64
				for x := x0; x < x1; x++ {
					m |= 1 << shader.QuadLane(x, y)
				}
				t[y][x0][x1] = m
			}
		}
	}
	return t
}()

// preparePixelProgram sets the pipe up for the draw's pixel program.
func (ex *executor) preparePixelProgram(faulted bool) {
	d := &ex.draw
	p, ps := &d.pipe, &d.prog
	if ps.ps == nil || faulted {
		return
	}
	s := &ex.st
	p.prog = ps
	p.blk, p.m = &ps.block, ps.ps.m
	p.outs, p.depthOut, p.covOut = ps.ps.prog.Outputs, ps.psDepth1-1, -1
	p.depthKind = ps.psDepthKind
	if p.early = earlyOn(s.prog[isa.StagePS].sysReg) && (p.depth || p.stencil); p.early {
		p.depthOut = -1 // (early.go: the depth was written before the program ran)
	}
	if ps.psMask {
		p.covOut = shaderisa.CoverageOutput
	}
	if (p.depthOut >= 0 || p.covOut >= 0 || p.early) && !p.generic {
		// SV_Depth, SV_Coverage: the general output merger tests the
		// program's depth and coverage.
		p.generic, p.fast, p.kind = true, false, spanGeneric
	}
	p.color = p.nrt > 0 && p.outs > 0 && (s.blend[0].mask != 0 || p.generic)
	p.lo, p.hi = ps.readSpan()
	p.kind = spanProgram
	blk := &ps.block
	blk.words, blk.wp = nil, 0
	blk.lazy = !p.depth && !p.generic && (ps.psPos < 0 || ps.ps.reads[ps.psPos] == 0)
	if p.color && p.fast && !p.depth {
		if w := pixelWords(&p.rt); w != nil {
			blk.words, blk.wp = w, p.rt.pitch/4
			if blk.offWP != blk.wp {
				for l := range blk.off {
					blk.off[l] = laneXY[l][1]*blk.wp + laneXY[l][0]
				}
				blk.offWP = blk.wp
			}
		}
	}
	ex.prepareFused()
	if e := ps.ps; e.copyIn >= 0 && e.copyIn != ps.psPos && e.copyIn != ps.psFront1-1 && e.copyIn != ps.psSamples1-1 && ps.flat == 0 && p.color && p.fast && !p.depth && blk.words != nil {
		// The program writes its input: the Gouraud spans of
		// ps_vertexcolor, reading that register's attributes, write what
		// it would (unorm8 of the input rounded to float32); triangles
		// whose colours leave [0, 1] go through the program (spans).
		p.kind = spanColor
		p.words, p.wpitch = blk.words, blk.wp
		p.copySteps = uint64(len(e.prog.Code))
		for c, k := range e.copySwz {
			p.ch[c] = uint8(4*e.copyIn) + k
		}
		p.colorOnly = p.prog != nil && ps.flat|ps.lin == 0 && p.hi-p.lo == 4 &&
			p.ch == [4]uint8{uint8(p.lo), uint8(p.lo + 1), uint8(p.lo + 2), uint8(p.lo + 3)}
	}
	p.tileable = p.tileable && ex.tileablePixelProgram()
	if ps.ps.uav {
		ex.bindPixelUAVs()
	}
}

// tileablePixelProgram reports whether the draw's pixel program may run on
// several goroutines (tiles.go), each with a machine of its own: it must
// not fault (which fault came first would depend on the order the workers
// ran in), and no texture may share memory with the target or the depth
// buffer (a band would read what another writes).
func (ex *executor) tileablePixelProgram() bool {
	d := &ex.draw
	p := &d.pipe
	// Not the worker count: a draw is batched however many goroutines
	// rasterize (tiles.go emit), or where it stops at a budget would depend
	// on the machine's CPUs (and differ in WebAssembly).
	if d.prog.ps.mayFault {
		return false
	}
	for st := range ex.st.tex {
		for i := range ex.st.texN[st] {
			if t := &ex.st.tex[st][i]; t.bound() && (overlap(t.mem, p.rt.mem) || overlap(t.mem, p.ds.mem)) {
				return false
			}
			if v := ex.st.view[st][i]; v != nil && (overlap(v.mem, p.rt.mem) || overlap(v.mem, p.ds.mem)) {
				return false // a SET_VIEW's resource: GenerateMips reads a level of the target's
			}
		}
	}
	return true
}

// bindWorker gives tile worker l a machine for the draw's pixel program
// (kept from the worker's last batch when the program is the same), bound
// to the draw's constants and textures.
func (ps *progState) bindWorker(l *lane) error {
	if l.m == nil || l.m.Program() != ps.ps.prog {
		l.m = shader.NewMachine(ps.ps.prog)
	}
	return l.m.Bind(&ps.consts[isa.StagePS], &ps.tex[isa.StagePS])
}

// unormW is unorm8 of the float bits x, as a word (the same values),
// converted through int32: one instruction where uint32 takes several. The
// range is told from the bits with one unsigned comparison for the common
// case: x-1 below 0x3F7FFFFF is a float in (0, 1); otherwise +1 up to +Inf
// gives 255, and zeros, negatives and NaNs give 0.
func unormW(x uint32) uint32 {
	if x-1 < 0x3F7FFFFF {
		return uint32(int32(float32(math.Float32frombits(x)*255) + 0.5))
	}
	if x >= 0x3F800000 && x <= 0x7F800000 {
		return 255
	}
	return 0
}

// programRows shades rows (consecutive, at most a block's) of triangle t.
func (p *pipe) programRows(t *tri, rows []rowSpan) {
	if p.prog.pxFailed {
		return
	}
	for i := 0; i < len(rows); {
		// The rows in one 8-row band of the grid.
		ty := rows[i].y &^ 7
		j := i
		xlo, xhi := rows[i].x0, rows[i].x1
		for ; j < len(rows) && rows[j].y&^7 == ty; j++ {
			xlo, xhi = min(xlo, rows[j].x0), max(xhi, rows[j].x1)
		}
		for tx := xlo &^ 7; tx < xhi; tx += 8 {
			var mask uint64
			for _, r := range rows[i:j] {
				x0, x1 := max(r.x0, tx), min(r.x1, tx+8)
				if x0 < x1 {
					mask |= rowLanes[r.y-ty][x0-tx][x1-tx]
				}
			}
			if mask != 0 {
				p.shadeBlock(t, tx, ty, mask)
			}
		}
		i = j
	}
}

// programPixel shades one pixel (points and lines): a block of one live
// lane whose quad has its inputs (derivatives 0).
func (p *pipe) programPixel(t *tri, x, y int, b1, b2 float64, ri, bi int) {
	if p.prog.pxFailed {
		return
	}
	lane := shader.QuadLane(x&7, y&7)
	blk := p.blk
	q := lane &^ 3
	for l := q; l < q+4; l++ {
		blk.b1[l], blk.b2[l] = b1, b2
	}
	blk.kind = [2]weightKind{perLane, perLane}
	p.runBlock(t, x&^7, y&^7, 1<<lane, 0xF<<q, ri, bi)
}

// shadeBlock shades the lanes in mask of the block at (tx, ty).
func (p *pipe) shadeBlock(t *tri, tx, ty int, mask uint64) {
	// Every lane of a quad with a live lane runs (helpers for derivatives):
	// weights from the edge functions, exact integers inside the triangle
	// or out.
	any := mask | mask>>1
	any |= any >> 2 // bit 4q: some lane of quad q is live
	quads := (any & 0x1111111111111111) * 0xF
	blk := p.blk
	e1, e2 := &t.e[1], &t.e[2]
	inv := t.invArea
	w1, w2 := e1.at(tx, ty), e2.at(tx, ty)
	blk.kind = [2]weightKind{perLane, perLane}
	if blk.lazy && !t.persp && t.finite {
		blk.kind = [2]weightKind{t.e[1].kind(), t.e[2].kind()}
		if blk.kind[0] == perLane || blk.kind[1] == perLane || blk.kind[0] == blk.kind[1] {
			// Only a weight per row and one per column pay: a row or
			// column term beside a lane's costs more to spread over the
			// lanes than it saves.
			blk.kind = [2]weightKind{perLane, perLane}
		}
	}
	switch {
	case blk.kind[0] != perLane:
		// One weight per row, the other per column, as the lanes' would
		// be (b1 and b2 are not filled).
		for k, e := range [2]*edgeFn{e1, e2} {
			w, step := w1, e.a
			if k == 1 {
				w = w2
			}
			if blk.kind[k] == perRow {
				step = e.b
			}
			for i := range int64(8) {
				blk.w8[k][i] = float64(w+i*step) * inv
			}
		}
	case quads == shader.AllLanes:
		for l := range blk.b1 {
			x, y := int64(laneXY[l][0]), int64(laneXY[l][1])
			blk.b1[l] = float64(w1+x*e1.a+y*e1.b) * inv
			blk.b2[l] = float64(w2+x*e2.a+y*e2.b) * inv
		}
	default:
		for m := quads; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, y := int64(laneXY[l][0]), int64(laneXY[l][1])
			blk.b1[l] = float64(w1+x*e1.a+y*e1.b) * inv
			blk.b2[l] = float64(w2+x*e2.a+y*e2.b) * inv
		}
	}
	ri, bi := p.order()
	p.runBlock(t, tx, ty, mask, quads, ri, bi)
}

// runBlock interpolates the inputs of the lanes in quads, runs the program
// over mask and merges the live lanes.
func (p *pipe) runBlock(t *tri, tx, ty int, mask, quads uint64, ri, bi int) {
	if p.stop {
		return
	}
	if p.watch != nil && p.watch.covers(tx, ty, mask) {
		p.watchRunBlock(t, tx, ty, mask, quads, ri, bi)
		return
	}
	ps := p.prog
	blk, m := p.blk, p.m
	if blk.fused.on && !t.persp && p.lineCov == 0 {
		p.fusedRun(t, tx, ty, mask, ri)
		return
	}
	full := quads == shader.AllLanes
	for r := range ps.psIn {
		reads := ps.ps.reads[r]
		if reads == 0 {
			continue
		}
		in := m.In(r)
		if r == ps.psSamples1-1 {
			// The rasterizer's values: the render target's sample count
			// (GetRenderTargetSampleCount) and the pixel's coverage
			// (SV_Coverage's input, msaa.go).
			// and, z, the sample a sample-frequency program shades
			// (SV_SampleIndex, sampleRate).
			n, cur := uint32(max(p.ms.samples, 1)), uint32(p.ms.cur)
			for q := quads; q != 0; q &= q - 1 {
				l := bits.TrailingZeros64(q)
				in[0][l], in[1][l], in[2][l], in[3][l] = n, p.laneCoverage(tx, ty, l, mask), cur, 0
			}
			continue
		}
		if r == ps.psFront1-1 {
			// SV_IsFrontFace: all ones for a front-facing primitive.
			v := uint32(0)
			if t.front {
				v = ^uint32(0)
			}
			for q := quads; q != 0; q &= q - 1 {
				in[0][bits.TrailingZeros64(q)] = v
			}
			continue
		}
		if r == ps.psPos {
			for q := quads; q != 0; q &= q - 1 {
				l := bits.TrailingZeros64(q)
				b1, b2 := blk.b1[l], blk.b2[l]
				w := t.w0
				if t.persp {
					w = 1 / (t.iw0 + float64(b1*t.diw1) + float64(b2*t.diw2))
				}
				in[0][l] = math.Float32bits(float32(tx+laneXY[l][0]) + 0.5)
				in[1][l] = math.Float32bits(float32(ty+laneXY[l][1]) + 0.5)
				in[2][l] = math.Float32bits(float32(t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)))
				in[3][l] = math.Float32bits(float32(w))
			}
			continue
		}
		if bit := uint32(1) << r; (ps.flat|ps.lin)&bit != 0 {
			if ps.flat&bit != 0 {
				flatInput(t, r, reads, in, quads)
				continue
			}
			if t.persp {
				linearInput(t, blk, r, reads, in, quads)
				continue
			}
		}
		for c := range 4 {
			if reads>>c&1 == 0 {
				continue
			}
			k := 4*r + c
			a0, d1, d2 := t.a0[k], t.d1[k], t.d2[k]
			out := &in[c]
			if t.persp {
				for q := quads; q != 0; q &= q - 1 {
					l := bits.TrailingZeros64(q)
					b1, b2 := blk.b1[l], blk.b2[l]
					w := 1 / (t.iw0 + float64(b1*t.diw1) + float64(b2*t.diw2))
					out[l] = math.Float32bits(float32((a0 + float64(b1*d1) + float64(b2*d2)) * w))
				}
				continue
			}
			if k1, k2 := blk.kind[0], blk.kind[1]; k1 != perLane || k2 != perLane {
				// a0 + b1*d1 + b2*d2 with the terms of a weight per row
				// or column computed once for it: the same operations
				// (float addition commutes).
				var t1, t2 [8]float64
				for i := range 8 {
					t1[i] = a0 + float64(blk.w8[0][i]*d1)
					t2[i] = float64(blk.w8[1][i] * d2)
				}
				if k1 != perCol {
					t1, t2 = t2, t1
				}
				sumQuads(out, &t1, &t2)
				continue
			}
			if full {
				if interpVec(out, a0, d1, d2, &blk.b1, &blk.b2) {
					continue
				}
				for l := range out {
					out[l] = math.Float32bits(float32(a0 + float64(blk.b1[l]*d1) + float64(blk.b2[l]*d2)))
				}
				continue
			}
			for q := quads; q != 0; q &= q - 1 {
				l := bits.TrailingZeros64(q)
				out[l] = math.Float32bits(float32(a0 + float64(blk.b1[l]*d1) + float64(blk.b2[l]*d2)))
			}
		}
	}
	if ps.cent != 0 && p.ms.band {
		p.centroidInputs(t, tx, ty, mask) // (msaa.go)
	}
	if p.early {
		if mask = p.earlyTest(t, tx, ty, mask); mask == 0 {
			return
		}
	}
	p.shaded += uint64(bits.OnesCount64(mask))
	var tr *shader.Trace
	if p.watch != nil {
		if tr = p.watchTrace(tx, ty, mask); tr != nil {
			m.SetTrace(tr)
		}
	}
	alive, err := m.Run(mask)
	if tr != nil {
		tr.Finish(m)
		m.SetTrace(nil)
	}
	p.instrs += m.LaneSteps
	if ps.ps.mayFault && p.check != nil {
		// A program that loops may run 65,536 instructions a block: its
		// draw checks after each (on one goroutine: mayFault programs
		// are never tiled).
		p.check()
	}
	if err != nil {
		ps.fail("pixel", err)
		return
	}
	if p.lineCov != 0 && p.outs > 0 {
		a := &m.Out(0)[3] // o0.a times the line's coverage (aaline.go)
		for l := alive; l != 0; l &= l - 1 {
			i := bits.TrailingZeros64(l)
			a[i] = math.Float32bits(math.Float32frombits(a[i]) * p.lineCov)
		}
	}
	if p.generic {
		if p.watch != nil {
			p.watchBlock(t, tx, ty, mask, alive)
		}
		for a := alive; a != 0; a &= a - 1 {
			l := bits.TrailingZeros64(a)
			p.mergeLane(t, tx+laneXY[l][0], ty+laneXY[l][1], l, blk.b1[l], blk.b2[l])
		}
		return
	}
	var o *shader.Vec
	if p.color {
		o = m.Out(0)
	}
	if blk.words != nil {
		// No depth test, no blending, all channels, a target of words:
		// merge's fast case, a word at a time.
		p.passed += uint64(bits.OnesCount64(alive))
		words := blk.words[ty*blk.wp+tx:]
		sh := [2]uint32{0, 16}
		rs, bs := sh[ri/2], sh[bi/2]
		if alive == shader.AllLanes {
			if unormWordsVec(words, &blk.off, o, uint64(rs), uint64(bs)) {
				return
			}
			for l := range blk.off {
				words[blk.off[l]] = unormW(o[0][l])<<rs | unormW(o[1][l])<<8 | unormW(o[2][l])<<bs | unormW(o[3][l])<<24
			}
			return
		}
		for a := alive; a != 0; a &= a - 1 {
			l := bits.TrailingZeros64(a)
			words[blk.off[l]] = unormW(o[0][l])<<rs | unormW(o[1][l])<<8 | unormW(o[2][l])<<bs | unormW(o[3][l])<<24
		}
		return
	}
	if p.fast && !p.depth && o != nil {
		// No depth test, no blending, all channels: the output merger's
		// fast case, written straight (what merge does for p.fast).
		p.passed += uint64(bits.OnesCount64(alive))
		mem, pitch := p.rt.mem, p.rt.pitch
		for a := alive; a != 0; a &= a - 1 {
			l := bits.TrailingZeros64(a)
			o0 := (ty+laneXY[l][1])*pitch + 4*(tx+laneXY[l][0])
			px := mem[o0 : o0+4 : o0+4]
			px[ri] = unorm8(math.Float32frombits(o[0][l]))
			px[1] = unorm8(math.Float32frombits(o[1][l]))
			px[bi] = unorm8(math.Float32frombits(o[2][l]))
			px[3] = unorm8(math.Float32frombits(o[3][l]))
		}
		return
	}
	for a := alive; a != 0; a &= a - 1 {
		l := bits.TrailingZeros64(a)
		x, y := tx+laneXY[l][0], ty+laneXY[l][1]
		if !p.depthTest(t, x, y, blk.b1[l], blk.b2[l]) {
			continue
		}
		p.passed++
		if o == nil {
			continue
		}
		c := [4]float32{math.Float32frombits(o[0][l]), math.Float32frombits(o[1][l]), math.Float32frombits(o[2][l]), math.Float32frombits(o[3][l])}
		p.merge(x, y, c, ri, bi)
	}
}

// kind is how the weight of the edge varies over a block: an edge along x
// (a == 0) gives a weight per row, one along y (b == 0) one per column.
func (e *edgeFn) kind() weightKind {
	switch {
	case e.a == 0:
		return perRow
	case e.b == 0:
		return perCol
	}
	return perLane
}

// sumQuads sets lane l, at (x, y) of the block, to col[x] + row[y] rounded
// to float32, a quad at a time.
func sumQuads(out *[shader.Lanes]uint32, col, row *[8]float64) {
	for qy := 0; qy < 8; qy += 2 {
		r0, r1 := row[qy], row[(qy+1)&7]
		for qx := 0; qx < 8; qx += 2 {
			c0, c1 := col[qx], col[(qx+1)&7]
			l := 4 * (qy*2 + qx/2)
			o := out[l : l+4 : l+4]
			o[0] = math.Float32bits(float32(c0 + r0))
			o[1] = math.Float32bits(float32(c1 + r0))
			o[2] = math.Float32bits(float32(c0 + r1))
			o[3] = math.Float32bits(float32(c1 + r1))
		}
	}
}
