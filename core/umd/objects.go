package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/umd/translate"
	"d3dsim/gpu/isa"
)

// resource is the private memory behind an HRESOURCE.
type resource struct {
	args   ddi.CreateResourceArgs
	rt     ddi.HRTRESOURCE
	alloc  ddi.HALLOCATION
	size   uint64
	pitch  uint32
	format isa.Format
	tex    *texLayout // a texture of several subresources, 1D or 3D (texture.go); nil: one 2D level or a buffer
	// lastFence is the fence of the last submitted command buffer that used
	// the resource; inBuffer says the unsubmitted buffer uses it.
	lastFence      uint64
	lastWriteFence uint64
	inBuffer       bool
	writeInBuffer  bool
	mapped         bool
	destroyed      bool
	// soFilled: a stream-output buffer's filled size is the word at this
	// offset of its allocation, after its bytes (stream.go); 0: none.
	soFilled uint64
	// extra holds allocations added to the resource after CreateResource
	// (bug=FT-ALLOC does that to a shared resource).
	extra []ddi.HALLOCATION
}

func (r *resource) shared() bool { return r.args.MiscFlags.Has(ddi.ResourceMiscShared) }

type view struct {
	kind   ddi.ViewKind
	res    ddi.HRESOURCE
	format ddi.Format
	gpu    isa.Format  // the GPU's format of the view (its DXGI format's)
	flags  ddi.DSVFlag // a depth-stencil view's read-only flags
	srv    *srvView    // a shader-resource view SET_VIEW binds (texture.go); nil: SET_TEX's
	uav    *uavView    // an unordered access view (compute.go)
	target *targetView // a render-target or depth-stencil view's surface (rtview.go)
}

// shader is a shader translated from bytecode (shaders.go): its ISA words
// in a GPU-visible allocation that SET_PROGRAM names.
type shader struct {
	prog   *translate.Shader
	words  uint32     // the program's size in words
	code   *resource  // the allocation holding the program's words
	sysReg uint32     // SV_Position's register (isa.NoReg: none)
	clip   uint32     // SET_CLIP_DIST's word for its distances (clipdist.go)
	layout isa.Layout // vertex shader: the fetch of its inputs
	// destroyed: DestroyShader was called and the destruction waits for
	// a submission (deferDestroy).
	destroyed bool
	// bytecode is what the shader was created from (the runtime's copy),
	// and stage its kind: ShaderCode translates it again for a tool, prog
	// holding only what draws read.
	bytecode []byte
	stage    dxbc.ProgramType
	so       *soDecl // a stream-output declaration (stream.go)
}

type query struct {
	kind     ddi.QueryType
	alloc    ddi.HALLOCATION // 16 bytes of CPU-visible memory for results
	active   bool
	ended    bool
	inBuffer bool   // its End is in the unsubmitted command buffer
	fence    uint64 // fence of the buffer that carried its End
}

// gpuFormat translates a DXGI format to the GPU's surface format: a typed
// format to the one that holds its texels, a typeless one to a format of
// its bit layout (its views say what the bits mean). FmtNone: none.
func gpuFormat(f ddi.Format) isa.Format { return GPUFormat(f) }

// GPUFormat is gpuFormat for the harness (core/machine decodes read-back
// texels with it).
func GPUFormat(f ddi.Format) isa.Format {
	if int(f) < len(gpuFormats) {
		return gpuFormats[f]
	}
	if f == 115 {
		return isa.FmtBGRA4 // B4G4R4A4_UNORM
	}
	return isa.FmtNone
}

