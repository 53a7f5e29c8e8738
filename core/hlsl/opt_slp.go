package hlsl

// Vectorising: HLSL written a component at a time (`v.r = f(v.r);
// v.g = f(v.g); v.b = f(v.b);`) compiles, once the calls are inlined and
// their ifs flattened, into one-lane instructions doing the same thing to
// different lanes. In a straight run of code, up to four such
// instructions (the same operation, each writing one lane; each source
// either immediates, lanes of one register, or lanes of an earlier
// group's result) become one instruction writing up to four lanes, as fxc
// does: `ge r3.xyz, l(0.04045, ...), r2.xyzx` for three `ge r.x`.
//
// A group's result goes to the register its members write when they
// write different lanes of one; else to a new register, lane by lane
// (each member's register then has to be written by that member alone,
// in that one lane, and read only there: its reads are renamed). The
// run is then rescheduled in dependence order, a group where its first
// member was; a group that would have to come both before and after
// something (a cycle) is not formed.

// maxSLPRun bounds the straight runs vectorised (instructions).
const maxSLPRun = 256

// vectorize groups one-lane instructions; it reports whether it did.
func vectorize(code []Instr, temps int) ([]Instr, int, bool) {
	if len(code) == 0 || temps == 0 {
		return code, temps, false
	}
	// Which temps have one write, of one lane, and reads of that lane only.
	writes := make([]int, temps)
	lane := make([]int, temps)
	for i := range code {
		for _, d := range code[i].Dst {
			if d.File == FileTemp && d.Index >= 0 && d.Index < temps {
				writes[d.Index]++
				lane[d.Index] = -1
				if bitsSet(d.Mask) == 1 {
					lane[d.Index] = firstLane(d.Mask)
				}
			}
		}
	}
	single := make([]bool, temps)
	for r := range single {
		single[r] = writes[r] == 1 && lane[r] >= 0
	}
	for i := range code {
		code[i].reads(func(r, c int) {
			if r >= 0 && r < temps && c != lane[r] {
				single[r] = false
			}
		})
	}
	changed := false
	var out []Instr
	remap := map[[2]int][2]int{} // (temp, lane) -> (new temp, lane)
	for s := 0; s < len(code); {
		if controlOp(code[s].Op) {
			out = append(out, code[s])
			s++
			continue
		}
		e := s
		for e < len(code) && !controlOp(code[e].Op) {
			e++
		}
		run := code[s:e]
		if len(run) <= maxSLPRun {
			var did bool
			run, temps, did = vectorizeRun(run, temps, single, remap)
			changed = changed || did
		}
		out = append(out, run...)
		s = e
	}
	if !changed {
		return code, temps, false
	}
	// Reads of a lane moved to a new register read it there.
	rel := func(o *Operand) {
		if o.Rel == nil || o.Rel.File != FileTemp {
			return
		}
		if to, ok := remap[[2]int{o.Rel.Index, int(o.Rel.Swz[0] & 3)}]; ok {
			r := *o.Rel
			r.Index = to[0]
			for c := range r.Swz {
				r.Swz[c] = uint8(to[1])
			}
			o.Rel = &r
		}
	}
	for i := range out {
		x := &out[i]
		for k := range x.Dst {
			rel(&x.Dst[k])
		}
		for k := range x.Src {
			o := &x.Src[k]
			rel(o)
			if o.File != FileTemp {
				continue
			}
			lanes := x.readLanes(k)
			for c := 0; c < 4; c++ {
				if lanes&(1<<c) == 0 {
					continue
				}
				if to, ok := remap[[2]int{o.Index, int(o.Swz[c] & 3)}]; ok {
					// single: every lane read is this one lane, so one
					// register for the operand.
					o.Swz[c] = uint8(to[1])
					o.Index = to[0]
					for l := 0; l < 4; l++ {
						if lanes&(1<<l) != 0 {
							o.Swz[l] = uint8(to[1])
						}
					}
					break
				}
			}
		}
	}
	return out, temps, true
}

