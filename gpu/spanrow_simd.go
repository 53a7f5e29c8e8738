//go:build goexperiment.simd && amd64

package gpu

import (
	"simd/archsimd"
	"unsafe"

	"d3dsim/gpu/shader"
)

// The Gouraud row loops (spanRow, spanRowB1, spanRowB2, colSpan) eight
// pixels a pass, when Go is built with GOEXPERIMENT=simd on amd64 and the
// processor has AVX2: the same operations in the same order, each lane
// rounded as the scalar instruction rounds it — VMULPD and VADDPD for the
// weights and a0 + b1*d1 + b2*d2 in float64, two sets of four lanes (no
// fused multiply-add), VCVTPD2PS for the float32, then as eight lanes VMULPS
// by 255, VADDPS of 0.5 and VCVTTPS2DQ for the truncation — so the same
// bytes. The lanes' edge values are exact integers below 2^52 (raster.go's
// bound, a few pixels past the row's end included), so stepping them by
// 4*s is exact too. Each draws out[:n] for n a multiple of four (eight a
// pass, four through store4) and returns n; the scalar loop draws the rest and carries on from f + n*fs,
// which is exact for the same reason.

// spanVec: the processor runs these instructions (AVX, and AVX2 for the
// broadcasts).
var spanVec = archsimd.X86.AVX() && archsimd.X86.AVX2()

// spanRowVec is spanRow's vector part.
func spanRowVec(out []uint32, f1, f2, fs1, fs2, inv float64, a0, d1, d2 *[3]float64, alpha uint32) int {
	n := len(out) &^ 3
	if !spanVec || n == 0 {
		return 0
	}
	w1, st1 := edgeLanes(f1, fs1)
	w2, st2 := edgeLanes(f2, fs2)
	vinv := archsimd.BroadcastFloat64x4(inv)
	u := newUnorm8(alpha)
	r0, g0, c0 := broadcast3(a0)
	r1, g1, c1 := broadcast3(d1)
	r2, g2, c2 := broadcast3(d2)
	i := 0
	for ; i+8 <= n; i += 8 {
		b1, b2 := w1.Mul(vinv), w2.Mul(vinv)
		r, g, c := r0.Add(b1.Mul(r1)).Add(b2.Mul(r2)), g0.Add(b1.Mul(g1)).Add(b2.Mul(g2)), c0.Add(b1.Mul(c1)).Add(b2.Mul(c2))
		w1, w2 = w1.Add(st1), w2.Add(st2)
		b1, b2 = w1.Mul(vinv), w2.Mul(vinv)
		u.store(out[i:], lanes8(r, r0.Add(b1.Mul(r1)).Add(b2.Mul(r2))), lanes8(g, g0.Add(b1.Mul(g1)).Add(b2.Mul(g2))), lanes8(c, c0.Add(b1.Mul(c1)).Add(b2.Mul(c2))))
		w1, w2 = w1.Add(st1), w2.Add(st2)
	}
	if i < n {
		b1, b2 := w1.Mul(vinv), w2.Mul(vinv)
		u.store4(out[i:], r0.Add(b1.Mul(r1)).Add(b2.Mul(r2)), g0.Add(b1.Mul(g1)).Add(b2.Mul(g2)), c0.Add(b1.Mul(c1)).Add(b2.Mul(c2)))
	}
	archsimd.ClearAVXUpperBits()
	return n
}

// spanRowB1Vec is spanRowB1's vector part.
func spanRowB1Vec(out []uint32, f2, fs2, inv, pr, pg, pc, r2, g2, c2 float64, alpha uint32) int {
	n := len(out) &^ 3
	if !spanVec || n == 0 {
		return 0
	}
	w2, st2 := edgeLanes(f2, fs2)
	vinv := archsimd.BroadcastFloat64x4(inv)
	u := newUnorm8(alpha)
	vr, vg, vc := broadcast3(&[3]float64{pr, pg, pc})
	r, g, c := broadcast3(&[3]float64{r2, g2, c2})
	i := 0
	for ; i+8 <= n; i += 8 {
		b2, b2h := w2.Mul(vinv), w2.Add(st2).Mul(vinv)
		u.store(out[i:], lanes8(vr.Add(b2.Mul(r)), vr.Add(b2h.Mul(r))), lanes8(vg.Add(b2.Mul(g)), vg.Add(b2h.Mul(g))), lanes8(vc.Add(b2.Mul(c)), vc.Add(b2h.Mul(c))))
		w2 = w2.Add(st2).Add(st2)
	}
	if i < n {
		b2 := w2.Mul(vinv)
		u.store4(out[i:], vr.Add(b2.Mul(r)), vg.Add(b2.Mul(g)), vc.Add(b2.Mul(c)))
	}
	archsimd.ClearAVXUpperBits()
	return n
}

