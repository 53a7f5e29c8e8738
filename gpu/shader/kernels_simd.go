//go:build goexperiment.simd && amd64

package shader

import (
	"math"
	"simd/archsimd"

	. "d3dsim/gpu/shaderisa"
)

// The machine's hot kernels eight lanes a pass, when Go is built with
// GOEXPERIMENT=simd on amd64 and the processor has AVX2: the same
// operations in the same order as the scalar kernels (kernels.go), each
// lane rounded as the scalar instruction rounds it, so the same bits —
// VADDPS, VMULPS (a mad is VMULPS then VADDPS: no fused multiply-add),
// VDIVPS, VROUNDPS for floor and the others (a float32's integer part is a
// float32, so rounding in float32 or in float64 gives one value), rsq in
// float64 as the scalar kernel takes it (VCVTPS2PD, VSQRTPD, VDIVPD,
// VCVTPD2PS), exp2 and log2 by the same float64 series four lanes to a
// register. NaN results are made canonical as each pass stores (the
// machine's canonical pass is dropped for the ops whose vector kernel does
// it). TestVectorKernels compares each with the scalar kernel bit for bit.

// selfCanon marks the canonical ops whose kernel stores canonical NaNs.
var selfCanon [NumOps]bool

// vecOK: the processor runs these instructions (AVX, AVX2).
var vecOK = archsimd.X86.AVX() && archsimd.X86.AVX2()

// vecKernels are the kernels the vector build puts in the table (init).
var vecKernels = [NumOps]kernel{
	OpMov:     vMov,
	OpMovc:    vMovc,
	OpAdd:     vAdd,
	OpMul:     vMul,
	OpMad:     vMad,
	OpDiv:     vDiv,
	OpMin:     vMin,
	OpMax:     vMax,
	OpRcp:     vRcp,
	OpRsq:     vRsq,
	OpSqrt:    vSqrt,
	OpExp2:    vExp2,
	OpLog2:    vLog2,
	OpFrc:     vFrc,
	OpFloor:   vFloor,
	OpCeil:    vCeil,
	OpRoundNE: vRoundNE,
	OpTrunc:   vTrunc,
	OpLt:      vLt,
	OpGe:      vGe,
	OpEq:      vEq,
	OpNe:      vNe,
	OpIAdd:    vIAdd,
	OpIMul:    vIMul,
	OpAnd:     vAnd,
	OpOr:      vOr,
	OpXor:     vXor,
	OpILt:     vILt,
	OpIGe:     vIGe,
	OpIEq:     vIEq,
	OpINe:     vINe,
	OpIMin:    vIMin,
	OpIMax:    vIMax,
	OpUMin:    vUMin,
	OpUMax:    vUMax,
	OpIToF:    vIToF,
}

// scalarKernels is the table as kernels.go fills it (the tests' reference).
var scalarKernels = kernels

func init() {
	if !vecOK {
		return
	}
	for op, k := range vecKernels {
		if k != nil {
			kernels[op] = k
		}
	}
	// vMin, vMax and dotVec store canonical NaNs themselves: the
	// machine leaves out its pass (canonical still says the op's results
	// are canonical).
	for _, op := range []Op{OpMin, OpMax, OpDp2, OpDp3, OpDp4} {
		selfCanon[op] = true
	}
}

type (
	f8 = archsimd.Float32x8
	u8 = archsimd.Uint32x8
	i8 = archsimd.Int32x8
	d4 = archsimd.Float64x4
	u4 = archsimd.Uint64x4
)

func ld(p *[Lanes]uint32, i int) u8  { return archsimd.LoadUint32x8((*[8]uint32)(p[i : i+8])) }
func ldf(p *[Lanes]uint32, i int) f8 { return ld(p, i).AsFloat32x8() }
func ldi(p *[Lanes]uint32, i int) i8 { return ld(p, i).AsInt32x8() }
func st(p *[Lanes]uint32, i int, x u8) {
	x.Store((*[8]uint32)(p[i : i+8]))
}
func stf(p *[Lanes]uint32, i int, x f8) { st(p, i, x.AsUint32x8()) }
func sti(p *[Lanes]uint32, i int, x i8) { st(p, i, x.AsUint32x8()) }

