package d3d11

import "d3dsim/core/ddi"

// The application-facing names of the D3D11 API's enumerations and
// descriptors. The runtime hands them to the UMD unchanged, so they are the
// DDI's own types (core/ddi); an application names them here and never
// imports a layer below the runtime.

// Resource descriptions (D3D11_BUFFER_DESC, D3D11_TEXTURE2D_DESC fields).
type (
	Format       = ddi.Format       // DXGI_FORMAT
	Usage        = ddi.Usage        // D3D11_USAGE
	BindFlag     = ddi.BindFlag     // D3D11_BIND_FLAG
	CPUAccess    = ddi.CPUAccess    // D3D11_CPU_ACCESS_FLAG
	ResourceMisc = ddi.ResourceMisc // D3D11_RESOURCE_MISC_FLAG
)

const (
	FormatUnknown           = ddi.FormatUnknown
	FormatR32G32B32A32Float = ddi.FormatR32G32B32A32Float
	FormatR32G32B32Float    = ddi.FormatR32G32B32Float
	FormatR8G8B8A8Unorm     = ddi.FormatR8G8B8A8Unorm
	FormatD32Float          = ddi.FormatD32Float
	FormatR32Float          = ddi.FormatR32Float
	FormatR32Uint           = ddi.FormatR32Uint
	FormatD24UnormS8Uint    = ddi.FormatD24UnormS8Uint
	FormatR16Uint           = ddi.FormatR16Uint
	FormatB8G8R8A8Unorm     = ddi.FormatB8G8R8A8Unorm

	UsageDefault   = ddi.UsageDefault
	UsageImmutable = ddi.UsageImmutable
	UsageDynamic   = ddi.UsageDynamic
	UsageStaging   = ddi.UsageStaging

	BindVertexBuffer    = ddi.BindVertexBuffer
	BindIndexBuffer     = ddi.BindIndexBuffer
	BindConstantBuffer  = ddi.BindConstantBuffer
	BindShaderResource  = ddi.BindShaderResource
	BindStreamOutput    = ddi.BindStreamOutput
	BindRenderTarget    = ddi.BindRenderTarget
	BindDepthStencil    = ddi.BindDepthStencil
	BindUnorderedAccess = ddi.BindUnorderedAccess

	CPUAccessWrite = ddi.CPUAccessWrite
	CPUAccessRead  = ddi.CPUAccessRead

	ResourceMiscShared = ddi.ResourceMiscShared
)

// SameFamily reports whether a view of format v may look at a resource
// of format r (the same format, or a typed one of a typeless resource's
// family).
func SameFamily(r, v Format) bool { return ddi.SameFamily(r, v) }

// FormatName is a DXGI format's name without DXGI_FORMAT_.
func FormatName(f Format) string { return ddi.FormatName(f) }

// FormatSupport is D3D11_FORMAT_SUPPORT, CheckFormatSupport's answer.
type FormatSupport = ddi.FormatSupport

// FormatSize is the bytes of one element of a format (0: unknown).
func FormatSize(f Format) uint32 { return ddi.FormatSize(f) }

// DSVFlag is D3D11_DSV_FLAG, a depth-stencil view's read-only flags.
type DSVFlag = ddi.DSVFlag

// ViewKind is which view CreateView makes: render-target, shader-resource
// or depth-stencil.
type ViewKind = ddi.ViewKind

const (
	ViewRTV = ddi.ViewRTV
	ViewSRV = ddi.ViewSRV
	ViewDSV = ddi.ViewDSV
	ViewUAV = ddi.ViewUAV
)

// UAVDimension is D3D11_UAV_DIMENSION; the flags are D3D11_BUFFER_UAV_FLAG.
type UAVDimension = ddi.UAVDimension

const (
	UAVDimBuffer     = ddi.UAVDimBuffer
	UAVDimTexture2D  = ddi.UAVDimTexture2D
	BufferUAVRaw     = ddi.BufferUAVRaw
	BufferUAVAppend  = ddi.BufferUAVAppend
	BufferUAVCounter = ddi.BufferUAVCounter
)

// Map (D3D11_MAP, D3D11_MAP_FLAG).
type (
	MapType = ddi.MapType
	MapFlag = ddi.MapFlag
)

const (
	MapRead             = ddi.MapRead
	MapWrite            = ddi.MapWrite
	MapReadWrite        = ddi.MapReadWrite
	MapWriteDiscard     = ddi.MapWriteDiscard
	MapWriteNoOverwrite = ddi.MapWriteNoOverwrite

	MapFlagDoNotWait = ddi.MapFlagDoNotWait
)

// The input assembler and rasterizer stages' settings.
type (
	Topology = ddi.Topology // D3D11_PRIMITIVE_TOPOLOGY
	Viewport = ddi.Viewport // D3D11_VIEWPORT
	Rect     = ddi.Rect     // D3D11_RECT
)

const (
	TopologyUndefined     = ddi.TopologyUndefined
	TopologyPointList     = ddi.TopologyPointList
	TopologyLineList      = ddi.TopologyLineList
	TopologyLineStrip     = ddi.TopologyLineStrip
	TopologyTriangleList  = ddi.TopologyTriangleList
	TopologyTriangleStrip = ddi.TopologyTriangleStrip
	MaxViewports          = ddi.MaxViewports
)

