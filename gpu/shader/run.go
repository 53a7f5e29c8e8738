package shader

import (
	"fmt"
	"math"
	"math/bits"

	. "d3dsim/gpu/shaderisa"
)

// Run executes the program over the lanes in mask, whose inputs the caller
// has filled; it returns the lanes still alive (not discarded). Outputs are
// defined for the lanes of mask (a lane that returned early keeps what it
// had written). Each instruction runs over the whole block: one loop over
// the active lanes per component, the write merged under the execution
// mask. Control flow keeps a mask per lane: if and else narrow it, break,
// continue, ret and discard take lanes out of it until their construct
// ends. A pixel block's lanes are its quads (QuadLane). A program that
// takes derivatives (deriv_*, sample) also runs the other lanes of every
// quad with a live lane, as helpers: the caller fills their inputs too
// (attributes extrapolated over the quad), and they are never alive.
func (m *Machine) Run(mask uint64) (alive uint64, err error) {
	m.Steps, m.LaneSteps = 0, 0
	resume := m.compute.parked
	m.compute.parked = nil
	for _, z := range m.zero {
		if resume != nil {
			break // a block resumed after sync_g_t keeps its registers
		}
		v := m.reg(z.file, z.index)
		for c := range 4 {
			if z.mask>>c&1 != 0 {
				clear(v[c][:])
			}
		}
	}
	clear(m.uni) // (a block resumed after sync_g_t too: nothing is known)
	if mask == 0 {
		return 0, nil
	}
	live := mask
	if m.quads {
		// Helper lanes: every lane of a quad with a live lane runs, so that
		// derivatives never read a lane this block did not compute. They
		// are never reported alive.
		mask = quadMask(mask)
		defer func() { alive &= live }()
	}
	alive = mask
	stack := m.stack[:0]
	defer func() { m.stack = stack[:0] }()
	code := m.code
	steps, limit := 0, m.StepLimit
	var lanes uint64
	pc := 0
	if resume != nil {
		mask, alive, live, pc, steps, lanes = resume.mask, resume.alive, resume.live, resume.pc, resume.steps, resume.lanes
		stack = append(stack, resume.stack...)
	}
	defer func() {
		m.Steps, m.LaneSteps = steps, lanes
		if vecOK {
			// The vector kernels leave the upper halves of the Y
			// registers dirty: the caller's scalar (SSE) code would pay
			// for every instruction (the interpolation in gpu's runBlock
			// ran 7x slower).
			vecDone()
		}
	}()
	if limit <= 0 {
		limit = DefaultStepLimit
	}
	// leave takes lanes out of every open construct up to the innermost
	// loop (break, continue), up to the innermost call (ret: it returns
	// from the subroutine) or all of them (ret of the main program,
	// discard).
	leave := func(lanes uint64, toLoop, isBreak bool) {
		mask &^= lanes
		ret := !toLoop && !isBreak
		for i := len(stack) - 1; i >= 0; i-- {
			f := &stack[i]
			if f.loop && toLoop {
				if isBreak {
					f.broken |= lanes
				}
				return
			}
			if f.call && ret {
				return
			}
			f.saved &^= lanes
		}
	}
	// A counted loop run round by round (counted.go): its form, the
	// round and the rounds, the counter at the loop, the lanes a step.
	var cnt *countedLoop
	var round, rounds int
	var ctr0 int32
	var pop uint64
	for pc < len(code) {
		if cnt != nil && pc == int(cnt.inc) {
			// The end of a round: its increment and endloop, then the
			// next round's test and break, or the last test, break and
			// endloop.
			round++
			if round < rounds {
				steps += 4
				lanes += 4 * pop
				if cnt.reads {
					m.countedSet(cnt.ctr, cnt.cc, uint32(ctr0+int32(round)))
				}
				pc = int(cnt.body)
				continue
			}
			steps += 5
			lanes += 4 * pop // (the last endloop runs with every lane gone)
			m.countedSet(cnt.ctr, cnt.cc, uint32(ctr0+int32(rounds)))
			m.countedSet(cnt.test, cnt.tc, 0)
			pc, cnt = int(cnt.endloop)+1, nil
			continue
		}
		steps++
		lanes += uint64(bits.OnesCount64(mask & live))
		if steps > limit {
			return alive, &Fault{PC: pc, Reason: fmt.Sprintf("more than %d instructions in one block", limit), Err: ErrStepLimit}
		}
		in := &code[pc]
		if m.trace != nil {
			// else and endif run for the lanes they hand on to: the
			// else branch's, the construct's lanes after it.
			tm := mask
			if f := len(stack) - 1; f >= 0 && in.op == OpEndIf {
				tm = stack[f].saved
			} else if f >= 0 && in.op == OpElse {
				tm = stack[f].saved &^ stack[f].cond
			}
			m.trace.before(m, pc, tm, alive)
		}
		if in.run != 0 && mask == AllLanes && steps+int(in.run)-1 <= limit && m.trace == nil && !m.noFused {
			// A straight run (straight.go): every instruction's step.
			n := int(in.run)
			steps += n - 1
			lanes += uint64(n-1) * uint64(bits.OnesCount64(live))
			m.runStraight(code[pc : pc+n])
			m.fusedRuns++
			pc += n
			continue
		}
		switch in.op {
		case OpNop:
		case OpIf:
			c := m.test(in, mask)
			stack = append(stack, frame{saved: mask, cond: c, next: in.jump})
			mask = c
		case OpElse:
			f := &stack[len(stack)-1]
			mask = f.saved &^ f.cond
			f.next = in.jump
		case OpEndIf:
			mask = stack[len(stack)-1].saved
			stack = stack[:len(stack)-1]
		case OpLoop:
			if cl := in.counted; cl != nil {
				if n := m.countedRounds(cl, mask, steps, limit); n >= 0 {
					pop = uint64(bits.OnesCount64(mask & live))
					ctr0, round, rounds = int32(m.regs[cl.ctr][cl.cc][0]), 0, n
					if n == 0 {
						// The test, the break and the endloop (every
						// lane gone).
						steps += 3
						lanes += 2 * pop
						m.countedSet(cl.test, cl.tc, 0)
						pc = int(cl.endloop) + 1
						continue
					}
					// The first round's test and break.
					steps += 2
					lanes += 2 * pop
					m.countedSet(cl.test, cl.tc, ^uint32(0))
					cnt, pc = cl, int(cl.body)
					continue
				}
			}
			stack = append(stack, frame{loop: true, saved: mask, next: in.jump})
		case OpEndLoop:
			f := &stack[len(stack)-1]
			if mask = f.saved &^ f.broken; mask != 0 {
				pc = int(in.jump) + 1
				continue
			}
			mask = f.saved
			stack = stack[:len(stack)-1]
		case OpBreak:
			leave(mask, true, true)
		case OpBreakc:
			leave(m.test(in, mask), true, true)
		case OpContinue:
			leave(mask, true, false)
		case OpContinuec:
			leave(m.test(in, mask), true, false)
		case OpRet:
			leave(mask, false, false)
		case OpRetc:
			leave(m.test(in, mask), false, false)
		case OpDiscard:
			d := m.test(in, mask)
			alive &^= d
			leave(d, false, true) // not a ret: out of every construct, calls too
		case OpCall, OpCallc:
			c := mask
			if in.op == OpCallc {
				c = m.test(in, mask)
			}
			if c != 0 {
				stack = append(stack, frame{call: true, saved: mask, next: int32(pc + 1)})
				mask, pc = c, int(in.jump)+1
				continue
			}
		case OpLabel:
			// Reached in order, not by a call: the main program (or a
			// subroutine without its ret) ends here.
			if !inCall(stack) {
				return alive, nil
			}
			leave(mask, false, false)
		case OpSample, OpSampleL, OpLd, OpSampleD, OpSampleB, OpSampleC, OpSampleCLZ, OpGather4, OpGather4C,
			OpGather4PO, OpGather4POC, OpLod, OpLdRaw, OpLdStructured:
			if in.op == OpLdRaw && in.src[1].file != FileTex || in.op == OpLdStructured && in.src[2].file != FileTex {
				m.memory(in, mask) // a view's or groupshared memory's words (compute.go)
				break
			}
			if err := m.texture(in, mask, pc); err != nil {
				return alive, err
			}
		case OpDclThreadGroup, OpDclTGSM, OpDclGS, OpDclHS, OpDclDS:
		case OpEmit, OpCut:
			// The geometry stage takes the active lanes' o# registers
			// as a vertex (emit) or ends their strips (cut).
			if m.Emit != nil && mask&live != 0 {
				m.Emit(mask&live, in.op == OpCut, in.channel)
			}
		case OpSync:
			if m.compute.yield {
				// The group's other blocks run up to here before this
				// one goes on (RunGroup).
				m.compute.parked = &parked{pc: pc + 1, mask: mask, alive: alive, live: live, steps: steps, lanes: lanes,
					stack: append([]frame(nil), stack...)}
				return alive, errSynced
			}
		case OpLdUAVTyped, OpStoreUAVTyped, OpStoreRaw, OpStoreStructured, OpAtomicAnd, OpAtomicOr, OpAtomicXor,
			OpAtomicCmpStore, OpAtomicIAdd, OpAtomicIMax, OpAtomicIMin, OpAtomicUMax, OpAtomicUMin, OpImmAtomicAlloc,
			OpImmAtomicConsume, OpImmAtomicIAdd, OpImmAtomicAnd, OpImmAtomicOr, OpImmAtomicXor, OpImmAtomicExch,
			OpImmAtomicCmpExch, OpImmAtomicIMax, OpImmAtomicIMin, OpImmAtomicUMax, OpImmAtomicUMin:
			if in.op != OpLdUAVTyped {
				m.memory(in, mask&live) // a pixel program's helper lanes write nothing
				break
			}
			m.memory(in, mask)
		case OpBufInfo:
			if err := m.bufinfo(in, mask, pc); err != nil {
				return alive, err
			}
		case OpSampleInfo:
			if err := m.sampleinfo(in, mask, pc); err != nil {
				return alive, err
			}
		case OpResInfo, OpResInfoUint, OpResInfoRcp:
			if err := m.resinfo(in, mask, pc); err != nil {
				return alive, err
			}
		case OpDerivX, OpDerivY, OpDerivXFine, OpDerivYFine:
			m.deriv(in, mask)
		case OpDp2, OpDp3, OpDp4:
			m.dot(in, mask)
		case OpBfi:
			m.bfi(in, mask)
		case OpDAdd, OpDMul, OpDMin, OpDMax, OpDEq, OpDGe, OpDLt, OpDNe, OpDMov, OpDMovc, OpDToF, OpFToD:
			m.double(in, mask)
		default:
			m.alu(in, mask)
		}
		// What the instruction wrote is uniform where the uniform path
		// said so (uniSet), else not.
		if d := in.uniDst; d >= 0 {
			m.uni[d] = m.uni[d]&^in.mask | m.uniSet
		} else if d == uniAll {
			clear(m.uni)
		}
		m.uniSet = 0
		if in.rel && m.relErr != nil {
			f := m.relErr
			m.relErr = nil
			f.PC = pc
			return alive, f
		}
		pc++
		for mask == 0 && len(stack) > 0 && stack[len(stack)-1].call {
			// Every lane has returned from the subroutine: back to the
			// caller with the lanes that called it, less those discarded.
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			mask, pc = f.saved, int(f.next)
		}
		if mask == 0 {
			if len(stack) == 0 {
				break
			}
			pc = int(stack[len(stack)-1].next)
		}
	}
	return alive, nil
}