// cn8 makes x's NaNs canonical.
func cn8(x f8) f8 {
	return archsimd.BroadcastFloat32x8(nanF).Merge(x, x.IsNaN())
}

func vMov(r, a, _, _ *[Lanes]uint32) { *r = *a }

func vMovc(r, a, b, c *[Lanes]uint32) {
	z := archsimd.BroadcastInt32x8(0)
	for i := 0; i < Lanes; i += 8 {
		st(r, i, ld(c, i).Merge(ld(b, i), ldi(a, i).Equal(z)))
	}
}

func vAdd(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Add(ldf(b, i))))
	}
}

func vMul(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Mul(ldf(b, i))))
	}
}

func vMad(r, a, b, c *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Mul(ldf(b, i)).Add(ldf(c, i))))
	}
}

// vMadSat, vMadNeg and vMadNegSat are mad_sat, mad with its first source
// negated and both (Phong's `mad_sat r0.x, -r1.x, r2.z, -l(...)`): the
// sign flipped as the lanes are loaded and the saturate applied as they are
// stored, instead of a pass of fetch and one of saturate (vecFold).
func vMadSat(r, a, b, c *[Lanes]uint32) { madVec(r, a, b, c, 0, true) }

func vMadNeg(r, a, b, c *[Lanes]uint32) { madVec(r, a, b, c, 1<<31, false) }

func vMadNegSat(r, a, b, c *[Lanes]uint32) { madVec(r, a, b, c, 1<<31, true) }

// madVec is (a ^ flip) * b + c, saturated when sat, else NaNs canonical.
func madVec(r, a, b, c *[Lanes]uint32, flip uint32, sat bool) {
	f := archsimd.BroadcastUint32x8(flip)
	for i := 0; i < Lanes; i += 8 {
		x := ld(a, i).Xor(f).AsFloat32x8()
		stf(r, i, fin8(x.Mul(ldf(b, i)).Add(ldf(c, i)), sat))
	}
}

// vecFold gives the vector build's instructions whose modifiers a kernel
// takes (log2 |x|, mad with its first source negated, mad_sat) that
// kernel, their modifiers cleared: the instruction is then plain (no pass
// of fetch) and, but for log2, saturates in its kernel. Phong has one of
// each. TestVecFold compares them with the general path.
func vecFold(x *xinst) {
	if !vecOK {
		return
	}
	s0 := &x.src[0]
	switch x.op {
	case OpLog2:
		if !s0.rel && s0.abs && !s0.neg {
			x.kernel, s0.mod, s0.abs = vLog2Abs, false, false
		}
	case OpMad:
		if x.src[1].mod || x.src[1].rel || x.src[2].mod || x.src[2].rel || s0.rel || s0.abs {
			return
		}
		var k kernel
		switch {
		case s0.neg && x.sat:
			k = vMadNegSat
		case s0.neg:
			k = vMadNeg
		case x.sat:
			k = vMadSat
		default:
			return
		}
		x.kernel, s0.mod, s0.neg, x.sat, x.folded = k, false, false, false, true
	}
}

func vDiv(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Div(ldf(b, i))))
	}
}

// vMin and vMax: x where x < y (x > y) or y is NaN, else y, as kMin and
// kMax choose; canonical NaNs.
func vMin(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		x, y := ldf(a, i), ldf(b, i)
		stf(r, i, cn8(x.Merge(y, x.Less(y).Or(y.IsNaN()))))
	}
}

func vMax(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		x, y := ldf(a, i), ldf(b, i)
		stf(r, i, cn8(x.Merge(y, x.Greater(y).Or(y.IsNaN()))))
	}
}

