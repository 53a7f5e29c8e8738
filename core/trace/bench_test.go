package trace

import (
	"strconv"
	"testing"
)

// BenchmarkEmit: one Call/Return pair per iteration into a ring of the given
// size (0: unbounded), the way every API call records itself.
func BenchmarkEmit(b *testing.B) {
	for _, limit := range []int{1000, 100_000, 1_000_000} {
		b.Run(strconv.Itoa(limit), func(b *testing.B) {
			var now int64
			r := NewRecorder(func() int64 { now += 10; return now }, func() string { return "main" })
			r.SetLimit(limit)
			b.ReportAllocs()
			for b.Loop() {
				r.Emit(Event{From: App, Layer: Runtime, Kind: Call, Name: "Flush", Ctx: "IC"})
				r.Emit(Event{From: App, Layer: Runtime, Kind: Return, Name: "Flush", Ctx: "IC", HR: "S_OK"})
			}
			b.ReportMetric(float64(r.Dropped()), "dropped")
		})
	}
}
