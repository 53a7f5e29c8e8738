package dxgk

import (
	"errors"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// TestResidencyBudget: WDDM 2.0 residency lists charged to a process
// budget ("Process residency budgets"): MakeResident past the budget adds
// nothing and fails with STATUS_NO_MEMORY and NumBytesToTrim; Evict
// uncharges; a buffer naming an allocation on no list removes its device
// (access to a nonresident allocation) and never reaches the GPU.
func TestResidencyBudget(t *testing.T) {
	w := newWorld(1<<20, Config{ResidencyBudget: 12 << 10})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 8192, nil, "a")
	b := w.alloc(t, d, 8192, nil, "b")
	if n, err := w.k.MakeResident(d, []HAllocation{a}); err != nil || n != 0 {
		t.Fatalf("MakeResident(a): %d, %v", n, err)
	}
	if _, _, charged := w.k.Residency(); charged != 8192 {
		t.Fatalf("charged %d after a, want 8192", charged)
	}
	n, err := w.k.MakeResident(d, []HAllocation{b})
	if dxgkddi.StatusOf(err) != dxgkddi.STATUS_NO_MEMORY || n != 4096 {
		t.Fatalf("MakeResident(b) past the budget: NumBytesToTrim %d, %v; want 4096, STATUS_NO_MEMORY", n, err)
	}
	if _, _, charged := w.k.Residency(); charged != 8192 {
		t.Fatalf("a failed MakeResident charged something: %d", charged)
	}
	// a is used on the GPU while resident.
	f := must(w.k.Render(c, []uint32{7}, []AllocationListEntry{{a, true}}))
	ok(t, w.k.WaitForFence(c, f))
	if n, err := w.k.Evict(d, []HAllocation{a}); err != nil || n != 0 {
		t.Fatalf("Evict(a): %d, %v", n, err)
	}
	if n, err := w.k.MakeResident(d, []HAllocation{b}); err != nil || n != 0 {
		t.Fatalf("MakeResident(b) after the eviction: %d, %v", n, err)
	}
	// a is on no list now: a buffer that uses it removes the device.
	submitted := submits(w)
	f = must(w.k.Render(c, []uint32{7}, []AllocationListEntry{{a, false}, {b, true}}))
	if err := w.k.WaitForFence(c, f); !errors.Is(err, ErrDeviceRemoved) {
		t.Fatalf("wait after using a nonresident allocation: %v, want the device removed", err)
	}
	if got := w.k.RemovedReason(d); got != RemovedPageFault {
		t.Errorf("removed as %v", got)
	}
	if submits(w) != submitted {
		t.Error("the buffer that names a nonresident allocation reached the GPU")
	}
	// Without the option the lists do not exist.
	w1 := newWorld(1<<20, Config{})
	d1, _ := w1.device(t, "dev")
	x := w1.alloc(t, d1, 4096, nil, "x")
	if _, err := w1.k.MakeResident(d1, []HAllocation{x}); dxgkddi.StatusOf(err) != dxgkddi.STATUS_NOT_SUPPORTED {
		t.Errorf("MakeResident in WDDM 1.x: %v", err)
	}
}

// submits counts the DxgkDdiSubmitCommand calls so far.
func submits(w *world) int {
	n := 0
	for _, e := range w.rec.Events() {
		if e.Name == "DxgkDdiSubmitCommand" && e.Kind == trace.Call {
			n++
		}
	}
	return n
}
