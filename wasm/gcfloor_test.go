package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestGCPercentFor checks the percents that hold the collector's goal at
// the floor: live plus percent of live is the floor (to a step of 25) while
// live is under half of it, Go's 100 past that.
func TestGCPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, roots, floor uint64
		want               int
	}{
		{0, 0, 64 * mib, 1600},             // before a collection: the minimum heap is the floor
		{4 * mib, 0, 64 * mib, 1500},       // 4 + 15 x 4 = 64
		{5 * mib, 0, 64 * mib, 1175},       // 5 + 11.8 x 5 = 64, rounded down
		{2 * mib, 2 * mib, 64 * mib, 1550}, // 2 + 15.5 x (2 + 2) = 64
		{16 * mib, 0, 64 * mib, 300},
		{31 * mib, 0, 64 * mib, 100}, // 106%: rounded down to 100
		{32 * mib, 0, 64 * mib, 100}, // half the floor: Go's pace
		{200 * mib, 0, 64 * mib, 100},
		{1, 0, 0, 100},
	} {
		got := gcPercentFor(c.live, c.roots, c.floor)
		if got != c.want {
			t.Errorf("gcPercentFor(%d MiB, %d MiB, %d MiB) = %d, want %d", c.live/mib, c.roots/mib, c.floor/mib, got, c.want)
		}
		if c.live > 0 && c.live < c.floor/2 {
			base := c.live + c.roots
			goal := c.live + base*uint64(got)/100
			if goal > c.floor || goal+base/4 < c.floor {
				t.Errorf("live %d MiB: the goal %d MiB is not within a quarter of live and roots of the floor", c.live/mib, goal/mib)
			}
		}
	}
}

// TestGCFloorSetsAfterCollections checks that check sets a percent at its
// first call and again only after a collection, and never when nothing
// changed.
func TestGCFloorSetsAfterCollections(t *testing.T) {
	f := newGCFloor(1 << 40) // far above any heap here: a percent above 100
	var set []int
	f.set = func(p int) int { set = append(set, p); return 100 }
	f.check()
	if len(set) != 1 || set[0] <= 100 {
		t.Fatalf("first check set %v, want one percent above 100", set)
	}
	f.check()
	if len(set) != 1 {
		t.Fatalf("a check without a collection set %v", set[1:])
	}
	sink = make([]byte, 8<<20) // the live heap moves: a percent of its own
	runtime.GC()
	f.check()
	runtime.KeepAlive(sink)
	if len(set) != 2 {
		t.Fatalf("after a collection: set %v, want a second percent", set)
	}
	if f.cycles == ^uint64(0) {
		t.Errorf("check did not note the collections")
	}
}

// TestGCFloorHoldsTheGoal runs the floor on this process's collector,
// watching it as the page does: after collections, the goal Go computes
// from the percent set is the floor, to within a quarter of the live heap
// and its roots.
func TestGCFloorHoldsTheGoal(t *testing.T) {
	const floor = 256 << 20
	f := newGCFloor(floor)
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	stop := f.watch()
	defer stop() // (before the percent is put back)
	// The finalizer that calls check runs on a goroutine of its own after
	// a collection: collect until it has run three times (the roots are
	// read off the goal at the percent in force, so the second is exact),
	// a bounded number of times.
	for i := 0; i < 200; i++ {
		runtime.GC()
		runtime.Gosched()
		if g := readGoStat(); g.Cycles > 3 && f.seen() >= 3 {
			break
		}
	}
	if f.seen() < 3 {
		t.Fatalf("the watch saw %d collections after 200", f.seen())
	}
	g := readGoStat()
	f.mu.Lock()
	p := f.percent
	f.mu.Unlock()
	if g.GoalBytes > floor*11/10 || g.GoalBytes < floor*3/4 {
		t.Errorf("the goal is %d MiB with the live heap %d MiB, want about the floor, %d MiB (percent %d)", g.GoalBytes>>20, g.LiveBytes>>20, floor>>20, p)
	}
}
