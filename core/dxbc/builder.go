package dxbc

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// Operand constructors for a compiler. Registers start as four-component
// with a full write mask; Emit turns a source's mask into a swizzle, so
// Temp(0) works as a destination (r0.xyzw) and as a source (r0.xyzw).

func reg(t RegisterType, idx ...uint32) Operand {
	op := Operand{Type: t, Components: 4, Mode: SelectMask, WriteMask: XYZW}
	for _, i := range idx {
		op.Indices = append(op.Indices, Index{Imm: uint64(i)})
	}
	return op
}

// Temp is r<n>.
func Temp(n uint32) Operand { return reg(RegTemp, n) }

// Input is v<n>.
func Input(n uint32) Operand { return reg(RegInput, n) }

// Output is o<n>.
func Output(n uint32) Operand { return reg(RegOutput, n) }

// CB is cb<slot>[vec4]: constant buffer slot, 16-byte element.
func CB(slot, vec4 uint32) Operand { return reg(RegConstantBuffer, slot, vec4) }

// IndexableTemp is x<n>[i].
func IndexableTemp(n, i uint32) Operand { return reg(RegIndexableTemp, n, i) }

// ICB is icb[i], the immediate constant buffer.
func ICB(i uint32) Operand { return reg(RegImmediateCB, i) }

// Texture is t<n> as a source of sample/ld (swizzle xyzw).
func Texture(n uint32) Operand { return reg(RegResource, n).Swz("xyzw") }

// Sampler is s<n>.
func Sampler(n uint32) Operand {
	return Operand{Type: RegSampler, Indices: []Index{{Imm: uint64(n)}}}
}

// UAV is u<n>: as a destination of store_uav_typed (u0.xyzw), and with a
// swizzle the view of ld_uav_typed.
func UAV(n uint32) Operand { return reg(RegUAV, n) }

// UAVDecl is u<n> as dcl_uav_* declares it (no components).
func UAVDecl(n uint32) Operand { return Operand{Type: RegUAV, Indices: []Index{{Imm: uint64(n)}}} }

// Null is the null destination (the unused half of sincos, udiv ...).
func Null() Operand { return Operand{Type: RegNull} }

// Imm is a float literal l(...): one value, or up to four (padded with 0).
func Imm(v ...float32) Operand {
	w := make([]uint32, len(v))
	for i, f := range v {
		w[i] = math.Float32bits(f)
	}
	return immOperand(w)
}

// ImmInt is an integer literal l(...).
func ImmInt(v ...int32) Operand {
	w := make([]uint32, len(v))
	for i, x := range v {
		w[i] = uint32(x)
	}
	return immOperand(w)
}

// ImmUint is an unsigned literal l(...).
func ImmUint(v ...uint32) Operand { return immOperand(slices.Clone(v)) }

func immOperand(w []uint32) Operand {
	switch {
	case len(w) == 1:
		return Operand{Type: RegImmediate32, Components: 1, Imm: w}
	case len(w) > 4 || len(w) == 0:
		// Build reports it: an immediate has one or four values.
		return Operand{Type: RegImmediate32, Components: 4, Imm: w}
	}
	for len(w) < 4 {
		w = append(w, 0)
	}
	return Operand{Type: RegImmediate32, Components: 4, Mode: SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3}, Imm: w}
}

// Mask sets a destination's write mask.
func (o Operand) Mask(m uint8) Operand {
	o.Mode, o.WriteMask = SelectMask, m&XYZW
	return o
}

// Swizzle sets a source's swizzle: components 0..3 for x..w.
func (o Operand) Swizzle(x, y, z, w uint8) Operand {
	o.Mode, o.Swiz = SelectSwizzle, [4]uint8{x & 3, y & 3, z & 3, w & 3}
	return o
}

// Swz sets a swizzle from text, "xyxx" or "x" (replicated), the
// listing's spelling; rgba is accepted too. Bad text is reported by Build.
func (o Operand) Swz(s string) Operand {
	var c [4]uint8
	if len(s) == 0 || len(s) > 4 {
		o.Components = 3 // invalid on purpose: encode reports it
		return o
	}
	for i := 0; i < 4; i++ {
		ch := s[min(i, len(s)-1)]
		k := strings.IndexByte("xyzw", ch)
		if k < 0 {
			k = strings.IndexByte("rgba", ch)
		}
		if k < 0 {
			o.Components = 3
			return o
		}
		c[i] = uint8(k)
	}
	return o.Swizzle(c[0], c[1], c[2], c[3])
}

