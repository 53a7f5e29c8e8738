//go:build !(goexperiment.simd && amd64)

package gpu

// sepRowsVec and laneRowsVec draw no row without GOEXPERIMENT=simd on amd64
// (see fused_simd.go): the scalar loops draw them all.
func (fz *fusedBlock) sepRowsVec(words []uint32, wp int, mask uint64, sw *[4]uint8, cc, cr *[4][8]float64) uint8 {
	return 0
}

func (fz *fusedBlock) laneRowsVec(blk *psBlock, t *tri, words []uint32, wp int, mask uint64, sw *[4]uint8, kc *[4]int) uint8 {
	return 0
}
