package hlsl

// Lanes forwarded: a vector put together by movs from the results of
// several instructions (`dp3 r4.x ...`, `dp3 r5.x ...`, `dp3 r6.x ...`,
// then `mov r4.y, r5.x` and `mov r4.z, r6.x`; four dp4 into r2 then
// `mov o1.xyzw, r2.xyzw`) is computed where it goes: each instruction
// writes its lanes of the mov's destination, as fxc writes
// `dp3 r0.x`, `dp3 r0.y`, `dp3 r0.z` and `dp4 o1.x` ... `dp4 o1.w`.
// forwardResults does this for one instruction whose result only the mov
// reads; here the mov's lanes may come from several instructions of its
// basic block and, when the destination is a temp, other reads of them
// in the block read the destination instead (a mov into the same lanes
// again, now of the register to itself, goes). What the pass needs: the
// instructions write nothing but the lanes the mov reads, nothing between
// them and the mov reads or writes the destination's lanes, and a later
// read comes before anything else writes them.

// forwardLanes forwards the lanes of the movs it can; it reports whether
// it changed code.
func forwardLanes(code []Instr, temps int) ([]Instr, bool) {
	readers := make([][]int, temps) // temp -> instructions reading it
	for i := range code {
		code[i].reads(func(r, c int) {
			if r >= 0 && r < temps {
				if n := len(readers[r]); n == 0 || readers[r][n-1] != i {
					readers[r] = append(readers[r], i)
				}
			}
		})
	}
	f := buildFlow(code)
	dead := make([]bool, len(code))
	changed := false
	for i := range code {
		if !dead[i] && forwardMov(code, f, readers, dead, i) {
			changed = true
		}
	}
	if !changed {
		return code, false
	}
	kept := code[:0]
	for i, x := range code {
		if !dead[i] && !identityMov(&x) {
			kept = append(kept, x)
		}
	}
	return kept, true
}

// identityMov is a mov of a register's lanes to themselves.
func identityMov(x *Instr) bool {
	if x.Op != OpMov || x.Sat || len(x.Dst) != 1 {
		return false
	}
	d, s := x.Dst[0], x.Src[0]
	return d.File == FileTemp && s.File == FileTemp && d.Index == s.Index && d.Rel == nil && s.Rel == nil &&
		!s.Neg && !s.Abs && identitySwz(s, d.Mask)
}

// forwardMov forwards the lanes of the mov code[i], if it can.
func forwardMov(code []Instr, f *flowGraph, readers [][]int, dead []bool, i int) bool {
	mv := &code[i]
	if mv.Op != OpMov || mv.Sat || len(mv.Dst) != 1 {
		return false
	}
	d, s := mv.Dst[0], mv.Src[0]
	if d.File != FileTemp && d.File != FileOutput || d.Rel != nil || s.File != FileTemp || s.Neg || s.Abs || s.Rel != nil ||
		s.Index < 0 || s.Index >= len(readers) || d.File == FileTemp && d.Index == s.Index {
		return false
	}
	var comps uint8 // s's lanes the mov reads
	var dOf [4]int  // s lane -> d lane
	for c := 0; c < 4; c++ {
		if d.Mask&(1<<c) != 0 {
			comps |= 1 << (s.Swz[c] & 3)
			dOf[s.Swz[c]&3] = c
		}
	}
	if bitsSet(comps) != bitsSet(d.Mask) {
		return false
	}
	dLanes := func(sl uint8) uint8 {
		var m uint8
		for c := 0; c < 4; c++ {
			if sl&(1<<c) != 0 {
				m |= 1 << dOf[c]
			}
		}
		return m
	}
	// The writes of the lanes, going back through the block.
	b := f.block[i]
	type def struct {
		at    int
		lanes uint8 // s's
	}
	var defs []def
	need := comps
	var blocked uint8 // d's lanes read or written between a write and the mov
	for k := i - 1; k >= f.start[b] && need != 0; k-- {
		if dead[k] {
			continue
		}
		x := &code[k]
		var w uint8
		for _, o := range x.Dst {
			if o.File == FileTemp && o.Index == s.Index {
				w |= o.Mask
			}
		}
		if w&need != 0 {
			if w&^need != 0 || len(x.Dst) != 1 || x.Dst[0].Rel != nil || !x.removable() || !lanesMovable(x) ||
				dLanes(w)&blocked != 0 {
				return false
			}
			defs = append(defs, def{k, w})
			need &^= w
		}
		blocked |= touchedLanes(x, d)
	}
	if need != 0 || len(defs) == 0 {
		return false
	}
	first := defs[len(defs)-1].at
	// The other reads of the lanes: in the block, after their write, each
	// operand reading only lanes the mov reads; and, past the mov, before
	// anything else writes d's lanes or s's.
	type use struct {
		at, src int // src -1: a destination's relative index
	}
	var uses []use
	for _, p := range readers[s.Index] {
		if p == i || dead[p] {
			continue
		}
		x := &code[p]
		for k := range x.Src {
			o := x.Src[k]
			if o.File == FileTemp && o.Index == s.Index {
				rl := readComps(x, k)
				if rl&comps != 0 {
					if rl&^comps != 0 {
						return false
					}
					uses = append(uses, use{p, k})
				}
			}
			if o.Rel != nil && o.Rel.File == FileTemp && o.Rel.Index == s.Index && comps&(1<<(o.Rel.Swz[0]&3)) != 0 {
				uses = append(uses, use{p, -2 - k})
			}
		}
		for k, o := range x.Dst {
			if o.Rel != nil && o.Rel.File == FileTemp && o.Rel.Index == s.Index && comps&(1<<(o.Rel.Swz[0]&3)) != 0 {
				uses = append(uses, use{p, -100 - k})
			}
		}
	}
	for _, u := range uses {
		if d.File != FileTemp || f.block[u.at] != b || u.at <= first {
			return false
		}
		for _, df := range defs {
			if u.at <= df.at {
				return false // reads an earlier value of the lanes
			}
		}
		for q := i + 1; q < u.at; q++ {
			x := &code[q]
			if dead[q] || identityAfter(x, d, s, dOf) {
				continue
			}
			if writtenMask(x, d)&d.Mask != 0 {
				return false
			}
			for _, o := range x.Dst {
				if o.File == FileTemp && o.Index == s.Index && o.Mask&comps != 0 {
					return false
				}
			}
		}
	}
	// Rewrite: the writes to d's lanes, the reads to d, the mov gone.
	for _, df := range defs {
		x := &code[df.at]
		retargetLanes(x, d, df.lanes, dOf)
	}
	for _, u := range uses {
		x := &code[u.at]
		switch {
		case u.src >= 0:
			o := &x.Src[u.src]
			o.Index = d.Index
			for c := 0; c < 4; c++ {
				o.Swz[c] = uint8(dOf[o.Swz[c]&3])
			}
		case u.src > -100:
			r := x.Src[-2-u.src].Rel
			r.Index = d.Index
			r.Swz[0] = uint8(dOf[r.Swz[0]&3])
		default:
			r := x.Dst[-100-u.src].Rel
			r.Index = d.Index
			r.Swz[0] = uint8(dOf[r.Swz[0]&3])
		}
	}
	for _, u := range uses {
		readers[d.Index] = append(readers[d.Index], u.at)
	}
	dead[i] = true
	return true
}

