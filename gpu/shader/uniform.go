package shader

import (
	"unsafe"

	. "d3dsim/gpu/shaderisa"
)

// Uniform values: a block whose every lane runs (mask all lanes) and whose
// sources hold one value in every lane computes an integer op once, not
// per lane — a counted loop's counter, its test and its break, which every
// lane runs alike. Run keeps, per register, the components known to hold
// one value in every lane (Machine.uni): an immediate or a cb element
// always does; a register component does after an instruction of this
// path wrote it, until any other write to it (a partial mask, any other
// op, a relative destination: then nothing is known). The results are the
// per-lane kernels' (TestUniformAgainstReference).

const (
	uniNone  = -1 // no register written; or a source not known uniform
	uniAll   = -2 // may write any register: forget everything
	uniConst = -3 // a source that is the same in every lane
)

// uniformOps are the ops evaluated once: integer, one or two sources, the
// same result as their kernel (intOp).
var uniformOps = [NumOps]bool{OpMov: true, OpIAdd: true, OpILt: true, OpIGe: true, OpIEq: true, OpINe: true,
	OpULt: true, OpUGe: true, OpAnd: true, OpOr: true, OpXor: true}

// resolveUniform fills x's uniform fields from in.
func (m *Machine) resolveUniform(x *xinst, in *Inst) {
	x.uniDst = uniNone
	switch {
	case in.Op.MemDst() || x.dstRel:
		x.uniDst = uniAll
	case in.Op.HasDst():
		x.uniDst = int32(m.regIndex(in.Dst.File, in.Dst.Index))
	}
	for k := range x.uniSrc {
		x.uniSrc[k] = uniNone
		if k >= len(in.Src) {
			continue
		}
		s := &in.Src[k]
		switch {
		case s.Rel || s.Neg || s.Abs:
		case s.File == FileImm || s.File == FileCB:
			x.uniSrc[k] = uniConst
		case s.File == FileTemp || s.File == FileInput || s.File == FileOutput:
			x.uniSrc[k] = int32(m.regIndex(s.File, s.Index))
		}
	}
	x.uniOp = uniformOps[in.Op] && !in.Sat && x.uniDst >= 0 && x.plain && len(in.Src) <= 2
}

// regIndex is the index in regs of a temp, input or output register.
func (m *Machine) regIndex(f File, i uint32) int {
	switch f {
	case FileInput:
		return int(i)
	case FileOutput:
		return len(m.in) + int(i)
	}
	return len(m.in) + len(m.out) + int(i)
}

// uniformSrc reports whether component c of source k holds one value in
// every lane.
func (m *Machine) uniformSrc(in *xinst, k int, c uint8) bool {
	switch r := in.uniSrc[k]; {
	case r == uniConst:
		return true
	case r >= 0:
		return m.uni[r]>>c&1 != 0
	}
	return false
}

// uniformAlu runs in once for every lane when its sources' components are
// uniform: it writes the value to all lanes of each component and marks
// them (uniSet); false when a source is not (nothing written).
func (m *Machine) uniformAlu(in *xinst) bool {
	var v [4]uint32
	for c := range 4 {
		if in.mask>>c&1 == 0 {
			continue
		}
		a, b := in.src[0].c[c], in.src[0].c[c]
		if !m.uniformSrc(in, 0, in.src[0].swz[c]) {
			return false
		}
		if in.nsrc > 1 {
			if !m.uniformSrc(in, 1, in.src[1].swz[c]) {
				return false
			}
			b = in.src[1].c[c]
		}
		v[c] = intOp(in.op, a[0], b[0])
	}
	// All computed before any is written: a destination component may be
	// another's source.
	for c := range 4 {
		if in.mask>>c&1 != 0 {
			fill(in.dst[c], v[c])
		}
	}
	m.uniSet = in.mask
	return true
}

// intOp is the kernel of op (uniformOps) for one lane.
func intOp(op Op, a, b uint32) uint32 {
	switch op {
	case OpIAdd:
		return a + b
	case OpILt:
		return mask(int32(a) < int32(b))
	case OpIGe:
		return mask(int32(a) >= int32(b))
	case OpIEq:
		return mask(a == b)
	case OpINe:
		return mask(a != b)
	case OpULt:
		return mask(a < b)
	case OpUGe:
		return mask(a >= b)
	case OpAnd:
		return a & b
	case OpOr:
		return a | b
	case OpXor:
		return a ^ b
	}
	return a // mov
}

func fill(d *[Lanes]uint32, v uint32) {
	if vecOK {
		fillVec(d, v)
		return
	}
	// Two lanes a store: half the stores of a lane at a time (the
	// counted loops' and the movs of immediates' fills).
	w := (*[Lanes / 2]uint64)(unsafe.Pointer(d))
	v2 := uint64(v) | uint64(v)<<32
	for i := range w {
		w[i] = v2
	}
}
