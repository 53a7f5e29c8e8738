package hlsl

// Webs: code generation reuses a temp for values that have nothing to do
// with each other (an expression's scratch register, a variable assigned
// in two places). splitWebs gives every web its own register: the writes
// of a temp that reach a common read, with the reads they reach (reaching
// definitions per component over the control flow). A read of several
// components joins the writes of all of them (`mov r1.xyz, a` then
// `mov r1.w, b` then a read of r1.xyzw stay one register). Components
// keep their places, so no swizzle changes. The passes after it can then
// count a register's reads to know a value's reads.

// splitWebs renames the temps of code into webs; it returns the code and
// the temps it now uses (renumberTemps packs them again at the end).
func splitWebs(code []Instr, temps int) ([]Instr, int) {
	if len(code) == 0 || temps == 0 {
		return code, temps
	}
	// Definition sites: one per temp destination of an instruction.
	type site struct{ instr, dst int }
	var sites []site
	siteOf := make([][2]int, len(code)) // instruction -> first site, count
	byComp := make([][]int, 4*temps)    // temp component -> sites writing it
	for i := range code {
		siteOf[i][0] = len(sites)
		for k, d := range code[i].Dst {
			if d.File != FileTemp || d.Index < 0 || d.Index >= temps {
				continue
			}
			for c := 0; c < 4; c++ {
				if d.Mask&(1<<c) != 0 {
					byComp[4*d.Index+c] = append(byComp[4*d.Index+c], len(sites))
				}
			}
			sites = append(sites, site{i, k})
		}
		siteOf[i][1] = len(sites) - siteOf[i][0]
	}
	if len(sites) == 0 {
		return code, temps
	}
	f := buildFlow(code)
	// A definition bit per site and component: 4*site+c.
	words := (4*len(sites) + 63) / 64
	if len(f.start)*words > maxLiveWork {
		return code, temps
	}
	type bits []uint64
	has := func(s bits, k int) bool { return s[k>>6]&(1<<(k&63)) != 0 }
	set := func(s bits, k int) { s[k>>6] |= 1 << (k & 63) }
	clr := func(s bits, k int) { s[k>>6] &^= 1 << (k & 63) }
	// step applies instruction i's writes to the reaching set cur.
	step := func(cur bits, i int) {
		for n := 0; n < siteOf[i][1]; n++ {
			s := siteOf[i][0] + n
			d := code[i].Dst[sites[s].dst]
			for c := 0; c < 4; c++ {
				if d.Mask&(1<<c) == 0 {
					continue
				}
				for _, o := range byComp[4*d.Index+c] {
					clr(cur, 4*o+c)
				}
				set(cur, 4*s+c)
			}
		}
	}
	preds := make([][]int, len(f.start))
	for b, ss := range f.succ {
		for _, s := range ss {
			preds[s] = append(preds[s], b)
		}
	}
	in := make([]bits, len(f.start))
	out := make([]bits, len(f.start))
	for b := range in {
		in[b], out[b] = make(bits, words), make(bits, words)
	}
	cur := make(bits, words)
	for changed := true; changed; {
		changed = false
		for b := range f.start {
			for _, p := range preds[b] {
				for w := range in[b] {
					in[b][w] |= out[p][w]
				}
			}
			copy(cur, in[b])
			for i := f.start[b]; i < f.end[b]; i++ {
				step(cur, i)
			}
			for w := range cur {
				if cur[w] != out[b][w] {
					out[b][w] = cur[w]
					changed = true
				}
			}
		}
	}
	// Union-find over the sites: a read joins the writes reaching it.
	parent := make([]int, len(sites))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	// use records a read: the sites reaching the components of temp r in
	// lanes (a component mask), joined; it returns one of them or -1.
	type use struct {
		instr int
		src   int  // source operand, or -1 - dst for a destination's index
		rel   bool // the operand's relative index, not the operand
	}
	reached := map[use]int{}
	join := func(cur bits, r int, comps uint8, u use) {
		first := -1
		for c := 0; c < 4; c++ {
			if comps&(1<<c) == 0 {
				continue
			}
			for _, s := range byComp[4*r+c] {
				if has(cur, 4*s+c) {
					if first < 0 {
						first = s
					} else if a, b := find(first), find(s); a != b {
						parent[a] = b
					}
				}
			}
		}
		reached[u] = first
	}
	for b := range f.start {
		copy(cur, in[b])
		for i := f.start[b]; i < f.end[b]; i++ {
			x := &code[i]
			for k, s := range x.Src {
				if s.Rel != nil && s.Rel.File == FileTemp && s.Rel.Index < temps {
					join(cur, s.Rel.Index, 1<<(s.Rel.Swz[0]&3), use{i, k, true})
				}
				if s.File != FileTemp || s.Index >= temps {
					continue
				}
				lanes := x.readLanes(k)
				var comps uint8
				for l := 0; l < 4; l++ {
					if lanes&(1<<l) != 0 {
						comps |= 1 << (s.Swz[l] & 3)
					}
				}
				join(cur, s.Index, comps, use{i, k, false})
			}
			for k, d := range x.Dst {
				if d.Rel != nil && d.Rel.File == FileTemp && d.Rel.Index < temps {
					join(cur, d.Rel.Index, 1<<(d.Rel.Swz[0]&3), use{i, -1 - k, true})
				}
			}
			step(cur, i)
		}
	}
	// A register per web; reads nothing reaches keep a register of their
	// own per temp (undefined values stay apart from defined ones).
	reg := map[int]int{}
	n := 0
	regOf := func(s int) int {
		root := find(s)
		r, ok := reg[root]
		if !ok {
			r = n
			n++
			reg[root] = r
		}
		return r
	}
	undef := map[int]int{}
	regOfUse := func(u use, old int) int {
		if s := reached[u]; s >= 0 {
			return regOf(s)
		}
		r, ok := undef[old]
		if !ok {
			r = n
			n++
			undef[old] = r
		}
		return r
	}
	for s, st := range sites {
		code[st.instr].Dst[st.dst].Index = regOf(s)
	}
	for i := range code {
		x := &code[i]
		for k := range x.Src {
			s := &x.Src[k]
			if s.Rel != nil && s.Rel.File == FileTemp && s.Rel.Index < temps {
				rel := *s.Rel
				rel.Index = regOfUse(use{i, k, true}, rel.Index)
				s.Rel = &rel
			}
			if s.File == FileTemp && s.Index < temps {
				s.Index = regOfUse(use{i, k, false}, s.Index)
			}
		}
		for k := range x.Dst {
			d := &x.Dst[k]
			if d.Rel != nil && d.Rel.File == FileTemp && d.Rel.Index < temps {
				rel := *d.Rel
				rel.Index = regOfUse(use{i, -1 - k, true}, rel.Index)
				d.Rel = &rel
			}
		}
	}
	return code, n
}
