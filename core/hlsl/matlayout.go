package hlsl

// A local matrix is laid out in temps a register per row (Rows registers
// of Cols components), or a register per column when what is assigned to
// it whole comes from a column_major matrix in a constant buffer: fxc
// keeps a skinning effect's float4x3, a sum of weighted column_major bones
// (`skinning += Bones[i] * w`), so, in whole columns from cb# to the
// mad and then one dpN per component of the mul, where rows would need
// every column's lanes moved into them first (9 movs a bone). A matrix
// whose rows are written one by one (`m[i] = v`) keeps rows. The layout
// changes only which lanes hold a component, never a value.

// matrixUse is what the file does with a local matrix's name: the
// expressions assigned to it whole (`m = e`, `m += e`)
// and whether anything indexes it (a row read or written).
type matrixUse struct {
	whole   []Expr
	indexed bool
}

// matrixUses walks the functions of a file for matrixUse, by name (a name
// used in two functions counts both: a wrong guess costs movs, never a
// value).
func matrixUses(f *file) map[string]*matrixUse {
	uses := map[string]*matrixUse{}
	use := func(name string) *matrixUse {
		u := uses[name]
		if u == nil {
			u = &matrixUse{}
			uses[name] = u
		}
		return u
	}
	var ex func(e Expr)
	ex = func(e Expr) {
		switch e := e.(type) {
		case *assignExpr:
			if id, ok := e.l.(*identExpr); ok {
				u := use(id.name)
				u.whole = append(u.whole, e.r)
			}
		case *indexExpr:
			if id, ok := e.x.(*identExpr); ok {
				use(id.name).indexed = true
			}
		}
		eachSubExpr(e, ex)
	}
	for _, fn := range f.funcs {
		if fn.body == nil {
			continue
		}
		walkStmtExprs(fn.body, ex)
	}
	return uses
}

// eachSubExpr calls f with each expression e holds directly.
func eachSubExpr(e Expr, f func(Expr)) {
	switch e := e.(type) {
	case *unaryExpr:
		f(e.x)
	case *binaryExpr:
		f(e.x)
		f(e.y)
	case *assignExpr:
		f(e.l)
		f(e.r)
	case *condExpr:
		f(e.c)
		f(e.a)
		f(e.b)
	case *callExpr:
		if e.recv != nil {
			f(e.recv)
		}
		for _, a := range e.args {
			f(a)
		}
	case *ctorExpr:
		for _, a := range e.args {
			f(a)
		}
	case *castExpr:
		f(e.x)
	case *memberExpr:
		f(e.x)
	case *indexExpr:
		f(e.x)
		f(e.i)
	case *initList:
		for _, a := range e.elems {
			f(a)
		}
	}
}

// columnLocal reports whether the local matrix name of type t is kept a
// register per column: t is column_major, nothing indexes the name, and
// an expression assigned to it whole reads a column_major matrix (or an
// array of them) of a constant buffer.
func (g *gen) columnLocal(name string, t *Type) bool {
	u := g.matUses[name]
	if t.Kind != KMatrix || t.RowMajor || t.Base == Double || u == nil || u.indexed {
		return false
	}
	found := false
	var ex func(e Expr)
	ex = func(e Expr) {
		if id, ok := e.(*identExpr); ok && !found {
			v := g.lookup(id.name)
			if v == nil {
				return
			}
			mt := v.t
			for mt.Kind == KArray {
				mt = mt.Elem
			}
			found = mt.Kind == KMatrix && !mt.RowMajor && (v.glob != nil || v.cb != nil && v.cb.file == FileCB)
		}
		eachSubExpr(e, ex)
	}
	for _, e := range u.whole {
		ex(e)
	}
	return found
}

// matrixColumns allocates a column_major local matrix a register per
// column: component (r, c) is lane r of column c's register.
func (g *gen) matrixColumns(t *Type) *value {
	c := make([]Operand, t.Rows*t.Cols)
	for j := 0; j < t.Cols; j++ {
		reg := g.alloc()
		for r := 0; r < t.Rows; r++ {
			c[r*t.Cols+j] = comp(FileTemp, reg, r)
		}
	}
	return &value{t: t, c: c}
}

// laneGroups splits the n components of a component-wise operation over
// more than one register (a matrix's) into groups of up to four whose
// sources each sit in one register (or are all immediates), so that each
// group is one instruction with no lanes gathered first: a column_major
// matrix's components group by column, where four in a row would need a
// mov from each of three registers. It returns nil where the groups of
// four in order are already so (or where no grouping avoids a gather).
func laneGroups(n int, srcs [][]Operand) [][]int {
	if n <= 4 {
		return nil
	}
	fits := func(grp []int, i int) bool {
		for _, s := range srcs {
			a, b := s[grp[0]], s[i]
			if !(sameReg(a, b) || a.File == FileImm && b.File == FileImm) {
				return false
			}
		}
		return true
	}
	clean := true
	for base := 0; base < n && clean; base += 4 {
		for i := base + 1; i < min(base+4, n); i++ {
			if !fits([]int{base}, i) {
				clean = false
				break
			}
		}
	}
	if clean {
		return nil
	}
	var groups [][]int
next:
	for i := 0; i < n; i++ {
		for k, grp := range groups {
			if len(grp) < 4 && fits(grp, i) {
				groups[k] = append(grp, i)
				continue next
			}
		}
		groups = append(groups, []int{i})
	}
	if len(groups) > (n+3)/4+(n+3)/4 {
		// Ungroupable sources (many registers): the groups of four in
		// order, gathered, are no worse.
		return nil
	}
	return groups
}

// opGroups is op over the groups of laneGroups.
func (g *gen) opGroups(o Op, n int, groups [][]int, srcs [][]Operand) []Operand {
	out := make([]Operand, n)
	sub := make([][]Operand, len(srcs))
	for _, grp := range groups {
		for j, s := range srcs {
			sub[j] = make([]Operand, len(grp))
			for k, i := range grp {
				sub[j][k] = s[i]
			}
		}
		r := g.op(o, len(grp), sub...)
		for k, i := range grp {
			out[i] = r[k]
		}
	}
	return out
}
