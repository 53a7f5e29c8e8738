package dxgk

import (
	"errors"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// TestSignalSynchronizationObject: a signal queued on a context takes
// effect once the work submitted before it is done, not when the call
// returns; with nothing outstanding, at once. Another device's context
// cannot signal the object.
func TestSignalSynchronizationObject(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	_, c2 := w.device(t, "other")
	a := w.alloc(t, d, 4096, nil, "rt")
	s := must(w.k.CreateSynchronizationObject(d, 3, "f"))
	f := must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))
	after := must(w.k.SignalSynchronizationObject(c, []HSyncObject{s}, 4))
	if after != f {
		t.Errorf("the signal follows fence %d, want %d", after, f)
	}
	if v := w.k.SynchronizationObjectValue(s); v != 3 {
		t.Fatalf("value %d before the GPU finished the work before the signal, want 3", v)
	}
	mark := w.rec.Len()
	ok(t, w.k.WaitForSynchronizationObjectFromCpu(s, 4))
	ev := w.rec.Since(uint64(mark))
	inOrder(t, ev,
		step{name: "WaitForSynchronizationObject", kind: trace.Wait},
		step{name: "FenceSignaled", kind: trace.Fence},
		step{name: "SyncObjectSignaled", kind: trace.Fence},
		step{name: "WaitForSynchronizationObject", kind: trace.Wait, args: "done"},
	)
	if v := w.k.SynchronizationObjectValue(s); v != 4 {
		t.Fatalf("value %d after the wait, want 4", v)
	}
	// Nothing outstanding: signalled inside the call.
	must(w.k.SignalSynchronizationObject(c, []HSyncObject{s}, 5))
	if v := w.k.SynchronizationObjectValue(s); v != 5 {
		t.Errorf("value %d after a signal on an idle context, want 5", v)
	}
	if _, err := w.k.SignalSynchronizationObject(c2, []HSyncObject{s}, 6); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Errorf("another device's context: %v", err)
	}
	if err := w.k.WaitForSynchronizationObjectFromCpu(s, 9); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Errorf("a wait no queued signal can end: %v", err)
	}
	ok(t, w.k.DestroySynchronizationObject(s))
	if err := w.k.DestroySynchronizationObject(s); !errors.Is(err, dxgkddi.STATUS_INVALID_HANDLE) {
		t.Errorf("destroyed twice: %v", err)
	}
}

// TestSignalOnRemovedDevice: a TDR cancels the context's fences, and the
// signals queued behind them are applied: nobody waits forever.
func TestSignalOnRemovedDevice(t *testing.T) {
	w := newWorld(1<<20, Config{TDRDelay: 1_000_000})
	d, c := w.device(t, "hung")
	a := w.alloc(t, d, 4096, nil, "a")
	ok(t, w.k.WaitForFence(c, must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))))
	s := must(w.k.CreateSynchronizationObject(d, 0, "f"))
	w.hw.mu.Lock()
	w.hw.hang = true
	w.hw.mu.Unlock()
	must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))
	must(w.k.SignalSynchronizationObject(c, []HSyncObject{s}, 1))
	ok(t, w.k.WaitForSynchronizationObjectFromCpu(s, 1))
	if !w.k.Removed(d) {
		t.Fatal("the device was not removed")
	}
	if _, err := w.k.SignalSynchronizationObject(c, []HSyncObject{s}, 2); !errors.Is(err, ErrDeviceRemoved) {
		t.Errorf("a signal on the removed device: %v", err)
	}
}
