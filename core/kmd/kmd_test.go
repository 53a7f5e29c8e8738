package kmd

import (
	"d3dsim/core/rules"
	"errors"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxgkddi"
	"d3dsim/gpu"
	"d3dsim/gpu/isa"
)

// fakeHW records what the driver does to the hardware.
type fakeHW struct {
	submits []submit
	fence   uint64
	resets  []int
	pf      uint64 // the fault register: the fence of the buffer a page fault stopped (0: none)
	scans   []string
	vsync   []bool // EnableVSync calls
	vblank  int64  // the blank TakeVSync reports (0: none)
	// preempts are the Preempt calls' fences; preemptAnswer the fence
	// Preempted reports once (0: none).
	preempts      []uint64
	preemptAnswer uint64
}

type submit struct {
	engine int
	id     uint64
	dma    []uint32
}

func (h *fakeHW) Submit(engine int, id uint64, dma []uint32) {
	h.submits = append(h.submits, submit{engine, id, append([]uint32(nil), dma...)})
}
func (h *fakeHW) CompletedFence(int) uint64    { return h.fence }
func (h *fakeHW) PageFault(int) (uint64, bool) { return h.pf, h.pf != 0 }
func (h *fakeHW) Preempt(engine int, fence uint64) {
	h.preempts = append(h.preempts, fence)
}
func (h *fakeHW) Preempted(int) (uint64, uint64, bool) {
	if h.preemptAnswer == 0 {
		return 0, 0, false
	}
	f := h.preemptAnswer
	h.preemptAnswer = 0
	return f, h.fence, true
}
func (h *fakeHW) Reset(engine int) { h.resets, h.pf = append(h.resets, engine), 0 }
func (h *fakeHW) ScanOut(addr uint64, w, ht, pitch, format uint32) {
	h.scans = append(h.scans, fmt.Sprintf("%#x %dx%d pitch=%d fmt=%d", addr, w, ht, pitch, format))
}

func (h *fakeHW) FlipOnVSync(addr uint64, w, ht, pitch, format uint32) {
	h.scans = append(h.scans, fmt.Sprintf("on vsync %#x %dx%d pitch=%d fmt=%d", addr, w, ht, pitch, format))
}
func (h *fakeHW) EnableVSync(on bool) { h.vsync = append(h.vsync, on) }
func (h *fakeHW) TakeVSync() (int64, uint64, bool) {
	n := h.vblank
	h.vblank = 0
	return n, 0x1000, n != 0
}

// fakeKernel is Dxgkrnl's callback table, recording the calls.
type fakeKernel struct{ calls []string }

func (k *fakeKernel) DxgkCbNotifyInterrupt(engine int, fence uint64) {
	k.calls = append(k.calls, "DxgkCbNotifyInterrupt")
}
func (k *fakeKernel) DxgkCbNotifyDmaPageFaulted(engine int, fence uint64) {
	k.calls = append(k.calls, fmt.Sprintf("DxgkCbNotifyInterrupt(DXGK_INTERRUPT_DMA_PAGE_FAULTED, %d)", fence))
}
func (k *fakeKernel) DxgkCbNotifyCrtcVsync(target int, vblank int64, addr uint64) {
	k.calls = append(k.calls, fmt.Sprintf("DxgkCbNotifyInterrupt(DXGK_INTERRUPT_CRTC_VSYNC, %d, %#x)", vblank, addr))
}
func (k *fakeKernel) DxgkCbNotifyDmaPreempted(engine int, pf, last uint64) {
	k.calls = append(k.calls, fmt.Sprintf("DxgkCbNotifyInterrupt(DXGK_INTERRUPT_DMA_PREEMPTED, %d, %d)", pf, last))
}
func (k *fakeKernel) DxgkCbNotifyDpc() { k.calls = append(k.calls, "DxgkCbNotifyDpc") }
func (k *fakeKernel) DxgkCbQueueDpc() bool {
	k.calls = append(k.calls, "DxgkCbQueueDpc")
	return true
}

// rig is a driver with two devices: kd1 owns a1 (a 64x64 RGBA8 render
// target, 16 KiB, a primary), a2 (a 4 KiB vertex buffer), a4 (a 16-byte
// query buffer) and a5 (a 64x64 RGBA8 surface that is not a primary, as a
// redirection surface is); kd2 owns a3 (4 KiB).
type rig struct {
	d  *KMD
	hw *fakeHW
	k  *fakeKernel
}

