package umd

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

func TestCreateResourceAllocates(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    ddi.CreateResourceArgs
		wantErr hresult.HRESULT
		size    uint64
		pitch   uint32
		format  isa.Format
	}{
		{"buffer", ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: 100, Height: 1}, 0, 100, 100, isa.FmtNone},
		{"texture", ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: 8, Height: 4, Format: ddi.FormatB8G8R8A8Unorm}, 0, 128, 32, isa.FmtBGRA8},
		// 16384, the runtime's range at feature level 11_0, is the driver's too
		{"16384 wide", ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: 16384, Height: 4, Format: ddi.FormatR8G8B8A8Unorm}, 0, 16384 * 16, 16384 * 4, isa.FmtRGBA8},
		{"RGB32 render target (optional support)", ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: 8, Height: 8, Format: ddi.FormatR32G32B32Float, BindFlags: ddi.BindRenderTarget}, hresult.D3DDDIERR_APPLICATIONERROR, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeRuntime()
			d := newDevice(t, f, Config{})
			err := createErr(d, func() { d.CreateResource(hDev, &tc.args, hRT, 9) })
			if tc.wantErr != 0 {
				if hresult.Of(err) != tc.wantErr || len(f.allocs) != 0 {
					t.Fatalf("err %v, %d pfnAllocateCb calls; want %v and none", err, len(f.allocs), tc.wantErr)
				}
				return
			}
			if err != nil || len(f.allocs) != 1 {
				t.Fatalf("err %v, %d pfnAllocateCb calls; want one", err, len(f.allocs))
			}
			info := f.allocs[0].Allocations[0]
			if f.allocs[0].Resource != 9 || info.Size != tc.size || info.Pitch != tc.pitch || isa.Format(info.GPUFormat) != tc.format {
				t.Errorf("pfnAllocateCb got resource %d size %d pitch %d format %d; want 9, %d, %d, %d",
					f.allocs[0].Resource, info.Size, info.Pitch, info.GPUFormat, tc.size, tc.pitch, tc.format)
			}
			if d.Allocation(hRT) != info.Allocation || d.Live() != 1 {
				t.Errorf("Allocation %d, Live %d; want %d, 1", d.Allocation(hRT), d.Live(), info.Allocation)
			}
		})
	}
}

// A draw encodes the bound state once, then only the draws, until a
// submission; the buffer's addresses are allocation-list relative.
func TestDrawEncodesPackets(t *testing.T) {
	f, d := immediateScene(t)
	d.Draw(hDev, 3, 0)
	d.Draw(hDev, 3, 3)
	if len(f.renders) != 0 {
		t.Fatalf("submitted before Flush: %v", f.calls)
	}
	d.Flush(hDev)
	if len(f.renders) != 1 {
		t.Fatalf("Flush made %d pfnRenderCb calls, want 1", len(f.renders))
	}
	r := f.renders[0]
	pkts := decode(t, r.Commands)
	if got := countOp(pkts, isa.OpDraw); got != 2 {
		t.Fatalf("%d DRAW packets, want 2: %v", got, ops(pkts))
	}
	for _, op := range []isa.Opcode{isa.OpSetRT, isa.OpSetVB, isa.OpSetLayout, isa.OpSetTopology, isa.OpSetBlend, isa.OpSetRaster, isa.OpSetDepth} {
		if n := countOp(pkts, op); n != 1 {
			t.Errorf("%v appears %d times: %v", op, n, ops(pkts))
		}
	}
	// The built-in shaders are programs from memory like any other: one
	// SET_PROGRAM per stage (the GPU has no programs of its own).
	if n := countOp(pkts, isa.OpSetProgram); n != 2 {
		t.Errorf("%d SET_PROGRAM packets, want 2: %v", n, ops(pkts))
	}
	last := pkts[len(pkts)-1]
	if last.Op != isa.OpDraw || last.Args[0] != 3 || last.Args[1] != 3 || pkts[len(pkts)-2].Op != isa.OpDraw {
		t.Errorf("the buffer ends %v, %v; want the two draws", pkts[len(pkts)-2], last)
	}
	for _, p := range pkts {
		if p.Op != isa.OpSetRT {
			continue
		}
		idx, off := p.Args[0], p.Args[1]
		e := r.AllocationList[idx]
		if e.Allocation != d.Allocation(hRT) || !e.WriteOperation || off != 0 {
			t.Errorf("SET_RT names list entry %d (%+v) offset %d; want the render target's allocation, written", idx, e, off)
		}
	}
}