// slpCandidate is an instruction a group may take: lanewise, one lane of
// a temp written, no other effect, no relative addressing.
func slpCandidate(x *Instr) bool {
	if !lanewise(x.Op) || len(x.Dst) != 1 || x.Dst[0].File != FileTemp || bitsSet(x.Dst[0].Mask) != 1 || !x.removable() {
		return false
	}
	for _, s := range x.Src {
		switch s.File {
		case FileTemp, FileImm, FileInput, FileCB:
		default:
			return false
		}
		if s.Rel != nil {
			return false
		}
	}
	return true
}

// vectorizeRun groups the one-lane instructions of a straight run.
func vectorizeRun(run []Instr, temps int, single []bool, remap map[[2]int][2]int) ([]Instr, int, bool) {
	n := len(run)
	deps := runDeps(run)
	group := make([]int, n) // instruction -> its group, -1 none
	for i := range group {
		group[i] = -1
	}
	var groups [][]int
	dstOf := map[int][2]int{} // group -> (register, -1) written in place, or (new register, 0)
	// effective is operand k of run[i] as a (register, lane) after the
	// groups formed so far: a member's result read through its group's
	// register.
	type eff struct {
		o    Operand // File, Index, Elem, mods; Imm for immediates
		lane int
	}
	effOf := func(i, k int) eff {
		x := &run[i]
		c := firstLane(x.Dst[0].Mask)
		o := x.Src[k]
		if o.File == FileImm {
			// The lane's value with the operand's modifiers applied (abs,
			// then negation, as the hardware reads them): -l(d) beside
			// l(d) packs to l(-d, d), not to l(d, d).
			return eff{o: Operand{File: FileImm, Imm: [4]uint32{immLane(o, c, floatOp(x.Op))}, Float: o.Float}, lane: 0}
		}
		l := int(o.Swz[c] & 3)
		if o.File == FileTemp {
			if to, ok := remap[[2]int{o.Index, l}]; ok {
				o.Index, l = to[0], to[1]
			}
		}
		return eff{o: Operand{File: o.File, Index: o.Index, Elem: o.Elem, Neg: o.Neg, Abs: o.Abs}, lane: l}
	}
	match := func(a, b int) bool {
		x, y := &run[a], &run[b]
		if x.Op != y.Op || x.Sat != y.Sat || len(x.Src) != len(y.Src) {
			return false
		}
		for k := range x.Src {
			ea, eb := effOf(a, k), effOf(b, k)
			if ea.o.File == FileImm && eb.o.File == FileImm {
				continue
			}
			if ea.o != eb.o {
				return false
			}
		}
		return true
	}
	changed := false
	for a := 0; a < n; a++ {
		if group[a] >= 0 || !slpCandidate(&run[a]) {
			continue
		}
		members := []int{a}
		for b := a + 1; b < n && len(members) < 4; b++ {
			if group[b] >= 0 || !slpCandidate(&run[b]) || !match(a, b) {
				continue
			}
			// Where the group writes: one register's different lanes, or
			// a new register (every member's register single).
			members = append(members, b)
			if _, ok := groupDst(run, members, single); !ok || reaches(deps, members) {
				members = members[:len(members)-1]
			}
		}
		if len(members) < 2 {
			continue
		}
		g := len(groups)
		for _, m := range members {
			group[m] = g
		}
		if cyclic(deps, group, n) {
			for _, m := range members {
				group[m] = -1
			}
			continue
		}
		groups = append(groups, members)
		d, _ := groupDst(run, members, single)
		if d < 0 {
			// A new register, lane j for member j.
			dstOf[g] = [2]int{temps, 0}
			for j, m := range members {
				remap[[2]int{run[m].Dst[0].Index, firstLane(run[m].Dst[0].Mask)}] = [2]int{temps, j}
			}
			temps++
		} else {
			dstOf[g] = [2]int{d, -1}
		}
		changed = true
	}
	if !changed {
		return run, temps, false
	}
	// The group's instruction.
	built := make([]Instr, len(groups))
	for g, members := range groups {
		first := &run[members[0]]
		in := Instr{Op: first.Op, Sat: first.Sat, Test: first.Test, Line: first.Line}
		dst := Operand{File: FileTemp}
		lanes := make([]int, len(members))
		if d := dstOf[g]; d[1] < 0 {
			dst.Index = d[0]
			for j, m := range members {
				lanes[j] = firstLane(run[m].Dst[0].Mask)
			}
		} else {
			dst.Index = d[0]
			for j := range members {
				lanes[j] = j
			}
		}
		for _, l := range lanes {
			dst.Mask |= 1 << l
		}
		in.Dst = []Operand{dst}
		for k := range first.Src {
			var o Operand
			for j, m := range members {
				e := effOf(m, k)
				if j == 0 {
					o = e.o
					if o.File == FileImm {
						o.Imm = [4]uint32{}
					}
				}
				if e.o.File == FileImm {
					o.Imm[lanes[j]] = e.o.Imm[0]
				} else {
					o.Swz[lanes[j]] = uint8(e.lane)
				}
			}
			// Unread lanes repeat the first read one.
			for l := 0; l < 4; l++ {
				if dst.Mask&(1<<l) == 0 {
					o.Swz[l] = o.Swz[lanes[0]]
					if o.File == FileImm {
						o.Imm[l] = o.Imm[lanes[0]]
					}
				}
			}
			if o.File == FileImm {
				o.Swz = [4]uint8{}
			}
			in.Src = append(in.Src, o)
		}
		built[g] = in
	}
	// Reschedule: nodes are the groups and the other instructions, in
	// dependence order, the earliest first.
	node := func(i int) int {
		if group[i] >= 0 {
			return n + group[i]
		}
		return i
	}
	indeg := make([]int, n+len(groups))
	succ := make([][]int, n+len(groups))
	for i := 0; i < n; i++ {
		for _, j := range deps[i] {
			a, b := node(i), node(j)
			if a != b {
				succ[a] = append(succ[a], b)
				indeg[b]++
			}
		}
	}
	pos := func(v int) int {
		if v >= n {
			return groups[v-n][0]
		}
		return v
	}
	var ready []int
	for i := 0; i < n; i++ {
		if v := node(i); v == i || groups[v-n][0] == i {
			if indeg[v] == 0 {
				ready = append(ready, v)
			}
		}
	}
	out := make([]Instr, 0, n)
	for len(ready) > 0 {
		best := 0
		for q := range ready {
			if pos(ready[q]) < pos(ready[best]) {
				best = q
			}
		}
		v := ready[best]
		ready = append(ready[:best], ready[best+1:]...)
		if v >= n {
			out = append(out, built[v-n])
		} else {
			out = append(out, run[v])
		}
		for _, w := range succ[v] {
			indeg[w]--
			if indeg[w] == 0 {
				ready = append(ready, w)
			}
		}
	}
	return out, temps, true
}

