package isa

import (
	"fmt"
	"strings"
)

// Programs from memory and the vertex fetch descriptor.
//
// SET_PROGRAM stage addr(2) words sysReg binds the gpu/shaderisa program whose
// encoded words (package gpu/shaderisa's Encode) start at addr, words long,
// to stage (StageVS or StagePS).
// addr is an address field like any other: the KMD checks [addr, +4*words)
// against the allocation and patches it. sysReg names where the system
// value SV_Position is: for a vertex program the output register that holds
// the clip-space position (o0 usually); for a pixel program the input
// register that receives the pixel's position (x+0.5, y+0.5, depth, w), or
// NoReg, in bits 0..7, with two more in a pixel program's word: bits 8..13
// are the output register of SV_Depth plus one (0: the program writes no
// depth; its x replaces the interpolated depth, clamped to the viewport's
// range), bits 14..15 its kind (depthout.go: SV_DepthGreaterEqual,
// SV_DepthLessEqual), bits 16..21 the input register of SV_IsFrontFace plus one (0:
// none; it reads all ones for a front-facing primitive, 0 for a
// back-facing one), bit 22 EarlyDepthStencil (depthout.go:
// [earlydepthstencil]), bits 24..29 the input register of the rasterizer's
// values plus one (0: none; x the render target's sample count, y the
// pixel's covered samples, SV_Coverage's input; z the sample a bit 30
// program shades, SV_SampleIndex), bit 30 set when the program runs at
// sample frequency (once a covered sample of a multisampled target, its
// centroid inputs at that sample), bit 31 set when the
// program writes a coverage mask in output shaderisa.CoverageOutput
// (SV_Coverage's output, ANDed with the pixel's coverage). Address 0 with 0 words unbinds the program (the stage has none;
// a UMD writes isa.NullAddress, which the KMD leaves 0). A draw needs a
// vertex program; with no pixel program it writes no colour and still
// tests and writes depth (a depth-only pass, as with a null pixel shader).
//
// With a vertex program bound, a vertex output register k other than the
// position is varying k, which the pixel program reads as input register k,
// interpolated perspective-correct (at most MaxVaryings registers: the 32
// of D3D11_VS_OUTPUT_REGISTER_COUNT and D3D11_PS_INPUT_REGISTER_COUNT, the
// o# and v# counts of "Registers - vs_4_1" and "Registers - ps_4_0"; a
// vs_4_0 program has 16, "Registers - vs_4_0", which the driver checks).
// The GPU's work a vertex and a pixel is that of the registers a draw's
// programs use, not of the 32.
//
// SET_LAYOUT is the vertex stage's fetch descriptor (the UMD builds it from
// CreateElementLayout): one word of system-value registers, then three
// words per element, at most MaxVertexElements:
//
//	word 0:   vertexIDReg | instanceIDReg<<8  (input registers, NoReg: none)
//	element:  reg | slot<<8 | format<<16 | perInstance<<24
//	          byte offset in the vertex (or instance)
//	          instance step rate (per-instance elements; 0 counts as 1)
//
// Element reg of input register v#reg is read from vertex buffer slot,
// at stride*vertex + offset(SET_VB) + byte offset, in format. Components
// the format lacks read 0, 0, 0, 1 (1.0 for float formats, integer 1 for
// integer ones); an element not wholly inside its buffer reads zeros with
// those defaults (the input assembler's bounded fetch). DRAW_INSTANCED and
// DRAW_INDEXED_INSTANCED draw their vertices once per instance (DRAW and
// DRAW_INDEXED one instance, startInstance 0): a per-instance element of
// step rate n reads element startInstance + instance/n of its buffer (step
// rate 0: startInstance for every instance), SV_InstanceID is the instance
// (from 0, without startInstance), SV_VertexID the index read from the
// index buffer (without the base vertex) in an indexed draw, start+i
// otherwise, as in Direct3D 11. A buffer
// starts with no layout: a vertex program's inputs all read zero.

// Limits of programmable draws.
const (
	MaxVertexElements = 16   // elements of SET_LAYOUT
	MaxVertexSlots    = 32   // vertex-buffer slots (SET_VB), D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT
	MaxVaryings       = 32   // output registers of a vertex program (position included): D3D11_VS_OUTPUT_REGISTER_COUNT
	NoReg             = 0xFF // no register for a system value
)

// VertexFormat is the format of a vertex element. Codes 1 to 11 are the
// first ones the GPU had; the rest follow. Each is the surface format its
// element's bytes hold (Texel), decoded as package gpu/texel decodes
// texels: the vertex fetch and the texture unit read a format alike.
type VertexFormat uint8