// When the command buffer cannot take a command, the UMD submits by itself,
// and every buffer is self-contained (starts with the state). At every
// submission it asks for its next buffer ("D3DDDICB_RENDER structure",
// NewCommandBufferSize [in/out]): twice the size after a buffer that filled
// up, up to four times the first, and it uses what it is given.
func TestFullCommandBufferSubmits(t *testing.T) {
	for _, grant := range []int{0, 2048} { // 0: the runtime grants what is asked
		f := newFakeRuntime()
		f.cmdBytes = 2048 // 512 words, the smallest the UMD accepts
		f.grant = grant
		d := newDevice(t, f, Config{})
		scene(t, d, d)
		const draws = 400
		for i := range draws {
			d.Draw(hDev, 3, uint32(i))
		}
		if len(f.renders) == 0 {
			t.Fatalf("%d draws in a 512-word buffer and no pfnRenderCb", draws)
		}
		d.Flush(hDev)
		total, size := 0, 2048
		var asked []int
		for i, r := range f.renders {
			if 4*len(r.Commands) > size {
				t.Errorf("grant %d: buffer %d has %d bytes, more than the %d the runtime gave", grant, i, 4*len(r.Commands), size)
			}
			size = r.NewCommandBufferSize
			asked = append(asked, f.asked[i])
			pkts := decode(t, r.Commands)
			if countOp(pkts, isa.OpSetRT) != 1 || countOp(pkts, isa.OpSetVB) != 1 {
				t.Errorf("buffer %d is not self-contained: %v", i, ops(pkts)[:min(8, len(pkts))])
			}
			total += countOp(pkts, isa.OpDraw)
		}
		if total != draws {
			t.Errorf("%d draws submitted, want %d", total, draws)
		}
		want := []int{4096, 8192, 8192}
		if grant != 0 {
			want = []int{4096, 4096, 4096} // never granted: it asks again from what it has
		}
		if len(asked) < 3 || !slices.Equal(asked[:3], want) {
			t.Errorf("grant %d: asked for %v, want %v first", grant, asked, want)
		}
	}
}

func TestFullCommandBufferSelfContained(t *testing.T) {
	f := newFakeRuntime()
	f.cmdBytes = 2048
	f.grant = 2048
	d := newDevice(t, f, Config{})
	scene(t, d, d)
	const draws = 400
	for i := range draws {
		d.Draw(hDev, 3, uint32(i))
	}
	d.Flush(hDev)
	total := 0
	for i, r := range f.renders {
		if len(r.Commands) > 512 {
			t.Errorf("buffer %d has %d words, more than the 512 the runtime gave", i, len(r.Commands))
		}
		pkts := decode(t, r.Commands)
		if countOp(pkts, isa.OpSetRT) != 1 || countOp(pkts, isa.OpSetVB) != 1 {
			t.Errorf("buffer %d is not self-contained: %v", i, ops(pkts)[:min(8, len(pkts))])
		}
		total += countOp(pkts, isa.OpDraw)
	}
	if total != draws {
		t.Errorf("%d draws submitted, want %d", total, draws)
	}
	if f.amortized[icCore] == 0 {
		t.Error("no pfnPerformAmortizedProcessingCb after the submissions")
	}
}

