package inspect

import (
	"reflect"
	"strings"
	"testing"
)

// A history of a resource's subresource (PixelHistoryAt) watches the same
// texel as one of a view of that subresource alone, and reaches levels and
// slices no view names.
func TestPixelHistoryAtSubresource(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layered.d3ds")
	seq := at(t, j, "Flush")
	for k, view := range []string{"s0", "s1", "s2"} {
		byView, err := s.PixelHistory(j, seq, view, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		byRes, err := s.PixelHistoryAt(j, seq, "arr", &Subresource{Slice: k}, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		if byRes.Slice != k || byRes.Final != byView.Final || !reflect.DeepEqual(byRes.Entries, byView.Entries) {
			t.Errorf("arr slice %d: %+v\nwant the entries of view %s: %+v", k, byRes, view, byView)
		}
		// The view of all three slices, told the slice.
		byAll, err := s.PixelHistoryAt(j, seq, "all", &Subresource{Slice: k}, 1, 2)
		if err != nil || !reflect.DeepEqual(byAll.Entries, byView.Entries) {
			t.Errorf("all slice %d: %v %+v, want view %s's entries", k, err, byAll, view)
		}
		if text := byRes.Text(); k > 0 && (!strings.Contains(text, "of arr mip 0 slice ") || !strings.Contains(text, "to slice ")) {
			t.Errorf("arr slice %d: the text names no subresource or no fragment's slice:\n%s", k, text)
		}
	}

	s, j = session(t, "core/inspect/testdata/mips.d3ds")
	seq = at(t, j, "Flush")
	for _, c := range []struct {
		name      string
		sub       Subresource
		x, y      int
		final     string
		what      string
		wantError string
	}{
		{"tex", Subresource{Mip: 1}, 1, 1, "(25, 1)", "", ""},
		{"tex", Subresource{Mip: 2}, 0, 0, "(15, 1)", "", ""},
		{"arr", Subresource{Slice: 1}, 1, 0, "(3, 4)", "write", ""},
		{"arr", Subresource{Mip: 1, Slice: 1}, 0, 0, "(4, 5)", "", ""},
		{"tex", Subresource{Mip: 3}, 0, 0, "", "", "tex has 3 mip levels and 1 slice: mip 3 slice 0 does not exist"},
		{"arr", Subresource{Slice: 2}, 0, 0, "", "", "mip 0 slice 2 does not exist"},
		{"tex", Subresource{Mip: 1}, 2, 0, "", "", "pixel 2,0 is outside tex (2x2)"},
	} {
		h, err := s.PixelHistoryAt(j, seq, c.name, &c.sub, c.x, c.y)
		if c.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantError) {
				t.Errorf("%s %+v: %v, want an error with %q", c.name, c.sub, err, c.wantError)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %+v: %v", c.name, c.sub, err)
			continue
		}
		if !strings.HasPrefix(h.Final, c.final) || len(h.Entries) == 0 {
			t.Errorf("%s %+v at %d,%d: final %q after %d entries, want %q", c.name, c.sub, c.x, c.y, h.Final, len(h.Entries), c.final)
		}
		if c.what != "" && h.Entries[len(h.Entries)-1].What != c.what {
			t.Errorf("%s %+v: the last entry is %+v, want a %s", c.name, c.sub, h.Entries[len(h.Entries)-1], c.what)
		}
	}
}

// A step's derivatives are shown only across lanes that ran it: layered.d3ds's
// pixel shader has no derivative instruction, so the quad's lane the
// triangle does not cover (the clipped triangle's other half covers it) is
// no helper and does not run.
func TestStepDerivativesOnlyWhereLanesRan(t *testing.T) {
	s, j := session(t, "core/inspect/testdata/layered.d3ds")
	st, err := s.StepPixelAt(j, at(t, j, "Draw"), "arr", &Subresource{Slice: 1}, 1, 2, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Steps) == 0 || st.Steps[0].Quad != "0111" {
		t.Fatalf("steps %+v: want the first run by quad lanes 0111", st.Steps)
	}
	text := st.Text()
	if !strings.Contains(text, "o0 = (1, 0, 0, 1)  ddx (·, ·, ·, ·) ddy (·, ·, ·, ·)") {
		t.Errorf("the derivatives across lane 0, which did not run: %s", text)
	}
	if !strings.Contains(text, "primitive 0,") {
		t.Errorf("the fragment of the draw's first primitive: %s", text)
	}
}
