package hlsl

// Dead code: an instruction whose every written temp component is never
// read afterwards on any path is removed (a backward liveness analysis of
// r# components over the program's control flow). Writes to outputs and
// x# arrays, and control flow, discard and ret stay.

// flowGraph is the program cut into basic blocks with their successors.
type flowGraph struct {
	start []int   // each block's first instruction
	end   []int   // one past its last
	succ  [][]int // successor blocks
	block []int   // instruction -> block
}

// buildFlow cuts code into blocks along the structured control flow:
// if/else/endif, loop/endloop/break/continue, switch/case/default.
func buildFlow(code []Instr) *flowGraph {
	n := len(code)
	ints := make([]int, 4*n) // one allocation for the four tables
	match := ints[:n:n]      // if -> else or endif, else -> endif, loop -> endloop, switch -> endswitch
	openers := ints[n : 2*n : 2*n]
	var stack []int
	var cases map[int][]int        // switch -> its case and default (made at the first)
	inner := ints[2*n : 3*n : 3*n] // break/continue/case -> the innermost loop or switch (-1 none)
	loopOf := ints[3*n:]
	var brk []int
	for i := range code {
		inner[i], loopOf[i] = -1, -1
		if len(brk) > 0 {
			inner[i] = brk[len(brk)-1]
		}
		for k := len(brk) - 1; k >= 0; k-- {
			if code[brk[k]].Op == OpLoop {
				loopOf[i] = brk[k]
				break
			}
		}
		switch code[i].Op {
		case OpIf, OpLoop, OpSwitch:
			stack = append(stack, i)
			if code[i].Op != OpIf {
				brk = append(brk, i)
			}
		case OpElse:
			if len(stack) > 0 {
				match[stack[len(stack)-1]] = i
				stack[len(stack)-1] = i
			}
		case OpCase, OpDefault:
			if len(stack) > 0 {
				if cases == nil {
					cases = map[int][]int{}
				}
				cases[stack[len(stack)-1]] = append(cases[stack[len(stack)-1]], i)
			}
		case OpEndif, OpEndloop, OpEndswitch:
			if len(stack) > 0 {
				o := stack[len(stack)-1]
				match[o] = i
				openers[i] = o
				stack = stack[:len(stack)-1]
				if code[i].Op != OpEndif && len(brk) > 0 {
					brk = brk[:len(brk)-1]
				}
			}
		}
	}
	// Block leaders: the first instruction, the targets of jumps and the
	// instructions after a control-flow instruction.
	leader := make([]bool, n+1)
	leader[0] = true
	nb := 0
	for i, in := range code {
		switch in.Op {
		case OpIf, OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue, OpRet, OpSwitch, OpCase,
			OpDefault, OpEndswitch, OpDiscard, OpEmit, OpCut:
			// (emit and cut read or end the outputs written before them:
			// no write of an output moves across one.)
			leader[i] = true
			leader[i+1] = true
		}
		if leader[i] {
			nb++
		}
	}
	// The tables in few allocations: a compile builds the graph after
	// nearly every pass.
	f := &flowGraph{block: make([]int, n)}
	ends := make([]int, 2*nb)
	f.start, f.end = ends[:0:nb], ends[nb:nb:2*nb]
	for i := 0; i < n; i++ {
		if leader[i] {
			f.start = append(f.start, i)
			f.end = append(f.end, i)
		}
		f.block[i] = len(f.start) - 1
		f.end[len(f.end)-1] = i + 1
	}
	f.succ = make([][]int, len(f.start))
	ncase := 0
	for _, cs := range cases {
		ncase += len(cs) + 1
	}
	succs := make([]int, 0, 2*len(f.start)+ncase) // each block's successors, one after another
	blk := func(i int) int {
		if i >= n {
			return -1 // the end of the program
		}
		return f.block[i]
	}
	add := func(b, i int) {
		if t := blk(i); t >= 0 {
			succs = append(succs, t)
		}
	}
	for b := range f.start {
		from := len(succs)
		i := f.end[b] - 1 // the last instruction
		in := code[i]
		switch in.Op {
		case OpIf:
			add(b, i+1)
			add(b, match[i]+1) // past the else (into the else branch) or the endif
		case OpElse:
			add(b, match[i]) // the endif
		case OpEndloop:
			add(b, openers[i]+1)
		case OpBreak, OpBreakc:
			if t := inner[i]; t >= 0 {
				add(b, match[t]+1)
			}
			if in.Op == OpBreakc {
				add(b, i+1)
			}
		case OpContinue:
			if t := loopOf[i]; t >= 0 {
				add(b, t+1)
			}
		case OpRet:
		case OpSwitch:
			hasDefault := false
			for _, c := range cases[i] {
				add(b, c)
				hasDefault = hasDefault || code[c].Op == OpDefault
			}
			if !hasDefault {
				add(b, match[i])
			}
		default:
			add(b, i+1)
		}
		f.succ[b] = succs[from:len(succs):len(succs)]
	}
	return f
}

// liveSet is a set of temp components: bit 4*r+c.
type liveSet []uint64