// inCall reports whether a subroutine call is open.
func inCall(stack []frame) bool {
	for i := range stack {
		if stack[i].call {
			return true
		}
	}
	return false
}

// quadMask widens a lane mask to whole quads (4 lanes each).
func quadMask(m uint64) uint64 {
	m |= m >> 1 & 0x5555555555555555
	m |= m << 1 & 0xAAAAAAAAAAAAAAAA
	m |= m >> 2 & 0x3333333333333333
	m |= m << 2 & 0xCCCCCCCCCCCCCCCC
	return m
}

// test returns the lanes of mask whose condition (the source's first
// swizzled component) passes the instruction's _z or _nz test.
func (m *Machine) test(in *xinst, mask uint64) uint64 {
	if mask == AllLanes && m.uniformSrc(in, 0, in.src[0].swz[0]) {
		// Every lane holds the same condition.
		if (in.src[0].c[0][0] != 0) == in.nz {
			return mask
		}
		return 0
	}
	s := m.fetchRead(in, 0, 1)
	v := s[0]
	var nz uint64
	if vecOK {
		nz = nonzeroVec(v)
	} else {
		for i := range v {
			if v[i] != 0 {
				nz |= 1 << i
			}
		}
	}
	if in.nz {
		return mask & nz
	}
	return mask &^ nz
}

