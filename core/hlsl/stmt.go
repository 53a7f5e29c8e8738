package hlsl

// stmt lowers one statement. Temps taken for expression results are
// given back when the statement ends; a declaration keeps its variable's.
func (g *gen) stmt(s Stmt) {
	if len(g.errs) >= maxErrors || g.tooBig || !g.lowered(s.at()) {
		return
	}
	if g.fixLine == 0 {
		g.line = s.at().line
	}
	saved := g.top
	switch s := s.(type) {
	case *blockStmt:
		g.push()
		for _, x := range s.list {
			g.stmt(x)
		}
		g.pop()
	case *typeStmt:
		switch d := s.decl.(type) {
		case *structDecl:
			g.declareStruct(d)
		case *typedefDecl:
			g.declareTypedef(d)
		}
	case *declStmt:
		if s.def != nil {
			g.declareStruct(s.def)
		}
		for _, d := range s.vars {
			g.declLocal(d)
			g.checkStates(d)
		}
		return
	case *exprStmt:
		g.expr(discardValue(s.x))
	case *emptyStmt:
	case *ifStmt:
		c := g.cond(s.cond)
		if c == nil {
			return
		}
		g.emit(Instr{Op: OpIf, Test: TestNZ, Src: []Operand{*c}})
		g.top = saved
		g.cdepth++
		g.scoped(s.then)
		if s.els_ != nil {
			g.emit(Instr{Op: OpElse})
			g.scoped(s.els_)
		}
		g.cdepth--
		g.emit(Instr{Op: OpEndif})
	case *forStmt:
		if s.unrollAll {
			g.checkUnroll(s) // (unroll.go)
		}
		g.push()
		if s.init != nil {
			g.stmt(s.init)
		}
		// A continue jumps to the top of the loop, so a loop whose body
		// continues runs its step there, skipped on the first trip.
		var first *Operand
		if s.post != nil && hasJump(s.body, "continue") {
			first = g.firstTrip()
		}
		trips := g.tripLimit(s.unroll)
		inner := g.top
		g.emit(Instr{Op: OpLoop, Unroll: s.hint})
		g.loopDep++
		g.cdepth++
		g.brk = append(g.brk, 'l')
		g.countTrip(trips, s.unroll)
		if first != nil {
			g.emit(Instr{Op: OpIf, Test: TestZ, Src: []Operand{*first}})
			g.expr(discardValue(s.post))
			g.top = inner
			g.emit(Instr{Op: OpEndif})
			g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: first.Index, Mask: 1 << first.Swz[0]}}, Src: []Operand{immU(0)}})
		}
		if s.cond != nil {
			if c := g.cond(s.cond); c != nil {
				g.emit(Instr{Op: OpBreakc, Test: TestZ, Src: []Operand{*c}})
			}
			g.top = inner
		}
		g.scoped(s.body)
		if s.post != nil && first == nil {
			g.expr(discardValue(s.post))
			g.top = inner
		}
		g.loopDep--
		g.cdepth--
		g.brk = g.brk[:len(g.brk)-1]
		g.emit(Instr{Op: OpEndloop})
		g.pop()
		g.passReturn(s.body)
	case *whileStmt:
		// do-while with continue: the condition is tested at the top,
		// skipped on the first trip.
		var first *Operand
		if s.do && hasJump(s.body, "continue") {
			first = g.firstTrip()
		}
		trips := g.tripLimit(s.unroll)
		inner := g.top
		g.emit(Instr{Op: OpLoop, Unroll: s.hint})
		g.loopDep++
		g.cdepth++
		g.brk = append(g.brk, 'l')
		g.countTrip(trips, s.unroll)
		if first != nil {
			g.emit(Instr{Op: OpIf, Test: TestZ, Src: []Operand{*first}})
			if c := g.cond(s.cond); c != nil {
				g.emit(Instr{Op: OpBreakc, Test: TestZ, Src: []Operand{*c}})
			}
			g.top = inner
			g.emit(Instr{Op: OpEndif})
			g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: first.Index, Mask: 1 << first.Swz[0]}}, Src: []Operand{immU(0)}})
		}
		if !s.do {
			if c := g.cond(s.cond); c != nil {
				g.emit(Instr{Op: OpBreakc, Test: TestZ, Src: []Operand{*c}})
			}
			g.top = inner
		}
		g.scoped(s.body)
		if s.do && first == nil {
			if c := g.cond(s.cond); c != nil {
				g.emit(Instr{Op: OpBreakc, Test: TestZ, Src: []Operand{*c}})
			}
		}
		g.loopDep--
		g.cdepth--
		g.brk = g.brk[:len(g.brk)-1]
		g.emit(Instr{Op: OpEndloop})
		g.passReturn(s.body)
	case *switchStmt:
		g.switchStmt(s)
	case *returnStmt:
		g.ret(s)
	case *jumpStmt:
		switch s.kind {
		case "break", "continue":
			ok, inSwitch := false, false
			for i := len(g.brk) - 1; i >= 0 && g.brk[i] != 'f'; i-- {
				if s.kind == "continue" && g.brk[i] == 's' {
					// fxc refuses a continue inside a switch (shader
					// models 4 and 5).
					inSwitch = true
					break
				}
				if g.brk[i] == 'l' || s.kind == "break" {
					ok = true
					break
				}
			}
			if inSwitch {
				g.errorf(s.pos, eSyntax, "syntax error: 'continue' inside a switch (shader models 4 and 5 have none)")
				break
			}
			if !ok {
				g.errorf(s.pos, eSyntax, "syntax error: '%s' outside a loop", s.kind)
				break
			}
			op := OpBreak
			if s.kind == "continue" {
				op = OpContinue
			}
			g.emit(Instr{Op: op})
		case "discard":
			if g.stage != Pixel {
				g.errorf(s.pos, eNotImplemented, "discard is only valid in a pixel shader")
				break
			}
			g.emit(Instr{Op: OpDiscard, Test: TestNZ, Src: []Operand{immU(0xffffffff)}})
		}
	}
	g.top = saved
}

