package main

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"d3dsim/assets"
	"d3dsim/core/link"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// readScenario reads FILE, - (stdin) or the scenario a --link carries.
func readScenario(a args, stdin io.Reader) (name string, src []byte, err error) {
	if u, ok := a.flags["link"]; ok {
		src, err := link.FromURL(u)
		if err != nil {
			return "", nil, fmt.Errorf("bad link: %w", err)
		}
		return "link", src, nil
	}
	if len(a.pos) != 1 {
		return "", nil, errors.New("give one scenario file (or - for standard input, or --link URL)")
	}
	name = a.pos[0]
	if name == "-" {
		src, err = io.ReadAll(io.LimitReader(stdin, 1<<20+1))
		return "stdin", src, err
	}
	f, err := os.Open(name)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	src, err = io.ReadAll(io.LimitReader(f, 1<<20+1))
	return name, src, err
}

func cmdRun(a args, stdin io.Reader, stdout, stderr io.Writer, verifyOnly bool) int {
	name, src, err := readScenario(a, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return 2
	}
	s, err := scenario.Load(name, src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	var o scenario.Overrides
	if o.Seed, err = flagUint(a, "seed"); err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return 2
	}
	if _, ok := a.flags["sync"]; ok {
		t := true
		o.Sync = &t
	}
	r := scenario.NewRun(s, o)
	sum := r.Finish()
	if verifyOnly {
		for _, v := range r.Violations() {
			fmt.Fprintf(stdout, "%s:%s\n", name, v)
		}
		fmt.Fprintf(stdout, "%d violations\n", len(r.Violations()))
		if len(r.Violations()) > 0 {
			return 1
		}
		return 0
	}
	if dir, ok := a.flags["out"]; ok {
		if err := writeOut(dir, r); err != nil {
			fmt.Fprintf(stderr, "d3dsim: %v\n", err)
			return 1
		}
	}
	printSummary(stdout, name, sum)
	if !sum.OK() {
		return 1
	}
	return 0
}

func printSummary(w io.Writer, name string, s scenario.Summary) {
	fmt.Fprintf(w, "frames: %d\nevents: %d\n", s.Frames, s.Events)
	if s.Dropped > 0 {
		// The trace is a ring (option maxevents): say what it no longer holds.
		fmt.Fprintf(w, "dropped: %d (the trace ring kept the last %d events; option maxevents=N keeps more)\n", s.Dropped, s.Events-s.Dropped)
	}
	fmt.Fprintf(w, "violations: %d\nhash: %s\nsteps: %d\n", s.Violations, s.Hash, s.Steps)
	for _, m := range s.Messages {
		fmt.Fprintf(w, "message: %s\n", m)
	}
	for _, f := range s.Failures {
		fmt.Fprintf(w, "FAIL %s:%s\n", name, f)
	}
	if s.OK() {
		fmt.Fprintln(w, "ok")
	} else {
		fmt.Fprintf(w, "%d failed\n", s.FailureCount)
	}
}

// writeOut writes frame-NNN.png per Present, trace.jsonl and
// trace.perfetto.json.
func writeOut(dir string, r *scenario.Run) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, f := range r.Frames() {
		var b bytes.Buffer
		if err := png.Encode(&b, f.Image()); err != nil {
			return err
		}
		// Numbered by Present: the oldest of many big frames may be gone.
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("frame-%03d.png", r.FramesDropped()+i)), b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	// The exporters open with the count of events the ring dropped, if any
	// (trace.DroppedEvent, Perfetto's otherData).
	write := func(name string, fn func(*trace.Recorder, io.Writer) error) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if err := fn(r.Recorder(), f); err != nil {
			f.Close()
			return err
		}
		return f.Close()
	}
	if err := write("trace.jsonl", (*trace.Recorder).WriteJSONL); err != nil {
		return err
	}
	return write("trace.perfetto.json", (*trace.Recorder).WritePerfetto)
}

func cmdLink(a args, stdout, stderr io.Writer) int {
	name, src, err := readScenario(a, nil)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return 2
	}
	if _, err := scenario.Load(name, src); err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	base := a.flags["base"]
	if base == "" {
		base = link.DefaultBase
	}
	fmt.Fprintln(stdout, link.TutorialURL(base, string(src), tutorialOf(name, src)))
	return 0
}

// tutorialOf names the tutorial a scenario is, for its link's t= key (the
// page then opens the tutorial's notes): the embedded tutorial whose text it
// is, else the tutorial whose file it is by name (an edited tutorial, whose
// notes the page still shows, with a warning that the text differs), else "".
func tutorialOf(file string, src []byte) string {
	names := assets.Tutorials()
	for _, n := range names {
		if s, _, _ := assets.Tutorial(n); bytes.Equal(s, src) {
			return n
		}
	}
	if base, ok := strings.CutSuffix(filepath.Base(file), ".d3ds"); ok && slices.Contains(names, base) {
		return base
	}
	return ""
}
