package umd

import (
	"d3dsim/core/rules"
	"fmt"
	"sync"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
)

// Config tunes the driver. Bugs turns on deliberate rule violations (option
// bug=RULE-ID) so the verifier can be seen catching them.
type Config struct {
	Bugs rules.Set
	// NewLock makes the lock on the device's HCONTEXT that its
	// immediate-context DDIs hold (hcontext.go, rule FT-HCTX): one that
	// simulated threads can wait on, and that the holding thread may take
	// again (the runtime re-enters the driver from its callbacks). Nil:
	// no other thread to keep out (a driver tested on one thread); the
	// driver hands over its bare table.
	NewLock func(ddi.HCONTEXT) sync.Locker
	// MonitoredFences: the driver is a WDDM 2.0 one for fences: Signal and
	// Wait use pfnSignalSynchronizationObjectFromGpuCb and
	// pfnWaitForSynchronizationObjectFromGpuCb ("Context Monitoring").
	MonitoredFences bool
	// Residency: the driver runs WDDM 2.0's residency model: it makes the
	// allocations of every buffer resident before submitting it
	// (pfnMakeResidentCb), evicting within the process budget
	// (pfnEvictCb; residency.go).
	Residency bool
}

// Adapter is the UMD's adapter object (what OpenAdapter10_2 returns).
type Adapter struct {
	cfg Config
}

var _ ddi.Adapter = (*Adapter)(nil)

// NewAdapter returns the driver's adapter.
func NewAdapter(cfg Config) *Adapter { return &Adapter{cfg: cfg} }

// Private object sizes, as CalcPrivate*Size reports them.
const (
	sizeDevice   = 4096
	sizeResource = 256
	sizeView     = 64
	sizeShader   = 128
	sizeState    = 64
	sizeQuery    = 96
)

func (a *Adapter) CalcPrivateDeviceSize() int { return sizeDevice }

// CreateDevice sets up the driver device. WDDM operation flow, step 3: it must call
// pfnCreateContextCb for a GPU context, which returns the command buffer and
// list sizes.
func (a *Adapter) CreateDevice(h ddi.HDEVICE, args *ddi.CreateDeviceArgs) (ddi.Device, error) {
	d := &Device{
		res:      map[ddi.HRESOURCE]*resource{},
		views:    map[uint32]*view{},
		shaders:  map[ddi.HSHADER]*shader{},
		layouts:  map[ddi.HELEMENTLAYOUT]*elementLayout{},
		blends:   map[ddi.HBLENDSTATE]*ddi.BlendDesc{},
		rasts:    map[ddi.HRASTERIZERSTATE]*ddi.RasterizerDesc{},
		dss:      map[ddi.HDEPTHSTENCILSTATE]*ddi.DepthStencilDesc{},
		samplers: map[ddi.HSAMPLER]*ddi.SamplerDesc{},
		queries:  map[ddi.HQUERY]*query{},
		dcs:      map[ddi.HDEVICE]*deferredContext{},
		cls:      map[ddi.HCOMMANDLIST]*commandList{},
	}
	d.context = newContext(d, h, args.HRTDevice, args.HRTCoreLayer, args.Callbacks, a.cfg)
	var cc ddi.CreateContextCb
	if err := d.cb.PfnCreateContextCb(d.rt, &cc); err != nil {
		return nil, err
	}
	d.ctx = cc.Context
	d.cmdCap = cc.CommandBufferSize / 4
	d.listCap = cc.AllocationListSize
	if d.cmdCap < 512 {
		d.cmdCap = 512
	}
	if d.listCap < 16 {
		d.listCap = 16
	}
	d.patchCap = cc.PatchLocationListSize
	d.maxCap = 4 * d.cmdCap
	d.table = args.Table
	var table ddi.Device = d
	d.drawEntry = d.Draw
	if a.cfg.NewLock != nil && !a.cfg.Bugs.Has(rules.FTHCtx) { // the bug: no lock, threads overlap in the HCONTEXT's callbacks
		s := &serialised{Device: d, lock: a.cfg.NewLock(d.ctx)}
		table, d.drawEntry = s, s.Draw
	}
	d.fillTable()
	return table, nil
}

