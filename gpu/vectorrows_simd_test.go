//go:build goexperiment.simd && amd64

package gpu

import (
	"simd/archsimd"
	"testing"
)

// TestVectorRowsSaysTheBuild: d3dsim bench labels its figures with
// VectorRows, so it must say what the build runs: here the vector rows and
// kernels wherever the processor has AVX2.
func TestVectorRowsSaysTheBuild(t *testing.T) {
	want := archsimd.X86.AVX() && archsimd.X86.AVX2()
	if got := VectorRows(); got != want {
		t.Errorf("VectorRows() = %v in a GOEXPERIMENT=simd build on a processor with AVX2 %v", got, want)
	}
}
