package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// decl records a declaration: register counts, the signature tables and
// the resource lists. Registers keep their numbers in the ISA.
func (t *translator) decl(in *dxbc.Instruction) error {
	switch in.Op {
	case dxbc.OpDclGlobalFlags:
		// refactoringAllowed and the like change nothing here; double
		// precision never gets this far (no double opcodes are decoded).
		// [earlydepthstencil]: the GPU tests before the pixel shader.
		if in.Controls&dxbc.FlagForceEarlyDepthStencil != 0 && t.out.Stage == shaderisa.StagePixel {
			t.out.EarlyDepthStencil = true
		}
		return nil
	case dxbc.OpCustomData:
		if in.CustomClass != 3 {
			return nil // comments, debug info
		}
		if len(in.Data)%4 != 0 {
			return t.fail("an immediate constant buffer of %d words, not whole vec4s", len(in.Data))
		}
		t.icb = t.icb[:0]
		for i := 0; i+4 <= len(in.Data); i += 4 {
			t.icb = append(t.icb, [4]uint32(in.Data[i:i+4]))
		}
		return nil
	case dxbc.OpDclIndexableTemp:
		return t.declIndexable(in)
	case dxbc.OpDclIndexRange:
		return t.declIndexRange(in)
	case dxbc.OpDclTemps:
		if len(in.Extra) != 1 || in.Extra[0] > shaderisa.MaxTemps {
			return t.fail("the GPU has %d temporaries", shaderisa.MaxTemps)
		}
		t.temps = in.Extra[0]
		return nil
	}
	if computeOps[in.Op] {
		return t.computeDecl(in)
	}
	if len(in.Operands) != 1 {
		return t.refuse(in.Op)
	}
	o := &in.Operands[0]
	switch in.Op {
	case dxbc.OpDclConstantBuffer:
		if o.Type != dxbc.RegConstantBuffer || len(o.Indices) != 2 || o.Indices[0].Rel != nil || o.Indices[1].Rel != nil {
			return t.fail("a constant buffer is declared as cb<slot>[<size>]")
		}
		slot, size := o.Indices[0].Imm, o.Indices[1].Imm
		if slot >= shaderisa.MaxCBSlots || size > shaderisa.MaxCBIndex {
			return t.fail("cb%d[%d] is past the GPU's %d slots of %d elements", slot, size, shaderisa.MaxCBSlots, shaderisa.MaxCBIndex)
		}
		t.cbs[uint32(slot)] = true
		t.out.ConstantBuffers = append(t.out.ConstantBuffers, ConstantBuffer{Slot: uint32(slot), Vec4s: uint32(size), Dynamic: in.Controls&1 != 0})
		return nil
	case dxbc.OpDclSampler:
		slot, err := t.index(o, 0)
		if err != nil || o.Type != dxbc.RegSampler || slot >= shaderisa.MaxSamplers {
			return t.fail("the GPU has samplers s0..s%d", shaderisa.MaxSamplers-1)
		}
		t.samps[slot] = true
		t.out.Samplers = append(t.out.Samplers, slot)
		return nil
	case dxbc.OpDclResource, dxbc.OpDclResourceRaw, dxbc.OpDclResourceStructured:
		return t.declResource(in, o)
	case dxbc.OpDclInput, dxbc.OpDclInputSGV, dxbc.OpDclInputSIV, dxbc.OpDclInputPS, dxbc.OpDclInputPSSGV, dxbc.OpDclInputPSSIV:
		return t.input(in, o)
	case dxbc.OpDclOutput, dxbc.OpDclOutputSGV, dxbc.OpDclOutputSIV:
		return t.output(in, o)
	}
	return t.refuse(in.Op)
}

