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

// TestLog2Abs: log2 of |x| by the kernel (kLog2Abs in the default build,
// vLog2Abs in the vector build) gives the bits of log2 of a register holding |x|, for lanes from
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
		if taken != (i != 2) { // the vector build's vLog2Abs (vecFold)
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
