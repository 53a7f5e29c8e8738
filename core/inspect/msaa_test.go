package inspect

import (
	"strings"
	"testing"
)

// TestResourceMultisampled: a 4-sample texture is listed as its samples
// side by side (texel x*4+s is sample s of pixel x), after tutorial 34's
// draw: pixel 19 of row 30 has its second and fourth samples inside the
// triangle's left edge.
func TestResourceMultisampled(t *testing.T) {
	s, j := session(t, "assets/tutorials/34-multisampling.d3ds")
	draw := at(t, j, "ResolveSubresource")
	r, err := s.Resource(j, draw, "ms", ResourceOptions{X: 76, Y: 30, W: 4, H: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Samples != 4 || r.Width != 256 {
		t.Fatalf("samples %d, width %d texels: want 4 and 256", r.Samples, r.Width)
	}
	want := []string{"000000ff", "ffffffff", "000000ff", "ffffffff"}
	for s, w := range want {
		if got := r.Texture.Texels[0][s].Hex; got != w {
			t.Errorf("sample %d of pixel (19, 30): %s, want %s", s, got, w)
		}
	}
}

// TestPixelHistoryLayered: a pixel history on a render-target view of one
// slice of an array follows that slice: a layered draw's fragment there
// (slice 1 red, slice 2 green, the slice it went to), none on slice 0,
// which only the clear reached; each history's final texel the slice's.
func TestPixelHistoryLayered(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layered.d3ds")
	seq := at(t, j, "Flush")
	for _, c := range []struct {
		view, draws, final string
		slice              int
	}{{"s0", "", "#000000ff", 0}, {"s1", "#ff0000ff", "#ff0000ff", 1}, {"s2", "#00ff00ff", "#00ff00ff", 2}} {
		h, err := s.PixelHistory(j, seq, c.view, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		clears, draws := 0, ""
		for _, e := range h.Entries {
			switch e.What {
			case "clear":
				clears++
			case "draw":
				// The geometry shader's first triangle goes to slice 1, its
				// second to slice 2: primitives 0 and 1 of the draw.
				if e.Fragment == nil || e.Fragment.Slice != c.slice || !e.Fragment.Passed || e.Fragment.Primitive != c.slice-1 {
					t.Errorf("%s: fragment %+v, want primitive %d that passed in slice %d", c.view, e.Fragment, c.slice-1, c.slice)
				}
				draws += e.After[strings.LastIndex(e.After, " ")+1:]
			}
		}
		if clears != 1 || draws != c.draws || !strings.HasSuffix(h.Final, c.final) {
			t.Errorf("%s: %d clears, draws wrote %q, final %q: want 1, %q, %q", c.view, clears, draws, h.Final, c.draws, c.final)
		}
	}
}
