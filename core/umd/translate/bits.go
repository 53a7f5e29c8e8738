package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
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
func (t *translator) bfe(in *dxbc.Instruction, shr shaderisa.Op) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	var s [3]shaderisa.Operand
	for i := range s {
		if s[i], err = t.src(&in.Operands[1+i]); err != nil {
			return err
		}
	}
	w, o, sum, gen, alt := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	R, K := shaderisa.R, func(v uint32) shaderisa.Operand { return shaderisa.L(v, v, v, v) }
	e(shaderisa.OpAnd, w, s[0], K(31))
	e(shaderisa.OpAnd, o, s[1], K(31))
	e(shaderisa.OpIAdd, sum, R(w), R(o))
	e(shaderisa.OpIAdd, gen, K(32), R(sum).WithNeg())
	e(shaderisa.OpIShl, gen, s[2], R(gen))
	e(shaderisa.OpIAdd, alt, K(32), R(w).WithNeg())
	e(shr, gen, R(gen), R(alt))
	e(shr, alt, s[2], R(o))
	e(shaderisa.OpULt, sum, R(sum), K(32))
	e(shaderisa.OpMovc, gen, R(sum), R(gen), R(alt))
	e(shaderisa.OpIEq, w, R(w), K(0))
	t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: dst, Src: []shaderisa.Operand{R(w), K(0), R(gen)}})
	return nil
}

// bfi lowers bfi: mask = ((1 << w) - 1) << o, then
// ((insert << o) & mask) | (base & ~mask).
func (t *translator) bfi(in *dxbc.Instruction) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	var s [4]shaderisa.Operand
	for i := range s {
		if s[i], err = t.src(&in.Operands[1+i]); err != nil {
			return err
		}
	}
	w, o, mask, ins := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	R, K := shaderisa.R, func(v uint32) shaderisa.Operand { return shaderisa.L(v, v, v, v) }
	e(shaderisa.OpAnd, w, s[0], K(31))
	e(shaderisa.OpAnd, o, s[1], K(31))
	e(shaderisa.OpIShl, mask, K(1), R(w))
	e(shaderisa.OpIAdd, mask, R(mask), K(0xFFFFFFFF))
	e(shaderisa.OpIShl, mask, R(mask), R(o))
	e(shaderisa.OpIShl, ins, s[2], R(o))
	e(shaderisa.OpAnd, ins, R(ins), R(mask))
	e(shaderisa.OpNot, mask, R(mask))
	e(shaderisa.OpAnd, mask, s[3], R(mask))
	t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: dst, Src: []shaderisa.Operand{R(ins), R(mask)}})
	return nil
}

// bitCount lowers countbits, firstbit_lo, firstbit_hi, firstbit_shi and
// bfrev with the usual shift-and-mask sequences ("bit twiddling"): the
// source goes through iadd x, src, 0 first so that its modifiers are
// integer ones, as they are for these ops.
func (t *translator) bitCount(in *dxbc.Instruction) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	src, err := t.src(&in.Operands[1])
	if err != nil {
		return err
	}
	R, K := shaderisa.R, func(v uint32) shaderisa.Operand { return shaderisa.L(v, v, v, v) }
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	x, a, b := t.newScratch(), t.newScratch(), t.newScratch()
	e(shaderisa.OpIAdd, x, src, K(0))
	// popcount leaves the bits set in r in a (r is x or a).
	popcount := func(r uint32) {
		e(shaderisa.OpUShr, b, R(r), K(1))
		e(shaderisa.OpAnd, b, R(b), K(0x55555555))
		e(shaderisa.OpIAdd, a, R(r), R(b).WithNeg())
		e(shaderisa.OpUShr, b, R(a), K(2))
		e(shaderisa.OpAnd, b, R(b), K(0x33333333))
		e(shaderisa.OpAnd, a, R(a), K(0x33333333))
		e(shaderisa.OpIAdd, a, R(a), R(b))
		e(shaderisa.OpUShr, b, R(a), K(4))
		e(shaderisa.OpIAdd, a, R(a), R(b))
		e(shaderisa.OpAnd, a, R(a), K(0x0F0F0F0F))
		e(shaderisa.OpIMul, a, R(a), K(0x01010101))
		e(shaderisa.OpUShr, a, R(a), K(24))
	}
	// none gives 0xFFFFFFFF where x is 0, else a.
	none := func() {
		e(shaderisa.OpIEq, b, R(x), K(0))
		t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: dst, Src: []shaderisa.Operand{R(b), K(0xFFFFFFFF), R(a)}})
	}
	switch in.Op {
	case dxbc.OpCountbits:
		popcount(x)
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: dst, Src: []shaderisa.Operand{R(a)}})
	case dxbc.OpFirstbitLo:
		e(shaderisa.OpINeg, a, R(x))
		e(shaderisa.OpAnd, a, R(x), R(a))
		e(shaderisa.OpIAdd, a, R(a), K(0xFFFFFFFF))
		popcount(a)
		none()
	case dxbc.OpFirstbitHi, dxbc.OpFirstbitShi:
		if in.Op == dxbc.OpFirstbitShi {
			// A negative number's first clear bit: flip it.
			e(shaderisa.OpIShr, a, R(x), K(31))
			e(shaderisa.OpXor, x, R(x), R(a))
		}
		e(shaderisa.OpMov, a, R(x))
		for _, s := range []uint32{1, 2, 4, 8, 16} {
			e(shaderisa.OpUShr, b, R(a), K(s))
			e(shaderisa.OpOr, a, R(a), R(b))
		}
		popcount(a)
		e(shaderisa.OpIAdd, a, K(32), R(a).WithNeg())
		none()
	case dxbc.OpBfrev:
		e(shaderisa.OpMov, a, R(x))
		for _, st := range []struct{ s, m uint32 }{{1, 0x55555555}, {2, 0x33333333}, {4, 0x0F0F0F0F}, {8, 0x00FF00FF}} {
			e(shaderisa.OpUShr, b, R(a), K(st.s))
			e(shaderisa.OpAnd, b, R(b), K(st.m))
			e(shaderisa.OpAnd, a, R(a), K(st.m))
			e(shaderisa.OpIShl, a, R(a), K(st.s))
			e(shaderisa.OpOr, a, R(a), R(b))
		}
		e(shaderisa.OpUShr, b, R(a), K(16))
		e(shaderisa.OpIShl, a, R(a), K(16))
		t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: dst, Src: []shaderisa.Operand{R(a), R(b)}})
	}
	return nil
}

