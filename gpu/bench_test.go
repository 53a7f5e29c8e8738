package gpu

import (
	"d3dsim/gpu/isa"
	"runtime"
	"strings"
	"testing"
)

// The rasterizer's benchmark scenes (benchscene.go), as `d3dsim bench` runs
// them at the GPU level: the scene's DMA buffer submitted, the simulation run
// until its fence. "1" is one goroutine, "N" one per CPU (tile-parallel;
// WebAssembly always runs one).

func benchScene(b *testing.B, sc BenchScene, workers int) {
	r := NewBenchRig(sc, workers)
	r.Frame() // warm up: the target and caches
	before := r.Stats()
	cpu := cpuSeconds()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Frame()
	}
	b.StopTimer()
	cpu = cpuSeconds() - cpu
	after := r.Stats()
	if len(r.Faults()) != 0 {
		b.Fatalf("faults: %v", r.Faults())
	}
	px := after.Pixels - before.Pixels
	if sc.Pixels != 0 && px != uint64(b.N)*sc.Pixels {
		b.Fatalf("%d pixels shaded, want %d", px, uint64(b.N)*sc.Pixels)
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(px)/s/1e6, "Mpixels/s")
	b.ReportMetric(float64(uint64(b.N)*sc.Triangles)/s/1e6, "Mtris/s")
	if cpu > 0 && workers == 1 {
		// Per CPU-second: a shared, loaded machine distorts it less.
		b.ReportMetric(float64(px)/cpu/1e6, "Mpixels/cpu-s")
	}
}

// BenchmarkFill: 200 full-screen Gouraud quads into 640x480 RGBA8
// (ps_vertexcolor, which the pixel stage draws with the Gouraud spans).
func BenchmarkFill(b *testing.B) {
	sc := FillScene()
	b.Run("1", func(b *testing.B) { benchScene(b, sc, 1) })
	b.Run("N", func(b *testing.B) { benchScene(b, sc, runtime.GOMAXPROCS(0)) })
}

// BenchmarkFillRotated: fill's quads turned by 10 degrees, inside the
// target (FillRotatedScene): the general Gouraud rows.
func BenchmarkFillRotated(b *testing.B) {
	sc := FillRotatedScene()
	b.Run("1", func(b *testing.B) { benchScene(b, sc, 1) })
}

// BenchmarkFillISA: "color/1" is fill (the same scene as BenchmarkFill/1:
// every scene runs programs in the ISA, kept under this name for scripts
// that ask for it); "textured" is texture × vertex colour
// (FillTexturedISAScene); "textured/N" is it tile-parallel;
// "textured-hlsl/1" the same shader as the HLSL compiler and D3D11 give it
// (a ret after the mul), 20 quads a frame (a tenth of the others: short
// enough for valgrind).
func BenchmarkFillISA(b *testing.B) {
	b.Run("color/1", func(b *testing.B) { benchScene(b, FillScene(), 1) })
	b.Run("textured/1", func(b *testing.B) { benchScene(b, FillTexturedISAScene(), 1) })
	b.Run("textured-hlsl/1", func(b *testing.B) {
		sc := FillTexturedISAScene()
		sc.PS += "\nret"
		sc.Draws, sc.Triangles, sc.Pixels = sc.Draws/10, sc.Triangles/10, sc.Pixels/10
		benchScene(b, sc, 1)
	})
	b.Run("textured/N", func(b *testing.B) { benchScene(b, FillTexturedISAScene(), runtime.GOMAXPROCS(0)) })
}

// BenchmarkFillShaders: HLSL pixel shaders the shader machine runs (no
// fast path takes them), on fill's quads with uv 0..1, a tenth of fill's
// quads a frame (20): "phong" (FillPhongScene: ambient, diffuse and
// specular of one light on a sphere's normal, 20 instructions) and "loop"
// (FillLoopScene: eight rounds of a loop of 6 instructions), on one
// goroutine and tile-parallel.
func BenchmarkFillShaders(b *testing.B) {
	tenth := func(sc BenchScene) BenchScene {
		sc.Draws, sc.Triangles, sc.Pixels = sc.Draws/10, sc.Triangles/10, sc.Pixels/10
		return sc
	}
	for _, sc := range []BenchScene{FillPhongScene(), FillLoopScene()} {
		sc := tenth(sc)
		name := strings.TrimPrefix(sc.Name, "fill-")
		b.Run(name+"/1", func(b *testing.B) { benchScene(b, sc, 1) })
		b.Run(name+"/N", func(b *testing.B) { benchScene(b, sc, runtime.GOMAXPROCS(0)) })
	}
}

// BenchmarkTris: 100,000 small Gouraud triangles placed by the LCG.
func BenchmarkTris(b *testing.B) {
	sc := TrisScene()
	b.Run("1", func(b *testing.B) { benchScene(b, sc, 1) })
	b.Run("N", func(b *testing.B) { benchScene(b, sc, runtime.GOMAXPROCS(0)) })
}

// BenchmarkDraws measures the command processor with many tiny draws.
func BenchmarkDraws(b *testing.B) {
	r := newRig(b)
	rt := r.target(64, 64, isa.FmtRGBA8)
	bld := r.scene(rt, "ps_vertexcolor", quadVerts(10, 10, 12, 12, 64, 64, white))
	const draws = 10000
	for i := 0; i < draws; i++ {
		bld.Draw(6, 0)
	}
	words := bld.Words
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.id++
		id := r.id
		buf := append(words[:len(words):len(words)], uint32(isa.OpFence)<<24|2, uint32(id), 0)
		r.g.Submit(0, id, buf)
		r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= id })
	}
	b.ReportMetric(float64(b.N)*draws/b.Elapsed().Seconds()/1e6, "Mdraws/s")
}
