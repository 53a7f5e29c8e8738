// Package kmd is the kernel-mode display miniport driver (KMD) of d3dsim's
// simulated GPU: the DxgkDdi* entry points of core/dxgkddi, called by Dxgkrnl
// (core/dxgk), driving the hardware of package gpu through its Hardware
// interface and reading the command stream of package gpu/isa. It implements
// the kernel-mode driver's half of the "WDDM operation flow" page of the
// Windows driver documentation:
//
//   - DxgkDdiCreateDevice (step 1) reports the DMA buffer and list sizes
//     (DXGK_DEVICEINFO); DxgkDdiCreateContext (step 3);
//     DxgkDdiCreateAllocation (step 6) keeps a record per allocation: owner
//     device, size, surface description from the private driver data.
//   - DxgkDdiRender (step 10) validates the UMD's command buffer (rule WDDM-ISOLATE): it must decode, must not use the
//     privileged opcodes (FENCE, SCANOUT), and every address must name an
//     entry of the allocation list, every entry must belong to the submitting
//     device, and every access must lie inside its allocation (surfaces,
//     buffers, copies, writes, fills, queries). The vertices of a DRAW and
//     the indices of a DRAW_INDEXED are not checked: naming vertices or
//     indices past the end of a buffer is legal Direct3D 11, and the GPU
//     bounds those fetches by the binding (they read zero). The result is
//     the DMA buffer in the hardware format with the address words zeroed,
//     plus a patch-location list.
//   - DxgkDdiPresent writes the present's commands itself, from an
//     allocation list of null, source and destination: a COPY of the source
//     into the destination and a SCANOUT of it (Blt), or nothing at all for a
//     flip, which the driver runs by MMIO (FlipOnVSyncMmIo) when Dxgkrnl
//     calls DxgkDdiSetVidPnSourceAddress.
//   - DxgkDdiBuildPagingBuffer (step 11) writes COPY and FILL packets;
//     DxgkDdiPatch (step 13) writes physical addresses into the patch
//     locations; DxgkDdiSubmitCommand (steps 12, 14) appends a FENCE with the
//     submission fence id and queues the buffer on the GPU's ring.
//   - DxgkDdiInterruptRoutine (step 15) reads the engine's fence register and
//     calls DxgkCbNotifyInterrupt and DxgkCbQueueDpc (step 16).
//   - Timeout detection and recovery (TDR): DxgkDdiPreemptCommand asks an
//     engine to stop; DxgkDdiResetEngine resets one engine, for a driver that
//     reports SupportPerEngineTDR ("TDR changes in Windows 8"), which must
//     also answer DxgkDdiQueryEngineStatus (is the node making progress) and
//     DxgkDdiQueryDependentEngineGroup (which nodes a reset takes along);
//     DxgkDdiResetFromTimeout resets the whole GPU after a hardware timeout,
//     "typically a delayed response to a preempt request" (its reference
//     page), and DxgkDdiRestartFromTimeout lets it run again.
//
// Config.Bugs with "WDDM-ISOLATE" switches the validation off, so core/verify
// can be seen to catch a device that reaches another device's memory.
//
// Threading: the driver's records are guarded by a mutex, so the
// free-threaded creation DDIs may run on any goroutine. The KMD emits no
// trace events: Dxgkrnl traces every DDI call and return around it.
package kmd