// tripLimit starts the trip counter of an [unroll(N)] loop: fxc unrolls N
// trips and no more, so the loop ends after N trips whatever its
// condition says (vkd3d's tests check it). nil without the attribute.
func (g *gen) tripLimit(n int) *Operand {
	if n <= 0 {
		return nil
	}
	r := g.alloc()
	g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{immU(0)}})
	o := comp(FileTemp, r, 0)
	return &o
}

// countTrip, at the top of the loop, leaves it after N trips and counts
// this one.
func (g *gen) countTrip(k *Operand, n int) {
	if k == nil {
		return
	}
	saved := g.top
	done := g.op(OpUge, 1, []Operand{*k}, []Operand{immU(uint32(n))})
	g.emit(Instr{Op: OpBreakc, Test: TestNZ, Src: []Operand{g.srcOp(done)}})
	g.emit(Instr{Op: OpIadd, Dst: []Operand{{File: FileTemp, Index: k.Index, Mask: 1 << k.Swz[0]}}, Src: []Operand{*k, immU(1)}})
	g.top = saved
}

// firstTrip allocates a flag set to true (all bits) before a loop.
func (g *gen) firstTrip() *Operand {
	r := g.alloc()
	g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{immU(0xffffffff)}})
	o := comp(FileTemp, r, 0)
	return &o
}

// scoped lowers a statement in its own scope, giving back its temps.
func (g *gen) scoped(s Stmt) {
	saved := g.top
	g.push()
	g.stmt(s)
	g.pop()
	g.top = saved
}

// cond lowers a condition to one bool component operand.
func (g *gen) cond(e Expr) *Operand {
	v := g.expr(e)
	if v == poison {
		return nil
	}
	if !v.t.numeric() || v.t.comps() != 1 {
		// fxc takes a scalar condition only (vkd3d's cf-cond-types).
		g.errorf(e.at(), eTypeMismatch, "syntax error: a condition must be a scalar, not %s", v.t)
		return nil
	}
	b := g.convert(e.at(), &value{t: scalarT(v.t.Base), c: v.c[:1]}, scalarT(Bool), false)
	c := b.c[0]
	if c.File == FileImm {
		c = g.copyTemp(b.c)[0]
	}
	o := g.srcOp([]Operand{c})
	return &o
}

