package hlsl

// Discards folded into their condition: `if (c) discard;` is generated as
// `if_nz r0.x` / `discard_nz l(-1)` / `endif`; it is `discard_nz r0.x`, as
// fxc writes it (the condition a register, which every reader takes).

// foldDiscards rewrites each if whose only instruction is an unconditional
// discard into a discard on the if's condition.
func foldDiscards(code []Instr) ([]Instr, bool) {
	changed := false
	out := code[:0]
	for i := 0; i < len(code); i++ {
		x := code[i]
		if x.Op == OpIf && i+2 < len(code) && code[i+1].Op == OpDiscard && code[i+2].Op == OpEndif && alwaysTrue(&code[i+1]) {
			out = append(out, Instr{Op: OpDiscard, Test: x.Test, Src: x.Src, Line: code[i+1].Line})
			i += 2
			changed = true
			continue
		}
		out = append(out, x)
	}
	return out, changed
}

// alwaysTrue reports a discard whose condition is an immediate that
// always discards.
func alwaysTrue(x *Instr) bool {
	s := x.Src[0]
	if s.File != FileImm {
		return false
	}
	return (s.Imm[0] != 0) == (x.Test == TestNZ)
}
