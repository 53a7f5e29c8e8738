package scenario

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"d3dsim/core/memlimit"
)

// shaderProbes are the hostile probes of the HLSL compiler and of shader
// creation and execution: each must end at a limit that names itself (at
// load or in the run), under the memory ceiling. The draws keep the
// issue's shapes with their budgets lowered, so the test's time stays
// small (the budgets' defaults are measured in docs/security.md).
func shaderProbes() []struct{ name, src, want string } {
	var doubling strings.Builder
	doubling.WriteString("struct S0 { float4 a; float4 b; };\n")
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&doubling, "struct S%d { S%d a; S%d b; };\n", i, i-1, i-1)
	}
	shader := func(block string) string {
		return "hlsl s {\n" + block + "\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s\n"
	}
	big := strings.Repeat("M", 60_000)
	// Each shader holds its bytecode and its code allocation, about 57 KB
	// with this body: 10,000 of them pass the default sysmem of 512 MiB.
	heavy := "float4 main(float4 p : SV_Position) : SV_Target { float4 s = p; " + strings.Repeat("s = s * s + normalize(s);", 240) + " return s; }"
	long := "float4 main(float4 p : SV_Position) : SV_Target { float4 s = p; " + strings.Repeat("s = s * s + normalize(s);", 1200) + " return s; }"
	return []struct{ name, src, want string }{
		{"static float4 g[4096][4096]", shader("static float4 g[4096][4096];\nfloat4 main() : SV_Target { return g[1][2]; }"), "array of 16777216 elements"},
		{"structs doubling 16 times in a cbuffer", shader(doubling.String() + "cbuffer C { S16 x; };\nfloat4 main() : SV_Target { return x.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a; }"), "constant buffer 'C' needs 131072 registers"},
		{"65,545 preprocessor errors", shader("#define F(a,b) a\n#define A F(1) F(1) F(1) F(1)\n#define B A A A A A A A A\n#define C B B B B B B B B\n#define D C C C C C C C C\n#define E D D D D D D D D\nE E E E\nfloat4 main() : SV_Target { return 1; }"), "more errors not shown"},
		{"errors repeating a 60 KB macro name", shader("#define " + big + "(a,b) a\n#define A " + big + "(1) " + big + "(1)\n#define B A A A A A A A A A A\n#define C B B B B B B B B B B\nC C C C\nfloat4 main() : SV_Target { return 1; }"), "more errors not shown"},
		{"10,000 references to one block", wasmMemory + "hlsl s {\n" + heavy + "\n}\ndev, imm = D3D11CreateDevice\nrepeat 1 {\n" + strings.Repeat("ps = dev.CreatePixelShader hlsl:s\n", 10_000) + "}\n", "option sysmem=SIZE"},
		// Without a Flush the destructions wait (D3D11 defers them), each
		// holding its code allocation: the run's GPU memory bounds them
		// (256 MiB here: GPU memory is Go heap, and at the default 512 MiB
		// the garbage of the loop took the peak past the ceiling, 1033 MiB).
		{"CreatePixelShader and Release of a long shader in a loop", "option maxsteps=20000\noption sysmem=" + loopSysmem + "\nhlsl s {\n" + long + "\n}\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n ps = dev.CreatePixelShader hlsl:s\n ps.Release\n}\n", "bytes of GPU memory committed in this run"},
		// 8,000 API calls: twice the 3,972 after which the loop above
		// reaches the memory limit (the Flush is what frees).
		{"the same with a Flush each round", "option maxsteps=" + flushSteps + "\n" + wasmFlushMemory + "hlsl s {\n" + long + "\n}\ndev, imm = D3D11CreateDevice\nrepeat 1000000000 {\n ps = dev.CreatePixelShader hlsl:s\n ps.Release\n imm.Flush\n}\n", "step budget of " + flushSteps + " API calls"},
		// A small target: the budget, not the memory, is what this one
		// probes, so under WebAssembly (several times slower) a quarter
		// of it.
		{"DrawInstanced 6 699050 of a full-screen quad on 64x64", fullScreen("option maxpixels="+smallPixelBudget+"\n", "", 64, "builtin:vs_passthrough", "builtin:ps_vertexcolor", "imm.DrawInstanced 6 699050 0 0"), "pixel budget of " + smallPixelBudget},
		{"DrawInstanced 6 699050 of a full-screen quad on 8192x8192", fullScreen("option maxpixels=200000000\n", "", 8192, "builtin:vs_passthrough", "builtin:ps_vertexcolor", "imm.DrawInstanced 6 699050 0 0"), "pixel budget of 200000000"},
		{"a pixel shader looping 8,150 times on 8192x8192", fullScreen("option maxinstructions=200000000\n", loopHLSL, 8192, "builtin:vs_passthrough", "hlsl:s", "imm.Draw 6 0"), "instruction budget of 200000000"},
	}
}

