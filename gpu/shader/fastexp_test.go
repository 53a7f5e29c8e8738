package shader

import (
	"math"
	"testing"
)

// TestExp2Quick: exp2q, where it says its result rounds as exp2f's, gives
// exp2f's float32 bits, for every 7th float32 of [exp2QLo, exp2QHi) (every
// 997th with -short; every one, 2,247,884,801, was compared once on
// 2026-11-29: 8,273 near the middle), and kExp2 gives exp2f's bits for
// the lanes exp2q leaves to exp2f, beside lanes out of its range.
func TestExp2Quick(t *testing.T) {
	step := uint32(7)
	if testing.Short() {
		step = 997
	}
	var n, near int
	check := func(b uint32) {
		x := math.Float32frombits(b)
		if !(x >= exp2QLo && x < exp2QHi) {
			return
		}
		n++
		v, ok := exp2q(x)
		if !ok {
			near++
			return
		}
		if got, want := math.Float32bits(float32(v)), math.Float32bits(exp2f(x)); got != want {
			t.Fatalf("exp2q(%g = %#08x) = %#08x, exp2f %#08x", x, b, got, want)
		}
	}
	for b := uint32(0); b < 0x43000000; b += step {
		check(b)
		check(b | 1<<31)
	}
	for e := exp2QLo; e < exp2QHi; e++ { // results exactly float32s
		check(math.Float32bits(float32(e)))
	}
	if near > n/20000 {
		t.Errorf("%d of %d lanes near the middle of two float32s: want few", near, n)
	}
	// Lanes near the middle (found by the sweep of every float32), in
	// blocks of four with lanes that are not.
	nears := []uint32{0xB338AA30, 0xB338AA46, 0x33B8AA30, 0x33B8AA40}
	var a, r [Lanes]uint32
	special := []uint32{0x7FC00000, 0xFF800000, 0x7F800000, 0xC3100000, 0x43000000, 0xC2FE0000}
	for i := range a {
		a[i] = math.Float32bits(float32(i)/7 - 3)
		switch i % 4 {
		case 0:
			a[i] = nears[i%len(nears)]
		case 2:
			if i%8 == 2 {
				a[i] = special[i%len(special)]
			}
		}
	}
	for _, b := range nears {
		if _, ok := exp2q(math.Float32frombits(b)); ok {
			t.Errorf("exp2q(%#08x) is not near the middle", b)
		}
	}
	kExp2(&r, &a, nil, nil)
	for i := range a {
		want := math.Float32bits(exp2f(math.Float32frombits(a[i])))
		if want&0x7FFFFFFF > 0x7F800000 {
			want = canonNaN
		}
		if r[i] != want {
			t.Errorf("kExp2(%#08x) = %#08x, want %#08x", a[i], r[i], want)
		}
	}
}
