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
// On a multisampled target each covered sample is tested at its position
// (a sample-frequency program: the sample it runs for), the samples that
// pass kept for the output merger (earlyPass), which writes the colour to
// those alone; a pixel none of whose samples pass does not run.

// earlyTest runs the depth and stencil tests of the lanes in mask of the
// block at (tx, ty) and returns the lanes that pass.
func (p *pipe) earlyTest(t *tri, tx, ty int, mask uint64) uint64 {
	blk := p.blk
	p.earlyNow = true
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros64(m)
		x, y := tx+laneXY[l][0], ty+laneXY[l][1]
		if p.ms.samples > 1 {
			cov := p.laneCoverage(tx, ty, l, mask) & p.sampleMask
			if p.earlyPass[l] = p.sampleTests(t, x, y, blk.b1[l], blk.b2[l], cov, 0, false); p.earlyPass[l] == 0 {
				mask &^= 1 << l
			}
			continue
		}
		if !p.depthStencil(t, x, y, blk.b1[l], blk.b2[l], 0, false) {
			mask &^= 1 << l
		}
	}
	p.earlyNow = false
	return mask
}

// earlyOn reports whether the draw's pixel program tests early: sysReg
// its SET_PROGRAM word.
func earlyOn(sysReg uint32) bool {
	return sysReg&isa.EarlyDepthStencil != 0
}
