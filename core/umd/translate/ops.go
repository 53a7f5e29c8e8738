package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// direct maps the DXBC opcodes that have an ISA op of the same meaning
// (one destination, the same sources). exp and log are base 2 in SM4;
// round_ni/pi/z are floor, ceil and trunc; deriv_rtx/rty are the coarse
// forms (the Direct3D 11.3 functional specification lets them be either).
var direct = map[dxbc.Opcode]shaderisa.Op{
	dxbc.OpMov: shaderisa.OpMov, dxbc.OpMovc: shaderisa.OpMovc,
	dxbc.OpAdd: shaderisa.OpAdd, dxbc.OpMul: shaderisa.OpMul, dxbc.OpMad: shaderisa.OpMad, dxbc.OpDiv: shaderisa.OpDiv,
	dxbc.OpDp2: shaderisa.OpDp2, dxbc.OpDp3: shaderisa.OpDp3, dxbc.OpDp4: shaderisa.OpDp4,
	dxbc.OpMin: shaderisa.OpMin, dxbc.OpMax: shaderisa.OpMax,
	dxbc.OpRcp: shaderisa.OpRcp, dxbc.OpRsq: shaderisa.OpRsq, dxbc.OpSqrt: shaderisa.OpSqrt,
	dxbc.OpExp: shaderisa.OpExp2, dxbc.OpLog: shaderisa.OpLog2, dxbc.OpFrc: shaderisa.OpFrc,
	dxbc.OpRoundNE: shaderisa.OpRoundNE, dxbc.OpRoundNI: shaderisa.OpFloor, dxbc.OpRoundPI: shaderisa.OpCeil,
	dxbc.OpRoundZ: shaderisa.OpTrunc,
	dxbc.OpLt:     shaderisa.OpLt, dxbc.OpGe: shaderisa.OpGe, dxbc.OpEq: shaderisa.OpEq, dxbc.OpNe: shaderisa.OpNe,
	dxbc.OpIadd: shaderisa.OpIAdd, dxbc.OpIshl: shaderisa.OpIShl, dxbc.OpIshr: shaderisa.OpIShr, dxbc.OpUshr: shaderisa.OpUShr,
	dxbc.OpAnd: shaderisa.OpAnd, dxbc.OpOr: shaderisa.OpOr, dxbc.OpXor: shaderisa.OpXor, dxbc.OpNot: shaderisa.OpNot,
	dxbc.OpIneg: shaderisa.OpINeg,
	dxbc.OpIlt:  shaderisa.OpILt, dxbc.OpIge: shaderisa.OpIGe, dxbc.OpIeq: shaderisa.OpIEq, dxbc.OpIne: shaderisa.OpINe,
	dxbc.OpUlt: shaderisa.OpULt, dxbc.OpUge: shaderisa.OpUGe,
	dxbc.OpItof: shaderisa.OpIToF, dxbc.OpUtof: shaderisa.OpUToF, dxbc.OpFtoi: shaderisa.OpFToI, dxbc.OpFtou: shaderisa.OpFToU,
	dxbc.OpImin: shaderisa.OpIMin, dxbc.OpImax: shaderisa.OpIMax, dxbc.OpUmin: shaderisa.OpUMin, dxbc.OpUmax: shaderisa.OpUMax,
	dxbc.OpDerivRtx: shaderisa.OpDerivX, dxbc.OpDerivRty: shaderisa.OpDerivY,
	dxbc.OpDerivRtxCoarse: shaderisa.OpDerivX, dxbc.OpDerivRtyCoarse: shaderisa.OpDerivY,
	dxbc.OpDerivRtxFine: shaderisa.OpDerivXFine, dxbc.OpDerivRtyFine: shaderisa.OpDerivYFine,
}

// flow maps the control-flow opcodes (tests carry over as _z/_nz).
var flow = map[dxbc.Opcode]shaderisa.Op{
	dxbc.OpIf: shaderisa.OpIf, dxbc.OpElse: shaderisa.OpElse, dxbc.OpEndif: shaderisa.OpEndIf,
	dxbc.OpLoop: shaderisa.OpLoop, dxbc.OpEndloop: shaderisa.OpEndLoop,
	dxbc.OpBreak: shaderisa.OpBreak, dxbc.OpBreakc: shaderisa.OpBreakc,
	dxbc.OpContinue: shaderisa.OpContinue, dxbc.OpContinuec: shaderisa.OpContinuec,
	dxbc.OpRet: shaderisa.OpRet, dxbc.OpRetc: shaderisa.OpRetc, dxbc.OpDiscard: shaderisa.OpDiscard,
}

