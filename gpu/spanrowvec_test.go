package gpu

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"d3dsim/gpu/shader"
)

// TestSpanRowVecSameBytes: spanRow, spanRowB1, spanRowB2 and colSpan, whose
// first len&^3 pixels go four at a time when Go is built with
// GOEXPERIMENT=simd (spanrow_simd.go), write
// the bytes of the pixel stage's arithmetic done one pixel at a time with
// the edge values as int64 (the form spanRow had before): bit for bit, on
// rows of every length mod 4, both signs of step, planes of both signs.
// Without the experiment spanRow is the scalar loop alone and the test is
// skipped (the other raster tests hold it).
func TestSpanRowVecSameBytes(t *testing.T) {
	if !spanVec {
		t.Skip("spanRowVec needs GOEXPERIMENT=simd on amd64 with AVX2")
	}
	rng := rand.New(rand.NewPCG(7, 32))
	want := func(out []uint32, w1, w2, s1, s2 int64, inv float64, a0, d1, d2 *[3]float64, alpha uint32) {
		for i := range out {
			b1, b2 := float64(w1)*inv, float64(w2)*inv
			x := unormIn(float32(a0[0]+float64(b1*d1[0])+float64(b2*d2[0]))) | alpha
			x |= unormIn(float32(a0[1]+float64(b1*d1[1])+float64(b2*d2[1]))) << 8
			x |= unormIn(float32(a0[2]+float64(b1*d1[2])+float64(b2*d2[2]))) << 16
			out[i] = x
			w1 += s1
			w2 += s2
		}
	}
	// thresholds[k]: the least float64 whose unorm8 (through float32,
	// as the pixel stage has it) is k, by bisection on the bits.
	var thresholds [256]float64
	for k := 1; k < 256; k++ {
		lo, hi := uint64(0), math.Float64bits(1.0)
		for lo < hi {
			mid := lo + (hi-lo)/2
			if unormIn(float32(math.Float64frombits(mid))) >= uint32(k) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		thresholds[k] = math.Float64frombits(lo)
	}
	got, ref := make([]uint32, 80), make([]uint32, 80)
	for trial := range 20000 {
		n := rng.IntN(len(got) + 1)
		// A triangle of area A (in edge units): weights w/A in [0, 1]
		// along the row, so the colour stays in [0, 1].
		area := rng.Int64N(1<<44) + 1<<20
		at := func() (int64, int64) {
			w0, w9 := rng.Int64N(area/2+1), rng.Int64N(area/2+1)
			if n == 0 {
				return w0, 0
			}
			return w0, (w9 - w0) / int64(n)
		}
		w1, s1 := at()
		w2, s2 := at()
		var a0, d1, d2 [3]float64
		for c := range 3 {
			v0, v1, v2 := rng.Float64(), rng.Float64(), rng.Float64()
			a0[c], d1[c], d2[c] = v0, v1-v0, v2-v0
			if trial%2 == 1 {
				// At a threshold of unorm8, give or take a few ulps
				// along the row: where a rounding done otherwise
				// shows in the byte.
				a0[c] = thresholds[1+rng.IntN(255)] + float64(rng.IntN(9)-4)*0x1p-53
				d1[c], d2[c] = float64(rng.IntN(9)-4)*0x1p-52, float64(rng.IntN(9)-4)*0x1p-52
			}
		}
		alpha := uint32(rng.IntN(256)) << 24
		inv := 1 / float64(area)
		spanRow(got[:n], w1, w2, s1, s2, inv, &a0, &d1, &d2, alpha)
		want(ref[:n], w1, w2, s1, s2, inv, &a0, &d1, &d2, alpha)
		check := func(row string) {
			t.Helper()
			for i := range n {
				if got[i] != ref[i] {
					t.Fatalf("%s, trial %d, pixel %d of %d: %08x, want %08x (w %d %d, s %d %d)", row, trial, i, n, got[i], ref[i], w1, w2, s1, s2)
				}
			}
		}
		check("spanRow")
		// b1 constant along the row (spanRowB1: p = a0 + b1*d1).
		b1 := float64(w1) * inv
		p := [3]float64{a0[0] + float64(b1*d1[0]), a0[1] + float64(b1*d1[1]), a0[2] + float64(b1*d1[2])}
		spanRowB1(got[:n], w2, s2, inv, p[0], p[1], p[2], d2[0], d2[1], d2[2], alpha)
		want(ref[:n], w1, w2, 0, s2, inv, &a0, &d1, &d2, alpha)
		check("spanRowB1")
		// b2 constant (spanRowB2: k = b2*d2).
		b2 := float64(w2) * inv
		k := [3]float64{float64(b2 * d2[0]), float64(b2 * d2[1]), float64(b2 * d2[2])}
		spanRowB2(got[:n], w1, s1, inv, &a0, &d1, &k, alpha)
		want(ref[:n], w1, w2, s1, 0, inv, &a0, &d1, &d2, alpha)
		check("spanRowB2")
		// Column terms plus a row term (colSpan): the b2 terms per
		// column, a0 + b1*d1 for the row.
		var cols [3][80]float64
		for i := range n {
			b := float64(w2+int64(i)*s2) * inv
			cols[0][i], cols[1][i], cols[2][i] = float64(b*d2[0]), float64(b*d2[1]), float64(b*d2[2])
		}
		colSpan(got[:n], cols[0][:], cols[1][:], cols[2][:], p[0], p[1], p[2], alpha)
		want(ref[:n], w1, w2, 0, s2, inv, &a0, &d1, &d2, alpha)
		check("colSpan")
	}
}

// TestInterpVecSameBits: the pixel stage's interpolation of a component
// over a block whose weights go per lane, eight lanes a pass with
// GOEXPERIMENT=simd (interpVec), gives runBlock's scalar bits: random weights and planes, with infinities,
// NaNs, huge values and zeros of both signs among them.
func TestInterpVecSameBits(t *testing.T) {
	if !spanVec {
		t.Skip("interpVec needs GOEXPERIMENT=simd on amd64 with AVX2")
	}
	rng := rand.New(rand.NewPCG(11, 29))
	odd := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, 0.5}
	val := func() float64 {
		switch rng.IntN(5) {
		case 0:
			return odd[rng.IntN(len(odd))]
		case 1:
			return rng.NormFloat64() * 1e6
		}
		return rng.Float64()*2 - 0.5
	}
	var b1, b2 [64]float64
	var got, want [64]uint32
	hasNaN := func(v *[64]uint32) bool {
		for _, x := range v {
			if x&0x7FFFFFFF > 0x7F800000 {
				return true
			}
		}
		return false
	}
	drawn := 0
	for round := range 4000 {
		oddOnes := round%8 == 0 // else no odd value: mostly no NaN lane
		v := func() float64 {
			if x := val(); oddOnes || !math.IsNaN(x) && !math.IsInf(x, 0) && math.Abs(x) < 1e200 {
				return x
			}
			return 0.25
		}
		a0, d1, d2 := v(), v(), v()
		for l := range b1 {
			b1[l], b2[l] = v(), v()
		}
		if round%3 == 1 {
			// Cancellation: a0 + b1*d1 is small and b2*d2 survives
			// only in this order of the sums.
			a0, d1, d2 = 1e18, -1e18, 1
			for l := range b1 {
				b1[l] = 1 + float64(rng.IntN(4))/(1<<52)
			}
		}
		for l := range want {
			want[l] = math.Float32bits(float32(a0 + float64(b1[l]*d1) + float64(b2[l]*d2)))
		}
		// A NaN lane: the vector loop declines (the scalar one fills
		// the block); else it draws the scalar bits.
		if ok := interpVec(&got, a0, d1, d2, &b1, &b2); ok == hasNaN(&want) {
			t.Fatalf("interpVec returned %v with NaN lanes %v", ok, hasNaN(&want))
		} else if ok {
			drawn++
			if got != want {
				t.Fatalf("interpVec: %x, want %x (a0 %v d1 %v d2 %v)", got, want, a0, d1, d2)
			}
		}
	}
	if drawn < 3000 {
		t.Errorf("interpVec drew %d blocks of 4000", drawn)
	}
}

