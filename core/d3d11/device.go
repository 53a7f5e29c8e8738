package d3d11

import (
	"d3dsim/core/rules"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
)

// Device is an ID3D11Device.
type Device struct {
	rt       *Runtime
	name     string
	debug    bool
	hrt      ddi.HRTDEVICE
	hDev     ddi.HDEVICE
	umd      ddi.Device
	kdev     dxgk.HDevice
	kctx     dxgk.HContext
	imm      *DeviceContext
	refs     atomic.Int32
	children atomic.Int32
	dead     atomic.Bool

	ddiLock     sync.Mutex   // serialises DDIs for a driver that is not free-threaded
	ddiHeld     atomic.Int32 // ddiLock is held (by the thread a preempting call runs inside)
	afterDDI    []*object    // destroyed while ddiLock was held: their destroy DDIs run once it is free
	mu          sync.Mutex
	allocs      map[ddi.HRTRESOURCE][]ddi.HALLOCATION // what pfnAllocateCb gave each resource
	liveAllocs  int
	cmdBufSize  int
	removedErr  error
	dcCount     int
	contexts    map[ddi.HRTCORELAYER]*DeviceContext // for pfnSetErrorCb
	clsSizes    []ddi.HandleSize                    // CheckDeferredContextHandleSizes' answer
	clsHigh     int                                 // most context-local handles open since the last trim
	clsOpen     int                                 // context-local handles open now
	resByRT     map[ddi.HRTRESOURCE]uint32          // runtime resource handle -> driver handle, for traces
	displayMode ddi.HALLOCATION                     // the primary the display shows (full screen)
	allocBytes  uint64                              // bytes allocated through pfnAllocateCb and not freed
	allocSize   map[ddi.HALLOCATION]uint64
	shared      map[ddi.HRTRESOURCE]bool // resources created with MiscFlags=SHARED (rule FT-ALLOC)
	table       *ddi.FuncTable           // the device function table the driver filled (rule FT-TABLE)
	destroyQ    []*object                // the runtime's destruction queue: released objects the immediate context unbound since (drainDestroyQueue)
}

func (d *Device) Name() string { return d.name }
func (d *Device) Alive() bool  { return !d.dead.Load() }
func (d *Device) AddRef() uint32 {
	return uint32(d.refs.Add(1))
}

// Release destroys the device once the application's references and every
// child object are gone (children hold the device, as in D3D11).
func (d *Device) Release() uint32 {
	n := d.refs.Add(-1)
	if n <= 0 {
		d.refs.Store(0)
		d.maybeDestroy()
		return 0
	}
	return uint32(n)
}

func (d *Device) childGone() {
	if d.children.Add(-1) == 0 || d.refs.Load() == 0 {
		// (a released device drains the runtime's queue whenever a
		// child goes, and goes with the last one: see maybeDestroy)
		d.maybeDestroy()
	}
}

func (d *Device) maybeDestroy() {
	if d.refs.Load() > 0 || d.dead.Load() {
		return
	}
	// Released by the application: what waits in the runtime's destruction
	// queue goes now, so that children only it (or an object it holds, as
	// a view holds its resource) kept alive do not keep the device alive --
	// DestroyDevice drains everything (seed 000). A child's destruction
	// comes back here; the last one finds none left.
	d.drainDestroyQueue("", "device-released")
	if d.children.Load() > 0 || d.dead.Swap(true) {
		return
	}
	done := d.api("DestroyDevice", d.name, "")
	d.ddiIC().on(d.name, handleName(uint32(d.hDev))).DestroyDevice(d.hDev)
	err := d.rt.cfg.Kernel.DestroyDevice(d.kdev)
	done.end(err)
}

// ImmediateContext returns the device's immediate context.
func (d *Device) ImmediateContext() *DeviceContext { return d.imm }

// UMD returns the driver device (for fault injection from the scenario).
func (d *Device) UMD() ddi.Device { return d.umd }

// KernelDevice returns Dxgkrnl's handle for the device.
func (d *Device) KernelDevice() dxgk.HDevice { return d.kdev }

