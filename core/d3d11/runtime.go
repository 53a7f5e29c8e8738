package d3d11

import (
	"d3dsim/core/rules"
	"fmt"
	"sync"
	"sync/atomic"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// Costs is the CPU-side cost model in virtual nanoseconds.
type Costs struct {
	APICall  int64 // runtime entry and validation
	DDICall  int64 // a call into the UMD
	Callback int64 // a UMD callback into the runtime (a kernel transition when it reaches Dxgkrnl)
}

// DefaultCosts are plausible figures for a desktop CPU.
func DefaultCosts() Costs { return Costs{APICall: 150, DDICall: 80, Callback: 400} }

// Config wires the runtime to the layers below it.
type Config struct {
	Sim     *sim.Sim
	Rec     *trace.Recorder
	Kernel  Kernel      // Dxgkrnl (*dxgk.Dxgkrnl)
	Adapter ddi.Adapter // the UMD, opened once per runtime
	Costs   Costs
	Bugs    rules.Set // option bug=RULE-ID: break that rule on purpose
	// Recycle says the runtime uses the Recycle* DDIs of a driver with
	// command lists (rule CL-CAPS; option driver.recycle). Off, it plays a
	// driver no cap describes: command lists without the Recycle* DDIs
	// (every FinishCommandList takes the cold path).
	Recycle bool
	// CommandLists says the driver reports D3D11DDICAPS_COMMANDLISTS_BUILD_2,
	// the cap that says it supports command lists; without it the runtime
	// emulates them and calls no command-list DDI (option
	// driver.commandlists; Device.driverLists). It needs FreeThreaded.
	CommandLists bool
	// FreeThreaded says the driver reports D3D11DDICAPS_FREETHREADED. Without
	// it the runtime serialises every DDI but the CalcPrivate* and
	// CalcDeferredContextHandleSize ones ("Changes from Direct3D 10";
	// rules FT-CAP, FT-CALC; option driver.freethreaded).
	FreeThreaded bool
	// MonitoredFences: fences are WDDM 2.0 monitored fences ("Context
	// Monitoring"): CreateFence calls pfnCreateSynchronizationObject2Cb,
	// GetCompletedValue reads the fence's CPU address, SetEventOnCompletion
	// calls pfnWaitForSynchronizationObjectFromCpuCb, and the driver signals
	// and waits with the FromGpu callbacks (option wddm2.monitored-fences).
	MonitoredFences bool
	// Limits keep any scenario inside the machine (and the browser tab):
	// bytes of video memory a device may allocate and live API objects it
	// may hold (options sysmem and maxobjects); 0 means no limit. The
	// bytes of MaxAllocBytes count the live objects' runtime and driver
	// memory too (memory.go).
	MaxAllocBytes uint64
	MaxObjects    int
	// MaxRuntimeObjectBytes bounds the runtime and driver memory the live
	// objects of all the runtime's devices hold (memory.go); 0 means
	// DefaultMaxRuntimeObjectBytes.
	MaxRuntimeObjectBytes uint64
}

// driverLists reports whether the runtime uses the driver's command lists
// and with them every deferred-context DDI (CheckDeferredContextHandleSizes,
// CalcDeferredContextHandleSize, CreateDeferredContext, ...). The driver
// supports command lists when it reports D3D11DDICAPS_COMMANDLISTS_BUILD_2
// ("D3D11DDI_THREADING_CAPS structure"); otherwise the runtime emulates
// deferred contexts and command lists itself ("D3D11_FEATURE_DATA_THREADING
// structure": DriverCommandLists FALSE) and calls none of them.
//
// The caps page also says "To support D3D11DDICAPS_COMMANDLISTS_BUILD_2,
// the driver must also support D3D11DDICAPS_FREETHREADED", so a driver
// without FREETHREADED (option driver.freethreaded=false) reports no
// command lists, whatever driver.commandlists says.
func (d *Device) driverLists() bool {
	_, ok := d.umd.(ddi.CommandLists)
	return ok && d.rt.cfg.CommandLists && d.rt.cfg.FreeThreaded
}

// Runtime is one process's D3D11 runtime.
type Runtime struct {
	cfg      Config
	preempt  func()
	handles  atomic.Uint32 // driver handles: runtime-allocated private memory
	objBytes atomic.Int64  // runtime and driver memory of all devices' live objects (memory.go)
	mu       sync.Mutex
	devices  []*Device
	// perfDepth counts the D3DPERF_BeginEvent groups open (annotation.go).
	perfDepth int32
}

// New returns a runtime over the given layers.
func New(cfg Config) *Runtime {
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	return &Runtime{cfg: cfg}
}

// SetPreempt installs the scheduler's preemption hook: a thread that enters
// the kernel from a callback (pfnRenderCb, pfnPresentCb, pfnAllocateCb,
// pfnWaitForSynchronizationObjectCb) may be descheduled there, and fn runs
// other threads' free-threaded calls before it comes back (option
// preempt). Set it before any device is created.
func (rt *Runtime) SetPreempt(fn func()) { rt.preempt = fn }

func (rt *Runtime) newHandle() uint32 { return rt.handles.Add(1) }

// CreateDeviceFlag mirrors D3D11_CREATE_DEVICE_FLAG.
type CreateDeviceFlag uint32

const (
	CreateDeviceSingleThreaded CreateDeviceFlag = 0x1
	CreateDeviceDebug          CreateDeviceFlag = 0x2
)

// D3D11CreateDevice creates a device and its immediate context ("WDDM
// operation flow"): Dxgkrnl creates the kernel device (DxgkDdiCreateDevice),
// then the runtime calls the UMD's CreateDevice, which calls
// pfnCreateContextCb.
func (rt *Runtime) D3D11CreateDevice(name string, flags CreateDeviceFlag) (dev *Device, imm *DeviceContext, err error) {
	d := &Device{rt: rt, name: name, debug: flags&CreateDeviceDebug != 0, allocs: map[ddi.HRTRESOURCE][]ddi.HALLOCATION{},
		contexts: map[ddi.HRTCORELAYER]*DeviceContext{}, resByRT: map[ddi.HRTRESOURCE]uint32{}, allocSize: map[ddi.HALLOCATION]uint64{}}
	d.hrt = ddi.HRTDEVICE(rt.newHandle())
	done := d.api("D3D11CreateDevice", name, "")
	defer func() { done.end(err) }()

	createUMD := func() error {
		d.hDev = ddi.HDEVICE(rt.newHandle())
		d.table = &ddi.FuncTable{}
		boot := &ddiTable{d: d, ctx: "IC"} // no table yet: the adapter's entry
		umd, err := boot.on(name, fmt.Sprintf("h%d", d.hDev)).CreateDevice(rt.cfg.Adapter, d.hDev, &ddi.CreateDeviceArgs{HRTDevice: d.hrt, HRTCoreLayer: ddi.HRTCORELAYER(d.hrt), Callbacks: (*callbacks)(d), Table: d.table, Obj: name})
		d.umd = umd
		// From now on every write to the table is a hot swap: the trace
		// shows it (rule FT-TABLE).
		d.table.OnWrite(func(entry, impl string) {
			rt.cfg.Rec.Emit(trace.Event{From: trace.UMD, Layer: trace.UMD, Kind: trace.Message, Name: "DeviceFuncsWrite", Obj: name,
				Args: entryImpl(entry, impl), Msg: "the driver points " + entry + " at " + impl})
		})
		return err
	}
	if rt.cfg.Bugs.Has(rules.WDDMFlow) {
		// The bug: the UMD's CreateDevice before the kernel device exists.
		if err := createUMD(); err != nil {
			return nil, nil, err
		}
	}
	kdev, err := rt.cfg.Kernel.CreateDevice(name)
	if err != nil {
		return nil, nil, fmt.Errorf("d3d11: D3D11CreateDevice: %w", err)
	}
	d.kdev = kdev
	if !rt.cfg.Bugs.Has(rules.WDDMFlow) {
		if err := createUMD(); err != nil {
			return nil, nil, err
		}
	}
	d.imm = newImmediateContext(d)
	var caps trace.ArgBuilder
	caps.Int(trace.KeyCommandLists, int64(b2i(d.driverLists()))).Int(trace.KeyRecycle, int64(b2i(d.driverLists() && rt.cfg.Recycle)))
	if !rt.cfg.FreeThreaded {
		// (only said when missing: the default, free-threaded, keeps the
		// traces of before)
		caps.Int(trace.KeyFreeThreaded, 0)
	}
	rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "DriverCaps", Obj: name,
		Args: caps.Args(), Msg: "the driver's threading caps: D3D11DDICAPS_COMMANDLISTS_BUILD_2 (command lists) " + setOrNot(d.driverLists()) +
			", its Recycle* DDIs " + inUse(d.driverLists() && rt.cfg.Recycle) +
			", D3D11DDICAPS_FREETHREADED " + setOrNot(rt.cfg.FreeThreaded)})
	d.contexts[ddi.HRTCORELAYER(d.hrt)] = d.imm
	// Size the context-local handle allocator: the count, then the array
	// ("Using context-local DDI handles", rule CLS-SIZES).
	if d.driverLists() {
		var n int
		if !rt.cfg.Bugs.Has(rules.CLSSizes) {
			n = d.ddiIC().on(name, handleName(uint32(d.hDev))).CheckDeferredContextHandleSizes(d.hDev, nil)
		} else {
			n = d.umd.CheckDeferredContextHandleSizes(d.hDev, nil) // the bug: the count poll is skipped (untraced)
		}
		d.clsSizes = make([]ddi.HandleSize, n)
		d.ddiIC().on(name, handleName(uint32(d.hDev))).CheckDeferredContextHandleSizes(d.hDev, d.clsSizes)
		d.initCLS()
	}
	d.refs.Store(1)
	rt.mu.Lock()
	rt.devices = append(rt.devices, d)
	rt.mu.Unlock()
	return d, d.imm, nil
}