func (t *translator) input(in *dxbc.Instruction, o *dxbc.Operand) error {
	if t.out.Stage == shaderisa.StageGeometry {
		return t.gsInput(in, o)
	}
	if t.tessStage() {
		return t.tessInput(in, o)
	}
	if _, ok := computeInputs[o.Type]; ok && t.out.Stage == shaderisa.StageCompute && in.Op == dxbc.OpDclInput {
		return nil // the thread identifiers: always the ISA's v0..v3
	}
	if o.Type == dxbc.RegInputCoverageMask {
		return t.declCoverageIn(in) // (coverage.go)
	}
	if o.Type != dxbc.RegInput {
		return t.fail("input register type %d is not supported by the GPU (only v#)", o.Type)
	}
	reg, err := t.index(o, 0)
	if err != nil {
		return err
	}
	if err := t.checkModelRegister(reg, false); err != nil { // (regcount.go)
		return err
	}
	if reg >= shaderisa.MaxInputs {
		return t.fail("v%d: the GPU has %d inputs", reg, shaderisa.MaxInputs)
	}
	pixel := t.out.Stage == shaderisa.StagePixel
	isPS := in.Op == dxbc.OpDclInputPS || in.Op == dxbc.OpDclInputPSSGV || in.Op == dxbc.OpDclInputPSSIV
	if isPS != pixel {
		return t.fail("%s in a %s shader", in.Op, t.out.Stage)
	}
	sv := dxbc.SVUndefined
	if len(in.Extra) == 1 {
		sv = dxbc.SystemValue(in.Extra[0])
		switch {
		case pixel && (sv == dxbc.SVPosition || sv == dxbc.SVIsFrontFace):
		case pixel && isClipCull(sv): // the interpolated distance, an ordinary input
		case pixel && sv == dxbc.SVSampleIndex:
			return t.declSampleIndex(reg) // (persample.go)
		case !pixel && (sv == dxbc.SVVertexID || sv == dxbc.SVInstanceID):
		default:
			return t.fail("system value %s as an input: the GPU does not provide it", sv)
		}
	}
	var mode dxbc.Interpolation
	if isPS {
		mode = dxbc.Interpolation(in.Controls & 0xF)
		if err := t.interpolation(in, reg, mode, sv); err != nil {
			return err
		}
	}
	mask := uint8(0xF)
	if o.Components == 4 && o.Mode == dxbc.SelectMask {
		mask = o.WriteMask
	}
	t.ins[reg] = true
	t.inputs = max(t.inputs, reg+1)
	t.out.Inputs = append(t.out.Inputs, Input{Reg: reg, ISA: reg, Mask: mask, Interp: mode, SystemValue: sv})
	return nil
}

// interpolation records a pixel input's mode for the GPU's rasterizer
// (shaderisa.Program.Interp). At one sample per pixel, the centroid and the
// sample position are the pixel's centre: linear centroid interpolates as
// linear there, and at a multisampled target's partly covered pixel at its
// first covered sample (InterpCentroid); sample and noperspective centroid
// at the centre (the pixel program runs once a pixel). The position and the face are system values the rasterizer gives
// whatever their mode.
func (t *translator) interpolation(in *dxbc.Instruction, reg uint32, mode dxbc.Interpolation, sv dxbc.SystemValue) error {
	var m shaderisa.Interp
	switch mode {
	case dxbc.InterpUndefined, dxbc.InterpLinear:
		m = shaderisa.InterpPerspective
	case dxbc.InterpLinearSample:
		m = t.sampleInput() // (persample.go)
	case dxbc.InterpLinearCentroid:
		m = shaderisa.InterpCentroid // (the centre but on a multisampled target's partly covered pixels)
	case dxbc.InterpLinearNoPerspectiveSample:
		t.sampleInput()
		m = shaderisa.InterpNoPerspective // (at the centre: persample.go)
	case dxbc.InterpLinearNoPerspective, dxbc.InterpLinearNoPerspectiveCentroid:
		m = shaderisa.InterpNoPerspective
	case dxbc.InterpConstant:
		m = shaderisa.InterpConstant
	default:
		return t.fail("%s: interpolation mode %d", in.Op, mode)
	}
	if sv == dxbc.SVPosition || sv == dxbc.SVIsFrontFace {
		m = shaderisa.InterpPerspective
	}
	if t.interpSet[reg] && t.interp[reg] != m {
		return t.fail("v%d declared with two interpolation modes (%s and %s): the GPU interpolates a register one way", reg, t.interp[reg], m)
	}
	t.interp[reg], t.interpSet[reg] = m, true
	return nil
}

