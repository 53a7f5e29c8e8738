package texel

// BC7 ("BC7 Format"): eight modes, told apart by the position of the
// lowest set bit of the block. Each mode has its subsets (1 to 3, the
// partition chosen by the block), colour and alpha endpoint precisions,
// unique or shared P-bits, and one or two sets of indices; modes 4 and 5
// may rotate the alpha channel with another. Endpoints are expanded to 8
// bits by repeating their top bits, and a texel's value is ((64-w) e0 +
// w e1 + 32) >> 6 with w the weight of its index.

type bc7Mode struct {
	subsets, partBits, rotBits, isBit uint
	colorBits, alphaBits              uint
	pBits                             uint // 0; 1: a P-bit per endpoint; 2: per subset (shared)
	index1, index2                    uint
}

var bc7Modes = [8]bc7Mode{
	{3, 4, 0, 0, 4, 0, 1, 3, 0},
	{2, 6, 0, 0, 6, 0, 2, 3, 0},
	{3, 6, 0, 0, 5, 0, 0, 2, 0},
	{2, 6, 0, 0, 7, 0, 1, 2, 0},
	{1, 0, 2, 1, 5, 6, 0, 2, 3},
	{1, 0, 2, 0, 7, 8, 0, 2, 2},
	{1, 0, 0, 0, 7, 7, 1, 4, 0},
	{2, 6, 0, 0, 5, 5, 1, 2, 0},
}

// bc7 decodes a BC7 block to 8-bit RGBA. A block with no mode bit set (a
// reserved mode) decodes to transparent black, as the page requires.
func bc7(blk []byte, out *[16][4]uint8) {
	b := newBits(blk)
	mode := uint(0)
	for mode < 8 && b.read(1) == 0 {
		mode++
	}
	if mode == 8 {
		*out = [16][4]uint8{}
		return
	}
	m := &bc7Modes[mode]
	part := b.read(m.partBits)
	rot := b.read(m.rotBits)
	isb := b.read(m.isBit)
	n := 2 * m.subsets
	var ep [6][4]uint32
	for c := range 3 {
		for e := range n {
			ep[e][c] = b.read(m.colorBits)
		}
	}
	for e := range n {
		if m.alphaBits > 0 {
			ep[e][3] = b.read(m.alphaBits)
		} else {
			ep[e][3] = 0xFF
		}
	}
	cb, ab := m.colorBits, m.alphaBits
	if m.pBits != 0 {
		var p [6]uint32
		if m.pBits == 1 {
			for e := range n {
				p[e] = b.read(1)
			}
		} else {
			for s := range m.subsets {
				v := b.read(1)
				p[2*s], p[2*s+1] = v, v
			}
		}
		for e := range n {
			for c := range 3 {
				ep[e][c] = ep[e][c]<<1 | p[e]
			}
			if ab > 0 {
				ep[e][3] = ep[e][3]<<1 | p[e]
			}
		}
		cb++
		if ab > 0 {
			ab++
		}
	}
	for e := range n {
		for c := range 3 {
			ep[e][c] = expandBits(ep[e][c], cb)
		}
		if ab > 0 {
			ep[e][3] = expandBits(ep[e][3], ab)
		}
	}
	subset := func(i int) uint32 {
		switch m.subsets {
		case 2:
			return partitions2[part] >> (2 * i) & 3
		case 3:
			return partitions3[part] >> (2 * i) & 3
		}
		return 0
	}
	anchor := func(i int) bool {
		switch {
		case i == 0:
			return true
		case m.subsets == 2:
			return i == int(anchor2[part])
		case m.subsets == 3:
			return i == int(anchor3a[part]) || i == int(anchor3b[part])
		}
		return false
	}
	var idx1, idx2 [16]uint32
	for i := range 16 {
		nb := m.index1
		if anchor(i) {
			nb--
		}
		idx1[i] = b.read(nb)
	}
	if m.index2 > 0 {
		for i := range 16 {
			nb := m.index2
			if i == 0 {
				nb--
			}
			idx2[i] = b.read(nb)
		}
	}
	w1, w2 := weightsOf(m.index1), weightsOf(m.index2)
	for i := range 16 {
		s := subset(i)
		e0, e1 := &ep[2*s], &ep[2*s+1]
		var px [4]uint8
		for c := range 4 {
			wc := w1[idx1[i]]
			if m.index2 > 0 {
				// Two index sets: colour from the first and alpha from
				// the second, or the other way round with the index
				// selection bit.
				if (c == 3) != (isb == 1) {
					wc = w2[idx2[i]]
				}
			}
			px[c] = uint8((int32(64-wc)*int32(e0[c]) + wc*int32(e1[c]) + 32) >> 6)
		}
		switch rot {
		case 1:
			px[0], px[3] = px[3], px[0]
		case 2:
			px[1], px[3] = px[3], px[1]
		case 3:
			px[2], px[3] = px[3], px[2]
		}
		out[i] = px
	}
}

// expandBits widens an n-bit endpoint to 8 bits, repeating its top bits.
func expandBits(v uint32, n uint) uint32 {
	v <<= 8 - n
	return v | v>>n
}
