//go:build goexperiment.simd && amd64

package shader

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sync"
	"testing"

	. "d3dsim/gpu/shaderisa"
)

// vecSpecial are the inputs each vector kernel meets beside random ones:
// NaNs (quiet, signalling, negative), infinities, zeros of both signs,
// denormals, the edges of exp2's and log2's series and of saturate, and
// integers at their edges.
var vecSpecial = []uint32{
	0x7FC00000, 0x7FA00001, 0xFFC00000, 0xFFFFFFFF, 0x7F800001,
	0x7F800000, 0xFF800000, 0, 0x80000000,
	1, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00800000, 0x80800000,
	0x3F800000, 0xBF800000, 0x3F7FFFFF, 0x3F800001, 0x3F000000, 0x3FB504F3, 0x3FB504F4,
	0x43000000, 0x42FF0000, 0x42FFFFFF, 0xC3170000, 0xC3168000, 0xC3160000, 0xC3180000,
	0x4B000000, 0x4B7FFFFF, 0xCB000001, 0x7F7FFFFF, 0xFF7FFFFF,
	0x7FFFFFFF, 0x80000000, 8, 7, 0xFFFFFFF8,
}

// vecInput fills v with random float bits, floats of ordinary sizes,
// small integers and specials.
func vecInput(r *rand.Rand, v *[Lanes]uint32) {
	for i := range v {
		switch r.IntN(6) {
		case 0:
			v[i] = r.Uint32()
		case 1:
			v[i] = math.Float32bits(float32(r.NormFloat64() * 100))
		case 2:
			v[i] = math.Float32bits(r.Float32())
		case 3:
			v[i] = uint32(r.IntN(33) - 16)
		default:
			v[i] = vecSpecial[r.IntN(len(vecSpecial))]
		}
	}
}

// TestVectorKernels: every vector kernel, and the vector canon, saturate,
// dot and test, give the scalar one's bits on random and special inputs.
func TestVectorKernels(t *testing.T) {
	if !vecOK {
		t.Skip("no AVX2")
	}
	rounds := 3000
	if testing.Short() {
		rounds = 600
	}
	rng := rand.New(rand.NewPCG(32, 29))
	var a, b, c [Lanes]uint32
	var want, got [Lanes]uint32
	n := 0
	for op := range Op(NumOps) {
		vk := vecKernels[op]
		if vk == nil {
			continue
		}
		n++
		sk := scalarKernels[op]
		for range rounds {
			vecInput(rng, &a)
			vecInput(rng, &b)
			vecInput(rng, &c)
			sk(&want, &a, &b, &c)
			if canonical[op] {
				canonScalar(&want)
			}
			vk(&got, &a, &b, &c)
			if canonical[op] && !selfCanon[op] {
				canon(&got)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s lane %d: %#08x %#08x %#08x: vector %#08x, scalar %#08x", op, i, a[i], b[i], c[i], got[i], want[i])
				}
			}
			// In place: the destination one of the sources.
			got = a
			vk(&got, &got, &b, &c)
			if canonical[op] && !selfCanon[op] {
				canon(&got)
			}
			if got != want {
				t.Fatalf("%s in place differs from the scalar kernel", op)
			}
		}
	}
	if n < 30 {
		t.Errorf("%d vector kernels, want at least 30", n)
	}
	for range rounds {
		vecInput(rng, &a)
		want, got = a, a
		canonScalar(&want)
		canonVec(&got)
		if got != want {
			t.Fatalf("canon: vector %x, scalar %x (in %x)", got, want, a)
		}
		want, got = a, a
		saturateScalar(&want)
		saturateVec(&got)
		if got != want {
			t.Fatalf("saturate: vector %x, scalar %x (in %x)", got, want, a)
		}
		for _, m := range [][2]uint32{{0, 1 << 31}, {1 << 31, 0}, {1 << 31, 1 << 31}} {
			for i := range a {
				want[i] = a[i]&^m[0] ^ m[1]
			}
			modVec(&got, &a, m[0], m[1])
			if got != want {
				t.Fatalf("modVec %x: %x, want %x", m, got, want)
			}
		}
		// mergeLanes with partial groups blends eight lanes at a time.
		mask := rng.Uint64() & rng.Uint64()
		if rng.IntN(2) == 0 {
			mask |= 0xFF << (8 * rng.IntN(8))
		}
		vecInput(rng, &b)
		want, got = b, b
		for i := range a {
			if mask>>i&1 != 0 {
				want[i] = a[i]
			}
		}
		mergeLanes(&got, &a, mask)
		if got != want {
			t.Fatalf("mergeLanes %#x: %x, want %x", mask, got, want)
		}
		var nz uint64
		for i := range a {
			if a[i] != 0 {
				nz |= 1 << i
			}
		}
		if g := nonzeroVec(&a); g != nz {
			t.Fatalf("nonzero: vector %#x, scalar %#x", g, nz)
		}
		var va, vb Vec
		for k := range 4 {
			vecInput(rng, &va[k])
			vecInput(rng, &vb[k])
		}
		pa := [4]*[Lanes]uint32{&va[0], &va[1], &va[2], &va[3]}
		pb := [4]*[Lanes]uint32{&vb[0], &vb[1], &vb[2], &vb[3]}
		for dn := 2; dn <= 4; dn++ {
			dotSum(dn, &want, &pa, &pb)
			canonScalar(&want)
			dotVec(dn, &got, &pa, &pb, false)
			if got != want {
				t.Fatalf("dp%d: vector %x, scalar %x", dn, got, want)
			}
			saturateScalar(&want)
			dotVec(dn, &got, &pa, &pb, true)
			if got != want {
				t.Fatalf("dp%d_sat: vector %x, scalar %x", dn, got, want)
			}
		}
	}
}

