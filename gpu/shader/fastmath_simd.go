//go:build goexperiment.simd && amd64

package shader

import (
	"math"
	"simd/archsimd"
)

// exp2q and log2q (fastexp.go, fastlog.go) sixteen lanes a pass in the
// vector build: the same float64 operations lane by lane, four lanes to a
// register and four registers side by side, so the same bits as the
// default build's kExp2 and kLog2 and as exp2f and log2f. The tables have
// no vector gather in AVX2 as Go offers it: their entries are read lane by
// lane (sixteen loads), the rest is vector. As in the scalar kernels, a
// result is taken only when it lies far from the middle of two float32s
// (farMid, here four lanes at a time: farMid4); when a lane of the sixteen
// is near it, or lies where only the long series is defined (exp2 of
// [-151, -126): denormal results), the sixteen go by the long series
// (seriesGroup), the old vector kernel, as exact. vExp2 and log2Vec keep
// their group loops apart, as kExp2 and kLog2 do: one driver calling each
// one's evaluation and out through function values (or taking them from
// its caller, the prepared lanes and the results handed back and forth)
// cost 3% of Phong's block (ShaderBlocks, 2026-11-29).

// vExp2 is exp2f of a block, sixteen lanes a pass by exp2q16, the lanes
// outside [exp2QLo, exp2QHi) by blends (exp2Out) or, in [exp2Lo,
// exp2QLo), by the long series.
func vExp2(r, a, _, _ *[Lanes]uint32) {
	qlo, qhi := archsimd.BroadcastFloat32x8(exp2QLo), archsimd.BroadcastFloat32x8(exp2QHi)
	slo := archsimd.BroadcastFloat32x8(exp2Lo)
	zero := archsimd.BroadcastFloat32x8(0)
	for i := 0; i < Lanes; i += 16 {
		x0, x1 := ldf(a, i), ldf(a, i+8)
		in0, in1 := x0.GreaterEqual(qlo).And(x0.Less(qhi)), x1.GreaterEqual(qlo).And(x1.Less(qhi))
		if in0.And(in1).ToBits() == 0xFF {
			if r0, r1, ok := exp2q16(x0, x1); ok {
				stf(r, i, r0)
				stf(r, i+8, r1)
				continue
			}
			seriesGroup(r, i, x0, x1, exp2Lo, exp2Hi, exp2x16, exp2Out)
			continue
		}
		// Denormal results: the long series.
		if x0.GreaterEqual(slo).And(x0.Less(qlo)).Or(x1.GreaterEqual(slo).And(x1.Less(qlo))).ToBits() != 0 {
			seriesGroup(r, i, x0, x1, exp2Lo, exp2Hi, exp2x16, exp2Out)
			continue
		}
		if in0.Or(in1).ToBits() == 0 {
			stf(r, i, exp2Out(x0))
			stf(r, i+8, exp2Out(x1))
			continue
		}
		// exp2q is given 0 for the lanes outside (its result, 1, is
		// replaced).
		r0, r1, ok := exp2q16(x0.Merge(zero, in0), x1.Merge(zero, in1))
		if !ok {
			seriesGroup(r, i, x0, x1, exp2Lo, exp2Hi, exp2x16, exp2Out)
			continue
		}
		stf(r, i, r0.Merge(exp2Out(x0), in0))
		stf(r, i+8, r1.Merge(exp2Out(x1), in1))
	}
}

// vLog2 is log2f of a block, sixteen lanes a pass by log2q16, the lanes
// outside [log2Lo, log2Hi) (zeros, negatives, infinities, NaNs) by blends
// (log2Out).
func vLog2(r, a, _, _ *[Lanes]uint32) { log2Vec(r, a, 0) }

// vLog2Abs is log2 |x|, the sign cleared as the lanes are loaded (vecFold).
func vLog2Abs(r, a, _, _ *[Lanes]uint32) { log2Vec(r, a, 1<<31) }

