package hlsl

import (
	"strconv"
	"strings"

	"d3dsim/core/dxbc"
)

// lowerEntry binds the entry point's inputs to v# registers, lowers its
// body, and writes its outputs to o# registers at each return. It returns
// the signatures, one register per semantic.
func (g *gen) lowerEntry(fn *funcDecl) (ins, outs []SigElement) {
	g.interp = map[int]string{}
	rt := g.resolveType(fn.ret)
	ctx := &fnCtx{decl: fn, ret: rt, entry: true}
	g.fn = ctx
	g.inline = append(g.inline, fn)
	g.push()
	written := assignedNames(fn.body, g.funcs)
	// Statics first, in declaration order, in the globals' scope.
	saved := g.scopes
	g.scopes = g.scopes[:1]
	for _, d := range g.statics {
		g.declLocal(d)
	}
	// A function's statics too: one variable for every call, set once.
	g.fnStatics = map[*varDecl]*value{}
	for _, f := range g.funcOrder {
		for _, d := range localStatics(f.body) {
			g.push()
			g.declLocal(d)
			g.fnStatics[d] = g.scopes[len(g.scopes)-1][d.name]
			g.pop()
		}
	}
	g.scopes = saved
	for _, d := range g.stateVars {
		g.checkStates(d)
	}
	inReg, outReg := 0, 0
	var copies [][2]*value // written inputs and their temps
	// Outputs: the return value's elements, then out parameters.
	if rt.Kind != KVoid {
		v, el := g.sigValue(fn.pos, "function return value", rt, fn.semantic, FileOutput, &outReg, false, "")
		outs = append(outs, el...)
		ctx.retDst = v
	}
	for _, p := range fn.params {
		t := g.arrayType(g.resolveType(p.typ), p.arrayLen)
		if t == poison.t {
			continue
		}
		if p.uniform {
			continue // in $Params (entryUniforms)
		}
		if g.stage == Geometry {
			v, in, out := g.gsParam(p, t, &inReg)
			ins, outs = append(ins, in...), append(outs, out...)
			if written[p.name] && len(in) > 0 {
				// The vertices written: a copy, as for other inputs.
				tmp := g.newVar(t)
				copies = append(copies, [2]*value{tmp, v})
				v = tmp
			}
			g.declare(p.pos, p.name, v)
			continue
		}
		switch p.inout {
		case "out":
			v, el := g.sigValue(p.pos, "output parameter '"+p.name+"'", t, p.semantic, FileOutput, &outReg, false, p.interp)
			outs = append(outs, el...)
			tmp := g.newVar(t)
			ctx.outs = append(ctx.outs, v, tmp)
			g.declare(p.pos, p.name, tmp)
		case "inout":
			// An input and an output of the same semantic: the variable
			// starts as the input and ends in the output.
			vin, el := g.sigValue(p.pos, "input parameter '"+p.name+"'", t, p.semantic, FileInput, &inReg, true, p.interp)
			ins = append(ins, el...)
			vout, el := g.sigValue(p.pos, "output parameter '"+p.name+"'", t, p.semantic, FileOutput, &outReg, false, p.interp)
			outs = append(outs, el...)
			tmp := g.newVar(t)
			copies = append(copies, [2]*value{tmp, vin})
			ctx.outs = append(ctx.outs, vout, tmp)
			g.declare(p.pos, p.name, tmp)
		default:
			if g.stage == Domain || g.stage == Hull {
				param := g.domainParam
				if g.stage == Hull {
					param = g.hullParam
				}
				v, el := param(p, t, &inReg)
				ins = append(ins, el...)
				g.declare(p.pos, p.name, v)
				continue
			}
			v, el := g.sigValue(p.pos, "input parameter '"+p.name+"'", t, p.semantic, FileInput, &inReg, true, p.interp)
			ins = append(ins, el...)
			v = withObjects(v, g.paramObjs[p])
			if written[p.name] || g.hasBoolInput(v) {
				// Copied once the registers are known (placeSig).
				tmp := g.newVar(t)
				copies = append(copies, [2]*value{tmp, v})
				v = tmp
			}
			g.declare(p.pos, p.name, v)
		}
	}
	if len(g.errs) > 0 {
		return nil, nil
	}
	for si, side := range [][]SigElement{ins, outs} {
		for i, a := range side {
			for j, b := range side[:i] {
				if !strings.EqualFold(a.Semantic, b.Semantic) || a.Index != b.Index || si == 1 && g.gs.otherStreams(i, j) {
					continue
				}
				if si == 1 || a.Mask != b.Mask || (a.Type == CompFloat32) != (b.Type == CompFloat32) || a.rowMajor != b.rowMajor {
					g.errorf(fn.pos, eSyntax, "'%s': semantic %s%d is given to two outputs, or to two inputs of different layouts", fn.name, a.Semantic, a.Index)
				} else if g.stage != Vertex && g.stage != Pixel {
					g.errorf(fn.pos, eNotImplemented, "not supported by this compiler: two elements of one semantic (%s%d) outside a vertex or pixel shader", a.Semantic, a.Index)
				} else {
					continue // read from one register (sigalias.go)
				}
				return nil, nil
			}
		}
	}
	ins, aliases := g.aliasInputs(ins)
	g.placeSig(ins, outs)
	if len(g.errs) > 0 {
		return nil, nil
	}
	resolveAliases(aliases)
	g.domainRemap()
	for _, c := range copies {
		g.store(fn.pos, c[0], g.boolInputsRead(c[1]), false)
	}
	for _, s := range fn.body.list {
		g.stmt(s)
	}
	last := len(g.code) == 0 || g.code[len(g.code)-1].Op != OpRet
	if !ctx.returned && rt.Kind != KVoid {
		g.errorf(fn.pos, eMustReturn, "'%s': function must return a value", fn.name)
	}
	if last {
		if rt.Kind == KVoid {
			g.writeOutputs(fn.pos, nil)
		}
		g.emit(Instr{Op: OpRet})
	}
	return ins, outs
}

