package shader

import (
	"math"
	"runtime"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// TestQuickTranscendentals: kExp2, kLog2 and kRsq (the short evaluations
// of fastexp.go, fastlog.go and fastrsq.go) give the machine's bits, those
// of exp2f, log2f and 1/math.Sqrt in float64, NaNs canonical, for every
// 13th float32 (every 997th with -short, every 211th under WebAssembly) through the kernels, a block at a
// time; few of the lanes in range are near the middle of two float32s
// (left to the old evaluation); and blocks of lanes near it (found when
// every float32 was compared, once, on 2026-11-29: none differed) beside
// lanes out of range give the old bits too. In the GOEXPERIMENT=simd
// build the same lanes go through the vector kernels as well (vExp2, vLog2,
// vRsq).
func TestQuickTranscendentals(t *testing.T) {
	step := uint32(13)
	switch {
	case testing.Short():
		step = 997
	case runtime.GOOS == "js":
		step = 211 // WebAssembly: 521 s at 13 on CI's machine, ~30 s here
	}
	special := []uint32{0, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 0xBF800000, 1,
		0xC3100000, 0x43000000, 0xC2FE0000}
	for _, c := range []struct {
		name   string
		kernel kernel
		ref    func(float32) float32
		// quick is the short evaluation of x, in its range, and
		// whether it is taken (far from the middle of two float32s).
		quick  func(float32) (float64, bool)
		lo, hi float32
		nears  []uint32
		op     Op // the op whose kernel the table holds
	}{
		{"exp2", kExp2, exp2f, exp2q, exp2QLo, exp2QHi, []uint32{0xB338AA30, 0xB338AA46, 0x33B8AA30, 0x33B8AA40}, OpExp2},
		{"log2", kLog2, log2f, log2q, log2Lo, log2Hi, []uint32{0x7145, 0xE28A, 0x1C514, 0x310E3}, OpLog2},
		{"rsq", kRsq, rsqRef, func(x float32) (float64, bool) {
			h, y := rsqqReduce(x)
			y = rsqqStep(h, rsqqStep(h, rsqqStep(h, y)))
			return y, farMid(y)
		}, log2Lo, log2Hi, []uint32{0xA72F, 0x29CBC, 0x9DB6D, 0x113E07}, OpRsq},
	} {
		var a [Lanes]uint32
		n, near, lane := 0, 0, 0
		flush := func() {
			checkLanes(t, c.name, c.kernel, &a, lane, c.ref)
			if vecOK {
				// The vector build's kernel (fastmath_simd.go),
				// whose fallback these lanes also reach.
				checkLanes(t, c.name+" (vector)", kernels[c.op], &a, lane, c.ref)
			}
			lane = 0
		}
		add := func(b uint32) {
			if x := math.Float32frombits(b); x >= c.lo && x < c.hi {
				n++
				if _, ok := c.quick(x); !ok {
					near++
				}
			}
			a[lane] = b
			if lane++; lane == Lanes {
				flush()
			}
		}
		for b := uint32(0); b < 1<<31; b += step {
			add(b)
			add(b | 1<<31)
		}
		for e := -149; e < 128; e++ { // powers of two and their neighbours
			p := math.Float32bits(float32(math.Ldexp(1, e)))
			add(p - 1)
			add(p)
			add(p + 1)
		}
		flush()
		if near > n/20000 {
			t.Errorf("%s: %d of %d lanes near the middle of two float32s: want few", c.name, near, n)
		}
		for _, b := range c.nears {
			if _, ok := c.quick(math.Float32frombits(b)); ok {
				t.Errorf("%s(%#08x) is not near the middle", c.name, b)
			}
		}
		for i := range a {
			a[i] = math.Float32bits(float32(i)/7 - 3)
			switch i % 4 {
			case 0:
				a[i] = c.nears[i%len(c.nears)]
			case 2:
				a[i] = special[i%len(special)]
			}
		}
		lane = Lanes
		flush()
	}
}
