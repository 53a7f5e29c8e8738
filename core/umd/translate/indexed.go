package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Register arrays: indexable temporaries (x#[n]), the immediate constant
// buffer (icb[n]) and the input and output ranges of dcl_indexrange
// (v[r#.c + n], o[r#.c + n]). Each x# array becomes a run of ISA temps
// after the shader's r#; icb goes with the program (Program.ICB). A
// constant index names the register (or, for icb, the immediate); a
// register index becomes the ISA's relative operand over the array, so a
// read outside it gives 0 and a write outside it is dropped, per lane.

// indexable is one declared x# array.
type indexable struct {
	base, count uint32 // ISA temps base .. base+count-1
}

// indexRange is one dcl_indexrange: registers start..start+count-1 of v#
// or o# form an array.
type indexRange struct {
	file         dxbc.RegisterType
	start, count uint32
}

// declIndexable records dcl_indexableTemp x#[count]; the ISA temps are
// given out once the declarations end (layout).
func (t *translator) declIndexable(in *dxbc.Instruction) error {
	if len(in.Extra) != 3 {
		return t.fail("dcl_indexableTemp takes three words")
	}
	reg, count := in.Extra[0], in.Extra[1]
	if count == 0 || count > shaderisa.MaxTemps {
		return t.fail("x%d[%d]: the GPU has %d temporaries", reg, count, shaderisa.MaxTemps)
	}
	if _, dup := t.xs[reg]; dup {
		return t.fail("x%d declared twice", reg)
	}
	if len(t.xs) >= 64 {
		return t.fail("more than 64 indexable arrays")
	}
	t.xs[reg] = &indexable{count: count}
	t.xorder = append(t.xorder, reg)
	return nil
}

// declIndexRange records dcl_indexrange v#/o# count.
func (t *translator) declIndexRange(in *dxbc.Instruction) error {
	if len(in.Operands) != 1 || len(in.Extra) != 1 {
		return t.fail("dcl_indexrange takes a register and a count")
	}
	o := &in.Operands[0]
	if ok, err := t.controlPointRange(o, in.Extra[0]); ok {
		return err // cprange.go
	}
	if o.Type != dxbc.RegInput && o.Type != dxbc.RegOutput || len(o.Indices) != 1 {
		return t.fail("dcl_indexrange of %s: this GPU indexes the inputs v# and outputs o# only", o.Type)
	}
	start, err := t.index(o, 0)
	if err != nil {
		return err
	}
	count := in.Extra[0]
	if count == 0 || uint64(start)+uint64(count) > shaderisa.MaxInputs {
		return t.fail("dcl_indexrange %s%d %d: past the GPU's %d registers", o.Type, start, count, shaderisa.MaxInputs)
	}
	t.ranges = append(t.ranges, indexRange{file: o.Type, start: start, count: count})
	if o.Type == dxbc.RegInput {
		t.inputs = max(t.inputs, start+count)
	} else {
		t.outputs = max(t.outputs, start+count)
	}
	return nil
}

// layout places the x# arrays after r# once the declarations are done;
// switch temps and scratch follow (fixed).
func (t *translator) layout() error {
	if t.laidOut {
		return nil
	}
	t.laidOut = true
	next := t.temps
	for _, reg := range t.xorder {
		x := t.xs[reg]
		x.base = next
		next += x.count
	}
	t.fixed = next
	if t.fixed > shaderisa.MaxTemps {
		return t.fail("%d temporaries with the indexable arrays, the GPU has %d", t.fixed, shaderisa.MaxTemps)
	}
	return nil
}

// relReg returns the temp and component holding a register index's
// register part (r#.c; anything else, or a modified one, copied to a
// scratch temp first).
func (t *translator) relReg(ix dxbc.Index) (uint32, uint8, error) {
	if ix.Repr != dxbc.IndexRelative && ix.Repr != dxbc.IndexImm32Relative || ix.Rel == nil {
		return 0, 0, t.fail("a 64-bit register index")
	}
	rel := ix.Rel
	if rel.Components != 4 || rel.Mode != dxbc.SelectOne && rel.Mode != dxbc.SelectSwizzle {
		return 0, 0, t.fail("a relative index that is not one component")
	}
	if rel.Type == dxbc.RegTemp && rel.Modifier == dxbc.ModNone && len(rel.Indices) == 1 && rel.Indices[0].Rel == nil {
		reg, err := t.index(rel, 0)
		if err != nil {
			return 0, 0, err
		}
		if reg >= t.temps {
			return 0, 0, t.fail("r%d is not declared", reg)
		}
		return reg, rel.Swiz[0], nil
	}
	s, err := t.src(rel)
	if err != nil {
		return 0, 0, err
	}
	tmp := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: shaderisa.R(tmp).WithMask("x"), Src: []shaderisa.Operand{s, shaderisa.L(0, 0, 0, 0)}})
	return tmp, 0, nil
}

