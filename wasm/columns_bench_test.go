//go:build !js

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// drawsScene is the page's draws figure (tests/browser/figures.mjs, its
// template tests/browser/testdata/draws.d3ds.tmpl) at frames frames: 1,000
// Draw calls and a Present each.
func drawsScene(tb testing.TB, frames int) []byte {
	b, err := os.ReadFile(filepath.Join("..", "tests", "browser", "testdata", "draws.d3ds.tmpl"))
	if err != nil {
		tb.Fatal(err)
	}
	return []byte(strings.NewReplacer("FRAMES", strconv.Itoa(frames), "DRAWS", "1000", "SIZE", "256").Replace(string(b)))
}

// BenchmarkColumnEncode encodes the draws figure's trace for the panel as
// the page's polls do, a frame's events a batch: the cost of the columns
// (wasm/columns.go) per event.
func BenchmarkColumnEncode(b *testing.B) {
	a := &app{}
	if err := a.load(drawsScene(b, 8)); err != nil {
		b.Fatal(err)
	}
	r := a.startRun()
	for done := false; !done; {
		_, done = r.slice()
	}
	evs := a.run.Recorder().Events()
	// The batches of one frame each (its Present ends it).
	var cuts []int
	for i := range evs {
		if evs[i].Kind == trace.Call && strings.HasSuffix(evs[i].Name, "Present") && evs[i].From == trace.App {
			cuts = append(cuts, i+1)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for b.Loop() {
		var enc columnEncoder
		from := 0
		for _, c := range cuts {
			enc.encode(evs[from:c])
			from = c
		}
		n += from
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/event")
}
