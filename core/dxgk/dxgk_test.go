package dxgk

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// must unwraps a result; a failure panics, which fails the test with a stack.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func ok(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// step names an event to look for: its name and, optionally, a kind and a
// substring of its args.
type step struct {
	name string
	kind trace.Kind
	args string
}

// inOrder checks that the steps occur in this order among events.
func inOrder(t testing.TB, events []trace.Event, steps ...step) {
	t.Helper()
	i := 0
	for _, st := range steps {
		for ; i < len(events); i++ {
			e := &events[i]
			if e.Name == st.name && (st.kind == 0 || e.Kind == st.kind) && strings.Contains(e.Args.String(), st.args) {
				break
			}
		}
		if i == len(events) {
			t.Fatalf("step %q (%v %q) missing or out of order in:\n%s", st.name, st.kind, st.args, dump(events))
		}
		i++
	}
}

func count(events []trace.Event, name string, kind trace.Kind) int {
	n := 0
	for _, e := range events {
		if e.Name == name && e.Kind == kind {
			n++
		}
	}
	return n
}

func find(events []trace.Event, name string, kind trace.Kind) []trace.Event {
	var out []trace.Event
	for _, e := range events {
		if e.Name == name && e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func dump(events []trace.Event) string {
	var b strings.Builder
	for i := range events {
		b.Write(trace.AppendJSON(nil, &events[i]))
		b.WriteByte('\n')
	}
	return b.String()
}

// device makes a device with a context.
func (w *world) device(t testing.TB, name string) (HDevice, HContext) {
	t.Helper()
	d := must(w.k.CreateDevice(name))
	c := must(w.k.CreateContext(d))
	return d, c.Context
}

func (w *world) alloc(t testing.TB, d HDevice, size uint64, init []byte, obj string) HAllocation {
	t.Helper()
	return must(w.k.CreateAllocation(d, AllocationDesc{Size: size, InitialData: init, Obj: obj}))
}

func (w *world) noFaults(t testing.TB) {
	t.Helper()
	if len(w.hw.faults) > 0 {
		t.Fatalf("GPU faults: %v", w.hw.faults)
	}
}

func TestRenderFlowOrder(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, []byte{1, 2, 3}, "vb")
	rt := w.alloc(t, d, 8192, nil, "rt")
	mark := w.rec.Len()
	f := must(w.k.Render(c, []uint32{7}, []AllocationListEntry{{a, false}, {rt, true}}))
	if f != 1 {
		t.Fatalf("first fence %d, want 1", f)
	}
	ok(t, w.k.WaitForFence(c, f))
	ev := w.rec.Since(uint64(mark))
	inOrder(t, ev,
		step{name: "DxgkDdiRender", kind: trace.Call, args: "device=kd1 allocs=a1@kd1:r,a2@kd1:w"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a1 system->vram 4096B"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=FILL a2 vram 8192B"},
		step{name: "DxgkDdiSubmitCommand", kind: trace.Call, args: "paging"},
		step{name: "DxgkDdiPatch", kind: trace.Call},
		step{name: "DxgkDdiSubmitCommand", kind: trace.Call, args: "allocs=2"},
		step{name: "DxgkDdiInterruptRoutine", kind: trace.Call},
		step{name: "DxgkCbNotifyInterrupt", kind: trace.Call},
		step{name: "DxgkCbQueueDpc", kind: trace.Call},
		step{name: "DxgkDdiDpcRoutine", kind: trace.Call},
		step{name: "FenceSignaled", kind: trace.Fence},
	)
	threads := map[string]string{"DxgkDdiRender": "main", "DxgkDdiBuildPagingBuffer": "kernel", "DxgkDdiPatch": "kernel",
		"DxgkDdiSubmitCommand": "kernel", "DxgkDdiInterruptRoutine": "isr", "DxgkCbNotifyInterrupt": "isr", "DxgkDdiDpcRoutine": "dpc", "FenceSignaled": "dpc"}
	for _, e := range ev {
		if th, ok := threads[e.Name]; ok && e.Thread != th {
			t.Errorf("%s on thread %q, want %q", e.Name, e.Thread, th)
		}
		if e.Kind == trace.Call && strings.HasPrefix(e.Name, "DxgkDdi") && (e.Layer != trace.KMD || e.From != trace.Dxgkrnl) {
			t.Errorf("%s: layer %v from %v", e.Name, e.Layer, e.From)
		}
		if e.Kind == trace.Call && strings.HasPrefix(e.Name, "DxgkCb") && (e.Layer != trace.Dxgkrnl || e.From != trace.KMD) {
			t.Errorf("%s: layer %v from %v", e.Name, e.Layer, e.From)
		}
		if e.Kind == trace.Return && strings.HasPrefix(e.Name, "DxgkDdi") && e.HR != "STATUS_SUCCESS" {
			t.Errorf("%s returned %s", e.Name, e.HR)
		}
	}
	sig := find(ev, "FenceSignaled", trace.Fence)
	if last := sig[len(sig)-1]; last.Fence != 1 || last.Handle != "kc1" || last.DMA == 0 {
		t.Errorf("FenceSignaled %+v", last)
	}
	if w.k.CompletedFence(c) != 1 || w.k.SubmittedFence(c) != 1 {
		t.Errorf("fences %d/%d", w.k.CompletedFence(c), w.k.SubmittedFence(c))
	}
	w.noFaults(t)

	// The same allocations again: resident, no paging.
	mark = w.rec.Len()
	f = must(w.k.Render(c, []uint32{8}, []AllocationListEntry{{a, false}, {rt, true}}))
	ok(t, w.k.WaitForFence(c, f))
	ev = w.rec.Since(uint64(mark))
	if n := count(ev, "DxgkDdiBuildPagingBuffer", trace.Call); n != 0 {
		t.Errorf("second render built %d paging operations", n)
	}
	if n := count(ev, "DxgkDdiSubmitCommand", trace.Call); n != 1 {
		t.Errorf("second render: %d submissions", n)
	}
	if f != 2 {
		t.Errorf("second fence %d", f)
	}
	// The vertex buffer's initial data reached VRAM.
	b := must(w.k.Lock(d, a))
	if !bytes.Equal(b[:3], []byte{1, 2, 3}) {
		t.Errorf("locked bytes %v", b[:3])
	}
	ok(t, w.k.Unlock(d, a))
	w.noFaults(t)
}

func TestWaitForFence(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, nil, "rt")
	f := must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))
	if w.k.CompletedFence(c) != 0 {
		t.Fatal("completed before anything ran")
	}
	t0 := w.s.Now()
	mark := w.rec.Len()
	ok(t, w.k.WaitForFence(c, f))
	if w.s.Now() <= t0 {
		t.Error("waiting took no virtual time")
	}
	ev := w.rec.Since(uint64(mark))
	waits := find(ev, "WaitForFence", trace.Wait)
	if len(waits) != 2 || waits[0].Msg != "fence 1 of kc1 (DMA 1)" || waits[0].Fence != 1 || waits[1].Args.String() != "done" || waits[1].T <= waits[0].T {
		t.Fatalf("wait events %+v", waits)
	}
	if sig := find(ev, "FenceSignaled", trace.Fence); waits[1].T < sig[len(sig)-1].T {
		t.Errorf("the wait ended at %d, before the fence was signalled at %d", waits[1].T, sig[len(sig)-1].T)
	}
	// Done already: no wait.
	mark = w.rec.Len()
	ok(t, w.k.WaitForFence(c, f))
	if n := count(w.rec.Since(uint64(mark)), "WaitForFence", trace.Wait); n != 0 {
		t.Errorf("%d wait events for a signalled fence", n)
	}
	if err := w.k.WaitForFence(c, 5); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Errorf("unsubmitted fence: %v", err)
	}
	if err := w.k.WaitForFence(99, 1); !errors.Is(err, dxgkddi.STATUS_INVALID_HANDLE) {
		t.Errorf("unknown context: %v", err)
	}
}