// log2Vec is vLog2 of the lanes with the bits of clr cleared.
func log2Vec(r, a *[Lanes]uint32, clr uint32) {
	c := archsimd.BroadcastUint32x8(clr)
	lo, hi := archsimd.BroadcastFloat32x8(log2Lo), archsimd.BroadcastFloat32x8(log2Hi)
	one := archsimd.BroadcastFloat32x8(1)
	for i := 0; i < Lanes; i += 16 {
		x0, x1 := ld(a, i).AndNot(c).AsFloat32x8(), ld(a, i+8).AndNot(c).AsFloat32x8()
		in0, in1 := x0.GreaterEqual(lo).And(x0.Less(hi)), x1.GreaterEqual(lo).And(x1.Less(hi))
		if in0.And(in1).ToBits() == 0xFF {
			if r0, r1, ok := log2q16(x0, x1); ok {
				stf(r, i, r0)
				stf(r, i+8, r1)
				continue
			}
			seriesGroup(r, i, x0, x1, log2Lo, log2Hi, log2x16, log2Out)
			continue
		}
		if in0.Or(in1).ToBits() == 0 {
			stf(r, i, log2Out(x0))
			stf(r, i+8, log2Out(x1))
			continue
		}
		// log2q is given 1 for the lanes outside (its result, 0, is
		// replaced).
		r0, r1, ok := log2q16(x0.Merge(one, in0), x1.Merge(one, in1))
		if !ok {
			seriesGroup(r, i, x0, x1, log2Lo, log2Hi, log2x16, log2Out)
			continue
		}
		stf(r, i, r0.Merge(log2Out(x0), in0))
		stf(r, i+8, r1.Merge(log2Out(x1), in1))
	}
}

// farMid4 is farMid's opposite for four lanes: the lanes whose 29 bits
// below the float32's lie within 2**12 of 2**28 (a mask).
func farMid4(v d4) archsimd.Mask64x4 {
	const c = 1<<28 - 1<<12
	y := v.AsUint64x4().And(archsimd.BroadcastUint64x4(1<<29 - 1)).AsInt64x4()
	return y.Greater(archsimd.BroadcastInt64x4(c - 1)).And(archsimd.BroadcastInt64x4(c + 1<<13 + 1).Greater(y))
}

