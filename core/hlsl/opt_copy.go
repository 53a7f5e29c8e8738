package hlsl

// Copy propagation and constant folding: after `mov r1.xy, v0.zw` a read
// of r1.y reads v0.w instead, wherever the copy holds on every path to the
// read (and the mov, if nobody reads r1 any more, goes with dead code); an
// instruction whose sources are then all immediates is computed here (for
// the instructions the reference evaluator runs lane by lane) and becomes a
// mov of the result. A copy's -x and |x| go along into float operations;
// _sat copies are not followed, and a condition (if, breakc, discard,
// switch) or a relative index never becomes an immediate.

// copySrc is where a temp component's value was copied from.
type copySrc struct {
	o        Operand // the register (File, Index, Elem, Rel) or immediate
	c        uint8   // its component (immediates: the lane's bits in o.Imm[0])
	neg, abs bool    // the float modifiers the copy applied (`mov r1.x, -|v0.y|`)
}

func copyProp(code []Instr, temps int) ([]Instr, bool) {
	if len(code) == 0 {
		return code, false
	}
	f := buildFlow(code)
	changed := false
	global := constCopies(code, temps)
	cf := newCopyFacts(code)
	in := cf.available(code, f)
	cur := make(bitset, cf.words)
	// local are the copies of movs this walk made (an add folded into a
	// mov of its value): few, checked first.
	local := map[[2]int]copySrc{}
	lookup := func(r, c int) (copySrc, bool) {
		if cs, ok := local[[2]int{r, c}]; ok {
			return cs, true
		}
		if id := cf.active(cur, r, c); id >= 0 {
			return cf.facts[id].cs, true
		}
		cs, ok := global[[2]int{r, c}]
		return cs, ok
	}
	for b := range f.start {
		clear(cur)
		if in != nil {
			copy(cur, in[b])
		}
		clear(local)
		for i := f.start[b]; i < f.end[b]; i++ {
			x := &code[i]
			wasMov := x.Op == OpMov
			if rewriteSources(x, lookup) {
				changed = true
			}
			folded := foldInstr(x) || simplify(x)
			changed = changed || folded
			// The copies of the code as it was: still true after the
			// rewrite (a copy of a copy is a copy of both); a new mov's
			// are local.
			cf.step(code, cur, i)
			if len(local) > 0 || folded && !wasMov {
				if !(folded && !wasMov) {
					killCopies(x, local)
				} else {
					copyStep(x, local)
				}
			}
		}
	}
	return code, changed
}

// maxCopyWork bounds the global analysis of copies (blocks times words of
// a set of copies): beyond it each block starts with none.
const maxCopyWork = 1 << 22

type bitset []uint64

// copyFacts are a program's copies, one per mov and lane written, with
// the indexes to end them when a register is written.
type copyFacts struct {
	facts     []copyFact
	words     int
	genAt     [][]int            // instruction -> the copies it starts
	byDst     map[[2]int][]int   // (temp, lane) -> copies into it
	bySrcTemp map[[2]int][]int   // (temp, lane) -> copies from it
	bySrcReg  map[[2]int][]int   // (file, index) of other files -> copies from it
	byRel     map[int][]int      // temp -> copies through a relative index in it
	scratch   map[[2]int]copySrc // copyStep's
}

type copyFact struct {
	dst [2]int
	cs  copySrc
}

func newCopyFacts(code []Instr) *copyFacts {
	cf := &copyFacts{genAt: make([][]int, len(code)), byDst: map[[2]int][]int{}, bySrcTemp: map[[2]int][]int{},
		bySrcReg: map[[2]int][]int{}, byRel: map[int][]int{}, scratch: map[[2]int]copySrc{}}
	for i := range code {
		clear(cf.scratch)
		copyStep(&code[i], cf.scratch) // on an empty set: what it starts
		for c := 0; c < 4; c++ {
			if len(cf.scratch) == 0 {
				break
			}
			for k, cs := range cf.scratch {
				if k[1] != c || !cf.room(k, cs) {
					continue
				}
				id := len(cf.facts)
				cf.facts = append(cf.facts, copyFact{k, cs})
				cf.genAt[i] = append(cf.genAt[i], id)
				cf.byDst[k] = append(cf.byDst[k], id)
				switch {
				case cs.o.File == FileTemp:
					key := [2]int{cs.o.Index, int(cs.c)}
					cf.bySrcTemp[key] = append(cf.bySrcTemp[key], id)
				case cs.o.File != FileImm:
					key := [2]int{int(cs.o.File), cs.o.Index}
					cf.bySrcReg[key] = append(cf.bySrcReg[key], id)
				}
				if cs.o.Rel != nil {
					cf.byRel[cs.o.Rel.Index] = append(cf.byRel[cs.o.Rel.Index], id)
				}
			}
		}
	}
	cf.words = (len(cf.facts) + 63) / 64
	return cf
}

