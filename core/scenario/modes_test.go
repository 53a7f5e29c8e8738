package scenario

import (
	"os"
	"strings"
	"testing"

	"d3dsim/assets"
)

// TestModes: the three runs of rule ASYNC-SAME, and the scenario's own
// engines kept out of order when it has more than two.
func TestModes(t *testing.T) {
	s, _ := Load("t", []byte("option gpu.engines=4\noption sync=true\n"))
	seed := uint64(7)
	ms := Modes(s, Overrides{Seed: &seed})
	if len(ms) != 3 {
		t.Fatalf("%d modes", len(ms))
	}
	for i, want := range []struct {
		name      string
		sync, ooo bool
		engines   int
	}{{ModeSync, true, false, 4}, {ModeInOrder, false, false, 4}, {ModeOutOfOrder, false, true, 4}} {
		o := decodeOptions(s, ms[i].O)
		if ms[i].Name != want.name || o.sync != want.sync || o.ooo != want.ooo || o.engines != want.engines || o.seed != 7 {
			t.Errorf("mode %d: %s sync=%v ooo=%v engines=%d seed=%d, want %+v and seed 7", i, ms[i].Name, o.sync, o.ooo, o.engines, o.seed, want)
		}
	}
	s, _ = Load("t", nil)
	if o := decodeOptions(s, Modes(s, Overrides{})[2].O); o.engines != 2 {
		t.Errorf("out of order on %d engines, want 2", o.engines)
	}
}

// TestCompareModes: CompareModes reports the first frame difference (frame,
// pixel count, first pixel, both colours) and the first query difference
// (statement, run, both values) that option bug=ASYNC-SAME causes out of
// order, and nothing without it; failures that depend on the mode (the
// out-of-order example's expect calls in order) are notes, not failures.
func TestCompareModes(t *testing.T) {
	ooo, _ := assets.Scenario("out-of-order")
	occ, err := os.ReadFile("testdata/modes/occlusion-poll.d3ds")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc, src string
		diff      string // the one difference, "" for none
		failures  bool
	}{
		{"out-of-order example", string(ooo), "", false},
		{"out-of-order example, bug", "option bug=ASYNC-SAME\n" + string(ooo),
			"frame 0 differs in 992 pixels, the first at (32, 0): #ffffffff in sync, #0000ffff in out-of-order", true},
		{"occlusion polled", string(occ), "", false},
		{"occlusion polled, bug", "option bug=ASYNC-SAME\n" + string(occ),
			"line 26, run 1 of that statement: GetData occ (OCCLUSION) = 65536 in sync, 0 in out-of-order", true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("t", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			rep := CompareModes(RunModes(s, Overrides{}))
			switch {
			case tt.diff == "" && len(rep.Differences) > 0:
				t.Errorf("differences %q", rep.Differences)
			case tt.diff != "" && (len(rep.Differences) != 1 || rep.Differences[0] != tt.diff):
				t.Errorf("differences %q, want [%q]", rep.Differences, tt.diff)
			}
			if (len(rep.Failures) > 0) != tt.failures || rep.OK() == tt.failures {
				t.Errorf("failures %+v, OK %v", rep.Failures, rep.OK())
			}
			if rep.Base != ModeSync || rep.Frames+rep.Queries == 0 {
				t.Errorf("base %s, %d frames and %d queries compared", rep.Base, rep.Frames, rep.Queries)
			}
		})
	}
	s, _ := Load("t", ooo)
	rep := CompareModes(RunModes(s, Overrides{}))
	if len(rep.ModeDependent) == 0 || !strings.Contains(rep.ModeDependent[0].Failure, "expected calls") {
		t.Errorf("mode-dependent failures %+v, want the example's expect calls of DmaDependency", rep.ModeDependent)
	}
}

// TestCompareFrames: frames of different counts or sizes are differences
// too.
func TestCompareFrames(t *testing.T) {
	mk := func(name string, frames ...Frame) ModeRun {
		return ModeRun{Mode: Mode{Name: name}, Run: &Run{frames: frames}}
	}
	px := func(w, h int, fill byte) Frame {
		f := Frame{Width: w, Height: h, Pix: make([]byte, w*h*4)}
		for i := range f.Pix {
			f.Pix[i] = fill
		}
		return f
	}
	for _, tt := range []struct {
		a, b ModeRun
		want string
	}{
		{mk("sync", px(2, 2, 0)), mk("in-order", px(2, 2, 0), px(2, 2, 0)), "sync presented 1 frames, in-order 2"},
		{mk("sync", px(2, 2, 0)), mk("in-order", px(4, 1, 0)), "frame 0 is 2x2 in sync, 4x1 in in-order"},
		{mk("sync", px(2, 2, 0), px(2, 2, 0)), mk("in-order", px(2, 2, 0), px(2, 2, 255)),
			"frame 1 differs in 4 pixels, the first at (0, 0): #00000000 in sync, #ffffffff in in-order"},
		{mk("sync", px(2, 2, 9)), mk("in-order", px(2, 2, 9)), ""},
	} {
		if _, got := compareFrames(tt.a, tt.b); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}