func TestEviction(t *testing.T) {
	w := newWorld(8192, Config{}) // room for two 4 KiB allocations
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, []byte("AAAA"), "a")
	b := w.alloc(t, d, 4096, []byte("BBBB"), "b")
	x := w.alloc(t, d, 4096, []byte("CCCC"), "c")
	render := func(hs ...HAllocation) []trace.Event {
		t.Helper()
		var l []AllocationListEntry
		for _, h := range hs {
			l = append(l, AllocationListEntry{Allocation: h})
		}
		mark := w.rec.Len()
		ok(t, w.k.WaitForFence(c, must(w.k.Render(c, nil, l))))
		return w.rec.Since(uint64(mark))
	}
	render(a)
	render(b)
	ev := render(x) // a is the least recently used
	inOrder(t, ev,
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a1 vram->system 4096B"},
		step{name: "DxgkDdiSubmitCommand", kind: trace.Call, args: "paging"},
		step{name: "WaitForPaging", kind: trace.Wait},
		step{name: "WaitForPaging", kind: trace.Wait, args: "done"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a3 system->vram 4096B"},
		step{name: "DxgkDdiSubmitCommand", kind: trace.Call, args: "paging"},
		step{name: "DxgkDdiPatch", kind: trace.Call},
	)
	if e := find(ev, "DxgkDdiBuildPagingBuffer", trace.Call)[0]; !strings.Contains(e.Msg, "evict least recently used a1") {
		t.Errorf("eviction message %q", e.Msg)
	}
	// a comes back with its content, b (now LRU) goes.
	ev = render(a)
	inOrder(t, ev,
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a2 vram->system"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a1 system->vram"},
	)
	for h, want := range map[HAllocation]string{a: "AAAA", b: "BBBB", x: "CCCC"} {
		got := must(w.k.Lock(d, h))
		if string(got[:4]) != want {
			t.Errorf("%v holds %q, want %q", h, got[:4], want)
		}
		ok(t, w.k.Unlock(d, h))
	}
	// A buffer needing more than VRAM holds: the rest is paged into the
	// aperture segment, which maps its backing store's pages and copies
	// nothing ("GPU segments"): MAP_APERTURE_SEGMENT, no TRANSFER for it.
	ev = render(a, b, x)
	if n := count(ev, "VidMmAperture", trace.Message); n != 1 {
		t.Errorf("%d allocations mapped into the aperture, want 1:\n%s", n, dump(ev))
	}
	for _, e := range find(ev, "DxgkDdiBuildPagingBuffer", trace.Call) {
		if args := e.Args.String(); strings.Contains(args, "MAP_APERTURE_SEGMENT") {
			if !strings.Contains(args, "system->aperture") {
				t.Errorf("map: %s", args)
			}
			for _, f := range find(ev, "DxgkDdiBuildPagingBuffer", trace.Call) {
				if f.Handle == e.Handle && strings.Contains(f.Args.String(), "TRANSFER") {
					t.Errorf("%s mapped into the aperture and copied too: %s", e.Handle, f.Args)
				}
			}
		}
	}
	if n := len(slices.DeleteFunc(find(ev, "DxgkDdiBuildPagingBuffer", trace.Call), func(e trace.Event) bool {
		return !strings.Contains(e.Args.String(), "op=MAP_APERTURE_SEGMENT")
	})); n != 1 {
		t.Errorf("%d MAP_APERTURE_SEGMENT operations, want 1:\n%s", n, dump(ev))
	}
	// Once the mapped allocation gets into VRAM, its bytes are copied from
	// the backing store and the aperture mapping is undone.
	var mapped string
	for _, e := range find(ev, "DxgkDdiBuildPagingBuffer", trace.Call) {
		if strings.Contains(e.Args.String(), "MAP_APERTURE_SEGMENT") {
			mapped = e.Handle
		}
	}
	var h HAllocation
	for _, x := range []HAllocation{a, b, x} {
		if x.String() == mapped {
			h = x
		}
	}
	ev = render(h)
	inOrder(t, ev,
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER " + mapped + " system->vram"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=UNMAP_APERTURE_SEGMENT " + mapped + " aperture"},
		step{name: "DxgkDdiPatch", kind: trace.Call},
	)
	w.noFaults(t)
	if vram := w.k.vram.used; vram != 8192 {
		t.Errorf("VRAM in use %d", vram)
	}
}