// Allocations returns the kernel allocations behind a resource.
func (d *Device) Allocations(r *Resource) []ddi.HALLOCATION {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]ddi.HALLOCATION(nil), d.allocs[r.rth]...)
}

// Removed returns the error that removed the device (nil while it works).
func (d *Device) Removed() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.removedErr == nil && d.rt.cfg.Kernel.Removed(d.kdev) {
		d.removedErr = hresult.DXGI_ERROR_DEVICE_REMOVED
	}
	return d.removedErr
}

func (d *Device) removedHR() error {
	if err := d.Removed(); err != nil {
		return hresult.Errorf(hresult.DXGI_ERROR_DEVICE_REMOVED, "device %s was removed: %v", d.name, err)
	}
	return nil
}

// LiveObjects counts the API objects of the device still alive (children
// plus the device itself).
func (d *Device) LiveObjects() int {
	n := int(d.children.Load())
	if !d.dead.Load() {
		n++
	}
	return n
}

// LiveAllocations counts allocations made through pfnAllocateCb and not yet
// released with pfnDeallocateCb.
func (d *Device) LiveAllocations() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.liveAllocs
}

// invalid returns E_INVALIDARG with a message; with the debug layer on, the
// message is also a trace event.
func (d *Device) invalid(call, obj, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if d.debug {
		d.message(call, obj, "D3D11 ERROR: "+msg)
	}
	return hresult.Errorf(hresult.E_INVALIDARG, "%s(%s): %s", call, obj, msg)
}

// objectLimit refuses a new object past the device's limit (option
// maxobjects): E_OUTOFMEMORY, as a real runtime out of memory would.
func (d *Device) objectLimit(call, name string) error {
	if max := d.rt.cfg.MaxObjects; max > 0 && int(d.children.Load()) >= max {
		return hresult.Errorf(hresult.E_OUTOFMEMORY, "%s(%s): the device already holds %d live objects, its limit (option maxobjects=N)", call, name, max)
	}
	return nil
}

// driverError turns a DDI failure into the API's answer. Seed 000:
// D3DDDIERR_APPLICATIONERROR means the driver found the application at fault
// (the debug layer says so, the application gets E_INVALIDARG), while
// E_INVALIDARG from a driver is the driver's own error (rule ERR-APP).
func (d *Device) driverError(ddiName, obj string, err error) error {
	blameApp := errors.Is(err, hresult.D3DDDIERR_APPLICATIONERROR)
	if d.rt.cfg.Bugs.Has(rules.ErrApp) {
		blameApp = !blameApp // the bug: blame the wrong party
	}
	switch {
	case errors.Is(err, hresult.D3DDDIERR_APPLICATIONERROR) || errors.Is(err, hresult.E_INVALIDARG):
		if d.debug {
			if blameApp {
				d.message(ddiName, obj, fmt.Sprintf("D3D11 ERROR: %s(%s): the driver found an error in the application's call: %v", ddiName, obj, err))
			} else {
				d.message(ddiName, obj, fmt.Sprintf("D3D11 CORRUPTION: %s(%s): the driver returned an internal error (a driver bug): %v", ddiName, obj, err))
			}
		}
		return hresult.Errorf(hresult.E_INVALIDARG, "%s(%s): %v", ddiName, obj, err)
	}
	return err
}

// BufferDesc mirrors D3D11_BUFFER_DESC.
type BufferDesc struct {
	ByteWidth      uint32
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
}

// Texture2DDesc mirrors D3D11_TEXTURE2D_DESC (one mip, one array slice,
// one sample).
type Texture2DDesc struct {
	Width, Height  uint32
	Format         ddi.Format
	Usage          ddi.Usage
	BindFlags      ddi.BindFlag
	CPUAccessFlags ddi.CPUAccess
	MiscFlags      ddi.ResourceMisc
}

