package d3d11

import (
	"strings"
	"sync"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// A fake UMD and a fake Dxgkrnl under the runtime: the UMD records every DDI
// it receives (and whether the runtime's DDI lock was held then); the
// kernel answers without a GPU.

// fakeCall is one DDI the fake UMD received.
type fakeCall struct {
	ctx  string // IC or DC
	name string
	held bool // the device's DDI lock was held
}

// fakeLog is shared by a device's tables.
type fakeLog struct {
	mu    sync.Mutex
	calls []fakeCall
	dev   *Device          // the runtime device, to see its DDI lock
	fail  map[string]error // a DDI name -> the error it returns
}

func (l *fakeLog) names(ctx string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, c := range l.calls {
		if ctx == "" || c.ctx == ctx {
			out = append(out, c.name)
		}
	}
	return out
}

func (l *fakeLog) reset() {
	l.mu.Lock()
	l.calls = nil
	l.mu.Unlock()
}

type fakeUMD struct {
	rec  *fakeLog
	ctx  string
	core ddi.HRTCORELAYER // for pfnSetErrorCb
}

// create logs a create DDI; a failure goes through pfnSetErrorCb, as create
// DDIs report errors.
func (u *fakeUMD) create(name string) {
	if err := u.log(name); err != nil {
		(*callbacks)(u.rec.dev).PfnSetErrorCb(u.core, hresult.Of(err))
	}
}

func (u *fakeUMD) log(name string) error {
	l := u.rec
	held := l.dev != nil && l.dev.ddiHeld.Load() > 0
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, fakeCall{ctx: u.ctx, name: name, held: held})
	return l.fail[name]
}

// fakeAdapter opens fake devices.
type fakeAdapter struct{ log *fakeLog }

func (a *fakeAdapter) CalcPrivateDeviceSize() int { return 64 }

func (a *fakeAdapter) CreateDevice(h ddi.HDEVICE, args *ddi.CreateDeviceArgs) (ddi.Device, error) {
	a.log.dev = (*Device)(args.Callbacks.(*callbacks))
	u := &fakeUMD{rec: a.log, ctx: "IC", core: args.HRTCoreLayer}
	return u, u.log("CreateDevice")
}

var (
	_ ddi.Device  = (*fakeUMD)(nil)
	_ ddi.Escaper = (*fakeUMD)(nil)
)

func (u *fakeUMD) Draw(h ddi.HDEVICE, count, start uint32) { u.log("Draw") }

func (u *fakeUMD) CalcPrivateViewSize(*ddi.CreateViewArgs) int {
	u.log("CalcPrivateViewSize")
	return 64
}

func (u *fakeUMD) CalcPrivateCommandListSize(ddi.HDEVICE, *ddi.CreateCommandListArgs) int {
	u.log("CalcPrivateCommandListSize")
	return 64
}

func (u *fakeUMD) CalcDeferredContextHandleSize(ddi.HDEVICE, ddi.HandleType, uint32) int {
	u.log("CalcDeferredContextHandleSize")
	return 16
}

func (u *fakeUMD) CheckDeferredContextHandleSizes(h ddi.HDEVICE, sizes []ddi.HandleSize) int {
	u.log("CheckDeferredContextHandleSizes")
	for i := range sizes {
		sizes[i] = ddi.HandleSize{Type: ddi.HandleType(i), Size: 16}
	}
	return 2
}

func (u *fakeUMD) Escape(h ddi.HDEVICE, code uint32) (uint64, error) { return 7, u.log("Escape") }

// fakeKernel is Dxgkrnl without a GPU: every call succeeds.
type fakeKernel struct {
	mu      sync.Mutex
	devices int
	removed bool
}

var _ Kernel = (*fakeKernel)(nil)

