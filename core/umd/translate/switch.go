package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// The ISA has no switch; it is lowered to a loop run once, so that a
// break in a case leaves the switch as it does in SM4:
//
//	mov   sel.x, <selector>          ; three temps per switch nesting level,
//	mov   any.x, 0                   ; above the shader's own r#
//	ieq/or any.x per label           ; any label matched (for default)
//	mov   fall.x, 0
//	loop
//	  ieq t.x, sel.x, l(c); or fall.x, fall.x, t.x   ; per case label
//	  if_nz fall.x  <body>  endif    ; a body that ends without break
//	  ...                            ; leaves fall set: it falls through
//	  not t.x, any.x; or fall.x, fall.x, t.x; if_nz fall.x ... endif ; default
//	  break
//	endloop
//
// Consecutive labels give an empty if between them, which falls through
// as SM4's shared case bodies do. A continue inside the switch (for the
// loop around it) would restart the wrapper loop instead: it sets a fourth
// temp, cont, and breaks; after the wrapper's endloop, continuec_nz cont
// continues the loop (or, the switch inside another, passes cont on and
// breaks that one too).

// switchTemps is the number of temps one switch level keeps; a program
// with a continue inside a switch keeps one more, cont.
const switchTemps = 3

// contInSwitch reports whether a continue or continuec of p has a switch
// as its innermost loop or switch.
func contInSwitch(p *dxbc.Program) bool {
	var open []dxbc.Opcode
	for i := range p.Instructions {
		switch op := p.Instructions[i].Op; op {
		case dxbc.OpLoop, dxbc.OpSwitch:
			open = append(open, op)
		case dxbc.OpEndloop, dxbc.OpEndswitch:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case dxbc.OpContinue, dxbc.OpContinuec:
			if len(open) > 0 && open[len(open)-1] == dxbc.OpSwitch {
				return true
			}
		}
	}
	return false
}

// maxSwitchDepth is the deepest switch nesting in the program.
func maxSwitchDepth(p *dxbc.Program) int {
	depth, most := 0, 0
	for i := range p.Instructions {
		switch p.Instructions[i].Op {
		case dxbc.OpSwitch:
			depth++
			most = max(most, depth)
		case dxbc.OpEndswitch:
			depth--
		}
	}
	return most
}

// switchLevel is one open switch.
type switchLevel struct {
	sel, any, fall, cont uint32
	open                 bool // a case group's if is open
	contUsed             bool // a continue inside set cont
}

// swTemp is temp k of switch level d.
func (t *translator) swTemp(d, k int) uint32 { return t.fixed + uint32(t.swTemps*d+k) }

// labels are the case values of the switch at instruction i (at its own
// nesting level) and whether it has a default.
func (t *translator) labels(i int) (vals []uint32, hasDefault bool, err error) {
	depth := 0
	for k := i + 1; k < len(t.prog.Instructions); k++ {
		in := &t.prog.Instructions[k]
		switch in.Op {
		case dxbc.OpSwitch:
			depth++
		case dxbc.OpEndswitch:
			if depth == 0 {
				return vals, hasDefault, nil
			}
			depth--
		case dxbc.OpCase:
			if depth == 0 {
				if len(in.Operands) != 1 || in.Operands[0].Type != dxbc.RegImmediate32 || len(in.Operands[0].Imm) == 0 {
					return nil, false, t.fail("a case label that is not a literal")
				}
				vals = append(vals, in.Operands[0].Imm[0])
			}
		case dxbc.OpDefault:
			if depth == 0 {
				hasDefault = true
			}
		}
	}
	return nil, false, t.fail("switch without endswitch")
}

// passContinue continues the innermost loop around for the lanes whose
// cond is set: directly when a loop is the innermost loop or switch, else
// through the enclosing switch's cont and a break out of it.
func (t *translator) passContinue(cond shaderisa.Operand) {
	for k := len(t.blocks) - 1; k >= 0; k-- {
		switch t.blocks[k] {
		case blockLoop:
			t.emit(shaderisa.Inst{Op: shaderisa.OpContinuec, NZ: true, Src: []shaderisa.Operand{cond}})
			return
		case blockSwitch:
			lv := &t.switches[len(t.switches)-1]
			lv.contUsed = true
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: shaderisa.R(lv.cont).WithMask("x"), Src: []shaderisa.Operand{cond}})
			t.emit(shaderisa.Inst{Op: shaderisa.OpBreakc, NZ: true, Src: []shaderisa.Operand{shaderisa.R(lv.cont).WithSwizzle("x")}})
			return
		}
	}
}

