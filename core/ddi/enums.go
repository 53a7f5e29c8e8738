package ddi

import "sort"

// D3D11 and DXGI enumerations with their real values. Names are the API's
// without the D3D11_/DXGI_ prefixes, as scenarios write them.

type Format uint32 // DXGI_FORMAT

const (
	FormatUnknown           Format = 0
	FormatR32G32B32A32Float Format = 2
	FormatR32G32B32A32Uint  Format = 3
	FormatR32G32B32Float    Format = 6
	FormatR32G32B32Uint     Format = 7
	FormatR32G32Float       Format = 16
	FormatR32G32Uint        Format = 17
	FormatR8G8B8A8Unorm     Format = 28
	FormatD32Float          Format = 40
	FormatR32Float          Format = 41
	FormatR32Uint           Format = 42
	FormatD24UnormS8Uint    Format = 45
	FormatD32FloatS8X24Uint Format = 20
	FormatD16Unorm          Format = 55
	FormatR16Uint           Format = 57
	FormatB8G8R8A8Unorm     Format = 87

	FormatR16G16B16A16Float Format = 10
	FormatR10G10B10A2Unorm  Format = 24
	FormatR8G8B8A8UnormSRGB Format = 29
	FormatB8G8R8A8UnormSRGB Format = 91
)

type Usage uint32 // D3D11_USAGE

const (
	UsageDefault   Usage = 0
	UsageImmutable Usage = 1
	UsageDynamic   Usage = 2
	UsageStaging   Usage = 3
)

type BindFlag uint32 // D3D11_BIND_FLAG

const (
	BindVertexBuffer    BindFlag = 0x1
	BindIndexBuffer     BindFlag = 0x2
	BindConstantBuffer  BindFlag = 0x4
	BindShaderResource  BindFlag = 0x8
	BindStreamOutput    BindFlag = 0x10
	BindRenderTarget    BindFlag = 0x20
	BindDepthStencil    BindFlag = 0x40
	BindUnorderedAccess BindFlag = 0x80
)

func (b BindFlag) Has(f BindFlag) bool { return b&f != 0 }

type CPUAccess uint32 // D3D11_CPU_ACCESS_FLAG

const (
	CPUAccessWrite CPUAccess = 0x10000
	CPUAccessRead  CPUAccess = 0x20000
)

func (c CPUAccess) Has(f CPUAccess) bool { return c&f != 0 }

type MapType uint32 // D3D11_MAP

const (
	MapRead             MapType = 1
	MapWrite            MapType = 2
	MapReadWrite        MapType = 3
	MapWriteDiscard     MapType = 4
	MapWriteNoOverwrite MapType = 5
)

type MapFlag uint32 // D3D11_MAP_FLAG

const MapFlagDoNotWait MapFlag = 0x100000

type Topology uint32 // D3D11_PRIMITIVE_TOPOLOGY

const (
	TopologyUndefined     Topology = 0
	TopologyPointList     Topology = 1
	TopologyLineList      Topology = 2
	TopologyLineStrip     Topology = 3
	TopologyTriangleList  Topology = 4
	TopologyTriangleStrip Topology = 5
	// With adjacency: with no geometry shader the adjacent vertices are
	// not drawn.
	TopologyLineListAdj      Topology = 10
	TopologyLineStripAdj     Topology = 11
	TopologyTriangleListAdj  Topology = 12
	TopologyTriangleStripAdj Topology = 13
)

type Blend uint32 // D3D11_BLEND

const (
	BlendZero         Blend = 1
	BlendOne          Blend = 2
	BlendSrcColor     Blend = 3
	BlendInvSrcColor  Blend = 4
	BlendSrcAlpha     Blend = 5
	BlendInvSrcAlpha  Blend = 6
	BlendDestAlpha    Blend = 7
	BlendInvDestAlpha Blend = 8
	BlendDestColor    Blend = 9
	BlendInvDestColor Blend = 10
	BlendSrcAlphaSat  Blend = 11
	BlendBlendFactor  Blend = 14
	BlendInvFactor    Blend = 15
	BlendSrc1Color    Blend = 16
	BlendInvSrc1Color Blend = 17
	BlendSrc1Alpha    Blend = 18
	BlendInvSrc1Alpha Blend = 19
)