// Select picks one component (select-1 mode), as conditions use: r0.x.
func (o Operand) Select(c uint8) Operand {
	o.Mode, o.Swiz = SelectOne, [4]uint8{c & 3}
	return o
}

// Neg negates a source.
func (o Operand) Neg() Operand {
	o.Modifier ^= ModNeg
	return o
}

// Abs takes a source's absolute value.
func (o Operand) Abs() Operand {
	o.Modifier |= ModAbs
	return o
}

// Rel indexes the operand's last dimension by a register plus offset:
// CB(0, 2).Rel(Temp(1).Select(0)) is cb0[r1.x + 2].
func (o Operand) Rel(r Operand) Operand {
	if len(o.Indices) == 0 {
		return o
	}
	o.Indices = slices.Clone(o.Indices)
	last := &o.Indices[len(o.Indices)-1]
	last.Repr = IndexImm32Relative
	last.Rel = &r
	return o
}

// Builder assembles a program: declarations (kept in fxc's order whatever
// order they are made in) and code, then the container with its
// signatures and checksum. Errors are kept and reported by Program/Build.
type Builder struct {
	Type         ProgramType
	Major, Minor uint8
	decls        []Instruction
	code         []Instruction
	err          error
	maxTemp      int
	tempsSet     bool
}

// NewBuilder starts a program for the stage and shader model (4.0, 4.1, 5.0).
func NewBuilder(stage ProgramType, major, minor uint8) *Builder {
	return &Builder{Type: stage, Major: major, Minor: minor, maxTemp: -1}
}

func (b *Builder) fail(format string, args ...any) {
	if b.err == nil {
		b.err = fmt.Errorf("dxbc: builder: "+format, args...)
	}
}

func (b *Builder) decl(in Instruction) { b.decls = append(b.decls, in) }

// Declare adds any declaration as its tokens say (dcl_uav_typed,
// dcl_thread_group ... for which the builder has no method of its own).
func (b *Builder) Declare(in Instruction) {
	if !strings.HasPrefix(in.Op.String(), "dcl_") && in.Op != OpCustomData {
		b.fail("Declare takes a declaration, not %s", in.Op)
		return
	}
	b.decl(in)
}

// EmitInstruction appends an instruction as its tokens say (controls,
// extended tokens, literal words): what Emit cannot spell.
func (b *Builder) EmitInstruction(in Instruction) {
	info, ok := opTable[in.Op]
	if !ok || strings.HasPrefix(info.name, "dcl_") || in.Op == OpCustomData {
		b.fail("EmitInstruction takes an instruction, not %s", in.Op)
		return
	}
	for i := range in.Operands {
		b.noteTemps(&in.Operands[i])
	}
	b.code = append(b.code, in)
}

// GlobalFlags declares dcl_globalFlags (Flag* bits).
func (b *Builder) GlobalFlags(flags uint32) {
	b.decl(Instruction{Op: OpDclGlobalFlags, Controls: flags})
}

// DclConstantBuffer declares cb<slot>[vec4s].
func (b *Builder) DclConstantBuffer(slot, vec4s uint32, dynamicIndexed bool) {
	var c uint32
	if dynamicIndexed {
		c = 1
	}
	op := reg(RegConstantBuffer, slot, vec4s).Swz("xyzw")
	b.decl(Instruction{Op: OpDclConstantBuffer, Controls: c, Operands: []Operand{op}})
}

// DclSampler declares s<slot>.
func (b *Builder) DclSampler(slot uint32, mode SamplerMode) {
	b.decl(Instruction{Op: OpDclSampler, Controls: uint32(mode), Operands: []Operand{Sampler(slot)}})
}

// DclResource declares t<slot> with its dimension and per-component
// return type (the same for all four components, as HLSL's Texture2D<float4>).
func (b *Builder) DclResource(slot uint32, dim ResourceDimension, ret ReturnType) {
	r := uint32(ret) & 0xf
	op := Operand{Type: RegResource, Indices: []Index{{Imm: uint64(slot)}}}
	b.decl(Instruction{Op: OpDclResource, Controls: uint32(dim), Operands: []Operand{op}, Extra: []uint32{r | r<<4 | r<<8 | r<<12}})
}

