//go:build !(goexperiment.simd && amd64)

package shader

import . "d3dsim/gpu/shaderisa"

// Without GOEXPERIMENT=simd on amd64 (see kernels_simd.go) the scalar
// kernels run every lane: vecOK is false, and these are never called.
const vecOK = false

// selfCanon marks the canonical ops whose kernel stores canonical NaNs:
// none of the scalar ones.
var selfCanon [NumOps]bool

func vecDone()                                                          {}
func mergeVec(d, r *[Lanes]uint32, i int, g uint8)                      {}
func modVec(d, a *[Lanes]uint32, clr, flip uint32)                      {}
func fillVec(d *[Lanes]uint32, v uint32)                                {}
func canonVec(r *[Lanes]uint32)                                         {}
func saturateVec(r *[Lanes]uint32)                                      {}
func dotVec(n int, r *[Lanes]uint32, a, b *[4]*[Lanes]uint32, sat bool) {}
func vecFold(x *xinst)                                                  {}
func nonzeroVec(v *[Lanes]uint32) uint64                                { return 0 }
