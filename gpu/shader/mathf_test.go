package shader

import (
	"math"
	"math/rand/v2"
	"testing"
)

// log2Divided is log2f as it was before its coefficients went into a table
// (invOdd): each term's 1/(2k+1) divided out as it went.
func log2Divided(x float32) float32 {
	switch {
	case x != x || x < 0:
		return float32(math.NaN())
	case x == 0:
		return float32(math.Inf(-1))
	case math.IsInf(float64(x), 1):
		return x
	}
	b := math.Float64bits(float64(x))
	e := int(b>>52&0x7FF) - 1023
	m := math.Float64frombits(b&^(0x7FF<<52) | 1023<<52)
	if m > math.Sqrt2 {
		m /= 2
		e++
	}
	s := (m - 1) / (m + 1)
	z := float64(s * s)
	p := 1.0 / 25
	for k := 11; k >= 0; k-- {
		p = float64(p*z) + 1/float64(2*k+1)
	}
	ln := float64(2 * float64(s*p))
	return float32(float64(e) + float64(ln*log2e))
}

// TestLog2Table: log2f with its table gives the bits it gave with the
// divisions, for positive floats across the range (every 61st, or every
// 9,973rd with -short) and those near 1, 2 and sqrt 2.
func TestLog2Table(t *testing.T) {
	step := uint32(61)
	if testing.Short() {
		step = 9973
	}
	check := func(b uint32) {
		x := math.Float32frombits(b)
		if got, want := log2f(x), log2Divided(x); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("log2f(%g) = %g, want %g", x, got, want)
		}
	}
	for b := uint64(0); b <= 0x7F800001; b += uint64(step) {
		check(uint32(b))
	}
	for _, c := range []float32{1, 2, math.Sqrt2, 0.5, 3} {
		b := math.Float32bits(c)
		for d := uint32(0); d < 4096; d++ {
			check(b + d)
			check(b - d)
		}
	}
}

// TestModifiersFolded: immediates with modifiers (folded into the
// machine's constants at NewMachine) and modified registers read only for
// the components an instruction writes give what the one-lane reference
// gives, for float and integer ops and every write mask.
func TestModifiersFolded(t *testing.T) {
	progs := []string{
		"mov o0, -l(1.5, -2.0, 0.0, -0.0)",
		"mov o0, |l(-1.5, 2.0, -0.0, -7.0)|",
		"mov o0, -|l(-1.5, 2.0, -0.0, 7.0)|",
		"mad o0, v0, |l(-2.0, 3.0, -4.0, 5.0)|, -l(0.5, 0.25, -1.0, 2.0)",
		"iadd o0, v1, -l(1, 2, 3, -4)",
		"imax o0, v1, |l(-5, 6, -2147483648, 0)|",
		"ineg o0, -|l(-5, 6, -7, 8)|",
		"add o0.xz, -v0.yxwz, |v1|",
		"mul o0.y, -|v0.wzyx|, l(3.0, -3.0, 2.0, 2.0).y",
		"mad_sat o0.xw, -v0, v1.zzzz, -|l(0.5, 0.5, 0.5, -0.5)|",
		"dp3 o0.yz, -v0, |l(-1.0, 2.0, -3.0, 4.0)|",
		"dp2 o0, |v0.zwxy|, -v1",
		"log2 o0.x, |v0.y|\nexp2 o0.w, -v0.x",
		"ilt r0.x, v1.x, -l(3, 3, 3, 3).x\nmovc o0, r0.x, -v0, |v1|",
	}
	rng := rand.New(rand.NewPCG(7, 29))
	for _, body := range progs {
		p := mustAsm(t, "ps inputs=2 outputs=1 temps=1\n"+body)
		for _, mask := range []uint64{AllLanes, 0x00F0F0F00F0F0F0F} {
			m := NewMachine(p)
			for v := range 2 {
				for c := range 4 {
					setLanes(m, v, c, func(lane int) uint32 {
						if v == 1 {
							return uint32(int32(rng.IntN(41) - 20))
						}
						return math.Float32bits(float32(rng.NormFloat64() * 3))
					})
				}
			}
			checkAgainstRef(t, p, m, mask)
		}
	}
}