// writeOutputs copies a return value and the out parameters to o#.
func (g *gen) writeOutputs(p pos, v *value) {
	ctx := g.fn
	if v != nil && ctx.retDst != nil {
		d := ctx.retDst
		d.ro = false
		g.store(p, d, v, false)
	}
	for i := 0; i+1 < len(ctx.outs); i += 2 {
		g.store(p, ctx.outs[i], ctx.outs[i+1], false)
	}
}

// sigValue lays a parameter or return value of type t onto signature
// registers (a struct's members one after another) and returns the value
// that reads or writes them.
// what names the parameter in fxc's X3502 message ("input parameter
// 'v'"), also for a member of its struct that lacks a semantic.
func (g *gen) sigValue(p pos, what string, t *Type, sem string, file File, reg *int, input bool, interp string) (*value, []SigElement) {
	if t.Kind == KStruct {
		v := &value{t: t, ro: input}
		var els []SigElement
		for i, f := range t.Fields {
			if hasObject(f.Type) && !hasNumeric(f.Type) {
				v.fields = append(v.fields, &value{t: f.Type, ro: true}) // bound as a uniform (objstruct.go)
				continue
			}
			fi := interp
			if f.Interp != "" && interp != "nointerpolation" { // nointerpolation on the parameter wins, as in fxc
				fi = f.Interp
			}
			pend := len(g.sigPend)
			fv, fe := g.sigValue(p, what, f.Type, f.Semantic, file, reg, input, fi)
			if fv == poison {
				return poison, nil
			}
			if i == 0 && len(g.sigPend) > pend {
				g.sigPend[pend].align = true // a struct's first member starts a register
			}
			v.fields = append(v.fields, fv)
			els = append(els, fe...)
		}
		return v, els
	}
	if t.Kind == KArray && sem == "" && input && g.stage != Compute && (t.Elem.Kind == KStruct || t.Elem.Kind == KArray) {
		// An input array of structs (in apple aps[2][2]): fxc gives the
		// fields of every element the same semantics, so each element
		// reads the same registers as the first.
		ev, els := g.sigValue(p, what, t.Elem, sem, file, reg, input, interp)
		if ev == poison {
			return poison, nil
		}
		v := &value{t: t, ro: true}
		for i := 0; i < t.Len; i++ {
			v.elems = append(v.elems, ev)
		}
		return v, els
	}
	if sem == "" {
		g.errorf(p, eMissingSem, "'%s': %s missing semantics", g.fn.decl.name, what)
		return poison, nil
	}
	if g.stage == Compute {
		return g.computeInput(p, what, t, sem, input)
	}
	if g.stage == Domain && input {
		if v, ok := g.domainSystemValue(p, t, sem); ok {
			return v, nil
		}
	}
	if t.Kind == KArray && t.Elem.numeric() || t.Kind == KMatrix {
		return g.sigSplit(p, what, t, sem, file, reg, input, interp)
	}
	if !t.numeric() {
		g.errorf(p, eNotImplemented, "signature element '%s' of type '%s' is not supported: use a scalar or vector", sem, t)
		return poison, nil
	}
	if t.Base == Double {
		g.errorf(p, eTypeMismatch, "'%s': a signature element cannot be of type '%s' (its registers hold 32-bit components)", sem, t)
		return poison, nil
	}
	name, idx := parseSemantic(sem)
	el := SigElement{Semantic: name, Index: idx, Mask: uint8(1<<t.Cols - 1)}
	switch t.Base {
	case Float:
		el.Type = CompFloat32
	case Int:
		el.Type = CompSint32
	default:
		el.Type = CompUint32
	}
	up := strings.ToUpper(name)
	switch {
	case up == "SV_POSITION" && g.stage == Vertex && input:
		// A vertex shader's input is what the input layout gives it, by
		// semantic: no system value (fxc's signature says NONE).
	case up == "SV_POSITION":
		el.SysVal = SysPosition
	case up == "SV_VERTEXID" || up == "SV_INSTANCEID":
		if g.stage != Vertex || !input {
			g.errorf(p, eNotImplemented, "%s is only a vertex shader input", sem)
			return poison, nil
		}
		el.SysVal = SysVertexID
		if up == "SV_INSTANCEID" {
			el.SysVal = SysInstanceID
		}
		if t.Base == Float {
			g.errorf(p, eNotImplemented, "%s must be uint or int", sem)
			return poison, nil
		}
	case up == "SV_ISFRONTFACE":
		if g.stage != Pixel || !input || t.Cols != 1 || t.Base == Float {
			g.errorf(p, eNotImplemented, "SV_IsFrontFace is a pixel shader input of type bool or uint")
			return poison, nil
		}
		el.SysVal = SysFrontFace
	case up == "SV_COVERAGE":
		return g.coverageSig(p, t, el, file, input) // (coverage.go)
	case up == "SV_SAMPLEINDEX":
		if g.stage != Pixel || !input || t.Cols != 1 || t.Base == Float || g.major*10+g.minor < 41 {
			g.errorf(p, eNotImplemented, "SV_SampleIndex is a pixel shader input of type uint, from ps_4_1 on")
			return poison, nil
		}
		el.SysVal = SysSampleIndex // (depth.go)
	case up == "SV_DEPTH" || up == "SV_DEPTHGREATEREQUAL" || up == "SV_DEPTHLESSEQUAL":
		return g.depthSig(p, t, el, up, input) // (depth.go)
	case up == "SV_CLIPDISTANCE" || up == "SV_CULLDISTANCE":
		if el.SysVal = g.clipCullName(p, up, t, input); el.SysVal == SysNone {
			return poison, nil
		}
	case up == "SV_TARGET":
		if g.stage != Pixel || input {
			g.errorf(p, eNotImplemented, "SV_Target is only a pixel shader output")
			return poison, nil
		}
		el.SysVal = SysTarget
		if idx > 7 {
			g.errorf(p, eNotImplemented, "SV_Target%d: the index must be 0 to 7", idx)
			return poison, nil
		}
	case (up == "SV_TESSFACTOR" || up == "SV_INSIDETESSFACTOR") && g.dom != nil && (g.dom.pcSide && input || g.dom.pcPhase && !input):
		if el.SysVal = g.tessFactorName(p, up, idx, t); el.SysVal == SysNone {
			return poison, nil
		}
	case (up == "SV_RENDERTARGETARRAYINDEX" || up == "SV_VIEWPORTARRAYINDEX") && g.stage == Geometry && !input:
		if t.Cols != 1 || t.Base == Float {
			g.errorf(p, eConvert, "%s of type '%s': a uint", sem, t)
			return poison, nil
		}
		el.SysVal = SysVal(dxbc.SVRenderTargetIndex) + SysVal(b2i(up == "SV_VIEWPORTARRAYINDEX"))
	case strings.HasPrefix(up, "SV_"):
		g.errorf(p, eNotImplemented, "system value '%s' is not supported by this compiler", sem)
		return poison, nil
	}
	v := &value{t: t, c: regComps(file, -1, t.Cols), ro: input}
	if el.SysVal == SysTarget {
		el.Register = idx
		v.c = regComps(file, idx, t.Cols)
		return v, []SigElement{el}
	}
	// The register is given when the whole signature is known (packSig).
	mode := "linear"
	switch {
	case interp == "nointerpolation" || t.Base != Float:
		mode = "constant"
	case interp == "noperspective":
		mode = "linear noperspective"
	case interp == "centroid":
		mode = "linear centroid"
	}
	if el.SysVal == SysClipDist || el.SysVal == SysCullDist {
		mode += " clip" // packed with each other only (depth.go)
	}
	el.Register = -1
	if input && el.SysVal == SysNone {
		g.noteBoolInput(v)
	}
	g.sigPend = append(g.sigPend, &pendingSig{input: input, v: v, cols: t.Cols, mode: mode, pc: g.dom != nil && g.dom.pcSide})
	return v, []SigElement{el}
}

