package shader

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// The shader model 5 ops against references written from the Direct3D 11.3
// functional specification's words, bit by bit (not the kernels' shifts
// and math/bits), over the special values and random words.

func bit(v uint32, i int) uint32 { return v >> i & 1 }

// refBfe: the width bits from offset (fewer when they run past bit 31),
// sign-extended from the last for ibfe.
func refBfe(width, offset, value uint32, signed bool) uint32 {
	w, o := int(width&31), int(offset&31)
	if w == 0 {
		return 0
	}
	n := min(w, 32-o)
	var r uint32
	for i := range n {
		r |= bit(value, o+i) << i
	}
	if signed && bit(r, n-1) == 1 {
		for i := n; i < 32; i++ {
			r |= 1 << i
		}
	}
	return r
}

func refBfi(width, offset, insert, base uint32) uint32 {
	w, o := int(width&31), int(offset&31)
	var r uint32
	for j := range 32 {
		if j >= o && j < o+w {
			r |= bit(insert, j-o) << j
		} else {
			r |= bit(base, j) << j
		}
	}
	return r
}

func refFirstbit(v uint32, fromTop bool, want uint32) uint32 {
	for k := range 32 {
		i := k
		if fromTop {
			i = 31 - k
		}
		if bit(v, i) == want {
			if fromTop {
				return uint32(k)
			}
			return uint32(i)
		}
	}
	return 0xFFFFFFFF
}

// halves are every finite half's value and bits, positive, sorted, with
// infinity after the largest as 2^16 (where rounding with an unbounded
// exponent would land).
var halves = func() (h []struct {
	v    float64
	bits uint32
}) {
	for b := uint32(0); b <= 0x7C00; b++ {
		e, m := b>>10, b&0x3FF
		v := math.Ldexp(float64(m), -24)
		if e > 0 {
			v = math.Ldexp(float64(m|0x400), int(e)-25)
		}
		h = append(h, struct {
			v    float64
			bits uint32
		}{v, b})
	}
	return h
}()

// refF32ToF16 finds the nearest half by search, ties to the even code.
func refF32ToF16(f uint32) uint32 {
	x := float64(math.Float32frombits(f))
	sign := f >> 16 & 0x8000
	switch {
	case x != x:
		return sign | 0x7E00 | f>>13&0x3FF
	case math.IsInf(x, 0):
		return sign | 0x7C00
	}
	a := math.Abs(x)
	i := sort.Search(len(halves), func(i int) bool { return halves[i].v >= a })
	if i == len(halves) {
		return sign | 0x7C00
	}
	if i > 0 {
		lo, hi := halves[i-1], halves[i]
		switch {
		case a-lo.v < hi.v-a:
			return sign | lo.bits
		case a-lo.v == hi.v-a && lo.bits&1 == 0:
			return sign | lo.bits
		}
	}
	return sign | halves[i].bits
}

func refF16ToF32(h uint32) uint32 {
	h &= 0xFFFF
	sign := uint32(0)
	if h&0x8000 != 0 {
		sign = 1 << 31
	}
	e, m := h>>10&0x1F, h&0x3FF
	if e == 31 {
		return sign | 0x7F800000 | m<<13
	}
	v := math.Ldexp(float64(m), -24)
	if e > 0 {
		v = math.Ldexp(float64(m|0x400), int(e)-25)
	}
	return sign | math.Float32bits(float32(v))
}

func TestOpsSM5(t *testing.T) {
	tests := []struct {
		op  string
		ref func(a, b, c uint32) uint32
	}{
		{"ubfe", func(a, b, c uint32) uint32 { return refBfe(a, b, c, false) }},
		{"ibfe", func(a, b, c uint32) uint32 { return refBfe(a, b, c, true) }},
		{"bfrev", func(a, _, _ uint32) uint32 {
			var r uint32
			for i := range 32 {
				r |= bit(a, i) << (31 - i)
			}
			return r
		}},
		{"countbits", func(a, _, _ uint32) uint32 {
			var n uint32
			for i := range 32 {
				n += bit(a, i)
			}
			return n
		}},
		{"firstbit_hi", func(a, _, _ uint32) uint32 { return refFirstbit(a, true, 1) }},
		{"firstbit_lo", func(a, _, _ uint32) uint32 { return refFirstbit(a, false, 1) }},
		{"firstbit_shi", func(a, _, _ uint32) uint32 {
			if int32(a) < 0 {
				return refFirstbit(a, true, 0)
			}
			return refFirstbit(a, true, 1)
		}},
		{"uaddc", func(a, b, _ uint32) uint32 { return uint32((uint64(a) + uint64(b)) >> 32) }},
		{"usubb", func(a, b, _ uint32) uint32 {
			if a < b {
				return 1
			}
			return 0
		}},
		{"umul_hi", func(a, b, _ uint32) uint32 { return uint32(uint64(a) * uint64(b) >> 32) }},
		{"imul_hi", func(a, b, _ uint32) uint32 { return uint32(uint64(int64(int32(a))*int64(int32(b))) >> 32) }},
		{"f16tof32", func(a, _, _ uint32) uint32 { return refF16ToF32(a) }},
		{"f32tof16", func(a, _, _ uint32) uint32 { return refF32ToF16(a) }},
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			op, _ := OpByName(tc.op)
			src := "ps inputs=3 outputs=1 temps=1\n" + tc.op + " o0"
			for k := range op.Srcs() {
				src += fmt.Sprintf(", v%d", k)
			}
			runTriples(t, src, func(a, b, c, got uint32) bool { return got == tc.ref(a, b, c) })
		})
	}
	// bfi has four sources: the triples and a fourth cycling.
	p := mustAsm(t, "ps inputs=4 outputs=1 temps=1\nbfi o0, v0, v1, v2, v3\n")
	m := NewMachine(p)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 64 {
		var in [4][4 * Lanes]uint32
		for s := range in {
			for k := range in[s] {
				switch rng.IntN(3) {
				case 0:
					in[s][k] = specials[rng.IntN(len(specials))]
				case 1:
					in[s][k] = uint32(rng.IntN(40))
				default:
					in[s][k] = rng.Uint32()
				}
			}
			for k := range 4 * Lanes {
				m.In(s)[k/Lanes][k%Lanes] = in[s][k]
			}
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for k := range 4 * Lanes {
			if got, want := m.Out(0)[k/Lanes][k%Lanes], refBfi(in[0][k], in[1][k], in[2][k], in[3][k]); got != want {
				t.Fatalf("bfi(%#x, %#x, %#x, %#x) = %#x, want %#x", in[0][k], in[1][k], in[2][k], in[3][k], got, want)
			}
		}
	}
}

