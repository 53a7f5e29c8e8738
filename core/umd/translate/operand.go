package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// dst maps a destination. ok is false for null (a discarded result).
func (t *translator) dst(o *dxbc.Operand) (shaderisa.Operand, bool, error) {
	if o.Type == dxbc.RegNull {
		return shaderisa.Operand{}, false, nil
	}
	if o.Modifier != dxbc.ModNone {
		return shaderisa.Operand{}, false, t.fail("a destination with a source modifier")
	}
	if _, ok := depthOutputs[o.Type]; ok {
		// oDepth, oDepthGE, oDepthLE: one component, the ISA's output DepthOutput.x.
		if !t.outs[DepthOutput] || t.out.Stage != shaderisa.StagePixel {
			return shaderisa.Operand{}, false, t.fail("%s is not declared", o.Type)
		}
		r := shaderisa.O(DepthOutput)
		r.Mask = 1
		return r, true, nil
	}
	if o.Type == dxbc.RegOutputCoverageMask {
		return t.coverageDst() // (coverage.go)
	}
	mask := uint8(0xF)
	if o.Components == 4 {
		if o.Mode != dxbc.SelectMask {
			return shaderisa.Operand{}, false, t.fail("a destination with a swizzle")
		}
		mask = o.WriteMask
	} else if o.Components != 0 {
		return shaderisa.Operand{}, false, t.fail("a one-component destination")
	}
	if mask == 0 {
		return shaderisa.Operand{}, false, nil
	}
	if o.Type == dxbc.RegIndexableTemp {
		r, err := t.xDst(o, mask)
		return r, err == nil, err
	}
	if o.Type == dxbc.RegOutput && t.out.Stage == shaderisa.StageHull && t.ts.pcTemps && t.ts.phase >= phaseFork {
		r, err := t.pcTempDst(o, mask)
		return r, err == nil, err
	}
	if o.Type == dxbc.RegOutput && len(o.Indices) == 1 && o.Indices[0].Rel != nil {
		r, err := t.rangeOperand(o)
		r.Mask = mask
		return r, err == nil, err
	}
	idx, err := t.index(o, 0)
	if err != nil {
		return shaderisa.Operand{}, false, err
	}
	var r shaderisa.Operand
	switch o.Type {
	case dxbc.RegTemp:
		if idx >= t.temps {
			return r, false, t.fail("r%d is not declared", idx)
		}
		r = shaderisa.R(idx)
	case dxbc.RegOutput:
		if !t.outs[idx] {
			return r, false, t.fail("o%d is not declared", idx)
		}
		r = shaderisa.O(idx)
	default:
		return r, false, t.fail("destination register %s is not supported by the GPU's ISA", o.Type)
	}
	r.Mask = mask
	return r, true, nil
}

// index returns operand dimension d's immediate index; a relative one is
// refused (only cb elements may be indexed per lane).
func (t *translator) index(o *dxbc.Operand, d int) (uint32, error) {
	if d >= len(o.Indices) {
		return 0, t.fail("an operand lacks its index")
	}
	ix := o.Indices[d]
	if ix.Rel != nil || ix.Repr != dxbc.IndexImm32 {
		return 0, t.fail("relative indexing of this register is not in the GPU's ISA")
	}
	if ix.Imm > 1<<20 {
		return 0, t.fail("register index %d out of range", ix.Imm)
	}
	return uint32(ix.Imm), nil
}

// swizzle is the source's component selection in the ISA's form.
func (t *translator) swizzle(o *dxbc.Operand) ([4]uint8, error) {
	switch {
	case o.Components == 1:
		return [4]uint8{}, nil
	case o.Components != 4:
		return [4]uint8{}, t.fail("a source without components")
	case o.Mode == dxbc.SelectSwizzle:
		return o.Swiz, nil
	case o.Mode == dxbc.SelectOne:
		c := o.Swiz[0]
		return [4]uint8{c, c, c, c}, nil
	}
	// A mask on a source reads the masked components in place.
	return shaderisa.Identity, nil
}