type StencilOp uint32 // D3D11_STENCIL_OP

const (
	StencilKeep    StencilOp = 1
	StencilZero    StencilOp = 2
	StencilReplace StencilOp = 3
	StencilIncrSat StencilOp = 4
	StencilDecrSat StencilOp = 5
	StencilInvert  StencilOp = 6
	StencilIncr    StencilOp = 7
	StencilDecr    StencilOp = 8
)

type BlendOp uint32 // D3D11_BLEND_OP

const (
	BlendOpAdd         BlendOp = 1
	BlendOpSubtract    BlendOp = 2
	BlendOpRevSubtract BlendOp = 3
	BlendOpMin         BlendOp = 4
	BlendOpMax         BlendOp = 5
)

type CullMode uint32 // D3D11_CULL_MODE

const (
	CullNone  CullMode = 1
	CullFront CullMode = 2
	CullBack  CullMode = 3
)

type FillMode uint32 // D3D11_FILL_MODE

const (
	FillWireframe FillMode = 2
	FillSolid     FillMode = 3
)

type ComparisonFunc uint32 // D3D11_COMPARISON_FUNC

const (
	ComparisonNever        ComparisonFunc = 1
	ComparisonLess         ComparisonFunc = 2
	ComparisonEqual        ComparisonFunc = 3
	ComparisonLessEqual    ComparisonFunc = 4
	ComparisonGreater      ComparisonFunc = 5
	ComparisonNotEqual     ComparisonFunc = 6
	ComparisonGreaterEqual ComparisonFunc = 7
	ComparisonAlways       ComparisonFunc = 8
)

type Filter uint32 // D3D11_FILTER (the two the simulated GPU samples with)

const (
	FilterMinMagMipPoint  Filter = 0
	FilterMinMagMipLinear Filter = 0x15
)

type AddressMode uint32 // D3D11_TEXTURE_ADDRESS_MODE

const (
	AddressWrap   AddressMode = 1
	AddressMirror AddressMode = 2
	AddressClamp  AddressMode = 3
	AddressBorder AddressMode = 4
)

type QueryType uint32 // D3D11_QUERY (queries.go)

type ClearFlag uint32 // D3D11_CLEAR_FLAG

const (
	ClearDepth   ClearFlag = 1
	ClearStencil ClearFlag = 2
)

