package hlsl

// Indexing by a value known only when the shader runs. An array local
// that some expression indexes that way lives in an x# indexable array
// (dcl_indexableTemp), as fxc puts it, and is read and written at
// x#[r#.c + n]; constant buffers are read at cb#[r#.c + n]. SM4 indexes
// no components by a register, so a vector's component or a matrix's row
// chosen at run time (and an element of an array kept in temps) is read
// with a chain of movc over the candidates and written back with movc into
// each of them.

// writeBack makes a value that is not a register of its own an l-value:
// a store computes the new value of base with merge and stores that.
type writeBack struct {
	base  *value
	merge func(src *value) *value
}

// dynIndexed lists the names some expression of the file indexes with a
// non-constant: their arrays are given x# storage (newNamedVar).
func dynIndexed(f *file) map[string]bool {
	names := map[string]bool{}
	var root func(e Expr) string
	root = func(e Expr) string {
		switch e := e.(type) {
		case *identExpr:
			return e.name
		case *memberExpr:
			return root(e.x)
		case *indexExpr:
			return root(e.x)
		}
		return ""
	}
	var ex func(e Expr)
	ex = func(e Expr) {
		if ie, ok := e.(*indexExpr); ok && !constIndex(ie.i) {
			if n := root(ie.x); n != "" {
				names[n] = true
			}
		}
		eachSubExpr(e, ex)
	}
	for _, fn := range f.funcs {
		if fn.body != nil {
			walkStmtExprs(fn.body, ex)
		}
	}
	for _, v := range f.globals {
		if v.init != nil {
			ex(v.init)
		}
	}
	return names
}

// constIndex reports an index written as a constant expression of
// literals.
func constIndex(e Expr) bool {
	switch e := e.(type) {
	case *intLit, *floatLit, *boolLit:
		return true
	case *unaryExpr:
		return e.op != "++" && e.op != "--" && constIndex(e.x)
	case *binaryExpr:
		return e.op != "," && constIndex(e.x) && constIndex(e.y)
	case *castExpr:
		return constIndex(e.x)
	}
	return false
}

// dynIndex is x[i] with i in a register (iv, already an int scalar).
func (g *gen) dynIndex(p pos, x *value, iv *value) *value {
	if !(x.t.Kind == KArray && x.cb != nil) && g.refuseDoubles(p, x.t, "a variable indexed at run time") {
		return poison
	}
	switch {
	case x.t.Kind == KArray && (x.res != nil || hasObject(x.t)):
		g.errorf(p, eSyntax, "syntax error: an array of textures or samplers is indexed only by a literal expression in shader model %d", g.major)
		return poison
	case x.t.Kind == KArray && x.cb != nil:
		stride := roundUp16(sizeOf(x.t.Elem)) / 16
		rc := iv.c
		if stride != 1 {
			rc = g.op(OpImul, 1, rc, []Operand{immU(uint32(stride))})
		}
		if x.cb.rel != nil {
			rc = g.op(OpIadd, 1, rc, []Operand{*x.cb.rel})
		}
		rel := g.srcOp(rc)
		if rel.File != FileTemp {
			// A relative index is a temp register (an input or a
			// constant as the index is copied first).
			rel = g.srcOp(g.copyTemp(rc))
		}
		rel.Swz = [4]uint8{rel.Swz[0], rel.Swz[0], rel.Swz[0], rel.Swz[0]}
		if x.cb.file == FileCB {
			g.cbDyn[x.cb.slot] = true
			end := (x.cb.off+sizeOf(x.t)-1)/16 + 1
			if end > g.cbMax[x.cb.slot] {
				g.cbMax[x.cb.slot] = end
			}
		}
		return g.memValue(x.cb.file, x.cb.slot, x.cb.off, x.t.Elem, &rel)
	case x.t.Kind == KArray:
		var opts []*value
		for k := 0; k < x.t.Len; k++ {
			opts = append(opts, g.element(p, x, k))
		}
		return g.selectOf(p, x, iv.c[0], opts, x.t.Elem)
	case x.t.Kind == KVector || x.t.Kind == KScalar:
		var opts []*value
		for k := 0; k < x.t.Cols; k++ {
			opts = append(opts, &value{t: scalarT(x.t.Base), c: []Operand{x.c[k]}, ro: true})
		}
		return g.selectOf(p, x, iv.c[0], opts, scalarT(x.t.Base))
	case x.t.Kind == KMatrix:
		var opts []*value
		for k := 0; k < x.t.Rows; k++ {
			opts = append(opts, &value{t: vecT(x.t.Base, x.t.Cols), c: x.c[k*x.t.Cols : (k+1)*x.t.Cols], ro: true})
		}
		return g.selectOf(p, x, iv.c[0], opts, vecT(x.t.Base, x.t.Cols))
	}
	g.errorf(p, eSubscript, "invalid subscript")
	return poison
}

