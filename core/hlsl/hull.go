package hlsl

import (
	"fmt"
	"math"
	"strings"

	"d3dsim/core/dxbc"
)

// Hull shaders (hs_5_0), as the "Hull Shader Stage" and "How To: Create a
// Hull Shader" pages describe them: the entry point is the control-point
// phase, run once per output control point ([outputcontrolpoints(N)]),
// reading the input patch (InputPatch<T, N>: v[N][r], the input
// signature), SV_OutputControlPointID (vOutputControlPointID) and
// SV_PrimitiveID (vPrim), and returning one output control point (the
// output signature). The function [patchconstantfunc("name")] names runs
// once per patch: it becomes one fork phase, reading the input patch as
// vicp[N][r] and writing the patch constants (the patch-constant
// signature, one register each: SV_TessFactor and SV_InsideTessFactor
// with their dcl_output_siv names, and user values). The attributes
// [domain], [partitioning], [outputtopology] and [maxtessfactor] are the
// tessellator's declarations (hs_decls).

// The IR input number of SV_OutputControlPointID (the other special
// inputs are domain.go's).
const hsOCPIDReg = 0x10002

// HullDecl is a hull shader's declarations and its fork phase: the
// patch-constant function's code, temps, outputs and inputs.
type HullDecl struct {
	InputCPs, OutputCPs int
	Domain, Partition   uint32 // dxbc's numbering
	Topology            uint32
	MaxTess             float32
	CPInputs            []IODecl // v[InputCPs][Reg] read by the control-point phase
	OCPID, PrimID       bool     // the control-point phase reads them
	PCCode              []Instr
	PCTemps             int
	PCInputs            []IODecl // vicp[InputCPs][Reg] read by the fork phase
	PCPrimID            bool
	PCOutputs           []IODecl // the patch constants, SysVal a dcl_output_siv name
}

// attrNum is the constant number an attribute takes ([maxtessfactor(64)],
// [maxvertexcount(4)]).
func (g *gen) attrNum(a attr) (float64, bool) {
	if len(a.exprs) != 1 || a.exprs[0] == nil {
		g.errorf(a.pos, eSyntax, "syntax error: %s takes one number", a.name)
		return 0, false
	}
	saved, nCode := g.top, len(g.code)
	v := g.expr(a.exprs[0])
	g.top, g.code = saved, g.code[:nCode]
	if v == poison || !v.t.numeric() || v.t.comps() != 1 || !allImm(v.c) {
		g.errorf(a.pos, eSyntax, "syntax error: %s takes a constant number", a.name)
		return 0, false
	}
	if v.t.Base == Float {
		return float64(math.Float32frombits(v.c[0].Imm[0])), true
	}
	return float64(int32(v.c[0].Imm[0])), true
}

// hullAttrs reads the entry point's attributes into a HullDecl.
func (g *gen) hullAttrs(fn *funcDecl) (*HullDecl, *funcDecl) {
	h := &HullDecl{MaxTess: 64}
	g.dom = &domainGen{hull: true}
	var pcName string
	str := func(a attr, what string, names []string) uint32 {
		if len(a.args) != 1 || a.args[0].kind != tString {
			g.errorf(a.pos, eSyntax, "syntax error: %s takes one string (%s)", a.name, strings.Join(names[1:], ", "))
			return 0
		}
		for i, n := range names {
			if i > 0 && n == a.args[0].text {
				return uint32(i)
			}
		}
		g.errorf(a.pos, eSyntax, "'%s': %s \"%s\" is not one of %s", fn.name, what, clean(a.args[0].text), strings.Join(names[1:], ", "))
		return 0
	}
	num := g.attrNum
	for _, d := range append(g.funcs[fn.name], fn) {
		if d != fn && !sameSignature(g, d, fn) {
			continue
		}
		for _, a := range d.attrs {
			switch strings.ToLower(a.name) {
			case "domain":
				h.Domain = str(a, "domain", []string{"", "isoline", "tri", "quad"})
			case "partitioning":
				h.Partition = str(a, "partitioning", []string{"", "integer", "pow2", "fractional_odd", "fractional_even"})
			case "outputtopology":
				h.Topology = str(a, "outputtopology", []string{"", "point", "line", "triangle_cw", "triangle_ccw"})
			case "outputcontrolpoints":
				if n, ok := num(a); ok {
					if n < 0 || n > 32 || n != math.Trunc(n) {
						g.errorf(a.pos, eSyntax, "outputcontrolpoints(%g): 0 to 32", n)
					}
					h.OutputCPs = int(n)
				}
			case "maxtessfactor":
				if n, ok := num(a); ok {
					if n < 1 || n > 64 {
						g.errorf(a.pos, eSyntax, "maxtessfactor(%g): 1 to 64", n)
					}
					h.MaxTess = float32(n)
				}
			case "patchconstantfunc":
				if len(a.args) != 1 || a.args[0].kind != tString {
					g.errorf(a.pos, eSyntax, "syntax error: patchconstantfunc takes the function's name as a string")
				} else {
					pcName = a.args[0].text
				}
			}
		}
	}
	for _, need := range []struct {
		ok   bool
		what string
	}{{h.Domain != 0, "domain"}, {h.Partition != 0, "partitioning"}, {h.Topology != 0, "outputtopology"},
		{pcName != "", "patchconstantfunc"}, {h.OutputCPs != 0 || hasAttrNamed(fn, "outputcontrolpoints"), "outputcontrolpoints"}} {
		if !need.ok {
			g.errorf(fn.pos, eSyntax, "'%s': a hull shader entry point needs the %s attribute", fn.name, need.what)
			return nil, nil
		}
	}
	if h.Topology == 2 && h.Domain != 1 || h.Domain == 1 && h.Topology > 2 {
		g.errorf(fn.pos, eSyntax, "'%s': outputtopology \"line\" is for the isoline domain, and the isoline domain outputs points or lines", fn.name)
	}
	g.dom.domain = h.Domain
	if pcName == fn.name {
		g.errorf(fn.pos, eSyntax, "'%s': the patch constant function cannot be the entry point", fn.name)
		return nil, nil
	}
	// Of several overloads, fxc takes the last with a body (vkd3d's
	// hull-shader-syntax tests, run against it).
	var pc *funcDecl
	for _, x := range g.funcOrder {
		if x.name == pcName {
			pc = x
		}
	}
	if pc == nil && len(g.errs) == 0 {
		g.errorf(fn.pos, eEntryNotFound, "'%s': patch constant function '%s' not found", fn.name, clean(pcName))
	}
	return h, pc
}

