// Package ddi is the neutral boundary between the D3D11 runtime (core/d3d11)
// and the user-mode display driver (core/umd): the DDI handle types, the
// D3D11DDIARG_* argument structs, the device function table the UMD fills in
// at CreateDevice (Device), and the callback table the runtime hands down
// (DeviceCallbacks, mirroring D3DDDI_DEVICECALLBACKS and the core-layer
// pfnSetErrorCb). Both sides import it; neither imports the other.
//
// Handles are runtime-allocated integers (the runtime sizes each driver
// object with the matching CalcPrivate*Size DDI and allocates its memory);
// 0 is never a valid handle.
package ddi
