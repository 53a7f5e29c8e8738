package machine

import (
	"errors"
	"fmt"

	"d3dsim/core/d3d11"
	"d3dsim/core/dxgk"
)

// ErrNoMemory is ReadBack's error for a resource that has no allocation.
var ErrNoMemory = errors.New("the resource has no memory")

// ReadBack returns a copy of a resource's bytes as its memory holds them
// now: the newest allocation of the resource (a renamed dynamic resource has
// several), locked through Dxgkrnl the way LockCb locks it. The caller
// flushes the device and waits for the GPU (Idle) first when it wants what
// the GPU left there.
func (m *Machine) ReadBack(res *d3d11.Resource) ([]byte, error) {
	dev := res.Device()
	allocs := dev.Allocations(res)
	if len(allocs) == 0 {
		return nil, ErrNoMemory
	}
	h := dxgk.HAllocation(allocs[len(allocs)-1])
	mem, err := m.kernel.Lock(dev.KernelDevice(), h)
	if err != nil {
		return nil, err
	}
	data := append([]byte(nil), mem...)
	m.kernel.Unlock(dev.KernelDevice(), h)
	return data, nil
}

// Live counts what is still alive in each layer.
type Live struct {
	APIObjects        int // the runtime's objects, every device's
	DriverObjects     int // the UMD's objects, every live device's
	Allocations       int // the runtime's allocations, every device's
	KernelDevices     int // Dxgkrnl's devices
	KernelContexts    int // and contexts
	KernelAllocations int // and allocations
}

// Total is the sum of the counts.
func (l Live) Total() int {
	return l.APIObjects + l.DriverObjects + l.Allocations + l.KernelDevices + l.KernelContexts + l.KernelAllocations
}

func (l Live) String() string {
	return fmt.Sprintf("API objects %d, driver objects %d, allocations %d, kernel devices %d, contexts %d, allocations %d",
		l.APIObjects, l.DriverObjects, l.Allocations, l.KernelDevices, l.KernelContexts, l.KernelAllocations)
}

// Live counts the objects, allocations and handles alive in every layer.
func (m *Machine) Live() Live {
	var l Live
	for _, d := range m.rt.Devices() {
		l.APIObjects += d.LiveObjects()
		if d.Alive() {
			if u, ok := d.UMD().(interface{ Live() int }); ok {
				l.DriverObjects += u.Live()
			}
		}
		l.Allocations += d.LiveAllocations()
	}
	l.KernelDevices, l.KernelContexts, l.KernelAllocations = m.kernel.Live()
	return l
}
