package shader

import "math"

// A shorter log2 with log2f's bits (issue 32; the default build's kLog2),
// as exp2q is exp2f's (fastexp.go): log2f reduces x to m in (sqrt 2 / 2,
// sqrt 2], divides for s = (m-1)/(m+1) and sums 13 terms of the atanh
// series. log2q takes m in [1, 2) from x's bits and the table entry of its
// top eight bits: invc, a 1/c rounded to 29 bits, with c the middle of the
// entry's range (1 for the first, 2 for the last), so that z = m*invc - 1
// is exact (24 bits times 29) and |z| <= 2**-8; then log2 x = e + log2 c +
// log2(1 + z), the last by its series to z**5 (below 1.5e-13 relatively),
// log2 c less 1 and e plus 1 for c above sqrt 2 so that no sum cancels
// more than one of its terms' bits but near x = 1, where c is 1 or 2 and
// log2 c is exactly 0 or 1. The result is taken when it lies 2**-40
// relatively or more from the middle of two float32s, log2f's otherwise.
// Every positive finite float32 was compared once (2026-11-29: none
// differs); TestQuickTranscendentals compares every 13th through kLog2.

// log2Split is the first entry whose c is above sqrt 2.
const log2Split = 106

// The series' coefficients: log2(1 + z) = z (c1 + z (c2 + ...)), ck =
// (-1)**(k+1) / (k ln2).
const (
	log2C1 = log2e
	log2C2 = -log2e / 2
	log2C3 = log2e / 3
	log2C4 = -log2e / 4
	log2C5 = log2e / 5
)

// log2qReduce returns z and the entry's sum of e and log2 c.
func log2qReduce(x float32) (z, el float64) {
	b := math.Float64bits(float64(x)) // a float32 denormal is normal here
	j := b >> 44 & 255
	t := &log2Tab[j]
	z = float64(math.Float64frombits(b&(1<<52-1)|1023<<52)*t[0]) - 1
	e := int64(b>>52) - 1023 + int64(j+256-log2Split)>>8
	return z, float64(float64(e) + t[1])
}

// log2qFinish is el + z p from the series' sum p less its first term, and
// whether it is far from the middle of two float32s.
func log2qFinish(z, el, p float64) (float64, bool) {
	v := float64(z*(float64(p*z)+log2C1)) + el
	return v, farMid(v)
}

// log2q is log2 x for x positive and finite, in float64, and whether its
// rounding to float32 is log2f's.
func log2q(x float32) (float64, bool) {
	z, el := log2qReduce(x)
	p := float64(z*log2C5) + log2C4
	p = float64(p*z) + log2C3
	p = float64(p*z) + log2C2
	return log2qFinish(z, el, p)
}

// kLog2 is log2 of a block's lanes, four at a time by log2q when all four
// are positive and finite and far from the middle of two float32s, else
// log2f's (log2f4 for four in its range, one by one for the others). A
// group of four with lanes of both kinds (Phong's pow: log2 of 0 beside its
// highlight) takes log2q for those in range, 1 given for the others, whose
// results log2f then gives.
func kLog2(r, a, _, _ *[Lanes]uint32) { log2Block(r, a, 0) }

// kLog2Abs is log2 |x| (HLSL's pow: `log2 r2.x, |r0.x|`), the source's
// modifier taken by the kernel instead of a pass of fetch (NewMachine).
func kLog2Abs(r, a, _, _ *[Lanes]uint32) { log2Block(r, a, 1<<31) }

// log2Block is kLog2 of the lanes with the bits of clr cleared.
func log2Block(r, a *[Lanes]uint32, clr uint32) {
	rf := f32(r)
	in := func(x float32) bool { return x >= log2Lo && x < log2Hi }
	lane := func(i int) float32 { return math.Float32frombits(a[i] &^ clr) }
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := lane(i), lane(i+1), lane(i+2), lane(i+3)
		y0, y1, y2, y3 := x0, x1, x2, x3
		all := in(x0) && in(x1) && in(x2) && in(x3)
		if !all {
			if !(in(x0) || in(x1) || in(x2) || in(x3)) {
				rf[i], rf[i+1], rf[i+2], rf[i+3] = cn(log2f(x0)), cn(log2f(x1)), cn(log2f(x2)), cn(log2f(x3))
				continue
			}
			y0, y1, y2, y3 = inOr1(x0), inOr1(x1), inOr1(x2), inOr1(x3)
		}
		z0, e0 := log2qReduce(y0)
		z1, e1 := log2qReduce(y1)
		z2, e2 := log2qReduce(y2)
		z3, e3 := log2qReduce(y3)
		const c5, c4, c3, c2 = log2C5, log2C4, log2C3, log2C2
		p0, p1, p2, p3 := float64(z0*c5)+c4, float64(z1*c5)+c4, float64(z2*c5)+c4, float64(z3*c5)+c4
		p0, p1, p2, p3 = float64(p0*z0)+c3, float64(p1*z1)+c3, float64(p2*z2)+c3, float64(p3*z3)+c3
		p0, p1, p2, p3 = float64(p0*z0)+c2, float64(p1*z1)+c2, float64(p2*z2)+c2, float64(p3*z3)+c2
		v0, ok0 := log2qFinish(z0, e0, p0)
		v1, ok1 := log2qFinish(z1, e1, p1)
		v2, ok2 := log2qFinish(z2, e2, p2)
		v3, ok3 := log2qFinish(z3, e3, p3)
		if ok0 && ok1 && ok2 && ok3 {
			rf[i], rf[i+1], rf[i+2], rf[i+3] = float32(v0), float32(v1), float32(v2), float32(v3)
		} else {
			y := [4]float32{y0, y1, y2, y3}
			log2f4(rf[i:i+4], y[:])
		}
		if !all {
			for j, x := range [4]float32{x0, x1, x2, x3} {
				if !in(x) {
					rf[i+j] = cn(log2f(x))
				}
			}
		}
	}
}

// inOr1 is x for x positive and finite, else 1.
func inOr1(x float32) float32 {
	if x >= log2Lo && x < log2Hi {
		return x
	}
	return 1
}
