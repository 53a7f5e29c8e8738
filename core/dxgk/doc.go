// Package dxgk is d3dsim's DirectX graphics kernel subsystem (Dxgkrnl): the
// kernel side of the WDDM operation flow, between the D3D11 runtime
// (core/d3d11, which implements the UMD's pfn*Cb callbacks on top of this
// package's exported API, the way the D3DKMT thunks reach the kernel) and the
// kernel-mode driver, which it reaches only through core/dxgkddi. It never
// imports core/kmd or the GPU; the wiring code connects the GPU's interrupt
// line to Interrupt and its memory to SetSegments.
//
// What it does, by step of the WDDM operation flow:
//
//   - 1, 3, 6: CreateDevice, CreateContext and CreateAllocation call
//     DxgkDdiCreateDevice, DxgkDdiCreateContext and DxgkDdiCreateAllocation.
//     Every allocation gets a backing store in system memory at creation (its
//     initial data is written there). CPU-visible ones (dynamic, staging)
//     stay there and the GPU reaches them through the aperture segment; the
//     others live in VRAM while resident.
//   - 10: Render calls DxgkDdiRender on the calling (app) thread
//     (DXGKARG_RENDER has no fence); Present (present.go) picks the
//     destination and calls DxgkDdiPresent, which writes the present's own
//     DMA buffer (a copy; a flip needs none). Both count the
//     submission in the context's progress (1, 2, ... per context: what the
//     context's monitored fence reads once the buffer is done) and queue the
//     DMA buffer to the GPU scheduler.
//   - 11-14: the scheduler runs on the simulated thread "kernel". Its video
//     memory manager (first-fit per segment) makes the buffer's allocations
//     resident: for each one not in VRAM it calls DxgkDdiBuildPagingBuffer
//     (TRANSFER system->vram, or FILL when there is no content), evicting
//     least-recently-used allocations the buffer does not use to their
//     backing store (TRANSFER vram->system) when VRAM has no room, or, with
//     nothing to evict, mapping the allocation's backing store into the
//     aperture segment (MAP_APERTURE_SEGMENT: no copy; vidmm.go, after "GPU
//     segments"), and submits the paging buffer
//     with DxgkDdiSubmitCommand — only when something must move. Then
//     DxgkDdiPatch writes the physical addresses and DxgkDdiSubmitCommand
//     queues the DMA buffer on the GPU with a fresh per-engine submission
//     fence id.
//   - 15-16: the GPU's interrupt (Interrupt) runs DxgkDdiInterruptRoutine on
//     thread "isr"; the driver calls DxgkCbNotifyInterrupt and DxgkCbQueueDpc;
//     the DPC (thread "dpc") calls DxgkDdiDpcRoutine, signals the finished
//     buffers' fences (FenceSignaled) and retires them. Allocations whose
//     destruction waited for them are freed at PASSIVE_LEVEL on the thread
//     "worker" (DxgkDdiDestroyAllocation is pageable), not in the DPC.
//   - The display (display.go): a vertical blank every 1/RefreshHz s of
//     virtual time. A present's frame is queued until it is shown: a
//     bitblt frame when its copy is done (the copy waits in the scheduler
//     for its vertical blank when SyncInterval is 1..4), a flip frame when
//     DxgkDdiSetVidPnSourceAddress points the scan-out at it on "kernel". A
//     present that finds its device's maximum frame latency of frames queued
//     waits (throttle).
//
// Waits (WaitForFence, a Lock that conflicts with queued GPU work or runs
// during paging, DestroyDevice, Idle) run the simulation until the
// condition holds. A Lock with Discard renames a busy CPU-visible allocation
// instead (rename.go, "Requesting to rename an allocation"); a GPU-side wait
// (gpuwait.go) holds a context's later DMA buffers in the scheduler's queue
// and blocks no thread. A buffer still running PreemptAfter
// after it could start is asked to preempt (DxgkDdiPreemptCommand); the
// engine stops at its next boundary and answers DXGK_INTERRUPT_DMA_PREEMPTED,
// and the DPC submits the rest again, the stopped buffer resuming where it
// stopped (preempt.go); no answer within TDRDelay is a hang (wait.go). With
// Config.ResidencyBudget the devices keep WDDM 2.0 residency lists
// (MakeResident, Evict) charged to a process budget (residency.go). Timeout detection and recovery
// then resets the engine (DxgkDdiResetEngine) when the driver reported
// SupportPerEngineTDR, else the adapter (DxgkDdiResetFromTimeout,
// DxgkDdiRestartFromTimeout). The device that owned the buffer is removed as
// hung; an adapter reset removes every other device too, as reset
// (RemovedReason). Removed devices' pending fences are cancelled and their
// waiters return an error matching ErrDeviceRemoved; after an engine reset
// the other devices' buffers are submitted again.
//
// Scheduling, by default as in Windows ("Submitting a Command Buffer",
// D3DDDICB_CREATECONTEXT's NodeOrdinal): a context is created on one node
// (CreateContextOnNode) and its DMA buffers run there in submission order;
// the scheduler takes ready buffers in the order they became ready, so
// contexts on different nodes run at the same time; work of different
// contexts is ordered only by synchronization objects (sync.go).
//
// Config.OutOfOrder (`option scheduler=salvia`, older name `ooo=true`) is
// not Windows: it is the design of the article "Direct3D Draw函数
// 异步调用原理解析" (SamBookshelf), which says it comes from the SALVIA
// software renderer. The scheduler orders queued DMA buffers by the
// RAW/WAR/WAW hazards of their allocation lists (the article's resource-lock
// queue; ooo.go), emits each edge as a trace event of kind dep, and places
// independent buffers on any engine; context progress stays monotonic.
//
// Fences: each buffer's submission fence id is Dxgkrnl's, counted per node
// (engine) with paging buffers, and given to DxgkDdiPatch and then
// DxgkDdiSubmitCommand ("Supplying Fence Identifiers"); the driver makes the
// GPU write it to the node's fence register, and the ISR reports it per node
// (DxgkCbNotifyInterrupt). Traces show it as "subfence=N" and the context's
// progress as the event's fence.
//
// Offer and reclaim (offer.go, "Video memory offer and reclaim", WDDM 1.2):
// OfferAllocations marks allocations the memory manager may take; an
// offered allocation is evicted first, the lowest priority first, and its
// content is discarded instead of paged out; ReclaimAllocations says which
// lost their content.
//
// Threading: every exported method is safe for concurrent use (the D3D11
// creation paths are free-threaded, "Changes from Direct3D 10"). Methods that wait run the
// simulation on the calling goroutine.
package dxgk
