package translate

import (
	"fmt"
	"slices"
	"strings"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Shader is a translated shader: the GPU program and what the UMD must
// know to bind it (the GPU needs the signatures to feed inputs and route
// outputs, the resource lists to check bindings).
type Shader struct {
	Stage   shaderisa.Stage
	Program *shaderisa.Program // checked: Program.Check passed
	Code    []uint32           // Program.Encode(): the words placed in the GPU-visible allocation

	Inputs  []Input
	Outputs []Output

	ConstantBuffers []ConstantBuffer
	Textures        []Texture
	Samplers        []uint32 // s# slots declared
	// A compute shader's unordered access views and numthreads.
	UAVs        []UAV
	ThreadGroup [3]uint32
	// A geometry shader's declaration (input primitive, output
	// topology, maxvertexcount, instances, the input array's stride).
	GS shaderisa.GSDecl
	// A hull or domain shader's (tess.go).
	HS shaderisa.HSDecl
	DS shaderisa.DSDecl

	// Source is, per ISA instruction, the index of the DXBC instruction
	// it came from (for the listing and fault reports).
	Source []int

	// SampleCountReg is a pixel shader's ISA input register, plus one,
	// that the GPU fills with the render target's sample count (x) for
	// sampleinfo and samplepos of the rasterizer: 0 for none (msaa.go).
	SampleCountReg uint32
	// PerSample: a pixel shader that runs once a covered sample on a
	// multisampled target (it reads SV_SampleIndex or has a sample
	// input: persample.go).
	PerSample bool
	// EarlyDepthStencil: a pixel shader declared [earlydepthstencil]
	// (the forceEarlyDepthStencil flag): the GPU tests depth and stencil
	// before it (gpu's early.go).
	EarlyDepthStencil bool

	dxbc *dxbc.Program // for Listing
}

// Input is one declared input register. The ISA register is the DXBC
// register's number (v3 stays v3): the GPU fills ISA v# from the vertex
// buffers or the rasteriser's interpolants by this table.
type Input struct {
	Reg    uint32 // DXBC v#
	ISA    uint32 // ISA v#
	Mask   uint8  // components declared
	Interp dxbc.Interpolation
	// SystemValue is SVPosition (pixel shader: the pixel's position),
	// SVVertexID or SVInstanceID (vertex shader), else SVUndefined.
	SystemValue   dxbc.SystemValue
	Semantic      string // from the input signature, "" if it has none
	SemanticIndex uint32
}

// Output is one declared output register (o# keeps its number).
type Output struct {
	Reg  uint32 // DXBC o#
	ISA  uint32 // ISA o#
	Mask uint8
	// SystemValue is SVPosition for a vertex shader's clip-space
	// position, SVTarget for a pixel shader's colours (render target
	// Reg), else SVUndefined.
	SystemValue   dxbc.SystemValue
	Semantic      string
	SemanticIndex uint32
	Stream        uint8 // a geometry shader's: the stream (dcl_stream m#) it was declared for
}

// ConstantBuffer is one declared cb# slot.
type ConstantBuffer struct {
	Slot    uint32
	Vec4s   uint32 // declared size in 16-byte elements
	Dynamic bool   // dynamically indexed (cb#[r#.c + n])
}

// Texture is one declared t# slot: a texture or buffer (Dimension
// dxbc.DimBuffer, DimRawBuffer or DimStructuredBuffer, the last with the
// structure's Stride in bytes).
type Texture struct {
	Slot      uint32
	Dimension dxbc.ResourceDimension
	Return    [4]dxbc.ReturnType
	Stride    uint32
	Samples   uint32 // a Texture2DMS's declared sample count (msaa.go)
}

// Error is a translation failure: the instruction (index and word offset
// in the token stream) and why.
type Error struct {
	Index  int    // instruction index, -1 for the shader as a whole
	Offset int    // word offset in the SHDR/SHEX chunk
	Inst   string // the instruction as fxc lists it
	Reason string
}

func (e *Error) Error() string {
	if e.Index < 0 {
		return "translate: " + e.Reason
	}
	return fmt.Sprintf("translate: instruction %d at word %d (%s): %s", e.Index, e.Offset, e.Inst, e.Reason)
}

// Translate validates bytecode handed to CreateVertexShader (stage
// dxbc.VertexShader) or CreatePixelShader (dxbc.PixelShader) and
// translates it.
func Translate(bytecode []byte, stage dxbc.ProgramType) (*Shader, error) {
	s, err := dxbc.Validate(bytecode, stage)
	if err != nil {
		return nil, fmt.Errorf("translate: %w", err)
	}
	return FromShader(s)
}

// FromShader translates an already validated shader.
func FromShader(s *dxbc.Shader) (*Shader, error) {
	if s == nil {
		return nil, &Error{Index: -1, Reason: "no shader"}
	}
	return translateProgram(s.Program, s.Inputs, s.Outputs)
}

// translator holds one translation's state.
type translator struct {
	prog      *dxbc.Program
	out       *Shader
	code      []shaderisa.Inst
	source    []int
	temps     uint32 // the DXBC shader's r# count
	scratch   uint32 // scratch temps needed above temps (the most any instruction used)
	next      uint32 // scratch temps used by the current instruction
	inputs    uint32
	outputs   uint32
	icb       [][4]uint32
	dims      map[uint32]dxbc.ResourceDimension
	cbs       map[uint32]bool
	samps     map[uint32]bool
	ins       map[uint32]bool
	outs      map[uint32]bool
	cur       int    // the DXBC instruction being translated
	blocks    []byte // open if, loop and switch blocks
	switches  []switchLevel
	maxSwitch int // deepest switch nesting: its temps sit above the shader's
	xs        map[uint32]*indexable
	xorder    []uint32
	laidOut   bool
	fixed     uint32 // r# and the x# elements: switch temps and scratch follow
	ranges    []indexRange
	swTemps   int  // temps per switch level: switchTemps, one more with a continue inside a switch
	useICB    bool // an icb read with a register index: the program carries icb
	// interp is the pixel shader's interpolation mode per input
	// register, set (interpSet) by its first dcl_input_ps.
	interp    [shaderisa.MaxInputs]shaderisa.Interp
	interpSet [shaderisa.MaxInputs]bool
	// A compute shader's (compute.go): the ISA declarations, which go
	// first, and the DXBC instruction of each; g# (stride | 1<<31) and
	// u# declared.
	decls       []shaderisa.Inst
	declSrc     []int
	tgsm        map[uint32]uint32
	uavs        map[uint32]dxbc.ResourceDimension
	sharedBytes uint64
	gs          gsState // a geometry shader's (geometry.go)
	ts          tsState // a hull or domain shader's (tess.go)
	covIn       bool    // a pixel shader's dcl_input vCoverage (coverage.go)
	sampleIdx   uint32  // a pixel shader's SV_SampleIndex input register, plus one (persample.go)
}

func (t *translator) fail(format string, args ...any) error {
	return &Error{Index: t.cur, Reason: fmt.Sprintf(format, args...)}
}

// translateProgram translates a decoded program; the signatures (either
// may be nil) only name the inputs and outputs.
func translateProgram(p *dxbc.Program, inSig, outSig *dxbc.Signature) (sh *Shader, err error) {
	if p == nil {
		return nil, &Error{Index: -1, Reason: "no program"}
	}
	t := &translator{prog: p, out: &Shader{}, dims: map[uint32]dxbc.ResourceDimension{},
		cbs: map[uint32]bool{}, xs: map[uint32]*indexable{}, samps: map[uint32]bool{}, ins: map[uint32]bool{}, outs: map[uint32]bool{},
		tgsm: map[uint32]uint32{}, uavs: map[uint32]dxbc.ResourceDimension{}}
	switch p.Type {
	case dxbc.VertexShader:
		t.out.Stage = shaderisa.StageVertex
	case dxbc.PixelShader:
		t.out.Stage = shaderisa.StagePixel
	case dxbc.ComputeShader:
		t.out.Stage = shaderisa.StageCompute
		t.inputs = shaderisa.ComputeInputs
	case dxbc.GeometryShader:
		t.out.Stage = shaderisa.StageGeometry
	case dxbc.HullShader, dxbc.DomainShader:
		t.out.Stage = shaderisa.StageDomain
		if p.Type == dxbc.HullShader {
			t.out.Stage = shaderisa.StageHull
		}
		nf := uint8(shaderisa.NoFactor)
		t.ts.edge, t.ts.inside, t.ts.declAt = [4]uint8{nf, nf, nf, nf}, [4]uint8{nf, nf, nf, nf}, -1
	default:
		return nil, &Error{Index: -1, Reason: fmt.Sprintf("%s: the GPU runs vertex, hull, domain, geometry, pixel and compute shaders only", p.Profile())}
	}
	defer func() {
		// Errors name the instruction's word offset and text.
		if e, ok := err.(*Error); ok && e.Index >= 0 && e.Index < len(p.Instructions) {
			e.Offset = wordOffset(p, e.Index)
			e.Inst = p.Instructions[e.Index].String()
		}
	}()
	t.maxSwitch = maxSwitchDepth(p)
	t.swTemps = switchTemps
	if contInSwitch(p) {
		t.swTemps++
	}
	if t.maxSwitch > shaderisa.MaxNesting {
		return nil, &Error{Index: -1, Reason: "switches nested too deep"}
	}
	if t.out.Stage == shaderisa.StageHull {
		t.ts.sigStride = signatureRegisters(inSig)
		if err := t.hull(); err != nil {
			return nil, err
		}
	}
	for i := range p.Instructions {
		if t.out.Stage == shaderisa.StageHull {
			break // hull() did its phases
		}
		t.cur, t.next = i, 0
		in := &p.Instructions[i]
		if !isDecl(in.Op) {
			if err := t.layout(); err != nil {
				return nil, err
			}
		}
		if err := t.instruction(in); err != nil {
			return nil, err
		}
	}
	if err := t.layout(); err != nil {
		return nil, err
	}
	t.cur = -1
	if len(t.blocks) != 0 {
		return nil, &Error{Index: -1, Reason: "unbalanced if/loop/switch blocks"}
	}
	temps := t.fixed + uint32(t.swTemps*t.maxSwitch) + t.scratch
	if temps > shaderisa.MaxTemps {
		return nil, &Error{Index: -1, Reason: fmt.Sprintf("%d temporaries (with %d for lowering), the GPU has %d", temps, t.scratch, shaderisa.MaxTemps)}
	}
	if t.out.Stage == shaderisa.StageCompute {
		if t.out.ThreadGroup[0] == 0 {
			return nil, &Error{Index: -1, Reason: "a compute shader without dcl_thread_group (numthreads)"}
		}
		t.code = append(t.decls, t.code...)
		t.source = append(t.declSrc, t.source...)
	}
	if t.out.Stage == shaderisa.StageGeometry {
		if err := t.finishGeometry(); err != nil {
			return nil, err
		}
	}
	if t.tessStage() {
		if err := t.finishTess(); err != nil {
			return nil, err
		}
	}
	prog := &shaderisa.Program{Stage: t.out.Stage, Inputs: int(t.inputs), Outputs: int(t.outputs), Temps: int(temps), Code: t.code}
	if t.useICB {
		prog.ICB = t.icb
	}
	if t.out.Stage == shaderisa.StagePixel {
		prog.Interp = t.interp
	}
	checked, err := prog.Check()
	if err != nil {
		return nil, &Error{Index: -1, Reason: fmt.Sprintf("the ISA program does not check: %v", err)}
	}
	sh = t.out
	sh.Program = checked
	sh.Code = checked.Encode()
	sh.Source = t.source
	nameSignature(sh, inSig, outSig)
	sh.dxbc = p
	return sh, nil
}

// wordOffset is where instruction i starts in the token stream (the
// version and length tokens come first).
func wordOffset(p *dxbc.Program, i int) int {
	off := 2
	var buf []uint32
	for k := 0; k < i && k < len(p.Instructions); k++ {
		buf, _ = p.Instructions[k].Encode(buf[:0])
		off += len(buf)
	}
	return off
}

// nameSignature fills the semantic names from the signatures.
func nameSignature(sh *Shader, inSig, outSig *dxbc.Signature) {
	find := func(sig *dxbc.Signature, reg uint32, mask uint8) (string, uint32) {
		if sig == nil {
			return "", 0
		}
		for _, e := range sig.Elements {
			if e.Register == reg && e.Mask&mask != 0 {
				return e.Name, e.Index
			}
		}
		return "", 0
	}
	for i := range sh.Inputs {
		in := &sh.Inputs[i]
		in.Semantic, in.SemanticIndex = find(inSig, in.Reg, in.Mask)
	}
	for i := range sh.Outputs {
		o := &sh.Outputs[i]
		o.Semantic, o.SemanticIndex = find(outSig, o.Reg, o.Mask)
	}
}

// Listing is the page's view: each DXBC instruction (as a comment)
// followed by the ISA instructions it became. Made on demand: it costs
// more than the translation.
func (sh *Shader) Listing() string {
	p := sh.dxbc
	if p == nil {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "// %s -> %s: %d inputs, %d outputs, %d temps, %d words\n",
		p.Profile(), sh.Stage, sh.Program.Inputs, sh.Program.Outputs, sh.Program.Temps, len(sh.Code))
	if !slices.IsSorted(sh.Source) {
		// A hull shader's fork and join phases are written once per
		// instance: each run of ISA instructions under the DXBC one it
		// came from.
		last := -1
		for pc, i := range sh.Source {
			if i != last && i >= 0 && i < len(p.Instructions) {
				fmt.Fprintf(&b, "// %s\n", p.Instructions[i].String())
			}
			last = i
			fmt.Fprintf(&b, "%4d  %s\n", pc, sh.Program.Code[pc].String())
		}
		return b.String()
	}
	pc := 0
	for i := range p.Instructions {
		fmt.Fprintf(&b, "// %s\n", p.Instructions[i].String())
		for pc < len(sh.Source) && sh.Source[pc] == i {
			fmt.Fprintf(&b, "%4d  %s\n", pc, sh.Program.Code[pc].String())
			pc++
		}
	}
	return b.String()
}

// emit appends an ISA instruction for the current DXBC instruction.
func (t *translator) emit(in shaderisa.Inst) {
	t.code = append(t.code, in)
	t.source = append(t.source, t.cur)
}

// newScratch returns a scratch temporary above the shader's own for a
// lowering. A lowering's scratch values live only within its DXBC
// instruction, so every instruction reuses the same few.
func (t *translator) newScratch() uint32 {
	r := t.fixed + uint32(t.swTemps*t.maxSwitch) + t.next
	t.next++
	t.scratch = max(t.scratch, t.next)
	return r
}
