package hlsl

import (
	"fmt"
	"math"
	"strings"

	"d3dsim/core/dxbc"
)

// Geometry shaders (gs_4_0, gs_4_1, gs_5_0), as the "Geometry-Shader
// Stage" and "Stream-Output Object" pages describe them: the entry point
// runs once per primitive, [maxvertexcount(N)] bounding the vertices it
// emits (dcl_maxout). Its parameters:
//   - the primitive's vertices, `point|line|triangle|lineadj|triangleadj
//     T v[N]` (N 1, 2, 3, 4 or 6; dcl_inputprimitive), read as
//     v[n][r] (the input signature describes one vertex; a vertex index
//     may be a variable, v[r0.x + 0][r]);
//   - SV_PrimitiveID (vPrim) and, at shader model 5, SV_GSInstanceID
//     (vGSInstanceID; [instance(N)], dcl_gsinstances N);
//   - the output streams, `inout PointStream|LineStream|TriangleStream<T>`
//     (dcl_outputtopology pointlist, linestrip or trianglestrip). The
//     stream's Append(v) writes v to the output registers and emits a
//     vertex (emit; emit_stream m# at shader model 5), RestartStrip()
//     ends the strip (cut; cut_stream m#). At shader model 5 there may be
//     up to four streams, numbered in parameter order, all point lists
//     when there are several; the output signature is then OSG5, each
//     element with its stream, and each stream's outputs are declared
//     after its dcl_stream. SV_RenderTargetArrayIndex and
//     SV_ViewportArrayIndex are outputs (a uint each).
// The input array reuses the hull shader's control points (hull.go): a
// template on the input signature's registers, one copy per vertex.

// gsInstReg is the IR input number of vGSInstanceID (past dsPrimReg).
const gsInstReg = 0x10003

// GSDecl is a geometry shader's declarations: the input primitive
// (dxbc's numbering: 1 point, 2 line, 3 triangle, 6 lineadj,
// 7 triangleadj), the vertices per primitive, the registers each vertex's
// inputs are read from, dcl_maxout, dcl_gsinstances and the streams.
type GSDecl struct {
	Input     uint32
	Vertices  int
	MaxOut    int
	Instances int      // [instance(N)]; 0 without
	Inputs    []IODecl // v[Vertices][Reg].Mask
	PrimID    bool     // vPrim read
	InstID    bool     // vGSInstanceID read
	Streams   []GSStream
	// OutStream is the stream of each output signature element (OSG5).
	OutStream []uint32
}

// GSStream is one output stream: its number, its topology (dxbc's: 1
// pointlist, 3 linestrip, 5 trianglestrip) and its outputs.
type GSStream struct {
	Index    int
	Topology uint32
	Outputs  []IODecl
}

// gsGen is what lowering a geometry shader keeps.
type gsGen struct {
	decl    GSDecl
	streams map[*Type]*gsStream // by the stream parameter's own type
	order   []*gsStream
}

type gsStream struct {
	index int
	topo  uint32
	out   *value // the output registers
	n     int    // its signature elements
}

// gsPrims are the input primitive qualifiers: dcl_inputprimitive's value
// and the vertices per primitive.
var gsPrims = map[string][2]int{"point": {1, 1}, "line": {2, 2}, "triangle": {3, 3}, "lineadj": {6, 4}, "triangleadj": {7, 6}}

// gsStreamTopo: the stream types and their output topologies.
var gsStreamTopo = map[string]uint32{"PointStream": 1, "LineStream": 3, "TriangleStream": 5}

