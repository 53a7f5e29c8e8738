package scenario

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
)

// asyncSameSources lists every scenario rule ASYNC-SAME is checked on: the
// examples, the tutorials and every scenario test under testdata.
func asyncSameSources(t *testing.T) map[string][]byte {
	srcs := map[string][]byte{}
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		srcs[name] = src
	}
	for _, name := range assets.Tutorials() {
		src, _, _ := assets.Tutorial(name)
		srcs["tutorials/"+name] = src
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.d3ds"))
	for _, f := range files {
		if strings.Contains(f, string(filepath.Separator)+"parse"+string(filepath.Separator)) {
			continue // bad input by design
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs[f] = src
	}
	return srcs
}

// TestAsyncSame is rule ASYNC-SAME as a property: every scenario (examples,
// tutorials, scenario tests) gives the same frames and the same query
// results synchronously (option sync=true: every call completes on the GPU
// before it returns), asynchronously in order, and asynchronously out of
// order on two engines (option ooo=true, gpu.engines=2). Query results are
// compared where both runs got data (S_OK) from the same GetData statement;
// TIMESTAMP is virtual GPU time, which legitimately differs, so only EVENT
// and OCCLUSION values are compared.
func TestAsyncSame(t *testing.T) {
	srcs := asyncSameSources(t)
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	slices.Sort(names)
	names = asyncSample(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			s, err := Load(name, srcs[name])
			if err != nil {
				t.Fatal(err)
			}
			modeRuns := RunModes(s, Overrides{})
			var runs []*Run
			for _, mr := range modeRuns {
				runs = append(runs, mr.Run)
			}
			base := runs[0]
			syncDiverged := false
			for i, mr := range modeRuns {
				m, r := mr.Mode, mr.Run
				// Every expectation that holds in the in-order run (the
				// one the scenario was written for) must hold in the
				// others too, unless it depends on the mode. A synchronous
				// run that got data where the scenario expects "not yet"
				// takes another path from there (a DO_NOT_WAIT map that
				// succeeds leaves the resource mapped): what follows is
				// not compared.
				diverged := false
				for _, f := range r.Summary().Failures {
					switch {
					case diverged, slices.Contains(runs[1].Summary().Failures, f):
					case modeDependent(m.Name, f):
						diverged = m.Name == "sync" && !strings.Contains(f, "expected calls") && !strings.Contains(f, "live objects")
					default:
						t.Errorf("%s run fails: %s", m.Name, f)
					}
				}
				if i == 0 {
					// A synchronous run that took another path stops
					// being the reference: the asynchronous runs are
					// compared with each other instead.
					if syncDiverged = diverged; diverged {
						base = runs[1]
					}
					continue
				}
				if syncDiverged && i == 1 {
					continue
				}
				baseName := "sync"
				if syncDiverged {
					baseName = "in-order"
				}
				fa, fb := base.Frames(), r.Frames()
				if len(fa) != len(fb) {
					t.Fatalf("%d frames %s, %d %s", len(fa), baseName, len(fb), m.Name)
				}
				for j := range fa {
					if HashBytes(fa[j].Pix) != HashBytes(fb[j].Pix) {
						t.Errorf("frame %d differs: %s %s, %s %s", j, baseName, HashBytes(fa[j].Pix), m.Name, HashBytes(fb[j].Pix))
					}
				}
				if a, b := base.Summary().Hash, r.Summary().Hash; a != b {
					t.Errorf("last frame: %s %s, %s %s", baseName, a, m.Name, b)
				}
				checkQueries(t, m.Name, base.QueryResults(), r.QueryResults())
			}
			// What d3dsim run --modes reports agrees: no difference.
			if rep := CompareModes(modeRuns); len(rep.Differences) > 0 || rep.BadInput {
				t.Errorf("CompareModes: differences %q, bad input %v", rep.Differences, rep.BadInput)
			}
		})
	}
}