// tableEntries are the entries of D3D11DDI_DEVICEFUNCS the simulated driver
// implements, in the table's order.
var tableEntries = []string{
	"pfnDefaultConstantBufferUpdateSubresourceUP", "pfnVsSetConstantBuffers", "pfnPsSetShaderResources", "pfnPsSetShader",
	"pfnPsSetSamplers", "pfnVsSetShader", "pfnDrawIndexed", "pfnDraw", "pfnIaSetVertexBuffers", "pfnIaSetIndexBuffer",
	"pfnIaSetTopology", "pfnSetBlendState", "pfnSetDepthStencilState", "pfnSetRasterizerState", "pfnQueryBegin",
	"pfnQueryEnd", "pfnQueryGetData", "pfnSetPredication", "pfnSetRenderTargets", "pfnSetViewports", "pfnSetScissorRects", "pfnFlush", "pfnResourceMap",
	"pfnResourceUnmap", "pfnResourceCopy", "pfnResourceUpdateSubresourceUP", "pfnClearRenderTargetView",
	"pfnClearDepthStencilView", "pfnCommandListExecute", "pfnIaSetInputLayout", "pfnDrawInstanced", "pfnDrawIndexedInstanced",
	"pfnDrawInstancedIndirect", "pfnDrawIndexedInstancedIndirect", "pfnVsSetShaderResources", "pfnVsSetSamplers",
	"pfnCalcPrivateResourceSize", "pfnCreateResource", "pfnOpenResource", "pfnDestroyResource",
	"pfnCalcPrivateShaderResourceViewSize", "pfnCreateShaderResourceView", "pfnDestroyShaderResourceView",
	"pfnCalcPrivateRenderTargetViewSize", "pfnCreateRenderTargetView", "pfnDestroyRenderTargetView",
	"pfnCalcPrivateDepthStencilViewSize", "pfnCreateDepthStencilView", "pfnDestroyDepthStencilView",
	"pfnCalcPrivateShaderSize", "pfnCreateVertexShader", "pfnCreatePixelShader", "pfnDestroyShader",
	"pfnCalcPrivateElementLayoutSize", "pfnCreateElementLayout", "pfnDestroyElementLayout",
	"pfnCalcPrivateBlendStateSize", "pfnCreateBlendState", "pfnDestroyBlendState",
	"pfnCalcPrivateDepthStencilStateSize", "pfnCreateDepthStencilState", "pfnDestroyDepthStencilState",
	"pfnCalcPrivateRasterizerStateSize", "pfnCreateRasterizerState", "pfnDestroyRasterizerState",
	"pfnCalcPrivateSamplerSize", "pfnCreateSampler", "pfnDestroySampler",
	"pfnCalcPrivateQuerySize", "pfnCreateQuery", "pfnDestroyQuery",
	"pfnCheckDeferredContextHandleSizes", "pfnCalcDeferredContextHandleSize",
	"pfnCalcPrivateDeferredContextSize", "pfnCreateDeferredContext", "pfnCalcPrivateCommandListSize",
	"pfnCreateCommandList", "pfnDestroyCommandList", "pfnRecycleCommandList", "pfnRecycleCreateCommandList",
	"pfnRecycleDestroyCommandList", "pfnRecycleDeferredContext", "pfnRecycleCreateDeferredContext",
	"pfnDestroyDevice",
	"pfnDynamicIABufferMapDiscard", "pfnDynamicIABufferMapNoOverwrite", "pfnDynamicIABufferUnmap",
	"pfnDynamicConstantBufferMapDiscard", "pfnDynamicConstantBufferUnmap", "pfnDynamicResourceMapDiscard",
	"pfnDynamicResourceUnmap", "pfnStagingResourceMap", "pfnStagingResourceUnmap",
}

// fillTable points every entry at its driver function (CreateDevice, the
// one time the fixed entries are written). The runtime dispatches pfnDraw
// through the table; the others it calls through the Device interface, and
// their entries record which function that is.
func (d *Device) fillTable() {
	if d.table == nil {
		return
	}
	for _, e := range tableEntries {
		var fn any
		if e == "pfnDraw" {
			fn = d.drawEntry // (set before: no closure around it, every Draw)
		}
		impl := e[3:]
		switch {
		case ddi.IsMapDDI(impl):
			impl = "ResourceMap" // one multipurpose pair behind every map entry ("PFND3D10DDI_RESOURCEMAP")
		case ddi.IsUnmapDDI(impl):
			impl = "ResourceUnmap"
		}
		d.table.Set(e, impl, fn)
	}
}

