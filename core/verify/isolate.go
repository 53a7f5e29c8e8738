package verify

import (
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// WDDM-ISOLATE's out-of-range references ("WDDM operation flow", step 10:
// the KMD validates the command buffer it turns into a DMA buffer). An
// accepted reference outside an allocation shows in the event stream one of
// two ways:
//   - it starts outside: Dxgkrnl traces a patch location whose offset is at
//     or past the end of its allocation (PatchOutsideAllocation), checked
//     here; the GPU may not fault at all, for the address may land in
//     another allocation;
//   - it starts inside and runs past the end of the memory Dxgkrnl
//     committed for the allocation: the GPU page-faults (a GpuFault flagged
//     pagefault, checked in flowLate).
// A reference that starts inside and ends in the allocation's alignment
// padding (the region Dxgkrnl rounds its size up to) is seen by neither; it
// reaches no other allocation.
//
// A draw that names vertices or indices past the end of its buffers is not
// such a reference: Direct3D 11 defines those reads as zero, and the GPU
// bounds its fetches by the bindings, which are themselves references.

// patchOutside reports an accepted patch location outside its allocation.
func (v *Verifier) patchOutside(e *trace.Event) []Violation {
	if e.Kind != trace.Message || e.Name != "PatchOutsideAllocation" {
		return nil
	}
	return []Violation{v.violation(rules.WDDMIsolate, e, "the KMD accepted DMA buffer %d although it references an address outside an allocation (Dxgkrnl: %s)", e.DMA, e.Msg)}
}