// exp2q16 is exp2q of sixteen lanes in [exp2QLo, exp2QHi) rounded to
// float32, and whether every one is far from the middle of two float32s.
func exp2q16(x, y f8) (f8, f8, bool) {
	const shift = 0x1.8p52
	c256, sh, inv := archsimd.BroadcastFloat64x4(256), archsimd.BroadcastFloat64x4(shift), archsimd.BroadcastFloat64x4(1.0/256)
	xa, xb := x.GetLo().ConvertToFloat64(), x.GetHi().ConvertToFloat64()
	ya, yb := y.GetLo().ConvertToFloat64(), y.GetHi().ConvertToFloat64()
	kxa, kxb := xa.Mul(c256).Add(sh), xb.Mul(c256).Add(sh)
	kya, kyb := ya.Mul(c256).Add(sh), yb.Mul(c256).Add(sh)
	txa, txb := xa.Sub(kxa.Sub(sh).Mul(inv)), xb.Sub(kxb.Sub(sh).Mul(inv))
	tya, tyb := ya.Sub(kya.Sub(sh).Mul(inv)), yb.Sub(kyb.Sub(sh).Mul(inv))
	// The table's entries (k & 255) lane by lane, k>>8 added to their
	// exponents four lanes at a time.
	var j [16]uint64
	m := archsimd.BroadcastUint64x4(255)
	kxa.AsUint64x4().And(m).Store((*[4]uint64)(j[0:4]))
	kxb.AsUint64x4().And(m).Store((*[4]uint64)(j[4:8]))
	kya.AsUint64x4().And(m).Store((*[4]uint64)(j[8:12]))
	kyb.AsUint64x4().And(m).Store((*[4]uint64)(j[12:16]))
	sc := func(k d4, n []uint64) d4 {
		e := k.AsUint64x4().ShiftAllRight(8).ShiftAllLeft(52)
		return exp2Gather(n).AsUint64x4().Add(e).AsFloat64x4()
	}
	sxa, sxb, sya, syb := sc(kxa, j[0:4]), sc(kxb, j[4:8]), sc(kya, j[8:12]), sc(kyb, j[12:16])
	c3, c2, c1 := archsimd.BroadcastFloat64x4(exp2C3), archsimd.BroadcastFloat64x4(exp2C2), archsimd.BroadcastFloat64x4(exp2C1)
	pxa, pxb := txa.Mul(c3).Add(c2), txb.Mul(c3).Add(c2)
	pya, pyb := tya.Mul(c3).Add(c2), tyb.Mul(c3).Add(c2)
	pxa, pxb = pxa.Mul(txa).Add(c1), pxb.Mul(txb).Add(c1)
	pya, pyb = pya.Mul(tya).Add(c1), pyb.Mul(tyb).Add(c1)
	pxa, pxb = pxa.Mul(txa), pxb.Mul(txb)
	pya, pyb = pya.Mul(tya), pyb.Mul(tyb)
	vxa, vxb := sxa.Mul(pxa).Add(sxa), sxb.Mul(pxb).Add(sxb)
	vya, vyb := sya.Mul(pya).Add(sya), syb.Mul(pyb).Add(syb)
	if farMid4(vxa).Or(farMid4(vxb)).Or(farMid4(vya)).Or(farMid4(vyb)).ToBits() != 0 {
		return x, y, false
	}
	x = x.SetLo(vxa.ConvertToFloat32()).SetHi(vxb.ConvertToFloat32())
	y = y.SetLo(vya.ConvertToFloat32()).SetHi(vyb.ConvertToFloat32())
	return x, y, true
}