func newRig(t testing.TB, bugs ...rules.ID) *rig {
	t.Helper()
	hw := &fakeHW{}
	cfg := Config{Bugs: rules.Set{}}
	for _, b := range bugs {
		cfg.Bugs[b] = true
	}
	r := &rig{d: New(hw, nil, cfg), hw: hw, k: &fakeKernel{}}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(r.d.DxgkDdiStartDevice(&dxgkddi.StartDeviceArgs{DxgkInterface: r.k}))
	must(r.d.DxgkDdiCreateDevice(&dxgkddi.CreateDeviceArgs{Device: 1, Name: "dev"}))
	must(r.d.DxgkDdiCreateDevice(&dxgkddi.CreateDeviceArgs{Device: 2, Name: "other"}))
	must(r.d.DxgkDdiCreateContext(&dxgkddi.CreateContextArgs{Device: 1, Context: 1}))
	must(r.d.DxgkDdiCreateContext(&dxgkddi.CreateContextArgs{Device: 2, Context: 2}))
	must(r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: 1, Size: 64 * 64 * 4,
		Flags: dxgkddi.AllocationFlags{Primary: true}, PrivateDriverData: dxgkddi.SurfaceDesc{Width: 64, Height: 64, Pitch: 256, Format: uint32(isa.FmtRGBA8)}}))
	must(r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: 2, Size: 4096,
		PrivateDriverData: dxgkddi.SurfaceDesc{Width: 4096, Height: 1, Pitch: 4096}}))
	must(r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 2, Allocation: 3, Size: 4096}))
	must(r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: 4, Size: 16, Flags: dxgkddi.AllocationFlags{CPUVisible: true}}))
	must(r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: 5, Size: 64 * 64 * 4,
		PrivateDriverData: dxgkddi.SurfaceDesc{Width: 64, Height: 64, Pitch: 256, Format: uint32(isa.FmtRGBA8)}}))
	return r
}

func la(index, offset uint32) uint64 { return dxgkddi.ListAddress(index, offset) }

func list(hs ...dxgkddi.HAllocation) []dxgkddi.AllocationListEntry {
	out := make([]dxgkddi.AllocationListEntry, len(hs))
	for i, h := range hs {
		out[i] = dxgkddi.AllocationListEntry{Allocation: h}
	}
	return out
}

// drawBuffer is a typical command buffer: clear and bind a1, draw 3
// vertices from a2.
func drawBuffer() []uint32 {
	var b isa.Builder
	b.ClearRT(la(0, 0), 64, 64, 256, isa.FmtRGBA8, [4]float32{0, 0, 1, 1})
	b.SetRT(la(0, 0), 64, 64, 256, isa.FmtRGBA8)
	b.SetVB(0, la(1, 0), 4096, 36, 0)
	b.SetTopology(isa.TopoTriangleList)
	b.Draw(3, 0)
	return b.Words
}

func TestRenderTranslates(t *testing.T) {
	r := newRig(t)
	cmd := drawBuffer()
	a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: cmd, AllocationList: list(1, 2)}
	if err := r.d.DxgkDdiRender(&a); err != nil {
		t.Fatal(err)
	}
	if len(a.DmaBuffer) != len(cmd) {
		t.Fatalf("DMA buffer has %d words, want %d", len(a.DmaBuffer), len(cmd))
	}
	want := []dxgkddi.PatchLocation{{AllocationIndex: 0, PatchOffset: 1}, {AllocationIndex: 0, PatchOffset: 12}, {AllocationIndex: 1, PatchOffset: 20}}
	if len(a.PatchLocationList) != len(want) {
		t.Fatalf("patches %v, want %v", a.PatchLocationList, want)
	}
	for i, p := range want {
		if a.PatchLocationList[i] != p {
			t.Errorf("patch %d = %+v, want %+v", i, a.PatchLocationList[i], p)
		}
		if a.DmaBuffer[p.PatchOffset] != 0 || a.DmaBuffer[p.PatchOffset+1] != 0 {
			t.Errorf("address at word %d not zeroed", p.PatchOffset)
		}
	}
	// The source command buffer is left alone.
	if cmd[20] != 1 || cmd[21] != 0 {
		t.Errorf("command buffer modified: %v", cmd[19:22])
	}
	// Patch: physical addresses plus offsets.
	l := list(1, 2)
	l[0].PhysicalAddress, l[1].PhysicalAddress = gpu.VRAMBase+0x1000, gpu.ApertureBase
	if err := r.d.DxgkDdiPatch(&dxgkddi.PatchArgs{Context: 1, DmaBuffer: a.DmaBuffer, AllocationList: l, PatchLocationList: a.PatchLocationList}); err != nil {
		t.Fatal(err)
	}
	pk, err := isa.Decode(a.DmaBuffer)
	if err != nil {
		t.Fatal(err)
	}
	if got := pk[1].String(); !strings.Contains(got, "addr=0x100001000") {
		t.Errorf("patched SET_RT = %s", got)
	}
	if got := pk[2].String(); !strings.Contains(got, "addr=0x1000000000") {
		t.Errorf("patched SET_VB = %s", got)
	}
}