// fetch returns source k's components, with modifiers and relative
// indexing applied (into scratch).
func (m *Machine) fetch(in *xinst, k int) *[4]*[Lanes]uint32 { return m.fetchRead(in, k, 0xF) }

// fetchRead is fetch for an instruction that reads only the components of
// read (a bit each): the modifiers are applied to those alone, the others
// left nil.
func (m *Machine) fetchRead(in *xinst, k int, read uint8) *[4]*[Lanes]uint32 {
	s := &in.src[k]
	if !s.mod && !s.rel {
		return &s.c
	}
	if s.rel {
		m.gather(s, k)
	}
	if !s.mod {
		return &s.c
	}
	out := &m.scratch[k]
	var r [4]*[Lanes]uint32
	intOp := in.op.Kind() == KindInt
	double := in.op.Kind() == KindDouble
	for c := range 4 {
		if read>>c&1 == 0 {
			continue
		}
		a, d := s.c[c], &out[c] // a == d for a relative operand: in place
		switch {
		case double && c&1 == 0:
			// A double's low word: its modifier is the high word's sign.
			*d = *a
		case intOp:
			for i := range d {
				v := a[i]
				if s.abs && int32(v) < 0 {
					v = -v
				}
				if s.neg {
					v = -v
				}
				d[i] = v
			}
		default:
			clr, flip := uint32(0), uint32(0)
			if s.abs {
				clr = 1 << 31
			}
			if s.neg {
				flip = 1 << 31
			}
			if vecOK {
				modVec(d, a, clr, flip)
				break
			}
			for i := range d {
				d[i] = a[i]&^clr ^ flip
			}
		}
		r[c] = d
	}
	m.modded[k] = r
	return &m.modded[k]
}

