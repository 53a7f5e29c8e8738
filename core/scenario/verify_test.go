package scenario

import (
	"os"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
	"d3dsim/core/verify"
)

// bugCases pairs each rule with a scenario its bug switch breaks it in.
var bugCases = []struct {
	rule  string
	asset string
}{
	{"WDDM-FLOW", "hello-triangle"},
	{"WDDM-FULL", "full-command-buffer"},
	{"WDDM-ISOLATE", "two-devices"},
	{"WDDM-PRESENT", "hello-triangle"},
	{"WDDM-RESIDENT", "testdata/async/residency.d3ds"},
	{"MAP-HAZARD", "testdata/async/staging-readback.d3ds"},
	{"LIFE-DANGLING", "testdata/async/dangling.d3ds"},
	{"ASYNC-SAME", "out-of-order"},
	{"ERR-ASYNC", "testdata/async/tdr.d3ds"},
	{"CLS-SIZES", "command-lists"},
	{"CLS-DEP", "command-lists"},
	{"CLS-FIRST", "testdata/commandlists/release-while-bound.d3ds"},
	{"CL-FINISH", "command-lists"},
	{"CL-STATE", "testdata/commandlists/execute-released.d3ds"},
	{"ERR-DC", "testdata/commandlists/dc-out-of-memory.d3ds"},
	{"CL-OOM", "testdata/commandlists/recycle-out-of-memory.d3ds"},
	{"CL-CAPS", "testdata/commandlists/no-recycling.d3ds"},
	{"CLS-ONE", "command-lists"},
	{"CLS-OPEN", "command-lists"},
	{"CL-CLOSE", "command-lists"},
	{"CL-ABANDON", "testdata/commandlists/abandon.d3ds"},
	{"CL-DESTROY", "command-lists"},
	{"CL-RECYCLE-ERR", "command-lists"},
	{"CL-EXEC", "testdata/commandlists/execute-clears.d3ds"},
	{"CL-SIZE", "testdata/commandlists/no-recycling.d3ds"},
	{"CL-IMPLICIT", "testdata/commandlists/restore-and-implicit.d3ds"},
	{"CL-RECYCLE-THREAD", "command-lists"},
	{"FT-PRESENT", "sync-destroy"},
	{"FT-MODE", "testdata/async/fullscreen.d3ds"},
	{"FT-RENDER", "testdata/async/free-threaded-create.d3ds"},
	{"ERR-APP", "testdata/async/driver-errors.d3ds"},
	{"DD-ORDER", "four-threads"},
	{"DD-FLUSH", "sync-destroy"},
	{"DD-DEVICE", "four-threads"},
	{"DD-PRIMARY", "four-threads"},
	{"AM-SUBMIT", "spinning-cube"},
	{"AM-BALANCE", "spinning-cube"},
	{"FT-CAP", "testdata/async/serialised.d3ds"},
	{"FT-CALC", "free-threaded"},
	{"FT-HCTX", "free-threaded"},
	{"FT-ALLOC", "free-threaded"},
	{"FT-TABLE", "testdata/async/fullscreen.d3ds"},
	{"DD-SYNC", "sync-destroy"},
	{"AM-DC", "testdata/commandlists/big-list.d3ds"},
}

// TestBugSwitches: for every rule, its `option bug=` switch makes the
// simulated stack break it and the verifier name it; without the switch the
// same scenario is silent.
func TestBugSwitches(t *testing.T) {
	tests := bugCases
	covered := map[string]bool{}
	for _, tt := range tests {
		covered[tt.rule] = true
		t.Run(tt.rule, func(t *testing.T) {
			src, ok := assets.Scenario(tt.asset)
			if !ok {
				var err error
				if src, err = os.ReadFile(tt.asset); err != nil {
					t.Fatal(err)
				}
			}
			clean := runSource(t, string(src))
			if v := clean.Violations(); len(v) != 0 {
				t.Fatalf("clean run of %s reports %v", tt.asset, v)
			}
			buggy := runSource(t, "option bug="+tt.rule+"\n"+string(src))
			found, warning := false, true
			for _, v := range buggy.Violations() {
				if v.Rule != tt.rule {
					t.Errorf("bug=%s also broke %s: %s", tt.rule, v.Rule, v)
				}
				found = found || v.Rule == tt.rule
				warning = warning && v.Severity == verify.Warning
			}
			if !found {
				t.Fatalf("bug=%s: the verifier did not report %s", tt.rule, tt.rule)
			}
			if warning {
				// What the page words "almost always" is a warning: listed
				// and traced, but it fails no run (the scenario's own `expect
				// calls` may still fail: the bug changes the calls).
				if s := buggy.Summary(); strings.Contains(strings.Join(s.Failures, "\n"), "violation of "+tt.rule) || s.Violations != 0 {
					t.Errorf("bug=%s: a warning failed the run or was counted: %q, %d violations", tt.rule, s.Failures, s.Violations)
				}
				return
			}
			// The violation is in the trace and, unexpected, fails the run.
			if s := buggy.Summary(); s.OK() || !strings.Contains(strings.Join(s.Failures, "\n"), tt.rule) {
				t.Errorf("bug=%s: summary failures %q do not name the rule", tt.rule, s.Failures)
			}
		})
	}
	for _, r := range verify.Rules {
		if !covered[string(r.ID)] {
			t.Errorf("rule %s has no bug-switch test", r.ID)
		}
	}
}

