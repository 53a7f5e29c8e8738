package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
	"encoding/binary"
	"math"
	"math/bits"
	"unsafe"
)

// The fused texture × colour block: a pixel program that samples a texture
// at an input's (u, v) and multiplies what it read by another input into
// o0, the ImGui and Nuklear pixel shader,
//
//	sample r0, v2.xyxx, t0, s0
//	mul o0, r0, v1
//
// (any swizzles, the product possibly through a temp and a mov), is
// recognised in the decoded program and drawn without the machine: per
// block, the inputs it reads are interpolated as runBlock interpolates
// them, the texture filtered by filter8's arithmetic, the product taken in
// float32 as mul takes it, and converted by the word path's unormW. When
// the coordinates go one u per column and one v per row of the block (an
// axis-aligned textured quad, or any triangle whose coordinates round so),
// the texel coordinates are computed once per column and row, and each
// texel row the block reads is filtered along x once per column. Its NaNs
// need no canonical form: unormW makes every NaN 0, and so does saturate,
// which is why mul's _sat changes nothing either.

// fusedPattern is the pattern found in a program: o0's component k is
// channel texSw[k] of texture tex filtered by sampler smp at input register
// coord's components uv, times component colSw[k] of input register color.
type fusedPattern struct {
	ok       bool
	coord    uint8
	uv       [2]uint8
	color    uint8
	colSw    [4]uint8
	texSw    [4]uint8
	tex, smp uint32
}

// fusedProgram recognises sample then mul into o0 (or into a temp then
// mov o0 of it), and a ret after them: sample rT, vA, tN, sM with no saturate; mul with all four
// components written, a source rT (reading only components the sample
// wrote) and a source vB, no modifiers; the mov, if any, with no modifier
// or saturate. Anything else is not the pattern.
func fusedProgram(p *shaderisa.Program) (f fusedPattern) {
	code := p.Code
	if n := len(code); n > 0 && code[n-1].Op == shaderisa.OpRet {
		// A ret at the end, which fxc and the translator write (the HLSL
		// texture × colour shader through D3D11 is sample, mul, ret),
		// ends the program as its end does; it is one of the program's
		// instructions fusedRun counts.
		code = code[:n-1]
	}
	if p.Stage != shaderisa.StagePixel || len(code) < 2 || len(code) > 3 {
		return f
	}
	s, m := &code[0], &code[1]
	if s.Op != shaderisa.OpSample || m.Op != shaderisa.OpMul {
		return f
	}
	c := &s.Src[0]
	if s.Sat || s.Dst.File != shaderisa.FileTemp || c.File != shaderisa.FileInput || c.Neg || c.Abs || c.Rel || m.Dst.Mask != 0xF ||
		s.Dst.Rel || m.Dst.Rel {
		return f
	}
	var tOp, cOp *shaderisa.Operand
	for i := range m.Src {
		o := &m.Src[i]
		if o.Neg || o.Abs || o.Rel {
			return f
		}
		switch o.File {
		case shaderisa.FileTemp:
			tOp = o
		case shaderisa.FileInput:
			cOp = o
		}
	}
	if tOp == nil || cOp == nil || tOp.Index != s.Dst.Index {
		return f
	}
	for _, k := range tOp.Swizzle {
		if s.Dst.Mask>>k&1 == 0 {
			return f
		}
	}
	out := [4]uint8{0, 1, 2, 3} // the mul's component written to o0.x..w
	switch len(code) {
	case 2:
		if m.Dst.File != shaderisa.FileOutput || m.Dst.Index != 0 {
			return f
		}
	case 3:
		v := &code[2]
		if v.Op != shaderisa.OpMov {
			return f
		}
		o := &v.Src[0]
		if m.Dst.File != shaderisa.FileTemp || v.Sat || v.Dst.Rel ||
			v.Dst.File != shaderisa.FileOutput || v.Dst.Index != 0 || v.Dst.Mask != 0xF ||
			o.File != shaderisa.FileTemp || o.Index != m.Dst.Index || o.Neg || o.Abs || o.Rel {
			return f
		}
		out = o.Swizzle
	}
	f = fusedPattern{ok: true, coord: uint8(c.Index), uv: [2]uint8{c.Swizzle[0], c.Swizzle[1]}, color: uint8(cOp.Index),
		tex: s.Src[1].Index, smp: s.Src[2].Index}
	for k, j := range out {
		f.texSw[k] = s.Src[1].Swizzle[tOp.Swizzle[j]]
		f.colSw[k] = cOp.Swizzle[j]
	}
	return f
}