// Map locks through pfnLockCb with the flags that make the video memory
// manager wait for the right GPU work (it blocks inside the callback); a
// conflicting use still in the command buffer is submitted first.
func TestMapLocksWithTheRightFlags(t *testing.T) {
	for _, tc := range []struct {
		name      string
		t         ddi.MapType
		flags     ddi.MapFlag
		submitted bool // the draw using the buffer was flushed first
		wantErr   error
		wantLock  ddi.LockFlags
		renders   int
	}{
		{"write after submitted read", ddi.MapWrite, 0, true, nil, ddi.LockFlags{WriteOnly: true}, 1},
		{"write in unsubmitted buffer", ddi.MapWrite, 0, false, nil, ddi.LockFlags{WriteOnly: true}, 1},
		{"read write", ddi.MapReadWrite, 0, true, nil, ddi.LockFlags{}, 1},
		{"do not wait", ddi.MapWrite, ddi.MapFlagDoNotWait, true, hresult.DXGI_DDI_ERR_WASSTILLDRAWING, ddi.LockFlags{WriteOnly: true, DonotWait: true}, 1},
		{"do not wait, unsubmitted", ddi.MapWrite, ddi.MapFlagDoNotWait, false, hresult.DXGI_DDI_ERR_WASSTILLDRAWING, ddi.LockFlags{WriteOnly: true, DonotWait: true}, 1},
		{"read after GPU read", ddi.MapRead, 0, false, nil, ddi.LockFlags{ReadOnly: true}, 0},
		{"no overwrite", ddi.MapWriteNoOverwrite, 0, false, nil, ddi.LockFlags{WriteOnly: true, IgnoreSync: true}, 0},
		{"discard", ddi.MapWriteDiscard, 0, false, nil, ddi.LockFlags{WriteOnly: true, Discard: true}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, d := immediateScene(t)
			d.Draw(hDev, 3, 0) // the GPU reads the vertex buffer
			if tc.submitted {
				d.Flush(hDev)
			}
			m, err := resourceMap(d, d, hDev, hVB, tc.t, tc.flags)
			if !errors.Is(err, tc.wantErr) && hresult.Of(err) != hresult.Of(tc.wantErr) {
				t.Fatalf("Map: %v, want %v", err, tc.wantErr)
			}
			if len(f.locks) != 1 || f.locks[0].Flags != tc.wantLock || f.locks[0].Allocation != d.Allocation(hVB) {
				t.Errorf("locks %+v, want one of the vertex buffer with %+v", f.locks, tc.wantLock)
			}
			if len(f.waits) != 0 {
				t.Errorf("pfnWaitForSynchronizationObjectCb %+v: a Map waits inside pfnLockCb", f.waits)
			}
			if len(f.renders) != tc.renders {
				t.Errorf("%d pfnRenderCb calls, want %d (a conflicting Map submits)", len(f.renders), tc.renders)
			}
			if tc.wantErr == nil {
				if len(m.Data) != 108 {
					t.Errorf("mapped %d bytes, want the buffer's 108", len(m.Data))
				}
				d.ResourceUnmap(hDev, hVB)
				if f.count("Unlock") != 1 {
					t.Errorf("Unmap: %d pfnUnlockCb calls, want 1", f.count("Unlock"))
				}
			}
		})
	}
}

// WRITE_DISCARD keeps the allocation: the video memory manager renames it
// under the lock's Discard flag; the driver allocates nothing and frees
// nothing ("Requesting to rename an allocation").
func TestMapWriteDiscardLocksWithDiscard(t *testing.T) {
	f, d := immediateScene(t)
	old := d.Allocation(hVB)
	allocs := f.count("Allocate")
	for range 10 {
		if _, err := resourceMap(d, d, hDev, hVB, ddi.MapWriteDiscard, 0); err != nil {
			t.Fatal(err)
		}
		d.ResourceUnmap(hDev, hVB)
		d.Draw(hDev, 3, 0)
	}
	if d.Allocation(hVB) != old || f.count("Allocate") != allocs || len(f.freed) != 0 {
		t.Fatalf("allocation %d -> %d, %d pfnAllocateCb, freed %v; want the same allocation, none allocated or freed", old, d.Allocation(hVB), f.count("Allocate")-allocs, f.freed)
	}
	for _, l := range f.locks {
		if !l.Flags.Discard {
			t.Errorf("lock %+v without Discard", l)
		}
	}
}

// DestroyResource defers the deallocation until a submission carries the
// resource's last use.
func TestDestroyIsDeferredPastTheLastUse(t *testing.T) {
	f, d := immediateScene(t)
	a := d.Allocation(hVB)
	d.Draw(hDev, 3, 0)
	d.DestroyResource(hDev, hVB)
	if slices.Contains(f.freed, a) || d.PendingDestroys() != 1 {
		t.Fatalf("freed %v, pending %d: want the destruction queued", f.freed, d.PendingDestroys())
	}
	d.Flush(hDev)
	i, j := slices.Index(f.calls, "Render fence=1"), slices.Index(f.calls, fmt.Sprint("Deallocate ", a))
	if i < 0 || j < i || d.PendingDestroys() != 0 {
		t.Fatalf("calls %v: want the deallocation after the submission", f.calls)
	}
}

