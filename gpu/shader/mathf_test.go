package shader

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestLog2Table: log2f's coefficients are the quotients it divided out for
// each term before they went into a table, 1/(2k+1) correctly rounded, so
// the series' operations and their results are the same bits as before
// (TestOpsTranscendental checks log2 against math.Log2, TestGoldenHash
// every op's bits).
func TestLog2Table(t *testing.T) {
	for k := range invOdd {
		d := float64(2*k + 1)
		if want := 1 / d; invOdd[k] != want {
			t.Errorf("invOdd[%d] = %v, want 1/%v = %v", k, invOdd[k], d, want)
		}
	}
	if len(invOdd) != 12 {
		t.Errorf("%d coefficients: log2f's series has 12 below its 1/25", len(invOdd))
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

// TestTranscendentalLanes: kExp2 and kLog2, four plain lanes at a time
// (exp2f4, log2f4), give exp2f's and log2f's bits lane by lane: every 61st
// float (every 9,973rd with -short) in blocks where now and then a lane is
// special (NaN, zero, an infinity, out of exp2's range) so that blocks of
// four go both ways.
func TestTranscendentalLanes(t *testing.T) {
	special := []uint32{0x7FC00000, 0x7FA00001, 0, 0x80000000, 0x7F800000, 0xFF800000, 0xC3200000, 0x43000000, 0xBF800000}
	sweepTranscendentals(t, kExp2, kLog2, special, 37)
}

// sweepTranscendentals runs exp2k and log2k over every 61st float (every
// 9973rd with -short), one of special every every-th lane, and compares
// each lane with exp2f and log2f, canonical NaNs.
func sweepTranscendentals(t *testing.T, exp2k, log2k kernel, special []uint32, every int) {
	step := uint64(61)
	if testing.Short() {
		step = 9973
	}
	var a [Lanes]uint32
	n, lane := 0, 0
	flush := func() {
		for _, k := range []struct {
			name string
			run  kernel
			f    func(float32) float32
		}{{"exp2", exp2k, exp2f}, {"log2", log2k, log2f}} {
			checkLanes(t, k.name, k.run, &a, lane, k.f)
		}
		lane = 0
	}
	for b := uint64(0); b <= 0xFFFFFFFF; b += step {
		if n++; n%every == 0 {
			a[lane] = special[n%len(special)]
			if lane++; lane == Lanes {
				flush()
			}
		}
		a[lane] = uint32(b)
		if lane++; lane == Lanes {
			flush()
		}
	}
	flush()
}

// laneResult and laneChecks are checkLanes' (the tests that sweep lanes
// do not run in parallel).
var (
	laneResult [Lanes]uint32
	laneChecks int
)

// checkLanes runs k over a and compares its first n lanes with f's bits,
// NaNs canonical.
//
// Its result block is one kept for the sweeps (a kernel called through a
// func value makes a block on the stack escape: 256 bytes a call), and it
// yields now and then: under WebAssembly (one thread, no preemption) Go's
// background mark worker runs only when the running goroutine yields, and
// a sweep of a few million blocks that never did grew the heap to 4 GiB
// and died (CI's test-wasm, 2026-11-29).
func checkLanes(t *testing.T, name string, k kernel, a *[Lanes]uint32, n int, f func(float32) float32) {
	t.Helper()
	r := &laneResult
	*r = [Lanes]uint32{} // a lane the kernel did not write reads 0, as in a new block
	if laneChecks++; laneChecks%4096 == 0 {
		runtime.Gosched()
	}
	k(r, a, nil, nil)
	for i := range n {
		want := math.Float32bits(f(math.Float32frombits(a[i])))
		if want&0x7FFFFFFF > 0x7F800000 {
			want = canonNaN
		}
		if r[i] != want {
			t.Fatalf("%s(%#08x) = %#08x, want %#08x", name, a[i], r[i], want)
		}
	}
}
