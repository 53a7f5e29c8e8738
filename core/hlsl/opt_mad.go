package hlsl

// Multiply-add: `mul r1.xy, a, b` then `add r2.xy, r1.xyxx, c` is
// `mad r2.xy, a, b, c` when nothing else reads r1 and a and b still hold
// their values at the add (the mul then dies). As fxc fuses them; the
// result is the same, D3D's mad rounding the product as mul does (the
// evaluator computes it so). A negated product (`add d, c, -r1`) negates
// a; an absolute value of it, or a saturated mul, stays as it is.

// fuseMad turns mul-add pairs inside a basic block into mads; it reports
// whether it fused any.
func fuseMad(code []Instr, temps int) ([]Instr, bool) {
	reads := make([]int, temps)
	for i := range code {
		code[i].reads(func(r, c int) {
			if r >= 0 && r < temps {
				reads[r]++
			}
		})
	}
	f := buildFlow(code)
	changed := false
	for i := range code {
		add := &code[i]
		if add.Op != OpAdd || len(add.Dst) != 1 {
			continue
		}
		for k := 0; k < 2; k++ {
			t := add.Src[k]
			if t.File != FileTemp || t.Abs || t.Rel != nil || t.Index < 0 || t.Index >= temps ||
				reads[t.Index] != bitsSet(add.Dst[0].Mask) {
				continue
			}
			j := -1
			for q := i - 1; q >= f.start[f.block[i]]; q-- {
				if writesTemp(&code[q], t.Index) {
					j = q
					break
				}
			}
			if j < 0 {
				continue
			}
			mul := &code[j]
			if mul.Op != OpMul || mul.Sat || len(mul.Dst) != 1 || mul.Dst[0].File != FileTemp {
				continue
			}
			// Every lane the add reads comes from the mul.
			ok := true
			for c := 0; c < 4; c++ {
				if add.Dst[0].Mask&(1<<c) != 0 && mul.Dst[0].Mask&(1<<(t.Swz[c]&3)) == 0 {
					ok = false
				}
			}
			if !ok || writtenBetween(code, j, i, mul.Src) {
				continue
			}
			var a, b Operand = mul.Src[0], mul.Src[1]
			for c := 0; c < 4; c++ {
				a.Swz[c], a.Imm[c] = mul.Src[0].Swz[t.Swz[c]&3], mul.Src[0].Imm[t.Swz[c]&3]
				b.Swz[c], b.Imm[c] = mul.Src[1].Swz[t.Swz[c]&3], mul.Src[1].Imm[t.Swz[c]&3]
			}
			if t.Neg {
				a.Neg = !a.Neg
			}
			add.Op = OpMad
			add.Src = []Operand{a, b, add.Src[1-k]}
			reads[t.Index] = -1
			changed = true
			break
		}
	}
	if !changed {
		return code, false
	}
	code, _ = deadCode(code, temps)
	return code, true
}

// writtenBetween reports whether an instruction after j and before i
// writes a register one of srcs reads (or its relative index).
func writtenBetween(code []Instr, j, i int, srcs []Operand) bool {
	for q := j + 1; q < i; q++ {
		for _, d := range code[q].Dst {
			for _, s := range srcs {
				if s.File == d.File && s.Index == d.Index && s.File != FileImm ||
					s.Rel != nil && d.File == s.Rel.File && d.Index == s.Rel.Index {
					return true
				}
			}
		}
	}
	return false
}