// gsAttrs reads the entry point's [maxvertexcount(N)] and [instance(N)].
func (g *gen) gsAttrs(fn *funcDecl) {
	g.dom = &domainGen{} // the input array is laid out as a patch (hull.go)
	g.gs = &gsGen{streams: map[*Type]*gsStream{}}
	d := &g.gs.decl
	if rt := g.resolveType(fn.ret); rt.Kind != KVoid {
		g.errorf(fn.pos, eSyntax, "'%s': a geometry shader returns void: it writes its vertices with a stream's Append", fn.name)
	}
	for _, f := range append(g.funcs[fn.name], fn) {
		if f != fn && !sameSignature(g, f, fn) {
			continue
		}
		for _, a := range f.attrs {
			switch strings.ToLower(a.name) {
			case "maxvertexcount":
				if n, ok := g.attrNum(a); ok {
					if n < 1 || n > 1024 || n != math.Trunc(n) {
						g.errorf(a.pos, eSyntax, "maxvertexcount(%g): 1 to 1024", n)
					}
					d.MaxOut = int(n)
				}
			case "instance":
				if n, ok := g.attrNum(a); ok {
					switch {
					case g.major < 5:
						g.errorf(a.pos, eSyntax, "'%s': the instance attribute needs gs_5_0", fn.name)
					case n < 1 || n > 32 || n != math.Trunc(n):
						g.errorf(a.pos, eSyntax, "instance(%g): 1 to 32", n)
					}
					d.Instances = int(n)
				}
			}
		}
	}
	if d.MaxOut == 0 && len(g.errs) == 0 {
		g.errorf(fn.pos, eSyntax, "'%s': geometry shader entry points need a maxvertexcount attribute ([maxvertexcount(4)])", fn.name)
	}
}

// streamType is PointStream<T>, LineStream<T> or TriangleStream<T>: a type
// of its own for each declaration (its stream is found by it), T a struct
// or a scalar or vector.
func (g *gen) streamType(ts *typeSpec) *Type {
	if ts.argType == "" || len(ts.args) != 0 {
		g.errorf(ts.pos, eSyntax, "syntax error: %s takes a vertex type (%s<GSOut>)", ts.name, ts.name)
		return poison.t
	}
	elem := g.templateElem(ts, "vertex")
	if elem == nil {
		return poison.t
	}
	return &Type{Kind: KEffect, Name: ts.name + "<" + ts.argType + ">", Stream: uint8(gsStreamTopo[ts.name]), Elem: elem}
}

// gsParam lowers one parameter of a geometry shader's entry point: the
// input primitive's vertices, a stream, or SV_PrimitiveID or
// SV_GSInstanceID.
func (g *gen) gsParam(p *varDecl, t *Type, reg *int) (v *value, ins, outs []SigElement) {
	what := "input parameter '" + p.name + "'"
	d := &g.gs.decl
	switch {
	case t.Stream != 0:
		if p.inout != "inout" {
			g.errorf(p.pos, eSyntax, "'%s': a stream parameter is inout", p.name)
			return poison, nil, nil
		}
		n := len(g.gs.order)
		if n > 0 && g.major < 5 {
			g.errorf(p.pos, eSyntax, "'%s': several output streams need gs_5_0", p.name)
			return poison, nil, nil
		}
		if n >= 4 {
			g.errorf(p.pos, eSyntax, "'%s': a geometry shader has four streams at most", p.name)
			return poison, nil, nil
		}
		first := len(g.sigPend)
		out, els := g.sigValue(p.pos, "output parameter '"+p.name+"'", t.Elem, p.semantic, FileOutput, reg, false, p.interp)
		if out == poison {
			return poison, nil, nil
		}
		for _, e := range g.sigPend[first:] {
			e.stream = uint8(n)
		}
		st := &gsStream{index: n, topo: uint32(t.Stream), out: out, n: len(els)}
		g.gs.streams[t] = st
		g.gs.order = append(g.gs.order, st)
		for range els {
			d.OutStream = append(d.OutStream, uint32(n))
		}
		return &value{t: t, ro: true}, nil, els
	case p.inout == "out" || p.inout == "inout":
		g.errorf(p.pos, eSyntax, "'%s': a geometry shader's outputs are its streams (inout TriangleStream<T>), not out parameters", p.name)
		return poison, nil, nil
	case p.prim != "":
		pr := gsPrims[p.prim]
		if t.Kind != KArray || t.Len != pr[1] {
			g.errorf(p.pos, eSyntax, "'%s': a %s input is an array of %d vertices (%s T %s[%d])", p.name, p.prim, pr[1], p.prim, p.name, pr[1])
			return poison, nil, nil
		}
		if d.Input != 0 {
			g.errorf(p.pos, eSyntax, "'%s': a geometry shader has one input primitive", p.name)
			return poison, nil, nil
		}
		d.Input, d.Vertices = uint32(pr[0]), pr[1]
		tmpl, els := g.sigValue(p.pos, what, t.Elem, p.semantic, FileInput, reg, true, p.interp)
		if tmpl == poison {
			return poison, nil, nil
		}
		arr := &value{t: &Type{Kind: KArray, Elem: t.Elem, Len: t.Len, Patch: 1}, ro: true}
		g.dom.patches = append(g.dom.patches, patchParam{tmpl: tmpl, arr: arr, n: t.Len})
		return arr, els, nil
	}
	switch up := strings.ToUpper(p.semantic); up {
	case "SV_PRIMITIVEID", "SV_GSINSTANCEID":
		if !t.numeric() || t.comps() != 1 || t.Base == Float {
			g.errorf(p.pos, eConvert, "%s of type '%s': a uint", p.semantic, t)
			return poison, nil, nil
		}
		if up == "SV_GSINSTANCEID" {
			if g.major < 5 {
				g.errorf(p.pos, eSyntax, "SV_GSInstanceID needs gs_5_0")
				return poison, nil, nil
			}
			return &value{t: t, c: regComps(FileInput, gsInstReg, 1), ro: true}, nil, nil
		}
		return &value{t: t, c: regComps(FileInput, dsPrimReg, 1), ro: true}, nil, nil
	}
	g.errorf(p.pos, eSyntax, "'%s': a geometry shader's inputs are the primitive's vertices (point, line, triangle, lineadj or triangleadj T %s[N]), SV_PrimitiveID and SV_GSInstanceID", p.name, p.name)
	return poison, nil, nil
}

