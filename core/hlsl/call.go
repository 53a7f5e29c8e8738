package hlsl

const maxInline = 32 // nested inlined calls

func (g *gen) call(e *callExpr) *value {
	if e.recv != nil {
		return g.method(e)
	}
	if e.name == "CompileShader" && g.stateMode > 0 && len(g.funcs[e.name]) == 0 {
		// An effect's shader object (CompileShader(ps_4_0, f())), ignored.
		if p, ok := e.args[0].(*identExpr); ok && len(e.args) == 2 {
			g.checkCompile(e.pos, p.name, e.args[1])
		} else {
			g.errorf(e.pos, eNoOverload, "'CompileShader': no matching %d parameter function", len(e.args))
		}
		return &value{t: scalarT(Int), c: []Operand{immU(0)}, ro: true}
	}
	if fns := g.funcs[e.name]; len(fns) > 0 {
		return g.userOrIntrinsic(e, fns) // (unroll.go)
	}
	args, ok := g.exprs(e.args)
	if !ok {
		return poison
	}
	if v, ok := g.dintrinsic(e, args); ok {
		return v
	}
	return g.intrinsic(e, args)
}

// userCall inlines a user function: parameters are bound to the
// arguments (copied when the body writes them), out/inout arguments are
// written back, the result lands in temps.
func (g *gen) userCall(e *callExpr, fns []*funcDecl) *value {
	args, ok := g.exprs(e.args)
	if !ok {
		return poison
	}
	return g.userCallArgs(e, fns, args)
}

