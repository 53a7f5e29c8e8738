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

// A set-up triangle's attribute planes (tri.a0, d1, d2) are out of line,
// as long as the draw's attributes: a batch of 4,096 triangles of two
// registers holds 0.8 MB of planes, where planes for 32 registers inside
// each triangle would make it 14 MB, for every draw. Each slot of a batch's
// buffer owns its planes (no other slot's, of this buffer or another,
// share them), so they go wherever the slot goes (handed to the tile
// workers with the buffer, copied when it grows) and a slot whose planes
// are long enough for the draw's attributes (drawScratch.planesNa) keeps
// them from draw to draw: next tests one capacity a triangle (it took a
// piece of a slab per batch and tested that the slot had it: 43
// instructions a triangle of tris).

// attachPlanes gives slot n of the batch's buffer, and the slots after it
// up to its capacity whose planes are too short (at most 256: one
// allocation for them), planes of planesNa attributes of their own.
func (d *drawScratch) attachPlanes(n int) {
	na := d.planesNa
	b := d.batch[n:cap(d.batch)]
	k := 1
	for k < len(b) && k < 256 && cap(b[k].a0) < na {
		k++
	}
	c := make([]float64, 3*na*k)
	for i := range k {
		s := c[3*na*i : 3*na*(i+1) : 3*na*(i+1)]
		b[i].a0, b[i].d1, b[i].d2 = s[:na:na], s[na:2*na:2*na], s[2*na:]
	}
}

// soloTri is d.tri, the triangle a draw that is not batched sets up, with
// planes for every attribute.
func (d *drawScratch) soloTri() *tri {
	d.setups++
	t := &d.tri
	if t.a0 == nil {
		p := d.soloPlanes[:]
		t.a0, t.d1, t.d2 = p[:numAttr:numAttr], p[numAttr:2*numAttr:2*numAttr], p[2*numAttr:]
	}
	return t
}
