package main

import (
	"runtime"
	"testing"
)

// sink keeps TestGoStatCounts's allocations from being optimized away.
var sink []byte

// TestGoStatCounts checks that goStats' counters are the runtime's: a
// collection forced counts one more cycle, and bytes allocated count.
func TestGoStatCounts(t *testing.T) {
	a := readGoStat()
	for range 64 {
		sink = make([]byte, 64<<10)
	}
	runtime.GC()
	b := readGoStat()
	if b.Cycles <= a.Cycles {
		t.Errorf("collections %d -> %d after runtime.GC", a.Cycles, b.Cycles)
	}
	if d := b.AllocBytes - a.AllocBytes; d < 64*64<<10 {
		t.Errorf("bytes allocated grew by %d, want at least %d", d, 64*64<<10)
	}
	if b.AllocObjects-a.AllocObjects < 64 {
		t.Errorf("objects allocated grew by %d, want at least 64", b.AllocObjects-a.AllocObjects)
	}
	if b.LiveBytes == 0 || b.GoalBytes < b.LiveBytes || b.TotalBytes < b.LiveBytes {
		t.Errorf("live %d, goal %d, total %d: want 0 < live <= goal, total", b.LiveBytes, b.GoalBytes, b.TotalBytes)
	}
}