func hasAttrNamed(fn *funcDecl, name string) bool {
	for _, a := range fn.attrs {
		if strings.EqualFold(a.name, name) {
			return true
		}
	}
	return false
}

// hullSystemValue is SV_OutputControlPointID (a uint, the control-point
// phase's) or SV_PrimitiveID.
func (g *gen) hullSystemValue(p pos, t *Type, sem string) (*value, bool) {
	up := strings.ToUpper(sem)
	if up != "SV_OUTPUTCONTROLPOINTID" && up != "SV_PRIMITIVEID" {
		return nil, false
	}
	if !t.numeric() || t.comps() != 1 || t.Base == Float {
		g.errorf(p, eConvert, "%s of type '%s': a uint", sem, t)
		return poison, true
	}
	if up == "SV_PRIMITIVEID" {
		return &value{t: t, c: regComps(FileInput, dsPrimReg, 1), ro: true}, true
	}
	if g.dom.pcPhase {
		g.errorf(p, eSyntax, "SV_OutputControlPointID is an input of the control-point phase (the entry point), not of the patch constant function")
		return poison, true
	}
	return &value{t: t, c: regComps(FileInput, hsOCPIDReg, 1), ro: true}, true
}

// hullParam lowers one input parameter of a hull shader's function: the
// input patch (its elements returned for the control-point phase), or a
// system value.
func (g *gen) hullParam(p *varDecl, t *Type, reg *int) (*value, []SigElement) {
	what := "input parameter '" + p.name + "'"
	if t.Patch != 0 {
		if t.Patch != 1 {
			g.errorf(p.pos, eNotImplemented, "not supported by this compiler: '%s', an OutputPatch in a hull shader (read the input patch)", p.name)
			return poison, nil
		}
		if g.dom.cps != 0 && g.dom.cps != t.Len {
			g.errorf(p.pos, eSyntax, "'%s': the input patch has %d control points in the entry point and %d here", p.name, g.dom.cps, t.Len)
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
	v, ok := g.hullSystemValue(p.pos, t, p.semantic)
	if !ok {
		g.errorf(p.pos, eSyntax, "'%s': a hull shader's inputs are the InputPatch, SV_OutputControlPointID and SV_PrimitiveID, not '%s'", p.name, p.semantic)
		return poison, nil
	}
	return v, nil
}

// lowerHull lowers the patch constant function after the entry point:
// its code, kept apart as the fork phase, and its outputs, the
// patch-constant signature.
func (g *gen) lowerHull(h *HullDecl, pc *funcDecl) {
	if len(g.statics) > 0 || len(g.fnStatics) > 0 {
		g.errorf(pc.pos, eNotImplemented, "not supported by this compiler: static variables in a hull shader (its phases would each need them)")
		return
	}
	for _, p := range pc.params {
		if p.uniform {
			g.errorf(p.pos, eSyntax, "'%s': a patch constant function takes no uniform parameters ('%s')", pc.name, p.name)
			return
		}
	}
	cpCode := g.code
	g.code, g.sigPend, g.dom.patches = nil, nil, nil
	g.dom.pcPhase = true
	_, outs := g.lowerEntry(pc)
	g.dom.pcPhase = false
	h.PCCode, g.code = g.code, cpCode
	g.dom.pcSig = outs
}

// finishHull works out what each phase reads and writes: the input
// signature's Used column, the phases' input declarations and the patch
// constants.
func (g *gen) finishHull(res *Result, p *Program, h *HullDecl) {
	h.InputCPs, h.Domain = g.dom.cps, g.dom.domain
	scan := func(code []Instr, used map[int]uint8) (ocpid, prim bool, written map[int]uint8) {
		written = map[int]uint8{}
		for i := range code {
			in := &code[i]
			for k, s := range in.Src {
				if s.File != FileInput {
					continue
				}
				m := in.readComponents(k)
				switch r := s.Index; {
				case r == hsOCPIDReg:
					ocpid = true
				case r == dsPrimReg:
					prim = true
				case r >= dsICPBase && r < dsICPEnd:
					if s.Rel != nil {
						m = 0xf // any control point: the whole register, as declared
					}
					used[(r-dsICPBase)%dsICPStride] |= m
				}
			}
			for _, d := range in.Dst {
				if d.File == FileOutput {
					written[d.Index] |= d.Mask
				}
			}
		}
		return
	}
	cpUsed, pcUsed := map[int]uint8{}, map[int]uint8{}
	h.OCPID, h.PrimID, _ = scan(p.Code, cpUsed)
	var pcWritten map[int]uint8
	_, h.PCPrimID, pcWritten = scan(h.PCCode, pcUsed)
	decls := func(used map[int]uint8) []IODecl {
		regs := map[int]uint8{}
		for _, e := range res.Inputs {
			regs[e.Register] |= used[e.Register] & e.Mask
		}
		var out []IODecl
		for r := 0; r < 32; r++ {
			if regs[r] != 0 {
				out = append(out, IODecl{Reg: r, Mask: regs[r]})
			}
		}
		return out
	}
	for i := range res.Inputs {
		e := &res.Inputs[i]
		e.Used = (cpUsed[e.Register] | pcUsed[e.Register]) & e.Mask
	}
	h.CPInputs, h.PCInputs = decls(cpUsed), decls(pcUsed)
	p.Inputs = nil
	for i := range g.dom.pcSig {
		e := &g.dom.pcSig[i]
		e.Used = pcWritten[e.Register] & e.Mask
		h.PCOutputs = append(h.PCOutputs, IODecl{Reg: e.Register, Mask: e.Mask, SysVal: declName(e)})
	}
	res.PatchConstants = g.dom.pcSig
	p.Hull = h
}

// hullOperands writes the IR's special inputs of a hull shader's phase:
// the input patch as v[n][r] in the control-point phase and vicp[n][r] in
// the fork phase (n may be a register), vOutputControlPointID and vPrim.
func hullOperands(ops []dxbc.Operand, fork bool) {
	for i := range ops {
		o := &ops[i]
		if o.Type != dxbc.RegInput || len(o.Indices) != 1 {
			continue
		}
		ix := o.Indices[0]
		switch r := int(ix.Imm); {
		case r == hsOCPIDReg:
			o.Type, o.Indices, o.Components = dxbc.RegOutputControlPointID, nil, 1
		case r == dsPrimReg:
			o.Type, o.Indices, o.Components = dxbc.RegInputPrimitiveID, nil, 1
		case r >= dsICPBase && r < dsICPEnd:
			r -= dsICPBase
			cp := dxbc.Index{Repr: ix.Repr, Imm: uint64(r / dsICPStride), Rel: ix.Rel}
			o.Indices = []dxbc.Index{cp, {Imm: uint64(r % dsICPStride)}}
			if fork {
				o.Type = dxbc.RegInputControlPoint
			}
		}
	}
}

// encodeHullDecls declares a phase's inputs and, for the fork phase, the
// patch constants it writes.
func encodeHullDecls(b *dxbc.Builder, p *Program) {
	h := p.Hull
	list, prim := h.CPInputs, h.PrimID
	typ := dxbc.RegInput
	if p.fork {
		list, prim, typ = h.PCInputs, h.PCPrimID, dxbc.RegInputControlPoint
	} else if h.OCPID {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegOutputControlPointID}}})
	}
	if prim {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputPrimitiveID}}})
	}
	for _, c := range list {
		b.Declare(dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: typ, Components: 4, Mode: dxbc.SelectMask, WriteMask: c.Mask,
			Indices: []dxbc.Index{{Imm: uint64(h.InputCPs)}, {Imm: uint64(c.Reg)}}}}})
	}
	if p.fork {
		for _, o := range h.PCOutputs {
			if o.SysVal != SysNone {
				b.Declare(dxbc.Instruction{Op: dxbc.OpDclOutputSIV, Operands: []dxbc.Operand{dxbc.Output(uint32(o.Reg)).Mask(o.Mask)}, Extra: []uint32{uint32(o.SysVal)}})
			} else {
				b.DclOutput(uint32(o.Reg), o.Mask)
			}
		}
	}
}