func TestInjectVRAMFull(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, nil, "a")
	b := w.alloc(t, d, 4096, nil, "b")
	ok(t, w.k.WaitForFence(c, must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))))
	w.k.InjectVRAMFull()
	mark := w.rec.Len()
	ok(t, w.k.WaitForFence(c, must(w.k.Render(c, nil, []AllocationListEntry{{b, true}}))))
	inOrder(t, w.rec.Since(uint64(mark)),
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=TRANSFER a1 vram->system"},
		step{name: "DxgkDdiBuildPagingBuffer", kind: trace.Call, args: "op=FILL a2 vram"},
	)
	w.noFaults(t)
}

// TestTDR: a hung buffer is asked to preempt (DxgkDdiPreemptCommand); with
// no answer within the TDR delay the engine is reset alone when the driver
// reports SupportPerEngineTDR (DxgkDdiResetEngine: only the guilty device is
// removed, as hung), else the adapter is (DxgkDdiResetFromTimeout,
// DxgkDdiRestartFromTimeout: every device is removed, the other one as
// reset) ("TDR changes in Windows 8", "Timeout Detection and Recovery").
func TestTDR(t *testing.T) {
	tests := []struct {
		desc      string
		perEngine bool
		resets    []string
		why2      RemovalReason
	}{
		{"engine reset", true, []string{"DxgkDdiResetEngine"}, NotRemoved},
		{"adapter reset", false, []string{"DxgkDdiResetFromTimeout", "DxgkDdiRestartFromTimeout"}, RemovedReset},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) { testTDR(t, tt.perEngine, tt.resets, tt.why2) })
	}
}

