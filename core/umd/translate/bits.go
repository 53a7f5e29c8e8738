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
	R, K := shader.R, func(v uint32) shader.Operand { return shader.L(v, v, v, v) }
	e := func(op shader.Op, d uint32, srcs ...shader.Operand) {
		t.emit(shader.Inst{Op: op, Dst: shader.R(d), Src: srcs})
	}
	x, a, b := t.newScratch(), t.newScratch(), t.newScratch()
	e(shader.OpIAdd, x, src, K(0))
	// popcount leaves the bits set in r in a (r is x or a).
	popcount := func(r uint32) {
		e(shader.OpUShr, b, R(r), K(1))
		e(shader.OpAnd, b, R(b), K(0x55555555))
		e(shader.OpIAdd, a, R(r), R(b).WithNeg())
		e(shader.OpUShr, b, R(a), K(2))
		e(shader.OpAnd, b, R(b), K(0x33333333))
		e(shader.OpAnd, a, R(a), K(0x33333333))
		e(shader.OpIAdd, a, R(a), R(b))
		e(shader.OpUShr, b, R(a), K(4))
		e(shader.OpIAdd, a, R(a), R(b))
		e(shader.OpAnd, a, R(a), K(0x0F0F0F0F))
		e(shader.OpIMul, a, R(a), K(0x01010101))
		e(shader.OpUShr, a, R(a), K(24))
	}
	// none gives 0xFFFFFFFF where x is 0, else a.
	none := func() {
		e(shader.OpIEq, b, R(x), K(0))
		t.emit(shader.Inst{Op: shader.OpMovc, Dst: dst, Src: []shader.Operand{R(b), K(0xFFFFFFFF), R(a)}})
	}
	switch in.Op {
	case dxbc.OpCountbits:
		popcount(x)
		t.emit(shader.Inst{Op: shader.OpMov, Dst: dst, Src: []shader.Operand{R(a)}})
	case dxbc.OpFirstbitLo:
		e(shader.OpINeg, a, R(x))
		e(shader.OpAnd, a, R(x), R(a))
		e(shader.OpIAdd, a, R(a), K(0xFFFFFFFF))
		popcount(a)
		none()
	case dxbc.OpFirstbitHi, dxbc.OpFirstbitShi:
		if in.Op == dxbc.OpFirstbitShi {
			// A negative number's first clear bit: flip it.
			e(shader.OpIShr, a, R(x), K(31))
			e(shader.OpXor, x, R(x), R(a))
		}
		e(shader.OpMov, a, R(x))
		for _, s := range []uint32{1, 2, 4, 8, 16} {
			e(shader.OpUShr, b, R(a), K(s))
			e(shader.OpOr, a, R(a), R(b))
		}
		popcount(a)
		e(shader.OpIAdd, a, K(32), R(a).WithNeg())
		none()
	case dxbc.OpBfrev:
		e(shader.OpMov, a, R(x))
		for _, st := range []struct{ s, m uint32 }{{1, 0x55555555}, {2, 0x33333333}, {4, 0x0F0F0F0F}, {8, 0x00FF00FF}} {
			e(shader.OpUShr, b, R(a), K(st.s))
			e(shader.OpAnd, b, R(b), K(st.m))
			e(shader.OpAnd, a, R(a), K(st.m))
			e(shader.OpIShl, a, R(a), K(st.s))
			e(shader.OpOr, a, R(a), R(b))
		}
		e(shader.OpUShr, b, R(a), K(16))
		e(shader.OpIShl, a, R(a), K(16))
		t.emit(shader.Inst{Op: shader.OpOr, Dst: dst, Src: []shader.Operand{R(a), R(b)}})
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
	R, K := shader.R, func(v uint32) shader.Operand { return shader.L(v, v, v, v) }
	e := func(op shader.Op, d uint32, srcs ...shader.Operand) {
		t.emit(shader.Inst{Op: op, Dst: shader.R(d), Src: srcs})
	}
	res, c := t.newScratch(), t.newScratch()
	if in.Op == dxbc.OpUaddc {
		e(shader.OpIAdd, res, a, b)
		e(shader.OpULt, c, R(res), a) // wrapped round: the sum is below a
	} else {
		nb := b
		nb.Neg = !nb.Neg
		if b.Neg || b.Abs {
			// Negating a modified operand: take b's value first.
			e(shader.OpIAdd, c, b, K(0))
			nb = R(c).WithNeg()
		}
		e(shader.OpIAdd, res, a, nb)
		e(shader.OpULt, c, a, b)
	}
	e(shader.OpAnd, c, R(c), K(1))
	if ok1 {
		t.emit(shader.Inst{Op: shader.OpMov, Dst: d1, Src: []shader.Operand{R(c)}})
	}
	if ok0 {
		t.emit(shader.Inst{Op: shader.OpMov, Dst: d0, Src: []shader.Operand{R(res)}})
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
	R, K := shader.R, func(v uint32) shader.Operand { return shader.L(v, v, v, v) }
	e := func(op shader.Op, d uint32, srcs ...shader.Operand) {
		t.emit(shader.Inst{Op: op, Dst: shader.R(d), Src: srcs})
	}
	h, sign, exp, man, r, c := t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch(), t.newScratch()
	e(shader.OpAnd, h, src, K(0xFFFF))
	e(shader.OpAnd, sign, R(h), K(0x8000))
	e(shader.OpIShl, sign, R(sign), K(16))
	e(shader.OpUShr, exp, R(h), K(10))
	e(shader.OpAnd, exp, R(exp), K(0x1F))
	e(shader.OpAnd, man, R(h), K(0x3FF))
	e(shader.OpIAdd, r, R(exp), K(112))
	e(shader.OpIShl, r, R(r), K(23))
	e(shader.OpIShl, h, R(man), K(13))
	e(shader.OpOr, r, R(r), R(h))
	e(shader.OpOr, h, R(h), K(0x7F800000))
	e(shader.OpIEq, c, R(exp), K(31))
	e(shader.OpMovc, r, R(c), R(h), R(r))
	e(shader.OpUToF, man, R(man))
	e(shader.OpMul, man, R(man), K(0x33800000)) // 2^-24: exact
	e(shader.OpIEq, c, R(exp), K(0))
	e(shader.OpMovc, r, R(c), R(man), R(r))
	t.emit(shader.Inst{Op: shader.OpOr, Dst: dst, Src: []shader.Operand{R(r), R(sign)}})
	return nil
}