// maxFactsPerReg bounds the copies into, or from, one register lane (or
// register of another file): a lane written over and over (a variable
// updated in a long run of code) would otherwise cost every write a walk
// over all of them. Copies past it are not followed.
const maxFactsPerReg = 64

// room reports whether a copy into k of cs fits under maxFactsPerReg.
func (cf *copyFacts) room(k [2]int, cs copySrc) bool {
	if len(cf.byDst[k]) >= maxFactsPerReg {
		return false
	}
	switch {
	case cs.o.File == FileTemp:
		if len(cf.bySrcTemp[[2]int{cs.o.Index, int(cs.c)}]) >= maxFactsPerReg {
			return false
		}
	case cs.o.File != FileImm:
		if len(cf.bySrcReg[[2]int{int(cs.o.File), cs.o.Index}]) >= maxFactsPerReg {
			return false
		}
	}
	return cs.o.Rel == nil || len(cf.byRel[cs.o.Rel.Index]) < maxFactsPerReg
}

func (cf *copyFacts) clr(b bitset, ids []int) {
	for _, id := range ids {
		b[id>>6] &^= 1 << (id & 63)
	}
}

// step applies instruction i to the set of copies b: what it writes ends
// the copies into it and from it, then it starts its own.
func (cf *copyFacts) step(code []Instr, b bitset, i int) {
	x := &code[i]
	for _, d := range x.Dst {
		if d.File == FileNull {
			continue
		}
		if d.File != FileTemp {
			cf.clr(b, cf.bySrcReg[[2]int{int(d.File), d.Index}])
			continue
		}
		cf.clr(b, cf.byRel[d.Index])
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) != 0 {
				cf.clr(b, cf.byDst[[2]int{d.Index, c}])
				cf.clr(b, cf.bySrcTemp[[2]int{d.Index, c}])
			}
		}
	}
	for _, id := range cf.genAt[i] {
		b[id>>6] |= 1 << (id & 63)
	}
}

// active is the copy into temp r's lane c that b holds, or -1.
func (cf *copyFacts) active(b bitset, r, c int) int {
	for _, id := range cf.byDst[[2]int{r, c}] {
		if b[id>>6]&(1<<(id&63)) != 0 {
			return id
		}
	}
	return -1
}

// available is, for each block, the copies that hold on entry on every
// path to it (a forward analysis, the intersection over predecessors);
// nil when the analysis would cost more than maxCopyWork.
func (cf *copyFacts) available(code []Instr, f *flowGraph) []bitset {
	n := len(f.start)
	if cf.words == 0 || n*cf.words > maxCopyWork {
		return nil
	}
	preds := make([][]int, n)
	for b, ss := range f.succ {
		for _, s := range ss {
			preds[s] = append(preds[s], b)
		}
	}
	in := make([]bitset, n)
	out := make([]bitset, n) // nil: not reached yet (every copy)
	cur := make(bitset, cf.words)
	for changed := true; changed; {
		changed = false
		for b := 0; b < n; b++ {
			first := true
			clear(cur)
			if b != 0 {
				for _, p := range preds[b] {
					if out[p] == nil {
						continue
					}
					if first {
						copy(cur, out[p])
						first = false
						continue
					}
					for w := range cur {
						cur[w] &= out[p][w]
					}
				}
			}
			if in[b] == nil {
				in[b] = make(bitset, cf.words)
			}
			copy(in[b], cur)
			for i := f.start[b]; i < f.end[b]; i++ {
				cf.step(code, cur, i)
			}
			if out[b] == nil {
				out[b] = make(bitset, cf.words)
				copy(out[b], cur)
				changed = true
				continue
			}
			for w := range cur {
				if cur[w] != out[b][w] {
					copy(out[b], cur)
					changed = true
					break
				}
			}
		}
	}
	return in
}

// copyStep updates the copies held past instruction x: what it writes
// ends the copies of it and from it; a mov starts one.
func copyStep(x *Instr, avail map[[2]int]copySrc) {
	killCopies(x, avail)
	genCopies(x, avail)
}

