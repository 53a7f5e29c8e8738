package shader

import "math"

// A reciprocal square root without the divider, with kRsq's bits (issue
// 32; the default build), as exp2q is exp2f's (fastexp.go): 1/math.Sqrt(x)
// in float64 is a square root and a division, each a pass of the
// processor's divider, several cycles a lane. rsqq starts from a table of
// 1/sqrt by the exponent's parity and the top seven bits of the mantissa
// (2**-9 relatively), takes three Newton steps y (3/2 - x/2 y**2), products
// and sums only, to a few float64 units, and its result is taken when it
// lies 2**-40 relatively or more from the middle of two float32s,
// 1/math.Sqrt's otherwise (1/sqrt of a positive finite float32 is a normal
// float32). Every positive finite float32 was compared once (2026-11-29:
// none differs); TestQuickTranscendentals compares every 13th through kRsq.

// rsqTab[p<<7|q] is 1/sqrt of the middle of the mantissas whose top seven
// bits are q, times 2 when the biased exponent's parity p is 0 (an odd
// power of two): correctly rounded operations, the same bits everywhere.
var rsqTab = func() (t [256]float64) {
	for j := range t {
		m := 1 + (float64(j&127)+0.5)/128
		if j>>7 == 0 {
			m *= 2
		}
		t[j] = 1 / math.Sqrt(m)
	}
	return t
}()

// rsqqReduce returns x/2 and the table's estimate of 1/sqrt x, its
// exponent less k for x = 4**k m, m in [1, 4), x positive and finite.
func rsqqReduce(x float32) (h, y float64) {
	xd := float64(x)
	b := math.Float64bits(xd)
	k := (int64(b>>52) - 1023) >> 1
	return xd * 0.5, math.Float64frombits(uint64(int64(math.Float64bits(rsqTab[b>>45&255])) - k<<52))
}

// rsqqStep is a Newton step for 1/sqrt x.
func rsqqStep(h, y float64) float64 {
	return float64(y * float64(1.5-float64(h*float64(y*y))))
}

// rsqRef is 1/sqrt x as kRsq took it before, for one lane.
func rsqRef(x float32) float32 { return cn(float32(1 / math.Sqrt(float64(x)))) }

// kRsq is 1/sqrt of a block's lanes, four at a time by rsqq when all four
// are positive and finite and far from the middle of two float32s, else
// 1/math.Sqrt's; a group with lanes of both kinds takes rsqq for those in
// range, 1 given for the others, whose results 1/math.Sqrt then gives.
func kRsq(r, a, _, _ *[Lanes]uint32) {
	rf, af := f32(r), f32(a)
	in := func(x float32) bool { return x >= log2Lo && x < log2Hi } // positive and finite
	for i := 0; i < Lanes; i += 4 {
		x0, x1, x2, x3 := af[i], af[i+1], af[i+2], af[i+3]
		y0, y1, y2, y3 := x0, x1, x2, x3
		all := in(x0) && in(x1) && in(x2) && in(x3)
		if !all {
			if !(in(x0) || in(x1) || in(x2) || in(x3)) {
				rf[i], rf[i+1], rf[i+2], rf[i+3] = rsqRef(x0), rsqRef(x1), rsqRef(x2), rsqRef(x3)
				continue
			}
			y0, y1, y2, y3 = inOr1(x0), inOr1(x1), inOr1(x2), inOr1(x3)
		}
		h0, v0 := rsqqReduce(y0)
		h1, v1 := rsqqReduce(y1)
		h2, v2 := rsqqReduce(y2)
		h3, v3 := rsqqReduce(y3)
		for range 3 {
			v0, v1, v2, v3 = rsqqStep(h0, v0), rsqqStep(h1, v1), rsqqStep(h2, v2), rsqqStep(h3, v3)
		}
		if farMid(v0) && farMid(v1) && farMid(v2) && farMid(v3) {
			rf[i], rf[i+1], rf[i+2], rf[i+3] = float32(v0), float32(v1), float32(v2), float32(v3)
		} else {
			rf[i], rf[i+1], rf[i+2], rf[i+3] = rsqRef(y0), rsqRef(y1), rsqRef(y2), rsqRef(y3)
		}
		if !all {
			for j, x := range [4]float32{x0, x1, x2, x3} {
				if !in(x) {
					rf[i+j] = rsqRef(x)
				}
			}
		}
	}
}
