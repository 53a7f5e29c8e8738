package hlsl

import "slices"

// Movs merged: `mov r0.x, l(1.0)` then `mov r0.yzw, l(0, 1.0, 1.0)`
// is `mov r0.xyzw, l(1.0, 0, 1.0, 1.0)`, and `mov r1.x, r2.y` then
// `mov r1.z, r2.w` is `mov r1.xz, r2.yxwy`: two movs in a row into one
// register, lanes apart, from immediates or from one register (which
// is not the one written), become one. So do two of any instruction
// that computes lane by lane, each source of the two from one register
// or immediates: `mul o0.xyz, v1.xyzx, r0.xyzx` then `mul o0.w, v1.w,
// r0.w` is `mul o0.xyzw, v1.xyzw, r0.xyzw`, as fxc writes it.

// mergeMovs merges the instructions it can; it reports whether it
// merged any.
func mergeMovs(code []Instr) ([]Instr, bool) {
	changed := false
	kept := code[:0]
	for i := range code {
		x := code[i]
		if n := len(kept); n > 0 && canMergeMovs(&kept[n-1], &x) {
			a := &kept[n-1]
			m := x.Dst[0].Mask
			a.Src = slices.Clone(a.Src) // (a source slice may be shared with the code before the pass)
			for k := range a.Src {
				for c := 0; c < 4; c++ {
					if m&(1<<c) != 0 {
						a.Src[k].Swz[c] = x.Src[k].Swz[c]
						a.Src[k].Imm[c] = x.Src[k].Imm[c]
					}
				}
				a.Src[k].Float = a.Src[k].Float || x.Src[k].Float
			}
			a.Dst = slices.Clone(a.Dst)
			a.Dst[0].Mask |= m
			changed = true
			continue
		}
		kept = append(kept, x)
	}
	return kept, changed
}

func canMergeMovs(a, b *Instr) bool {
	if a.Op != b.Op || !lanewise(a.Op) || a.Sat != b.Sat || a.Test != b.Test || a.Uint != b.Uint ||
		len(a.Dst) != 1 || len(b.Dst) != 1 || len(a.Src) != len(b.Src) {
		return false
	}
	da, db := a.Dst[0], b.Dst[0]
	if da.File != db.File || da.Index != db.Index || da.File == FileNull || da.Rel != nil || db.Rel != nil ||
		da.File == FileIndexable || da.Mask&db.Mask != 0 {
		return false
	}
	for k := range a.Src {
		sa, sb := a.Src[k], b.Src[k]
		if sa.File != sb.File || sa.Neg != sb.Neg || sa.Abs != sb.Abs {
			return false
		}
		if sa.File == FileImm {
			continue
		}
		if sa.Index != sb.Index || sa.Elem != sb.Elem || sa.Rel != nil || sb.Rel != nil {
			return false
		}
		// b must not read what a wrote.
		if sa.File == da.File && sa.Index == da.Index {
			return false
		}
	}
	return true
}
