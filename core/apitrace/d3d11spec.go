package apitrace

import (
	"sort"
	"strings"

	"d3dsim/core/hresult"
)

// The D3D11 and DXGI types a capture holds, as apitrace's D3D11 tracer
// writes them (its specs/d3d11.py, dxgi.py and d3d9.py name the types and
// their members; the values are the Windows SDK headers'): enum and bitmask
// signatures with the values of their type only, struct signatures in
// member order, and the functions' argument names. The writer uses them;
// the reader needs none (a trace defines its own signatures).

var nextSig = map[string]uint64{}

func sigID(kind string) uint64 {
	nextSig[kind]++
	return nextSig[kind]
}

type ev = EnumValue

// enumSig is an enum of named values.
func enumSig(values ...EnumValue) *EnumSig { return &EnumSig{ID: sigID("enum"), Values: values} }

// seqEnum is an enum whose values count up from first.
func seqEnum(prefix string, first int64, names ...string) *EnumSig {
	s := &EnumSig{ID: sigID("enum")}
	for i, n := range names {
		s.Values = append(s.Values, EnumValue{prefix + n, first + int64(i)})
	}
	return s
}

type bf = BitmaskFlag

func flagsSig(prefix string, flags ...BitmaskFlag) *BitmaskSig {
	s := &BitmaskSig{ID: sigID("bitmask")}
	for _, f := range flags {
		s.Flags = append(s.Flags, BitmaskFlag{prefix + f.Name, f.Value})
	}
	return s
}

func structSig(name string, members ...string) *StructSig {
	return &StructSig{ID: sigID("struct"), Name: name, Members: members}
}

func funcSig(name string, args ...string) *FuncSig {
	return &FuncSig{ID: sigID("func"), Name: name, Args: args}
}

// method is a COM method's signature: this, then the arguments.
func method(iface, name string, args ...string) *FuncSig {
	return funcSig(iface+"::"+name, append([]string{"this"}, args...)...)
}

