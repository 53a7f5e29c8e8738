package ddi

// Adapter is the driver entry the runtime opens (OpenAdapter10_2): it sizes
// and creates devices.
type Adapter interface {
	CalcPrivateDeviceSize() int
	// CreateDevice initialises the driver device in hDevice's memory. Per
	// WDDM operation flow, step 3, it must call PfnCreateContextCb for its GPU context.
	CreateDevice(hDevice HDEVICE, args *CreateDeviceArgs) (Device, error)
}

// Device is the D3D11DDI_DEVICEFUNCS table (and the DXGI entries) for one
// device, immediate context included. Object handles are allocated by the
// runtime after the matching CalcPrivate*Size call.
//
// Threading ("Changes from Direct3D 10"): with D3D11DDICAPS_FREETHREADED the CalcPrivate*,
// Create* and Destroy* entries may be called from any thread at once; the
// immediate-context entries are called from one thread at a time.
type Device interface {
	// Free-threaded object creation and destruction. No create DDI returns
	// an error: the driver reports one through pfnSetErrorCb with the
	// core-layer handle of the context the create is for -- the immediate
	// context's for the device's objects, a deferred context's for the
	// handles it opens ("Using context-local DDI handles").
	CalcPrivateResourceSize(*CreateResourceArgs) int
	CreateResource(HDEVICE, *CreateResourceArgs, HRESOURCE, HRTRESOURCE)
	DestroyResource(HDEVICE, HRESOURCE)
	CalcPrivateViewSize(*CreateViewArgs) int
	CreateRenderTargetView(h HDEVICE, a *CreateViewArgs, v HRENDERTARGETVIEW, rt uint32)
	DestroyRenderTargetView(HDEVICE, HRENDERTARGETVIEW)
	CreateShaderResourceView(h HDEVICE, a *CreateViewArgs, v HSHADERRESOURCEVIEW, rt uint32)
	DestroyShaderResourceView(HDEVICE, HSHADERRESOURCEVIEW)
	CreateDepthStencilView(h HDEVICE, a *CreateViewArgs, v HDEPTHSTENCILVIEW, rt uint32)
	DestroyDepthStencilView(HDEVICE, HDEPTHSTENCILVIEW)
	CalcPrivateShaderSize(*ShaderArgs) int
	CreateVertexShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	CreatePixelShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	DestroyShader(HDEVICE, HSHADER)
	CalcPrivateElementLayoutSize(*CreateElementLayoutArgs) int
	CreateElementLayout(h HDEVICE, a *CreateElementLayoutArgs, l HELEMENTLAYOUT, rt uint32)
	DestroyElementLayout(HDEVICE, HELEMENTLAYOUT)
	CalcPrivateBlendStateSize(*BlendDesc) int
	CreateBlendState(h HDEVICE, d *BlendDesc, s HBLENDSTATE, rt uint32)
	DestroyBlendState(HDEVICE, HBLENDSTATE)
	CalcPrivateRasterizerStateSize(*RasterizerDesc) int
	CreateRasterizerState(h HDEVICE, d *RasterizerDesc, s HRASTERIZERSTATE, rt uint32)
	DestroyRasterizerState(HDEVICE, HRASTERIZERSTATE)
	CalcPrivateDepthStencilStateSize(*DepthStencilDesc) int
	CreateDepthStencilState(h HDEVICE, d *DepthStencilDesc, s HDEPTHSTENCILSTATE, rt uint32)
	DestroyDepthStencilState(HDEVICE, HDEPTHSTENCILSTATE)
	CalcPrivateSamplerSize(*SamplerDesc) int
	CreateSampler(h HDEVICE, d *SamplerDesc, s HSAMPLER, rt uint32)
	DestroySampler(HDEVICE, HSAMPLER)
	// CheckFormatSupport is pfnCheckFormatSupport: what the device supports
	// of a format (D3D11_FORMAT_SUPPORT). Free-threaded, as the pfnCheck*
	// entries are.
	CheckFormatSupport(h HDEVICE, f Format) FormatSupport
	CalcPrivateQuerySize(QueryType) int
	CreateQuery(h HDEVICE, t QueryType, q HQUERY, rt uint32)
	DestroyQuery(HDEVICE, HQUERY)

	// Immediate context.
	IaSetVertexBuffers(h HDEVICE, start uint32, bufs []HRESOURCE, strides, offsets []uint32)
	IaSetIndexBuffer(h HDEVICE, buf HRESOURCE, f Format, offset uint32)
	IaSetTopology(HDEVICE, Topology)
	IaSetInputLayout(HDEVICE, HELEMENTLAYOUT)
	VsSetShader(HDEVICE, HSHADER)
	VsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	PsSetShader(HDEVICE, HSHADER)
	PsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	PsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	PsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
	// VsSetShaderResources and VsSetSamplers are pfnVsSetShaderResources
	// and pfnVsSetSamplers: the vertex shader's textures and samplers.
	VsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	VsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
	SetRenderTargets(h HDEVICE, rtvs []HRENDERTARGETVIEW, dsv HDEPTHSTENCILVIEW)
	SetBlendState(h HDEVICE, s HBLENDSTATE, factor [4]float32, sampleMask uint32)
	SetRasterizerState(HDEVICE, HRASTERIZERSTATE)
	SetDepthStencilState(h HDEVICE, s HDEPTHSTENCILSTATE, stencilRef uint32)
	SetViewports(h HDEVICE, vps []Viewport)
	// SetScissorRects is pfnSetScissorRects: NumRects rectangles, the
	// rest cleared.
	SetScissorRects(h HDEVICE, rects []Rect)
	ClearRenderTargetView(h HDEVICE, v HRENDERTARGETVIEW, rgba [4]float32)
	ClearDepthStencilView(h HDEVICE, v HDEPTHSTENCILVIEW, flags ClearFlag, depth float32, stencil uint8)
	Draw(h HDEVICE, count, start uint32)
	DrawIndexed(h HDEVICE, count, start uint32, base int32)
	DrawInstanced(h HDEVICE, count, instances, start, startInstance uint32)
	DrawIndexedInstanced(h HDEVICE, count, instances, start uint32, base int32, startInstance uint32)
	// DrawInstancedIndirect and DrawIndexedInstancedIndirect are
	// pfnDrawInstancedIndirect and pfnDrawIndexedInstancedIndirect: the
	// arguments are in buf at offset, read by the GPU when the draw runs.
	DrawInstancedIndirect(h HDEVICE, buf HRESOURCE, offset uint32)
	DrawIndexedInstancedIndirect(h HDEVICE, buf HRESOURCE, offset uint32)
	ResourceCopy(h HDEVICE, dst, src HRESOURCE)
	// ResourceUpdateSubresourceUP writes data into subresource sub of dst
	// (within box, nil: the whole subresource), rows rowPitch and 2D
	// slices depthPitch bytes apart in data; rowPitch 0: data packed
	// tightly from the subresource's start, on into the following
	// subresources if it is longer (texture.go).
	ResourceUpdateSubresourceUP(h HDEVICE, dst HRESOURCE, sub uint32, box *Box, data []byte, rowPitch, depthPitch uint32)
	// GenerateMips fills the levels of a shader-resource view below its
	// most detailed one from it (pfnGenerateMips).
	GenerateMips(h HDEVICE, v HSHADERRESOURCEVIEW)
	// ResourceMap is PFND3D10DDI_RESOURCEMAP, the function behind the six
	// map entries of the table (MapEntry): it returns nothing. It fills out
	// or reports an error through pfnSetErrorCb: DXGI_DDI_ERR_WASSTILLDRAWING
	// when the runtime passed D3D10_DDI_MAP_FLAG_DONOTWAIT and the map would
	// wait, D3DDDIERR_DEVICEREMOVED on a removed device.
	ResourceMap(h HDEVICE, r HRESOURCE, t MapType, flags MapFlag, out *MappedSubresource)
	ResourceUnmap(HDEVICE, HRESOURCE)
	QueryBegin(HDEVICE, HQUERY)
	QueryEnd(HDEVICE, HQUERY)
	// QueryGetData is PFND3D10DDI_QUERYGETDATA: it returns nothing. While
	// the GPU has not passed the End the driver passes
	// DXGI_DDI_ERR_WASSTILLDRAWING to pfnSetErrorCb ("to indicate that the
	// query is not finished yet"); once it has, it writes the data.
	QueryGetData(h HDEVICE, q HQUERY, flags uint32, data *uint64)
	Flush(HDEVICE)
	// PresentDXGI is the DXGI DDI's Present ("DXGI_DDI_BASE_FUNCTIONS",
	// pfnPresent): the driver first submits every partially built command
	// buffer with pfnRenderCb, then calls pfnPresentCb with the kernel
	// handles of the source and destination. The present itself (a copy
	// or a flip) is built by the KMD's DxgkDdiPresent, not by the UMD.
	PresentDXGI(h HDEVICE, a *PresentArg) error
	// RotateResourceIdentitiesDXGI swaps the kernel allocations behind the
	// resources: resources X, Y, Z come to refer to what Y, Z, X referred
	// to; the runtime handles stay ("DXGI_DDI_BASE_FUNCTIONS",
	// pfnRotateResourceIdentities). The runtime calls it after a flip-model
	// present, so buffer 0 is always the back buffer.
	RotateResourceIdentitiesDXGI(h HDEVICE, res []HRESOURCE)
	// SetDisplayModeDXGI makes a primary the display's mode (full screen);
	// the driver calls pfnSetDisplayModeCb inside it, and only there (seed
	// 000, rule FT-MODE).
	SetDisplayModeDXGI(h HDEVICE, primary HRESOURCE) error
	DestroyDevice(HDEVICE)

	CommandLists
}