// gather reads a relative cb operand per lane into scratch[k] (swizzled in
// place: s.c points at scratch[k][c]). The element is the base plus the
// register as a 32-bit add, wrapping as D3D11 computes it; one past
// MaxCBIndex reads zero (as one past the buffer's end does). A Constants
// error is kept in relErr: Run faults at the instruction, as Bind does
// for a direct cb read.
func (m *Machine) gather(s *xsrc, k int) {
	out := &m.scratch[k]
	if s.relFile != FileNone {
		m.gatherArray(s, out)
		return
	}
	for i := range Lanes {
		e := s.elem + s.relReg[i]
		var v [4]uint32
		if m.consts != nil && e < MaxCBIndex && m.relErr == nil {
			var err error
			v, err = m.consts.Constant(int(s.slot), int(e))
			if err != nil {
				m.relErr = &Fault{Reason: fmt.Sprintf("reading cb%d[%d]", s.slot, e), Err: err}
				v = [4]uint32{}
			}
		}
		for c := range 4 {
			out[c][i] = v[s.swz[c]]
		}
	}
	for c := range 4 {
		s.c[c] = &out[c]
	}
}

// gatherArray reads a relative temp, input or icb operand per lane into
// out (swizzled): register elem + the relative register's value, wrapping
// as a 32-bit add; one outside the array reads 0.
func (m *Machine) gatherArray(s *xsrc, out *Vec) {
	for i := range Lanes {
		e := s.elem + s.relReg[i]
		var v [4]uint32
		if e-s.base < s.len {
			switch s.relFile {
			case FileTemp:
				r := &m.temps[e]
				v = [4]uint32{r[0][i], r[1][i], r[2][i], r[3][i]}
			case FileInput:
				r := &m.in[e]
				v = [4]uint32{r[0][i], r[1][i], r[2][i], r[3][i]}
			case FileICB:
				v = m.prog.ICB[e]
			}
		}
		for c := range 4 {
			out[c][i] = v[s.swz[c]]
		}
	}
	for c := range 4 {
		s.c[c] = &out[c]
	}
}

// scatter is commit for a relative destination: each lane of mask writes
// register elem + its relative register's value of the array, when it is
// inside it.
func (m *Machine) scatter(in *xinst, mask uint64, broadcast bool) {
	regs := m.temps
	if in.dstFile == FileOutput {
		regs = m.out
	}
	for k := range 4 {
		if in.mask>>k&1 == 0 {
			continue
		}
		r := &m.res[k]
		if broadcast {
			r = &m.res[0]
		}
		switch {
		case in.sat:
			saturate(r)
		case in.canon:
			canon(r)
		}
		for mm := mask; mm != 0; mm &= mm - 1 {
			i := bits.TrailingZeros64(mm)
			if e := in.dstElem + in.dstRelReg[i]; e-in.dstBase < in.dstLen {
				regs[e][k][i] = r[i]
			}
		}
	}
}

// alu runs a per-component op: into res, then the write.
func (m *Machine) alu(in *xinst, mask uint64) {
	if in.uniOp && mask == AllLanes && m.trace == nil && m.uniformAlu(in) {
		return
	}
	var a, b, c *[4]*[Lanes]uint32
	// A per-component op reads the components it writes.
	if in.plain {
		a, b, c = in.plainSrcs()
	} else {
		a = m.fetchRead(in, 0, in.mask)
		b, c = a, a
		if in.nsrc > 1 {
			b = m.fetchRead(in, 1, in.mask)
		}
		if in.nsrc > 2 {
			c = m.fetchRead(in, 2, in.mask)
		}
	}
	if in.direct && mask == AllLanes {
		in.direct4(a, b, c)
		return
	}
	for k := range 4 {
		if in.mask>>k&1 != 0 {
			in.kernel(&m.res[k], a[k], b[k], c[k])
		}
	}
	m.commit(in, mask, false)
}

