package hlsl

// Loop unrolling: a loop whose trips the compiler can count — a counter
// set to a constant before it, the exits breakc instructions at the top
// level of its body whose conditions are computed from constants — is
// written out trip by trip, as fxc unrolls such loops (DirectXTK's
// `[unroll] for (int i = 0; i < numLights; i++)` over three lights).
// Each copy is the body as the trip runs it: the exits it does not take
// dropped, the code up to the exit the last trip takes kept (its other
// results may be read after the loop). Unrolled, the counter is a constant
// in each copy, so copy propagation folds what it computes: the
// comparisons, a constant buffer's relative index (cb0[r0.x + 4] is
// cb0[5]) and the movc chains of a local array indexed by it.
//
// Only a loop the source marks [unroll] is unrolled (Instr.Unroll): fxc
// keeps the others loops (DirectXTK's 16-sample blur, PBR's light loop),
// and so does this compiler. It leaves a marked loop as it is when an exit is inside an if, when the
// body continues, when the trips are more than maxUnrollTrips or the
// unrolled code would be longer than maxUnrolled instructions. The
// result is the same program: only the exits whose outcome is known are
// taken away.

// maxUnrollTrips and maxUnrolled bound the unrolling of one loop: its
// trips, and the instructions written out for it.
const (
	maxUnrollTrips = 64
	maxUnrolled    = 1024
)

// unrollLoops unrolls the first loop (innermost first) it can count; the
// optimiser calls it again after the other passes fold the unrolled code.
func unrollLoops(code []Instr, temps int) ([]Instr, bool) {
	var stack []int
	for i := range code {
		switch code[i].Op {
		case OpLoop:
			stack = append(stack, i)
		case OpEndloop:
			if len(stack) == 0 {
				return code, false
			}
			a := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if code[a].Unroll <= 0 {
				continue
			}
			if out, ok := unrollLoop(code, temps, a, i); ok {
				return out, true
			}
		}
	}
	return code, false
}

// constLanes are the temp lanes whose values a walk knows.
type constLanes map[[2]int]uint32

// unrollLoop unrolls the loop from code[a] (loop) to code[e] (endloop).
func unrollLoop(code []Instr, temps, a, e int) ([]Instr, bool) {
	body := code[a+1 : e]
	if !countable(body) {
		return nil, false
	}
	depth := depths(body)
	known := constLanes{}
	for k, cs := range constCopies(code, temps) {
		if cs.o.File == FileImm {
			known[k] = cs.o.Imm[0]
		}
	}
	start := a
	for start > 0 && !controlOp(code[start-1].Op) {
		start--
	}
	for i := start; i < a; i++ {
		known.step(&code[i])
	}
	var out []Instr
	for trip := 0; ; trip++ {
		if trip >= maxUnrollTrips {
			return nil, false
		}
		exit := -1
		for i := 0; i < len(body) && exit < 0; i++ {
			x := &body[i]
			switch x.Op {
			case OpIf, OpLoop, OpSwitch:
				end := closing(body, i)
				for j := i; j <= end; j++ {
					known.forget(&body[j])
				}
				i = end
			case OpBreak:
				exit = i
			case OpBreakc:
				v, ok := known.lane(x.Src[0], 0)
				if !ok || x.Src[0].Neg || x.Src[0].Abs {
					return nil, false
				}
				if (v != 0) == (x.Test == TestNZ) {
					exit = i
				}
			default:
				known.step(x)
			}
		}
		n := len(body)
		if exit >= 0 {
			n = exit
		}
		for i := 0; i < n; i++ {
			if body[i].Op != OpBreakc || depth[i] > 0 {
				out = append(out, cloneInstr(body[i]))
			}
		}
		if len(out) > maxUnrolled {
			return nil, false
		}
		if exit >= 0 {
			break
		}
	}
	res := make([]Instr, 0, len(code)-len(body)-2+len(out))
	res = append(res, code[:a]...)
	res = append(res, out...)
	return append(res, code[e+1:]...), true
}

