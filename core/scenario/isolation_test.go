package scenario

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/trace"
)

// isolationSrc: device a (the victim) draws; device b turns rogue (inject
// umd.foreign: its UMD's next command buffer writes 0xdeadbeef at offset 0
// of a's allocation) and submits through %[1]s. Then a keeps working and b is
// asked for something that returns an HRESULT.
const isolationSrc = `%[3]s
a, aimm = D3D11CreateDevice
asc = a.CreateSwapChain Width=32 Height=32
abb = asc.GetBuffer 0
artv = a.CreateRenderTargetView abb
atex = a.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM Usage=DEFAULT BindFlags=RENDER_TARGET
atrtv = a.CreateRenderTargetView atex
aimm.ClearRenderTargetView atrtv 0 0 1 1
aimm.ClearRenderTargetView artv 0 1 0 1
asc.Present
b, bimm = D3D11CreateDevice
bsc = b.CreateSwapChain Width=32 Height=32
bbb = bsc.GetBuffer 0
brtv = b.CreateRenderTargetView bbb
bimm.ClearRenderTargetView brtv 1 0 0 1
inject umd.foreign target=%[2]s on=b
%[1]s
expect pixel abb 0 0 == #00ff00ff
expect pixel atex 0 0 == #0000ffff
x = b.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
expect hr == DXGI_ERROR_DEVICE_REMOVED
aimm.ClearRenderTargetView artv 1 1 1 1
asc.Present
expect pixel abb 5 5 == #ffffffff
`

// TestIsolation (the WDDM operation flow, rule WDDM-ISOLATE): a command buffer naming
// another device's allocation is rejected by the KMD's validation in
// DxgkDdiRender (a Present submits the command buffer with pfnRenderCb
// too: its own commands are the KMD's, TestPresentWritesTheCopy), the rogue device is removed, the victim's
// memory and pixels are untouched and the victim keeps running. With the
// validation switched off (option bug=WDDM-ISOLATE) the write lands and the
// verifier reports WDDM-ISOLATE: the same checks see the breach.
func TestIsolation(t *testing.T) {
	const flush = "bimm.Flush\n# a void call: b's removal shows at its next call"
	tests := []struct {
		desc, submit, target, ddi, pixelLine string
	}{
		{"render target through DxgkDdiRender", flush, "abb", "DxgkDdiRender", "19:1: pixel (0, 0) of abb is #efbeadde"},
		{"back buffer through a Present's DxgkDdiRender", "bsc.Present\nexpect hr == DXGI_ERROR_DEVICE_REMOVED", "abb", "DxgkDdiRender", "19:1: pixel (0, 0) of abb is #efbeadde"},
		{"texture through DxgkDdiRender", flush, "atex", "DxgkDdiRender", "20:1: pixel (0, 0) of atex is #efbeadde"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := runSource(t, fmt.Sprintf(isolationSrc, tt.submit, tt.target, ""))
			sum := r.Summary()
			if !sum.OK() || sum.Violations != 0 {
				t.Fatalf("failures %q, %d violations", sum.Failures, sum.Violations)
			}
			rejected := false
			for _, e := range r.Events() {
				if e.Kind == trace.Return && e.Name == tt.ddi && e.HR == "STATUS_INVALID_PARAMETER" && strings.Contains(e.Msg, "belongs to kd1, not to the submitting device kd2") {
					rejected = true
				}
			}
			if !rejected {
				t.Errorf("no %s return with STATUS_INVALID_PARAMETER naming the foreign allocation", tt.ddi)
			}
			if r.vars["b"].(*d3d11.Device).Removed() == nil || r.vars["a"].(*d3d11.Device).Removed() != nil {
				t.Errorf("removed: a %v, b %v; want only b", r.vars["a"].(*d3d11.Device).Removed(), r.vars["b"].(*d3d11.Device).Removed())
			}

			r = runSource(t, fmt.Sprintf(isolationSrc, tt.submit, tt.target, "option bug=WDDM-ISOLATE"))
			sum = r.Summary()
			found := false
			for _, v := range r.Violations() {
				found = found || v.Rule == "WDDM-ISOLATE" && strings.Contains(v.Msg, tt.ddi+" accepted a command buffer naming allocation")
			}
			if !found || !strings.Contains(strings.Join(sum.Failures, "\n"), tt.pixelLine) {
				t.Fatalf("with the validation off: violations %v, failures %q", r.Violations(), sum.Failures)
			}
		})
	}
}

// outOfRangeSrc: the device's UMD turns rogue (inject umd.overrun: its next
// command buffer fills 1 MiB from the last four bytes of the 108-byte vertex
// buffer's allocation, the device's own, and writes four bytes just past its
// end). A draw past the end of a buffer is
// no such thing: the GPU bounds its fetches (TestDrawPastTheBuffers).
const outOfRangeSrc = `%s
dev, imm = D3D11CreateDevice
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
inject umd.overrun target=vb
imm.Flush
%s
`

