package gpu

import (
	"math/bits"

	"d3dsim/gpu/isa"
)

// Early depth-stencil ([earlydepthstencil], the forceEarlyDepthStencil
// flag: "Pixel Shader Stage", "Attributes"): a pixel program whose
// SET_PROGRAM word has isa.EarlyDepthStencil gets only the pixels that
// pass the depth and stencil tests, which run (and write) before it. So a
// pixel that fails them never runs the program: it writes no unordered
// access view and is not counted in PSInvocations; and a pixel that
// passes keeps the depth and stencil it wrote even when the program then
// discards it (only its colour is not written). The program's SV_Depth,
// if it writes one, is not used: the depth was written before it ran.
//
// At one sample a pixel; on a multisampled target the tests run after the
// program, per sample, as without the flag (the GPU keeps no per-sample
// result between the two).

// earlyTest runs the depth and stencil tests of the lanes in mask of the
// block at (tx, ty) and returns the lanes that pass.
func (p *pipe) earlyTest(t *tri, tx, ty int, mask uint64) uint64 {
	blk := p.blk
	p.earlyNow = true
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		if !p.depthStencil(t, tx+laneXY[l][0], ty+laneXY[l][1], blk.b1[l], blk.b2[l], 0, false) {
			mask &^= 1 << l
		}
	}
	p.earlyNow = false
	return mask
}

// earlyOn reports whether the draw's pixel program tests early: sysReg
// its SET_PROGRAM word, samples the targets' samples a pixel.
func earlyOn(sysReg uint32, samples int) bool {
	return sysReg&isa.EarlyDepthStencil != 0 && samples <= 1
}
