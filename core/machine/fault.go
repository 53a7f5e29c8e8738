package machine

import (
	"errors"
	"slices"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
)

// Fault names a fault a harness injects into the machine, below the API.
type Fault string

const (
	// FaultOutOfMemory makes a DDI of a device's or a context's table fail
	// with E_OUTOFMEMORY (InjectOutOfMemory).
	FaultOutOfMemory Fault = "E_OUTOFMEMORY"
	// FaultInvalidArg makes a create DDI (or ResourceMap) of a device's or
	// a context's table fail with E_INVALIDARG, as a driver with a bug
	// would (InjectError): the runtime treats it as the driver's internal
	// error.
	FaultInvalidArg Fault = "E_INVALIDARG"
	// FaultGPUFault makes the next DMA buffer fault on the GPU.
	FaultGPUFault Fault = "gpu.fault"
	// FaultGPUHang makes the next DMA buffer of a device (not a paging
	// buffer) hang: it never completes, and Dxgkrnl's timeout detection
	// resets the GPU.
	FaultGPUHang Fault = "gpu.hang"
	// FaultGPUHangPaging makes the next paging buffer hang: the engine
	// reset that follows is promoted to an adapter-wide reset ("TDR
	// changes in Windows 8").
	FaultGPUHangPaging Fault = "gpu.hang-paging"
	// FaultForeignAllocation makes a device's UMD reference another
	// device's allocation in its next command buffer.
	FaultForeignAllocation Fault = "umd.foreign"
	// FaultOverrun makes a device's UMD write across the end of one of its
	// own allocations in its next command buffer.
	FaultOverrun Fault = "umd.overrun"
	// FaultVRAMFull makes Dxgkrnl's video memory manager find VRAM full.
	FaultVRAMFull Fault = "vram.full"
	// FaultNoMakeResident makes a device's UMD skip pfnMakeResidentCb
	// before its next submission (WDDM 2.0 residency, option
	// wddm2.budget): an allocation it evicted is used off the residency
	// list.
	FaultNoMakeResident Fault = "umd.no-makeresident"
	// FaultBudget shrinks the process's residency budget (WDDM 2.0,
	// option wddm2.budget): memory pressure; the device named gets the
	// trim notification.
	FaultBudget Fault = "wddm2.budget"
)

// Faults lists every fault, sorted by name.
func Faults() []Fault {
	return []Fault{FaultInvalidArg, FaultOutOfMemory, FaultGPUFault, FaultGPUHang, FaultGPUHangPaging, FaultForeignAllocation, FaultNoMakeResident, FaultOverrun, FaultVRAMFull, FaultBudget}
}

// Known reports whether f is one of Faults.
func (f Fault) Known() bool { return slices.Contains(Faults(), f) }

// ErrCannotInject is the error of an injection the target cannot take.
var ErrCannotInject = errors.New("cannot inject the fault here")

// InjectGPUHang injects FaultGPUHang.
func (m *Machine) InjectGPUHang() { m.drv.InjectHang(false, m.gpu.InjectHang) }

// InjectGPUHangPaging injects FaultGPUHangPaging.
func (m *Machine) InjectGPUHangPaging() { m.drv.InjectHang(true, m.gpu.InjectHang) }

// InjectGPUFault injects FaultGPUFault.
func (m *Machine) InjectGPUFault() { m.gpu.InjectFault() }

// InjectVRAMFull injects FaultVRAMFull.
func (m *Machine) InjectVRAMFull() { m.kernel.InjectVRAMFull() }

// InjectForeignAllocation injects FaultForeignAllocation: on's UMD puts the
// newest allocation of target (a resource of another device) in its next
// command buffer's allocation list.
func (m *Machine) InjectForeignAllocation(on *d3d11.Device, target *d3d11.Resource) error {
	allocs := target.Device().Allocations(target)
	inj, ok := on.UMD().(interface{ InjectForeignAllocation(ddi.HALLOCATION) })
	if len(allocs) == 0 || !ok {
		return ErrCannotInject
	}
	inj.InjectForeignAllocation(allocs[len(allocs)-1])
	return nil
}

// InjectNoMakeResident injects FaultNoMakeResident on dev's UMD; it fails
// when the driver does not run the WDDM 2.0 residency model.
func (m *Machine) InjectNoMakeResident(dev *d3d11.Device) error {
	inj, ok := dev.UMD().(interface{ SkipMakeResident() bool })
	if !ok || !inj.SkipMakeResident() {
		return ErrCannotInject
	}
	return nil
}

// InjectBudget injects FaultBudget: the process's residency budget becomes
// size bytes; when the residency lists are over it, Dxgkrnl's trim
// notification reaches dev's runtime, which asks the driver to trim.
func (m *Machine) InjectBudget(dev *d3d11.Device, size uint64) error {
	over, err := m.kernel.SetResidencyBudget(size)
	if err != nil {
		return ErrCannotInject
	}
	if over > 0 {
		return dev.TrimToBudget(over)
	}
	return nil
}

// InjectOverrun injects FaultOverrun: target's device's UMD writes four
// bytes across the end of target's newest allocation in its next command
// buffer.
func (m *Machine) InjectOverrun(target *d3d11.Resource) error {
	allocs := target.Device().Allocations(target)
	inj, ok := target.Device().UMD().(interface{ InjectOverrun(ddi.HALLOCATION) bool })
	if len(allocs) == 0 || !ok || !inj.InjectOverrun(allocs[len(allocs)-1]) {
		return ErrCannotInject
	}
	return nil
}

// InjectOutOfMemory injects FaultOutOfMemory: the DDI that implements the
// API method (CreateBuffer: CreateResource, Map: ResourceMap, ...) fails
// the next count times it is called through the DDI table of obj, a
// *d3d11.Device or a *d3d11.DeviceContext (a deferred context has a table
// of its own).
func (m *Machine) InjectOutOfMemory(obj any, method string, count int) error {
	return m.InjectError(obj, method, count, nil)
}

// InjectError is InjectOutOfMemory with the error err (nil:
// E_OUTOFMEMORY), FaultInvalidArg's E_INVALIDARG among others.
func (m *Machine) InjectError(obj any, method string, count int, err error) error {
	var table any
	switch o := obj.(type) {
	case *d3d11.DeviceContext:
		table = o.UMD()
	case *d3d11.Device:
		table = o.UMD()
	}
	if err != nil {
		inj, ok := table.(interface{ InjectError(string, int, error) })
		if !ok {
			return ErrCannotInject
		}
		inj.InjectError(ddiFor(method), count, err)
		return nil
	}
	inj, ok := table.(interface{ InjectFailure(string, int) })
	if !ok {
		return ErrCannotInject
	}
	inj.InjectFailure(ddiFor(method), count)
	return nil
}

// ddiFor maps an API method to the DDI that implements it.
func ddiFor(method string) string {
	switch method {
	case "CreateBuffer", "CreateTexture2D":
		return "CreateResource"
	case "Map":
		return "ResourceMap"
	case "CreateSamplerState":
		return "CreateSampler"
	}
	return method
}