// TestVectorTranscendentals: vExp2 and vLog2 against exp2f and log2f on
// every 61st float (every 9973rd with -short), specials mixed in.
func TestVectorTranscendentals(t *testing.T) {
	if !vecOK {
		t.Skip("no AVX2")
	}
	sweepTranscendentals(t, vExp2, vLog2, vecSpecial, 97)
}

// TestVectorTranscendentalsEvery: vExp2, vLog2, vRsq and vSqrt against the
// scalar kernels (the default build's and WebAssembly's) on every float32
// bit pattern, 64 consecutive patterns a block, the blocks shared among the
// processors (with -short every 997th block). The float64 series and square
// roots are the same IEEE operations in the same order lane by lane, so the
// bits must agree everywhere; this shows it rather than argues it.
func TestVectorTranscendentalsEvery(t *testing.T) {
	if !vecOK {
		t.Skip("no AVX2")
	}
	stride := uint64(1)
	if testing.Short() {
		stride = 997
	}
	ops := []Op{OpExp2, OpLog2, OpRsq, OpSqrt}
	const blocks = 1 << 32 / Lanes
	workers := runtime.GOMAXPROCS(0)
	errs := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var a, got, want [Lanes]uint32
			for blk := uint64(w) * stride; blk < blocks; blk += uint64(workers) * stride {
				for l := range a {
					a[l] = uint32(blk*Lanes) + uint32(l)
				}
				for _, op := range ops {
					scalarKernels[op](&want, &a, nil, nil)
					canonScalar(&want)
					// No canonical pass: these kernels store
					// canonical NaNs themselves, as the scalar ones.
					vecKernels[op](&got, &a, nil, nil)
					if got == want {
						continue
					}
					for l := range a {
						if got[l] != want[l] {
							errs[w] = fmt.Sprintf("%s(%#08x) = %#08x, the scalar kernel %#08x", op, a[l], got[l], want[l])
							return
						}
					}
				}
			}
		})
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

// TestVecFold: the kernels that take a modifier or saturate (vecFold)
// against the scalar kernels given the modified source and saturate's
// pass, on random blocks; and vecFold gives them to Phong's instructions.
func TestVecFold(t *testing.T) {
	if !vecOK {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(7, 32))
	for range 2000 {
		var a, b, c, na, aa, got, want [Lanes]uint32
		vecInput(rng, &a)
		vecInput(rng, &b)
		vecInput(rng, &c)
		for i := range a {
			na[i], aa[i] = a[i]^1<<31, a[i]&^(1<<31)
		}
		for _, k := range []struct {
			name   string
			vec    kernel
			src    *[Lanes]uint32
			scalar kernel
			sat    bool
		}{
			{"mad_sat", vMadSat, &a, scalarKernels[OpMad], true},
			{"mad -a", vMadNeg, &na, scalarKernels[OpMad], false},
			{"mad_sat -a", vMadNegSat, &na, scalarKernels[OpMad], true},
			{"log2 |a|", vLog2Abs, &aa, scalarKernels[OpLog2], false},
		} {
			k.scalar(&want, k.src, &b, &c)
			canonScalar(&want)
			if k.sat {
				saturateScalar(&want)
			}
			k.vec(&got, &a, &b, &c)
			if got != want {
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("%s(%#08x, %#08x, %#08x) = %#08x, the scalar kernels %#08x", k.name, a[i], b[i], c[i], got[i], want[i])
					}
				}
			}
		}
	}
	p, err := Assemble(`ps inputs=2 outputs=1 temps=3
mad_sat r0.x, -v1.x, v1.y, -l(0.5, 0.5, 0.5, 0.5).x
log2 r1.x, |r0.x|
mad r2.x, -r1.x, v1.z, v1.w
mad_sat r2.y, r1.x, v1.z, v1.w
mad r2.z, r1.x, v1.z, -v1.w
mov o0, r2
ret`)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMachine(p)
	want := []string{"vMadNegSat", "vLog2Abs", "vMadNeg", "vMadSat", ""}
	for pc, w := range want {
		x := &m.code[pc]
		got := ""
		for _, k := range []struct {
			name string
			k    kernel
		}{{"vMadNegSat", vMadNegSat}, {"vLog2Abs", vLog2Abs}, {"vMadNeg", vMadNeg}, {"vMadSat", vMadSat}} {
			if reflect.ValueOf(x.kernel).Pointer() == reflect.ValueOf(k.k).Pointer() {
				got = k.name
			}
		}
		if got != w || (w != "" && (x.sat || !x.plain)) {
			t.Errorf("pc %d: kernel %q (sat %v, plain %v), want %q", pc, got, x.sat, x.plain, w)
		}
	}
}