const (
	VtxNone      VertexFormat = iota
	VtxRGBA32F                // R32G32B32A32_FLOAT
	VtxRGB32F                 // R32G32B32_FLOAT
	VtxRG32F                  // R32G32_FLOAT
	VtxR32F                   // R32_FLOAT
	VtxRGBA8                  // R8G8B8A8_UNORM
	VtxBGRA8                  // B8G8R8A8_UNORM
	VtxRGBA32UI               // R32G32B32A32_UINT
	VtxRGB32UI                // R32G32B32_UINT
	VtxRG32UI                 // R32G32_UINT
	VtxR32UI                  // R32_UINT
	VtxRGBA8UI                // R8G8B8A8_UINT
	VtxRGBA32SI               // R32G32B32A32_SINT
	VtxRGB32SI                // R32G32B32_SINT
	VtxRG32SI                 // R32G32_SINT
	VtxR32SI                  // R32_SINT
	VtxRGBA16F                // R16G16B16A16_FLOAT
	VtxRGBA16UN               // R16G16B16A16_UNORM
	VtxRGBA16UI               // R16G16B16A16_UINT
	VtxRGBA16SN               // R16G16B16A16_SNORM
	VtxRGBA16SI               // R16G16B16A16_SINT
	VtxRGB10A2UN              // R10G10B10A2_UNORM
	VtxRGB10A2UI              // R10G10B10A2_UINT
	VtxRG11B10F               // R11G11B10_FLOAT
	VtxRGBA8SN                // R8G8B8A8_SNORM
	VtxRGBA8SI                // R8G8B8A8_SINT
	VtxRG16F                  // R16G16_FLOAT
	VtxRG16UN                 // R16G16_UNORM
	VtxRG16UI                 // R16G16_UINT
	VtxRG16SN                 // R16G16_SNORM
	VtxRG16SI                 // R16G16_SINT
	VtxRG8UN                  // R8G8_UNORM
	VtxRG8UI                  // R8G8_UINT
	VtxRG8SN                  // R8G8_SNORM
	VtxRG8SI                  // R8G8_SINT
	VtxR16F                   // R16_FLOAT
	VtxR16UN                  // R16_UNORM
	VtxR16UI                  // R16_UINT
	VtxR16SN                  // R16_SNORM
	VtxR16SI                  // R16_SINT
	VtxR8UN                   // R8_UNORM
	VtxR8UI                   // R8_UINT
	VtxR8SN                   // R8_SNORM
	VtxR8SI                   // R8_SINT
	numVtxFormats
)

// vtxTexel is the surface format of each vertex format.
var vtxTexel = [numVtxFormats]Format{
	VtxRGBA32F: FmtRGBA32F, VtxRGB32F: FmtRGB32F, VtxRG32F: FmtRG32F, VtxR32F: FmtR32F, VtxRGBA8: FmtRGBA8,
	VtxBGRA8: FmtBGRA8, VtxRGBA32UI: FmtRGBA32UI, VtxRGB32UI: FmtRGB32UI, VtxRG32UI: FmtRG32UI, VtxR32UI: FmtR32UI,
	VtxRGBA8UI: FmtRGBA8UI, VtxRGBA32SI: FmtRGBA32SI, VtxRGB32SI: FmtRGB32SI, VtxRG32SI: FmtRG32SI, VtxR32SI: FmtR32SI,
	VtxRGBA16F: FmtRGBA16F, VtxRGBA16UN: FmtRGBA16UN, VtxRGBA16UI: FmtRGBA16UI, VtxRGBA16SN: FmtRGBA16SN,
	VtxRGBA16SI: FmtRGBA16SI, VtxRGB10A2UN: FmtRGB10A2UN, VtxRGB10A2UI: FmtRGB10A2UI, VtxRG11B10F: FmtRG11B10F,
	VtxRGBA8SN: FmtRGBA8SN, VtxRGBA8SI: FmtRGBA8SI, VtxRG16F: FmtRG16F, VtxRG16UN: FmtRG16UN, VtxRG16UI: FmtRG16UI,
	VtxRG16SN: FmtRG16SN, VtxRG16SI: FmtRG16SI, VtxRG8UN: FmtRG8UN, VtxRG8UI: FmtRG8UI, VtxRG8SN: FmtRG8SN,
	VtxRG8SI: FmtRG8SI, VtxR16F: FmtR16F, VtxR16UN: FmtR16UN, VtxR16UI: FmtR16UI, VtxR16SN: FmtR16SN,
	VtxR16SI: FmtR16SI, VtxR8UN: FmtR8UN, VtxR8UI: FmtR8UI, VtxR8SN: FmtR8SN, VtxR8SI: FmtR8SI,
}

// Texel is the surface format the element's bytes hold (FmtNone for an
// unknown vertex format).
func (f VertexFormat) Texel() Format {
	if f >= numVtxFormats {
		return FmtNone
	}
	return vtxTexel[f]
}

// VertexFormatOf is the vertex format holding surface format t's texels
// (VtxNone: none).
func VertexFormatOf(t Format) VertexFormat {
	for v, x := range vtxTexel {
		if x == t && t != FmtNone {
			return VertexFormat(v)
		}
	}
	return VtxNone
}

// vtxInfo is each vertex format's size, components and integer flag, read
// per element fetched: a lookup, not FormatInfo's copy.
var vtxInfo = func() (t [256]struct {
	size, comps uint8
	int         bool
}) {
	for v, f := range vtxTexel {
		i := f.Info()
		t[v].size, t[v].comps, t[v].int = i.Bytes, i.Channels, f.Int()
	}
	return t
}()

