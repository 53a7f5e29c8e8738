package hlsl

// Structs holding textures and samplers. fxc takes them as globals, in a
// cbuffer and as the entry point's parameters: the objects are bound at
// registers of their own, named by their path (foo.tex, input.sam), and
// take no bytes of the buffer (a struct {float2 a; Texture2D t; float b;}
// puts b in c0.z). The objects of one class (t#, s#, u#) in one struct
// variable are one run of registers, in the order of the struct's fields:
// a texture run covers every texture of the struct as soon as one is read,
// a sampler run ends at the last sampler read (vkd3d's object-parameters
// and register-reservations tests, run against native Direct3D, show it).
// A register(t1) : register(s1) on the variable places each run; a struct
// whose objects of one class are read gets no register of another class
// alone.

// objGroup is the objects of one class that one struct variable holds.
type objGroup struct {
	name     string
	at       pos
	members  []*resource // in field order, each objOff objects into the run
	size     int         // the objects of the class in the struct
	explicit bool        // placed by the variable's register of the class
	other    string      // a register the variable has for another class only
	placed   bool
}

// objClass is the register letter of an object type.
func objClass(t *Type) byte {
	switch {
	case t.Kind == KSampler:
		return 's'
	case t.UAV:
		return 'u'
	}
	return 't'
}

// objectStruct makes the bindings of the objects a struct variable holds
// (d declares it; its registers are d.classRegs) and returns the value
// that names them: the struct's object members hold their binding, its
// other members are nil (withObjects merges them into the numeric value).
// It returns poison for what this compiler does not take: an array of
// structs holding objects.
func (g *gen) objectStruct(d *varDecl, t *Type) *value {
	groups := map[byte]*objGroup{}
	var order []byte
	var build func(path string, t *Type) *value
	build = func(path string, t *Type) *value {
		if t.Kind == KStruct {
			v := &value{t: t, ro: true, fields: make([]*value, len(t.Fields))}
			for i, f := range t.Fields {
				if hasObject(f.Type) {
					if v.fields[i] = build(path+"."+f.Name, f.Type); v.fields[i] == poison {
						return poison
					}
				}
			}
			return v
		}
		et, n := objectElem(t)
		if et == nil {
			g.errorf(d.pos, eNotImplemented, "not supported by this compiler: '%s', an array of structs holding textures or samplers", d.name)
			return poison
		}
		c := objClass(et)
		grp := groups[c]
		if grp == nil {
			grp = &objGroup{name: d.name, at: d.pos}
			groups[c] = grp
			order = append(order, c)
		}
		r := &resource{name: path, kind: et.Kind, elem: et, count: n, line: d.line, comps: et.Cols, grp: grp, objOff: grp.size}
		grp.size += n
		grp.members = append(grp.members, r)
		switch c {
		case 's':
			g.samplers = append(g.samplers, r)
		case 'u':
			g.uavs = append(g.uavs, r)
		default:
			g.textures = append(g.textures, r)
		}
		return &value{t: t, res: r, ro: true}
	}
	v := build(d.name, t)
	if v == poison {
		return poison
	}
	for _, c := range order {
		grp := groups[c]
		for _, reg := range d.classRegs {
			switch {
			case reg[0] == c:
				slot, ok := regSlot(reg, c)
				if !ok {
					g.errorf(d.pos, eSyntax, "syntax error: bad register '%s' for '%s'", reg, d.name)
					return poison
				}
				grp.explicit = true
				for _, m := range grp.members {
					m.slot, m.explicit = slot+m.objOff, true
				}
			case reg[0] == 't' || reg[0] == 's' || reg[0] == 'u':
				grp.other = reg
			}
		}
	}
	return v
}

// withObjects is v (a struct read from a constant buffer or a signature)
// with the objects of objs (objectStruct's value) in its object members.
func withObjects(v, objs *value) *value {
	if objs == nil || v == poison {
		return v
	}
	if objs.t.Kind != KStruct {
		return objs
	}
	c := *v
	c.fields = append([]*value(nil), v.fields...)
	for i, f := range objs.fields {
		if f != nil && i < len(c.fields) {
			c.fields[i] = withObjects(c.fields[i], f)
		}
	}
	return &c
}