// plainSrcs returns the sources of an instruction with no modifier and no
// relative operand, as resolved (the first for those it does not have).
func (in *xinst) plainSrcs() (a, b, c *[4]*[Lanes]uint32) {
	a, b, c = &in.src[0].c, &in.src[1].c, &in.src[2].c
	if in.nsrc < 3 {
		c = a
		if in.nsrc < 2 {
			b = a
		}
	}
	return a, b, c
}

// direct4 runs a direct instruction's kernel for every lane straight to
// its destination, no copy through res.
func (in *xinst) direct4(a, b, c *[4]*[Lanes]uint32) {
	if in.bcast != nil {
		in.bcast(in)
		return
	}
	for k := range 4 {
		if in.mask>>k&1 != 0 {
			d := in.dst[k]
			in.kernel(d, a[k], b[k], c[k])
			switch {
			case in.sat:
				saturate(d)
			case in.canon:
				canon(d)
			}
		}
	}
}

// commit writes res (or res[0] to every component, broadcast) to the
// destination's masked components for the lanes of mask: saturate, then
// canonical NaNs for float arithmetic, so that results are the same bits on
// every machine (NaN payloads differ between CPUs).
func (m *Machine) commit(in *xinst, mask uint64, broadcast bool) {
	if in.dstRel {
		m.scatter(in, mask, broadcast)
		return
	}
	for k := range 4 {
		if in.mask>>k&1 == 0 {
			continue
		}
		r := &m.res[k]
		if broadcast {
			r = &m.res[0]
		}
		switch {
		case in.sat:
			saturate(r)
		case in.canon:
			canon(r)
		}
		d := in.dst[k]
		if mask == AllLanes {
			*d = *r
			continue
		}
		mergeLanes(d, r, mask)
	}
}

// mergeLanes sets d[i] = r[i] for the lanes of mask, eight lanes at a
// time: a group all in mask is copied whole, one with none left alone
// (a partial block's mask is mostly runs of whole rows of quads).
func mergeLanes(d, r *[Lanes]uint32, mask uint64) {
	for i := 0; i < Lanes; i += 8 {
		switch g := uint8(mask >> i); g {
		case 0:
		case 0xFF:
			copy(d[i:i+8], r[i:i+8])
		default:
			if vecOK {
				mergeVec(d, r, i, g)
				continue
			}
			for ; g != 0; g &= g - 1 {
				j := i + bits.TrailingZeros8(g)
				d[j] = r[j]
			}
		}
	}
}

// canonNaN is the one NaN float arithmetic produces.
const canonNaN = 0x7FC00000

func canon(r *[Lanes]uint32) {
	if vecOK {
		canonVec(r)
		return
	}
	canonScalar(r)
}

// canonScalar tests four lanes with one comparison (their sum is NaN when
// one is, or for infinities of both signs), as the kernels do.
func canonScalar(r *[Lanes]uint32) {
	f := f32(r)
	for i := 0; i < Lanes; i += 4 {
		if s := (f[i] + f[i+1]) + (f[i+2] + f[i+3]); s == s {
			continue
		}
		for j := i; j < i+4; j++ {
			if r[j]&0x7FFFFFFF > 0x7F800000 {
				r[j] = canonNaN
			}
		}
	}
}

func saturate(r *[Lanes]uint32) {
	if vecOK {
		saturateVec(r)
		return
	}
	saturateScalar(r)
}

func saturateScalar(r *[Lanes]uint32) {
	f := f32(r)
	for i, v := range f {
		switch {
		case !(v > 0): // NaN, -0 and negatives
			r[i] = 0
		case v > 1:
			r[i] = 0x3F800000
		}
	}
}

// dot runs dp2, dp3 and dp4: products rounded, summed left to right, one
// pass over the lanes. With every lane active it writes the destination's
// first component as it goes (a lane reads its own sources before it
// writes), then copies it to the others.
func (m *Machine) dot(in *xinst, mask uint64) {
	n := 2 + int(in.op-OpDp2)
	read := uint8(1)<<n - 1
	a, b := m.fetchRead(in, 0, read), m.fetchRead(in, 1, read)
	res := &m.res[0]
	direct := mask == AllLanes && !in.dstRel
	if direct {
		res = in.dst[bits.TrailingZeros8(in.mask)]
	}
	// Saturated as it stores when written straight (dp3_sat), by dotVec
	// and dotSumK's dp3.
	sat, satDone := in.sat && direct, false
	switch {
	case vecOK:
		dotVec(n, res, a, b, sat)
		satDone = sat
	case in.konst&2 != 0:
		satDone = dotSumK(n, res, a, b, sat) // the second source the same in every lane (special.go)
	case in.konst&1 != 0:
		satDone = dotSumK(n, res, b, a, sat) // the first: the products commute
	default:
		dotSum(n, res, a, b)
	}
	if !direct {
		m.commit(in, mask, true)
		return
	}
	if in.sat && !satDone {
		saturate(res)
	}
	for k := bits.TrailingZeros8(in.mask) + 1; k < 4; k++ {
		if in.mask>>k&1 != 0 {
			*in.dst[k] = *res
		}
	}
}

