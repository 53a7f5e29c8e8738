package isa

// The hardware's own encodings of surface formats, fixed-function state and
// programs. They are not D3D's: the UMD translates D3D11 descriptions into
// them when it encodes a command buffer.

// Format is a surface format of the hardware: how the texels of a surface
// are laid out in memory and what numbers they hold. formats.go describes
// every one (FormatInfo); package gpu/texel decodes and encodes them, for
// the texture unit, the output merger and the vertex fetch alike.
type Format uint32

// BytesPerPixel of a surface format whose texels are whole bytes each (0
// for unknown and block-compressed formats: RowBytes and Rows size those).
func (f Format) BytesPerPixel() int {
	i := f.Info()
	if i.Block != 1 {
		return 0
	}
	return int(i.Bytes)
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