// Size is the bytes of one element of the format, and Components how many
// it has; Int reports an integer format.
func (f VertexFormat) Size() int { return int(vtxInfo[f].size) }

// Components of the format.
func (f VertexFormat) Components() int { return int(vtxInfo[f].comps) }

// Int reports whether the format's components are integers.
func (f VertexFormat) Int() bool { return vtxInfo[f].int }

// VertexElement is one element of a Layout.
type VertexElement struct {
	Reg, Slot   uint8
	Format      VertexFormat
	PerInstance bool
	Offset      uint32
	StepRate    uint32
}

// Layout is SET_LAYOUT's descriptor.
type Layout struct {
	VertexIDReg, InstanceIDReg uint8
	Elements                   []VertexElement
}

// BuiltinLayout is the fetch descriptor of the built-in 36-byte vertex:
// v0 position (3 floats), v1 colour (4 floats), v2 texture coordinate (2
// floats), all from slot 0.
func BuiltinLayout() Layout {
	return Layout{VertexIDReg: NoReg, InstanceIDReg: NoReg, Elements: []VertexElement{
		{Reg: 0, Format: VtxRGB32F, Offset: 0},
		{Reg: 1, Format: VtxRGBA32F, Offset: 12},
		{Reg: 2, Format: VtxRG32F, Offset: 28},
	}}
}

// ParseLayout decodes SET_LAYOUT's payload and checks its fields: formats
// known, registers and slots in range (the GPU checks registers against
// the bound program at the draw).
func ParseLayout(a []uint32) (Layout, error) {
	if len(a) < 1 || (len(a)-1)%3 != 0 || len(a) > 1+3*MaxVertexElements {
		return Layout{}, fmt.Errorf("layout of %d words", len(a))
	}
	if a[0]>>16 != 0 {
		return Layout{}, fmt.Errorf("layout word 0 %#x: bits 16-31 must be zero", a[0])
	}
	l := Layout{VertexIDReg: uint8(a[0]), InstanceIDReg: uint8(a[0] >> 8)}
	for i := 1; i < len(a); i += 3 {
		w := a[i]
		e := VertexElement{Reg: uint8(w), Slot: uint8(w >> 8), Format: VertexFormat(w >> 16), PerInstance: w>>24&1 != 0,
			Offset: a[i+1], StepRate: a[i+2]}
		switch {
		case w>>25 != 0:
			return Layout{}, fmt.Errorf("element %d: word %#x: bits 25-31 must be zero", i/3, w)
		case e.Format == VtxNone || e.Format >= numVtxFormats:
			return Layout{}, fmt.Errorf("element %d: vertex format %d", i/3, e.Format)
		case e.Slot >= MaxVertexSlots:
			return Layout{}, fmt.Errorf("element %d: slot %d outside 0..%d", i/3, e.Slot, MaxVertexSlots-1)
		}
		l.Elements = append(l.Elements, e)
	}
	return l, nil
}

// Words encodes the layout as SET_LAYOUT's payload.
func (l Layout) Words() []uint32 {
	out := []uint32{uint32(l.VertexIDReg) | uint32(l.InstanceIDReg)<<8}
	for _, e := range l.Elements {
		w := uint32(e.Reg) | uint32(e.Slot)<<8 | uint32(e.Format)<<16
		if e.PerInstance {
			w |= 1 << 24
		}
		out = append(out, w, e.Offset, e.StepRate)
	}
	return out
}

func (l Layout) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "vid=%d iid=%d", int8(l.VertexIDReg), int8(l.InstanceIDReg))
	for _, e := range l.Elements {
		fmt.Fprintf(&sb, " v%d=slot%d+%d:fmt%d", e.Reg, e.Slot, e.Offset, e.Format)
		if e.PerInstance {
			fmt.Fprintf(&sb, "/inst%d", e.StepRate)
		}
	}
	return sb.String()
}

// SetProgram binds the program of words words at addr to stage; sysReg is
// the SV_Position register (see above).
func (b *Builder) SetProgram(stage uint32, addr uint64, words, sysReg uint32) int {
	b.header(OpSetProgram, 5)
	b.Words = append(b.Words, stage)
	at := b.addr(addr)
	b.Words = append(b.Words, words, sysReg)
	return at
}

// DrawInstanced draws instances instances of count vertices from start;
// per-instance elements start at instance startInstance.
func (b *Builder) DrawInstanced(count, start, instances, startInstance uint32) {
	b.header(OpDrawInstanced, 4)
	b.Words = append(b.Words, count, start, instances, startInstance)
}

// DrawIndexedInstanced is DrawInstanced with indices (DRAW_INDEXED's).
func (b *Builder) DrawIndexedInstanced(count, start uint32, base int32, instances, startInstance uint32) {
	b.header(OpDrawIndexedInstanced, 5)
	b.Words = append(b.Words, count, start, uint32(base), instances, startInstance)
}

// SetLayout sets the vertex fetch descriptor.
func (b *Builder) SetLayout(l Layout) {
	w := l.Words()
	b.header(OpSetLayout, len(w))
	b.Words = append(b.Words, w...)
}
