package dxbc

import "fmt"

// RegisterType is D3D10_SB_OPERAND_TYPE: bits 12..19 of an operand token.
type RegisterType uint8

const (
	RegTemp                     RegisterType = 0
	RegInput                    RegisterType = 1
	RegOutput                   RegisterType = 2
	RegIndexableTemp            RegisterType = 3
	RegImmediate32              RegisterType = 4
	RegImmediate64              RegisterType = 5
	RegSampler                  RegisterType = 6
	RegResource                 RegisterType = 7
	RegConstantBuffer           RegisterType = 8
	RegImmediateCB              RegisterType = 9
	RegLabel                    RegisterType = 10
	RegInputPrimitiveID         RegisterType = 11
	RegOutputDepth              RegisterType = 12
	RegNull                     RegisterType = 13
	RegRasterizer               RegisterType = 14
	RegOutputCoverageMask       RegisterType = 15
	RegStream                   RegisterType = 16 // m#: a geometry shader's output stream
	RegFunctionBody             RegisterType = 17
	RegFunctionTable            RegisterType = 18
	RegInterface                RegisterType = 19
	RegFunctionInput            RegisterType = 20
	RegFunctionOutput           RegisterType = 21
	RegOutputControlPointID     RegisterType = 22
	RegInputForkInstanceID      RegisterType = 23
	RegInputJoinInstanceID      RegisterType = 24
	RegInputControlPoint        RegisterType = 25
	RegOutputControlPoint       RegisterType = 26
	RegInputPatchConstant       RegisterType = 27
	RegInputDomainPoint         RegisterType = 28
	RegThisPointer              RegisterType = 29
	RegUAV                      RegisterType = 30 // u#: an unordered access view
	RegTGSM                     RegisterType = 31 // g#: thread-group shared memory
	RegInputThreadID            RegisterType = 32
	RegInputThreadGroupID       RegisterType = 33
	RegInputThreadIDInGroup     RegisterType = 34
	RegInputCoverageMask        RegisterType = 35
	RegInputThreadIDInGroupFlat RegisterType = 36
	RegInputGSInstanceID        RegisterType = 37
	RegOutputDepthGE            RegisterType = 38
	RegOutputDepthLE            RegisterType = 39
	RegCycleCounter             RegisterType = 40
	RegOutputStencilRef         RegisterType = 41 // Direct3D 11.1
	RegInnerCoverage            RegisterType = 42 // Direct3D 11.1
)

var regPrefix = map[RegisterType]string{
	RegTemp: "r", RegInput: "v", RegOutput: "o", RegIndexableTemp: "x", RegImmediate32: "l", RegImmediate64: "d",
	RegSampler: "s", RegResource: "t", RegConstantBuffer: "cb", RegImmediateCB: "icb", RegLabel: "l",
	RegInputPrimitiveID: "vPrim", RegOutputDepth: "oDepth", RegNull: "null", RegRasterizer: "rasterizer",
	RegOutputCoverageMask: "oMask", RegInputCoverageMask: "vCoverage", RegOutputDepthGE: "oDepthGE",
	RegOutputDepthLE: "oDepthLE", RegStream: "m", RegFunctionBody: "fb", RegFunctionTable: "ft",
	RegInterface: "fp", RegFunctionInput: "fi", RegFunctionOutput: "fo",
	RegOutputControlPointID: "vOutputControlPointID", RegInputForkInstanceID: "vForkInstanceID",
	RegInputJoinInstanceID: "vJoinInstanceID", RegInputControlPoint: "vicp", RegOutputControlPoint: "vocp",
	RegInputPatchConstant: "vpc", RegInputDomainPoint: "vDomain", RegThisPointer: "this", RegUAV: "u",
	RegTGSM: "g", RegInputThreadID: "vThreadID", RegInputThreadGroupID: "vThreadGroupID",
	RegInputThreadIDInGroup: "vThreadIDInGroup", RegInputThreadIDInGroupFlat: "vThreadIDInGroupFlattened",
	RegInputGSInstanceID: "vGSInstanceID", RegCycleCounter: "vCycleCounter", RegOutputStencilRef: "oStencilRef",
	RegInnerCoverage: "vInnerCoverage",
}

// String is the register's prefix in the listing ("r", "v", "u",
// "vThreadID"), or "register type N".
func (t RegisterType) String() string {
	if p, ok := regPrefix[t]; ok {
		return p
	}
	return fmt.Sprintf("register type %d", uint8(t))
}

