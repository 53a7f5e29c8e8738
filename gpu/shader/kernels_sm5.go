package shader

import (
	"math"
	"math/bits"

	. "d3dsim/gpu/shaderisa"
)

// The shader model 5 integer, bit and half-precision ops, one component
// at a time over the block, as the Direct3D 11.3 functional specification
// defines them (bfe/bfi: width and offset use their low 5 bits).

func init() {
	for op, k := range map[Op]kernel{
		OpUBfe: kUBfe, OpIBfe: kIBfe, OpBfrev: kBfrev, OpCountbits: kCountbits,
		OpFirstbitHi: kFirstbitHi, OpFirstbitLo: kFirstbitLo, OpFirstbitShi: kFirstbitShi,
		OpUAddc: kUAddc, OpUSubb: kUSubb, OpUMulHi: kUMulHi, OpIMulHi: kIMulHi,
		OpF16ToF32: kF16ToF32, OpF32ToF16: kF32ToF16,
	} {
		kernels[op] = k
	}
}

// UBfe is ubfe of one value: the width bits of value from offset,
// zero-extended; a width of 0 gives 0.
func UBfe(width, offset, value uint32) uint32 {
	w, o := width&31, offset&31
	switch {
	case w == 0:
		return 0
	case w+o < 32:
		return value << (32 - (w + o)) >> (32 - w)
	}
	return value >> o
}

// IBfe is ibfe: the field sign-extended.
func IBfe(width, offset, value uint32) uint32 {
	w, o := width&31, offset&31
	switch {
	case w == 0:
		return 0
	case w+o < 32:
		return uint32(int32(value<<(32-(w+o))) >> (32 - w))
	}
	return uint32(int32(value) >> o)
}

// Bfi is bfi: insert's low width bits replace base's from offset.
func Bfi(width, offset, insert, base uint32) uint32 {
	w, o := width&31, offset&31
	mask := (uint32(1)<<w - 1) << o
	return insert<<o&mask | base&^mask
}

// FirstbitHi is firstbit_hi: the number of the first set bit counted from
// bit 31 downwards (31 - the bit's index), 0xFFFFFFFF for 0.
func FirstbitHi(v uint32) uint32 {
	if v == 0 {
		return 0xFFFFFFFF
	}
	return uint32(bits.LeadingZeros32(v))
}

// FirstbitLo is firstbit_lo: the index of the lowest set bit, 0xFFFFFFFF
// for 0.
func FirstbitLo(v uint32) uint32 {
	if v == 0 {
		return 0xFFFFFFFF
	}
	return uint32(bits.TrailingZeros32(v))
}

// FirstbitShi is firstbit_shi: the first bit from the top that differs
// from the sign bit (counted from bit 31), 0xFFFFFFFF for 0 and -1.
func FirstbitShi(v uint32) uint32 {
	return FirstbitHi(v ^ uint32(int32(v)>>31))
}

// F16ToF32 is f16tof32: the low 16 bits as a half, exactly as a float
// (half denormals become float normals; infinities and NaNs keep their
// sign and payload).
func F16ToF32(h uint32) uint32 {
	sign := (h & 0x8000) << 16
	e, m := h>>10&0x1F, h&0x3FF
	switch e {
	case 0:
		if m == 0 {
			return sign
		}
		// A denormal: normalise it.
		s := uint32(bits.LeadingZeros32(m)) - 21 // shifts to put the top bit at 10
		return sign | (113-s)<<23 | (m<<s&0x3FF)<<13
	case 31:
		return sign | 0x7F800000 | m<<13
	}
	return sign | (e+112)<<23 | m<<13
}

// F32ToF16 is f32tof16: the float as a half in the low 16 bits, rounded
// to the nearest even (IEEE's default, as the Direct3D floating-point rules
// ask of conversions); too large a magnitude gives infinity, too small a
// signed zero or a half denormal; NaN stays NaN (its payload's top bits,
// quiet); the high 16 bits are 0.
func F32ToF16(f uint32) uint32 {
	sign := f >> 16 & 0x8000
	e, m := int32(f>>23&0xFF), f&0x7FFFFF
	switch {
	case e == 0xFF && m != 0:
		return sign | 0x7E00 | m>>13
	case e == 0xFF:
		return sign | 0x7C00
	}
	// The value is m' * 2^(e-150) with m' the 24-bit significand; the half
	// is h * 2^-24 for denormals, so shift m' by (e-150+24) bits.
	if e == 0 {
		return sign // a float denormal is far below the smallest half
	}
	m |= 0x800000
	he := e - 127 + 15
	if he >= 31 {
		return sign | 0x7C00
	}
	var shift uint32
	if he <= 0 {
		// A half denormal (or zero): keep 1 - he fewer bits.
		if he < -10 {
			return sign // below half the smallest denormal: rounds to zero
		}
		shift = uint32(14 - he)
		he = 0
	} else {
		shift = 13
	}
	q := m >> shift
	rem := m & (1<<shift - 1)
	half := uint32(1) << (shift - 1)
	if rem > half || rem == half && q&1 != 0 {
		q++
	}
	if he == 0 {
		return sign | q // q may carry into the smallest normal: the same bits
	}
	// q holds the implicit 1 in bit 10; a carry to bit 11 raises the exponent.
	h := uint32(he)<<10 + (q - 0x400)
	if h >= 0x7C00 {
		return sign | 0x7C00
	}
	return sign | h
}