// userCallArgs inlines a call whose arguments are lowered.
func (g *gen) userCallArgs(e *callExpr, fns []*funcDecl, args []*value) *value {
	fn := g.overload(e, fns, args)
	if fn == nil {
		return poison
	}
	// Default values for the parameters left out, evaluated at the call.
	for i := len(args); i < len(fn.params); i++ {
		saved := g.scopes
		g.scopes = g.scopes[:1]
		var v *value
		if _, isList := fn.params[i].init.(*initList); isList {
			// float4 b = {1.0, 2.0, 3.0, 4.0}: the list fills a
			// variable of the parameter's type.
			if t := g.arrayType(g.resolveType(fn.params[i].typ), fn.params[i].arrayLen); t != poison.t {
				v = g.makeVar(t)
				g.initVar(fn.params[i].pos, v, fn.params[i].init)
			} else {
				v = poison
			}
		} else {
			v = g.expr(fn.params[i].init)
		}
		g.scopes = saved
		if v == poison {
			return poison
		}
		args = append(args, v)
		e = &callExpr{pos: e.pos, recv: e.recv, name: e.name, args: append(append([]Expr(nil), e.args...), fn.params[i].init)}
	}
	// An out or inout argument is a variable (or part of one).
	for i, p := range fn.params {
		if (p.inout == "out" || p.inout == "inout") && i < len(e.args) && !lvalueExpr(e.args[i]) {
			g.errorf(e.args[i].at(), eConst, "out parameters require l-value arguments")
			return poison
		}
	}
	for _, f := range g.inline {
		if f == fn {
			g.errorf(e.pos, eNotImplemented, "'%s': recursive functions are not allowed", e.name)
			return poison
		}
	}
	if len(g.inline) >= maxInline {
		g.errorf(e.pos, eNotImplemented, "calls nested deeper than %d", maxInline)
		return poison
	}
	info := g.callInfo(fn)
	rt := info.ret
	ctx := &fnCtx{decl: fn, ret: rt, loopDepth: g.loopDep}
	if rt.Kind != KVoid {
		ctx.retDst = g.newVar(rt)
	}
	written := info.written
	casts := g.castTargets(e, fn, args) // (castout.go), in the caller's scope
	g.scopesSave = append(g.scopesSave, g.scopes)
	g.scopes = g.scopes[:1:1] // only globals are visible in the callee
	g.push()
	var backs []func()
	for i, p := range fn.params {
		pt := info.params[i]
		a := args[i]
		switch p.inout {
		case "out", "inout":
			if pt.Stream != 0 || a.t.Stream != 0 {
				g.streamArg(e.args[i].at(), p, pt, a) // (gs.go)
				continue
			}
			dst, via := a, []*Type(nil)
			if a.ro && casts != nil {
				dst, via = casts[i].dst, casts[i].via
			}
			if dst == nil || dst.ro {
				g.errorf(e.args[i].at(), eConst, "out parameters require l-value arguments")
				continue
			}
			pv := g.newNamedVar(p.name, pt)
			if p.inout == "inout" {
				g.store(e.pos, pv, g.convert(e.pos, a, pt, true), false)
			}
			backs = append(backs, func() {
				v := pv
				for _, t := range via {
					v = g.convert(e.pos, v, t, true)
				}
				g.store(e.pos, dst, g.convert(e.pos, v, dst.t, true), false)
			})
			g.declare(p.pos, p.name, pv)
		default:
			cv := g.convert(e.args[i].at(), a, pt, true)
			if cv == poison {
				continue
			}
			if written[p.name] || g.dynNames[p.name] && hasArray(pt) {
				pv := g.newNamedVar(p.name, pt)
				g.store(e.pos, pv, cv, false)
				cv = pv
			} else if !cv.ro {
				cv = rvalue(cv) // a read-only value is shared as it is
			}
			g.declare(p.pos, p.name, cv)
		}
	}
	outer := g.fn
	g.fn = ctx
	g.inline = append(g.inline, fn)
	ctx.useLoop = needsLoop(fn.body)
	if ctx.useLoop {
		if nestedReturn(fn.body, false) {
			// A return inside a loop or switch sets the flag and breaks;
			// after each such loop or switch, the flag breaks again, out to
			// the function's one-trip loop.
			r := g.alloc()
			g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: r, Mask: 1}}, Src: []Operand{immU(0)}})
			f := comp(FileTemp, r, 0)
			ctx.retFlag = &f
		}
		g.emit(Instr{Op: OpLoop})
		g.loopDep++
		g.brk = append(g.brk, 'f')
		ctx.loopDepth = g.loopDep
	}
	for _, s := range fn.body.list {
		g.stmt(s)
	}
	if ctx.useLoop {
		g.emit(Instr{Op: OpBreak})
		g.loopDep--
		g.brk = g.brk[:len(g.brk)-1]
		g.emit(Instr{Op: OpEndloop})
	}
	if rt.Kind != KVoid && !ctx.returned {
		g.errorf(fn.pos, eMustReturn, "'%s': function must return a value", fn.name)
	}
	g.inline = g.inline[:len(g.inline)-1]
	g.fn = outer
	g.pop()
	g.scopes = g.scopesSave[len(g.scopesSave)-1]
	g.scopesSave = g.scopesSave[:len(g.scopesSave)-1]
	for _, b := range backs {
		b()
	}
	if rt.Kind == KVoid {
		return voidResult
	}
	return rvalue(ctx.retDst)
}

// voidResult is every void call's value: nothing reads or changes it.
var voidResult = &value{t: tVoid, ro: true}

// callInfo is what every inlining of one function shares: its return and
// parameter types and the names its body assigns. A function called a
// million times (the Limits.Nodes budget) allocates them once.
type callInfo struct {
	ret     *Type
	params  []*Type
	written map[string]bool
}

func (g *gen) callInfo(fn *funcDecl) *callInfo {
	if c := g.callMemo[fn]; c != nil {
		return c
	}
	c := &callInfo{ret: g.resolveType(fn.ret), written: assignedNames(fn.body, g.funcs)}
	for _, p := range fn.params {
		c.params = append(c.params, g.arrayType(g.resolveType(p.typ), p.arrayLen))
	}
	if g.callMemo == nil {
		g.callMemo = map[*funcDecl]*callInfo{}
	}
	g.callMemo[fn] = c
	return c
}