// pendingSig is a signature element waiting for its register.
type pendingSig struct {
	input  bool
	stream uint8 // a geometry shader's output stream (gs.go)
	pc     bool  // a domain shader's patch constant (domain.go)
	v      *value
	// parent, pidx: a matrix's register, whose components are also
	// parent.c[pidx[i]] (sigSplit).
	parent *value
	pidx   []int
	cols   int
	mode   string // interpolation mode: elements of different modes share no register
	// align: the element starts a register of its own, as fxc places an
	// array's elements, a matrix's columns and a struct's first member
	// (later elements may still fill its other components).
	align bool
	reg   int
	first int // its first component
}

// alignFrom marks signature elements as starting a register each.
func alignFrom(pend []*pendingSig) {
	for _, e := range pend {
		e.align = true
	}
}

// packSig gives the signature elements of one side their registers as
// fxc gives them (vkd3d-shader, which reproduces fxc's layout, documents
// it in its register allocator): in declaration order, a vertex shader's
// inputs and a pixel shader's outputs each a register of their own; a
// vertex shader's outputs and a pixel shader's inputs packed, each into
// the register with the most free components (the lowest such one) that
// holds no element of another interpolation mode, at its first free
// components, else a new register. So float2, float2 share o1.xy and
// o1.zw, and a float3 and a float share o2.xyz and o2.w. An array's
// elements, a matrix's columns (rows when row_major) and a struct's first
// member each start a new register, at .x: float a[2] then float3 b is
// o1.x, o2.x, then b in o1.yzw.
func packSig(pend []*pendingSig, pack bool) {
	var used []uint8   // free components per register (a mask of the taken ones)
	var modes []string // the register's mode
	for _, e := range pend {
		size := 4
		if pack {
			size = e.cols
		}
		best, bestFree := -1, 0
		for r := range used {
			if modes[r] != e.mode || e.align {
				continue
			}
			free := 4 - bitsSet(used[r])
			if free >= size && free > bestFree {
				best, bestFree = r, free
			}
		}
		if best < 0 {
			best = len(used)
			used = append(used, 0)
			modes = append(modes, e.mode)
		}
		first := 0
		for used[best]&(1<<first) != 0 {
			first++
		}
		e.reg, e.first = best, first
		for i := 0; i < size; i++ {
			used[best] |= 1 << (first + i)
		}
	}
}