func TestQueryEndRidesOnTheBuffer(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	const hq ddi.HQUERY = 60
	if err := createErr(d, func() { d.CreateQuery(hDev, ddi.QueryEvent, hq, 60) }); err != nil {
		t.Fatal(err)
	}
	getData := func() (uint64, error) {
		var v uint64
		err := createErr(d, func() { d.QueryGetData(hDev, hq, 0, &v) })
		return v, err
	}
	if _, err := getData(); hresult.Of(err) != hresult.E_INVALIDARG {
		t.Errorf("GetData before End: %v", err)
	}
	d.QueryEnd(hDev, hq)
	// QueryGetData is void: "not finished yet" is DXGI_DDI_ERR_WASSTILLDRAWING
	// through pfnSetErrorCb ("PFND3D10DDI_QUERYGETDATA").
	if _, err := getData(); hresult.Of(err) != hresult.DXGI_DDI_ERR_WASSTILLDRAWING || len(f.renders) != 1 {
		t.Fatalf("GetData while the GPU has not passed the End: %v after %d submissions; want DXGI_DDI_ERR_WASSTILLDRAWING after 1", err, len(f.renders))
	}
	f.completed = f.fence
	if v, err := getData(); err != nil || v != 1 {
		t.Errorf("GetData once passed: %d %v, want 1 and no error", v, err)
	}
}

// A deferred context records, never submits; its list executes on the
// immediate context with the addresses rebased onto the immediate list.
func TestCommandListExecute(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	dcDev := d.CreateDeferredContext(hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: dcCore}, hDC)
	if dcDev == nil {
		t.Fatal(f.errors[icCore])
	}
	scene(t, d, dcDev)
	dcDev.Draw(hDC, 3, 0)
	dcDev.Draw(hDC, 6, 0)
	if len(f.renders) != 0 {
		t.Fatal("a deferred context submitted")
	}
	if err := createErr(d, func() { d.CreateCommandList(hDev, &ddi.CreateCommandListArgs{DeferredContext: hDC}, hCL, 0) }); err != nil {
		t.Fatal(err)
	}
	// An immediate command first, naming the vertex buffer: in the list it
	// is entry 1, in the immediate buffer entry 0.
	d.ResourceUpdateSubresourceUP(hDev, hVB, 0, nil, []byte{1, 2, 3, 4}, 0, 0)
	d.IaSetVertexBuffers(hDev, 0, []ddi.HRESOURCE{0}, []uint32{0}, []uint32{0})
	d.CommandListExecute(hDev, hCL)
	d.Flush(hDev)
	if len(f.renders) != 1 {
		t.Fatalf("%d submissions, want 1", len(f.renders))
	}
	r := f.renders[0]
	pkts := decode(t, r.Commands)
	if countOp(pkts, isa.OpDraw) != 2 || countOp(pkts, isa.OpSetVB) != 2 {
		t.Fatalf("packets %v: want the list's two draws, each group with its state", ops(pkts))
	}
	for _, p := range pkts {
		switch p.Op {
		case isa.OpSetVB:
			if e := r.AllocationList[p.Args[1]]; e.Allocation != d.Allocation(hVB) {
				t.Errorf("SET_VB names list entry %d = %+v, want the vertex buffer's allocation", p.Args[1], e)
			}
		case isa.OpSetRT:
			if e := r.AllocationList[p.Args[0]]; e.Allocation != d.Allocation(hRT) || !e.WriteOperation {
				t.Errorf("SET_RT names list entry %d = %+v, want the render target's allocation, written", p.Args[0], e)
			}
		}
	}
	if d.CommandListState(hCL) != "valid" {
		t.Errorf("state %q after execution, want valid", d.CommandListState(hCL))
	}
}

// A deferred context reports an out-of-memory through its own
// pfnSetErrorCb, never by a return value, and stops recording.
func TestDeferredContextOutOfMemory(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	dcDev := d.CreateDeferredContext(hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: dcCore}, hDC)
	scene(t, d, dcDev)
	dcDev.(interface{ InjectFailure(string, int) }).InjectFailure("Draw", 1)
	dcDev.Draw(hDC, 3, 0)
	dcDev.Draw(hDC, 3, 0) // after the error: not recorded either
	if got := f.errors[dcCore]; len(got) != 1 || got[0] != hresult.E_OUTOFMEMORY || len(f.errors[icCore]) != 0 {
		t.Fatalf("pfnSetErrorCb calls %v, want one E_OUTOFMEMORY on the deferred context's core layer", f.errors)
	}
	if dc := d.dc(hDC); len(dc.cmd.Words) != 0 {
		t.Errorf("recorded %d words after the error", len(dc.cmd.Words))
	}
	dcDev.(interface{ InjectFailure(string, int) }).InjectFailure("CreateBlendState", 1)
	dcDev.CreateBlendState(hDC, nil, hBlend, uint32(hBlend)) // reports through pfnSetErrorCb
	if len(f.errors[dcCore]) != 2 {
		t.Errorf("pfnSetErrorCb calls %v, want a second one", f.errors[dcCore])
	}
	// Recycling makes it fresh.
	if err := d.RecycleCreateDeferredContext(hDev, hDC); err != nil {
		t.Fatal(err)
	}
	dcDev.VsSetShader(0, hVS) // the recycled context starts from the cleared state
	dcDev.Draw(hDC, 3, 0)
	if dc := d.dc(hDC); countOp(decode(t, dc.cmd.Words), isa.OpDraw) != 1 {
		t.Error("the recycled deferred context does not record")
	}
}

