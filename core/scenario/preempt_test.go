package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/assets"
)

// withOptions puts option lines first and drops the scenario's own lines
// for the same keys.
func withOptions(src string, opts ...string) string {
	var rest []string
lines:
	for _, line := range strings.Split(src, "\n") {
		l := strings.TrimSpace(line)
		for _, o := range opts {
			if key, _, _ := strings.Cut(o, "="); strings.HasPrefix(l, key+"=") {
				continue lines
			}
		}
		rest = append(rest, line)
	}
	return strings.Join(opts, "\n") + "\n" + strings.Join(rest, "\n")
}

func scenarioSource(t *testing.T, f string) string {
	t.Helper()
	if src, ok := assets.Scenario(f); ok {
		return string(src)
	}
	src, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestPreemptSeeds explores interleavings: the two free-threading scenarios
// under 20 seeds each, with threads descheduled inside their kernel
// callbacks (and CalcPrivate* DDIs) while the other thread's free-threaded
// calls run. Every run must end, break no rule and meet its expectations;
// some runs must really overlap.
func TestPreemptSeeds(t *testing.T) {
	for _, f := range []string{"free-threaded", "testdata/async/serialised.d3ds"} {
		src := scenarioSource(t, f)
		preempted := 0
		for seed := 1; seed <= 20; seed++ {
			r := runSource(t, withOptions(src, "option preempt=true", fmt.Sprintf("option seed=%d", seed)))
			if v := r.Violations(); len(v) != 0 {
				t.Errorf("%s seed %d: %v", f, seed, v)
			}
			if sum := r.Summary(); !sum.OK() {
				t.Errorf("%s seed %d: %q", f, seed, sum.Failures)
			}
			for _, e := range r.Events() {
				if e.Name == "Preempted" {
					preempted++
				}
			}
		}
		if preempted == 0 {
			t.Errorf("%s: no preemption in 20 seeds", f)
		}
	}
}

// TestPreemptHarmless: option preempt=true on every other clean scenario
// changes no outcome (most have one thread: nothing to run meanwhile).
func TestPreemptHarmless(t *testing.T) {
	files := assets.Scenarios()
	for _, dir := range []string{"testdata/async", "testdata/commandlists"} {
		m, _ := filepath.Glob(dir + "/*.d3ds")
		files = append(files, m...)
	}
	for _, f := range files {
		src := scenarioSource(t, f)
		if strings.Contains(src, "expect violation ") {
			continue
		}
		r := runSource(t, withOptions(src, "option preempt=true"))
		if v := r.Violations(); len(v) != 0 {
			t.Errorf("%s: %v", f, v)
		}
		if sum := r.Summary(); !sum.OK() {
			t.Errorf("%s: %q", f, sum.Failures)
		}
	}
}
