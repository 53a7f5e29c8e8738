package inspect

import (
	"os"
	"testing"

	"d3dsim/core/scenario"
)

// BenchmarkPixelHistoryFrame: the history of one pixel of a frame of 1,000
// blended full-target draws (the page's figure: under 500 ms).
func BenchmarkPixelHistoryFrame(b *testing.B) {
	src, err := os.ReadFile("testdata/frame1000.d3ds")
	if err != nil {
		b.Fatal(err)
	}
	sc, err := scenario.Load("frame1000.d3ds", src)
	if err != nil {
		b.Fatal(err)
	}
	s := NewSession(sc, scenario.Overrides{})
	_, j := s.Run()
	seq, err := j.Resolve("Present")
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		h, err := s.PixelHistory(j, seq, "bb", 32, 32)
		if err != nil || len(h.Entries) < 1001 {
			b.Fatal(err)
		}
	}
}
