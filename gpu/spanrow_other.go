//go:build !amd64

package gpu

// spanColorRows is spanColor's rows in SIMD where there is an assembly
// form (spanrow_amd64.go); elsewhere spanColor's own loops draw them.
func (t *tri) spanColorRows(words []uint32, wpitch int, rows []rowSpan, ch *[4]uint8, bgra bool) bool {
	return false
}