func TestRenderRejects(t *testing.T) {
	var foreign isa.Builder
	foreign.Write(la(1, 0), []byte{0xef, 0xbe, 0xad, 0xde})
	var outside isa.Builder
	outside.SetVB(0, la(5, 0), 16, 36, 0)
	var pastEnd isa.Builder
	pastEnd.Copy(la(0, 16000), la(1, 0), 1024)
	var rtPastEnd isa.Builder
	rtPastEnd.SetRT(la(0, 0), 64, 65, 256, isa.FmtRGBA8)
	var fence isa.Builder
	fence.Fence(99)
	var scan isa.Builder
	scan.Scanout(la(0, 0), 64, 64, 256, isa.FmtRGBA8)
	var query isa.Builder
	query.Query(isa.QueryTimestamp, la(0, 12))
	var overflow isa.Builder
	overflow.Copy(la(0, 0xFFFFFFFF), la(0, 0), 0xFFFFFFFF)
	var program isa.Builder
	program.SetProgram(isa.StagePS, la(0, 16000), 100, isa.NoReg)

	tests := []struct {
		desc   string
		cmd    []uint32
		list   []dxgkddi.AllocationListEntry
		code   dxgkddi.NTSTATUS
		inMsg  []string
		bugsOK bool // passes with the WDDM-ISOLATE bug switch on
	}{
		{"foreign allocation in the list", foreign.Words, list(1, 3), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"entry 1", "a3", "belongs to kd2", "kd1"}, true},
		{"unknown allocation in the list", nil, list(1, 77), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"a77 is not an allocation"}, true},
		{"index outside the list", outside.Words, list(1, 2), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"packet 0", "SET_VB", "index 5 outside the list of 2"}, true},
		{"offset past the end", pastEnd.Words, list(1, 2), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"packet 0", "COPY", "a1", "copy destination [16000, +1024)", "16384-byte"}, true},
		{"render target taller than the allocation", rtPastEnd.Words, list(1), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"SET_RT", "render target"}, true},
		{"query past the end", query.Words, list(4), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"QUERY", "a4", "query result [12, +8)"}, true},
		{"privileged FENCE", fence.Words, nil, dxgkddi.STATUS_ILLEGAL_INSTRUCTION,
			[]string{"packet 0", "FENCE", "privileged"}, true},
		{"privileged SCANOUT", scan.Words, list(1), dxgkddi.STATUS_ILLEGAL_INSTRUCTION,
			[]string{"SCANOUT", "privileged"}, true},
		{"malformed: unknown opcode", []uint32{0x7F000000}, nil, dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"malformed", "unknown opcode"}, true},
		{"malformed: truncated packet", drawBuffer()[:5], list(1, 2), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"malformed", "runs past the end"}, true},
		{"offset + size overflows", overflow.Words, list(1), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"runs past the end"}, true},
		{"program past the end", program.Words, list(1), dxgkddi.STATUS_INVALID_PARAMETER,
			[]string{"SET_PROGRAM", "program [16000, +400)", "16384-byte"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := newRig(t)
			a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: tt.cmd, AllocationList: tt.list}
			err := r.d.DxgkDdiRender(&a)
			if !errors.Is(err, tt.code) {
				t.Fatalf("err = %v, want %v", err, tt.code)
			}
			for _, s := range tt.inMsg {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("message %q does not say %q", err, s)
				}
			}
			if a.DmaBuffer != nil {
				t.Error("a rejected buffer produced a DMA buffer")
			}

			r = newRig(t, RuleIsolate)
			a = dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: tt.cmd, AllocationList: tt.list}
			err = r.d.DxgkDdiRender(&a)
			if (err == nil) != tt.bugsOK {
				t.Fatalf("with the bug switch: err = %v", err)
			}
			if err == nil && len(a.DmaBuffer) < len(tt.cmd) {
				t.Errorf("with the bug switch: DMA buffer of %d words for %d", len(a.DmaBuffer), len(tt.cmd))
			}
		})
	}
}

// TestRenderAcceptsDrawsPastTheirBuffers: a draw that names vertices past
// the end of its vertex buffer, or indices past the end of its index buffer,
// is legal Direct3D 11 (the GPU bounds the fetches, reading zeros): the KMD
// translates it, bindings inside their allocations, and the device stays.
func TestRenderAcceptsDrawsPastTheirBuffers(t *testing.T) {
	var draw isa.Builder
	draw.SetVB(0, la(1, 0), 108, 36, 0)
	draw.Draw(4, 0)
	var drawIdx isa.Builder
	drawIdx.SetIB(la(1, 0), 12, 2, 0)
	drawIdx.SetVB(0, la(1, 0), 108, 36, 0)
	drawIdx.DrawIndexed(7, 0, 0)
	var huge isa.Builder
	huge.SetVB(0, la(1, 0), 108, 36, 0)
	huge.Draw(3, 0xFFFFFFFF)
	for _, tt := range []struct {
		desc string
		cmd  []uint32
	}{
		{"vertices past the vertex buffer", draw.Words},
		{"indices past the index buffer", drawIdx.Words},
		{"a start vertex near 2^32", huge.Words},
	} {
		r := newRig(t)
		a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: tt.cmd, AllocationList: list(1, 2)}
		if err := r.d.DxgkDdiRender(&a); err != nil {
			t.Errorf("%s: %v", tt.desc, err)
		} else if !a.Draws || len(a.DmaBuffer) != len(tt.cmd) {
			t.Errorf("%s: Draws %v, %d DMA words for %d", tt.desc, a.Draws, len(a.DmaBuffer), len(tt.cmd))
		}
	}
}