var gpuFormats = [100]isa.Format{
	1: isa.FmtRGBA32UI, 2: isa.FmtRGBA32F, 3: isa.FmtRGBA32UI, 4: isa.FmtRGBA32SI,
	5: isa.FmtRGB32UI, 6: isa.FmtRGB32F, 7: isa.FmtRGB32UI, 8: isa.FmtRGB32SI,
	9: isa.FmtRGBA16UI, 10: isa.FmtRGBA16F, 11: isa.FmtRGBA16UN, 12: isa.FmtRGBA16UI, 13: isa.FmtRGBA16SN, 14: isa.FmtRGBA16SI,
	15: isa.FmtRG32UI, 16: isa.FmtRG32F, 17: isa.FmtRG32UI, 18: isa.FmtRG32SI,
	19: isa.FmtD32FS8, 20: isa.FmtD32FS8, 21: isa.FmtR32FX32, 22: isa.FmtX32S8UI,
	23: isa.FmtRGB10A2UN, 24: isa.FmtRGB10A2UN, 25: isa.FmtRGB10A2UI, 26: isa.FmtRG11B10F,
	27: isa.FmtRGBA8, 28: isa.FmtRGBA8, 29: isa.FmtRGBA8SRGB, 30: isa.FmtRGBA8UI, 31: isa.FmtRGBA8SN, 32: isa.FmtRGBA8SI,
	33: isa.FmtRG16UI, 34: isa.FmtRG16F, 35: isa.FmtRG16UN, 36: isa.FmtRG16UI, 37: isa.FmtRG16SN, 38: isa.FmtRG16SI,
	39: isa.FmtR32UI, 40: isa.FmtD32F, 41: isa.FmtR32F, 42: isa.FmtR32UI, 43: isa.FmtR32SI,
	44: isa.FmtD24S8, 45: isa.FmtD24S8, 46: isa.FmtR24X8, 47: isa.FmtX24S8UI,
	48: isa.FmtRG8UN, 49: isa.FmtRG8UN, 50: isa.FmtRG8UI, 51: isa.FmtRG8SN, 52: isa.FmtRG8SI,
	53: isa.FmtR16UI, 54: isa.FmtR16F, 55: isa.FmtD16, 56: isa.FmtR16UN, 57: isa.FmtR16UI, 58: isa.FmtR16SN, 59: isa.FmtR16SI,
	60: isa.FmtR8UN, 61: isa.FmtR8UN, 62: isa.FmtR8UI, 63: isa.FmtR8SN, 64: isa.FmtR8SI, 65: isa.FmtA8UN,
	67: isa.FmtRGB9E5,
	70: isa.FmtBC1, 71: isa.FmtBC1, 72: isa.FmtBC1SRGB, 73: isa.FmtBC2, 74: isa.FmtBC2, 75: isa.FmtBC2SRGB,
	76: isa.FmtBC3, 77: isa.FmtBC3, 78: isa.FmtBC3SRGB, 79: isa.FmtBC4UN, 80: isa.FmtBC4UN, 81: isa.FmtBC4SN,
	82: isa.FmtBC5UN, 83: isa.FmtBC5UN, 84: isa.FmtBC5SN, 85: isa.FmtB5G6R5, 86: isa.FmtBGR5A1,
	87: isa.FmtBGRA8, 88: isa.FmtBGRX8, 90: isa.FmtBGRA8, 91: isa.FmtBGRA8SRGB, 92: isa.FmtBGRX8, 93: isa.FmtBGRX8SRGB,
	94: isa.FmtBC6HUF, 95: isa.FmtBC6HUF, 96: isa.FmtBC6HSF, 97: isa.FmtBC7, 98: isa.FmtBC7, 99: isa.FmtBC7SRGB,
}

// CheckFormatSupport is pfnCheckFormatSupport: what the device supports of
// a format, answered from "Format support for Direct3D feature level 11.0
// hardware" (ddi.Required), plus the optional support this GPU has (none
// of what the table leaves optional: render targets of R32G32B32_* are
// not this GPU's). A format the GPU has no texels for gets 0.
func (c *context) CheckFormatSupport(_ ddi.HDEVICE, f ddi.Format) ddi.FormatSupport {
	if gpuFormat(f) == isa.FmtNone {
		return 0
	}
	return ddi.Required(f) | ddi.Optional(f)&gpuOptional
}

