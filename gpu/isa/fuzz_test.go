package isa

import (
	"d3dsim/core/memlimit"
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzDecode feeds arbitrary words to Decode: it must not panic, and
// walking the buffer with Next must give the same packets and error.
func FuzzDecode(f *testing.F) {
	b, _ := every()
	for _, seed := range [][]uint32{b.Words, {0xEE000000, uint32(OpFence)<<24 | 2, 7, 0}, nil} {
		var data []byte
		for _, w := range seed {
			data = binary.LittleEndian.AppendUint32(data, w)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// No input may make it allocate past a ceiling.
		memlimit.Check(t, 64<<20, "FuzzDecode", func() {
			buf := make([]uint32, (len(data)+3)/4)
			for i := range data {
				buf[i/4] |= uint32(data[i]) << (8 * (i % 4))
			}
			pkts, err := Decode(buf)
			i, n := 0, 0
			for i < len(buf) {
				p, next, err2 := Next(buf, i)
				if err2 != nil {
					if err == nil || err.Error() != err2.Error() || !errors.Is(err2, ErrMalformed) {
						t.Fatalf("Decode error %v, Next %v", err, err2)
					}
					break
				}
				if n >= len(pkts) || pkts[n].Op != p.Op || pkts[n].At != p.At || len(pkts[n].Args) != len(p.Args) {
					t.Fatalf("packet %d differs", n)
				}
				_ = p.String()
				n++
				i = next
			}
			if n != len(pkts) || (i >= len(buf) && err != nil) {
				t.Fatalf("Decode gave %d packets (err %v), Next %d", len(pkts), err, n)
			}
		})
	})
}