func (k *fakeKernel) CreateDevice(string) (dxgk.HDevice, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.devices++
	return dxgk.HDevice(k.devices), nil
}
func (k *fakeKernel) DestroyDevice(dxgk.HDevice) error { return nil }
func (k *fakeKernel) Removed(dxgk.HDevice) bool        { return k.removed }
func (k *fakeKernel) CreateContext(dxgk.HDevice) (dxgk.ContextInfo, error) {
	return dxgk.ContextInfo{Context: 1, CommandBufferSize: 4096}, nil
}
func (k *fakeKernel) DestroyContext(dxgk.HContext) error { return nil }
func (k *fakeKernel) CreateAllocation(dxgk.HDevice, dxgk.AllocationDesc) (dxgk.HAllocation, error) {
	return 1, nil
}
func (k *fakeKernel) DestroyAllocation(dxgk.HDevice, dxgk.HAllocation) error { return nil }
func (k *fakeKernel) Lock(dxgk.HDevice, dxgk.HAllocation) ([]byte, error) {
	return make([]byte, 256), nil
}
func (k *fakeKernel) Unlock(dxgk.HDevice, dxgk.HAllocation) error { return nil }
func (k *fakeKernel) RenderNext(_ dxgk.HContext, _ []uint32, _ []dxgk.AllocationListEntry, next dxgk.ContextInfo) (uint64, dxgk.ContextInfo, error) {
	return 1, next, nil
}
func (k *fakeKernel) Present(dxgk.PresentInfo) (uint64, error)                     { return 1, nil }
func (k *fakeKernel) WaitForFenceFor(dxgk.HContext, uint64, dxgk.WaitReason) error { return nil }
func (k *fakeKernel) CompletedFence(dxgk.HContext) uint64                          { return 0 }
func (k *fakeKernel) SubmittedFence(dxgk.HContext) uint64                          { return 0 }

// fakeStack is a runtime over the fakes.
type fakeStack struct {
	rt  *Runtime
	rec *trace.Recorder
	log *fakeLog
	dev *Device
	ic  *DeviceContext
}

// fakeOpts are the driver caps and bug switches of a fake stack.
type fakeOpts struct {
	commandLists, recycle bool
	notFreeThreaded       bool
	bugs                  rules.Set
	debug                 bool
	maxAllocBytes         uint64 // Config.MaxAllocBytes
	maxRuntimeBytes       uint64 // Config.MaxRuntimeObjectBytes
}

func newFakeStack(o fakeOpts) (*fakeStack, error) {
	s := sim.New(1)
	rec := trace.NewRecorder(s.Now, s.Thread)
	log := &fakeLog{fail: map[string]error{}}
	rt := New(Config{Sim: s, Rec: rec, Kernel: &fakeKernel{}, Adapter: &fakeAdapter{log: log}, Bugs: o.bugs,
		CommandLists: o.commandLists, Recycle: o.recycle, FreeThreaded: !o.notFreeThreaded,
		MaxAllocBytes: o.maxAllocBytes, MaxRuntimeObjectBytes: o.maxRuntimeBytes})
	var flags CreateDeviceFlag
	if o.debug {
		flags |= CreateDeviceDebug
	}
	dev, ic, err := rt.D3D11CreateDevice("dev", flags)
	if err != nil {
		return nil, err
	}
	return &fakeStack{rt: rt, rec: rec, log: log, dev: dev, ic: ic}, nil
}

// ddiEvents lists the DDI Call events traced since seq after, as
// "ctx Name handle args" (empty parts left out).
func (f *fakeStack) ddiEvents(after uint64) []string {
	var out []string
	f.rec.ViewSince(after, func(held []trace.Event) {
		for _, e := range held {
			if e.Kind != trace.Call || e.Layer != trace.UMD || e.From != trace.Runtime {
				continue
			}
			parts := []string{e.Ctx, e.Name}
			for _, p := range []string{e.Handle, e.Args.String()} {
				if p != "" {
					parts = append(parts, p)
				}
			}
			out = append(out, strings.Join(parts, " "))
		}
	})
	return out
}

// seq is the sequence number of the last event so far.
func (f *fakeStack) seq() uint64 {
	var s uint64
	f.rec.View(func(held []trace.Event) {
		if len(held) > 0 {
			s = held[len(held)-1].Seq
		}
	})
	return s
}

func (u *fakeUMD) CalcPrivateResourceSize(a0 *ddi.CreateResourceArgs) int {
	u.log("CalcPrivateResourceSize")
	return 64
}

func (u *fakeUMD) CreateResource(a0 ddi.HDEVICE, a1 *ddi.CreateResourceArgs, a2 ddi.HRESOURCE, a3 ddi.HRTRESOURCE) {
	u.create("CreateResource")
}

func (u *fakeUMD) DestroyResource(a0 ddi.HDEVICE, a1 ddi.HRESOURCE) {
	u.log("DestroyResource")
}

