package dxgkddi

// KMD is the kernel-mode display miniport's function table
// (DRIVER_INITIALIZATION_DATA): the DxgkDdi* entry points Dxgkrnl calls.
// Errors carry an NTSTATUS (use Errorf); nil is STATUS_SUCCESS.
//
// Threading: Dxgkrnl calls DxgkDdiCreateDevice, DxgkDdiCreateAllocation and
// DxgkDdiDestroyAllocation from any thread, possibly at once (the
// free-threaded D3D11 creation paths, "Changes from Direct3D 10"); DxgkDdiRender and
// DxgkDdiPresent on the app thread that submits, one at a time per context;
// DxgkDdiBuildPagingBuffer, DxgkDdiPatch, DxgkDdiSubmitCommand and the TDR
// entries on the GPU scheduler's thread ("kernel"); DxgkDdiInterruptRoutine on
// "isr" (it must not block: read the hardware, call DxgkCbNotifyInterrupt and
// DxgkCbQueueDpc, return) and DxgkDdiDpcRoutine on "dpc".
type KMD interface {
	DxgkDdiStartDevice(*StartDeviceArgs) error
	DxgkDdiCreateDevice(*CreateDeviceArgs) error
	DxgkDdiDestroyDevice(HDevice) error
	DxgkDdiCreateContext(*CreateContextArgs) error
	DxgkDdiDestroyContext(HContext) error
	DxgkDdiCreateAllocation(*CreateAllocationArgs) error
	DxgkDdiDestroyAllocation(*DestroyAllocationArgs) error
	DxgkDdiRender(*RenderArgs) error
	DxgkDdiPresent(*PresentArgs) error
	DxgkDdiBuildPagingBuffer(*BuildPagingBufferArgs) error
	DxgkDdiPatch(*PatchArgs) error
	DxgkDdiSubmitCommand(*SubmitCommandArgs) error
	// DxgkDdiInterruptRoutine reports whether the interrupt was the
	// adapter's.
	DxgkDdiInterruptRoutine(*InterruptRoutineArgs) bool
	DxgkDdiDpcRoutine()
	// DxgkDdiPreemptCommand asks the hardware to preempt an engine; a
	// preemption that does not come within the TDR delay is a timeout
	// ("Timeout Detection and Recovery (TDR)").
	DxgkDdiPreemptCommand(*PreemptCommandArgs) error
	// DxgkDdiResetEngine resets one engine (only when the driver reported
	// SupportPerEngineTDR at DxgkDdiStartDevice).
	DxgkDdiResetEngine(*ResetEngineArgs) error
	// DxgkDdiQueryEngineStatus says whether a node is making progress and
	// DxgkDdiQueryDependentEngineGroup which nodes an engine reset takes
	// with it: a driver that reports SupportPerEngineTDR must implement
	// both ("TDR changes in Windows 8").
	DxgkDdiQueryEngineStatus(*QueryEngineStatusArgs) error
	DxgkDdiQueryDependentEngineGroup(*QueryDependentEngineGroupArgs) error
	// DxgkDdiResetFromTimeout resets the whole adapter: every engine.
	DxgkDdiResetFromTimeout(*ResetFromTimeoutArgs) error
	DxgkDdiRestartFromTimeout(*RestartFromTimeoutArgs) error
	// DxgkDdiSetVidPnSourceAddress points the display's scan-out at a
	// primary: Dxgkrnl calls it on "kernel" for a flip that waited for a
	// vertical blank ("DXGKDDI_SETVIDPNSOURCEADDRESS callback function": it
	// "sets the address of the primary surface", and performs MMIO-based
	// flips).
	DxgkDdiSetVidPnSourceAddress(*SetVidPnSourceAddressArgs) error
	// DxgkDdiControlInterrupt enables or disables an interrupt type: "A call
	// to DxgkDdiControlInterrupt to enable the DXGK_INTERRUPT_CRTC_VSYNC
	// interrupt type indicates for the driver to control vertical retrace
	// interrupt" ("DXGKDDI_CONTROLINTERRUPT"). Dxgkrnl enables it while a
	// present waits for a vertical blank.
	DxgkDdiControlInterrupt(*ControlInterruptArgs) error
}

// DxgkrnlInterface is the callback table Dxgkrnl hands the driver at
// DxgkDdiStartDevice (DXGKRNL_INTERFACE), the only way up.
type DxgkrnlInterface interface {
	// DxgkCbNotifyInterrupt tells Dxgkrnl that the engine's fence register
	// reads fence: every DMA buffer submitted on that engine with a
	// submission fence id up to fence is done (DXGK_INTERRUPT_DMA_COMPLETED,
	// WDDM operation flow, step 16). Callable from the ISR.
	DxgkCbNotifyInterrupt(engine int, fence uint64)
	// DxgkCbNotifyDmaPageFaulted is DxgkCbNotifyInterrupt with
	// DXGK_INTERRUPT_DMA_PAGE_FAULTED: the engine faulted on an address while
	// running the buffer with submission fence id faultedFence; the ones
	// before it are done ("DXGK_INTERRUPT_TYPE", "DXGK_PAGE_FAULT_FLAGS").
	// Callable from the ISR.
	DxgkCbNotifyDmaPageFaulted(engine int, faultedFence uint64)
	// DxgkCbNotifyDmaPreempted is DxgkCbNotifyInterrupt with
	// DXGK_INTERRUPT_DMA_PREEMPTED: the engine stopped for the preemption
	// request with id preemptionFence, and every buffer up to submission
	// fence lastCompleted is done; the rest are the scheduler's to submit
	// again (DXGKARGCB_NOTIFY_INTERRUPT_DATA's DmaPreempted:
	// PreemptionFenceId, LastCompletedFenceId). Callable from the ISR.
	DxgkCbNotifyDmaPreempted(engine int, preemptionFence, lastCompleted uint64)
	// DxgkCbNotifyCrtcVsync is DxgkCbNotifyInterrupt with
	// DXGK_INTERRUPT_CRTC_VSYNC: vertical blank vblank of video present
	// target target has come, and scanAddress is the address it scanned
	// out ("the effective scan address", DXGKDDI_SETVIDPNSOURCEADDRESS):
	// a flip programmed before it is done. Callable from the ISR.
	DxgkCbNotifyCrtcVsync(target int, vblank int64, scanAddress uint64)
	// DxgkCbQueueDpc queues the DPC (DxgkDdiDpcRoutine); it reports false if
	// it was already queued. Callable from the ISR.
	DxgkCbQueueDpc() bool
	// DxgkCbNotifyDpc, called from the driver's DPC, tells the GPU
	// scheduler about what the ISR reported, at DPC time: "the GPU
	// scheduler must also be notified, when the driver's DPC callback
	// routine calls the DXGKCB_NOTIFY_DPC function, about the same event at
	// DPC time" ("DXGKCB_NOTIFY_INTERRUPT"). Dxgkrnl retires the finished
	// buffers and signals their fences inside it.
	DxgkCbNotifyDpc()
}

// Memory is the physical memory Dxgkrnl's video memory manager commits
// extents in (the GPU's *gpu.Memory satisfies it). Bytes aliases the memory.
type Memory interface {
	Commit(addr, size uint64) error
	Decommit(addr uint64) error
	Bytes(addr, n uint64) ([]byte, bool)
}
