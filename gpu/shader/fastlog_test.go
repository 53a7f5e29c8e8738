package shader

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// TestLog2Tab recomputes log2Tab with math/big: 1/c rounded to 29 bits,
// and log2 of its reciprocal (ln by the atanh series to 160 bits), less 1
// from log2Split up, rounded to float64.
func TestLog2Tab(t *testing.T) {
	const prec = 160
	bf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	ln := func(y *big.Float) *big.Float {
		s := bf(0).Quo(bf(0).Sub(y, bf(1)), bf(0).Add(y, bf(1)))
		s2, sum, term := bf(0).Mul(s, s), bf(0), bf(0).Set(s)
		for k := range 100 { // |s| <= 1/3: 3**-200 is below 2**-160
			sum.Add(sum, bf(0).Quo(term, bf(float64(2*k+1))))
			term.Mul(term, s2)
		}
		return sum.Mul(sum, bf(2))
	}
	ln2 := ln(bf(2))
	for j := range log2Tab {
		c := 1 + (float64(j)+0.5)/256
		switch j {
		case 0:
			c = 1
		case 255:
			c = 2
		}
		inv := math.Float64frombits((math.Float64bits(1/c) + 1<<23) &^ (1<<24 - 1))
		l := ln(bf(inv))
		l.Quo(l, ln2).Neg(l)
		if j >= log2Split {
			l.Sub(l, bf(1))
		}
		lf, _ := l.Float64()
		if want := [2]float64{inv, lf + 0}; log2Tab[j] != want {
			t.Errorf("log2Tab[%d] = %x, want %x", j, log2Tab[j], want)
		}
	}
	if c := 1 + (log2Split-0.5)/256; c > math.Sqrt2 || c+1.0/256 < math.Sqrt2 {
		t.Errorf("log2Split %d is not the entry of sqrt 2", log2Split)
	}
}

// TestLog2Quick: log2q, where it says its result rounds as log2f's, gives
// log2f's float32 bits, for every 7th positive finite float32 (every 997th
// with -short; every one, 2,139,095,039, was compared once on 2026-11-29:
// 33,795 near the middle), and kLog2 gives log2f's bits for the lanes log2q
// leaves to log2f, beside lanes out of its range.
func TestLog2Quick(t *testing.T) {
	step := uint32(7)
	if testing.Short() {
		step = 997
	}
	var n, near int
	check := func(b uint32) {
		x := math.Float32frombits(b)
		if !(x >= log2Lo && x < log2Hi) {
			return
		}
		n++
		v, ok := log2q(x)
		if !ok {
			near++
			return
		}
		if got, want := math.Float32bits(float32(v)), math.Float32bits(log2f(x)); got != want {
			t.Fatalf("log2q(%g = %#08x) = %#08x, log2f %#08x", x, b, got, want)
		}
	}
	for b := uint32(1); b < 0x7F800000; b += step {
		check(b)
	}
	for e := -149; e < 128; e++ { // powers of two, the ends of the entries
		check(math.Float32bits(float32(math.Ldexp(1, e))))
		check(math.Float32bits(float32(math.Ldexp(1, e))) - 1)
		check(math.Float32bits(float32(math.Ldexp(1, e))) + 1)
	}
	if near > n/20000 {
		t.Errorf("%d of %d lanes near the middle of two float32s: want few", near, n)
	}
	nears := []uint32{0x7145, 0xE28A, 0x1C514, 0x310E3}
	for _, b := range nears {
		if _, ok := log2q(math.Float32frombits(b)); ok {
			t.Errorf("log2q(%#08x) is not near the middle", b)
		}
	}
	var a, r [Lanes]uint32
	special := []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xBF800000, 1}
	for i := range a {
		a[i] = math.Float32bits(float32(i)/7 + 0.01)
		switch i % 4 {
		case 0:
			a[i] = nears[i%len(nears)]
		case 2:
			if i%8 == 2 {
				a[i] = special[i%len(special)]
			}
		}
	}
	kLog2(&r, &a, nil, nil)
	for i := range a {
		want := math.Float32bits(log2f(math.Float32frombits(a[i])))
		if want&0x7FFFFFFF > 0x7F800000 {
			want = canonNaN
		}
		if r[i] != want {
			t.Errorf("kLog2(%#08x) = %#08x, want %#08x", a[i], r[i], want)
		}
	}
}

// TestLog2Abs: log2 of |x| by the kernel (kLog2Abs, taken in the default
// build) gives the bits of log2 of a register holding |x|, for lanes from
// the specials and random floats of both signs, with other modifiers and
// swizzles beside.
func TestLog2Abs(t *testing.T) {
	rng := rand.New(rand.NewPCG(32, 7))
	forms := [][2]string{
		{"log2 o0, |v0|", "mov r0, |v0|\nlog2 o0, r0"},
		{"log2 o0.xz, |v0.yxwz|", "mov r0, |v0.yxwz|\nlog2 o0.xz, r0"},
		{"log2 o0, -|v0|", "mov r0, -|v0|\nlog2 o0, r0"},
		{"mov r0, v0\nlog2 r0.xy, |r0.yxzw|\nmov o0, r0", "mov r0, v0\nmov r1, |r0|\nlog2 r0.xy, r1.yxzw\nmov o0, r0"},
	}
	for i, f := range forms {
		a := NewMachine(mustAsm(t, "ps inputs=1 outputs=1 temps=2\n"+f[0]+"\nret\n"))
		g := NewMachine(mustAsm(t, "ps inputs=1 outputs=1 temps=2\n"+f[1]+"\nret\n"))
		taken := false
		for pc := range a.code {
			taken = taken || a.code[pc].op == OpLog2 && a.code[pc].plain
		}
		if taken != (i != 2 && !vecOK) {
			t.Errorf("%s: kLog2Abs taken %v", f[0], taken)
		}
		for range 50 {
			for c := range 4 {
				for l := range Lanes {
					v := specials[rng.IntN(len(specials))]
					if rng.IntN(2) == 0 {
						v = fbits(float32(rng.NormFloat64() * 100))
					}
					a.In(0)[c][l] = v
				}
			}
			*g.In(0) = *a.In(0)
			for _, m := range []*Machine{a, g} {
				if _, err := m.Run(AllLanes); err != nil {
					t.Fatal(err)
				}
			}
			if *a.Out(0) != *g.Out(0) {
				t.Fatalf("%s: %x, want %x", f[0], *a.Out(0), *g.Out(0))
			}
		}
	}
}