func vRcp(r, a, _, _ *[Lanes]uint32) {
	one := archsimd.BroadcastFloat32x8(1)
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(one.Div(ldf(a, i))))
	}
}

// vRsq: float32(1 / sqrt(float64(x))), four lanes to a float64 register.
func vRsq(r, a, _, _ *[Lanes]uint32) {
	one := archsimd.BroadcastFloat64x4(1)
	for i := 0; i < Lanes; i += 8 {
		x := ldf(a, i)
		lo := one.Div(x.GetLo().ConvertToFloat64().Sqrt()).ConvertToFloat32()
		hi := one.Div(x.GetHi().ConvertToFloat64().Sqrt()).ConvertToFloat32()
		stf(r, i, cn8(x.SetLo(lo).SetHi(hi)))
	}
}

// vSqrt: VSQRTPS. float32(sqrt(float64(x))) is the correctly rounded
// float32 square root (float64 has more than twice float32's bits plus
// two: the second rounding never moves it), which VSQRTPS computes.
func vSqrt(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Sqrt()))
	}
}

func vFrc(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		x := ldf(a, i)
		stf(r, i, cn8(x.Sub(x.Floor())))
	}
}

func vFloor(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Floor()))
	}
}

func vCeil(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Ceil()))
	}
}

func vRoundNE(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).RoundToEven()))
	}
}

func vTrunc(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(a, i).Trunc()))
	}
}

func vLt(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldf(a, i).Less(ldf(b, i)).ToInt32x8())
	}
}

func vGe(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldf(a, i).GreaterEqual(ldf(b, i)).ToInt32x8())
	}
}

func vEq(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldf(a, i).Equal(ldf(b, i)).ToInt32x8())
	}
}

func vNe(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldf(a, i).NotEqual(ldf(b, i)).ToInt32x8())
	}
}

func vIAdd(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Add(ldi(b, i)))
	}
}

func vIMul(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Mul(ldi(b, i)))
	}
}

func vAnd(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).And(ldi(b, i)))
	}
}

func vOr(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Or(ldi(b, i)))
	}
}

func vXor(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Xor(ldi(b, i)))
	}
}

func vILt(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Less(ldi(b, i)).ToInt32x8())
	}
}

func vIGe(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).GreaterEqual(ldi(b, i)).ToInt32x8())
	}
}

func vIEq(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Equal(ldi(b, i)).ToInt32x8())
	}
}

func vINe(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Equal(ldi(b, i)).ToInt32x8().Not())
	}
}

func vIMin(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Min(ldi(b, i)))
	}
}

func vIMax(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		sti(r, i, ldi(a, i).Max(ldi(b, i)))
	}
}

func vUMin(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		st(r, i, ld(a, i).Min(ld(b, i)))
	}
}

func vUMax(r, a, b, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		st(r, i, ld(a, i).Max(ld(b, i)))
	}
}

// vIToF: VCVTDQ2PS rounds to nearest as CVTSL2SS does.
func vIToF(r, a, _, _ *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, ldi(a, i).ConvertToFloat32())
	}
}

// vecDone clears the upper halves of the Y registers (VZEROUPPER): after
// the vector kernels, before scalar code that uses SSE instructions, which
// otherwise pay for the dirty state on each one.
func vecDone() { archsimd.ClearAVXUpperBits() }

// modVec is fetch's float modifier eight lanes a pass: d = a &^ clr ^ flip.
func modVec(d, a *[Lanes]uint32, clr, flip uint32) {
	c, f := archsimd.BroadcastUint32x8(clr), archsimd.BroadcastUint32x8(flip)
	for i := 0; i < Lanes; i += 8 {
		st(d, i, ld(a, i).AndNot(c).Xor(f))
	}
}

// fillVec sets every lane of d to v, eight lanes a store.
func fillVec(d *[Lanes]uint32, v uint32) {
	x := archsimd.BroadcastUint32x8(v)
	for i := 0; i < Lanes; i += 8 {
		st(d, i, x)
	}
}

