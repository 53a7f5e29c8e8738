package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
)

// The SM5 bitfield ops fxc writes for shifts-and-masks ((x >> 8) & 0xFF
// becomes ubfe), lowered to shifts, masks and movc on scratch temps as the
// Direct3D 11.3 functional specification defines them. Every source is
// read before the destination, which only the last instruction writes.

// bfe lowers ubfe (shr = ushr) and ibfe (shr = ishr):
//
//	w = width & 31, o = offset & 31
//	w == 0:       0
//	w + o < 32:   (value << (32 - (w + o))) shr (32 - w)
//	otherwise:    value shr o
func (t *translator) bfe(in *dxbc.Instruction, shr shader.Op) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	var s [3]shader.Operand
	for i := range s {
		if s[i], err = t.src(&in.Operands[1+i]); err != nil {
			return err
		}
	}
	w, o, sum, gen, alt := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e := func(op shader.Op, d uint32, srcs ...shader.Operand) {
		t.emit(shader.Inst{Op: op, Dst: shader.R(d), Src: srcs})
	}
	R, K := shader.R, func(v uint32) shader.Operand { return shader.L(v, v, v, v) }
	e(shader.OpAnd, w, s[0], K(31))
	e(shader.OpAnd, o, s[1], K(31))
	e(shader.OpIAdd, sum, R(w), R(o))
	e(shader.OpIAdd, gen, K(32), R(sum).WithNeg())
	e(shader.OpIShl, gen, s[2], R(gen))
	e(shader.OpIAdd, alt, K(32), R(w).WithNeg())
	e(shr, gen, R(gen), R(alt))
	e(shr, alt, s[2], R(o))
	e(shader.OpULt, sum, R(sum), K(32))
	e(shader.OpMovc, gen, R(sum), R(gen), R(alt))
	e(shader.OpIEq, w, R(w), K(0))
	t.emit(shader.Inst{Op: shader.OpMovc, Dst: dst, Src: []shader.Operand{R(w), K(0), R(gen)}})
	return nil
}

// bfi lowers bfi: mask = ((1 << w) - 1) << o, then
// ((insert << o) & mask) | (base & ~mask).
func (t *translator) bfi(in *dxbc.Instruction) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	var s [4]shader.Operand
	for i := range s {
		if s[i], err = t.src(&in.Operands[1+i]); err != nil {
			return err
		}
	}
	w, o, mask, ins := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e := func(op shader.Op, d uint32, srcs ...shader.Operand) {
		t.emit(shader.Inst{Op: op, Dst: shader.R(d), Src: srcs})
	}
	R, K := shader.R, func(v uint32) shader.Operand { return shader.L(v, v, v, v) }
	e(shader.OpAnd, w, s[0], K(31))
	e(shader.OpAnd, o, s[1], K(31))
	e(shader.OpIShl, mask, K(1), R(w))
	e(shader.OpIAdd, mask, R(mask), K(0xFFFFFFFF))
	e(shader.OpIShl, mask, R(mask), R(o))
	e(shader.OpIShl, ins, s[2], R(o))
	e(shader.OpAnd, ins, R(ins), R(mask))
	e(shader.OpNot, mask, R(mask))
	e(shader.OpAnd, mask, s[3], R(mask))
	t.emit(shader.Inst{Op: shader.OpOr, Dst: dst, Src: []shader.Operand{R(ins), R(mask)}})
	return nil
}
