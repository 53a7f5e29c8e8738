package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"d3dsim/core/apitrace"
	"d3dsim/core/scenario"
)

// apitrace captures in and out (docs/apitrace.md): `export` runs a scenario
// and writes its calls as an apitrace .trace; `import` writes the scenario
// a capture (.trace or `apitrace dump` text) is; `run` and `verify` run a
// capture as they run a scenario.

// maxDumpText bounds dump text read from standard input.
const maxDumpText = 256 << 20

// captureOf imports the capture in file (or in data, read from standard
// input) when it is one; ok false for a scenario.
func captureOf(a args, name string, data []byte, stderr io.Writer) (text string, ok bool, err error) {
	if apitrace.Detect(data) == apitrace.FormatScenario {
		return "", false, nil
	}
	var r io.Reader
	if name == "stdin" {
		r = strings.NewReader(string(data))
	} else {
		f, err := os.Open(name)
		if err != nil {
			return "", true, err
		}
		defer f.Close()
		r = f
	}
	text, rep, err := importCapture(a, name, r)
	if rep != nil && rep.Calls > 0 {
		fmt.Fprint(stderr, indentReport(name, rep))
	}
	return text, true, err
}

func indentReport(name string, rep *apitrace.Report) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(rep.String(), "\n"), "\n") {
		b.WriteString("d3dsim: " + name + ": " + l)
	}
	return b.String() + "\n"
}

// importCapture reads a capture and writes its scenario.
func importCapture(a args, name string, r io.Reader) (string, *apitrace.Report, error) {
	src, _, err := apitrace.Open(r, apitrace.Options{})
	if err != nil {
		return "", nil, err
	}
	if src == nil {
		return "", nil, errors.New("not an apitrace capture (a .trace file or `apitrace dump` text)")
	}
	dir, hasDir := a.flags["blobs"]
	if !hasDir && name != "stdin" {
		dir = filepath.Dir(name)
	}
	opt := apitrace.ImportOptions{Name: filepath.Base(name), Strict: a.flags["strict"] == "true",
		Blob: func(file string) ([]byte, error) {
			if dir == "" || strings.ContainsAny(file, `/\`) || file == ".." {
				return nil, fmt.Errorf("blob file %q: give --blobs DIR, the directory `apitrace dump --blobs` ran in", file)
			}
			return os.ReadFile(filepath.Join(dir, file))
		}}
	return apitrace.Import(src, opt)
}

func cmdImport(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(a.pos) != 1 {
		fmt.Fprintf(stderr, "d3dsim import: give one capture file (a .trace, `apitrace dump` text, or - for standard input)\n")
		return exitBadIn
	}
	name := a.pos[0]
	var r io.Reader
	if name == "-" {
		name = "stdin"
		r = io.LimitReader(stdin, maxDumpText)
	} else {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim: %v\n", err)
			return exitBadIn
		}
		defer f.Close()
		r = f
	}
	text, rep, err := importCapture(a, name, r)
	if rep != nil && rep.Calls > 0 {
		fmt.Fprint(stderr, indentReport(name, rep))
	}
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %s: %v\n", name, err)
		return exitBadIn
	}
	_, loadErr := scenario.Load(name, []byte(text))
	out := stdout
	if path, ok := a.flags["o"]; ok {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim: %v\n", err)
			return exitIO
		}
		defer f.Close()
		out = f
	}
	if _, err := io.WriteString(out, text); err != nil {
		fmt.Fprintf(stderr, "d3dsim: writing the scenario: %v\n", err)
		return exitIO
	}
	if loadErr != nil {
		// written anyway, to look at: the import made something the
		// language refuses
		fmt.Fprintf(stderr, "d3dsim: %s: the imported scenario does not load: %v\n", name, loadErr)
		return exitBadIn
	}
	return exitOK
}

func cmdExport(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	path, ok := a.flags["o"]
	if !ok {
		fmt.Fprintf(stderr, "d3dsim export: give -o FILE, the .trace to write\n")
		return exitBadIn
	}
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
	s, err := scenario.Load(name, src)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitBadIn
	}
	o := scenario.Overrides{Seed: flagUint(a, "seed"), MaxSteps: flagUint(a, "max-steps")}
	if _, ok := a.flags["sync"]; ok {
		t := true
		o.Sync = &t
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return exitIO
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: %v\n", err)
		return exitIO
	}
	w := bufio.NewWriterSize(f, 1<<20)
	e := apitrace.NewExporter(w, s, filepath.Base(name))
	r := scenario.NewRun(s, o)
	r.Observe(e.Observer())
	sum := r.Finish()
	err = e.Close()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim: writing %s: %v\n", path, err)
		return exitIO
	}
	fmt.Fprintf(stdout, "%s: %d calls, %d frames (hash %s)\n", path, e.Calls(), sum.Frames, sum.Hash)
	if e.Dropped > 0 {
		fmt.Fprintf(stdout, "%d writes to memory that was not mapped have no D3D11 call and are not in the capture\n", e.Dropped)
	}
	for _, fl := range sum.Failures {
		fmt.Fprintf(stdout, "FAIL %s:%s\n", name, fl)
	}
	switch {
	case sum.BadInput:
		return exitBadIn
	case !sum.OK():
		return exitFailed
	}
	return exitOK
}
