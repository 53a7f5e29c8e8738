package hlsl

// State blocks ("Effect Format", "Sampler Type (DirectX HLSL)"): the
// effects framework lets a variable carry `{ State = value; ... }`, and
// fxc parses and type-checks it for every target, then ignores it for a
// shader profile — D3D11 sets samplers and states through the API. So
// does this compiler: a block whose shape or values fxc rejects is an
// error on its line, and an accepted one emits nothing.

// checkStates checks d's state block, if it has one: a list of blocks
// has one block per component of the variable, and each value is an
// expression over the names in scope, where a name fxc does not know is
// a const int.
func (g *gen) checkStates(d *varDecl) {
	sb := d.states
	if sb == nil || len(g.errs) > 0 {
		return
	}
	if sb.list {
		t := g.arrayType(g.resolveType(d.typ), d.arrayLen)
		if t == poison.t {
			return
		}
		if n := stateComponents(t); n != len(sb.blocks) {
			g.errorf(sb.pos, eSyntax, "syntax error: '%s' has %d components and its state block list %d blocks", d.name, n, len(sb.blocks))
			return
		}
	}
	saved, nCode := g.top, len(g.code)
	g.stateMode++
	for _, b := range sb.blocks {
		for _, e := range b {
			if e.call {
				lo, hi := stateCallArgs(e.name)
				if n := len(e.values); n < lo || n > hi {
					g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter state function", e.name, n)
					continue
				}
			}
			for _, x := range e.values {
				g.expr(x)
			}
		}
	}
	g.stateMode--
	g.top, g.code = saved, g.code[:nCode]
}

// stateComponents is how many state blocks a list gives a variable: one
// per numeric component or object.
func stateComponents(t *Type) int {
	switch t.Kind {
	case KArray:
		return t.Len * stateComponents(t.Elem)
	case KScalar, KVector, KMatrix:
		return t.Rows * t.Cols
	case KStruct:
		n := 0
		for _, f := range t.Fields {
			n += stateComponents(f.Type)
		}
		return n
	}
	return 1
}

// checkObjectInit checks a global object's initial value: a sampler takes
// sampler_state { ... } (an array of n, a list of n of them), which is
// checked as a state block and ignored.
func (g *gen) checkObjectInit(d *varDecl, t, et *Type, n int) {
	if d.init == nil || d.static {
		return
	}
	if x, ok := d.init.(*identExpr); ok && x.name == "NULL" {
		return
	}
	var xs []Expr
	switch x := d.init.(type) {
	case *stateExpr:
		xs = []Expr{x}
	case *initList:
		xs = x.elems
	}
	ok := et.Kind == KSampler && len(xs) > 0 && (len(xs) == n || t.Kind != KArray && len(xs) == 1)
	for _, x := range xs {
		if s, isState := x.(*stateExpr); isState {
			g.stateVars = append(g.stateVars, &varDecl{pos: s.pos, typ: d.typ, name: d.name, states: s.sb})
		} else {
			ok = false
		}
	}
	if !ok {
		g.errorf(d.pos, eTypeMismatch, "'%s': an object's initial value is sampler_state { ... }, one for each element", d.name)
	}
}

// effectObject reports an effects-framework object or an array of them.
func effectObject(t *Type) bool {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t.Kind == KEffect && t.Stream == 0 // (a stream is a geometry shader's: gs.go)
}

// checkEffectInit checks an effect object's initial value as fxc does for a
// shader profile: NULL, `compile PROFILE f(uniform args)`,
// CompileShader(PROFILE, f(uniform args)) or ConstructGSWithSO with 2 or 6
// arguments; nothing of it reaches the shader.
func (g *gen) checkEffectInit(d *varDecl, t *Type) {
	var profile string
	var call Expr
	if isStringName(t.Name) {
		switch d.init.(type) {
		case nil, *stringLit, *initList:
		default:
			g.errorf(d.pos, eTypeMismatch, "'%s': a string's initial value is a string", d.name)
		}
		return
	}
	switch x := d.init.(type) {
	case nil:
		return
	case *identExpr:
		if x.name == "NULL" {
			return
		}
	case *initList:
		return // braces: fxc takes any value
	case *compileExpr:
		profile, call = x.profile, x.call
	case *callExpr:
		switch {
		case x.recv != nil:
		case x.name == "ConstructGSWithSO":
			if len(x.args) == 2 || len(x.args) == 6 {
				return
			}
			g.errorf(x.pos, eNoOverload, "'ConstructGSWithSO': no matching %d parameter function", len(x.args))
			return
		case x.name == "CompileShader" && len(x.args) == 2:
			if p, ok := x.args[0].(*identExpr); ok {
				profile, call = p.name, x.args[1]
			}
		}
	}
	if call == nil {
		g.errorf(d.pos, eTypeMismatch, "'%s': the initial value of a %s is NULL, compile or CompileShader", d.name, t)
		return
	}
	if c, ok := call.(*callExpr); ok && g.stateMode == 0 {
		// Outside a state block an argument's names must be declared.
		for _, a := range c.args {
			if id, ok := a.(*identExpr); ok && g.lookup(id.name) == nil {
				g.errorf(id.pos, eUndeclared, "undeclared identifier '%s'", id.name)
				return
			}
		}
	}
	g.checkCompile(d.init.at(), profile, call)
}

// checkCompile checks `compile PROFILE f(args)`: a profile of shader
// models 1 to 5 and a function whose uniform parameters the arguments
// give.
func (g *gen) checkCompile(p pos, profile string, call Expr) {
	if !effectProfile(profile) {
		g.errorf(p, eSyntax, "syntax error: '%s' is not a profile an effect's shader takes", profile)
		return
	}
	c, ok := call.(*callExpr)
	if !ok || c.recv != nil {
		g.errorf(p, eTypeMismatch, "compile takes a call of the shader's function")
		return
	}
	for _, f := range g.funcs[c.name] {
		n, opt := 0, 0
		for _, p := range f.params {
			if p.uniform {
				n++
				if p.init != nil {
					opt++
				}
			}
		}
		if len(c.args) <= n && len(c.args) >= n-opt {
			return
		}
	}
	g.errorf(c.pos, eNoOverload, "'%s': no matching %d parameter function (compile passes the uniform parameters)", c.name, len(c.args))
}

// effectProfile reports a profile an effect's compile takes (shader
// models 1 to 5).
func effectProfile(p string) bool {
	if len(p) < 6 || p[2] != '_' || p[3] < '1' || p[3] > '5' {
		return false
	}
	switch p[:2] {
	case "vs", "ps", "gs", "hs", "ds", "cs":
		return true
	}
	return false
}

// stateCallArgs is how many arguments a state function of a state block
// or pass takes (0, 0 for a name that is none).
func stateCallArgs(name string) (lo, hi int) {
	switch name {
	case "SetBlendState":
		return 3, 3
	case "SetDepthStencilState":
		return 2, 2
	case "SetRasterizerState", "SetVertexShader", "SetDomainShader", "SetHullShader", "SetGeometryShader",
		"SetPixelShader", "SetComputeShader":
		return 1, 1
	case "OMSetRenderTargets":
		return 2, 9
	}
	return 1, 0
}
