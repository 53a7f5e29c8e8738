package shader

import (
	"math"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// Every op of the per-component ALU against a scalar Go reference, exact to
// the bit, over the special values (NaN, Inf, denormals, -0, integer
// extremes).
func TestOpsExact(t *testing.T) {
	F := func(f func(a, b, c float32) float32) func(a, b, c uint32) uint32 {
		return func(a, b, c uint32) uint32 { return canonRef(f(bitsf(a), bitsf(b), bitsf(c))) }
	}
	cmp := func(f func(a, b float32) bool) func(a, b, c uint32) uint32 {
		return func(a, b, _ uint32) uint32 {
			if f(bitsf(a), bitsf(b)) {
				return 0xFFFFFFFF
			}
			return 0
		}
	}
	icmp := func(f func(a, b uint32) bool) func(a, b, c uint32) uint32 {
		return func(a, b, _ uint32) uint32 {
			if f(a, b) {
				return 0xFFFFFFFF
			}
			return 0
		}
	}
	minNum := func(a, b float32) float32 {
		switch {
		case a != a:
			return b
		case b != b:
			return a
		case a < b:
			return a
		}
		return b
	}
	maxNum := func(a, b float32) float32 {
		switch {
		case a != a:
			return b
		case b != b:
			return a
		case a > b:
			return a
		}
		return b
	}
	f64 := func(g func(float64) float64) func(a, b, c float32) float32 {
		return func(a, _, _ float32) float32 { return float32(g(float64(a))) }
	}
	tests := []struct {
		op  string
		ref func(a, b, c uint32) uint32
	}{
		{"mov", func(a, _, _ uint32) uint32 { return a }},
		{"movc", func(a, b, c uint32) uint32 {
			if a != 0 {
				return b
			}
			return c
		}},
		{"add", F(func(a, b, _ float32) float32 { return a + b })},
		{"mul", F(func(a, b, _ float32) float32 { return a * b })},
		{"mad", F(func(a, b, c float32) float32 { p := a * b; return p + c })},
		{"div", F(func(a, b, _ float32) float32 { return a / b })},
		{"min", F(func(a, b, _ float32) float32 { return minNum(a, b) })},
		{"max", F(func(a, b, _ float32) float32 { return maxNum(a, b) })},
		{"rcp", F(func(a, _, _ float32) float32 { return 1 / a })},
		{"sqrt", F(f64(math.Sqrt))},
		{"rsq", F(f64(func(x float64) float64 { return 1 / math.Sqrt(x) }))},
		{"frc", F(func(a, _, _ float32) float32 { return a - float32(math.Floor(float64(a))) })},
		{"floor", F(f64(math.Floor))},
		{"ceil", F(f64(math.Ceil))},
		{"round_ne", F(f64(math.RoundToEven))},
		{"trunc", F(f64(math.Trunc))},
		{"lt", cmp(func(a, b float32) bool { return a < b })},
		{"ge", cmp(func(a, b float32) bool { return a >= b })},
		{"eq", cmp(func(a, b float32) bool { return a == b })},
		{"ne", cmp(func(a, b float32) bool { return a != b })},
		{"iadd", func(a, b, _ uint32) uint32 { return a + b }},
		{"imul", func(a, b, _ uint32) uint32 { return uint32(int32(a) * int32(b)) }},
		{"ishl", func(a, b, _ uint32) uint32 { return a << (b % 32) }},
		{"ishr", func(a, b, _ uint32) uint32 { return uint32(int32(a) >> (b % 32)) }},
		{"ushr", func(a, b, _ uint32) uint32 { return a >> (b % 32) }},
		{"and", func(a, b, _ uint32) uint32 { return a & b }},
		{"or", func(a, b, _ uint32) uint32 { return a | b }},
		{"xor", func(a, b, _ uint32) uint32 { return a ^ b }},
		{"not", func(a, _, _ uint32) uint32 { return ^a }},
		{"ineg", func(a, _, _ uint32) uint32 { return uint32(-int32(a)) }},
		{"ilt", icmp(func(a, b uint32) bool { return int32(a) < int32(b) })},
		{"ige", icmp(func(a, b uint32) bool { return int32(a) >= int32(b) })},
		{"ieq", icmp(func(a, b uint32) bool { return a == b })},
		{"ine", icmp(func(a, b uint32) bool { return a != b })},
		{"ult", icmp(func(a, b uint32) bool { return a < b })},
		{"uge", icmp(func(a, b uint32) bool { return a >= b })},
		{"itof", func(a, _, _ uint32) uint32 { return fbits(float32(float64(int32(a)))) }},
		{"utof", func(a, _, _ uint32) uint32 { return fbits(float32(float64(a))) }},
		{"ftoi", func(a, _, _ uint32) uint32 {
			f := float64(bitsf(a))
			switch {
			case math.IsNaN(f):
				return 0
			case f >= math.MaxInt32:
				return math.MaxInt32
			case f <= math.MinInt32:
				return 0x80000000
			}
			return uint32(int32(math.Trunc(f)))
		}},
		{"ftou", func(a, _, _ uint32) uint32 {
			f := float64(bitsf(a))
			switch {
			case math.IsNaN(f) || f <= 0:
				return 0
			case f >= math.MaxUint32:
				return math.MaxUint32
			}
			return uint32(math.Trunc(f))
		}},
		{"imin", func(a, b, _ uint32) uint32 { return uint32(min(int32(a), int32(b))) }},
		{"imax", func(a, b, _ uint32) uint32 { return uint32(max(int32(a), int32(b))) }},
		{"umin", func(a, b, _ uint32) uint32 { return min(a, b) }},
		{"umax", func(a, b, _ uint32) uint32 { return max(a, b) }},
		{"udiv", func(a, b, _ uint32) uint32 {
			if b == 0 {
				return 0xFFFFFFFF
			}
			return a / b
		}},
		{"urem", func(a, b, _ uint32) uint32 {
			if b == 0 {
				return 0xFFFFFFFF
			}
			return a % b
		}},
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			op, _ := OpByName(tc.op)
			args := []string{"v0", "v1", "v2"}[:len(op.Srcs())]
			src := "ps inputs=3 outputs=1 temps=1\n" + tc.op + " o0"
			for _, a := range args {
				src += ", " + a
			}
			runTriples(t, src, func(a, b, c, got uint32) bool { return got == tc.ref(a, b, c) })
		})
	}
}

