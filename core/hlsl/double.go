package hlsl

import (
	"math"
	"strings"

	"d3dsim/core/dxbc"
)

// Doubles: double and double2..4 ("Scalar Types", "Shader Model 5
// Assembly": dadd, dmul, dmin, dmax, dmov, deq, dge, dlt, dne, dtof,
// ftod; ddiv and dfma are Direct3D 11.1's extended doubles).
//
// A double lives in two adjacent 32-bit lanes of one register, the low
// word in x or z and the high word in y or w, as the instructions read
// it. A value's component is the operand of its low lane (the high one is
// the next lane), so swizzles, vector indexing and struct members reorder
// components as they do for floats; what moves or computes them is here:
// the conversions (convertBase), arithmetic and comparisons (binop),
// negation and ++/-- (unary), ?: (movc on the lanes), assignment and
// copies (store, snapshot), constant-buffer reads (8-byte components) and
// the intrinsics that take a double (min, max, abs, asuint's three-argument
// form, asdouble; others are refused by name). An immediate double keeps
// its low word in Imm[0] and its high word in Imm[1].
//
// Shader model 5.0 has no conversion between doubles and integers (itod,
// dtoi ... are 11.1's), so such a conversion is folded when its operand
// is a constant and refused otherwise, naming why. The optimiser leaves a
// shader with doubles as generated: its passes reason per 32-bit lane.

// isDouble reports a double scalar or vector.
func isDouble(t *Type) bool { return t.numeric() && t.Base == Double }

// doubleOp reports an instruction on doubles.
func doubleOp(o Op) bool { return o >= OpDadd && o <= OpDfma }

// hasDoubles reports whether code uses a double instruction, and one of
// Direct3D 11.1's extended doubles.
func hasDoubles(code []Instr) (doubles, ext bool) {
	for i := range code {
		if doubleOp(code[i].Op) {
			doubles = true
			ext = ext || code[i].Op == OpDdiv || code[i].Op == OpDfma
		}
	}
	return doubles, ext
}

// doubleFlags are the dcl_globalFlags a program with doubles needs:
// enableDoublePrecisionFloatOps, and enable11_1DoubleExtensions for ddiv
// and dfma, as fxc sets them.
func doubleFlags(code []Instr) uint32 {
	d, ext := hasDoubles(code)
	var f uint32
	if d {
		f |= dxbc.FlagEnableDoublePrecision
	}
	if ext {
		f |= dxbc.FlagEnable11_1DoubleExt
	}
	return f
}

// doubleReadLanes is readLanes for the double instructions: each double
// written or read takes a pair of lanes.
func (in *Instr) doubleReadLanes(k int) (uint8, bool) {
	if !doubleOp(in.Op) {
		return 0, false
	}
	m := in.Dst[0].Mask
	switch in.Op {
	case OpDeq, OpDge, OpDlt, OpDne, OpDtof: // 32-bit results from doubles: x from xy, y from zw
		var r uint8
		if m&1 != 0 {
			r |= dxbc.XY
		}
		if m&2 != 0 {
			r |= 0xc
		}
		return r, true
	case OpFtod: // doubles from 32-bit floats: xy from x, zw from y
		var r uint8
		if m&0x3 != 0 {
			r |= 1
		}
		if m&0xc != 0 {
			r |= 2
		}
		return r, true
	}
	return m, true
}

func dbits(o Operand) float64 { return math.Float64frombits(uint64(o.Imm[1])<<32 | uint64(o.Imm[0])) }

func immD(f float64) Operand {
	b := math.Float64bits(f)
	return Operand{File: FileImm, Imm: [4]uint32{uint32(b), uint32(b >> 32)}}
}

// dsrc is the source operand of double o for an instruction writing one
// double: its lanes in the pair of each half.
func dsrc(o Operand) Operand {
	if o.File == FileImm {
		return Operand{File: FileImm, Imm: [4]uint32{o.Imm[0], o.Imm[1], o.Imm[0], o.Imm[1]}}
	}
	l := o.Swz[0]
	o.Swz = [4]uint8{l, l + 1, l, l + 1}
	return o
}

