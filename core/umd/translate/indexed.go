package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Indexable temporaries (x#[n]) and the immediate constant buffer read
// with a register index (icb[r#.c + n]): the ISA indexes only constant
// buffers per lane, so each x# element becomes an ISA temp of its own,
// placed after the shader's r#, and an index chosen per lane becomes a
// chain over the elements: a read is movc of each element whose number
// equals the index (0 when none does, as an out-of-range read gives in
// D3D11), a write is movc into each element whose number equals it.
// The chains cost two instructions per element, so arrays and tables are
// kept to maxIndexed elements.

// maxIndexed bounds the elements of one x# array or a relatively
// indexed icb.
const maxIndexed = 128

// indexable is one declared x# array.
type indexable struct {
	base, count uint32 // ISA temps base .. base+count-1
}

// declIndexable records dcl_indexableTemp x#[count]; the ISA temps are
// given out once the declarations end (layout).
func (t *translator) declIndexable(in *dxbc.Instruction) error {
	if len(in.Extra) != 3 {
		return t.fail("dcl_indexableTemp takes three words")
	}
	reg, count := in.Extra[0], in.Extra[1]
	if count == 0 || count > maxIndexed {
		return t.fail("x%d[%d]: the translator takes indexable arrays of 1..%d elements", reg, count, maxIndexed)
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

// element resolves x#[n] (ok) or, for a register index, the array and the
// scratch temp holding each lane's element number (rel).
func (t *translator) element(o *dxbc.Operand) (x *indexable, elem uint32, idx shaderisa.Operand, rel bool, err error) {
	if len(o.Indices) != 2 || o.Indices[0].Rel != nil {
		return nil, 0, idx, false, t.fail("an indexable temporary is x#[index]")
	}
	x = t.xs[uint32(o.Indices[0].Imm)]
	if x == nil || o.Indices[0].Imm > 1<<20 {
		return nil, 0, idx, false, t.fail("x%d is not declared", o.Indices[0].Imm)
	}
	ix := o.Indices[1]
	if ix.Repr == dxbc.IndexImm32 {
		if ix.Imm >= uint64(x.count) {
			return nil, 0, idx, false, t.fail("x%d[%d] is past its %d elements", o.Indices[0].Imm, ix.Imm, x.count)
		}
		return x, uint32(ix.Imm), idx, false, nil
	}
	idx, err = t.relIndex(ix)
	return x, 0, idx, true, err
}

// relIndex computes a register index (reg.c + n) into a scratch temp's
// four components.
func (t *translator) relIndex(ix dxbc.Index) (shaderisa.Operand, error) {
	if ix.Repr != dxbc.IndexRelative && ix.Repr != dxbc.IndexImm32Relative || ix.Rel == nil {
		return shaderisa.Operand{}, t.fail("a 64-bit register index")
	}
	s, err := t.src(ix.Rel)
	if err != nil {
		return s, err
	}
	c := s.Swizzle[0]
	s.Swizzle = [4]uint8{c, c, c, c}
	n := uint32(ix.Imm)
	r := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: shaderisa.R(r), Src: []shaderisa.Operand{s, shaderisa.L(n, n, n, n)}})
	return shaderisa.R(r), nil
}

// gather reads element idx of n elements (elem(k) is element k) into a
// scratch temp, per lane: 0 where idx is out of range.
func (t *translator) gather(idx shaderisa.Operand, n uint32, elem func(k uint32) shaderisa.Operand) uint32 {
	res, hit := t.newScratch(), t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(res), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
	for k := range n {
		t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: shaderisa.R(hit), Src: []shaderisa.Operand{idx, shaderisa.L(k, k, k, k)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: shaderisa.R(res), Src: []shaderisa.Operand{shaderisa.R(hit), elem(k), shaderisa.R(res)}})
	}
	return res
}

// xSrc maps a source x#[...]: an element's temp, or the gathered value.
func (t *translator) xSrc(o *dxbc.Operand) (shaderisa.Operand, error) {
	x, elem, idx, rel, err := t.element(o)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	if !rel {
		return shaderisa.R(x.base + elem), nil
	}
	return shaderisa.R(t.gather(idx, x.count, func(k uint32) shaderisa.Operand { return shaderisa.R(x.base + k) })), nil
}

// icbRel maps icb[reg.c + n].
func (t *translator) icbRel(o *dxbc.Operand) (shaderisa.Operand, error) {
	if len(t.icb) > maxIndexed {
		return shaderisa.Operand{}, t.fail("icb[] of %d elements indexed by a register: the translator takes up to %d", len(t.icb), maxIndexed)
	}
	idx, err := t.relIndex(o.Indices[0])
	if err != nil {
		return idx, err
	}
	return shaderisa.R(t.gather(idx, uint32(len(t.icb)), func(k uint32) shaderisa.Operand {
		v := t.icb[k]
		return shaderisa.L(v[0], v[1], v[2], v[3])
	})), nil
}

// store is a write to x#[index] chosen per lane: the instruction writes
// the scratch temp val, then each element takes it where its number
// equals the index.
type store struct {
	x    *indexable
	idx  shaderisa.Operand
	val  uint32
	mask uint8
}

// xDst maps a destination x#[...]: an element's temp, or a scratch temp
// and a store to emit after the instruction.
func (t *translator) xDst(o *dxbc.Operand, mask uint8) (shaderisa.Operand, error) {
	x, elem, idx, rel, err := t.element(o)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	if !rel {
		r := shaderisa.R(x.base + elem)
		r.Mask = mask
		return r, nil
	}
	val := t.newScratch()
	t.stores = append(t.stores, store{x: x, idx: idx, val: val, mask: mask})
	r := shaderisa.R(val)
	r.Mask = mask
	return r, nil
}

// flushStores emits the pending stores of the instruction just translated.
func (t *translator) flushStores() {
	for _, s := range t.stores {
		hit := t.newScratch()
		for k := range s.x.count {
			e := shaderisa.R(s.x.base + k)
			d := e
			d.Mask = s.mask
			t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: shaderisa.R(hit), Src: []shaderisa.Operand{s.idx, shaderisa.L(k, k, k, k)}})
			t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: d, Src: []shaderisa.Operand{shaderisa.R(hit), shaderisa.R(s.val), e}})
		}
	}
	t.stores = t.stores[:0]
}
