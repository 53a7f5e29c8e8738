package scenario

import (
	"testing"

	"d3dsim/assets"
	"d3dsim/core/memlimit"
)

// FuzzRun runs arbitrary scenarios that load, with a small step budget: no
// input may panic or run away (a link can carry any scenario). It found that
// loops without API calls ignored the step budget. Runs are slower than
// parses, so make fuzz gives it fewer executions (FUZZCOUNTS).
func FuzzRun(f *testing.F) {
	for _, name := range assets.Scenarios() {
		if src, ok := assets.Scenario(name); ok {
			f.Add(src)
		}
	}
	// The loop and the data comparisons (a bound of a billion runs
	// must still stop at the step budget).
	f.Add([]byte(queryScene + "until hr != S_FALSE max 1000000000 {\n  imm.GetData q\n  imm.GetData occ\n}\nuntil data t2 > 0 max 3 {\n  imm.GetData t2\n}\nexpect data occ >= 1\nexpect data t2 > t1\n"))
	f.Add([]byte("dev, imm = D3D11CreateDevice\nuntil hr == S_FALSE max 1000000000 {\n  imm.Flush\n}\n"))
	// Every query kind, predication and the data's members.
	f.Add([]byte(queryScene + "st = dev.CreateQuery Query=PIPELINE_STATISTICS\np = dev.CreatePredicate Query=OCCLUSION_PREDICATE\nimm.Begin st\nimm.Begin p\nimm.Draw 6 0\nimm.End p\nimm.End st\nimm.SetPredication p TRUE\nimm.Draw 6 0\nimm.SetPredication st FALSE\nimm.GetPredication\nuntil hr == S_OK max 100 {\n  imm.GetData st\n}\nexpect data st.PSInvocations > 0\nexpect data st.Frequency == p\n"))
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