// dlanes lists doubles' lanes, low then high, for the 32-bit machinery
// (assign, movc, copies).
func dlanes(c []Operand) []Operand {
	out := make([]Operand, 0, 2*len(c))
	for _, o := range c {
		if o.File == FileImm {
			out = append(out, immU(o.Imm[0]), immU(o.Imm[1]))
			continue
		}
		h := o
		h.Swz[0]++
		out = append(out, o, h)
	}
	return out
}

// djoin is dlanes' inverse: doubles from pairs of lanes, moved into a
// register pair of their own where the two are not already one.
func (g *gen) djoin(l []Operand) []Operand {
	out := make([]Operand, 0, len(l)/2)
	for i := 0; i+1 < len(l); i += 2 {
		lo, hi := l[i], l[i+1]
		switch {
		case lo.File == FileImm && hi.File == FileImm:
			out = append(out, Operand{File: FileImm, Imm: [4]uint32{lo.Imm[0], hi.Imm[0]}})
		case sameReg(lo, hi) && !lo.Neg && !lo.Abs && lo.Swz[0]%2 == 0 && hi.Swz[0] == lo.Swz[0]+1:
			out = append(out, lo)
		default:
			t := g.alloc()
			g.assign(regComps(FileTemp, t, 2), []Operand{lo, hi}, false)
			out = append(out, comp(FileTemp, t, 0))
		}
	}
	return out
}

// dop emits op writing one double (or, for the comparisons and dtof, one
// 32-bit lane) from the sources, folding constants.
func (g *gen) dop(o Op, srcs ...Operand) Operand {
	if r, ok := dfold(o, srcs); ok {
		return r
	}
	ops := make([]Operand, len(srcs))
	for i, s := range srcs {
		if o == OpFtod {
			s.Swz = [4]uint8{s.Swz[0], s.Swz[0], s.Swz[0], s.Swz[0]}
			ops[i] = s
			continue
		}
		ops[i] = dsrc(s)
	}
	mask := uint8(dxbc.XY)
	switch o {
	case OpDeq, OpDge, OpDlt, OpDne, OpDtof:
		mask = 1
	}
	t := g.alloc()
	g.emit(Instr{Op: o, Dst: []Operand{{File: FileTemp, Index: t, Mask: mask}}, Src: ops})
	return comp(FileTemp, t, 0)
}

// dfold computes op on constant doubles as the GPU does (IEEE-754 double
// arithmetic; a comparison gives all bits set for true).
func dfold(o Op, srcs []Operand) (Operand, bool) {
	for _, s := range srcs {
		if s.File != FileImm {
			return Operand{}, false
		}
	}
	d := func(i int) float64 {
		v := dbits(srcs[i])
		if srcs[i].Abs {
			v = math.Abs(v)
		}
		if srcs[i].Neg {
			v = -v
		}
		return v
	}
	switch o {
	case OpFtod:
		return immD(float64(math.Float32frombits(srcs[0].Imm[0]))), true
	case OpDtof:
		return immF(float32(d(0))), true
	case OpDmov:
		return immD(d(0)), true
	case OpDadd:
		return immD(d(0) + d(1)), true
	case OpDmul:
		return immD(d(0) * d(1)), true
	case OpDdiv:
		return immD(d(0) / d(1)), true
	case OpDfma:
		return immD(math.FMA(d(0), d(1), d(2))), true
	case OpDmin:
		return immD(math.Min(d(0), d(1))), true
	case OpDmax:
		return immD(math.Max(d(0), d(1))), true
	case OpDeq:
		return immU(b2u(d(0) == d(1))), true
	case OpDne:
		return immU(b2u(d(0) != d(1))), true
	case OpDlt:
		return immU(b2u(d(0) < d(1))), true
	case OpDge:
		return immU(b2u(d(0) >= d(1))), true
	}
	return Operand{}, false
}

// dneg is -o.
func (g *gen) dneg(o Operand) Operand {
	if o.File == FileImm {
		o.Imm[1] ^= 0x80000000
		return o
	}
	o.Neg = true
	return g.dop(OpDmov, o)
}

