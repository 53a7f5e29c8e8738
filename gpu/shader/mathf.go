package shader

import "math"

// The transcendental ops, computed by this package's own routines so that
// they give the same bits on every machine: math.Exp and math.Log are
// assembly on amd64 and Go elsewhere, and Go may fuse a*b+c into one
// rounding on some architectures (arm64). Each routine works in float64,
// rounds every product explicitly (float64(a*b) + c: the conversion forbids
// fusion), and rounds to float32 once at the end. The float64 functions used
// (Floor, Mod, Sqrt) are exact, so their implementation does not matter.

const (
	ln2    = 0.6931471805599453094172321214581766
	log2e  = 1.4426950408889634073599246810018921
	twoPi  = 6.283185307179586476925286766559
	pio2hi = 1.5707963267341256e+00 // π/2 in 33 bits: q*pio2hi is exact
	pio2lo = 6.077100506506192e-11  // π/2 - pio2hi
)

// pow2 returns 2**n for -1074 <= n <= 1023, exactly.
func pow2(n int) float64 {
	if n < -1022 {
		return math.Float64frombits(1 << (n + 1074)) // a denormal
	}
	return math.Float64frombits(uint64(n+1023) << 52)
}

// exp2f is 2**x.
func exp2f(x float32) float32 {
	switch {
	case x != x:
		return x
	case x >= 128:
		return float32(math.Inf(1))
	case x < -151:
		return 0
	}
	t, n := exp2Reduce(x)
	// e**t by its Taylor series to t**13/13!, below 1e-17 for |t| <= 0.35.
	p := 1.0 / 6227020800
	for k := 12; k >= 1; k-- {
		p = float64(p*t) + invFact[k-1]
	}
	return exp2Finish(p, t, n)
}

// exp2f takes its series for x in [exp2Lo, exp2Hi): what exp2f4 computes
// four lanes at a time.
const exp2Lo, exp2Hi = -151, 128

// exp2Reduce splits x as n + t/ln2, n the nearest integer.
func exp2Reduce(x float32) (t, n float64) {
	xd := float64(x)
	n = math.Floor(xd + 0.5)
	return float64((xd - n) * ln2), n // |t| <= ln2/2
}

// exp2Finish is e**t * 2**n from the series' sum p less its last term.
func exp2Finish(p, t, n float64) float32 {
	p = float64(p*t) + 1
	return float32(float64(p * pow2(int(n))))
}

// exp2f4 is exp2f of four lanes in [exp2Lo, exp2Hi), the same operations
// lane by lane, their four series evaluated side by side: each is a chain
// of 13 dependent products and sums, and one at a time the processor
// waits on every link.
func exp2f4(r, x []float32) {
	t0, n0 := exp2Reduce(x[0])
	t1, n1 := exp2Reduce(x[1])
	t2, n2 := exp2Reduce(x[2])
	t3, n3 := exp2Reduce(x[3])
	const c = 1.0 / 6227020800
	p0, p1, p2, p3 := c, c, c, c
	for k := 12; k >= 1; k-- {
		f := invFact[k-1]
		p0, p1, p2, p3 = float64(p0*t0)+f, float64(p1*t1)+f, float64(p2*t2)+f, float64(p3*t3)+f
	}
	r[0], r[1], r[2], r[3] = exp2Finish(p0, t0, n0), exp2Finish(p1, t1, n1), exp2Finish(p2, t2, n2), exp2Finish(p3, t3, n3)
}

// invFact[k-1] is 1/k!.
var invFact = func() [17]float64 {
	var f [17]float64
	v := 1.0
	for k := 1; k <= 17; k++ {
		v *= float64(k)
		f[k-1] = 1 / v
	}
	return f
}()

// invOdd[k] is 1/(2k+1), the atanh series' coefficients: the same
// correctly rounded quotients log2f divided out for every term (a
// division a term was most of its time).
var invOdd = func() [12]float64 {
	var f [12]float64
	for k := range f {
		f[k] = 1 / float64(2*k+1)
	}
	return f
}()