// carry lowers uaddc (dst0 = a + b, dst1 = the carry, 0 or 1) and usubb
// (dst0 = a - b, dst1 = the borrow): both results go to scratch temps
// before either destination is written.
func (t *translator) carry(in *dxbc.Instruction) error {
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
	R, K := shaderisa.R, func(v uint32) shaderisa.Operand { return shaderisa.L(v, v, v, v) }
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	res, c := t.newScratch(), t.newScratch()
	if in.Op == dxbc.OpUaddc {
		e(shaderisa.OpIAdd, res, a, b)
		e(shaderisa.OpULt, c, R(res), a) // wrapped round: the sum is below a
	} else {
		nb := b
		nb.Neg = !nb.Neg
		if b.Neg || b.Abs {
			// Negating a modified operand: take b's value first.
			e(shaderisa.OpIAdd, c, b, K(0))
			nb = R(c).WithNeg()
		}
		e(shaderisa.OpIAdd, res, a, nb)
		e(shaderisa.OpULt, c, a, b)
	}
	e(shaderisa.OpAnd, c, R(c), K(1))
	if ok1 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d1, Src: []shaderisa.Operand{R(c)}})
	}
	if ok0 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d0, Src: []shaderisa.Operand{R(res)}})
	}
	return nil
}

// f16tof32 lowers f16tof32: the low 16 bits as a half float, converted
// exactly (half denormals become float normals; infinities and NaNs keep
// their sign and payload, shifted into place):
//
//	e == 0:   utof(m) * 2^-24, with the sign
//	e == 31:  sign | 0x7F800000 | m << 13
//	else:     sign | (e + 112) << 23 | m << 13
func (t *translator) f16tof32(in *dxbc.Instruction) error {
	dst, ok, err := t.dst(&in.Operands[0])
	if err != nil || !ok {
		return err
	}
	src, err := t.src(&in.Operands[1])
	if err != nil {
		return err
	}
	R, K := shaderisa.R, func(v uint32) shaderisa.Operand { return shaderisa.L(v, v, v, v) }
	e := func(op shaderisa.Op, d uint32, srcs ...shaderisa.Operand) {
		t.emit(shaderisa.Inst{Op: op, Dst: shaderisa.R(d), Src: srcs})
	}
	h, sign, exp, man, r, c := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e(shaderisa.OpAnd, h, src, K(0xFFFF))
	e(shaderisa.OpAnd, sign, R(h), K(0x8000))
	e(shaderisa.OpIShl, sign, R(sign), K(16))
	e(shaderisa.OpUShr, exp, R(h), K(10))
	e(shaderisa.OpAnd, exp, R(exp), K(0x1F))
	e(shaderisa.OpAnd, man, R(h), K(0x3FF))
	e(shaderisa.OpIAdd, r, R(exp), K(112))
	e(shaderisa.OpIShl, r, R(r), K(23))
	e(shaderisa.OpIShl, h, R(man), K(13))
	e(shaderisa.OpOr, r, R(r), R(h))
	e(shaderisa.OpOr, h, R(h), K(0x7F800000))
	e(shaderisa.OpIEq, c, R(exp), K(31))
	e(shaderisa.OpMovc, r, R(c), R(h), R(r))
	e(shaderisa.OpUToF, man, R(man))
	e(shaderisa.OpMul, man, R(man), K(0x33800000)) // 2^-24: exact
	e(shaderisa.OpIEq, c, R(exp), K(0))
	e(shaderisa.OpMovc, r, R(c), R(man), R(r))
	t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: dst, Src: []shaderisa.Operand{R(r), R(sign)}})
	return nil
}
