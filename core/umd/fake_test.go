package umd

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// fakeRuntime is the runtime and Dxgkrnl as the UMD sees them: the callback
// table. It records every call, hands out allocations and fences, and plays
// a GPU that completes nothing until told (complete) or waited for.
type fakeRuntime struct {
	calls     []string // one line per callback, in order
	cmdBytes  int      // CommandBufferSize pfnCreateContextCb reports
	grant     int      // pfnRenderCb grants this command buffer size (0: what is asked)
	asked     []int    // the NewCommandBufferSize of each pfnRenderCb
	listSize  int
	nextAlloc ddi.HALLOCATION
	fence     uint64 // last fence handed out
	completed uint64 // the GPU's progress
	renders   []ddi.RenderCb
	presents  []ddi.PresentCb
	allocs    []ddi.AllocateCb
	freed     []ddi.HALLOCATION
	waits     []ddi.WaitForSynchronizationObjectCb
	locks     []ddi.LockCb
	errors    map[ddi.HRTCORELAYER][]hresult.HRESULT
	reasons   map[ddi.HRTCORELAYER][]error // the errors as reported, with their messages
	amortized map[ddi.HRTCORELAYER]int
	memory    map[ddi.HALLOCATION][]byte
}

var _ ddi.DeviceCallbacks = (*fakeRuntime)(nil)

func newFakeRuntime() *fakeRuntime {
	return &fakeRuntime{cmdBytes: 64 << 10, listSize: 256, nextAlloc: 100,
		errors: map[ddi.HRTCORELAYER][]hresult.HRESULT{}, reasons: map[ddi.HRTCORELAYER][]error{}, amortized: map[ddi.HRTCORELAYER]int{},
		memory: map[ddi.HALLOCATION][]byte{}}
}

func (f *fakeRuntime) log(format string, a ...any) {
	f.calls = append(f.calls, fmt.Sprintf(format, a...))
}

// count says how many recorded calls start with prefix.
func (f *fakeRuntime) count(prefix string) int {
	n := 0
	for _, c := range f.calls {
		if strings.HasPrefix(c, prefix) {
			n++
		}
	}
	return n
}

func (f *fakeRuntime) PfnCreateContextCb(_ ddi.HRTDEVICE, cb *ddi.CreateContextCb) error {
	f.log("CreateContext")
	cb.Context, cb.CommandBufferSize, cb.AllocationListSize = 7, f.cmdBytes, f.listSize
	return nil
}
func (f *fakeRuntime) PfnDestroyContextCb(ddi.HRTDEVICE, ddi.HCONTEXT) error {
	f.log("DestroyContext")
	return nil
}
func (f *fakeRuntime) PfnAllocateCb(_ ddi.HRTDEVICE, cb *ddi.AllocateCb) error {
	for i := range cb.Allocations {
		f.nextAlloc++
		cb.Allocations[i].Allocation = f.nextAlloc
		f.memory[f.nextAlloc] = make([]byte, cb.Allocations[i].Size)
		f.log("Allocate %d size=%d", f.nextAlloc, cb.Allocations[i].Size)
	}
	f.allocs = append(f.allocs, *cb)
	return nil
}
func (f *fakeRuntime) PfnDeallocateCb(_ ddi.HRTDEVICE, cb *ddi.DeallocateCb) error {
	for _, a := range cb.Allocations {
		f.log("Deallocate %d", a)
		f.freed = append(f.freed, a)
	}
	return nil
}

// submitted hands out the next fence to a submission.
func (f *fakeRuntime) submitted(kind string) uint64 {
	f.fence++
	f.log("%s fence=%d", kind, f.fence)
	return f.fence
}

// PfnRenderCb records the buffer and the size asked for the next one, and
// grants it, or the fixed size grant when that is set.
func (f *fakeRuntime) PfnRenderCb(_ ddi.HRTDEVICE, cb *ddi.RenderCb) error {
	f.submitted("Render")
	f.asked = append(f.asked, cb.NewCommandBufferSize)
	if f.grant != 0 {
		cb.NewCommandBufferSize = f.grant
	}
	f.renders = append(f.renders, *cb)
	return nil
}
func (f *fakeRuntime) PfnPresentCb(_ ddi.HRTDEVICE, cb *ddi.PresentCb) error {
	f.submitted("Present")
	f.presents = append(f.presents, *cb)
	return nil
}