// dotSum is dot's sum, NaNs canonical.
func dotSum(n int, res *[Lanes]uint32, a, b *[4]*[Lanes]uint32) {
	r := f32(res)
	a0, b0, a1, b1 := f32(a[0]), f32(b[0]), f32(a[1]), f32(b[1])
	switch n {
	case 2:
		for i := range r {
			r[i] = float32(a0[i]*b0[i]) + float32(a1[i]*b1[i])
		}
	case 3:
		// Four lanes a pass, NaNs canonical as they are stored (nan4):
		// no second pass.
		a2, b2 := f32(a[2]), f32(b[2])
		dp3 := func(i int) float32 {
			s := float32(a0[i]*b0[i]) + float32(a1[i]*b1[i])
			return s + float32(a2[i]*b2[i])
		}
		for i := 0; i < Lanes; i += 4 {
			r[i], r[i+1], r[i+2], r[i+3] = nan4(dp3(i), dp3(i+1), dp3(i+2), dp3(i+3))
		}
		return
	default:
		a2, b2, a3, b3 := f32(a[2]), f32(b[2]), f32(a[3]), f32(b[3])
		for i := range r {
			s := float32(a0[i]*b0[i]) + float32(a1[i]*b1[i])
			s = float32(s + float32(a2[i]*b2[i]))
			r[i] = s + float32(a3[i]*b3[i])
		}
	}
	canon(res)
}

// QuadLane returns the lane of pixel (x, y) of an 8x8 block: quad q (2x2
// pixels, q = (y/2)*4 + x/2) holds lanes 4q..4q+3, top-left, top-right,
// bottom-left, bottom-right. Derivatives are differences within a quad.
func QuadLane(x, y int) int {
	return ((y>>1)*4+x>>1)*4 + (y&1)*2 + x&1
}

// deriv runs deriv_rtx and deriv_rty: coarse (one value per quad: the top
// row's or left column's difference) or fine (per row or column).
func (m *Machine) deriv(in *xinst, mask uint64) {
	a := m.fetch(in, 0)
	for k := range 4 {
		if in.mask>>k&1 == 0 {
			continue
		}
		derivQuads(in.op, f32(&m.res[k]), f32(a[k]))
	}
	m.commit(in, mask, false)
}

func derivQuads(op Op, r, v *[Lanes]float32) {
	switch op {
	case OpDerivX:
		for q := 0; q < Lanes; q += 4 {
			d := v[q+1] - v[q]
			r[q], r[q+1], r[q+2], r[q+3] = d, d, d, d
		}
	case OpDerivY:
		for q := 0; q < Lanes; q += 4 {
			d := v[q+2] - v[q]
			r[q], r[q+1], r[q+2], r[q+3] = d, d, d, d
		}
	case OpDerivXFine:
		for q := 0; q < Lanes; q += 4 {
			d0, d1 := v[q+1]-v[q], v[q+3]-v[q+2]
			r[q], r[q+1], r[q+2], r[q+3] = d0, d0, d1, d1
		}
	case OpDerivYFine:
		for q := 0; q < Lanes; q += 4 {
			d0, d1 := v[q+2]-v[q], v[q+3]-v[q+1]
			r[q], r[q+1], r[q+2], r[q+3] = d0, d1, d0, d1
		}
	}
}

