package hlsl

// Copy coalescing: `mov r1.w, r0.wwww` where r0 and r1 never hold
// different values in a component at once (no write of one while the
// other's same component is alive, copies between them aside) makes r0
// and r1 one register, and the mov, now of a register to itself, goes.
// fxc's `mul r0.xyz, r0.xyzx, cb0[0].wwww` then `mul o0, r0, v2` instead
// of building the vector in a second register. Interference is read from
// the liveness of the components after each write (opt_dce.go).

// maxCoalesceWork bounds the pass: the words of the live sets it keeps
// and the writes and lanes it compares. Past it, no more merging.
const maxCoalesceWork = 1 << 20

// coalesce merges the temps of copies that do not interfere; it reports
// whether it merged any.
func coalesce(code []Instr, temps int) ([]Instr, bool) {
	if len(code) == 0 || temps == 0 {
		return code, false
	}
	f := buildFlow(code)
	words := (4*temps + 63) / 64
	if len(f.start)*words > maxLiveWork {
		return code, false
	}
	out := liveOut(code, f, words)
	// A write: the instruction, the register and components written, and
	// the components live just after it.
	type write struct {
		instr, reg int
		mask       uint8
		live       liveSet
	}
	var writes []write
	byReg := make([][]int, temps)
	cur := make(liveSet, words)
	work := 0
	for b := range f.start {
		copy(cur, out[b])
		for i := f.end[b] - 1; i >= f.start[b]; i-- {
			x := &code[i]
			for _, d := range x.Dst {
				if d.File == FileTemp && d.Index >= 0 && d.Index < temps {
					byReg[d.Index] = append(byReg[d.Index], len(writes))
					writes = append(writes, write{i, d.Index, d.Mask, append(liveSet(nil), cur...)})
					work += words
				}
			}
			x.liveStep(cur)
		}
		if work > maxCoalesceWork {
			return code, false
		}
	}
	// The registers merged so far: union-find, and each class's members.
	parent := make([]int, temps)
	members := make([][]int, temps)
	for r := range parent {
		parent[r] = r
		members[r] = []int{r}
	}
	find := func(r int) int {
		for parent[r] != r {
			parent[r] = parent[parent[r]]
			r = parent[r]
		}
		return r
	}
	// isCopy reports a mov of register class a's component c from class
	// b's same component.
	isCopy := func(i, a, b int) bool {
		x := &code[i]
		if x.Op != OpMov || x.Sat || len(x.Dst) != 1 {
			return false
		}
		s := x.Src[0]
		if s.File != FileTemp || s.Neg || s.Abs || s.Rel != nil || find(s.Index) != b || find(x.Dst[0].Index) != a {
			return false
		}
		for c := 0; c < 4; c++ {
			if x.Dst[0].Mask&(1<<c) != 0 && int(s.Swz[c]&3) != c {
				return false
			}
		}
		return true
	}
	// clash reports a write of class a while a component of class b that
	// it writes is alive (and not as its copy).
	work = 0 // the writes and lanes clash looks at
	clash := func(a, b int) bool {
		for _, r := range members[a] {
			work += len(byReg[r]) * (1 + len(members[b]))
			if work > maxCoalesceWork {
				return true // out of budget: no more merging
			}
			for _, w := range byReg[r] {
				wr := &writes[w]
				if isCopy(wr.instr, a, b) {
					continue
				}
				for _, o := range code[wr.instr].Dst {
					if o.File == FileTemp && find(o.Index) == b && o.Index != r {
						return true // one instruction writes both
					}
				}
				for _, q := range members[b] {
					for c := 0; c < 4; c++ {
						if wr.mask&(1<<c) != 0 && wr.live.has(q, c) {
							return true
						}
					}
				}
			}
		}
		return false
	}
	merged := false
	for i := range code {
		x := &code[i]
		if x.Op != OpMov || x.Sat || len(x.Dst) != 1 || x.Dst[0].File != FileTemp {
			continue
		}
		s := x.Src[0]
		if s.File != FileTemp || s.Neg || s.Abs || s.Rel != nil {
			continue
		}
		a, b := find(x.Dst[0].Index), find(s.Index)
		if a == b || !isCopy(i, a, b) {
			continue
		}
		if work > maxCoalesceWork {
			break
		}
		if clash(a, b) || clash(b, a) {
			continue
		}
		parent[b] = a
		members[a] = append(members[a], members[b]...)
		members[b] = nil
		merged = true
	}
	if !merged {
		return code, false
	}
	rename := func(o *Operand) {
		if o.File == FileTemp && o.Index >= 0 && o.Index < temps {
			o.Index = find(o.Index)
		}
		if o.Rel != nil && o.Rel.File == FileTemp && o.Rel.Index < temps {
			rel := *o.Rel
			rel.Index = find(rel.Index)
			o.Rel = &rel
		}
	}
	kept := code[:0]
	for i := range code {
		x := code[i]
		for k := range x.Src {
			rename(&x.Src[k])
		}
		for k := range x.Dst {
			rename(&x.Dst[k])
		}
		if x.Op == OpMov && !x.Sat && len(x.Dst) == 1 && x.Dst[0].File == FileTemp && x.Src[0].File == FileTemp &&
			x.Src[0].Index == x.Dst[0].Index && !x.Src[0].Neg && !x.Src[0].Abs && x.Src[0].Rel == nil && identitySwz(x.Src[0], x.Dst[0].Mask) {
			continue // a register copied to itself
		}
		kept = append(kept, x)
	}
	return kept, true
}

// identitySwz reports whether s reads lane c into lane c for the lanes of
// mask.
func identitySwz(s Operand, mask uint8) bool {
	for c := 0; c < 4; c++ {
		if mask&(1<<c) != 0 && int(s.Swz[c]&3) != c {
			return false
		}
	}
	return true
}
