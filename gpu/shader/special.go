package shader

import (
	"math"

	. "d3dsim/gpu/shaderisa"
)

// Kernels specialised when a program is prepared (NewMachine): add, mul
// and mad whose operand is an immediate or a cb element — the same value
// in every lane — read it once into a register instead of loading it from
// a 64-lane array each lane. A program's constants are mostly such operands
// (the bench's Phong: 5 of its 7 mul/mad/add; the loop's iterated map
// `mad r4.xy, r1.xyxx, l(1.9), l(0.13)`, two of its five float
// components a round).
//
// The results are the general kernels' bits: the same float32 operations
// in the same order, the product rounded before the sum (no fused
// multiply-add), NaNs canonical. Where the constant comes first (mul K, x;
// mad K, x, c), the product is taken as x*K: IEEE multiplication and
// addition are commutative for every operand that is not a NaN, and a NaN
// result is made canonical, so the bits are the same
// (TestSpecialKernels). Only the scalar kernels are specialised: under
// GOEXPERIMENT=simd the vector kernels already load eight lanes a pass.

// constSrc reports whether operand s holds one value in every lane for
// the whole draw: an immediate, or a cb element not indexed by a register
// (Bind broadcasts it). A modifier keeps it so (fetch applies it to every
// lane alike).
func constSrc(s *Operand) bool {
	return !s.Rel && (s.File == FileImm || s.File == FileCB)
}

// specialKernel returns the specialised kernel of in, or nil.
func specialKernel(in *Inst) kernel {
	if vecOK || len(in.Src) < 2 {
		return nil
	}
	k0, k1 := constSrc(&in.Src[0]), constSrc(&in.Src[1])
	switch in.Op {
	case OpAdd, OpMul:
		f := kAddXK
		if in.Op == OpMul {
			f = kMulXK
		}
		switch {
		case k0 && k1:
			return nil // (an op of constants: rare, and the general kernel serves)
		case k1:
			return f
		case k0:
			return func(r, a, b, _ *[Lanes]uint32) { f(r, b, a, nil) }
		}
	case OpMad:
		k2 := constSrc(&in.Src[2])
		switch {
		case k0 && k1:
			return nil
		case k1 && k2:
			return kMadXKK
		case k0 && k2:
			return func(r, a, b, c *[Lanes]uint32) { kMadXKK(r, b, a, c) }
		case k1:
			return kMadXKX
		case k0:
			return func(r, a, b, c *[Lanes]uint32) { kMadXKX(r, b, a, c) }
		case k2:
			return kMadXXK
		}
	}
	return nil
}

// kMadXXKSat and kMadNXXKSat are kMadXXK saturated, the first source
// negated in the second (Phong's `mad_sat r0.x, -r1.x, r2.z, -l(...)`):
// the sign flipped as the lanes are read and the saturate applied as they
// are stored, instead of a pass of fetch and one of saturate (satFold).
// Saturate gives 0 for NaNs: no canonical test.
func kMadXXKSat(r, a, b, c *[Lanes]uint32) { madXXKSat(r, a, b, c, 0) }

func kMadNXXKSat(r, a, b, c *[Lanes]uint32) { madXXKSat(r, a, b, c, 1<<31) }

func madXXKSat(r, a, b, c *[Lanes]uint32, flip uint32) {
	rf, bf, kc := f32(r), f32(b), f32(c)[0]
	for i := range rf {
		rf[i] = sat1(float32(math.Float32frombits(a[i]^flip)*bf[i]) + kc)
	}
}

// sat1 is saturate of one lane: 0 unless v > 0 (NaN, -0 and negatives), 1
// where v > 1.
func sat1(v float32) float32 {
	switch {
	case !(v > 0):
		return 0
	case v > 1:
		return 1
	}
	return v
}

// satFold gives the default build's mad_sat with a constant third source
// and the first at most negated kMadXXKSat or kMadNXXKSat, its saturate
// and modifier cleared: the instruction is then plain (the vector build:
// vecFold).
func satFold(x *xinst, in *Inst) {
	if vecOK || in.Op != OpMad || !x.sat || len(in.Src) != 3 {
		return
	}
	s0 := &x.src[0]
	if constSrc(&in.Src[0]) || constSrc(&in.Src[1]) || !constSrc(&in.Src[2]) ||
		s0.rel || s0.abs || x.src[1].mod || x.src[1].rel || x.src[2].mod || x.src[2].rel {
		return
	}
	x.kernel = kMadXXKSat
	if s0.neg {
		x.kernel = kMadNXXKSat
	}
	s0.mod, s0.neg, x.sat, x.folded = false, false, false, true
}

