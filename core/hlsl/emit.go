package hlsl

import (
	"math"
	"slices"
)

// alloc takes a fresh temp register.
func (g *gen) alloc() int {
	r := g.top
	g.top++
	if g.top > g.maxTemp {
		g.maxTemp = g.top
	}
	if g.top > MaxTemps && !g.tooBig {
		g.errorf(pos{g.line, 1}, eNotImplemented, "shader needs more than %d temp registers, the limit of every shader model 4 and 5 profile", MaxTemps)
		g.tooBig = true
	}
	return r
}

func (g *gen) emit(in Instr) {
	if len(g.code) >= g.lim.Instructions {
		if !g.tooBig {
			g.errorf(pos{g.line, 1}, eNotImplemented, "shader longer than %d instructions, the limit (%s; shader model 4 and 5 guarantee 65536 instruction slots)", g.lim.Instructions, limitName("Instructions"))
			g.tooBig = true
		}
		return
	}
	in.Line = g.line
	if len(g.code) == cap(g.code) {
		g.code = slices.Grow(g.code, max(len(g.code), 64)) // doubling: append's 1.25x steps allocate five times the final size
	}
	g.code = append(g.code, in)
}

// laneSrc builds one source operand whose lane i reads lanes[i] for each
// lane in used. Lanes from different registers are gathered into a temp.
func (g *gen) laneSrc(lanes [4]Operand, used uint8) Operand {
	first := -1
	ok := true
	imm := true
	for i := 0; i < 4; i++ {
		if used&(1<<i) == 0 {
			continue
		}
		if first < 0 {
			first = i
		}
		if lanes[i].File != FileImm {
			imm = false
		}
		if !sameReg(lanes[i], lanes[first]) {
			ok = false
		}
	}
	if first < 0 {
		return immU(0)
	}
	if imm {
		o := Operand{File: FileImm, Float: lanes[first].Float}
		for i := 0; i < 4; i++ {
			if used&(1<<i) != 0 {
				o.Imm[i] = lanes[i].Imm[0]
			} else {
				o.Imm[i] = lanes[first].Imm[0]
			}
		}
		return o
	}
	if ok {
		o := lanes[first]
		for i := 0; i < 4; i++ {
			if used&(1<<i) != 0 {
				o.Swz[i] = lanes[i].Swz[0]
			} else {
				o.Swz[i] = lanes[first].Swz[0]
			}
		}
		return o
	}
	// Gather: one mov per group of lanes that share a register.
	t := g.alloc()
	done := uint8(0)
	for i := 0; i < 4; i++ {
		if used&(1<<i) == 0 || done&(1<<i) != 0 {
			continue
		}
		var grp [4]Operand
		mask := uint8(0)
		for j := i; j < 4; j++ {
			if used&(1<<j) != 0 && done&(1<<j) == 0 && (sameReg(lanes[j], lanes[i]) || lanes[i].File == FileImm && lanes[j].File == FileImm) {
				grp[j] = lanes[j]
				mask |= 1 << j
			}
		}
		done |= mask
		src := g.laneSrc(grp, mask)
		g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: t, Mask: mask}}, Src: []Operand{src}})
	}
	o := Operand{File: FileTemp, Index: t, Swz: [4]uint8{0, 1, 2, 3}}
	return o
}

// srcOp makes a source of up to four components, lane i = c[i].
func (g *gen) srcOp(c []Operand) Operand {
	var lanes [4]Operand
	used := uint8(0)
	for i := 0; i < len(c) && i < 4; i++ {
		lanes[i] = c[i]
		used |= 1 << i
	}
	return g.laneSrc(lanes, used)
}

func broadcast(c []Operand, n int) []Operand {
	if len(c) == n {
		return c
	}
	out := make([]Operand, n)
	for i := range out {
		out[i] = c[min(i, len(c)-1)]
	}
	return out
}

// op emits a component-wise instruction over n components (split in
// groups of four) into fresh temps, folding it when every source is an
// immediate, and returns the result's components.
func (g *gen) op(o Op, n int, srcs ...[]Operand) []Operand {
	for i := range srcs {
		srcs[i] = broadcast(srcs[i], n)
	}
	if groups := laneGroups(n, srcs); groups != nil {
		return g.opGroups(o, n, groups, srcs)
	}
	var out []Operand
	for base := 0; base < n; base += 4 {
		k := min(4, n-base)
		if folded, ok := g.fold(o, k, base, srcs); ok {
			out = append(out, folded...)
			continue
		}
		ops := make([]Operand, len(srcs))
		for i, s := range srcs {
			ops[i] = g.srcOp(s[base : base+k])
		}
		t := g.alloc()
		dst := Operand{File: FileTemp, Index: t, Mask: uint8(1<<k - 1)}
		in := Instr{Op: o, Dst: []Operand{dst}, Src: ops}
		switch o {
		case OpImul: // imul hi, lo, a, b
			in.Dst = []Operand{{File: FileNull}, dst}
		case OpUdiv: // udiv quotient, remainder, a, b
			in.Dst = []Operand{dst, {File: FileNull}}
		}
		g.emit(in)
		out = append(out, regComps(FileTemp, t, k)...)
	}
	return out
}

