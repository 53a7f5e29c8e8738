package hlsl

// constValue is v with each component that straight-line code before
// this point set to a constant read as that constant: a texel offset must
// be one (fxc propagates constants through variables and swizzles first:
// int4 a = {1, 2, i, i}; t.Load(p, a.xy)). Components it cannot prove
// constant stay as they are.
func (g *gen) constValue(v *value) *value {
	out := &value{t: v.t, c: append([]Operand(nil), v.c...), ro: true}
	for i, c := range out.c {
		if k, ok := g.constComp(c); ok {
			out.c[i] = k
		}
	}
	return out
}

// constComp follows the movs that last wrote component c back to an
// immediate, within the straight-line code at the end of g.code: any
// branch, loop or label on the way, or another instruction writing the
// component, and c is not known.
func (g *gen) constComp(c Operand) (Operand, bool) {
	if c.File == FileImm {
		return c, true
	}
	if c.File != FileTemp || c.Rel != nil || c.Neg || c.Abs {
		return c, false
	}
	reg, lane := c.Index, c.Swz[0]&3
	for i := len(g.code) - 1; i >= 0; i-- {
		in := &g.code[i]
		switch in.Op {
		case OpIf, OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue, OpRet, OpSwitch, OpCase,
			OpDefault, OpEndswitch, OpDiscard:
			return c, false
		}
		for _, d := range in.Dst {
			if d.File != FileTemp || d.Index != reg || d.Mask&(1<<lane) == 0 {
				continue
			}
			if in.Op != OpMov || in.Sat || len(in.Dst) != 1 {
				return c, false
			}
			s := in.Src[0]
			if s.Neg || s.Abs || s.Rel != nil {
				return c, false
			}
			switch s.File {
			case FileImm:
				return immU(s.Imm[lane]), true
			case FileTemp:
				reg, lane = s.Index, s.Swz[lane]&3
			default:
				return c, false
			}
		}
	}
	return c, false
}

// constStatics declares, in the current scope, the global statics of a
// numeric scalar type whose initial value is a constant, as that constant
// (read only): fxc takes `static int x = 1; [numthreads(x, 1, 1)]`.
// Statics are otherwise variables set where the entry point starts.
func (g *gen) constStatics() {
	for _, d := range g.statics {
		if d.init == nil || len(d.arrayLen) > 0 {
			continue
		}
		if _, isList := d.init.(*initList); isList {
			continue
		}
		t := g.resolveType(d.typ)
		if t == poison.t || !t.numeric() || t.comps() != 1 {
			continue
		}
		saved, nCode, nErr, nWarn, nMore := g.top, len(g.code), len(g.errs), len(g.warns), g.more
		v := g.expr(d.init)
		if v != poison {
			v = g.convert(d.pos, v, t, true)
		}
		ok := v != poison && allImm(v.c) && len(g.errs) == nErr
		g.top, g.code, g.errs, g.warns, g.more = saved, g.code[:nCode], g.errs[:nErr], g.warns[:nWarn], nMore
		if ok {
			g.declare(d.pos, d.name, &value{t: t, c: v.c, ro: true})
		}
	}
}

// unalignedBase reports a derived struct, in t, whose base does not end
// on a register boundary of a constant buffer.
func (g *gen) unalignedBase(t *Type) bool {
	switch t.Kind {
	case KArray:
		return g.unalignedBase(t.Elem)
	case KStruct:
		if g.baseSize[t.Name]%16 != 0 {
			return true
		}
		for _, f := range t.Fields {
			if g.unalignedBase(f.Type) {
				return true
			}
		}
	}
	return false
}