// Device is the driver's device: the object tables, which the free-threaded
// Create* and Destroy* DDIs fill, and the immediate context, whose DDIs are
// the device's (in the D3D11 DDI the device handle is the immediate
// context's). Command lists are in commandlist.go.
type Device struct {
	immediateContext

	table *ddi.FuncTable // the device function table the runtime reads (rule FT-TABLE)
	// drawEntry is what pfnDraw points at: Draw, holding the HCONTEXT's
	// lock (hcontext.go).
	drawEntry func(ddi.HDEVICE, uint32, uint32)

	// Object tables, guarded by mu.
	res     map[ddi.HRESOURCE]*resource
	views   map[uint32]*view // keyed by the view handle value (RTV, SRV, DSV share the handle space)
	shaders map[ddi.HSHADER]*shader
	// The shader cache (translated in shaders.go): translations by the
	// bytecode's hash and stage, oldest first in trOrder.
	trCache  map[shaderKey]*translate.Shader
	trOrder  []shaderKey
	trBytes  int
	layouts  map[ddi.HELEMENTLAYOUT]*elementLayout
	blends   map[ddi.HBLENDSTATE]*ddi.BlendDesc
	rasts    map[ddi.HRASTERIZERSTATE]*ddi.RasterizerDesc
	dss      map[ddi.HDEPTHSTENCILSTATE]*ddi.DepthStencilDesc
	samplers map[ddi.HSAMPLER]*ddi.SamplerDesc
	queries  map[ddi.HQUERY]*query
	dcs      map[ddi.HDEVICE]*deferredContext  // its deferred contexts
	cls      map[ddi.HCOMMANDLIST]*commandList // command-list handles and their state
	destroyQ []*resource                       // destroyed on any thread, waiting for the immediate context
	blit     *mipBlit                          // GenerateMips's programs (generatemips.go), made at its first call
	// destroyLater holds the other objects' destructions, queued by their
	// free-threaded Destroy* DDIs for the immediate context (deferDestroy).
	destroyLater []func()
	// rs is the device's residency list, WDDM 2.0 (residency.go); used on
	// the immediate context's thread.
	rs residencySet
}

type pendingFree struct {
	alloc ddi.HALLOCATION
	obj   string
	rt    ddi.HRTRESOURCE
	extra []ddi.HALLOCATION
}

// InjectForeignAllocation makes the next command buffer name alloc, which
// belongs to another device (`inject umd.foreign`): a rogue UMD the KMD must
// stop (rule WDDM-ISOLATE).
func (d *immediateContext) InjectForeignAllocation(alloc ddi.HALLOCATION) {
	d.foreign, d.foreignOff, d.overrun = alloc, 0, 0
}

// InjectOverrun makes the next command buffer fill overrunBytes from the
// last four bytes of alloc, an allocation of this device, and write four
// bytes just past its end (`inject umd.overrun`): a rogue UMD reaching past
// the end of its own allocation (and of the memory Dxgkrnl committed for
// it), which the KMD must stop too (rule WDDM-ISOLATE). It reports false when alloc is not one of this
// device's.
func (d *immediateContext) InjectOverrun(alloc ddi.HALLOCATION) bool {
	o := d.dev
	o.mu.Lock()
	var size uint64
	for _, r := range o.res {
		if r.alloc == alloc {
			size = r.size
		}
	}
	o.mu.Unlock()
	if size < 4 || size > 1<<32 {
		return false
	}
	d.foreign, d.foreignOff, d.overrun = alloc, uint32(size-4)&^3, uint32(size)
	return true
}

// overrunBytes is what an injected overrun fills: more than any alignment
// Dxgkrnl rounds an allocation's segment region up to.
const overrunBytes = 1 << 20

// CalcPrivateResourceSize is free-threaded even for a driver that does not
// report D3D11DDICAPS_FREETHREADED (rule FT-CALC): it only
// computes a size.
func (d *Device) CalcPrivateResourceSize(*ddi.CreateResourceArgs) int {
	if d.cfg.Bugs.Has(rules.FTCalc) {
		// The bug: the driver treats CalcPrivate* like its other entries
		// and does immediate-context housekeeping there, on whatever
		// thread is creating.
		d.processDestroyQueue()
	}
	return sizeResource
}

