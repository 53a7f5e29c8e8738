package main

import (
	"bufio"
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

// maxLinkText bounds a link read from standard input or --link-file: a
// link's payload decompresses to at most 1 MiB, and DEFLATE and base64 of
// real scenario text are far smaller than that.
const maxLinkText = 4 << 20

// readScenario reads FILE, - (stdin) or the scenario a link carries
// (--link URL, --link - for a link on stdin, --link-file FILE). Every error
// is bad input (exit 2).
func readScenario(a args, stdin io.Reader) (name string, src []byte, err error) {
	u, isLink := a.flags["link"]
	lf, isLinkFile := a.flags["link-file"]
	switch {
	case isLink && isLinkFile:
		return "", nil, errors.New("give --link or --link-file, not both")
	case (isLink || isLinkFile) && len(a.pos) > 0:
		return "", nil, fmt.Errorf("give a FILE or --link, not both (got %s and a link)", a.pos[0])
	case isLink || isLinkFile:
		if isLinkFile || u == "-" {
			r, from := stdin, "standard input"
			if isLinkFile {
				f, err := os.Open(lf)
				if err != nil {
					return "", nil, err
				}
				defer f.Close()
				r, from = f, lf
			}
			b, err := io.ReadAll(io.LimitReader(r, maxLinkText+1))
			if err != nil {
				return "", nil, err
			}
			if len(b) > maxLinkText {
				return "", nil, fmt.Errorf("bad link: the link in %s is longer than %d bytes", from, maxLinkText)
			}
			u = strings.TrimSpace(string(b))
		}
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
		src, err = io.ReadAll(io.LimitReader(stdin, scenario.MaxSource+1))
		return "stdin", src, err
	}
	f, err := os.Open(name)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	src, err = io.ReadAll(io.LimitReader(f, scenario.MaxSource+1))
	return name, src, err
}

func cmdRun(a args, stdin io.Reader, stdout, stderr io.Writer, verifyOnly bool) int {
	name, src, err := readScenario(a, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return exitBadIn
	}
	o := scenario.Overrides{Seed: flagUint(a, "seed"), MaxSteps: flagUint(a, "max-steps"), MaxEvents: flagUint(a, "max-events"),
		MaxTime: flagUint(a, "max-time"), MaxPixels: flagUint(a, "max-pixels"), MaxInstructions: flagUint(a, "max-instructions"), MaxObjects: flagUint(a, "max-objects")}
	switch {
	case o.MaxEvents != nil && *o.MaxEvents < 1000:
		err = badf("flag --max-events %d: must be at least 1000", *o.MaxEvents)
	case o.MaxTime != nil && *o.MaxTime > 1e9:
		err = badf("flag --max-time %d: must be at most 1000000000 (ms)", *o.MaxTime)
	case o.MaxObjects != nil && (*o.MaxObjects < 16 || *o.MaxObjects > 1<<30):
		err = badf("flag --max-objects %d: must be 16..1073741824", *o.MaxObjects)
	}
	_, modes := a.flags["modes"]
	if modes {
		for _, f := range []string{"sync", "out"} {
			if _, ok := a.flags[f]; ok && err == nil {
				err = badf("--modes runs the scenario three times, synchronous among them: it does not take --%s", f)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return exitBadIn
	}
	if text, isCapture, err := captureOf(a, name, src, stderr); isCapture {
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim: %s: %v\n", name, err)
			return exitBadIn
		}
		src = []byte(text)
	}
	s, err := scenario.Load(name, src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadIn
	}
	if modes {
		return runModes(stdout, name, s, o)
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
		if kept := len(r.Violations()); sum.Violations > kept {
			fmt.Fprintf(stdout, "(%d more, of rules listed above)\n", sum.Violations-kept)
		}
		fmt.Fprintf(stdout, "%d violations\n", sum.Violations)
		switch {
		case sum.BadInput:
			for _, f := range sum.Failures {
				fmt.Fprintf(stderr, "%s:%s\n", name, f)
			}
			return exitBadIn
		case sum.Violations > 0:
			return exitFailed
		}
		return exitOK
	}
	if dir, ok := a.flags["out"]; ok {
		if err := writeOut(dir, r); err != nil {
			fmt.Fprintf(stderr, "d3dsim: writing --out %s: %v\n", dir, err)
			return exitIO
		}
	}
	if err := printSummary(stdout, name, sum); err != nil {
		fmt.Fprintf(stderr, "d3dsim: writing the summary: %v\n", err)
		return exitIO
	}
	switch {
	case sum.BadInput:
		return exitBadIn
	case !sum.OK():
		return exitFailed
	}
	return exitOK
}

// printSummary prints the summary: its failures and messages are bounded
// (scenario.Summary), so this is a few hundred KiB at most.
func printSummary(out io.Writer, name string, s scenario.Summary) error {
	w := bufio.NewWriter(out)
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
	return w.Flush()
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

func cmdLink(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	name, src, err := readScenario(a, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return exitBadIn
	}
	if text, isCapture, err := captureOf(a, name, src, stderr); isCapture {
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim: %s: %v\n", name, err)
			return exitBadIn
		}
		src = []byte(text)
	}
	if _, err := scenario.Load(name, src); err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadIn
	}
	base := a.flags["base"]
	if base == "" {
		base = link.DefaultBase
		// Say so: a link to 127.0.0.1 opens only on the machine that runs
		// the dev server.
		fmt.Fprintf(stderr, "d3dsim link: a link to %s, the dev server on this machine (go run .); give --base URL for a link others can open\n", base)
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