// spanRowB2Vec is spanRowB2's vector part.
func spanRowB2Vec(out []uint32, f1, fs1, inv float64, a0, d1, k *[3]float64, alpha uint32) int {
	n := len(out) &^ 3
	if !spanVec || n == 0 {
		return 0
	}
	w1, st1 := edgeLanes(f1, fs1)
	vinv := archsimd.BroadcastFloat64x4(inv)
	u := newUnorm8(alpha)
	r0, g0, c0 := broadcast3(a0)
	r1, g1, c1 := broadcast3(d1)
	kr, kg, kc := broadcast3(k)
	i := 0
	for ; i+8 <= n; i += 8 {
		b1, b1h := w1.Mul(vinv), w1.Add(st1).Mul(vinv)
		u.store(out[i:], lanes8(r0.Add(b1.Mul(r1)).Add(kr), r0.Add(b1h.Mul(r1)).Add(kr)),
			lanes8(g0.Add(b1.Mul(g1)).Add(kg), g0.Add(b1h.Mul(g1)).Add(kg)),
			lanes8(c0.Add(b1.Mul(c1)).Add(kc), c0.Add(b1h.Mul(c1)).Add(kc)))
		w1 = w1.Add(st1).Add(st1)
	}
	if i < n {
		b1 := w1.Mul(vinv)
		u.store4(out[i:], r0.Add(b1.Mul(r1)).Add(kr), g0.Add(b1.Mul(g1)).Add(kg), c0.Add(b1.Mul(c1)).Add(kc))
	}
	archsimd.ClearAVXUpperBits()
	return n
}

// colSpanVec is colSpan's vector part.
func colSpanVec(out []uint32, cr, cg, cc []float64, kr, kg, kc float64, alpha uint32) int {
	n := len(out) &^ 3
	if !spanVec || n == 0 {
		return 0
	}
	u := newUnorm8(alpha)
	vr, vg, vc := broadcast3(&[3]float64{kr, kg, kc})
	cr, cg, cc = cr[:n], cg[:n], cc[:n]
	i := 0
	for ; i+8 <= n; i += 8 {
		u.store(out[i:], lanes8(archsimd.LoadFloat64x4Slice(cr[i:]).Add(vr), archsimd.LoadFloat64x4Slice(cr[i+4:]).Add(vr)),
			lanes8(archsimd.LoadFloat64x4Slice(cg[i:]).Add(vg), archsimd.LoadFloat64x4Slice(cg[i+4:]).Add(vg)),
			lanes8(archsimd.LoadFloat64x4Slice(cc[i:]).Add(vc), archsimd.LoadFloat64x4Slice(cc[i+4:]).Add(vc)))
	}
	if i < n {
		u.store4(out[i:], archsimd.LoadFloat64x4Slice(cr[i:]).Add(vr), archsimd.LoadFloat64x4Slice(cg[i:]).Add(vg), archsimd.LoadFloat64x4Slice(cc[i:]).Add(vc))
	}
	archsimd.ClearAVXUpperBits()
	return n
}

// edgeLanes: an edge's value at four pixels in a row from f, a step of fs
// between two, and the step of four pixels (exact: integers below 2^52).
func edgeLanes(f, fs float64) (w, step archsimd.Float64x4) {
	return archsimd.LoadFloat64x4(&[4]float64{f, f + fs, f + 2*fs, f + 3*fs}), archsimd.BroadcastFloat64x4(4 * fs)
}

// broadcast3: each of three channels' values in all four lanes.
func broadcast3(p *[3]float64) (r, g, c archsimd.Float64x4) {
	return archsimd.BroadcastFloat64x4(p[0]), archsimd.BroadcastFloat64x4(p[1]), archsimd.BroadcastFloat64x4(p[2])
}

// lanes8: two sets of four float64 lanes rounded to float32, as eight lanes.
func lanes8(lo, hi archsimd.Float64x4) archsimd.Float32x8 {
	var z archsimd.Float32x8
	return z.SetLo(lo.ConvertToFloat32()).SetHi(hi.ConvertToFloat32())
}

// unorm8x packs eight pixels' channels as unormIn and the row loops do.
type unorm8x struct {
	k255, half archsimd.Float32x8
	alpha      archsimd.Int32x8
}

func newUnorm8(alpha uint32) unorm8x {
	return unorm8x{archsimd.BroadcastFloat32x8(255), archsimd.BroadcastFloat32x8(0.5), archsimd.BroadcastInt32x8(int32(alpha))}
}

// store writes out[:8]: unorm8 of r, g and c (float32 lanes times 255, plus
// 0.5, truncated) in the low three bytes, alpha in the fourth.
func (u *unorm8x) store(out []uint32, r, g, c archsimd.Float32x8) {
	ri := r.Mul(u.k255).Add(u.half).ConvertToInt32()
	gi := g.Mul(u.k255).Add(u.half).ConvertToInt32()
	ci := c.Mul(u.k255).Add(u.half).ConvertToInt32()
	x := ri.Or(u.alpha).Or(gi.ShiftAllLeft(8)).Or(ci.ShiftAllLeft(16))
	x.Store((*[8]int32)(unsafe.Pointer(&out[:8][0])))
}