func (u *fakeUMD) CreateRenderTargetView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HRENDERTARGETVIEW, rt uint32) {
	u.create("CreateRenderTargetView")
}

func (u *fakeUMD) DestroyRenderTargetView(a0 ddi.HDEVICE, a1 ddi.HRENDERTARGETVIEW) {
	u.log("DestroyRenderTargetView")
}

func (u *fakeUMD) CreateShaderResourceView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HSHADERRESOURCEVIEW, rt uint32) {
	u.create("CreateShaderResourceView")
}

func (u *fakeUMD) DestroyShaderResourceView(a0 ddi.HDEVICE, a1 ddi.HSHADERRESOURCEVIEW) {
	u.log("DestroyShaderResourceView")
}

func (u *fakeUMD) CreateDepthStencilView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HDEPTHSTENCILVIEW, rt uint32) {
	u.create("CreateDepthStencilView")
}

func (u *fakeUMD) DestroyDepthStencilView(a0 ddi.HDEVICE, a1 ddi.HDEPTHSTENCILVIEW) {
	u.log("DestroyDepthStencilView")
}

func (u *fakeUMD) CalcPrivateShaderSize(a0 *ddi.ShaderArgs) int {
	u.log("CalcPrivateShaderSize")
	return 64
}

func (u *fakeUMD) CreateVertexShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) {
	u.create("CreateVertexShader")
}

func (u *fakeUMD) CreatePixelShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) {
	u.create("CreatePixelShader")
}

func (u *fakeUMD) DestroyShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	u.log("DestroyShader")
}

func (u *fakeUMD) CalcPrivateBlendStateSize(a0 *ddi.BlendDesc) int {
	u.log("CalcPrivateBlendStateSize")
	return 64
}

func (u *fakeUMD) CreateBlendState(h ddi.HDEVICE, d *ddi.BlendDesc, s ddi.HBLENDSTATE, rt uint32) {
	u.create("CreateBlendState")
}

func (u *fakeUMD) DestroyBlendState(a0 ddi.HDEVICE, a1 ddi.HBLENDSTATE) {
	u.log("DestroyBlendState")
}

func (u *fakeUMD) CalcPrivateRasterizerStateSize(a0 *ddi.RasterizerDesc) int {
	u.log("CalcPrivateRasterizerStateSize")
	return 64
}

func (u *fakeUMD) CreateRasterizerState(h ddi.HDEVICE, d *ddi.RasterizerDesc, s ddi.HRASTERIZERSTATE, rt uint32) {
	u.create("CreateRasterizerState")
}

func (u *fakeUMD) DestroyRasterizerState(a0 ddi.HDEVICE, a1 ddi.HRASTERIZERSTATE) {
	u.log("DestroyRasterizerState")
}

func (u *fakeUMD) CalcPrivateDepthStencilStateSize(a0 *ddi.DepthStencilDesc) int {
	u.log("CalcPrivateDepthStencilStateSize")
	return 64
}

func (u *fakeUMD) CreateDepthStencilState(h ddi.HDEVICE, d *ddi.DepthStencilDesc, s ddi.HDEPTHSTENCILSTATE, rt uint32) {
	u.create("CreateDepthStencilState")
}

func (u *fakeUMD) DestroyDepthStencilState(a0 ddi.HDEVICE, a1 ddi.HDEPTHSTENCILSTATE) {
	u.log("DestroyDepthStencilState")
}

func (u *fakeUMD) CalcPrivateSamplerSize(a0 *ddi.SamplerDesc) int {
	u.log("CalcPrivateSamplerSize")
	return 64
}

func (u *fakeUMD) CreateSampler(h ddi.HDEVICE, d *ddi.SamplerDesc, s ddi.HSAMPLER, rt uint32) {
	u.create("CreateSampler")
}

func (u *fakeUMD) DestroySampler(a0 ddi.HDEVICE, a1 ddi.HSAMPLER) {
	u.log("DestroySampler")
}

func (u *fakeUMD) CheckFormatSupport(_ ddi.HDEVICE, f ddi.Format) ddi.FormatSupport {
	u.log("CheckFormatSupport")
	return ddi.Required(f)
}

func (u *fakeUMD) CalcPrivateQuerySize(a0 ddi.QueryType) int {
	u.log("CalcPrivateQuerySize")
	return 64
}