// createResource allocates video memory through pfnAllocateCb (WDDM operation flow, step 5).
func (d *Device) createResource(_ ddi.HDEVICE, a *ddi.CreateResourceArgs, h ddi.HRESOURCE, rt ddi.HRTRESOURCE) error {
	if err := d.injectedErr("CreateResource"); err != nil {
		return err
	}
	if d.cfg.Bugs.Has(rules.FTRender) && len(d.cmd.Words) > 0 {
		d.submit() // the bug: submit from a free-threaded create, on whatever thread calls it
	}
	r := &resource{args: *a, rt: rt}
	r.args.InitData = nil
	info := ddi.AllocationInfo{
		CPUVisible: a.Usage == ddi.UsageDynamic || a.Usage == ddi.UsageStaging,
		Primary:    a.Primary,
		InitData:   a.InitData,
		Obj:        a.Obj,
	}
	switch a.Dimension {
	case ddi.DimBuffer:
		r.size = uint64(a.Width)
		r.pitch = a.Width
		info.Width, info.Height, info.Pitch = a.Width, 1, a.Width
	case ddi.DimTexture2D:
		if err := checkMultisample(a); err != nil {
			return err
		}
		if a.BindFlags.Has(ddi.BindRenderTarget) && ddi.Optional(a.Format)&ddi.SupportRenderTarget&^gpuOptional != 0 {
			// Render-target support of R32G32B32_FLOAT is optional at
			// feature level 11.0 ("Format support for Direct3D Feature
			// Level 11.0 hardware"): the runtime leaves it to the driver,
			// and an application must ask CheckFormatSupport first. This
			// GPU lacks it: the driver blames the application
			// (D3DDDIERR_APPLICATIONERROR, "Changes from Direct3D 10").
			return hresult.Errorf(hresult.D3DDDIERR_APPLICATIONERROR, "umd: %s cannot be a render target on this GPU (optional support the application did not check)", ddi.FormatName(a.Format))
		}
		// No size limit of its own: the GPU's surfaces go to 16384, the
		// runtime's range at feature level 11_0 (a driver limit of 8192
		// refused 16384x16384 with E_INVALIDARG, which the runtime reports
		// as a driver bug); the device's memory bounds what is left.
		if multiSub(a) {
			if err := d.layoutTexture(r, a, &info); err != nil {
				return err
			}
			break
		}
		r.format = gpuFormat(a.Format)
		if r.format == isa.FmtNone {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: format %s cannot be a texture", ddi.FormatName(a.Format))
		}
		// A multisampled texture's samples side by side: a surface
		// SampleCount times as wide (msaa.go).
		r.pitch = uint32(r.format.RowBytes(r.texels()))
		r.size = uint64(r.pitch) * uint64(r.format.Rows(a.Height))
		info.Width, info.Height, info.Pitch, info.GPUFormat = r.texels(), a.Height, r.pitch, uint32(r.format)
	case ddi.DimTexture1D, ddi.DimTexture3D:
		if err := d.layoutTexture(r, a, &info); err != nil {
			return err
		}
	default:
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: unknown resource dimension %d", a.Dimension)
	}
	info.Size = r.size
	if a.Dimension == ddi.DimBuffer && a.BindFlags.Has(ddi.BindStreamOutput) {
		r.soFilled = (r.size + 3) &^ 3 // the filled size's word after the bytes (stream.go)
		info.Size = r.soFilled + 4
	}
	if len(info.InitData) > int(r.size) {
		info.InitData = info.InitData[:r.size]
	}
	cb := ddi.AllocateCb{Resource: rt, Allocations: []ddi.AllocationInfo{info}}
	if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
		return err
	}
	r.alloc = cb.Allocations[0].Allocation
	d.mu.Lock()
	d.res[h] = r
	d.mu.Unlock()
	return nil
}

// DestroyResource is free-threaded: it may run on any thread
// while the immediate context is recording, so it cannot look at the
// immediate context. It queues the destruction; the immediate context's
// thread performs it at its next submission or Flush, once a pfnRenderCb
// follows the resource's last use (rule DD-ORDER). Primaries are the
// exception: they live in the immediate context's thread domain and are
// deallocated before DestroyResource returns (rule DD-PRIMARY).
func (d *Device) DestroyResource(_ ddi.HDEVICE, h ddi.HRESOURCE) {
	d.mu.Lock()
	r := d.res[h]
	delete(d.res, h)
	d.mu.Unlock()
	if r == nil {
		return
	}
	primary := r.args.Primary && !d.cfg.Bugs.Has(rules.DDPrimary) // the bug defers primaries too
	switch {
	case primary:
		if r.inBuffer {
			d.submit() // the immediate context's own thread: it may submit
		}
		d.deallocRes(r)
	case d.cfg.Bugs.Has(rules.DDOrder):
		d.deallocRes(r) // the bug: no deferral
	default:
		d.mu.Lock()
		d.destroyQ = append(d.destroyQ, r)
		d.mu.Unlock()
	}
}

