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
// NoReg. Address 0 with 0 words unbinds the program (the stage has none;
// a UMD writes isa.NullAddress, which the KMD leaves 0). A draw needs a
// vertex program; with no pixel program it writes no colour and still
// tests and writes depth (a depth-only pass, as with a null pixel shader).
//
// With a vertex program bound, a vertex output register k other than the
// position is varying k, which the pixel program reads as input register k,
// interpolated perspective-correct (at most MaxVaryings registers).
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
	MaxVaryings       = 8    // output registers of a vertex program (position included)
	NoReg             = 0xFF // no register for a system value
)

// VertexFormat is the format of a vertex element.
type VertexFormat uint8

const (
	VtxNone     VertexFormat = iota
	VtxRGBA32F               // R32G32B32A32_FLOAT
	VtxRGB32F                // R32G32B32_FLOAT
	VtxRG32F                 // R32G32_FLOAT
	VtxR32F                  // R32_FLOAT
	VtxRGBA8                 // R8G8B8A8_UNORM
	VtxBGRA8                 // B8G8R8A8_UNORM
	VtxRGBA32UI              // R32G32B32A32_UINT
	VtxRGB32UI               // R32G32B32_UINT
	VtxRG32UI                // R32G32_UINT
	VtxR32UI                 // R32_UINT
	VtxRGBA8UI               // R8G8B8A8_UINT
	numVtxFormats
)

// Size is the bytes of one element of the format, and Components how many
// it has; Int reports an integer format.
func (f VertexFormat) Size() int {
	switch f {
	case VtxRGBA32F, VtxRGBA32UI:
		return 16
	case VtxRGB32F, VtxRGB32UI:
		return 12
	case VtxRG32F, VtxRG32UI:
		return 8
	case VtxR32F, VtxR32UI, VtxRGBA8, VtxBGRA8, VtxRGBA8UI:
		return 4
	}
	return 0
}

// Components of the format.
func (f VertexFormat) Components() int {
	switch f {
	case VtxRGBA32F, VtxRGBA32UI, VtxRGBA8, VtxBGRA8, VtxRGBA8UI:
		return 4
	case VtxRGB32F, VtxRGB32UI:
		return 3
	case VtxRG32F, VtxRG32UI:
		return 2
	case VtxR32F, VtxR32UI:
		return 1
	}
	return 0
}

// Int reports whether the format's components are integers.
func (f VertexFormat) Int() bool {
	return f == VtxRGBA32UI || f == VtxRGB32UI || f == VtxRG32UI || f == VtxR32UI || f == VtxRGBA8UI
}

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
		case e.Slot >= 16:
			return Layout{}, fmt.Errorf("element %d: slot %d outside 0..15", i/3, e.Slot)
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
