package scenario

import (
	"slices"
	"strings"
	"testing"

	"d3dsim/core/trace"
)

// Who waits, CPU or GPU. A Map that must wait blocks inside pfnLockCb (the
// video memory manager synchronises the lock, "PFND3DDDI_LOCKCB callback
// function (d3dumddi.h)"); DO_NOT_WAIT makes the lock fail at once
// (DonotWait, "D3DDDICB_LOCKFLAGS structure (d3dukmdt.h)") and Map return
// DXGI_ERROR_WAS_STILL_DRAWING ("D3D11_MAP_FLAG enumeration (d3d11.h)");
// WRITE_DISCARD renames through the lock's Discard flag ("Requesting to
// rename an allocation"); pfnWaitForSynchronizationObjectCb is a GPU-side
// wait ("PFND3DDDI_WAITFORSYNCHRONIZATIONOBJECTCB callback function
// (d3dumddi.h)").

const lockHead = `dev, imm = D3D11CreateDevice
gpu = dev.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
stage = dev.CreateBuffer ByteWidth=16 Usage=STAGING CPUAccessFlags=READ|WRITE Data=u32[1 2 3 4]
imm.CopyResource stage gpu
`

// span is the events from the Call of the first event named name to its
// Return.
func span(t *testing.T, evs []trace.Event, name string) []trace.Event {
	t.Helper()
	i := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == name && e.Kind == trace.Call })
	if i < 0 {
		t.Fatalf("no %s", name)
	}
	j := slices.IndexFunc(evs[i:], func(e trace.Event) bool { return e.Name == name && e.Kind == trace.Return })
	if j < 0 {
		t.Fatalf("%s never returns", name)
	}
	return evs[i : i+j+1]
}

func TestMapBlocksInPfnLockCb(t *testing.T) {
	for _, tc := range []struct {
		desc, body string
		wait       bool   // a WaitForFence pair inside pfnLockCb
		lockHR     string // pfnLockCb's return
		flags      string
	}{
		{"READ waits for the copy inside the lock",
			"imm.Map stage READ\nexpect calls Map StagingResourceMap pfnLockCb WaitForFence\nimm.Unmap stage\n", true, "S_OK", "ReadOnly"},
		{"DO_NOT_WAIT fails the lock at once",
			"imm.Map stage READ Flags=DO_NOT_WAIT\nexpect hr == DXGI_ERROR_WAS_STILL_DRAWING\nexpect calls Map StagingResourceMap pfnLockCb\n", false, "D3DDDIERR_WASSTILLDRAWING", "ReadOnly|DonotWait"},
		{"WRITE_NO_OVERWRITE never waits",
			"dyn = dev.CreateBuffer ByteWidth=16 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE\nimm.CopyResource gpu dyn\nimm.Flush\nimm.Map dyn WRITE_NO_OVERWRITE\nimm.Unmap dyn\n", false, "S_OK", "WriteOnly|IgnoreSync"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			r := runText(t, lockHead+tc.body+"expect violations == 0\n", Overrides{})
			if sum := r.Summary(); !sum.OK() {
				t.Fatalf("%v", sum.Failures)
			}
			evs := r.Events()
			if slices.ContainsFunc(evs, func(e trace.Event) bool { return e.Name == "pfnWaitForSynchronizationObjectCb" }) {
				t.Error("a Map called pfnWaitForSynchronizationObjectCb: that callback queues a GPU-side wait")
			}
			lk := span(t, evs, "pfnLockCb")
			if got := lk[0].Args.Str(trace.KeyFlags); got != tc.flags {
				t.Errorf("pfnLockCb flags=%q, want %q", got, tc.flags)
			}
			if hr := lk[len(lk)-1].HR; hr != tc.lockHR {
				t.Errorf("pfnLockCb returned %s, want %s", hr, tc.lockHR)
			}
			waits := 0
			for _, e := range evs {
				if e.Kind == trace.Wait && e.Name == "WaitForFence" {
					waits++
					if !slices.ContainsFunc(lk, func(x trace.Event) bool { return x.Seq == e.Seq }) {
						t.Errorf("WaitForFence at #%d outside pfnLockCb (#%d..#%d)", e.Seq, lk[0].Seq, lk[len(lk)-1].Seq)
					}
				}
			}
			if (waits == 2) != tc.wait || waits%2 != 0 {
				t.Errorf("%d WaitForFence events, want a pair: %v", waits, tc.wait)
			}
		})
	}
}

