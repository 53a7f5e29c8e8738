//go:build !(goexperiment.simd && amd64)

package gpu

import "testing"

// TestVectorRowsSaysTheBuild: without GOEXPERIMENT=simd on amd64 nothing
// runs vector rows, and d3dsim bench must not say it does.
func TestVectorRowsSaysTheBuild(t *testing.T) {
	if VectorRows() {
		t.Error("VectorRows() = true in a build without vector rows")
	}
}
