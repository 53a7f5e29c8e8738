//go:build !(goexperiment.simd && amd64)

package gpu

import "d3dsim/gpu/shader"

// spanRowVec and the others draw no pixel without GOEXPERIMENT=simd on
// amd64 (see spanrow_simd.go): the scalar loops draw them all.
func spanRowVec(out []uint32, f1, f2, fs1, fs2, inv float64, a0, d1, d2 *[3]float64, alpha uint32) int {
	return 0
}

const spanVec = false

func spanRowB1Vec(out []uint32, f2, fs2, inv, pr, pg, pc, r2, g2, c2 float64, alpha uint32) int {
	return 0
}

func spanRowB2Vec(out []uint32, f1, fs1, inv float64, a0, d1, k *[3]float64, alpha uint32) int {
	return 0
}

func colSpanVec(out []uint32, cr, cg, cc []float64, kr, kg, kc float64, alpha uint32) int {
	return 0
}

func interpVec(out *[shader.Lanes]uint32, a0, d1, d2 float64, b1, b2 *[shader.Lanes]float64) bool {
	return false
}

func unormWordsVec(words []uint32, off *[shader.Lanes]int, o *shader.Vec, rs, bs uint64) bool {
	return false
}
