package gpu

import "testing"

// BenchmarkFillRate draws 200 full-screen Gouraud-shaded quads into a 640x480
// RGBA8 target per iteration and reports the fill rate.
func BenchmarkFillRate(b *testing.B) {
	const w, h, quads = 640, 480, 200
	r := newRig(b)
	rt := r.target(w, h, FmtRGBA8)
	c := [][4]float32{{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}}
	vs := []vtx{
		{-1, 1, 0.5, c[0][0], c[0][1], c[0][2], 1}, {1, 1, 0.5, c[1][0], c[1][1], c[1][2], 1},
		{-1, -1, 0.5, c[2][0], c[2][1], c[2][2], 1}, {1, 1, 0.5, c[1][0], c[1][1], c[1][2], 1},
		{1, -1, 0.5, c[3][0], c[3][1], c[3][2], 1}, {-1, -1, 0.5, c[2][0], c[2][1], c[2][2], 1},
	}
	bld := r.scene(rt, ProgPSVertexColor, vs)
	for i := 0; i < quads; i++ {
		bld.Draw(6, 0)
	}
	words := bld.Words
	before := r.g.Stats().Pixels
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.id++
		id := r.id
		buf := append(words[:len(words):len(words)], uint32(OpFence)<<24|2, uint32(id), 0)
		r.g.Submit(0, id, buf)
		r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= id })
	}
	b.StopTimer()
	px := r.g.Stats().Pixels - before
	if px != uint64(b.N)*w*h*quads {
		b.Fatalf("%d pixels shaded, want %d", px, uint64(b.N)*w*h*quads)
	}
	b.ReportMetric(float64(px)/b.Elapsed().Seconds()/1e6, "Mpixels/s")
}

// BenchmarkDraws measures the command processor with many tiny draws.
func BenchmarkDraws(b *testing.B) {
	r := newRig(b)
	rt := r.target(64, 64, FmtRGBA8)
	bld := r.scene(rt, ProgPSVertexColor, quadVerts(10, 10, 12, 12, 64, 64, white))
	const draws = 10000
	for i := 0; i < draws; i++ {
		bld.Draw(6, 0)
	}
	words := bld.Words
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.id++
		id := r.id
		buf := append(words[:len(words):len(words)], uint32(OpFence)<<24|2, uint32(id), 0)
		r.g.Submit(0, id, buf)
		r.sim.RunUntil(func() bool { return r.g.CompletedFence(0) >= id })
	}
	b.ReportMetric(float64(b.N)*draws/b.Elapsed().Seconds()/1e6, "Mdraws/s")
}