// api emits the Call event of an API entry and returns the function that
// emits its Return with the HRESULT.
func (d *Device) api(name, obj, ctx string) span {
	c := d.rt.cfg
	c.Sim.PollCharge(c.Costs.APICall) // Poll, then Charge
	s := span{rec: c.Rec, ev: spanEvent{From: trace.App, Layer: trace.Runtime, Name: name, Obj: obj, Ctx: ctx}}
	c.Rec.EmitPart(&s.ev, trace.Call, "")
	return s
}

// message emits a debug-layer message (kind message).
// An object with a debug name (WKPDID_D3DDebugObjectName) is named by it
// too: in the message's text and its payload's debugname=.
func (d *Device) message(name, obj, msg string) {
	var args trace.Args
	if obj != "" {
		if dn := d.DebugName(obj); dn != "" {
			msg += fmt.Sprintf(" [%s is %q]", obj, dn)
			args = strArg(trace.KeyDebugName, dn)
		}
	}
	d.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: name, Obj: obj, Msg: msg, Args: args})
}

func errMsg(err error) string {
	if err == nil {
		return ""
	}
	if _, ok := err.(hresult.HRESULT); ok {
		return ""
	}
	return err.Error()
}

// Devices lists the devices created so far, in creation order.
func (rt *Runtime) Devices() []*Device {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]*Device(nil), rt.devices...)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// entryImpl is DeviceFuncsWrite's payload: the table entry and what the
// driver points it at.
func entryImpl(entry, impl string) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyEntry, entry).Str(trace.KeyImpl, impl).Args()
}

// setOrNot words a cap bit for the DriverCaps message.
func setOrNot(on bool) string {
	if on {
		return "set"
	}
	return "not set"
}

// inUse words whether the runtime uses a set of DDIs, for DriverCaps.
func inUse(on bool) string {
	if on {
		return "in use"
	}
	return "not in use"
}