func TestRenderNullAddressAndSizes(t *testing.T) {
	r := newRig(t)
	var b isa.Builder
	b.SetDS(la(dxgkddi.NullAllocationIndex, 0), 0, 0, 0, isa.FmtNone)
	a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: b.Words}
	if err := r.d.DxgkDdiRender(&a); err != nil {
		t.Fatal(err)
	}
	if len(a.PatchLocationList) != 0 || a.DmaBuffer[1] != 0 || a.DmaBuffer[2] != 0 {
		t.Fatalf("null address: patches %v words %v", a.PatchLocationList, a.DmaBuffer[:3])
	}
	a = dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: drawBuffer(), AllocationList: list(1, 2), DmaBufferSize: 16}
	if err := r.d.DxgkDdiRender(&a); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
		t.Fatalf("small DMA buffer: %v", err)
	}
	a = dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: drawBuffer(), AllocationList: list(1, 2), PatchLocationListSize: 2}
	if err := r.d.DxgkDdiRender(&a); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) {
		t.Fatalf("small patch list: %v", err)
	}
	a = dxgkddi.RenderArgs{Device: 1, Context: 2, CommandBuffer: drawBuffer(), AllocationList: list(1, 2)}
	if err := r.d.DxgkDdiRender(&a); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Fatalf("another device's context: %v", err)
	}
}

// presentList is a present's allocation list: element 0 null, the source
// at 1, the destination at 2 ("DXGKARG_PRESENT").
func presentList(src, dst dxgkddi.HAllocation) []dxgkddi.AllocationListEntry {
	return []dxgkddi.AllocationListEntry{{}, {Allocation: src}, {Allocation: dst, WriteOperation: true}}
}

// DxgkDdiPresent writes the present's commands itself ("DXGKDDI_PRESENT"):
// a Blt is a copy of the source into the destination, then the display
// shows the destination; a MMIO flip has no DMA buffer at all.
func TestPresentWritesTheCopy(t *testing.T) {
	r := newRig(t)
	a := dxgkddi.PresentArgs{Device: 1, Context: 1, AllocationList: presentList(1, 5), Flags: dxgkddi.PresentFlags{Blt: true}}
	if err := r.d.DxgkDdiPresent(&a); err != nil {
		t.Fatal(err)
	}
	pk, err := isa.Decode(a.DmaBuffer)
	if err != nil || len(pk) != 2 || pk[0].Op != isa.OpCopy || pk[1].Op != isa.OpScanout {
		t.Fatalf("DMA buffer %v: %v", pk, err)
	}
	if got := pk[1].String(); got != "SCANOUT addr=0x0 64x64 pitch=256 fmt=1" {
		t.Errorf("scanout %q", got)
	}
	want := []dxgkddi.PatchLocation{{AllocationIndex: 2, PatchOffset: 1}, {AllocationIndex: 1, PatchOffset: 3}, {AllocationIndex: 2, PatchOffset: 7}}
	if p := a.PatchLocationList; fmt.Sprint(p) != fmt.Sprint(want) {
		t.Errorf("patches %v, want %v", p, want)
	}
	flip := dxgkddi.PresentArgs{Device: 1, Context: 1, AllocationList: presentList(1, 0), Flags: dxgkddi.PresentFlags{Flip: true}, NoDmaBuffer: true}
	if err := r.d.DxgkDdiPresent(&flip); err != nil || flip.DmaBuffer != nil {
		t.Fatalf("MMIO flip: %v, DMA buffer %v", err, flip.DmaBuffer)
	}
	bad := []struct {
		desc string
		a    dxgkddi.PresentArgs
		code dxgkddi.NTSTATUS
		want string
	}{
		{"a buffer as the source", dxgkddi.PresentArgs{AllocationList: presentList(2, 5), Flags: dxgkddi.PresentFlags{Blt: true}}, dxgkddi.STATUS_INVALID_PARAMETER, "present surface a2"},
		{"another device's destination", dxgkddi.PresentArgs{AllocationList: presentList(1, 3), Flags: dxgkddi.PresentFlags{Blt: true}}, dxgkddi.STATUS_INVALID_PARAMETER, "belongs to kd2"},
		{"no destination for a copy", dxgkddi.PresentArgs{AllocationList: presentList(1, 0), Flags: dxgkddi.PresentFlags{Blt: true}}, dxgkddi.STATUS_INVALID_PARAMETER, "entry 2"},
		{"a list of two", dxgkddi.PresentArgs{AllocationList: list(1, 5), Flags: dxgkddi.PresentFlags{Blt: true}}, dxgkddi.STATUS_INVALID_PARAMETER, "null, source, destination"},
		{"neither Blt nor Flip", dxgkddi.PresentArgs{AllocationList: presentList(1, 5)}, dxgkddi.STATUS_INVALID_PARAMETER, "neither"},
		{"a flip with a DMA buffer", dxgkddi.PresentArgs{AllocationList: presentList(1, 0), Flags: dxgkddi.PresentFlags{Flip: true}}, dxgkddi.STATUS_INVALID_PARAMETER, "MMIO"},
		{"a flip of what is not a primary", dxgkddi.PresentArgs{AllocationList: presentList(5, 0), Flags: dxgkddi.PresentFlags{Flip: true}, NoDmaBuffer: true}, dxgkddi.STATUS_INVALID_PARAMETER, "not a primary"},
		{"a flip with a destination", dxgkddi.PresentArgs{AllocationList: presentList(1, 5), Flags: dxgkddi.PresentFlags{Flip: true}, NoDmaBuffer: true}, dxgkddi.STATUS_INVALID_PARAMETER, "destination"},
	}
	for _, tt := range bad {
		tt.a.Device, tt.a.Context = 1, 1
		if err := r.d.DxgkDdiPresent(&tt.a); !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %v mentioning %q", tt.desc, err, tt.code, tt.want)
		}
	}
	// The flip itself: the scan-out register points at the primary, now
	// (FlipImmediate) or at the next vertical blank.
	if err := r.d.DxgkDdiSetVidPnSourceAddress(&dxgkddi.SetVidPnSourceAddressArgs{PrimaryAllocation: 1, PrimaryAddress: 0x1000, FlipImmediate: true}); err != nil {
		t.Fatal(err)
	}
	if err := r.d.DxgkDdiSetVidPnSourceAddress(&dxgkddi.SetVidPnSourceAddressArgs{PrimaryAllocation: 5, PrimaryAddress: 0x2000}); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Errorf("flip to what is not a primary: %v", err)
	}
	if err := r.d.DxgkDdiSetVidPnSourceAddress(&dxgkddi.SetVidPnSourceAddressArgs{PrimaryAllocation: 1, PrimaryAddress: 0x1000}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.hw.scans) != "[0x1000 64x64 pitch=256 fmt=1 on vsync 0x1000 64x64 pitch=256 fmt=1]" {
		t.Errorf("scan-out %v", r.hw.scans)
	}
}