func (u *fakeUMD) CreateQuery(h ddi.HDEVICE, t ddi.QueryType, q ddi.HQUERY, rt uint32) {
	u.create("CreateQuery")
}

func (u *fakeUMD) DestroyQuery(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	u.log("DestroyQuery")
}

func (u *fakeUMD) IaSetVertexBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides []uint32, offsets []uint32) {
	u.log("IaSetVertexBuffers")
}

func (u *fakeUMD) IaSetIndexBuffer(h ddi.HDEVICE, buf ddi.HRESOURCE, f ddi.Format, offset uint32) {
	u.log("IaSetIndexBuffer")
}

func (u *fakeUMD) IaSetTopology(a0 ddi.HDEVICE, a1 ddi.Topology) {
	u.log("IaSetTopology")
}

func (u *fakeUMD) VsSetShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	u.log("VsSetShader")
}

func (u *fakeUMD) VsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	u.log("VsSetConstantBuffers")
}

func (u *fakeUMD) PsSetShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	u.log("PsSetShader")
}

func (u *fakeUMD) PsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	u.log("PsSetConstantBuffers")
}

func (u *fakeUMD) PsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	u.log("PsSetShaderResources")
}

func (u *fakeUMD) PsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	u.log("PsSetSamplers")
}

func (u *fakeUMD) SetRenderTargets(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	u.log("SetRenderTargets")
}

func (u *fakeUMD) SetBlendState(h ddi.HDEVICE, s ddi.HBLENDSTATE, factor [4]float32, sampleMask uint32) {
	u.log("SetBlendState")
}

func (u *fakeUMD) SetRasterizerState(a0 ddi.HDEVICE, a1 ddi.HRASTERIZERSTATE) {
	u.log("SetRasterizerState")
}

func (u *fakeUMD) SetDepthStencilState(h ddi.HDEVICE, s ddi.HDEPTHSTENCILSTATE, stencilRef uint32) {
	u.log("SetDepthStencilState")
}

func (u *fakeUMD) SetViewports(h ddi.HDEVICE, vps []ddi.Viewport) {
	u.log("SetViewports")
}

func (u *fakeUMD) SetScissorRects(h ddi.HDEVICE, rects []ddi.Rect) {
	u.log("SetScissorRects")
}

func (u *fakeUMD) ClearRenderTargetView(h ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	u.log("ClearRenderTargetView")
}

func (u *fakeUMD) ClearDepthStencilView(h ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, stencil uint8) {
	u.log("ClearDepthStencilView")
}

func (u *fakeUMD) DrawIndexed(h ddi.HDEVICE, count uint32, start uint32, base int32) {
	u.log("DrawIndexed")
}

func (u *fakeUMD) ResourceCopy(h ddi.HDEVICE, dst ddi.HRESOURCE, src ddi.HRESOURCE) {
	u.log("ResourceCopy")
}

func (u *fakeUMD) GenerateMips(ddi.HDEVICE, ddi.HSHADERRESOURCEVIEW) { u.log("GenerateMips") }

func (u *fakeUMD) ResourceUpdateSubresourceUP(h ddi.HDEVICE, dst ddi.HRESOURCE, _ uint32, _ *ddi.Box, data []byte, _, _ uint32) {
	u.log("ResourceUpdateSubresourceUP")
}

func (u *fakeUMD) ResourceMap(h ddi.HDEVICE, r ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag, out *ddi.MappedSubresource) {
	if err := u.log("ResourceMap"); err != nil {
		(*callbacks)(u.rec.dev).PfnSetErrorCb(u.core, hresult.Of(err))
		return
	}
	*out = ddi.MappedSubresource{Data: make([]byte, 256)}
}

func (u *fakeUMD) ResourceUnmap(a0 ddi.HDEVICE, a1 ddi.HRESOURCE) {
	u.log("ResourceUnmap")
}

func (u *fakeUMD) QueryBegin(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	u.log("QueryBegin")
}

func (u *fakeUMD) QueryEnd(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	u.log("QueryEnd")
}

func (u *fakeUMD) QueryGetData(h ddi.HDEVICE, q ddi.HQUERY, flags uint32, data *uint64) {
	u.log("QueryGetData")
	*data = 1
}

func (u *fakeUMD) Flush(a0 ddi.HDEVICE) {
	u.log("Flush")
}