// DclInput declares v<r> with the components read (vertex shaders).
func (b *Builder) DclInput(r uint32, mask uint8) {
	b.decl(Instruction{Op: OpDclInput, Operands: []Operand{Input(r).Mask(mask)}})
}

// DclInputSGV declares a system-generated input: name is the D3D10_SB_NAME
// (SVPosition, SVVertexID ... share their numbers with SystemValue).
func (b *Builder) DclInputSGV(r uint32, mask uint8, name SystemValue) {
	b.decl(Instruction{Op: OpDclInputSGV, Operands: []Operand{Input(r).Mask(mask)}, Extra: []uint32{uint32(name)}})
}

// DclInputPS declares a pixel-shader input with its interpolation mode.
func (b *Builder) DclInputPS(r uint32, mask uint8, mode Interpolation) {
	b.decl(Instruction{Op: OpDclInputPS, Controls: uint32(mode), Operands: []Operand{Input(r).Mask(mask)}})
}

// DclInputPSSIV declares a pixel-shader system value input (SV_Position).
func (b *Builder) DclInputPSSIV(r uint32, mask uint8, mode Interpolation, name SystemValue) {
	b.decl(Instruction{Op: OpDclInputPSSIV, Controls: uint32(mode), Operands: []Operand{Input(r).Mask(mask)}, Extra: []uint32{uint32(name)}})
}

// DclInputPSSGV declares a pixel-shader system-generated input
// (SV_IsFrontFace, SV_PrimitiveID).
func (b *Builder) DclInputPSSGV(r uint32, mask uint8, name SystemValue) {
	b.decl(Instruction{Op: OpDclInputPSSGV, Controls: uint32(InterpConstant), Operands: []Operand{Input(r).Mask(mask)}, Extra: []uint32{uint32(name)}})
}

// DclOutput declares o<r>.
func (b *Builder) DclOutput(r uint32, mask uint8) {
	b.decl(Instruction{Op: OpDclOutput, Operands: []Operand{Output(r).Mask(mask)}})
}

// DclOutputSIV declares a system-value output (SV_Position's position).
func (b *Builder) DclOutputSIV(r uint32, mask uint8, name SystemValue) {
	b.decl(Instruction{Op: OpDclOutputSIV, Operands: []Operand{Output(r).Mask(mask)}, Extra: []uint32{uint32(name)}})
}

// DclTemps declares r0..r(n-1); without it Program declares as many as
// the code uses.
func (b *Builder) DclTemps(n uint32) {
	b.tempsSet = true
	b.decl(Instruction{Op: OpDclTemps, Extra: []uint32{n}})
}

// DclIndexableTemp declares x<r>[count] of comps components.
func (b *Builder) DclIndexableTemp(r, count, comps uint32) {
	b.decl(Instruction{Op: OpDclIndexableTemp, Extra: []uint32{r, count, comps}})
}

// DclImmediateConstantBuffer declares icb[] from raw vec4s.
func (b *Builder) DclImmediateConstantBuffer(v [][4]uint32) {
	data := make([]uint32, 0, 4*len(v))
	for _, x := range v {
		data = append(data, x[:]...)
	}
	b.decl(Instruction{Op: OpCustomData, CustomClass: 3, Data: data})
}

// Emit appends an instruction: destinations first, then sources, as the
// listing reads. Source operands with a mask become swizzles.
func (b *Builder) Emit(op Opcode, operands ...Operand) { b.emit(op, 0, operands) }

// EmitSat is Emit with the _sat modifier.
func (b *Builder) EmitSat(op Opcode, operands ...Operand) { b.emit(op, ControlSaturate, operands) }

// EmitControls emits an instruction with opcode-specific control bits
// (sample_info's _uint is 1).
func (b *Builder) EmitControls(op Opcode, controls uint32, operands ...Operand) {
	b.emit(op, controls, operands)
}

// EmitTest emits a conditional (if, breakc, continuec, retc, discard) with
// its _z/_nz test.
func (b *Builder) EmitTest(op Opcode, test Test, cond Operand) {
	var c uint32
	if test == TestNonZero {
		c = ControlTestNZ
	}
	b.emit(op, c, []Operand{cond})
}