// TestVerticalBlank: DxgkDdiControlInterrupt turns the display's interrupt
// on and off; the display's line is reported as DXGK_INTERRUPT_CRTC_VSYNC
// with the blank and the scanned-out address, then the DPC is queued; the
// DPC calls DxgkCbNotifyDpc.
func TestVerticalBlank(t *testing.T) {
	r := newRig(t)
	for _, on := range []bool{true, false} {
		if err := r.d.DxgkDdiControlInterrupt(&dxgkddi.ControlInterruptArgs{Type: dxgkddi.InterruptCrtcVsync, Enable: on}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.d.DxgkDdiControlInterrupt(&dxgkddi.ControlInterruptArgs{Type: dxgkddi.InterruptDMACompleted, Enable: true}); !errors.Is(err, dxgkddi.STATUS_NOT_SUPPORTED) {
		t.Errorf("DMA_COMPLETED controlled: %v", err)
	}
	if fmt.Sprint(r.hw.vsync) != "[true false]" {
		t.Errorf("EnableVSync calls %v", r.hw.vsync)
	}
	if r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{Engine: dxgkddi.DisplayInterruptLine}) {
		t.Error("claimed the display's line with no blank latched")
	}
	r.hw.vblank = 7
	if !r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{Engine: dxgkddi.DisplayInterruptLine}) {
		t.Error("the vertical blank not claimed")
	}
	r.d.DxgkDdiDpcRoutine()
	want := "[DxgkCbNotifyInterrupt(DXGK_INTERRUPT_CRTC_VSYNC, 7, 0x1000) DxgkCbQueueDpc DxgkCbNotifyDpc]"
	if got := fmt.Sprint(r.k.calls); got != want {
		t.Errorf("calls %s, want %s", got, want)
	}
}

func TestCreateAllocationChecksSurface(t *testing.T) {
	tests := []struct {
		desc string
		size uint64
		sd   dxgkddi.SurfaceDesc
		ok   bool
	}{
		{"buffer", 100, dxgkddi.SurfaceDesc{Width: 100, Height: 1, Pitch: 100}, true},
		{"no description", 100, dxgkddi.SurfaceDesc{}, true},
		{"texture", 64 * 64 * 4, dxgkddi.SurfaceDesc{Width: 64, Height: 64, Pitch: 256, Format: uint32(isa.FmtRGBA8)}, true},
		{"too small", 64 * 63 * 4, dxgkddi.SurfaceDesc{Width: 64, Height: 64, Pitch: 256, Format: uint32(isa.FmtRGBA8)}, false},
		{"pitch below a row", 64 * 64 * 4, dxgkddi.SurfaceDesc{Width: 64, Height: 64, Pitch: 128, Format: uint32(isa.FmtRGBA8)}, false},
		{"unknown format", 4096, dxgkddi.SurfaceDesc{Width: 4, Height: 4, Pitch: 16, Format: 99}, false},
		{"size 0", 0, dxgkddi.SurfaceDesc{}, false},
	}
	for i, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			r := newRig(t)
			err := r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: dxgkddi.HAllocation(100 + i), Size: tt.size, PrivateDriverData: tt.sd})
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v", err)
			}
			if err != nil && !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
				t.Fatalf("err = %v, want STATUS_INVALID_PARAMETER", err)
			}
		})
	}
}

