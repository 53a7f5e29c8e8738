package d3d11

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
	"d3dsim/core/xsync"
)

// Device is an ID3D11Device.
type Device struct {
	rt       *Runtime
	valid    validated // bytecode validated lately (validcache.go)
	name     string
	debug    bool
	hrt      ddi.HRTDEVICE
	hDev     ddi.HDEVICE
	umd      ddi.Device
	kdev     dxgk.HDevice
	kctx     dxgk.HContext
	imm      *DeviceContext
	refs     xsync.Int32
	children xsync.Int32
	dead     xsync.Bool

	ddiLock     xsync.Mutex // serialises DDIs for a driver that is not free-threaded
	ddiHeld     xsync.Int32 // ddiLock is held (by the thread a preempting call runs inside)
	afterDDI    []*object   // destroyed while ddiLock was held: their destroy DDIs run once it is free
	mu          sync.Mutex
	allocs      map[ddi.HRTRESOURCE][]ddi.HALLOCATION // what pfnAllocateCb gave each resource
	liveAllocs  int
	cmdBufSize  int
	removedErr  error
	dcCount     int
	contexts    map[ddi.HRTCORELAYER]*DeviceContext // for pfnSetErrorCb
	clsSizes    []ddi.HandleSize                    // CheckDeferredContextHandleSizes' answer
	clsPools    []*clsPool                          // the context-local handle allocator, one pool per size (memory.go)
	resByRT     map[ddi.HRTRESOURCE]uint32          // runtime resource handle -> driver handle, for traces
	displayMode ddi.HALLOCATION                     // the primary the display shows (full screen)
	allocBytes  uint64                              // bytes allocated through pfnAllocateCb and not freed
	objBytes    int64                               // runtime and driver memory of the live objects (memory.go)
	allocSize   map[ddi.HALLOCATION]uint64
	shared      map[ddi.HRTRESOURCE]bool         // resources created with MiscFlags=SHARED (rule FT-ALLOC)
	table       *ddi.FuncTable                   // the device function table the driver filled (rule FT-TABLE)
	destroyQ    []*object                        // the runtime's destruction queue: released objects the immediate context unbound since (drainDestroyQueue)
	states      map[any]*State                   // live state objects by descriptor (createState)
	stateKinds  map[string]int                   // how many of each kind states holds
	maxLatency  atomic.Uint32                    // SetMaximumFrameLatency's value (0: the default, 3)
	presentSync atomic.Uint32                    // the SyncInterval of the Present under way, for pfnPresentCb
	privMu      sync.Mutex                       // guards private and debugNames (messages read them under mu)
	private     map[any]map[string]*privateEntry // SetPrivateData's entries, by object and GUID (privatedata.go)
	debugNames  map[string]string                // WKPDID_D3DDebugObjectName's, by the object's name
}

func (d *Device) Name() string { return d.name }
func (d *Device) Alive() bool  { return !d.dead.Load() }
func (d *Device) AddRef() uint32 {
	return uint32(d.refs.Add(1))
}

