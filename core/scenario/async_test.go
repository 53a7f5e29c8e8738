package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/trace"
)

// TestAsyncSame is rule ASYNC-SAME as a property: every example scenario
// gives the same frames with asynchrony off (option sync=true: every call
// completes on the GPU before it returns) and on.
func TestAsyncSame(t *testing.T) {
	on, off := false, true
	for _, name := range assets.Scenarios() {
		t.Run(name, func(t *testing.T) {
			async := runAsset(t, name, Overrides{Sync: &on})
			sync := runAsset(t, name, Overrides{Sync: &off})
			// `expect calls` describe the asynchronous path (a rename, a
			// submission) that a synchronous run has no need for, and an
			// `expect live` may count an allocation the GPU still holds;
			// every other expectation must hold in both modes.
			for _, f := range sync.Summary().Failures {
				if !strings.Contains(f, "expected calls") && !strings.Contains(f, "live objects") {
					t.Fatalf("sync run fails: %s", f)
				}
			}
			fa, fs := async.Frames(), sync.Frames()
			if len(fa) != len(fs) {
				t.Fatalf("%d frames async, %d sync", len(fa), len(fs))
			}
			for i := range fa {
				if HashBytes(fa[i].Pix) != HashBytes(fs[i].Pix) {
					t.Errorf("frame %d differs: async %s, sync %s", i, HashBytes(fa[i].Pix), HashBytes(fs[i].Pix))
				}
			}
		})
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
// example scenario runs the same.
func TestNotFreeThreaded(t *testing.T) {
	for _, name := range assets.Scenarios() {
		t.Run(name, func(t *testing.T) {
			src, _ := assets.Scenario(name)
			a := runSource(t, string(src))
			b := runSource(t, "option driver.freethreaded=false\n"+string(src))
			if s := b.Summary(); !s.OK() {
				t.Fatalf("%v", s.Failures)
			}
			if a.Summary().Hash != b.Summary().Hash {
				t.Errorf("frames differ")
			}
		})
	}
}
