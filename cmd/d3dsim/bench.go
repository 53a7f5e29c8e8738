package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"d3dsim/core/machine"
	"d3dsim/core/scenario"
)

// The benchmark scenes are defined here, in code, so figures compare across
// versions. Wall-clock time is measured only here, outside the simulation.

// scene is a draw loop: a W x H swap chain, the given vertex data,
// vs_passthrough + ps_vertexcolor, n Draw calls of count vertices, one
// Present.
func scene(w, h, n, count int, vertices string) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=%[1]d Height=%[2]d
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%[4]s
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 %[1]d %[2]d
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat %[3]d {
  imm.Draw %[5]d 0
}
sc.Present
`, w, h, n, vertices, count)
}

// drawScene is "draws": n Draw calls of 3 vertices on the immediate context
// of a 64x64 target, trace on, every layer. The triangle is degenerate (its
// three vertices are the same point), so the GPU fetches and shades the
// vertices, clips and sets the triangle up, and shades no pixel.
func drawScene(n int) string {
	return scene(64, 64, n, 3, "f32[0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0  0 0 0.5 1 1 1 1 0 0]")
}

// fillScene is machine.FillScene through every layer: n Draw calls of the
// full-screen quad (6 vertices) into a 640x480 swap chain, then Present.
func fillScene(n int) string {
	sc := machine.FillScene()
	var b strings.Builder
	b.WriteString("f32[")
	for i, f := range sc.Vertices {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatFloat(float64(f), 'g', -1, 32))
	}
	b.WriteString("]")
	return scene(sc.Width, sc.Height, n, sc.Count, b.String())
}

// cmdlistScene: n rounds of recording a one-Draw command list on a deferred
// context, FinishCommandList, ExecuteCommandList, Release — cold (every
// FinishCommandList creates; option driver.recycle=false) or recycled.
func cmdlistScene(n int, recycled bool) string {
	opt := "option driver.recycle=false\n"
	if recycled {
		opt = ""
	}
	return opt + fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb
dc.VSSetShader vs
dc.PSSetShader ps
repeat %d {
  dc.Draw 3 0
  cl = dc.FinishCommandList TRUE
  imm.ExecuteCommandList cl FALSE
  cl.Release
}
sc.Present
`, n)
}