// fusedBlock is a block's fused state: the draw's pattern, resolved
// (set by prepareFused), and the block's scratch.
type fusedBlock struct {
	on     bool
	tex    *surface
	smp    *sampler
	ku, kv int    // attribute of u and v (4*register + component)
	kc     [4]int // attribute of the factor of o0.x..w
	texSw  [4]uint8

	u, v   [shader.Lanes]uint32 // coordinates, lane by lane
	out    shader.Vec           // the filtered texture, lane by lane
	uc, vr [8]uint32            // coordinates, one per column (u) and row (v)
	// rv[i][k][x] is channel k of the i-th texel row the block reads,
	// filtered along x at column x (bilinear) or its texel (point); row y
	// of the block reads rows top[y] and bot[y] of it (tableRows).
	rv       [16][4][8]float32
	top, bot [8]uint8
	fys      [8]float32 // v's fraction, per row (bilinear)
}

// prepareFused sets the block's fused state up for the draw: on when the
// draw's pixel program is the pattern, and its colour goes straight to a
// target of words (no depth test, no blending, all channels), and its
// texture is a bound 8-bit one sharing no memory with the target.
func (ex *executor) prepareFused() {
	d := &ex.draw
	p, ps := &d.pipe, &d.prog
	fz := &ps.block.fused
	fz.on = false
	f := &ps.ps.fused
	if !f.ok || ps.flat != 0 || ps.block.words == nil || !p.color || !p.fast || p.depth ||
		int(f.coord) == ps.psPos || int(f.color) == ps.psPos || f.tex >= numTex || f.smp >= numSamplers {
		return
	}
	tex, sm := &ex.st.tex[isa.StagePS][f.tex], &ex.st.smp[isa.StagePS][f.smp]
	if !tex.bound() || (tex.fmt != isa.FmtRGBA8 && tex.fmt != isa.FmtBGRA8) || overlap(tex.mem, p.rt.mem) || sm.ex && !sm.simple {
		return
	}
	fz.bind(f, tex, &ex.st.smp[isa.StagePS][f.smp])
}

// bind turns the block's fused state on for pattern f with its texture and
// sampler.
func (fz *fusedBlock) bind(f *fusedPattern, tex *surface, smp *sampler) {
	fz.on, fz.tex, fz.smp = true, tex, smp
	fz.ku, fz.kv = 4*int(f.coord)+int(f.uv[0]), 4*int(f.coord)+int(f.uv[1])
	for k := range 4 {
		fz.kc[k] = 4*int(f.color) + int(f.colSw[k])
	}
	fz.texSw = f.texSw
}

// Which way fusedRun took, for the tests.
const (
	fusedSeparable = iota // the texel coordinates per column and row
	fusedPerLane          // filter8, lane by lane
)