// TestUnormWordsVecSameBits: the word path of a whole block eight lanes a
// pass (GOEXPERIMENT=simd) writes unormW's words: floats in (0, 1), at
// and around 0, 1 and the rounding edges, negatives, infinities, NaNs,
// denormals, both byte orders.
func TestUnormWordsVecSameBits(t *testing.T) {
	if !spanVec {
		t.Skip("unormWordsVec needs GOEXPERIMENT=simd on amd64 with AVX2")
	}
	rng := rand.New(rand.NewPCG(3, 1))
	odd := []uint32{0, 0x80000000, 1, 0x80000001, 0x3F7FFFFF, 0x3F800000, 0x3F800001, 0x7F800000, 0xFF800000,
		0x7F800001, 0x7FC00000, 0xFFC00000, 0x3B808081, 0x3B808080, 0x3F7F7F7F, 0xBF800000, 0x7F7FFFFF}
	var o shader.Vec
	var off [shader.Lanes]int
	for l := range off {
		off[l] = 3 * l
	}
	got, want := make([]uint32, 3*shader.Lanes), make([]uint32, 3*shader.Lanes)
	for round := range 3000 {
		for c := range 4 {
			for l := range o[c] {
				switch rng.IntN(4) {
				case 0:
					o[c][l] = odd[rng.IntN(len(odd))]
				case 1:
					o[c][l] = rng.Uint32()
				default:
					o[c][l] = math.Float32bits(rng.Float32())
				}
			}
		}
		rs, bs := uint64(0), uint64(16)
		if round%2 == 1 {
			rs, bs = 16, 0
		}
		for l := range off {
			want[off[l]] = unormW(o[0][l])<<rs | unormW(o[1][l])<<8 | unormW(o[2][l])<<bs | unormW(o[3][l])<<24
		}
		if !unormWordsVec(got, &off, &o, rs, bs) {
			t.Fatal("unormWordsVec wrote nothing")
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("word %d: %#08x, want %#08x", i, got[i], want[i])
			}
		}
	}
}

