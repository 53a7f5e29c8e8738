package main

import (
	"bufio"
	"fmt"
	"io"

	"d3dsim/core/scenario"
)

// runModes is `d3dsim run --modes`: rule ASYNC-SAME on one scenario. The
// scenario runs synchronously, asynchronously in order and out of order
// (scenario.RunModes); each run gets a summary line, then come the
// failures (FAIL MODE FILE:LINE:COL: ...), the failures that depend on the
// mode (note ...), the first difference in frames and in query results of
// each mode with the base (DIFF ...), and a verdict. Exit 0 when the rule
// holds and every run passed, 1 otherwise, 2 when a run stopped on bad
// input.
func runModes(stdout io.Writer, name string, s *scenario.Script, o scenario.Overrides) int {
	runs := scenario.RunModes(s, o)
	rep := scenario.CompareModes(runs)
	w := bufio.NewWriter(stdout)
	for _, mr := range runs {
		sum := mr.Run.Summary()
		fmt.Fprintf(w, "%-14s frames: %d  hash: %s  violations: %d  steps: %d  failures: %d\n",
			mr.Mode.Name+":", sum.Frames, orNone(sum.Hash), sum.Violations, sum.Steps, sum.FailureCount)
	}
	for _, f := range rep.Failures {
		fmt.Fprintf(w, "FAIL %s %s:%s\n", f.Mode, name, f.Failure)
	}
	for _, f := range rep.ModeDependent {
		fmt.Fprintf(w, "note %s %s:%s (depends on the mode: not counted)\n", f.Mode, name, f.Failure)
	}
	if rep.Diverged != "" {
		fmt.Fprintf(w, "note the synchronous run took another path (%s:%s): the asynchronous runs are compared with the in-order one\n", name, rep.Diverged)
	}
	for _, d := range rep.Differences {
		fmt.Fprintf(w, "DIFF %s\n", d)
	}
	if len(rep.Differences) == 0 {
		fmt.Fprintf(w, "ASYNC-SAME holds: frames (%d) and query results (%d) the same in every mode as in the %s run\n", rep.Frames, rep.Queries, rep.Base)
	} else {
		fmt.Fprintf(w, "ASYNC-SAME violated: %d difference(s) with the %s run\n", len(rep.Differences), rep.Base)
	}
	if rep.OK() {
		fmt.Fprintln(w, "ok")
	} else {
		fmt.Fprintf(w, "%d failed\n", len(rep.Failures)+len(rep.Differences))
	}
	if err := w.Flush(); err != nil {
		return exitIO
	}
	switch {
	case rep.BadInput:
		return exitBadIn
	case !rep.OK():
		return exitFailed
	}
	return exitOK
}

func orNone(hash string) string {
	if hash == "" {
		return "-"
	}
	return hash
}