// opRem emits udiv for its remainder.
func (g *gen) opRem(n int, a, b []Operand) []Operand {
	a, b = broadcast(a, n), broadcast(b, n)
	var out []Operand
	for base := 0; base < n; base += 4 {
		k := min(4, n-base)
		t := g.alloc()
		g.emit(Instr{Op: OpUdiv, Dst: []Operand{{File: FileNull}, {File: FileTemp, Index: t, Mask: uint8(1<<k - 1)}},
			Src: []Operand{g.srcOp(a[base : base+k]), g.srcOp(b[base : base+k])}})
		out = append(out, regComps(FileTemp, t, k)...)
	}
	return out
}

// fold computes an instruction at compile time when all its sources are
// immediates and it is one the evaluator runs lane by lane.
func (g *gen) fold(o Op, k, base int, srcs [][]Operand) ([]Operand, bool) {
	if !lanewise(o) {
		return nil, false
	}
	for _, s := range srcs {
		if !allImm(s[base : base+k]) {
			return nil, false
		}
	}
	out := make([]Operand, k)
	for i := 0; i < k; i++ {
		var a [3]uint32
		for j, s := range srcs {
			a[j] = s[base+i].Imm[0]
		}
		r := laneOp(o, a[0], a[1], a[2])
		out[i] = immU(r)
		out[i].Float = floatResult(o)
	}
	return out, true
}

// assign writes src's components into dst's (temp or output components).
func (g *gen) assign(dst, src []Operand, sat bool) {
	if len(dst) == 0 {
		return
	}
	// Group destination components by register, in order.
	type group struct {
		d     Operand
		lanes [4]Operand
		mask  uint8
	}
	var groups []*group
	find := func(d Operand) *group {
		for _, gr := range groups {
			if gr.d.File == d.File && gr.d.Index == d.Index && gr.d.Elem == d.Elem && gr.d.Rel == d.Rel {
				return gr
			}
		}
		gr := &group{d: d}
		groups = append(groups, gr)
		return gr
	}
	for i, d := range dst {
		gr := find(d)
		c := d.Swz[0]
		if gr.mask&(1<<c) != 0 {
			// The same component twice (x.xx = ...): the last one wins.
		}
		gr.mask |= 1 << c
		gr.lanes[c] = src[min(i, len(src)-1)]
	}
	if len(groups) > 1 {
		// A later mov must not read what an earlier one wrote.
		for _, s := range src {
			for _, gr := range groups {
				if s.File == gr.d.File && s.Index == gr.d.Index {
					src = g.copyTemp(src)
					g.assign(dst, src, sat)
					return
				}
			}
		}
	}
	for _, gr := range groups {
		// Lanes from several registers are moved straight into the
		// destination, one mov per source register, unless one of them
		// reads the destination itself (then they are gathered first).
		selfRead := false
		for i := 0; i < 4; i++ {
			l := gr.lanes[i]
			if gr.mask&(1<<i) != 0 && l.File == gr.d.File && l.Index == gr.d.Index && (l.File != FileIndexable || l.Elem == gr.d.Elem && l.Rel == gr.d.Rel) {
				selfRead = true
			}
		}
		done := uint8(0)
		for i := 0; i < 4 && !selfRead; i++ {
			if gr.mask&(1<<i) == 0 || done&(1<<i) != 0 {
				continue
			}
			var sub [4]Operand
			m := uint8(0)
			for j := i; j < 4; j++ {
				if gr.mask&(1<<j) != 0 && done&(1<<j) == 0 && (sameReg(gr.lanes[j], gr.lanes[i]) || gr.lanes[i].File == FileImm && gr.lanes[j].File == FileImm) {
					sub[j] = gr.lanes[j]
					m |= 1 << j
				}
			}
			done |= m
			g.emit(Instr{Op: OpMov, Sat: sat, Dst: []Operand{{File: gr.d.File, Index: gr.d.Index, Elem: gr.d.Elem, Rel: gr.d.Rel, Mask: m}}, Src: []Operand{g.laneSrc(sub, m)}})
		}
		if selfRead {
			s := g.laneSrc(gr.lanes, gr.mask)
			g.emit(Instr{Op: OpMov, Sat: sat, Dst: []Operand{{File: gr.d.File, Index: gr.d.Index, Elem: gr.d.Elem, Rel: gr.d.Rel, Mask: gr.mask}}, Src: []Operand{s}})
		}
	}
}

// copyTemp moves components into fresh temps.
func (g *gen) copyTemp(c []Operand) []Operand {
	var out []Operand
	for base := 0; base < len(c); base += 4 {
		k := min(4, len(c)-base)
		t := g.alloc()
		g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: t, Mask: uint8(1<<k - 1)}}, Src: []Operand{g.srcOp(c[base : base+k])}})
		out = append(out, regComps(FileTemp, t, k)...)
	}
	return out
}

func fbits(f float32) uint32 { return math.Float32bits(f) }
