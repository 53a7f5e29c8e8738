package scenario

import (
	"flag"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// hostileCases are scenarios written to exhaust the simulator: each must
// end at one of its limits, with a message naming the limit, under the
// memory ceiling (TestHostile).
func hostileCases() []struct{ name, src, want string } {
	big := strings.Repeat("n", MaxWord) // the longest name a scenario may use (a 100 KB one is refused: TestLongWordRefused)
	list := "f32[" + strings.Repeat("1 ", 400_000) + "]"
	nest := strings.Repeat("repeat 1000000000 {\n", 60) + "imm.Flush\n" + strings.Repeat("}\n", 60)
	return []struct{ name, src, want string }{
		// The longest object name in a loop of failing expectations that
		// name it, then of failing calls whose messages name it.
		{"big-name-failing-loop", "option maxsteps=2000000\ndev, imm = D3D11CreateDevice\n" + big + " = dev.CreateBuffer ByteWidth=16 BindFlags=VERTEX_BUFFER\nrepeat 1000000000 {\n expect calls " + big + "\n imm.IASetVertexBuffers 0 " + big + "\n}\n", "step budget of"},
		// The same name in a call the driver fails (an R32G32B32_FLOAT
		// render target, optional support this GPU lacks) with a message naming it:
		// every failed creation makes a new handle, which the trace's
		// table of event shapes keeps (trace.Recorder.ShapeBytes).
		{"big-name-failing-call", "option maxsteps=1000000\ndev, imm = D3D11CreateDevice Flags=DEBUG\n" + big + " = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32_FLOAT BindFlags=RENDER_TARGET\nexpect hr == E_INVALIDARG\nrepeat 1000000000 {\n " + big + " = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32_FLOAT BindFlags=RENDER_TARGET\n expect hr == E_INVALIDARG\n}\n", "the trace's table of distinct events passed 64 MiB"},
		// 100 devices × 100,000 default blend states: 17 GB before.
		// Identical state objects are one object (D3D11 shares them), so
		// this loop holds 100 objects and ends at the step budget.
		{"blend-states", "repeat 100 {\n dev, imm = D3D11CreateDevice\n repeat 100000 {\n  b = dev.CreateBlendState\n }\n}\n", "API calls reached"},
		{"failing-expect-loop", "dev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n expect violations == 1\n}\n", "reached by statements that are not API calls"},
		{"debug-message-loop", "dev, imm = D3D11CreateDevice Flags=DEBUG\nrepeat 1000000000 {\n imm.Draw 3 0\n}\n", "API calls reached"},
		{"deep-nesting", "dev, imm = D3D11CreateDevice\n" + nest, "API calls reached"},
		// Allocations on many devices: each device is held to sysmem, the
		// run as a whole too.
		{"many-devices-memory", "repeat 256 {\n dev, imm = D3D11CreateDevice\n repeat 7 {\n  t = dev.CreateTexture2D Width=4096 Height=4096 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE\n }\n}\n", "bytes of GPU memory committed in this run"},
		{"huge-data-list", "dev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n b = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=" + list + "\n}\n", "option sysmem=SIZE"},
	}
}

// TestLongWordRefused: a 100 KB object name is refused when the scenario
// loads (every layer copied it into every message and event).
func TestLongWordRefused(t *testing.T) {
	big := strings.Repeat("n", 100_000)
	_, err := Load("t", []byte("dev, imm = D3D11CreateDevice\n"+big+" = dev.CreateBlendState\n"))
	if err == nil || !strings.Contains(err.Error(), "t:2:1: a word of 100000 bytes: names, methods and values are at most 256 bytes") {
		t.Fatal(err)
	}
	if _, err := Load("t", []byte("dev, imm = D3D11CreateDevice\n"+big[:MaxWord]+" = dev.CreateBlendState\n")); err != nil {
		t.Fatal(err)
	}
}

// hostileCeiling is the memory promise (docs/security.md): any scenario
// stays under it. Under WebAssembly the module's memory is one linear
// memory that never shrinks, so the ceiling there is on the heap the same
// way, with the page's own 4 GiB address space above it.
const hostileCeiling = 1 << 30

// hostileSample is how many statements TestHostile runs between two
// readings of the heap: one statement allocates at most a few MiB (the
// 400,000-number data list), so a peak is not missed by much, and a
// reading (runtime/metrics) costs a microsecond or so.
const hostileSample = 256

// hostileSteps is TestHostile's step budget: 400,000 API calls in make
// unit, with a trace ring of a tenth as many events (option maxevents) so
// that every case's heap is at its plateau before half the budget is spent
// (the ring full, the kept failures full) and the second half shows whether
// it stays there. make soak runs it at 2,000,000 calls with the default ring
// of 1,000,000 events (-hostile.steps=2000000): each case the same, five
// times longer (41 CPU-seconds instead of 8; the blend states alone 19).
var hostileSteps = flag.Uint64("hostile.steps", 400_000, "TestHostile: the step budget of each case (2000000: the default trace ring)")

// TestHostile runs each hostile case to its end in slices of
// hostileSample statements, reading the Go heap (memlimit.HeapObjects)
// between slices: the run must stop at a limit that names itself, the heap
// must stay under hostileCeiling, and after the run the heap in use
// (runtime.ReadMemStats) too. The heap is read at the same statements on
// every machine, however loaded (a watchdog on a timer read it at points
// that depended on the machine's speed).
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("long: runs each hostile scenario to its limit")
	}
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var peak uint64
			s, err := Load(c.name, []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			// A step budget of hostileSteps API calls instead of the
			// default 10,000,000 (TestStepBudgetDefault runs that one).
			// With the default ring of 1,000,000 events every case's
			// heap is at its plateau after 1,250,000 calls (the trace
			// ring and the kept failures full; measured every 250,000:
			// the blend states at 160-200 MiB, the debug messages
			// 90-110, the big name 85, the nesting 41), so a budget
			// under 2,000,000 runs with a ring of a tenth of the budget,
			// full as early. Under WebAssembly (node, make test-wasm) the
			// simulator is several times slower, and the run is there for
			// the limits' messages and the heap's ceiling, which the
			// cases reach in their first 100,000 calls: at most 100,000
			// (200,000 took 249 s at a load of 25).
			steps := *hostileSteps
			if runtime.GOOS == "js" {
				steps = min(steps, 100_000)
			}
			o := Overrides{MaxSteps: &steps}
			// The failing creations end at the table of distinct events
			// (64 MiB, after 62,464 calls) with the default ring, the
			// limit the case is about: a smaller ring compacts the table
			// to the events it holds, so that limit never comes (the run
			// then ends at its step budget with the heap at the ring's
			// size: TestFailingCreationsHeapBounded).
			if steps < 2_000_000 && !strings.Contains(c.want, "table of distinct events") {
				events := steps / 10
				o.MaxEvents = &events
			}
			r := NewRun(s, o)
			var firstHalf uint64 // the peak until half the step budget was spent
			half := false
			for done := false; !done; {
				_, done = r.Slice(SliceLimits{Statements: hostileSample})
				peak = max(peak, memlimit.HeapObjects())
				if !half && 2*uint64(max(r.steps, r.other)) >= steps {
					half, firstHalf = true, peak
				}
			}
			sum := r.Summary()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			all := strings.Join(sum.Failures, "\n")
			halfNote := ""
			if half {
				halfNote = fmt.Sprintf(" (%d MiB in the first half of the step budget)", firstHalf>>20)
			}
			t.Logf("%s: peak heap %d MiB%s, heap at the end %d MiB, %d steps, %d failures: %s", c.name, peak>>20, halfNote, ms.HeapAlloc>>20, sum.Steps, sum.FailureCount, lastLine(sum.Failures))
			if sum.OK() || !strings.Contains(all, c.want) || !strings.Contains(sum.Limit, c.want) && !strings.Contains(c.want, "sysmem") {
				t.Errorf("the run did not stop at its limit %q: %s", c.want, cut(all, 2000))
			}
			if peak > hostileCeiling {
				t.Errorf("peak heap %d MiB, over the ceiling of %d MiB", peak>>20, hostileCeiling>>20)
			}
			// The heap levels off: what a run holds is bounded (the trace
			// ring by events and by bytes, the failures kept), so over the
			// second half of the budget the peak grows by less than half
			// of the first half's. A bound taken away shows here long
			// before it passes the ceiling (the trace's two bounds taken
			// away: the blend states' peak 800 MiB at 2,000,000 calls,
			// twice the first half's; at 400,000 calls 167 MiB against
			// 83, the big name's 74 against 39, the debug messages' 88
			// against 50). Under WebAssembly (node) no check: it was
			// written when the budget there ended before the ring was
			// full, and has not been measured there since.
			if half && runtime.GOOS != "js" && peak > firstHalf+max(firstHalf/2, 32<<20) {
				t.Errorf("the heap keeps growing: peak %d MiB over the first half of the step budget, %d MiB over the whole run", firstHalf>>20, peak>>20)
			}
			n := 0
			for _, f := range sum.Failures {
				n += len(f)
			}
			for _, m := range sum.Messages {
				n += len(m)
			}
			if n > 1<<20 {
				t.Errorf("the summary holds %d bytes of text", n)
			}
			runtime.KeepAlive(r)
		})
	}
}

func lastLine(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return cut(l[len(l)-1], 200)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("…(+%d)", len(s)-n)
}
