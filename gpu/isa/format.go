package isa

// The hardware's own encodings of surface formats, fixed-function state and
// programs. They are not D3D's: the UMD translates D3D11 descriptions into
// them when it encodes a command buffer.

// Format is a surface format of the hardware.
type Format uint32

const (
	FmtNone  Format = 0
	FmtRGBA8 Format = 1 // 4 bytes: R, G, B, A unorm
	FmtBGRA8 Format = 2 // 4 bytes: B, G, R, A unorm
	FmtD32F  Format = 3 // 4 bytes: float32 depth
	FmtD24S8 Format = 4 // 4 bytes little endian: depth unorm24 in bits 0..23, stencil in 24..31
	FmtR32F  Format = 5 // 4 bytes: float32
	FmtR16UI Format = 6 // 2 bytes (index buffers)
	FmtR32UI Format = 7 // 4 bytes (index buffers)
)

// BytesPerPixel of a surface format (0 for unknown formats).
func (f Format) BytesPerPixel() int {
	switch f {
	case FmtRGBA8, FmtBGRA8, FmtD32F, FmtD24S8, FmtR32F, FmtR32UI:
		return 4
	case FmtR16UI:
		return 2
	}
	return 0
}

// Shader stages: the stage words of SET_CB and SET_PROGRAM. A stage runs
// the program in the GPU's ISA that SET_PROGRAM binds to it (layout.go);
// the GPU has no other, built-in, programs.
const (
	StageVS = 0
	StagePS = 1
)

// Sampler filters and address modes.
const (
	FilterPoint  = 0
	FilterLinear = 1

	AddrWrap   = 0
	AddrClamp  = 1
	AddrMirror = 2
	AddrBorder = 3
)

// Rasterizer cull modes.
const (
	CullNone  = 0
	CullFront = 1
	CullBack  = 2
)

// RasterWireframe, ORed into SET_RASTER's cull word, draws each triangle as
// its three edges (D3D11_FILL_WIREFRAME); without it triangles are filled.
// A flag and not a fourth word, so the packets of a solid fill are what they
// always were.
const RasterWireframe = 1 << 8

// Blend factors and operations.
const (
	BlendZero = iota
	BlendOne
	BlendSrcColor
	BlendInvSrcColor
	BlendSrcAlpha
	BlendInvSrcAlpha
	BlendDestAlpha
	BlendInvDestAlpha
	BlendDestColor
	BlendInvDestColor
)

const (
	BlendOpAdd = iota
	BlendOpSubtract
	BlendOpRevSubtract
	BlendOpMin
	BlendOpMax
)

// Depth comparison functions.
const (
	CmpNever = iota
	CmpLess
	CmpEqual
	CmpLessEqual
	CmpGreater
	CmpNotEqual
	CmpGreaterEqual
	CmpAlways
)

// Primitive topologies.
const (
	TopoUndefined     = 0
	TopoPointList     = 1
	TopoLineList      = 2
	TopoLineStrip     = 3
	TopoTriangleList  = 4
	TopoTriangleStrip = 5
)

// Query kinds.
const (
	QueryOcclusionBegin = 0 // remember the samples-passed counter
	QueryOcclusionEnd   = 1 // write samples passed since the matching begin
	QueryTimestamp      = 2 // write the GPU's virtual time in ns
)

// VertexBytes is the size of the built-in vertex (BuiltinLayout): x y z,
// r g b a, u v as float32.
const VertexBytes = 36