func TestBuildPagingBuffer(t *testing.T) {
	r := newRig(t)
	tr := dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingTransfer, Allocation: 1, Size: 8192,
		Source:      dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentAperture, Address: gpu.ApertureBase},
		Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentVRAM, Address: gpu.VRAMBase}}
	if err := r.d.DxgkDdiBuildPagingBuffer(&tr); err != nil {
		t.Fatal(err)
	}
	fill := dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingFill, Allocation: 2, Size: 4096, FillPattern: 7,
		Destination: dxgkddi.SegmentAddress{Segment: dxgkddi.SegmentVRAM, Address: gpu.VRAMBase + 8192}, DmaBuffer: tr.DmaBuffer}
	if err := r.d.DxgkDdiBuildPagingBuffer(&fill); err != nil {
		t.Fatal(err)
	}
	disc := dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingDiscardContent, Allocation: 2, Size: 4096, DmaBuffer: fill.DmaBuffer}
	if err := r.d.DxgkDdiBuildPagingBuffer(&disc); err != nil {
		t.Fatal(err)
	}
	pk, err := isa.Decode(disc.DmaBuffer)
	if err != nil || len(pk) != 2 {
		t.Fatalf("paging buffer %v: %v", pk, err)
	}
	if got := pk[0].String(); got != "COPY dst=0x100000000 src=0x1000000000 n=8192" {
		t.Errorf("transfer %q", got)
	}
	if got := pk[1].String(); got != "FILL dst=0x100002000 n=4096 value=0x7" {
		t.Errorf("fill %q", got)
	}
	small := dxgkddi.BuildPagingBufferArgs{Operation: dxgkddi.PagingFill, Size: 4096, DmaBufferSize: 8, DmaBuffer: []uint32{0}}
	if err := r.d.DxgkDdiBuildPagingBuffer(&small); !errors.Is(err, dxgkddi.STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) || len(small.DmaBuffer) != 1 {
		t.Fatalf("full paging buffer: %v, %d words", err, len(small.DmaBuffer))
	}
}

func TestSubmitInterruptReset(t *testing.T) {
	r := newRig(t)
	if err := r.d.DxgkDdiSubmitCommand(&dxgkddi.SubmitCommandArgs{Context: 1, DmaBufferID: 9, DmaBuffer: []uint32{0}, SubmissionFenceID: 42}); err != nil {
		t.Fatal(err)
	}
	if len(r.hw.submits) != 1 || r.hw.submits[0].id != 9 {
		t.Fatalf("submits %+v", r.hw.submits)
	}
	pk, err := isa.Decode(r.hw.submits[0].dma)
	if err != nil || len(pk) != 2 || pk[1].String() != "FENCE value=42" {
		t.Fatalf("submitted %v: %v", pk, err)
	}
	r.hw.fence = 42
	if !r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{}) {
		t.Fatal("ISR did not claim the interrupt")
	}
	if got := strings.Join(r.k.calls, " "); got != "DxgkCbNotifyInterrupt DxgkCbQueueDpc" {
		t.Fatalf("callbacks %q", got)
	}
	// A page fault stopped the engine on the buffer with fence 43: the ISR
	// reports DXGK_INTERRUPT_DMA_PAGE_FAULTED with that fence, not a
	// completion.
	r.k.calls, r.hw.pf = nil, 43
	if !r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{}) {
		t.Fatal("ISR did not claim the page fault's interrupt")
	}
	if got := strings.Join(r.k.calls, " "); got != "DxgkCbNotifyInterrupt(DXGK_INTERRUPT_DMA_PAGE_FAULTED, 43) DxgkCbQueueDpc" {
		t.Fatalf("callbacks on a page fault %q", got)
	}
	// A preemption request goes to the engine with its preemption fence
	// id; the engine's answer is reported as DXGK_INTERRUPT_DMA_PREEMPTED
	// with that id and the last completed fence.
	r.k.calls, r.hw.pf = nil, 0
	if err := r.d.DxgkDdiPreemptCommand(&dxgkddi.PreemptCommandArgs{PreemptionFenceID: 44}); err != nil || len(r.hw.preempts) != 1 || r.hw.preempts[0] != 44 {
		t.Fatalf("DxgkDdiPreemptCommand: %v, engine asked %v", err, r.hw.preempts)
	}
	r.hw.preemptAnswer = 44
	if !r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{}) {
		t.Fatal("ISR did not claim the preemption's interrupt")
	}
	if got := strings.Join(r.k.calls, " "); got != "DxgkCbNotifyInterrupt(DXGK_INTERRUPT_DMA_PREEMPTED, 44, 42) DxgkCbQueueDpc" {
		t.Fatalf("callbacks on a preemption %q", got)
	}
	r.hw.pf = 43
	if err := r.d.DxgkDdiResetFromTimeout(&dxgkddi.ResetFromTimeoutArgs{}); err != nil || len(r.hw.resets) != 1 {
		t.Fatalf("reset: %v %v", err, r.hw.resets)
	}
	if err := r.d.DxgkDdiSubmitCommand(&dxgkddi.SubmitCommandArgs{Engine: 3}); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Fatalf("bad engine: %v", err)
	}
}

