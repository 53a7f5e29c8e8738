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

// TestNextInLine: Next's packets of a fixed length, decoded in line, are
// next's (the full checks) for every opcode byte, payload length 0 to 20
// and buffer that ends before, at and after the payload; and so is what
// Next reports for every other header.
func TestNextInLine(t *testing.T) {
	for op := range 256 {
		for n := range 21 {
			for extra := -2; extra <= 2; extra++ {
				buf := make([]uint32, max(1, 1+n+extra))
				buf[0] = uint32(op)<<24 | uint32(n)
				for k := 1; k < len(buf); k++ {
					buf[k] = uint32(3 * k) // (a WRITE's byte count among them)
				}
				p, i, err := Next(buf, 0)
				q, j, err2 := next(buf, 0)
				if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() || i != j ||
					p.Op != q.Op || p.At != q.At || len(p.Args) != len(q.Args) {
					t.Fatalf("opcode %#x, %d payload words, buffer of %d: Next (%v %d %v), next (%v %d %v)", op, n, len(buf), p, i, err, q, j, err2)
				}
			}
		}
	}
}
