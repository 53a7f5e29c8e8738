package main

import (
	"strings"
	"testing"
)

// Benchmarks of the scenes that go through every layer, for profiling:
// go test ./cmd/d3dsim -run '^$' -bench Draws -benchtime 1x -cpuprofile cpu.out
// (the rasterizer scenes at the GPU level are in gpu/bench_test.go).

func benchScenario(b *testing.B, src string, n int, unit string) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		r, _, err := runScene(src)
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			b.ReportMetric(float64(r.Recorder().Held())/float64(n), "events/op")
		}
	}
	b.ReportMetric(float64(b.N)*float64(n)/b.Elapsed().Seconds(), unit)
}

// BenchmarkDraws: 100,000 Draw calls that produce no pixels, every layer,
// trace on (d3dsim bench runs 1,000,000).
func BenchmarkDraws(b *testing.B) { benchScenario(b, drawScene(100_000), 100_000, "draws/s") }

// BenchmarkFillPipeline: the fill scene as a scenario.
func BenchmarkFillPipeline(b *testing.B) { benchScenario(b, fillScene(200), 200, "quads/s") }

func BenchmarkCmdlistCold(b *testing.B) {
	benchScenario(b, cmdlistScene(2000, false), 2000, "lists/s")
}

func BenchmarkCmdlistRecycled(b *testing.B) {
	benchScenario(b, cmdlistScene(2000, true), 2000, "lists/s")
}

func BenchmarkDiscard(b *testing.B) { benchScenario(b, discardScene(5000), 5000, "rounds/s") }

// TestBenchSceneShapes pins the scenes' shapes: the sizes, counts and
// geometry docs/performance.md reports rates for.
func TestBenchSceneShapes(t *testing.T) {
	tests := []struct {
		desc, src string
		want      []string
	}{
		{"draws: degenerate triangles on the immediate context", drawScene(7), []string{"repeat 7 {", "imm.Draw 3 0", "f32[0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0]"}},
		{"fill: full-screen quads, 640x480", fillScene(200), []string{"Width=640 Height=480", "repeat 200 {", "imm.Draw 6 0", "f32[-1 1 0.5 1 0 0 1 0 0 1 1 0.5 0 1 0 1 0 0"}},
		{"cmdlist cold: no recycling", cmdlistScene(3, false), []string{"option driver.recycle=false", "dc.FinishCommandList", "imm.ExecuteCommandList cl"}},
		{"discard: Map WRITE_DISCARD + Unmap + Draw", discardScene(3), []string{"imm.Map vb WRITE_DISCARD", "imm.Unmap vb", "imm.Draw 3 0", "Usage=DYNAMIC"}},
	}
	for _, tc := range tests {
		for _, w := range tc.want {
			if !strings.Contains(tc.src, w) {
				t.Errorf("%s: the scene lacks %q", tc.desc, w)
			}
		}
	}
	if strings.Contains(cmdlistScene(3, true), "driver.recycle=false") {
		t.Error("cmdlist recycled: recycling is off")
	}
}

// TestDrawSceneNoPixels: the draws scene shades no pixel, yet every Draw
// reaches the GPU.
func TestDrawSceneNoPixels(t *testing.T) {
	r, _, err := runScene(drawScene(500))
	if err != nil {
		t.Fatal(err)
	}
	st := r.GPUStats()
	if st.Pixels != 0 {
		t.Errorf("%d pixels shaded, want 0", st.Pixels)
	}
	if st.Draws != 500 || st.Vertices != 1500 {
		t.Errorf("GPU saw %d draws and %d vertices, want 500 and 1500", st.Draws, st.Vertices)
	}
}

// TestFillPipelinePixels: the fill scene through every layer shades what
// gpu.FillScene says.
func TestFillPipelinePixels(t *testing.T) {
	r, _, err := runScene(fillScene(3))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.GPUStats().Pixels, uint64(3*640*480); got != want {
		t.Errorf("%d pixels shaded, want %d", got, want)
	}
}

