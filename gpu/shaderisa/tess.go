package shaderisa

// The hull and domain stages' declarations ("Tessellation Stages",
// "Shader Model 5 Assembly"). A hull program declares, in dcl_hs, what
// D3D11's hs_decls, dcl_input_control_point_count,
// dcl_output_control_point_count, dcl_tessellator_domain,
// dcl_tessellator_partitioning and dcl_tessellator_output_primitive
// declare, the sizes of its flattened inputs, and where in its patch
// constants the tess factors (SV_TessFactor, SV_InsideTessFactor) are; a
// domain program declares in dcl_ds its domain and the sizes of its
// inputs.
//
// A hull program runs in two phases over each patch, its inputs:
//
//	v(n*InStride + r)                  input control point n's register r
//	v(InCP*InStride + n*OutStride + r) output control point n's register r
//	                                   (the patch-constant phase only)
//	v(IDReg).x, .y, .z                 SV_PrimitiveID, SV_OutputControlPointID,
//	                                   the phase (0 control points, 1 constants)
//
// In phase 0 it runs once per output control point and its outputs are
// that control point's registers; in phase 1 once per patch and its
// outputs are the patch constants (D3D11's fork and join phases, one
// after the other).
//
// A domain program runs once per domain point, its inputs:
//
//	v(n*Stride + r)          control point n's register r
//	v(CP*Stride + r)         patch constant r
//	v(CP*Stride + PCRegs)    SV_DomainLocation in .xyz
//	v(CP*Stride + PCRegs + 1) SV_PrimitiveID in .x

// Tessellator domains, partitionings and output primitives
// (D3D11_SB_TESSELLATOR_*'s numbers, as the declarations carry them).
const (
	TessDomainIsoline = 1
	TessDomainTri     = 2
	TessDomainQuad    = 3

	TessPartInteger        = 1
	TessPartPow2           = 2
	TessPartFractionalOdd  = 3
	TessPartFractionalEven = 4

	TessOutPoint       = 1
	TessOutLine        = 2
	TessOutTriangleCW  = 3
	TessOutTriangleCCW = 4
)

// MaxControlPoints is a patch's most control points (D3D11's 32).
const MaxControlPoints = 32

// NoFactor marks a tess factor a domain does not have.
const NoFactor = 0xFF

// HSDecl is a hull program's dcl_hs.
type HSDecl struct {
	InCP, OutCP              uint32   // control points in and out (1..32)
	Domain, Part, Output     uint32   // TessDomain*, TessPart*, TessOut*
	InStride, OutStride      uint32   // registers a control point
	PCRegs                   uint32   // patch-constant registers
	EdgeFactor, InsideFactor [4]uint8 // where each factor is: reg<<2 | component, NoFactor for none
}

// IDReg is the input register of the identifiers and the phase.
func (d HSDecl) IDReg() uint32 { return d.InCP*d.InStride + d.OutCP*d.OutStride }

// Imm is the declaration's operand.
func (d HSDecl) Imm() [4]uint32 {
	var e, i uint32
	for k := range 4 {
		e |= uint32(d.EdgeFactor[k]) << (8 * k)
		i |= uint32(d.InsideFactor[k]) << (8 * k)
	}
	return [4]uint32{d.InCP | d.OutCP<<8 | d.Domain<<16 | d.Part<<20 | d.Output<<24,
		d.InStride | d.OutStride<<8 | d.PCRegs<<16, e, i}
}

func hsDeclOf(v [4]uint32) HSDecl {
	d := HSDecl{InCP: v[0] & 0xFF, OutCP: v[0] >> 8 & 0xFF, Domain: v[0] >> 16 & 0xF, Part: v[0] >> 20 & 0xF, Output: v[0] >> 24 & 0xFF,
		InStride: v[1] & 0xFF, OutStride: v[1] >> 8 & 0xFF, PCRegs: v[1] >> 16 & 0xFF}
	for k := range 4 {
		d.EdgeFactor[k] = uint8(v[2] >> (8 * k))
		d.InsideFactor[k] = uint8(v[3] >> (8 * k))
	}
	return d
}

// Factors is how many edge and inside factors a domain has.
func TessFactors(domain uint32) (edges, inside int) {
	switch domain {
	case TessDomainTri:
		return 3, 1
	case TessDomainQuad:
		return 4, 2
	case TessDomainIsoline:
		return 2, 0
	}
	return 0, 0
}

// HS returns a hull program's declaration (the zero HSDecl without one).
func (p *Program) HS() HSDecl {
	for i := range p.Code {
		if in := &p.Code[i]; in.Op == OpDclHS {
			return hsDeclOf(in.Src[0].Imm)
		}
	}
	return HSDecl{}
}