// needsLoop reports whether a function returns from anywhere but its last
// statement: those returns become breaks out of a one-trip loop.
func needsLoop(b *blockStmt) bool {
	n := 0
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch s := s.(type) {
		case *blockStmt:
			for _, x := range s.list {
				walk(x)
			}
		case *ifStmt:
			walk(s.then)
			if s.els_ != nil {
				walk(s.els_)
			}
		case *forStmt:
			walk(s.body)
		case *whileStmt:
			walk(s.body)
		case *switchStmt:
			for _, gr := range s.groups {
				for _, x := range gr.body {
					walk(x)
				}
			}
		case *returnStmt:
			n++
		}
	}
	walk(b)
	if n == 0 {
		return false
	}
	_, last := b.list[len(b.list)-1].(*returnStmt)
	return n > 1 || !last
}

// assignedNames lists the names a body may write: assignment targets,
// ++/--, and anything passed to a call (it may be an out argument).
func assignedNames(b *blockStmt, funcs map[string][]*funcDecl) map[string]bool {
	m := map[string]bool{}
	var root func(e Expr)
	root = func(e Expr) {
		switch e := e.(type) {
		case *identExpr:
			m[e.name] = true
		case *memberExpr:
			root(e.x)
		case *indexExpr:
			root(e.x)
		}
	}
	var ex func(e Expr)
	ex = func(e Expr) {
		switch e := e.(type) {
		case *assignExpr:
			root(e.l)
			ex(e.l)
			ex(e.r)
		case *unaryExpr:
			if e.op == "++" || e.op == "--" {
				root(e.x)
			}
			ex(e.x)
		case *binaryExpr:
			ex(e.x)
			ex(e.y)
		case *condExpr:
			ex(e.c)
			ex(e.a)
			ex(e.b)
		case *callExpr:
			if e.recv != nil {
				ex(e.recv)
			}
			for i, a := range e.args {
				if e.recv == nil {
					for _, f := range funcs[e.name] {
						if i < len(f.params) && (f.params[i].inout == "out" || f.params[i].inout == "inout") {
							root(a)
						}
					}
				}
				ex(a)
			}
		case *ctorExpr:
			for _, a := range e.args {
				ex(a)
			}
		case *castExpr:
			ex(e.x)
		case *memberExpr:
			ex(e.x)
		case *indexExpr:
			ex(e.x)
			ex(e.i)
		}
	}
	walkStmtExprs(b, ex)
	return m
}

// ret lowers return: in the entry point it writes the outputs and ends
// the shader; in an inlined function it stores the result (and breaks out
// of the function's loop when it is not the last statement).
func (g *gen) ret(s *returnStmt) {
	ctx := g.fn
	var v *value
	if s.x != nil {
		v = g.expr(s.x)
		if v == poison {
			ctx.returned = true
			return
		}
		if ctx.ret.Kind == KVoid {
			g.errorf(s.pos, eConvert, "cannot implicitly convert from '%s' to 'void'", v.t)
			return
		}
		v = g.convert(s.pos, v, ctx.ret, true)
		if v == poison {
			ctx.returned = true
			return
		}
	} else if ctx.ret.Kind != KVoid {
		g.errorf(s.pos, eMustReturn, "'%s': function must return a value", ctx.decl.name)
		return
	}
	ctx.returned = true
	if ctx.entry {
		g.writeOutputs(s.pos, v)
		g.emit(Instr{Op: OpRet})
		return
	}
	if v != nil {
		dst := ctx.retDst
		ro := dst.ro
		dst.ro = false
		g.store(s.pos, dst, v, false)
		dst.ro = ro
	}
	if ctx.useLoop {
		if g.brk[len(g.brk)-1] != 'f' {
			if ctx.retFlag == nil {
				g.errorf(s.pos, eNotImplemented, "internal compiler error: a nested return without its flag")
				return
			}
			g.emit(Instr{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: ctx.retFlag.Index, Mask: 1}}, Src: []Operand{immU(0xffffffff)}})
		}
		g.emit(Instr{Op: OpBreak})
	}
}

