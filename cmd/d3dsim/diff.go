package main

import (
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"os"
	"strings"

	"d3dsim/core/inspect"
	"d3dsim/core/scenario"
)

// cmdDiff compares two runs (docs/inspect.md "Comparing two runs"): two
// scenarios, or one scenario in two modes (--modes: in order against out
// of order, or --a and --b MODE), each run to its end with a journal.
func cmdDiff(a args, stdin io.Reader, stdout, stderr io.Writer) int {
	bad := func(format string, v ...any) int {
		fmt.Fprintf(stderr, "d3dsim diff: %s\n", fmt.Sprintf(format, v...))
		return exitBadIn
	}
	o := scenario.Overrides{Seed: flagUint(a, "seed"), MaxSteps: flagUint(a, "max-steps")}
	load := func(file string) (*scenario.Script, error) {
		name, src, err := readScenario(args{pos: []string{file}}, stdin)
		if err != nil {
			return nil, err
		}
		return scenario.Load(name, src)
	}
	var sides [2]inspect.DiffSide
	if _, modes := a.flags["modes"]; modes {
		if len(a.pos) != 1 {
			return bad("--modes compares one scenario in two modes: give one FILE")
		}
		sc, err := load(a.pos[0])
		if err != nil {
			return bad("%v", err)
		}
		byName := map[string]scenario.Mode{}
		var names []string
		for _, m := range scenario.Modes(sc, o) {
			byName[m.Name] = m
			names = append(names, m.Name)
		}
		pick := []string{scenario.ModeInOrder, scenario.ModeOutOfOrder}
		for i, f := range []string{"a", "b"} {
			if v, ok := a.flags[f]; ok {
				pick[i] = v
			}
		}
		for i, n := range pick {
			m, ok := byName[n]
			if !ok {
				return bad("--%s %q: a mode is one of %s", []string{"a", "b"}[i], n, strings.Join(names, ", "))
			}
			r, j := inspect.NewSession(sc, m.O).Run()
			sides[i] = inspect.DiffSide{Label: m.Name, Run: r, Journal: j}
		}
	} else {
		if len(a.pos) != 2 {
			return bad("give two scenario files (d3dsim diff A.d3ds B.d3ds), or one with --modes")
		}
		if _, ok := a.flags["a"]; ok {
			return bad("--a and --b choose the modes of --modes")
		}
		if _, ok := a.flags["b"]; ok {
			return bad("--a and --b choose the modes of --modes")
		}
		for i, f := range a.pos {
			sc, err := load(f)
			if err != nil {
				return bad("%v", err)
			}
			r, j := inspect.NewSession(sc, o).Run()
			sides[i] = inspect.DiffSide{Label: f, Run: r, Journal: j}
		}
	}
	c := inspect.Compare(sides[0], sides[1], a.flags["at"])
	if file, ok := a.flags["mask"]; ok {
		m := c.Pixels.Mask()
		if m == nil {
			return bad("--mask: no mask: the runs' last frames are missing or of different sizes")
		}
		f, err := os.Create(file)
		if err == nil {
			err = png.Encode(f, m)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "d3dsim diff: %v\n", err)
			return exitIO
		}
	}
	if _, ok := a.flags["json"]; ok {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(c); err != nil {
			fmt.Fprintf(stderr, "d3dsim diff: %v\n", err)
			return exitIO
		}
		return exitOK
	}
	fmt.Fprint(stdout, c.Text())
	return exitOK
}
