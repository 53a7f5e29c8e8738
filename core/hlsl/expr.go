package hlsl

import (
	"math"
	"strings"
)

// expr lowers an expression to a value, reporting errors and returning
// poison on failure.
func (g *gen) expr(e Expr) *value {
	if len(g.errs) >= maxErrors || g.tooBig || !g.lowered(e.at()) {
		return poison
	}
	if g.fixLine == 0 {
		g.line = e.at().line
	}
	switch e := e.(type) {
	case *intLit:
		if e.uns {
			return &value{t: scalarT(Uint), c: []Operand{immU(uint32(e.v))}, ro: true}
		}
		return &value{t: scalarT(Int), c: []Operand{immU(uint32(e.v))}, ro: true, lit: !strings.ContainsAny(e.text, "lL")}
	case *floatLit:
		if e.dbl {
			return &value{t: scalarT(Double), c: []Operand{immD(e.v)}, ro: true}
		}
		return &value{t: scalarT(Float), c: []Operand{immF(float32(e.v))}, ro: true, lit: !e.typed}
	case *boolLit:
		return &value{t: scalarT(Bool), c: []Operand{immU(b2u(e.v))}, ro: true}
	case *compileExpr:
		if g.stateMode > 0 {
			g.checkCompile(e.pos, e.profile, e.call)
			return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
		}
		g.errorf(e.pos, eTypeMismatch, "'compile' makes an effect's shader object, used only in its states")
		return poison
	case *stringLit:
		if g.stateMode > 0 {
			return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
		}
		g.errorf(e.pos, eSyntax, "syntax error: unexpected string \"%s\"", clean(e.s))
		return poison
	case *stateExpr:
		if g.stateMode > 0 {
			return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
		}
		g.errorf(e.pos, eTypeMismatch, "sampler_state is only the initial value of a global sampler")
		return poison
	case *identExpr:
		v := g.lookup(e.name)
		if v == nil {
			v = g.constAggr[e.name] // a static const array or struct, read by an array size (constaggr.go)
		}
		if v == nil && g.stateMode > 0 {
			// fxc takes a name it does not know in a state block for a
			// const int (a state's value such as LINEAR).
			return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
		}
		if v == nil {
			g.errorf(e.pos, eUndeclared, "undeclared identifier '%s'", e.name)
			return poison
		}
		if v.tdef != nil {
			g.errorf(e.pos, eSyntax, "syntax error: unexpected token '%s'", e.name)
			return poison
		}
		if v.unmade != "" {
			g.errorf(e.pos, eNotImplemented, "%s", v.unmade)
			return poison
		}
		if effectObject(v.t) {
			if g.stateMode > 0 {
				return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
			}
			g.errorf(e.pos, eTypeMismatch, "'%s': a %s is the effects framework's object, used only in its states", e.name, v.t)
			return poison
		}
		if v.mem != nil {
			return g.memUse(e.pos, v)
		}
		if r := v.glob; r != nil {
			g.useCB(r.cb)
			r.v.used = true
			return withObjects(g.cbValue(r.cb.slot, r.v.off, r.v.t, nil), r.objs)
		}
		return v
	case *unaryExpr:
		return g.unary(e)
	case *binaryExpr:
		return g.binary(e)
	case *assignExpr:
		return g.assignExpr(e)
	case *condExpr:
		v, ok := g.exprs([]Expr{e.c, e.a, e.b})
		if !ok {
			return poison
		}
		c, a, b := v[0], v[1], v[2]
		if isObject(a.t) && sameType(a.t, b.t) && c.t.numeric() && c.t.comps() == 1 && allImm(c.c) {
			// Objects of one type, picked by a constant (0 ? t : u):
			// a reference chosen while compiling, as fxc does.
			if c.c[0].Imm[0] != 0 && (c.t.Base != Float || c.c[0].Imm[0] != 0x80000000) {
				return a
			}
			return b
		}
		if !a.t.numeric() || !b.t.numeric() || !c.t.numeric() {
			g.errorf(e.pos, eTypeMismatch, "type mismatch")
			return poison
		}
		if x, y := a.t, b.t; x.Kind == KMatrix && y.Kind == KMatrix && (x.Rows < y.Rows) != (x.Cols < y.Cols) && x.Rows != y.Rows && x.Cols != y.Cols {
			// c ? float2x4 : float3x2: neither holds the other (fxc:
			// incompatible types; the intrinsics take them).
			g.errorf(e.pos, eTypeMismatch, "type mismatch: '%s' and '%s' (neither matrix is as large as the other in both dimensions)", x, y)
			return poison
		}
		t := g.opType(e.pos, a.t, b.t, false)
		if t == nil {
			return poison
		}
		if c.t.comps() != 1 {
			// A condition of several components picks component by
			// component: scalar values take its shape; others must have
			// it (a vector and a one-row matrix of as many components
			// alike), and the result has theirs.
			same := c.t.Kind == t.Kind && c.t.Rows == t.Rows && c.t.Cols == t.Cols ||
				c.t.comps() == t.comps() && (c.t.Kind == KVector && t.Kind == KMatrix && t.Rows == 1 || t.Kind == KVector && c.t.Kind == KMatrix && c.t.Rows == 1)
			switch {
			case t.comps() == 1:
				t = c.t.withBase(t.Base)
			case !same:
				g.errorf(e.pos, eTypeMismatch, "type mismatch: the condition is %s and the values %s", c.t, t)
				return poison
			}
		}
		a, b = g.convert(e.pos, a, t, true), g.convert(e.pos, b, t, true)
		ct := t.withBase(Bool)
		if c.t.comps() == t.comps() && c.t.comps() > 1 {
			ct = c.t.withBase(Bool)
		}
		cb := g.convert(e.pos, c, ct, true)
		if c.t.comps() == 1 {
			cb = &value{t: t.withBase(Bool), c: broadcast(g.convert(e.pos, c, scalarT(Bool), true).c, t.comps()), ro: true}
		}
		if t.Base == Double {
			return g.dselect(t, cb.c, a.c, b.c)
		}
		return &value{t: t, c: g.op(OpMovc, t.comps(), cb.c, a.c, b.c)}
	case *callExpr:
		return g.call(e)
	case *ctorExpr:
		return g.ctor(e)
	case *castExpr:
		x := g.expr(e.x)
		t := g.arrayType(g.resolveType(e.typ), e.dims)
		if x == poison || t == poison.t {
			return poison
		}
		return g.cast(e.pos, x, t)
	case *memberExpr:
		return g.member(e)
	case *indexExpr:
		return g.index(e)
	case *initList:
		g.errorf(e.pos, eSyntax, "syntax error: unexpected token '{'")
		return poison
	}
	g.errorf(e.at(), eSyntax, "syntax error")
	return poison
}