// gsPackSig packs a geometry shader's outputs stream by stream: each
// stream's from o0, as fxc packs them (the streams share the output
// registers; each stream's are declared after its dcl_stream).
func gsPackSig(pend []*pendingSig, pack bool) {
	for s := uint8(0); s < 4; s++ {
		var group []*pendingSig
		for _, e := range pend {
			if e.stream == s {
				group = append(group, e)
			}
		}
		packSig(group, pack)
	}
}

// streamMethod is a stream's Append(v) or RestartStrip().
func (g *gen) streamMethod(e *callExpr, sv *value, args []*value) *value {
	st := g.gs.lookup(sv.t)
	if st == nil {
		g.errorf(e.pos, eNotImplemented, "not supported by this compiler: a stream that is not a parameter of the entry point")
		return poison
	}
	switch e.name {
	case "Append":
		if len(args) != 1 {
			break
		}
		v := args[0]
		if st.out.t.Kind != KStruct {
			v = g.convert(e.args[0].at(), v, st.out.t, true)
		} else if !sameType(v.t, st.out.t) {
			g.errorf(e.args[0].at(), eConvert, "cannot convert from '%s' to '%s'", v.t, st.out.t)
			return poison
		}
		if v == poison {
			return poison
		}
		g.store(e.pos, st.out, v, false)
		g.emit(Instr{Op: OpEmit, Stream: uint8(st.index)})
		return &value{t: tVoid}
	case "RestartStrip":
		if len(args) != 0 {
			break
		}
		g.emit(Instr{Op: OpCut, Stream: uint8(st.index)})
		return &value{t: tVoid}
	default:
		g.errorf(e.pos, eSubscript, "invalid subscript '%s'", e.name)
		return poison
	}
	g.errorf(e.pos, eNoOverload, "'%s': no matching %d parameter intrinsic method", e.name, len(args))
	return poison
}

// streamArg passes a stream to a function's inout parameter p of type
// pt: the name is the caller's stream.
func (g *gen) streamArg(at pos, p *varDecl, pt *Type, a *value) {
	if pt.Stream != a.t.Stream || pt.Elem == nil || a.t.Elem == nil || !sameType(pt.Elem, a.t.Elem) {
		g.errorf(at, eConvert, "cannot convert from '%s' to '%s'", a.t, pt)
		return
	}
	g.declare(p.pos, p.name, a)
}

// otherStreams reports output signature elements i and j of different
// streams (which may have one semantic).
func (s *gsGen) otherStreams(i, j int) bool {
	return s != nil && i < len(s.decl.OutStream) && j < len(s.decl.OutStream) && s.decl.OutStream[i] != s.decl.OutStream[j]
}

func (s *gsGen) lookup(t *Type) *gsStream {
	if s == nil {
		return nil
	}
	return s.streams[t]
}