// PfnLockCb records the lock's flags; under DonotWait it fails while a
// submitted buffer is not done, as the video memory manager would.
func (f *fakeRuntime) PfnLockCb(_ ddi.HRTDEVICE, cb *ddi.LockCb) error {
	f.log("Lock %d", cb.Allocation)
	f.locks = append(f.locks, *cb)
	if cb.Flags.DonotWait && f.completed < f.fence {
		return hresult.D3DDDIERR_WASSTILLDRAWING
	}
	cb.Data = f.memory[cb.Allocation]
	return nil
}
func (f *fakeRuntime) PfnUnlockCb(_ ddi.HRTDEVICE, a ddi.HALLOCATION) error {
	f.log("Unlock %d", a)
	return nil
}
func (f *fakeRuntime) PfnWaitForSynchronizationObjectCb(_ ddi.HRTDEVICE, cb *ddi.WaitForSynchronizationObjectCb) error {
	f.log("Wait %v=%d", cb.ObjectHandleArray, cb.FenceValue)
	f.waits = append(f.waits, *cb)
	return nil
}
func (f *fakeRuntime) PfnSignalSynchronizationObjectCb(_ ddi.HRTDEVICE, cb *ddi.SignalSynchronizationObjectCb) error {
	f.log("Signal %v=%d after fence %d", cb.ObjectHandleArray, cb.FenceValue, f.fence)
	cb.Fence = f.fence
	return nil
}
func (f *fakeRuntime) PfnWaitForSynchronizationObjectFromGpuCb(rt ddi.HRTDEVICE, cb *ddi.WaitForSynchronizationObjectCb) error {
	f.log("FromGpu:")
	return f.PfnWaitForSynchronizationObjectCb(rt, cb)
}
func (f *fakeRuntime) PfnSignalSynchronizationObjectFromGpuCb(rt ddi.HRTDEVICE, cb *ddi.SignalSynchronizationObjectCb) error {
	f.log("FromGpu:")
	return f.PfnSignalSynchronizationObjectCb(rt, cb)
}
func (f *fakeRuntime) CompletedFence(ddi.HRTDEVICE, ddi.HCONTEXT) uint64 { return f.completed }
func (f *fakeRuntime) PfnSetErrorCb(core ddi.HRTCORELAYER, err error) {
	f.log("SetError core=%d", core)
	f.errors[core] = append(f.errors[core], hresult.Of(err))
	f.reasons[core] = append(f.reasons[core], err)
}
func (f *fakeRuntime) PfnPerformAmortizedProcessingCb(core ddi.HRTCORELAYER) {
	f.log("Amortize core=%d", core)
	f.amortized[core]++
}
func (f *fakeRuntime) PfnStateIaIndexBufCb(ddi.HRTCORELAYER)                 {}
func (f *fakeRuntime) PfnStateIaInputLayoutCb(ddi.HRTCORELAYER)              {}
func (f *fakeRuntime) PfnStateIaPrimitiveTopologyCb(ddi.HRTCORELAYER)        {}
func (f *fakeRuntime) PfnStateVsShaderCb(ddi.HRTCORELAYER)                   {}
func (f *fakeRuntime) PfnStateVsConstBufCb(ddi.HRTCORELAYER, uint32, uint32) {}
func (f *fakeRuntime) PfnStatePsShaderCb(ddi.HRTCORELAYER)                   {}
func (f *fakeRuntime) PfnStatePsConstBufCb(ddi.HRTCORELAYER, uint32, uint32) {}
func (f *fakeRuntime) PfnStatePsSrvCb(ddi.HRTCORELAYER, uint32, uint32)      {}
func (f *fakeRuntime) PfnStatePsSamplerCb(ddi.HRTCORELAYER, uint32, uint32)  {}
func (f *fakeRuntime) PfnStateVsSrvCb(ddi.HRTCORELAYER, uint32, uint32)      {}
func (f *fakeRuntime) PfnStateVsSamplerCb(ddi.HRTCORELAYER, uint32, uint32)  {}
func (f *fakeRuntime) PfnStateOmRenderTargetsCb(ddi.HRTCORELAYER)            {}
func (f *fakeRuntime) PfnStateOmBlendStateCb(ddi.HRTCORELAYER)               {}
func (f *fakeRuntime) PfnStateOmDepthStateCb(ddi.HRTCORELAYER)               {}
func (f *fakeRuntime) PfnStateRsRastStateCb(ddi.HRTCORELAYER)                {}
func (f *fakeRuntime) PfnStateRsScissorCb(ddi.HRTCORELAYER)                  {}
func (f *fakeRuntime) PfnStateRsViewportsCb(ddi.HRTCORELAYER)                {}
func (f *fakeRuntime) PfnStateIaVertexBufCb(ddi.HRTCORELAYER, uint32, uint32) {
	f.log("StateIaVertexBuf")
}
func (f *fakeRuntime) PfnSetDisplayModeCb(ddi.HRTDEVICE, ddi.HALLOCATION) error {
	f.log("SetDisplayMode")
	return nil
}
func (f *fakeRuntime) PfnEscapeCb(ddi.HRTDEVICE, *ddi.EscapeCb) error {
	f.log("Escape")
	return nil
}

// Handles the tests use; the runtime allocates them, any distinct values do.
const (
	hDev   ddi.HDEVICE           = 1
	hDC    ddi.HDEVICE           = 2
	dcCore ddi.HRTCORELAYER      = 3
	icCore ddi.HRTCORELAYER      = 4
	hRT    ddi.HRESOURCE         = 10
	hVB    ddi.HRESOURCE         = 11
	hRTV   ddi.HRENDERTARGETVIEW = 20
	hVS    ddi.HSHADER           = 30
	hPS    ddi.HSHADER           = 31
	hBlend ddi.HBLENDSTATE       = 40
	hCL    ddi.HCOMMANDLIST      = 50
)

