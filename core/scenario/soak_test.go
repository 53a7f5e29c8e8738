package scenario

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"d3dsim/assets"
	"d3dsim/core/d3d11"
)

// allScenarios is every scenario the tests run: the examples and testdata.
func allScenarios(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range assets.Scenarios() {
		src, _ := assets.Scenario(name)
		out[name] = src
	}
	files, _ := filepath.Glob("testdata/*/*.d3ds")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = src
	}
	return out
}

// releaseAll does what an application that is done does: clear the state of
// every context (dropping the bindings that pin objects), release every
// object it still holds a name for, the devices last, then let the GPU
// finish.
func (r *Run) releaseAll() {
	names := make([]string, 0, len(r.vars))
	for n := range r.vars {
		names = append(names, n)
	}
	slices.Sort(names) // deterministic order
	var devices []*d3d11.Device
	for _, n := range names {
		switch o := r.vars[n].(type) {
		case *d3d11.DeviceContext:
			o.ClearState()
		case *d3d11.Device:
			devices = append(devices, o)
		}
	}
	for _, n := range names {
		o, ok := r.vars[n].(d3d11.Object)
		if _, dev := o.(*d3d11.Device); !ok || dev {
			continue
		}
		if c, ok := o.(*d3d11.DeviceContext); ok && c == c.Device().ImmediateContext() {
			continue // owned by its device
		}
		for i := 0; i < 16 && o.Alive(); i++ {
			o.Release()
		}
	}
	for _, d := range devices {
		for i := 0; i < 16 && d.Alive(); i++ {
			d.Release()
		}
	}
	r.mach.Idle()
}

// TestReleaseEverything (no leaks): after every scenario, once the
// application releases all it holds, nothing is alive anywhere — API objects,
// driver objects, allocations, kernel devices and contexts. A scenario that
// releases everything itself says so with `expect live == 0`; this checks
// the others too.
func TestReleaseEverything(t *testing.T) {
	for name, src := range allScenarios(t) {
		t.Run(name, func(t *testing.T) {
			s, err := Load(name, src)
			if err != nil {
				t.Skip("not a runnable scenario:", err)
			}
			r := NewRun(s, Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Skip("does not pass (covered elsewhere)")
			}
			if n, _ := r.live(); n == 0 && !bytes.Contains(src, []byte("expect live == 0")) {
				t.Error("the scenario releases everything but does not say `expect live == 0`")
			}
			r.releaseAll()
			if n, detail := r.live(); n != 0 {
				t.Errorf("%d still alive after releasing everything: %s", n, detail)
			}
		})
	}
}

// soakRounds: runs of every example scenario in one process: 100 in make
// unit (24 scenarios, 2,400 runs: 13.5 CPU-seconds), 1,000 in make soak
// (-soak.rounds=1000, about 135 CPU-seconds). The heap may grow by soakLeak
// bytes a run after the warm-up, so both see the same leak: 540 KiB over 100
// rounds, 5.9 MiB over 1,000, both over the few hundred KiB the heap moves
// by either way and far under a leak of a trace a run. Skipped in -short
// (make race) and under WebAssembly.
var soakRounds = flag.Int("soak.rounds", 100, "TestSoak: rounds of every example scenario")

// soakLeak is the heap growth allowed per run: the heap after the warm-up
// and at the end differ by a few hundred KiB either way (587 KiB after the
// warm-up, 233 KiB at the end), and a leak of one trace, frame or machine per
// run is tens of KiB.
const soakLeak = 256

// TestSoak runs the example scenarios soakRounds times in one process and
// checks nothing accumulates: each run ends with the same live-object count
// as the first, every object released afterwards, and the Go heap after a GC
// returns to its level after the warm-up rounds, within soakLeak bytes a run
// (the runs keep nothing).
func TestSoak(t *testing.T) {
	if testing.Short() || runtime.GOOS == "js" {
		// Native only: under WebAssembly (node, make test-wasm) it would
		// take minutes, and that run checks determinism, not endurance.
		t.Skip("1,000 rounds of every example scenario")
	}
	names := assets.Scenarios()
	srcs := map[string][]byte{}
	scripts := map[string]*Script{}
	for _, n := range names {
		srcs[n], _ = assets.Scenario(n)
		s, err := Load(n, srcs[n])
		if err != nil {
			t.Fatal(err)
		}
		scripts[n] = s
	}
	liveAtEnd := map[string]int{}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC() // finalizers and sweeping of the first
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	const warmup = 10
	var base uint64
	for round := 0; round < *soakRounds; round++ {
		if round == warmup {
			base = heap()
		}
		for _, n := range names {
			r := NewRun(scripts[n], Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Fatalf("round %d, %s: %q", round, n, sum.Failures)
			}
			live, detail := r.live()
			if round == 0 {
				liveAtEnd[n] = live
			} else if live != liveAtEnd[n] {
				t.Fatalf("round %d, %s: %d alive at the end, %d in round 0 (%s)", round, n, live, liveAtEnd[n], detail)
			}
			r.releaseAll()
			if live, detail := r.live(); live != 0 {
				t.Fatalf("round %d, %s: %d alive after releasing everything (%s)", round, n, live, detail)
			}
		}
	}
	end := heap()
	t.Logf("%d rounds of %d scenarios: heap after GC %d KiB after warm-up, %d KiB at the end", *soakRounds, len(names), base>>10, end>>10)
	if allowed := uint64(soakLeak * (*soakRounds - warmup) * len(names)); end > base+allowed {
		t.Fatalf("the Go heap grew from %d to %d bytes over %d rounds, more than the %d bytes of %d a run", base, end, *soakRounds-warmup, allowed, soakLeak)
	}
}