// laneBits are the bits of eight lanes of a mask.
var laneBits = archsimd.LoadUint32x8(&[8]uint32{1, 2, 4, 8, 16, 32, 64, 128})

// mergeVec sets d[j] = r[j] for the lanes of g (a bit each) from lane i.
func mergeVec(d, r *[Lanes]uint32, i int, g uint8) {
	m := archsimd.BroadcastUint32x8(uint32(g)).And(laneBits).Equal(laneBits)
	st(d, i, ld(r, i).Merge(ld(d, i), m))
}

// sat8 is saturate of eight lanes: 0 unless x > 0 (NaN, -0 and
// negatives), 1 where x > 1 (its results are never NaNs).
func sat8(x f8) f8 {
	zero, one := archsimd.BroadcastFloat32x8(0), archsimd.BroadcastFloat32x8(1)
	return one.Merge(x.Masked(x.Greater(zero)), x.Greater(one))
}

// fin8 is x saturated when sat, else with its NaNs canonical (inlined: a
// function value chosen once a call cost a call a store).
func fin8(x f8, sat bool) f8 {
	if sat {
		return sat8(x)
	}
	return cn8(x)
}

// canonVec is canon eight lanes a pass.
func canonVec(r *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, cn8(ldf(r, i)))
	}
}

// saturateVec is saturate eight lanes a pass: 0 unless x > 0 (NaN, -0 and
// negatives), 1 where x > 1.
func saturateVec(r *[Lanes]uint32) {
	for i := 0; i < Lanes; i += 8 {
		stf(r, i, sat8(ldf(r, i)))
	}
}

// dotVec is dot's sum, eight lanes a pass: products rounded, summed left
// to right; canonical NaNs, or saturated as they are stored when sat (dp3_sat:
// no second pass).
func dotVec(n int, r *[Lanes]uint32, a, b *[4]*[Lanes]uint32, sat bool) {
	fin := func(x f8) f8 { return fin8(x, sat) }
	a0, a1, b0, b1 := a[0], a[1], b[0], b[1]
	switch n {
	case 2:
		for i := 0; i < Lanes; i += 8 {
			s := ldf(a0, i).Mul(ldf(b0, i)).Add(ldf(a1, i).Mul(ldf(b1, i)))
			stf(r, i, fin(s))
		}
	case 3:
		a2, b2 := a[2], b[2]
		for i := 0; i < Lanes; i += 8 {
			s := ldf(a0, i).Mul(ldf(b0, i)).Add(ldf(a1, i).Mul(ldf(b1, i)))
			stf(r, i, fin(s.Add(ldf(a2, i).Mul(ldf(b2, i)))))
		}
	default:
		a2, b2, a3, b3 := a[2], b[2], a[3], b[3]
		for i := 0; i < Lanes; i += 8 {
			s := ldf(a0, i).Mul(ldf(b0, i)).Add(ldf(a1, i).Mul(ldf(b1, i)))
			s = s.Add(ldf(a2, i).Mul(ldf(b2, i)))
			stf(r, i, fin(s.Add(ldf(a3, i).Mul(ldf(b3, i)))))
		}
	}
}

// nonzeroVec returns the lanes of v that are not zero (bits).
func nonzeroVec(v *[Lanes]uint32) uint64 {
	z := archsimd.BroadcastInt32x8(0)
	var nz uint64
	for i := 0; i < Lanes; i += 8 {
		nz |= uint64(^ldi(v, i).Equal(z).ToBits()&0xFF) << i
	}
	return nz
}