func kUBfe(r, a, b, c *[Lanes]uint32) {
	for i := range r {
		r[i] = UBfe(a[i], b[i], c[i])
	}
}

func kIBfe(r, a, b, c *[Lanes]uint32) {
	for i := range r {
		r[i] = IBfe(a[i], b[i], c[i])
	}
}

func kBfrev(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = bits.Reverse32(a[i])
	}
}

func kCountbits(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = uint32(bits.OnesCount32(a[i]))
	}
}

func kFirstbitHi(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = FirstbitHi(a[i])
	}
}

func kFirstbitLo(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = FirstbitLo(a[i])
	}
}

func kFirstbitShi(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = FirstbitShi(a[i])
	}
}

func kUAddc(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		_, c := bits.Add32(a[i], b[i], 0)
		r[i] = c
	}
}

func kUSubb(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		_, c := bits.Sub32(a[i], b[i], 0)
		r[i] = c
	}
}

func kUMulHi(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i], _ = bits.Mul32(a[i], b[i])
	}
}

func kIMulHi(r, a, b, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = uint32(uint64(int64(int32(a[i]))*int64(int32(b[i]))) >> 32)
	}
}

func kF16ToF32(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = F16ToF32(a[i])
	}
}

func kF32ToF16(r, a, _, _ *[Lanes]uint32) {
	for i := range r {
		r[i] = F32ToF16(a[i])
	}
}

// bfi runs bfi, the one op with four sources.
func (m *Machine) bfi(in *xinst, mask uint64) {
	w, o, ins, base := m.fetch(in, 0), m.fetch(in, 1), m.fetch(in, 2), m.fetch(in, 3)
	for k := range 4 {
		if in.mask>>k&1 == 0 {
			continue
		}
		r := &m.res[k]
		for i := range r {
			r[i] = Bfi(w[k][i], o[k][i], ins[k][i], base[k][i])
		}
	}
	m.commit(in, mask, false)
}

// Doubles: each pair of components (xy, zw) holds one, its low word first.
// A double result writes pair p from the sources' doubles at swizzled
// components 2p and 2p+1 (a 32-bit source, ftod's and dmovc's condition,
// from its component p); deq..dne and dtof write 32-bit component c from
// the sources' doubles c.

// canonNaN64 is the one double NaN arithmetic produces.
const canonNaN64 = 0x7FF8000000000000

func cn64(x float64) float64 {
	if x != x {
		return math.Float64frombits(canonNaN64)
	}
	return x
}

// double runs the double-precision ops over the block.
func (m *Machine) double(in *xinst, mask uint64) {
	var s [3]*[4]*[Lanes]uint32
	for k := range int(in.nsrc) {
		s[k] = m.fetch(in, k)
	}
	d := func(k, pair int, i int) float64 {
		return math.Float64frombits(uint64(s[k][2*pair][i]) | uint64(s[k][2*pair+1][i])<<32)
	}
	put := func(pair, i int, v float64) {
		b := math.Float64bits(v)
		m.res[2*pair][i], m.res[2*pair+1][i] = uint32(b), uint32(b>>32)
	}
	for p := range 2 {
		if in.mask>>p&1 == 0 && in.mask>>(2*p)&3 == 0 {
			continue
		}
		for i := range Lanes {
			switch in.op {
			case OpDAdd:
				put(p, i, cn64(d(0, p, i)+d(1, p, i)))
			case OpDMul:
				put(p, i, cn64(d(0, p, i)*d(1, p, i)))
			case OpDMin, OpDMax:
				// As min and max: the number when one operand is NaN,
				// the second when they are equal.
				x, y := d(0, p, i), d(1, p, i)
				if in.op == OpDMin && x < y || in.op == OpDMax && x > y || y != y {
					put(p, i, cn64(x))
				} else {
					put(p, i, cn64(y))
				}
			case OpDMov:
				m.res[2*p][i], m.res[2*p+1][i] = s[0][2*p][i], s[0][2*p+1][i]
			case OpDMovc:
				k := 2
				if s[0][p][i] != 0 {
					k = 1
				}
				m.res[2*p][i], m.res[2*p+1][i] = s[k][2*p][i], s[k][2*p+1][i]
			case OpFToD:
				put(p, i, cn64(float64(math.Float32frombits(s[0][p][i]))))
			case OpDEq, OpDGe, OpDLt, OpDNe, OpDToF:
				// p is the 32-bit component written: from the doubles p.
				x := d(0, p, i)
				var r uint32
				switch in.op {
				case OpDToF:
					r = math.Float32bits(float32(x))
				case OpDEq:
					r = mask32(x == d(1, p, i))
				case OpDGe:
					r = mask32(x >= d(1, p, i))
				case OpDLt:
					r = mask32(x < d(1, p, i))
				case OpDNe:
					r = mask32(x != d(1, p, i))
				}
				m.res[p][i] = r
			}
		}
	}
	if in.op == OpDToF {
		for p := range 2 {
			if in.mask>>p&1 != 0 {
				canon(&m.res[p])
			}
		}
	}
	m.commit(in, mask, false)
}

func mask32(b bool) uint32 {
	if b {
		return 0xFFFFFFFF
	}
	return 0
}
