package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/scenario"
)

// side runs src (a scenario's text) with o and a journal.
func side(t *testing.T, label string, src []byte, o scenario.Overrides) DiffSide {
	t.Helper()
	sc, err := scenario.Load(label, src)
	if err != nil {
		t.Fatal(err)
	}
	r, j := NewSession(sc, o).Run()
	return DiffSide{Label: label, Run: r, Journal: j}
}

func readRepo(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Before and after an edit: a narrower viewport. The first API call that
// differs is the inserted RSSetViewports; the pixels of the triangle's
// right half differ (the mask is red there and dimmed elsewhere); at the
// Draw only the viewport differs, in the runtime and the UMD alike.
func TestCompareEdit(t *testing.T) {
	before := readRepo(t, "assets/scenarios/hello-triangle.d3ds")
	after := []byte(strings.Replace(string(before), "imm.Draw 3 0", "imm.RSSetViewports 0 0 32 64\nimm.Draw 3 0", 1))
	c := Compare(side(t, "before", before, scenario.Overrides{}), side(t, "after", after, scenario.Overrides{}), "Draw")
	if c.Calls.Same || c.Calls.A == nil || c.Calls.B == nil || !strings.HasPrefix(c.Calls.A.Text, "Draw at line 24") ||
		!strings.HasPrefix(c.Calls.B.Text, "RSSetViewports at line 24") || c.Calls.Count != [2]int{17, 18} {
		t.Errorf("calls: %+v A %+v B %+v", c.Calls, c.Calls.A, c.Calls.B)
	}
	for _, d := range c.Layers {
		if want := d.Layer == "runtime" || d.Layer == "umd"; d.Same == want {
			t.Errorf("layer %s: same %v", d.Layer, d.Same)
		}
	}
	p := c.Pixels
	if p == nil || p.Count == 0 || p.Width != 64 || p.Box[0] < 0 || p.Box[0]+p.Box[2] > 64 {
		t.Fatalf("pixels: %+v", p)
	}
	m := p.Mask()
	x, y := p.First[0], p.First[1]
	if got := m.RGBAAt(x, y); got.R != 255 || got.G != 48 || got.A != 255 {
		t.Errorf("mask at the first difference %d,%d: %v", x, y, got)
	}
	if got := m.RGBAAt(0, 0); got.R == 255 {
		t.Errorf("mask at 0,0 (the same clear colour): %v", got)
	}
	n := 0
	for i := 0; i < 64*64; i++ {
		if m.RGBAAt(i%64, i/64).R == 255 && m.RGBAAt(i%64, i/64).G == 48 {
			n++
		}
	}
	if n != p.Count {
		t.Errorf("mask has %d red pixels, count %d", n, p.Count)
	}
	if s := c.State; s == nil || s.Err != "" || len(s.Rows) != 1 || s.Rows[0].Binding != "viewport 0" ||
		!strings.Contains(s.Rows[0].A, "64x64") || !strings.Contains(s.Rows[0].B, "SET_VIEWPORT 0 0 32 64") {
		t.Errorf("state: %+v", s)
	}
	if txt := c.Text(); !strings.Contains(txt, "state at Draw (events 104 and 108): 1 binding differ") {
		t.Errorf("text:\n%s", txt)
	}
}

// One scenario in two modes: out of order, the kernel's and the GPU's
// events part (another engine), the API calls and the pixels do not.
func TestCompareModes(t *testing.T) {
	src := readRepo(t, "assets/scenarios/out-of-order.d3ds")
	sc, err := scenario.Load("out-of-order.d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	modes := scenario.Modes(sc, scenario.Overrides{})
	c := Compare(side(t, modes[1].Name, src, modes[1].O), side(t, modes[2].Name, src, modes[2].O), "Draw#1")
	if !c.Calls.Same || c.Pixels == nil || c.Pixels.Count != 0 || c.Pixels.Sizes != "" {
		t.Errorf("calls %+v pixels %+v", c.Calls, c.Pixels)
	}
	parted := map[string]bool{}
	for _, d := range c.Layers {
		parted[d.Layer] = !d.Same
	}
	if parted["runtime"] || !parted["kmd"] || !parted["gpu"] {
		t.Errorf("layers that part: %v", parted)
	}
	// The same run twice: nothing differs.
	c = Compare(side(t, "a", src, modes[1].O), side(t, "b", src, modes[1].O), "")
	for _, d := range append([]Divergence{c.Calls}, c.Layers...) {
		if !d.Same {
			t.Errorf("%s differ in one run twice: %+v", d.Layer, d)
		}
	}
	if c.State != nil || c.Pixels.Count != 0 {
		t.Errorf("state %+v pixels %+v", c.State, c.Pixels)
	}
}
