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
//     Every allocation gets a home in the aperture at creation (its initial
//     data is written there): CPU-visible ones (dynamic, staging) live there;
//     the others use it as backing store and live in VRAM while resident.
//   - 10: Render and Present call DxgkDdiRender / DxgkDdiPresent on the
//     calling (app) thread, assign the context's next fence id (1, 2, ... per
//     context) and queue the DMA buffer to the GPU scheduler.
//   - 11-14: the scheduler runs on the simulated thread "kernel". Its video
//     memory manager (first-fit per segment) makes the buffer's allocations
//     resident: for each one not in VRAM it calls DxgkDdiBuildPagingBuffer
//     (TRANSFER aperture->vram, or FILL when there is no content), evicting
//     least-recently-used allocations the buffer does not use (TRANSFER
//     vram->aperture) when VRAM has no room, and submits the paging buffer
//     with DxgkDdiSubmitCommand — only when something must move. Then
//     DxgkDdiPatch writes the physical addresses and DxgkDdiSubmitCommand
//     queues the DMA buffer on the GPU with a fresh per-engine submission
//     fence id.
//   - 15-16: the GPU's interrupt (Interrupt) runs DxgkDdiInterruptRoutine on
//     thread "isr"; the driver calls DxgkCbNotifyInterrupt and DxgkCbQueueDpc;
//     the DPC (thread "dpc") calls DxgkDdiDpcRoutine, signals the finished
//     buffers' fences (FenceSignaled), retires them and frees allocations
//     whose destruction waited for them.
//
// Waits (WaitForFence, a Lock that conflicts with queued GPU work or runs
// during paging, DestroyDevice, Idle) run the simulation until the
// condition holds. A Lock with Discard renames a busy CPU-visible allocation
// instead (rename.go, "Requesting to rename an allocation"); a GPU-side wait
// (gpuwait.go) holds a context's later DMA buffers in the scheduler's queue
// and blocks no thread. A buffer that has not completed
// TDRDelay after it could start is a hang: timeout detection and recovery
// calls DxgkDdiResetFromTimeout and DxgkDdiRestartFromTimeout, removes the
// device that owned the buffer (its pending fences are cancelled, its waiters
// return an error matching ErrDeviceRemoved) and resubmits the other devices'
// buffers.
//
// Out of order (Config.OutOfOrder, the SamBookshelf article on asynchronous Draw; ooo.go): the scheduler orders
// queued DMA buffers by the RAW/WAR/WAW hazards of their allocation lists
// (the resource-lock queue of the SamBookshelf article on asynchronous Draw), emits each edge as a trace event of kind
// dep, and places independent buffers on any engine; fences stay monotonic
// per context.
//
// Fences: each context has its own fence ids, from 1, returned by Render and
// Present and shown in traces (Fence). The GPU's fence register holds a
// separate per-engine submission fence id, shown as "subfence=N" in traces.
//
// Threading: every exported method is safe for concurrent use (the D3D11
// creation paths are free-threaded, "Changes from Direct3D 10"). Methods that wait run the
// simulation on the calling goroutine.
package dxgk
