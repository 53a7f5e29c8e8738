package shader

import . "d3dsim/gpu/shaderisa"

// Straight runs (issue 32): consecutive ALU instructions (straight), found
// when the machine is made (findFused), every build. Each instruction is
// run by its own kernel as alu runs it with every lane active, but without
// Run's dispatch between them: the trace test, the switch, the call and
// the uniform path's test.
//
// Every result is the machine's bits: the same kernels in the same order,
// every destination written. Steps and LaneSteps count every instruction,
// so virtual time is unchanged; a run goes this way only for a whole block,
// without a trace, when all of its steps fit under the step limit (else
// its instructions run one by one and fault where they would). None of
// them can fault otherwise, and none but the first is a jump target
// (targets follow a flow instruction). TestStraightRuns compares random
// programs run both ways.
//
// (A fused mad-frc kernel, the loop's `frac(p * k + c)` in one pass with
// the mad's lanes kept in registers, gave 1.5% more on the loop's block
// than the straight run: not kept. docs/performance.md.)

// findFused marks the straight runs of m.code (xinst.run).
func (m *Machine) findFused(p *Program) {
	// Straight runs of two or more, from the end so that each knows its
	// length.
	for pc := len(m.code) - 2; pc >= 0; pc-- {
		x, next := &m.code[pc], &m.code[pc+1]
		if !straight(x) || !straight(next) {
			continue
		}
		x.run = 2
		if next.run != 0 && next.run < 255 {
			x.run = next.run + 1
		}
	}
}

// straightOps are the float ops a straight run may hold: per-component
// kernels that cannot fault, run by alu.
var straightOps = [NumOps]bool{OpMov: true, OpAdd: true, OpMul: true, OpMad: true, OpMin: true, OpMax: true,
	OpFrc: true, OpExp2: true, OpLog2: true, OpRsq: true, OpSqrt: true, OpRcp: true, OpDiv: true}

// straight reports whether x may run in a straight run: one of
// straightOps with no modifier or relative operand, writing its register
// as it goes (xinst.direct), not evaluated by the uniform path.
func straight(x *xinst) bool {
	return straightOps[x.op] && x.plain && x.direct && !x.dstRel && !x.uniOp && x.kernel != nil && x.mask != 0
}

// runStraight runs the instructions of code, as alu runs each with every
// lane active, without Run's dispatch between them.
func (m *Machine) runStraight(code []xinst) {
	for j := range code {
		in := &code[j]
		a, b, c := in.plainSrcs()
		in.direct4(a, b, c)
		m.afterALU(in)
	}
}

// afterALU is what Run does after an ALU instruction for the uniform
// tracking (uniform.go): its destination components are not known uniform.
func (m *Machine) afterALU(in *xinst) {
	if d := in.uniDst; d >= 0 {
		m.uni[d] &^= in.mask
	} else if d == uniAll {
		clear(m.uni)
	}
}
