package hlsl

// Flattening: a short if (or if/else) whose branches only compute temps
// runs both branches and picks each result with movc, as fxc does for
// `if (v <= 0.04045) v = v / 12.92; else v = pow(...)`: the if, else and
// endif go, a movc per group of results comes. The branches' writes go to
// registers of their own (RX, RY), and after them `movc r.m, c, RX, RY`
// (or the old r for a lane only one branch writes). Only where it saves
// instructions: fewer movcs than the control flow it removes.

// maxFlatten bounds the instructions of both branches of an if flattened.
const maxFlatten = 12

// flatten flattens the short ifs it can; it reports whether it did.
func flatten(code []Instr, temps int) ([]Instr, int, bool) {
	if len(code) == 0 || temps == 0 {
		return code, temps, false
	}
	f := buildFlow(code)
	words := (4*temps + 63) / 64
	if len(f.start)*words > maxLiveWork {
		return code, temps, false
	}
	var live []liveSet // computed on the first candidate
	changed := false
	var out []Instr
	last := 0 // code[last:] not yet copied to out
	for i := 0; i < len(code); i++ {
		if code[i].Op != OpIf {
			continue
		}
		els, end := -1, -1
		ok := true
		for k := i + 1; k < len(code) && ok; k++ {
			x := &code[k]
			switch {
			case x.Op == OpElse && els < 0:
				els = k
			case x.Op == OpEndif:
				end = k
			case !x.removable():
				ok = false
			}
			if end >= 0 {
				break
			}
		}
		if !ok || end < 0 || end-i-1-b2i(els >= 0) > maxFlatten {
			continue
		}
		cond := code[i].Src[0]
		if cond.File == FileImm || cond.Rel != nil {
			continue
		}
		thenEnd, elseStart := end, end
		if els >= 0 {
			thenEnd, elseStart = els, els+1
		}
		if mixedReads(code[i+1:thenEnd]) || mixedReads(code[elseStart:end]) {
			continue
		}
		// Nothing in the branches may write the condition.
		if cond.File == FileTemp {
			clash := false
			for k := i + 1; k < end; k++ {
				if writesTemp(&code[k], cond.Index) {
					clash = true
				}
			}
			if clash {
				continue
			}
		}
		if live == nil {
			live = liveOut(code, f, words)
		}
		after := live[f.block[end]] // endif is a block of its own
		// The lanes each branch writes, of the registers alive after.
		wx := branchWrites(code[i+1 : thenEnd])
		wy := branchWrites(code[elseStart:end])
		type group struct {
			r        int
			mask     uint8
			inX, inY bool
		}
		var groups []group
		regs := map[int]bool{}
		for r := range wx {
			regs[r] = true
		}
		for r := range wy {
			regs[r] = true
		}
		order := make([]int, 0, len(regs))
		for r := range regs {
			order = append(order, r)
		}
		sortInts(order)
		for _, r := range order {
			var both, onlyX, onlyY uint8
			for c := 0; c < 4; c++ {
				if !after.has(r, c) {
					continue
				}
				x, y := wx[r]&(1<<c) != 0, wy[r]&(1<<c) != 0
				switch {
				case x && y:
					both |= 1 << c
				case x:
					onlyX |= 1 << c
				case y:
					onlyY |= 1 << c
				}
			}
			for _, g := range []group{{r, both, true, true}, {r, onlyX, true, false}, {r, onlyY, false, true}} {
				if g.mask != 0 {
					groups = append(groups, g)
				}
			}
		}
		controls := 2 + b2i(els >= 0)
		if len(groups) >= controls {
			continue
		}
		// Rename the branches' writes to fresh registers.
		rx := map[int]int{}
		ry := map[int]int{}
		for r := range wx {
			rx[r] = temps
			temps++
		}
		for r := range wy {
			ry[r] = temps
			temps++
		}
		out = append(out, code[last:i]...)
		line := code[i].Line
		out = append(out, renameBranch(code[i+1:thenEnd], rx)...)
		out = append(out, renameBranch(code[elseStart:end], ry)...)
		sel := cond
		for c := 0; c < 4; c++ {
			sel.Swz[c] = cond.Swz[0]
		}
		for _, g := range groups {
			a := Operand{File: FileTemp, Index: g.r, Swz: [4]uint8{0, 1, 2, 3}}
			b := a
			if g.inX {
				a.Index = rx[g.r]
			}
			if g.inY {
				b.Index = ry[g.r]
			}
			if code[i].Test == TestZ {
				a, b = b, a
			}
			out = append(out, Instr{Op: OpMovc, Dst: []Operand{{File: FileTemp, Index: g.r, Mask: g.mask}},
				Src: []Operand{sel, a, b}, Line: line})
		}
		last = end + 1
		i = end
		changed = true
	}
	if !changed {
		return code, temps, false
	}
	out = append(out, code[last:]...)
	return out, temps, true
}

// branchWrites is the lanes a straight run of instructions writes, per
// temp.
func branchWrites(body []Instr) map[int]uint8 {
	w := map[int]uint8{}
	for _, x := range body {
		for _, d := range x.Dst {
			if d.File == FileTemp {
				w[d.Index] |= d.Mask
			}
		}
	}
	return w
}

// mixedReads reports a read, in a straight run of instructions, of lanes
// of a temp some of which it wrote before and some not (renameBranch
// cannot give it one register).
func mixedReads(body []Instr) bool {
	written := map[int]uint8{}
	for _, x := range body {
		for k, s := range x.Src {
			if s.Rel != nil && s.Rel.File == FileTemp && written[s.Rel.Index] != 0 && written[s.Rel.Index]&(1<<(s.Rel.Swz[0]&3)) == 0 {
				return true
			}
			if s.File != FileTemp {
				continue
			}
			var comps uint8
			lanes := x.readLanes(k)
			for c := 0; c < 4; c++ {
				if lanes&(1<<c) != 0 {
					comps |= 1 << (s.Swz[c] & 3)
				}
			}
			if w := comps & written[s.Index]; w != 0 && w != comps {
				return true
			}
		}
		for _, d := range x.Dst {
			if d.File == FileTemp {
				written[d.Index] |= d.Mask
			}
		}
	}
	return false
}

// renameBranch copies body with its writes of temp r going to to[r], and
// its reads of a lane it wrote reading to[r] (a read of a lane it did
// not write yet reads r).
func renameBranch(body []Instr, to map[int]int) []Instr {
	written := map[int]uint8{}
	out := make([]Instr, len(body))
	for n, x := range body {
		y := x
		y.Src = append([]Operand(nil), x.Src...)
		y.Dst = append([]Operand(nil), x.Dst...)
		for k := range y.Src {
			s := &y.Src[k]
			if s.Rel != nil && s.Rel.File == FileTemp && written[s.Rel.Index]&(1<<(s.Rel.Swz[0]&3)) != 0 {
				rel := *s.Rel
				rel.Index = to[rel.Index]
				s.Rel = &rel
			}
			if s.File != FileTemp || written[s.Index] == 0 {
				continue
			}
			var comps uint8
			lanes := x.readLanes(k)
			for c := 0; c < 4; c++ {
				if lanes&(1<<c) != 0 {
					comps |= 1 << (s.Swz[c] & 3)
				}
			}
			if comps&written[s.Index] == comps {
				s.Index = to[s.Index]
			}
		}
		for k := range y.Dst {
			d := &y.Dst[k]
			if d.File == FileTemp {
				written[d.Index] |= d.Mask
				d.Index = to[d.Index]
			}
		}
		out[n] = y
	}
	return out
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
