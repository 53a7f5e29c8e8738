package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// Rule ASYNC-SAME as a check anyone can run on any scenario (`d3dsim run
// --modes`): the scenario runs synchronously (option sync=true: every call
// completes on the GPU before it returns), asynchronously in order, and
// asynchronously out of order, and the presented frames and the query
// results must be the same. The article on why Draw is asynchronous is the
// source: asynchrony may change when things happen, never what they
// produce.

// Mode is one of the three ways rule ASYNC-SAME runs a scenario.
type Mode struct {
	Name string // sync, in-order, out-of-order
	O    Overrides
}

// Mode names.
const (
	ModeSync       = "sync"
	ModeInOrder    = "in-order"
	ModeOutOfOrder = "out-of-order"
)

// Modes are the runs rule ASYNC-SAME compares: sync=true; sync=false with
// Windows' scheduling (scheduler=wddm); sync=false with scheduler=salvia (the
// SamBookshelf article's out-of-order design, not Windows'; Overrides.OOO,
// the option's older name ooo=true) on at least two engines (the
// scenario's gpu.engines if more). base's other fields (seed, budgets) apply
// to all three.
func Modes(s *Script, base Overrides) []Mode {
	yes, no := true, false
	engines := max(decodeOptions(s, base).engines, 2)
	mode := func(name string, sync, ooo *bool, engines *int) Mode {
		o := base
		o.Sync, o.OOO = sync, ooo
		if engines != nil {
			o.Engines = engines
		}
		return Mode{name, o}
	}
	return []Mode{
		mode(ModeSync, &yes, &no, nil),
		mode(ModeInOrder, &no, &no, nil),
		mode(ModeOutOfOrder, &no, &yes, &engines),
	}
}

// ModeRun is a scenario run to its end in one mode.
type ModeRun struct {
	Mode Mode
	Run  *Run
}

// RunModes runs s in each of Modes(s, base), one after the other.
func RunModes(s *Script, base Overrides) []ModeRun {
	var runs []ModeRun
	for _, m := range Modes(s, base) {
		r := NewRun(s, m.O)
		r.Finish()
		runs = append(runs, ModeRun{m, r})
	}
	return runs
}

// ModeFailure is a failure of one mode's run.
type ModeFailure struct {
	Mode    string
	Failure string // "LINE:COL: message", as Summary.Failures
}

// ModesReport is what rule ASYNC-SAME found in the runs of RunModes.
type ModesReport struct {
	// Base is the mode the others were compared with: sync, or in-order
	// when the synchronous run took another path (Diverged says where).
	Base     string
	Diverged string
	// Differences are the first frame difference and the first query
	// difference of each mode with Base, in words: the frame (numbered
	// from 0, as d3dsim run --out names them), the pixel and both
	// colours; the GetData statement, its run and both values.
	Differences []string
	// Failures are the runs' failures that do not depend on the mode: the
	// in-order run's (the scenario's own), and another mode's that the
	// in-order run does not have.
	Failures []ModeFailure
	// ModeDependent are failures that legitimately differ between the
	// modes (modeDependent: an `expect calls` of the out-of-order path
	// fails in order): reported, not counted.
	ModeDependent []ModeFailure
	// Frames and Queries are how many frames and query results were
	// compared (with each other mode).
	Frames, Queries int
	// BadInput: a run stopped on a problem with the scenario itself.
	BadInput bool
}

// OK reports whether rule ASYNC-SAME holds and every run passed.
func (r ModesReport) OK() bool { return len(r.Differences) == 0 && len(r.Failures) == 0 && !r.BadInput }

// modeDependent says whether a failure may legitimately differ between the
// modes: `expect calls` describe the asynchronous path (a rename, a
// submission, a wait) and `expect live` may count an allocation the GPU
// still holds; a synchronous run never sees S_FALSE from GetData or
// DXGI_ERROR_WAS_STILL_DRAWING from Map(DO_NOT_WAIT), because the GPU is
// always done (an until loop that polls for them is the way to write a
// scenario that runs the same in every mode).
func modeDependent(mode, failure string) bool {
	if strings.Contains(failure, "expected calls") || strings.Contains(failure, "live objects") {
		return true
	}
	return mode == ModeSync && (strings.Contains(failure, "S_FALSE") || strings.Contains(failure, "WAS_STILL_DRAWING"))
}

