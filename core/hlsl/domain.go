package hlsl

import (
	"fmt"
	"strings"

	"d3dsim/core/dxbc"
)

// Domain shaders (ds_5_0): the entry point runs once per domain point the
// tessellator makes, [domain("tri"|"quad"|"isoline")] naming the patch's
// domain (dcl_tessellator_domain). Its inputs, as the "Domain Shader
// Stage" and "Tessellation Stages" pages describe them:
//   - OutputPatch<T, N>: the hull shader's N output control points, read
//     as vicp[n][r] (the control-point signature, ISGN; N is
//     dcl_input_control_point_count);
//   - the patch constants (a struct or values of other semantics,
//     SV_TessFactor and SV_InsideTessFactor among them): vpc#, the
//     patch-constant signature (PCSG), each in a register of its own;
//   - SV_DomainLocation (vDomain: u, v for a quad or isoline; u, v, w for
//     a triangle) and SV_PrimitiveID (vPrim).
// Its outputs are a vertex shader's (SV_Position and the rest). In the IR
// these inputs are FileInput registers numbered past any signature's
// (below); the encoder writes them as the registers above.

// The IR input numbers of a domain shader's special inputs.
const (
	dsDomainReg = 0x10000           // vDomain
	dsPrimReg   = 0x10001           // vPrim
	dsPCBase    = 0x11000           // vpc#: dsPCBase + #
	dsICPBase   = 0x20000           // vicp[n][r]: dsICPBase + n*dsICPStride + r
	dsICPStride = 64                // registers per control point in that numbering
	dsICPEnd    = dsICPBase + 32*64 // 32 control points at most
)

// TessDecl is a domain shader's tessellation declarations: the domain
// (dxbc's numbering: 1 isoline, 2 tri, 3 quad), the number of input
// control points, and the registers and components of the special inputs
// the shader reads.
type TessDecl struct {
	Domain     uint32
	InputCPs   int
	CP         []IODecl // vicp[InputCPs][Reg].Mask
	PC         []IODecl // vpc#, SysVal a tess factor's D3D_NAME
	DomainMask uint8    // vDomain's components read
	PrimID     bool     // vPrim read
}

// domainGen is what lowering a domain shader keeps: the domain, the
// patch-constant signature, and the values whose registers are renumbered
// once placeSig has given them.
type domainGen struct {
	domain  uint32
	cps     int
	pcSide  bool // sigValue is laying out patch constants
	hull    bool // a hull shader (hull.go)
	pcPhase bool // lowering a hull shader's patch constant function
	pcSig   []SigElement
	pcVals  []*value
	patches []patchParam
}

type patchParam struct {
	tmpl *value // one control point, on the registers of ISGN
	arr  *value // the OutputPatch value, filled by domainRemap
	n    int
}

// domainAttrs reads the entry point's [domain("...")].
func (g *gen) domainAttrs(fn *funcDecl) {
	g.dom = &domainGen{}
	for _, d := range append(g.funcs[fn.name], fn) {
		if d != fn && !sameSignature(g, d, fn) {
			continue
		}
		for _, a := range d.attrs {
			if !strings.EqualFold(a.name, "domain") {
				continue
			}
			if len(a.args) != 1 || a.args[0].kind != tString {
				g.errorf(a.pos, eSyntax, "syntax error: domain takes one string: \"tri\", \"quad\" or \"isoline\"")
				return
			}
			switch a.args[0].text {
			case "isoline":
				g.dom.domain = 1
			case "tri":
				g.dom.domain = 2
			case "quad":
				g.dom.domain = 3
			default:
				g.errorf(a.pos, eSyntax, "'%s': domain \"%s\" is not \"tri\", \"quad\" or \"isoline\"", fn.name, clean(a.args[0].text))
				return
			}
		}
	}
	if g.dom.domain == 0 {
		g.errorf(fn.pos, eSyntax, "'%s': domain shader entry points need a domain attribute ([domain(\"tri\")], \"quad\" or \"isoline\")", fn.name)
	}
}