// SelectionMode is how a 4-component operand picks components
// (D3D10_SB_OPERAND_4_COMPONENT_SELECTION_MODE).
type SelectionMode uint8

const (
	SelectMask    SelectionMode = 0 // destinations: a write mask
	SelectSwizzle SelectionMode = 1 // sources: a swizzle
	SelectOne     SelectionMode = 2 // one component, e.g. r0.x as a condition
)

// Component masks.
const (
	X    uint8 = 1
	Y    uint8 = 2
	Z    uint8 = 4
	W    uint8 = 8
	XY         = X | Y
	XYZ        = X | Y | Z
	XYZW       = X | Y | Z | W
)

// Modifier is the extended-operand source modifier.
type Modifier uint8

const (
	ModNone   Modifier = 0
	ModNeg    Modifier = 1
	ModAbs    Modifier = 2
	ModAbsNeg Modifier = 3
)

// IndexRepr is D3D10_SB_OPERAND_INDEX_REPRESENTATION.
type IndexRepr uint8

const (
	IndexImm32         IndexRepr = 0
	IndexImm64         IndexRepr = 1
	IndexRelative      IndexRepr = 2
	IndexImm32Relative IndexRepr = 3
	IndexImm64Relative IndexRepr = 4
)

// Index is one dimension of a register index: a constant, a register, or
// a register plus a constant (cb0[r1.x + 2]).
type Index struct {
	Repr IndexRepr
	Imm  uint64
	Rel  *Operand
}

// Operand is one decoded operand: register type and indices, component
// selection, immediate values and source modifier.
type Operand struct {
	Type RegisterType
	// Components is 0, 1 or 4.
	Components uint8
	Mode       SelectionMode
	WriteMask  uint8    // SelectMask
	Swiz       [4]uint8 // SelectSwizzle; Swiz[0] for SelectOne
	Indices    []Index
	Imm        []uint32 // immediate32 values, or immediate64 as pairs of words
	Modifier   Modifier
	// MinPrecision and NonUniform are the rest of the extended operand token.
	MinPrecision uint8
	NonUniform   bool
}

// maxOperandDepth bounds relative-index nesting (a register indexed by a
// register indexed by ...), which real shaders keep to one level.
const maxOperandDepth = 4

func decodeOperand(w []uint32, pos *int, depth int) (Operand, error) {
	var op Operand
	if depth > maxOperandDepth {
		return op, fmt.Errorf("relative indices nest deeper than %d", maxOperandDepth)
	}
	if *pos >= len(w) {
		return op, fmt.Errorf("operand token missing")
	}
	t := w[*pos]
	*pos++
	switch t & 3 {
	case 0:
		op.Components = 0
	case 1:
		op.Components = 1
	case 2:
		op.Components = 4
	default:
		return op, fmt.Errorf("operand token %#08x: N-component operands are not supported", t)
	}
	if op.Components == 4 {
		op.Mode = SelectionMode(t >> 2 & 3)
		switch op.Mode {
		case SelectMask:
			op.WriteMask = uint8(t >> 4 & 0xf)
		case SelectSwizzle:
			for i := range op.Swiz {
				op.Swiz[i] = uint8(t >> (4 + 2*i) & 3)
			}
		case SelectOne:
			op.Swiz[0] = uint8(t >> 4 & 3)
		default:
			return op, fmt.Errorf("operand token %#08x: selection mode 3 is reserved", t)
		}
	}
	op.Type = RegisterType(t >> 12 & 0xff)
	dims := int(t >> 20 & 3)
	ext := t>>31 != 0
	for ext {
		if *pos >= len(w) {
			return op, fmt.Errorf("extended operand token missing")
		}
		e := w[*pos]
		*pos++
		ext = e>>31 != 0
		switch e & 0x3f {
		case 0:
		case 1:
			op.Modifier = Modifier(e >> 6 & 0xff)
			if op.Modifier > ModAbsNeg {
				return op, fmt.Errorf("extended operand token %#08x: modifier %d is unknown", e, op.Modifier)
			}
			op.MinPrecision = uint8(e >> 14 & 7)
			op.NonUniform = e>>17&1 != 0
			if e&^(0x80000000|0x3f|0xff<<6|7<<14|1<<17) != 0 {
				return op, fmt.Errorf("extended operand token %#08x has unknown bits", e)
			}
		default:
			return op, fmt.Errorf("extended operand token %#08x: type %d is unknown", e, e&0x3f)
		}
	}
	for d := 0; d < dims; d++ {
		idx := Index{Repr: IndexRepr(t >> (22 + 3*d) & 7)}
		if idx.Repr > IndexImm64Relative {
			return op, fmt.Errorf("operand token %#08x: index representation %d is unknown", t, idx.Repr)
		}
		switch idx.Repr {
		case IndexImm32, IndexImm32Relative:
			if *pos >= len(w) {
				return op, fmt.Errorf("operand index missing")
			}
			idx.Imm = uint64(w[*pos])
			*pos++
		case IndexImm64, IndexImm64Relative:
			if *pos+1 >= len(w) {
				return op, fmt.Errorf("64-bit operand index missing")
			}
			idx.Imm = uint64(w[*pos]) | uint64(w[*pos+1])<<32
			*pos += 2
		}
		if idx.Repr >= IndexRelative {
			rel, err := decodeOperand(w, pos, depth+1)
			if err != nil {
				return op, err
			}
			idx.Rel = &rel
		}
		op.Indices = append(op.Indices, idx)
	}
	switch op.Type {
	case RegImmediate32, RegImmediate64:
		n := immWords(&op)
		if n == 0 || *pos+n > len(w) {
			return op, fmt.Errorf("immediate operand needs %d words, %d left", n, len(w)-*pos)
		}
		op.Imm = append([]uint32(nil), w[*pos:*pos+n]...)
		*pos += n
	}
	return op, nil
}