// countable reports whether a loop body leaves only through breakc or
// break at its top level (none of its exits inside an if), and neither
// continues nor returns at its top level.
func countable(body []Instr) bool {
	var open []Op // the constructs open inside the body
	innermost := func(want ...Op) bool {
		for j := len(open) - 1; j >= 0; j-- {
			for _, w := range want {
				if open[j] == w {
					return true
				}
			}
		}
		return false
	}
	for i := range body {
		switch op := body[i].Op; op {
		case OpIf, OpLoop, OpSwitch:
			open = append(open, op)
		case OpEndif, OpEndloop, OpEndswitch:
			if len(open) == 0 {
				return false
			}
			open = open[:len(open)-1]
		case OpBreak, OpBreakc:
			// A break leaves the innermost loop or switch: this loop
			// when there is none, and then only from the top level.
			if !innermost(OpLoop, OpSwitch) && len(open) > 0 {
				return false
			}
		case OpContinue:
			if !innermost(OpLoop) {
				return false
			}
		case OpRet:
			if len(open) == 0 {
				return false
			}
		}
	}
	return len(open) == 0
}

// depths is each instruction's nesting in body: 0 at its top level.
func depths(body []Instr) []int {
	d := make([]int, len(body))
	n := 0
	for i := range body {
		switch body[i].Op {
		case OpEndif, OpEndloop, OpEndswitch:
			n--
		}
		d[i] = n
		switch body[i].Op {
		case OpIf, OpLoop, OpSwitch:
			n++
		}
	}
	return d
}

// closing is the index of the endif, endloop or endswitch that closes
// body[i].
func closing(body []Instr, i int) int {
	depth := 0
	for j := i; j < len(body); j++ {
		switch body[j].Op {
		case OpIf, OpLoop, OpSwitch:
			depth++
		case OpEndif, OpEndloop, OpEndswitch:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(body) - 1
}

func cloneInstr(x Instr) Instr {
	x.Dst = append([]Operand(nil), x.Dst...)
	x.Src = append([]Operand(nil), x.Src...)
	for k := range x.Src {
		if r := x.Src[k].Rel; r != nil {
			c := *r
			x.Src[k].Rel = &c
		}
	}
	for k := range x.Dst {
		if r := x.Dst[k].Rel; r != nil {
			c := *r
			x.Dst[k].Rel = &c
		}
	}
	return x
}

// lane is the bits of lane c of source o (its modifiers not applied), if
// the walk knows them.
func (k constLanes) lane(o Operand, c int) (uint32, bool) {
	switch {
	case o.File == FileImm:
		return o.Imm[c], true
	case o.File == FileTemp && o.Rel == nil:
		v, ok := k[[2]int{o.Index, int(o.Swz[c] & 3)}]
		return v, ok
	}
	return 0, false
}

// step runs x on the known lanes: its temp results are known when it is
// computed lane by lane from known values, forgotten otherwise.
func (k constLanes) step(x *Instr) {
	if len(x.Dst) != 1 || x.Dst[0].File != FileTemp || x.Dst[0].Rel != nil || x.Sat || !lanewise(x.Op) {
		k.forget(x)
		return
	}
	y := Instr{Op: x.Op, Dst: x.Dst, Src: make([]Operand, len(x.Src))}
	for j, s := range x.Src {
		n := Operand{File: FileImm, Neg: s.Neg, Abs: s.Abs}
		for c := 0; c < 4; c++ {
			if x.Dst[0].Mask&(1<<c) == 0 {
				continue
			}
			v, ok := k.lane(s, c)
			if !ok {
				k.forget(x)
				return
			}
			n.Imm[c] = v
		}
		y.Src[j] = n
	}
	var v [4]uint32
	if y.Op == OpMov {
		v = applyMods(y.Src[0].Imm, y.Src[0], true)
	} else if foldInstr(&y) {
		v = y.Src[0].Imm
	} else {
		k.forget(x)
		return
	}
	for c := 0; c < 4; c++ {
		if x.Dst[0].Mask&(1<<c) != 0 {
			k[[2]int{x.Dst[0].Index, c}] = v[c]
		}
	}
}

// forget drops the lanes x writes.
func (k constLanes) forget(x *Instr) {
	for _, d := range x.Dst {
		if d.File != FileTemp {
			continue
		}
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) != 0 {
				delete(k, [2]int{d.Index, c})
			}
		}
	}
}
