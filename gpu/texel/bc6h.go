package texel

// BC6H ("BC6H Format"): HDR RGB in 16-bit floats, unsigned (UF16) or
// signed (SF16). Fourteen modes: ten with two subsets (a partition of 32,
// 3-bit indices) and four with one (4-bit indices). Endpoint bits are
// scattered over the block in an order each mode defines (bc6hLayouts);
// most modes store the later endpoints as deltas from the first. The
// endpoints are unquantized to 16 bits, interpolated with the BC7 weights,
// and scaled to the half float's range (by 31/64 unsigned, 31/32 signed).

// bc6hMode is one mode: its code (the 2 or 5 mode bits as read), its
// endpoint precision, the deltas' precisions (red, green, blue), whether
// endpoints are deltas, and its bit layout.
type bc6hMode struct {
	code    uint32
	epBits  uint
	delta   [3]uint
	deltas  bool
	subsets uint
	layout  []bc6hRun
}

// bc6hRun is count bits read from the block into field f (0..3: red of
// endpoints w, x, y, z; 4..7 green; 8..11 blue; 12 the partition) at bit
// shift, in reverse order when rev.
type bc6hRun struct{ f, shift, count, rev uint8 }

var bc6hModes = []bc6hMode{
	{0, 10, [3]uint{5, 5, 5}, true, 2, []bc6hRun{{6, 4, 1, 0}, {10, 4, 1, 0}, {11, 4, 1, 0}, {0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 5, 0}, {7, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 5, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 5, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 5, 0}, {11, 2, 1, 0}, {3, 0, 5, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{1, 7, [3]uint{6, 6, 6}, true, 2, []bc6hRun{{6, 5, 1, 0}, {7, 4, 1, 0}, {7, 5, 1, 0}, {0, 0, 7, 0}, {11, 0, 1, 0}, {11, 1, 1, 0}, {10, 4, 1, 0}, {4, 0, 7, 0}, {10, 5, 1, 0}, {11, 2, 1, 0}, {6, 4, 1, 0}, {8, 0, 7, 0}, {11, 3, 1, 0}, {11, 5, 1, 0}, {11, 4, 1, 0}, {1, 0, 6, 0}, {6, 0, 4, 0}, {5, 0, 6, 0}, {7, 0, 4, 0}, {9, 0, 6, 0}, {10, 0, 4, 0}, {2, 0, 6, 0}, {3, 0, 6, 0}, {12, 0, 5, 0}}},
	{2, 11, [3]uint{5, 4, 4}, true, 2, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 5, 0}, {0, 10, 1, 0}, {6, 0, 4, 0}, {5, 0, 4, 0}, {4, 10, 1, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 4, 0}, {8, 10, 1, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 5, 0}, {11, 2, 1, 0}, {3, 0, 5, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{6, 11, [3]uint{4, 5, 4}, true, 2, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 4, 0}, {0, 10, 1, 0}, {7, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 5, 0}, {4, 10, 1, 0}, {7, 0, 4, 0}, {9, 0, 4, 0}, {8, 10, 1, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 4, 0}, {11, 0, 1, 0}, {11, 2, 1, 0}, {3, 0, 4, 0}, {6, 4, 1, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{10, 11, [3]uint{4, 4, 5}, true, 2, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 4, 0}, {0, 10, 1, 0}, {10, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 4, 0}, {4, 10, 1, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 5, 0}, {8, 10, 1, 0}, {10, 0, 4, 0}, {2, 0, 4, 0}, {11, 1, 1, 0}, {11, 2, 1, 0}, {3, 0, 4, 0}, {11, 4, 1, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{14, 9, [3]uint{5, 5, 5}, true, 2, []bc6hRun{{0, 0, 9, 0}, {10, 4, 1, 0}, {4, 0, 9, 0}, {6, 4, 1, 0}, {8, 0, 9, 0}, {11, 4, 1, 0}, {1, 0, 5, 0}, {7, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 5, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 5, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 5, 0}, {11, 2, 1, 0}, {3, 0, 5, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{18, 8, [3]uint{6, 5, 5}, true, 2, []bc6hRun{{0, 0, 8, 0}, {7, 4, 1, 0}, {10, 4, 1, 0}, {4, 0, 8, 0}, {11, 2, 1, 0}, {6, 4, 1, 0}, {8, 0, 8, 0}, {11, 3, 1, 0}, {11, 4, 1, 0}, {1, 0, 6, 0}, {6, 0, 4, 0}, {5, 0, 5, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 5, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 6, 0}, {3, 0, 6, 0}, {12, 0, 5, 0}}},
	{22, 8, [3]uint{5, 6, 5}, true, 2, []bc6hRun{{0, 0, 8, 0}, {11, 0, 1, 0}, {10, 4, 1, 0}, {4, 0, 8, 0}, {6, 5, 1, 0}, {6, 4, 1, 0}, {8, 0, 8, 0}, {7, 5, 1, 0}, {11, 4, 1, 0}, {1, 0, 5, 0}, {7, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 6, 0}, {7, 0, 4, 0}, {9, 0, 5, 0}, {11, 1, 1, 0}, {10, 0, 4, 0}, {2, 0, 5, 0}, {11, 2, 1, 0}, {3, 0, 5, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{26, 8, [3]uint{5, 5, 6}, true, 2, []bc6hRun{{0, 0, 8, 0}, {11, 1, 1, 0}, {10, 4, 1, 0}, {4, 0, 8, 0}, {10, 5, 1, 0}, {6, 4, 1, 0}, {8, 0, 8, 0}, {11, 5, 1, 0}, {11, 4, 1, 0}, {1, 0, 5, 0}, {7, 4, 1, 0}, {6, 0, 4, 0}, {5, 0, 5, 0}, {11, 0, 1, 0}, {7, 0, 4, 0}, {9, 0, 6, 0}, {10, 0, 4, 0}, {2, 0, 5, 0}, {11, 2, 1, 0}, {3, 0, 5, 0}, {11, 3, 1, 0}, {12, 0, 5, 0}}},
	{30, 6, [3]uint{6, 6, 6}, false, 2, []bc6hRun{{0, 0, 6, 0}, {7, 4, 1, 0}, {11, 0, 1, 0}, {11, 1, 1, 0}, {10, 4, 1, 0}, {4, 0, 6, 0}, {6, 5, 1, 0}, {10, 5, 1, 0}, {11, 2, 1, 0}, {6, 4, 1, 0}, {8, 0, 6, 0}, {7, 5, 1, 0}, {11, 3, 1, 0}, {11, 5, 1, 0}, {11, 4, 1, 0}, {1, 0, 6, 0}, {6, 0, 4, 0}, {5, 0, 6, 0}, {7, 0, 4, 0}, {9, 0, 6, 0}, {10, 0, 4, 0}, {2, 0, 6, 0}, {3, 0, 6, 0}, {12, 0, 5, 0}}},
	{3, 10, [3]uint{10, 10, 10}, false, 1, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 10, 0}, {5, 0, 10, 0}, {9, 0, 10, 0}}},
	{7, 11, [3]uint{9, 9, 9}, true, 1, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 9, 0}, {0, 10, 1, 0}, {5, 0, 9, 0}, {4, 10, 1, 0}, {9, 0, 9, 0}, {8, 10, 1, 0}}},
	{11, 12, [3]uint{8, 8, 8}, true, 1, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 8, 0}, {0, 10, 2, 1}, {5, 0, 8, 0}, {4, 10, 2, 1}, {9, 0, 8, 0}, {8, 10, 2, 1}}},
	{15, 16, [3]uint{4, 4, 4}, true, 1, []bc6hRun{{0, 0, 10, 0}, {4, 0, 10, 0}, {8, 0, 10, 0}, {1, 0, 4, 0}, {0, 10, 6, 1}, {5, 0, 4, 0}, {4, 10, 6, 1}, {9, 0, 4, 0}, {8, 10, 6, 1}}},
}

// bc6h decodes a BC6H block to half floats. A reserved mode decodes to
// zeros, as the page requires.
func bc6h(blk []byte, signed bool, out *[16][3]uint16) {
	b := newBits(blk)
	code := b.read(2)
	if code > 1 {
		code |= b.read(3) << 2
	}
	var m *bc6hMode
	for i := range bc6hModes {
		if bc6hModes[i].code == code {
			m = &bc6hModes[i]
		}
	}
	if m == nil {
		*out = [16][3]uint16{}
		return
	}
	var f [13]int32
	for _, r := range m.layout {
		v := b.read(uint(r.count))
		if r.rev != 0 {
			v = reverseBits(v, uint(r.count))
		}
		f[r.f] |= int32(v << r.shift)
	}
	part := f[12]
	n := 2 * m.subsets
	// ep[e][c]: endpoint e (w, x, y, z) of channel c.
	var ep [4][3]int32
	for e := range n {
		for c := range 3 {
			ep[e][c] = f[4*c+int(e)]
		}
	}
	if signed {
		for c := range 3 {
			ep[0][c] = signExtend(ep[0][c], m.epBits)
		}
	}
	if m.deltas || signed {
		for e := uint(1); e < n; e++ {
			for c := range 3 {
				bitsN := m.epBits
				if m.deltas {
					bitsN = m.delta[c]
				}
				ep[e][c] = signExtend(ep[e][c], bitsN)
			}
		}
	}
	if m.deltas {
		for e := uint(1); e < n; e++ {
			for c := range 3 {
				v := (ep[e][c] + ep[0][c]) & (1<<m.epBits - 1)
				if signed {
					v = signExtend(v, m.epBits)
				}
				ep[e][c] = v
			}
		}
	}
	for e := range n {
		for c := range 3 {
			ep[e][c] = bc6hUnquantize(ep[e][c], m.epBits, signed)
		}
	}
	ib := uint(3)
	w := weights3
	if m.subsets == 1 {
		ib, w = 4, weights4
	}
	for i := range 16 {
		s := uint32(0)
		nb := ib
		if m.subsets == 2 {
			s = partitions2[part] >> (2 * i) & 3
			if i == int(anchor2[part]) {
				nb--
			}
		}
		if i == 0 {
			nb--
		}
		x := w[b.read(nb)]
		e0, e1 := &ep[2*s], &ep[2*s+1]
		for c := range 3 {
			out[i][c] = bc6hFinish((e0[c]*(64-x)+e1[c]*x+32)>>6, signed)
		}
	}
}

func reverseBits(v uint32, n uint) uint32 {
	var r uint32
	for range n {
		r = r<<1 | v&1
		v >>= 1
	}
	return r
}

func signExtend(v int32, n uint) int32 { return v << (32 - n) >> (32 - n) }

// bc6hUnquantize widens an endpoint of n bits to 16 bits (the page's
// "unquantize").
func bc6hUnquantize(v int32, n uint, signed bool) int32 {
	if !signed {
		switch {
		case n >= 15:
			return v
		case v == 0:
			return 0
		case v == 1<<n-1:
			return 0xFFFF
		}
		return (v<<16 + 0x8000) >> n
	}
	if n >= 16 {
		return v
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var u int32
	switch {
	case v == 0:
		u = 0
	case v >= 1<<(n-1)-1:
		u = 0x7FFF
	default:
		u = (v<<15 + 0x4000) >> (n - 1)
	}
	if neg {
		u = -u
	}
	return u
}

// bc6hFinish scales an interpolated value to a half float's bits.
func bc6hFinish(v int32, signed bool) uint16 {
	if !signed {
		return uint16(v * 31 >> 6)
	}
	if v < 0 {
		if m := -v * 31 >> 5; m != 0 {
			return 0x8000 | uint16(m)
		}
		return 0 // (a scaled magnitude of 0 has no sign)
	}
	return uint16(v * 31 >> 5)
}
