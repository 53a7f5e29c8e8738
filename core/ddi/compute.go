package ddi

// The compute stage and unordered access views: the entries of
// D3D11DDI_DEVICEFUNCS that D3D11 added for them (pfnCreateComputeShader,
// pfnCalcPrivateUnorderedAccessViewSize, pfnCreateUnorderedAccessView,
// pfnDestroyUnorderedAccessView, pfnCsSetShader, pfnCsSetConstantBuffers,
// pfnCsSetShaderResources, pfnCsSetSamplers, pfnCsSetUnorderedAccessViews,
// pfnDispatch, pfnDispatchIndirect). A driver that has them implements
// Compute beside Device; the runtime asks for it by a type assertion, as it
// does for Escaper and Signaler, so a driver without a compute stage (a
// test double) needs none of them.

// HUNORDEREDACCESSVIEW is a driver handle of an unordered access view
// (D3D11DDI_HUNORDEREDACCESSVIEW); it shares the view handle space.
type HUNORDEREDACCESSVIEW uint32

// ViewUAV is CreateViewArgs.Kind for an unordered access view.
const ViewUAV ViewKind = ViewDSV + 1

// UAVDimension is D3D11_UAV_DIMENSION.
type UAVDimension uint32

const (
	UAVDimUnknown UAVDimension = iota
	UAVDimBuffer
	UAVDimTexture1D
	UAVDimTexture1DArray
	UAVDimTexture2D
	UAVDimTexture2DArray
	UAVDimTexture3D = 8
)

// UAV flags of a buffer view (D3D11_BUFFER_UAV_FLAG).
const (
	BufferUAVRaw     uint32 = 0x1
	BufferUAVAppend  uint32 = 0x2
	BufferUAVCounter uint32 = 0x4
)

// UAVDesc is D3D11_UNORDERED_ACCESS_VIEW_DESC beyond its format: a buffer
// view's elements and flags, a 2D texture view's mip slice.
type UAVDesc struct {
	Dimension    UAVDimension
	FirstElement uint32
	NumElements  uint32
	Flags        uint32 // BufferUAV*
	MipSlice     uint32
	// A 1D or 2D array view's slices (D3D11_TEX1D_ARRAY_UAV,
	// D3D11_TEX2D_ARRAY_UAV), a 3D view's depth slices of its mip
	// (D3D11_TEX3D_UAV: WSize AllSlices for every one from FirstWSlice).
	FirstArraySlice, ArraySize uint32
	FirstWSlice, WSize         uint32
}

// AllSlices is D3D11_TEX3D_UAV's WSize of -1: every depth slice from
// FirstWSlice.
const AllSlices = ^uint32(0)

// NoInitialCount is a UAVInitialCounts entry of -1: the hidden counter
// keeps its value.
const NoInitialCount = ^uint32(0)

// Compute is the compute part of the device function table.
type Compute interface {
	CalcPrivateUnorderedAccessViewSize(*CreateViewArgs) int
	CreateUnorderedAccessView(h HDEVICE, a *CreateViewArgs, v HUNORDEREDACCESSVIEW, rt uint32)
	DestroyUnorderedAccessView(HDEVICE, HUNORDEREDACCESSVIEW)
	CreateComputeShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	CsSetShader(HDEVICE, HSHADER)
	CsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	CsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	CsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
	// CsSetUnorderedAccessViews binds views from slot start; counts are
	// the UAVInitialCounts (NoInitialCount: keep the counter).
	CsSetUnorderedAccessViews(h HDEVICE, start uint32, views []HUNORDEREDACCESSVIEW, counts []uint32)
	Dispatch(h HDEVICE, x, y, z uint32)
	// DispatchIndirect reads the three group counts from buf at offset
	// when the dispatch runs.
	DispatchIndirect(h HDEVICE, buf HRESOURCE, offset uint32)
}

func init() {
	// D3D11_UAV_DIMENSION (the values this device views) and
	// D3D11_BUFFER_UAV_FLAG, for the scenario language and traces.
	Enums["UAVDimension"] = map[string]uint32{"UNKNOWN": 0, "BUFFER": 1, "TEXTURE1D": 2, "TEXTURE1DARRAY": 3, "TEXTURE2D": 4,
		"TEXTURE2DARRAY": 5, "TEXTURE3D": 8}
	Enums["BufferUAVFlags"] = map[string]uint32{"RAW": BufferUAVRaw, "APPEND": BufferUAVAppend, "COUNTER": BufferUAVCounter}
}