// Every half converts to a float and back to itself; every float rounds
// to the nearest half, ties to even, over a sweep of the float line.
func TestHalfConversions(t *testing.T) {
	for h := uint32(0); h < 1<<16; h++ {
		f := F16ToF32(h)
		if f != refF16ToF32(h) {
			t.Fatalf("f16tof32(%#04x) = %#08x, want %#08x", h, f, refF16ToF32(h))
		}
		if back := F32ToF16(f); back != h && !(h&0x7FFF > 0x7C00 && back&0x7FFF > 0x7C00) {
			t.Fatalf("f32tof16(f16tof32(%#04x)) = %#04x", h, back)
		}
	}
	for f := uint32(0); f < 1<<31; f += 0x1FF1 {
		for _, s := range []uint32{0, 1 << 31} {
			if got, want := F32ToF16(f|s), refF32ToF16(f|s); got != want {
				t.Fatalf("f32tof16(%#08x %g) = %#04x, want %#04x", f|s, math.Float32frombits(f|s), got, want)
			}
		}
	}
	// The ties around each half's midpoints.
	for _, hv := range halves[1 : len(halves)-1] {
		mid := math.Float32bits(float32(hv.v))
		for _, d := range []uint32{mid - 1, mid, mid + 1} {
			if got, want := F32ToF16(d), refF32ToF16(d); got != want {
				t.Fatalf("f32tof16(%#08x) = %#04x, want %#04x", d, got, want)
			}
		}
	}
}

// refDouble is the double ops' reference on one pair.
func refDouble(op Op, a, b float64) (float64, bool) {
	switch op {
	case OpDAdd:
		return a + b, true
	case OpDMul:
		return a * b, true
	case OpDMin, OpDMax:
		switch {
		case a != a:
			return b, true
		case b != b:
			return a, true
		case op == OpDMin && a < b, op == OpDMax && a > b:
			return a, true
		}
		return b, true // equal (+0 and -0 too): the second, as min and max do
	}
	return 0, false
}

