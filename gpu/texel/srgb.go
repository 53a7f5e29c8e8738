package texel

import "math"

// The sRGB transfer functions of the *_UNORM_SRGB formats ("Gamma
// correction" in the DXGI documentation, and IEC 61966-2-1 which it
// follows): decode c <= 0.04045 ? c/12.92 : ((c+0.055)/1.055)^2.4, encode
// l <= 0.0031308 ? 12.92 l : 1.055 l^(1/2.4) - 0.055. The powers use this
// file's own logarithm and exponential, every product rounded explicitly,
// so the bits are the same on every platform.

// srgbToLinear8[c] is the linear value of the 8-bit sRGB code c.
var srgbToLinear8 = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(SRGBToLinear(float64(i) / 255))
	}
	return t
}()

// SRGBToLinear decodes an sRGB value in [0, 1].
func SRGBToLinear(c float64) float64 {
	if !(c > 0.04045) {
		if !(c > 0) {
			return 0
		}
		return c / 12.92
	}
	return powPos((c+0.055)/1.055, 2.4)
}

// LinearToSRGB encodes a linear value, clamped to [0, 1] (NaN as 0).
func LinearToSRGB(l float64) float64 {
	switch {
	case !(l > 0):
		return 0
	case l >= 1:
		return 1
	case l <= 0.0031308:
		return float64(12.92 * l)
	}
	return float64(1.055*powPos(l, 1/2.4)) - 0.055
}

// encodeSRGB8 is the 8-bit code of linear value v: its sRGB encoding,
// rounded to float32 and quantized as a UNORM channel is.
func encodeSRGB8(v float32) uint32 {
	return quantizeUNorm(float32(LinearToSRGB(float64(v))), 255)
}

const ln2 = 0.6931471805599453094172321214581766

// powPos is x^y for x > 0 (exp(y ln x)).
func powPos(x, y float64) float64 { return expDet(float64(y * logDet(x))) }

// logDet is the natural logarithm of x > 0: x = m 2^k with m in [1/√2, √2),
// ln m = 2 atanh(s), s = (m-1)/(m+1), by its series (|s| < 0.172: to s^27
// the error is below 1e-21).
func logDet(x float64) float64 {
	m, k := math.Frexp(x) // x = m 2^k, m in [0.5, 1)
	if m < math.Sqrt2/2 {
		m *= 2
		k--
	}
	s := (m - 1) / (m + 1)
	s2 := float64(s * s)
	sum := 0.0
	for n := 27; n >= 1; n -= 2 {
		sum = float64(sum*s2) + 1/float64(n)
	}
	return float64(float64(2*s)*sum) + float64(float64(k)*ln2)
}

// expDet is e^x for x of moderate size: x = n ln2 + r, |r| <= ln2/2, e^r
// by its Taylor series to r^17.
func expDet(x float64) float64 {
	if x < -700 {
		return 0
	}
	n := math.Floor(float64(x/ln2) + 0.5)
	r := x - float64(n*ln2)
	p := 1.0
	for k := 17; k >= 1; k-- {
		p = float64(float64(p*r)/float64(k)) + 1
	}
	return math.Ldexp(p, int(n))
}