// patchType is InputPatch<T, N> or OutputPatch<T, N>: N control points of
// a struct or numeric type T, N from 1 to 32.
func (g *gen) patchType(ts *typeSpec) *Type {
	if ts.argType == "" || len(ts.args) != 1 {
		g.errorf(ts.pos, eSyntax, "syntax error: %s takes a type and a count (%s<VSOut, 3>)", ts.name, ts.name)
		return poison.t
	}
	elem := g.templateElem(ts, "control point")
	if elem == nil {
		return poison.t
	}
	if n := ts.args[0]; n < 1 || n > 32 {
		g.errorf(ts.pos, eSyntax, "%s<%s, %d>: a patch has 1 to 32 control points", ts.name, ts.argType, n)
		return poison.t
	}
	return &Type{Kind: KArray, Elem: elem, Len: ts.args[0], Patch: builtinType(ts.name).Patch}
}

// domainParam lowers one input parameter of a domain shader: the output
// patch (its control-point signature elements are returned), the domain
// location and primitive id, or patch constants.
func (g *gen) domainParam(p *varDecl, t *Type, reg *int) (*value, []SigElement) {
	what := "input parameter '" + p.name + "'"
	if t.Patch != 0 {
		if t.Patch == 1 {
			g.errorf(p.pos, eSyntax, "'%s': a domain shader reads an OutputPatch, not an InputPatch", p.name)
			return poison, nil
		}
		if g.dom.cps != 0 {
			g.errorf(p.pos, eSyntax, "'%s': a domain shader has one OutputPatch parameter", p.name)
			return poison, nil
		}
		g.dom.cps = t.Len
		tmpl, els := g.sigValue(p.pos, what, t.Elem, p.semantic, FileInput, reg, true, p.interp)
		if tmpl == poison {
			return poison, nil
		}
		arr := &value{t: t, ro: true}
		g.dom.patches = append(g.dom.patches, patchParam{tmpl: tmpl, arr: arr, n: t.Len})
		return arr, els
	}
	var pcReg int
	g.dom.pcSide = true
	v, els := g.sigValue(p.pos, what, t, p.semantic, FileInput, &pcReg, true, p.interp)
	g.dom.pcSide = false
	g.dom.pcSig = append(g.dom.pcSig, els...)
	if v != poison {
		g.dom.pcVals = append(g.dom.pcVals, v)
	}
	return v, nil
}

// domainSystemValue is SV_DomainLocation (a float2, or float3 for a
// triangle's barycentric u, v, w) or SV_PrimitiveID (a uint).
func (g *gen) domainSystemValue(p pos, t *Type, sem string) (*value, bool) {
	switch strings.ToUpper(sem) {
	case "SV_DOMAINLOCATION":
		n := 2
		if g.dom.domain == 2 {
			n = 3
		}
		if !t.numeric() || t.Kind == KMatrix || t.Base != Float || t.Cols > n {
			g.errorf(p, eConvert, "SV_DomainLocation of type '%s': a float%d in this domain", t, n)
			return poison, true
		}
		return &value{t: t, c: regComps(FileInput, dsDomainReg, t.Cols), ro: true}, true
	case "SV_PRIMITIVEID":
		if !t.numeric() || t.comps() != 1 || t.Base == Float {
			g.errorf(p, eConvert, "SV_PrimitiveID of type '%s': a uint", t)
			return poison, true
		}
		return &value{t: t, c: regComps(FileInput, dsPrimReg, 1), ro: true}, true
	}
	return nil, false
}

// tessFactorName is the D3D_NAME of SV_TessFactor<idx> or
// SV_InsideTessFactor<idx> in the shader's domain, or SysNone after an
// error: a quad has 4 edge and 2 inside factors, a triangle 3 and 1, an
// isoline 2 (detail, then density) and none inside.
func (g *gen) tessFactorName(p pos, up string, idx int, t *Type) SysVal {
	if t.Base != Float || t.Cols != 1 {
		g.errorf(p, eConvert, "%s must be a float (of an array of floats)", up)
		return SysNone
	}
	inside := up == "SV_INSIDETESSFACTOR"
	edges, insides := map[uint32][2]int{1: {2, 0}, 2: {3, 1}, 3: {4, 2}}[g.dom.domain][0], map[uint32][2]int{1: {2, 0}, 2: {3, 1}, 3: {4, 2}}[g.dom.domain][1]
	n := edges
	if inside {
		n = insides
	}
	if idx >= n {
		g.errorf(p, eSyntax, "%s%d: the %s domain has %d", up, idx, map[uint32]string{1: "isoline", 2: "tri", 3: "quad"}[g.dom.domain], n)
		return SysNone
	}
	switch g.dom.domain {
	case 1:
		return SysVal(dxbc.SVLineDetailTess) + SysVal(idx)
	case 2:
		return SysVal(dxbc.SVTriEdgeTess) + SysVal(b2i(inside))
	}
	return SysVal(dxbc.SVQuadEdgeTess) + SysVal(b2i(inside))
}