// groupDst is where a group's members write: the register they all write
// (different lanes of), or -1 for a new register, possible when every
// member's register is single; ok false when neither.
func groupDst(run []Instr, members []int, single []bool) (int, bool) {
	r := run[members[0]].Dst[0].Index
	same := true
	var mask uint8
	for _, m := range members {
		d := run[m].Dst[0]
		if d.Index != r || mask&d.Mask != 0 {
			same = false
		}
		mask |= d.Mask
	}
	if same {
		return r, true
	}
	for _, m := range members {
		if !single[run[m].Dst[0].Index] {
			return 0, false
		}
	}
	return -1, true
}

// runDeps is, for each instruction of a straight run, the later ones
// that must stay after it: reads after writes, writes after reads and
// writes, of temp lanes and of other registers as wholes.
func runDeps(run []Instr) [][]int {
	type key struct {
		file  File
		index int
		lane  int // -1: the whole register
	}
	// Every instruction's reads and writes in two buffers (a slice each
	// made a quarter of a compile's allocations), cut once all are in.
	barrier := key{FileNull, -1, -1} // an effect on no register: stays in place
	n := len(run)
	var rbuf, wbuf []key
	rEnd, wEnd := make([]int, n), make([]int, n)
	for i := range run {
		x := &run[i]
		x.reads(func(r, c int) { rbuf = append(rbuf, key{FileTemp, r, c}) })
		for _, s := range x.Src {
			switch s.File {
			case FileIndexable, FileOutput:
				rbuf = append(rbuf, key{s.File, s.Index, -1})
			}
		}
		rbuf = append(rbuf, barrier)
		w0 := len(wbuf)
		for _, d := range x.Dst {
			switch d.File {
			case FileTemp:
				for c := 0; c < 4; c++ {
					if d.Mask&(1<<c) != 0 {
						wbuf = append(wbuf, key{FileTemp, d.Index, c})
					}
				}
			case FileNull:
			default:
				wbuf = append(wbuf, key{d.File, d.Index, -1})
			}
		}
		if !x.removable() && len(wbuf) == w0 {
			wbuf = append(wbuf, barrier)
		}
		rEnd[i], wEnd[i] = len(rbuf), len(wbuf)
	}
	rs := make([][]key, n)
	ws := make([][]key, n)
	for i := range run {
		r0, w0 := 0, 0
		if i > 0 {
			r0, w0 = rEnd[i-1], wEnd[i-1]
		}
		rs[i], ws[i] = rbuf[r0:rEnd[i]], wbuf[w0:wEnd[i]]
	}
	has := func(set []key, k key) bool {
		for _, x := range set {
			if x == k {
				return true
			}
		}
		return false
	}
	deps := make([][]int, n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			dep := false
			for _, w := range ws[i] {
				if has(rs[j], w) || has(ws[j], w) {
					dep = true
					break
				}
			}
			if !dep {
				for _, r := range rs[i] {
					if has(ws[j], r) {
						dep = true
						break
					}
				}
			}
			if dep {
				deps[i] = append(deps[i], j)
			}
		}
	}
	return deps
}

