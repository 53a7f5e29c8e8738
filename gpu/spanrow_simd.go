//go:build goexperiment.simd && amd64

package gpu

import (
	"simd/archsimd"
	"unsafe"
)

// spanRowVec is spanRow four pixels at a time, when Go is built with
// GOEXPERIMENT=simd on amd64 and the processor has AVX: the same operations
// in the same order, each lane rounded as the scalar instruction rounds it —
// VMULPD and VADDPD for the weights and a0 + b1*d1 + b2*d2 (no fused
// multiply-add), VCVTPD2PS for the float32, VMULPS by 255 and VADDPS of 0.5
// in float32, VCVTTPS2DQ for the truncation — so the same bytes. The lanes'
// edge values are exact integers below 2^52 (raster.go's bound, four pixels
// past the row's end included), so stepping them by 4*s is exact too. It
// draws out[:n] for n a multiple of four and returns n; spanRow draws the
// rest and carries on from f1 + n*fs1, which is exact for the same reason.
func spanRowVec(out []uint32, f1, f2, fs1, fs2, inv float64, a0, d1, d2 *[3]float64, alpha uint32) int {
	n := len(out) &^ 3
	if !spanVec || n == 0 {
		return 0
	}
	w1 := archsimd.LoadFloat64x4(&[4]float64{f1, f1 + fs1, f1 + 2*fs1, f1 + 3*fs1})
	w2 := archsimd.LoadFloat64x4(&[4]float64{f2, f2 + fs2, f2 + 2*fs2, f2 + 3*fs2})
	st1, st2 := archsimd.BroadcastFloat64x4(4*fs1), archsimd.BroadcastFloat64x4(4*fs2)
	vinv := archsimd.BroadcastFloat64x4(inv)
	k255, half := archsimd.BroadcastFloat32x4(255), archsimd.BroadcastFloat32x4(0.5)
	va := archsimd.BroadcastInt32x4(int32(alpha))
	r0, g0, c0 := archsimd.BroadcastFloat64x4(a0[0]), archsimd.BroadcastFloat64x4(a0[1]), archsimd.BroadcastFloat64x4(a0[2])
	r1, g1, c1 := archsimd.BroadcastFloat64x4(d1[0]), archsimd.BroadcastFloat64x4(d1[1]), archsimd.BroadcastFloat64x4(d1[2])
	r2, g2, c2 := archsimd.BroadcastFloat64x4(d2[0]), archsimd.BroadcastFloat64x4(d2[1]), archsimd.BroadcastFloat64x4(d2[2])
	for i := 0; i < n; i += 4 {
		b1, b2 := w1.Mul(vinv), w2.Mul(vinv)
		r := r0.Add(b1.Mul(r1)).Add(b2.Mul(r2)).ConvertToFloat32().Mul(k255).Add(half).ConvertToInt32()
		g := g0.Add(b1.Mul(g1)).Add(b2.Mul(g2)).ConvertToFloat32().Mul(k255).Add(half).ConvertToInt32()
		c := c0.Add(b1.Mul(c1)).Add(b2.Mul(c2)).ConvertToFloat32().Mul(k255).Add(half).ConvertToInt32()
		x := r.Or(va).Or(g.ShiftAllLeft(8)).Or(c.ShiftAllLeft(16))
		x.Store((*[4]int32)(unsafe.Pointer(&out[i])))
		w1, w2 = w1.Add(st1), w2.Add(st2)
	}
	return n
}

// spanVec: the processor runs spanRowVec's instructions (AVX).
var spanVec = archsimd.X86.AVX()