// texture runs sample, sample_l, sample_d, sample_b and ld through the
// bound Textures.
func (m *Machine) texture(in *xinst, mask uint64, pc int) error {
	if m.tex == nil {
		return &Fault{PC: pc, Reason: fmt.Sprintf("%s with no texture unit bound", in.op)}
	}
	// The register sources (coordinates, then sample_l's level, sample_b's
	// bias, sample_d's two gradients, a reference, an offset), and where
	// the texture and sampler operands are.
	var srcs [maxSrcs]*[4]*[Lanes]uint32
	var regs [maxSrcs]int // the register sources' indices in srcs, in order
	nreg, ti, si := 0, -1, -1
	for k, cls := range in.op.Srcs() {
		switch cls {
		case ArgTex, ArgRes:
			ti = k
		case ArgSmp:
			si = k
		default:
			srcs[k] = m.fetch(in, k)
			regs[nreg] = k
			nreg++
		}
	}
	reg := func(n int) *[4]*[Lanes]uint32 { return srcs[regs[n]] }
	a := reg(0)
	q := &m.query
	*q = TexQuery{Texture: int(in.src[ti].index), Mask: mask, Coord: *a, Out: &m.texOut, Offset: in.offset, Channel: in.channel}
	if si >= 0 {
		q.Sampler = int(in.src[si].index)
	}
	swz := in.src[ti].swz
	direct := in.mask == 0xF && swz == Identity && !in.sat && mask == AllLanes && !in.dstRel
	if direct {
		// The texture unit writes the destination itself, unless it also
		// reads it (a source that is the destination goes through texOut).
		for _, s := range srcs {
			if s == nil {
				continue
			}
			for _, r := range s {
				if r == in.dst[0] || r == in.dst[1] || r == in.dst[2] || r == in.dst[3] {
					direct = false
				}
			}
		}
		if direct {
			q.Out = in.dstVec
		}
	}
	// quadGrads takes the quads' derivatives of the coordinates (u, v and,
	// for 3D and cube textures, w), unless the unit ignores them.
	quadGrads := func() {
		for k := 0; k < 3 && !m.noGrad; k++ {
			derivQuads(OpDerivX, &m.ddx[k], f32(a[k]))
			derivQuads(OpDerivY, &m.ddy[k], f32(a[k]))
		}
		if !m.noGrad {
			q.DX[0], q.DY[0], q.DX[1], q.DY[1] = &m.ddx[0], &m.ddy[0], &m.ddx[1], &m.ddy[1]
			q.DXW, q.DYW = &m.ddx[2], &m.ddy[2]
		}
	}
	switch in.op {
	case OpSample, OpSampleB:
		q.Op = TexSample
		quadGrads()
		if in.op == OpSampleB {
			b := f32(reg(1)[0])
			for i, v := range b {
				m.bias[i] = clampBias(v)
			}
			q.Bias = &m.bias
		}
	case OpSampleD:
		q.Op = TexSampleGrad
		for k := range 2 {
			q.DX[k], q.DY[k] = f32(reg(1)[k]), f32(reg(2)[k])
		}
		q.DXW, q.DYW = f32(reg(1)[2]), f32(reg(2)[2])
	case OpSampleL:
		q.Op = TexSampleLevel
		q.LOD = f32(reg(1)[0])
	case OpLd:
		q.Op = TexLoad
	case OpSampleC:
		q.Op, q.Ref = TexSampleCmp, f32(reg(1)[0])
		quadGrads()
	case OpSampleCLZ:
		q.Op, q.Ref = TexSampleCmpLevelZero, f32(reg(1)[0])
	case OpGather4, OpGather4PO:
		q.Op = TexGather
	case OpGather4C, OpGather4POC:
		q.Op, q.Ref = TexGatherCmp, f32(reg(nreg - 1)[0])
	case OpLod:
		q.Op = TexLOD
		m.noGradSaved, m.noGrad = m.noGrad, false
		quadGrads()
		m.noGrad = m.noGradSaved
	case OpLdRaw:
		q.Op = TexLoadRaw
	case OpLdStructured:
		q.Op = TexLoadStructured
		q.Coord[1] = reg(1)[0]
	}
	if in.op == OpGather4PO || in.op == OpGather4POC {
		q.OffsetXY = [2]*[Lanes]uint32{reg(1)[0], reg(1)[1]}
	}
	if err := m.tex.Texture(q); err != nil {
		return &Fault{PC: pc, Reason: in.op.String(), Err: err}
	}
	if q.Out == in.dstVec {
		return nil
	}
	// The resource's swizzle picks the result's components.
	for k := range 4 {
		if in.mask>>k&1 != 0 {
			m.res[k] = q.Out[swz[k]]
		}
	}
	m.commit(in, mask, false)
	return nil
}

// clampBias clamps sample_b's bias to [-16, 15.99] ("sample_b (sm4 -
// asm)"); a NaN bias is 0.
func clampBias(v float32) float32 {
	switch {
	case v != v:
		return 0
	case v < -16:
		return -16
	case v > 15.99:
		return 15.99
	}
	return v
}

// resinfo runs resinfo, resinfo_uint and resinfo_rcpfloat: the view's
// dimensions at the mip level in the source's first component (an unsigned
// integer), through the resource's swizzle ("resinfo (sm4 - asm)").
func (m *Machine) resinfo(in *xinst, mask uint64, pc int) error {
	if in.src[1].file == FileUAV {
		m.uavResinfo(in, mask)
		return nil
	}
	if m.tex == nil {
		return &Fault{PC: pc, Reason: fmt.Sprintf("%s with no texture unit bound", in.op)}
	}
	info, err := m.tex.Info(int(in.src[1].index))
	if err != nil {
		return &Fault{PC: pc, Reason: in.op.String(), Err: err}
	}
	mip := m.fetch(in, 0)[0]
	swz := in.src[1].swz
	for i := range Lanes {
		v := ResInfo(in.op, info, mip[i])
		for k := range 4 {
			m.res[k][i] = v[swz[k]]
		}
	}
	m.commit(in, mask, false)
	return nil
}