func TestLifecycle(t *testing.T) {
	r := newRig(t)
	tests := []struct {
		desc string
		err  error
		code dxgkddi.NTSTATUS
	}{
		{"destroy another device's allocation", r.d.DxgkDdiDestroyAllocation(&dxgkddi.DestroyAllocationArgs{Device: 2, Allocation: 1}), dxgkddi.STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE},
		{"destroy an unknown allocation", r.d.DxgkDdiDestroyAllocation(&dxgkddi.DestroyAllocationArgs{Device: 1, Allocation: 50}), dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE},
		{"duplicate allocation", r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 1, Allocation: 1, Size: 4}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"allocation of an unknown device", r.d.DxgkDdiCreateAllocation(&dxgkddi.CreateAllocationArgs{Device: 9, Allocation: 60, Size: 4}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"context on a missing engine", r.d.DxgkDdiCreateContext(&dxgkddi.CreateContextArgs{Device: 1, Context: 7, Engine: 2}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"context of an unknown device", r.d.DxgkDdiCreateContext(&dxgkddi.CreateContextArgs{Device: 9, Context: 8}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"destroy an unknown context", r.d.DxgkDdiDestroyContext(9), dxgkddi.STATUS_INVALID_PARAMETER},
		{"destroy an unknown device", r.d.DxgkDdiDestroyDevice(9), dxgkddi.STATUS_INVALID_PARAMETER},
		{"reset a missing engine", r.d.DxgkDdiResetEngine(&dxgkddi.ResetEngineArgs{Engine: 5}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"preempt a missing engine", r.d.DxgkDdiPreemptCommand(&dxgkddi.PreemptCommandArgs{Engine: 5}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"status of a missing engine", r.d.DxgkDdiQueryEngineStatus(&dxgkddi.QueryEngineStatusArgs{Engine: 5}), dxgkddi.STATUS_INVALID_PARAMETER},
		{"group of a missing engine", r.d.DxgkDdiQueryDependentEngineGroup(&dxgkddi.QueryDependentEngineGroupArgs{Engine: -1}), dxgkddi.STATUS_INVALID_PARAMETER},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.code) {
			t.Errorf("%s: %v, want %v", tt.desc, tt.err, tt.code)
		}
	}
	if err := r.d.DxgkDdiDestroyAllocation(&dxgkddi.DestroyAllocationArgs{Device: 1, Allocation: 2}); err != nil {
		t.Fatal(err)
	}
	a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: drawBuffer(), AllocationList: list(1, 2)}
	if err := r.d.DxgkDdiRender(&a); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) || !strings.Contains(err.Error(), "a2 is not an allocation") {
		t.Fatalf("render of a destroyed allocation: %v", err)
	}
	if err := r.d.DxgkDdiDestroyContext(1); err != nil {
		t.Fatal(err)
	}
	if err := r.d.DxgkDdiRender(&a); !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) {
		t.Fatalf("render on a destroyed context: %v", err)
	}
	if err := r.d.DxgkDdiDestroyDevice(1); err != nil {
		t.Fatal(err)
	}
	r.d.DxgkDdiDpcRoutine()
	if r.d.DxgkDdiInterruptRoutine(&dxgkddi.InterruptRoutineArgs{Engine: 4}) {
		t.Error("claimed an interrupt of a missing engine")
	}
}

