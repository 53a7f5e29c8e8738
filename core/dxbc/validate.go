package dxbc

import "fmt"

// Shader is a validated container: what the runtime keeps for a shader
// object and hands the driver to translate.
type Shader struct {
	Container  *Container
	Program    *Program
	Inputs     *Signature
	Outputs    *Signature
	Reflection *Reflection    // nil when fxc stripped it (/Qstrip_reflect)
	Features   ShaderFeatures // the SFI0 chunk's bits (sfi0.go)
}

// Validate checks bytecode given to CreateVertexShader (stage
// VertexShader) or CreatePixelShader (PixelShader): the container and its
// checksum, the program's stage and shader model, its signatures, and that
// the code is well formed — declarations match the signatures, registers
// are declared before use, blocks are balanced, the program ends with ret.
// Each failure is one error naming what is wrong.
func Validate(bytecode []byte, stage ProgramType) (*Shader, error) {
	c, err := Parse(bytecode)
	if err != nil {
		return nil, err
	}
	s := &Shader{Container: c}
	if s.Program, err = c.Program(); err != nil {
		return nil, err
	}
	p := s.Program
	if p.Type != stage {
		return nil, fmt.Errorf("dxbc: the bytecode is a %s shader (%s), not the %s shader this call creates", stageName(p.Type), p.Profile(), stageName(stage))
	}
	switch {
	case p.Major == 4 && p.Minor <= 1, p.Major == 5 && p.Minor == 0:
	default:
		return nil, fmt.Errorf("dxbc: shader model %d.%d (%s) is not 4.0, 4.1 or 5.0", p.Major, p.Minor, p.Profile())
	}
	// fxc writes shader model 5 in SHEX and 4 in SHDR, but for cs_4_x,
	// which only Direct3D 11 runs: SHEX.
	if shex := c.Chunk("SHEX") != nil; (p.Major == 5) != shex && !(shex && p.Type == ComputeShader) {
		return nil, fmt.Errorf("dxbc: a %s program must be in a %s chunk", p.Profile(), p.FourCC())
	}
	if s.Inputs, err = c.Signature(true); err != nil {
		return nil, err
	}
	if s.Outputs, err = c.Signature(false); err != nil {
		return nil, err
	}
	if s.Reflection, err = c.Reflection(); err != nil {
		return nil, err
	}
	if s.Features, err = c.ShaderFeatures(); err != nil {
		return nil, err
	}
	if err := checkCode(s); err != nil {
		return nil, fmt.Errorf("dxbc: %s: %w", p.Profile(), err)
	}
	return s, nil
}

func stageName(t ProgramType) string {
	return map[ProgramType]string{PixelShader: "pixel", VertexShader: "vertex", GeometryShader: "geometry",
		HullShader: "hull", DomainShader: "domain", ComputeShader: "compute"}[t]
}