// placeGroup gives the run of a struct's objects its registers, when one
// of them is read: the first free run past the registers given or placed
// before (placeResources' rule for one object).
func (g *gen) placeGroup(list []*resource, grp *objGroup, first int) {
	if grp.explicit || grp.placed {
		return
	}
	grp.placed = true
	n := 0
	for _, m := range grp.members {
		if !m.used {
			continue
		}
		if m.kind == KSampler {
			n = max(n, m.objOff+m.top)
		} else {
			n = grp.size
		}
	}
	if n == 0 {
		return
	}
	if grp.other != "" {
		g.errorf(grp.at, eSyntax, "'%s': the struct's %s are used and it has a register of another class only (%s): give each class it uses a register",
			grp.name, map[byte]string{'s': "samplers", 'u': "unordered access views", 't': "textures"}[objClass(grp.members[0].elem)], grp.other)
		return
	}
	s := first
	for ; ; s++ {
		free := true
		for _, o := range list {
			if o.grp != grp && (o.explicit || (o.used || o.held) && o.placed) && s < o.slot+o.count && o.slot < s+n {
				free = false
				break
			}
		}
		if free {
			break
		}
	}
	for _, m := range grp.members {
		m.slot = s + m.objOff
		if m.objOff < n {
			// A sampler array's elements past the last read are not
			// reserved (nor declared).
			m.held, m.placed, m.count = true, true, min(m.count, n-m.objOff)
		}
	}
}

// entryObject binds an entry point's object parameter (a Texture2D or
// sampler, uniform or not: fxc takes it as a uniform) or the objects of a
// struct parameter, in parameter order after the globals. It reports
// whether the parameter is done (the signature takes the rest).
func (g *gen) entryObject(p *varDecl) bool {
	if p.inout == "out" || p.inout == "inout" {
		return false
	}
	t := g.arrayType(g.resolveType(p.typ), p.arrayLen)
	if t == poison.t || p.uniform || !hasObject(t) {
		return false
	}
	if et, _ := objectElem(t); et != nil {
		p.uniform = true // lowerEntry leaves it to the global just made
		g.globalVar(p)
		return true
	}
	if t.Kind != KStruct {
		return false
	}
	if v := g.objectStruct(p, t); v != poison {
		if g.paramObjs == nil {
			g.paramObjs = map[*varDecl]*value{}
		}
		g.paramObjs[p] = v
	}
	return false
}

// arrayBase is the element type of an array (of arrays), or t.
func arrayBase(t *Type) *Type {
	for t.Kind == KArray {
		t = t.Elem
	}
	return t
}

// foldedIndex is i (an index into an array of objects) with its component
// computed, when the straight-line code before this point computes it
// from constants alone: fxc folds `b[(int)k.x + (int)k.y]` with k a local
// set to constants, so the object is known when the shader compiles.
func (g *gen) foldedIndex(i *value) *value {
	if len(i.c) != 1 {
		return i
	}
	if k, ok := foldComp(g.code, i.c[0], len(g.code), 0); ok {
		return &value{t: i.t, c: []Operand{immU(k)}, ro: true}
	}
	return i
}