// store4 writes out[:4], the four pixels of r, g and c (float64 lanes), a
// row's last four when fewer than eight are left: through eight lanes,
// the upper four a copy, and a buffer.
func (u *unorm8x) store4(out []uint32, r, g, c archsimd.Float64x4) {
	var buf [8]uint32
	u.store(buf[:], lanes8(r, r), lanes8(g, g), lanes8(c, c))
	copy(out[:4], buf[:4])
}

// interpVec is runBlock's interpolation of one component over a whole
// block whose weights go per lane: out[l] = float32(a0 + b1[l]*d1 +
// b2[l]*d2), each product rounded to float64 before its sum (VMULPD,
// VADDPD: no fused multiply-add), then VCVTPD2PS, four lanes a register.
// It ends with VZEROUPPER: the scalar SSE code after it would otherwise
// pay for the dirty upper halves on every instruction.
func interpVec(out *[shader.Lanes]uint32, a0, d1, d2 float64, b1, b2 *[shader.Lanes]float64) bool {
	if !spanVec {
		return false
	}
	va, v1, v2 := archsimd.BroadcastFloat64x4(a0), archsimd.BroadcastFloat64x4(d1), archsimd.BroadcastFloat64x4(d2)
	for l := 0; l < shader.Lanes; l += 8 {
		lo := va.Add(archsimd.LoadFloat64x4((*[4]float64)(b1[l : l+4])).Mul(v1)).Add(archsimd.LoadFloat64x4((*[4]float64)(b2[l : l+4])).Mul(v2))
		hi := va.Add(archsimd.LoadFloat64x4((*[4]float64)(b1[l+4 : l+8])).Mul(v1)).Add(archsimd.LoadFloat64x4((*[4]float64)(b2[l+4 : l+8])).Mul(v2))
		x := lanes8(lo, hi)
		if x.IsNaN().ToBits() != 0 {
			// Which NaN an operation gives depends on its operands'
			// order, which the compiler may swap: the scalar loop's
			// (out partly written: it fills the block).
			archsimd.ClearAVXUpperBits()
			return false
		}
		x.AsUint32x8().Store((*[8]uint32)(out[l : l+8]))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// unormWordsVec is the output merger's word path for a whole block:
// words[off[l]] = unormW of o's four channels (red shifted by rs, blue by
// bs), eight lanes a pass: (0, 1) scaled by 255 plus 0.5 in float32 and
// truncated (VCVTTPS2DQ, as int32() does), +1 up to +Inf 255, the rest 0.
func unormWordsVec(words []uint32, off *[shader.Lanes]int, o *shader.Vec, rs, bs uint64) bool {
	if !spanVec {
		return false
	}
	u := newUnormWx()
	ch := func(c *[shader.Lanes]uint32, l int) archsimd.Int32x8 {
		return u.ch(archsimd.LoadUint32x8((*[8]uint32)(c[l : l+8])))
	}
	var buf [8]uint32
	for l := 0; l < shader.Lanes; l += 8 {
		w := ch(&o[0], l).ShiftAllLeft(rs).Or(ch(&o[1], l).ShiftAllLeft(8)).Or(ch(&o[2], l).ShiftAllLeft(bs)).Or(ch(&o[3], l).ShiftAllLeft(24))
		w.AsUint32x8().Store(&buf)
		for i, x := range buf {
			words[off[l+i]] = x
		}
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// unormWx is unormW eight lanes a pass: (0, 1) scaled by 255 plus 0.5 in
// float32 and truncated (VCVTTPS2DQ, as int32() does), +1 up to +Inf 255,
// zeros, negatives and NaNs 0.
type unormWx struct {
	k255, half   archsimd.Float32x8
	one, lim     archsimd.Uint32x8
	lo, hi, full archsimd.Int32x8
}

func newUnormWx() unormWx {
	return unormWx{archsimd.BroadcastFloat32x8(255), archsimd.BroadcastFloat32x8(0.5),
		archsimd.BroadcastUint32x8(1), archsimd.BroadcastUint32x8(0x3F7FFFFF),
		archsimd.BroadcastInt32x8(0x3F7FFFFF), archsimd.BroadcastInt32x8(0x7F800001), archsimd.BroadcastInt32x8(255)}
}

// ch is unormW of the float bits x, lane by lane.
func (u *unormWx) ch(x archsimd.Uint32x8) archsimd.Int32x8 {
	v := x.AsFloat32x8().Mul(u.k255).Add(u.half).ConvertToInt32()
	xi := x.AsInt32x8()
	sat := u.full.Masked(xi.Greater(u.lo).And(xi.Less(u.hi)))
	return v.Merge(sat, x.Sub(u.one).Less(u.lim))
}
