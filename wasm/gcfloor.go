package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// The page's collector starts at a floor. Go's collector starts its next
// cycle once the heap has grown by GOGC percent (100) of what the last one
// found live, and in the page a collection's marking runs on the page's
// only thread (gostats.go), 3-5 ms each in the draws figure: a frame with
// one in it misses its vsync. A run's heap grows from a few MiB as its
// trace, journal and frames build up, so the collections come at every
// doubling: in the draws figure (1,000 draws a frame, 600 frames after a
// load) seven of eight came in its first 330 frames, five of them in the
// first 110 (frames 4, 14, 30, 58, 103), and fewer later however much the
// frames allocate. With the goal held at gcFloorBytes or more, those early
// ones are one or two; a heap past the floor is paced as Go paces it.
//
// What it costs: a page whose heap stays small grows its module's memory
// to the floor before the first collection (WebAssembly's memory never
// shrinks), gcFloorBytes more than the few MiB of a small scenario. The
// native builds (the CLI, the tests, the RSS goal of docs/performance.md)
// are not affected: only main_js.go sets it up.

// gcFloorBytes is the heap goal the page's collector is held to at least.
const gcFloorBytes = 64 << 20

// gcFloor keeps the collector's goal at floor or more by its GC percent:
// after each collection (check notices a new cycle) it sets the percent
// that puts the next goal at the floor, while the live heap is below half
// of it, else Go's default, 100.
type gcFloor struct {
	mu      sync.Mutex // check runs after calls and after slices, on their goroutines
	floor   uint64
	cycles  uint64 // the collections counted at the last check
	checks  int    // the checks that saw a new collection (seen)
	percent int    // the percent set last (0: none yet)
	set     func(int) int
	s       [3]metrics.Sample
}

func newGCFloor(floor uint64) *gcFloor {
	f := &gcFloor{floor: floor, set: debug.SetGCPercent}
	f.s[0].Name = "/gc/cycles/total:gc-cycles"
	f.s[1].Name = "/gc/heap/live:bytes"
	f.s[2].Name = "/gc/heap/goal:bytes"
	f.cycles = ^uint64(0) // the first check sets a percent
	return f
}

// gcPercentFor is the GC percent whose next goal is floor (at least 100,
// Go's default): the goal is the live heap plus the percent of the live
// heap and the roots (the module's globals and the goroutines' stacks: a
// few MiB; check reads them off the goal). Before the first collection
// (live 0) it is the percent whose minimum heap (4 MiB at 100, in
// proportion) is floor.
func gcPercentFor(live, roots, floor uint64) int {
	if live == 0 {
		return max(100, int(floor*100/(4<<20)))
	}
	if live >= floor/2 {
		return 100
	}
	// Rounded down to a multiple of 25 (a percent set again only when the
	// live heap moved by a step): the goal stays within a quarter of the
	// live heap and roots of the floor.
	p := int((floor-live)*100/(live+roots)) / 25 * 25
	return max(100, p)
}

// watch calls check after every collection, from a finalizer re-armed
// each time: whatever runs the page (the bridge's calls and slices, a
// playing run's ticks, the pump of a hidden tab), a percent set for a
// small heap never outlives the next collection (a percent of 1,500 left
// on a heap of 40 MiB would put the goal past 600 MiB). stop ends it (the
// page never does; the tests do) and leaves the percent as it was.
func (f *gcFloor) watch() (stop func()) {
	type sentinel struct {
		p *int // a pointer: never the tiny allocator's (whose finalizers wait for a whole block)
		_ [8]byte
	}
	var stopped atomic.Bool
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if stopped.Load() {
				return
			}
			f.check()
			arm()
		})
	}
	f.check()
	arm()
	return func() { stopped.Store(true) }
}

// seen is the number of checks that found a collection.
func (f *gcFloor) seen() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.checks
}

// check sets the percent after a collection (cheap otherwise: one counter
// read).
func (f *gcFloor) check() {
	f.mu.Lock()
	defer f.mu.Unlock()
	metrics.Read(f.s[:1])
	if f.s[0].Value.Kind() != metrics.KindUint64 || f.s[0].Value.Uint64() == f.cycles {
		return
	}
	f.cycles = f.s[0].Value.Uint64()
	f.checks++
	metrics.Read(f.s[1:])
	for _, s := range f.s[1:] {
		if s.Value.Kind() != metrics.KindUint64 {
			return
		}
	}
	live, goal := f.s[1].Value.Uint64(), f.s[2].Value.Uint64()
	// The roots, from the goal at the percent in force: goal = live +
	// (live + roots) x percent / 100.
	var roots uint64
	if cur := uint64(max(f.percent, 100)); goal > live && live > 0 {
		roots = max((goal-live)*100/cur, live) - live
	}
	if p := gcPercentFor(live, roots, f.floor); p != f.percent {
		f.percent = p
		f.set(p)
	}
}
