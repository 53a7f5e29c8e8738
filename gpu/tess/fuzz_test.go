package tess

import (
	"math"
	"testing"
)

// Tess factors come from a hull shader: any float bits at all. Whatever
// they are, the tessellator returns within its bounds, with every index
// naming a point.
func FuzzTessellate(f *testing.F) {
	f.Add(uint8(1), uint8(1), uint8(3), uint32(0x40000000), uint32(0x40400000), uint32(0x3f800000), uint32(0x7fc00000))
	f.Add(uint8(2), uint8(3), uint8(4), uint32(0x42800000), uint32(0x7f800000), uint32(0x00000001), uint32(0x3f800001))
	f.Add(uint8(3), uint8(4), uint8(2), uint32(0x41200000), uint32(0x40600000), uint32(0), uint32(0))
	f.Fuzz(func(t *testing.T, d, p, o uint8, a, b, c, e uint32) {
		fs := Factors{
			Edge:   [4]float32{math.Float32frombits(a), math.Float32frombits(b), math.Float32frombits(c), math.Float32frombits(e)},
			Inside: [2]float32{math.Float32frombits(c ^ e), math.Float32frombits(a ^ b)},
		}
		m, err := Tessellate(Domain(d%4), Partitioning(p%5), Output(o%5), fs)
		if err != nil {
			return
		}
		if len(m.Points) > MaxPoints || len(m.Indices) > 3*MaxTriangles {
			t.Fatalf("%d points %d indices", len(m.Points), len(m.Indices))
		}
		for _, i := range m.Indices {
			if int(i) >= len(m.Points) {
				t.Fatalf("index %d of %d points", i, len(m.Points))
			}
		}
		for _, pt := range m.Points {
			if !(pt.U >= 0 && pt.U <= 1 && pt.V >= 0 && pt.V <= 1) {
				t.Fatalf("point %v", pt)
			}
		}
	})
}
