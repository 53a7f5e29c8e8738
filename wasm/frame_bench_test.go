//go:build !js

package main

import (
	"runtime"
	"testing"
)

// BenchmarkPageFrame is a frame of the page's draws figure
// (tests/browser/figures.mjs FIGURES=draws) natively, without JavaScript:
// the runFrame() slices to the next Present, then the panel's poll of that
// frame (progress(), the events as column batches of at most PULL_BATCH, as
// web/model.js pull asks). Its B/op and allocs/op are the Go heap a frame
// the page's collector must take back; the page's own figure (d3dsim.goStats)
// counts the same under WebAssembly.
func BenchmarkPageFrame(b *testing.B) {
	const frames = 4000
	a := &app{}
	load := func() {
		if err := a.load(drawsScene(b, frames)); err != nil {
			b.Fatal(err)
		}
	}
	load()
	var after uint64
	frame := func() {
		r := a.startFrame()
		for {
			if _, done := r.slice(); done {
				break
			}
		}
		a.progress()
		for {
			bt := a.batch(after, 8192)
			if bt.N == 0 {
				break
			}
			after += uint64(bt.N) // the recorder's seqs are consecutive
		}
	}
	frame() // the set-up and the first frame
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		if n++; n == frames-1 {
			b.StopTimer()
			load()
			after = 0
			frame()
			n = 1
			b.StartTimer()
		}
		frame()
	}
	b.StopTimer()
	runtime.GC()
	g := readGoStat()
	b.ReportMetric(float64(g.LiveBytes)/(1<<20), "live-MiB")
	b.ReportMetric(float64(g.ScanBytes)/(1<<20), "scan-MiB")
	runtime.KeepAlive(a)
}