// walkStmtExprs calls ex with each expression s and the statements inside
// it hold directly (declarations' initialisers, conditions, a for's post,
// a switch's selector, returned values), in source order; ex walks into
// the expressions itself.
func walkStmtExprs(s Stmt, ex func(Expr)) {
	switch s := s.(type) {
	case *blockStmt:
		for _, x := range s.list {
			walkStmtExprs(x, ex)
		}
	case *declStmt:
		for _, d := range s.vars {
			if d.init != nil {
				ex(d.init)
			}
		}
	case *exprStmt:
		ex(s.x)
	case *ifStmt:
		ex(s.cond)
		walkStmtExprs(s.then, ex)
		if s.els_ != nil {
			walkStmtExprs(s.els_, ex)
		}
	case *forStmt:
		if s.init != nil {
			walkStmtExprs(s.init, ex)
		}
		if s.cond != nil {
			ex(s.cond)
		}
		if s.post != nil {
			ex(s.post)
		}
		walkStmtExprs(s.body, ex)
	case *whileStmt:
		ex(s.cond)
		walkStmtExprs(s.body, ex)
	case *switchStmt:
		ex(s.sel)
		for _, gr := range s.groups {
			for _, x := range gr.body {
				walkStmtExprs(x, ex)
			}
		}
	case *returnStmt:
		if s.x != nil {
			ex(s.x)
		}
	}
}

func hasJump(s Stmt, kind string) bool {
	found := false
	var walk func(s Stmt, inLoop bool)
	walk = func(s Stmt, inLoop bool) {
		switch s := s.(type) {
		case *blockStmt:
			for _, x := range s.list {
				walk(x, inLoop)
			}
		case *ifStmt:
			walk(s.then, inLoop)
			if s.els_ != nil {
				walk(s.els_, inLoop)
			}
		case *jumpStmt:
			if s.kind == kind && !inLoop {
				found = true
			}
		case *forStmt:
			walk(s.body, true)
		case *whileStmt:
			walk(s.body, true)
		case *switchStmt:
			// A break in a switch leaves the switch; a continue goes on to
			// the loop around it.
			for _, gr := range s.groups {
				for _, x := range gr.body {
					walk(x, inLoop || kind == "break")
				}
			}
		}
	}
	walk(s, false)
	return found
}

func (g *gen) declLocal(d *varDecl) {
	if v := g.fnStatics[d]; v != nil && d.static {
		g.declare(d.pos, d.name, v)
		return
	}
	if d.constQ && !d.static && d.init == nil && len(g.scopes) > 1 {
		g.errorf(d.pos, eSyntax, "syntax error: const variable '%s' must be initialized", d.name)
	}
	g.implicitSize(d)
	g.lazyArray = !d.static && d.init == nil && len(d.arrayLen) > 0
	t := g.arrayType(g.resolveType(d.typ), d.arrayLen)
	g.lazyArray = false
	if t == poison.t {
		g.declare(d.pos, d.name, poison)
		return
	}
	if e := elementsOf(t); e > MaxArrayElements {
		// Declared, never made: fxc takes an array larger than the
		// registers when nothing uses it (it is dead code); a use is
		// refused there, naming the limit.
		g.declare(d.pos, d.name, &value{t: t, unmade: sprintf("'%s': an array of %d elements (%s) is more than the %d registers a local array may take", d.name, e, dimsOf(t), MaxArrayElements)})
		return
	}
	if t.Kind == KVoid {
		g.errorf(d.pos, eSyntax, "syntax error: unexpected token 'void'")
		g.declare(d.pos, d.name, poison)
		return
	}
	if effectObject(t) {
		g.errorf(d.pos, eTypeMismatch, "'%s': an effect's %s is declared only at global scope", d.name, t)
		g.declare(d.pos, d.name, poison)
		return
	}
	if d.static && hasObject(t) && hasNumeric(t) {
		g.errorf(d.pos, eTypeMismatch, "'%s': a static variable holds numbers or objects (textures, samplers), not both", d.name)
		g.declare(d.pos, d.name, poison)
		return
	}
	// A static const with a constant initialiser is a compile-time value.
	if d.constQ && d.init != nil {
		if _, ok := d.init.(*initList); !ok {
			saved, nCode, nErr, nWarn, nMore := g.top, len(g.code), len(g.errs), len(g.warns), g.more
			v := g.expr(d.init)
			if v != poison {
				v = g.convert(d.pos, v, t, true)
			}
			if v != poison && t.numeric() && allImm(v.c) {
				g.top = saved
				cv := *v
				cv.ro = true
				g.declare(d.pos, d.name, &cv)
				return
			}
			// Not constant: forget this attempt, lower it as a variable.
			g.top, g.code, g.errs, g.warns, g.more = saved, g.code[:nCode], g.errs[:nErr], g.warns[:nWarn], nMore
		}
	}
	v := g.newNamedVar(d.name, t)
	saved := g.top
	switch {
	case d.init != nil:
		g.initVar(d.pos, v, d.init)
	case d.static:
		// A static without an initialiser is zero ("Variable Syntax").
		if z := g.splat(d.pos, &value{t: scalarT(Uint), c: []Operand{immU(0)}, ro: true}, t); z != nil {
			g.store(d.pos, v, z, false)
		}
	}
	g.top = saved
	g.declare(d.pos, d.name, v)
	if d.constQ {
		v.ro = true
	}
}

