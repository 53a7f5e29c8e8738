package scenario

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// One thread per HCONTEXT ("Changes from Direct3D 10", rule FT-HCTX) and
// pfnSignalSynchronizationObjectCb.

const twoThreads = "testdata/threads/two-threads-one-context.d3ds"

// TestHContextOneThreadAtATime: two threads take turns on the immediate
// context; with preemption, one's Signal or Flush enters the driver while
// the other is descheduled inside pfnRenderCb. The driver's HCONTEXT lock
// makes it wait (an HContextLock wait naming the holder) until the holder
// has left its DDI, so no two threads are ever inside the context's
// callbacks at once: no violation, and every run meets its expectations.
func TestHContextOneThreadAtATime(t *testing.T) {
	src := scenarioSource(t, twoThreads)
	blocked := 0
	for seed := 1; seed <= 12; seed++ {
		r := runSource(t, withOptions(src, fmt.Sprintf("option seed=%d", seed)))
		if v := r.Violations(); len(v) != 0 {
			t.Errorf("seed %d: %v", seed, v)
		}
		if sum := r.Summary(); !sum.OK() {
			t.Errorf("seed %d: %q", seed, sum.Failures)
		}
		evs := r.Events()
		for i, e := range evs {
			if e.Name != "HContextLock" || e.Args.Has(trace.KeyDone) {
				continue
			}
			blocked++
			holder := e.Args.Str(trace.KeyWhy)
			// Between the wait and its end: the holder leaves the
			// context's callback it was descheduled in, the waiter
			// calls nothing.
			left := false
			end := -1
			for j := i + 1; j < len(evs); j++ {
				x := evs[j]
				if x.Thread == e.Thread && x.Name == "HContextLock" {
					end = j
					break
				}
				if x.Thread == holder && x.Kind == trace.Return && hctxCallbacks[x.Name] {
					left = true // the holder is out of the context's callbacks
				}
				if x.Thread == e.Thread && x.Kind == trace.Call {
					t.Errorf("seed %d: %s calls %s while it waits for the HCONTEXT", seed, e.Thread, x.Name)
				}
			}
			if end < 0 || !left {
				t.Errorf("seed %d: the wait of %s at #%d: ended %v, holder %s left its callback first: %v", seed, e.Thread, e.Seq, end >= 0, holder, left)
			}
			if end >= 0 && evs[end].T < evs[end-1].T && evs[end-1].Thread == holder {
				t.Errorf("seed %d: %s resumed at %d, before %s released the HCONTEXT at %d", seed, e.Thread, evs[end].T, holder, evs[end-1].T)
			}
		}
	}
	if blocked == 0 {
		t.Fatal("no thread ever waited for the HCONTEXT in 12 seeds: the threads never overlapped")
	}
}

// TestHContextPrimaryDestroy: destroying a primary that the unsubmitted
// buffer uses submits from inside the free-threaded DestroyResource; the
// driver holds its HCONTEXT lock there too, so another thread's Signal
// waits instead of overlapping the pfnRenderCb.
func TestHContextPrimaryDestroy(t *testing.T) {
	src := scenarioSource(t, "testdata/threads/primary-destroy.d3ds")
	waits := 0
	for seed := 1; seed <= 8; seed++ {
		r := runSource(t, withOptions(src, fmt.Sprintf("option seed=%d", seed)))
		if v := r.Violations(); len(v) != 0 {
			t.Errorf("seed %d: %v", seed, v)
		}
		if sum := r.Summary(); !sum.OK() {
			t.Errorf("seed %d: %q", seed, sum.Failures)
		}
		for _, e := range r.Events() {
			if e.Name == "HContextLock" {
				waits++
			}
		}
	}
	if waits == 0 {
		t.Fatal("the Signal never met the primary's submission in 8 seeds")
	}
}