// Command-list handles go valid -> retired -> cached -> valid; the Recycle*
// create DDIs return E_OUTOFMEMORY themselves.
func TestRecycleCommandList(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	dcDev := d.CreateDeferredContext(hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: dcCore}, hDC)
	args := &ddi.CreateCommandListArgs{DeferredContext: hDC}
	if err := createErr(d, func() { d.CreateCommandList(hDev, args, hCL, 0) }); err != nil {
		t.Fatal(err)
	}
	step := func(what, want string) {
		t.Helper()
		if got := d.CommandListState(hCL); got != want {
			t.Fatalf("after %s: state %q, want %q", what, got, want)
		}
	}
	step("CreateCommandList", "valid")
	if err := d.RecycleCreateCommandList(hDev, args, hCL); hresult.Of(err) != hresult.E_INVALIDARG {
		t.Errorf("RecycleCreateCommandList of a valid handle: %v, want E_INVALIDARG", err)
	}
	d.RecycleDestroyCommandList(hDev, hCL)
	step("RecycleDestroyCommandList", "retired")
	dcDev.RecycleCommandList(hDC, hCL)
	step("RecycleCommandList", "cached")
	d.InjectFailure("RecycleCreateCommandList", 1)
	if err := d.RecycleCreateCommandList(hDev, args, hCL); err != hresult.E_OUTOFMEMORY {
		t.Errorf("injected RecycleCreateCommandList: %v, want E_OUTOFMEMORY", err)
	}
	step("a failed RecycleCreateCommandList", "cached")
	if err := d.RecycleCreateCommandList(hDev, args, hCL); err != nil {
		t.Fatal(err)
	}
	step("RecycleCreateCommandList", "valid")
	if len(f.errors) != 0 {
		t.Errorf("pfnSetErrorCb calls %v: the Recycle* DDIs return their errors", f.errors)
	}
	d.DestroyCommandList(hDev, hCL)
	step("DestroyCommandList", "")
	dcDev.DestroyDevice(hDC)
	if d.dc(hDC) != nil {
		t.Error("the destroyed deferred context is still the device's")
	}
}

// Immediate-context DDIs on a deferred context's table fail or do nothing.
func TestDeferredContextRejectsImmediateDDIs(t *testing.T) {
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	dcDev := d.CreateDeferredContext(hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: dcCore}, hDC)
	scene(t, d, dcDev)
	dcDev.Flush(hDC)
	if err := dcDev.PresentDXGI(hDC, &ddi.PresentArg{SurfaceToPresent: hRT, Flags: ddi.PresentFlags{Blt: true}}); err == nil {
		t.Error("PresentDXGI on a deferred context succeeded")
	}
	if _, err := resourceMap(d, dcDev, hDC, hVB, ddi.MapWrite, 0); err == nil {
		t.Error("Map(WRITE) on a deferred context succeeded")
	}
	if len(f.renders)+len(f.presents) != 0 {
		t.Errorf("a deferred context submitted: %v", f.calls)
	}
}