// dconvert is convertBase to or from double, component by component.
func (g *gen) dconvert(c []Operand, from, to Base) []Operand {
	out := make([]Operand, len(c))
	for i, o := range c {
		switch {
		case to == Double && from == Float:
			out[i] = g.dop(OpFtod, o)
		case to == Double && from == Bool:
			out[i] = g.dop(OpFtod, g.convertBase([]Operand{o}, Bool, Float)[0])
		case to == Double && o.File == FileImm:
			v := float64(o.Imm[0])
			if from == Int {
				v = float64(int32(o.Imm[0]))
			}
			out[i] = immD(v)
		case from == Double && to == Float:
			out[i] = g.dop(OpDtof, o)
		case from == Double && to == Bool:
			out[i] = g.dop(OpDne, o, immD(0))
		case from == Double && o.File == FileImm:
			f := dbits(o)
			if to == Int {
				out[i] = immU(uint32(ftoi64(f)))
			} else {
				out[i] = immU(ftou64(f))
			}
		default:
			g.errorf(pos{g.line, 1}, eNotImplemented, "not supported by this compiler: a conversion from %s to %s that is not a constant (shader model 5.0 has no instruction for it: itod, utod, dtoi and dtou are Direct3D 11.1's extended doubles)", from, to)
			out[i] = immU(0)
		}
	}
	return out
}

// ftoi64 and ftou64 convert as ftoi and ftou do: toward zero, clamped, NaN
// to 0.
func ftoi64(f float64) int32 {
	switch {
	case f != f:
		return 0
	case f >= 2147483647:
		return math.MaxInt32
	case f <= -2147483648:
		return math.MinInt32
	}
	return int32(f)
}

func ftou64(f float64) uint32 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 4294967295:
		return math.MaxUint32
	}
	return uint32(f)
}

// dbinop is binop where an operand is a double: the arithmetic and the
// comparisons (the logical operators convert to bool as for any type;
// the bitwise ones are a type mismatch).
func (g *gen) dbinop(p pos, op string, x, y *value) (*value, bool) {
	cmp := map[string]Op{"<": OpDlt, ">": OpDlt, ">=": OpDge, "<=": OpDge, "==": OpDeq, "!=": OpDne}
	arith := map[string]Op{"+": OpDadd, "-": OpDadd, "*": OpDmul, "/": OpDdiv}
	o, isCmp := cmp[op]
	if !isCmp {
		var ok bool
		if o, ok = arith[op]; !ok {
			if op == "%" {
				g.errorf(p, eNotImplemented, "not supported by this compiler: %% on doubles (shader model 5 has no double remainder)")
				return poison, true
			}
			return nil, false
		}
	}
	t := g.opType(p, x.t, y.t, !isCmp)
	if t == nil {
		return poison, true
	}
	a, b := g.convert(p, x, t, false), g.convert(p, y, t, false)
	if a == poison || b == poison {
		return poison, true
	}
	out := make([]Operand, t.comps())
	for i := range out {
		l, r := a.c[i], b.c[i]
		switch op {
		case ">", "<=":
			l, r = r, l
		case "-":
			if r.File == FileImm {
				r.Imm[1] ^= 0x80000000
			} else {
				r.Neg = !r.Neg // the source modifier: dadd a, -b
			}
		}
		out[i] = g.dop(o, l, r)
	}
	if isCmp {
		return &value{t: t.withBase(Bool), c: out}, true
	}
	return &value{t: t, c: out}, true
}

// dunary is unary minus and ++/-- on a double.
func (g *gen) dunary(e *unaryExpr, x *value) (*value, bool) {
	switch e.op {
	case "-":
		c := make([]Operand, len(x.c))
		for i, o := range x.c {
			c[i] = g.dneg(o)
		}
		return &value{t: x.t, c: c, ro: true}, true
	case "++", "--":
		if x.ro {
			g.errorf(e.pos, eConst, "l-value specifies const object")
			return poison, true
		}
		var old *value
		if e.postfix {
			old = g.dsnapshot(x)
		}
		one := immD(1)
		if e.op == "--" {
			one = immD(-1)
		}
		n := make([]Operand, len(x.c))
		for i, o := range x.c {
			n[i] = g.dop(OpDadd, o, one)
		}
		g.store(e.pos, x, &value{t: x.t, c: n}, false)
		if e.postfix {
			return old, true
		}
		return rvalue(x), true
	}
	return nil, false
}