// asyncSample is the scenarios TestAsyncSame runs with -short (make race)
// and under WebAssembly (make test-wasm): the ones written for the rule
// (testdata/async, testdata/modes) and every fourth of the others in name
// order, 36 of 95. make unit runs them all natively: the rule is the
// simulation's, the same Go code under the race detector and in node, and
// what those two runs add of their own (the detector's view of the GPU's
// tile workers, WebAssembly's float conversions) the GPU's tile tests under
// the detector and the golden hashes and images in node check.
func asyncSample(names []string) []string {
	if !testing.Short() && runtime.GOOS != "js" {
		return names
	}
	var keep []string
	for i, n := range names {
		dir := filepath.Base(filepath.Dir(n))
		if i%4 == 0 || strings.HasPrefix(n, "testdata") && (dir == "async" || dir == "modes") {
			keep = append(keep, n)
		}
	}
	return keep
}

// checkQueries compares the data of every GetData statement execution
// that returned S_OK in both runs (EVENT and OCCLUSION; TIMESTAMP is
// virtual time).
func checkQueries(t *testing.T, mode string, sync, other []QueryResult) {
	t.Helper()
	type key struct{ line, n int }
	got := map[key]QueryResult{}
	for _, q := range other {
		got[key{q.Line, q.N}] = q
	}
	for _, q := range sync {
		o, ok := got[key{q.Line, q.N}]
		if !ok || q.HR != "S_OK" || o.HR != "S_OK" || q.Type == "TIMESTAMP" {
			continue
		}
		if q.Value != o.Value {
			t.Errorf("line %d: GetData %s (%s) = %d sync, %d %s", q.Line, q.Query, q.Type, q.Value, o.Value, mode)
		}
	}
}

// TestAsyncScenarios runs testdata/async: Map hazards, usage rules, queries,
// TDR, GPU faults, dangling objects, driver errors, free-threaded creates.
func TestAsyncScenarios(t *testing.T) { runDir(t, "testdata/async") }

// runDir runs every scenario of a directory; each must hold its expectations.
func runDir(t *testing.T, dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.d3ds"))
	if len(files) == 0 {
		t.Fatalf("no scenarios in %s", dir)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if s := runSource(t, string(src)).Summary(); !s.OK() {
				t.Errorf("%s", strings.Join(s.Failures, "\n"))
			}
		})
	}
}

// TestCommandListScenarios runs testdata/commandlists: errors on deferred
// contexts, recycling off, restore flags, implicit QueryEnd and Unmap, Map on
// a deferred context, abandon, state refresh.
func TestCommandListScenarios(t *testing.T) { runDir(t, "testdata/commandlists") }

// TestCommandListEmulationSamePixels: with a driver that has no command-list
// support (option driver.commandlists=false) the runtime records and replays
// the calls itself; every scenario with deferred contexts gives the same
// frames either way.
func TestCommandListEmulationSamePixels(t *testing.T) {
	for _, name := range []string{"command-lists", "four-threads", "testdata/commandlists/deferred-map.d3ds"} {
		t.Run(name, func(t *testing.T) {
			src, ok := assets.Scenario(name)
			if !ok {
				var err error
				if src, err = os.ReadFile(name); err != nil {
					t.Fatal(err)
				}
			}
			native := runSource(t, string(src))
			emulated := runSource(t, "option driver.commandlists=false\n"+string(src))
			for _, f := range emulated.Summary().Failures {
				if !strings.Contains(f, "expected calls") { // the DDIs differ by design
					t.Fatalf("emulated run fails: %s", f)
				}
			}
			fa, fb := native.Frames(), emulated.Frames()
			if len(fa) != len(fb) || len(fa) == 0 {
				t.Fatalf("%d frames native, %d emulated", len(fa), len(fb))
			}
			for i := range fa {
				if HashBytes(fa[i].Pix) != HashBytes(fb[i].Pix) {
					t.Errorf("frame %d differs", i)
				}
			}
			for _, e := range emulated.Events() {
				if e.Name == "CreateCommandList" || e.Name == "CommandListExecute" || e.Name == "CreateDeferredContext" && e.Layer == trace.UMD {
					t.Fatalf("emulation reached the driver's %s", e.Name)
				}
			}
		})
	}
}

