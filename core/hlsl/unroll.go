package hlsl

// fxc unrolls a loop marked [unroll] (no count) by running it while it
// compiles, and gives up at 1,024 trips: "unable to unroll loop, loop does
// not appear to terminate in a timely manner (1024 iterations)", error
// X3511. This compiler keeps loops as loops, so it counts the trips of the
// loops whose counter it can follow (a for with a literal start, a
// comparison with a literal and a literal step, the body neither writing
// the counter nor leaving early) and refuses those fxc refuses.

const (
	eUnroll     = 3511
	unrollTrips = 1024
)

// bareUnroll reports [unroll] without a count among a statement's
// attributes.
func bareUnroll(as []attr) bool {
	for _, a := range as {
		if a.name == "unroll" && len(a.args) == 0 {
			return true
		}
	}
	return false
}

// checkUnroll refuses an [unroll] for loop of unrollTrips trips or more.
func (g *gen) checkUnroll(s *forStmt) {
	name, start, ok := loopStart(s.init)
	if !ok || s.cond == nil || s.post == nil || hasJump(s.body, "break") || hasJump(s.body, "return") {
		return
	}
	if blk, isBlk := s.body.(*blockStmt); isBlk && assignedNames(blk, g.funcs)[name] {
		return
	}
	c, isCmp := s.cond.(*binaryExpr)
	if !isCmp || !isName(c.x, name) {
		return
	}
	limit, ok := literal(c.y)
	if !ok {
		return
	}
	step, ok := loopStep(s.post, name)
	if !ok || step == 0 {
		return
	}
	i := start
	for n := 0; n < unrollTrips; n++ {
		var more bool
		switch c.op {
		case "<":
			more = i < limit
		case "<=":
			more = i <= limit
		case ">":
			more = i > limit
		case ">=":
			more = i >= limit
		case "!=":
			more = i != limit
		default:
			return
		}
		if !more {
			return
		}
		i += step
	}
	g.errorf(s.pos, eUnroll, "unable to unroll loop, loop does not appear to terminate in a timely manner (%d iterations) or unrolled loop is too large, use the [unroll(n)] attribute to force an exact higher number", unrollTrips)
}

// loopStart reads `i = K` or `int i = K`.
func loopStart(s Stmt) (string, float64, bool) {
	switch s := s.(type) {
	case *exprStmt:
		if a, ok := s.x.(*assignExpr); ok && a.op == "=" {
			if id, ok := a.l.(*identExpr); ok {
				v, ok := literal(a.r)
				return id.name, v, ok
			}
		}
	case *declStmt:
		if len(s.vars) == 1 && s.vars[0].init != nil && len(s.vars[0].arrayLen) == 0 {
			v, ok := literal(s.vars[0].init)
			return s.vars[0].name, v, ok
		}
	}
	return "", 0, false
}

// loopStep reads ++i, i++, --i, i--, i += K and i -= K.
func loopStep(e Expr, name string) (float64, bool) {
	switch e := e.(type) {
	case *unaryExpr:
		if isName(e.x, name) && (e.op == "++" || e.op == "--") {
			return map[string]float64{"++": 1, "--": -1}[e.op], true
		}
	case *assignExpr:
		if v, ok := literal(e.r); ok && isName(e.l, name) && (e.op == "+=" || e.op == "-=") {
			if e.op == "-=" {
				v = -v
			}
			return v, true
		}
	}
	return 0, false
}

func isName(e Expr, name string) bool {
	id, ok := e.(*identExpr)
	return ok && id.name == name
}

// literal reads an integer or float literal, negated or not.
func literal(e Expr) (float64, bool) {
	switch e := e.(type) {
	case *intLit:
		return float64(e.v), true
	case *floatLit:
		return e.v, true
	case *unaryExpr:
		if e.op == "-" {
			v, ok := literal(e.x)
			return -v, ok
		}
	}
	return 0, false
}

// eNotAddressable is fxc's error for a store into a vector's component
// picked by a non-constant index.
const eNotAddressable = 3500

// vectorStoreOK refuses, as fxc does below shader model 6, a store into a
// vector's component picked by an index that is not constant, outside a
// loop (in one, fxc unrolls the loop and the index becomes constant; this
// compiler writes every component through a movc instead).
func (g *gen) vectorStoreOK(p pos, idx Operand) bool {
	for _, b := range g.brk {
		if b == 'l' {
			return true
		}
	}
	if _, ok := foldComp(g.code, idx, len(g.code), 0); ok {
		return true
	}
	g.errorf(p, eNotAddressable, "array reference cannot be used as an l-value; not natively addressable")
	return false
}

// userOrIntrinsic calls a user function, or, when none of that name takes
// the arguments, the intrinsic the name is (fxc: `float2 max(float2,
// float3)` overrides max for the calls it matches, and the others still
// call the intrinsic).
func (g *gen) userOrIntrinsic(e *callExpr, fns []*funcDecl) *value {
	args, ok := g.exprs(e.args)
	if !ok {
		return poison
	}
	nErr, nWarn, nMore, top, nCode := len(g.errs), len(g.warns), g.more, g.top, len(g.code)
	v := g.userCallArgs(e, fns, args)
	if v != poison || len(g.errs) != nErr+1 || g.errs[nErr].Code != eNoOverload {
		return v
	}
	userErr := g.errs[nErr]
	g.errs = g.errs[:nErr]
	if v = g.intrinsic(e, args); v != poison && len(g.errs) == nErr {
		return v
	}
	g.errs, g.warns, g.more, g.top, g.code = append(g.errs[:nErr], userErr), g.warns[:nWarn], nMore, top, g.code[:nCode]
	return poison
}
