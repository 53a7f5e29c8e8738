package shader

import . "d3dsim/gpu/shaderisa"

// Counted loops run round by round: the HLSL compiler's `for (int i = K;
// i < N; i++)` with a straight body becomes
//
//	loop
//	  ilt rT.t, rC.c, l(N)
//	  breakc_z rT.t
//	  ...body...
//	  iadd rC.c, rC.c, l(1)
//	endloop
//
// For a block whose every lane runs the loop and whose counter holds one
// value in every lane (the uniform path, uniform.go, knows it), the rounds
// are known at the loop: N - i, or none. Run then runs the body that many
// times and leaves out the test, the break, the increment and the endloop
// of each round (four dispatches, and two passes filling a register over
// the block; a fifth of the bench's loop shader). It writes what they would
// have left: the counter rC.c its value each round (when the body reads it)
// and at the end, rT.t all ones through the body and zero at the end, both
// known uniform; and it counts their steps, round by round, so that Steps
// and LaneSteps (virtual time) are the same and a fault in the body happens
// at the same step. A loop whose steps would pass the step limit runs the
// general way (which faults where it must). The body is straight: no flow
// control, no memory destination, no relative operand, and nothing in it
// writes rC.c or rT.t (TestCountedFast compares both ways on random
// programs).

// countedLoop is a loop instruction's counted form.
type countedLoop struct {
	body    int32 // the body's first instruction
	inc     int32 // the iadd (the body ends before it)
	endloop int32
	ctr     int32 // regs index of rC
	test    int32 // regs index of rT
	cc, tc  uint8 // the components c and t
	n       int32 // N
	reads   bool  // the body reads rC.c
}

// findCounted returns the counted form of the loop at pc, or nil.
func (m *Machine) findCounted(code []Inst, pc int) *countedLoop {
	end := pc + 1
	for end < len(code) && code[end].Op != OpEndLoop {
		end++
	}
	if end >= len(code) || end-pc < 4 {
		return nil
	}
	test, brk, inc := &code[pc+1], &code[pc+2], &code[end-1]
	plain := func(o *Operand) bool { return !o.Neg && !o.Abs && !o.Rel }
	if test.Op != OpILt || test.Sat || brk.Op != OpBreakc || brk.NZ || inc.Op != OpIAdd || inc.Sat {
		return nil
	}
	// iadd rC.c, rC.c, l(1)
	c := uint8(0)
	for c < 4 && inc.Dst.Mask != 1<<c {
		c++
	}
	a, one := &inc.Src[0], &inc.Src[1]
	if c == 4 || inc.Dst.File != FileTemp || inc.Dst.Rel || a.File != FileTemp || a.Index != inc.Dst.Index ||
		a.Swizzle[c] != c || !plain(a) || one.File != FileImm || !plain(one) || one.Imm[one.Swizzle[c]] != 1 {
		return nil
	}
	// ilt rT.t, rC.c, l(N) (rT.t alone), breakc_z rT.t
	t := brk.Src[0].Swizzle[0]
	x, lim := &test.Src[0], &test.Src[1]
	if brk.Src[0].File != FileTemp || !plain(&brk.Src[0]) || test.Dst.File != FileTemp || test.Dst.Rel ||
		test.Dst.Index != brk.Src[0].Index || test.Dst.Mask != 1<<t || x.File != FileTemp ||
		x.Index != inc.Dst.Index || x.Swizzle[t] != c || !plain(x) || lim.File != FileImm || !plain(lim) ||
		test.Dst.Index == inc.Dst.Index && t == c {
		return nil
	}
	cl := &countedLoop{body: int32(pc + 3), inc: int32(end - 1), endloop: int32(end),
		ctr: int32(m.regIndex(FileTemp, inc.Dst.Index)), test: int32(m.regIndex(FileTemp, test.Dst.Index)),
		cc: c, tc: t, n: int32(lim.Imm[lim.Swizzle[t]])}
	for i := pc + 3; i < end-1; i++ {
		in := &code[i]
		if !in.Op.HasDst() || in.Op.MemDst() || in.Dst.Rel {
			return nil
		}
		if in.Dst.File == FileTemp && (in.Dst.Index == inc.Dst.Index && in.Dst.Mask>>c&1 != 0 ||
			in.Dst.Index == test.Dst.Index && in.Dst.Mask>>t&1 != 0) {
			return nil
		}
		for k := range in.Src {
			s := &in.Src[k]
			if s.Rel {
				return nil
			}
			if s.File == FileTemp && s.Index == inc.Dst.Index {
				cl.reads = true // (any component: a fill a round is cheap)
			}
		}
	}
	return cl
}

// countedRounds returns the rounds of cl for a block entering it, or -1
// when the block must run it the general way: not every lane runs, the
// counter is not known uniform, or the loop's steps would pass the limit
// (steps so far, limit).
func (m *Machine) countedRounds(cl *countedLoop, mask uint64, steps, limit int) int {
	if mask != AllLanes || m.trace != nil || m.noCounted || m.uni[cl.ctr]>>cl.cc&1 == 0 {
		return -1
	}
	s := int32(m.regs[cl.ctr][cl.cc][0])
	rounds := 0
	if s < cl.n {
		rounds = int(int64(cl.n) - int64(s))
	}
	// The general way: the loop (counted), then a round's test, break,
	// body, increment and endloop, then the last test, break and endloop.
	body := int(cl.inc - cl.body)
	if int64(steps)+int64(rounds)*int64(body+4)+3 > int64(limit) {
		return -1
	}
	m.countedRuns++
	return rounds
}

// countedSet writes component c of register r as the uniform path does.
func (m *Machine) countedSet(r int32, c uint8, v uint32) {
	fill(&m.regs[r][c], v)
	m.uni[r] |= 1 << c
}
