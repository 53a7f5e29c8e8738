package translate

import (
	"d3dsim/core/dxbc"
	"d3dsim/gpu/shaderisa"
)

// Geometry shaders ("Geometry-Shader Stage", gs_4_0 to gs_5_0): the input
// array v[vertex][register] is flattened into the ISA's inputs, vertex n's
// register r at v(n*stride + r) where stride is one past the highest
// register declared; vPrim (SV_PrimitiveID) and vGSInstanceID follow the
// array (shaderisa.GSDecl). dcl_inputprimitive, dcl_outputtopology,
// dcl_maxout and dcl_gsinstances become the ISA's one dcl_gs; emit and cut
// (and their _stream forms, gs_5_0's streams m0..m3) the ISA's emit and
// cut with the stream in the instruction's channel bits. The outputs
// declared after dcl_stream m# are stream #'s (Output.Stream); the
// streams share the o# registers, as D3D11's do. A shader that writes
// several streams outputs point lists on each, as D3D11 requires.

// geometryOps are the instructions a geometry shader may use that the
// other stages refuse (refusals).
var geometryOps = map[dxbc.Opcode]bool{
	dxbc.OpDclStream: true, dxbc.OpDclMaxOutputVertexCount: true, dxbc.OpDclInputPrimitive: true,
	dxbc.OpDclOutputTopology: true, dxbc.OpDclGSInstanceCount: true, dxbc.OpEmit: true, dxbc.OpCut: true,
	dxbc.OpEmitThenCut: true, dxbc.OpEmitStream: true, dxbc.OpCutStream: true, dxbc.OpEmitThenCutStream: true,
}

// gsState is a geometry shader's declarations as the translator reads them.
type gsState struct {
	decl      shaderisa.GSDecl
	maxReg    uint32 // one past the highest v[][r] declared
	prim, iid bool   // vPrim, vGSInstanceID declared
	topoSet   bool
	declAt    int    // the DXBC instruction dcl_gs is listed under: dcl_inputprimitive
	stream    uint32 // the latest dcl_stream's: the stream of the outputs declared after it
	streams   uint8  // the streams declared or written (bit n: m#)
}

// geometryInst translates a geometry shader's declarations and emit and
// cut; done is false for any other instruction.
func (t *translator) geometryInst(in *dxbc.Instruction) (bool, error) {
	if !geometryOps[in.Op] {
		return false, nil
	}
	g := &t.gs
	switch in.Op {
	case dxbc.OpDclInputPrimitive:
		p := in.Controls & 0x3f
		if shaderisa.GSInputVertices(p) == 0 {
			return true, t.fail("dcl_inputprimitive %d: a geometry shader takes point, line, triangle, lineadj or triangleadj", p)
		}
		g.decl.Input, g.declAt = p, t.cur
	case dxbc.OpDclOutputTopology:
		p := in.Controls & 0x3f
		if p != shaderisa.GSOutPointList && p != shaderisa.GSOutLineStrip && p != shaderisa.GSOutTriangleStrip {
			return true, t.fail("dcl_outputtopology %d: a geometry shader outputs a point list, line strip or triangle strip", p)
		}
		if g.topoSet && p != g.decl.Output {
			return true, t.fail("dcl_outputtopology: the streams output different topologies (D3D11 takes point lists when a shader writes several streams)")
		}
		g.decl.Output, g.topoSet = p, true
	case dxbc.OpDclMaxOutputVertexCount:
		if len(in.Extra) != 1 || in.Extra[0] == 0 || in.Extra[0] > shaderisa.MaxGSVertices {
			return true, t.fail("maxvertexcount outside 1..%d", shaderisa.MaxGSVertices)
		}
		g.decl.MaxVertices = in.Extra[0]
	case dxbc.OpDclGSInstanceCount:
		if len(in.Extra) != 1 || in.Extra[0] == 0 || in.Extra[0] > shaderisa.MaxGSInstances {
			return true, t.fail("instance(%v): a geometry shader runs 1..%d instances", in.Extra, shaderisa.MaxGSInstances)
		}
		g.decl.Instances = in.Extra[0]
	case dxbc.OpDclStream:
		s, err := t.stream(in)
		if err != nil {
			return true, err
		}
		g.stream = s
	default: // emit, cut, emitThenCut and their _stream forms
		s, err := t.stream(in)
		if err != nil {
			return true, err
		}
		if in.Op != dxbc.OpCut && in.Op != dxbc.OpCutStream {
			t.emit(shaderisa.Inst{Op: shaderisa.OpEmit, Channel: uint8(s)})
		}
		if in.Op != dxbc.OpEmit && in.Op != dxbc.OpEmitStream {
			t.emit(shaderisa.Inst{Op: shaderisa.OpCut, Channel: uint8(s)})
		}
	}
	return true, nil
}

