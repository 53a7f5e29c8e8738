package shader

import (
	"math"
	"testing"
)

func mustAsm(t testing.TB, src string) *Program {
	t.Helper()
	p, err := Assemble(src)
	if err != nil {
		t.Fatalf("Assemble: %v\n%s", err, src)
	}
	return p
}

func fbits(f float32) uint32 { return math.Float32bits(f) }
func bitsf(u uint32) float32 { return math.Float32frombits(u) }

// specials are the float values every op is tried on: zeros, ones,
// denormals, the normal extremes, infinities, NaNs (two payloads), and
// integers that matter to the integer ops.
var specials = []uint32{
	fbits(0), 0x80000000, fbits(1), fbits(-1), fbits(0.5), fbits(2), fbits(3.7), fbits(-2.5),
	1, 0x80000001, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00001, 0xFFC00000,
	fbits(1e10), fbits(-1e10), fbits(100), fbits(0.1), fbits(-0.75), fbits(1.5), fbits(2.5), fbits(-1.5),
	fbits(4294967296), fbits(2147483648), fbits(-2147483648), fbits(16777217), fbits(3e9),
	0x7FFFFFFF, 0xFFFFFFFF, 5, 31, 32, 33, 0x12345678, 7,
}

// triples are the operand combinations tried: every pair of specials, the
// third operand cycling.
func triples() [][3]uint32 {
	var out [][3]uint32
	n := len(specials)
	for i, a := range specials {
		for j, b := range specials {
			out = append(out, [3]uint32{a, b, specials[(i*7+j*3)%n]})
		}
	}
	return out
}

// runTriples runs a one-instruction program (sources v0, v1, v2, result in
// o0) over the triples, 256 per block (64 lanes, 4 components), and calls
// check for each.
func runTriples(t *testing.T, src string, check func(a, b, c, got uint32) bool) {
	t.Helper()
	p := mustAsm(t, src)
	m := NewMachine(p)
	ts := triples()
	bad := 0
	for base := 0; base < len(ts); base += 4 * Lanes {
		for k := 0; k < 4*Lanes; k++ {
			tr := ts[(base+k)%len(ts)]
			c, i := k/Lanes, k%Lanes
			for s := range p.Inputs {
				m.In(s)[c][i] = tr[s]
			}
		}
		if _, err := m.Run(AllLanes); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4*Lanes && base+k < len(ts); k++ {
			tr := ts[base+k]
			got := m.Out(0)[k/Lanes][k%Lanes]
			if !check(tr[0], tr[1], tr[2], got) {
				if bad++; bad <= 10 {
					t.Errorf("%s: (%#08x %g, %#08x %g, %#08x %g) = %#08x %g", src, tr[0], bitsf(tr[0]), tr[1], bitsf(tr[1]), tr[2], bitsf(tr[2]), got, bitsf(got))
				}
			}
		}
	}
}

// canonRef makes a reference float result's NaN the machine's one NaN.
func canonRef(f float32) uint32 {
	if f != f {
		return canonNaN
	}
	return fbits(f)
}