// fusedRun shades the lanes of mask of the block at (tx, ty) of triangle t
// (no perspective) with the fused program, the block's weights set as for
// runBlock, and writes them to the target's words.
func (p *pipe) fusedRun(t *tri, tx, ty int, mask uint64, ri int) int {
	blk := p.blk
	fz := &blk.fused
	n := uint64(bits.OnesCount64(mask))
	p.shaded += n
	p.instrs += n * uint64(len(p.prog.ps.prog.Code)) // what the program would have run
	p.passed += n
	sep := blk.kind[0] != perLane
	// The coordinates: one per column and row when they are, else lane
	// by lane.
	route := fusedPerLane
	if sep {
		var cu, ru, cv, rv [8]float64
		blk.terms(t, fz.ku, &cu, &ru)
		blk.terms(t, fz.kv, &cv, &rv)
		if same8(&ru) && same8(&cv) {
			for i := range 8 {
				fz.uc[i] = math.Float32bits(float32(cu[i] + ru[0]))
				fz.vr[i] = math.Float32bits(float32(cv[0] + rv[i]))
			}
			route = fusedSeparable
		} else {
			sumQuads(&fz.u, &cu, &ru)
			sumQuads(&fz.v, &cv, &rv)
		}
	} else {
		a0u, d1u, d2u := t.a0[fz.ku], t.d1[fz.ku], t.d2[fz.ku]
		a0v, d1v, d2v := t.a0[fz.kv], t.d1[fz.kv], t.d2[fz.kv]
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			b1, b2 := blk.b1[l], blk.b2[l]
			fz.u[l] = math.Float32bits(float32(a0u + float64(b1*d1u) + float64(b2*d2u)))
			fz.v[l] = math.Float32bits(float32(a0v + float64(b1*d1v) + float64(b2*d2v)))
		}
		if columns(&fz.u, mask, &fz.uc) && rows(&fz.v, mask, &fz.vr) {
			route = fusedSeparable
		}
	}
	words := blk.words[ty*blk.wp+tx:]
	// The target's bytes in order: the texture channel and the factor of
	// each (red and blue swapped for BGRA).
	sw, kc := fz.texSw, fz.kc
	if ri != 0 {
		sw[0], sw[2], kc[0], kc[2] = sw[2], sw[0], kc[2], kc[0]
	}
	var cc, cr [4][8]float64
	if sep {
		for k := range 4 {
			blk.terms(t, kc[k], &cc[k], &cr[k])
		}
	}
	if route == fusedSeparable {
		if fz.tableRows(mask) {
			// Bilinear: the filter down the columns, the product and
			// the word in one pass, row by row.
			if sep {
				fz.sepRows(words, blk.wp, mask, &sw, &cc, &cr)
			} else {
				fz.laneRows(blk, t, words, blk.wp, mask, &sw, &kc)
			}
			return route
		}
		fz.pointLanes(mask)
	} else {
		q := shader.TexQuery{Op: shader.TexSample, Mask: mask, Out: &fz.out}
		q.Coord[0], q.Coord[1] = &fz.u, &fz.v
		filter8(fz.tex, fz.smp, &q)
	}
	// The product and the word.
	t0, t1, t2, t3 := f32v(&fz.out[sw[0]]), f32v(&fz.out[sw[1]]), f32v(&fz.out[sw[2]]), f32v(&fz.out[sw[3]])
	if sep {
		for m := mask; m != 0; m &= m - 1 {
			l := bits.TrailingZeros64(m)
			x, y := laneXY[l][0], laneXY[l][1]
			r := unormW(math.Float32bits(t0[l] * float32(cc[0][x]+cr[0][y])))
			g := unormW(math.Float32bits(t1[l] * float32(cc[1][x]+cr[1][y])))
			b := unormW(math.Float32bits(t2[l] * float32(cc[2][x]+cr[2][y])))
			a := unormW(math.Float32bits(t3[l] * float32(cc[3][x]+cr[3][y])))
			words[blk.off[l]] = r | g<<8 | b<<16 | a<<24
		}
		return route
	}
	var a0, d1, d2 [4]float64
	for k, a := range kc {
		a0[k], d1[k], d2[k] = t.a0[a], t.d1[a], t.d2[a]
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		b1, b2 := blk.b1[l], blk.b2[l]
		r := unormW(math.Float32bits(t0[l] * float32(a0[0]+float64(b1*d1[0])+float64(b2*d2[0]))))
		g := unormW(math.Float32bits(t1[l] * float32(a0[1]+float64(b1*d1[1])+float64(b2*d2[1]))))
		b := unormW(math.Float32bits(t2[l] * float32(a0[2]+float64(b1*d1[2])+float64(b2*d2[2]))))
		a := unormW(math.Float32bits(t3[l] * float32(a0[3]+float64(b1*d1[3])+float64(b2*d2[3]))))
		words[blk.off[l]] = r | g<<8 | b<<16 | a<<24
	}
	return route
}

// terms are attribute k's terms over a block of separable weights: its
// value at (x, y) is float32(col[x] + row[y]), as sumQuads adds them for
// runBlock (the same sum: float addition commutes).
func (blk *psBlock) terms(t *tri, k int, col, row *[8]float64) {
	a0, d1, d2 := t.a0[k], t.d1[k], t.d2[k]
	t1, t2 := col, row
	if blk.kind[0] != perCol {
		t1, t2 = row, col
	}
	for i := range 8 {
		t1[i] = a0 + float64(blk.w8[0][i]*d1)
		t2[i] = float64(blk.w8[1][i] * d2)
	}
}

// same8 reports whether the eight values are equal: the same bits, or
// zeros of either sign. Added to a column's term, they give each lane of
// the column the same coordinate but for the sign of a zero, and the
// texture unit filters -0 as +0 (texel: -0.5 either way, or floor 0 and
// fraction +0).
func same8(v *[8]float64) bool {
	x := v[0]
	return v[1] == x && v[2] == x && v[3] == x && v[4] == x && v[5] == x && v[6] == x && v[7] == x
}

// same reports whether two coordinates sample alike: the same bits, or
// zeros of either sign (same8).
func same(a, b uint32) bool {
	return a == b || (a|b)<<1 == 0
}