// stream returns the m# an instruction names (0 for one without): m0..m3,
// past m0 in gs_5_0 only (D3D11_SO_STREAM_COUNT).
func (t *translator) stream(in *dxbc.Instruction) (uint32, error) {
	if len(in.Operands) == 0 {
		t.gs.streams |= 1
		return 0, nil
	}
	o := &in.Operands[0]
	if o.Type != dxbc.RegStream || len(o.Indices) != 1 || o.Indices[0].Rel != nil {
		return 0, t.fail("%s takes a stream m#", in.Op)
	}
	s := o.Indices[0].Imm
	switch {
	case s > 3:
		return 0, t.fail("%s m%d: a geometry shader has streams m0..m3", in.Op, s)
	case s > 0 && t.prog.Major < 5:
		return 0, t.fail("%s m%d: streams past m0 need gs_5_0", in.Op, s)
	}
	t.gs.streams |= 1 << s
	return uint32(s), nil
}

// gsInput records a geometry shader's dcl_input: v[n][r], vPrim,
// vGSInstanceID.
func (t *translator) gsInput(in *dxbc.Instruction, o *dxbc.Operand) error {
	g := &t.gs
	switch o.Type {
	case dxbc.RegInputPrimitiveID:
		g.prim = true
		return nil
	case dxbc.RegInputGSInstanceID:
		g.iid = true
		return nil
	case dxbc.RegInput:
	default:
		return t.fail("input register type %s in a geometry shader (v[][], vPrim and vGSInstanceID only)", o.Type)
	}
	if len(o.Indices) != 2 {
		return t.fail("a geometry shader's input is v[vertices][register]")
	}
	reg, err := t.index(o, 1)
	if err != nil {
		return err
	}
	if reg >= shaderisa.MaxInputs {
		return t.fail("v[][%d]: the GPU has %d inputs", reg, shaderisa.MaxInputs)
	}
	sv := dxbc.SVUndefined
	if len(in.Extra) == 1 {
		sv = dxbc.SystemValue(in.Extra[0])
		if !passedOn(sv) {
			return t.fail("system value %s as a geometry shader's input: the GPU does not provide it", sv)
		}
	}
	mask := uint8(0xF)
	if o.Components == 4 && o.Mode == dxbc.SelectMask {
		mask = o.WriteMask
	}
	t.ins[reg] = true
	g.maxReg = max(g.maxReg, reg+1)
	t.out.Inputs = append(t.out.Inputs, Input{Reg: reg, ISA: reg, Mask: mask, SystemValue: sv})
	return nil
}

// gsStride is the flattened array's registers a vertex.
func (t *translator) gsStride() uint32 { return max(t.gs.maxReg, 1) }