// log2q16 is log2q of sixteen positive finite lanes rounded to float32,
// and whether every one is far from the middle of two float32s.
func log2q16(x, y f8) (f8, f8, bool) {
	xa, xb := x.GetLo().ConvertToFloat64().AsUint64x4(), x.GetHi().ConvertToFloat64().AsUint64x4()
	ya, yb := y.GetLo().ConvertToFloat64().AsUint64x4(), y.GetHi().ConvertToFloat64().AsUint64x4()
	// The entry (the top eight bits of the mantissa) and e + (1 from
	// log2Split on) four lanes at a time, the entries' invc and log2 c
	// lane by lane.
	var j [16]uint64
	m8 := archsimd.BroadcastUint64x4(255)
	split := archsimd.BroadcastUint64x4(256 - log2Split)
	// e as a float64: e + 1023 + 2**52 has e + 1023 (below 2**11) in its
	// low bits.
	magic, bias52 := archsimd.BroadcastUint64x4(0x4330000000000000), archsimd.BroadcastFloat64x4(1<<52+1023)
	ef := func(b u4, t []uint64) d4 {
		n := b.ShiftAllRight(44).And(m8)
		n.Store((*[4]uint64)(t))
		return b.ShiftAllRight(52).Add(n.Add(split).ShiftAllRight(8)).Or(magic).AsFloat64x4().Sub(bias52)
	}
	exa, exb, eya, eyb := ef(xa, j[0:4]), ef(xb, j[4:8]), ef(ya, j[8:12]), ef(yb, j[12:16])
	ixa, lxa := log2Gather(j[0:4])
	ixb, lxb := log2Gather(j[4:8])
	iya, lya := log2Gather(j[8:12])
	iyb, lyb := log2Gather(j[12:16])
	mant, bias := archsimd.BroadcastUint64x4(1<<52-1), archsimd.BroadcastUint64x4(1023<<52)
	one := archsimd.BroadcastFloat64x4(1)
	zxa := xa.And(mant).Or(bias).AsFloat64x4().Mul(ixa).Sub(one)
	zxb := xb.And(mant).Or(bias).AsFloat64x4().Mul(ixb).Sub(one)
	zya := ya.And(mant).Or(bias).AsFloat64x4().Mul(iya).Sub(one)
	zyb := yb.And(mant).Or(bias).AsFloat64x4().Mul(iyb).Sub(one)
	elxa, elxb := exa.Add(lxa), exb.Add(lxb)
	elya, elyb := eya.Add(lya), eyb.Add(lyb)
	c5, c4 := archsimd.BroadcastFloat64x4(log2C5), archsimd.BroadcastFloat64x4(log2C4)
	c3, c2 := archsimd.BroadcastFloat64x4(log2C3), archsimd.BroadcastFloat64x4(log2C2)
	pxa, pxb := zxa.Mul(c5).Add(c4), zxb.Mul(c5).Add(c4)
	pya, pyb := zya.Mul(c5).Add(c4), zyb.Mul(c5).Add(c4)
	pxa, pxb = pxa.Mul(zxa).Add(c3), pxb.Mul(zxb).Add(c3)
	pya, pyb = pya.Mul(zya).Add(c3), pyb.Mul(zyb).Add(c3)
	pxa, pxb = pxa.Mul(zxa).Add(c2), pxb.Mul(zxb).Add(c2)
	pya, pyb = pya.Mul(zya).Add(c2), pyb.Mul(zyb).Add(c2)
	c1 := archsimd.BroadcastFloat64x4(log2C1)
	vxa := zxa.Mul(pxa.Mul(zxa).Add(c1)).Add(elxa)
	vxb := zxb.Mul(pxb.Mul(zxb).Add(c1)).Add(elxb)
	vya := zya.Mul(pya.Mul(zya).Add(c1)).Add(elya)
	vyb := zyb.Mul(pyb.Mul(zyb).Add(c1)).Add(elyb)
	if farMid4(vxa).Or(farMid4(vxb)).Or(farMid4(vya)).Or(farMid4(vyb)).ToBits() != 0 {
		return x, y, false
	}
	x = x.SetLo(vxa.ConvertToFloat32()).SetHi(vxb.ConvertToFloat32())
	y = y.SetLo(vya.ConvertToFloat32()).SetHi(vyb.ConvertToFloat32())
	return x, y, true
}

// exp2Pad is exp2Tab as float64s and one more entry, so that an entry and
// the next load as a pair (exp2Gather).
var exp2Pad = func() (t [257]float64) {
	for j, b := range exp2Tab {
		t[j] = math.Float64frombits(b)
	}
	return t
}()

// exp2Gather is exp2Pad's entries n[0..3] (each below 256) in one
// register: two pairs loaded into each half of two registers, their first
// elements taken (VSHUFPD).
func exp2Gather(n []uint64) d4 {
	n = n[:4]
	p := func(i uint64) archsimd.Float64x2 { return archsimd.LoadFloat64x2((*[2]float64)(exp2Pad[i&255:])) }
	var z d4
	a := z.SetLo(p(n[0])).SetHi(p(n[2]))
	b := z.SetLo(p(n[1])).SetHi(p(n[3]))
	return a.SelectFromPairGrouped(0, 2, b)
}

// log2Gather is log2Tab's entries n[0..3] (each below 256): invc and
// log2 c, each in one register, from an entry a load.
func log2Gather(n []uint64) (inv, lc d4) {
	n = n[:4]
	p := func(i uint64) archsimd.Float64x2 { return archsimd.LoadFloat64x2(&log2Tab[i&255]) }
	var z d4
	a := z.SetLo(p(n[0])).SetHi(p(n[2]))
	b := z.SetLo(p(n[1])).SetHi(p(n[3]))
	return a.SelectFromPairGrouped(0, 2, b), a.SelectFromPairGrouped(1, 3, b)
}