func (c *context) CalcPrivateViewSize(*ddi.CreateViewArgs) int { return sizeView }

func (d *Device) createView(a *ddi.CreateViewArgs, h, rt uint32) error {
	if err := d.injectedErr(viewDDI[a.Kind]); err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.res[a.Resource] == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: view onto unknown resource handle %d", a.Resource)
	}
	f := a.Format
	if f == ddi.FormatUnknown {
		f = d.res[a.Resource].args.Format
	}
	v := &view{kind: a.Kind, res: a.Resource, format: f, gpu: gpuFormat(f), flags: a.Flags}
	if a.Kind == ddi.ViewSRV {
		var err error
		if v.srv, err = srvOf(a, d.res[a.Resource], f); err != nil {
			return err
		}
	}
	if a.Kind == ddi.ViewRTV || a.Kind == ddi.ViewDSV {
		var err error
		if v.target, err = targetOf(a, d.res[a.Resource], v.gpu); err != nil { // (rtview.go)
			return err
		}
	}
	d.views[h] = v
	return nil
}

var viewDDI = map[ddi.ViewKind]string{ddi.ViewRTV: "CreateRenderTargetView", ddi.ViewSRV: "CreateShaderResourceView", ddi.ViewDSV: "CreateDepthStencilView"}

func (d *Device) destroyView(h uint32) { destroyObject(d, d.views, h) } // (deferred: states.go)

func (d *Device) CreateRenderTargetView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HRENDERTARGETVIEW, rt uint32) {
	d.report(d.createView(a, uint32(h), rt))
}
func (d *Device) DestroyRenderTargetView(_ ddi.HDEVICE, h ddi.HRENDERTARGETVIEW) {
	d.destroyView(uint32(h))
}
func (d *Device) CreateShaderResourceView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HSHADERRESOURCEVIEW, rt uint32) {
	d.report(d.createView(a, uint32(h), rt))
}
func (d *Device) DestroyShaderResourceView(_ ddi.HDEVICE, h ddi.HSHADERRESOURCEVIEW) {
	d.destroyView(uint32(h))
}
func (d *Device) CreateDepthStencilView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HDEPTHSTENCILVIEW, rt uint32) {
	d.report(d.createView(a, uint32(h), rt))
}
func (d *Device) DestroyDepthStencilView(_ ddi.HDEVICE, h ddi.HDEPTHSTENCILVIEW) {
	d.destroyView(uint32(h))
}

func (c *context) CalcPrivateQuerySize(ddi.QueryType) int { return sizeQuery }

// createQuery allocates the CPU-visible memory the GPU writes the query's
// results into (queries.go: queryMemory).
func (d *Device) createQuery(_ ddi.HDEVICE, t ddi.QueryType, h ddi.HQUERY, rt uint32) error {
	if err := d.injectedErr("CreateQuery"); err != nil {
		return err
	}
	if !t.Known() {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: CreateQuery of an unknown D3D11_QUERY %d", t)
	}
	q := &query{kind: t}
	if n := queryMemory(t); n > 0 {
		cb := ddi.AllocateCb{Allocations: []ddi.AllocationInfo{{Size: n, CPUVisible: true, Width: uint32(n), Height: 1, Pitch: uint32(n), Obj: fmt.Sprintf("query%d", h)}}}
		if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
			return err
		}
		q.alloc = cb.Allocations[0].Allocation
	}
	d.mu.Lock()
	d.queries[h] = q
	d.mu.Unlock()
	return nil
}

// DestroyQuery is free-threaded: an active query (its Begin in the
// unsubmitted command buffer) or one whose End rides on it may be
// released, and the buffer still names its allocation. The destruction
// waits for the immediate context's thread and a submission, as a
// resource's does (deferDestroy, rule DD-ORDER).
func (d *Device) DestroyQuery(_ ddi.HDEVICE, h ddi.HQUERY) {
	d.deferDestroy(func() {
		d.mu.Lock()
		q := d.queries[h]
		delete(d.queries, h)
		d.mu.Unlock()
		if q != nil && q.alloc != 0 {
			d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{q.alloc}, Obj: fmt.Sprintf("query%d", h)})
		}
	})
}

