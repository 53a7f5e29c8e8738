package shaderisa

// The geometry stage's declaration. dcl_gs carries what D3D11's
// dcl_inputprimitive, dcl_outputtopology, dcl_maxout and dcl_gsinstances
// declare ("Geometry-Shader Stage", "Shader Model 5 Assembly"), and the
// stride of the flattened input array v[vertex][register].

// Input primitives (D3D10_SB_PRIMITIVE's numbers).
const (
	GSInPoint       = 1
	GSInLine        = 2
	GSInTriangle    = 3
	GSInLineAdj     = 6
	GSInTriangleAdj = 7
)

// Output topologies (D3D10_SB_PRIMITIVE_TOPOLOGY's numbers).
const (
	GSOutPointList     = 1
	GSOutLineStrip     = 3
	GSOutTriangleStrip = 5
)

// Limits of the geometry stage: D3D11's 1024 output scalars a primitive
// (D3D11_GS_MAX_OUTPUT_VERTEX_COUNT_ACROSS_INSTANCES bounds the vertices
// to 1024 as well) and 32 instances (D3D11_GS_MAX_INSTANCE_COUNT).
const (
	MaxGSOutputScalars = 1024
	MaxGSVertices      = 1024
	MaxGSInstances     = 32
)

// GSDecl is a geometry program's dcl_gs.
type GSDecl struct {
	Input, Output uint32 // GSIn*, GSOut*
	MaxVertices   uint32 // emits a primitive at most (dcl_maxout)
	Instances     uint32 // runs a primitive (dcl_gsinstances; 1 without)
	Stride        uint32 // input registers a vertex: vertex n's v# r is ISA v(n*Stride + r)
}

// Vertices is the vertices of an input primitive: 1, 2, 3, 4 or 6.
func (d GSDecl) Vertices() uint32 { return GSInputVertices(d.Input) }

// PrimitiveIDReg is the ISA input register whose .x is SV_PrimitiveID;
// the next one's .x is SV_GSInstanceID.
func (d GSDecl) PrimitiveIDReg() uint32 { return d.Vertices() * d.Stride }

// GSInputVertices is the vertices of an input primitive, 0 for an
// unknown one.
func GSInputVertices(prim uint32) uint32 {
	switch prim {
	case GSInPoint:
		return 1
	case GSInLine:
		return 2
	case GSInTriangle:
		return 3
	case GSInLineAdj:
		return 4
	case GSInTriangleAdj:
		return 6
	}
	return 0
}

// Imm is the declaration's operand: l(input | instances<<8, output,
// max vertices, stride).
func (d GSDecl) Imm() [4]uint32 {
	return [4]uint32{d.Input | d.Instances<<8, d.Output, d.MaxVertices, d.Stride}
}

// GS returns a geometry program's declaration (the zero GSDecl for a
// program without one).
func (p *Program) GS() GSDecl {
	for i := range p.Code {
		if in := &p.Code[i]; in.Op == OpDclGS {
			v := in.Src[0].Imm
			return GSDecl{Input: v[0] & 0xFF, Instances: v[0] >> 8, Output: v[1], MaxVertices: v[2], Stride: v[3]}
		}
	}
	return GSDecl{}
}

// checkGeometry checks a geometry program's declaration: exactly one
// dcl_gs, a known input primitive and output topology, 1..1024 vertices,
// 1..32 instances, and inputs that hold the flattened array and the two
// identifiers.
func (p *Program) checkGeometry() error {
	if p.Stage != StageGeometry {
		return nil
	}
	n := 0
	for pc := range p.Code {
		in := &p.Code[pc]
		if in.Op != OpDclGS {
			continue
		}
		n++
		v := in.Src[0].Imm
		d := GSDecl{Input: v[0] & 0xFF, Instances: v[0] >> 8, Output: v[1], MaxVertices: v[2], Stride: v[3]}
		if d.Vertices() == 0 || d.Output != GSOutPointList && d.Output != GSOutLineStrip && d.Output != GSOutTriangleStrip ||
			d.MaxVertices == 0 || d.MaxVertices > MaxGSVertices || d.Instances == 0 || d.Instances > MaxGSInstances ||
			d.Stride > MaxInputs || uint64(d.PrimitiveIDReg())+2 > uint64(p.Inputs) {
			return bad("instruction %d: dcl_gs l(%#x, %d, %d, %d): input primitive 1, 2, 3, 6 or 7, output topology 1, 3 or 5, 1..%d vertices, 1..%d instances, and the inputs hold the vertices and the two identifiers",
				pc, v[0], v[1], v[2], v[3], MaxGSVertices, MaxGSInstances)
		}
	}
	if n != 1 {
		return bad("a geometry program has one dcl_gs, this one %d", n)
	}
	return nil
}
