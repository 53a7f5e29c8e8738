// Package d3d11 is the simulated Direct3D 11 runtime: the API an application
// (a scenario) calls — Device, DeviceContext, resources, views, states,
// queries, swap chains — with D3D11's validation, reference counting and
// debug messages. It drives the user-mode driver through the ddi.Device
// table and serves the driver's callbacks (ddi.DeviceCallbacks) on top of
// Dxgkrnl (core/dxgk), the way the real runtime sits on the D3DKMT thunks.
//
// Seed 003 steps 2, 4, 7 and 8 happen here: the runtime calls the UMD's
// CreateDevice once Dxgkrnl has created the kernel device (step 1),
// CreateResource for surfaces, the drawing DDIs, and Present/Flush.
package d3d11
