package translate

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestFxcVaryingsCorpus translates every fxc header (/Fh, .inc) below
// D3DSIM_FXC_SOURCES (a public project's fetched copy, DirectXTK's
// Src/Shaders/Compiled for one: never part of the repository, so the test
// skips without it) whose signatures reach past register 7, the most this
// GPU once interpolated: each must translate now, its outputs up to the
// profile's count ("Registers - vs_4_0": 16; 32 from vs_4_1 on). It logs
// how many headers it read and how many had a register past 7, the
// figure docs/shaders.md quotes.
func TestFxcVaryingsCorpus(t *testing.T) {
	dir := os.Getenv("D3DSIM_FXC_SOURCES")
	if dir == "" {
		t.Skip("D3DSIM_FXC_SOURCES is not set")
	}
	var incs []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".inc") {
			incs = append(incs, p)
		}
		return nil
	})
	sort.Strings(incs)
	read, wide, most := 0, 0, -1
	for _, inc := range incs {
		text, err := os.ReadFile(inc)
		if err != nil {
			t.Fatal(err)
		}
		blob, err := dxbc.ParseFxcHeader(string(text))
		if err != nil {
			continue // a header of something else
		}
		c, err := dxbc.Parse(blob)
		if err != nil {
			t.Errorf("%s: %v", inc, err)
			continue
		}
		p, err := c.Program()
		if err != nil {
			t.Errorf("%s: %v", inc, err)
			continue
		}
		read++
		top := -1
		for _, input := range []bool{true, false} {
			s, err := c.Signature(input)
			if err != nil || s == nil {
				continue
			}
			for _, e := range s.Elements {
				if e.Register < 32 && (input || p.Type != dxbc.PixelShader) {
					top = max(top, int(e.Register))
				}
			}
		}
		most = max(most, top)
		if top < 8 {
			continue
		}
		wide++
		if _, err := Translate(blob, p.Type); err != nil {
			t.Errorf("%s (%s, registers up to %d): %v", filepath.Base(inc), p.Profile(), top, err)
		}
	}
	if read == 0 {
		t.Fatalf("no fxc header below %s", dir)
	}
	t.Logf("%d fxc headers, %d with a register past 7 (the highest: %d), all translated", read, wide, most)
}
