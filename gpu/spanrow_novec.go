//go:build !(goexperiment.simd && amd64)

package gpu

// spanRowVec draws no pixel without GOEXPERIMENT=simd on amd64 (see
// spanrow_simd.go): spanRow draws them all.
func spanRowVec(out []uint32, f1, f2, fs1, fs2, inv float64, a0, d1, d2 *[3]float64, alpha uint32) int {
	return 0
}

const spanVec = false