// gsCheck checks, after the parameters, that the shader has an input
// primitive and a stream, and that several streams are point lists.
func (g *gen) gsCheck(fn *funcDecl) {
	if g.gs.decl.Input == 0 {
		g.errorf(fn.pos, eSyntax, "'%s': a geometry shader takes its primitive's vertices (triangle T v[3], point, line, lineadj or triangleadj)", fn.name)
	}
	if len(g.gs.order) == 0 {
		g.errorf(fn.pos, eSyntax, "'%s': a geometry shader writes to a stream (inout TriangleStream<T> s, PointStream or LineStream)", fn.name)
	}
	// Direct3D 11 takes at most 1024 scalars from one invocation:
	// maxvertexcount times the output components.
	n := 0
	for _, s := range g.gs.order {
		n += flatComps(s.out.t)
	}
	if d := g.gs.decl; d.MaxOut*n > 1024 {
		g.errorf(fn.pos, eSyntax, "'%s': maxvertexcount(%d) times the %d output components is past the 1024 scalars a geometry shader may emit", fn.name, d.MaxOut, n)
	}
	if len(g.gs.order) > 1 {
		for _, s := range g.gs.order {
			if s.topo != 1 {
				g.errorf(fn.pos, eSyntax, "'%s': with several streams each is a PointStream", fn.name)
				return
			}
		}
	}
}

// finishGS works out the input registers each vertex reads (the
// signature's Used column and the dcl_input declarations), vPrim and
// vGSInstanceID, and each stream's outputs.
func (g *gen) finishGS(res *Result, p *Program) {
	d := g.gs.decl
	used := map[int]uint8{}
	for i := range p.Code {
		in := &p.Code[i]
		for k, s := range in.Src {
			if s.File != FileInput {
				continue
			}
			m := in.readComponents(k)
			switch r := s.Index; {
			case r == dsPrimReg:
				d.PrimID = true
			case r == gsInstReg:
				d.InstID = true
			case r >= dsICPBase && r < dsICPEnd:
				if s.Rel != nil {
					m = 0xf
				}
				used[(r-dsICPBase)%dsICPStride] |= m
			}
		}
	}
	regs := map[int]uint8{}
	sys := map[int]SysVal{}
	for i := range res.Inputs {
		e := &res.Inputs[i]
		e.Used = used[e.Register] & e.Mask
		regs[e.Register] |= e.Used
		if e.Used != 0 && e.SysVal != SysNone {
			sys[e.Register] = e.SysVal
		}
	}
	for r := 0; r < 32; r++ {
		if regs[r] != 0 {
			d.Inputs = append(d.Inputs, IODecl{Reg: r, Mask: regs[r], SysVal: sys[r]})
		}
	}
	p.Inputs = nil
	k := 0
	for _, s := range g.gs.order {
		d.Streams = append(d.Streams, GSStream{Index: s.index, Topology: s.topo, Outputs: p.Outputs[k : k+s.n]})
		k += s.n
	}
	p.Outputs = nil
	p.GS = &d
}

// gsOperands writes vGSInstanceID; hullOperands writes the vertices'
// registers (v[n][r]) and vPrim.
func gsOperands(ops []dxbc.Operand) {
	hullOperands(ops, false)
	for i := range ops {
		o := &ops[i]
		if o.Type == dxbc.RegInput && len(o.Indices) == 1 && o.Indices[0].Imm == gsInstReg {
			o.Type, o.Indices, o.Components = dxbc.RegInputGSInstanceID, nil, 1
		}
	}
}

// gsEmit writes emit or cut: emit_stream m# and cut_stream m# at shader
// model 5, as fxc writes them.
func gsEmit(b *dxbc.Builder, p *Program, in *Instr) {
	op := dxbc.OpEmit
	if in.Op == OpCut {
		op = dxbc.OpCut
	}
	if p.Major < 5 {
		b.Emit(op)
		return
	}
	op = map[dxbc.Opcode]dxbc.Opcode{dxbc.OpEmit: dxbc.OpEmitStream, dxbc.OpCut: dxbc.OpCutStream}[op]
	b.Emit(op, streamOperand(int(in.Stream)))
}

func streamOperand(n int) dxbc.Operand {
	return dxbc.Operand{Type: dxbc.RegStream, Indices: []dxbc.Index{{Imm: uint64(n)}}}
}