// dselect is c ? a : b on doubles: movc on their lanes, each condition
// lane twice.
func (g *gen) dselect(t *Type, cond, a, b []Operand) *value {
	cl := make([]Operand, 0, 2*len(cond))
	for _, o := range cond {
		cl = append(cl, o, o)
	}
	r := g.op(OpMovc, 2*t.comps(), cl, dlanes(a), dlanes(b))
	return &value{t: t, c: g.djoin(r)}
}

// dsnapshot copies a double value into fresh registers.
func (g *gen) dsnapshot(v *value) *value {
	return &value{t: v.t, c: g.djoin(g.copyTemp(dlanes(v.c))), ro: true}
}

// dassign stores doubles: both lanes of each.
func (g *gen) dassign(p pos, dst, src *value) {
	if dst.wb != nil {
		g.errorf(p, eNotImplemented, "not supported by this compiler: a double written through a dynamic index")
		return
	}
	for _, d := range dst.c {
		if d.File != FileTemp && d.File != FileIndexable {
			g.errorf(p, eConst, "l-value specifies const object")
			return
		}
	}
	g.assign(dlanes(dst.c), dlanes(broadcast(src.c, len(dst.c))), false)
}

// dmakeVar gives a double scalar or vector its registers: two doubles
// per register, in xy and zw.
func (g *gen) dmakeVar(t *Type) *value {
	v := &value{t: t}
	r := 0
	for i := 0; i < t.Cols; i++ {
		if i%2 == 0 {
			r = g.alloc()
		}
		v.c = append(v.c, comp(FileTemp, r, 2*(i%2)))
	}
	return v
}

// dmemComps are the components of a double scalar or vector at byte
// offset off of a constant buffer (8 bytes each), and the last register
// they touch.
func dmemComps(t *Type, off int, mk func(r, c int) Operand) ([]Operand, int) {
	var c []Operand
	last := off / 16
	for i := 0; i < t.Cols; i++ {
		b := off + 8*i
		c = append(c, mk(b/16, (b%16)/4))
		last = b / 16
	}
	return c, last
}

