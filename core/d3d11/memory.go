package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// The memory live objects hold, counted and bounded. Each API object costs
// the runtime and the driver memory: the runtime's own object, the private
// memory the driver asked for (the CalcPrivate*Size answer: the driver
// part, below), and, for a resource, its allocations' data (pfnAllocateCb);
// the context-local handle allocator's slots (below) are counted with the
// device's objects until they are trimmed. The runtime counts
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

// The driver's private memory and the context-local handle allocator
// ("Using context-local DDI handles": the driver tells the API how much
// memory it needs for a handle, and the API assigns the handle's value).
//
//   - Each object's driver part is memory the runtime allocates with the
//     size CalcPrivate*Size answered (object.private), handed to the
//     driver with the Create* DDI and freed once its Destroy* DDI
//     returned; the CalcPrivate*Size Return event carries the size.
//   - Context-local handles come from an allocator the runtime sizes at
//     device creation with CheckDeferredContextHandleSizes' array: one
//     pool per distinct size. A deferred context's handle onto an object
//     takes a slot of the size CalcDeferredContextHandleSize answered for
//     it; a slot freed when the handle closes stays in its pool (the
//     high-water mark), until pfnPerformAmortizedProcessingCb trims every
//     pool back to what is in use and frees the rest (trimCLS, the
//     TrimHighWaterMarks event says how much). The pools' bytes are
//     counted with the device's objects (charge) until trimmed or until
//     the device goes.

// clsPool is one size class of the context-local handle allocator.
type clsPool struct {
	size  int64
	inUse int // slots holding an open handle
	slots int // slots allocated: the high-water mark since the last trim
}

// initCLS builds the allocator's pools from CheckDeferredContextHandleSizes'
// array, one per distinct size, in the order the driver gave them.
func (d *Device) initCLS() {
	for _, s := range d.clsSizes {
		if d.clsPool(int64(s.Size), false) == nil {
			d.clsPools = append(d.clsPools, &clsPool{size: int64(s.Size)})
		}
	}
}

// clsPool returns the pool of a size; make adds one for a size the array
// did not list (undefined in the DDI: rule CLS-SIZES reports the driver).
// d.mu is held by the caller when make is set.
func (d *Device) clsPool(size int64, make bool) *clsPool {
	for _, p := range d.clsPools {
		if p.size == size {
			return p
		}
	}
	if !make {
		return nil
	}
	p := &clsPool{size: size}
	d.clsPools = append(d.clsPools, p)
	return p
}

// clsAlloc takes a slot for a context-local handle onto o, growing its
// pool past the high-water mark when none is free.
func (d *Device) clsAlloc(o Object) {
	b := baseObject(o)
	if b == nil || b.clsSize <= 0 {
		return
	}
	d.mu.Lock()
	p := d.clsPool(b.clsSize, true)
	p.inUse++
	grow := p.inUse > p.slots
	if grow {
		p.slots++
	}
	d.mu.Unlock()
	if grow {
		d.charge(p.size)
	}
}

// clsFree gives a handle's slot back to its pool (where it stays until
// the next trim).
func (d *Device) clsFree(o Object) {
	b := baseObject(o)
	if b == nil || b.clsSize <= 0 {
		return
	}
	d.mu.Lock()
	if p := d.clsPool(b.clsSize, false); p != nil && p.inUse > 0 {
		p.inUse--
	}
	d.mu.Unlock()
}

// trimCLS trims every pool to the slots in use and frees the rest: it
// returns the slots allocated before and after, and the bytes freed.
func (d *Device) trimCLS() (high, open int, freed int64) {
	d.mu.Lock()
	for _, p := range d.clsPools {
		high += p.slots
		open += p.inUse
		freed += int64(p.slots-p.inUse) * p.size
		p.slots = p.inUse
	}
	d.mu.Unlock()
	d.unreserve(freed)
	return high, open, freed
}

// freeCLS frees the allocator's pools with the device.
func (d *Device) freeCLS() {
	d.mu.Lock()
	var n int64
	for _, p := range d.clsPools {
		n += int64(p.slots) * p.size
		p.slots, p.inUse = 0, 0
	}
	d.mu.Unlock()
	d.unreserve(n)
}

// CLSBytes is what the context-local handle allocator holds: its pools'
// slots, in use or kept since the last trim.
func (d *Device) CLSBytes() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	var n int64
	for _, p := range d.clsPools {
		n += int64(p.slots) * p.size
	}
	return n
}

// CLSPool is one size class of the context-local handle allocator, for
// tests and the panel: its size, the handles open in it, its slots.
type CLSPool struct{ Size, InUse, Slots int }

// CLSPools lists the allocator's pools.
func (d *Device) CLSPools() []CLSPool {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]CLSPool, len(d.clsPools))
	for i, p := range d.clsPools {
		out[i] = CLSPool{int(p.size), p.inUse, p.slots}
	}
	return out
}

// calcPrivate asks the driver the size of a new object's driver part
// (CalcPrivate*Size, free-threaded: rule FT-CALC); its Return event
// carries the answer (size=), which the panel's Handles view shows.
func (d *Device) calcPrivate(name, ddiName string, calc func(ddi.Device) int) int {
	w := d.ddiIC().on(name, "")
	sp := w.enter(ddiName)
	n := calc(w.umd)
	sp.ev.Args = trace.IntArg(trace.KeySize, int64(n))
	sp.end(nil)
	return n
}

// driverPart gives a new object its driver part, allocated with the size
// CalcPrivate*Size answered (it goes with the object: finish), and the
// slot size of its context-local handles (CalcDeferredContextHandleSize).
func (o *object) driverPart(private int, cls int64) {
	if private > 0 {
		o.private = make([]byte, private)
	}
	o.clsSize = cls
}

// PrivateSize is the size of the object's driver part: what
// CalcPrivate*Size answered when it was created.
func (o *object) PrivateSize() int { return len(o.private) }

// baseObject returns the runtime's common part of an API object.
func baseObject(o Object) *object {
	if b, ok := o.(interface{ base() *object }); ok {
		return b.base()
	}
	return nil
}

func (o *object) base() *object { return o }
