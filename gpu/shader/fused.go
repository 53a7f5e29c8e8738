package shader

import (
	"math"

	. "d3dsim/gpu/shaderisa"
)

// Fused instructions (issue 32), found when the machine is made
// (findFused):
//
//   - a pair `frac(p * k + c)`, the bench loop's `mad r4.xy, r1.xyxx,
//     l(1.9), l(0.13)` then `frc r1.xy, r4.xyxx`, as one pass over the
//     lanes: the mad's result goes on to the frc in registers (the default
//     build's scalar kernels; a GOEXPERIMENT=simd build's vector kernels
//     run each instruction eight lanes at a time);
//   - straight runs of ALU instructions (straight), every build: each
//     instruction run by its own kernel as alu runs it with every lane
//     active, without Run's dispatch between them.
//
// Every result is the unfused machine's bits: the same float32 operations
// in the same order (the product rounded before the sum, no fused
// multiply-add), canonical NaNs, and every destination written (the
// intermediate register is kept: no liveness is assumed). Steps and
// LaneSteps count every instruction, so virtual time is unchanged; fused
// code runs only for a whole block, without a trace, when all of its steps
// fit under the step limit (else its instructions run one by one and fault
// where they would). None of them can fault otherwise, and none but the
// first is a jump target (targets follow a flow instruction).
// TestFusedPairs compares random programs fused and unfused.

const (
	fuseMadFrc = 1 + iota
	fuseRun    // a straight run of xinst.run instructions (runStraight)
)

// findFused marks the pairs and runs of m.code that run fused.
func (m *Machine) findFused(p *Program) {
	for pc := 0; pc+1 < len(p.Code) && !vecOK; pc++ {
		if madFrcPair(&p.Code[pc], &p.Code[pc+1]) {
			m.code[pc].fuse = fuseMadFrc
		}
	}
	// Straight runs of two or more, from the end so that each knows its
	// length; a mad-frc pair is left to its own kernel.
	for pc := len(m.code) - 2; pc >= 0; pc-- {
		x, next := &m.code[pc], &m.code[pc+1]
		if x.fuse != 0 || !straight(x) || !straight(next) || next.fuse == fuseMadFrc {
			continue
		}
		x.fuse, x.run = fuseRun, 2
		if next.fuse == fuseRun && next.run < 255 {
			x.run = next.run + 1
		}
	}
}

// madFrcPair reports whether mad a and frc f form a pair fusedMadFrc
// runs: a's second and third sources the same in every lane (kMadXKK), no
// modifier, saturate or relative operand, each component f writes reads a
// component a writes, and no component's writes reach a source or a
// destination of another component (the pair runs component by
// component, each reading its lanes before writing them).
func madFrcPair(a, f *Inst) bool {
	if a.Op != OpMad || f.Op != OpFrc || a.Sat || f.Sat || a.Dst.Rel || f.Dst.Rel ||
		a.Dst.File != FileTemp && a.Dst.File != FileOutput || f.Dst.File != FileTemp && f.Dst.File != FileOutput {
		return false
	}
	if constSrc(&a.Src[0]) || !constSrc(&a.Src[1]) || !constSrc(&a.Src[2]) {
		return false
	}
	for _, s := range []*Operand{&a.Src[0], &a.Src[1], &a.Src[2], &f.Src[0]} {
		if s.Rel || s.Neg || s.Abs {
			return false
		}
	}
	s := &f.Src[0]
	if s.File != a.Dst.File || s.Index != a.Dst.Index || f.Dst.Mask&^a.Dst.Mask != 0 || f.Dst.Mask == 0 {
		return false
	}
	// Component c: mad writes a.c from src0.swz[c]; frc writes f.c from a.swz'[c].
	for c := range 4 {
		if f.Dst.Mask>>c&1 != 0 && s.Swizzle[c] != uint8(c) {
			return false // frc reads the component mad wrote in the same pass
		}
	}
	for c := range 4 {
		if a.Dst.Mask>>c&1 == 0 {
			continue
		}
		for c2 := range 4 {
			if c2 == c || a.Dst.Mask>>c2&1 == 0 {
				continue
			}
			// What component c writes (a's c, f's c) must not be read
			// or written by component c2.
			src := a.Src[0]
			if src.File == a.Dst.File && src.Index == a.Dst.Index && src.Swizzle[c2] == uint8(c) ||
				f.Dst.Mask>>c&1 != 0 && src.File == f.Dst.File && src.Index == f.Dst.Index && src.Swizzle[c2] == uint8(c) {
				return false
			}
		}
	}
	// (Two components never write one place: a place is a register's
	// component. Where frc's destination is mad's, frc writes it second,
	// as unfused.)
	return true
}

// fusedMadFrc runs the pair mad (in) then frc (f) for every lane.
func (m *Machine) fusedMadFrc(in, f *xinst) {
	for c := range 4 {
		if in.mask>>c&1 == 0 {
			continue
		}
		kb, kc := f32(in.src[1].c[c])[0], f32(in.src[2].c[c])[0]
		if f.mask>>c&1 == 0 {
			kMadXKK(in.dst[c], in.src[0].c[c], in.src[1].c[c], in.src[2].c[c])
			continue
		}
		madFrcXKK(f.dst[c], in.dst[c], in.src[0].c[c], kb, kc)
	}
}

// madFrcXKK is kMadXKK into t, then kFrc of t into r, four lanes at a
// time: the same operations, the values kept in registers between them.
// r or t may be a (each lane is read before it is written), or each other
// (r is written last, as frc writes after mad).
func madFrcXKK(r, t, a *[Lanes]uint32, kb, kc float32) {
	rf, tf, af := f32(r), f32(t), f32(a)
	for i := 0; i < Lanes; i += 4 {
		x0 := float32(af[i]*kb) + kc
		x1 := float32(af[i+1]*kb) + kc
		x2 := float32(af[i+2]*kb) + kc
		x3 := float32(af[i+3]*kb) + kc
		if s := (x0 + x1) + (x2 + x3); s != s {
			x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
		}
		tf[i], tf[i+1], tf[i+2], tf[i+3] = x0, x1, x2, x3
		if max(t[i], t[i+1], t[i+2], t[i+3]) < 0x4B000000 {
			rf[i] = x0 - float32(int32(x0))
			rf[i+1] = x1 - float32(int32(x1))
			rf[i+2] = x2 - float32(int32(x2))
			rf[i+3] = x3 - float32(int32(x3))
			continue
		}
		for j := i; j < i+4; j++ {
			x := tf[j]
			rf[j] = cn(x - float32(math.Floor(float64(x))))
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

// runStraight runs the n instructions from code[0] for every lane, as alu
// runs each with every lane active, without Run's dispatch between them.
func (m *Machine) runStraight(code []xinst) {
	for j := range code {
		in := &code[j]
		a, b, c := &in.src[0].c, &in.src[1].c, &in.src[2].c
		if in.nsrc < 3 {
			c = a
			if in.nsrc < 2 {
				b = a
			}
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
