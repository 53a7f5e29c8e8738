package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/gpu"
)

// resource is the private memory behind an HRESOURCE.
type resource struct {
	args   ddi.CreateResourceArgs
	rt     ddi.HRTRESOURCE
	alloc  ddi.HALLOCATION
	size   uint64
	pitch  uint32
	format gpu.Format
	// lastFence is the fence of the last submitted command buffer that used
	// the resource; inBuffer says the unsubmitted buffer uses it.
	lastFence      uint64
	lastWriteFence uint64
	inBuffer       bool
	writeInBuffer  bool
	mapped         bool
	destroyed      bool
	// extra holds allocations added to the resource after CreateResource
	// (bug=FT-ALLOC does that to a shared resource).
	extra []ddi.HALLOCATION
}

func (r *resource) shared() bool { return r.args.MiscFlags.Has(ddi.ResourceMiscShared) }

type view struct {
	kind   ddi.ViewKind
	res    ddi.HRESOURCE
	format ddi.Format
}

type shader struct {
	stage   uint32
	program uint32
}

type query struct {
	kind     ddi.QueryType
	alloc    ddi.HALLOCATION // 16 bytes of CPU-visible memory for results
	active   bool
	ended    bool
	inBuffer bool   // its End is in the unsubmitted command buffer
	fence    uint64 // fence of the buffer that carried its End
}

// builtinPrograms maps SCENARIO.md's builtin:NAME shaders to GPU programs.
var builtinPrograms = map[string]shader{
	"vs_passthrough": {gpu.StageVS, gpu.ProgVSPassthrough},
	"vs_transform":   {gpu.StageVS, gpu.ProgVSTransform},
	"ps_vertexcolor": {gpu.StagePS, gpu.ProgPSVertexColor},
	"ps_solid":       {gpu.StagePS, gpu.ProgPSSolid},
	"ps_texture":     {gpu.StagePS, gpu.ProgPSTexture},
	"ps_fault":       {gpu.StagePS, gpu.ProgPSFault},
}

// IsBuiltin reports whether name is a built-in shader for the given stage
// ("vs" or "ps").
func IsBuiltin(name, stage string) bool {
	s, ok := builtinPrograms[name]
	if !ok {
		return false
	}
	return (stage == "vs") == (s.stage == gpu.StageVS)
}

// gpuFormat translates a DXGI format to the GPU's surface format.
func gpuFormat(f ddi.Format) gpu.Format {
	switch f {
	case ddi.FormatR8G8B8A8Unorm:
		return gpu.FmtRGBA8
	case ddi.FormatB8G8R8A8Unorm:
		return gpu.FmtBGRA8
	case ddi.FormatD32Float:
		return gpu.FmtD32F
	case ddi.FormatD24UnormS8Uint:
		return gpu.FmtD24S8
	case ddi.FormatR32Float:
		return gpu.FmtR32F
	case ddi.FormatR16Uint:
		return gpu.FmtR16UI
	case ddi.FormatR32Uint:
		return gpu.FmtR32UI
	}
	return gpu.FmtNone
}

var blendFactor = map[ddi.Blend]uint32{
	ddi.BlendZero: gpu.BlendZero, ddi.BlendOne: gpu.BlendOne, ddi.BlendSrcColor: gpu.BlendSrcColor,
	ddi.BlendInvSrcColor: gpu.BlendInvSrcColor, ddi.BlendSrcAlpha: gpu.BlendSrcAlpha,
	ddi.BlendInvSrcAlpha: gpu.BlendInvSrcAlpha, ddi.BlendDestAlpha: gpu.BlendDestAlpha,
	ddi.BlendInvDestAlpha: gpu.BlendInvDestAlpha, ddi.BlendDestColor: gpu.BlendDestColor,
	ddi.BlendInvDestColor: gpu.BlendInvDestColor,
}

var blendOp = map[ddi.BlendOp]uint32{
	ddi.BlendOpAdd: gpu.BlendOpAdd, ddi.BlendOpSubtract: gpu.BlendOpSubtract,
	ddi.BlendOpRevSubtract: gpu.BlendOpRevSubtract, ddi.BlendOpMin: gpu.BlendOpMin, ddi.BlendOpMax: gpu.BlendOpMax,
}

var cmpFunc = map[ddi.ComparisonFunc]uint32{
	ddi.ComparisonNever: gpu.CmpNever, ddi.ComparisonLess: gpu.CmpLess, ddi.ComparisonEqual: gpu.CmpEqual,
	ddi.ComparisonLessEqual: gpu.CmpLessEqual, ddi.ComparisonGreater: gpu.CmpGreater,
	ddi.ComparisonNotEqual: gpu.CmpNotEqual, ddi.ComparisonGreaterEqual: gpu.CmpGreaterEqual,
	ddi.ComparisonAlways: gpu.CmpAlways,
}

var cullMode = map[ddi.CullMode]uint32{ddi.CullNone: gpu.CullNone, ddi.CullFront: gpu.CullFront, ddi.CullBack: gpu.CullBack}

var addressMode = map[ddi.AddressMode]uint32{
	ddi.AddressWrap: gpu.AddrWrap, ddi.AddressMirror: gpu.AddrMirror, ddi.AddressClamp: gpu.AddrClamp,
	ddi.AddressBorder: gpu.AddrBorder,
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
