package main

import "runtime/metrics"

// Go's collector in the page, for the figures (tests/browser/figures.mjs,
// d3dsim.goStats): under WebAssembly the module has one thread, and a
// collection's marking runs on it, idle-priority marking included, before
// the module gives the event loop back: a collection is a pause of the
// page, and its length grows with the heap it marks. These are the
// runtime's own counters (runtime/metrics, which stops nothing to read
// them), so the figure counts collections and bytes allocated a frame
// without a trace.

// goStatNames are the runtime/metrics samples goStats reads, in the order
// of goStat's fields.
var goStatNames = [...]string{
	"/gc/cycles/total:gc-cycles",
	"/gc/heap/allocs:bytes",
	"/gc/heap/allocs:objects",
	"/gc/heap/live:bytes",
	"/gc/heap/goal:bytes",
	"/memory/classes/total:bytes",
	"/cpu/classes/gc/total:cpu-seconds",
	"/gc/scan/heap:bytes",
}

// goStat is one reading of goStatNames.
type goStat struct {
	Cycles       uint64  // collections finished
	AllocBytes   uint64  // bytes allocated on the heap, ever
	AllocObjects uint64  // objects allocated, ever
	LiveBytes    uint64  // the heap marked live by the last collection
	GoalBytes    uint64  // the heap size that starts the next collection
	TotalBytes   uint64  // memory mapped by the runtime (the module's memory)
	GCSeconds    float64 // the runtime's estimate of its collector's CPU time (updated at each collection)
	ScanBytes    uint64  // the heap a collection scans for pointers (what its marking costs)
}

// readGoStat reads the runtime's counters.
func readGoStat() goStat {
	var s [len(goStatNames)]metrics.Sample
	for i, n := range goStatNames {
		s[i].Name = n
	}
	metrics.Read(s[:])
	u := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	g := goStat{Cycles: u(0), AllocBytes: u(1), AllocObjects: u(2), LiveBytes: u(3), GoalBytes: u(4), TotalBytes: u(5), ScanBytes: u(7)}
	if v := s[6].Value; v.Kind() == metrics.KindFloat64 {
		g.GCSeconds = v.Float64()
	}
	return g
}
