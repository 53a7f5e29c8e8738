package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// The shader model 5 bit ops and the two-destination integer ops. The
// ISA has each bit op (ubfe, ibfe, bfi, bfrev, countbits, firstbit_*,
// f16tof32, f32tof16: one for one, with the DXBC instruction's operands);
// the ops with two destinations become two ISA ops on scratch temps, every
// source read before either destination is written.

// oneForOne maps the DXBC ops the ISA has as they are.
var oneForOne = map[dxbc.Opcode]shaderisa.Op{
	dxbc.OpUbfe: shaderisa.OpUBfe, dxbc.OpIbfe: shaderisa.OpIBfe, dxbc.OpBfi: shaderisa.OpBfi,
	dxbc.OpBfrev: shaderisa.OpBfrev, dxbc.OpCountbits: shaderisa.OpCountbits,
	dxbc.OpFirstbitHi: shaderisa.OpFirstbitHi, dxbc.OpFirstbitLo: shaderisa.OpFirstbitLo,
	dxbc.OpFirstbitShi: shaderisa.OpFirstbitShi,
	dxbc.OpF16toF32:    shaderisa.OpF16ToF32, dxbc.OpF32toF16: shaderisa.OpF32ToF16,
}

// twoDsts translates uaddc (dst0 = a + b, dst1 = the carry), usubb (dst0 =
// a - b, dst1 = the borrow), imul and umul (dst0 = the high 32 bits of the
// product, dst1 = the low).
func (t *translator) twoDsts(in *dxbc.Instruction) error {
	d0, ok0, err := t.dst(&in.Operands[0])
	if err != nil {
		return err
	}
	d1, ok1, err := t.dst(&in.Operands[1])
	if err != nil {
		return err
	}
	a, err := t.src(&in.Operands[2])
	if err != nil {
		return err
	}
	b, err := t.src(&in.Operands[3])
	if err != nil {
		return err
	}
	var op0, op1 shaderisa.Op
	switch in.Op {
	case dxbc.OpUaddc:
		op0, op1 = shaderisa.OpIAdd, shaderisa.OpUAddc
	case dxbc.OpUsubb:
		op0, op1 = shaderisa.OpIAdd, shaderisa.OpUSubb
	case dxbc.OpImul:
		op0, op1 = shaderisa.OpIMulHi, shaderisa.OpIMul
	case dxbc.OpUmul:
		op0, op1 = shaderisa.OpUMulHi, shaderisa.OpIMul // the low halves of both products are the same
	}
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	r0, r1 := t.newScratch(), t.newScratch()
	if ok0 {
		if in.Op == dxbc.OpUsubb {
			// a - b: negate b's value (after its own modifiers).
			nb := b
			if b.Neg || b.Abs {
				e(shaderisa.OpIAdd, r0, b, shaderisa.L(0, 0, 0, 0))
				nb = shaderisa.R(r0)
			}
			nb.Neg = !nb.Neg
			e(op0, r0, a, nb)
		} else {
			e(op0, r0, a, b)
		}
	}
	if ok1 {
		e(op1, r1, a, b)
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d1, Src: []shaderisa.Operand{shaderisa.R(r1)}})
	}
	if ok0 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d0, Src: []shaderisa.Operand{shaderisa.R(r0)}})
	}
	return nil
}