// TestBenchJSONKeys runs a tiny bench and checks the keys of the JSON object
// d3dsim bench --json prints (docs/performance.md).
func TestBenchJSONKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every bench scene, 14 minutes under -race at a load of 30 (make race); make unit runs it")
	}
	var out, errb strings.Builder
	if code := run([]string{"bench", "--json", "--n", "200", "--quick"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, k := range []string{"fill_mpix_s", "tris_mtri_s", "draw_calls_s", "cmdlist_cold_s", "cmdlist_recycled_s", "discard_s", "trace_bytes_per_event", "peak_rss_mib", "fill_rotated_mpix_s", "fill_isa_mpix_s", "fill_textured_isa_mpix_s", "fill_phong_mpix_s", "fill_loop_mpix_s"} {
		if !strings.Contains(out.String(), `"`+k+`":`) {
			t.Errorf("bench --json lacks %q: %s", k, out.String())
		}
	}
}

// TestBenchScene: --scene runs and prints only the scenes it names (the
// JSON's keys and the table's rows), takes fill-rotated for fill_rotated,
// and refuses a name it does not know, listing the ones it does.
func TestBenchScene(t *testing.T) {
	var out, errb strings.Builder
	if code := run([]string{"bench", "--json", "--quick", "--scene", "tris,fill-rotated"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, k := range []string{"tris_mtri_s", "tris_mtri_cpu_s", "fill_rotated_mpix_s", "raster_workers", "goos"} {
		if !strings.Contains(out.String(), `"`+k+`":`) {
			t.Errorf("--scene tris,fill-rotated: no %q in %s", k, out.String())
		}
	}
	for _, k := range []string{"fill_mpix_s", "draw_calls_s", "cmdlist_cold_s", "discard_s", "ooo_speedup", "fill_phong_mpix_s", "trace_bytes_per_event", "peak_rss_mib"} {
		if strings.Contains(out.String(), `"`+k+`":`) {
			t.Errorf("--scene tris,fill-rotated: %q is in %s", k, out.String())
		}
	}

	out.Reset()
	if code := run([]string{"bench", "--quick", "--scene", "discard"}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "discard, Map(WRITE_DISCARD)") || strings.Contains(out.String(), "tris,") || strings.Contains(out.String(), "draws,") {
		t.Errorf("--scene discard: the table is\n%s", out.String())
	}

	errb.Reset()
	code := run([]string{"bench", "--scene", "fill,trees"}, nil, &out, &errb)
	if code != exitBadIn || !strings.Contains(errb.String(), `no scene "trees"`) || !strings.Contains(errb.String(), "draws, fill, tris, fill_rotated") {
		t.Errorf("--scene fill,trees: exit %d, %q", code, errb.String())
	}
}

// TestSceneOfKey: every key of the JSON belongs to a scene --scene names,
// or to every run.
func TestSceneOfKey(t *testing.T) {
	b, err := filterKeys(&benchResult{peerResults: peerResults{Renderer: "r", Note: "n", Fill1: 1, Fill2: 1, FillRotated1: 1, FillTextured1: 1,
		FillTextured2: 1, FillPhong1: 1, FillPhong2: 1, FillLoop1: 1, FillLoop2: 1, Tris1: 1, Tris2: 1, RotatedSamples: 1, RotatedSamplesD: 1}}, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	// With no scene wanted only the keys of every run are left.
	for _, k := range []string{"goos", "goarch", "cpus", "vector_rows", "peak_rss_all_mib", "llvmpipe_renderer", "llvmpipe_note"} {
		if !strings.Contains(string(b), `"`+k+`":`) {
			t.Errorf("no %q in %s", k, b)
		}
	}
	if n := strings.Count(string(b), `":`); n != 7 {
		t.Errorf("%d keys left with no scene wanted: %s", n, b)
	}
	for k, want := range map[string]string{"fill_mpix_s": "fill", "fill_isa_mpix_cpu_s": "fill", "fill_rotated_pixels_per_frame": "fill_rotated",
		"llvmpipe_fill_textured_mpix_s_2t": "fill_textured", "fill_textured_isa_mpix_s_parallel": "fill_textured", "fill_pipeline_mpix_s": "fill_pipeline",
		"draw_calls_cpu_s": "draws", "events": "draws", "peak_rss_note": "draws", "cmdlist_recycled_virtual_ns": "cmdlist", "ooo_gpu_ns": "ooo", "llvmpipe_tris_mtri_s_1t": "tris"} {
		if got := sceneOfKey(k); got != want {
			t.Errorf("sceneOfKey(%q) = %q, want %q", k, got, want)
		}
	}
}