// Ten WRITE_DISCARD maps of a buffer the GPU still reads, in one frame:
// the video memory manager renames; nothing calls pfnAllocateCb or
// DxgkDdiCreateAllocation after the buffer's creation, and once the GPU is
// done, the renaming list hands its instances out again.
func TestDiscardRenamesThroughTheLock(t *testing.T) {
	const src = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=32 Height=32
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
vb = dev.CreateBuffer ByteWidth=108 Usage=DYNAMIC BindFlags=VERTEX_BUFFER CPUAccessFlags=WRITE
f = dev.CreateFence
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 32 32
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb
imm.VSSetShader vs
imm.PSSetShader ps
repeat 10 {
  imm.Map vb WRITE_DISCARD
  vb.Write f32[-1 1 0.5 0 1 0 1 0 0   1 1 0.5 0 1 0 1 0 0   -1 -1 0.5 0 1 0 1 0 0]
  imm.Unmap vb
  imm.Draw 3 0
}
sc.Present
imm.Signal f 1
f.SetEventOnCompletion 1
imm.Map vb WRITE_DISCARD
imm.Unmap vb
imm.Draw 3 0
imm.Map vb WRITE_DISCARD
expect calls DynamicIABufferMapDiscard pfnLockCb VidMmRename
vb.Write f32[-1 1 0.5 0 0 1 1 0 0   1 1 0.5 0 0 1 1 0 0   -1 -1 0.5 0 0 1 1 0 0]
imm.Unmap vb
imm.Draw 3 0
sc.Present
expect pixel bb 4 4 == #0000ffff
expect violations == 0
`
	r := runText(t, src, Overrides{})
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("%v", sum.Failures)
	}
	evs := r.Events()
	created := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "CreateBuffer" && e.Obj == "vb" && e.Kind == trace.Return })
	var renames []trace.Event
	for _, e := range evs[created:] {
		switch {
		case e.Name == "DxgkDdiCreateAllocation" && strings.HasPrefix(e.Obj, "redirection surface"):
			// the window's redirection surface, made at the first Present
		case e.Name == "pfnAllocateCb" || e.Name == "DxgkDdiCreateAllocation":
			t.Errorf("%s at #%d after vb's creation: a discard must not allocate (%s)", e.Name, e.Seq, e.Obj)
		case e.Name == "VidMmRename":
			renames = append(renames, e)
		case e.Kind == trace.Wait && e.Name == "WaitForFence":
			t.Errorf("a wait at #%d: WRITE_DISCARD never waits", e.Seq)
		}
	}
	// The first map finds the buffer idle; the other nine find it busy
	// with the draw submitted before them; after the wait, the first map
	// finds it idle again and the last one reuses an idle instance.
	if len(renames) != 10 {
		t.Fatalf("%d VidMmRename events, want 10", len(renames))
	}
	var froms []uint64
	for _, e := range renames[:9] {
		f, _ := e.Args.Uint(trace.KeyFrom)
		froms = append(froms, f)
	}
	last := renames[9]
	to, _ := last.Args.Uint(trace.KeyTo)
	if !slices.Contains(froms, to) || !strings.Contains(last.Msg, "idle instance") {
		t.Errorf("the rename after the GPU went idle got %#x (%s), want an instance from the renaming list %#x", to, last.Msg, froms)
	}
}

// A GPU-side wait orders two devices' contexts: dev2's work queued after
// imm2.Wait does not reach the GPU (no DxgkDdiSubmitCommand) before dev1's
// signal, and the thread that called Wait never blocks. Without the Wait,
// dev2's buffer, submitted first, goes first.
func TestGpuWaitOrdersContexts(t *testing.T) {
	const src = `dev1, imm1 = D3D11CreateDevice
dev2, imm2 = D3D11CreateDevice
t1 = dev1.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r1 = dev1.CreateRenderTargetView t1
t2 = dev2.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r2 = dev2.CreateRenderTargetView t2
f = dev1.CreateFence
WAIT
imm2.ClearRenderTargetView r2 0 0 1 1
imm2.Flush
imm1.ClearRenderTargetView r1 1 0 0 1
imm1.Signal f 1
expect pixel t2 0 0 == #0000ffff
expect violations == 0
`
	for _, tc := range []struct {
		desc   string
		wait   string
		before bool // dev2's buffer reaches the GPU before the signal
	}{
		{"with imm2.Wait", "imm2.Wait f 1\nexpect calls Wait pfnWaitForSynchronizationObjectCb GpuWaitQueued", false},
		{"without", "", true},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			for _, ooo := range []bool{false, true} {
				r := runText(t, strings.Replace(src, "WAIT", tc.wait, 1), Overrides{OOO: &ooo})
				if sum := r.Summary(); !sum.OK() {
					t.Fatalf("ooo=%v: %v", ooo, sum.Failures)
				}
				evs := r.Events()
				render := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "DxgkDdiRender" && e.Kind == trace.Call })
				dma2 := evs[render].DMA // imm2.Flush's buffer: the first submitted
				submit := slices.IndexFunc(evs, func(e trace.Event) bool {
					return e.Name == "DxgkDdiSubmitCommand" && e.Kind == trace.Call && e.DMA == dma2
				})
				signal := slices.IndexFunc(evs, func(e trace.Event) bool { return e.Name == "SyncObjectSignaled" })
				if submit < 0 || signal < 0 {
					t.Fatalf("ooo=%v: submit of DMA %d at %d, SyncObjectSignaled at %d", ooo, dma2, submit, signal)
				}
				if (submit < signal) != tc.before {
					t.Errorf("ooo=%v: DMA %d submitted at #%d, the fence signalled at #%d; want before=%v", ooo, dma2, evs[submit].Seq, evs[signal].Seq, tc.before)
				}
				for _, e := range evs {
					if e.Kind == trace.Wait && e.Thread == "main" && e.Name != "WaitForIdle" {
						t.Errorf("ooo=%v: the app thread waited: %s %s", ooo, e.Name, e.Msg)
					}
				}
			}
		})
	}
}

// A GPU-side wait nothing signals holds the context's work for good: a
// readback says so instead of reading what the GPU never wrote.
func TestGpuWaitNeverSignalled(t *testing.T) {
	const src = `dev1, imm1 = D3D11CreateDevice
dev2, imm2 = D3D11CreateDevice
t2 = dev2.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r2 = dev2.CreateRenderTargetView t2
f = dev1.CreateFence
imm2.Wait f 1
imm2.ClearRenderTargetView r2 0 0 1 1
expect pixel t2 0 0 == #0000ffff
`
	r := runText(t, src, Overrides{})
	f := r.Summary().Failures
	if len(f) != 1 || !strings.Contains(f[0], "8:1:") || !strings.Contains(f[0], "waits on the GPU until f (s1) reaches 1") {
		t.Fatalf("failures %q, want line 8 naming the wait", f)
	}
}