// sampleinfo runs sampleinfo: the bound view's samples a pixel in .x
// (TexInfo.Samples: 0 for an unbound slot), 0 in the other components.
func (m *Machine) sampleinfo(in *xinst, mask uint64, pc int) error {
	if m.tex == nil {
		return &Fault{PC: pc, Reason: fmt.Sprintf("%s with no texture unit bound", in.op)}
	}
	info, err := m.tex.Info(int(in.src[0].index))
	if err != nil {
		return &Fault{PC: pc, Reason: in.op.String(), Err: err}
	}
	for i := range Lanes {
		m.res[0][i] = info.Samples
	}
	for k := 1; k < 4; k++ {
		m.res[k] = [Lanes]uint32{}
	}
	m.commit(in, mask, false)
	return nil
}

// bufinfo runs bufinfo: a buffer view's element count in every
// component, through the resource's swizzle (all the same); 0 for a view
// that is not a buffer or an unbound slot.
func (m *Machine) bufinfo(in *xinst, mask uint64, pc int) error {
	if in.src[0].file != FileTex {
		// A view of the compute stage (RWBuffer, RWStructuredBuffer,
		// RWByteAddressBuffer GetDimensions): its elements, a raw view's
		// bytes; 0 for an unbound slot or groupshared memory.
		var n uint32
		if in.src[0].file == FileUAV {
			if u := m.compute.uav[in.src[0].index]; u != nil {
				switch u.Kind {
				case ViewRawBuffer:
					n = uint32(len(u.Mem)) &^ 3
				case ViewBuffer, ViewStructured:
					n = u.Elements
				}
			}
		}
		for k := range 4 {
			for i := range Lanes {
				m.res[k][i] = n
			}
		}
		m.commit(in, mask, false)
		return nil
	}
	if m.tex == nil {
		return &Fault{PC: pc, Reason: fmt.Sprintf("%s with no texture unit bound", in.op)}
	}
	info, err := m.tex.Info(int(in.src[0].index))
	if err != nil {
		return &Fault{PC: pc, Reason: in.op.String(), Err: err}
	}
	n := uint32(0)
	if info.Kind >= ViewBuffer {
		n = info.Elements
	}
	for k := range 4 {
		for i := range Lanes {
			m.res[k][i] = n
		}
	}
	m.commit(in, mask, false)
	return nil
}

// ResInfo is what resinfo (op OpResInfo, OpResInfoUint or OpResInfoRcp)
// returns for a view and a mip level, before the resource swizzle:
// [width, height, array size, mip count] with width and height those of
// the mip level (at least 1), as floats (OpResInfo), integers
// (OpResInfoUint), or floats with the width and height reciprocal
// (OpResInfoRcp: the array size and mip count are not). A mip level past
// the view's gives 0 for width, height and array size (so +Inf for the
// reciprocals), the mip count still in w; an unbound slot (Mips 0) gives
// 0 in every component, whatever the return type.
//
// By the view's kind ("resinfo (sm4 - asm)"): a 1D texture's y and z are
// 0, a 1D array's y is its array size; a 3D texture's z is its depth at
// the level; a cube's z is 0, a cube array's its number of cubes; a 2D
// array's z its array size.
func ResInfo(op Op, info TexInfo, mip uint32) [4]uint32 {
	if info.Mips == 0 {
		return [4]uint32{}
	}
	v := [4]uint32{0, 0, 0, info.Mips}
	if mip < info.Mips {
		half := func(n uint32) uint32 { return max(n>>min(mip, 31), 1) }
		v[0] = half(info.Width)
		if info.Samples > 1 {
			v[0] = info.Width / info.Samples // a multisampled view's pixels (its texels are samples)
		}
		switch info.Kind {
		case ViewTex1D:
		case ViewTex1DArray:
			v[1] = info.Layers
		case ViewTex3D:
			v[1], v[2] = half(info.Height), half(info.Depth)
		case ViewTexCube:
			v[1] = half(info.Height)
		default: // 2D, 2D array, cube array
			v[1], v[2] = half(info.Height), info.Layers
		}
	}
	switch op {
	case OpResInfoUint:
		return v
	case OpResInfoRcp:
		return [4]uint32{math.Float32bits(1 / float32(v[0])), math.Float32bits(1 / float32(v[1])), math.Float32bits(float32(v[2])), math.Float32bits(float32(v[3]))}
	}
	for k := range v {
		v[k] = math.Float32bits(float32(v[k]))
	}
	return v
}