var (
	sigBOOL       = seqEnum("", 0, "FALSE", "TRUE")
	sigDXGIFormat = seqEnum("DXGI_FORMAT_", 0,
		"UNKNOWN", "R32G32B32A32_TYPELESS", "R32G32B32A32_FLOAT", "R32G32B32A32_UINT", "R32G32B32A32_SINT",
		"R32G32B32_TYPELESS", "R32G32B32_FLOAT", "R32G32B32_UINT", "R32G32B32_SINT", "R16G16B16A16_TYPELESS",
		"R16G16B16A16_FLOAT", "R16G16B16A16_UNORM", "R16G16B16A16_UINT", "R16G16B16A16_SNORM", "R16G16B16A16_SINT",
		"R32G32_TYPELESS", "R32G32_FLOAT", "R32G32_UINT", "R32G32_SINT", "R32G8X24_TYPELESS", "D32_FLOAT_S8X24_UINT",
		"R32_FLOAT_X8X24_TYPELESS", "X32_TYPELESS_G8X24_UINT", "R10G10B10A2_TYPELESS", "R10G10B10A2_UNORM",
		"R10G10B10A2_UINT", "R11G11B10_FLOAT", "R8G8B8A8_TYPELESS", "R8G8B8A8_UNORM", "R8G8B8A8_UNORM_SRGB",
		"R8G8B8A8_UINT", "R8G8B8A8_SNORM", "R8G8B8A8_SINT", "R16G16_TYPELESS", "R16G16_FLOAT", "R16G16_UNORM",
		"R16G16_UINT", "R16G16_SNORM", "R16G16_SINT", "R32_TYPELESS", "D32_FLOAT", "R32_FLOAT", "R32_UINT", "R32_SINT",
		"R24G8_TYPELESS", "D24_UNORM_S8_UINT", "R24_UNORM_X8_TYPELESS", "X24_TYPELESS_G8_UINT", "R8G8_TYPELESS",
		"R8G8_UNORM", "R8G8_UINT", "R8G8_SNORM", "R8G8_SINT", "R16_TYPELESS", "R16_FLOAT", "D16_UNORM", "R16_UNORM",
		"R16_UINT", "R16_SNORM", "R16_SINT", "R8_TYPELESS", "R8_UNORM", "R8_UINT", "R8_SNORM", "R8_SINT", "A8_UNORM",
		"R1_UNORM", "R9G9B9E5_SHAREDEXP", "R8G8_B8G8_UNORM", "G8R8_G8B8_UNORM", "BC1_TYPELESS", "BC1_UNORM",
		"BC1_UNORM_SRGB", "BC2_TYPELESS", "BC2_UNORM", "BC2_UNORM_SRGB", "BC3_TYPELESS", "BC3_UNORM", "BC3_UNORM_SRGB",
		"BC4_TYPELESS", "BC4_UNORM", "BC4_SNORM", "BC5_TYPELESS", "BC5_UNORM", "BC5_SNORM", "B5G6R5_UNORM",
		"B5G5R5A1_UNORM", "B8G8R8A8_UNORM", "B8G8R8X8_UNORM", "R10G10B10_XR_BIAS_A2_UNORM", "B8G8R8A8_TYPELESS",
		"B8G8R8A8_UNORM_SRGB", "B8G8R8X8_TYPELESS", "B8G8R8X8_UNORM_SRGB", "BC6H_TYPELESS", "BC6H_UF16", "BC6H_SF16",
		"BC7_TYPELESS", "BC7_UNORM", "BC7_UNORM_SRGB", "AYUV", "Y410", "Y416", "NV12", "P010", "P016", "420_OPAQUE", "YUY2",
		"Y210", "Y216", "NV11", "AI44", "IA44", "P8", "A8P8", "B4G4R4A4_UNORM")
	sigUsage    = seqEnum("D3D11_USAGE_", 0, "DEFAULT", "IMMUTABLE", "DYNAMIC", "STAGING")
	sigBindFlag = flagsSig("D3D11_BIND_", bf{"VERTEX_BUFFER", 0x1}, bf{"INDEX_BUFFER", 0x2}, bf{"CONSTANT_BUFFER", 0x4},
		bf{"SHADER_RESOURCE", 0x8}, bf{"STREAM_OUTPUT", 0x10}, bf{"RENDER_TARGET", 0x20}, bf{"DEPTH_STENCIL", 0x40},
		bf{"UNORDERED_ACCESS", 0x80}, bf{"DECODER", 0x200}, bf{"VIDEO_ENCODER", 0x400})
	sigCPUAccess = flagsSig("D3D11_CPU_ACCESS_", bf{"WRITE", 0x10000}, bf{"READ", 0x20000})
	sigMiscFlag  = flagsSig("D3D11_RESOURCE_MISC_", bf{"GENERATE_MIPS", 0x1}, bf{"SHARED", 0x2}, bf{"TEXTURECUBE", 0x4},
		bf{"DRAWINDIRECT_ARGS", 0x10}, bf{"BUFFER_ALLOW_RAW_VIEWS", 0x20}, bf{"BUFFER_STRUCTURED", 0x40},
		bf{"RESOURCE_CLAMP", 0x80}, bf{"SHARED_KEYEDMUTEX", 0x100}, bf{"GDI_COMPATIBLE", 0x200}, bf{"SHARED_NTHANDLE", 0x800},
		bf{"RESTRICTED_CONTENT", 0x1000}, bf{"RESTRICT_SHARED_RESOURCE", 0x2000}, bf{"RESTRICT_SHARED_RESOURCE_DRIVER", 0x4000},
		bf{"GUARDED", 0x8000}, bf{"TILE_POOL", 0x20000}, bf{"TILED", 0x40000}, bf{"HW_PROTECTED", 0x80000})
	sigMap      = seqEnum("D3D11_MAP_", 1, "READ", "WRITE", "READ_WRITE", "WRITE_DISCARD", "WRITE_NO_OVERWRITE")
	sigMapFlag  = flagsSig("D3D11_MAP_FLAG_", bf{"DO_NOT_WAIT", 0x100000})
	sigTopology = func() *EnumSig {
		s := seqEnum("D3D11_PRIMITIVE_TOPOLOGY_", 0, "UNDEFINED", "POINTLIST", "LINELIST", "LINESTRIP", "TRIANGLELIST", "TRIANGLESTRIP")
		for i, n := range []string{"LINELIST_ADJ", "LINESTRIP_ADJ", "TRIANGLELIST_ADJ", "TRIANGLESTRIP_ADJ"} {
			s.Values = append(s.Values, EnumValue{"D3D11_PRIMITIVE_TOPOLOGY_" + n, int64(10 + i)})
		}
		for n := 1; n <= 32; n++ {
			s.Values = append(s.Values, EnumValue{"D3D11_PRIMITIVE_TOPOLOGY_" + itoa(n) + "_CONTROL_POINT_PATCHLIST", int64(32 + n)})
		}
		return s
	}()
	sigClearFlag = flagsSig("D3D11_CLEAR_", bf{"DEPTH", 1}, bf{"STENCIL", 2})
	sigQuery     = seqEnum("D3D11_QUERY_", 0, "EVENT", "OCCLUSION", "TIMESTAMP", "TIMESTAMP_DISJOINT", "PIPELINE_STATISTICS",
		"OCCLUSION_PREDICATE", "SO_STATISTICS", "SO_OVERFLOW_PREDICATE", "SO_STATISTICS_STREAM0", "SO_OVERFLOW_PREDICATE_STREAM0",
		"SO_STATISTICS_STREAM1", "SO_OVERFLOW_PREDICATE_STREAM1", "SO_STATISTICS_STREAM2", "SO_OVERFLOW_PREDICATE_STREAM2",
		"SO_STATISTICS_STREAM3", "SO_OVERFLOW_PREDICATE_STREAM3")
	sigQueryMisc = flagsSig("D3D11_QUERY_MISC_", bf{"PREDICATEHINT", 1})
	sigBlend     = enumSig(ev{"D3D11_BLEND_ZERO", 1}, ev{"D3D11_BLEND_ONE", 2}, ev{"D3D11_BLEND_SRC_COLOR", 3},
		ev{"D3D11_BLEND_INV_SRC_COLOR", 4}, ev{"D3D11_BLEND_SRC_ALPHA", 5}, ev{"D3D11_BLEND_INV_SRC_ALPHA", 6},
		ev{"D3D11_BLEND_DEST_ALPHA", 7}, ev{"D3D11_BLEND_INV_DEST_ALPHA", 8}, ev{"D3D11_BLEND_DEST_COLOR", 9},
		ev{"D3D11_BLEND_INV_DEST_COLOR", 10}, ev{"D3D11_BLEND_SRC_ALPHA_SAT", 11}, ev{"D3D11_BLEND_BLEND_FACTOR", 14},
		ev{"D3D11_BLEND_INV_BLEND_FACTOR", 15}, ev{"D3D11_BLEND_SRC1_COLOR", 16}, ev{"D3D11_BLEND_INV_SRC1_COLOR", 17},
		ev{"D3D11_BLEND_SRC1_ALPHA", 18}, ev{"D3D11_BLEND_INV_SRC1_ALPHA", 19})
	sigBlendOp    = seqEnum("D3D11_BLEND_OP_", 1, "ADD", "SUBTRACT", "REV_SUBTRACT", "MIN", "MAX")
	sigFill       = seqEnum("D3D11_FILL_", 2, "WIREFRAME", "SOLID")
	sigCull       = seqEnum("D3D11_CULL_", 1, "NONE", "FRONT", "BACK")
	sigDepthWrite = seqEnum("D3D11_DEPTH_WRITE_MASK_", 0, "ZERO", "ALL")
	sigComparison = seqEnum("D3D11_COMPARISON_", 1, "NEVER", "LESS", "EQUAL", "LESS_EQUAL", "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS")
	sigStencilOp  = seqEnum("D3D11_STENCIL_OP_", 1, "KEEP", "ZERO", "REPLACE", "INCR_SAT", "DECR_SAT", "INVERT", "INCR", "DECR")
	sigFilter     = func() *EnumSig {
		base := []ev{{"MIN_MAG_MIP_POINT", 0}, {"MIN_MAG_POINT_MIP_LINEAR", 0x1}, {"MIN_POINT_MAG_LINEAR_MIP_POINT", 0x4},
			{"MIN_POINT_MAG_MIP_LINEAR", 0x5}, {"MIN_LINEAR_MAG_MIP_POINT", 0x10}, {"MIN_LINEAR_MAG_POINT_MIP_LINEAR", 0x11},
			{"MIN_MAG_LINEAR_MIP_POINT", 0x14}, {"MIN_MAG_MIP_LINEAR", 0x15}, {"ANISOTROPIC", 0x55}}
		s := &EnumSig{ID: sigID("enum")}
		for _, k := range []struct {
			prefix string
			bit    int64
		}{{"", 0}, {"COMPARISON_", 0x80}, {"MINIMUM_", 0x100}, {"MAXIMUM_", 0x180}} {
			for _, b := range base {
				s.Values = append(s.Values, ev{"D3D11_FILTER_" + k.prefix + b.Name, b.Value | k.bit})
			}
		}
		return s
	}()
	sigAddress     = seqEnum("D3D11_TEXTURE_ADDRESS_", 1, "WRAP", "MIRROR", "CLAMP", "BORDER", "MIRROR_ONCE")
	sigInputClass  = seqEnum("D3D11_INPUT_", 0, "PER_VERTEX_DATA", "PER_INSTANCE_DATA")
	sigAppendAlign = enumSig(ev{"D3D11_APPEND_ALIGNED_ELEMENT", 0xffffffff})
	sigSampleMask  = enumSig(ev{"D3D11_DEFAULT_SAMPLE_MASK", 0xffffffff})
	sigCreateFlag  = flagsSig("D3D11_CREATE_DEVICE_", bf{"SINGLETHREADED", 0x1}, bf{"DEBUG", 0x2}, bf{"SWITCH_TO_REF", 0x4},
		bf{"PREVENT_INTERNAL_THREADING_OPTIMIZATIONS", 0x8}, bf{"BGRA_SUPPORT", 0x20}, bf{"DEBUGGABLE", 0x40},
		bf{"PREVENT_ALTERING_LAYER_SETTINGS_FROM_REGISTRY", 0x80}, bf{"DISABLE_GPU_TIMEOUT", 0x100}, bf{"VIDEO_SUPPORT", 0x800})
	sigDriverType   = seqEnum("D3D_DRIVER_TYPE_", 0, "UNKNOWN", "HARDWARE", "REFERENCE", "NULL", "SOFTWARE", "WARP")
	sigFeatureLevel = enumSig(ev{"D3D_FEATURE_LEVEL_9_1", 0x9100}, ev{"D3D_FEATURE_LEVEL_9_2", 0x9200}, ev{"D3D_FEATURE_LEVEL_9_3", 0x9300},
		ev{"D3D_FEATURE_LEVEL_10_0", 0xa000}, ev{"D3D_FEATURE_LEVEL_10_1", 0xa100}, ev{"D3D_FEATURE_LEVEL_11_0", 0xb000},
		ev{"D3D_FEATURE_LEVEL_11_1", 0xb100}, ev{"D3D_FEATURE_LEVEL_12_0", 0xc000}, ev{"D3D_FEATURE_LEVEL_12_1", 0xc100})
	sigDXGIUsage = flagsSig("DXGI_", bf{"CPU_ACCESS_NONE", 0}, bf{"CPU_ACCESS_SCRATCH", 3}, bf{"CPU_ACCESS_DYNAMIC", 1},
		bf{"CPU_ACCESS_READ_WRITE", 2}, bf{"USAGE_SHADER_INPUT", 0x10}, bf{"USAGE_RENDER_TARGET_OUTPUT", 0x20},
		bf{"USAGE_BACK_BUFFER", 0x40}, bf{"USAGE_SHARED", 0x80}, bf{"USAGE_READ_ONLY", 0x100}, bf{"USAGE_DISCARD_ON_PRESENT", 0x200},
		bf{"USAGE_UNORDERED_ACCESS", 0x400})
	sigSwapEffect = enumSig(ev{"DXGI_SWAP_EFFECT_DISCARD", 0}, ev{"DXGI_SWAP_EFFECT_SEQUENTIAL", 1},
		ev{"DXGI_SWAP_EFFECT_FLIP_SEQUENTIAL", 3}, ev{"DXGI_SWAP_EFFECT_FLIP_DISCARD", 4})
	sigScanline  = seqEnum("DXGI_MODE_SCANLINE_ORDER_", 0, "UNSPECIFIED", "PROGRESSIVE", "UPPER_FIELD_FIRST", "LOWER_FIELD_FIRST")
	sigScaling   = seqEnum("DXGI_MODE_SCALING_", 0, "UNSPECIFIED", "CENTERED", "STRETCHED")
	sigQuality   = enumSig(ev{"DXGI_STANDARD_MULTISAMPLE_QUALITY_PATTERN", 0xffffffff}, ev{"DXGI_CENTER_MULTISAMPLE_QUALITY_PATTERN", 0xfffffffe})
	sigSwapFlags = flagsSig("DXGI_SWAP_CHAIN_FLAG_", bf{"NONPREROTATED", 1}, bf{"ALLOW_MODE_SWITCH", 2}, bf{"GDI_COMPATIBLE", 4},
		bf{"RESTRICTED_CONTENT", 8}, bf{"RESTRICT_SHARED_RESOURCE_DRIVER", 16}, bf{"DISPLAY_ONLY", 32},
		bf{"FRAME_LATENCY_WAITABLE_OBJECT", 64}, bf{"FOREGROUND_LAYER", 128}, bf{"FULLSCREEN_VIDEO", 256}, bf{"YUV_VIDEO", 512},
		bf{"HW_PROTECTED", 1024}, bf{"ALLOW_TEARING", 2048})
	sigPresent = flagsSig("DXGI_PRESENT_", bf{"TEST", 1}, bf{"DO_NOT_SEQUENCE", 2}, bf{"RESTART", 4}, bf{"DO_NOT_WAIT", 8},
		bf{"STEREO_PREFER_RIGHT", 0x10}, bf{"STEREO_TEMPORARY_MONO", 0x20}, bf{"RESTRICT_TO_OUTPUT", 0x40}, bf{"USE_DURATION", 0x100})
	sigAsyncFlag = flagsSig("D3D11_ASYNC_GETDATA_", bf{"DONOTFLUSH", 1})
	sigFenceFlag = enumSig(ev{"D3D11_FENCE_FLAG_NONE", 0}, ev{"D3D11_FENCE_FLAG_SHARED", 2},
		ev{"D3D11_FENCE_FLAG_SHARED_CROSS_ADAPTER", 4}, ev{"D3D11_FENCE_FLAG_NON_MONITORED", 8})
	sigFormatSupport = func() *BitmaskSig {
		names := []string{"BUFFER", "IA_VERTEX_BUFFER", "IA_INDEX_BUFFER", "SO_BUFFER", "TEXTURE1D", "TEXTURE2D", "TEXTURE3D",
			"TEXTURECUBE", "SHADER_LOAD", "SHADER_SAMPLE", "SHADER_SAMPLE_COMPARISON", "SHADER_SAMPLE_MONO_TEXT", "MIP", "MIP_AUTOGEN",
			"RENDER_TARGET", "BLENDABLE", "DEPTH_STENCIL", "CPU_LOCKABLE", "MULTISAMPLE_RESOLVE", "DISPLAY", "CAST_WITHIN_BIT_LAYOUT",
			"MULTISAMPLE_RENDERTARGET", "MULTISAMPLE_LOAD", "SHADER_GATHER", "BACK_BUFFER_CAST", "TYPED_UNORDERED_ACCESS_VIEW",
			"SHADER_GATHER_COMPARISON", "DECODER_OUTPUT", "VIDEO_PROCESSOR_OUTPUT", "VIDEO_PROCESSOR_INPUT", "VIDEO_ENCODER"}
		var flags []BitmaskFlag
		for i, n := range names {
			flags = append(flags, bf{n, 1 << i})
		}
		return flagsSig("D3D11_FORMAT_SUPPORT_", flags...)
	}()
	sigDSVFlag = flagsSig("D3D11_DSV_", bf{"READ_ONLY_DEPTH", 1}, bf{"READ_ONLY_STENCIL", 2})
	sigRTVDim  = seqEnum("D3D11_RTV_DIMENSION_", 0, "UNKNOWN", "BUFFER", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY", "TEXTURE2DMS", "TEXTURE2DMSARRAY", "TEXTURE3D")
	sigSRVDim  = seqEnum("D3D11_SRV_DIMENSION_", 0, "UNKNOWN", "BUFFER", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY", "TEXTURE2DMS", "TEXTURE2DMSARRAY", "TEXTURE3D", "TEXTURECUBE", "TEXTURECUBEARRAY", "BUFFEREX")
	sigDSVDim  = seqEnum("D3D11_DSV_DIMENSION_", 0, "UNKNOWN", "TEXTURE1D", "TEXTURE1DARRAY", "TEXTURE2D", "TEXTURE2DARRAY", "TEXTURE2DMS", "TEXTURE2DMSARRAY")
	sigHRESULT = func() *EnumSig {
		s := &EnumSig{ID: sigID("enum")}
		add := func(name string, v uint32) { s.Values = append(s.Values, ev{name, int64(int32(v))}) }
		for _, v := range []struct {
			n string
			v uint32
		}{{"S_OK", 0}, {"S_FALSE", 1}, {"E_PENDING", 0x8000000A}, {"E_NOTIMPL", 0x80004001}, {"E_NOINTERFACE", 0x80004002},
			{"E_POINTER", 0x80004003}, {"E_ABORT", 0x80004004}, {"E_FAIL", 0x80004005}, {"E_UNEXPECTED", 0x8000FFFF},
			{"E_ACCESSDENIED", 0x80070005}, {"E_HANDLE", 0x80070006}, {"E_OUTOFMEMORY", 0x8007000E}, {"E_INVALIDARG", 0x80070057},
			{"DXGI_ERROR_INVALID_CALL", 0x887A0001}, {"DXGI_ERROR_NOT_FOUND", 0x887A0002}, {"DXGI_ERROR_MORE_DATA", 0x887A0003},
			{"DXGI_ERROR_UNSUPPORTED", 0x887A0004}, {"DXGI_ERROR_DEVICE_REMOVED", 0x887A0005}, {"DXGI_ERROR_DEVICE_HUNG", 0x887A0006},
			{"DXGI_ERROR_DEVICE_RESET", 0x887A0007}, {"DXGI_ERROR_WAS_STILL_DRAWING", 0x887A000A},
			{"D3D11_ERROR_FILE_NOT_FOUND", 0x887C0002}, {"D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS", 0x887C0001},
			{"D3D11_ERROR_TOO_MANY_UNIQUE_VIEW_OBJECTS", 0x887C0003}, {"D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD", 0x887C0004},
			{"D3DERR_INVALIDCALL", 0x8876086C}, {"D3DERR_WASSTILLDRAWING", 0x8876021C}} {
			add(v.n, v.v)
		}
		// and the simulator's own codes the API can return
		have := map[string]bool{}
		for _, e := range s.Values {
			have[e.Name] = true
		}
		names := hresult.Names()
		sort.Strings(names)
		for _, n := range names {
			if h, ok := hresult.Parse(n); ok && !have[n] {
				add(n, uint32(h))
			}
		}
		return s
	}()
)

var (
	stGUID          = structSig("GUID", "Data1", "Data2", "Data3", "Data4")
	stBufferDesc    = structSig("D3D11_BUFFER_DESC", "ByteWidth", "Usage", "BindFlags", "CPUAccessFlags", "MiscFlags", "StructureByteStride")
	stSubresource   = structSig("D3D11_SUBRESOURCE_DATA", "pSysMem", "SysMemPitch", "SysMemSlicePitch")
	stSampleDesc    = structSig("DXGI_SAMPLE_DESC", "Count", "Quality")
	stTexture2DDesc = structSig("D3D11_TEXTURE2D_DESC", "Width", "Height", "MipLevels", "ArraySize", "Format", "SampleDesc", "Usage", "BindFlags", "CPUAccessFlags", "MiscFlags")
	stMapped        = structSig("D3D11_MAPPED_SUBRESOURCE", "pData", "RowPitch", "DepthPitch")
	stViewport      = structSig("D3D11_VIEWPORT", "TopLeftX", "TopLeftY", "Width", "Height", "MinDepth", "MaxDepth")
	stInputElement  = structSig("D3D11_INPUT_ELEMENT_DESC", "SemanticName", "SemanticIndex", "Format", "InputSlot", "AlignedByteOffset", "InputSlotClass", "InstanceDataStepRate")
	stRTBlend       = structSig("D3D11_RENDER_TARGET_BLEND_DESC", "BlendEnable", "SrcBlend", "DestBlend", "BlendOp", "SrcBlendAlpha", "DestBlendAlpha", "BlendOpAlpha", "RenderTargetWriteMask")
	stBlendDesc     = structSig("D3D11_BLEND_DESC", "AlphaToCoverageEnable", "IndependentBlendEnable", "RenderTarget")
	stRasterDesc    = structSig("D3D11_RASTERIZER_DESC", "FillMode", "CullMode", "FrontCounterClockwise", "DepthBias", "DepthBiasClamp", "SlopeScaledDepthBias", "DepthClipEnable", "ScissorEnable", "MultisampleEnable", "AntialiasedLineEnable")
	stStencilOpDesc = structSig("D3D11_DEPTH_STENCILOP_DESC", "StencilFailOp", "StencilDepthFailOp", "StencilPassOp", "StencilFunc")
	stDepthDesc     = structSig("D3D11_DEPTH_STENCIL_DESC", "DepthEnable", "DepthWriteMask", "DepthFunc", "StencilEnable", "StencilReadMask", "StencilWriteMask", "FrontFace", "BackFace")
	stSamplerDesc   = structSig("D3D11_SAMPLER_DESC", "Filter", "AddressU", "AddressV", "AddressW", "MipLODBias", "MaxAnisotropy", "ComparisonFunc", "BorderColor", "MinLOD", "MaxLOD")
	stQueryDesc     = structSig("D3D11_QUERY_DESC", "Query", "MiscFlags")
	stBox           = structSig("D3D11_BOX", "left", "top", "front", "right", "bottom", "back")
	stRational      = structSig("DXGI_RATIONAL", "Numerator", "Denominator")
	stModeDesc      = structSig("DXGI_MODE_DESC", "Width", "Height", "RefreshRate", "Format", "ScanlineOrdering", "Scaling")
	stSwapChainDesc = structSig("DXGI_SWAP_CHAIN_DESC", "BufferDesc", "SampleDesc", "BufferUsage", "BufferCount", "OutputWindow", "Windowed", "SwapEffect", "Flags")
	stRTVDesc       = structSig("D3D11_RENDER_TARGET_VIEW_DESC", "Format", "ViewDimension", "")
	stSRVDesc       = structSig("D3D11_SHADER_RESOURCE_VIEW_DESC", "Format", "ViewDimension", "")
	stDSVDesc       = structSig("D3D11_DEPTH_STENCIL_VIEW_DESC", "Format", "ViewDimension", "Flags", "")
	stTex2DRTV      = structSig("D3D11_TEX2D_RTV", "MipSlice")
	stTex2DSRV      = structSig("D3D11_TEX2D_SRV", "MostDetailedMip", "MipLevels")
	stTex2DDSV      = structSig("D3D11_TEX2D_DSV", "MipSlice")
	stRTVUnion      = structSig("", "Texture2D")
	stSRVUnion      = structSig("", "Texture2D")
	stDSVUnion      = structSig("", "Texture2D")
)

// The functions and methods the exporter writes.
var (
	fnCreateDXGIFactory  = funcSig("CreateDXGIFactory", "riid", "ppFactory")
	fnD3D11CreateDevice  = funcSig("D3D11CreateDevice", "pAdapter", "DriverType", "Software", "Flags", "pFeatureLevels", "FeatureLevels", "SDKVersion", "ppDevice", "pFeatureLevel", "ppImmediateContext")
	fnD3DPERFSetMarker   = funcSig("D3DPERF_SetMarker", "col", "wszName")
	fnMemcpy             = funcSig("memcpy", "dest", "src", "n")
	fnFactoryCreateSwap  = method("IDXGIFactory", "CreateSwapChain", "pDevice", "pDesc", "ppSwapChain")
	fnSwapGetBuffer      = method("IDXGISwapChain", "GetBuffer", "Buffer", "riid", "ppSurface")
	fnDeviceQI           = method("ID3D11Device", "QueryInterface", "riid", "ppvObj")
	fnDXGISetLatency     = method("IDXGIDevice1", "SetMaximumFrameLatency", "MaxLatency")
	fnDXGIGetLatency     = method("IDXGIDevice1", "GetMaximumFrameLatency", "pMaxLatency")
	fnCreateBuffer       = method("ID3D11Device", "CreateBuffer", "pDesc", "pInitialData", "ppBuffer")
	fnCreateTexture2D    = method("ID3D11Device", "CreateTexture2D", "pDesc", "pInitialData", "ppTexture2D")
	fnCreateRTV          = method("ID3D11Device", "CreateRenderTargetView", "pResource", "pDesc", "ppRTView")
	fnCreateSRV          = method("ID3D11Device", "CreateShaderResourceView", "pResource", "pDesc", "ppSRView")
	fnCreateDSV          = method("ID3D11Device", "CreateDepthStencilView", "pResource", "pDesc", "ppDepthStencilView")
	fnCreateVS           = method("ID3D11Device", "CreateVertexShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppVertexShader")
	fnCreatePS           = method("ID3D11Device", "CreatePixelShader", "pShaderBytecode", "BytecodeLength", "pClassLinkage", "ppPixelShader")
	fnCreateInputLayout  = method("ID3D11Device", "CreateInputLayout", "pInputElementDescs", "NumElements", "pShaderBytecodeWithInputSignature", "BytecodeLength", "ppInputLayout")
	fnCreateBlend        = method("ID3D11Device", "CreateBlendState", "pBlendStateDesc", "ppBlendState")
	fnCreateRaster       = method("ID3D11Device", "CreateRasterizerState", "pRasterizerDesc", "ppRasterizerState")
	fnCreateDepth        = method("ID3D11Device", "CreateDepthStencilState", "pDepthStencilDesc", "ppDepthStencilState")
	fnCreateSampler      = method("ID3D11Device", "CreateSamplerState", "pSamplerDesc", "ppSamplerState")
	fnCreateQuery        = method("ID3D11Device", "CreateQuery", "pQueryDesc", "ppQuery")
	fnCreateDeferred     = method("ID3D11Device", "CreateDeferredContext", "ContextFlags", "ppDeferredContext")
	fnCreateFence        = method("ID3D11Device5", "CreateFence", "InitialValue", "Flags", "ReturnedInterface", "ppFence")
	fnRemovedReason      = method("ID3D11Device", "GetDeviceRemovedReason")
	fnCheckFormat        = method("ID3D11Device", "CheckFormatSupport", "Format", "pFormatSupport")
	fnIASetVertexBuffers = method("ID3D11DeviceContext", "IASetVertexBuffers", "StartSlot", "NumBuffers", "ppVertexBuffers", "pStrides", "pOffsets")
	fnVSSetCB            = method("ID3D11DeviceContext", "VSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnPSSetCB            = method("ID3D11DeviceContext", "PSSetConstantBuffers", "StartSlot", "NumBuffers", "ppConstantBuffers")
	fnPSSetSRV           = method("ID3D11DeviceContext", "PSSetShaderResources", "StartSlot", "NumViews", "ppShaderResourceViews")
	fnPSSetSamplers      = method("ID3D11DeviceContext", "PSSetSamplers", "StartSlot", "NumSamplers", "ppSamplers")
	fnVSSetShader        = method("ID3D11DeviceContext", "VSSetShader", "pVertexShader", "ppClassInstances", "NumClassInstances")
	fnPSSetShader        = method("ID3D11DeviceContext", "PSSetShader", "pPixelShader", "ppClassInstances", "NumClassInstances")
	fnOMSetRT            = method("ID3D11DeviceContext", "OMSetRenderTargets", "NumViews", "ppRenderTargetViews", "pDepthStencilView")
	fnOMSetBlend         = method("ID3D11DeviceContext", "OMSetBlendState", "pBlendState", "BlendFactor", "SampleMask")
	fnOMSetDepth         = method("ID3D11DeviceContext", "OMSetDepthStencilState", "pDepthStencilState", "StencilRef")
	fnRSSetViewports     = method("ID3D11DeviceContext", "RSSetViewports", "NumViewports", "pViewports")
	fnClearRTV           = method("ID3D11DeviceContext", "ClearRenderTargetView", "pRenderTargetView", "ColorRGBA")
	fnClearDSV           = method("ID3D11DeviceContext", "ClearDepthStencilView", "pDepthStencilView", "ClearFlags", "Depth", "Stencil")
	fnUpdateSubresource  = method("ID3D11DeviceContext", "UpdateSubresource", "pDstResource", "DstSubresource", "pDstBox", "pSrcData", "SrcRowPitch", "SrcDepthPitch")
	fnMap                = method("ID3D11DeviceContext", "Map", "pResource", "Subresource", "MapType", "MapFlags", "pMappedResource")
	fnUnmap              = method("ID3D11DeviceContext", "Unmap", "pResource", "Subresource")
	fnGetData            = method("ID3D11DeviceContext", "GetData", "pAsync", "pData", "DataSize", "GetDataFlags")
	fnFinishCommandList  = method("ID3D11DeviceContext", "FinishCommandList", "RestoreDeferredContextState", "ppCommandList")
	fnFenceCompleted     = method("ID3D11Fence", "GetCompletedValue")
	fnFactoryRelease     = method("IDXGIFactory", "Release")
	fnDXGIDeviceRelease  = method("IDXGIDevice1", "Release")
)

// interfaces names the COM interface of each scenario object type.
var interfaces = map[string]string{
	"device": "ID3D11Device", "context": "ID3D11DeviceContext", "swapchain": "IDXGISwapChain", "buffer": "ID3D11Buffer",
	"texture": "ID3D11Texture2D", "rtv": "ID3D11RenderTargetView", "srv": "ID3D11ShaderResourceView",
	"dsv": "ID3D11DepthStencilView", "vs": "ID3D11VertexShader", "ps": "ID3D11PixelShader", "blend": "ID3D11BlendState",
	"rasterizer": "ID3D11RasterizerState", "depthstencil": "ID3D11DepthStencilState", "sampler": "ID3D11SamplerState",
	"query": "ID3D11Query", "commandlist": "ID3D11CommandList", "fence": "ID3D11Fence", "inputlayout": "ID3D11InputLayout",
}

// typeOfInterface is the scenario type of an interface (its family: the
// interface without the version digits, ID3D11Device5 -> ID3D11Device).
func typeOfInterface(iface string) string {
	f := family(iface)
	for t, i := range interfaces {
		if i == f {
			return t
		}
	}
	return ""
}

// family strips an interface's version digits: ID3D11DeviceContext4 and
// ID3D11DeviceContext are one family, IDXGISwapChain1 and IDXGISwapChain.
func family(iface string) string {
	return strings.TrimRight(iface, "0123456789")
}

// refcounting holds one signature per interface for AddRef and Release.
var refcounting = map[string]*FuncSig{}

func refSig(iface, m string) *FuncSig {
	k := iface + "::" + m
	if s := refcounting[k]; s != nil {
		return s
	}
	s := method(iface, m)
	refcounting[k] = s
	return s
}

// guidValue is a GUID as the tracer writes REFIID and REFGUID arguments:
// a GUID struct (in an array of one: a pointer).
func guidValue(name string) Value {
	g, _ := GUIDNamed(name)
	d4 := make([]Value, 8)
	for i, b := range g.Data4 {
		d4[i] = UintV(uint64(b))
	}
	return StructV(stGUID, UintV(uint64(g.Data1)), UintV(uint64(g.Data2)), UintV(uint64(g.Data3)), ArrayV(d4...))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// hrValue is an HRESULT as a return value.
func hrValue(h hresult.HRESULT) Value { return EnumV(sigHRESULT, int64(int32(h))) }