func testTDR(t *testing.T, perEngine bool, resets []string, why2 RemovalReason) {
	w := newWorldTDR(1<<20, Config{TDRDelay: 1_000_000}, perEngine)
	d1, c1 := w.device(t, "hung")
	d2, c2 := w.device(t, "healthy")
	a1 := w.alloc(t, d1, 4096, nil, "a1")
	a2 := w.alloc(t, d2, 4096, nil, "a2")
	// Make both resident first, so the hang hits the render buffer.
	ok(t, w.k.WaitForFence(c1, must(w.k.Render(c1, nil, []AllocationListEntry{{a1, true}}))))
	ok(t, w.k.WaitForFence(c2, must(w.k.Render(c2, nil, []AllocationListEntry{{a2, true}}))))

	w.hw.mu.Lock()
	w.hw.hang = true
	w.hw.mu.Unlock()
	f1 := must(w.k.Render(c1, nil, []AllocationListEntry{{a1, true}}))
	f1b := must(w.k.Render(c1, nil, []AllocationListEntry{{a1, true}}))
	f2 := must(w.k.Render(c2, nil, []AllocationListEntry{{a2, true}}))
	t0 := w.s.Now()
	mark := w.rec.Len()
	err := w.k.WaitForFence(c1, f1)
	if !errors.Is(err, ErrDeviceRemoved) || !errors.Is(err, dxgkddi.STATUS_DEVICE_REMOVED) {
		t.Fatalf("wait on the hung device: %v", err)
	}
	if w.s.Now()-t0 < 1_000_000 {
		t.Errorf("TDR after %d ns, want at least the TDR delay", w.s.Now()-t0)
	}
	ev := w.rec.Since(uint64(mark))
	steps := []step{{name: "WaitForFence", kind: trace.Wait}, {name: "DxgkDdiPreemptCommand", kind: trace.Call}, {name: "TDR", kind: trace.Message}}
	for _, r := range resets {
		steps = append(steps, step{name: r, kind: trace.Call})
	}
	steps = append(steps, step{name: "DeviceRemoved", kind: trace.Message}, step{name: "FenceCancelled", kind: trace.Fence},
		step{name: "WaitForFence", kind: trace.Wait, args: "done"})
	inOrder(t, ev, steps...)
	for _, e := range ev {
		if e.Kind == trace.Call && (e.Name == "DxgkDdiResetEngine" || e.Name == "DxgkDdiResetFromTimeout") && e.Name != resets[0] {
			t.Errorf("%s called; want only %v", e.Name, resets)
		}
	}
	if got := w.k.RemovedReason(d1); got != RemovedHung {
		t.Errorf("the guilty device: %v, want %v", got, RemovedHung)
	}
	if got := w.k.RemovedReason(d2); got != why2 {
		t.Errorf("the other device: %v, want %v", got, why2)
	}
	// Every pending fence of the removed device reads signalled; waits fail.
	if w.k.CompletedFence(c1) != f1b {
		t.Errorf("CompletedFence of the removed context %d, want %d", w.k.CompletedFence(c1), f1b)
	}
	if err := w.k.WaitForFence(c1, f1b); !errors.Is(err, ErrDeviceRemoved) {
		t.Errorf("second wait: %v", err)
	}
	if _, err := w.k.Render(c1, nil, nil); !errors.Is(err, ErrDeviceRemoved) {
		t.Errorf("render on a removed device: %v", err)
	}
	if _, err := w.k.CreateAllocation(d1, AllocationDesc{Size: 16}); !errors.Is(err, ErrDeviceRemoved) {
		t.Errorf("allocation on a removed device: %v", err)
	}
	if why2 == NotRemoved {
		// The other device's buffer was resubmitted and completes.
		ok(t, w.k.WaitForFence(c2, f2))
		ok(t, w.k.WaitForFence(c2, must(w.k.Render(c2, nil, []AllocationListEntry{{a2, true}}))))
	} else if err := w.k.WaitForFence(c2, f2); !errors.Is(err, ErrDeviceRemoved) {
		t.Errorf("wait on the reset device: %v", err)
	}
	ok(t, w.k.Idle())
	// Everything can still be destroyed.
	ok(t, w.k.DestroyDevice(d1))
	ok(t, w.k.DestroyDevice(d2))
	if dv, cx, al := w.k.Live(); dv+cx+al != 0 {
		t.Errorf("live after destroying everything: %d %d %d", dv, cx, al)
	}
	w.noFaults(t)
}

