package hlsl

// Temps renumbered: two temps whose live ranges (from the first write to
// the last read, in program order, a loop's whole body when it is read
// in the loop) never overlap share a register; the program then declares
// fewer (dcl_temps). The ranges are per register, not per component.

func renumberTemps(code []Instr, temps int) ([]Instr, int) {
	if temps == 0 {
		return code, 0
	}
	first := make([]int, temps)
	last := make([]int, temps)
	for i := range first {
		first[i] = -1
	}
	touch := func(r, at int) {
		if r < 0 || r >= temps {
			return
		}
		if first[r] < 0 || at < first[r] {
			first[r] = at
		}
		if at > last[r] {
			last[r] = at
		}
	}
	for i := range code {
		in := &code[i]
		for _, s := range in.Src {
			if s.File == FileTemp {
				touch(s.Index, i)
			}
			if s.Rel != nil && s.Rel.File == FileTemp {
				touch(s.Rel.Index, i)
			}
		}
		for _, d := range in.Dst {
			if d.File == FileTemp {
				touch(d.Index, i)
			}
			if d.Rel != nil && d.Rel.File == FileTemp {
				touch(d.Rel.Index, i)
			}
		}
	}
	// A register used inside a loop and live across its back edge lives
	// for the whole loop: stretch each range over the loops it touches.
	var stack []int
	var loops [][2]int
	for i, in := range code {
		switch in.Op {
		case OpLoop:
			stack = append(stack, i)
		case OpEndloop:
			if len(stack) > 0 {
				loops = append(loops, [2]int{stack[len(stack)-1], i})
				stack = stack[:len(stack)-1]
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for r := range first {
			if first[r] < 0 {
				continue
			}
			for _, l := range loops {
				// Used inside the loop and alive before it or after it,
				// or written in it after a read in it: the whole loop.
				in := first[r] <= l[1] && last[r] >= l[0]
				if in && (first[r] < l[0] || last[r] > l[1] || first[r] >= l[0]) {
					if first[r] > l[0] {
						first[r], changed = l[0], true
					}
					if last[r] < l[1] {
						last[r], changed = l[1], true
					}
				}
			}
		}
	}
	// Linear scan: registers in order of their first use.
	order := make([]int, 0, temps)
	for r := range first {
		if first[r] >= 0 {
			order = append(order, r)
		}
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && first[order[j]] < first[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	to := make([]int, temps)
	var freeAt []int // per new register: the last instruction it is busy
	for _, r := range order {
		k := -1
		for n, busy := range freeAt {
			if busy < first[r] {
				k = n
				break
			}
		}
		if k < 0 {
			k = len(freeAt)
			freeAt = append(freeAt, 0)
		}
		freeAt[k] = last[r]
		to[r] = k
	}
	re := func(o *Operand) {
		if o.File == FileTemp {
			o.Index = to[o.Index]
		}
		if o.Rel != nil && o.Rel.File == FileTemp {
			rel := *o.Rel
			rel.Index = to[rel.Index]
			o.Rel = &rel
		}
	}
	for i := range code {
		in := &code[i]
		for k := range in.Src {
			re(&in.Src[k])
		}
		for k := range in.Dst {
			re(&in.Dst[k])
		}
	}
	return code, len(freeAt)
}