// xOperand maps x#[...] to its ISA temp or a relative operand over the
// array.
func (t *translator) xOperand(o *dxbc.Operand) (shaderisa.Operand, error) {
	var r shaderisa.Operand
	if len(o.Indices) != 2 || o.Indices[0].Rel != nil {
		return r, t.fail("an indexable temporary is x#[index]")
	}
	x := t.xs[uint32(o.Indices[0].Imm)]
	if x == nil || o.Indices[0].Imm > 1<<20 {
		return r, t.fail("x%d is not declared", o.Indices[0].Imm)
	}
	ix := o.Indices[1]
	if ix.Repr == dxbc.IndexImm32 {
		if ix.Imm >= uint64(x.count) {
			return r, t.fail("x%d[%d] is past its %d elements", o.Indices[0].Imm, ix.Imm, x.count)
		}
		return shaderisa.R(x.base + uint32(ix.Imm)), nil
	}
	reg, comp, err := t.relReg(ix)
	if err != nil {
		return r, err
	}
	return shaderisa.R(x.base).WithRel(x.base+uint32(ix.Imm), x.count, reg, comp), nil
}

// xSrc maps a source x#[...].
func (t *translator) xSrc(o *dxbc.Operand) (shaderisa.Operand, error) { return t.xOperand(o) }

// xDst maps a destination x#[...].
func (t *translator) xDst(o *dxbc.Operand, mask uint8) (shaderisa.Operand, error) {
	r, err := t.xOperand(o)
	r.Mask = mask
	return r, err
}

// icbRel maps icb[reg.c + n].
func (t *translator) icbRel(o *dxbc.Operand) (shaderisa.Operand, error) {
	if len(t.icb) == 0 {
		return shaderisa.Operand{}, t.fail("icb[] without dcl_immediateConstantBuffer")
	}
	reg, comp, err := t.relReg(o.Indices[0])
	if err != nil {
		return shaderisa.Operand{}, err
	}
	t.useICB = true
	return shaderisa.ICBRel(uint32(o.Indices[0].Imm), uint32(len(t.icb)), reg, comp), nil
}

// rangeOperand maps v[r#.c + n] or o[r#.c + n] over the dcl_indexrange
// that holds register n.
func (t *translator) rangeOperand(o *dxbc.Operand) (shaderisa.Operand, error) {
	var r shaderisa.Operand
	ix := o.Indices[0]
	n := uint32(min(ix.Imm, 1<<20))
	for _, rg := range t.ranges {
		if rg.file == o.Type && n-rg.start < rg.count {
			reg, comp, err := t.relReg(ix)
			if err != nil {
				return r, err
			}
			if o.Type == dxbc.RegInput {
				r = shaderisa.V(rg.start)
			} else {
				r = shaderisa.O(rg.start)
			}
			return r.WithRel(n, rg.count, reg, comp), nil
		}
	}
	return r, t.fail("%s[%s + %d]: no dcl_indexrange holds register %d", o.Type, ix.Rel.Type, n, n)
}