// gsSrc maps a geometry shader's input operand: v[n][r] (n may be
// relative: v[r#.c + n][r]), vPrim, vGSInstanceID.
func (t *translator) gsSrc(o *dxbc.Operand) (shaderisa.Operand, error) {
	g := &t.gs
	verts := g.decl.Vertices()
	if verts == 0 {
		return shaderisa.Operand{}, t.fail("a geometry shader without dcl_inputprimitive")
	}
	stride := t.gsStride()
	switch o.Type {
	case dxbc.RegInputPrimitiveID:
		if !g.prim {
			return shaderisa.Operand{}, t.fail("vPrim is not declared")
		}
		return shaderisa.V(verts * stride), nil
	case dxbc.RegInputGSInstanceID:
		if !g.iid {
			return shaderisa.Operand{}, t.fail("vGSInstanceID is not declared")
		}
		return shaderisa.V(verts*stride + 1), nil
	}
	if len(o.Indices) != 2 {
		return shaderisa.Operand{}, t.fail("a geometry shader's input is v[vertex][register]")
	}
	reg, err := t.index(o, 1)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	if !t.ins[reg] {
		return shaderisa.Operand{}, t.fail("v[][%d] is not declared", reg)
	}
	ix := o.Indices[0]
	n := uint32(min(ix.Imm, 1<<20))
	if ix.Rel == nil {
		if n >= verts {
			return shaderisa.Operand{}, t.fail("v[%d][%d]: the input primitive has %d vertices", n, reg, verts)
		}
		return shaderisa.V(n*stride + reg), nil
	}
	rr, comp, err := t.relReg(ix)
	if err != nil {
		return shaderisa.Operand{}, err
	}
	tmp := t.newScratch()
	idx := shaderisa.R(rr)
	idx.Swizzle = [4]uint8{comp, comp, comp, comp}
	t.emit(shaderisa.Inst{Op: shaderisa.OpIMul, Dst: shaderisa.R(tmp).WithMask("x"),
		Src: []shaderisa.Operand{idx, shaderisa.L(stride, stride, stride, stride)}})
	return shaderisa.V(0).WithRel(n*stride+reg, verts*stride, tmp, 0), nil
}

// finishGeometry checks the declarations and puts the ISA's dcl_gs first.
func (t *translator) finishGeometry() error {
	g := &t.gs
	if g.decl.Vertices() == 0 || !g.topoSet || g.decl.MaxVertices == 0 {
		return &Error{Index: -1, Reason: "a geometry shader declares its input primitive, output topology and maxvertexcount"}
	}
	if g.decl.Instances == 0 {
		g.decl.Instances = 1
	}
	if g.streams&(g.streams-1) != 0 && g.decl.Output != shaderisa.GSOutPointList {
		return &Error{Index: -1, Reason: "a geometry shader that writes several streams outputs point lists (D3D11: multiple streams are PointStreams)"}
	}
	// D3D11 refuses a geometry shader whose maxvertexcount times its
	// output components (its largest stream's) is past 1024 scalars.
	var perStream [4]uint32
	for _, o := range t.out.Outputs {
		perStream[o.Stream&3] += uint32(popcount4(o.Mask))
	}
	scalars := max(perStream[0], perStream[1], perStream[2], perStream[3])
	if uint64(scalars)*uint64(g.decl.MaxVertices) > shaderisa.MaxGSOutputScalars {
		return &Error{Index: -1, Reason: "maxvertexcount(" + itoa(g.decl.MaxVertices) + ") times " + itoa(scalars) +
			" output components is past the 1024 scalars a geometry shader may emit"}
	}
	g.decl.Stride = t.gsStride()
	need := g.decl.PrimitiveIDReg() + 2
	if need > shaderisa.MaxInputs {
		return &Error{Index: -1, Reason: "the input primitive's " + itoa(g.decl.Vertices()) + " vertices of " + itoa(g.decl.Stride) +
			" registers each are past the GPU's " + itoa(shaderisa.MaxInputs) + " geometry inputs"}
	}
	t.inputs = need
	d := g.decl.Imm()
	t.code = append([]shaderisa.Inst{{Op: shaderisa.OpDclGS, Src: []shaderisa.Operand{shaderisa.L(d[0], d[1], d[2], d[3])}}}, t.code...)
	t.source = append([]int{g.declAt}, t.source...)
	t.out.GS = g.decl
	return nil
}

func popcount4(m uint8) int {
	n := 0
	for c := range 4 {
		n += int(m >> c & 1)
	}
	return n
}

func itoa(v uint32) string {
	if v == 0 {
		return "0"
	}
	var b [10]byte
	i := len(b)
	for v > 0 {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
	}
	return string(b[i:])
}
