// Package dxgkddi is the neutral boundary between Dxgkrnl (core/dxgk) and the
// kernel-mode display miniport driver (core/kmd): kernel handle types, the
// NTSTATUS codes that cross it, the DXGKARG_* argument structs, the driver's
// function table (KMD, the DxgkDdi* entry points) and the callback table
// Dxgkrnl hands down at DxgkDdiStartDevice (DxgkrnlInterface, mirroring
// DXGKRNL_INTERFACE). Both sides import it; neither imports the other, and
// nothing here imports the GPU.
//
// It carries the WDDM operation flow (steps 1-16): DxgkDdiCreateDevice
// (step 1), DxgkDdiCreateContext (step 3), DxgkDdiCreateAllocation (step 6),
// DxgkDdiRender turning a command buffer into a DMA buffer, allocation list
// and patch-location list, DxgkDdiPresent writing a present's (step 10), DxgkDdiBuildPagingBuffer
// (step 11), DxgkDdiSubmitCommand (steps 12 and 14), DxgkDdiPatch (step 13),
// and DxgkDdiInterruptRoutine, DxgkCbNotifyInterrupt and DxgkCbQueueDpc
// (steps 15-16).
//
// Command buffers cross the boundary in the GPU's packet format with one
// difference: every address field holds an allocation-list reference (low
// word: index into the allocation list, high word: byte offset inside that
// allocation; see ListAddress) instead of a physical address. The KMD checks
// every reference, writes the DMA buffer with the address words zeroed and
// records one PatchLocation per address; DxgkDdiPatch fills in the physical
// addresses once Dxgkrnl has made the allocations resident.
//
// Handles are integers assigned by Dxgkrnl; 0 is never valid. They print as
// "kd<N>" (devices), "kc<N>" (contexts) and "a<N>" (allocations), the form
// used in traces.
package dxgkddi