// discardScene: n rounds of Map(WRITE_DISCARD) + Write + Unmap + Draw on a
// DYNAMIC vertex buffer (renaming, as the SamBookshelf article on asynchronous Draw describes it: every frame's bread and butter).
func discardScene(n int) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat %d {
  imm.Map vb WRITE_DISCARD
  vb.Write mesh:triangle
  imm.Unmap vb
  imm.Draw 3 0
}
sc.Present
`, n)
}

// benchResult is what `d3dsim bench --json` prints. Rates are per second of
// wall-clock time on this machine; see docs/performance.md for what each
// measures.
type benchResult struct {
	GOOS   string `json:"goos"`
	GOARCH string `json:"goarch"`
	CPUs   int    `json:"cpus"`
	// Vector: the build draws rows and runs shader kernels with vector
	// instructions (GOEXPERIMENT=simd on amd64 with AVX2; machine.VectorRows).
	// Every pixel figure depends on it.
	Vector bool `json:"vector_rows"`

	// The rasterizer scenes at the GPU level (machine.BenchRig: the scene's
	// DMA buffer submitted, the simulation run until its fence), on one
	// goroutine and tile-parallel on Workers goroutines.
	FillMpixPerSec    float64 `json:"fill_mpix_s"`
	FillMpixCPU       float64 `json:"fill_mpix_cpu_s"`  // per CPU-second, one goroutine
	FillMpixBest      float64 `json:"fill_mpix_best_s"` // the fastest frame, one goroutine
	FillMpixParallel  float64 `json:"fill_mpix_s_parallel"`
	TrisMtriPerSec    float64 `json:"tris_mtri_s"`
	TrisMtriCPU       float64 `json:"tris_mtri_cpu_s"`
	TrisMtriBest      float64 `json:"tris_mtri_best_s"`
	TrisMtriParallel  float64 `json:"tris_mtri_s_parallel"`
	Workers           int     `json:"raster_workers"`
	FillPipelineMpix  float64 `json:"fill_pipeline_mpix_s"`     // fill as a scenario through every layer (default workers)
	FillRotatedMpix   float64 `json:"fill_rotated_mpix_s"`      // machine.FillRotatedScene, one goroutine: triangles of any orientation
	FillISAMpix       float64 `json:"fill_isa_mpix_s"`          // fill_mpix_s: every GPU scene runs shader ISA programs (the key stays for the scripts that read it)
	FillISAMpixCPU    float64 `json:"fill_isa_mpix_cpu_s"`      // fill_mpix_cpu_s
	FillTexISAMpix    float64 `json:"fill_textured_isa_mpix_s"` // machine.FillTexturedISAScene (20 quads): texture × colour in the ISA
	FillTexISAMpixCPU float64 `json:"fill_textured_isa_mpix_cpu_s"`
	FillTexISAMpixPar float64 `json:"fill_textured_isa_mpix_s_parallel"` // the same on Workers goroutines (tile-parallel)
	FillPhongMpix     float64 `json:"fill_phong_mpix_s"`                 // machine.FillPhongScene (20 quads): an HLSL Phong shader
	FillPhongMpixCPU  float64 `json:"fill_phong_mpix_cpu_s"`
	FillPhongMpixPar  float64 `json:"fill_phong_mpix_s_parallel"`
	FillLoopMpix      float64 `json:"fill_loop_mpix_s"` // machine.FillLoopScene (20 quads): an HLSL shader with a loop
	FillLoopMpixCPU   float64 `json:"fill_loop_mpix_cpu_s"`
	FillLoopMpixPar   float64 `json:"fill_loop_mpix_s_parallel"`
	DrawCallsPerSec   float64 `json:"draw_calls_s"`
	DrawCallsCPU      float64 `json:"draw_calls_cpu_s"` // per CPU-second of the process
	Draws             int     `json:"draws"`
	Events            int     `json:"events"`
	TraceBytesPerEv   float64 `json:"trace_bytes_per_event"` // heap the finished draws run retains, per event
	TraceEventsPerSec float64 `json:"trace_events_s"`        // JSON lines written
	CmdlistCold       float64 `json:"cmdlist_cold_s"`
	CmdlistRecycled   float64 `json:"cmdlist_recycled_s"`
	CmdlistColdNs     float64 `json:"cmdlist_cold_virtual_ns"`
	CmdlistRecycledNs float64 `json:"cmdlist_recycled_virtual_ns"`
	DiscardPerSec     float64 `json:"discard_s"`
	OOOSpeedup        float64 `json:"ooo_speedup"`        // bench_ooo.go
	OOOInOrderNs      int64   `json:"ooo_inorder_gpu_ns"` // virtual GPU time in order
	OOONs             int64   `json:"ooo_gpu_ns"`         // and out of order on two engines
	PeakRSSMiB        float64 `json:"peak_rss_mib"`       // after the draws scene, which runs first
	PeakRSSNote       string  `json:"peak_rss_note,omitempty"`
	PeakRSSAllMiB     float64 `json:"peak_rss_all_mib"` // after every scene

	peerResults // --peer: Mesa llvmpipe on the same scenes (bench_peer.go)
}

func runScene(src string) (*scenario.Run, time.Duration, error) {
	// A ring big enough to hold every event (the JSON exporter is timed on
	// them all), and no step, time or pixel budget: benchmarks run long on
	// purpose.
	// (Overrides: these are past the ranges a scenario's options keep to.)
	s, err := scenario.Load("bench", []byte(src))
	if err != nil {
		return nil, 0, err
	}
	events, steps, ms, pixels := uint64(100_000_000), uint64(100_000_000), uint64(1_000_000_000), uint64(1_000_000_000_000)
	instrs := uint64(1_000_000_000_000_000)
	r := scenario.NewRun(s, scenario.Overrides{MaxEvents: &events, MaxSteps: &steps, MaxTime: &ms, MaxPixels: &pixels, MaxInstructions: &instrs})
	// No byte ceiling either (trace.DefaultByteLimit, 128 MiB): past it the
	// ring drops its oldest chunks, and 1,000,000 draws' 4,000,000 events
	// take about 170 MB — the trace's bytes per event and the events per
	// Draw would measure the ring, not the trace.
	r.Recorder().SetByteLimit(0)
	start := time.Now()
	sum := r.Finish()
	d := time.Since(start)
	if !sum.OK() {
		return nil, 0, fmt.Errorf("bench scene failed: %v", sum.Failures)
	}
	return r, d, nil
}

// rate is a GPU-level scene's throughput: millions of pixels and of
// triangles per second of wall-clock time, and per second of the process's
// CPU time (0 where unknown). On one goroutine the CPU-time rate is what the
// rasterizer does on a core of its own, whatever else the machine runs.
type rate struct {
	mpix, mtri         float64
	mpixCPU, mtriCPU   float64
	mpixBest, mtriBest float64 // the fastest frame: the least disturbed by other work
	pixelsPerFrame     uint64
}

// gpuScene runs frames of a rasterizer scene at the GPU level, after one
// frame of warm-up, for at least atLeast.
func gpuScene(sc machine.BenchScene, workers int, atLeast time.Duration) (rate, error) {
	r := machine.NewBenchRig(sc, workers)
	r.Frame()
	before := r.Stats()
	cpu0, cpuOK := cpuTime()
	start := time.Now()
	frames, best := 0, time.Duration(math.MaxInt64)
	for frames < 2 || time.Since(start) < atLeast {
		t0 := time.Now()
		r.Frame()
		best = min(best, time.Since(t0))
		frames++
	}
	d := time.Since(start).Seconds()
	cpu1, _ := cpuTime()
	if f := r.Faults(); len(f) > 0 {
		return rate{}, fmt.Errorf("%s scene faulted: %v", sc.Name, f[0])
	}
	px, tris := float64(r.Stats().Pixels-before.Pixels)/1e6, float64(uint64(frames)*sc.Triangles)/1e6
	out := rate{mpix: px / d, mtri: tris / d, pixelsPerFrame: (r.Stats().Pixels - before.Pixels) / uint64(frames)}
	if b := best.Seconds(); b > 0 {
		out.mpixBest, out.mtriBest = px/float64(frames)/b, tris/float64(frames)/b
	}
	if c := (cpu1 - cpu0).Seconds(); cpuOK && c > 0 {
		out.mpixCPU, out.mtriCPU = px/c, tris/c
	}
	return out, nil
}

// cpuTime is the process's user+system CPU time from /proc/self/stat
// (Linux, in clock ticks of 10 ms; under node, node's); ok is false where
// there is no such file.
func cpuTime() (time.Duration, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0, false
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, true
}

// peakRSS is the process's peak resident set (VmHWM of /proc/self/status)
// in MiB, where the platform tells it (0 and a note where not). Under node
// (GOOS=js) the file is node's: the WebAssembly memory plus node itself.
func peakRSS() (float64, string) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, "n/a: no /proc/self/status here"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			if err == nil {
				if runtime.GOOS == "js" {
					return kb / 1024, "the node process: WebAssembly memory plus node"
				}
				return kb / 1024, ""
			}
		}
	}
	return 0, "n/a: no VmHWM in /proc/self/status"
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// benchSize is how long the GPU-level scenes run and how many rounds the
// cmdlist and discard scenes make.
type benchSize struct {
	minTime            time.Duration
	cmdlists, discards int
}

// benchSizes are the figures' sizes; benchQuick (--quick) runs each
// GPU-level scene once and the cmdlist and discard scenes 50 rounds: every
// scene and every figure's line, in a few seconds of CPU, the figures not
// worth quoting (the README's commands are tested with it).
var (
	benchSizes = benchSize{2 * time.Second, 5000, 20000}
	benchQuick = benchSize{0, 50, 50}
)

// benchScenes are the names --scene takes, in the order the bench runs
// them: each is how the JSON keys of its figures begin (sceneOfKey).
var benchScenes = []string{"draws", "fill", "tris", "fill_rotated", "fill_textured", "fill_phong", "fill_loop", "fill_pipeline", "cmdlist", "discard", "ooo"}

// parseScenes reads --scene's comma-separated names (a '-' is taken for
// '_', as the scenes' own names spell them: fill-rotated); "" is every scene.
func parseScenes(v string) (map[string]bool, error) {
	want := map[string]bool{}
	if v == "" {
		for _, s := range benchScenes {
			want[s] = true
		}
		return want, nil
	}
	for _, name := range strings.Split(v, ",") {
		name = strings.ReplaceAll(strings.TrimSpace(name), "-", "_")
		if !slices.Contains(benchScenes, name) {
			return nil, fmt.Errorf("flag --scene: no scene %q; the scenes are %s", name, strings.Join(benchScenes, ", "))
		}
		want[name] = true
	}
	return want, nil
}

// sceneOfKey is the scene a key of the JSON belongs to ("" for the keys
// every run prints: the platform, the peak RSS after every scene, the
// peer's renderer and note).
func sceneOfKey(k string) string {
	k = strings.TrimPrefix(k, "llvmpipe_")
	switch {
	case k == "draws" || k == "events" || strings.HasPrefix(k, "draw_calls") || strings.HasPrefix(k, "trace_") || k == "peak_rss_mib" || k == "peak_rss_note":
		return "draws"
	case k == "raster_workers":
		return "fill" // and tris: filterKeys keeps it for either
	case strings.HasPrefix(k, "fill_isa"):
		return "fill" // fill_mpix_s under its older name
	}
	// The longest scene name the key begins with (fill_rotated before fill).
	best := ""
	for _, s := range benchScenes {
		if (k == s || strings.HasPrefix(k, s+"_")) && len(s) > len(best) {
			best = s
		}
	}
	return best
}

// filterKeys is the JSON object of res with the keys of the scenes not
// run left out.
func filterKeys(res *benchResult, want map[string]bool) ([]byte, error) {
	b, err := json.Marshal(res)
	if err != nil || len(want) == len(benchScenes) {
		return b, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k := range m {
		s := sceneOfKey(k)
		if k == "raster_workers" && want["tris"] {
			continue
		}
		if s != "" && !want[s] {
			delete(m, k)
		}
	}
	return json.Marshal(m) // (a map's keys come out sorted)
}

func cmdBench(a args, stdout, stderr io.Writer) int {
	want, err := parseScenes(a.flags["scene"])
	if err != nil {
		fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
		return exitBadIn
	}
	n := 1_000_000
	if v := flagUint(a, "n"); v != nil { // parseArgs checked it is a whole number >= 1
		if *v > 100_000_000 {
			fmt.Fprintf(stderr, "d3dsim bench: flag --n %d: must be 1..100000000\n", *v)
			return exitBadIn
		}
		n = int(*v)
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "d3dsim bench: %v\n", err)
		return 1
	}
	res := benchResult{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.GOMAXPROCS(0), Vector: machine.VectorRows(), Draws: n}
	size := benchSizes
	if _, ok := a.flags["quick"]; ok {
		size = benchQuick
	}

	if want["draws"] {
		// draws, with the heap the finished run keeps (the trace, mostly).
		heap0 := heapInUse()
		cpu0, cpuOK := cpuTime()
		r, d, err := runScene(drawScene(n))
		if err != nil {
			return fail(err)
		}
		res.DrawCallsPerSec = float64(n) / d.Seconds()
		if cpu1, _ := cpuTime(); cpuOK && cpu1 > cpu0 {
			res.DrawCallsCPU = float64(n) / (cpu1 - cpu0).Seconds() // includes the parse and the GC's other thread
		}
		// The heap the run keeps, measured before anything decodes the trace
		// (Events makes a slice of full Events: 200 bytes each).
		rec := r.Recorder()
		res.Events = rec.Held()
		if heap := heapInUse(); heap > heap0 && res.Events > 0 {
			res.TraceBytesPerEv = float64(heap-heap0) / float64(res.Events)
		}
		start := time.Now()
		rec.WriteJSONL(io.Discard) // decodes in batches
		res.TraceEventsPerSec = float64(res.Events) / time.Since(start).Seconds()
		runtime.KeepAlive(r)
		r, rec = nil, nil
		res.PeakRSSMiB, res.PeakRSSNote = peakRSS()
	}

	// fill and tris at the GPU level, then fill through every layer.
	res.Workers = runtime.GOMAXPROCS(0)
	minTime := size.minTime
	// gpuPair runs a GPU-level scene on one goroutine and, with more than
	// one CPU, tile-parallel, when --scene asks for it.
	var errs []error
	gpuPair := func(name string, sc machine.BenchScene) (one, par rate) {
		if !want[name] {
			return
		}
		var err error
		one, err = gpuScene(sc, 1, minTime)
		errs = append(errs, err)
		if res.Workers > 1 && name != "fill_rotated" {
			par, err = gpuScene(sc, res.Workers, minTime)
			errs = append(errs, err)
		}
		return one, par
	}
	fill1, fillN := gpuPair("fill", machine.FillScene())
	tris1, trisN := gpuPair("tris", machine.TrisScene())
	rot1, _ := gpuPair("fill_rotated", machine.FillRotatedScene())
	// Texture × colour with a tenth of fill's quads: a frame takes seconds
	// on a slow machine.
	isaScene := func(sc machine.BenchScene) machine.BenchScene {
		sc.Draws, sc.Triangles, sc.Pixels = 20, 40, sc.Pixels/10
		return sc
	}
	tex1, texN := gpuPair("fill_textured", isaScene(machine.FillTexturedISAScene()))
	// The HLSL pixel shaders the machine runs, the same tenth (--quick:
	// two quads, their frames being ten times texture × colour's).
	shaderScene := isaScene
	if size.minTime == 0 {
		shaderScene = func(sc machine.BenchScene) machine.BenchScene {
			sc.Draws, sc.Triangles, sc.Pixels = 2, 4, sc.Pixels/100
			return sc
		}
	}
	phong1, phongN := gpuPair("fill_phong", shaderScene(machine.FillPhongScene()))
	loop1, loopN := gpuPair("fill_loop", shaderScene(machine.FillLoopScene()))
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	res.FillPhongMpix, res.FillPhongMpixCPU, res.FillPhongMpixPar = phong1.mpix, phong1.mpixCPU, phongN.mpix
	res.FillLoopMpix, res.FillLoopMpixCPU, res.FillLoopMpixPar = loop1.mpix, loop1.mpixCPU, loopN.mpix
	res.FillISAMpix, res.FillISAMpixCPU = fill1.mpix, fill1.mpixCPU
	res.FillTexISAMpix, res.FillTexISAMpixCPU = tex1.mpix, tex1.mpixCPU
	res.FillTexISAMpixPar = texN.mpix
	res.FillMpixPerSec, res.FillMpixCPU, res.FillMpixBest, res.FillMpixParallel = fill1.mpix, fill1.mpixCPU, fill1.mpixBest, fillN.mpix
	res.FillRotatedMpix = rot1.mpix
	res.TrisMtriPerSec, res.TrisMtriCPU, res.TrisMtriBest, res.TrisMtriParallel = tris1.mtri, tris1.mtriCPU, tris1.mtriBest, trisN.mtri
	if want["fill_pipeline"] {
		const quads = 200
		r, d, err := runScene(fillScene(quads))
		if err != nil {
			return fail(err)
		}
		res.FillPipelineMpix = float64(r.GPUStats().Pixels) / d.Seconds() / 1e6
	}

	rounds := size.cmdlists
	for _, recycled := range []bool{false, true} {
		if !want["cmdlist"] {
			break
		}
		r, d, err := runScene(cmdlistScene(rounds, recycled))
		if err != nil {
			return fail(err)
		}
		perSec, virt := float64(rounds)/d.Seconds(), float64(r.VirtualTime())/float64(rounds)
		if recycled {
			res.CmdlistRecycled, res.CmdlistRecycledNs = perSec, virt
		} else {
			res.CmdlistCold, res.CmdlistColdNs = perSec, virt
		}
	}

	if discards := size.discards; want["discard"] {
		_, d, err := runScene(discardScene(discards))
		if err != nil {
			return fail(err)
		}
		res.DiscardPerSec = float64(discards) / d.Seconds()
	}
	res.PeakRSSAllMiB, _ = peakRSS()

	if want["ooo"] {
		inOrder, ooo, err := benchOOO(200)
		if err != nil {
			return fail(err)
		}
		res.OOOSpeedup = float64(inOrder) / float64(ooo)
		res.OOOInOrderNs, res.OOONs = inOrder, ooo
	}

	if _, ok := a.flags["peer"]; ok {
		res.peerResults = benchPeer(isaScene, minTime, want)
		if res.Note == "" && want["fill_rotated"] {
			res.RotatedSamplesD = rot1.pixelsPerFrame
		}
	}

	if _, ok := a.flags["json"]; ok {
		b, err := filterKeys(&res, want)
		if err != nil {
			return fail(err)
		}
		fmt.Fprintln(stdout, string(b))
		return 0
	}
	printBench(stdout, &res, want)
	return 0
}

// printBench prints the table: one row per line.
func printBench(w io.Writer, res *benchResult, want map[string]bool) {
	row := func(scene, label, value, note string) {
		if scene == "" || want[scene] {
			fmt.Fprintf(w, "%-50s %14s  %s\n", label, value, note)
		}
	}
	f := func(v float64, prec int) string { return strconv.FormatFloat(v, 'f', prec, 64) }
	rss, rssAll := f(res.PeakRSSMiB, 0), f(res.PeakRSSAllMiB, 0)
	if res.PeakRSSMiB == 0 {
		rss = "n/a"
	}
	if res.PeakRSSAllMiB == 0 {
		rssAll = "n/a"
	}
	perCPU := func(cpu, best float64, prec int) string {
		note := "fastest frame " + f(best, prec)
		if cpu != 0 {
			note = f(cpu, prec) + " per CPU-second, " + note
		}
		return note
	}
	par := func(v, one float64, prec int) (string, string) {
		if res.Workers <= 1 {
			return "n/a", "one goroutine here"
		}
		return f(v, prec), fmt.Sprintf("%d workers: x%.2f", res.Workers, v/one)
	}
	build := "the default build: scalar rows and kernels"
	if res.Vector {
		build = "GOEXPERIMENT=simd: vector rows and kernels"
	}
	fmt.Fprintf(w, "d3dsim bench (%s/%s, %d CPUs, %s; wall-clock rates)\n", res.GOOS, res.GOARCH, res.CPUs, build)
	row("fill", "fill, Mpixels/s (GPU, 1 goroutine)", f(res.FillMpixPerSec, 1), perCPU(res.FillMpixCPU, res.FillMpixBest, 1))
	v, note := par(res.FillMpixParallel, res.FillMpixPerSec, 1)
	row("fill", "fill, Mpixels/s (GPU, tile-parallel)", v, note)
	row("fill_pipeline", "fill, Mpixels/s (all layers, scenario)", f(res.FillPipelineMpix, 1), "200 Draw calls + Present")
	row("fill_rotated", "fill, quads turned 10 degrees (GPU, 1 goroutine)", f(res.FillRotatedMpix, 1), "no axis-aligned edge")
	isaNote := func(cpu float64) string {
		if cpu == 0 {
			return ""
		}
		return f(cpu, 1) + " per CPU-second"
	}
	row("fill_textured", "fill, texture × colour in the ISA (GPU, 1 goroutine)", f(res.FillTexISAMpix, 1), isaNote(res.FillTexISAMpixCPU))
	v, note = par(res.FillTexISAMpixPar, res.FillTexISAMpix, 1)
	row("fill_textured", "fill, texture × colour in the ISA (GPU, tile-parallel)", v, note)
	row("fill_phong", "fill, Phong in HLSL (GPU, 1 goroutine)", f(res.FillPhongMpix, 1), isaNote(res.FillPhongMpixCPU))
	v, note = par(res.FillPhongMpixPar, res.FillPhongMpix, 1)
	row("fill_phong", "fill, Phong in HLSL (GPU, tile-parallel)", v, note)
	row("fill_loop", "fill, a loop in HLSL (GPU, 1 goroutine)", f(res.FillLoopMpix, 1), isaNote(res.FillLoopMpixCPU))
	v, note = par(res.FillLoopMpixPar, res.FillLoopMpix, 1)
	row("fill_loop", "fill, a loop in HLSL (GPU, tile-parallel)", v, note)
	row("tris", "tris, Mtriangles/s (GPU, 1 goroutine)", f(res.TrisMtriPerSec, 2), perCPU(res.TrisMtriCPU, res.TrisMtriBest, 2))
	v, note = par(res.TrisMtriParallel, res.TrisMtriPerSec, 2)
	row("tris", "tris, Mtriangles/s (GPU, tile-parallel)", v, note)
	drawNote := fmt.Sprintf("%d calls, %d events", res.Draws, res.Events)
	if res.DrawCallsCPU != 0 {
		drawNote = f(res.DrawCallsCPU, 0) + " per CPU-second, " + drawNote
	}
	row("draws", "draws, Draw calls/s (all layers, trace on)", f(res.DrawCallsPerSec, 0), drawNote)
	row("draws", "trace, heap bytes per event", f(res.TraceBytesPerEv, 1), "kept by the finished draws run")
	row("draws", "trace, events/s written as JSON lines", f(res.TraceEventsPerSec, 0), "")
	row("cmdlist", "cmdlist cold, FinishCommandList+Execute/s", f(res.CmdlistCold, 0), fmt.Sprintf("%.0f virtual ns each", res.CmdlistColdNs))
	row("cmdlist", "cmdlist recycled, FinishCommandList+Execute/s", f(res.CmdlistRecycled, 0), fmt.Sprintf("%.0f virtual ns each", res.CmdlistRecycledNs))
	row("discard", "discard, Map(WRITE_DISCARD)+Unmap+Draw/s", f(res.DiscardPerSec, 0), "")
	row("ooo", "ooo=true, gpu.engines=2 speed-up over in-order", f(res.OOOSpeedup, 2)+"x", fmt.Sprintf("virtual GPU time %d -> %d ns", res.OOOInOrderNs, res.OOONs))
	row("draws", "peak RSS after draws, MiB", rss, res.PeakRSSNote)
	row("", "peak RSS after every scene, MiB", rssAll, "")
	p := &res.peerResults
	switch {
	case p.Note != "":
		row("", "llvmpipe peer", "n/a", p.Note)
	case p.Renderer != "":
		ratio := func(ours, theirs float64) string {
			if theirs == 0 {
				return ""
			}
			return fmt.Sprintf("d3dsim / llvmpipe: x%.2f", ours/theirs)
		}
		fmt.Fprintf(w, "peer: %s through OSMesa, the same scenes and shaders in GLSL\n", p.Renderer)
		row("fill", "llvmpipe fill, Mpixels/s (1 thread)", f(p.Fill1, 1), ratio(res.FillMpixPerSec, p.Fill1))
		row("fill", "llvmpipe fill, Mpixels/s (2 threads)", f(p.Fill2, 1), ratio(res.FillMpixParallel, p.Fill2)+" (tile-parallel)")
		row("fill_rotated", "llvmpipe fill, quads turned 10 degrees (1 thread)", f(p.FillRotated1, 1),
			ratio(res.FillRotatedMpix, p.FillRotated1)+fmt.Sprintf("; pixels a frame: %d, d3dsim %d", p.RotatedSamples, p.RotatedSamplesD))
		row("fill_textured", "llvmpipe fill, texture × colour (1 thread)", f(p.FillTextured1, 1), ratio(res.FillTexISAMpix, p.FillTextured1))
		row("fill_textured", "llvmpipe fill, texture × colour (2 threads)", f(p.FillTextured2, 1), ratio(res.FillTexISAMpixPar, p.FillTextured2)+" (tile-parallel)")
		row("fill_phong", "llvmpipe fill, Phong (1 thread)", f(p.FillPhong1, 1), ratio(res.FillPhongMpix, p.FillPhong1))
		row("fill_phong", "llvmpipe fill, Phong (2 threads)", f(p.FillPhong2, 1), ratio(res.FillPhongMpixPar, p.FillPhong2)+" (tile-parallel)")
		row("fill_loop", "llvmpipe fill, a loop (1 thread)", f(p.FillLoop1, 1), ratio(res.FillLoopMpix, p.FillLoop1))
		row("fill_loop", "llvmpipe fill, a loop (2 threads)", f(p.FillLoop2, 1), ratio(res.FillLoopMpixPar, p.FillLoop2)+" (tile-parallel)")
		row("tris", "llvmpipe tris, Mtriangles/s (1 thread)", f(p.Tris1, 2), ratio(res.TrisMtriPerSec, p.Tris1))
		row("tris", "llvmpipe tris, Mtriangles/s (2 threads)", f(p.Tris2, 2), ratio(res.TrisMtriParallel, p.Tris2)+" (tile-parallel)")
	}
}