// selectOf reads opts[i] with a movc chain (element 0 when i is out of
// range) and, unless x is read-only, writes back through a movc per
// element.
func (g *gen) selectOf(p pos, x *value, idx Operand, opts []*value, et *Type) *value {
	if len(opts) == 0 {
		return poison
	}
	conds := make([][]Operand, len(opts))
	for k := 1; k < len(opts); k++ {
		conds[k] = g.op(OpIeq, 1, []Operand{idx}, []Operand{immU(uint32(k))})
	}
	res := opts[0]
	for k := 1; k < len(opts); k++ {
		res = g.choose(p, conds[k][0], opts[k], res)
	}
	out := *res
	out.ro = x.ro
	if !x.ro {
		out.wb = &writeBack{base: x, merge: func(src *value) *value {
			if x.t.Kind == KArray {
				nv := &value{t: x.t}
				for k := range opts {
					nv.elems = append(nv.elems, g.choose(p, conds[k0(conds, k, idx, g)][0], src, opts[k]))
				}
				return nv
			}
			if x.t.Kind == KVector && !g.vectorStoreOK(p, idx) { // (unroll.go)
				return poison
			}
			var c []Operand
			for k := range opts {
				c = append(c, g.choose(p, conds[k0(conds, k, idx, g)][0], src, opts[k]).c...)
			}
			return &value{t: x.t, c: c}
		}}
	}
	return &out
}

// k0 fills the condition of element 0 (i == 0) when a write needs it.
func k0(conds [][]Operand, k int, idx Operand, g *gen) int {
	if conds[k] == nil {
		conds[k] = g.op(OpIeq, 1, []Operand{idx}, []Operand{immU(uint32(k))})
	}
	return k
}

// choose is c ? a : b for values of one type, leaf by leaf.
func (g *gen) choose(p pos, c Operand, a, b *value) *value {
	switch b.t.Kind {
	case KStruct:
		out := &value{t: b.t}
		for i := range b.t.Fields {
			out.fields = append(out.fields, g.choose(p, c, g.field(a, i), g.field(b, i)))
		}
		return out
	case KArray:
		out := &value{t: b.t}
		for i := 0; i < b.t.Len; i++ {
			out.elems = append(out.elems, g.choose(p, c, g.element(p, a, i), g.element(p, b, i)))
		}
		return out
	}
	if !b.t.numeric() {
		return b
	}
	return &value{t: b.t, c: g.op(OpMovc, len(b.c), []Operand{c}, a.c, b.c), ro: true}
}

func (g *gen) field(v *value, i int) *value {
	if i < len(v.fields) {
		return v.fields[i]
	}
	return poison
}

// storeDyn stores through a write-back.
func (g *gen) storeWB(p pos, wb *writeBack, src *value, sat bool) {
	nv := wb.merge(src)
	if nv == nil || nv == poison {
		return
	}
	g.store(p, wb.base, nv, sat)
}

// through makes part, read from x, an l-value that writes back through
// x when x is one that is not a register of its own: a store rebuilds x
// with put (on a copy of x's parts) and stores that.
func (g *gen) through(x, part *value, put func(nv, src *value)) *value {
	if x.wb == nil || x.ro || part == poison {
		return part
	}
	r := *part
	r.wb = &writeBack{base: x, merge: func(src *value) *value {
		nv := &value{t: x.t, c: append([]Operand(nil), x.c...), fields: append([]*value(nil), x.fields...)}
		if x.t.Kind == KArray {
			for k := 0; k < x.t.Len; k++ {
				nv.elems = append(nv.elems, g.element(pos{}, x, k))
			}
		}
		put(nv, src)
		return nv
	}}
	return &r
}
