package hlsl

// A global static const array or struct with a constant initialiser is a
// value while the globals are declared, so that a later declaration's
// array size can read it (fxc: `static const float a[2] = {3, 4}; float
// b[a[1]];`, or a struct's member swizzled). The variable itself is still
// made at the entry point, as every static is; this value only answers
// the names the globals' array sizes use.

// constAggregate values d (a static const array or struct with an
// initialiser list) into g.constAggr when every component is a constant.
func (g *gen) constAggregate(d *varDecl, t *Type) {
	if !d.constQ || d.init == nil || t.numeric() || hasObject(t) || elementsOf(t) > 256 {
		return
	}
	saved, nCode, nErr, nWarn, nMore := g.top, len(g.code), len(g.errs), len(g.warns), g.more
	v := g.newVar(t)
	g.initVar(d.pos, v, d.init)
	imm := g.immTree(v)
	g.top, g.code, g.errs, g.warns, g.more = saved, g.code[:nCode], g.errs[:nErr], g.warns[:nWarn], nMore
	if imm == nil {
		return
	}
	if g.constAggr == nil {
		g.constAggr = map[string]*value{}
	}
	g.constAggr[d.name] = imm
}

// immTree is v with every component the constant the code before sets it
// to, or nil when one is not constant.
func (g *gen) immTree(v *value) *value {
	out := &value{t: v.t, ro: true}
	switch {
	case v.t.numeric():
		for _, c := range v.c {
			k, ok := g.constComp(c)
			if !ok || k.File != FileImm {
				return nil
			}
			out.c = append(out.c, k)
		}
	case v.t.Kind == KStruct:
		for _, f := range v.fields {
			x := g.immTree(f)
			if x == nil {
				return nil
			}
			out.fields = append(out.fields, x)
		}
	case v.t.Kind == KArray && v.cb == nil:
		for _, e := range v.elems {
			x := g.immTree(e)
			if x == nil {
				return nil
			}
			out.elems = append(out.elems, x)
		}
	default:
		return nil
	}
	return out
}

// readOnly reports an expression that only reads (names, literals,
// members, elements, casts, operators): an array size that assigns (a[(x =
// 2)]) or calls is no constant to fxc, whatever value it leaves.
func readOnly(e Expr) bool {
	switch e := e.(type) {
	case *identExpr, *intLit, *floatLit, *boolLit:
		return true
	case *memberExpr:
		return readOnly(e.x)
	case *indexExpr:
		return readOnly(e.x) && readOnly(e.i)
	case *castExpr:
		return readOnly(e.x)
	case *unaryExpr:
		return e.op != "++" && e.op != "--" && readOnly(e.x)
	case *binaryExpr:
		return e.op != "," && readOnly(e.x) && readOnly(e.y)
	}
	return false
}