// readComps is the components of its register source k of x reads.
func readComps(x *Instr, k int) uint8 {
	var m uint8
	lanes := x.readLanes(k)
	for c := 0; c < 4; c++ {
		if lanes&(1<<c) != 0 {
			m |= 1 << (x.Src[k].Swz[c] & 3)
		}
	}
	return m
}

// identityAfter reports a mov of s's lanes into the same lanes of d as
// the forwarded mov: once forwarded, a mov of d to itself.
func identityAfter(x *Instr, d, s Operand, dOf [4]int) bool {
	if x.Op != OpMov || x.Sat || len(x.Dst) != 1 {
		return false
	}
	o, src := x.Dst[0], x.Src[0]
	if o.File != d.File || o.Index != d.Index || o.Rel != nil || src.File != FileTemp || src.Index != s.Index ||
		src.Neg || src.Abs || src.Rel != nil {
		return false
	}
	for c := 0; c < 4; c++ {
		if o.Mask&(1<<c) != 0 && (d.Mask&(1<<c) == 0 || dOf[src.Swz[c]&3] != c) {
			return false
		}
	}
	return true
}

// writtenMask is the lanes of register d that x writes.
func writtenMask(x *Instr, d Operand) uint8 {
	var m uint8
	for _, o := range x.Dst {
		if o.File == d.File && o.Index == d.Index {
			m |= o.Mask
		}
	}
	return m
}

// touchedLanes is the lanes of register d that x reads or writes (an
// output is never read).
func touchedLanes(x *Instr, d Operand) uint8 {
	m := writtenMask(x, d)
	if d.File == FileTemp {
		x.reads(func(r, c int) {
			if r == d.Index {
				m |= 1 << c
			}
		})
	}
	return m
}

// lanesMovable reports an instruction whose result lanes can be written
// to other lanes: lane by lane ones (their sources' swizzles follow), a
// dot product (one value) and the texture reads whose texel swizzle
// picks the lanes.
func lanesMovable(x *Instr) bool {
	switch x.Op {
	case OpDp2, OpDp3, OpDp4, OpSample, OpSampleL, OpSampleB, OpSampleD, OpLd:
		return true
	}
	return lanewise(x.Op)
}

// retargetLanes makes x, which writes lanes of s, write d's lanes dOf[c]
// instead.
func retargetLanes(x *Instr, d Operand, lanes uint8, dOf [4]int) {
	var mask uint8
	for c := 0; c < 4; c++ {
		if lanes&(1<<c) != 0 {
			mask |= 1 << dOf[c]
		}
	}
	remap := func(o *Operand) {
		old := *o
		for c := 0; c < 4; c++ {
			if lanes&(1<<c) != 0 {
				o.Swz[dOf[c]] = old.Swz[c]
				o.Imm[dOf[c]] = old.Imm[c]
			}
		}
	}
	switch x.Op {
	case OpDp2, OpDp3, OpDp4:
	case OpSample, OpSampleL, OpSampleB, OpSampleD, OpLd:
		t, _ := resPos(x.Op)
		remap(&x.Src[t])
	default:
		for k := range x.Src {
			remap(&x.Src[k])
		}
	}
	nd := d
	nd.Mask = mask
	x.Dst[0] = nd
}
