package gpu

import "d3dsim/gpu/isa"

// The varyings a draw carries. A vertex (cvert, svert) has room for
// isa.MaxVaryings registers of attributes, the 32 of Direct3D 11
// (D3D11_VS_OUTPUT_REGISTER_COUNT), but a draw's vertices carry only the
// registers its programs write or its pixel program reads (progState.nattr
// attributes, four a register): the vertex, geometry and domain stages
// write those, zeros past a program's outputs, and the clipper, the
// viewport transform and the rasterizer copy and interpolate those only,
// so that a draw of two varyings costs what it did when the GPU had eight,
// not what thirty-two would. Attributes past nattr hold whatever an
// earlier draw left there and are never read.

// setAttrs sets nattr for the draw's programs (prepareProgram).
func (ps *progState) setAttrs() {
	n := max(ps.vs.prog.Outputs, ps.psIn) // (psIn of an earlier draw with no pixel program: it only errs high)
	if ps.gs != nil {
		n = max(n, ps.gs.prog.Outputs)
	}
	if ps.ds != nil {
		n = max(n, ps.ds.prog.Outputs)
	}
	ps.nattr = 4 * min(n, isa.MaxVaryings)
}

// copyCvert copies the position and the first n attributes of src.
func copyCvert(dst, src *cvert, n int) {
	dst.p = src.p
	copy(dst.a[:n], src.a[:n])
}

// zeroCvert zeroes the position and the first n attributes of v.
func zeroCvert(v *cvert, n int) {
	v.p = [4]float64{}
	clear(v.a[:n])
}

// copySvert copies the screen position and the first n attributes of src.
func copySvert(dst, src *svert, n int) {
	dst.x, dst.y, dst.z, dst.w = src.x, src.y, src.z, src.w
	copy(dst.a[:n], src.a[:n])
}

// attrReg is register r of a vertex as the program that made it wrote it:
// the position register (pos) from p, the others from the attributes,
// zeros past the draw's n attributes (the geometry and hull programs'
// inputs).
func attrReg(cv *cvert, r, pos, n int) [4]float64 {
	switch {
	case r == pos:
		return cv.p
	case 4*r+4 <= n:
		return [4]float64(cv.a[4*r : 4*r+4])
	}
	return [4]float64{}
}
