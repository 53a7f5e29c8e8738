package dxgkddi

import "strconv"

// Kernel handles, assigned by Dxgkrnl. 0 is invalid.
type (
	HDevice     uint32 // a device (DxgkDdiCreateDevice), printed kd<N>
	HContext    uint32 // a GPU context (DxgkDdiCreateContext), printed kc<N>
	HAllocation uint32 // an allocation (DxgkDdiCreateAllocation), printed a<N>
)

func (h HDevice) String() string     { return "kd" + strconv.FormatUint(uint64(h), 10) }
func (h HContext) String() string    { return "kc" + strconv.FormatUint(uint64(h), 10) }
func (h HAllocation) String() string { return "a" + strconv.FormatUint(uint64(h), 10) }

// NullAllocationIndex in the low word of a command-buffer address field
// means "no allocation": the KMD writes the address as 0 (the GPU's unbound
// slot), records no patch location and checks nothing.
const NullAllocationIndex = 0xFFFFFFFF

// ListAddress encodes a command-buffer address field: index into the
// allocation list (low word) and byte offset inside that allocation (high
// word).
func ListAddress(index, offset uint32) uint64 { return uint64(index) | uint64(offset)<<32 }

// SplitListAddress decodes a command-buffer address field.
func SplitListAddress(a uint64) (index, offset uint32) { return uint32(a), uint32(a >> 32) }