// overload picks the function a call names among its overloads, as fxc
// ranks them: each argument's conversion to its parameter gets a rank
// (convRank), and the chosen overload must rank no worse than every other
// on each argument and better on one; two that rank alike are ambiguous
// (X3067). Prototypes take part: a call that only a prototype matches
// resolves to its definition, if any.
func (g *gen) overload(e *callExpr, fns []*funcDecl, args []*value) *funcDecl {
	type cand struct {
		f     *funcDecl
		ranks []int
	}
	var cs []cand
	for _, f := range fns {
		if len(f.params) < len(args) || len(f.params) > len(args) && f.params[len(args)].init == nil {
			continue
		}
		// fxc sees only the functions declared before the one calling.
		if caller := g.caller(); caller != nil && f.order > caller.order && f != caller {
			continue
		}
		c := cand{f: f}
		ok := true
		for i, p := range f.params[:len(args)] {
			pt := g.arrayType(g.resolveType(p.typ), p.arrayLen)
			r := convRank(args[i], pt)
			if r < 0 || (p.inout == "out" || p.inout == "inout") && !sameType(args[i].t, pt) && !(args[i].t.numeric() && pt.numeric()) {
				ok = false
				break
			}
			c.ranks = append(c.ranks, r)
		}
		if !ok {
			continue
		}
		// A prototype and the definition of the same signature are one
		// function.
		dup := false
		for k := range cs {
			if sameSignature(g, cs[k].f, f) {
				dup = true
				if cs[k].f.body == nil {
					cs[k].f = f
				}
			}
		}
		if !dup {
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		visible := false
		for _, f := range fns {
			if caller := g.caller(); caller == nil || f.order < caller.order {
				visible = true
			}
		}
		if !visible {
			g.errorf(e.pos, eUndeclared, "undeclared identifier '%s'", e.name)
			return nil
		}
		g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter function", e.name, len(args))
		return nil
	}
	better := func(a, b cand) bool { // a no worse everywhere, better somewhere
		strict := false
		for i := range a.ranks {
			if a.ranks[i] > b.ranks[i] {
				return false
			}
			strict = strict || a.ranks[i] < b.ranks[i]
		}
		return strict
	}
	var best *cand
	for i := range cs {
		wins := true
		for j := range cs {
			if i != j && !better(cs[i], cs[j]) {
				wins = false
				break
			}
		}
		if wins {
			best = &cs[i]
			break
		}
	}
	if best == nil {
		g.errorf(e.pos, eAmbiguous, "'%s': ambiguous function call", e.name)
		return nil
	}
	if best.f.body == nil {
		// A prototype called before its definition: the definition of
		// the same signature later in the file is the one called.
		for _, f := range g.funcs[e.name] {
			if f.body != nil && sameSignature(g, best.f, f) {
				best.f = f
				break
			}
		}
	}
	if best.f.body == nil {
		g.errorf(e.pos, eNotDefined, "'%s': function declared but not defined", e.name)
		return nil
	}
	return best.f
}

// caller is the user function being lowered (nil inside an expanded
// intrinsic, which sees every function).
func (g *gen) caller() *funcDecl {
	if len(g.inline) == 0 || g.fixLine != 0 {
		return nil
	}
	return g.inline[len(g.inline)-1]
}

// sameSignature reports two declarations of the same parameter types, as
// written (float and float1 are two types for overloading).
func sameSignature(g *gen, a, b *funcDecl) bool {
	if len(a.params) != len(b.params) {
		return false
	}
	for i := range a.params {
		pa, pb := a.params[i], b.params[i]
		ta := g.arrayType(g.resolveType(pa.typ), pa.arrayLen)
		tb := g.arrayType(g.resolveType(pb.typ), pb.arrayLen)
		if !sameType(ta, tb) || ta.Min != tb.Min || ta.Half != tb.Half || pa.typ.name != pb.typ.name && ta.Kind == KScalar {
			return false
		}
	}
	return true
}

// Conversion ranks of an argument to a parameter, best first. C is the
// type an arithmetic expression of the two would have ("the common type"
// of vkd3d's tests, which record what fxc prefers).
const (
	rankExact   = iota // same type (a scalar and a one-component vector count alike)
	rankWiden          // same base, a scalar to more components
	rankSign           // int <-> uint
	rankPromote        // a minimum-precision argument to its full type
	rankToArg          // C is the argument's type (float to int, int to min16int, to bool)
	rankToParam        // C is the parameter's type (int to float)
	rankOther          // a scalar to more components of another base
	rankNarrow         // fewer components, then by base as above: how many components go does not count
)

// convRank ranks passing a to a parameter of type p; -1 when it cannot.
func convRank(a *value, p *Type) int {
	t := a.t
	if !t.numeric() || !p.numeric() {
		switch {
		case sameType(t, p):
			return rankExact
		case (t.Kind == KStruct || t.Kind == KArray) && (p.Kind == KStruct || p.Kind == KArray) && castComps(t) == castComps(p) && castComps(t) > 0:
			// Component-wise, a texture or sampler counting as one (a
			// struct holding a texture passes as another of its shape).
			return rankToParam
		}
		return -1
	}
	ac, pc := t.comps(), p.comps()
	if ac > pc && pc != 1 || ac < pc && ac != 1 {
		if !(ac > pc) {
			return -1
		}
	}
	if t.Kind == KMatrix && p.Kind == KMatrix && (t.Rows < p.Rows || t.Cols < p.Cols) {
		return -1
	}
	sameBase := t.Base == p.Base
	if a.lit && (t.Base == Int && (p.Base == Int || p.Base == Uint) || t.Base == Float && p.Base == Float) {
		sameBase = true
	}
	base := rankToParam
	switch {
	case sameBase && t.Min == p.Min && t.Half == p.Half:
		base = rankExact
	case sameBase && (t.Min || t.Half && !p.Min):
		base = rankPromote // a half converts as a float
	case sameBase:
		base = rankToArg
	case (t.Base == Int || t.Base == Uint) && (p.Base == Int || p.Base == Uint):
		base = rankSign
	case t.Base == Float && p.Base == Double:
		base = rankPromote // C is double, a promoted type of the float
	case max(t.Base, p.Base) == t.Base:
		base = rankToArg
	}
	switch {
	case ac > pc:
		return rankNarrow + base
	case ac < pc: // a scalar to a vector or matrix
		if base == rankExact {
			return rankWiden
		}
		return rankOther
	}
	return base
}

// flatComps counts the numeric components of a struct or array (0 when
// it holds something else).
func flatComps(t *Type) int {
	switch t.Kind {
	case KStruct:
		n := 0
		for _, f := range t.Fields {
			k := flatComps(f.Type)
			if k == 0 {
				return 0
			}
			n += k
		}
		return n
	case KArray:
		return t.Len * flatComps(t.Elem)
	}
	if t.numeric() {
		return t.comps()
	}
	return 0
}

// nestedReturn reports a return inside a loop or a switch of s (inLoop:
// s itself is inside one).
func nestedReturn(s Stmt, inLoop bool) bool {
	switch s := s.(type) {
	case *blockStmt:
		for _, x := range s.list {
			if nestedReturn(x, inLoop) {
				return true
			}
		}
	case *ifStmt:
		return nestedReturn(s.then, inLoop) || s.els_ != nil && nestedReturn(s.els_, inLoop)
	case *forStmt:
		return nestedReturn(s.body, true)
	case *whileStmt:
		return nestedReturn(s.body, true)
	case *switchStmt:
		for _, gr := range s.groups {
			for _, x := range gr.body {
				if nestedReturn(x, true) {
					return true
				}
			}
		}
	case *returnStmt:
		return inLoop
	}
	return false
}

// passReturn, after a loop or switch of an inlined function that
// returns from inside it, breaks out of the construct around it when the
// return happened.
func (g *gen) passReturn(body Stmt) {
	if g.fn == nil || g.fn.retFlag == nil || !nestedReturn(body, true) {
		return
	}
	g.emit(Instr{Op: OpIf, Test: TestNZ, Src: []Operand{*g.fn.retFlag}})
	g.emit(Instr{Op: OpBreak})
	g.emit(Instr{Op: OpEndif})
}

// lvalueExpr reports an expression that names a variable or part of one.
func lvalueExpr(e Expr) bool {
	switch e := e.(type) {
	case *identExpr:
		return true
	case *memberExpr:
		return lvalueExpr(e.x)
	case *indexExpr:
		return lvalueExpr(e.x)
	case *castExpr:
		return lvalueExpr(e.x) // fxc takes (float)x as an out argument of a float
	}
	return false
}
