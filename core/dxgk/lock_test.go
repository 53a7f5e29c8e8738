package dxgk

import (
	"errors"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// LockWith waits inside the lock for the GPU work the CPU access conflicts
// with ("PFND3DDDI_LOCKCB callback function (d3dumddi.h)", "D3DDDICB_LOCKFLAGS
// structure (d3dukmdt.h)"): a read for GPU writes, a write for GPU reads
// and writes; DonotWait fails instead, IgnoreSync never checks.
func TestLockWithWaitsForTheGPU(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		gpuWrite bool // the queued DMA buffer writes the allocation (else reads it)
		cpu      bool // a CPU-visible allocation
		flags    LockFlags
		hazard   string // "" for no wait
		wantErr  error
	}{
		{"read after a GPU read", false, false, LockFlags{ReadOnly: true}, "", nil},
		{"read after a GPU write", true, false, LockFlags{ReadOnly: true}, "RAW", nil},
		{"write after a GPU read", false, false, LockFlags{WriteOnly: true}, "WAR", nil},
		{"write after a GPU write", true, false, LockFlags{WriteOnly: true}, "WAW", nil},
		{"read-write after a GPU read", false, false, LockFlags{}, "WAR", nil},
		{"DonotWait", false, false, LockFlags{WriteOnly: true, DonotWait: true}, "", dxgkddi.STATUS_GRAPHICS_ALLOCATION_BUSY},
		{"IgnoreSync", true, false, LockFlags{WriteOnly: true, IgnoreSync: true}, "", nil},
		{"Discard of an allocation that cannot be renamed", false, false, LockFlags{WriteOnly: true, Discard: true}, "WAR", nil},
		{"Discard renames", false, true, LockFlags{WriteOnly: true, Discard: true}, "", nil},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			w := newWorld(1<<20, Config{})
			d, c := w.device(t, "dev")
			a := must(w.k.CreateAllocation(d, AllocationDesc{Size: 64, CPUVisible: tc.cpu, Obj: "buf"}))
			must(w.k.Render(c, nil, []AllocationListEntry{{a, tc.gpuWrite}}))
			mark := w.rec.Len()
			_, _, err := w.k.LockWith(d, a, tc.flags)
			if !errors.Is(err, tc.wantErr) && (err != nil || tc.wantErr != nil) {
				t.Fatalf("LockWith: %v, want %v", err, tc.wantErr)
			}
			waits := find(w.rec.Since(uint64(mark)), "WaitForFence", trace.Wait)
			switch {
			case tc.hazard == "" && len(waits) != 0:
				t.Errorf("waited: %+v", waits)
			case tc.hazard != "" && (len(waits) != 2 || waits[0].Args.Str(trace.KeyHazard) != tc.hazard || waits[0].Obj != "buf"):
				t.Errorf("waits %+v, want a %s wait for buf", waits, tc.hazard)
			}
			if tc.hazard != "" && w.k.CompletedFence(c) != 1 {
				t.Errorf("the lock returned before fence 1 completed")
			}
			if err == nil {
				ok(t, w.k.Unlock(d, a))
			}
		})
	}
}

// The renaming list ("Requesting to rename an allocation"): a Discard lock
// of a busy allocation gets another instance without DxgkDdiCreateAllocation,
// and a new handle for it ("D3DDDICB_LOCK structure": "returns a new handle
// that represents the new instance"); each DMA buffer reaches the instance
// its handle names; an instance the GPU is done with is handed out again,
// with its handle; any handle destroys the whole allocation.
func TestRenamingList(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := must(w.k.CreateAllocation(d, AllocationDesc{Size: 64, CPUVisible: true, Obj: "vb"}))
	discard := LockFlags{WriteOnly: true, Discard: true}
	cur := a
	lock := func() trace.Event {
		t.Helper()
		mark := w.rec.Len()
		_, h, err := w.k.LockWith(d, cur, discard)
		ok(t, err)
		ok(t, w.k.Unlock(d, h))
		cur = h
		ev := w.rec.Since(uint64(mark))
		if n := count(ev, "WaitForFence", trace.Wait); n != 0 {
			t.Fatalf("a Discard lock waited")
		}
		r := find(ev, "VidMmRename", trace.Message)
		if len(r) != 1 {
			return trace.Event{}
		}
		return r[0]
	}
	if r := lock(); r.Name != "" || cur != a {
		t.Fatalf("an idle allocation was renamed: %s (handle %v)", r.Msg, cur)
	}
	must(w.k.Render(c, nil, []AllocationListEntry{{cur, false}})) // DMA 1 reads instance 0 (a)
	r1 := lock()
	h1 := cur
	from0, _ := r1.Args.Uint(trace.KeyFrom)
	to1, _ := r1.Args.Uint(trace.KeyTo)
	if r1.Name == "" || from0 == to1 || h1 == a || r1.Handle != h1.String() {
		t.Fatalf("first rename %+v: want a new instance under a new handle (got %v)", r1, h1)
	}
	must(w.k.Render(c, nil, []AllocationListEntry{{h1, false}})) // DMA 2 reads instance 1
	r2 := lock()
	h2 := cur
	to2, _ := r2.Args.Uint(trace.KeyTo)
	if n, idle := w.k.RenamingList(a); n != 2 || to2 == from0 || to2 == to1 || h2 == a || h2 == h1 {
		t.Fatalf("second rename to %#x, handle %v (list %d, %d idle): want a new instance and handle while both are busy", to2, h2, n, idle)
	}
	ok(t, w.k.Idle())
	if n, idle := w.k.RenamingList(h2); n != 2 || idle != 2 {
		t.Fatalf("renaming list %d, %d idle after Idle; want 2, 2", n, idle)
	}
	must(w.k.Render(c, nil, []AllocationListEntry{{h2, false}})) // DMA 3 reads instance 2
	r3 := lock()
	to3, _ := r3.Args.Uint(trace.KeyTo)
	if to3 != from0 || cur != a {
		t.Fatalf("third rename to %#x handle %v, want the idle instance %#x back from the list with its handle %v", to3, cur, from0, a)
	}
	ok(t, w.k.Idle())
	if p := w.drv.patched; len(p) != 3 || p[0] != from0 || p[1] != to1 || p[2] != to2 {
		t.Errorf("patched %#x, want each DMA buffer at its own instance %#x %#x %#x", p, from0, to1, to2)
	}
	if n := count(w.rec.Events(), "DxgkDdiCreateAllocation", trace.Call); n != 1 {
		t.Errorf("%d DxgkDdiCreateAllocation, want 1: renaming does not call the driver", n)
	}
	_, _, live := w.k.Live()
	committed := len(w.hw.mem.committed())
	ok(t, w.k.DestroyAllocation(d, h1))
	if got := len(w.hw.mem.committed()); got != committed-3 {
		t.Errorf("%d extents committed after DestroyAllocation, want %d: every instance is freed", got, committed-3)
	}
	if _, _, n := w.k.Live(); n != live-1 || live != 1 {
		t.Errorf("live allocations %d -> %d, want 1 -> 0: instances are not allocations of their own", live, n)
	}
	if _, err := w.k.Lock(d, h2); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE) {
		t.Errorf("an instance handle after the destruction: %v", err)
	}
}