// Enum tables: each maps scenario spelling to value. The scenario checker
// uses them to reject unknown values at load time.
var Enums = map[string]map[string]uint32{
	// every DXGI_FORMAT (formats.go adds them from its table)
	"Format": {"UNKNOWN": 0},
	"Usage":  {"DEFAULT": 0, "IMMUTABLE": 1, "DYNAMIC": 2, "STAGING": 3},
	// DXGI_SWAP_EFFECT: DISCARD and SEQUENTIAL are the bitblt model, the
	// FLIP_ ones the flip model.
	"SwapEffect": {"DISCARD": 0, "SEQUENTIAL": 1, "FLIP_SEQUENTIAL": 3, "FLIP_DISCARD": 4},
	// DXGI_OFFER_RESOURCE_PRIORITY (IDXGIDevice2::OfferResources)
	"OfferPriority": {"LOW": 1, "NORMAL": 2, "HIGH": 3},
	"BindFlags": {
		"VERTEX_BUFFER": 0x1, "INDEX_BUFFER": 0x2, "CONSTANT_BUFFER": 0x4, "SHADER_RESOURCE": 0x8,
		"STREAM_OUTPUT": 0x10, "RENDER_TARGET": 0x20, "DEPTH_STENCIL": 0x40, "UNORDERED_ACCESS": 0x80,
	},
	"CPUAccessFlags": {"WRITE": 0x10000, "READ": 0x20000},
	"MiscFlags":      {"SHARED": 0x2, "DRAWINDIRECT_ARGS": 0x10},
	"MapType":        {"READ": 1, "WRITE": 2, "READ_WRITE": 3, "WRITE_DISCARD": 4, "WRITE_NO_OVERWRITE": 5},
	"MapFlags":       {"DO_NOT_WAIT": 0x100000},
	"PresentFlags":   {"DO_NOT_WAIT": 0x8}, // DXGI_PRESENT_DO_NOT_WAIT
	"Topology": {
		"UNDEFINED": 0, "POINTLIST": 1, "LINELIST": 2, "LINESTRIP": 3, "TRIANGLELIST": 4, "TRIANGLESTRIP": 5,
		"LINELIST_ADJ": 10, "LINESTRIP_ADJ": 11, "TRIANGLELIST_ADJ": 12, "TRIANGLESTRIP_ADJ": 13,
	},
	"Blend": {
		"ZERO": 1, "ONE": 2, "SRC_COLOR": 3, "INV_SRC_COLOR": 4, "SRC_ALPHA": 5, "INV_SRC_ALPHA": 6,
		"DEST_ALPHA": 7, "INV_DEST_ALPHA": 8, "DEST_COLOR": 9, "INV_DEST_COLOR": 10, "SRC_ALPHA_SAT": 11,
		"BLEND_FACTOR": 14, "INV_BLEND_FACTOR": 15, "SRC1_COLOR": 16, "INV_SRC1_COLOR": 17, "SRC1_ALPHA": 18, "INV_SRC1_ALPHA": 19,
	},
	"StencilOp":  {"KEEP": 1, "ZERO": 2, "REPLACE": 3, "INCR_SAT": 4, "DECR_SAT": 5, "INVERT": 6, "INCR": 7, "DECR": 8},
	"BlendOp":    {"ADD": 1, "SUBTRACT": 2, "REV_SUBTRACT": 3, "MIN": 4, "MAX": 5},
	"CullMode":   {"NONE": 1, "FRONT": 2, "BACK": 3},
	"FillMode":   {"WIREFRAME": 2, "SOLID": 3},
	"Comparison": {"NEVER": 1, "LESS": 2, "EQUAL": 3, "LESS_EQUAL": 4, "GREATER": 5, "NOT_EQUAL": 6, "GREATER_EQUAL": 7, "ALWAYS": 8},
	"Filter":     {"MIN_MAG_MIP_POINT": 0, "MIN_MAG_MIP_LINEAR": 0x15},
	"Address":    {"WRAP": 1, "MIRROR": 2, "CLAMP": 3, "BORDER": 4},
	"Query":      queryNames(),
	// D3D11_INPUT_CLASSIFICATION, and D3D11_APPEND_ALIGNED_ELEMENT for an
	// element's AlignedByteOffset.
	"InputClassification": {"PER_VERTEX": 0, "PER_INSTANCE": 1},
	"ClearFlags":          {"DEPTH": 1, "STENCIL": 2},
	"Bool":                {"TRUE": 1, "FALSE": 0},
	// D3D11_CREATE_DEVICE_FLAG and D3D11_DEPTH_WRITE_MASK: the runtime's
	// and the depth-stencil state's, which the DDI passes on as flags
	// and a bool.
	"CreateDeviceFlags": {"SINGLETHREADED": 1, "DEBUG": 2},
	"DepthWriteMask":    {"ZERO": 0, "ALL": 1},
	// D3D11_FORMAT_SUPPORT, CheckFormatSupport's answer (formats.go)
	"FormatSupport": FormatSupportNames,
	// D3D11_DSV_FLAG, a depth-stencil view's Flags
	"DSVFlags": {"READ_ONLY_DEPTH": 1, "READ_ONLY_STENCIL": 2},
}

// EnumNames lists the spellings of an enum, sorted (for error messages).
func EnumNames(kind string) []string {
	var out []string
	for k := range Enums[kind] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// FormatSize is the bytes per element of a format: a texel, or a 4x4
// block of a block-compressed format (0: unknown).
func FormatSize(f Format) uint32 { return uint32(formats[f].Bytes) }