// validateUsage applies D3D11's rules tying usage, CPU access and binding.
func (d *Device) validateUsage(call, name string, u ddi.Usage, bind ddi.BindFlag, cpu ddi.CPUAccess, hasData bool) error {
	switch u {
	case ddi.UsageImmutable:
		if !hasData {
			return d.invalid(call, name, "an IMMUTABLE resource needs initial Data")
		}
		if cpu != 0 {
			return d.invalid(call, name, "an IMMUTABLE resource cannot have CPUAccessFlags")
		}
	case ddi.UsageDefault:
		if cpu != 0 {
			return d.invalid(call, name, "a DEFAULT resource cannot have CPUAccessFlags (use DYNAMIC or STAGING)")
		}
	case ddi.UsageDynamic:
		if cpu != ddi.CPUAccessWrite {
			return d.invalid(call, name, "a DYNAMIC resource needs CPUAccessFlags=WRITE (and only WRITE)")
		}
		if bind.Has(ddi.BindRenderTarget | ddi.BindDepthStencil | ddi.BindUnorderedAccess | ddi.BindStreamOutput) {
			return d.invalid(call, name, "a DYNAMIC resource cannot be a render target, depth stencil, UAV or stream output")
		}
	case ddi.UsageStaging:
		if bind != 0 {
			return d.invalid(call, name, "a STAGING resource cannot be bound to the pipeline (BindFlags must be 0)")
		}
		if cpu == 0 {
			return d.invalid(call, name, "a STAGING resource needs CPUAccessFlags")
		}
	default:
		return d.invalid(call, name, "unknown Usage %d", u)
	}
	if bind == 0 && u != ddi.UsageStaging {
		return d.invalid(call, name, "BindFlags is 0: only STAGING resources may be unbound")
	}
	return nil
}

// CreateBuffer creates a buffer: CalcPrivateResourceSize then CreateResource
// (seed 003 step 4), which allocates through pfnAllocateCb (step 5).
func (d *Device) CreateBuffer(name string, desc BufferDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateBuffer", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if desc.ByteWidth == 0 || desc.ByteWidth > 128<<20 {
		return nil, d.invalid("CreateBuffer", name, "ByteWidth %d is outside 1..%d", desc.ByteWidth, 128<<20)
	}
	if err := d.validateUsage("CreateBuffer", name, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, data != nil); err != nil {
		return nil, err
	}
	if desc.BindFlags.Has(ddi.BindConstantBuffer) {
		if desc.BindFlags != ddi.BindConstantBuffer {
			return nil, d.invalid("CreateBuffer", name, "CONSTANT_BUFFER cannot be combined with other BindFlags")
		}
		if desc.ByteWidth%16 != 0 {
			return nil, d.invalid("CreateBuffer", name, "a constant buffer's ByteWidth must be a multiple of 16, not %d", desc.ByteWidth)
		}
	}
	if desc.BindFlags.Has(ddi.BindRenderTarget | ddi.BindDepthStencil) {
		return nil, d.invalid("CreateBuffer", name, "a buffer cannot be a render target or depth stencil")
	}
	if data != nil && len(data) < int(desc.ByteWidth) {
		padded := make([]byte, desc.ByteWidth)
		copy(padded, data)
		data = padded
	}
	if err := d.validateMisc("CreateBuffer", name, desc.MiscFlags, desc.Usage); err != nil {
		return nil, err
	}
	args := ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: desc.ByteWidth, Height: 1,
		Usage: desc.Usage, BindFlags: desc.BindFlags, CPUAccessFlags: desc.CPUAccessFlags, MiscFlags: desc.MiscFlags, InitData: data, Obj: name}
	return d.createResource(name, KindBuffer, args)
}