// operands is the operand count of the instructions translated by
// index (a decoded program always has them; a built one might not).
var operands = map[dxbc.Opcode]int{
	dxbc.OpImul: 4, dxbc.OpUmul: 4, dxbc.OpImad: 4, dxbc.OpUmad: 4, dxbc.OpUdiv: 4, dxbc.OpSincos: 3, dxbc.OpSwapc: 5,
	dxbc.OpUbfe: 4, dxbc.OpIbfe: 4, dxbc.OpBfi: 5, dxbc.OpUaddc: 4, dxbc.OpUsubb: 4, dxbc.OpF16toF32: 2,
	dxbc.OpCountbits: 2, dxbc.OpFirstbitLo: 2, dxbc.OpFirstbitHi: 2, dxbc.OpFirstbitShi: 2, dxbc.OpBfrev: 2,
	dxbc.OpF32toF16: 2,
}

// instruction translates one DXBC instruction or declaration.
func (t *translator) instruction(in *dxbc.Instruction) error {
	if _, ok := refusals[in.Op]; ok && !t.takes(in.Op) && !(geometryOps[in.Op] && t.out.Stage == shaderisa.StageGeometry) && !(tessOps[in.Op] && t.tessStage()) {
		return t.refuse(in.Op)
	}
	if tessOps[in.Op] {
		return t.tessDecl(in)
	}
	if len(t.code) > 0 && isDecl(in.Op) {
		return t.fail("a declaration after the first instruction")
	}
	if n, ok := operands[in.Op]; ok && len(in.Operands) != n {
		return t.fail("%d operands, want %d", len(in.Operands), n)
	}
	if op, ok := direct[in.Op]; ok {
		if op >= shaderisa.OpDerivX && t.out.Stage != shaderisa.StagePixel {
			return t.fail("derivatives in a vertex shader")
		}
		return t.alu(in, op)
	}
	if op, ok := flow[in.Op]; ok {
		return t.flow(in, op)
	}
	if done, err := t.geometryInst(in); done {
		return err
	}
	if done, err := t.computeInst(in); done {
		return err
	}
	if _, ok := texForms[in.Op]; ok {
		return t.texture(in)
	}
	switch in.Op {
	case dxbc.OpNop:
		return nil
	case dxbc.OpImul, dxbc.OpUmul:
		if in.Operands[0].Type == dxbc.RegNull {
			// The low 32 bits alone, the same signed or unsigned.
			return t.alu2(in, 1, shaderisa.OpIMul, in.Operands[2], in.Operands[3])
		}
		return t.twoDsts(in)
	case dxbc.OpImad, dxbc.OpUmad:
		return t.mad(in)
	case dxbc.OpUdiv:
		return t.pair(in, shaderisa.OpUDiv, shaderisa.OpURem)
	case dxbc.OpSincos:
		return t.pair(in, shaderisa.OpSin, shaderisa.OpCos)
	case dxbc.OpSwapc:
		return t.swapc(in)
	case dxbc.OpSampleInfo, dxbc.OpSamplePos:
		return t.sampleInfo(in)
	case dxbc.OpUbfe, dxbc.OpIbfe, dxbc.OpBfi, dxbc.OpBfrev, dxbc.OpCountbits, dxbc.OpFirstbitHi,
		dxbc.OpFirstbitLo, dxbc.OpFirstbitShi, dxbc.OpF16toF32, dxbc.OpF32toF16:
		return t.alu(in, oneForOne[in.Op])
	case dxbc.OpUaddc, dxbc.OpUsubb:
		return t.twoDsts(in)
	case dxbc.OpSwitch, dxbc.OpCase, dxbc.OpDefault, dxbc.OpEndswitch:
		return t.switchOp(in)
	case dxbc.OpCall, dxbc.OpCallc, dxbc.OpLabel:
		return t.subroutine(in)
	case dxbc.OpDadd, dxbc.OpDmul, dxbc.OpDmin, dxbc.OpDmax, dxbc.OpDeq, dxbc.OpDge, dxbc.OpDlt, dxbc.OpDne,
		dxbc.OpDmov, dxbc.OpDmovc, dxbc.OpDtof, dxbc.OpFtod:
		return t.double(in)
	case dxbc.OpEvalCentroid, dxbc.OpEvalSampleIndex:
		return t.eval(in)
	}
	if isDecl(in.Op) {
		return t.decl(in)
	}
	return t.refuse(in.Op)
}