// domainRemap renumbers the patch constants to vpc# and makes the output
// patch's control points, each a copy of the template on vicp[n].
func (g *gen) domainRemap() {
	if g.dom == nil {
		return
	}
	seen := map[*value]bool{}
	for _, v := range g.dom.pcVals {
		shiftInputs(v, dsPCBase, seen)
	}
	for _, pp := range g.dom.patches {
		for n := 0; n < pp.n; n++ {
			pp.arr.elems = append(pp.arr.elems, cloneInputs(pp.tmpl, dsICPBase+n*dsICPStride))
		}
	}
}

func shiftInputs(v *value, base int, seen map[*value]bool) {
	if v == nil || seen[v] {
		return
	}
	seen[v] = true
	for i := range v.c {
		if v.c[i].File == FileInput && v.c[i].Index < dsDomainReg {
			v.c[i].Index += base
		}
	}
	for _, f := range v.fields {
		shiftInputs(f, base, seen)
	}
	for _, e := range v.elems {
		shiftInputs(e, base, seen)
	}
}

func cloneInputs(v *value, base int) *value {
	c := *v
	c.c = append([]Operand(nil), v.c...)
	for i := range c.c {
		if c.c[i].File == FileInput && c.c[i].Index < dsDomainReg {
			c.c[i].Index += base
		}
	}
	c.fields, c.elems = nil, nil
	for _, f := range v.fields {
		c.fields = append(c.fields, cloneInputs(f, base))
	}
	for _, e := range v.elems {
		c.elems = append(c.elems, cloneInputs(e, base))
	}
	return &c
}

// finishDomain works out which control-point, patch-constant, domain and
// primitive-id components the code reads: the signatures' Used columns
// and the dcl_input declarations.
func (g *gen) finishDomain(res *Result, p *Program) {
	d := &TessDecl{Domain: g.dom.domain, InputCPs: g.dom.cps}
	cpUsed, pcUsed := map[int]uint8{}, map[int]uint8{}
	for i := range p.Code {
		in := &p.Code[i]
		for k, s := range in.Src {
			if s.File != FileInput {
				continue
			}
			m := in.readComponents(k)
			switch r := s.Index; {
			case r == dsDomainReg:
				d.DomainMask |= m
			case r == dsPrimReg:
				d.PrimID = true
			case r >= dsPCBase && r < dsICPBase:
				pcUsed[r-dsPCBase] |= m
			case r >= dsICPBase && r < dsICPEnd:
				cpUsed[(r-dsICPBase)%dsICPStride] |= m
			}
		}
	}
	for i := range res.Inputs {
		e := &res.Inputs[i]
		e.Used = cpUsed[e.Register] & e.Mask
	}
	p.Inputs = nil
	regs := map[int]uint8{}
	for _, e := range res.Inputs {
		regs[e.Register] |= e.Used
	}
	for r := 0; r < 32; r++ {
		if regs[r] != 0 {
			d.CP = append(d.CP, IODecl{Reg: r, Mask: regs[r]})
		}
	}
	for i := range g.dom.pcSig {
		e := &g.dom.pcSig[i]
		e.Used = pcUsed[e.Register] & e.Mask
		if e.Used != 0 {
			d.PC = append(d.PC, IODecl{Reg: e.Register, Mask: e.Used, SysVal: declName(e)})
		}
	}
	res.PatchConstants = g.dom.pcSig
	p.Tess = d
}