// checkCode walks the instructions once, tracking declarations and blocks.
func checkCode(s *Shader) error {
	var (
		temps   = -1
		cbSize  = map[uint64]uint64{}
		samp    = map[uint64]bool{}
		res     = map[uint64]bool{}
		inputs  = map[uint64]uint8{}
		outputs = map[uint64]uint8{}
		blocks  []Opcode
		inCode  bool
		patch   bool // a hull shader's fork or join phase
		last    Opcode
	)
	sigMask := func(sig *Signature, r uint64) uint8 {
		var m uint8
		for _, e := range sig.Elements {
			if uint64(e.Register) == r {
				m |= e.Mask
			}
		}
		return m
	}
	for i := range s.Program.Instructions {
		in := &s.Program.Instructions[i]
		where := func(err string, args ...any) error {
			return fmt.Errorf("instruction %d (%s): %s", i, in.String(), fmt.Sprintf(err, args...))
		}
		isDecl := in.Op.IsDeclaration()
		switch in.Op {
		case OpHSDecls, OpHSControlPointPhase, OpHSForkPhase, OpHSJoinPhase:
			// A hull shader's phases each start with their own
			// declarations; the fork and join phases write the patch
			// constants (PCSG), not the output signature.
			if s.Program.Type != HullShader {
				return where("%s outside a hull shader", in.Op)
			}
			inCode, temps, patch = false, -1, in.Op == OpHSForkPhase || in.Op == OpHSJoinPhase
			outputs = map[uint64]uint8{}
			continue
		}
		if isDecl && inCode {
			return where("a declaration after the first instruction")
		}
		if !isDecl {
			inCode = true
		}
		last = in.Op
		switch in.Op {
		case OpDclTemps:
			temps = int(min(in.Extra[0], 1<<20))
		case OpDclConstantBuffer:
			op := in.Operands[0]
			if len(op.Indices) != 2 || op.Indices[0].Rel != nil || op.Indices[1].Rel != nil {
				return where("a constant buffer is declared as cb<slot>[<size>]")
			}
			if op.Indices[0].Imm > 13 {
				return where("constant buffer slot %d is over 13", op.Indices[0].Imm)
			}
			if op.Indices[1].Imm > 4096 {
				return where("constant buffer of %d vectors is over 4096", op.Indices[1].Imm)
			}
			cbSize[op.Indices[0].Imm] = op.Indices[1].Imm
		case OpDclSampler, OpDclResource, OpDclResourceRaw, OpDclResourceStructured:
			want := map[Opcode]RegisterType{OpDclSampler: RegSampler}[in.Op]
			if in.Op != OpDclSampler {
				want = RegResource
			}
			op := in.Operands[0]
			if op.Type != want || len(op.Indices) != 1 || op.Indices[0].Rel != nil {
				return where("declares %s, not a %s register", op.format(numUint), regPrefix[want])
			}
			if in.Op == OpDclSampler {
				samp[op.Indices[0].Imm] = true
			} else {
				res[op.Indices[0].Imm] = true
			}
		case OpDclInput, OpDclInputPS, OpDclInputSIV, OpDclInputPSSIV:
			op := in.Operands[0]
			if op.Type != RegInput || len(op.Indices) == 0 || len(op.Indices) > 2 {
				break
			}
			r := op.Indices[len(op.Indices)-1].Imm // v[vertex][r] in geometry and hull shaders
			if m := sigMask(s.Inputs, r); op.WriteMask&^m != 0 {
				return where("declares v%d%s, the input signature has %s", r, op.componentString(), maskOrNone(m))
			}
			inputs[r] |= op.WriteMask
		case OpDclInputSGV, OpDclInputPSSGV:
			if op := in.Operands[0]; op.Type == RegInput && (len(op.Indices) == 1 || len(op.Indices) == 2) {
				inputs[op.Indices[len(op.Indices)-1].Imm] |= op.WriteMask
			}
		case OpDclOutput, OpDclOutputSIV, OpDclOutputSGV:
			op := in.Operands[0]
			if op.Type != RegOutput || len(op.Indices) != 1 {
				break
			}
			r := op.Indices[0].Imm
			if m := sigMask(s.Outputs, r); op.WriteMask&^m != 0 && !patch {
				return where("declares o%d%s, the output signature has %s", r, op.componentString(), maskOrNone(m))
			}
			outputs[r] |= op.WriteMask
		case OpIf, OpLoop, OpSwitch:
			blocks = append(blocks, in.Op)
		case OpElse:
			if len(blocks) == 0 || blocks[len(blocks)-1] != OpIf {
				return where("else without if")
			}
			blocks[len(blocks)-1] = OpElse
		case OpEndif:
			if len(blocks) == 0 || (blocks[len(blocks)-1] != OpIf && blocks[len(blocks)-1] != OpElse) {
				return where("endif without if")
			}
			blocks = blocks[:len(blocks)-1]
		case OpEndloop:
			if len(blocks) == 0 || blocks[len(blocks)-1] != OpLoop {
				return where("endloop without loop")
			}
			blocks = blocks[:len(blocks)-1]
		case OpEndswitch:
			if len(blocks) == 0 || blocks[len(blocks)-1] != OpSwitch {
				return where("endswitch without switch")
			}
			blocks = blocks[:len(blocks)-1]
		case OpCase, OpDefault:
			if len(blocks) == 0 || blocks[len(blocks)-1] != OpSwitch {
				return where("%s outside a switch", in.Op)
			}
		case OpBreak, OpBreakc, OpContinue, OpContinuec:
			inside := false
			for _, b := range blocks {
				if b == OpLoop || b == OpSwitch && (in.Op == OpBreak || in.Op == OpBreakc) {
					inside = true
				}
			}
			if !inside {
				return where("%s outside a loop", in.Op)
			}
		case OpDiscard:
			if s.Program.Type != PixelShader {
				return where("discard outside a pixel shader")
			}
		}
		if isDecl {
			continue
		}
		info := opTable[in.Op]
		for k := range in.Operands {
			op := &in.Operands[k]
			if err := checkOperand(op, k < info.dst, temps, cbSize, samp, res, inputs, outputs); err != nil {
				return where("operand %d: %v", k+1, err)
			}
		}
	}
	if len(blocks) > 0 {
		return fmt.Errorf("%s is never closed", blocks[len(blocks)-1])
	}
	if last != OpRet {
		return fmt.Errorf("the program does not end with ret")
	}
	return nil
}

func maskOrNone(m uint8) string {
	if m == 0 {
		return "no element in that register"
	}
	return (&Operand{Components: 4, WriteMask: m}).componentString()
}