// Return types of resinfo ("resinfo (sm4 - asm)"), in its controls.
const (
	ResinfoFloat    = 0
	ResinfoRcpFloat = 1
	ResinfoUint     = 2
)

// EmitResinfo emits resinfo dst, mip, t# with its return type
// (ResinfoFloat, ResinfoRcpFloat or ResinfoUint); sat adds _sat.
func (b *Builder) EmitResinfo(ret uint32, sat bool, dst, mip, res Operand) {
	c := ret & 3
	if sat {
		c |= ControlSaturate
	}
	b.emit(OpResinfo, c, []Operand{dst, mip, res})
}

// Offset gives the instruction just emitted the immediate texel offset
// aoffimmi(u, v, w) (an extended sample-controls token, each offset -8 to
// 7), before its other extended tokens.
func (b *Builder) Offset(u, v, w int) {
	if b.err != nil || len(b.code) == 0 {
		return
	}
	for _, x := range []int{u, v, w} {
		if x < -8 || x > 7 {
			b.fail("texel offset %d outside -8..7", x)
			return
		}
	}
	in := &b.code[len(b.code)-1]
	tok := uint32(1) | uint32(u&0xf)<<9 | uint32(v&0xf)<<13 | uint32(w&0xf)<<17
	in.Extended = append([]uint32{tok}, in.Extended...)
}

// EmitSample emits a sample/ld-family instruction with the shader model 5
// _indexable(dim)(types) extended tokens fxc writes for ps_5_0.
func (b *Builder) EmitSample(op Opcode, dim ResourceDimension, ret ReturnType, operands ...Operand) {
	r := uint32(ret) & 0xf
	b.emit(op, 0, operands)
	if b.err == nil {
		in := &b.code[len(b.code)-1]
		in.Extended = []uint32{2 | uint32(dim)<<6, 3 | (r|r<<4|r<<8|r<<12)<<6}
	}
}

func (b *Builder) emit(op Opcode, controls uint32, operands []Operand) {
	info, ok := opTable[op]
	if !ok || op == OpCustomData || strings.HasPrefix(info.name, "dcl_") {
		b.fail("Emit takes an instruction, not %s", op)
		return
	}
	if len(operands) != info.dst+info.src {
		b.fail("%s takes %d operands (%d destinations, %d sources), got %d", info.name, info.dst+info.src, info.dst, info.src, len(operands))
		return
	}
	ops := make([]Operand, len(operands))
	for i, o := range operands {
		if i >= info.dst && o.Components == 4 && o.Mode == SelectMask {
			o = o.asSource()
		}
		if i < info.dst && o.Components == 4 && o.Mode != SelectMask {
			b.fail("%s: destination %d has a swizzle; destinations take a mask", info.name, i+1)
			return
		}
		if i < info.dst && o.Modifier != ModNone {
			b.fail("%s: destination %d has a source modifier", info.name, i+1)
			return
		}
		b.noteTemps(&o)
		ops[i] = o
	}
	b.code = append(b.code, Instruction{Op: op, Controls: controls, Operands: ops})
}

// asSource turns a write mask into the swizzle fxc writes for it: the
// masked components in order, padded with the first ("xy" -> xyxx).
func (o Operand) asSource() Operand {
	var sw []uint8
	for i := uint8(0); i < 4; i++ {
		if o.WriteMask&(1<<i) != 0 {
			sw = append(sw, i)
		}
	}
	if len(sw) == 0 {
		sw = []uint8{0}
	}
	for len(sw) < 4 {
		sw = append(sw, sw[0])
	}
	return o.Swizzle(sw[0], sw[1], sw[2], sw[3])
}

func (b *Builder) noteTemps(o *Operand) {
	if o.Type == RegTemp && len(o.Indices) == 1 {
		b.maxTemp = max(b.maxTemp, int(min(o.Indices[0].Imm, 1<<20)))
	}
	for _, idx := range o.Indices {
		if idx.Rel != nil {
			b.noteTemps(idx.Rel)
		}
	}
}

// Ret emits ret, which every program ends with.
func (b *Builder) Ret() { b.Emit(OpRet) }

