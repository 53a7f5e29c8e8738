package hlsl

// Movs merged: `mov r0.x, l(1.0)` then `mov r0.yzw, l(0, 1.0, 1.0)`
// is `mov r0.xyzw, l(1.0, 0, 1.0, 1.0)`, and `mov r1.x, r2.y` then
// `mov r1.z, r2.w` is `mov r1.xz, r2.yxwy`: two movs in a row into one
// register, lanes apart, from immediates or from one register (which
// is not the one written), become one.

// mergeMovs merges the movs it can; it reports whether it merged any.
func mergeMovs(code []Instr) ([]Instr, bool) {
	changed := false
	kept := code[:0]
	for i := range code {
		x := code[i]
		if n := len(kept); n > 0 && canMergeMovs(&kept[n-1], &x) {
			a := &kept[n-1]
			m := x.Dst[0].Mask
			for c := 0; c < 4; c++ {
				if m&(1<<c) != 0 {
					a.Src[0].Swz[c] = x.Src[0].Swz[c]
					a.Src[0].Imm[c] = x.Src[0].Imm[c]
				}
			}
			a.Src[0].Float = a.Src[0].Float || x.Src[0].Float
			a.Dst[0].Mask |= m
			changed = true
			continue
		}
		kept = append(kept, x)
	}
	return kept, changed
}

func canMergeMovs(a, b *Instr) bool {
	if a.Op != OpMov || b.Op != OpMov || a.Sat != b.Sat || len(a.Dst) != 1 || len(b.Dst) != 1 {
		return false
	}
	da, db := a.Dst[0], b.Dst[0]
	if da.File != db.File || da.Index != db.Index || da.File == FileNull || da.Rel != nil || db.Rel != nil ||
		da.File == FileIndexable || da.Mask&db.Mask != 0 {
		return false
	}
	sa, sb := a.Src[0], b.Src[0]
	if sa.File != sb.File || sa.Neg != sb.Neg || sa.Abs != sb.Abs {
		return false
	}
	if sa.File == FileImm {
		return true
	}
	if sa.Index != sb.Index || sa.Elem != sb.Elem || sa.Rel != nil || sb.Rel != nil {
		return false
	}
	// b must not read what a wrote.
	return !(sa.File == da.File && sa.Index == da.Index)
}
