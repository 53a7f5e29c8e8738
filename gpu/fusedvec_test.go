package gpu

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"d3dsim/gpu/shader"
)

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