func (t *translator) switchOp(in *dxbc.Instruction) error {
	switch in.Op {
	case dxbc.OpSwitch:
		if len(in.Operands) != 1 || in.Operands[0].Modifier != dxbc.ModNone {
			return t.fail("a switch selector with a source modifier")
		}
		s, err := t.src(&in.Operands[0])
		if err != nil {
			return err
		}
		vals, hasDefault, err := t.labels(t.cur)
		if err != nil {
			return err
		}
		d := len(t.switches)
		lv := switchLevel{sel: t.swTemp(d, 0), any: t.swTemp(d, 1), fall: t.swTemp(d, 2)}
		if t.swTemps > switchTemps {
			lv.cont = t.swTemp(d, 3)
		}
		x := func(r uint32) shaderisa.Operand { return shaderisa.R(r).WithMask("x") }
		sx := func(r uint32) shaderisa.Operand { return shaderisa.R(r).WithSwizzle("x") }
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: x(lv.sel), Src: []shaderisa.Operand{s}})
		if hasDefault {
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: x(lv.any), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
			tmp := t.newScratch()
			for _, v := range vals {
				t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: x(tmp), Src: []shaderisa.Operand{sx(lv.sel), shaderisa.L(v, v, v, v)}})
				t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: x(lv.any), Src: []shaderisa.Operand{sx(lv.any), sx(tmp)}})
			}
		}
		t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: x(lv.fall), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
		if t.swTemps > switchTemps {
			t.emit(shaderisa.Inst{Op: shaderisa.OpMov, Dst: x(lv.cont), Src: []shaderisa.Operand{shaderisa.L(0, 0, 0, 0)}})
		}
		t.emit(shaderisa.Inst{Op: shaderisa.OpLoop})
		t.switches = append(t.switches, lv)
		t.blocks = append(t.blocks, blockSwitch)
		return nil
	}
	if len(t.blocks) == 0 || t.blocks[len(t.blocks)-1] != blockSwitch {
		return t.fail("%s outside a switch (or inside an if or loop of a case)", in.Op)
	}
	lv := &t.switches[len(t.switches)-1]
	x := func(r uint32) shaderisa.Operand { return shaderisa.R(r).WithMask("x") }
	sx := func(r uint32) shaderisa.Operand { return shaderisa.R(r).WithSwizzle("x") }
	if lv.open {
		t.emit(shaderisa.Inst{Op: shaderisa.OpEndIf})
		lv.open = false
	}
	switch in.Op {
	case dxbc.OpCase:
		if len(in.Operands) != 1 || len(in.Operands[0].Imm) == 0 {
			return t.fail("a case label that is not a literal")
		}
		v := in.Operands[0].Imm[0]
		tmp := t.newScratch()
		t.emit(shaderisa.Inst{Op: shaderisa.OpIEq, Dst: x(tmp), Src: []shaderisa.Operand{sx(lv.sel), shaderisa.L(v, v, v, v)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: x(lv.fall), Src: []shaderisa.Operand{sx(lv.fall), sx(tmp)}})
	case dxbc.OpDefault:
		tmp := t.newScratch()
		t.emit(shaderisa.Inst{Op: shaderisa.OpNot, Dst: x(tmp), Src: []shaderisa.Operand{sx(lv.any)}})
		t.emit(shaderisa.Inst{Op: shaderisa.OpOr, Dst: x(lv.fall), Src: []shaderisa.Operand{sx(lv.fall), sx(tmp)}})
	case dxbc.OpEndswitch:
		t.emit(shaderisa.Inst{Op: shaderisa.OpBreak})
		t.emit(shaderisa.Inst{Op: shaderisa.OpEndLoop})
		done := *lv
		t.switches = t.switches[:len(t.switches)-1]
		t.blocks = t.blocks[:len(t.blocks)-1]
		if done.contUsed {
			// The lanes that continued: on to the loop around the switch.
			t.passContinue(sx(done.cont))
		}
		return nil
	}
	t.emit(shaderisa.Inst{Op: shaderisa.OpIf, NZ: true, Src: []shaderisa.Operand{sx(lv.fall)}})
	lv.open = true
	return nil
}
