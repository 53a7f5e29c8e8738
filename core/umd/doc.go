// Package umd is the user-mode display driver for the simulated GPU: the
// D3D11 DDIs of core/ddi, implemented by encoding the GPU's packet format
// (gpu/packet.go) into a command buffer whose addresses are
// allocation-list-relative (low word: list index, high word: byte offset).
// The KMD validates and patches them (seed 003, steps 7–13).
//
// The UMD calls up only through the ddi.DeviceCallbacks the runtime hands
// down at CreateDevice: pfnCreateContextCb for its GPU context (seed 003 step
// 3), pfnAllocateCb for resources (step 5), pfnRenderCb when Flush is called
// or the command buffer is full and pfnPresentCb for Present (step 9).
//
// Threading: object tables are guarded by a mutex so the free-threaded
// Create*/Destroy* DDIs (seed 000) may run on any goroutine; the immediate
// context is driven by one thread at a time, as the runtime guarantees.
package umd
