package inspect

import (
	"errors"
	"reflect"
	"testing"
)

// A pixel's history from a copy whose draws are clipped to the pixel's 8x8
// block and charged what the run's draws charged is the history of the
// whole copy: the same entries, DMA buffers, fences, tests, blends and
// final texel, and the same GPU statistics and virtual time. A copy that samples what a clipped draw left undrawn (the
// shadow map, read by the main pass) is refused and answered unclipped.
func TestPixelHistoryClipped(t *testing.T) {
	cases := []struct {
		file, at, target string
		x, y             int
		spoiled          bool
	}{
		{"core/inspect/testdata/layers.d3ds", "Present", "bb", 5, 7, false},       // depth, discard, blend
		{"core/inspect/testdata/layers.d3ds", "Draw#3", "bb", 12, 3, false},       // mid-frame
		{"assets/scenarios/shadow-map.d3ds", "Present", "bb", 70, 90, false},      // depth-tested, shadow sampled
		{"assets/scenarios/shadow-map.d3ds", "Present", "shadow", 128, 128, true}, // the shadow map: sampled after
		{"assets/scenarios/textured-quad.d3ds", "Present", "bb", 20, 30, false},
	}
	for _, c := range cases {
		s, j := session(t, c.file)
		seq := at(t, j, c.at)
		k, err := s.at(j, seq)
		if err != nil {
			t.Fatal(err)
		}
		get := func(main *Journal) (*watched, error) {
			a, err := s.watchQueryClip(main, k, seq, c.target, nil, c.x, c.y, nil, func(w *watched) (any, error) { return w, nil }).Run()
			if err != nil {
				return nil, err
			}
			return a.(*watched), nil
		}
		whole, err := get(nil)
		if err != nil {
			t.Fatalf("%s %s: %v", c.file, c.target, err)
		}
		clipped, err := get(j)
		if c.spoiled {
			if !errors.Is(err, errSpoiled) {
				t.Errorf("%s %s: clipped copy answered %v, want it refused (the map is sampled after)", c.file, c.target, err)
			}
		} else if err != nil {
			t.Fatalf("%s %s clipped: %v", c.file, c.target, err)
		} else {
			if clipped.clipped == 0 {
				t.Errorf("%s %s: no draw clipped", c.file, c.target)
			}
			if clipped.stats != whole.stats || clipped.now != whole.now {
				t.Errorf("%s %s: clipped copy's GPU %+v at %d ns, the whole copy's %+v at %d ns", c.file, c.target, clipped.stats, clipped.now, whole.stats, whole.now)
			}
			if !reflect.DeepEqual(clipped.h, whole.h) {
				t.Errorf("%s %s %d,%d: clipped history\n%+v\nwant\n%+v", c.file, c.target, c.x, c.y, clipped.h, whole.h)
			}
		}
		// What the page and the CLI ask: clipped, or again unclipped.
		h, err := s.PixelHistory(j, seq, c.target, c.x, c.y)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(h, whole.h) || len(h.Entries) < 2 {
			t.Errorf("%s %s: PixelHistory %+v, want %+v", c.file, c.target, h, whole.h)
		}
	}
}
