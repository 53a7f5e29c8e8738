package hlsl

// Common subexpressions, inside a basic block: an instruction that
// computes what an earlier one computed (same operation, same sources,
// which nothing wrote since, the earlier result still in its register)
// becomes a mov of that result, which copy propagation then reads
// through: the two `deriv_rtx r.xy, v1.xyxx` of an inlined function
// called twice, one `round_ni` of the same value. A lanewise instruction
// may reuse part of a wider one.

// cseWindow bounds how far back in its block an instruction looks.
const cseWindow = 64

// commonSubexprs replaces recomputations by movs; it reports whether it
// replaced any.
func commonSubexprs(code []Instr, temps int) ([]Instr, bool) {
	f := buildFlow(code)
	changed := false
	for i := range code {
		x := &code[i]
		if !cseCandidate(x) {
			continue
		}
		for j := i - 1; j >= f.start[f.block[i]] && j >= i-cseWindow; j-- {
			y := &code[j]
			if !cseCandidate(y) || !sameComputation(y, x) {
				continue
			}
			if writtenBetween(code, j, i, x.Src) || clobbered(code, j, i, y.Dst[0], x.Dst[0].Mask) {
				break
			}
			src := y.Dst[0]
			src.Mask = 0
			for c := 0; c < 4; c++ {
				src.Swz[c] = uint8(c)
			}
			if x.Op == OpDp2 || x.Op == OpDp3 || x.Op == OpDp4 {
				// One value in every lane.
				for c := 0; c < 4; c++ {
					src.Swz[c] = uint8(firstLane(y.Dst[0].Mask))
				}
			}
			*x = Instr{Op: OpMov, Dst: x.Dst, Src: []Operand{src}, Line: x.Line}
			changed = true
			break
		}
	}
	return code, changed
}

// cseCandidate is an instruction with one temp result and no other
// effect, which does not read what it writes.
func cseCandidate(x *Instr) bool {
	if len(x.Dst) != 1 || x.Dst[0].File != FileTemp || !x.removable() || x.Op == OpMov {
		return false
	}
	if !lanewise(x.Op) && !texOp(x.Op) {
		switch x.Op {
		case OpDp2, OpDp3, OpDp4, OpDerivRtx, OpDerivRty, OpDerivRtxCoarse, OpDerivRtxFine, OpDerivRtyCoarse,
			OpDerivRtyFine:
		default:
			return false
		}
	}
	for _, s := range x.Src {
		if s.File == FileTemp && s.Index == x.Dst[0].Index || s.Rel != nil && s.Rel.Index == x.Dst[0].Index {
			return false
		}
	}
	return true
}

// sameComputation reports whether x computes, in its lanes, what y
// computed in the same lanes.
func sameComputation(y, x *Instr) bool {
	if y.Op != x.Op || y.Sat != x.Sat || y.Test != x.Test || y.Uint != x.Uint || y.Offs != x.Offs ||
		y.HasOffs != x.HasOffs || y.Dim != x.Dim || len(y.Src) != len(x.Src) {
		return false
	}
	wide := perLane(x.Op)
	if wide {
		if x.Dst[0].Mask&^y.Dst[0].Mask != 0 {
			return false
		}
	} else if x.Dst[0].Mask != y.Dst[0].Mask {
		return false
	}
	for k := range x.Src {
		a, b := y.Src[k], x.Src[k]
		if a.File != b.File || a.Index != b.Index || a.Elem != b.Elem || a.Neg != b.Neg || a.Abs != b.Abs ||
			(a.Rel == nil) != (b.Rel == nil) || a.Rel != nil && (a.Rel.File != b.Rel.File || a.Rel.Index != b.Rel.Index || a.Rel.Swz[0] != b.Rel.Swz[0]) {
			return false
		}
		lanes := x.readLanes(k)
		if !wide {
			lanes = 0xf
		}
		for c := 0; c < 4; c++ {
			if lanes&(1<<c) == 0 {
				continue
			}
			if a.File == FileImm && a.Imm[c] != b.Imm[c] || a.File != FileImm && a.Swz[c]&3 != b.Swz[c]&3 {
				return false
			}
		}
	}
	return true
}

// perLane reports an operation whose lane c comes from its sources'
// lanes c alone: the lanewise ones and the derivatives.
func perLane(o Op) bool {
	switch o {
	case OpDerivRtx, OpDerivRty, OpDerivRtxCoarse, OpDerivRtxFine, OpDerivRtyCoarse, OpDerivRtyFine:
		return true
	}
	return lanewise(o)
}

// clobbered reports whether an instruction after j and before i writes a
// lane of mask of register d.
func clobbered(code []Instr, j, i int, d Operand, mask uint8) bool {
	for q := j + 1; q < i; q++ {
		for _, o := range code[q].Dst {
			if o.File == d.File && o.Index == d.Index && o.Mask&mask != 0 {
				return true
			}
		}
	}
	return false
}

func firstLane(m uint8) int {
	for c := 0; c < 4; c++ {
		if m&(1<<c) != 0 {
			return c
		}
	}
	return 0
}