func bitsSet(m uint8) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// localStatics lists the static variables declared in a function body.
func localStatics(b *blockStmt) []*varDecl {
	if b == nil {
		return nil
	}
	var out []*varDecl
	var walk func(s Stmt)
	walk = func(s Stmt) {
		switch s := s.(type) {
		case *blockStmt:
			for _, x := range s.list {
				walk(x)
			}
		case *declStmt:
			for _, d := range s.vars {
				if d.static {
					out = append(out, d)
				}
			}
		case *ifStmt:
			walk(s.then)
			if s.els_ != nil {
				walk(s.els_)
			}
		case *forStmt:
			if s.init != nil {
				walk(s.init)
			}
			walk(s.body)
		case *whileStmt:
			walk(s.body)
		case *switchStmt:
			for _, gr := range s.groups {
				for _, x := range gr.body {
					walk(x)
				}
			}
		}
	}
	walk(b)
	return out
}

// placeSig packs the inputs and outputs (packSig) and gives each element
// and the values reading or writing it its register and components.
func (g *gen) placeSig(ins, outs []SigElement) {
	type sigSide struct {
		input, pc bool
		els       []SigElement
	}
	sides := []sigSide{{true, false, ins}, {false, false, outs}}
	if g.dom != nil {
		sides = append(sides, sigSide{true, true, g.dom.pcSig})
	}
	for _, side := range sides {
		var pend []*pendingSig
		for _, e := range g.sigPend {
			if e.input == side.input && e.pc == side.pc {
				pend = append(pend, e)
			}
		}
		// Patch constants take a register each, as fxc lays out the tess
		// factors (one per register, in .x).
		pack := (side.input && g.stage != Vertex || !side.input && g.stage != Pixel) && !side.pc && (g.dom == nil || !g.dom.pcPhase || side.input)
		if !side.input && g.gs != nil {
			gsPackSig(pend, pack) // (gs.go)
		} else {
			packSig(pend, pack)
		}
		k := 0
		for i := range side.els {
			el := &side.els[i]
			if el.Register >= 0 || k >= len(pend) {
				continue
			}
			e := pend[k]
			k++
			if e.reg >= 32 {
				g.errorf(pos{g.fn.decl.line, g.fn.decl.col}, eNotImplemented, "too many signature elements")
				return
			}
			el.Register = e.reg
			el.Mask = uint8(1<<e.cols-1) << e.first
			for c := range e.v.c {
				e.v.c[c] = comp(e.v.c[c].File, e.reg, e.first+c)
				if e.parent != nil {
					e.parent.c[e.pidx[c]] = e.v.c[c]
				}
			}
			if side.input && g.stage == Pixel && e.mode != "linear" {
				g.interp[e.reg] = e.mode
			}
		}
	}
}