// Every state object is created (a copy of its description), bound, encoded
// in the D3D11-to-GPU translation and destroyed the same way; an injected
// failure returns E_OUTOFMEMORY and stores nothing.
func TestStateObjects(t *testing.T) {
	const h = 70
	for _, tc := range []struct {
		name    string
		create  func(d *Device) error
		bind    func(d *Device)
		destroy func(d *Device)
		op      isa.Opcode
		want    []uint32 // the packet's payload
	}{
		{"CreateBlendState",
			func(d *Device) error {
				return createErr(d, func() {
					d.CreateBlendState(hDev, &ddi.BlendDesc{RenderTarget: [8]ddi.RenderTargetBlendDesc{{BlendEnable: true, SrcBlend: ddi.BlendSrcAlpha, DestBlend: ddi.BlendInvSrcAlpha,
						BlendOp: ddi.BlendOpAdd, SrcBlendAlpha: ddi.BlendOne, DestBlendAlpha: ddi.BlendZero, BlendOpAlpha: ddi.BlendOpMax, RenderTargetWriteMask: 0x7}}}, h, h)
				})
			},
			func(d *Device) { d.SetBlendState(hDev, h, [4]float32{1, 1, 1, 1}, ^uint32(0)) },
			func(d *Device) { d.DestroyBlendState(hDev, h) },
			isa.OpSetBlend, []uint32{1, isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpMax, 0x7}},
		{"CreateRasterizerState",
			func(d *Device) error {
				return createErr(d, func() {
					d.CreateRasterizerState(hDev, &ddi.RasterizerDesc{CullMode: ddi.CullFront, FrontCounterClockwise: true}, h, h)
				})
			},
			func(d *Device) { d.SetRasterizerState(hDev, h) },
			func(d *Device) { d.DestroyRasterizerState(hDev, h) },
			isa.OpSetRaster, []uint32{isa.CullFront, 1, 0}},
		{"CreateSampler",
			func(d *Device) error {
				return createErr(d, func() {
					d.CreateSampler(hDev, &ddi.SamplerDesc{Filter: ddi.FilterMinMagMipPoint, AddressU: ddi.AddressMirror, AddressV: ddi.AddressWrap, BorderColor: [4]float32{1, 0, 0, 1}}, h, h)
				})
			},
			func(d *Device) { d.PsSetSamplers(hDev, 0, []ddi.HSAMPLER{h}) },
			func(d *Device) { d.DestroySampler(hDev, h) },
			isa.OpSetSampler, []uint32{0, isa.FilterPoint, isa.AddrMirror, isa.AddrWrap, 0xff0000ff}},
		{"CreateDepthStencilState",
			func(d *Device) error {
				return createErr(d, func() {
					d.CreateDepthStencilState(hDev, &ddi.DepthStencilDesc{DepthEnable: true, DepthFunc: ddi.ComparisonGreater}, h, h)
				})
			},
			func(d *Device) {
				// The state applies with a depth buffer bound.
				if err := createErr(d, func() {
					d.CreateResource(hDev, &ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: 16, Height: 16,
						Format: ddi.FormatD32Float, BindFlags: ddi.BindDepthStencil}, 12, 12)
				}); err != nil {
					t.Fatal(err)
				}
				if err := createErr(d, func() { d.CreateDepthStencilView(hDev, &ddi.CreateViewArgs{Kind: ddi.ViewDSV, Resource: 12}, 21, 21) }); err != nil {
					t.Fatal(err)
				}
				d.SetRenderTargets(hDev, []ddi.HRENDERTARGETVIEW{hRTV}, 21)
				d.SetDepthStencilState(hDev, h, 0)
			},
			func(d *Device) {
				d.DestroyDepthStencilState(hDev, h)
				d.DestroyDepthStencilView(hDev, 21)
				d.DestroyResource(hDev, 12)
			},
			isa.OpSetDepth, []uint32{1, 0, isa.CmpGreater}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, d := immediateScene(t)
			live := d.Live()
			d.InjectFailure(tc.name, 1)
			if err := tc.create(d); err != hresult.E_OUTOFMEMORY || d.Live() != live {
				t.Fatalf("injected failure: %v, Live %d -> %d; want E_OUTOFMEMORY and nothing stored", err, live, d.Live())
			}
			if err := tc.create(d); err != nil || d.Live() != live+1 {
				t.Fatalf("create: %v, Live %d -> %d", err, live, d.Live())
			}
			tc.bind(d)
			d.Draw(hDev, 3, 0)
			d.Flush(hDev)
			var got []uint32
			for _, p := range decode(t, f.renders[0].Commands) {
				if p.Op == tc.op {
					got = p.Args
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%v carries %v, want %v", tc.op, got, tc.want)
			}
			tc.destroy(d)
			// Free-threaded destroys are deferred to the immediate
			// context's thread ("Changes from Direct3D 10", rule
			// DD-ORDER): the state object lives until a Flush.
			if d.PendingDestroys() == 0 || d.Live() == live {
				t.Errorf("after the Destroy DDIs: %d pending, Live %d; want the destruction queued", d.PendingDestroys(), d.Live())
			}
			d.Flush(hDev)
			if d.Live() != live || d.PendingDestroys() != 0 {
				t.Errorf("Live %d, %d pending after Flush, want %d and none", d.Live(), d.PendingDestroys(), live)
			}
		})
	}
}