func checkOperand(op *Operand, dst bool, temps int, cb map[uint64]uint64, samp, res map[uint64]bool, in, out map[uint64]uint8) error {
	for _, idx := range op.Indices {
		if idx.Rel != nil {
			if err := checkOperand(idx.Rel, false, temps, cb, samp, res, in, out); err != nil {
				return err
			}
		}
	}
	first := func() (uint64, bool) {
		if len(op.Indices) == 0 || op.Indices[0].Rel != nil {
			return 0, false
		}
		return op.Indices[0].Imm, true
	}
	switch op.Type {
	case RegTemp:
		if r, ok := first(); ok && int64(r) >= int64(temps) {
			return fmt.Errorf("r%d is not declared (dcl_temps %d)", r, max(temps, 0))
		}
	case RegConstantBuffer:
		slot, ok := first()
		if !ok {
			break
		}
		size, declared := cb[slot]
		if !declared {
			return fmt.Errorf("cb%d is not declared", slot)
		}
		if len(op.Indices) == 2 && op.Indices[1].Rel == nil && op.Indices[1].Imm >= size {
			return fmt.Errorf("cb%d[%d] is past the declared %d vectors", slot, op.Indices[1].Imm, size)
		}
	case RegSampler:
		if r, ok := first(); ok && !samp[r] {
			return fmt.Errorf("s%d is not declared", r)
		}
	case RegResource:
		if r, ok := first(); ok && !res[r] {
			return fmt.Errorf("t%d is not declared", r)
		}
	case RegInput:
		if len(op.Indices) == 2 {
			// v[vertex][register]: the register is the second index.
			if idx := op.Indices[1]; idx.Rel == nil && in[idx.Imm] == 0 {
				return fmt.Errorf("v[][%d] is not declared", idx.Imm)
			}
			break
		}
		if r, ok := first(); ok && in[r] == 0 {
			return fmt.Errorf("v%d is not declared", r)
		}
	case RegOutput:
		r, ok := first()
		if !ok {
			break
		}
		if out[r] == 0 {
			return fmt.Errorf("o%d is not declared", r)
		}
		if dst && op.Mode == SelectMask && op.WriteMask&^out[r] != 0 {
			return fmt.Errorf("writes o%d%s, declared %s", r, op.componentString(), maskOrNone(out[r]))
		}
	}
	return nil
}

// systemGenerated are pixel-shader inputs the rasterizer makes, which no
// vertex shader output feeds.
var systemGenerated = map[SystemValue]bool{SVIsFrontFace: true, SVSampleIndex: true, SVPrimitiveID: true, SVCoverage: true}

// Link checks that a vertex shader's output signature feeds a pixel
// shader's input signature, as the runtime checks at draw time: the vertex
// shader writes SV_Position, and every pixel-shader input not made by the
// rasterizer is an output with the same semantic and index, in the same
// register, of the same component type, with the components it needs.
func Link(vsOut, psIn *Signature) error {
	if vsOut == nil || psIn == nil {
		return fmt.Errorf("dxbc: link: a signature is missing")
	}
	hasPos := false
	for _, e := range vsOut.Elements {
		if e.SystemValue == SVPosition {
			hasPos = true
		}
	}
	if !hasPos {
		return fmt.Errorf("dxbc: link: the vertex shader does not output SV_Position")
	}
	for _, in := range psIn.Elements {
		if systemGenerated[in.SystemValue] {
			continue
		}
		out := vsOut.Find(in.Name, in.Index)
		if out == nil {
			return fmt.Errorf("dxbc: link: pixel shader input %s%d (v%d) is not a vertex shader output", in.Name, in.Index, in.Register)
		}
		if out.Register != in.Register {
			return fmt.Errorf("dxbc: link: %s%d is o%d in the vertex shader but v%d in the pixel shader", in.Name, in.Index, out.Register, in.Register)
		}
		if out.ComponentType != in.ComponentType {
			return fmt.Errorf("dxbc: link: %s%d is %s in the vertex shader but %s in the pixel shader", in.Name, in.Index, out.ComponentType, in.ComponentType)
		}
		if in.SystemValue == SVPosition && out.SystemValue != SVPosition {
			return fmt.Errorf("dxbc: link: pixel shader SV_Position (v%d) is fed by %s%d, which is not SV_Position", in.Register, out.Name, out.Index)
		}
		if in.Mask&^out.Mask != 0 {
			return fmt.Errorf("dxbc: link: %s%d: the pixel shader takes %s, the vertex shader outputs %s", in.Name, in.Index, maskOrNone(in.Mask), maskOrNone(out.Mask))
		}
		if written := out.Mask &^ out.ReadWrite; in.ReadWrite&^written != 0 {
			return fmt.Errorf("dxbc: link: %s%d: the pixel shader reads %s, the vertex shader writes %s", in.Name, in.Index, maskOrNone(in.ReadWrite), maskOrNone(written))
		}
	}
	return nil
}
