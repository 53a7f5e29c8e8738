package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/scenario"
	"d3dsim/core/trace"
)

// runScenario runs a scenario of the repository (failed expectations
// allowed) and returns the run.
func runScenario(t *testing.T, file string) *scenario.Run {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", file))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load(file, src)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewSession(sc, scenario.Overrides{}).Run()
	return r
}

// Each kind of problem, from a scenario that has it: its title, its line
// and words of its cause, in event order.
func TestProblems(t *testing.T) {
	type want struct {
		kind  string
		line  int
		words []string
	}
	for _, tc := range []struct {
		file string
		want []want
	}{
		{"assets/scenarios/gpu-hang.d3ds", []want{
			{"tdr", 24, []string{"neither finished nor preempted DMA buffer 1 (fence 1 of kc1)", "TDR delay (2.000 s", "carries ClearRenderTargetView(artv) at line 22, CopyResource(astage) at line 23"}},
			{"removed", 24, []string{"Device a was removed (hung)", "DXGI_ERROR_DEVICE_REMOVED"}},
		}},
		{"assets/scenarios/two-devices.d3ds", []want{
			{"rejected", 19, []string{"DxgkDdiRender returned STATUS_INVALID_PARAMETER", "allocation a1 belongs to kd1", "Present(bsc) at line 19"}},
			{"removed", 19, []string{"Present(bsc) at line 19 returned DXGI_ERROR_DEVICE_REMOVED: device b was removed"}},
		}},
		{"assets/tutorials/09-errors.d3ds", []want{
			{"debug", 15, []string{"D32_FLOAT"}},
			{"debug", 20, []string{"D3DDDIERR_APPLICATIONERROR"}},
			{"debug", 27, []string{"CORRUPTION"}},
			{"debug", 34, []string{"LIFE-DANGLING"}},
			{"fault", 62, []string{"faulted in DMA buffer 1 at packet 12", "step limit"}},
			{"tdr", 70, []string{"DMA buffer 5 (fence 3 of kc1)", "CopyResource(shot) at line 69"}},
			{"removed", 70, []string{"Device dev was removed (hung)"}},
		}},
		{"assets/tutorials/29-residency-budgets.d3ds", []want{
			{"fault", 43, []string{"on no residency list", "a2 (tb)", "CopyResource(s) at line 42"}},
			{"removed", 43, []string{"(GPU page fault)"}},
			{"violation", 43, []string{"pfnMakeResidentCb"}},
		}},
		{"core/inspect/testdata/refused.d3ds", []want{
			{"refused", 46, []string{"pfnSetErrorCb (E_INVALIDARG)", "o16: a vs_4_0 shader has 16 output registers", "CreateVertexShader(vs) at line 46 fails"}},
		}},
		{"assets/scenarios/hello-triangle.d3ds", nil},
	} {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			r := runScenario(t, tc.file)
			got := Problems(r.Recorder())
			if len(got) != len(tc.want) {
				for _, p := range got {
					t.Log(p.Text())
				}
				t.Fatalf("%d problems, want %d", len(got), len(tc.want))
			}
			for i, w := range tc.want {
				p := got[i]
				if p.Kind != w.kind || p.Line != w.line {
					t.Errorf("problem %d: %s at line %d, want %s at line %d: %s", i, p.Kind, p.Line, w.kind, w.line, p.Text())
				}
				for _, s := range w.words {
					if !strings.Contains(p.Cause, s) {
						t.Errorf("problem %d (%s): cause %q lacks %q", i, p.Kind, p.Cause, s)
					}
				}
				if e, ok := r.Recorder().At(p.Seq); !ok || e.Line != p.Line {
					t.Errorf("problem %d links event %d, which is not in the trace at its line", i, p.Seq)
				}
			}
		})
	}
}

// Scanning a trace piece by piece (as the page does while a run plays)
// finds what one scan of the whole finds: a removal reported once.
func TestProblemsIncremental(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "assets/scenarios/two-devices.d3ds"))
	if err != nil {
		t.Fatal(err)
	}
	sc, err := scenario.Load("two-devices.d3ds", src)
	if err != nil {
		t.Fatal(err)
	}
	r := scenario.NewRun(sc, scenario.Overrides{})
	ps := NewProblemScanner()
	var got []Problem
	for done := false; !done; {
		done = r.Step(1)
		got = append(got, ps.Scan(r.Recorder())...)
	}
	all := Problems(r.Recorder())
	if len(got) != len(all) || len(all) != 2 {
		t.Fatalf("incremental %d problems, whole %d, want 2", len(got), len(all))
	}
	for i := range all {
		if got[i].Seq != all[i].Seq || got[i].Cause != all[i].Cause {
			t.Errorf("problem %d: %s, whole scan %s", i, got[i].Text(), all[i].Text())
		}
	}
}

// A clipped trace holds the events of its time range and the calls open
// at its start that enclose them; nothing after it.
func TestClipTrace(t *testing.T) {
	r := runScenario(t, "assets/tutorials/03-map-hazards.d3ds")
	all := r.Recorder().Events()
	// The range: from the first WaitForFence's start to its end.
	var t0, t1 int64 = -1, -1
	var wait uint64
	for _, e := range all {
		if e.Name == "WaitForFence" && t0 < 0 {
			t0, wait = e.T, e.Seq
		} else if e.Name == "WaitForFence" && t0 >= 0 && e.Seq > wait {
			t1 = e.T
			break
		}
	}
	if t0 < 0 || t1 <= t0 {
		t.Fatalf("no wait in the tutorial: %d..%d", t0, t1)
	}
	got := ClipTrace(r.Recorder(), t0, t1)
	inRange, before := 0, 0
	for i, e := range got {
		if i > 0 && e.Seq <= got[i-1].Seq {
			t.Fatalf("event %d after %d: not in seq order", e.Seq, got[i-1].Seq)
		}
		switch {
		case e.T > t1:
			t.Errorf("event %d at %d is after the range's end %d", e.Seq, e.T, t1)
		case e.T < t0:
			before++
			if e.Kind != trace.Call {
				t.Errorf("event %d before the range is a %v, not an enclosing call", e.Seq, e.Kind)
			}
		default:
			inRange++
		}
	}
	want := 0
	for _, e := range all {
		if e.T >= t0 && e.T <= t1 {
			want++
		}
	}
	if inRange != want || before == 0 {
		t.Errorf("%d events in the range (want %d), %d enclosing calls (want the Map and its DDIs)", inRange, want, before)
	}
	// The Map that waited encloses the wait.
	found := false
	for _, e := range got {
		if e.Kind == trace.Call && e.From == trace.App && e.Name == "Map" {
			found = true
		}
	}
	if !found {
		t.Error("the Map whose wait the range holds is not in the clip")
	}
	if n := len(ClipTrace(r.Recorder(), t1, t0)); n != len(got) {
		t.Errorf("a reversed range clips %d events, want %d", n, len(got))
	}
}
