package gpu

import (
	"math"
	"math/bits"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// Interpolation modes of the pixel program's inputs (shaderisa.Interp, from
// dcl_input_ps): an input is perspective-correct unless its program says
// otherwise. A noperspective input is linear in screen space; a constant
// (nointerpolation) one is the provoking vertex's value, bit for bit:
// Direct3D 11's provoking vertex is a primitive's first ("Primitive
// Topologies": the leading vertex), for a strip's odd triangles too, whose
// first two vertices the rasterizer swaps to keep their winding. Sample
// interpolation is at the pixel's centre, as linear is (the program runs
// once a pixel); linear centroid too but at a multisampled target's partly
// covered pixel, at its first covered sample (msaa.go).

// setInterp records the pixel program's modes as masks of input registers.
func (ps *progState) setInterp(pp *shaderisa.Program) {
	ps.flat, ps.lin, ps.cent = 0, 0, 0
	for r := range pp.Inputs {
		switch pp.Interp[r] {
		case shaderisa.InterpCentroid:
			ps.cent |= 1 << r // perspective-correct, at the centroid (msaa.go)
		case shaderisa.InterpConstant:
			ps.flat |= 1 << r
		case shaderisa.InterpNoPerspective:
			ps.lin |= 1 << r
		}
	}
}

// flatRegs is the registers whose varyings a vertex carries as the raw bits
// of the vertex program's output (float64 of the uint32, exact), for the
// pixel stage to hand over unchanged: 0 with no pixel program.
func (ps *progState) flatRegs() uint32 {
	if ps.ps == nil {
		return 0
	}
	return ps.flat
}

// setupModes sets the planes of the inputs that are not perspective-correct
// (after setupAttrs set every input's): a constant input is the provoking
// vertex's value with no slope, a noperspective one the screen-space plane
// through the three vertices.
func (t *tri) setupModes(a0, a1, a2 *[numAttr]float64, p *pipe) {
	ps := p.prog
	for m := ps.flat | ps.lin; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m)
		for k := max(4*r, p.lo); k < min(4*r+4, p.hi); k++ {
			if ps.flat>>r&1 != 0 {
				t.a0[k], t.d1[k], t.d2[k] = p.pv[k], 0, 0
				continue
			}
			t.a0[k], t.d1[k], t.d2[k] = a0[k], a1[k]-a0[k], a2[k]-a0[k]
		}
	}
}

// flatInput fills the lanes of quads of input register in with the bits of
// the constant input r.
func flatInput(t *tri, r int, reads uint8, in *shader.Vec, quads uint64) {
	for c := range 4 {
		if reads>>c&1 == 0 {
			continue
		}
		v := uint32(t.a0[4*r+c])
		out := &in[c]
		for q := quads; q != 0; q &= q - 1 {
			out[bits.TrailingZeros64(q)] = v
		}
	}
}

// linearInput fills the lanes of quads of the noperspective input r of a
// triangle with perspective: its plane is in screen space.
func linearInput(t *tri, blk *psBlock, r int, reads uint8, in *shader.Vec, quads uint64) {
	for c := range 4 {
		if reads>>c&1 == 0 {
			continue
		}
		k := 4*r + c
		a0, d1, d2 := t.a0[k], t.d1[k], t.d2[k]
		out := &in[c]
		for q := quads; q != 0; q &= q - 1 {
			l := bits.TrailingZeros64(q)
			out[l] = math.Float32bits(float32(a0 + float64(blk.b1[l]*d1) + float64(blk.b2[l]*d2)))
		}
	}
}

// lerpLinear redoes, for the noperspective registers lin, the attributes of
// a vertex lerpVert made at t of the clip-space segment a-b: the value at a
// point of the segment is linear in its screen-space distance from a, which
// is t*wb/w of that point's w.
func lerpLinear(out, a, b *cvert, t float64, lin uint32) {
	s := t * b.p[3] / out.p[3]
	for m := lin; m != 0; m &= m - 1 {
		r := bits.TrailingZeros32(m)
		for k := 4 * r; k < 4*r+4; k++ {
			out.a[k] = a.a[k] + float64(s*(b.a[k]-a.a[k]))
		}
	}
}

// linRegs is the noperspective registers, 0 with no pixel program.
func (ps *progState) linRegs() uint32 {
	if ps.ps == nil {
		return 0
	}
	return ps.lin
}

// readSpan is the attributes the pixel program's planes are made for
// (pipe.lo, pipe.hi): from the first component it reads to the last, of
// every input register but SV_Position's, whose value the pixel stage
// makes from the pixel and the triangle's depth and w (it keeps its planes
// when it is centroid-sampled: msaa.go). A register or component the
// program never reads (reads) has no plane a pixel looks at: ps_vertexcolor
// reads v1 only, four planes of its eight.
func (ps *progState) readSpan() (lo, hi int) {
	lo, hi = 4*ps.psIn, 0
	for r := range min(ps.psIn, isa.MaxVaryings) {
		m := ps.ps.reads[r] & 0xF
		if m == 0 || r == ps.psPos && ps.cent>>r&1 == 0 {
			continue
		}
		lo = min(lo, 4*r+bits.TrailingZeros8(m))
		hi = max(hi, 4*r+8-bits.LeadingZeros8(m))
	}
	if lo >= hi {
		return 0, 0
	}
	return lo, hi
}