// killCopies ends the copies into and from what x writes.
func killCopies(x *Instr, avail map[[2]int]copySrc) {
	for _, d := range x.Dst {
		if d.File == FileNull {
			continue
		}
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) == 0 {
				continue
			}
			if d.File == FileTemp {
				delete(avail, [2]int{d.Index, c})
			}
			for k, s := range avail {
				if s.o.File == d.File && s.o.Index == d.Index && (d.File != FileTemp || int(s.c) == c) ||
					s.o.Rel != nil && d.File == FileTemp && s.o.Rel.Index == d.Index {
					delete(avail, k)
				}
			}
		}
	}
}

// genCopies starts the copies a mov makes.
func genCopies(x *Instr, avail map[[2]int]copySrc) {
	if x.Op == OpMov && !x.Sat && len(x.Dst) == 1 && x.Dst[0].File == FileTemp && modSrc(x.Src[0]) {
		d, s := x.Dst[0], x.Src[0]
		if s.File == FileTemp && s.Index == d.Index {
			return // a swizzle of itself: not a copy
		}
		neg, abs := s.Neg, s.Abs
		s.Neg, s.Abs = false, false
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) == 0 {
				continue
			}
			cs := copySrc{o: s, c: s.Swz[c], neg: neg, abs: abs}
			if s.File == FileImm {
				cs.o.Imm = [4]uint32{s.Imm[c]}
				cs.c = 0
			}
			avail[[2]int{d.Index, c}] = cs
		}
	}
}

// constCopies are the copies that hold everywhere: a temp written once
// in the whole program, by a mov of an immediate, a constant buffer or an
// input register (none of which a shader writes), has that value wherever
// it is read (after splitWebs a temp is one value's register).
func constCopies(code []Instr, temps int) map[[2]int]copySrc {
	writes := make([]int, temps)
	for _, in := range code {
		for _, d := range in.Dst {
			if d.File == FileTemp && d.Index >= 0 && d.Index < temps {
				writes[d.Index]++
			}
		}
	}
	out := map[[2]int]copySrc{}
	for _, in := range code {
		if in.Op != OpMov || in.Sat || len(in.Dst) != 1 || in.Dst[0].File != FileTemp || !plainSrc(in.Src[0]) {
			continue
		}
		d, s := in.Dst[0], in.Src[0]
		if d.Index < 0 || d.Index >= temps || writes[d.Index] != 1 || s.Rel != nil {
			continue
		}
		switch s.File {
		case FileImm, FileCB, FileInput:
		default:
			continue
		}
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) == 0 {
				continue
			}
			cs := copySrc{o: s, c: s.Swz[c]}
			if s.File == FileImm {
				cs.o.Imm = [4]uint32{s.Imm[c]}
				cs.c = 0
			}
			out[[2]int{d.Index, c}] = cs
		}
	}
	return out
}

// plainSrc is a source a copy may be taken from: no modifiers, a register
// file every instruction reads.
func plainSrc(s Operand) bool {
	if s.Neg || s.Abs {
		return false
	}
	switch s.File {
	case FileTemp, FileInput, FileCB, FileImm, FileIndexable:
		return true
	}
	return false
}

// modSrc is a source a copy may be taken from with its modifiers: a
// register (an immediate's modifiers are folded before).
func modSrc(s Operand) bool {
	if s.File == FileImm {
		return plainSrc(s)
	}
	s.Neg, s.Abs = false, false
	return plainSrc(s)
}

// floatMods reports whether source k of in takes float modifiers, so a
// copy that applied some can be read through by applying them here.
func floatMods(in *Instr, k int) bool {
	if !floatOp(in.Op) || texOp(in.Op) || in.Op == OpMovc && k == 0 {
		return false
	}
	return lanewise(in.Op) || in.Op == OpDp2 || in.Op == OpDp3 || in.Op == OpDp4
}