// State objects' descriptions and the enumerations in them.
type (
	BlendDesc             = ddi.BlendDesc             // D3D11_BLEND_DESC
	RasterizerDesc        = ddi.RasterizerDesc        // D3D11_RASTERIZER_DESC
	DepthStencilDesc      = ddi.DepthStencilDesc      // D3D11_DEPTH_STENCIL_DESC
	SamplerDesc           = ddi.SamplerDesc           // D3D11_SAMPLER_DESC
	RenderTargetBlendDesc = ddi.RenderTargetBlendDesc // D3D11_RENDER_TARGET_BLEND_DESC
	DepthStencilOpDesc    = ddi.DepthStencilOpDesc    // D3D11_DEPTH_STENCILOP_DESC
	StencilOp             = ddi.StencilOp             // D3D11_STENCIL_OP
	ClearFlag             = ddi.ClearFlag             // D3D11_CLEAR_FLAG
	Blend                 = ddi.Blend                 // D3D11_BLEND
	BlendOp               = ddi.BlendOp               // D3D11_BLEND_OP
	FillMode              = ddi.FillMode              // D3D11_FILL_MODE
	CullMode              = ddi.CullMode              // D3D11_CULL_MODE
	ComparisonFunc        = ddi.ComparisonFunc        // D3D11_COMPARISON_FUNC
	Filter                = ddi.Filter                // D3D11_FILTER
	AddressMode           = ddi.AddressMode           // D3D11_TEXTURE_ADDRESS_MODE
)

const (
	ClearDepth   = ddi.ClearDepth
	ClearStencil = ddi.ClearStencil
)

// The descriptions CD3D11_*_DESC(D3D11_DEFAULT) builds.
var (
	DefaultBlendDesc        = ddi.DefaultBlendDesc
	DefaultRasterizerDesc   = ddi.DefaultRasterizerDesc
	DefaultDepthStencilDesc = ddi.DefaultDepthStencilDesc
	DefaultSamplerDesc      = ddi.DefaultSamplerDesc
)

// QueryType is D3D11_QUERY: what CreateQuery makes.
type QueryType = ddi.QueryType

const (
	QueryEvent     = ddi.QueryEvent
	QueryOcclusion = ddi.QueryOcclusion
	QueryTimestamp = ddi.QueryTimestamp
)

// Enum is the table of an enumeration's names (as scenarios write them:
// the API's without the D3D11_/DXGI_ prefix) to values, by the
// enumeration's name ("Format", "BindFlags", ...); nil for an unknown one.
// The table is shared: callers read it and never write to it.
func Enum(kind string) map[string]uint32 { return ddi.Enums[kind] }

// EnumNames lists the names of an enumeration's values, sorted.
func EnumNames(kind string) []string { return ddi.EnumNames(kind) }

// EnumName is the scenario spelling of value v of enum kind (the first
// in order when several spell it), or its number.
func EnumName(kind string, v uint32) string { return enumNameOr(kind, v) }

// VoidMethod reports whether the ID3D11DeviceContext method name returns
// void in D3D11 ("ID3D11DeviceContext interface"): the application gets no
// HRESULT from it, and a call the runtime finds invalid is dropped, the
// debug layer saying why. The Go methods still return an error: the
// runtime's signal that it dropped the call, which the trace shows as a
// Return without hr and a msg starting "dropped: ".
func VoidMethod(name string) bool { return voidMethods[name] }

var voidMethods = map[string]bool{
	"IASetVertexBuffers": true, "IASetIndexBuffer": true, "IASetPrimitiveTopology": true,
	"VSSetShader": true, "PSSetShader": true, "VSSetConstantBuffers": true, "PSSetConstantBuffers": true,
	"PSSetShaderResources": true, "PSSetSamplers": true, "OMSetRenderTargets": true, "OMSetBlendState": true,
	"OMSetDepthStencilState": true, "RSSetState": true, "RSSetViewports": true, "RSSetScissorRects": true,
	"ClearRenderTargetView": true, "ClearDepthStencilView": true, "Draw": true, "DrawIndexed": true,
	"CopyResource": true, "UpdateSubresource": true, "Unmap": true, "Begin": true, "End": true,
	"Flush": true, "ClearState": true, "ExecuteCommandList": true,
	"IASetInputLayout": true, "DrawInstanced": true, "DrawIndexedInstanced": true,
	"DrawInstancedIndirect": true, "DrawIndexedInstancedIndirect": true,
	"IAGetVertexBuffers": true, "IAGetIndexBuffer": true, "IAGetInputLayout": true, "IAGetPrimitiveTopology": true,
	"OMGetRenderTargets": true, "OMGetBlendState": true, "OMGetDepthStencilState": true,
	"RSGetState": true, "RSGetViewports": true, "RSGetScissorRects": true,
	"SetPredication": true, "GetPredication": true,
}

func init() {
	// Every stage's binding calls (the six stages' tables exist).
	for st := range NumStages {
		for _, m := range []string{"SetConstantBuffers", "SetShaderResources", "SetSamplers",
			"GetConstantBuffers", "GetShaderResources", "GetSamplers", "GetShader"} {
			voidMethods[st.String()+m] = true
		}
	}
}