func TestTDRInPagingBuffer(t *testing.T) {
	w := newWorld(1<<20, Config{TDRDelay: 1_000_000})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, []byte("data"), "a")
	w.hw.hang = true // the paging buffer that makes a resident hangs
	f := must(w.k.Render(c, nil, []AllocationListEntry{{a, false}}))
	if err := w.k.WaitForFence(c, f); !errors.Is(err, ErrDeviceRemoved) {
		t.Fatalf("wait: %v", err)
	}
	// The paging buffer was resubmitted: the allocation's content is in VRAM.
	ok(t, w.k.Idle())
	w.k.mu.Lock()
	resident := w.k.allocs[a].resident
	w.k.mu.Unlock()
	if !resident {
		t.Fatal("not resident after the resubmitted paging buffer")
	}
	b, _ := w.hw.mem.Bytes(w.k.allocs[a].vram, 4)
	if string(b) != "data" {
		t.Errorf("VRAM holds %q", b)
	}
	ok(t, w.k.DestroyDevice(d))
}

func TestDestroyAllocationDeferred(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, nil, "tex")
	f := must(w.k.Render(c, nil, []AllocationListEntry{{a, false}}))
	mark := w.rec.Len()
	ok(t, w.k.DestroyAllocation(d, a))
	ev := w.rec.Since(uint64(mark))
	if count(ev, "DestroyAllocationDeferred", trace.Message) != 1 || count(ev, "DxgkDdiDestroyAllocation", trace.Call) != 0 {
		t.Fatalf("destroy while in flight:\n%s", dump(ev))
	}
	if _, _, n := w.k.Live(); n != 1 {
		t.Fatalf("%d live allocations while in flight", n)
	}
	if _, err := w.k.Render(c, nil, []AllocationListEntry{{a, false}}); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE) {
		t.Errorf("render of a destroyed allocation: %v", err)
	}
	if err := w.k.DestroyAllocation(d, a); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE) {
		t.Errorf("double destroy: %v", err)
	}
	// The DPC that retires the buffer only notes that nothing names the
	// allocation; DxgkDdiDestroyAllocation, which runs at PASSIVE_LEVEL
	// ("DXGKDDI_DESTROYALLOCATION callback function"), runs on Dxgkrnl's
	// worker thread, not in the DPC.
	mark = w.rec.Len()
	ok(t, w.k.WaitForFence(c, f))
	ok(t, w.k.Idle())
	ev = w.rec.Since(uint64(mark))
	inOrder(t, ev, step{name: "FenceSignaled", kind: trace.Fence}, step{name: "AllocationUnreferenced", kind: trace.Message},
		step{name: "DxgkDdiDestroyAllocation", kind: trace.Call})
	if e := find(ev, "AllocationUnreferenced", trace.Message)[0]; e.Thread != "dpc" || e.Handle != "a1" {
		t.Errorf("noted in the DPC: %+v", e)
	}
	if e := find(ev, "DxgkDdiDestroyAllocation", trace.Call)[0]; e.Thread != "worker" || e.Handle != "a1" || e.Obj != "tex" || e.Args.String() != "irql=PASSIVE_LEVEL" {
		t.Errorf("deferred free %+v (%s)", e, e.Args)
	}
	if _, _, n := w.k.Live(); n != 0 {
		t.Errorf("%d live allocations after the fence", n)
	}
	if got := w.hw.mem.committed(); len(got) != 0 {
		t.Errorf("still committed: %#x", got)
	}
	// Not in flight: freed at once.
	b := w.alloc(t, d, 64, nil, "cb")
	mark = w.rec.Len()
	ok(t, w.k.DestroyAllocation(d, b))
	if e := find(w.rec.Since(uint64(mark)), "DxgkDdiDestroyAllocation", trace.Call); len(e) != 1 || e[0].Thread != "main" {
		t.Errorf("immediate free %+v", e)
	}
}