// Escaper is a driver-private entry outside the DDI table: what a vendor's
// private API calls in its UMD. The UMD answers with an escape to its KMD
// (pfnEscapeCb). It may be called on any thread, so a UMD that binds the
// escape to the immediate context's HCONTEXT must synchronise with that
// context's thread ("Changes from Direct3D 10", rule FT-HCTX).
type Escaper interface {
	Escape(h HDEVICE, code uint32) (uint64, error)
}

// Signaler is the immediate context's Signal (ID3D11DeviceContext4::Signal
// of a fence): the driver submits what it has recorded, then inserts the
// signal in its context's stream with pfnSignalSynchronizationObjectCb. It
// is called on the thread that drives the immediate context, and that
// context's HCONTEXT callbacks are one thread at a time ("Changes from
// Direct3D 10", rule FT-HCTX).
type Signaler interface {
	Signal(h HDEVICE, obj HSYNCOBJECT, value uint64) error
}

// Waiter is the immediate context's GPU-side Wait
// (ID3D11DeviceContext4::Wait of a fence): the driver submits what it has
// recorded, then inserts the wait in its context's stream with
// pfnWaitForSynchronizationObjectCb, so the work recorded after it does not
// begin before the fence reaches the value. The calling thread does not
// block. Same thread rules as Signaler.
type Waiter interface {
	Wait(h HDEVICE, obj HSYNCOBJECT, value uint64) error
}