// src maps a source: registers, cb elements (cb#[r#.c + n] per lane),
// immediates and icb[n] with a constant index (an immediate).
func (t *translator) src(o *dxbc.Operand) (shaderisa.Operand, error) {
	var r shaderisa.Operand
	swz, err := t.swizzle(o)
	if err != nil {
		return r, err
	}
	if t.tessStage() {
		switch o.Type {
		case dxbc.RegInputPrimitiveID, dxbc.RegOutputControlPointID, dxbc.RegInputForkInstanceID, dxbc.RegInputJoinInstanceID,
			dxbc.RegInputDomainPoint, dxbc.RegInputPatchConstant, dxbc.RegInputControlPoint, dxbc.RegOutputControlPoint, dxbc.RegInput:
			if r, err = t.tessSrc(o, swz); err != nil {
				return r, err
			}
			r.Neg = o.Modifier&dxbc.ModNeg != 0
			r.Abs = o.Modifier&dxbc.ModAbs != 0
			return r, nil
		}
	}
	switch o.Type {
	case dxbc.RegInputCoverageMask:
		if r, err = t.coverageSrc(); err != nil { // (coverage.go)
			return r, err
		}
		swz = [4]uint8{1, 1, 1, 1} // the rasterizer's register's y
	case dxbc.RegInputPrimitiveID, dxbc.RegInputGSInstanceID:
		if t.out.Stage != shaderisa.StageGeometry {
			return r, t.fail("%s outside a geometry shader: this GPU provides SV_PrimitiveID to the geometry stage only", o.Type)
		}
		fallthrough
	case dxbc.RegInput:
		if t.out.Stage == shaderisa.StageGeometry {
			if r, err = t.gsSrc(o); err != nil {
				return r, err
			}
			break
		}
		if len(o.Indices) == 1 && o.Indices[0].Rel != nil {
			if r, err = t.rangeOperand(o); err != nil {
				return r, err
			}
			break
		}
		if t.sampleIdx != 0 && len(o.Indices) == 1 && o.Indices[0].Imm == uint64(t.sampleIdx-1) {
			if r, err = t.sampleIndexSrc(); err != nil { // (persample.go)
				return r, err
			}
			swz = [4]uint8{2, 2, 2, 2} // the rasterizer's register's z
			break
		}
		fallthrough
	case dxbc.RegTemp:
		idx, err := t.index(o, 0)
		if err != nil {
			return r, err
		}
		if o.Type == dxbc.RegTemp {
			if idx >= t.temps {
				return r, t.fail("r%d is not declared", idx)
			}
			r = shaderisa.R(idx)
		} else {
			if !t.ins[idx] {
				return r, t.fail("v%d is not declared", idx)
			}
			r = shaderisa.V(idx)
		}
	case dxbc.RegImmediate32:
		var v [4]uint32
		switch len(o.Imm) {
		case 1:
			v = [4]uint32{o.Imm[0], o.Imm[0], o.Imm[0], o.Imm[0]}
		case 4:
			copy(v[:], o.Imm)
		default:
			return r, t.fail("an immediate of %d values", len(o.Imm))
		}
		r = shaderisa.L(v[0], v[1], v[2], v[3])
	case dxbc.RegImmediate64:
		// d(a, b): two doubles, each low word first, in the lanes a
		// double instruction reads (xy, zw); d(a): one, in both pairs.
		var v [4]uint32
		switch len(o.Imm) {
		case 2:
			v = [4]uint32{o.Imm[0], o.Imm[1], o.Imm[0], o.Imm[1]}
		case 4:
			copy(v[:], o.Imm)
		default:
			return r, t.fail("a 64-bit immediate of %d words", len(o.Imm))
		}
		r = shaderisa.L(v[0], v[1], v[2], v[3])
	case dxbc.RegIndexableTemp:
		if r, err = t.xSrc(o); err != nil {
			return r, err
		}
	case dxbc.RegImmediateCB:
		if len(o.Indices) == 1 && o.Indices[0].Repr != dxbc.IndexImm32 {
			if r, err = t.icbRel(o); err != nil {
				return r, err
			}
			break
		}
		idx, err := t.index(o, 0)
		if err != nil {
			return r, err
		}
		if int(idx) >= len(t.icb) {
			return r, t.fail("icb[%d] past the immediate constant buffer's %d elements", idx, len(t.icb))
		}
		v := t.icb[idx]
		r = shaderisa.L(v[0], v[1], v[2], v[3])
	case dxbc.RegConstantBuffer:
		if r, err = t.cb(o); err != nil {
			return r, err
		}
	case dxbc.RegInputThreadID, dxbc.RegInputThreadGroupID, dxbc.RegInputThreadIDInGroup, dxbc.RegInputThreadIDInGroupFlat:
		if t.out.Stage != shaderisa.StageCompute {
			return r, t.fail("%s outside a compute shader", o.Type)
		}
		r = shaderisa.V(computeInputs[o.Type])
	default:
		return r, t.fail("source register %s is not supported by the GPU's ISA", o.Type)
	}
	r.Swizzle = swz
	r.Neg = o.Modifier&dxbc.ModNeg != 0
	r.Abs = o.Modifier&dxbc.ModAbs != 0
	return r, nil
}

// cb maps cb#[n] and cb#[reg.c + n]. A relative index in anything but a
// temp (an input, say) is copied to a scratch temp first.
func (t *translator) cb(o *dxbc.Operand) (shaderisa.Operand, error) {
	var r shaderisa.Operand
	if len(o.Indices) != 2 {
		return r, t.fail("a constant buffer operand needs a slot and an element")
	}
	slot, err := t.index(o, 0)
	if err != nil {
		return r, err
	}
	if !t.cbs[slot] {
		return r, t.fail("cb%d is not declared", slot)
	}
	ix := o.Indices[1]
	if ix.Imm >= shaderisa.MaxCBIndex {
		return r, t.fail("cb%d[%d] is past the GPU's %d elements", slot, ix.Imm, shaderisa.MaxCBIndex)
	}
	elem := uint32(ix.Imm)
	switch ix.Repr {
	case dxbc.IndexImm32:
		return shaderisa.CB(slot, elem), nil
	case dxbc.IndexRelative, dxbc.IndexImm32Relative:
	default:
		return r, t.fail("a 64-bit constant buffer index")
	}
	rel := ix.Rel
	if rel == nil || rel.Components != 4 || rel.Mode != dxbc.SelectOne && rel.Mode != dxbc.SelectSwizzle {
		return r, t.fail("a relative index that is not one component")
	}
	comp := rel.Swiz[0]
	if rel.Type == dxbc.RegTemp && rel.Modifier == dxbc.ModNone {
		reg, err := t.index(rel, 0)
		if err != nil {
			return r, err
		}
		if reg >= t.temps {
			return r, t.fail("r%d is not declared", reg)
		}
		return shaderisa.CBRel(slot, elem, reg, comp), nil
	}
	s, err := t.src(rel)
	if err != nil {
		return r, err
	}
	tmp := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(tmp).WithMask("x"), Src: []shaderisa.Operand{s}})
	return shaderisa.CBRel(slot, elem, tmp, 0), nil
}
