package hlsl

// castTarget is the variable under a cast passed as an out or inout
// argument (func((float4)x) with x an int4), as fxc takes it: the
// parameter's value is written back through the casts, outermost first,
// then converted to the variable's type, so func((int4)x) of a float4 x
// truncates what func wrote. It returns nil when x is no cast of an
// l-value. The variable is lowered again, which reads no value: an
// l-value expression (lvalueExpr) is names, members and indexes.
func (g *gen) castTarget(x Expr) (*value, []*Type) {
	var via []*Type
	for {
		c, ok := x.(*castExpr)
		if !ok {
			break
		}
		t := g.arrayType(g.resolveType(c.typ), c.dims)
		if t == poison.t {
			return nil, nil
		}
		via = append(via, t)
		x = c.x
	}
	if len(via) == 0 || !lvalueExpr(x) {
		return nil, nil
	}
	v := g.expr(x)
	if v == poison {
		return nil, nil
	}
	return v, via
}

// castOut is an out argument's variable under casts (castTarget).
type castOut struct {
	dst *value
	via []*Type
}

// castTargets finds, in the caller's scope, the variables under the casts
// of the out and inout arguments that are casts; nil when there are none.
func (g *gen) castTargets(e *callExpr, fn *funcDecl, args []*value) []castOut {
	var out []castOut
	for i, p := range fn.params {
		if (p.inout == "out" || p.inout == "inout") && i < len(e.args) && i < len(args) && args[i].ro {
			if _, ok := e.args[i].(*castExpr); ok {
				if out == nil {
					out = make([]castOut, len(fn.params))
				}
				out[i].dst, out[i].via = g.castTarget(e.args[i])
			}
		}
	}
	return out
}