// reaches reports whether one member of a group depends on another,
// directly or through other instructions.
func reaches(deps [][]int, members []int) bool {
	in := map[int]bool{}
	for _, m := range members {
		in[m] = true
	}
	for _, m := range members {
		seen := map[int]bool{}
		stack := append([]int(nil), deps[m]...)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[v] {
				continue
			}
			seen[v] = true
			if in[v] {
				return true
			}
			stack = append(stack, deps[v]...)
		}
	}
	return false
}

// cyclic reports whether the run's dependences, with each group one
// node, have a cycle.
func cyclic(deps [][]int, group []int, n int) bool {
	node := func(i int) int {
		if group[i] >= 0 {
			return n + group[i]
		}
		return i
	}
	size := n
	for _, g := range group {
		size = max(size, n+g+1)
	}
	indeg := make([]int, size)
	succ := make([][]int, size)
	present := make([]bool, size)
	for i := 0; i < n; i++ {
		present[node(i)] = true
		for _, j := range deps[i] {
			a, b := node(i), node(j)
			if a == b {
				return true
			}
			succ[a] = append(succ[a], b)
			indeg[b]++
		}
	}
	var ready []int
	total := 0
	for v := 0; v < size; v++ {
		if present[v] {
			total++
			if indeg[v] == 0 {
				ready = append(ready, v)
			}
		}
	}
	done := 0
	for len(ready) > 0 {
		v := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		done++
		for _, w := range succ[v] {
			indeg[w]--
			if indeg[w] == 0 {
				ready = append(ready, w)
			}
		}
	}
	return done != total
}

// immLane is lane c of an immediate operand with its Abs and Neg applied
// (on the sign bit where the instruction reads floats, as two's complement
// otherwise).
func immLane(o Operand, c int, float bool) uint32 {
	v := o.Imm[c]
	if float {
		if o.Abs {
			v &^= 1 << 31
		}
		if o.Neg {
			v ^= 1 << 31
		}
		return v
	}
	if o.Abs && int32(v) < 0 {
		v = -v
	}
	if o.Neg {
		v = -v
	}
	return v
}