// columns reports whether the lanes of mask have the same value down each
// column of the block (same), and sets col to it (0 for a column with no
// lane).
func columns(v *[shader.Lanes]uint32, mask uint64, col *[8]uint32) bool {
	return lines(v, mask, col, &colLanes)
}

// rows is columns along the rows.
func rows(v *[shader.Lanes]uint32, mask uint64, row *[8]uint32) bool {
	return lines(v, mask, row, &rowOrder)
}

func lines(v *[shader.Lanes]uint32, mask uint64, line *[8]uint32, order *[shader.Lanes]uint8) bool {
	if mask == shader.AllLanes {
		for i := range 8 {
			o := order[8*i : 8*i+8 : 8*i+8]
			x := v[o[0]]
			if !same(v[o[1]], x) || !same(v[o[2]], x) || !same(v[o[3]], x) || !same(v[o[4]], x) ||
				!same(v[o[5]], x) || !same(v[o[6]], x) || !same(v[o[7]], x) {
				return false
			}
			line[i] = x
		}
		return true
	}
	for i := range 8 {
		have := false
		line[i] = 0
		for _, l := range order[8*i : 8*i+8] {
			if mask>>l&1 == 0 {
				continue
			}
			if !have {
				line[i], have = v[l], true
			} else if !same(v[l], line[i]) {
				return false
			}
		}
	}
	return true
}

// rowOrder are a block's lanes row by row, left to right.
var rowOrder = func() (r [shader.Lanes]uint8) {
	for y := range 8 {
		for x := range 8 {
			r[8*y+x] = uint8(shader.QuadLane(x, y))
		}
	}
	return r
}()

// rowBits is the lanes of row y of mask as 8 bits, x in bit x.
func rowBits(mask uint64, y int) uint8 {
	m := mask >> ((y>>1)*16 + (y&1)*2) & 0x3333
	m = (m | m>>2) & 0x0F0F
	return uint8(m | m>>4)
}

// tableRows is filter8's first steps for the lanes of mask when u is
// uc[x] down each column x and v is vr[y] along each row y: the texel
// coordinates once per column and row, then each texel row the block's
// rows need filtered along x once per column (rv): the top and bottom rows
// of lerpRows for the texel rows below each other, and a texel row is the
// bottom of one row of the block and the top of the next as the texture is
// magnified. Texels are read straight from memory inside the texture, by
// fetch (the address modes) outside, the same values. It reports whether
// the filter is bilinear (point: rv holds the texels, top their row).
func (fz *fusedBlock) tableRows(mask uint64) bool {
	tex := fz.tex
	w, h := float64(tex.w), float64(tex.h)
	point := fz.smp.filter == isa.FilterPoint
	var xs, ys [8]int
	var fxs [8]float32
	for i := range 8 {
		if point {
			xs[i], _ = texel(float64(math.Float32frombits(fz.uc[i])) * w)
			ys[i], _ = texel(float64(math.Float32frombits(fz.vr[i])) * h)
			continue
		}
		xs[i], fxs[i] = texel(float64(float64(math.Float32frombits(fz.uc[i]))*w) - 0.5)
		ys[i], fz.fys[i] = texel(float64(float64(math.Float32frombits(fz.vr[i]))*h) - 0.5)
	}
	var trow [16]int
	n := 0
	slot := func(yr int) uint8 {
		for i := range n {
			if trow[i] == yr {
				return uint8(i)
			}
		}
		trow[n] = yr
		fz.texRow(&fz.rv[n], yr, &xs, &fxs, point)
		n++
		return uint8(n - 1)
	}
	for y := range 8 {
		if rowBits(mask, y) == 0 {
			continue
		}
		fz.top[y] = slot(ys[y])
		if !point {
			fz.bot[y] = slot(ys[y] + 1)
		}
	}
	return !point
}

