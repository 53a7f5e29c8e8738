package texel

import (
	"testing"

	"d3dsim/gpu/isa"
)

// FuzzTexel decodes and encodes whatever bytes, in every format: no panic,
// and a write leaves bytes that read back to what they write again.
func FuzzTexel(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0xF))
	f.Add(make([]byte, 16), uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, mask uint8) {
		if len(b) < 16 {
			b = append(b, make([]byte, 16-len(b))...)
		}
		for _, fm := range isa.Formats() {
			n := int(fm.Info().Bytes)
			if fm.Compressed() {
				var out [16][4]uint32
				DecodeBlock(fm, b[:n], &out)
				_ = Load(fm, b[:n], n, 3, 3)
				continue
			}
			v := Decode(fm, b[:n])
			m := append([]byte(nil), b[:n]...)
			Encode(fm, v, mask, m) // a masked write of what it holds
			c := append([]byte(nil), b[:n]...)
			Encode(fm, v, 0xF, c)
			d := append([]byte(nil), c...)
			Encode(fm, Decode(fm, c), 0xF, d)
			if Writable(fm) && string(c) != string(d) {
				t.Fatalf("%v: % x reads %x; written back % x, then % x", fm, b[:n], v, c, d)
			}
		}
	})
}