// deferDestroy queues the end of a destroyed object for the immediate
// context's thread ("Changes from Direct3D 10": every destroy function is
// free-threaded, so it must defer the actual destruction until the
// driver can guarantee that the immediate context's thread no longer
// depends on the object). The object stays in its table, where that
// thread may still look it up, until finishDestroys runs end. With
// bug=DD-ORDER, end runs at once, inside the Destroy* DDI.
func (d *Device) deferDestroy(end func()) {
	if d.cfg.Bugs.Has(rules.DDOrder) {
		end()
		return
	}
	d.mu.Lock()
	d.destroyLater = append(d.destroyLater, end)
	d.mu.Unlock()
}

// finishDestroys runs, on the immediate context's thread, the ends
// deferDestroy queued -- once the command buffer is empty: a pfnRenderCb
// (or pfnPresentCb) has carried every use made before the Destroy* DDIs, so
// nothing the immediate context will still submit depends on them. (It is
// called after each submission, at Flush and at DestroyDevice; with
// commands still unsubmitted it waits for the next submission.)
func (d *Device) finishDestroys() {
	if len(d.cmd.Words) > 0 {
		return
	}
	d.mu.Lock()
	later := d.destroyLater
	d.destroyLater = nil
	d.mu.Unlock()
	for _, end := range later {
		end()
	}
}

// DestroyDevice submits what is left, frees every pending allocation and the
// GPU context (rule DD-DEVICE: nothing deferred outlives the device).
func (d *Device) DestroyDevice(ddi.HDEVICE) {
	if d.cfg.Bugs.Has(rules.DDDevice) {
		d.cb.PfnDestroyContextCb(d.rt, d.ctx) // the bug: leave the destruction queue behind
		return
	}
	d.Flush(d.h)
	d.processDestroyQueue()
	d.freePending()
	d.freeBlit()
	d.cb.PfnDestroyContextCb(d.rt, d.ctx)
}

// Live counts the driver objects still alive (for `expect live`).
func (d *Device) Live() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := len(d.res) + len(d.views) + len(d.shaders) + len(d.layouts) + len(d.blends) + len(d.rasts) + len(d.dss) + len(d.samplers) + len(d.queries) + len(d.cls)
	for _, dc := range d.dcs {
		n += 1 + len(dc.local)
	}
	return n
}

// Allocation returns the allocation behind a resource handle (0 if none).
func (d *Device) Allocation(h ddi.HRESOURCE) ddi.HALLOCATION {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.res[h]; r != nil {
		return r.alloc
	}
	return 0
}

var _ ddi.Escaper = (*Device)(nil)

// Escape answers a driver-private call with pfnEscapeCb. It may run on any
// thread, so the escape is device-wide (no HCONTEXT): a context-bound
// escape would have to be synchronised with the immediate context's thread,
// which may be inside pfnRenderCb on that very context (rule FT-HCTX).
func (d *Device) Escape(_ ddi.HDEVICE, code uint32) (uint64, error) {
	cb := ddi.EscapeCb{Code: code}
	if d.cfg.Bugs.Has(rules.FTHCtx) {
		cb.Context = d.ctx // the bug: bound to the immediate context's HCONTEXT, unsynchronised
	}
	err := d.cb.PfnEscapeCb(d.rt, &cb)
	return cb.Result, err
}

// PendingDestroys counts the destructions the driver has deferred and not
// yet performed: resources queued by a free-threaded DestroyResource, the
// other objects queued by their Destroy* DDIs, and allocations waiting for
// a submission. DestroyDevice leaves
// none.
func (d *Device) PendingDestroys() int {
	d.mu.Lock()
	n := len(d.destroyQ) + len(d.destroyLater)
	d.mu.Unlock()
	return n + len(d.pendingDealloc)
}

// formatName is a DXGI format's name as scenarios spell it (R8G8B8A8_UNORM),
// or its number when it has none.
func formatName(f ddi.Format) string {
	for n, v := range ddi.Enums["Format"] {
		if ddi.Format(v) == f {
			return n
		}
	}
	return fmt.Sprintf("DXGI_FORMAT %d", uint32(f))
}

// ShaderCaps is pfnGetCaps for D3D11DDICAPS_SHADER
// ("D3D11DDI_SHADER_CAPS structure"): the GPU runs the shader model 5
// doubles (and cs_4_x with raw and structured buffers).
func (a *Adapter) ShaderCaps() ddi.ShaderCaps {
	return ddi.ShaderCapsDoubles | ddi.ShaderCapsComputePlusRawStructured4x
}
