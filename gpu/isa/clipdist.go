package isa

import "fmt"

// Clip and cull distances ("Semantics": SV_ClipDistance, SV_CullDistance):
// up to eight distances the last stage before the rasterizer writes, in at
// most two of its output registers, each component a clip or a cull
// distance. SET_CLIP_DIST word tells the rasterizer where they are:
//
//	bits 0..7    the register of distances 0..3, plus one (0: none)
//	bits 8..15   the register of distances 4..7, plus one (0: none)
//	bits 16..23  the clip distances: bit i distance i (components x..w of
//	             the first register in bits 0..3, of the second in 4..7)
//	bits 24..31  the cull distances, the same way
//
// A buffer starts with none (0). The rasterizer clips a primitive where
// an interpolated clip distance is below 0 and culls one whose vertices
// all have the same cull distance below 0.
const OpSetClipDist Opcode = 0x70

// MaxClipDistances is the clip and cull distances a vertex has (D3D11:
// 8, two registers' worth, clip and cull counted together).
const MaxClipDistances = 8

// ClipDistWord packs SET_CLIP_DIST's word: regs the two registers (-1
// for none), clip and cull the masks of distances.
func ClipDistWord(regs [2]int, clip, cull uint8) uint32 {
	w := uint32(clip)<<16 | uint32(cull)<<24
	for i, r := range regs {
		if r >= 0 {
			w |= uint32(r+1) & 0xFF << (8 * i)
		}
	}
	return w
}

// SetClipDist encodes SET_CLIP_DIST.
func (b *Builder) SetClipDist(word uint32) {
	b.header(OpSetClipDist, 1)
	b.Words = append(b.Words, word)
}

func clipDistString(p Packet) string {
	w := p.Args[0]
	return fmt.Sprintf("%v regs=%d,%d clip=%#x cull=%#x", p.Op, int(w&0xFF)-1, int(w>>8&0xFF)-1, w>>16&0xFF, w>>24)
}