func TestLiveBackToZero(t *testing.T) {
	w := newWorld(16384, Config{})
	var devs []HDevice
	for i := 0; i < 3; i++ {
		d, c := w.device(t, fmt.Sprintf("dev%d", i))
		devs = append(devs, d)
		var l []AllocationListEntry
		for j := 0; j < 3; j++ {
			l = append(l, AllocationListEntry{Allocation: w.alloc(t, d, 4096, []byte{byte(j)}, ""), Write: j == 0})
		}
		l = append(l, AllocationListEntry{Allocation: must(w.k.CreateAllocation(d, AllocationDesc{Size: 16, CPUVisible: true}))})
		for n := 0; n < 2; n++ {
			must(w.k.Render(c, nil, l))
		}
		if i == 1 {
			ok(t, w.k.DestroyAllocation(d, l[1].Allocation)) // deferred
		}
	}
	if dv, cx, al := w.k.Live(); dv != 3 || cx != 3 || al != 12 {
		t.Fatalf("live %d %d %d", dv, cx, al)
	}
	for _, d := range devs {
		ok(t, w.k.DestroyDevice(d))
	}
	if dv, cx, al := w.k.Live(); dv+cx+al != 0 {
		t.Fatalf("live after destroying everything: %d %d %d", dv, cx, al)
	}
	if got := w.hw.mem.committed(); len(got) != 0 {
		t.Errorf("still committed: %#x", got)
	}
	if w.k.vram.used != 0 || w.k.aperture.used != 0 {
		t.Errorf("segments in use: %d %d", w.k.vram.used, w.k.aperture.used)
	}
	w.noFaults(t)
}