// Release destroys the device once the application's references and every
// child object are gone (children hold the device, as in D3D11).
func (d *Device) Release() uint32 {
	done := d.api("Release", d.name, "")
	defer done.end(nil)
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
	// DestroyDevice drains everything ("Changes from Direct3D 10"). A child's destruction
	// comes back here; the last one finds none left.
	d.drainDestroyQueue("", "device-released")
	if d.children.Load() > 0 || d.dead.Swap(true) {
		return
	}
	done := d.api("DestroyDevice", d.name, "")
	d.freeRetiredContexts() // recycled deferred contexts' kept handles (recycle.go)
	d.ddiIC().on(d.name, handleName(uint32(d.hDev))).DestroyDevice(d.hDev)
	d.freeCLS()
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

// GetDeviceRemovedReason is nil (S_OK) while the device works, else why it
// was removed ("ID3D11Device::GetDeviceRemovedReason"; the meanings are the
// "DXGI_ERROR" page's): DXGI_ERROR_DEVICE_HUNG when its own commands hung
// the GPU or made it fault on an address (a TDR blamed it),
// DXGI_ERROR_DEVICE_RESET when an adapter reset
// for another device's hang took its work, DXGI_ERROR_DEVICE_REMOVED
// otherwise. Every other call of a removed device returns
// DXGI_ERROR_DEVICE_REMOVED.
func (d *Device) GetDeviceRemovedReason() (err error) {
	done := d.api("GetDeviceRemovedReason", d.name, "")
	defer func() { done.end(err) }()
	if d.Removed() == nil {
		return nil
	}
	hr := hresult.DXGI_ERROR_DEVICE_REMOVED
	if k, ok := d.rt.cfg.Kernel.(interface {
		RemovedReason(dxgk.HDevice) dxgk.RemovalReason
	}); ok {
		switch k.RemovedReason(d.kdev) {
		case dxgk.RemovedHung, dxgk.RemovedPageFault:
			hr = hresult.DXGI_ERROR_DEVICE_HUNG
		case dxgk.RemovedReset:
			hr = hresult.DXGI_ERROR_DEVICE_RESET
		}
	}
	return hresult.Errorf(hr, "device %s was removed", d.name)
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
// maxobjects): E_OUTOFMEMORY, as a real runtime out of memory would, and
// the debug layer names the limit. (memory.go bounds their bytes.)
func (d *Device) objectLimit(call, name string) error {
	if max := d.rt.cfg.MaxObjects; max > 0 && int(d.children.Load()) >= max {
		return d.outOfMemory(call, name, fmt.Sprintf("the device already holds %d live objects, its limit (option maxobjects=N)", max))
	}
	return nil
}

// driverError turns a DDI failure into the API's answer. "Changes from
// Direct3D 10" (New DDI error code): D3DDDIERR_APPLICATIONERROR lets a
// driver take part in validation the runtime did not do, and the debug
// layer then finds the application at fault (the application gets
// E_INVALIDARG, as for the runtime's own validation); E_INVALIDARG from a
// driver makes the API raise an exception, and the debug layer reports that
// the driver returned an internal error: a bug in the driver (rule ERR-APP).
// The simulator has no exceptions: the call returns the E_INVALIDARG the
// exception carries, and its Return and message say it was raised.
func (d *Device) driverError(ddiName, obj string, err error) error {
	blameApp := errors.Is(err, hresult.D3DDDIERR_APPLICATIONERROR)
	if d.rt.cfg.Bugs.Has(rules.ErrApp) {
		blameApp = !blameApp // the bug: blame the wrong party
	}
	switch {
	case errors.Is(err, hresult.D3DDDIERR_APPLICATIONERROR) || errors.Is(err, hresult.E_INVALIDARG):
		if blameApp {
			if d.debug {
				d.message(ddiName, obj, fmt.Sprintf("D3D11 ERROR: %s(%s): the driver found the application's call invalid (D3DDDIERR_APPLICATIONERROR): the application is at fault: %v", ddiName, obj, err))
			}
			return hresult.Errorf(hresult.E_INVALIDARG, "%s(%s): %v", ddiName, obj, err)
		}
		if d.debug {
			d.message(ddiName, obj, fmt.Sprintf("D3D11 CORRUPTION: %s(%s): the driver returned an internal error (E_INVALIDARG), a bug in the driver: %v", ddiName, obj, err))
		}
		return hresult.Errorf(hresult.E_INVALIDARG, "%s(%s): the API raised an exception: the driver returned E_INVALIDARG, an internal error of the driver: %v", ddiName, obj, err)
	}
	return err
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
	return d.ddiIC().with(d.name, handleName(uint32(d.hDev)), trace.IntArg(trace.KeyCode, int64(code))).Escape(d.hDev, code)
}

// calcCLS asks the driver, right after an object's creation on the immediate
// context, how much memory its context-local handles need
// (CalcDeferredContextHandleSize, "Using context-local DDI handles"): the
// size of the allocator slot each deferred context's handle onto it takes
// (memory.go).
func (d *Device) calcCLS(t ddi.HandleType, h uint32, name string) int64 {
	if !d.driverLists() { // no command-list DDI without the cap (emulated.go)
		return 0
	}
	return int64(d.ddiIC().on(name, handleName(h)).CalcDeferredContextHandleSize(d.hDev, t, h))
}
