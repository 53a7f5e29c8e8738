package hlsl

// switch, as fxc compiles it for shader models 4 and 5: the selector is
// an int or uint scalar (a float is converted to int); each case value a
// constant integer expression (a float constant truncates), none twice;
// at most one default. A group of labels with a body must not run off its
// end into the next group (only empty groups fall through), and the last
// group must have a body. The code is SM4's switch, case, default and
// endswitch; break leaves the switch.

func (g *gen) switchStmt(s *switchStmt) {
	sel := g.expr(s.sel)
	if sel == poison {
		return
	}
	if !sel.t.numeric() || sel.t.comps() != 1 {
		g.errorf(s.sel.at(), eTypeMismatch, "switch statement expression must be a scalar")
		return
	}
	base := sel.t.Base
	if base != Uint {
		base = Int
	}
	sel = g.convert(s.sel.at(), sel, scalarT(base), false)
	if len(s.groups) == 0 {
		g.errorf(s.pos, eSyntax, "syntax error: empty switch statement")
		return
	}
	seen := map[uint32]bool{}
	hasDefault := false
	type label struct {
		v   uint32
		def bool
	}
	labels := make([][]label, len(s.groups))
	for i, gr := range s.groups {
		for _, l := range gr.labels {
			if l.x == nil {
				if hasDefault {
					g.errorf(l.pos, eSyntax, "syntax error: more than one default label in a switch")
					return
				}
				hasDefault = true
				labels[i] = append(labels[i], label{def: true})
				continue
			}
			saved, nCode := g.top, len(g.code)
			v := g.expr(l.x)
			g.top, g.code = saved, g.code[:nCode]
			if v == poison {
				return
			}
			if !v.t.numeric() || v.t.comps() != 1 || !allImm(v.c) {
				g.errorf(l.pos, eSyntax, "syntax error: a case value must be a constant scalar")
				return
			}
			c := g.convertBase(v.c, v.t.Base, base)
			if !allImm(c) {
				g.errorf(l.pos, eSyntax, "syntax error: a case value must be a constant scalar")
				return
			}
			x := c[0].Imm[0]
			if seen[x] {
				g.errorf(l.pos, eSyntax, "syntax error: the case value %d appears twice", int32(x))
				return
			}
			seen[x] = true
			labels[i] = append(labels[i], label{v: x})
		}
		if len(gr.body) == 0 {
			g.errorf(s.pos, eSyntax, "syntax error: the last case of a switch has no statements")
			return
		}
		if !terminates(gr.body) {
			g.errorf(gr.labels[len(gr.labels)-1].pos, eSyntax, "syntax error: a case falls through into the next one: end it with break or return")
			return
		}
	}
	g.emit(Instr{Op: OpSwitch, Src: []Operand{g.srcOp(sel.c)}})
	g.brk = append(g.brk, 's')
	g.cdepth++
	defer func() { g.cdepth-- }()
	for i, gr := range s.groups {
		for _, l := range labels[i] {
			if l.def {
				g.emit(Instr{Op: OpDefault})
			} else {
				g.emit(Instr{Op: OpCase, Src: []Operand{immU(l.v)}})
			}
		}
		saved := g.top
		g.push()
		for _, st := range gr.body {
			g.stmt(st)
		}
		g.pop()
		g.top = saved
		if i+1 == len(s.groups) && !terminates(gr.body) {
			g.emit(Instr{Op: OpBreak})
		}
	}
	g.brk = g.brk[:len(g.brk)-1]
	g.emit(Instr{Op: OpEndswitch})
	for _, gr := range s.groups {
		for _, st := range gr.body {
			if nestedReturn(st, true) {
				g.passReturn(st)
				return
			}
		}
	}
}

// terminates reports whether control can never run past the end of a
// statement list: it ends in break, continue or return, or an if whose
// taken branches all do (a constant condition takes one).
func terminates(list []Stmt) bool {
	for _, s := range list {
		if stmtTerminates(s) {
			return true
		}
	}
	return false
}

func stmtTerminates(s Stmt) bool {
	switch s := s.(type) {
	case *blockStmt:
		return terminates(s.list)
	case *jumpStmt:
		return s.kind == "break" || s.kind == "continue"
	case *returnStmt:
		return true
	case *ifStmt:
		if v, ok := constCond(s.cond); ok {
			if v {
				return stmtTerminates(s.then)
			}
			return s.els_ != nil && stmtTerminates(s.els_)
		}
		return s.els_ != nil && stmtTerminates(s.then) && stmtTerminates(s.els_)
	}
	return false
}

// constCond reads a literal condition (true, false, 0, 1).
func constCond(e Expr) (bool, bool) {
	switch e := e.(type) {
	case *boolLit:
		return e.v, true
	case *intLit:
		return e.v != 0, true
	case *floatLit:
		return e.v != 0, true
	}
	return false, false
}
