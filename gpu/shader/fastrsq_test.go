package shader

import (
	"math"
	"testing"
)

// TestRsqQuick: kRsq gives 1/math.Sqrt's float32 bits for every 7th
// positive finite float32 (every 997th with -short; every one,
// 2,139,095,039, was compared once on 2026-11-29 by rsqq: 31,225 near the
// middle of two float32s), few of them near the middle, and for lanes near
// it (left to 1/math.Sqrt) beside lanes out of its range.
func TestRsqQuick(t *testing.T) {
	step := uint32(7)
	if testing.Short() {
		step = 997
	}
	rsqq := func(x float32) float64 {
		h, y := rsqqReduce(x)
		return rsqqStep(h, rsqqStep(h, rsqqStep(h, y)))
	}
	var n, near int
	var a, r [Lanes]uint32
	lane := 0
	flush := func() {
		kRsq(&r, &a, nil, nil)
		for i := range lane {
			if want := math.Float32bits(rsqRef(math.Float32frombits(a[i]))); r[i] != want {
				t.Fatalf("kRsq(%#08x) = %#08x, 1/math.Sqrt %#08x", a[i], r[i], want)
			}
		}
		lane = 0
	}
	check := func(b uint32) {
		if x := math.Float32frombits(b); !farMid(rsqq(x)) {
			near++
		}
		n++
		a[lane] = b
		if lane++; lane == Lanes {
			flush()
		}
	}
	for b := uint32(1); b < 0x7F800000; b += step {
		check(b)
	}
	for e := -149; e < 128; e++ { // powers of two, the table's ends
		p := math.Float32bits(float32(math.Ldexp(1, e)))
		check(p - 1)
		check(p)
		check(p + 1)
	}
	flush()
	if near > n/20000 {
		t.Errorf("%d of %d lanes near the middle of two float32s: want few", near, n)
	}
	nears := []uint32{0xA72F, 0x29CBC, 0x9DB6D, 0x113E07}
	for _, b := range nears {
		if farMid(rsqq(math.Float32frombits(b))) {
			t.Errorf("rsqq(%#08x) is not near the middle", b)
		}
	}
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
	kRsq(&r, &a, nil, nil)
	for i := range a {
		want := math.Float32bits(float32(1 / math.Sqrt(float64(math.Float32frombits(a[i])))))
		if want&0x7FFFFFFF > 0x7F800000 {
			want = canonNaN
		}
		if r[i] != want {
			t.Errorf("kRsq(%#08x) = %#08x, want %#08x", a[i], r[i], want)
		}
	}
}