// TestFusedRowsVecSameBits: the fused block's rows eight lanes a pass
// (sepRowsVec, laneRowsVec: GOEXPERIMENT=simd, fused_simd.go) write the
// words of the scalar rows (sepRowsScalar, laneRowsScalar with no row
// done), bit for bit, on random texture rows, fractions and factors with
// special values (NaN, infinities, denormals, -0, values at unorm8's
// thresholds), any swizzle, partial masks, both forms of the lane weights.
// Without the experiment no row goes the vector way and the test is skipped
// (TestFusedMatchesProgram holds the scalar rows).
func TestFusedRowsVecSameBits(t *testing.T) {
	if !spanVec {
		t.Skip("the fused rows' vector code needs GOEXPERIMENT=simd on amd64 with AVX2")
	}
	rng := rand.New(rand.NewPCG(32, 2))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, 0x1p-140, -0x1p-149,
		math.Float64frombits(0x7FF8000000000123), 1.0000001, 0.99999994, 3e38, -3e38}
	val := func() float64 {
		switch rng.IntN(10) {
		case 0:
			return special[rng.IntN(len(special))]
		case 1:
			// At a threshold of unorm8, give or take a few ulps.
			return (float64(rng.IntN(256)) + 0.5) / 255 * (1 + float64(rng.IntN(9)-4)*0x1p-24)
		case 2:
			return rng.Float64()*4 - 2
		}
		return rng.Float64()
	}
	const wp = 11 // a pitch wider than the block
	got, want := make([]uint32, 8*wp), make([]uint32, 8*wp)
	var fz fusedBlock
	var blk psBlock
	var tr tri
	tr.a0, tr.d1, tr.d2 = make([]float64, 16), make([]float64, 16), make([]float64, 16)
	var rows [2]int // rows drawn by the vector code: separable, per lane
	for trial := range 4000 {
		for i := range fz.rv {
			for k := range 4 {
				for x := range 8 {
					fz.rv[i][k][x] = float32(val())
				}
			}
		}
		for y := range 8 {
			fz.top[y], fz.bot[y] = uint8(rng.IntN(16)), uint8(rng.IntN(16))
			fz.fys[y] = float32(val())
		}
		mask := shader.AllLanes
		if rng.IntN(3) == 0 {
			mask = rng.Uint64() | rng.Uint64()
		}
		var sw [4]uint8
		for k := range sw {
			sw[k] = uint8(rng.IntN(4))
		}
		for i := range got {
			got[i] = rng.Uint32()
			want[i] = got[i]
		}
		var done uint8
		if trial%2 == 0 {
			var cc, cr [4][8]float64
			for k := range 4 {
				for x := range 8 {
					cc[k][x], cr[k][x] = val(), val()
				}
			}
			done = fz.sepRowsVec(got, wp, mask, &sw, &cc, &cr)
			fz.sepRowsScalar(got, wp, mask, done, &sw, &cc, &cr)
			fz.sepRowsScalar(want, wp, mask, 0, &sw, &cc, &cr)
		} else {
			for l := range shader.Lanes {
				blk.b1[l], blk.b2[l] = val(), val()
			}
			for a := range tr.a0 {
				tr.a0[a], tr.d1[a], tr.d2[a] = val(), val(), val()
			}
			tr.e[1].a = int64(rng.IntN(2))
			var kc [4]int
			for k := range kc {
				kc[k] = rng.IntN(16)
			}
			done = fz.laneRowsVec(&blk, &tr, got, wp, mask, &sw, &kc)
			fz.laneRowsScalar(&blk, &tr, got, wp, mask, done, &sw, &kc)
			fz.laneRowsScalar(&blk, &tr, want, wp, mask, 0, &sw, &kc)
		}
		for y := range 8 {
			if full := rowBits(mask, y) == 0xFF; full != (done>>y&1 != 0) {
				t.Fatalf("trial %d: row %d (full %v) done %08b", trial, y, full, done)
			}
		}
		rows[trial%2] += bits.OnesCount8(done)
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("trial %d: word %d (row %d, column %d) is %08x, the scalar rows' %08x", trial, i, i/wp, i%wp, got[i], want[i])
			}
		}
	}
	if rows[0] < 1000 || rows[1] < 1000 {
		t.Fatalf("the vector rows ran %d (separable) and %d (per lane) times", rows[0], rows[1])
	}
}