// DSDecl is a domain program's dcl_ds.
type DSDecl struct {
	CP, Domain     uint32 // control points; TessDomain*
	Stride, PCRegs uint32 // registers a control point; patch-constant registers
}

// LocationReg is the input register of SV_DomainLocation; the next one
// holds SV_PrimitiveID.
func (d DSDecl) LocationReg() uint32 { return d.CP*d.Stride + d.PCRegs }

// Imm is the declaration's operand.
func (d DSDecl) Imm() [4]uint32 {
	return [4]uint32{d.CP | d.Domain<<8, d.Stride | d.PCRegs<<8, 0, 0}
}

// DS returns a domain program's declaration (the zero DSDecl without one).
func (p *Program) DS() DSDecl {
	for i := range p.Code {
		if in := &p.Code[i]; in.Op == OpDclDS {
			v := in.Src[0].Imm
			return DSDecl{CP: v[0] & 0xFF, Domain: v[0] >> 8 & 0xFF, Stride: v[1] & 0xFF, PCRegs: v[1] >> 8 & 0xFF}
		}
	}
	return DSDecl{}
}

// checkTess checks a hull or domain program's declaration: exactly one,
// 1..32 control points, a known domain, partitioning and output primitive
// that go together, inputs that hold what the declaration lays out, and
// every factor of the domain in a patch-constant register.
func (p *Program) checkTess() error {
	var op Op
	switch p.Stage {
	case StageHull:
		op = OpDclHS
	case StageDomain:
		op = OpDclDS
	default:
		return nil
	}
	n := 0
	for pc := range p.Code {
		in := &p.Code[pc]
		if in.Op != op {
			continue
		}
		n++
		v := in.Src[0].Imm
		if op == OpDclDS {
			d := DSDecl{CP: v[0] & 0xFF, Domain: v[0] >> 8 & 0xFF, Stride: v[1] & 0xFF, PCRegs: v[1] >> 8 & 0xFF}
			e, _ := TessFactors(d.Domain)
			if d.CP == 0 || d.CP > MaxControlPoints || e == 0 || v[0]>>16 != 0 || v[1]>>16 != 0 ||
				uint64(d.LocationReg())+2 > uint64(p.Inputs) {
				return bad("instruction %d: dcl_ds l(%#x, %#x, ...): 1..%d control points, domain 1, 2 or 3, and inputs that hold the control points, the patch constants, the domain location and the primitive id (%d inputs)",
					pc, v[0], v[1], MaxControlPoints, p.Inputs)
			}
			continue
		}
		d := hsDeclOf(v)
		e, i := TessFactors(d.Domain)
		okOut := d.Output >= TessOutPoint && d.Output <= TessOutTriangleCCW &&
			(d.Domain == TessDomainIsoline) == (d.Output == TessOutLine || d.Output == TessOutPoint && d.Domain == TessDomainIsoline)
		if d.InCP == 0 || d.InCP > MaxControlPoints || d.OutCP == 0 || d.OutCP > MaxControlPoints || e == 0 ||
			d.Part < TessPartInteger || d.Part > TessPartFractionalEven || !okOut ||
			uint64(d.IDReg())+1 > uint64(p.Inputs) || int(d.OutStride) > p.Outputs || int(d.PCRegs) > p.Outputs {
			return bad("instruction %d: dcl_hs l(%#x, %#x, ...): 1..%d control points in and out, domain 1, 2 or 3, partitioning 1..4, an output primitive the domain has, inputs that hold both patches and the identifiers (%d inputs), outputs that hold a control point and the patch constants (%d outputs)",
				pc, v[0], v[1], MaxControlPoints, p.Inputs, p.Outputs)
		}
		for k := range 4 {
			for _, f := range []struct {
				loc  uint8
				want bool
				what string
			}{{d.EdgeFactor[k], k < e, "edge"}, {d.InsideFactor[k], k < i, "inside"}} {
				if f.want && (f.loc == NoFactor || uint32(f.loc>>2) >= d.PCRegs) || !f.want && f.loc != NoFactor {
					return bad("instruction %d: dcl_hs: %s factor %d at %#x: the domain's factors are in patch-constant registers (0..%d), the others %#x", pc, f.what, k, f.loc, int(d.PCRegs)-1, NoFactor)
				}
			}
		}
	}
	if n != 1 {
		return bad("a %s program has one %s, this one %d", p.Stage, op, n)
	}
	return nil
}
