package hlsl

// Conditions: `not r2.x, r1.x` then `if_nz r2.x` is `if_z r1.x` when
// r1.x is a comparison's result (0 or all ones, so ~x is non-zero exactly
// when x is zero); the same for breakc, discard and a movc's selector (its
// two values swapped). The not then dies, as fxc never emits it.

// compareOp reports an operation whose result lanes are 0 or 0xffffffff.
func compareOp(o Op) bool {
	switch o {
	case OpEq, OpNe, OpLt, OpGe, OpIeq, OpIne, OpIlt, OpIge, OpUlt, OpUge:
		return true
	}
	return false
}

// invertConds reads conditions through a not of a comparison; it reports
// whether it changed any.
func invertConds(code []Instr) ([]Instr, bool) {
	changed := false
	for i := range code {
		x := &code[i]
		var k int
		switch x.Op {
		case OpIf, OpBreakc, OpDiscard:
			k = 0
		case OpMovc:
			k = 0
		default:
			continue
		}
		s := x.Src[k]
		if s.File != FileTemp || s.Neg || s.Abs || s.Rel != nil {
			continue
		}
		lanes := x.readLanes(k)
		// Every lane read must come from one not of a comparison in this
		// block.
		not := defIn(code, i, s.Index, lanes, s.Swz)
		if not < 0 || code[not].Op != OpNot || code[not].Src[0].File != FileTemp || code[not].Src[0].Neg || code[not].Src[0].Abs || code[not].Src[0].Rel != nil {
			continue
		}
		inner := code[not].Src[0]
		// The not's source, as this instruction reads it.
		var swz [4]uint8
		var comps uint8
		for c := 0; c < 4; c++ {
			swz[c] = inner.Swz[s.Swz[c]&3]
			if lanes&(1<<c) != 0 {
				comps |= 1 << (swz[c] & 3)
			}
		}
		cmp := defIn(code, not, inner.Index, comps, [4]uint8{0, 1, 2, 3})
		if cmp < 0 || !compareOp(code[cmp].Op) || writtenBetween(code, not, i, []Operand{inner}) {
			continue
		}
		n := inner
		n.Swz = swz
		x.Src[k] = n
		if x.Op == OpMovc {
			x.Src[1], x.Src[2] = x.Src[2], x.Src[1]
		} else if x.Test == TestZ {
			x.Test = TestNZ
		} else {
			x.Test = TestZ
		}
		changed = true
	}
	return code, changed
}

// controlOp reports the instructions that end a straight run of code.
func controlOp(o Op) bool {
	switch o {
	case OpIf, OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue, OpRet, OpSwitch, OpCase,
		OpDefault, OpEndswitch, OpDiscard, OpEmit, OpCut:
		return true
	}
	return false
}

// defIn is the instruction before i in its straight run of code that last wrote all the
// components of temp r read through swz in lanes, or -1 (none, or not
// one instruction).
func defIn(code []Instr, i, r int, lanes uint8, swz [4]uint8) int {
	var comps uint8
	for c := 0; c < 4; c++ {
		if lanes&(1<<c) != 0 {
			comps |= 1 << (swz[c] & 3)
		}
	}
	for j := i - 1; j >= 0 && !controlOp(code[j].Op); j-- {
		for _, d := range code[j].Dst {
			if d.File == FileTemp && d.Index == r && d.Mask&comps != 0 {
				if d.Mask&comps != comps || len(code[j].Dst) != 1 {
					return -1
				}
				return j
			}
		}
	}
	return -1
}
