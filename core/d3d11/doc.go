// Package d3d11 is the simulated Direct3D 11 runtime: the API an application
// (a scenario) calls -- Device, DeviceContext, resources, views, states,
// queries, command lists, swap chains -- with D3D11's validation, reference
// counting and debug messages. It drives the user-mode driver through the
// DDI table core/ddi declares and serves the driver's callbacks
// (ddi.DeviceCallbacks) on top of Dxgkrnl (the Kernel interface,
// *dxgk.Dxgkrnl), the way the real runtime sits on the D3DKMT thunks.
//
// It implements the runtime's side of these pages of the Windows driver
// documentation:
//
//   - "WDDM operation flow": the kernel device first, then the UMD's
//     CreateDevice (which creates its GPU context through
//     pfnCreateContextCb), CreateResource for surfaces (allocations through
//     pfnAllocateCb), the drawing DDIs, Present and Flush.
//   - "Changes from Direct3D 10": free-threaded object creation (for a driver
//     without D3D11DDICAPS_FREETHREADED, the page keeps the earlier, strictly
//     limited rules: this runtime holds a DDI lock, the "coarse
//     synchronization" of "D3D11_FEATURE_DATA_THREADING structure"), the
//     deferred destruction queue drained in pfnPerformAmortizedProcessingCb
//     and at Flush, D3DDDIERR_APPLICATIONERROR.
//   - "Using context-local DDI handles": a deferred context's own handles,
//     opened on first use, a resource's before its views', and closed when
//     the command list is made.
//   - "Supporting command lists": FinishCommandList, the recycling DDIs and
//     the command-list handle states; and, for a driver without command
//     lists, their emulation by the runtime.
//
// The files, one job each:
//
//   - api.go: the application-facing names of the API's enumerations and
//     descriptors;
//   - runtime.go, device.go, kernel.go: the runtime, devices and what they
//     need of Dxgkrnl; callbacks.go: the driver's callbacks.
//   - resources.go, create.go, swapchain.go, objects.go: the device's
//     objects, their validation, creation and reference counts (equal
//     state objects shared, create.go); memory.go: the memory they hold,
//     counted and bounded; owner.go: an object used only with the device
//     that created it.
//   - context.go, bindings.go: DeviceContext, the handle of the three kinds
//     of context, with the validation and binding state they share;
//     pipeline.go: the state and drawing calls the immediate and deferred
//     kinds share; immediate.go, deferred.go (with localhandles.go) and
//     emulated.go: what each kind does its own way; commandlist.go.
//   - ddicall.go, ddicalls.go: the one wrapper at the runtime-UMD boundary,
//     which traces every DDI, holds the DDI lock and charges its cost.
package d3d11
