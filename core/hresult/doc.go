// Package hresult is the HRESULT type shared by the D3D11 runtime, the UMD and
// the scenario runner: the real names and values, printed "NAME (0x...)", with
// errors.Is matching by code.
//
// Errors found at call time come back as HRESULTs, as the Direct3D 11 API
// and its DDI return them; the kernel side uses NTSTATUS (core/dxgkddi).
package hresult
