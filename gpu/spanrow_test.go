package gpu

import "testing"

// The Gouraud rows' Go loops, which WebAssembly and every platform without
// an assembly form run (spanrow_amd64.go draws them in SIMD), against the
// slow reference rasterizer, natively.
func TestRasterMatchesReferenceGoRows(t *testing.T) {
	defer func() { simdRows = true }()
	simdRows = false
	n := 600
	if testing.Short() {
		n /= 10
	}
	rasterMatchesReference(t, 48, 40, n)
}
