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

// BenchmarkArgs: a typed payload built, read by key and printed, the way
// Dxgkrnl writes a submission and the verifier and the trace file read it.
func BenchmarkArgs(b *testing.B) {
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		var sink Args
		for b.Loop() {
			var w ArgBuilder
			sink = w.Int(KeyAllocs, 3).Int(KeyPatches, 3).Uint(KeySubfence, 2).Args()
		}
		_ = sink
	})
	var w ArgBuilder
	w.Str(KeyDevice, "kd1").Allocs(3).Alloc(Alloc{2, 1, false}).Alloc(Alloc{3, 2, true}).Alloc(Alloc{1, 1, false})
	a := w.Args()
	b.Run("read", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if a.Str(KeyDevice) != "" && !a.Has(KeyPaging) {
				for range a.Allocs() {
					n++
				}
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		e := Event{Name: "DxgkDdiRender", Args: a}
		var buf []byte
		for b.Loop() {
			buf = AppendJSON(buf[:0], &e)
		}
	})
}