// dintrinsic lowers the intrinsics that take or make doubles; ok false
// for a call with no double in it.
func (g *gen) dintrinsic(e *callExpr, args []*value) (*value, bool) {
	has := e.name == "asdouble"
	for _, a := range args {
		has = has || isDouble(a.t)
	}
	if !has {
		return nil, false
	}
	switch {
	case e.name == "asdouble" && len(args) == 2:
		t := g.opType(e.pos, args[0].t, args[1].t, false)
		if t == nil || t.Kind == KMatrix {
			g.errorf(e.pos, eNoOverload, "'asdouble': no matching 2 parameter intrinsic function")
			return poison, true
		}
		t = t.withBase(Uint)
		lo, hi := g.convert(e.pos, args[0], t, true), g.convert(e.pos, args[1], t, true)
		if lo == poison || hi == poison {
			return poison, true
		}
		l := make([]Operand, 0, 2*t.comps())
		for i := range lo.c {
			l = append(l, lo.c[i], hi.c[i])
		}
		return &value{t: t.withBase(Double), c: g.djoin(l), ro: true}, true
	case (e.name == "min" || e.name == "max") && len(args) == 2:
		t := g.opType(e.pos, args[0].t, args[1].t, true)
		if t == nil {
			return poison, true
		}
		a, b := g.convert(e.pos, args[0], t, false), g.convert(e.pos, args[1], t, false)
		o := OpDmin
		if e.name == "max" {
			o = OpDmax
		}
		out := make([]Operand, t.comps())
		for i := range out {
			out[i] = g.dop(o, a.c[i], b.c[i])
		}
		return &value{t: t, c: out}, true
	case e.name == "abs" && len(args) == 1:
		out := make([]Operand, len(args[0].c))
		for i, o := range args[0].c {
			if o.File == FileImm {
				o.Imm[1] &^= 0x80000000
				out[i] = o
				continue
			}
			o.Abs = true
			out[i] = g.dop(OpDmov, o)
		}
		return &value{t: args[0].t, c: out}, true
	case e.name == "fma" && len(args) == 3:
		t := g.opType(e.pos, args[0].t, args[1].t, true)
		if t != nil {
			t = g.opType(e.pos, t, args[2].t, true)
		}
		if t == nil || t.Base != Double {
			g.errorf(e.pos, eNoOverload, "'fma': no matching 3 parameter intrinsic function")
			return poison, true
		}
		a, b, c := g.convert(e.pos, args[0], t, false), g.convert(e.pos, args[1], t, false), g.convert(e.pos, args[2], t, false)
		out := make([]Operand, t.comps())
		for i := range out {
			out[i] = g.dop(OpDfma, a.c[i], b.c[i], c.c[i])
		}
		return &value{t: t, c: out}, true
	case e.name == "asuint" && len(args) == 3 && isDouble(args[0].t):
		// asuint(d, out lo, out hi): the words of each double.
		var lo, hi []Operand
		for _, o := range args[0].c {
			l := dlanes([]Operand{o})
			lo, hi = append(lo, l[0]), append(hi, l[1])
		}
		t := args[0].t.withBase(Uint)
		for k, w := range [][]Operand{lo, hi} {
			if !args[k+1].t.numeric() || args[k+1].t.Base != Uint || args[k+1].t.comps() != t.comps() {
				g.errorf(e.pos, eNoOverload, "'asuint': no matching 3 parameter intrinsic function")
				return poison, true
			}
			g.store(e.pos, args[k+1], &value{t: args[k+1].t, c: w, ro: true}, false)
		}
		return &value{t: tVoid}, true
	case strings.HasPrefix(e.name, "as") && len(args) == 1:
		// asfloat(d), asint(d), asuint(d): no overload takes a double.
		g.errorf(e.pos, eNoOverload, "'%s': no matching 1 parameter intrinsic function", e.name)
		return poison, true
	}
	g.errorf(e.pos, eNotImplemented, "not supported by this compiler: '%s' of a double (64-bit float)", e.name)
	return poison, true
}

// doubleTypeName reports a spelling of double, its vectors or matrices.
func doubleTypeName(name string) bool {
	if t := builtinType(name); t != nil {
		return t.Base == Double
	}
	return strings.HasPrefix(name, "double") && unsupportedType(name) != ""
}

// containsDouble reports a type with a double in it.
func containsDouble(t *Type) bool {
	switch t.Kind {
	case KStruct:
		for _, f := range t.Fields {
			if containsDouble(f.Type) {
				return true
			}
		}
		return false
	case KArray:
		return t.Elem != nil && containsDouble(t.Elem)
	}
	return t.numeric() && t.Base == Double
}

// refuseDoubles refuses doubles where this compiler does not place them
// (memory read and written by 32-bit words, registers indexed at run
// time): true when it did.
func (g *gen) refuseDoubles(p pos, t *Type, where string) bool {
	if !containsDouble(t) {
		return false
	}
	g.errorf(p, eNotImplemented, "not supported by this compiler: doubles in %s", where)
	return true
}

// alignDouble is where a variable of type t may start at or after off in
// a constant buffer: a double on an 8-byte boundary (a register's xy or
// zw), anything else where it is.
func alignDouble(off int, t *Type) int {
	if isDouble(t) {
		return (off + 7) &^ 7
	}
	return off
}

// imm64 is a double instruction's immediate source, two doubles of
// 64-bit words (D3D10_SB_OPERAND_TYPE_IMMEDIATE64), as fxc encodes them.
func imm64(o Operand) dxbc.Operand {
	return dxbc.Operand{Type: dxbc.RegImmediate64, Components: 4, Mode: dxbc.SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3},
		Imm: []uint32{o.Imm[0], o.Imm[1], o.Imm[2], o.Imm[3]}}
}
