package dxgk

import (
	"errors"
	"slices"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/trace"
)

// A GPU-side wait ("PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB callback
// function (d3dumddi.h)": a wait inserted in the context's DMA stream)
// holds the context's later DMA buffers until the object reaches the
// value, without blocking the caller; other contexts go on.
func TestGpuWaitHoldsLaterBuffers(t *testing.T) {
	for _, tc := range []struct {
		desc   string
		end    string // how the wait ends: "signal" or "destroy"
		noWait bool   // no wait queued: the held buffer goes first
	}{
		{"ended by a signal", "signal", false},
		{"ended by destroying the object", "destroy", false},
		{"no wait", "signal", true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, ooo := range []bool{false, true} {
				w := newWorld(1<<20, Config{OutOfOrder: ooo})
				d1, c1 := w.device(t, "dev1")
				d2, c2 := w.device(t, "dev2")
				a1 := w.alloc(t, d1, 64, nil, "a1")
				a2 := w.alloc(t, d2, 64, nil, "a2")
				o := must(w.k.CreateSynchronizationObject(d1, 0, "f"))
				early := must(w.k.Render(c2, nil, []AllocationListEntry{{a2, true}})) // before the wait: not held
				if !tc.noWait {
					t0 := w.s.Now()
					ok(t, w.k.WaitForSynchronizationObject(c2, []HSyncObject{o}, 1))
					if n := count(w.rec.Events(), "WaitForFence", trace.Wait); n != 0 || w.s.Now()-t0 > w.k.cfg.Costs.Transition {
						t.Fatalf("the caller waited")
					}
				}
				held := must(w.k.Render(c2, nil, []AllocationListEntry{{a2, true}}))
				must(w.k.Render(c1, nil, []AllocationListEntry{{a1, true}}))
				ok(t, w.k.WaitForFence(c2, early))
				switch tc.end {
				case "signal":
					must(w.k.SignalSynchronizationObject(c1, []HSyncObject{o}, 1))
				case "destroy":
					ok(t, w.k.DestroySynchronizationObject(o))
				}
				ok(t, w.k.Idle())
				evs := w.rec.Events()
				submitted := func(ctx HContext, fence uint64) int {
					return slices.IndexFunc(evs, func(e trace.Event) bool {
						return e.Name == "DxgkDdiSubmitCommand" && e.Kind == trace.Call && e.Handle == ctx.String() && e.Fence == fence
					})
				}
				end := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "GpuWaitDone" })
				c1done := slices.IndexFunc(evs, func(e trace.Event) bool {
					return e.Name == "FenceSignaled" && e.Handle == c1.String()
				})
				h := submitted(c2, held)
				switch {
				case h < 0:
					t.Fatalf("ooo=%v: the held buffer never ran", ooo)
				case tc.noWait && end >= 0:
					t.Errorf("ooo=%v: GpuWaitDone without a wait", ooo)
				case !tc.noWait && (end < 0 || h < end):
					t.Errorf("ooo=%v: the held buffer was submitted at #%d, the wait ended at #%d", ooo, h, end)
				case tc.noWait && h > c1done:
					t.Errorf("ooo=%v: without a wait, dev2's buffer should not wait for dev1's (#%d, #%d)", ooo, h, c1done)
				}
				if e := submitted(c2, early); e < 0 || (!tc.noWait && e > end) {
					t.Errorf("ooo=%v: the buffer submitted before the wait was held too", ooo)
				}
			}
		})
	}
}

func TestGpuWaitErrors(t *testing.T) {
	w := newWorld(1<<20, Config{})
	d, c := w.device(t, "dev")
	o := must(w.k.CreateSynchronizationObject(d, 5, "f"))
	for _, tc := range []struct {
		desc string
		ctx  HContext
		objs []HSyncObject
		want error
	}{
		{"unknown context", 99, []HSyncObject{o}, dxgkddi.STATUS_INVALID_HANDLE},
		{"no object", c, nil, dxgkddi.STATUS_INVALID_PARAMETER},
		{"unknown object", c, []HSyncObject{42}, dxgkddi.STATUS_INVALID_PARAMETER},
		{"reached already", c, []HSyncObject{o}, nil},
	} {
		if err := w.k.WaitForSynchronizationObject(tc.ctx, tc.objs, 3); !errors.Is(err, tc.want) && (err != nil || tc.want != nil) {
			t.Errorf("%s: %v, want %v", tc.desc, err, tc.want)
		}
	}
	if len(w.k.contexts[c].gpuWaits) != 0 {
		t.Error("a wait for a value reached already was queued")
	}
}