// TestHContextBugSwitch: bug=FT-HCTX makes the driver skip its HCONTEXT
// lock; the verifier reports FT-HCTX and nothing else, naming both
// threads, both callbacks and the lines.
func TestHContextBugSwitch(t *testing.T) {
	src := scenarioSource(t, twoThreads)
	caught := 0
	for seed := 1; seed <= 6; seed++ {
		buggy := withOptions(src, "option bug=FT-HCTX", fmt.Sprintf("option seed=%d", seed))
		signalLine := 1 + strings.Count(buggy[:strings.Index(buggy, "imm.Signal f 1")], "\n")
		r := runSource(t, buggy)
		for _, v := range r.Violations() {
			if v.Rule != "FT-HCTX" {
				t.Errorf("seed %d: bug=FT-HCTX also broke %s: %s", seed, v.Rule, v)
				continue
			}
			caught++
			for _, want := range []string{"thread presenter", "thread main", "inside pfnRenderCb", fmt.Sprintf("(line %d)", v.Line)} {
				if !strings.Contains(v.Msg, want) {
					t.Errorf("seed %d: %q does not say %q", seed, v.Msg, want)
				}
			}
			if !strings.HasPrefix(v.Msg, "pfnSignalSynchronizationObjectCb") && !strings.HasPrefix(v.Msg, "pfnRenderCb") {
				t.Errorf("seed %d: %q does not start with the callback", seed, v.Msg)
			}
			if v.Line != signalLine { // the presenter's imm.Signal
				t.Errorf("seed %d: violation at line %d, want %d: %s", seed, v.Line, signalLine, v)
			}
		}
		if sum := r.Summary(); len(r.Violations()) > 0 && (sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), "FT-HCTX")) {
			t.Errorf("seed %d: summary failures %q do not name FT-HCTX", seed, sum.Failures)
		}
	}
	if caught == 0 {
		t.Fatal("bug=FT-HCTX: the verifier did not report FT-HCTX in 6 seeds")
	}
}

const fenceSetup = `dev, imm = D3D11CreateDevice
tex = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView tex
f = dev.CreateFence InitialValue=5
`

// TestSignalFollowsSubmittedWork: Signal submits what the immediate context
// recorded, then pfnSignalSynchronizationObjectCb queues the signal behind
// it: the fence keeps its old value until the DPC has seen that DMA
// buffer's fence, then takes the new one (SyncObjectSignaled after
// FenceSignaled). With nothing outstanding the signal is immediate.
func TestSignalFollowsSubmittedWork(t *testing.T) {
	r := runSource(t, fenceSetup+`imm.ClearRenderTargetView rtv 1 0 0 1
imm.Signal f 6
expect calls Signal pfnRenderCb pfnSignalSynchronizationObjectCb
f.GetCompletedValue
f.SetEventOnCompletion 6
f.GetCompletedValue
imm.Signal f 7
f.GetCompletedValue
expect pixel tex 0 0 == #ff0000ff
expect violations == 0
`)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("%q", sum.Failures)
	}
	var values []uint64
	var renderFence uint64
	fenceAt, signalAt := -1, -1
	var signalled []uint64
	evs := r.Events()
	for i, e := range evs {
		switch {
		case e.Name == "GetCompletedValue" && e.Kind == trace.Return:
			values = append(values, e.Fence)
		case e.Name == "DxgkDdiRender" && e.Kind == trace.Return && renderFence == 0:
			renderFence = e.Fence
		case e.Name == "FenceSignaled" && e.Handle == "kc1" && e.Fence == renderFence && renderFence != 0 && fenceAt < 0:
			fenceAt = i
		case e.Name == "SyncObjectSignaled":
			if signalAt < 0 {
				signalAt = i
			}
			signalled = append(signalled, e.Fence)
		}
	}
	if want := []uint64{5, 6, 7}; fmt.Sprint(values) != fmt.Sprint(want) {
		t.Errorf("GetCompletedValue read %v, want %v (the old value until the GPU is done, then each signal's)", values, want)
	}
	if fenceAt < 0 || signalAt < fenceAt {
		t.Errorf("the fence was signalled at #%d, the DMA buffer before it completed at #%d", signalAt, fenceAt)
	}
	if fmt.Sprint(signalled) != "[6 7]" {
		t.Errorf("SyncObjectSignaled values %v, want [6 7]", signalled)
	}
}

// TestSignalErrors: what Signal and the fence refuse, each with an
// HRESULT the scenario can expect, never a hang or a panic.
func TestSignalErrors(t *testing.T) {
	tests := []struct {
		desc, body string
	}{
		{"on a deferred context", "dc = dev.CreateDeferredContext\ndc.Signal f 1\nexpect hr == E_INVALIDARG\n"},
		{"after the fence's final Release", "f.Release\nimm.Signal f 1\nexpect hr == E_INVALIDARG\n"},
		{"another device's fence", "dev2, imm2 = D3D11CreateDevice\nimm2.Signal f 1\nexpect hr == E_INVALIDARG\n"},
		{"a wait nothing will end", "f.SetEventOnCompletion 9\nexpect hr == E_INVALIDARG\n"},
		{"a wait already met", "f.SetEventOnCompletion 5\nexpect hr == S_OK\n"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, fenceSetup+tt.body)
			if sum := r.Summary(); !sum.OK() {
				t.Fatalf("%q", sum.Failures)
			}
		})
	}
	if _, err := Load("t.d3ds", []byte(fenceSetup+"imm.Signal rtv 1\n")); err == nil || !strings.Contains(err.Error(), "5:") {
		t.Errorf("Signal of a view: %v, want a load error at line 5", err)
	}
}