func (s liveSet) has(r, c int) bool { k := 4*r + c; return s[k>>6]&(1<<(k&63)) != 0 }
func (s liveSet) set(r, c int)      { k := 4*r + c; s[k>>6] |= 1 << (k & 63) }
func (s liveSet) clear(r, c int)    { k := 4*r + c; s[k>>6] &^= 1 << (k & 63) }

// maxLiveWork bounds the liveness analysis (blocks times words of a set):
// beyond it the pass leaves the program as it is.
const maxLiveWork = 1 << 23

// reads marks the temp components instruction in reads.
func (in *Instr) reads(mark func(r, c int)) {
	for k, s := range in.Src {
		if s.Rel != nil && s.Rel.File == FileTemp {
			mark(s.Rel.Index, int(s.Rel.Swz[0]&3))
		}
		if s.File != FileTemp {
			continue
		}
		lanes := in.readLanes(k) // (only a temp's: reads runs in every pass)
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) != 0 {
				mark(s.Index, int(s.Swz[i]&3))
			}
		}
	}
	for _, d := range in.Dst {
		if d.Rel != nil && d.Rel.File == FileTemp {
			mark(d.Rel.Index, int(d.Rel.Swz[0]&3))
		}
	}
}

// removable reports an instruction whose only effect is its temp
// destinations.
func (in *Instr) removable() bool {
	switch in.Op {
	case OpIf, OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue, OpRet, OpDiscard, OpSwitch, OpCase,
		OpDefault, OpEndswitch, OpNop, OpSync, OpImmAtomicAlloc, OpImmAtomicConsume, OpEmit, OpCut:
		return false
	}
	for _, d := range in.Dst {
		if d.File != FileTemp && d.File != FileNull {
			return false
		}
	}
	return true
}

// liveStep turns the live set after in into the one before it.
func (in *Instr) liveStep(cur liveSet) {
	for _, d := range in.Dst {
		if d.File == FileTemp {
			for c := 0; c < 4; c++ {
				if d.Mask&(1<<c) != 0 {
					cur.clear(d.Index, c)
				}
			}
		}
	}
	in.reads(cur.set)
}

// liveOut is the live set at the end of each block of f (a backward
// analysis to its fixed point). A block's instructions are walked twice,
// once from the empty set and once from the full one: liveStep clears and
// sets components whatever the others hold, so the two give what the block
// makes live (gen) and what it lets through (pass), and each round of the
// fixed point is then a few words a block, not an instruction walk.
func liveOut(code []Instr, f *flowGraph, words int) []liveSet {
	// One allocation for every set (a compile runs this some fifty times:
	// a set a block each was a tenth of its allocations).
	nb := len(f.start)
	sets := make(liveSet, 4*nb*words)
	in := make([]liveSet, nb)
	out := make([]liveSet, nb)
	gen := make([]liveSet, nb)
	pass := make([]liveSet, nb)
	for b := range in {
		set := func(k int) liveSet { return sets[(4*b+k)*words : (4*b+k+1)*words : (4*b+k+1)*words] }
		in[b], out[b], gen[b], pass[b] = set(0), set(1), set(2), set(3)
		for w := range pass[b] {
			pass[b][w] = ^uint64(0)
		}
		for i := f.end[b] - 1; i >= f.start[b]; i-- {
			code[i].liveStep(gen[b])
			code[i].liveStep(pass[b])
		}
	}
	for changed := true; changed; {
		changed = false
		for b := nb - 1; b >= 0; b-- {
			for _, s := range f.succ[b] {
				for w := range out[b] {
					out[b][w] |= in[s][w]
				}
			}
			for w, o := range out[b] {
				if v := o&pass[b][w] | gen[b][w]; v&^in[b][w] != 0 {
					in[b][w] |= v
					changed = true
				}
			}
		}
	}
	return out
}

// deadCode removes the instructions whose results nobody reads; it
// reports whether it removed any.
func deadCode(code []Instr, temps int) ([]Instr, bool) {
	if len(code) == 0 || temps == 0 {
		return code, false
	}
	f := buildFlow(code)
	words := (4*temps + 63) / 64
	if len(f.start)*words > maxLiveWork {
		return code, false
	}
	out := liveOut(code, f, words)
	cur := make(liveSet, words)
	// transfer computes the live set at the top of block b from out[b].
	transfer := func(b int, dead []bool) {
		copy(cur, out[b])
		for i := f.end[b] - 1; i >= f.start[b]; i-- {
			x := &code[i]
			if dead != nil && x.removable() {
				live := false
				for _, d := range x.Dst {
					if d.File != FileTemp {
						continue
					}
					for c := 0; c < 4; c++ {
						if d.Mask&(1<<c) != 0 && cur.has(d.Index, c) {
							live = true
						}
					}
				}
				if !live {
					dead[i] = true
					continue
				}
			}
			x.liveStep(cur)
		}
	}
	dead := make([]bool, len(code))
	for b := range f.start {
		transfer(b, dead)
	}
	kept := code[:0]
	removed := false
	for i, x := range code {
		if dead[i] {
			removed = true
			continue
		}
		kept = append(kept, x)
	}
	return kept, removed
}
