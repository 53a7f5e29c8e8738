package texel

import "d3dsim/gpu/isa"

// EncodeBits writes the low bits of v's channels to the texel at the start
// of dst as they are, with no conversion: each channel of n bits gets the
// low n bits of its value (ClearUnorderedAccessViewUint's bit-precise
// clear; an unused X byte is 0xFF as Encode writes it). It does nothing
// for a format Writable refuses.
func EncodeBits(f isa.Format, v [4]uint32, dst []byte) {
	if !Writable(f) {
		return
	}
	l := &layouts[f]
	for c := range l.ch {
		fd := &l.ch[c]
		if fd.bits == 0 {
			continue
		}
		m := uint32(1)<<fd.bits - 1
		if fd.bits == 32 {
			m = ^uint32(0)
		}
		writeField(dst, fd.off, fd.bits, v[c]&m)
	}
	if l.xbyte != 0xFF {
		dst[l.xbyte] = 0xFF
	}
}