// kAddXK is kAdd with b the same in every lane.
func kAddXK(r, a, b, _ *[Lanes]uint32) {
	rf, af, k := f32(r), f32(a), f32(b)[0]
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i]+k, af[i+1]+k, af[i+2]+k, af[i+3]+k
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// kMulXK is kMul with b the same in every lane.
func kMulXK(r, a, b, _ *[Lanes]uint32) {
	rf, af, k := f32(r), f32(a), f32(b)[0]
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i]*k, af[i+1]*k, af[i+2]*k, af[i+3]*k
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// kMadXKK is kMad with b and c the same in every lane.
func kMadXKK(r, a, b, c *[Lanes]uint32) {
	rf, af, kb, kc := f32(r), f32(a), f32(b)[0], f32(c)[0]
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*kb) + kc
		x1 := float32(af[i+1]*kb) + kc
		x2 := float32(af[i+2]*kb) + kc
		x3 := float32(af[i+3]*kb) + kc
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// kMadXKX is kMad with b the same in every lane.
func kMadXKX(r, a, b, c *[Lanes]uint32) {
	rf, af, kb, cf := f32(r), f32(a), f32(b)[0], f32(c)
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*kb) + cf[i]
		x1 := float32(af[i+1]*kb) + cf[i+1]
		x2 := float32(af[i+2]*kb) + cf[i+2]
		x3 := float32(af[i+3]*kb) + cf[i+3]
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// kMadXXK is kMad with c the same in every lane.
func kMadXXK(r, a, b, c *[Lanes]uint32) {
	rf, af, bf, kc := f32(r), f32(a), f32(b), f32(c)[0]
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*bf[i]) + kc
		x1 := float32(af[i+1]*bf[i+1]) + kc
		x2 := float32(af[i+2]*bf[i+2]) + kc
		x3 := float32(af[i+3]*bf[i+3]) + kc
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		rf[i], rf[i+1], rf[i+2], rf[i+3] = x0, x1, x2, x3
	}
}

// konstSrcs returns the first two sources of a dp2, dp3 or dp4 that hold
// one value in every lane, a bit each (0 in a GOEXPERIMENT=simd build:
// dotVec serves).
func konstSrcs(in *Inst) uint8 {
	if vecOK || in.Op != OpDp2 && in.Op != OpDp3 && in.Op != OpDp4 {
		return 0
	}
	var k uint8
	for i := range 2 {
		if constSrc(&in.Src[i]) {
			k |= 1 << i
		}
	}
	return k
}

// dotSumK is dotSum with b the same in every lane: products rounded and
// summed left to right as dotSum does (a product's operands commute), NaNs
// canonical.
func dotSumK(n int, res *[Lanes]uint32, a, b *[4]*[Lanes]uint32, sat bool) (saturated bool) {
	r := f32(res)
	a0, a1 := f32(a[0]), f32(a[1])
	k0, k1 := f32(b[0])[0], f32(b[1])[0]
	switch n {
	case 2:
		for i := range r {
			r[i] = float32(a0[i]*k0) + float32(a1[i]*k1)
		}
	case 3:
		a2, k2 := f32(a[2]), f32(b[2])[0]
		dp3 := func(i int) float32 {
			s := float32(a0[i]*k0) + float32(a1[i]*k1)
			return s + float32(a2[i]*k2)
		}
		if sat { // dp3_sat: saturated as stored (no NaN left)
			for i := range r {
				r[i] = sat1(dp3(i))
			}
			return true
		}
		for i := 0; i < Lanes; i += 4 { // NaNs canonical as stored, as dotSum's
			r[i], r[i+1], r[i+2], r[i+3] = nan4(dp3(i), dp3(i+1), dp3(i+2), dp3(i+3))
		}
		return false
	default:
		a2, a3, k2, k3 := f32(a[2]), f32(a[3]), f32(b[2])[0], f32(b[3])[0]
		for i := range r {
			s := float32(a0[i]*k0) + float32(a1[i]*k1)
			s = float32(s + float32(a2[i]*k2))
			r[i] = s + float32(a3[i]*k3)
		}
	}
	canon(res)
	return false
}
