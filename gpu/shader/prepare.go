package shader

import . "d3dsim/gpu/shaderisa"

// What the executor derives from a decoded program once, in NewMachine:
// the matched control flow (Program.Flow), whether it runs whole quads,
// and the registers a block must start at zero.

// zeroReg is a register component set a block must start at zero: read
// before any unconditional write (so no value of a previous block leaks),
// or an output not written on every path.
type zeroReg struct {
	file  File
	index uint32
	mask  uint8
}

// needsQuads reports whether p takes derivatives or samples with implicit
// derivatives: Run then runs whole quads.
func needsQuads(p *Program) bool {
	for i := range p.Code {
		switch p.Code[i].Op {
		case OpSample, OpSampleB, OpDerivX, OpDerivY, OpDerivXFine, OpDerivYFine, OpSampleC, OpLod:
			return true
		}
	}
	return false
}

// findZero lists the temp components read before an unconditional write
// and the output components not written unconditionally: Run zeroes them,
// so that a block never sees a value left by another (the tile-parallel
// GPU runs blocks on several Machines in no fixed order).
func findZero(p *Program) (zero []zeroReg) {
	written := map[[2]uint32]uint8{} // {file, index} -> mask
	readFirst := map[uint32]uint8{}
	depth := 0
	returned := false // after a ret, a later write misses the lanes that left
	readRel := func(o *Operand) {
		if o.Rel {
			readFirst[o.RelReg] |= 1 << o.RelComp &^ written[[2]uint32{uint32(FileTemp), o.RelReg}]
		}
	}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op == OpLabel {
			// A subroutine may be called before the main program writes
			// what it reads: within it, nothing counts as written yet.
			for k := range written {
				if k[0] == uint32(FileTemp) {
					delete(written, k)
				}
			}
		}
		for k := range in.Src {
			s := &in.Src[k]
			readRel(s)
			if s.File != FileTemp {
				continue
			}
			var m uint8
			for _, c := range s.Swizzle {
				m |= 1 << c
			}
			if in.Op.HasTest() {
				m = 1 << s.Swizzle[0]
			}
			if s.Rel {
				// Any register of the array may be read: each one not
				// yet written starts at zero.
				for r := s.Index; r < s.Index+s.Len; r++ {
					readFirst[r] |= m &^ written[[2]uint32{uint32(FileTemp), r}]
				}
				continue
			}
			readFirst[s.Index] |= m &^ written[[2]uint32{uint32(FileTemp), s.Index}]
		}
		if in.Op.HasDst() {
			readRel(&in.Dst)
		}
		switch in.Op {
		case OpIf, OpLoop:
			depth++
		case OpEndIf, OpEndLoop:
			depth--
		case OpRet, OpRetc:
			returned = true
		}
		if in.Op.HasDst() && depth == 0 && !in.Dst.Rel && !(returned && in.Dst.File == FileOutput) {
			written[[2]uint32{uint32(in.Dst.File), in.Dst.Index}] |= in.Dst.Mask
		}
	}
	for r := uint32(0); r < uint32(p.Temps); r++ {
		if m := readFirst[r]; m != 0 {
			zero = append(zero, zeroReg{FileTemp, r, m})
		}
	}
	for r := uint32(0); r < uint32(p.Outputs); r++ {
		if m := 0xF &^ written[[2]uint32{uint32(FileOutput), r}]; m != 0 {
			zero = append(zero, zeroReg{FileOutput, r, m})
		}
	}
	return zero
}