// CompareModes applies rule ASYNC-SAME to runs (RunModes' order: sync,
// in-order, out-of-order). Every failure the in-order run (the one a
// scenario is written for) has not must be one that depends on the mode; a
// synchronous run that got data where the scenario expects "not yet" takes
// another path from there (a DO_NOT_WAIT map that succeeds leaves the
// resource mapped), so it is not compared and the asynchronous runs are
// compared with each other instead. Frames are compared pixel by pixel;
// query results where both runs got data (S_OK) from the same run of the
// same GetData statement (an until loop's polls count as one run),
// EVENT and OCCLUSION only: TIMESTAMP is virtual GPU time, which
// legitimately differs.
func CompareModes(runs []ModeRun) ModesReport {
	var rep ModesReport
	if len(runs) != 3 {
		panic("scenario: CompareModes needs the three runs of RunModes")
	}
	inOrder := runs[1].Run.Summary().Failures
	base := runs[0]
	for i, mr := range runs {
		s := mr.Run.Summary()
		rep.BadInput = rep.BadInput || s.BadInput
		diverged := false
		for _, f := range s.Failures {
			switch {
			case diverged, i != 1 && slices.Contains(inOrder, f):
			case modeDependent(mr.Mode.Name, f):
				rep.ModeDependent = append(rep.ModeDependent, ModeFailure{mr.Mode.Name, f})
				if mr.Mode.Name == ModeSync && !strings.Contains(f, "expected calls") && !strings.Contains(f, "live objects") {
					diverged = true
					rep.Diverged = f
				}
			default:
				rep.Failures = append(rep.Failures, ModeFailure{mr.Mode.Name, f})
			}
		}
		if i == 0 && diverged {
			base = runs[1]
		}
	}
	rep.Base = base.Mode.Name
	for _, mr := range runs {
		if mr.Mode.Name == base.Mode.Name || rep.Diverged != "" && mr.Mode.Name == ModeSync {
			continue
		}
		nf, fd := compareFrames(base, mr)
		nq, qd := compareQueries(base, mr)
		rep.Frames, rep.Queries = max(rep.Frames, nf), max(rep.Queries, nq)
		for _, d := range []string{fd, qd} {
			if d != "" {
				rep.Differences = append(rep.Differences, d)
			}
		}
	}
	return rep
}

// compareFrames compares the presented frames of a and b: it returns how
// many were compared and the first difference in words ("" if none).
func compareFrames(a, b ModeRun) (int, string) {
	an, bn := a.Mode.Name, b.Mode.Name
	fa, fb := a.Run.Frames(), b.Run.Frames()
	da, db := a.Run.FramesDropped(), b.Run.FramesDropped()
	if da+len(fa) != db+len(fb) {
		return 0, fmt.Sprintf("%s presented %d frames, %s %d", an, da+len(fa), bn, db+len(fb))
	}
	n := 0
	for i := range fa {
		j := i + da - db // the same frame in b (both keep the newest)
		if j < 0 || j >= len(fb) {
			continue
		}
		n++
		x, y := fa[i], fb[j]
		frame := da + i
		if x.Width != y.Width || x.Height != y.Height {
			return n, fmt.Sprintf("frame %d is %dx%d in %s, %dx%d in %s", frame, x.Width, x.Height, an, y.Width, y.Height, bn)
		}
		first, count := -1, 0
		for p := 0; p+3 < len(x.Pix) && p+3 < len(y.Pix); p += 4 {
			if [4]byte(x.Pix[p:p+4]) != [4]byte(y.Pix[p:p+4]) {
				if first < 0 {
					first = p
				}
				count++
			}
		}
		if first >= 0 {
			px := first / 4
			return n, fmt.Sprintf("frame %d differs in %d pixels, the first at (%d, %d): %s in %s, %s in %s", frame, count, px%x.Width, px/x.Width,
				colorString([4]byte(x.Pix[first:first+4])), an, colorString([4]byte(y.Pix[first:first+4])), bn)
		}
	}
	return n, ""
}

// queryKey is one run of one GetData statement.
type queryKey struct{ line, n int }

// compareQueries compares the data of every GetData statement run that got
// data (S_OK) in both a and b, EVENT and OCCLUSION queries: it returns how
// many were compared and the first difference in words ("" if none).
func compareQueries(a, b ModeRun) (int, string) {
	last := func(qs []QueryResult) (map[queryKey]QueryResult, []queryKey) {
		m := map[queryKey]QueryResult{}
		var order []queryKey
		for _, q := range qs {
			k := queryKey{q.Line, q.N}
			if _, seen := m[k]; !seen {
				order = append(order, k)
			}
			m[k] = q // an until loop's last poll is its answer
		}
		return m, order
	}
	qa, order := last(a.Run.QueryResults())
	qb, _ := last(b.Run.QueryResults())
	n := 0
	for _, k := range order {
		x, y := qa[k], qb[k]
		if x.HR != "S_OK" || y.HR != "S_OK" || x.Type == "TIMESTAMP" {
			continue
		}
		n++
		if x.Value != y.Value {
			return n, fmt.Sprintf("line %d, run %d of that statement: GetData %s (%s) = %d in %s, %d in %s",
				k.line, k.n+1, x.Query, x.Type, x.Value, a.Mode.Name, y.Value, b.Mode.Name)
		}
		if x.Data != y.Data {
			return n, fmt.Sprintf("line %d, run %d of that statement: GetData %s (%s) = %s in %s, %s in %s",
				k.line, k.n+1, x.Query, x.Type, x.Data, a.Mode.Name, y.Data, b.Mode.Name)
		}
	}
	return n, ""
}