// log2f is the base-2 logarithm.
func log2f(x float32) float32 {
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	case math.IsInf(float64(x), 1):
		return x
	}
	s, e := log2Reduce(x)
	// ln m = 2 atanh s = 2 (s + s**3/3 + s**5/5 + ...), |s| <= 0.172.
	z := float64(s * s)
	p := 1.0 / 25
	for k := 11; k >= 0; k-- {
		p = float64(p*z) + invOdd[k]
	}
	return log2Finish(s, p, e)
}

// log2f takes its series for x positive and finite, [log2Lo, log2Hi):
// what log2f4 computes four lanes at a time.
var log2Lo, log2Hi = float32(math.SmallestNonzeroFloat32), float32(math.Inf(1))

// log2Reduce splits x as 2**e * m, m in (sqrt 2 / 2, sqrt 2], and returns
// e and s = (m-1)/(m+1).
func log2Reduce(x float32) (s float64, e int) {
	b := math.Float64bits(float64(x)) // a float32 denormal is normal here
	e = int(b>>52&0x7FF) - 1023
	m := math.Float64frombits(b&^(0x7FF<<52) | 1023<<52) // [1, 2)
	if m > math.Sqrt2 {
		m /= 2
		e++
	}
	return (m - 1) / (m + 1), e
}

// log2Finish is e + log2 m from s and the series' sum p.
func log2Finish(s, p float64, e int) float32 {
	ln := float64(2 * float64(s*p))
	return float32(float64(e) + float64(ln*log2e))
}

// log2f4 is log2f of four lanes in [log2Lo, log2Hi), their series side by
// side (exp2f4 says why).
func log2f4(r, x []float32) {
	s0, e0 := log2Reduce(x[0])
	s1, e1 := log2Reduce(x[1])
	s2, e2 := log2Reduce(x[2])
	s3, e3 := log2Reduce(x[3])
	z0, z1, z2, z3 := float64(s0*s0), float64(s1*s1), float64(s2*s2), float64(s3*s3)
	const c = 1.0 / 25
	p0, p1, p2, p3 := c, c, c, c
	for k := 11; k >= 0; k-- {
		f := invOdd[k]
		p0, p1, p2, p3 = float64(p0*z0)+f, float64(p1*z1)+f, float64(p2*z2)+f, float64(p3*z3)+f
	}
	r[0], r[1], r[2], r[3] = log2Finish(s0, p0, e0), log2Finish(s1, p1, e1), log2Finish(s2, p2, e2), log2Finish(s3, p3, e3)
}

// sincos returns sin x and cos x. Arguments are reduced modulo 2π in
// float64 (exact), so large arguments are as imprecise as on real GPUs, but
// deterministic.
func sincos(x float32) (float32, float32) {
	if x != x || math.IsInf(float64(x), 0) {
		nan := float32(math.NaN())
		return nan, nan
	}
	xd := float64(x)
	neg := xd < 0
	if neg {
		xd = -xd
	}
	if xd >= twoPi {
		xd = math.Mod(xd, twoPi)
	}
	q := math.Floor(float64(xd*(2/math.Pi)) + 0.5) // 0..4
	r := xd - float64(q*pio2hi)
	r -= float64(q * pio2lo) // |r| <= π/4 (a little more)
	z := float64(r * r)
	// Taylor series to r**17 and r**16: below 1e-16 for |r| <= 0.8.
	sp, cp := 1.0/355687428096000, 1.0/20922789888000
	for k := 7; k >= 1; k-- {
		sign := 1.0
		if k%2 == 1 {
			sign = -1
		}
		sp = float64(sp*z) + sign*invFact[2*k]   // 1/(2k+1)!
		cp = float64(cp*z) + sign*invFact[2*k-1] // 1/(2k)!
	}
	s := float64(r * float64(float64(sp*z)+1))
	c := float64(cp*z) + 1
	switch int(q) & 3 {
	case 1:
		s, c = c, -s
	case 2:
		s, c = -s, -c
	case 3:
		s, c = -c, s
	}
	if neg {
		s = -s
	}
	return float32(s), float32(c)
}