// The double ops on random and special doubles: each pair of components
// against float64 arithmetic, swizzles and modifiers included.
func TestDoubles(t *testing.T) {
	src := `ps inputs=3 outputs=7 temps=2
dadd o0, v0, v1
dmul o1.zw, v0.zwxy, -v1
dmin o2, |v0|, v1
dmax o3.xy, v0.zwzw, v1.zwzw
dlt o4.xy, v0, v1
deq r0.x, v0, v0
dge r0.y, v1.zwzw, v0.zwzw
dne o6.x, v1, v1
dtof o5.xy, v0
ftod r1, v2.xyxx
dmovc o5.zw, v2.zzzz, v0.zwzw, v1.zwzw
mov o4.zw, r0.yyyx
mov o2.zw, r1.zwzw
`
	p := mustAsm(t, src)
	m := NewMachine(p)
	rng := rand.New(rand.NewPCG(8, 9))
	specials := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, 3.25, 1e300, -1e-300, math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, math.MaxFloat64, 1.0 / 3}
	val := func() float64 {
		if rng.IntN(3) == 0 {
			return specials[rng.IntN(len(specials))]
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
	}
	d := func(v *Vec, pair, lane int) float64 {
		return math.Float64frombits(uint64(v[2*pair][lane]) | uint64(v[2*pair+1][lane])<<32)
	}
	set := func(v *Vec, pair, lane int, f float64) {
		b := math.Float64bits(f)
		v[2*pair][lane], v[2*pair+1][lane] = uint32(b), uint32(b>>32)
	}
	same := func(a, b float64) bool { return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b }
	for range 20 {
		for i := range Lanes {
			for v := range 2 {
				for pair := range 2 {
					set(m.In(v), pair, i, val())
				}
			}
			m.In(2)[0][i] = math.Float32bits(float32(val()))
			m.In(2)[1][i] = math.Float32bits(float32(val()))
			m.In(2)[2][i] = uint32(rng.IntN(2))
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for i := range Lanes {
			a0, a1, b0, b1 := d(m.In(0), 0, i), d(m.In(0), 1, i), d(m.In(1), 0, i), d(m.In(1), 1, i)
			check := func(what string, got, want float64) {
				if !same(got, want) {
					t.Fatalf("lane %d %s = %v, want %v (a %v %v, b %v %v)", i, what, got, want, a0, a1, b0, b1)
				}
			}
			w, _ := refDouble(OpDAdd, a0, b0)
			check("dadd.xy", d(m.Out(0), 0, i), w)
			w, _ = refDouble(OpDAdd, a1, b1)
			check("dadd.zw", d(m.Out(0), 1, i), w)
			w, _ = refDouble(OpDMul, a0, -b1)
			check("dmul.zw", d(m.Out(1), 1, i), w)
			w, _ = refDouble(OpDMin, math.Abs(a0), b0)
			check("dmin.xy", d(m.Out(2), 0, i), w)
			w, _ = refDouble(OpDMax, a1, b1)
			check("dmax.xy", d(m.Out(3), 0, i), w)
			cmp := func(what string, got uint32, want bool) {
				if got != mask32(want) {
					t.Fatalf("lane %d %s = %#x, want %v", i, what, got, want)
				}
			}
			cmp("dlt.x", m.Out(4)[0][i], a0 < b0)
			cmp("dlt.y", m.Out(4)[1][i], a1 < b1)
			cmp("dge", m.Out(4)[2][i], b1 >= a1)
			cmp("deq", m.Out(4)[3][i], a0 == a0)
			cmp("dne", m.Out(6)[0][i], b0 != b0)
			if f := math.Float32frombits(m.Out(5)[0][i]); !(f == float32(a0) || f != f && a0 != a0) {
				t.Fatalf("lane %d dtof.x = %v, want %v", i, f, float32(a0))
			}
			if f := math.Float32frombits(m.Out(5)[1][i]); !(f == float32(a1) || f != f && a1 != a1) {
				t.Fatalf("lane %d dtof.y = %v, want %v", i, f, float32(a1))
			}
			wantC := b1
			if m.In(2)[2][i] != 0 {
				wantC = a1
			}
			check("dmovc.zw", d(m.Out(5), 1, i), wantC)
			check("ftod.zw", d(m.Out(2), 1, i), float64(math.Float32frombits(m.In(2)[1][i])))
		}
	}
}

// TestGoldenHashSM5 is TestGoldenHash for the ops after the first set (bit
// ops, half conversions, doubles): the same bits natively and in
// WebAssembly.
const goldenHashSM5 = 0xec1787477ce4ae02

func sm5Hash(t *testing.T) uint64 {
	h := fnv.New64a()
	put := func(v uint32) { h.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24)}) }
	rng := rand.New(rand.NewPCG(17, 5))
	vals := append([]uint32{}, specials...)
	for i := range 3000 {
		vals = append(vals, fbits(float32(i-1500)/37), rng.Uint32(), fbits(float32(rng.NormFloat64()*1e4)))
	}
	for i := int(OpUBfe); i < NumOps; i++ {
		op := Op(i)
		if !op.HasDst() || op.Kind() == KindTex || op.ComputeOnly() {
			continue
		}
		src := fmt.Sprintf("ps inputs=4 outputs=1 temps=1\n%s o0", op)
		switch op {
		case OpDEq, OpDGe, OpDLt, OpDNe, OpDToF:
			src = fmt.Sprintf("ps inputs=4 outputs=1 temps=1\n%s o0.xy", op)
		}
		for k := range op.Srcs() {
			src += fmt.Sprintf(", v%d", k)
		}
		m := NewMachine(mustAsm(t, src))
		for base := 0; base < len(vals); base += 4 * Lanes {
			for k := 0; k < 4*Lanes; k++ {
				c, l := k/Lanes, k%Lanes
				for s := range 4 {
					m.In(s)[c][l] = vals[(base+k*(2*s+1)+s)%len(vals)]
				}
			}
			if _, err := m.Run(AllLanes); err != nil {
				t.Fatal(err)
			}
			for c := range 4 {
				for _, v := range m.Out(0)[c] {
					put(v)
				}
			}
		}
	}
	return h.Sum64()
}

func TestGoldenHashSM5(t *testing.T) {
	if got := sm5Hash(t); got != goldenHashSM5 {
		t.Fatalf("SM5 battery hash %#016x, want %#016x: results changed (or differ between native and WebAssembly)", got, uint64(goldenHashSM5))
	}
}