// declRank is fxc's declaration order: flags, constants, samplers,
// resources, inputs, outputs (each by register), temps.
func declRank(in *Instruction) (group int, reg uint64) {
	switch in.Op {
	case OpDclGlobalFlags:
		return 0, 0
	case OpCustomData:
		return 1, 0
	case OpDclInputControlPointCount, OpDclTessDomain:
		// A domain shader's, first after the flags, as fxc writes them.
		return 1, uint64(in.Op)
	case OpDclConstantBuffer:
		group = 2
	case OpDclSampler:
		group = 3
	case OpDclResource, OpDclResourceRaw, OpDclResourceStructured:
		group = 4
	case OpDclUAVTyped, OpDclUAVRaw, OpDclUAVStructured:
		// After the resources, as fxc writes them.
		if len(in.Operands) > 0 && len(in.Operands[0].Indices) > 0 {
			reg = in.Operands[0].Indices[0].Imm
		}
		return 4, 1<<32 + reg
	case OpDclInput, OpDclInputSGV, OpDclInputSIV, OpDclInputPS, OpDclInputPSSGV, OpDclInputPSSIV:
		group = 5
	case OpDclOutput, OpDclOutputSGV, OpDclOutputSIV:
		group = 6
	case OpDclTemps:
		return 7, 0
	default:
		return 8, 0
	}
	if len(in.Operands) > 0 && len(in.Operands[0].Indices) > 0 {
		reg = in.Operands[0].Indices[0].Imm
	}
	return group, reg
}

// Program returns the assembled program, or the first error made while
// building it.
func (b *Builder) Program() (*Program, error) {
	if b.err != nil {
		return nil, b.err
	}
	decls := slices.Clone(b.decls)
	if !b.tempsSet && b.maxTemp >= 0 {
		decls = append(decls, Instruction{Op: OpDclTemps, Extra: []uint32{uint32(b.maxTemp + 1)}})
	}
	slices.SortStableFunc(decls, func(x, y Instruction) int {
		gx, rx := declRank(&x)
		gy, ry := declRank(&y)
		if gx != gy {
			return gx - gy
		}
		return cmp.Compare(rx, ry)
	})
	p := &Program{Type: b.Type, Major: b.Major, Minor: b.Minor, Instructions: append(decls, b.code...)}
	if _, err := p.Words(); err != nil {
		return nil, err
	}
	return p, nil
}

// Build assembles the container: RDEF (if rdef is not nil), ISGN, OSGN and
// SHDR/SHEX, with its checksum.
func (b *Builder) Build(inputs, outputs *Signature, rdef *Reflection) ([]byte, error) {
	p, err := b.Program()
	if err != nil {
		return nil, err
	}
	return BuildShader(p, inputs, outputs, rdef)
}

// BuildShader lays a program and its signatures out as fxc does.
func BuildShader(p *Program, inputs, outputs *Signature, rdef *Reflection) ([]byte, error) {
	return buildShader(p, inputs, outputs, rdef, false)
}

// buildShader is BuildShader with the output signature as OSG5 (each
// element with its stream) when osg5 is set.
func buildShader(p *Program, inputs, outputs *Signature, rdef *Reflection, osg5 bool) ([]byte, error) {
	code, err := p.Bytes()
	if err != nil {
		return nil, err
	}
	if inputs == nil {
		inputs = &Signature{}
	}
	if outputs == nil {
		outputs = &Signature{}
	}
	out := Chunk{FourCC: "OSGN", Data: outputs.Bytes()}
	if osg5 {
		out = Chunk{FourCC: "OSG5", Data: outputs.Bytes5()}
	}
	c := &Container{}
	if rdef != nil {
		c.Chunks = append(c.Chunks, Chunk{FourCC: "RDEF", Data: rdef.Bytes()})
	}
	c.Chunks = append(c.Chunks,
		Chunk{FourCC: "ISGN", Data: inputs.Bytes()},
		out,
		Chunk{FourCC: p.FourCC(), Data: code})
	return c.Build()
}

// OutputDepth is oDepth, a pixel shader's SV_Depth: one component.
func OutputDepth() Operand { return Operand{Type: RegOutputDepth, Components: 1} }

// DclOutputDepth declares oDepth (dcl_output oDepth).
func (b *Builder) DclOutputDepth() {
	b.decl(Instruction{Op: OpDclOutput, Operands: []Operand{OutputDepth()}})
}