// texRow sets out to texel row yr filtered along x at each column (texel
// xs[x], fraction fxs[x]) as lerpRows filters it, or to its texels at xs
// (point); columns of the same texel share its reads.
func (fz *fusedBlock) texRow(out *[4][8]float32, yr int, xs *[8]int, fxs *[8]float32, point bool) {
	tex, sm := fz.tex, fz.smp
	mem, pitch := tex.mem, tex.pitch
	rs, bs := uint(0), uint(16)
	if tex.fmt == isa.FmtBGRA8 {
		rs, bs = 16, 0
	}
	inY := uint(yr) < uint(tex.h)
	o0, o1, o2, o3 := &out[0], &out[1], &out[2], &out[3]
	prev := math.MinInt
	if point {
		var c [4]float32
		for x := range 8 {
			if xi := xs[x]; xi != prev {
				prev = xi
				if inY && uint(xi) < uint(tex.w) {
					t := binary.LittleEndian.Uint32(mem[yr*pitch+4*xi:])
					c = [4]float32{unormF32[uint8(t>>rs)], unormF32[uint8(t>>8)], unormF32[uint8(t>>bs)], unormF32[uint8(t>>24)]}
				} else {
					c = tex.fetch(sm, xi, yr)
				}
			}
			o0[x], o1[x], o2[x], o3[x] = c[0], c[1], c[2], c[3]
		}
		return
	}
	// The texels of columns xi and xi+1 of the row: c and the difference d.
	var c0, c1, c2, c3, d0, d1, d2, d3 float32
	for x := range 8 {
		if xi := xs[x]; xi != prev {
			prev = xi
			if inY && uint(xi) < uint(tex.w-1) {
				t := binary.LittleEndian.Uint64(mem[yr*pitch+4*xi:])
				c0, c1, c2, c3 = unormF32[uint8(t>>rs)], unormF32[uint8(t>>8)], unormF32[uint8(t>>bs)], unormF32[uint8(t>>24)]
				d0 = unormF32[uint8(t>>(32+rs))] - c0
				d1 = unormF32[uint8(t>>40)] - c1
				d2 = unormF32[uint8(t>>(32+bs))] - c2
				d3 = unormF32[uint8(t>>56)] - c3
			} else {
				c, e := tex.fetch(sm, xi, yr), tex.fetch(sm, xi+1, yr)
				c0, c1, c2, c3 = c[0], c[1], c[2], c[3]
				d0, d1, d2, d3 = e[0]-c0, e[1]-c1, e[2]-c2, e[3]-c3
			}
		}
		fx := fxs[x]
		o0[x] = c0 + float32(d0*fx)
		o1[x] = c1 + float32(d1*fx)
		o2[x] = c2 + float32(d2*fx)
		o3[x] = c3 + float32(d3*fx)
	}
}

// pointLanes sets the lanes of mask of out to the point sampler's texels
// in top (tableRows).
func (fz *fusedBlock) pointLanes(mask uint64) {
	out := &fz.out
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		x, y := laneXY[l][0], laneXY[l][1]
		top := &fz.rv[fz.top[y]]
		out[0][l], out[1][l] = math.Float32bits(top[0][x]), math.Float32bits(top[1][x])
		out[2][l], out[3][l] = math.Float32bits(top[2][x]), math.Float32bits(top[3][x])
	}
}

// sepRows writes the lanes of mask, row by row: the filter down the
// columns from tableRows' rows (lerpCols), times the factor from its
// column and row terms cc and cr, as a word. Whole rows go eight lanes a
// pass under GOEXPERIMENT=simd (sepRowsVec), the rest one by one.
func (fz *fusedBlock) sepRows(words []uint32, wp int, mask uint64, sw *[4]uint8, cc, cr *[4][8]float64) {
	fz.sepRowsScalar(words, wp, mask, fz.sepRowsVec(words, wp, mask, sw, cc, cr), sw, cc, cr)
}

// sepRowsScalar is sepRows one lane at a time, but for the rows in done.
func (fz *fusedBlock) sepRowsScalar(words []uint32, wp int, mask uint64, done uint8, sw *[4]uint8, cc, cr *[4][8]float64) {
	s0, s1, s2, s3 := sw[0], sw[1], sw[2], sw[3]
	for y := range 8 {
		rb := rowBits(mask, y)
		if rb == 0 || done>>y&1 != 0 {
			continue
		}
		top, bot := &fz.rv[fz.top[y]], &fz.rv[fz.bot[y]]
		t0, t1, t2, t3 := &top[s0], &top[s1], &top[s2], &top[s3]
		b0, b1, b2, b3 := &bot[s0], &bot[s1], &bot[s2], &bot[s3]
		fy := fz.fys[y]
		r0, r1, r2, r3 := cr[0][y], cr[1][y], cr[2][y], cr[3][y]
		row := words[y*wp : y*wp+8 : y*wp+8]
		for x := range 8 {
			if rb>>x&1 == 0 {
				continue
			}
			r := unormW(math.Float32bits(lerpCols(t0[x], b0[x], fy) * float32(cc[0][x]+r0)))
			g := unormW(math.Float32bits(lerpCols(t1[x], b1[x], fy) * float32(cc[1][x]+r1)))
			b := unormW(math.Float32bits(lerpCols(t2[x], b2[x], fy) * float32(cc[2][x]+r2)))
			a := unormW(math.Float32bits(lerpCols(t3[x], b3[x], fy) * float32(cc[3][x]+r3)))
			row[x] = r | g<<8 | b<<16 | a<<24
		}
	}
}