func (op *Operand) encode(out []uint32, depth int) ([]uint32, error) {
	if depth > maxOperandDepth {
		return out, fmt.Errorf("relative indices nest deeper than %d", maxOperandDepth)
	}
	var t uint32
	switch op.Components {
	case 0:
	case 1:
		t = 1
	case 4:
		t = 2 | uint32(op.Mode)<<2
		switch op.Mode {
		case SelectMask:
			t |= uint32(op.WriteMask&0xf) << 4
		case SelectSwizzle:
			for i, s := range op.Swiz {
				t |= uint32(s&3) << (4 + 2*i)
			}
		case SelectOne:
			t |= uint32(op.Swiz[0]&3) << 4
		default:
			return out, fmt.Errorf("selection mode %d is not 0, 1 or 2", op.Mode)
		}
	default:
		return out, fmt.Errorf("an operand has 0, 1 or 4 components, not %d", op.Components)
	}
	if len(op.Indices) > 3 {
		return out, fmt.Errorf("an operand has at most 3 indices, not %d", len(op.Indices))
	}
	t |= uint32(op.Type) << 12
	t |= uint32(len(op.Indices)) << 20
	for d, idx := range op.Indices {
		t |= uint32(idx.Repr&7) << (22 + 3*d)
	}
	ext := op.Modifier != ModNone || op.MinPrecision != 0 || op.NonUniform
	if ext {
		t |= 1 << 31
	}
	out = append(out, t)
	if ext {
		e := uint32(1) | uint32(op.Modifier)<<6 | uint32(op.MinPrecision&7)<<14
		if op.NonUniform {
			e |= 1 << 17
		}
		out = append(out, e)
	}
	for _, idx := range op.Indices {
		switch idx.Repr {
		case IndexImm32, IndexImm32Relative:
			out = append(out, uint32(idx.Imm))
		case IndexImm64, IndexImm64Relative:
			out = append(out, uint32(idx.Imm), uint32(idx.Imm>>32))
		}
		if idx.Repr >= IndexRelative {
			if idx.Rel == nil {
				return out, fmt.Errorf("a relative index has no register")
			}
			var err error
			if out, err = idx.Rel.encode(out, depth+1); err != nil {
				return out, err
			}
		} else if idx.Rel != nil {
			return out, fmt.Errorf("an immediate index carries a register")
		}
	}
	switch op.Type {
	case RegImmediate32, RegImmediate64:
		n := immWords(op)
		if len(op.Imm) != n {
			return out, fmt.Errorf("an immediate operand of %d components needs %d words, has %d", op.Components, n, len(op.Imm))
		}
		out = append(out, op.Imm...)
	}
	return out, nil
}

// immWords is the number of literal words an immediate operand carries:
// one per component for l(), and for d() two per double, one double for
// a one-component operand and two (a dvec2, the four 32-bit components)
// for a four-component one.
func immWords(op *Operand) int {
	if op.Type == RegImmediate64 {
		if op.Components == 4 {
			return 4
		}
		return 2 * int(op.Components)
	}
	return int(op.Components)
}
