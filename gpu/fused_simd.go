//go:build goexperiment.simd && amd64

package gpu

import (
	"simd/archsimd"
	"unsafe"
)

// The fused texture × colour block's rows eight pixels a pass, when Go is
// built with GOEXPERIMENT=simd on amd64 and the processor has AVX2: a row
// of the block is eight float32 lanes. The scalar rows' operations in their
// order, each lane rounded as the scalar expression rounds it — the filter
// down the columns top + (bot-top)*fy (VSUBPS, VMULPS, VADDPS: no fused
// multiply-add), the factor in float64 (VADDPD, and VMULPD for the weights'
// products) converted by VCVTPD2PS, the float32 product, and unormW's
// ranges as unormWordsVec takes them — so the same words. NaNs need no
// canonical form: unormW makes every NaN 0. Only rows whose eight lanes all
// run go this way (a whole row is one store); the scalar loop draws the
// others.

// fusedCh is one channel of a row: the filter down the columns between
// texture rows t and b at v's fraction fy, times the factor f, as unorm8.
func fusedCh(u *unormWx, t, b *[8]float32, fy, f archsimd.Float32x8) archsimd.Int32x8 {
	tv := archsimd.LoadFloat32x8(t)
	return u.ch(tv.Add(archsimd.LoadFloat32x8(b).Sub(tv).Mul(fy)).Mul(f).AsUint32x8())
}

// sepRowsVec is sepRows for the rows of mask whose eight lanes all run; it
// returns those rows, a bit each.
func (fz *fusedBlock) sepRowsVec(words []uint32, wp int, mask uint64, sw *[4]uint8, cc, cr *[4][8]float64) (done uint8) {
	if !spanVec {
		return 0
	}
	u := newUnormWx()
	for y := range 8 {
		if rowBits(mask, y) != 0xFF {
			continue
		}
		top, bot := &fz.rv[fz.top[y]], &fz.rv[fz.bot[y]]
		fy := archsimd.BroadcastFloat32x8(fz.fys[y])
		var w archsimd.Int32x8
		for k, s := range sw {
			r := archsimd.BroadcastFloat64x4(cr[k][y])
			f := lanes8(archsimd.LoadFloat64x4((*[4]float64)(cc[k][0:4])).Add(r), archsimd.LoadFloat64x4((*[4]float64)(cc[k][4:8])).Add(r))
			w = w.Or(fusedCh(&u, &top[s], &bot[s], fy, f).ShiftAllLeft(uint64(8 * k)))
		}
		w.Store((*[8]int32)(unsafe.Pointer(&words[y*wp : y*wp+8][0])))
		done |= 1 << y
	}
	archsimd.ClearAVXUpperBits()
	return done
}

// laneRowsVec is laneRows for the rows of mask whose eight lanes all run:
// the factor a0 + w1*d1 + w2*d2 from the lanes' weights (w1 the row's first
// lane's when the edge opposite vertex 1 is horizontal, as laneRows takes
// it once for the row); it returns those rows, a bit each. A row's lanes
// are four pairs in the block's quad order (shader.QuadLane): 0, 1, 4, 5,
// 8, 9, 12, 13 from the row's first.
func (fz *fusedBlock) laneRowsVec(blk *psBlock, t *tri, words []uint32, wp int, mask uint64, sw *[4]uint8, kc *[4]int) (done uint8) {
	if !spanVec {
		return 0
	}
	u := newUnormWx()
	flat := t.e[1].a == 0
	pairs := func(b *[64]float64, l int) (lo, hi archsimd.Float64x4) {
		p := func(i int) archsimd.Float64x2 { return archsimd.LoadFloat64x2((*[2]float64)(b[l+i : l+i+2])) }
		return lo.SetLo(p(0)).SetHi(p(4)), hi.SetLo(p(8)).SetHi(p(12))
	}
	for y := range 8 {
		if rowBits(mask, y) != 0xFF {
			continue
		}
		l := (y>>1)*16 + (y&1)*2
		w2lo, w2hi := pairs(&blk.b2, l)
		var w1lo, w1hi archsimd.Float64x4
		if flat {
			w1lo = archsimd.BroadcastFloat64x4(blk.b1[l])
			w1hi = w1lo
		} else {
			w1lo, w1hi = pairs(&blk.b1, l)
		}
		top, bot := &fz.rv[fz.top[y]], &fz.rv[fz.bot[y]]
		fy := archsimd.BroadcastFloat32x8(fz.fys[y])
		var w archsimd.Int32x8
		for k, s := range sw {
			a := kc[k]
			a0, d1, d2 := archsimd.BroadcastFloat64x4(t.a0[a]), archsimd.BroadcastFloat64x4(t.d1[a]), archsimd.BroadcastFloat64x4(t.d2[a])
			f := lanes8(a0.Add(w1lo.Mul(d1)).Add(w2lo.Mul(d2)), a0.Add(w1hi.Mul(d1)).Add(w2hi.Mul(d2)))
			w = w.Or(fusedCh(&u, &top[s], &bot[s], fy, f).ShiftAllLeft(uint64(8 * k)))
		}
		w.Store((*[8]int32)(unsafe.Pointer(&words[y*wp : y*wp+8][0])))
		done |= 1 << y
	}
	archsimd.ClearAVXUpperBits()
	return done
}