func (u *fakeUMD) PresentDXGI(h ddi.HDEVICE, a *ddi.PresentArg) error {
	return u.log("PresentDXGI")
}

func (u *fakeUMD) RotateResourceIdentitiesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE) {
	u.log("RotateResourceIdentitiesDXGI")
}

func (u *fakeUMD) SetDisplayModeDXGI(h ddi.HDEVICE, primary ddi.HRESOURCE) error {
	return u.log("SetDisplayModeDXGI")
}

func (u *fakeUMD) DestroyDevice(a0 ddi.HDEVICE) {
	u.log("DestroyDevice")
}

func (u *fakeUMD) CalcPrivateDeferredContextSize(h ddi.HDEVICE) int {
	u.log("CalcPrivateDeferredContextSize")
	return 64
}

func (u *fakeUMD) CreateDeferredContext(h ddi.HDEVICE, args *ddi.CreateDeferredContextArgs, dc ddi.HDEVICE) ddi.Device {
	if err := u.log("CreateDeferredContext"); err != nil {
		(*callbacks)(u.rec.dev).PfnSetErrorCb(u.core, hresult.Of(err))
		return nil
	}
	return &fakeUMD{rec: u.rec, ctx: "DC", core: args.HRTCoreLayer}
}

func (u *fakeUMD) RecycleCreateDeferredContext(h ddi.HDEVICE, dc ddi.HDEVICE) error {
	return u.log("RecycleCreateDeferredContext")
}

func (u *fakeUMD) AbandonCommandList(dc ddi.HDEVICE) {
	u.log("AbandonCommandList")
}

func (u *fakeUMD) CreateCommandList(h ddi.HDEVICE, args *ddi.CreateCommandListArgs, cl, rt ddi.HCOMMANDLIST) {
	u.create("CreateCommandList")
}

func (u *fakeUMD) RecycleCreateCommandList(h ddi.HDEVICE, args *ddi.CreateCommandListArgs, cl ddi.HCOMMANDLIST) error {
	return u.log("RecycleCreateCommandList")
}

func (u *fakeUMD) DestroyCommandList(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	u.log("DestroyCommandList")
}

func (u *fakeUMD) RecycleDestroyCommandList(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	u.log("RecycleDestroyCommandList")
}

func (u *fakeUMD) RecycleCommandList(dc ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	u.log("RecycleCommandList")
}

func (u *fakeUMD) CommandListExecute(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	u.log("CommandListExecute")
}

func (u *fakeUMD) CalcPrivateElementLayoutSize(*ddi.CreateElementLayoutArgs) int {
	u.log("CalcPrivateElementLayoutSize")
	return 64
}

func (u *fakeUMD) CreateElementLayout(ddi.HDEVICE, *ddi.CreateElementLayoutArgs, ddi.HELEMENTLAYOUT, uint32) {
	u.create("CreateElementLayout")
}

func (u *fakeUMD) DestroyElementLayout(ddi.HDEVICE, ddi.HELEMENTLAYOUT) {
	u.log("DestroyElementLayout")
}
func (u *fakeUMD) IaSetInputLayout(ddi.HDEVICE, ddi.HELEMENTLAYOUT) { u.log("IaSetInputLayout") }
func (u *fakeUMD) DrawInstanced(ddi.HDEVICE, uint32, uint32, uint32, uint32) {
	u.log("DrawInstanced")
}
func (u *fakeUMD) DrawIndexedInstanced(ddi.HDEVICE, uint32, uint32, uint32, int32, uint32) {
	u.log("DrawIndexedInstanced")
}

func (u *fakeUMD) VsSetShaderResources(ddi.HDEVICE, uint32, []ddi.HSHADERRESOURCEVIEW) {
	u.log("VsSetShaderResources")
}

func (u *fakeUMD) VsSetSamplers(ddi.HDEVICE, uint32, []ddi.HSAMPLER) { u.log("VsSetSamplers") }

func (u *fakeUMD) DrawInstancedIndirect(ddi.HDEVICE, ddi.HRESOURCE, uint32) {
	u.log("DrawInstancedIndirect")
}

func (u *fakeUMD) DrawIndexedInstancedIndirect(ddi.HDEVICE, ddi.HRESOURCE, uint32) {
	u.log("DrawIndexedInstancedIndirect")
}