// ulpDiff is the distance of two finite float32s in units in the last
// place (through the sign-magnitude ordering).
func ulpDiff(a, b float32) int64 {
	key := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := key(a) - key(b)
	if d < 0 {
		d = -d
	}
	return d
}

// The transcendentals against math's float64 functions: within one unit in
// the last place (sin and cos within 2^-22 absolute for moderate
// arguments), special values exact.
func TestOpsTranscendental(t *testing.T) {
	special := func(got, want float64) (bool, bool) {
		switch {
		case math.IsNaN(want):
			return true, math.Float32bits(float32(got)) == canonNaN
		case math.IsInf(want, 0) || want == 0:
			return true, float32(got) == float32(want) && math.Signbit(got) == math.Signbit(want)
		}
		return false, false
	}
	tests := []struct {
		op  string
		ref func(float64) float64
		abs float64 // 0: within 1 ulp
		max float64 // arguments above this are only checked for determinism
	}{
		{"exp2", math.Exp2, 0, math.Inf(1)},
		{"log2", math.Log2, 0, math.Inf(1)},
		{"sin", math.Sin, 1.0 / (1 << 22), 1000},
		{"cos", math.Cos, 1.0 / (1 << 22), 1000},
	}
	for _, tc := range tests {
		t.Run(tc.op, func(t *testing.T) {
			check := func(a, _, _, got uint32) bool {
				x := float64(bitsf(a))
				want := tc.ref(x)
				g := float64(bitsf(got))
				if sp, ok := special(g, want); sp {
					return ok
				}
				if math.Abs(x) > tc.max {
					return true
				}
				if tc.abs > 0 {
					return math.Abs(g-want) <= tc.abs
				}
				if float32(want) == 0 || math.IsInf(float64(float32(want)), 0) {
					return float32(g) == float32(want)
				}
				return ulpDiff(float32(g), float32(want)) <= 1
			}
			runTriples(t, "ps inputs=1 outputs=1 temps=1\n"+tc.op+" o0, v0", check)
			// A sweep of ordinary arguments.
			m := NewMachine(mustAsm(t, "ps inputs=1 outputs=1 temps=1\n"+tc.op+" o0, v0"))
			bad := 0
			for base := 0; base < 1<<16; base += 4 * Lanes {
				for k := 0; k < 4*Lanes; k++ {
					m.In(0)[k/Lanes][k%Lanes] = fbits(float32(base+k-1<<15) / 1000)
				}
				m.Run(AllLanes)
				for k := 0; k < 4*Lanes; k++ {
					a, got := m.In(0)[k/Lanes][k%Lanes], m.Out(0)[k/Lanes][k%Lanes]
					if !check(a, 0, 0, got) {
						if bad++; bad < 5 {
							t.Errorf("%s(%g) = %g, want %g", tc.op, bitsf(a), bitsf(got), tc.ref(float64(bitsf(a))))
						}
					}
				}
			}
		})
	}
}

// dp2, dp3 and dp4: products rounded, summed left to right, NaN canonical,
// the one result broadcast to every written component.
func TestDot(t *testing.T) {
	for n := 2; n <= 4; n++ {
		op := []string{"", "", "dp2", "dp3", "dp4"}[n]
		m := NewMachine(mustAsm(t, "ps inputs=2 outputs=1 temps=1\n"+op+" o0.yzw, v0, v1"))
		for base := 0; base < len(specials)*len(specials); base += Lanes {
			for l := range Lanes {
				for c := range 4 {
					k := base + l + c*5
					m.In(0)[c][l] = specials[k%len(specials)]
					m.In(1)[c][l] = specials[(k/len(specials)+c)%len(specials)]
				}
			}
			m.Out(0)[0] = [Lanes]uint32{}
			if _, err := m.Run(AllLanes); err != nil {
				t.Fatal(err)
			}
			for l := range Lanes {
				var s float32
				for c := range n {
					p := bitsf(m.In(0)[c][l]) * bitsf(m.In(1)[c][l])
					if c == 0 {
						s = p
					} else {
						s += p
					}
				}
				want := canonRef(s)
				if m.Out(0)[0][l] != 0 {
					t.Fatalf("%s wrote x", op)
				}
				for c := 1; c < 4; c++ {
					if got := m.Out(0)[c][l]; got != want {
						t.Fatalf("%s lane %d .%c = %#x, want %#x", op, l, "xyzw"[c], got, want)
					}
				}
			}
		}
	}
}