// DepthOutput is the ISA output register a pixel shader's oDepth
// (SV_Depth) is written to: after the eight render targets' o0..o7.
// oDepthGE and oDepthLE (SV_DepthGreaterEqual, SV_DepthLessEqual) are
// written there too, their system value telling the driver how the
// output merger takes them.
const DepthOutput = 8

// depthOutputs is the system value of each depth output register.
var depthOutputs = map[dxbc.RegisterType]dxbc.SystemValue{
	dxbc.RegOutputDepth:   dxbc.SVDepth,
	dxbc.RegOutputDepthGE: dxbc.SVDepthGreaterEqual,
	dxbc.RegOutputDepthLE: dxbc.SVDepthLessEqual,
}

func (t *translator) output(in *dxbc.Instruction, o *dxbc.Operand) error {
	if sv, ok := depthOutputs[o.Type]; ok && t.out.Stage == shaderisa.StagePixel {
		t.outs[DepthOutput] = true
		t.outputs = max(t.outputs, DepthOutput+1)
		t.out.Outputs = append(t.out.Outputs, Output{Reg: DepthOutput, ISA: DepthOutput, Mask: 1, SystemValue: sv})
		return nil
	}
	if o.Type == dxbc.RegOutputCoverageMask && t.out.Stage == shaderisa.StagePixel {
		return t.declCoverageOut() // (coverage.go)
	}
	if o.Type != dxbc.RegOutput {
		return t.fail("output register type %d is not supported by the GPU (o#, a pixel shader's oDepth, oDepthGE, oDepthLE and oMask only)", o.Type)
	}
	reg, err := t.index(o, 0)
	if err != nil {
		return err
	}
	if err := t.checkModelRegister(reg, true); err != nil { // (regcount.go)
		return err
	}
	if reg >= shaderisa.MaxOutputs {
		return t.fail("o%d: the GPU has %d outputs", reg, shaderisa.MaxOutputs)
	}
	if reg >= DepthOutput && t.out.Stage == shaderisa.StagePixel {
		return t.fail("o%d: a pixel shader has 8 render targets' outputs, o0..o7", reg)
	}
	sv := dxbc.SVUndefined
	if len(in.Extra) == 1 {
		sv = dxbc.SystemValue(in.Extra[0])
		switch {
		case sv == dxbc.SVPosition && (t.out.Stage == shaderisa.StageVertex || t.out.Stage == shaderisa.StageGeometry || t.tessStage()):
		case isClipCull(sv) && (t.out.Stage == shaderisa.StageVertex || t.out.Stage == shaderisa.StageGeometry || t.tessStage()):
		case sv == dxbc.SVRenderTargetIndex && t.out.Stage == shaderisa.StageGeometry:
		case sv == dxbc.SVRenderTargetIndex:
			return t.fail("SV_RenderTargetArrayIndex as an output of a %s shader: this GPU takes it from a geometry shader only", t.out.Stage)
		case sv == dxbc.SVViewportIndex && t.out.Stage == shaderisa.StageGeometry:
		case sv == dxbc.SVViewportIndex:
			return t.fail("SV_ViewportArrayIndex as an output of a %s shader: this GPU takes it from a geometry shader only", t.out.Stage)
		default:
			return t.fail("system value %s as an output: the GPU does not take it", sv)
		}
	}
	if t.out.Stage == shaderisa.StagePixel {
		sv = dxbc.SVTarget
	}
	mask := uint8(0xF)
	if o.Components == 4 && o.Mode == dxbc.SelectMask {
		mask = o.WriteMask
	}
	t.outs[reg] = true
	t.outputs = max(t.outputs, reg+1)
	t.out.Outputs = append(t.out.Outputs, Output{Reg: reg, ISA: reg, Mask: mask, SystemValue: sv, Stream: uint8(t.gs.stream)})
	if isClipCull(sv) {
		if _, err := t.out.ClipCull(uint8(t.gs.stream)); err != nil { // (clipdist.go)
			return t.fail("%v", err)
		}
	}
	return nil
}
