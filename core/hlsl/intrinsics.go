package hlsl

// intrinsic lowers a call to an HLSL intrinsic function the way fxc
// expands it into SM4 instructions.
func (g *gen) intrinsic(e *callExpr, args []*value) *value {
	p := e.pos
	noMatch := func() *value {
		g.errorf(p, eNoOverload, "'%s': no matching %d parameter intrinsic function", e.name, len(args))
		return poison
	}
	if legacyTex[e.name] {
		return g.texLegacy(e, args)
	}
	for _, a := range args {
		if !a.t.numeric() {
			return noMatch()
		}
	}
	n1 := func() bool { return len(args) == 1 }
	// floats converts every argument to float with the common shape.
	floats := func() (*Type, []*value) {
		t := args[0].t
		for _, a := range args[1:] {
			if t = g.binaryType(p, t, a.t, true); t == nil {
				return nil, nil
			}
		}
		t = t.withBase(Float)
		out := make([]*value, len(args))
		for i, a := range args {
			out[i] = g.convert(p, a, t, false)
		}
		return t, out
	}
	unaryF := func(o Op) *value {
		if !n1() {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		return &value{t: t, c: g.op(o, t.comps(), a[0].c)}
	}
	negs := func(c []Operand) []Operand {
		out := make([]Operand, len(c))
		for i, o := range c {
			out[i] = negComp(o)
		}
		return out
	}
	switch e.name {
	case "abs":
		if !n1() {
			return noMatch()
		}
		a := args[0]
		if a.t.Base == Float {
			c := make([]Operand, len(a.c))
			for i, o := range a.c {
				c[i] = absComp(o)
			}
			return &value{t: a.t, c: g.op(OpMov, len(c), c)}
		}
		if a.t.Base == Bool {
			return a
		}
		if a.t.Base == Uint {
			return a
		}
		return &value{t: a.t, c: g.op(OpImax, len(a.c), a.c, g.op(OpIneg, len(a.c), a.c))}
	case "saturate":
		if !n1() {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		r := g.newVar(t)
		g.assign(r.c, a[0].c, true)
		return rvalue(r)
	case "floor":
		return unaryF(OpRoundNI)
	case "ceil":
		return unaryF(OpRoundPI)
	case "trunc":
		return unaryF(OpRoundZ)
	case "frac":
		return unaryF(OpFrc)
	case "sqrt":
		return unaryF(OpSqrt)
	case "rsqrt":
		return unaryF(OpRsq)
	case "exp2":
		return unaryF(OpExp)
	case "log2":
		return unaryF(OpLog)
	case "rcp":
		if !n1() {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		return &value{t: t, c: g.op(OpDiv, t.comps(), []Operand{immF(1)}, a[0].c)}
	case "exp", "log":
		if !n1() {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		if e.name == "exp" {
			m := g.op(OpMul, t.comps(), a[0].c, []Operand{immF(1.44269502)})
			return &value{t: t, c: g.op(OpExp, t.comps(), m)}
		}
		l := g.op(OpLog, t.comps(), a[0].c)
		return &value{t: t, c: g.op(OpMul, t.comps(), l, []Operand{immF(0.693147182)})}
	case "sin", "cos":
		if !n1() {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		var out []Operand
		c := a[0].c
		for base := 0; base < len(c); base += 4 {
			k := min(4, len(c)-base)
			r := g.alloc()
			d := Operand{File: FileTemp, Index: r, Mask: uint8(1<<k - 1)}
			dst := []Operand{d, {File: FileNull}}
			if e.name == "cos" {
				dst = []Operand{{File: FileNull}, d}
			}
			g.emit(Instr{Op: OpSincos, Dst: dst, Src: []Operand{g.srcOp(c[base : base+k])}})
			out = append(out, regComps(FileTemp, r, k)...)
		}
		return &value{t: t, c: out}
	case "pow":
		if len(args) != 2 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		// fxc takes the log of |x|: pow of a negative base is undefined.
		n := t.comps()
		ab := make([]Operand, n)
		for i, o := range a[0].c {
			ab[i] = absComp(o)
		}
		l := g.op(OpLog, n, ab)
		m := g.op(OpMul, n, l, a[1].c)
		return &value{t: t, c: g.op(OpExp, n, m)}
	case "min", "max":
		if len(args) != 2 {
			return noMatch()
		}
		t := g.binaryType(p, args[0].t, args[1].t, true)
		if t == nil {
			return poison
		}
		a, b := g.convert(p, args[0], t, false), g.convert(p, args[1], t, false)
		ops := map[Base][2]Op{Float: {OpMin, OpMax}, Int: {OpImin, OpImax}, Uint: {OpUmin, OpUmax}}[t.Base]
		o := ops[0]
		if e.name == "max" {
			o = ops[1]
		}
		return &value{t: t, c: g.op(o, t.comps(), a.c, b.c)}
	case "clamp":
		if len(args) != 3 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		if args[0].t.Base == Int || args[0].t.Base == Uint {
			t = t.withBase(args[0].t.Base)
			for i := range a {
				a[i] = g.convert(p, args[i], t, false)
			}
			ops := map[Base][2]Op{Int: {OpImax, OpImin}, Uint: {OpUmax, OpUmin}}[t.Base]
			m := g.op(ops[0], t.comps(), a[0].c, a[1].c)
			return &value{t: t, c: g.op(ops[1], t.comps(), m, a[2].c)}
		}
		m := g.op(OpMax, t.comps(), a[0].c, a[1].c)
		return &value{t: t, c: g.op(OpMin, t.comps(), m, a[2].c)}
	case "lerp":
		if len(args) != 3 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		n := t.comps()
		d := g.op(OpAdd, n, negs(a[0].c), a[1].c)
		return &value{t: t, c: g.op(OpMad, n, a[2].c, d, a[0].c)}
	case "mad":
		if len(args) != 3 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		return &value{t: t, c: g.op(OpMad, t.comps(), a[0].c, a[1].c, a[2].c)}
	case "step":
		if len(args) != 2 || oneWithMatrix(args) {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		ge := g.op(OpGe, t.comps(), a[1].c, a[0].c)
		return &value{t: t, c: g.op(OpAnd, t.comps(), ge, []Operand{immF(1)})}
	case "smoothstep":
		if len(args) != 3 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		// fxc's expansion: a reciprocal of the range, then mul_sat.
		n := t.comps()
		rng := g.op(OpAdd, n, negs(a[0].c), a[1].c)
		inv := g.op(OpDiv, n, []Operand{immF(1)}, rng)
		off := g.op(OpAdd, n, negs(a[0].c), a[2].c)
		s := g.newVar(t)
		prod := g.op(OpMul, n, inv, off)
		g.assign(s.c, prod, true)
		k := g.op(OpMad, n, s.c, []Operand{immF(-2)}, []Operand{immF(3)})
		s2 := g.op(OpMul, n, s.c, s.c)
		return &value{t: t, c: g.op(OpMul, n, s2, k)}
	case "sign":
		if !n1() {
			return noMatch()
		}
		a := args[0]
		n := a.t.comps()
		var pos, neg []Operand
		if a.t.Base == Float {
			pos = g.op(OpLt, n, []Operand{immF(0)}, a.c)
			neg = g.op(OpLt, n, a.c, []Operand{immF(0)})
		} else {
			pos = g.op(OpIlt, n, []Operand{immU(0)}, a.c)
			neg = g.op(OpIlt, n, a.c, []Operand{immU(0)})
		}
		// The comparisons give 0/-1 masks: sign = -(0<x) + (x<0), as fxc computes it.
		return &value{t: a.t.withBase(Int), c: g.op(OpIadd, n, g.op(OpIneg, n, pos), neg)}
	case "dot":
		if len(args) != 2 {
			return noMatch()
		}
		if args[0].t.Kind == KMatrix || args[1].t.Kind == KMatrix {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		if args[0].t.Base != Float && args[1].t.Base != Float {
			t = t.withBase(max(args[0].t.Base, args[1].t.Base, Int))
			a[0], a[1] = g.convert(p, args[0], t, false), g.convert(p, args[1], t, false)
			return &value{t: scalarT(t.Base), c: g.idot(a[0].c, a[1].c)}
		}
		return &value{t: scalarT(Float), c: g.dot(a[0].c, a[1].c)}
	case "length":
		if !n1() || args[0].t.Kind == KMatrix {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		d := g.dot(a[0].c, a[0].c)
		return &value{t: scalarT(Float), c: g.op(OpSqrt, 1, d)}
	case "distance":
		if len(args) != 2 || args[0].t.Kind == KMatrix || args[1].t.Kind == KMatrix {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		d := g.op(OpAdd, t.comps(), a[0].c, negs(a[1].c))
		return &value{t: scalarT(Float), c: g.op(OpSqrt, 1, g.dot(d, d))}
	case "normalize":
		if !n1() || args[0].t.Kind == KMatrix {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		d := g.dot(a[0].c, a[0].c)
		r := g.op(OpRsq, 1, d)
		return &value{t: t, c: g.op(OpMul, t.comps(), r, a[0].c)}
	case "reflect":
		if len(args) != 2 {
			return noMatch()
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		d := g.dot(a[1].c, a[0].c)
		d2 := g.op(OpAdd, 1, d, d)
		return &value{t: t, c: g.op(OpMad, t.comps(), negs(d2), a[1].c, a[0].c)}
	case "cross":
		if len(args) != 2 {
			return noMatch()
		}
		// cross takes float3: a longer vector is truncated, a scalar
		// splatted, as in fxc.
		t := vecT(Float, 3)
		var a [2]*value
		for i, x := range args {
			if !x.t.numeric() || x.t.Kind == KMatrix || x.t.comps() != 1 && x.t.comps() < 3 {
				return noMatch()
			}
			a[i] = g.convert(p, x, t, true)
			if a[i] == poison {
				return poison
			}
		}
		x, y := a[0].c, a[1].c
		sw := func(c []Operand, i, j, k int) []Operand { return []Operand{c[i], c[j], c[k]} }
		m := g.op(OpMul, 3, sw(x, 2, 0, 1), sw(y, 1, 2, 0))
		return &value{t: t, c: g.op(OpMad, 3, sw(x, 1, 2, 0), sw(y, 2, 0, 1), negs(m))}
	case "mul":
		if len(args) != 2 {
			return noMatch()
		}
		return g.mul(p, args[0], args[1])
	case "transpose":
		if n1() && args[0].t.Kind == KScalar {
			return args[0] // a scalar is its own transpose (fxc takes it; a vector it does not)
		}
		if !n1() || args[0].t.Kind != KMatrix {
			return noMatch()
		}
		a := args[0]
		t := matT(a.t.Base, a.t.Cols, a.t.Rows)
		var c []Operand
		for r := 0; r < t.Rows; r++ {
			for k := 0; k < t.Cols; k++ {
				c = append(c, a.c[k*a.t.Cols+r])
			}
		}
		return &value{t: t, c: c, ro: true}
	case "any", "all":
		if !n1() {
			return noMatch()
		}
		b := g.convert(p, args[0], args[0].t.withBase(Bool), false)
		r := b.c[:1]
		o := OpOr
		if e.name == "all" {
			o = OpAnd
		}
		for i := 1; i < len(b.c); i++ {
			r = g.op(o, 1, r, b.c[i:i+1])
		}
		return &value{t: scalarT(Bool), c: r}
	case "clip":
		if !n1() {
			return noMatch()
		}
		if g.stage != Pixel {
			g.errorf(p, eNotImplemented, "clip is only valid in a pixel shader")
			return poison
		}
		t, a := floats()
		if t == nil {
			return poison
		}
		lt := g.op(OpLt, t.comps(), a[0].c, []Operand{immF(0)})
		r := lt[:1]
		for i := 1; i < len(lt); i++ {
			r = g.op(OpOr, 1, r, lt[i:i+1])
		}
		g.emit(Instr{Op: OpDiscard, Test: TestNZ, Src: []Operand{g.srcOp(r)}})
		return &value{t: tVoid, ro: true}
	case "asfloat", "asint", "asuint":
		if !n1() || args[0].t.Base == Bool {
			return noMatch()
		}
		b := map[string]Base{"asfloat": Float, "asint": Int, "asuint": Uint}[e.name]
		return &value{t: args[0].t.withBase(b), c: args[0].c, ro: true}
	}
	if v, ok := g.moreIntrinsic(e, args); ok {
		return v
	}
	g.errorf(p, eUndeclared, "undeclared identifier '%s'", e.name)
	return poison
}

// dot emits dp2/dp3/dp4 (a product for one component).
func (g *gen) dot(a, b []Operand) []Operand {
	switch len(a) {
	case 1:
		return g.op(OpMul, 1, a, b)
	case 2, 3, 4:
		r := g.alloc()
		g.emit(Instr{Op: OpDp2 + Op(len(a)-2), Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{g.srcOp(a), g.srcOp(b)}})
		return []Operand{comp(FileTemp, r, 0)}
	}
	return []Operand{immF(0)}
}

func (g *gen) idot(a, b []Operand) []Operand {
	m := g.op(OpImul, len(a), a, b)
	r := m[:1]
	for i := 1; i < len(m); i++ {
		r = g.op(OpIadd, 1, r, m[i:i+1])
	}
	return r
}

// mul is HLSL's mul: scalar products, vector dot, and the matrix forms.
// A row of a result is either one dpN per output component (when the
// columns of the right matrix each sit in one register, as a column_major
// constant matrix does) or a mul/mad chain over rows, as fxc emits them.
func (g *gen) mul(p pos, a, b *value) *value {
	base := max(a.t.Base, b.t.Base, Int)
	a, b = mulOne(a, b), mulOne(b, a) // a float1 times a matrix is a vector's product (onevec.go)
	if a.t.Kind == KScalar || b.t.Kind == KScalar {
		return g.binop(p, "*", a, b)
	}
	if a.t.Kind == KVector && b.t.Kind == KVector {
		if a.t.Cols != b.t.Cols {
			g.warnf(p, eTruncation, "implicit truncation of vector type")
		}
		n := min(a.t.Cols, b.t.Cols)
		t := vecT(base, n)
		x, y := g.convert(p, &value{t: vecT(a.t.Base, n), c: a.c[:n]}, t, false), g.convert(p, &value{t: vecT(b.t.Base, n), c: b.c[:n]}, t, false)
		if base == Float {
			return &value{t: scalarT(Float), c: g.dot(x.c, y.c)}
		}
		return &value{t: scalarT(base), c: g.idot(x.c, y.c)}
	}
	// Treat a vector as a 1xN (left) or Nx1 (right) matrix.
	ar, ac := a.t.Rows, a.t.Cols
	br, bc := b.t.Rows, b.t.Cols
	if b.t.Kind == KVector {
		br, bc = b.t.Cols, 1
	}
	if ac != br {
		// fxc truncates to the shorter inner dimension, with a warning.
		g.warnf(p, eTruncation, "implicit truncation of vector type")
		k := min(ac, br)
		if ac > k {
			var c []Operand
			for r := 0; r < ar; r++ {
				c = append(c, a.c[r*ac:r*ac+k]...)
			}
			at := matT(a.t.Base, ar, k)
			if a.t.Kind == KVector {
				at = vecT(a.t.Base, k)
			}
			a = &value{t: at, c: c, ro: true}
			ac = k
		}
		if br > k {
			b = &value{t: b.t, c: b.c[:k*bc], ro: true}
			if b.t.Kind == KVector {
				b.t = vecT(b.t.Base, k)
			} else {
				b.t = matT(b.t.Base, k, bc)
			}
			br = k
		}
	}
	if base != Float {
		g.errorf(p, eNotImplemented, "integer matrix products are not supported by this compiler")
		return poison
	}
	x := g.convert(p, a, a.t.withBase(Float), false)
	y := g.convert(p, b, b.t.withBase(Float), false)
	rowOf := func(r int) []Operand { return x.c[r*ac : (r+1)*ac] }
	colOf := func(c int) []Operand {
		out := make([]Operand, br)
		for k := 0; k < br; k++ {
			out[k] = y.c[k*bc+c]
		}
		return out
	}
	rowB := func(k int) []Operand { return y.c[k*bc : (k+1)*bc] }
	colA := func(k int) []Operand {
		out := make([]Operand, ar)
		for i := 0; i < ar; i++ {
			out[i] = x.c[i*ac+k]
		}
		return out
	}
	inOneReg := func(c []Operand) bool {
		for _, o := range c[1:] {
			if !sameReg(o, c[0]) && !(o.File == FileImm && c[0].File == FileImm) {
				return false
			}
		}
		return true
	}
	rowsA, colsB, colsA := true, true, true
	for i := 0; i < ar; i++ {
		rowsA = rowsA && inOneReg(rowOf(i))
	}
	for j := 0; j < bc; j++ {
		colsB = colsB && inOneReg(colOf(j))
	}
	for k := 0; k < ac; k++ {
		colsA = colsA && inOneReg(colA(k))
	}
	rowsB := true
	for k := 0; k < br; k++ {
		rowsB = rowsB && inOneReg(rowB(k))
	}
	if !rowsA && colsB && !rowsB && !(colsA && ar > 1) && ac >= 2 {
		// B's columns sit in registers and its rows do not (a
		// column_major constant matrix): A's rows are put together in
		// temps for one dpN per result, as fxc does, rather than each
		// row of B gathered for a mul/mad chain.
		c := make([]Operand, 0, len(x.c))
		for i := 0; i < ar; i++ {
			c = append(c, g.copyTemp(rowOf(i))...)
		}
		x = &value{t: x.t, c: c, ro: true}
		rowsA = true
	}
	out := make([]Operand, ar*bc)
	switch {
	case rowsA && colsB && ac >= 2:
		// One dpN per result component.
		for i := 0; i < ar; i++ {
			for j := 0; j < bc; j++ {
				out[i*bc+j] = g.dot(rowOf(i), colOf(j))[0]
			}
		}
	case colsA && ar > 1:
		// Each result column is a mul/mad chain over A's columns.
		for j := 0; j < bc; j++ {
			acc := g.op(OpMul, ar, colA(0), []Operand{y.c[j]})
			for k := 1; k < ac; k++ {
				acc = g.op(OpMad, ar, colA(k), []Operand{y.c[k*bc+j]}, acc)
			}
			for i := 0; i < ar; i++ {
				out[i*bc+j] = acc[i]
			}
		}
	default:
		// Each result row is a mul/mad chain over B's rows.
		for i := 0; i < ar; i++ {
			row := rowOf(i)
			acc := g.op(OpMul, bc, []Operand{row[0]}, rowB(0))
			for k := 1; k < br; k++ {
				acc = g.op(OpMad, bc, []Operand{row[k]}, rowB(k), acc)
			}
			copy(out[i*bc:], acc)
		}
	}
	var t *Type
	switch {
	case a.t.Kind == KVector:
		t = vecT(Float, bc)
	case b.t.Kind == KVector:
		t = vecT(Float, ar)
	default:
		t = matT(Float, ar, bc)
	}
	return &value{t: t, c: out}
}
