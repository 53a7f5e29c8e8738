package inspect

import (
	"testing"

	"d3dsim/assets"
	"d3dsim/core/scenario"
)

// TestStateMidRun asks the state at every event while the run is still
// going, statement by statement, as the page does when a user selects an
// event of a run that is playing: an event before the device's immediate
// context has made a call (D3D11CreateDevice's own) answers an error,
// never a panic (it indexed an empty list of contexts).
func TestStateMidRun(t *testing.T) {
	for _, name := range []string{"alpha-blend", "hello-triangle"} {
		src, ok := assets.Scenario(name)
		if !ok {
			t.Fatalf("no scenario %s", name)
		}
		s, err := scenario.Load(name, src)
		if err != nil {
			t.Fatal(err)
		}
		r := scenario.NewRun(s, scenario.Overrides{})
		j := Record(r)
		answered := 0
		for step := 0; step < 12; step++ {
			if _, done := r.StepStatement(); done {
				break
			}
			for seq := uint64(0); seq <= uint64(len(r.Events())); seq++ {
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Fatalf("%s, statement %d: State(%d) panicked: %v", name, step+1, seq, p)
						}
					}()
					if st, err := j.State(seq, ""); err == nil && st != nil {
						answered++
					}
				}()
			}
		}
		if answered == 0 {
			t.Errorf("%s: no state answered in its first statements", name)
		}
	}
}