// declName is the name a dcl_input_siv gives a tess factor: the shader
// bytecode's own numbering, one name per factor (finalQuadUeq0EdgeTessFactor
// 11 to finalLineDensityTessFactor 22), not the signature's D3D_NAME.
func declName(e *SigElement) SysVal {
	switch dxbc.SystemValue(e.SysVal) {
	case dxbc.SVQuadEdgeTess:
		return SysVal(11 + e.Index)
	case dxbc.SVQuadInsideTess:
		return SysVal(15 + e.Index)
	case dxbc.SVTriEdgeTess:
		return SysVal(17 + e.Index)
	case dxbc.SVTriInsideTess:
		return 20
	case dxbc.SVLineDetailTess:
		return 21
	case dxbc.SVLineDensityTess:
		return 22
	}
	return e.SysVal
}

// domainOperands writes the IR's special inputs as vDomain, vPrim, vpc#
// and vicp[n][r].
func domainOperands(ops []dxbc.Operand) {
	for i := range ops {
		o := &ops[i]
		if o.Type != dxbc.RegInput || len(o.Indices) != 1 {
			continue
		}
		switch r := int(o.Indices[0].Imm); {
		case r == dsDomainReg:
			o.Type, o.Indices = dxbc.RegInputDomainPoint, nil
		case r == dsPrimReg:
			o.Type, o.Indices = dxbc.RegInputPrimitiveID, nil
			o.Components = 1
		case r >= dsPCBase && r < dsICPBase:
			o.Type, o.Indices[0].Imm = dxbc.RegInputPatchConstant, uint64(r-dsPCBase)
		case r >= dsICPBase && r < dsICPEnd:
			r -= dsICPBase
			ix := o.Indices[0]
			o.Type, o.Indices = dxbc.RegInputControlPoint, []dxbc.Index{{Repr: ix.Repr, Imm: uint64(r / dsICPStride), Rel: ix.Rel}, {Imm: uint64(r % dsICPStride)}}
		}
	}
}

// encodeDomainDecls declares the domain, the control-point count (before
// the resources, where fxc puts them; first is true) or the inputs
// (vDomain, vicp, vpc, vPrim).
func encodeDomainDecls(b *dxbc.Builder, p *Program, first bool) error {
	d := p.Tess
	if d == nil {
		return fmt.Errorf("a domain shader without its tessellation declarations")
	}
	if first {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInputControlPointCount, Controls: uint32(d.InputCPs)})
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclTessDomain, Controls: d.Domain})
		return nil
	}
	if d.DomainMask != 0 {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputDomainPoint, Components: 4, Mode: dxbc.SelectMask, WriteMask: d.DomainMask}}})
	}
	for _, c := range d.CP {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputControlPoint, Components: 4, Mode: dxbc.SelectMask, WriteMask: c.Mask,
			Indices: []dxbc.Index{{Imm: uint64(d.InputCPs)}, {Imm: uint64(c.Reg)}}}}})
	}
	for _, c := range d.PC {
		o := dxbc.Operand{Type: dxbc.RegInputPatchConstant, Components: 4, Mode: dxbc.SelectMask, WriteMask: c.Mask, Indices: []dxbc.Index{{Imm: uint64(c.Reg)}}}
		if c.SysVal != SysNone {
			b.Declare(dxbc.Instruction{Op: dxbc.OpDclInputSIV, Operands: []dxbc.Operand{o}, Extra: []uint32{uint32(c.SysVal)}})
		} else {
			b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{o}})
		}
	}
	if d.PrimID {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputPrimitiveID, Components: 0}}})
	}
	return nil
}

// templateElem is the element type of a stream or patch template
// (TriangleStream<T>, InputPatch<T, N>): a struct or a scalar or vector
// type, or nil with the error said (what names T's role in the message).
func (g *gen) templateElem(ts *typeSpec, what string) *Type {
	var elem *Type
	if v := g.lookup(ts.argType); v != nil && v.tdef != nil {
		elem = v.tdef
	} else {
		elem = builtinType(ts.argType)
	}
	if elem == nil || elem.Kind != KStruct && !elem.numeric() {
		g.errorf(ts.pos, eSyntax, "syntax error: the %s type of %s must be a struct or a scalar or vector", what, ts.name)
		return nil
	}
	return elem
}