// seriesGroup computes r = f(a) for the sixteen lanes from i, x0 and x1:
// by the long series of sixteen lanes (four chains of four lanes side by
// side: each link of a chain waits on the one before, about six cycles, in
// which the processor can start the links of the other three) for the
// lanes in [lo, hi), and by out, what the scalar function returns before
// its series, for the others (zeros, infinities, NaNs, exp2's underflow and
// overflow). vExp2 and vLog2 take it where the short evaluations
// (fastmath_simd.go) are not exact.
func seriesGroup(r *[Lanes]uint32, i int, x0, x1 f8, lo, hi float32, sixteen func(f8, f8) (f8, f8), out func(f8) f8) {
	vlo, vhi := archsimd.BroadcastFloat32x8(lo), archsimd.BroadcastFloat32x8(hi)
	in0, in1 := x0.GreaterEqual(vlo).And(x0.Less(vhi)), x1.GreaterEqual(vlo).And(x1.Less(vhi))
	if in0.And(in1).ToBits() == 0xFF {
		r0, r1 := sixteen(x0, x1)
		stf(r, i, r0)
		stf(r, i+8, r1)
		return
	}
	// The series is given 1 for the lanes outside (its result is
	// replaced).
	v1 := archsimd.BroadcastFloat32x8(1)
	r0, r1 := sixteen(x0.Merge(v1, in0), x1.Merge(v1, in1))
	stf(r, i, r0.Merge(out(x0), in0))
	stf(r, i+8, r1.Merge(out(x1), in1))
}

// exp2Out is exp2f of lanes outside [exp2Lo, exp2Hi): a canonical NaN for
// NaNs, +Inf from 128 up, 0 below -151.
func exp2Out(x f8) f8 {
	inf, zero := archsimd.BroadcastFloat32x8(float32(math.Inf(1))), archsimd.BroadcastFloat32x8(0)
	r := inf.Merge(zero, x.GreaterEqual(archsimd.BroadcastFloat32x8(exp2Hi)))
	return archsimd.BroadcastFloat32x8(nanF).Merge(r, x.IsNaN())
}

// log2Out is log2f of lanes outside [log2Lo, log2Hi): -Inf for zeros of
// both signs, +Inf for +Inf, a canonical NaN for the rest (NaNs and
// negatives).
func log2Out(x f8) f8 {
	inf, zero := archsimd.BroadcastFloat32x8(float32(math.Inf(1))), archsimd.BroadcastFloat32x8(0)
	r := zero.Sub(inf).Merge(archsimd.BroadcastFloat32x8(nanF), x.Equal(zero))
	return inf.Merge(r, x.Equal(inf))
}

// exp2x16 is exp2f of sixteen lanes in [exp2Lo, exp2Hi) (exp2Reduce, the
// series, exp2Finish), four float64 chains side by side.
func exp2x16(x, y f8) (f8, f8) {
	half, ln2v := archsimd.BroadcastFloat64x4(0.5), archsimd.BroadcastFloat64x4(ln2)
	xa, xb := x.GetLo().ConvertToFloat64(), x.GetHi().ConvertToFloat64()
	ya, yb := y.GetLo().ConvertToFloat64(), y.GetHi().ConvertToFloat64()
	nxa, nxb := xa.Add(half).Floor(), xb.Add(half).Floor()
	nya, nyb := ya.Add(half).Floor(), yb.Add(half).Floor()
	txa, txb := xa.Sub(nxa).Mul(ln2v), xb.Sub(nxb).Mul(ln2v)
	tya, tyb := ya.Sub(nya).Mul(ln2v), yb.Sub(nyb).Mul(ln2v)
	c := archsimd.BroadcastFloat64x4(1.0 / 6227020800)
	pxa, pxb, pya, pyb := c, c, c, c
	for k := 12; k >= 1; k-- {
		f := archsimd.BroadcastFloat64x4(invFact[k-1])
		pxa, pxb = pxa.Mul(txa).Add(f), pxb.Mul(txb).Add(f)
		pya, pyb = pya.Mul(tya).Add(f), pyb.Mul(tyb).Add(f)
	}
	one := archsimd.BroadcastFloat64x4(1)
	pxa, pxb = pxa.Mul(txa).Add(one), pxb.Mul(txb).Add(one)
	pya, pyb = pya.Mul(tya).Add(one), pyb.Mul(tyb).Add(one)
	x = x.SetLo(pxa.Mul(pow2x4(nxa)).ConvertToFloat32()).SetHi(pxb.Mul(pow2x4(nxb)).ConvertToFloat32())
	y = y.SetLo(pya.Mul(pow2x4(nya)).ConvertToFloat32()).SetHi(pyb.Mul(pow2x4(nyb)).ConvertToFloat32())
	return x, y
}