// CreateTexture2D creates a 2D texture.
func (d *Device) CreateTexture2D(name string, desc Texture2DDesc, data []byte) (res *Resource, err error) {
	done := d.api("CreateTexture2D", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	return d.createTexture2D("CreateTexture2D", name, desc, data, false)
}

func (d *Device) createTexture2D(call, name string, desc Texture2DDesc, data []byte, primary bool) (*Resource, error) {
	if desc.Width == 0 || desc.Height == 0 || desc.Width > 16384 || desc.Height > 16384 {
		return nil, d.invalid(call, name, "size %dx%d is outside 1..16384", desc.Width, desc.Height)
	}
	bpp := ddi.FormatSize(desc.Format)
	switch desc.Format {
	case ddi.FormatR8G8B8A8Unorm, ddi.FormatB8G8R8A8Unorm, ddi.FormatR32Float, ddi.FormatD32Float, ddi.FormatD24UnormS8Uint:
	default:
		return nil, d.invalid(call, name, "format %d is not a supported texture format", desc.Format)
	}
	depth := desc.Format == ddi.FormatD32Float || desc.Format == ddi.FormatD24UnormS8Uint
	if desc.BindFlags.Has(ddi.BindDepthStencil) != depth && desc.Usage != ddi.UsageStaging {
		return nil, d.invalid(call, name, "DEPTH_STENCIL binding needs a depth format and a depth format needs DEPTH_STENCIL binding")
	}
	if desc.BindFlags.Has(ddi.BindVertexBuffer | ddi.BindIndexBuffer | ddi.BindConstantBuffer) {
		return nil, d.invalid(call, name, "a texture cannot be bound as a vertex, index or constant buffer")
	}
	if err := d.validateUsage(call, name, desc.Usage, desc.BindFlags, desc.CPUAccessFlags, data != nil); err != nil {
		return nil, err
	}
	if err := d.validateMisc(call, name, desc.MiscFlags, desc.Usage); err != nil {
		return nil, err
	}
	size := int(desc.Width * desc.Height * bpp)
	if data != nil && len(data) < size {
		padded := make([]byte, size)
		copy(padded, data)
		data = padded
	}
	args := ddi.CreateResourceArgs{Dimension: ddi.DimTexture2D, Width: desc.Width, Height: desc.Height, Format: desc.Format,
		Usage: desc.Usage, BindFlags: desc.BindFlags, CPUAccessFlags: desc.CPUAccessFlags, MiscFlags: desc.MiscFlags, InitData: data, Primary: primary, Obj: name}
	return d.createResource(name, KindTexture2D, args)
}

// validateMisc checks MiscFlags: only SHARED is simulated, and a shared
// resource lives in video memory the GPU owns (DEFAULT usage).
func (d *Device) validateMisc(call, name string, misc ddi.ResourceMisc, u ddi.Usage) error {
	if misc&^ddi.ResourceMiscShared != 0 {
		return d.invalid(call, name, "MiscFlags %#x: only SHARED is supported", uint32(misc))
	}
	if misc.Has(ddi.ResourceMiscShared) && u != ddi.UsageDefault {
		return d.invalid(call, name, "a SHARED resource must have DEFAULT usage")
	}
	return nil
}

var usageNames = map[ddi.Usage]string{ddi.UsageDefault: "DEFAULT", ddi.UsageImmutable: "IMMUTABLE", ddi.UsageDynamic: "DYNAMIC", ddi.UsageStaging: "STAGING"}

func (d *Device) createResource(name string, kind ResourceKind, args ddi.CreateResourceArgs) (*Resource, error) {
	if err := d.objectLimit("CreateResource", name); err != nil {
		return nil, err
	}
	d.ddiIC().on(name, "").CalcPrivateResourceSize(&args)
	r := &Resource{Kind: kind, Desc: args, h: ddi.HRESOURCE(d.rt.newHandle()), rth: ddi.HRTRESOURCE(d.rt.newHandle())}
	r.Desc.InitData = nil
	cargs := "usage=" + usageNames[args.Usage] + " dev=" + d.name
	if args.Primary {
		cargs += " primary=1"
	}
	shared := args.MiscFlags.Has(ddi.ResourceMiscShared)
	if shared {
		cargs += " shared=1"
	}
	d.mu.Lock()
	d.resByRT[r.rth] = uint32(r.h)
	if shared {
		if d.shared == nil {
			d.shared = map[ddi.HRTRESOURCE]bool{}
		}
		d.shared[r.rth] = true
	}
	d.mu.Unlock()
	err := d.ddiIC().with(name, handleName(uint32(r.h)), cargs).CreateResource(d.hDev, &args, r.h, r.rth)
	if err != nil {
		return nil, d.driverError("CreateResource", name, err)
	}
	d.calcCLS(ddi.HTResource, uint32(r.h), name)
	d.initChild(&r.object, name, func() {
		d.ddiIC().on(name, handleName(uint32(r.h))).DestroyResource(d.hDev, r.h)
		d.mu.Lock()
		delete(d.allocs, r.rth)
		d.mu.Unlock()
	})
	return r, nil
}

// CreateView creates a render-target, shader-resource or depth-stencil view.
func (d *Device) CreateView(name string, kind ddi.ViewKind, res *Resource) (v *View, err error) {
	api := map[ddi.ViewKind]string{ddi.ViewRTV: "CreateRenderTargetView", ddi.ViewSRV: "CreateShaderResourceView", ddi.ViewDSV: "CreateDepthStencilView"}[kind]
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	if err := res.checkAlive(api); err != nil {
		return nil, err
	}
	need := map[ddi.ViewKind]ddi.BindFlag{ddi.ViewRTV: ddi.BindRenderTarget, ddi.ViewSRV: ddi.BindShaderResource, ddi.ViewDSV: ddi.BindDepthStencil}[kind]
	if !res.Desc.BindFlags.Has(need) {
		return nil, d.invalid(api, name, "resource %s was not created with the bind flag this view needs", res.name)
	}
	if kind == ddi.ViewSRV && res.Kind != KindTexture2D {
		return nil, d.invalid(api, name, "shader resource views onto buffers are not supported by the simulated GPU")
	}
	args := ddi.CreateViewArgs{Kind: kind, Resource: res.h, Format: res.Desc.Format, Obj: name}
	d.ddiIC().on(name, "").CalcPrivateViewSize(&args)
	v = &View{ViewKind: kind, Res: res, h: d.rt.newHandle()}
	w := d.ddiIC().on(name, handleName(v.h))
	switch kind {
	case ddi.ViewRTV:
		err = w.CreateRenderTargetView(d.hDev, &args, ddi.HRENDERTARGETVIEW(v.h), v.h)
	case ddi.ViewSRV:
		err = w.CreateShaderResourceView(d.hDev, &args, ddi.HSHADERRESOURCEVIEW(v.h), v.h)
	case ddi.ViewDSV:
		err = w.CreateDepthStencilView(d.hDev, &args, ddi.HDEPTHSTENCILVIEW(v.h), v.h)
	}
	if err != nil {
		return nil, err
	}
	_, ht := ddiHandle(v)
	d.calcCLS(ht, v.h, name)
	res.pin() // a view holds its resource
	d.initChild(&v.object, name, func() {
		w := d.ddiIC().on(name, handleName(v.h))
		switch kind {
		case ddi.ViewRTV:
			w.DestroyRenderTargetView(d.hDev, ddi.HRENDERTARGETVIEW(v.h))
		case ddi.ViewSRV:
			w.DestroyShaderResourceView(d.hDev, ddi.HSHADERRESOURCEVIEW(v.h))
		case ddi.ViewDSV:
			w.DestroyDepthStencilView(d.hDev, ddi.HDEPTHSTENCILVIEW(v.h))
		}
		res.unpin()
	})
	return v, nil
}

// CreateShader creates a vertex ("vs") or pixel ("ps") shader from a
// built-in program.
func (d *Device) CreateShader(name, stage, builtin string) (s *Shader, err error) {
	api := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader"}[stage]
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	args := ddi.ShaderArgs{Builtin: builtin, Obj: name}
	d.ddiIC().on(name, "").CalcPrivateShaderSize(&args)
	s = &Shader{Stage: stage, Builtin: builtin, h: ddi.HSHADER(d.rt.newHandle())}
	w := d.ddiIC().on(name, handleName(uint32(s.h)))
	if stage == "vs" {
		err = w.CreateVertexShader(d.hDev, &args, s.h, uint32(s.h))
	} else {
		err = w.CreatePixelShader(d.hDev, &args, s.h, uint32(s.h))
	}
	if err != nil {
		return nil, err
	}
	_, ht := ddiHandle(s)
	d.calcCLS(ht, uint32(s.h), name)
	d.initChild(&s.object, name, func() {
		d.ddiIC().on(name, handleName(uint32(s.h))).DestroyShader(d.hDev, s.h)
	})
	return s, nil
}

// CreateBlendState, CreateRasterizerState, CreateDepthStencilState and
// CreateSamplerState share one shape.
func (d *Device) CreateBlendState(name string, desc ddi.BlendDesc) (*State, error) {
	return d.createState(name, "blend", "CreateBlendState", "BlendState",
		func(w ddiCall) int { return w.CalcPrivateBlendStateSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateBlendState(d.hDev, &desc, ddi.HBLENDSTATE(h), h) },
		func(w ddiCall, h uint32) { w.DestroyBlendState(d.hDev, ddi.HBLENDSTATE(h)) })
}

func (d *Device) CreateRasterizerState(name string, desc ddi.RasterizerDesc) (*State, error) {
	return d.createState(name, "rasterizer", "CreateRasterizerState", "RasterizerState",
		func(w ddiCall) int { return w.CalcPrivateRasterizerStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateRasterizerState(d.hDev, &desc, ddi.HRASTERIZERSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyRasterizerState(d.hDev, ddi.HRASTERIZERSTATE(h)) })
}

func (d *Device) CreateDepthStencilState(name string, desc ddi.DepthStencilDesc) (*State, error) {
	return d.createState(name, "depthstencil", "CreateDepthStencilState", "DepthStencilState",
		func(w ddiCall) int { return w.CalcPrivateDepthStencilStateSize(&desc) },
		func(w ddiCall, h uint32) error {
			return w.CreateDepthStencilState(d.hDev, &desc, ddi.HDEPTHSTENCILSTATE(h), h)
		},
		func(w ddiCall, h uint32) { w.DestroyDepthStencilState(d.hDev, ddi.HDEPTHSTENCILSTATE(h)) })
}

func (d *Device) CreateSamplerState(name string, desc ddi.SamplerDesc) (*State, error) {
	return d.createState(name, "sampler", "CreateSamplerState", "Sampler",
		func(w ddiCall) int { return w.CalcPrivateSamplerSize(&desc) },
		func(w ddiCall, h uint32) error { return w.CreateSampler(d.hDev, &desc, ddi.HSAMPLER(h), h) },
		func(w ddiCall, h uint32) { w.DestroySampler(d.hDev, ddi.HSAMPLER(h)) })
}

func (d *Device) createState(name, kind, api, ddiSuffix string, calc func(ddiCall) int, create func(ddiCall, uint32) error, destroy func(ddiCall, uint32)) (s *State, err error) {
	done := d.api(api, name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit(api, name); err != nil {
		return nil, err
	}
	calc(d.ddiIC().on(name, ""))
	s = &State{Kind: kind, h: d.rt.newHandle()}
	err = create(d.ddiIC().on(name, handleName(s.h)), s.h)
	if err != nil {
		return nil, err
	}
	_, ht := ddiHandle(s)
	d.calcCLS(ht, s.h, name)
	d.initChild(&s.object, name, func() {
		destroy(d.ddiIC().on(name, handleName(s.h)), s.h)
	})
	return s, nil
}

// CreateQuery creates an EVENT, OCCLUSION or TIMESTAMP query.
func (d *Device) CreateQuery(name string, t ddi.QueryType) (q *Query, err error) {
	done := d.api("CreateQuery", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if err := d.objectLimit("CreateQuery", name); err != nil {
		return nil, err
	}
	d.ddiIC().on(name, "").CalcPrivateQuerySize(t)
	q = &Query{Type: t, h: ddi.HQUERY(d.rt.newHandle())}
	err = d.ddiIC().on(name, handleName(uint32(q.h))).CreateQuery(d.hDev, t, q.h, uint32(q.h))
	if err != nil {
		return nil, err
	}
	d.calcCLS(ddi.HTQuery, uint32(q.h), name)
	d.initChild(&q.object, name, func() {
		d.ddiIC().on(name, handleName(uint32(q.h))).DestroyQuery(d.hDev, q.h)
	})
	return q, nil
}

// CreateSwapChain creates a swap chain whose buffers are primary surfaces
// (R8G8B8A8_UNORM render targets the display engine can scan out).
func (d *Device) CreateSwapChain(name string, width, height, count uint32) (sc *SwapChain, err error) {
	done := d.api("CreateSwapChain", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if count == 0 || count > 16 {
		return nil, d.invalid("CreateSwapChain", name, "BufferCount %d is outside 1..16", count)
	}
	sc = &SwapChain{Width: width, Height: height}
	for i := uint32(0); i < count; i++ {
		bn := fmt.Sprintf("%s.buffer%d", name, i)
		r, err := d.createTexture2D("CreateSwapChain", bn, Texture2DDesc{Width: width, Height: height, Format: ddi.FormatR8G8B8A8Unorm,
			Usage: ddi.UsageDefault, BindFlags: ddi.BindRenderTarget | ddi.BindShaderResource}, nil, true)
		if err != nil {
			for _, b := range sc.Buffers {
				b.Release()
			}
			return nil, err
		}
		sc.Buffers = append(sc.Buffers, r)
	}
	d.initChild(&sc.object, name, func() {
		for _, b := range sc.Buffers {
			b.Release()
		}
	})
	return sc, nil
}

// SetFullscreenState switches the swap chain to full screen (or back): the
// runtime calls the driver's SetDisplayModeDXGI with its primary.
func (sc *SwapChain) SetFullscreenState(fullscreen bool) (err error) {
	d := sc.dev
	done := d.api("SetFullscreenState", sc.name, "IC")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return err
	}
	sc.Fullscreen = fullscreen
	if !fullscreen {
		return nil
	}
	src := sc.Buffers[0]
	return d.ddiIC().on(sc.name, handleName(uint32(src.h))).SetDisplayModeDXGI(d.hDev, src.h)
}

// GetBuffer returns buffer i with a new reference (IDXGISwapChain::GetBuffer).
func (sc *SwapChain) GetBuffer(i uint32) (*Resource, error) {
	d := sc.dev
	done := d.api("GetBuffer", sc.name, "")
	if i >= uint32(len(sc.Buffers)) {
		err := d.invalid("GetBuffer", sc.name, "buffer %d does not exist (BufferCount %d)", i, len(sc.Buffers))
		done.end(err)
		return nil, err
	}
	b := sc.Buffers[i]
	b.AddRef()
	done.end(nil)
	return b, nil
}

// Present shows buffer 0 (seed 003 step 8: PresentDXGI -> pfnPresentCb).
func (sc *SwapChain) Present(syncInterval uint32) (err error) {
	d := sc.dev
	done := d.api("Present", sc.name, "IC")
	defer func() { done.end(err) }()
	if err := sc.checkAlive("Present"); err != nil {
		return err
	}
	if err := d.removedHR(); err != nil {
		return err
	}
	src := sc.Buffers[0]
	err = d.ddiIC().on(sc.name, handleName(uint32(src.h))).PresentDXGI(d.hDev, src.h, syncInterval)
	if err != nil {
		if e := d.removedHR(); e != nil {
			return e
		}
		return err
	}
	return nil
}

// Escape is a driver-private call (what a vendor's private API does): the
// UMD answers it with pfnEscapeCb to its kernel-mode driver. Code 1 asks
// for the GPU context's completed fence, any other code for its last
// submitted one. It is free-threaded: any thread may call it.
func (d *Device) Escape(code uint32) (result uint64, err error) {
	done := d.api("Escape", d.name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return 0, err
	}
	if _, ok := d.umd.(ddi.Escaper); !ok {
		return 0, d.invalid("Escape", d.name, "the driver has no private escape")
	}
	return d.ddiIC().with(d.name, handleName(uint32(d.hDev)), fmt.Sprintf("code=%d", code)).Escape(d.hDev, code)
}

// calcCLS asks the driver, right after an object's creation on the immediate
// context, how much memory its context-local handles need (seed 001:
// CalcDeferredContextHandleSize).
func (d *Device) calcCLS(t ddi.HandleType, h uint32, name string) {
	if _, ok := d.umd.(ddi.CommandLists); !ok {
		return
	}
	d.ddiIC().on(name, handleName(h)).CalcDeferredContextHandleSize(d.hDev, t, h)
}
