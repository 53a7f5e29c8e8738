package shader

import (
	"math"
	"math/bits"

	. "d3dsim/gpu/shaderisa"
)

// Fused instruction pairs (issue 32): a sequence the HLSL compiler writes
// often, run as one pass over the lanes so that the first instruction's
// result goes on to the second in a register instead of being stored and
// loaded again, and the second's dispatch is saved. Found when the machine
// is made (findFused). The first one: `frac(p * k + c)`, the bench loop's
// `mad r4.xy, r1.xyxx, l(1.9), l(0.13)` then `frc r1.xy, r4.xyxx`.
//
// Every result is the unfused machine's bits: the same float32 operations
// in the same order (the product rounded before the sum, no fused
// multiply-add), canonical NaNs, and both destinations written (the
// intermediate register is kept: no liveness is assumed). Steps and
// LaneSteps count both instructions, so virtual time is unchanged; the
// pair runs fused only for a whole block, without a trace, when both of
// its steps fit under the step limit (else it runs as two instructions and
// faults where they would). Neither instruction can fault otherwise, and
// the second is never a jump target (targets follow a flow instruction).
// Only the default build's scalar kernels are fused: a GOEXPERIMENT=simd
// build's vector kernels run each instruction eight lanes at a time.
// TestFusedPairs compares random programs fused and unfused.

// The pairs: a mad whose next instruction is a frc it feeds; a mul of one
// component whose next instruction is a three-component mad reading it
// (the loop's `mul r5.x, r1.x, r1.y` then `mad r0.xyz, v1.xyzx, r5.x,
// r0.xyzx`, Phong's last two).
const (
	fuseMadFrc = 1 + iota
	fuseMulMad3
)

// findFused marks the pairs of m.code that run fused.
func (m *Machine) findFused(p *Program) {
	if vecOK {
		return
	}
	for pc := 0; pc+1 < len(p.Code); pc++ {
		switch {
		case madFrcPair(&p.Code[pc], &p.Code[pc+1]):
			m.code[pc].fuse = fuseMadFrc
		case mulMad3Pair(&p.Code[pc], &p.Code[pc+1]) && m.code[pc+1].direct:
			m.code[pc].fuse = fuseMulMad3
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
		if max(math.Float32bits(x0), math.Float32bits(x1), math.Float32bits(x2), math.Float32bits(x3)) < 0x4B000000 {
			rf[i] = x0 - float32(int32(x0))
			rf[i+1] = x1 - float32(int32(x1))
			rf[i+2] = x2 - float32(int32(x2))
			rf[i+3] = x3 - float32(int32(x3))
			continue
		}
		for j, x := range [4]float32{x0, x1, x2, x3} {
			rf[i+j] = cn(x - float32(math.Floor(float64(x))))
		}
	}
}

// mulMad3Pair reports whether mul a and mad d form a pair fusedMulMad3
// runs: a writes one component, d three, and every component of d reads
// it; no modifier, saturate or relative operand. (d must also write its
// destination as it goes, xinst.direct: no component it writes is read by
// a later one.)
func mulMad3Pair(a, d *Inst) bool {
	if a.Op != OpMul || d.Op != OpMad || a.Sat || d.Sat || a.Dst.Rel || d.Dst.Rel ||
		a.Dst.File != FileTemp || d.Dst.File != FileTemp && d.Dst.File != FileOutput ||
		bits.OnesCount8(a.Dst.Mask) != 1 || bits.OnesCount8(d.Dst.Mask) != 3 {
		return false
	}
	for _, s := range []*Operand{&a.Src[0], &a.Src[1], &d.Src[0], &d.Src[1], &d.Src[2]} {
		if s.Rel || s.Neg || s.Abs {
			return false
		}
	}
	tc := uint8(bits.TrailingZeros8(a.Dst.Mask))
	for k := range 3 {
		s := &d.Src[k]
		if s.File != FileTemp || s.Index != a.Dst.Index {
			continue
		}
		reads := true
		for c := range 4 {
			if d.Dst.Mask>>c&1 != 0 && s.Swizzle[c] != tc {
				reads = false
			}
		}
		if reads {
			return true
		}
	}
	return false
}

// fusedMulMad3 runs the pair mul (in) then mad (d) for every lane, four
// lanes at a time: the mul's lanes are stored, then the mad's three
// components read their sources (the mul's result among them, just
// stored) and store theirs, each lane read before it is written.
func fusedMulMad3(in, d *xinst) {
	tc := bits.TrailingZeros8(in.mask)
	var k [3]int
	n := 0
	for c := range 4 {
		if d.mask>>c&1 != 0 {
			k[n] = c
			n++
		}
	}
	t, a, b := f32(in.dst[tc]), f32(in.src[0].c[tc]), f32(in.src[1].c[tc])
	x0, y0, z0, r0 := f32(d.src[0].c[k[0]]), f32(d.src[1].c[k[0]]), f32(d.src[2].c[k[0]]), f32(d.dst[k[0]])
	x1, y1, z1, r1 := f32(d.src[0].c[k[1]]), f32(d.src[1].c[k[1]]), f32(d.src[2].c[k[1]]), f32(d.dst[k[1]])
	x2, y2, z2, r2 := f32(d.src[0].c[k[2]]), f32(d.src[1].c[k[2]]), f32(d.src[2].c[k[2]]), f32(d.dst[k[2]])
	for i := 0; i < Lanes; i += 4 {
		mulFour(t, a, b, i)
		madFour(r0, x0, y0, z0, i)
		madFour(r1, x1, y1, z1, i)
		madFour(r2, x2, y2, z2, i)
	}
}

// mulFour is kMul for lanes i to i+3.
func mulFour(r, a, b *[Lanes]float32, i int) {
	x0, x1, x2, x3 := a[i]*b[i], a[i+1]*b[i+1], a[i+2]*b[i+2], a[i+3]*b[i+3]
	if s := (x0 + x1) + (x2 + x3); s != s {
		x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
	}
	r[i], r[i+1], r[i+2], r[i+3] = x0, x1, x2, x3
}

// madFour is kMad for lanes i to i+3.
func madFour(r, a, b, c *[Lanes]float32, i int) {
	x0 := float32(a[i]*b[i]) + c[i]
	x1 := float32(a[i+1]*b[i+1]) + c[i+1]
	x2 := float32(a[i+2]*b[i+2]) + c[i+2]
	x3 := float32(a[i+3]*b[i+3]) + c[i+3]
	if s := (x0 + x1) + (x2 + x3); s != s {
		x0, x1, x2, x3 = cn(x0), cn(x1), cn(x2), cn(x3)
	}
	r[i], r[i+1], r[i+2], r[i+3] = x0, x1, x2, x3
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