func TestErrors(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	d2, _ := w.device(t, "other")
	a := w.alloc(t, d, 4096, nil, "a")
	tests := []struct {
		desc string
		err  error
		code dxgkddi.NTSTATUS
	}{
		{"render on an unknown context", second(w.k.Render(42, nil, nil)), dxgkddi.STATUS_INVALID_HANDLE},
		{"render of an unknown allocation", second(w.k.Render(c, nil, []AllocationListEntry{{77, false}})), dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE},
		{"command buffer too big", second(w.k.Render(c, make([]uint32, 2000), nil)), dxgkddi.STATUS_INVALID_PARAMETER},
		{"allocation list too long", second(w.k.Render(c, nil, make([]AllocationListEntry, 17))), dxgkddi.STATUS_INVALID_PARAMETER},
		{"rejected by the driver", second(w.k.Render(c, []uint32{fakeReject}, nil)), dxgkddi.STATUS_INVALID_PARAMETER},
		{"present of an unknown source", second(w.k.Present(PresentInfo{Context: c, Src: 77, Dst: a})), dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE},
		{"flip with a destination", second(w.k.Present(PresentInfo{Context: c, Src: a, Dst: a, Flip: true})), dxgkddi.STATUS_INVALID_PARAMETER},
		{"SyncInterval 5", second(w.k.Present(PresentInfo{Context: c, Src: a, SyncInterval: 5})), dxgkddi.STATUS_INVALID_PARAMETER},
		{"allocation of size 0", second(w.k.CreateAllocation(d, AllocationDesc{})), dxgkddi.STATUS_INVALID_PARAMETER},
		{"allocation on an unknown device", second(w.k.CreateAllocation(9, AllocationDesc{Size: 4})), dxgkddi.STATUS_INVALID_HANDLE},
		{"allocation bigger than the aperture", second(w.k.CreateAllocation(d, AllocationDesc{Size: 2 << 30})), dxgkddi.STATUS_NO_MEMORY},
		{"lock from another device", second(w.k.Lock(d2, a)), dxgkddi.STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE},
		{"unlock of an unlocked allocation", w.k.Unlock(d, a), dxgkddi.STATUS_INVALID_PARAMETER},
		{"destroy from another device", w.k.DestroyAllocation(d2, a), dxgkddi.STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE},
		{"destroy an unknown context", w.k.DestroyContext(99), dxgkddi.STATUS_INVALID_HANDLE},
		{"destroy an unknown device", w.k.DestroyDevice(99), dxgkddi.STATUS_INVALID_HANDLE},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			if !errors.Is(tt.err, tt.code) {
				t.Fatalf("err = %v, want %v", tt.err, tt.code)
			}
			if !strings.HasPrefix(dxgkddi.Message(tt.err), "dxgk: ") && !strings.HasPrefix(dxgkddi.Message(tt.err), "fake: ") {
				t.Errorf("message %q", dxgkddi.Message(tt.err))
			}
		})
	}
	// A rejected buffer consumes no fence and its Return carries the status.
	if w.k.SubmittedFence(c) != 0 {
		t.Errorf("rejected buffers took fences: %d", w.k.SubmittedFence(c))
	}
	ret := find(w.rec.Events(), "DxgkDdiRender", trace.Return)
	if len(ret) != 1 || ret[0].HR != "STATUS_INVALID_PARAMETER" || ret[0].Msg != "fake: rejected" {
		t.Errorf("render returns %+v", ret)
	}
}

func second[T any](_ T, err error) error { return err }