// initVar stores an initialiser: an expression or a { ... } list whose
// scalars fill the variable's components in order.
func (g *gen) initVar(p pos, v *value, init Expr) {
	if l, ok := init.(*initList); ok {
		var flat []*value
		var walk func(e Expr) bool
		walk = func(e Expr) bool {
			if l, ok := e.(*initList); ok {
				for _, x := range l.elems {
					if !walk(x) {
						return false
					}
				}
				return true
			}
			x := g.expr(e)
			if x == poison {
				return false
			}
			flat = append(flat, x)
			return true
		}
		if !walk(l) {
			return
		}
		var comps []*value
		for _, x := range flat {
			comps = append(comps, g.scalars(x)...)
		}
		k := 0
		ok2 := g.fill(p, v, comps, &k)
		if !ok2 || k != len(comps) {
			g.errorf(p, eConvert, "initializer does not match type")
		}
		return
	}
	x := g.expr(init)
	if x == poison {
		return
	}
	x = g.convert(p, x, v.t, true)
	if x == poison {
		return
	}
	ro := v.ro
	v.ro = false
	g.store(p, v, x, false)
	v.ro = ro
}

// scalars splits a value into its scalar components.
func (g *gen) scalars(v *value) []*value {
	switch v.t.Kind {
	case KTexture, KSampler:
		return []*value{v}
	case KStruct:
		var out []*value
		for _, f := range v.fields {
			out = append(out, g.scalars(f)...)
		}
		return out
	case KArray:
		var out []*value
		for i := 0; i < v.t.Len; i++ {
			out = append(out, g.scalars(g.element(pos{}, v, i))...)
		}
		return out
	}
	out := make([]*value, len(v.c))
	for i := range v.c {
		out[i] = &value{t: scalarT(v.t.Base), c: v.c[i : i+1], ro: true}
	}
	return out
}

func (g *gen) fill(p pos, v *value, comps []*value, k *int) bool {
	switch v.t.Kind {
	case KStruct:
		for _, f := range v.fields {
			if !g.fill(p, f, comps, k) {
				return false
			}
		}
		return true
	case KArray:
		for i := 0; i < v.t.Len; i++ {
			if !g.fill(p, g.element(p, v, i), comps, k) {
				return false
			}
		}
		return true
	case KTexture, KSampler:
		if *k >= len(comps) || !isObject(comps[*k].t) {
			return false
		}
		g.storeObject(p, v, comps[*k])
		*k++
		return true
	}
	if *k < len(comps) && isObject(comps[*k].t) {
		return false
	}
	n := len(v.c)
	if *k+n > len(comps) {
		return false
	}
	var c []Operand
	for i := 0; i < n; i++ {
		x := comps[*k+i]
		c = append(c, g.convertBase(x.c, x.t.Base, v.t.Base)...)
	}
	*k += n
	if v.t.Base == Double {
		c, v = dlanes(c), &value{t: v.t, c: dlanes(v.c)} // both words of each
	}
	g.assign(v.c, c, false)
	return true
}

// discardValue turns x++ whose value nobody reads into ++x, which needs
// no copy of the old value.
func discardValue(e Expr) Expr {
	if u, ok := e.(*unaryExpr); ok && u.postfix {
		c := *u
		c.postfix = false
		return &c
	}
	return e
}
