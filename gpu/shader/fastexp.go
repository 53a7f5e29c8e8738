package shader

import (
	"math"
	"math/big"
)

// A shorter exp2 with exp2f's bits (issue 32; the default build's kExp2).
// exp2f's Taylor series of e**t over |t| <= ln2/2 is a chain of 13
// dependent products and sums a lane. exp2q reduces further, by a table of
// 2**(j/256): x = k/256 + r, |r| <= 1/512, 2**x = 2**(k>>8) *
// 2**((k&255)/256) * 2**r, and 2**r by the Taylor series of e**(r ln2) to
// degree 3 (below 1e-13 relatively): three links. exp2f's result is within
// about 1e-15 of 2**x, so the two round to the same float32 unless they
// lie near the middle of two float32s: exp2q's result is taken only when
// it is 2**-40 relatively or more from that middle (farMid), and exp2f
// computes the lane otherwise (about one lane in 270,000). Every float32 of
// the range was compared once (2026-11-29: none differs);
// TestQuickTranscendentals compares every 13th through kExp2.

// exp2Tab[j] is 2**(j/256) rounded to float64, computed with math/big
// (2**(1/256) by eight square roots, the powers correctly rounded at the
// end): the same bits on every machine.
var exp2Tab = func() (t [256]uint64) {
	const prec = 200
	b := new(big.Float).SetPrec(prec).SetInt64(2)
	for range 8 {
		b.Sqrt(b)
	}
	p := new(big.Float).SetPrec(prec).SetInt64(1)
	for j := range t {
		f, _ := p.Float64()
		t[j] = math.Float64bits(f)
		p.Mul(p, b)
	}
	return t
}()

// The series' coefficients: ln2**i / i!, so that r need not be multiplied
// by ln2 first.
const exp2C1, exp2C2, exp2C3 = ln2, ln2 * ln2 / 2, ln2 * ln2 * ln2 / 6

// exp2QLo and exp2QHi bound what exp2q computes: results that are normal
// float32s (or overflow to +Inf); exp2f takes the rest.
const exp2QLo, exp2QHi = -126, 128

// exp2q is 2**x for x in [exp2QLo, exp2QHi) in float64, and whether its
// rounding to float32 is exp2f's (false: near the middle of two float32s).
func exp2q(x float32) (float64, bool) {
	k, r := exp2qReduce(x)
	p := float64(r*exp2C3) + exp2C2
	p = float64(p*r) + exp2C1
	return exp2qFinish(k, r, p)
}

// exp2qReduce splits x as k/256 + r, k the nearest integer to x*256
// (|r| <= 1/512).
func exp2qReduce(x float32) (k uint64, r float64) {
	const shift = 0x1.8p52 // k in the low bits of x*256 + shift
	kd := float64(float64(x)*256) + shift
	return math.Float64bits(kd), float64(x) - float64(kd-shift)*(1.0/256) // exact: x's bits
}

// exp2qFinish is 2**(k>>8) * exp2Tab[k&255] * (1 + r p), and whether it
// is far from the middle of two float32s: 2**-40 relatively or more, where
// the series' error is below 1e-13 (r**4 ln2**4 / 4!) and exp2f's below
// 1e-15. The exponent is added to the table's bits (k's low 52 bits are
// k + 2**51, a multiple of 2**8 more: their shift by 44 adds k>>8 to the
// exponent field, the rest falling off the top).
func exp2qFinish(k uint64, r, p float64) (float64, bool) {
	p = float64(p * r)
	s := math.Float64frombits(exp2Tab[k&255] + (k>>8)<<52)
	v := float64(s*p) + s
	return v, farMid(v)
}

// kExp2 is exp2 of a block's lanes: four at a time by exp2q, their
// series side by side, when all four are in [exp2QLo, exp2QHi) and far
// from the middle of two float32s; else exp2f's (exp2f4 for four in its
// range, one by one for the rest: NaNs, overflow, underflow). A group of
// four with lanes on both sides of the range (Phong's pow: exp2 of -Inf
// beside its highlight) takes exp2q for the lanes inside, 0 given for the
// others, whose results exp2f then gives.
func kExp2(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	in := func(x float32) bool { return x >= exp2QLo && x < exp2QHi }
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i], af[i+1], af[i+2], af[i+3]
		y0, y1, y2, y3 := x0, x1, x2, x3
		all := true
		if !(in(x0) && in(x1) && in(x2) && in(x3)) {
			all = false
			if !(in(x0) || in(x1) || in(x2) || in(x3)) {
				rf[i], rf[i+1], rf[i+2], rf[i+3] = cn(exp2f(x0)), cn(exp2f(x1)), cn(exp2f(x2)), cn(exp2f(x3))
				continue
			}
			y0, y1, y2, y3 = inOr0(x0), inOr0(x1), inOr0(x2), inOr0(x3)
		}
		k0, t0 := exp2qReduce(y0)
		k1, t1 := exp2qReduce(y1)
		k2, t2 := exp2qReduce(y2)
		k3, t3 := exp2qReduce(y3)
		const c3, c2, c1 = exp2C3, exp2C2, exp2C1
		p0, p1, p2, p3 := float64(t0*c3)+c2, float64(t1*c3)+c2, float64(t2*c3)+c2, float64(t3*c3)+c2
		p0, p1, p2, p3 = float64(p0*t0)+c1, float64(p1*t1)+c1, float64(p2*t2)+c1, float64(p3*t3)+c1
		v0, ok0 := exp2qFinish(k0, t0, p0)
		v1, ok1 := exp2qFinish(k1, t1, p1)
		v2, ok2 := exp2qFinish(k2, t2, p2)
		v3, ok3 := exp2qFinish(k3, t3, p3)
		if ok0 && ok1 && ok2 && ok3 {
			rf[i], rf[i+1], rf[i+2], rf[i+3] = float32(v0), float32(v1), float32(v2), float32(v3)
		} else {
			y := [4]float32{y0, y1, y2, y3}
			exp2f4(rf[i:i+4], y[:])
		}
		if !all {
			for j, x := range [4]float32{x0, x1, x2, x3} {
				if !in(x) {
					rf[i+j] = cn(exp2f(x))
				}
			}
		}
	}
}

// inOr0 is x for x in [exp2QLo, exp2QHi), else 0.
func inOr0(x float32) float32 {
	if x >= exp2QLo && x < exp2QHi {
		return x
	}
	return 0
}

// farMid reports whether v, a float64 that rounds to a normal float32 (or
// overflows), lies 2**-40 relatively or more from the middle of two
// float32s: its 29 bits below the float32's more than 2**12 from 2**28.
func farMid(v float64) bool {
	return math.Float64bits(v)&(1<<29-1)-(1<<28-1<<12) > 1<<13
}