// A bitblt present names only a source; Dxgkrnl picks the destination
// (the device's redirection surface for that size, made once) and the KMD's
// DxgkDdiPresent writes the copy: "kernel mode will determine the
// destination" ("DXGIDDICB_PRESENT").
func TestPresentPicksRedirectionSurface(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	rt := w.alloc(t, d, 4096, nil, "backbuffer")
	mark := w.rec.Len()
	f := must(w.k.Present(PresentInfo{Context: c, Src: rt}))
	ok(t, w.k.WaitForFence(c, f))
	f2 := must(w.k.Present(PresentInfo{Context: c, Src: rt}))
	ok(t, w.k.WaitForFence(c, f2))
	ev := w.rec.Since(uint64(mark))
	if made := find(ev, "DxgkDdiCreateAllocation", trace.Call); len(made) != 1 || made[0].Obj != "redirection surface 0x0" {
		t.Fatalf("redirection surfaces made: %+v", made)
	}
	call := find(ev, "DxgkDdiPresent", trace.Call)
	if len(call) != 2 || call[0].Args.String() != "device=kd1 allocs=a1@kd1:r,a2@kd1:w flags=Blt" || call[1].Args.String() != call[0].Args.String() ||
		call[0].Msg != "Blt: copy a1 into a2, the redirection surface Dxgkrnl picked (SyncInterval 0)" {
		t.Fatalf("present calls %+v", call)
	}
	if f != 1 || f2 != 2 {
		t.Errorf("fences %d, %d: each copy is a DMA buffer of the context", f, f2)
	}
	if sub := find(ev, "DxgkDdiSubmitCommand", trace.Call); sub[len(sub)-1].Args.String() != "allocs=3 patches=2 engine=0 subfence=3" {
		t.Errorf("submit args %q", sub[len(sub)-1].Args)
	}
}

// TestConcurrentCreation runs the free-threaded creation paths on real
// goroutines while the simulation renders (run with -race).
func TestConcurrentCreation(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 4096, nil, "a")
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				h, err := w.k.CreateAllocation(d, AllocationDesc{Size: 256, CPUVisible: i%2 == 0})
				if err != nil {
					t.Error(err)
					return
				}
				if err := w.k.DestroyAllocation(d, h); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 0; i < 20; i++ {
		ok(t, w.k.WaitForFence(c, must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))))
	}
	wg.Wait()
	ok(t, w.k.DestroyDevice(d))
	if dv, cx, al := w.k.Live(); dv+cx+al != 0 {
		t.Errorf("live %d %d %d", dv, cx, al)
	}
}

func TestSegmentFirstFit(t *testing.T) {
	var s segment
	s.reset("vram", 0x1000, 0x10000)
	a, _ := s.alloc(0x1000, 0x1000)
	b, _ := s.alloc(0x2000, 0x1000)
	c, _ := s.alloc(0x1000, 0x1000)
	if a != 0x1000 || b != 0x2000 || c != 0x4000 {
		t.Fatalf("addresses %#x %#x %#x", a, b, c)
	}
	s.release(b, 0x2000)
	if x, _ := s.alloc(0x1000, 0x1000); x != 0x2000 {
		t.Errorf("first fit gave %#x, want the hole at 0x2000", x)
	}
	if x, _ := s.alloc(0x3000, 0x1000); x != 0x5000 {
		t.Errorf("a block bigger than the hole at %#x", x)
	}
	s.release(a, 0x1000)
	s.release(0x2000, 0x1000)
	s.release(c, 0x1000)
	s.release(0x5000, 0x3000)
	if len(s.free) != 1 || s.free[0] != (span{0x1000, 0x10000}) || s.used != 0 {
		t.Errorf("not coalesced: %v used %d", s.free, s.used)
	}
	if _, ok := s.alloc(0x20000, 1); ok {
		t.Error("allocated more than the segment")
	}
}

func TestAllocationFence(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	a := w.alloc(t, d, 64, nil, "a")
	b := w.alloc(t, d, 64, nil, "b")
	must(w.k.Render(c, nil, []AllocationListEntry{{a, false}, {b, true}}))
	must(w.k.Render(c, nil, []AllocationListEntry{{a, true}}))
	if r, wr := w.k.AllocationFence(a); r != 1 || wr != 2 {
		t.Errorf("a: read %d write %d, want 1 2", r, wr)
	}
	if r, wr := w.k.AllocationFence(b); r != 0 || wr != 1 {
		t.Errorf("b: read %d write %d, want 0 1", r, wr)
	}
	if r, wr := w.k.AllocationFence(99); r != 0 || wr != 0 {
		t.Errorf("unknown: %d %d", r, wr)
	}
	ok(t, w.k.Idle())
	if w.k.CompletedFence(c) != 2 {
		t.Errorf("completed %d after Idle", w.k.CompletedFence(c))
	}
}