// sigSplit makes an array or matrix signature element, as fxc does: one
// element per array element, or per column of a column_major matrix (per
// row of a row_major one), with consecutive semantic indexes (TEXCOORD2,
// TEXCOORD3, ...).
func (g *gen) sigSplit(p pos, what string, t *Type, sem string, file File, reg *int, input bool, interp string) (*value, []SigElement) {
	name, idx := parseSemantic(sem)
	at := func(k int) string { return name + strconv.Itoa(idx+k) }
	var els []SigElement
	if t.Kind == KArray {
		v := &value{t: t, ro: input}
		step := 1 // the semantic indexes an element takes: a matrix's registers
		if m := t.Elem; m.Kind == KMatrix {
			step = m.Cols
			if m.RowMajor {
				step = m.Rows
			}
		}
		for k := 0; k < t.Len; k++ {
			pend := len(g.sigPend)
			ev, e := g.sigValue(p, what, t.Elem, at(k*step), file, reg, input, interp)
			if ev == poison {
				return poison, nil
			}
			alignFrom(g.sigPend[pend:]) // every element starts a register
			v.elems = append(v.elems, ev)
			els = append(els, e...)
		}
		return v, els
	}
	// A matrix's value keeps its components row by row (c[r*Cols+col]).
	v := &value{t: t, c: make([]Operand, t.Rows*t.Cols), ro: input}
	n, w := t.Cols, t.Rows // column_major: a register per column, of Rows components
	if t.RowMajor {
		n, w = t.Rows, t.Cols
	}
	for k := 0; k < n; k++ {
		var pidx []int
		for i := 0; i < w; i++ {
			if t.RowMajor {
				pidx = append(pidx, k*t.Cols+i)
			} else {
				pidx = append(pidx, i*t.Cols+k)
			}
		}
		pend := len(g.sigPend)
		ev, e := g.sigValue(p, what, vecT(t.Base, w), at(k), file, reg, input, interp)
		if ev == poison {
			return poison, nil
		}
		if t.RowMajor {
			for i := range e {
				e[i].rowMajor = true
			}
		}
		if len(g.sigPend) > pend {
			g.sigPend[len(g.sigPend)-1].parent, g.sigPend[len(g.sigPend)-1].pidx = v, pidx
		}
		alignFrom(g.sigPend[pend:]) // every column (row) starts a register
		for i, j := range pidx {
			v.c[j] = ev.c[i]
		}
		els = append(els, e...)
	}
	return v, els
}
