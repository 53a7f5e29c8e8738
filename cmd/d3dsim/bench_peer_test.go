package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/machine"
)

func TestParsePeer(t *testing.T) {
	sc := machine.TrisScene()
	for _, c := range []struct {
		line string
		want string // "" for a parse error
	}{
		{"frames=4 seconds=2.000000 samples=1000000 renderer=llvmpipe (LLVM 15.0.6, 256 bits)\n", "llvmpipe (LLVM 15.0.6, 256 bits) 2 2 0.2"},
		{"frames=0 seconds=1 samples=1 renderer=x", ""},
		{"frames=2 seconds=x samples=1 renderer=x", ""},
		{"frames=2 seconds=1 samples=1", ""},
		{"", ""},
	} {
		f, err := parsePeer(c.line, sc)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: no error", c.line)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		got := strings.Join([]string{f.renderer, ftoa(f.framesPerSec), ftoa(f.mpix), ftoa(f.mtri)}, " ")
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.line, got, c.want)
		}
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// TestBenchPeerDraws builds the llvmpipe peer and draws a small fill scene
// with it: every quad covers the target, so a frame shades draws x width x
// height pixels (the occlusion query the ratios rest on). CI installs
// libosmesa6-dev; elsewhere the test says what is missing.
func TestBenchPeerDraws(t *testing.T) {
	missing := ""
	if _, err := exec.LookPath("cc"); err != nil {
		missing = "no cc: apt-get install gcc libosmesa6-dev"
	} else if _, err := os.Stat("/usr/include/GL/osmesa.h"); err != nil {
		missing = "no OSMesa headers: apt-get install libosmesa6-dev"
	}
	if missing != "" {
		if os.Getenv("CI") == "true" { // .ci/run installs them
			t.Fatal(missing)
		}
		t.Skip(missing)
	}
	bin, err := buildPeer(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sc := machine.FillScene()
	sc.Width, sc.Height, sc.Draws = 64, 48, 3
	f, err := runPeer(bin, sc, 1, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if f.frames < 2 || f.samples != 3*64*48 || !strings.Contains(f.renderer, "llvmpipe") {
		t.Errorf("the peer drew %d frames of %d pixels on %q; want >= 2 of %d on llvmpipe", f.frames, f.samples, f.renderer, 3*64*48)
	}
	// Texture × colour takes the texture path.
	tex := machine.FillTexturedISAScene()
	tex.Width, tex.Height, tex.Draws = 32, 32, 1
	if f, err := runPeer(bin, tex, 2, 0, ""); err != nil || f.samples != 32*32 {
		t.Errorf("texture × colour: %+v, %v", f, err)
	}
	// The GLSL twins of the HLSL shaders draw the picture d3dsim draws: the
	// same arithmetic in float32 but for the transcendentals (pow as
	// exp2(16 log2) against llvmpipe's own) and the rounding of unorm8, so
	// a channel may differ by a step or two.
	for _, sc := range []machine.BenchScene{machine.FillPhongScene(), machine.FillLoopScene()} {
		sc.Draws = 1
		want := machine.NewBenchRig(sc, 1)
		want.Frame()
		path := filepath.Join(t.TempDir(), sc.Name+".rgba")
		if _, err := runPeer(bin, sc, 1, 0, path); err != nil {
			t.Fatalf("%s: %v", sc.Name, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ours := want.Target()
		if len(got) != len(ours) {
			t.Fatalf("%s: the peer wrote %d bytes, want %d", sc.Name, len(got), len(ours))
		}
		worst, at := 0, 0
		for i := range ours {
			if d := int(got[i]) - int(ours[i]); max(d, -d) > worst {
				worst, at = max(d, -d), i
			}
		}
		t.Logf("%s: the largest difference of a channel: %d", sc.Name, worst)
		if worst > 2 {
			px := at / 4
			t.Errorf("%s: pixel (%d, %d) channel %d: llvmpipe %d, d3dsim %d", sc.Name, px%sc.Width, px/sc.Width, at%4, got[at], ours[at])
		}
	}
}
