package texel

import "math"

// Small floats: IEEE half precision (FLOAT16, with sign), the 11- and
// 10-bit unsigned floats of R11G11B10_FLOAT (5 exponent bits, 6 or 5
// mantissa bits, no sign), and the shared-exponent R9G9B9E5. Reading is
// exact; writing rounds towards zero ("Data Conversion Rules": round to
// zero when converting to another float format).

// HalfToFloat reads an IEEE half (exactly).
func HalfToFloat(h uint16) float32 {
	return smallToFloat(uint32(h&0x7FFF), 10, h>>15 != 0)
}

// FloatToHalf writes f as an IEEE half, rounding towards zero: a finite
// value beyond the largest half becomes the largest half (65504), an
// infinity stays one, NaN stays NaN, denormal halves are kept.
func FloatToHalf(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	return sign | uint16(floatToSmall(b&0x7FFFFFFF, 10))
}

// Float11ToFloat and Float10ToFloat read R11G11B10_FLOAT's channels.
func Float11ToFloat(v uint32) float32 { return smallToFloat(v&0x7FF, 6, false) }
func Float10ToFloat(v uint32) float32 { return smallToFloat(v&0x3FF, 5, false) }

// FloatToFloat11 and FloatToFloat10 write them: negative values (and -0)
// become 0, the rest as FloatToHalf does.
func FloatToFloat11(f float32) uint32 { return floatToUnsignedSmall(f, 6) }
func FloatToFloat10(f float32) uint32 { return floatToUnsignedSmall(f, 5) }

func floatToUnsignedSmall(f float32, mant uint) uint32 {
	b := math.Float32bits(f)
	if b&0x7FFFFFFF > 0x7F800000 { // NaN
		return floatToSmall(b&0x7FFFFFFF, mant)
	}
	if b>>31 != 0 {
		return 0
	}
	return floatToSmall(b, mant)
}

// smallToFloat reads a float of 5 exponent bits (bias 15) and mant
// mantissa bits, without its sign bit in v.
func smallToFloat(v uint32, mant uint, neg bool) float32 {
	e := v >> mant
	m := v & (1<<mant - 1)
	var f float32
	switch {
	case e == 31 && m == 0:
		f = float32(math.Inf(1))
	case e == 31:
		// NaN: keep the payload's top bits in the float's mantissa.
		return math.Float32frombits(b2u(neg)<<31 | 0x7FC00000 | m<<(23-mant))
	case e == 0:
		f = float32(m) * float32(math.Ldexp(1, -14-int(mant))) // denormal: exact
	default:
		f = math.Float32frombits((e-15+127)<<23 | m<<(23-mant))
	}
	if neg {
		f = -f
	}
	return f
}

// floatToSmall writes the non-negative float bits b as 5 exponent bits and
// mant mantissa bits, rounding towards zero.
func floatToSmall(b uint32, mant uint) uint32 {
	maxFinite := uint32(30)<<mant | (1<<mant - 1)
	switch {
	case b > 0x7F800000: // NaN
		m := b >> (23 - mant) & (1<<mant - 1)
		if m == 0 {
			m = 1 << (mant - 1)
		}
		return 31<<mant | m
	case b == 0x7F800000:
		return 31 << mant
	}
	e := int(b>>23) - 127 + 15
	m := b & 0x7FFFFF
	switch {
	case e >= 31:
		return maxFinite
	case e <= 0:
		// denormal (or zero): the mantissa with its implicit one, shifted.
		if e < -int(mant) {
			return 0
		}
		full := m | 0x800000
		return full >> uint(int(23-mant)+1-e)
	}
	return uint32(e)<<mant | m>>(23-mant)
}

// RGB9E5ToFloat reads R9G9B9E5_SHAREDEXP: three 9-bit mantissas (no
// implicit one) scaled by 2^(e-15-9).
func RGB9E5ToFloat(v uint32) [3]float32 {
	scale := math.Ldexp(1, int(v>>27)-15-9)
	return [3]float32{
		float32(float64(v&0x1FF) * scale),
		float32(float64(v>>9&0x1FF) * scale),
		float32(float64(v>>18&0x1FF) * scale),
	}
}

// FloatToRGB9E5 writes three non-negative floats with a shared exponent
// (chosen from the largest channel, as EXT_texture_shared_exponent does),
// mantissas rounded to nearest; negative values and NaN become 0, values
// past the largest representable become it.
func FloatToRGB9E5(c [3]float32) uint32 {
	const maxV = float64(0x1FF) / 512 * 65536 // (2^9-1)/2^9 * 2^16
	var v [3]float64
	m := 0.0
	for i, f := range c {
		x := float64(f)
		if !(x > 0) {
			x = 0
		}
		x = min(x, maxV)
		v[i] = x
		m = max(m, x)
	}
	if m == 0 {
		return 0
	}
	_, e := math.Frexp(m) // m = f * 2^e, f in [0.5, 1): floor(log2 m) = e-1
	exp := max(-16, e-1) + 16
	scale := math.Ldexp(1, 24-exp)
	if math.Floor(m*scale+0.5) >= 512 {
		exp++
		scale /= 2
	}
	out := uint32(exp) << 27
	for i, x := range v {
		out |= min(uint32(math.Floor(x*scale+0.5)), 0x1FF) << (9 * i)
	}
	return out
}

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