// gpuOptional is the optional support of the table this GPU has.
const gpuOptional ddi.FormatSupport = 0

var blendFactor = map[ddi.Blend]uint32{
	ddi.BlendZero: isa.BlendZero, ddi.BlendOne: isa.BlendOne, ddi.BlendSrcColor: isa.BlendSrcColor,
	ddi.BlendInvSrcColor: isa.BlendInvSrcColor, ddi.BlendSrcAlpha: isa.BlendSrcAlpha,
	ddi.BlendInvSrcAlpha: isa.BlendInvSrcAlpha, ddi.BlendDestAlpha: isa.BlendDestAlpha,
	ddi.BlendInvDestAlpha: isa.BlendInvDestAlpha, ddi.BlendDestColor: isa.BlendDestColor,
	ddi.BlendInvDestColor: isa.BlendInvDestColor, ddi.BlendSrcAlphaSat: isa.BlendSrcAlphaSat,
	ddi.BlendBlendFactor: isa.BlendFactor, ddi.BlendInvFactor: isa.BlendInvFactor, ddi.BlendSrc1Color: isa.BlendSrc1Color,
	ddi.BlendInvSrc1Color: isa.BlendInvSrc1Color, ddi.BlendSrc1Alpha: isa.BlendSrc1Alpha, ddi.BlendInvSrc1Alpha: isa.BlendInvSrc1Alpha,
}

var stencilOps = map[ddi.StencilOp]uint32{
	ddi.StencilKeep: isa.StencilKeep, ddi.StencilZero: isa.StencilZero, ddi.StencilReplace: isa.StencilReplace,
	ddi.StencilIncrSat: isa.StencilIncrSat, ddi.StencilDecrSat: isa.StencilDecrSat, ddi.StencilInvert: isa.StencilInvert,
	ddi.StencilIncr: isa.StencilIncr, ddi.StencilDecr: isa.StencilDecr,
}

var blendOp = map[ddi.BlendOp]uint32{
	ddi.BlendOpAdd: isa.BlendOpAdd, ddi.BlendOpSubtract: isa.BlendOpSubtract,
	ddi.BlendOpRevSubtract: isa.BlendOpRevSubtract, ddi.BlendOpMin: isa.BlendOpMin, ddi.BlendOpMax: isa.BlendOpMax,
}

var cmpFunc = map[ddi.ComparisonFunc]uint32{
	ddi.ComparisonNever: isa.CmpNever, ddi.ComparisonLess: isa.CmpLess, ddi.ComparisonEqual: isa.CmpEqual,
	ddi.ComparisonLessEqual: isa.CmpLessEqual, ddi.ComparisonGreater: isa.CmpGreater,
	ddi.ComparisonNotEqual: isa.CmpNotEqual, ddi.ComparisonGreaterEqual: isa.CmpGreaterEqual,
	ddi.ComparisonAlways: isa.CmpAlways,
}

// topology is the GPU's code of a primitive topology (those with
// adjacency have their own).
func topology(t ddi.Topology) uint32 {
	switch t {
	case ddi.TopologyLineListAdj:
		return isa.TopoLineListAdj
	case ddi.TopologyLineStripAdj:
		return isa.TopoLineStripAdj
	case ddi.TopologyTriangleListAdj:
		return isa.TopoTriangleAdj
	case ddi.TopologyTriangleStripAdj:
		return isa.TopoTriStripAdj
	}
	return uint32(t)
}

var cullMode = map[ddi.CullMode]uint32{ddi.CullNone: isa.CullNone, ddi.CullFront: isa.CullFront, ddi.CullBack: isa.CullBack}

var addressMode = map[ddi.AddressMode]uint32{
	ddi.AddressWrap: isa.AddrWrap, ddi.AddressMirror: isa.AddrMirror, ddi.AddressClamp: isa.AddrClamp,
	ddi.AddressBorder: isa.AddrBorder,
}

func unorm8(v float32) uint32 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint32(v*255 + 0.5)
}