func isDecl(op dxbc.Opcode) bool { return op.IsDeclaration() }

// continueInSwitch translates a continue whose innermost loop or switch
// is a switch: the lanes set the switch's cont and break out of it (see
// switch.go).
func (t *translator) continueInSwitch(in *dxbc.Instruction) error {
	lv := &t.switches[len(t.switches)-1]
	lv.contUsed = true
	cont := shaderisa.R(lv.cont).WithMask("x")
	if in.Op == dxbc.OpContinue {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: cont, Src: []shaderisa.Operand{shaderisa.L(^uint32(0), 0, 0, 0)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpBreak})
		return nil
	}
	if in.Operands[0].Modifier != dxbc.ModNone {
		return t.fail("a condition with a source modifier")
	}
	c, err := t.src(&in.Operands[0])
	if err != nil {
		return err
	}
	test := shaderisa.OpIEq
	if in.Test() == dxbc.TestNonZero {
		test = shaderisa.OpINe
	}
	t.emit(shaderisa.Inst{Op: test, Dst: cont, Src: []shaderisa.Operand{c, shaderisa.L(0, 0, 0, 0)}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpBreakc, NZ: true, Src: []shaderisa.Operand{shaderisa.R(lv.cont).WithSwizzle("x")}})
	return nil
}

// subroutine translates call, callc and label one for one: the ISA has
// subroutines (a ret inside one returns from it).
func (t *translator) subroutine(in *dxbc.Instruction) error {
	lbl := &in.Operands[len(in.Operands)-1]
	if lbl.Type != dxbc.RegLabel || len(lbl.Indices) != 1 || lbl.Indices[0].Rel != nil || lbl.Indices[0].Imm >= shaderisa.MaxLabels {
		return t.fail("%s takes a label l0..l%d", in.Op, shaderisa.MaxLabels-1)
	}
	x := shaderisa.Inst{Label: uint32(lbl.Indices[0].Imm)}
	switch in.Op {
	case dxbc.OpLabel:
		if len(t.blocks) != 0 {
			return t.fail("a label inside an if, loop or switch")
		}
		x.Op = shaderisa.OpLabel
	case dxbc.OpCall:
		x.Op = shaderisa.OpCall
	case dxbc.OpCallc:
		if in.Operands[0].Modifier != dxbc.ModNone {
			return t.fail("a condition with a source modifier")
		}
		c, err := t.src(&in.Operands[0])
		if err != nil {
			return err
		}
		x.Op, x.NZ, x.Src = shaderisa.OpCallc, in.Test() == dxbc.TestNonZero, []shaderisa.Operand{c}
	}
	t.emit(x)
	return nil
}

// alu translates a one-destination instruction whose sources map as they are.
func (t *translator) alu(in *dxbc.Instruction, op shaderisa.Op) error {
	if len(in.Operands) < 1 {
		return t.fail("no destination")
	}
	return t.alu2(in, 0, op, in.Operands[1:]...)
}

// alu2 emits op into destination operand d of in from srcs.
func (t *translator) alu2(in *dxbc.Instruction, d int, op shaderisa.Op, srcs ...dxbc.Operand) error {
	dst, ok, err := t.dst(&in.Operands[d])
	if err != nil || !ok {
		return err
	}
	x := shaderisa.Inst{Op: op, Sat: in.Saturate(), Dst: dst}
	for i := range srcs {
		s, err := t.src(&srcs[i])
		if err != nil {
			return err
		}
		x.Src = append(x.Src, s)
	}
	t.emit(x)
	return nil
}

// mad lowers imad/umad (dst = a*b + c, low 32 bits) to imul into a
// scratch temp and iadd, so a destination that is also c is read first.
func (t *translator) mad(in *dxbc.Instruction) error {
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
	tmp := t.newScratch()
	t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: shaderisa.R(tmp), Src: []shaderisa.Operand{s[0], s[1]}})
	t.emit(shaderisa.Inst{Op: shaderisa.OpIAdd, Dst: dst, Src: []shaderisa.Operand{shaderisa.R(tmp), s[2]}})
	return nil
}