// TestCleanScenariosSilent: without a bug switch, every clean
// scenario (the assets and the testdata that expects no violation) is
// silent for every rule, the new seed-000 ones included.
func TestCleanScenariosSilent(t *testing.T) {
	var files []string
	for _, name := range assets.Scenarios() {
		files = append(files, name)
	}
	for _, dir := range []string{"testdata/async", "testdata/commandlists", "testdata/threads"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			files = append(files, dir+"/"+e.Name())
		}
	}
	n := 0
	for _, f := range files {
		src, ok := assets.Scenario(f)
		if !ok {
			var err error
			if src, err = os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		}
		for _, v := range runSource(t, string(src)).Violations() {
			if !strings.Contains(string(src), "expect violation "+v.Rule) { // (one shown on purpose is fine)
				t.Errorf("%s: %v", f, v)
			}
		}
		n++
	}
	if n < 30 {
		t.Fatalf("only %d scenarios ran", n)
	}
}

// TestExpectViolation: `expect violation RULE` makes the violation expected.
func TestExpectViolation(t *testing.T) {
	src, _ := assets.Scenario("full-command-buffer")
	s := strings.Replace(string(src), "expect violations == 0", "expect violation WDDM-FULL", 1)
	s = strings.Replace(s, "sc.Present\n", "sc.Present\nexpect hr == DXGI_ERROR_DEVICE_REMOVED\n", 1)
	r := runSource(t, "option bug=WDDM-FULL\n"+s)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

func runSource(t *testing.T, src string) *Run {
	t.Helper()
	s, err := Load("t.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	r.Finish()
	return r
}

// replay feeds a recorded trace, filtered by keep, to a fresh verifier.
func replay(events []trace.Event, keep func(*trace.Event) bool) []verify.Violation {
	rec := trace.NewRecorder(nil, nil)
	for _, e := range events {
		if e.Kind == trace.Violation || !keep(&e) {
			continue
		}
		e.Parent = 0 // recomputed from the calls still open on the thread
		rec.Emit(e)
	}
	v := verify.New(rec)
	v.Poll()
	return v.Violations()
}

// TestDDSyncTrace: the heavier synchronous-destruction pattern of "Changes from Direct3D 10"
// (ClearState; Flush; End; GetData until S_OK; Flush) must leave the
// destroyed resource's allocation gone in the kernel. The sync-destroy trace
// passes; the same trace without the kernel's DxgkDdiDestroyAllocation of
// that allocation is a DD-SYNC violation at the last Flush.
func TestDDSyncTrace(t *testing.T) {
	src, _ := assets.Scenario("sync-destroy")
	events := runSource(t, string(src)).Events()
	if v := replay(events, func(*trace.Event) bool { return true }); len(v) != 0 {
		t.Fatalf("the replayed sync-destroy trace reports %v", v)
	}
	var alloc string // the allocation of b, the heavier pattern's texture
	for _, e := range events {
		if e.Name == "DxgkDdiCreateAllocation" && e.Obj == "b" {
			alloc = e.Handle
		}
	}
	if alloc == "" {
		t.Fatal("no allocation for b in the trace")
	}
	v := replay(events, func(e *trace.Event) bool { return !(e.Name == "DxgkDdiDestroyAllocation" && e.Handle == alloc) })
	if len(v) != 1 || v[0].Rule != "DD-SYNC" || !strings.Contains(v[0].Msg, alloc) {
		t.Fatalf("without the kernel's free of %s: %v, want one DD-SYNC naming it", alloc, v)
	}
}

// loadAsset reads an asset scenario or a testdata file.
func loadAsset(t *testing.T, name string) string {
	t.Helper()
	src, ok := assets.Scenario(name)
	if !ok {
		var err error
		if src, err = os.ReadFile(name); err != nil {
			t.Fatal(err)
		}
	}
	return string(src)
}

// TestDispatchSame: the verifier's dispatch (each event only to the checks
// that can do something with it, so the Draw path stays fast) finds exactly what every check on
// every event finds — on every clean scenario, and with every rule's bug
// switch on its scenario and on two scenarios that exercise most layers.
func TestDispatchSame(t *testing.T) {
	var srcs []string
	var names []string
	add := func(name, src string) { names, srcs = append(names, name), append(srcs, src) }
	for _, name := range assets.Scenarios() {
		add(name, loadAsset(t, name))
	}
	for _, name := range assets.Tutorials() {
		src, _, _ := assets.Tutorial(name)
		add("tutorial "+name, string(src))
	}
	for _, dir := range []string{"testdata/async", "testdata/commandlists", "testdata/threads"} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			add(dir+"/"+e.Name(), loadAsset(t, dir+"/"+e.Name()))
		}
	}
	for _, bc := range bugCases {
		for _, asset := range []string{bc.asset, "four-threads", "command-lists"} {
			add("bug="+bc.rule+" "+asset, "option bug="+bc.rule+"\n"+loadAsset(t, asset))
		}
	}
	reported := 0
	for i, src := range srcs {
		s, err := Load("t.d3ds", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", names[i], err)
		}
		r := NewRun(s, Overrides{})
		r.Finish()
		var got [2][]string
		for k, dispatch := range []bool{true, false} {
			v := verify.New(r.Recorder())
			v.SetDispatch(dispatch)
			v.Poll()
			for _, x := range v.Violations() {
				got[k] = append(got[k], x.String())
			}
		}
		if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
			t.Errorf("%s: with dispatch the verifier reports\n%s\nwithout\n%s", names[i], strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
		}
		reported += len(got[1])
	}
	if reported == 0 {
		t.Error("no scenario broke a rule: the comparison proves nothing")
	}
}