// TestNotFreeThreaded: a driver without D3D11DDICAPS_FREETHREADED (option
// driver.freethreaded=false) gets every DDI serialised by the runtime; every
// example scenario runs the same. Such a driver cannot report command lists
// ("D3D11DDI_THREADING_CAPS structure": "To support
// D3D11DDICAPS_COMMANDLISTS_BUILD_2, the driver must also support
// D3D11DDICAPS_FREETHREADED"), so the runtime emulates them: command-lists,
// whose expect lines name the driver's command-list DDIs, draws the same
// frames without them.
func TestNotFreeThreaded(t *testing.T) {
	for _, name := range assets.Scenarios() {
		t.Run(name, func(t *testing.T) {
			src, _ := assets.Scenario(name)
			a := runSource(t, string(src))
			b := runSource(t, "option driver.freethreaded=false\n"+string(src))
			for _, e := range b.Events() {
				if e.Name == "DriverCaps" {
					if n, _ := e.Args.Int(trace.KeyCommandLists); n != 0 {
						t.Errorf("DriverCaps %s: command lists without FREETHREADED", e.Msg)
					}
				}
			}
			if s := b.Summary(); !s.OK() && name != "command-lists" {
				t.Fatalf("%v", s.Failures)
			}
			if a.Summary().Hash != b.Summary().Hash {
				t.Errorf("frames differ")
			}
		})
	}
}

// TestOutOfOrderRuns: with option ooo=true the out-of-order example really
// runs out of order — DMA buffers on both engines at overlapping times, dep
// events of each hazard kind it has, a fence held back — while every
// context's FenceSignaled events stay in increasing fence order, and its
// GPU work ends earlier than in order.
func TestOutOfOrderRuns(t *testing.T) {
	no := false
	ooo := runAsset(t, "out-of-order", Overrides{})
	inOrder := runAsset(t, "out-of-order", Overrides{OOO: &no})
	if s := ooo.Summary(); !s.OK() {
		t.Fatalf("%v", s.Failures)
	}
	gpuEnd := func(r *Run) int64 {
		var end int64
		for _, e := range r.Events() {
			if e.Layer == trace.GPU && e.Kind == trace.Interrupt {
				end = max(end, e.T)
			}
		}
		return end
	}
	hazards := map[string]int{}
	busy := map[string][2]int64{} // engine thread -> first start, last interrupt
	lastFence := map[string]uint64{}
	held := 0
	for _, e := range ooo.Events() {
		switch {
		case e.Kind == trace.Dep:
			hazards[e.Args.Str(trace.KeyHazard)]++
		case e.Name == "FenceHeld":
			held++
		case e.Name == "FenceSignaled" && e.Handle != "":
			if e.Fence <= lastFence[e.Handle] {
				t.Errorf("fence %d of %s signalled after fence %d", e.Fence, e.Handle, lastFence[e.Handle])
			}
			lastFence[e.Handle] = e.Fence
		case e.Layer == trace.GPU && e.Name == "DmaBufferStart":
			b, ok := busy[e.Thread]
			if !ok {
				b[0] = e.T
			}
			busy[e.Thread] = [2]int64{b[0], b[1]}
		case e.Layer == trace.GPU && e.Kind == trace.Interrupt:
			b := busy[e.Thread]
			busy[e.Thread] = [2]int64{b[0], e.T}
		}
	}
	if hazards["WAW"] == 0 || hazards["RAW"] == 0 {
		t.Errorf("dep events by hazard: %v, want WAW (each chain) and RAW (the compositing)", hazards)
	}
	if held == 0 {
		t.Errorf("no FenceHeld: the cheaper chain never finished ahead of the other")
	}
	g0, g1 := busy["gpu0"], busy["gpu1"]
	if g1[1] == 0 || g1[0] >= g0[1] || g0[0] >= g1[1] {
		t.Errorf("engines not busy at overlapping times: gpu0 %v, gpu1 %v", g0, g1)
	}
	if a, b := gpuEnd(ooo), gpuEnd(inOrder); a >= b {
		t.Errorf("out of order the GPU ends at %d ns, in order at %d ns", a, b)
	}
}