// smallPixelBudget is the pixel budget of the 64x64 probe.
var smallPixelBudget = map[bool]string{false: "200000000", true: "50000000"}[runtime.GOOS == "js"]

// The three probes of shader memory under WebAssembly (make test-wasm, node,
// several times slower): the same programs on a quarter to an eighth of
// the memory, so each reaches its limit through the same path after that
// share of the creations (they were 108 of the test's 113 s there). Natively they keep
// their sizes. wasmMemory bounds the 10,000 references (1,194 calls reach
// 64 MiB), loopSysmem the loop without a Flush (3,972 calls pass 256 MiB
// natively, 622 pass 40 MiB: at 32 MiB the device's own check refuses a
// creation first, E_OUTOFMEMORY, a limit the other probes show), and the
// loop with one runs to twice that many calls (flushSteps) on the same
// 40 MiB without reaching it.
var (
	wasmMemory      = map[bool]string{false: "", true: "option sysmem=64MiB\n"}[runtime.GOOS == "js"]
	loopSysmem      = map[bool]string{false: "256MiB", true: "40MiB"}[runtime.GOOS == "js"]
	flushSteps      = map[bool]string{false: "8000", true: "1250"}[runtime.GOOS == "js"]
	wasmFlushMemory = map[bool]string{false: "", true: "option sysmem=40MiB\n"}[runtime.GOOS == "js"]
)

// TestHostileShaders runs each probe to its end with a watchdog sampling
// the Go heap every 20 ms (natively, and under WebAssembly in node: the
// peak heap must stay under the ceiling there too), and checks the limit's
// message and the summary's size. Skipped with -short.
func TestHostileShaders(t *testing.T) {
	if testing.Short() {
		t.Skip("long: runs each probe to its limit")
	}
	for _, c := range shaderProbes() {
		t.Run(c.name, func(t *testing.T) {
			runtime.GC()
			var peak atomic.Uint64
			stop := make(chan struct{})
			done := make(chan struct{})
			go func() {
				defer close(done)
				tick := time.NewTicker(20 * time.Millisecond)
				defer tick.Stop()
				for {
					if h := memlimit.HeapObjects(); h > peak.Load() {
						peak.Store(h)
					}
					select {
					case <-stop:
						return
					case <-tick.C:
					}
				}
			}()
			start := time.Now()
			var text string
			steps := 0
			s, err := Load(c.name, []byte(c.src))
			if err != nil {
				text = err.Error()
			} else {
				sum := NewRun(s, Overrides{}).Finish()
				text = strings.Join(sum.Failures, "\n")
				steps = sum.Steps
			}
			took := time.Since(start)
			close(stop)
			<-done
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if h := ms.HeapAlloc; h > peak.Load() {
				peak.Store(h)
			}
			t.Logf("%s: peak heap %d MiB, %v, %d steps, %d bytes of messages: %s", c.name, peak.Load()>>20, took.Round(time.Millisecond), steps, len(text), cut(text, 300))
			if !strings.Contains(text, c.want) {
				t.Errorf("did not end at %q: %s", c.want, cut(text, 2000))
			}
			if peak.Load() > hostileCeiling {
				t.Errorf("peak heap %d MiB, over the ceiling of %d MiB", peak.Load()>>20, hostileCeiling>>20)
			}
			if len(text) > 64<<10 {
				t.Errorf("%d bytes of messages", len(text))
			}
		})
	}
}