// laneRows is sepRows for a block of weights per lane (blk's): the factor
// interpolated from the lane's weights (whole rows by laneRowsVec under
// GOEXPERIMENT=simd).
func (fz *fusedBlock) laneRows(blk *psBlock, t *tri, words []uint32, wp int, mask uint64, sw *[4]uint8, kc *[4]int) {
	fz.laneRowsScalar(blk, t, words, wp, mask, fz.laneRowsVec(blk, t, words, wp, mask, sw, kc), sw, kc)
}

// laneRowsScalar is laneRows one lane at a time, but for the rows in done.
func (fz *fusedBlock) laneRowsScalar(blk *psBlock, t *tri, words []uint32, wp int, mask uint64, done uint8, sw *[4]uint8, kc *[4]int) {
	s0, s1, s2, s3 := sw[0], sw[1], sw[2], sw[3]
	var a0, d1, d2 [4]float64
	for k, a := range kc {
		a0[k], d1[k], d2[k] = t.a0[a], t.d1[a], t.d2[a]
	}
	for y := range 8 {
		rb := rowBits(mask, y)
		if rb == 0 || done>>y&1 != 0 {
			continue
		}
		top, bot := &fz.rv[fz.top[y]], &fz.rv[fz.bot[y]]
		t0, t1, t2, t3 := &top[s0], &top[s1], &top[s2], &top[s3]
		b0, b1, b2, b3 := &bot[s0], &bot[s1], &bot[s2], &bot[s3]
		fy := fz.fys[y]
		row := words[y*wp : y*wp+8 : y*wp+8]
		lanes := rowOrder[8*y : 8*y+8 : 8*y+8]
		if t.e[1].a == 0 {
			// b1 the same along the row (its edge horizontal): a0 + b1*d1
			// once for the row.
			w1 := blk.b1[lanes[bits.TrailingZeros8(rb)]]
			r0, r1, r2, r3 := a0[0]+float64(w1*d1[0]), a0[1]+float64(w1*d1[1]), a0[2]+float64(w1*d1[2]), a0[3]+float64(w1*d1[3])
			for x := range 8 {
				if rb>>x&1 == 0 {
					continue
				}
				w2 := blk.b2[lanes[x]]
				r := unormW(math.Float32bits(lerpCols(t0[x], b0[x], fy) * float32(r0+float64(w2*d2[0]))))
				g := unormW(math.Float32bits(lerpCols(t1[x], b1[x], fy) * float32(r1+float64(w2*d2[1]))))
				b := unormW(math.Float32bits(lerpCols(t2[x], b2[x], fy) * float32(r2+float64(w2*d2[2]))))
				a := unormW(math.Float32bits(lerpCols(t3[x], b3[x], fy) * float32(r3+float64(w2*d2[3]))))
				row[x] = r | g<<8 | b<<16 | a<<24
			}
			continue
		}
		for x := range 8 {
			if rb>>x&1 == 0 {
				continue
			}
			l := lanes[x]
			w1, w2 := blk.b1[l], blk.b2[l]
			r := unormW(math.Float32bits(lerpCols(t0[x], b0[x], fy) * float32(a0[0]+float64(w1*d1[0])+float64(w2*d2[0]))))
			g := unormW(math.Float32bits(lerpCols(t1[x], b1[x], fy) * float32(a0[1]+float64(w1*d1[1])+float64(w2*d2[1]))))
			b := unormW(math.Float32bits(lerpCols(t2[x], b2[x], fy) * float32(a0[2]+float64(w1*d1[2])+float64(w2*d2[2]))))
			a := unormW(math.Float32bits(lerpCols(t3[x], b3[x], fy) * float32(a0[3]+float64(w1*d1[3])+float64(w2*d2[3]))))
			row[x] = r | g<<8 | b<<16 | a<<24
		}
	}
}

// f32v is a vector component's lanes as floats.
func f32v(v *[shader.Lanes]uint32) *[shader.Lanes]float32 {
	return (*[shader.Lanes]float32)(unsafe.Pointer(v))
}
