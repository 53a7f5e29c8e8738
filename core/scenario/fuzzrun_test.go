package scenario

import (
	"testing"

	"d3dsim/assets"
	"d3dsim/core/memlimit"
)

// FuzzRun runs arbitrary scenarios that load, with a small step budget: no
// input may panic or run away (a link can carry any scenario). It found that
// loops without API calls ignored the step budget. Runs are slower than
// parses, so make fuzz gives it fewer executions (FUZZRUNTIME).
func FuzzRun(f *testing.F) {
	for _, name := range assets.Scenarios() {
		if src, ok := assets.Scenario(name); ok {
			f.Add(src)
		}
	}
	// What it found is kept in testdata/fuzz/FuzzRun (loops without API
	// calls, a thread statement in a loop).
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Load("f.d3ds", src)
		if err != nil {
			return
		}
		// 300 steps: what they may allocate in all (freed or not) is
		// bounded by the run's limits, sysmem (64 MiB here) first.
		memlimit.Check(t, 256<<20, "a run of 300 steps", func() {
			steps, mem := uint64(300), uint64(64<<20)
			r := NewRun(s, Overrides{MaxSteps: &steps, SysMem: &mem})
			if sum := r.Finish(); !sum.Done {
				t.Fatal("Finish returned before the end")
			}
		})
	})
}