// rvalue makes a read-only copy of a value's description (the components
// still name the same registers).
func rvalue(v *value) *value {
	c := *v
	c.ro = true
	return &c
}

var invertedCmp = map[string]string{"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}

func (g *gen) unary(e *unaryExpr) *value {
	mark, markTop := len(g.code), g.top
	x := g.expr(e.x)
	if x == poison {
		return poison
	}
	if !x.t.numeric() {
		g.errorf(e.pos, eTypeMismatch, "type mismatch")
		return poison
	}
	if x.t.Base == Double {
		if v, ok := g.dunary(e, x); ok {
			return v
		}
	}
	switch e.op {
	case "+":
		return rvalue(x)
	case "-":
		if x.lit && allImm(x.c) {
			c := x.c[0]
			if x.t.Base == Float {
				c.Imm[0] ^= 0x80000000
			} else {
				c.Imm[0] = -c.Imm[0]
			}
			return &value{t: x.t, c: []Operand{c}, ro: true, lit: true}
		}
		t := x.t
		if t.Base == Bool {
			t = t.withBase(Int)
			x = g.convert(e.pos, x, t, false)
		}
		if t.Base == Float {
			c := make([]Operand, len(x.c))
			for i, o := range x.c {
				c[i] = negComp(o)
			}
			return &value{t: t, c: c, ro: true}
		}
		return &value{t: t, c: g.op(OpIneg, len(x.c), x.c), ro: true}
	case "!":
		b := g.convert(e.pos, x, x.t.withBase(Bool), false)
		if c, ok := e.x.(*binaryExpr); ok && invertedCmp[c.op] != "" {
			// fxc (shader model 4 and 5) inverts the comparison instead:
			// !(a < b) is a >= b, which differs only for NaN.
			g.code, g.top = g.code[:mark], markTop
			return g.binary(&binaryExpr{pos: c.pos, op: invertedCmp[c.op], x: c.x, y: c.y})
		}
		return &value{t: b.t, c: g.op(OpNot, len(b.c), b.c)}
	case "~":
		if g.level9Bitwise(e.pos) {
			return poison
		}
		if x.t.Base != Int && x.t.Base != Uint {
			g.errorf(e.pos, eTypeMismatch, "type mismatch")
			return poison
		}
		return &value{t: x.t, c: g.op(OpNot, len(x.c), x.c)}
	case "++", "--":
		if x.ro {
			g.errorf(e.pos, eConst, "l-value specifies const object")
			return poison
		}
		var old *value
		if e.postfix {
			old = &value{t: x.t, c: g.copyTemp(x.c), ro: true}
		}
		var one Operand
		var o Op
		if x.t.Base == Float {
			one, o = immF(1), OpAdd
			if e.op == "--" {
				one = immF(-1)
			}
		} else {
			one, o = immU(1), OpIadd
			if e.op == "--" {
				one = immU(0xffffffff)
			}
		}
		n := g.op(o, len(x.c), x.c, []Operand{one})
		g.assign(x.c, n, false)
		if e.postfix {
			return old
		}
		return rvalue(x)
	}
	g.errorf(e.pos, eSyntax, "syntax error: unexpected token '%s'", e.op)
	return poison
}

// binaryType is the type both operands of a component-wise binary
// operation convert to: a scalar takes the other's shape, two vectors
// truncate to the shorter (with fxc's warning), a vector and a matrix
// mismatch; the base type is the larger of the two (bool counts as int in
// arithmetic).
func (g *gen) binaryType(p pos, a, b *Type, arith bool) *Type {
	base := max(a.Base, b.Base)
	if arith && base == Bool {
		base = Int
	}
	switch {
	case a.comps() == 1 && a.Kind != KMatrix || a.Kind == KScalar:
		return b.withBase(base)
	case b.comps() == 1 && b.Kind != KMatrix || b.Kind == KScalar:
		return a.withBase(base)
	case a.Kind == KVector && b.Kind == KVector:
		if a.Cols != b.Cols {
			g.warnf(p, eTruncation, "implicit truncation of vector type")
		}
		return vecT(base, min(a.Cols, b.Cols))
	case a.Kind == KMatrix && b.Kind == KMatrix:
		if a.Rows != b.Rows || a.Cols != b.Cols {
			g.warnf(p, eTruncation, "implicit truncation of vector type")
		}
		return matT(base, min(a.Rows, b.Rows), min(a.Cols, b.Cols))
	}
	g.errorf(p, eTypeMismatch, "type mismatch")
	return nil
}

var cmpOps = map[string][4]Op{ // bool, int, uint, float
	"<":  {OpIlt, OpIlt, OpUlt, OpLt},
	">=": {OpIge, OpIge, OpUge, OpGe},
	"==": {OpIeq, OpIeq, OpIeq, OpEq},
	"!=": {OpIne, OpIne, OpIne, OpNe},
}

func (g *gen) binary(e *binaryExpr) *value {
	if e.op == "," {
		g.expr(e.x)
		return g.expr(e.y)
	}
	v, ok := g.exprs([]Expr{e.x, e.y})
	if !ok {
		return poison
	}
	if r := foldLiterals(e.op, v[0], v[1]); r != nil {
		return r
	}
	return g.binop(e.pos, e.op, v[0], v[1])
}

// opType is the type of an operator's result: binaryType's, and for a
// vector and a matrix (which intrinsics never mix): a matrix of one row or
// column acts as a vector (the two truncated to the shorter), another
// matrix of as many components as the vector pairs component by component
// in row order.
func (g *gen) opType(p pos, a, b *Type, arith bool) *Type {
	if a.Kind == KVector && b.Kind == KMatrix || a.Kind == KMatrix && b.Kind == KVector {
		base := max(a.Base, b.Base)
		if arith && base == Bool {
			base = Int
		}
		m, v := a, b
		if b.Kind == KMatrix {
			m, v = b, a
		}
		switch {
		case m.Rows == 1 || m.Cols == 1:
			if m.comps() != v.Cols {
				g.warnf(p, eTruncation, "implicit truncation of vector type")
			}
			return vecT(base, min(m.comps(), v.Cols))
		case m.comps() == v.Cols:
			return vecT(base, v.Cols)
		}
	}
	return g.binaryType(p, a, b, arith)
}

// foldLiterals folds arithmetic on two integer literals as fxc does for
// shader models 4 and 5: in floating point (shader model 1 to 3 have no
// integers, and fxc's folder is shared), the result converted back to an
// int as x86 does, 0x80000000 when out of range. So 3000000000 +
// 3000000000 is -2147483648, not the wrapped 1705032704 (vkd3d's
// sm1-const-folding tests record it).
func foldLiterals(op string, x, y *value) *value {
	if !x.lit || !y.lit || x.t.Kind != KScalar || y.t.Kind != KScalar || x.t.Base != Int || y.t.Base != Int ||
		!allImm(x.c) || !allImm(y.c) {
		return nil
	}
	a, b := float64(int32(x.c[0].Imm[0])), float64(int32(y.c[0].Imm[0]))
	var r float64
	switch op {
	case "+":
		r = a + b
	case "-":
		r = a - b
	case "*":
		r = a * b
	default:
		return nil
	}
	v := uint32(0x80000000)
	if r >= -2147483648 && r < 2147483648 {
		v = uint32(int32(r))
	}
	return &value{t: scalarT(Int), c: []Operand{immU(v)}, ro: true, lit: true}
}

func (g *gen) binop(p pos, op string, x, y *value) *value {
	if !x.t.numeric() || !y.t.numeric() {
		g.errorf(p, eTypeMismatch, "type mismatch")
		return poison
	}
	if x.t.Base == Double || y.t.Base == Double {
		if v, ok := g.dbinop(p, op, x, y); ok {
			return v
		}
	}
	switch op {
	case "&&", "||":
		t := g.opType(p, x.t, y.t, false)
		if t == nil {
			return poison
		}
		t = t.withBase(Bool)
		a, b := g.convert(p, x, t, false), g.convert(p, y, t, false)
		o := OpAnd
		if op == "||" {
			o = OpOr
		}
		return &value{t: t, c: g.op(o, t.comps(), a.c, b.c)}
	case "<", ">", "<=", ">=", "==", "!=":
		t := g.opType(p, x.t, y.t, false)
		if t == nil {
			return poison
		}
		a, b := g.convert(p, x, t, false), g.convert(p, y, t, false)
		name := op
		switch op {
		case ">":
			a, b, name = b, a, "<"
		case "<=":
			a, b, name = b, a, ">="
		}
		return &value{t: t.withBase(Bool), c: g.op(cmpOps[name][t.Base], t.comps(), a.c, b.c)}
	}
	t := g.opType(p, x.t, y.t, true)
	if t == nil {
		return poison
	}
	if (op == "<<" || op == ">>") && t.Base != Float {
		// A shift has the type of its left operand, as in C: int >> uint
		// is an arithmetic shift.
		t = t.withBase(max(x.t.Base, Int))
	}
	a, b := g.convert(p, x, t, false), g.convert(p, y, t, false)
	n := t.comps()
	isF := t.Base == Float
	switch op {
	case "+":
		if isF {
			return &value{t: t, c: g.op(OpAdd, n, a.c, b.c)}
		}
		return &value{t: t, c: g.op(OpIadd, n, a.c, b.c)}
	case "-":
		if isF {
			nb := make([]Operand, len(b.c))
			for i, o := range b.c {
				nb[i] = negComp(o)
			}
			return &value{t: t, c: g.op(OpAdd, n, a.c, nb)}
		}
		return &value{t: t, c: g.op(OpIadd, n, a.c, g.op(OpIneg, n, b.c))}
	case "*":
		if isF {
			return &value{t: t, c: g.op(OpMul, n, a.c, b.c)}
		}
		return &value{t: t, c: g.op(OpImul, n, a.c, b.c)}
	case "/":
		switch t.Base {
		case Float:
			return &value{t: t, c: g.op(OpDiv, n, a.c, b.c)}
		case Uint:
			return &value{t: t, c: g.op(OpUdiv, n, a.c, b.c)}
		}
		return &value{t: t, c: g.idiv(n, a.c, b.c, false)}
	case "%":
		switch t.Base {
		case Float:
			// fxc's sequence: the quotient's fraction, signed like it, times b.
			q := g.op(OpDiv, n, a.c, b.c)
			nq := make([]Operand, n)
			aq := make([]Operand, n)
			for i := range q {
				nq[i], aq[i] = negComp(q[i]), absComp(q[i])
			}
			ge := g.op(OpGe, n, q, nq)
			f := g.op(OpFrc, n, aq)
			nf := make([]Operand, n)
			for i := range f {
				nf[i] = negComp(f[i])
			}
			s := g.op(OpMovc, n, ge, f, nf)
			return &value{t: t, c: g.op(OpMul, n, s, b.c)}
		case Uint:
			return &value{t: t, c: g.opRem(n, a.c, b.c)}
		}
		return &value{t: t, c: g.idiv(n, a.c, b.c, true)}
	case "&", "|", "^", "<<", ">>":
		if g.level9Bitwise(p) {
			return poison
		}
		if t.Base != Int && t.Base != Uint {
			g.errorf(p, eTypeMismatch, "type mismatch")
			return poison
		}
		o := map[string]Op{"&": OpAnd, "|": OpOr, "^": OpXor, "<<": OpIshl, ">>": OpIshr}[op]
		if op == ">>" && t.Base == Uint {
			o = OpUshr
		}
		return &value{t: t, c: g.op(o, n, a.c, b.c)}
	}
	g.errorf(p, eSyntax, "syntax error: unexpected token '%s'", op)
	return poison
}

// idiv is signed division (or remainder) through udiv on magnitudes, the
// quotient negative when the signs differ, the remainder signed like a.
func (g *gen) idiv(n int, a, b []Operand, rem bool) []Operand {
	absA := g.op(OpImax, n, a, g.op(OpIneg, n, a))
	absB := g.op(OpImax, n, b, g.op(OpIneg, n, b))
	var m, neg []Operand
	if rem {
		m = g.opRem(n, absA, absB)
		neg = g.op(OpIlt, n, a, []Operand{immU(0)})
	} else {
		m = g.op(OpUdiv, n, absA, absB)
		neg = g.op(OpIlt, n, g.op(OpXor, n, a, b), []Operand{immU(0)})
	}
	return g.op(OpMovc, n, neg, g.op(OpIneg, n, m), m)
}

func (g *gen) assignExpr(e *assignExpr) *value {
	l := g.expr(e.l)
	r := g.expr(e.r)
	if l == poison || r == poison {
		return poison
	}
	if l.ro {
		g.errorf(e.pos, eConst, "l-value specifies const object")
		return poison
	}
	if e.op != "=" {
		r = g.binop(e.pos, e.op[:len(e.op)-1], rvalue(l), r)
		if r == poison {
			return poison
		}
	}
	r = g.convert(e.pos, r, l.t, true)
	if r == poison {
		return poison
	}
	g.store(e.pos, l, r, false)
	return rvalue(l)
}

// convert applies HLSL's implicit conversion to t: scalars splat, longer
// vectors truncate with warning X3206, shorter ones are error X3017.
func (g *gen) convert(p pos, v *value, t *Type, implicit bool) *value {
	if v == poison || t == poison.t {
		return poison
	}
	if sameType(v.t, t) {
		return v
	}
	if !v.t.numeric() || !t.numeric() {
		if aggregate(v.t) && aggregate(t) && sameLeaves(v.t, t) {
			// Structs and arrays of the same components (types
			// included: no int to float) convert component by
			// component, implicitly too.
			return g.cast(p, v, t)
		}
		g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", v.t, t)
		return poison
	}
	var c []Operand
	switch {
	case v.t.comps() == 1:
		c = broadcast(v.c[:1], t.comps())
	case v.t.Kind == KMatrix && t.Kind == KMatrix:
		if v.t.Rows < t.Rows || v.t.Cols < t.Cols {
			g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", v.t, t)
			return poison
		}
		for r := 0; r < t.Rows; r++ {
			for k := 0; k < t.Cols; k++ {
				c = append(c, v.c[r*v.t.Cols+k])
			}
		}
		if implicit && (v.t.Rows != t.Rows || v.t.Cols != t.Cols) {
			g.warnf(p, eTruncation, "implicit truncation of vector type")
		}
	case v.t.Kind == KMatrix && t.Kind == KVector || v.t.Kind == KVector && t.Kind == KMatrix:
		if v.t.comps() < t.comps() || v.t.Kind == KMatrix && v.t.Rows > 1 && v.t.Cols > 1 && v.t.comps() != t.comps() ||
			implicit && t.Kind == KMatrix && t.Rows > 1 && v.t.comps() != t.comps() {
			// A vector truncates to a 1xN matrix, implicitly too, and
			// to an Nx1 one only explicitly (fxc: float3x1 f() {
			// return float4(...); } fails).
			g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", v.t, t)
			return poison
		}
		c = v.c[:t.comps()]
	default:
		if v.t.comps() < t.comps() {
			g.errorf(p, eConvert, "cannot implicitly convert from '%s' to '%s'", v.t, t)
			return poison
		}
		c = v.c[:t.comps()]
		if implicit {
			g.warnf(p, eTruncation, "implicit truncation of vector type")
		}
	}
	return &value{t: t, c: g.convertBase(c, v.t.Base, t.Base), ro: true}
}

// convertBase changes the component type as SM4 does it.
func (g *gen) convertBase(c []Operand, from, to Base) []Operand {
	n := len(c)
	if from == to {
		return c
	}
	if from == Double || to == Double {
		return g.dconvert(c, from, to)
	}
	switch to {
	case Bool:
		if from == Float {
			return g.op(OpNe, n, c, []Operand{immF(0)})
		}
		return g.op(OpIne, n, c, []Operand{immU(0)})
	case Float:
		switch from {
		case Bool:
			one := immF(1)
			return g.op(OpAnd, n, c, []Operand{one})
		case Int:
			return g.op(OpItof, n, c)
		default:
			return g.op(OpUtof, n, c)
		}
	case Int, Uint:
		switch from {
		case Bool:
			return g.op(OpAnd, n, c, []Operand{immU(1)})
		case Float:
			if to == Int {
				return g.op(OpFtoi, n, c)
			}
			return g.op(OpFtou, n, c)
		}
		return c
	}
	return c
}

// cast is an explicit conversion: like convert, without the truncation
// warning, and a vector may become a scalar.
func (g *gen) cast(p pos, v *value, t *Type) *value {
	if t.Kind == KStruct || t.Kind == KArray || v.t.Kind == KStruct || v.t.Kind == KArray {
		if sameType(v.t, t) {
			return v
		}
		if v.t.numeric() && v.t.comps() == 1 && !t.numeric() {
			// (S)0: every member gets the scalar, as fxc allows.
			if sv := g.splat(p, v, t); sv != nil {
				return sv
			}
		}
		// Component by component, in order: the source's first as many
		// components as the destination has.
		if n, m := castComps(v.t), castComps(t); n > 0 && m > 0 && n >= m {
			if n != m && (t.Kind == KMatrix && t.Rows > 1 || v.t.Kind == KMatrix && v.t.Rows > 1 && v.t.Cols > 1) {
				// fxc (shader models 4 and 5): to a matrix of more than
				// one row, or from one of more than one row and column,
				// from or to a struct or array, as many components on
				// both sides; a 1xN matrix (or an Nx1 source) truncates
				// as a vector does.
				g.errorf(p, eConvert, "cannot convert from '%s' to '%s': %d components to %d", v.t, t, n, m)
				return poison
			}
			dst := g.newVar(t)
			k := 0
			if g.fill(p, dst, g.scalars(v), &k) {
				return rvalue(dst)
			}
		}
		g.errorf(p, eConvert, "cannot convert from '%s' to '%s'", v.t, t)
		return poison
	}
	if v.t.Kind == KVector && t.Kind == KMatrix && v.t.comps() != t.comps() && !(t.Rows == 1 && v.t.comps() > t.comps()) {
		g.errorf(p, eConvert, "cannot convert from '%s' to '%s'", v.t, t)
		return poison
	}
	if v.t.numeric() && t.numeric() && v.t.comps() > t.comps() && t.Kind != KMatrix && v.t.Kind != KMatrix {
		return &value{t: t, c: g.convertBase(v.c[:t.comps()], v.t.Base, t.Base), ro: true}
	}
	if v.t.numeric() && t.numeric() && v.t.comps() < t.comps() && v.t.comps() != 1 {
		g.errorf(p, eConvert, "cannot convert from '%s' to '%s'", v.t, t)
		return poison
	}
	return asHalf(g.convert(p, v, t, false), t.Half)
}

// asHalf is a float value read as a half (half true) or a half read as a
// float: the same registers, the type overload resolution sees (Type.Half).
func asHalf(v *value, half bool) *value {
	if v == poison || v.t.Half == half || !v.t.numeric() || v.t.Base != Float {
		return v
	}
	c := rvalue(v)
	t := *v.t
	t.Half = half
	c.t = &t
	return c
}

func aggregate(t *Type) bool { return t.Kind == KStruct || t.Kind == KArray }

// sameLeaves reports two types of the same components in order: numbers
// of the same base, objects of the same type.
func sameLeaves(a, b *Type) bool {
	la, lb := leaves(a, nil), leaves(b, nil)
	if len(la) == 0 || len(la) != len(lb) {
		return false
	}
	for i := range la {
		if la[i].numeric() != lb[i].numeric() || la[i].numeric() && la[i].Base != lb[i].Base || !la[i].numeric() && !sameType(la[i], lb[i]) {
			return false
		}
	}
	return true
}

// leaves lists a type's components: a scalar type per number, the object
// types, in order.
func leaves(t *Type, out []*Type) []*Type {
	switch t.Kind {
	case KStruct:
		for _, f := range t.Fields {
			out = leaves(f.Type, out)
		}
	case KArray:
		for i := 0; i < t.Len && len(out) < 1<<16; i++ {
			out = leaves(t.Elem, out)
		}
	case KTexture, KSampler:
		out = append(out, t)
	default:
		for i := 0; i < t.comps(); i++ {
			out = append(out, scalarT(t.Base))
		}
	}
	return out
}

// castComps is flatComps counting a texture or sampler as one component
// (a struct holding a texture casts component-wise to another, the
// texture to the texture).
func castComps(t *Type) int {
	switch t.Kind {
	case KTexture, KSampler:
		return 1
	case KStruct:
		n := 0
		for _, f := range t.Fields {
			k := castComps(f.Type)
			if k == 0 {
				return 0
			}
			n += k
		}
		return n
	case KArray:
		return t.Len * castComps(t.Elem)
	}
	return flatComps(t)
}

// splat builds a struct or array value whose every component is the
// scalar v converted to the member's type.
func (g *gen) splat(p pos, v *value, t *Type) *value {
	switch t.Kind {
	case KStruct:
		out := &value{t: t, ro: true}
		for _, f := range t.Fields {
			fv := g.splat(p, v, f.Type)
			if fv == nil {
				return nil
			}
			out.fields = append(out.fields, fv)
		}
		return out
	case KArray:
		out := &value{t: t, ro: true}
		for i := 0; i < t.Len; i++ {
			ev := g.splat(p, v, t.Elem)
			if ev == nil {
				return nil
			}
			out.elems = append(out.elems, ev)
		}
		return out
	}
	if !t.numeric() {
		return nil
	}
	c := g.convertBase(v.c[:1], v.t.Base, t.Base)
	return &value{t: t, c: broadcast(c, t.comps()), ro: true}
}

// ctor lowers float4(a, b), int2(x), float3x3(...): the arguments'
// components in order must fill the type exactly (X3014), one scalar
// fills every component.
func (g *gen) ctor(e *ctorExpr) *value {
	t := g.resolveType(e.typ)
	if t == poison.t {
		return poison
	}
	if !t.numeric() {
		g.errorf(e.pos, eNotImplemented, "constructors only defined for numeric base types")
		return poison
	}
	var c []Operand
	args, ok := g.exprs(e.args)
	if !ok {
		return poison
	}
	for i, v := range args {
		if !v.t.numeric() && flatComps(v.t) > 0 {
			// A struct or array of numbers gives its components in
			// order: float4(arr), as fxc takes it.
			var c []Operand
			for _, s := range g.scalars(v) {
				c = append(c, g.convertBase(s.c, s.t.Base, t.Base)...)
			}
			args[i] = &value{t: vecT(t.Base, len(c)), c: c, ro: true}
			if len(c) > 4 {
				args[i].t = &Type{Kind: KVector, Base: t.Base, Rows: 1, Cols: len(c)}
			}
			continue
		}
		if !v.t.numeric() {
			g.errorf(e.args[i].at(), eConvert, "cannot convert from '%s' to '%s'", v.t, t.withBase(v.t.Base))
			return poison
		}
	}
	if len(args) == 1 && args[0].t.comps() == 1 && t.comps() == 1 {
		v := g.convert(e.pos, args[0], scalarT(t.Base), false)
		return &value{t: t, c: v.c, ro: true}
	}
	for _, v := range args {
		c = append(c, g.convertBase(v.c, v.t.Base, t.Base)...)
	}
	if len(c) != t.comps() {
		g.errorf(e.pos, eCtorArgs, "incorrect number of arguments to numeric-type constructor")
		return poison
	}
	return &value{t: t, c: c, ro: true}
}

// member lowers s.field, v.xyzw / v.rgba swizzles and m._m00 / m._11.
func (g *gen) member(e *memberExpr) *value {
	x := g.expr(e.x)
	if x == poison {
		return poison
	}
	if x.t.Kind == KStruct {
		for i := len(x.t.Fields) - 1; i >= 0; i-- { // the last: a derived struct's member shadows its base's
			if f := x.t.Fields[i]; f.Name == e.name {
				return g.through(x, x.fields[i], func(nv, src *value) { nv.fields[i] = src })
			}
		}
		g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
		return poison
	}
	if !x.t.numeric() {
		g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
		return poison
	}
	var idx []int
	if x.t.Kind == KMatrix {
		idx = matrixSwizzle(e.name, x.t)
	} else {
		idx = vectorSwizzle(e.name, x.t.Cols)
	}
	if idx == nil {
		g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
		return poison
	}
	c := make([]Operand, len(idx))
	dup := false
	seen := map[int]bool{}
	for i, k := range idx {
		c[i] = x.c[k]
		if seen[k] {
			dup = true
		}
		seen[k] = true
	}
	r := &value{t: vecT(x.t.Base, len(idx)), c: c, ro: x.ro || dup}
	if dup {
		return r
	}
	return g.through(x, r, func(nv, src *value) {
		for j, k := range idx {
			nv.c[k] = src.c[j]
		}
	})
}

func vectorSwizzle(s string, n int) []int {
	if len(s) < 1 || len(s) > 4 {
		return nil
	}
	var idx []int
	set := ""
	for _, ch := range s {
		k := -1
		for _, cand := range []string{"xyzw", "rgba"} {
			if i := indexByte(cand, byte(ch)); i >= 0 {
				if set != "" && set != cand {
					return nil
				}
				set, k = cand, i
			}
		}
		if k < 0 || k >= n {
			return nil
		}
		idx = append(idx, k)
	}
	return idx
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

// matrixSwizzle parses _m00_m11 (zero-based) or _11_22 (one-based), one
// form or the other.
func matrixSwizzle(s string, t *Type) []int {
	var idx []int
	form := 0
	for len(s) > 0 && len(idx) < 5 {
		var r, c int
		switch {
		case len(s) >= 4 && s[0] == '_' && s[1] == 'm' && form != 1:
			r, c = int(s[2])-'0', int(s[3])-'0'
			s, form = s[4:], 2
		case len(s) >= 3 && s[0] == '_' && form != 2:
			r, c = int(s[1])-'1', int(s[2])-'1'
			s, form = s[3:], 1
		default:
			return nil
		}
		if r < 0 || r >= t.Rows || c < 0 || c >= t.Cols {
			return nil
		}
		idx = append(idx, r*t.Cols+c)
	}
	if len(idx) == 0 || len(idx) > 4 {
		return nil
	}
	return idx
}

// index lowers a[i], v[i] and m[i]; only arrays in constant buffers may be
// indexed by a non-constant.
func (g *gen) index(e *indexExpr) *value {
	// fxc evaluates the index before the indexed expression
	// (vkd3d's side-effects tests: func()[func().x]).
	v, ok := g.exprs([]Expr{e.i, e.x})
	if !ok {
		return poison
	}
	i, x := v[0], v[1]
	if x.t.Kind == KTexture {
		return g.texIndex(e.pos, x, i)
	}
	if x.mem != nil {
		return g.memIndex(e.pos, x, i)
	}
	if !i.t.numeric() || i.t.comps() != 1 {
		g.errorf(e.pos, eTypeMismatch, "type mismatch")
		return poison
	}
	if !g.indexable(e.pos, x, i) { // (onevec.go)
		return poison
	}
	if !allImm(i.c) && hasObject(x.t) {
		i = g.foldedIndex(i) // (objstruct.go)
	}
	if allImm(i.c) {
		k := immInt(i.c[0], i.t.Base)
		switch x.t.Kind {
		case KArray:
			if (k < 0 || k >= int64(x.t.Len)) && g.stateMode > 0 {
				return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true} // fxc checks no index in a state
			}
			if k < 0 || k >= int64(x.t.Len) {
				g.errorf(e.pos, eSubscript, "array index out of bounds")
				return poison
			}
			return g.through(x, g.element(e.pos, x, int(k)), func(nv, src *value) { nv.elems[k] = src })
		case KVector, KScalar:
			if k < 0 || k >= int64(x.t.Cols) {
				g.errorf(e.pos, eSubscript, "invalid subscript '%d'", k)
				return poison
			}
			return g.through(x, &value{t: scalarT(x.t.Base), c: []Operand{x.c[k]}, ro: x.ro}, func(nv, src *value) { nv.c[k] = src.c[0] })
		case KMatrix:
			if k < 0 || k >= int64(x.t.Rows) {
				g.errorf(e.pos, eSubscript, "invalid subscript '%d'", k)
				return poison
			}
			n := int64(x.t.Cols)
			return g.through(x, &value{t: rowT(x.t), c: x.c[k*n : (k+1)*n], ro: x.ro}, func(nv, src *value) { copy(nv.c[k*n:], src.c) })
		}
		g.errorf(e.pos, eSubscript, "invalid subscript")
		return poison
	}
	if !x.t.numeric() && x.t.Kind != KArray {
		g.errorf(e.pos, eSubscript, "invalid subscript")
		return poison
	}
	if x.t.Patch != 0 {
		return g.patchIndex(e.pos, x, g.convert(e.pos, i, scalarT(Int), false))
	}
	return g.dynIndex(e.pos, x, g.convert(e.pos, i, scalarT(Int), false))
}

var _ = math.Float32bits

// exprs lowers operands left to right. When a later operand writes
// variables (an assignment, ++, --, a call), the earlier ones are copied
// first, so they keep the values they had when HLSL read them.
func (g *gen) exprs(list []Expr) ([]*value, bool) {
	out := make([]*value, len(list))
	for i, e := range list {
		v := g.expr(e)
		if v == poison {
			return nil, false
		}
		out[i] = v
		if i+1 < len(list) && anySideEffects(list[i+1:]) {
			out[i] = g.snapshot(v)
		}
	}
	return out, true
}

// snapshot copies the register-held parts of a value into fresh temps.
func (g *gen) snapshot(v *value) *value {
	if !v.t.numeric() {
		return v
	}
	for _, c := range v.c {
		if (c.File == FileTemp || c.File == FileOutput) && v.t.Base == Double {
			return g.dsnapshot(v)
		}
		if c.File == FileTemp || c.File == FileOutput {
			return &value{t: v.t, c: g.copyTemp(v.c), ro: true}
		}
	}
	return v
}

func anySideEffects(list []Expr) bool {
	for _, e := range list {
		if sideEffects(e) {
			return true
		}
	}
	return false
}

// sideEffects reports whether evaluating e may write a variable.
func sideEffects(e Expr) bool {
	switch e := e.(type) {
	case *assignExpr, *callExpr:
		if c, ok := e.(*callExpr); ok && c.recv != nil {
			return anySideEffects(c.args)
		}
		return true
	case *unaryExpr:
		return e.op == "++" || e.op == "--" || sideEffects(e.x)
	case *binaryExpr:
		return sideEffects(e.x) || sideEffects(e.y)
	case *condExpr:
		return sideEffects(e.c) || sideEffects(e.a) || sideEffects(e.b)
	case *ctorExpr:
		return anySideEffects(e.args)
	case *castExpr:
		return sideEffects(e.x)
	case *memberExpr:
		return sideEffects(e.x)
	case *indexExpr:
		return sideEffects(e.x) || sideEffects(e.i)
	}
	return false
}