// newDevice creates a driver device over a fake runtime.
func newDevice(t testing.TB, f *fakeRuntime, cfg Config) *Device {
	t.Helper()
	dev, err := NewAdapter(cfg).CreateDevice(hDev, &ddi.CreateDeviceArgs{HRTDevice: 1, HRTCoreLayer: icCore, Callbacks: f})
	if err != nil {
		t.Fatalf("CreateDevice: %v", err)
	}
	if s, ok := dev.(*serialised); ok {
		return s.Device
	}
	return dev.(*Device)
}

// scene creates a 16x16 render target with a view, a vertex buffer and the
// two shaders, and binds them on ctx (the immediate context's handles are
// also the deferred context's, opened with the same values).
func scene(t testing.TB, d *Device, ctx ddi.Device) {
	t.Helper()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(createErr(d, func() {
		d.CreateResource(hDev, &ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: 16, Height: 16,
			Format: ddi.FormatR8G8B8A8Unorm, BindFlags: ddi.BindRenderTarget, Obj: "rt"}, hRT, 1)
	}))
	must(createErr(d, func() {
		d.CreateResource(hDev, &ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: 108, Height: 1,
			Usage: ddi.UsageDynamic, BindFlags: ddi.BindVertexBuffer, Obj: "vb"}, hVB, 2)
	}))
	must(createErr(d, func() {
		d.CreateRenderTargetView(hDev, &ddi.CreateViewArgs{Kind: ddi.ViewRTV, Resource: hRT}, hRTV, uint32(hRTV))
	}))
	must(createErr(d, func() {
		d.CreateVertexShader(hDev, &ddi.ShaderArgs{Bytecode: builtinCode(t, "vs_passthrough"), Obj: "vs"}, hVS, uint32(hVS))
	}))
	must(createErr(d, func() {
		d.CreatePixelShader(hDev, &ddi.ShaderArgs{Bytecode: builtinCode(t, "ps_vertexcolor"), Obj: "ps"}, hPS, uint32(hPS))
	}))
	if ctx != ddi.Device(d) {
		h := ddi.HDEVICE(0)
		must(createErr(d, func() { ctx.CreateResource(h, nil, hRT, ddi.HRTRESOURCE(hRT)) }))
		must(createErr(d, func() { ctx.CreateResource(h, nil, hVB, ddi.HRTRESOURCE(hVB)) }))
		must(createErr(d, func() { ctx.CreateRenderTargetView(h, &ddi.CreateViewArgs{Kind: ddi.ViewRTV}, hRTV, uint32(hRTV)) }))
		must(createErr(d, func() { ctx.CreateVertexShader(h, nil, hVS, uint32(hVS)) }))
		must(createErr(d, func() { ctx.CreatePixelShader(h, nil, hPS, uint32(hPS)) }))
	}
	ctx.SetRenderTargets(0, []ddi.HRENDERTARGETVIEW{hRTV}, 0)
	ctx.IaSetVertexBuffers(0, 0, []ddi.HRESOURCE{hVB}, []uint32{36}, []uint32{0})
	ctx.IaSetTopology(0, ddi.TopologyTriangleList)
	ctx.VsSetShader(0, hVS)
	ctx.PsSetShader(0, hPS)
}

// immediateScene is a device over a fake runtime with scene bound on its
// immediate context.
func immediateScene(t *testing.T) (*fakeRuntime, *Device) {
	t.Helper()
	f := newFakeRuntime()
	d := newDevice(t, f, Config{})
	scene(t, d, d)
	return f, d
}

// decode splits a submitted command buffer into packets.
func decode(t *testing.T, words []uint32) []isa.Packet {
	t.Helper()
	pkts, err := isa.Decode(words)
	if err != nil {
		t.Fatalf("the UMD's command buffer does not decode: %v", err)
	}
	return pkts
}

func ops(pkts []isa.Packet) []isa.Opcode {
	out := make([]isa.Opcode, len(pkts))
	for i, p := range pkts {
		out[i] = p.Op
	}
	return out
}

func countOp(pkts []isa.Packet, op isa.Opcode) int {
	n := 0
	for _, p := range pkts {
		if p.Op == op {
			n++
		}
	}
	return n
}

// resourceMap runs ResourceMap on table dev (of device d) and returns what it
// mapped and the error it reported through pfnSetErrorCb (the DDI is void).
func resourceMap(d *Device, dev ddi.Device, h ddi.HDEVICE, r ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag) (ddi.MappedSubresource, error) {
	var m ddi.MappedSubresource
	err := createErr(d, func() { dev.ResourceMap(h, r, t, flags, &m) })
	return m, err
}

// createErr runs a create DDI and returns the error it reported through
// pfnSetErrorCb (create DDIs return none), on any context's core layer.
func createErr(d *Device, do func()) error {
	f := d.cb.(*fakeRuntime)
	seen := map[ddi.HRTCORELAYER]int{}
	for k, v := range f.errors {
		seen[k] = len(v)
	}
	do()
	for _, core := range []ddi.HRTCORELAYER{icCore, dcCore} {
		if errs := f.errors[core]; len(errs) > seen[core] {
			return errs[len(errs)-1]
		}
	}
	return nil
}