// pair lowers a two-destination op (sincos, udiv) into two ISA ops. Both
// read the sources before either destination is written: the first
// result goes to a scratch temp and is moved last (so where both
// destinations name one component, which DXBC leaves unsaid, dst0's
// result stands; fxc never writes that).
func (t *translator) pair(in *dxbc.Instruction, op0, op1 shaderisa.Op) error {
	d0, ok0, err := t.dst(&in.Operands[0])
	if err != nil {
		return err
	}
	d1, ok1, err := t.dst(&in.Operands[1])
	if err != nil {
		return err
	}
	var srcs []shaderisa.Operand
	for i := 2; i < len(in.Operands); i++ {
		s, err := t.src(&in.Operands[i])
		if err != nil {
			return err
		}
		srcs = append(srcs, s)
	}
	sat := in.Saturate() && op0 == shaderisa.OpSin
	var tmp uint32
	if ok0 {
		tmp = t.newScratch()
		t.emit(shaderisa.Inst{Op: op0, Sat: sat, Dst: shaderisa.R(tmp), Src: srcs})
	}
	if ok1 {
		t.emit(shaderisa.Inst{Op: op1, Sat: sat, Dst: d1, Src: srcs})
	}
	if ok0 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d0, Src: []shaderisa.Operand{shaderisa.R(tmp)}})
	}
	return nil
}

// swapc lowers dst0 = c ? b : a, dst1 = c ? a : b (per component).
func (t *translator) swapc(in *dxbc.Instruction) error {
	d0, ok0, err := t.dst(&in.Operands[0])
	if err != nil {
		return err
	}
	d1, ok1, err := t.dst(&in.Operands[1])
	if err != nil {
		return err
	}
	var s [3]shaderisa.Operand
	for i := range s {
		if s[i], err = t.src(&in.Operands[2+i]); err != nil {
			return err
		}
	}
	var tmp uint32
	if ok0 {
		tmp = t.newScratch()
		t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: shaderisa.R(tmp), Src: []shaderisa.Operand{s[0], s[2], s[1]}})
	}
	if ok1 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMovc, Dst: d1, Src: []shaderisa.Operand{s[0], s[1], s[2]}})
	}
	if ok0 {
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: d0, Src: []shaderisa.Operand{shaderisa.R(tmp)}})
	}
	return nil
}

// Open blocks, innermost last.
const (
	blockIf     = 'i'
	blockLoop   = 'l'
	blockSwitch = 's'
)

// flow translates if/else/loop/break/continue/ret/discard. The ISA tests
// the first component of its condition, as SM4's select-one operand does.
func (t *translator) flow(in *dxbc.Instruction, op shaderisa.Op) error {
	if op == shaderisa.OpDiscard && t.out.Stage != shaderisa.StagePixel {
		return t.fail("discard in a vertex shader")
	}
	x := shaderisa.Inst{Op: op}
	top := byte(0)
	if len(t.blocks) > 0 {
		top = t.blocks[len(t.blocks)-1]
	}
	switch op {
	case shaderisa.OpIf:
		t.blocks = append(t.blocks, blockIf)
	case shaderisa.OpLoop:
		t.blocks = append(t.blocks, blockLoop)
	case shaderisa.OpElse, shaderisa.OpEndIf:
		if top != blockIf {
			return t.fail("%s without its if", in.Op)
		}
		if op == shaderisa.OpEndIf {
			t.blocks = t.blocks[:len(t.blocks)-1]
		}
	case shaderisa.OpEndLoop:
		if top != blockLoop {
			return t.fail("endloop without its loop")
		}
		t.blocks = t.blocks[:len(t.blocks)-1]
	case shaderisa.OpContinue, shaderisa.OpContinuec:
		for k := len(t.blocks) - 1; k >= 0; k-- {
			if t.blocks[k] == blockLoop {
				break
			}
			if t.blocks[k] == blockSwitch {
				return t.continueInSwitch(in)
			}
		}
	}
	if len(in.Operands) == 1 {
		x.NZ = in.Test() == dxbc.TestNonZero
		if in.Operands[0].Modifier != dxbc.ModNone {
			return t.fail("a condition with a source modifier")
		}
		s, err := t.src(&in.Operands[0])
		if err != nil {
			return err
		}
		x.Src = []shaderisa.Operand{s}
	}
	t.emit(x)
	return nil
}