// rewriteSources reads copies through: an operand whose read lanes all
// come from one register (or are all immediates) reads it instead.
func rewriteSources(in *Instr, avail func(r, c int) (copySrc, bool)) bool {
	changed := false
	for k := range in.Src {
		s := &in.Src[k]
		if foldRel(s, avail) {
			changed = true
		}
		if s.File != FileTemp {
			continue
		}
		lanes := in.readLanes(k)
		var from *copySrc
		ok := lanes != 0
		var got [4]copySrc
		for i := 0; i < 4 && ok; i++ {
			if lanes&(1<<i) == 0 {
				continue
			}
			cs, has := avail(s.Index, int(s.Swz[i]&3))
			if !has {
				ok = false
				break
			}
			got[i] = cs
			if from == nil {
				from = &got[i]
			} else if cs.o.File != from.o.File || cs.o.File != FileImm && (cs.o.Index != from.o.Index || cs.o.Elem != from.o.Elem || cs.o.Rel != from.o.Rel) ||
				cs.neg != from.neg || cs.abs != from.abs {
				ok = false
			}
		}
		if !ok || from == nil || (from.neg || from.abs) && !floatMods(in, k) {
			continue
		}
		if from.o.File == FileImm {
			switch in.Op {
			case OpIf, OpBreakc, OpDiscard, OpSwitch, OpCase:
				continue // conditions stay registers (vkd3d 1.2 mistranslates some)
			}
			n := *s
			n.File, n.Index, n.Elem, n.Rel, n.Float = FileImm, 0, 0, nil, from.o.Float
			first := -1
			for i := 0; i < 4; i++ {
				if lanes&(1<<i) != 0 {
					n.Imm[i] = got[i].o.Imm[0]
					if first < 0 {
						first = i
					}
				}
			}
			for i := 0; i < 4; i++ {
				if lanes&(1<<i) == 0 {
					n.Imm[i] = n.Imm[first]
				}
			}
			n.Swz = [4]uint8{}
			*s = n
			changed = true
			continue
		}
		n := *s
		n.File, n.Index, n.Elem, n.Rel = from.o.File, from.o.Index, from.o.Elem, from.o.Rel
		// |(-|x|)| is |x|; -(-x) is x.
		if n.Abs {
			n.Neg = s.Neg
		} else {
			n.Abs, n.Neg = from.abs, s.Neg != from.neg
		}
		first := uint8(0)
		set := false
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) != 0 {
				n.Swz[i] = got[i].c
				if !set {
					first, set = got[i].c, true
				}
			}
		}
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) == 0 {
				n.Swz[i] = first
			}
		}
		*s = n
		changed = true
	}
	return changed
}

// foldRel turns a constant buffer read indexed by a temp that holds a
// constant into a read of the register it names: cb0[r0.x + 4] with r0.x
// 1 is cb0[5] (an unrolled loop's counter). The buffer's declaration
// grows to cover it (cbUse).
func foldRel(s *Operand, avail func(r, c int) (copySrc, bool)) bool {
	if s.File != FileCB || s.Rel == nil || s.Rel.File != FileTemp {
		return false
	}
	cs, ok := avail(s.Rel.Index, int(s.Rel.Swz[0]&3))
	if !ok || cs.o.File != FileImm || cs.neg || cs.abs {
		return false
	}
	e := int64(s.Elem) + int64(int32(cs.o.Imm[0]))
	if e < 0 || e >= maxCBRegs {
		return false
	}
	s.Elem, s.Rel = int(e), nil
	return true
}

// maxCBRegs is a constant buffer's size in registers (4096, D3D11's
// D3D11_REQ_CONSTANT_BUFFER_ELEMENT_COUNT).
const maxCBRegs = 4096

// cbUse is, after optimisation, how code reads each constant buffer slot:
// one past the last register it reads at a constant index, and whether it
// still indexes it by a register (dcl_constantbuffer's size and
// dynamicIndexed, as fxc declares them).
func cbUse(code []Instr, regs map[int]int, dyn map[int]bool) {
	for i := range code {
		for _, s := range code[i].Src {
			if s.File != FileCB {
				continue
			}
			if s.Rel != nil {
				dyn[s.Index] = true
			} else if s.Elem+1 > regs[s.Index] {
				regs[s.Index] = s.Elem + 1
			}
		}
	}
}

// foldInstr computes an instruction whose sources are all immediates.
func foldInstr(in *Instr) bool {
	if !lanewise(in.Op) || in.Op == OpMov || len(in.Dst) != 1 || in.Dst[0].File == FileNull {
		return false
	}
	for _, s := range in.Src {
		if s.File != FileImm {
			return false
		}
	}
	isF := floatOp(in.Op)
	var v [4]uint32
	for i := 0; i < 4; i++ {
		var a [3]uint32
		for j, s := range in.Src {
			x := applyMods([4]uint32{s.Imm[i]}, s, isF && !(in.Op == OpMovc && j == 0))
			a[j] = x[0]
		}
		v[i] = laneOp(in.Op, a[0], a[1], a[2])
		if in.Sat {
			f := f32(v[i])
			switch {
			case f != f || f < 0:
				f = 0
			case f > 1:
				f = 1
			}
			v[i] = fbits(f)
		}
	}
	*in = Instr{Op: OpMov, Dst: in.Dst, Src: []Operand{{File: FileImm, Imm: v, Float: floatResult(in.Op)}}, Line: in.Line}
	return true
}

