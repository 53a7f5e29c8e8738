package memlimit

import (
	"runtime/metrics"
	"sync"
)

var (
	mu      sync.Mutex
	samples = []metrics.Sample{
		{Name: "/gc/heap/allocs:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
	}
)

func read() (allocated, live uint64) {
	mu.Lock()
	defer mu.Unlock()
	metrics.Read(samples)
	for i, s := range samples {
		if s.Value.Kind() != metrics.KindUint64 {
			continue
		}
		if i == 0 {
			allocated = s.Value.Uint64()
		} else {
			live = s.Value.Uint64()
		}
	}
	return allocated, live
}

// Allocated is the number of bytes of heap the program has allocated since
// it started, freed or not.
func Allocated() uint64 {
	a, _ := read()
	return a
}

// HeapObjects is the number of bytes of heap held by objects, live or not yet
// swept.
func HeapObjects() uint64 {
	_, l := read()
	return l
}

// TB is the part of testing.TB that Check needs.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// Check runs fn and fails t when fn allocated more than limit bytes of heap
// in all (freed or not): a fuzz input that makes the code under test
// allocate without bound is a bug even when it ends.
func Check(t TB, limit uint64, what string, fn func()) {
	t.Helper()
	before := Allocated()
	fn()
	if got := Allocated() - before; got > limit {
		t.Fatalf("%s allocated %d MiB, more than its ceiling of %d MiB", what, got>>20, limit>>20)
	}
}