// pow2x4 is 2**n for integers n in [-1022, 1023]: n + 2**52 + 1023 holds
// n + 1023 in its low bits, which go to the exponent.
func pow2x4(n d4) d4 {
	const magic = 1<<52 + 1023
	return n.Add(archsimd.BroadcastFloat64x4(magic)).AsUint64x4().ShiftAllLeft(52).AsFloat64x4()
}

// log2x16 is log2f of sixteen lanes in [log2Lo, log2Hi) (log2Reduce, the
// series, log2Finish), four float64 chains side by side.
func log2x16(x, y f8) (f8, f8) {
	sxa, exa := log2Reduce4(x.GetLo().ConvertToFloat64())
	sxb, exb := log2Reduce4(x.GetHi().ConvertToFloat64())
	sya, eya := log2Reduce4(y.GetLo().ConvertToFloat64())
	syb, eyb := log2Reduce4(y.GetHi().ConvertToFloat64())
	zxa, zxb, zya, zyb := sxa.Mul(sxa), sxb.Mul(sxb), sya.Mul(sya), syb.Mul(syb)
	c := archsimd.BroadcastFloat64x4(1.0 / 25)
	pxa, pxb, pya, pyb := c, c, c, c
	for k := 11; k >= 0; k-- {
		f := archsimd.BroadcastFloat64x4(invOdd[k])
		pxa, pxb = pxa.Mul(zxa).Add(f), pxb.Mul(zxb).Add(f)
		pya, pyb = pya.Mul(zya).Add(f), pyb.Mul(zyb).Add(f)
	}
	two, l2e := archsimd.BroadcastFloat64x4(2), archsimd.BroadcastFloat64x4(log2e)
	fin := func(s, p, e d4) archsimd.Float32x4 { return e.Add(two.Mul(s.Mul(p)).Mul(l2e)).ConvertToFloat32() }
	x = x.SetLo(fin(sxa, pxa, exa)).SetHi(fin(sxb, pxb, exb))
	y = y.SetLo(fin(sya, pya, eya)).SetHi(fin(syb, pyb, eyb))
	return x, y
}

// log2Reduce4 is log2Reduce of four lanes: s, and e as a float64.
func log2Reduce4(x d4) (s, e d4) {
	b := x.AsUint64x4()
	const expMask = 0x7FF << 52
	k := b.ShiftAllRight(52).And(archsimd.BroadcastUint64x4(0x7FF))
	// float64(k): k is below 2**11, the low bits of 2**52 + k.
	kf := k.Or(archsimd.BroadcastUint64x4(0x4330000000000000)).AsFloat64x4().Sub(archsimd.BroadcastFloat64x4(1 << 52))
	e = kf.Sub(archsimd.BroadcastFloat64x4(1023))
	m := b.AndNot(archsimd.BroadcastUint64x4(expMask)).Or(archsimd.BroadcastUint64x4(1023 << 52)).AsFloat64x4()
	big := m.Greater(archsimd.BroadcastFloat64x4(math.Sqrt2))
	m = m.Mul(archsimd.BroadcastFloat64x4(0.5)).Merge(m, big)
	e = e.Add(archsimd.BroadcastFloat64x4(1)).Merge(e, big)
	one := archsimd.BroadcastFloat64x4(1)
	return m.Sub(one).Div(m.Add(one)), e
}