// simplify applies the identities fxc applies to float arithmetic with
// an immediate operand: x * 1 and x + 0 are x, mad(a, 1, c) is a + c,
// mad(a, b, 0) is a * b, and x * 0 and mad(a, 0, c) drop the product (as
// fxc's default refactoring allows: they differ only for an infinite or
// NaN operand).
func simplify(in *Instr) bool {
	if len(in.Dst) != 1 || in.Sat && in.Op != OpMad && in.Op != OpMul && in.Op != OpAdd {
		return false
	}
	all := func(o Operand, bits uint32) bool {
		if o.File != FileImm || o.Neg || o.Abs {
			return false
		}
		lanes := in.Dst[0].Mask
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) != 0 && o.Imm[i] != bits {
				return false
			}
		}
		return true
	}
	const one, zero, negZero = 0x3f800000, 0, 0x80000000
	isZero := func(o Operand) bool { return all(o, zero) || all(o, negZero) }
	switch in.Op {
	case OpMul:
		switch {
		case all(in.Src[1], one):
			in.Op, in.Src = OpMov, in.Src[:1]
		case all(in.Src[0], one):
			in.Op, in.Src = OpMov, in.Src[1:2]
		case isZero(in.Src[0]) || isZero(in.Src[1]):
			in.Op, in.Src = OpMov, []Operand{immF(0)}
		default:
			return false
		}
	case OpAdd:
		switch {
		case isZero(in.Src[1]):
			in.Op, in.Src = OpMov, in.Src[:1]
		case isZero(in.Src[0]):
			in.Op, in.Src = OpMov, in.Src[1:2]
		default:
			return false
		}
	case OpMovc:
		pick, ok := movcPick(in)
		if !ok {
			return false
		}
		in.Op, in.Src = OpMov, []Operand{in.Src[pick]}
		return true
	case OpMad:
		switch {
		case isZero(in.Src[0]) || isZero(in.Src[1]):
			in.Op, in.Src = OpMov, in.Src[2:3]
		case all(in.Src[1], one):
			in.Op, in.Src = OpAdd, []Operand{in.Src[0], in.Src[2]}
		case all(in.Src[0], one):
			in.Op, in.Src = OpAdd, []Operand{in.Src[1], in.Src[2]}
		case isZero(in.Src[2]):
			in.Op, in.Src = OpMul, in.Src[:2]
		default:
			return false
		}
	default:
		return false
	}
	if in.Op == OpMov && in.Src[0].File == FileImm {
		// The kept immediate reads the destination's lanes.
		in.Src[0].Float = true
	}
	return true
}

// movcPick is the source a movc always takes: the first (true) or second
// (false) value where its condition is an immediate the same in every lane
// written, or the first where both values read the same.
func movcPick(in *Instr) (int, bool) {
	lanes := in.Dst[0].Mask
	c, a, b := in.Src[0], in.Src[1], in.Src[2]
	if c.File == FileImm {
		pick := -1
		for i := 0; i < 4; i++ {
			if lanes&(1<<i) == 0 {
				continue
			}
			k := 2
			if c.Imm[i] != 0 {
				k = 1
			}
			if pick >= 0 && pick != k {
				return 0, false
			}
			pick = k
		}
		return pick, pick > 0
	}
	if a.File != b.File || a.Index != b.Index || a.Elem != b.Elem || a.Neg != b.Neg || a.Abs != b.Abs || a.Rel != nil || b.Rel != nil {
		return 0, false
	}
	for i := 0; i < 4; i++ {
		if lanes&(1<<i) != 0 && (a.File == FileImm && a.Imm[i] != b.Imm[i] || a.File != FileImm && a.Swz[i] != b.Swz[i]) {
			return 0, false
		}
	}
	return 1, true
}