// foldComp evaluates component c as the code before end leaves it, through
// lanewise instructions of constant sources (the evaluator's laneOp),
// within straight-line code and a few levels of instructions.
func foldComp(code []Instr, c Operand, end, depth int) (uint32, bool) {
	if c.File == FileImm {
		return c.Imm[0], true // a value's component holds its constant first
	}
	if c.File != FileTemp || c.Rel != nil || depth > 8 {
		return 0, false
	}
	reg, lane := c.Index, c.Swz[0]&3
	for i := end - 1; i >= 0; i-- {
		in := &code[i]
		switch in.Op {
		case OpIf, OpElse, OpEndif, OpLoop, OpEndloop, OpBreak, OpBreakc, OpContinue, OpRet, OpSwitch, OpCase,
			OpDefault, OpEndswitch, OpDiscard:
			return 0, false
		}
		for _, d := range in.Dst {
			if d.File != FileTemp || d.Index != reg || d.Mask&(1<<lane) == 0 {
				continue
			}
			if !lanewise(in.Op) || len(in.Dst) != 1 || in.Sat || len(in.Src) > 3 {
				return 0, false
			}
			var src [3]uint32
			for k, s := range in.Src {
				v := s.Imm[lane]
				if s.File != FileImm {
					var ok bool
					if v, ok = foldComp(code, Operand{File: s.File, Index: s.Index, Swz: [4]uint8{s.Swz[lane]}}, i, depth+1); !ok {
						return 0, false
					}
				}
				src[k] = applyMods([4]uint32{v}, s, floatOp(in.Op))[0]
			}
			return laneOp(in.Op, src[0], src[1], src[2]), true
		}
	}
	return 0, false
}

// unsetUse is where an object variable never given a texture or sampler
// is read: an error only if the code that reads it survives the optimiser
// (fxc takes `static Texture2D t;` read under if (0), or into a value
// nobody reads).
type unsetUse struct {
	at pos
	t  *Type
}

// unsetSlot is the first of the registers that stand for unset objects
// until the optimiser has run: far past any real one.
const unsetSlot = 1 << 24

// unsetObject is v bound to a register of its own past unsetSlot.
func (g *gen) unsetObject(p pos, v *value) *value {
	r := &resource{kind: v.t.Kind, elem: v.t, count: 1, slot: unsetSlot + len(g.unset), explicit: true}
	g.unset = append(g.unset, unsetUse{p, v.t})
	c := *v
	c.res, c.resIdx = r, 0
	return &c
}

// unsetUses refuses the first instruction left that reads or writes an
// unset object, unless a branch never taken holds it (if (0), which the
// optimiser keeps): then the instruction goes.
func (g *gen) unsetUses(code []Instr) ([]Instr, Errors) {
	if len(g.unset) == 0 {
		return code, nil
	}
	type block struct{ dead, elseDead bool } // an if's branches that never run
	var dead []block
	out := code[:0:0]
	for i, in := range code {
		switch in.Op {
		case OpIf:
			s := in.Src[0]
			k, ok := foldComp(code, Operand{File: s.File, Index: s.Index, Imm: [4]uint32{s.Imm[s.Swz[0]&3]}, Swz: [4]uint8{s.Swz[0]}}, i, 0)
			taken := (k != 0) == (in.Test == TestNZ)
			dead = append(dead, block{ok && !taken, ok && taken})
		case OpLoop, OpSwitch:
			dead = append(dead, block{})
		case OpElse:
			if n := len(dead); n > 0 {
				dead[n-1].dead = dead[n-1].elseDead
			}
		case OpEndif, OpEndloop, OpEndswitch:
			if n := len(dead); n > 0 {
				dead = dead[:n-1]
			}
		}
		u, found := g.unsetIn(in)
		never := false
		for _, d := range dead {
			never = never || d.dead
		}
		switch {
		case found && never:
			continue
		case found:
			return nil, Errors{{File: g.file, Line: u.at.line, Col: u.at.col, Code: eSyntax,
				Msg: cutText("syntax error: the " + u.t.String() + " is used before it is given a texture or sampler")}}
		}
		out = append(out, in)
	}
	return out, nil
}

// unsetIn finds an unset object an instruction reads or writes.
func (g *gen) unsetIn(in Instr) (unsetUse, bool) {
	for _, ops := range [][]Operand{in.Src, in.Dst} {
		for _, o := range ops {
			if (o.File == FileTex || o.File == FileSamp || o.File == FileUAV) && o.Index >= unsetSlot && o.Index-unsetSlot < len(g.unset) {
				return g.unset[o.Index-unsetSlot], true
			}
		}
	}
	return unsetUse{}, false
}