// hullBytecode writes the hull shader: hs_decls with the tessellator's
// declarations and the resources, the control-point phase (the entry
// point) and one fork phase (the patch constant function).
func (r *Result) hullBytecode() ([]byte, error) {
	p, h := r.Program, r.Program.Hull
	global := func(op dxbc.Opcode) bool {
		switch op {
		case dxbc.OpDclGlobalFlags, dxbc.OpDclConstantBuffer, dxbc.OpDclSampler, dxbc.OpDclResource, dxbc.OpDclResourceRaw,
			dxbc.OpDclResourceStructured, dxbc.OpDclUAVTyped, dxbc.OpDclUAVRaw, dxbc.OpDclUAVStructured:
			return true
		}
		return false
	}
	phase := func(q *Program) (globals, rest []dxbc.Instruction, err error) {
		b, err := encode(q)
		if err != nil {
			return nil, nil, err
		}
		prog, err := b.Program()
		if err != nil {
			return nil, nil, err
		}
		for _, in := range prog.Instructions {
			if global(in.Op) {
				globals = append(globals, in)
			} else {
				rest = append(rest, in)
			}
		}
		return globals, rest, nil
	}
	globals, cp, err := phase(p)
	if err != nil {
		return nil, err
	}
	fork := &Program{Target: p.Target, Stage: Hull, Major: p.Major, Minor: p.Minor, Code: h.PCCode, Temps: h.PCTemps, Hull: h, fork: true}
	_, fk, err := phase(fork)
	if err != nil {
		return nil, err
	}
	all := []dxbc.Instruction{{Op: dxbc.OpHSDecls},
		{Op: dxbc.OpDclInputControlPointCount, Controls: uint32(h.InputCPs)},
		{Op: dxbc.OpDclOutputControlPointCount, Controls: uint32(h.OutputCPs)},
		{Op: dxbc.OpDclTessDomain, Controls: h.Domain},
		{Op: dxbc.OpDclTessPartitioning, Controls: h.Partition},
		{Op: dxbc.OpDclTessOutputPrimitive, Controls: h.Topology},
		{Op: dxbc.OpDclHSMaxTessFactor, Extra: []uint32{math.Float32bits(h.MaxTess)}}}
	all = append(all, globals...)
	all = append(all, dxbc.Instruction{Op: dxbc.OpHSControlPointPhase})
	all = append(all, cp...)
	all = append(all, dxbc.Instruction{Op: dxbc.OpHSForkPhase})
	all = append(all, fk...)
	prog := &dxbc.Program{Type: dxbc.HullShader, Major: uint8(p.Major), Minor: uint8(p.Minor), Instructions: all}
	if _, err := prog.Words(); err != nil {
		return nil, fmt.Errorf("hlsl: hull shader: %w", err)
	}
	return dxbc.BuildShaderHull(prog, dxbcSignature(r.Inputs, true), dxbcSignature(r.Outputs, false), dxbcSignature(r.PatchConstants, false), r.Reflection())
}

// patchIndex is patch[i] with i a variable: the control point's registers
// indexed by a temp (v[r0.x + 0][r], vicp[r0.x + 0][r]), as fxc writes it.
func (g *gen) patchIndex(p pos, x, iv *value) *value {
	if iv == poison || g.dom == nil {
		return poison
	}
	for _, pp := range g.dom.patches {
		if pp.arr != x {
			continue
		}
		rel := g.srcOp(iv.c)
		if rel.File != FileTemp {
			rel = g.srcOp(g.copyTemp(iv.c))
		}
		rel.Swz = [4]uint8{rel.Swz[0], rel.Swz[0], rel.Swz[0], rel.Swz[0]}
		v := cloneInputs(pp.tmpl, dsICPBase)
		setRel(v, &rel)
		return v
	}
	g.errorf(p, eNotImplemented, "not supported by this compiler: a copy of a patch indexed by a variable (index the parameter itself)")
	return poison
}

func setRel(v *value, rel *Operand) {
	for i := range v.c {
		if v.c[i].File == FileInput {
			v.c[i].Rel = rel
		}
	}
	for _, f := range v.fields {
		setRel(f, rel)
	}
	for _, e := range v.elems {
		setRel(e, rel)
	}
}
