package scenario

import (
	"slices"
	"testing"

	"d3dsim/core/trace"
)

// monitoredSrc signals a fence on one device, waits for it on the GPU of a
// second, and waits for it on the CPU: every fence path of tutorial 14.
const monitoredSrc = `dev1, imm1 = D3D11CreateDevice
dev2, imm2 = D3D11CreateDevice
t1 = dev1.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r1 = dev1.CreateRenderTargetView t1
t2 = dev2.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
r2 = dev2.CreateRenderTargetView t2
f = dev1.CreateFence
imm2.Wait f 1
imm2.ClearRenderTargetView r2 0 0 1 1
imm2.Flush
imm1.ClearRenderTargetView r1 1 0 0 1
imm1.Signal f 1
f.SetEventOnCompletion 1
f.GetCompletedValue
expect pixel t2 0 0 == #0000ffff
expect pixel t1 0 0 == #ff0000ff
expect violations == 0
`

// TestMonitoredFences: option wddm2.monitored-fences=true makes the fences
// WDDM 2.0 monitored fences ("Context Monitoring"): the runtime creates them
// with pfnCreateSynchronizationObject2Cb, the driver signals and waits with
// the FromGpu callbacks, the CPU waits with
// pfnWaitForSynchronizationObjectFromCpuCb and reads the value from the
// fence's CPU address; without it the WDDM 1.x callbacks, and the same
// pixels either way.
func TestMonitoredFences(t *testing.T) {
	wddm1 := []string{"pfnSignalSynchronizationObjectCb", "pfnWaitForSynchronizationObjectCb"}
	wddm2 := []string{"pfnCreateSynchronizationObject2Cb", "pfnSignalSynchronizationObjectFromGpuCb",
		"pfnWaitForSynchronizationObjectFromGpuCb", "pfnWaitForSynchronizationObjectFromCpuCb"}
	for _, tt := range []struct {
		desc, opt     string
		want, without []string
	}{
		{"WDDM 1.x", "", wddm1, wddm2},
		{"monitored", "option wddm2.monitored-fences=true\n", wddm2, wddm1},
	} {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, tt.opt+monitoredSrc)
			if f := r.Summary().Failures; len(f) > 0 {
				t.Fatal(f)
			}
			calls := map[string]int{}
			var monitored, cpuRead bool
			for _, e := range r.Events() {
				if e.Kind == trace.Call {
					calls[e.Name]++
				}
				if e.Kind == trace.Message && e.Name == "MonitoredFence" && e.Obj == "f" {
					monitored = true
				}
				if e.Kind == trace.Message && e.Name == "MonitoredFenceRead" && e.Obj == "f" && e.Fence == 1 {
					cpuRead = true
				}
			}
			for _, n := range tt.want {
				if calls[n] == 0 {
					t.Errorf("no %s", n)
				}
			}
			for _, n := range tt.without {
				if calls[n] != 0 {
					t.Errorf("%d %s", calls[n], n)
				}
			}
			if m := tt.opt != ""; monitored != m || cpuRead != m {
				t.Errorf("MonitoredFence message %v, GetCompletedValue read from the CPU address %v; want %v", monitored, cpuRead, m)
			}
		})
	}
}

// TestMonitoredFenceExpectCalls: the FromGpu callbacks are what expect
// calls sees for Signal and Wait, and an unknown value of the option stops
// the scenario at load.
func TestMonitoredFenceExpectCalls(t *testing.T) {
	src := "option wddm2.monitored-fences=true\n" + monitoredSrc +
		"imm1.ClearRenderTargetView r1 0 1 0 1\nimm1.Signal f 2\nexpect calls Signal pfnRenderCb pfnSignalSynchronizationObjectFromGpuCb\n" +
		"imm2.Wait f 2\nexpect calls Wait pfnWaitForSynchronizationObjectFromGpuCb GpuWaitQueued\n"
	r := runSource(t, src)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	if _, err := Load("t.d3ds", []byte("option wddm2.monitored-fences=yes\n")); err == nil {
		t.Error("wddm2.monitored-fences=yes loads")
	}
}

// TestFlipReadsBufferZero: after a flip-model Present the buffers'
// identities rotate (RotateResourceIdentitiesDXGI), and the runtime's own
// record of their allocations rotates with them, so buffer 0 read back is
// the buffer 0 of now: the one just cleared, not the one just shown.
func TestFlipReadsBufferZero(t *testing.T) {
	r := runSource(t, `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=8 Height=8 BufferCount=3 SwapEffect=FLIP_DISCARD
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
imm.ClearRenderTargetView rtv 1 0 0 1
sc.Present 1
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 1 0 1
expect pixel bb 0 0 == #00ff00ff
sc.Present 1
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 0 1 1
expect pixel bb 0 0 == #0000ffff
sc.Present 1
expect pixel bb 0 0 == #ff0000ff
`)
	if f := r.Summary().Failures; len(f) > 0 {
		t.Fatal(f)
	}
	if n := slices.IndexFunc(r.Events(), func(e trace.Event) bool { return e.Name == "RotateResourceIdentitiesDXGI" }); n < 0 {
		t.Error("no RotateResourceIdentitiesDXGI")
	}
}
