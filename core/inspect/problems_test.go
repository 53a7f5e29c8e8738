package inspect

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/scenario"
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
			{"refused", 8, []string{"pfnSetErrorCb (E_INVALIDARG)", "multisampled textures (Texture2DMS)", "CreatePixelShader(ps) at line 8 fails"}},
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