// TestIsolationOutOfRange: the KMD rejects a command buffer that reaches
// outside an allocation (the device is removed, the message names the
// packet and the allocation); with its validation off (bug=WDDM-ISOLATE) the
// buffer runs, the GPU page-faults, and the verifier names the accepted
// out-of-range reference.
func TestIsolationOutOfRange(t *testing.T) {
	s, err := Load("oor", []byte(fmt.Sprintf(outOfRangeSrc, "", "x = dev.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER\nexpect hr == DXGI_ERROR_DEVICE_REMOVED\nexpect violations == 0")))
	if err != nil {
		t.Fatal(err)
	}
	r := NewRun(s, Overrides{})
	if sum := r.Finish(); !sum.OK() {
		t.Fatalf("validating KMD: %v", sum.Failures)
	}
	rejected := false
	for _, e := range r.Events() {
		if e.Name == "DxgkDdiRender" && e.Kind == trace.Return && strings.Contains(e.Msg, "fill destination [104, +1048576) runs past the end of the 108-byte allocation") {
			rejected = true
		}
	}
	if !rejected {
		t.Error("DxgkDdiRender did not reject the write across the end of the vertex buffer")
	}

	// (The fault comes when the GPU runs the buffer, after the scenario's
	// last line: the violation, unexpected, fails the run.)
	s, err = Load("oor-bug", []byte(fmt.Sprintf(outOfRangeSrc, "option bug=WDDM-ISOLATE", "")))
	if err != nil {
		t.Fatal(err)
	}
	r = NewRun(s, Overrides{})
	if sum := r.Finish(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), "violation of WDDM-ISOLATE") {
		t.Fatalf("bug=WDDM-ISOLATE: the run should fail on the violation: %v", sum.Failures)
	}
	// Both references: the FILL that runs past the end (the GPU's page
	// fault) and the WRITE that starts at the end (Dxgkrnl's patch trace).
	fill, write := false, false
	for _, v := range r.Violations() {
		if v.Rule != "WDDM-ISOLATE" || !strings.Contains(v.Msg, "accepted DMA buffer") {
			continue
		}
		fill = fill || strings.Contains(v.Msg, "packet 0") && strings.Contains(v.Msg, "FILL: page fault")
		write = write || strings.Contains(v.Msg, "offset 108 of allocation a1, a 108-byte allocation of kd1")
	}
	if !fill || !write {
		t.Errorf("the verifier did not name both accepted out-of-range references (fill %v, write %v): %v", fill, write, r.Violations())
	}
}

// pageFaultSrc: with the KMD's validation off (bug=WDDM-ISOLATE) a rogue
// UMD's FILL runs past its own allocation and the GPU page-faults; with
// sync=true the Flush waits for the GPU, so the fault and what follows it
// belong to the Flush.
const pageFaultSrc = `option bug=WDDM-ISOLATE
option sync=true
%s
dev, imm = D3D11CreateDevice
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
inject umd.overrun target=vb
imm.Flush
%s
expect violation WDDM-ISOLATE
`

// TestPageFaultReported: by default, as on Windows, a GPU page fault stops
// the engine, the ISR reports DXGK_INTERRUPT_DMA_PAGE_FAULTED
// (DxgkCbNotifyInterrupt), Dxgkrnl resets the engine and removes the device,
// and GetDeviceRemovedReason says DXGI_ERROR_DEVICE_HUNG ("DXGK_INTERRUPT_TYPE",
// "DXGK_PAGE_FAULT_FLAGS"). With gpu.pagefault=warning-colour (the
// SamBookshelf article's illustration) the fault is only recorded and the
// device goes on.
func TestPageFaultReported(t *testing.T) {
	tests := []struct {
		desc, option, after string
		notified            int
	}{
		{"reported", "", `expect calls Flush GpuFault Interrupt DxgkDdiInterruptRoutine DxgkCbNotifyInterrupt DxgkDdiDpcRoutine TDR DxgkDdiResetEngine DeviceRemoved
dev.GetDeviceRemovedReason
expect hr == DXGI_ERROR_DEVICE_HUNG
x = dev.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
expect hr == DXGI_ERROR_DEVICE_REMOVED`, 1},
		{"warning colour", "option gpu.pagefault=warning-colour", `dev.GetDeviceRemovedReason
expect hr == S_OK
x = dev.CreateBuffer ByteWidth=16 Usage=DEFAULT BindFlags=VERTEX_BUFFER
expect hr == S_OK`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("pf", []byte(fmt.Sprintf(pageFaultSrc, tt.option, tt.after)))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Fatalf("failures %q", sum.Failures)
			}
			pf := 0
			for _, e := range r.Events() {
				if e.Name == "DxgkCbNotifyInterrupt" && e.Kind == trace.Call && strings.Contains(e.Args.String(), "DXGK_INTERRUPT_DMA_PAGE_FAULTED") {
					pf++
				}
			}
			if pf != tt.notified {
				t.Errorf("%d DXGK_INTERRUPT_DMA_PAGE_FAULTED notifications, want %d", pf, tt.notified)
			}
		})
	}
}