// forwardResults writes a result straight where a mov after it copies
// it: `add r1.xy, a, b` ... `mov o0.zw, r1.xxxy` becomes `add o0.zw, a', b'`
// (the sources' swizzles turned to the new lanes) when nothing else reads
// r1 and, between the two, nothing reads or writes o0.zw; as fxc writes
// outputs and vector parts directly. A mov_sat gives its saturation to a
// float result. Inside a basic block; after splitWebs, so a register's
// reads are its value's.
func forwardResults(code []Instr, temps int) ([]Instr, bool) {
	reads := make([]int, temps)
	for i := range code {
		code[i].reads(func(r, c int) {
			if r >= 0 && r < temps {
				reads[r]++
			}
		})
	}
	f := buildFlow(code)
	changed := false
	dead := make([]bool, len(code))
	for i := range code {
		mv := &code[i]
		if mv.Op != OpMov || len(mv.Dst) != 1 || mv.Dst[0].File == FileNull || mv.Dst[0].Rel != nil {
			continue
		}
		s, d := mv.Src[0], mv.Dst[0]
		if s.File != FileTemp || s.Neg || s.Abs || s.Rel != nil || s.Index < 0 || s.Index >= temps || d.File == FileTemp && d.Index == s.Index {
			continue
		}
		var comps uint8 // r's components the mov reads
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) != 0 {
				comps |= 1 << (s.Swz[c] & 3)
			}
		}
		if bitsSet(d.Mask) != reads[s.Index] || bitsSet(comps) != bitsSet(d.Mask) {
			continue // r is read elsewhere, or the mov reads a component twice
		}
		// The write of r before the mov in its block; nothing between may
		// touch d's lanes (or r).
		j := -1
		for k := i - 1; k >= f.start[f.block[i]]; k-- {
			x := &code[k]
			if dead[k] {
				continue
			}
			if writesTemp(x, s.Index) {
				j = k
				break
			}
			if touches(x, d) {
				break
			}
		}
		if j < 0 {
			continue
		}
		def := &code[j]
		// The write may have more lanes: nobody reads them.
		if len(def.Dst) != 1 || !def.removable() || def.Dst[0].File != FileTemp || def.Dst[0].Mask&comps != comps || def.Dst[0].Rel != nil {
			continue
		}
		if mv.Sat && !def.Sat && !floatResult(def.Op) {
			continue
		}
		identity := true
		for c := 0; c < 4; c++ {
			if d.Mask&(1<<c) != 0 && int(s.Swz[c]&3) != c {
				identity = false
			}
		}
		switch {
		case identity:
		case lanewise(def.Op):
			// Lane c of the new result is lane s.Swz[c] of the old one.
			for k := range def.Src {
				o := &def.Src[k]
				old := *o
				for c := 0; c < 4; c++ {
					if d.Mask&(1<<c) != 0 {
						o.Swz[c] = old.Swz[s.Swz[c]&3]
						o.Imm[c] = old.Imm[s.Swz[c]&3]
					}
				}
			}
		case def.Op == OpDp2 || def.Op == OpDp3 || def.Op == OpDp4:
			// One value, in every lane written.
		case def.Op == OpSample || def.Op == OpSampleL || def.Op == OpSampleB || def.Op == OpSampleD || def.Op == OpLd:
			// The texture operand's swizzle picks the texel's lanes
			// (`sample r1.yz, v1.xyxx, t1.zxyw, s0`).
			t, _ := resPos(def.Op)
			old := def.Src[t].Swz
			for c := 0; c < 4; c++ {
				if d.Mask&(1<<c) != 0 {
					def.Src[t].Swz[c] = old[s.Swz[c]&3]
				}
			}
		default:
			continue
		}
		def.Dst[0] = d
		def.Sat = def.Sat || mv.Sat
		reads[s.Index] = -1
		dead[i] = true
		changed = true
	}
	if !changed {
		return code, false
	}
	kept := code[:0]
	for i, x := range code {
		if !dead[i] {
			kept = append(kept, x)
		}
	}
	return kept, true
}

// writesTemp reports whether in writes temp r.
func writesTemp(in *Instr, r int) bool {
	for _, d := range in.Dst {
		if d.File == FileTemp && d.Index == r {
			return true
		}
	}
	return false
}

// touches reports whether in reads or writes any lane of register d's
// mask (or d at all, when it is not a temp).
func touches(in *Instr, d Operand) bool {
	for _, x := range in.Dst {
		if x.File == d.File && x.Index == d.Index && (d.File != FileTemp || x.Mask&d.Mask != 0) {
			return true
		}
	}
	hit := false
	if d.File == FileTemp {
		in.reads(func(r, c int) {
			if r == d.Index && d.Mask&(1<<c) != 0 {
				hit = true
			}
		})
		return hit
	}
	for _, s := range in.Src {
		if s.File == d.File && s.Index == d.Index {
			return true
		}
	}
	return false
}