// TestRenderRejectsOutOfRange: every kind of access the validator bounds,
// each one byte (or one row) past an allocation of the submitting device
// itself — a rogue UMD cannot reach past its own allocations either (rule
// WDDM-ISOLATE). The same access one byte shorter is accepted, so each case
// tests the bound and not something else about the packet.
func TestRenderRejectsOutOfRange(t *testing.T) {
	// a1: 64x64 RGBA8 (16384 bytes, pitch 256); a2: 4096 bytes; a4: 16 bytes.
	tests := []struct {
		desc  string
		build func(b *isa.Builder, over uint32)
		list  []dxgkddi.AllocationListEntry
		what  string
	}{
		{"copy source", func(b *isa.Builder, o uint32) { b.Copy(la(0, 0), la(1, 4096-64+o), 64) }, list(1, 2), "copy source"},
		{"inline write", func(b *isa.Builder, o uint32) { b.Write(la(0, 12+o), []byte{1, 2, 3, 4}) }, list(4), "a4"},
		{"fill", func(b *isa.Builder, o uint32) { b.Fill(la(0, 4096-32+o), 32, 7) }, list(2), "a2"},
		{"depth surface", func(b *isa.Builder, o uint32) { b.SetDS(la(0, 0), 32, 32+o, 128, isa.FmtD32F) }, list(2), "a2"},
		{"depth clear", func(b *isa.Builder, o uint32) { b.ClearDS(la(0, 0), 32, 32+o, 128, isa.FmtD32F, 1) }, list(2), "a2"},
		{"render target clear", func(b *isa.Builder, o uint32) {
			b.ClearRT(la(0, 0), 64, 64+o, 256, isa.FmtRGBA8, [4]float32{1, 0, 0, 1})
		}, list(1), "a1"},
		{"texture", func(b *isa.Builder, o uint32) { b.SetTex(0, la(0, 0), 32, 32+o, 128, isa.FmtRGBA8) }, list(2), "a2"},
		{"constant buffer", func(b *isa.Builder, o uint32) { b.SetCB(isa.StageVS, 0, la(0, 4096-256), 256+16*o) }, list(2), "a2"},
		// The binding is the access; the draw's vertices and indices are
		// bounded by it on the GPU (TestRenderAcceptsDrawsPastTheirBuffers).
		{"vertex buffer binding", func(b *isa.Builder, o uint32) {
			b.SetVB(0, la(0, 4096-108+o), 108, 36, 0)
			b.Draw(3, 0)
		}, list(2), "vertex buffer [3989, +108)"},
		{"index buffer binding", func(b *isa.Builder, o uint32) {
			b.SetIB(la(0, 4096-6+2*o), 6, 2, 0)
			b.DrawIndexed(3, 0, 0)
		}, list(2), "index buffer [4092, +6)"},
		{"unordered access view", func(b *isa.Builder, o uint32) {
			b.SetUAV(0, la(0, 4096-256+4*o), isa.ViewRawBuffer, 0, 256, 4, 64, 0, 0, isa.NullAddress)
			b.Dispatch(1, 1, 1)
		}, list(2), "unordered access view [3844, +256)"},
		{"UAV counter", func(b *isa.Builder, o uint32) {
			b.SetUAV(0, la(0, 0), isa.ViewRawBuffer, 0, 256, 4, 64, 0, 0, la(0, 4092+4*o))
		}, list(2), "UAV counter [4096, +4)"},
		{"indirect dispatch arguments", func(b *isa.Builder, o uint32) { b.DispatchIndirect(la(0, 4+o)) }, list(4), "indirect dispatch arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			for _, over := range []uint32{0, 1} {
				var b isa.Builder
				tt.build(&b, over)
				r := newRig(t)
				a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: b.Words, AllocationList: tt.list}
				err := r.d.DxgkDdiRender(&a)
				if over == 0 {
					if err != nil {
						t.Fatalf("in bounds: %v", err)
					}
					continue
				}
				if !errors.Is(err, dxgkddi.STATUS_INVALID_PARAMETER) || !strings.Contains(err.Error(), tt.what) || a.DmaBuffer != nil {
					t.Fatalf("one past the end: err = %v (want STATUS_INVALID_PARAMETER naming %s), DMA buffer %v", err, tt.what, a.DmaBuffer != nil)
				}
			}
		})
	}
}

// A program's address is patched like any binding's: the KMD records the
// patch location of SET_PROGRAM's address field.
func TestRenderPatchesProgram(t *testing.T) {
	r := newRig(t)
	var b isa.Builder
	at := b.SetProgram(isa.StageVS, la(1, 64), 96, 0)
	a := dxgkddi.RenderArgs{Device: 1, Context: 1, CommandBuffer: b.Words, AllocationList: list(1, 2)}
	if err := r.d.DxgkDdiRender(&a); err != nil {
		t.Fatal(err)
	}
	if len(a.PatchLocationList) != 1 {
		t.Fatalf("patch locations %v, want one", a.PatchLocationList)
	}
	pl := a.PatchLocationList[0]
	if pl.AllocationIndex != 1 || pl.AllocationOffset != 64 || int(pl.PatchOffset) != at {
		t.Errorf("patch location %+v, want list entry 1, offset 64, word %d", pl, at)
	}
}

// TestEngineStatus: a node is responsive once it completes work after the
// preempt request, not while it sits on the buffer it was running or on a
// page fault; its reset takes no other node along ("TDR changes in
// Windows 8").
func TestEngineStatus(t *testing.T) {
	r := newRig(t)
	status := func() bool {
		t.Helper()
		a := dxgkddi.QueryEngineStatusArgs{Engine: 0}
		if err := r.d.DxgkDdiQueryEngineStatus(&a); err != nil {
			t.Fatal(err)
		}
		return a.Responsive
	}
	r.hw.fence = 4
	if err := r.d.DxgkDdiPreemptCommand(&dxgkddi.PreemptCommandArgs{Engine: 0}); err != nil {
		t.Fatal(err)
	}
	if status() {
		t.Error("responsive with no buffer completed since the preempt request")
	}
	r.hw.fence = 5
	if !status() {
		t.Error("not responsive after completing a buffer")
	}
	r.hw.pf = 6
	if status() {
		t.Error("responsive while stopped on a page fault")
	}
	g := dxgkddi.QueryDependentEngineGroupArgs{Engine: 0}
	if err := r.d.DxgkDdiQueryDependentEngineGroup(&g); err != nil || g.DependentNodeOrdinalMask != 0b1 {
		t.Errorf("dependent group of node 0: %#x, %v; want 0x1 (itself alone)", g.DependentNodeOrdinalMask, err)
	}
}
