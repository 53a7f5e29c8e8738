package d3d11

import (
	"fmt"

	"d3dsim/core/hresult"
)

// The memory live objects hold, counted and bounded. Each API object costs
// the runtime and the driver memory: the runtime's own object, the private
// memory the driver asked for (the CalcPrivate*Size answer, and the
// context-local handle size CalcDeferredContextHandleSize answered), and,
// for a resource, its allocations' data (pfnAllocateCb). The runtime counts
// the bytes of every live object of a device and fails a creation with
// E_OUTOFMEMORY, before any memory is taken, when they would pass
//
//   - the device's budget: Config.MaxAllocBytes (option sysmem), which
//     bounds the allocations' bytes and the objects' runtime and driver
//     parts together, and
//   - the runtime's budget over all its devices' objects' runtime and
//     driver parts, Config.MaxRuntimeObjectBytes (a process holds many
//     devices: each one's budget alone would not bound them all; the
//     allocations are bounded machine-wide by video memory and the
//     aperture).
//
// The debug layer names the limit. Config.MaxObjects (option maxobjects)
// still bounds the count of a device's live objects.

const (
	// ObjectOverhead is what the runtime counts for one object besides
	// the driver's private size: the simulator's own bookkeeping for it
	// in the runtime, the UMD and Dxgkrnl, about 1.7 KiB of Go heap
	// measured for a view, a shader or a query, rounded up.
	ObjectOverhead = 2048
	// ResourceOverhead is counted for a resource on top of
	// ObjectOverhead: the kernel's allocation objects behind it.
	ResourceOverhead = 1024
	// DefaultMaxRuntimeObjectBytes is Config.MaxRuntimeObjectBytes when
	// it is 0: about 230,000 views, shaders or queries over all the
	// runtime's devices, some 400 MiB of Go heap.
	DefaultMaxRuntimeObjectBytes = 512 << 20
)

// reserve counts n more bytes of runtime and driver memory for an object
// the device is creating (call, name), or fails with E_OUTOFMEMORY when
// they would pass the device's or the runtime's limit. The bytes go back
// with unreserve (a creation that failed later) or with the object.
func (d *Device) reserve(call, name string, n int64) error {
	rt := d.rt
	d.mu.Lock()
	max := rt.cfg.MaxAllocBytes
	over := max > 0 && d.allocBytes+uint64(d.objBytes+n) > max
	objBytes, allocBytes := d.objBytes, d.allocBytes
	if !over {
		d.objBytes += n
	}
	d.mu.Unlock()
	if over {
		return d.outOfMemory(call, name, fmt.Sprintf("%d more bytes would pass device %s's memory limit of %d bytes (option sysmem=SIZE): "+
			"its live objects hold %d bytes of runtime and driver memory and %d bytes of allocations", n, d.name, max, objBytes, allocBytes))
	}
	limit := rt.maxObjectBytes()
	if total := rt.objBytes.Add(n); total > limit {
		rt.objBytes.Add(-n)
		d.mu.Lock()
		d.objBytes -= n
		d.mu.Unlock()
		return d.outOfMemory(call, name, fmt.Sprintf("%d more bytes would pass the runtime's limit of %d bytes of runtime and driver memory for the objects of all its devices: they hold %d",
			n, limit, total-n))
	}
	return nil
}

// charge counts n bytes for an object without a limit (the context-local
// handle sizes, told after the object exists; a command list, whose
// FinishCommandList does not fail for memory here).
func (d *Device) charge(n int64) int64 {
	d.mu.Lock()
	d.objBytes += n
	d.mu.Unlock()
	d.rt.objBytes.Add(n)
	return n
}

// unreserve gives back bytes reserve or charge counted.
func (d *Device) unreserve(n int64) {
	if n == 0 {
		return
	}
	d.mu.Lock()
	d.objBytes -= n
	d.mu.Unlock()
	d.rt.objBytes.Add(-n)
}

// outOfMemory is the E_OUTOFMEMORY of a creation past a limit; the debug
// layer says which.
func (d *Device) outOfMemory(call, name, msg string) error {
	if d.debug {
		d.message(call, name, "D3D11 ERROR: "+call+"("+name+"): out of memory: "+msg)
	}
	return hresult.Errorf(hresult.E_OUTOFMEMORY, "%s(%s): %s", call, name, msg)
}

func (rt *Runtime) maxObjectBytes() int64 {
	if rt.cfg.MaxRuntimeObjectBytes > 0 {
		return int64(min(rt.cfg.MaxRuntimeObjectBytes, 1<<62))
	}
	return DefaultMaxRuntimeObjectBytes
}

// ObjectBytes is what the device's live objects hold of runtime and driver
// memory (without their allocations' data: AllocatedBytes).
func (d *Device) ObjectBytes() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.objBytes
}

// AllocatedBytes is what the device's live allocations hold.
func (d *Device) AllocatedBytes() uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.allocBytes
}

// ObjectBytes is what the live objects of all the runtime's devices hold of
// runtime and driver memory.
func (rt *Runtime) ObjectBytes() int64 { return rt.objBytes.Load() }
