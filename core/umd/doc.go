// Package umd is the user-mode display driver (UMD) for the simulated GPU:
// the D3D11 DDIs of core/ddi, implemented by encoding the GPU's command
// stream (package gpu/isa) into a command buffer whose addresses are
// allocation-list relative (low word: list index, high word: byte offset).
// The KMD validates and patches them. This is the UMD's half of the "WDDM
// operation flow" page of the Windows driver documentation: it calls up
// only through the ddi.DeviceCallbacks the runtime hands down at
// CreateDevice, pfnCreateContextCb for its GPU context (step 3),
// pfnAllocateCb for resources (step 5), pfnRenderCb when Flush is called,
// when the command buffer is full, when a Map or GetData needs the work
// recorded so far on the GPU, and at Present (step 9); at Present it then
// calls pfnPresentCb, which names only the source allocation and the model
// ("DXGI_DDI_BASE_FUNCTIONS", pfnPresent): the present's own commands are
// the KMD's.
//
// The types follow the D3D11 DDI's split between contexts:
//
//   - Device (device.go, states.go) is the driver device, whose handle is
//     also the immediate context's: the object tables of the free-threaded
//     Create*/Destroy* DDIs, with the immediate context embedded.
//   - immediateContext (immediate.go) submits, locks what a Map maps through
//     pfnLockCb (where the video memory manager waits for the GPU, fails
//     under DonotWait or renames under Discard), queues GPU-side fence waits
//     and signals (signal.go), performs deferred destructions after the submission
//     that carries a resource's last use and calls
//     pfnPerformAmortizedProcessingCb ("Changes from Direct3D 10").
//   - deferredContext (deferred.go) records into what becomes a command
//     list, reports its errors through its own pfnSetErrorCb and is recycled
//     ("Supporting command lists"); its object handles are context-local and
//     translate to the immediate context's ("Using context-local DDI
//     handles").
//   - context (context.go) is what both share: the bound state, the encoder
//     and the allocation list. The recorder interface is where they differ
//     while encoding (making room, referencing a resource).
//   - commandList (commandlist.go) holds a recording; CommandListExecute
//     splices it into immediate command buffers.
//
// Threading: the object tables are guarded by a mutex so the free-threaded
// Create*/Destroy* DDIs may run on any goroutine; each context is driven by
// one thread at a time, as the runtime guarantees.
package umd