// gsBytecode writes the geometry shader, its declarations in fxc's order:
// the flags, constant buffers, samplers and resources, the vertices'
// inputs, vPrim and vGSInstanceID, the temps, dcl_gsinstances,
// dcl_inputprimitive, then for each stream dcl_stream (shader model 5),
// dcl_outputtopology and its outputs, and dcl_maxout.
func (r *Result) gsBytecode() ([]byte, error) {
	p, d := r.Program, r.Program.GS
	b, err := encode(p)
	if err != nil {
		return nil, err
	}
	prog, err := b.Program()
	if err != nil {
		return nil, err
	}
	var head, temps, code []dxbc.Instruction
	for _, in := range prog.Instructions {
		switch in.Op {
		case dxbc.OpDclGlobalFlags, dxbc.OpDclConstantBuffer, dxbc.OpDclSampler, dxbc.OpDclResource, dxbc.OpDclResourceRaw,
			dxbc.OpDclResourceStructured, dxbc.OpDclUAVTyped, dxbc.OpDclUAVRaw, dxbc.OpDclUAVStructured:
			head = append(head, in)
		case dxbc.OpDclTemps, dxbc.OpDclIndexableTemp:
			temps = append(temps, in)
		default:
			code = append(code, in)
		}
	}
	all := head
	for _, in := range d.Inputs {
		o := dxbc.Operand{Type: dxbc.RegInput, Components: 4, Mode: dxbc.SelectMask, WriteMask: in.Mask,
			Indices: []dxbc.Index{{Imm: uint64(d.Vertices)}, {Imm: uint64(in.Reg)}}}
		if in.SysVal != SysNone {
			all = append(all, dxbc.Instruction{Op: dxbc.OpDclInputSIV, Operands: []dxbc.Operand{o}, Extra: []uint32{uint32(in.SysVal)}})
		} else {
			all = append(all, dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{o}})
		}
	}
	if d.PrimID {
		all = append(all, dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputPrimitiveID}}})
	}
	if d.InstID {
		all = append(all, dxbc.Instruction{Op: dxbc.OpDclInput, Operands: []dxbc.Operand{{Type: dxbc.RegInputGSInstanceID}}})
	}
	all = append(all, temps...)
	if d.Instances > 0 {
		all = append(all, dxbc.Instruction{Op: dxbc.OpDclGSInstanceCount, Extra: []uint32{uint32(d.Instances)}})
	}
	all = append(all, dxbc.Instruction{Op: dxbc.OpDclInputPrimitive, Controls: d.Input})
	for _, s := range d.Streams {
		if p.Major >= 5 {
			all = append(all, dxbc.Instruction{Op: dxbc.OpDclStream, Operands: []dxbc.Operand{streamOperand(s.Index)}})
		}
		all = append(all, dxbc.Instruction{Op: dxbc.OpDclOutputTopology, Controls: s.Topology})
		for _, o := range s.Outputs {
			op := dxbc.Output(uint32(o.Reg)).Mask(o.Mask)
			if o.SysVal != SysNone {
				all = append(all, dxbc.Instruction{Op: dxbc.OpDclOutputSIV, Operands: []dxbc.Operand{op}, Extra: []uint32{uint32(o.SysVal)}})
			} else {
				all = append(all, dxbc.Instruction{Op: dxbc.OpDclOutput, Operands: []dxbc.Operand{op}})
			}
		}
	}
	all = append(all, dxbc.Instruction{Op: dxbc.OpDclMaxOutputVertexCount, Extra: []uint32{uint32(d.MaxOut)}})
	all = append(all, code...)
	out := &dxbc.Program{Type: dxbc.GeometryShader, Major: uint8(p.Major), Minor: uint8(p.Minor), Instructions: all}
	if _, err := out.Words(); err != nil {
		return nil, fmt.Errorf("hlsl: geometry shader: %w", err)
	}
	osig := dxbcSignature(r.Outputs, false)
	for i := range osig.Elements {
		if i < len(d.OutStream) {
			osig.Elements[i].Stream = d.OutStream[i]
		}
	}
	return dxbc.BuildShaderGeometry(out, dxbcSignature(r.Inputs, true), osig, r.Reflection())
}
