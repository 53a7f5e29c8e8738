package ddi

// WDDM 2.0 residency ("Driver residency in WDDM 2.0", "Process residency
// budgets"): the user-mode driver keeps each device's residency list with
// pfnMakeResidentCb and pfnEvictCb; Dxgkrnl charges the lists to the
// process's budget, and "TrimToBudget notification, Evict, and failed
// MakeResident calls all return the latest budget in the form of an integer
// NumBytesToTrim value".

// MakeResidentCb is D3DDDI_MAKERESIDENT: the allocations to put on the
// device's residency list, and on return NumBytesToTrim (set when the call
// failed with STATUS_NO_MEMORY: what must be evicted first).
type MakeResidentCb struct {
	Allocations    []HALLOCATION
	NumBytesToTrim uint64
}

// EvictCb is D3DDDICB_EVICT: the allocations to take off the list, and on
// return NumBytesToTrim for the budget as it stands.
type EvictCb struct {
	Allocations    []HALLOCATION
	NumBytesToTrim uint64
}

// ResidencyCallbacks are the runtime's pfnMakeResidentCb and pfnEvictCb, on
// the callback table of a runtime that runs the WDDM 2.0 residency model (a
// driver type-asserts).
type ResidencyCallbacks interface {
	PfnMakeResidentCb(HRTDEVICE, *MakeResidentCb) error
	PfnEvictCb(HRTDEVICE, *EvictCb) error
}

// TrimResidencySetArgs is D3DDDIARG_TRIMRESIDENCYSET: with TrimToBudget set,
// NumBytesToTrim "specifies how much the application should evict in order
// to meet its current memory budget".
type TrimResidencySetArgs struct {
	TrimToBudget   bool
	NumBytesToTrim uint64
}

// ResidencyTrimmer is the driver's pfnTrimResidencySet, which the runtime
// calls when the kernel's trim notification (D3DKMT_TRIMNOTIFICATION)
// arrives: the driver evicts from its residency list.
type ResidencyTrimmer interface {
	TrimResidencySet(HDEVICE, *TrimResidencySetArgs) error
}
