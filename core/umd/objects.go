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

// shader is a shader translated from bytecode (shaders.go): its ISA words
// in a GPU-visible allocation that SET_PROGRAM names.
type shader struct {
	prog   *translate.Shader
	words  uint32     // the program's size in words
	code   *resource  // the allocation holding the program's words
	sysReg uint32     // SV_Position's register (isa.NoReg: none)
	layout isa.Layout // vertex shader: the fetch of its inputs
	// destroyed: DestroyShader was called and the destruction waits for
	// a submission (deferDestroy).
	destroyed bool
	// bytecode is what the shader was created from (the runtime's copy),
	// and stage its kind: ShaderCode translates it again for a tool, prog
	// holding only what draws read.
	bytecode []byte
	stage    dxbc.ProgramType
}

type query struct {
	kind     ddi.QueryType
	alloc    ddi.HALLOCATION // 16 bytes of CPU-visible memory for results
	active   bool
	ended    bool
	inBuffer bool   // its End is in the unsubmitted command buffer
	fence    uint64 // fence of the buffer that carried its End
}

// gpuFormat translates a DXGI format to the GPU's surface format.
func gpuFormat(f ddi.Format) isa.Format {
	switch f {
	case ddi.FormatR8G8B8A8Unorm:
		return isa.FmtRGBA8
	case ddi.FormatB8G8R8A8Unorm:
		return isa.FmtBGRA8
	case ddi.FormatD32Float:
		return isa.FmtD32F
	case ddi.FormatD24UnormS8Uint:
		return isa.FmtD24S8
	case ddi.FormatR32Float:
		return isa.FmtR32F
	case ddi.FormatR16Uint:
		return isa.FmtR16UI
	case ddi.FormatR32Uint:
		return isa.FmtR32UI
	}
	return isa.FmtNone
}

var blendFactor = map[ddi.Blend]uint32{
	ddi.BlendZero: isa.BlendZero, ddi.BlendOne: isa.BlendOne, ddi.BlendSrcColor: isa.BlendSrcColor,
	ddi.BlendInvSrcColor: isa.BlendInvSrcColor, ddi.BlendSrcAlpha: isa.BlendSrcAlpha,
	ddi.BlendInvSrcAlpha: isa.BlendInvSrcAlpha, ddi.BlendDestAlpha: isa.BlendDestAlpha,
	ddi.BlendInvDestAlpha: isa.BlendInvDestAlpha, ddi.BlendDestColor: isa.BlendDestColor,
	ddi.BlendInvDestColor: isa.BlendInvDestColor,
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
