package hlsl

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The compile time of the largest shaders the project and its users
// compile: the tutorials' and built-in scenarios' largest hlsl blocks
// (every entry point a scenario creates from them, as the page compiles
// them on a load or an edit) and, with D3DSIM_FXC_SOURCES, DirectXTK's
// largest effects. `go test ./core/hlsl -run '^$' -bench CompileLargest
// -benchtime 20x`; under WebAssembly, GOOS=js GOARCH=wasm go test -c and
// the binary run with go_js_wasm_exec in this directory.

// scenarioShaders are the hlsl blocks measured: file, block.
var scenarioShaders = []struct{ file, block string }{
	{"../../assets/tutorials/31-shadow-maps.d3ds", "scene"},
	{"../../assets/tutorials/36-render-to-subresources.d3ds", "cube"},
	{"../../assets/scenarios/shadow-map.d3ds", "scene"},
}

var createRe = regexp.MustCompile(`Create(Vertex|Pixel|Geometry|Hull|Domain|Compute)Shader hlsl:(\w+)(?: entry=(\w+))?(?: target=(\w+))?`)

// scenarioBlock returns an hlsl block's source and the entry points and
// targets the scenario creates shaders of.
func scenarioBlock(tb testing.TB, file, block string) (src string, entries [][2]string) {
	b, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "hlsl "+block+" {" {
			continue
		}
		var body []string
		for depth := 1; i+1 < len(lines); {
			i++
			if depth += strings.Count(lines[i], "{") - strings.Count(lines[i], "}"); depth <= 0 {
				break
			}
			body = append(body, lines[i])
		}
		src = strings.Join(body, "\n")
		break
	}
	stage := map[string]string{"Vertex": "vs", "Pixel": "ps", "Geometry": "gs", "Hull": "hs", "Domain": "ds", "Compute": "cs"}
	for _, m := range createRe.FindAllStringSubmatch(string(b), -1) {
		if m[2] != block {
			continue
		}
		entry, target := m[3], m[4]
		if entry == "" {
			entry = "main"
		}
		if target == "" {
			target = stage[m[1]] + "_5_0"
		}
		entries = append(entries, [2]string{entry, target})
	}
	if src == "" || len(entries) == 0 {
		tb.Fatalf("%s: no hlsl block %s or no shader of it", file, block)
	}
	return src, entries
}

// benchCompile compiles src's entry b.N times and reports the CPU time
// per compile (cpu-ms/op) beside the wall clock where the system says it.
func benchCompile(b *testing.B, src []byte, file, entry, target string) {
	c0, ok := cpuTime()
	for b.Loop() {
		if _, err := Compile(src, file, entry, target); err != nil {
			b.Fatal(err)
		}
	}
	if c1, _ := cpuTime(); ok {
		b.ReportMetric(float64(c1-c0)/1e6/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkCompileLargestScenario: each entry point of the largest
// tutorial and scenario blocks.
func BenchmarkCompileLargestScenario(b *testing.B) {
	for _, s := range scenarioShaders {
		src, entries := scenarioBlock(b, s.file, s.block)
		name := strings.TrimSuffix(filepath.Base(s.file), ".d3ds")
		for _, e := range entries {
			b.Run(name+"/"+e[0], func(b *testing.B) { benchCompile(b, []byte(src), s.file, e[0], e[1]) })
		}
	}
}

// BenchmarkCompileLargestDirectXTK: DirectXTK's largest effects (the
// PBR pixel shaders, the four-bone skinned vertex shaders), with
// D3DSIM_FXC_SOURCES as TestFxcSizeCorpus reads it.
func BenchmarkCompileLargestDirectXTK(b *testing.B) {
	want := map[string]bool{
		"PBREffect_PSTexturedEmissiveVelocity":           true,
		"SkinnedEffect_VSSkinnedVertexLightingFourBones": true,
		"SkinnedEffect_VSSkinnedPixelLightingFourBones":  true,
		"NormalMapEffect_PSNormalPixelLightingTx":        true,
	}
	for _, inc := range fxcCorpusHeaders(b) {
		name := strings.TrimSuffix(filepath.Base(inc), ".inc")
		if !want[name] {
			continue
		}
		src, entry, file, _, p := fxcCorpusShader(b, inc)
		if p == nil {
			b.Fatalf("%s: no source or no fxc code", inc)
		}
		b.Run(name, func(b *testing.B) { benchCompile(b, src, file, entry, p.Profile()) })
	}
}

// TestScenarioBlocks: the blocks the benchmarks measure are found and
// compile (a renamed tutorial fails here, not only in a benchmark).
func TestScenarioBlocks(t *testing.T) {
	for _, s := range scenarioShaders {
		src, entries := scenarioBlock(t, s.file, s.block)
		for _, e := range entries {
			if _, err := Compile([]byte(src), s.file, e[0], e[1]); err != nil {
				t.Errorf("%s %s: %v", s.file, e[0], err)
			}
		}
	}
}
