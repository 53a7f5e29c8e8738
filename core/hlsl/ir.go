package hlsl

import (
	"fmt"
	"math"
	"strings"
)

// The IR, for the DXBC encoder:
//
//   - Program.Code is the instruction stream in order; each Instr is one
//     SM4/SM5 instruction (D3D10_SB_OPCODE_* of the same name). Dst come
//     first in the token stream, then Src, as fxc's disassembly prints
//     them. Two-destination instructions keep SM4's order: imul hi, lo;
//     udiv quotient, remainder; sincos sin, cos; an unused one is FileNull.
//   - A destination's Mask is the component write mask (bit 0 = x). A
//     source's Swz is the 4-component swizzle (0..3 = x..w); the encoder may
//     use select-1 mode when only one lane is read (if, breakc, discard,
//     a relative index) and swizzle mode otherwise. Neg and Abs are the
//     source modifiers. Sat is the _sat instruction modifier. Test picks
//     _nz or _z for if, breakc and discard.
//   - FileImm is a 32-bit immediate: four lanes of raw bits in Imm
//     (Float only says how to print them).
//   - FileCB is cb<Index>[Elem] or, with Rel, cb<Index>[Rel + Elem]
//     where Rel is a temp component (a dynamically indexed constant
//     buffer; the matching CBDecl has Dynamic set).
//   - sample dst, coord, t#, s#; sample_l dst, coord, t#, s#, lod;
//     ld dst, coord(x, y, _, mip), t#: the resource operand's Swz is the
//     swizzle applied to the fetched texel.
//   - The declarations (Program.CBSizes, Samplers, Textures, Inputs,
//     Outputs, Temps) are the dcl_* instructions, printed in fxc's order.
//   - Validate checks this shape; Compile only returns programs that pass.

// Op is an IR opcode. Each one is an SM4/SM5 instruction of the same name,
// so the DXBC encoder maps an Instr to one instruction token sequence.
type Op uint8

// The opcodes, named as fxc's disassembly names them.
const (
	OpNop Op = iota
	OpMov
	OpMovc
	OpAdd
	OpMul
	OpMad
	OpDiv
	OpDp2
	OpDp3
	OpDp4
	OpMin
	OpMax
	OpRsq
	OpSqrt
	OpExp
	OpLog
	OpSincos
	OpFrc
	OpRoundNI
	OpRoundPI
	OpRoundZ
	OpLt
	OpGe
	OpEq
	OpNe
	OpAnd
	OpOr
	OpXor
	OpNot
	OpItof
	OpFtoi
	OpUtof
	OpFtou
	OpIadd
	OpImul
	OpIneg
	OpImin
	OpImax
	OpUmin
	OpUmax
	OpIlt
	OpIge
	OpIeq
	OpIne
	OpUlt
	OpUge
	OpIshl
	OpIshr
	OpUshr
	OpUdiv
	OpIf
	OpElse
	OpEndif
	OpLoop
	OpEndloop
	OpBreak
	OpBreakc
	OpContinue
	OpRet
	OpDiscard
	OpSample
	OpSampleL
	OpLd
	OpSampleB // sample_b: implicit level of detail plus a bias
	OpSampleD // sample_d: explicit gradients
	OpResinfo // resinfo (Instr.Uint: resinfo_uint)
	OpSwitch  // switch selector
	OpCase    // case l(value)
	OpDefault
	OpEndswitch
	OpRoundNE     // round_ne: to the nearest, ties to even
	OpCountbits   // countbits
	OpFirstbitHi  // firstbit_hi: the first set bit from the top (0 is bit 31), -1 for none
	OpFirstbitLo  // firstbit_lo: the first set bit from the bottom
	OpFirstbitShi // firstbit_shi: firstbit_hi of a negative number's complement
	OpBfrev       // bfrev: the bits in reverse order
	OpF32tof16    // f32tof16: a half float in the low 16 bits
	OpF16tof32    // f16tof32: the low 16 bits read as a half float
	OpDerivRtx    // deriv_rtx: d/dx within the 2x2 quad
	OpDerivRty    // deriv_rty
	OpDerivRtxCoarse
	OpDerivRtxFine
	OpDerivRtyCoarse
	OpDerivRtyFine
	OpRcp           // rcp (shader model 5)
	OpSampleC       // sample_c dst, addr, t, s, reference
	OpSampleCLz     // sample_c_lz: at level 0
	OpGather4       // gather4 dst, addr, t, s (the sampler's swizzle picks the channel)
	OpGather4C      // gather4_c dst, addr, t, s, reference
	OpGather4Po     // gather4_po dst, addr, offset, t, s
	OpGather4PoC    // gather4_po_c dst, addr, offset, t, s, reference
	OpLod           // lod dst, addr, t, s
	OpLdMS          // ld_ms dst, addr, t, sample
	OpBufinfo       // bufinfo dst, t
	OpSampleInfo    // sample_info dst, t
	OpLdUAVTyped    // ld_uav_typed dst, address, u#
	OpStoreUAVTyped // store_uav_typed u#, address, value (Dst the u#, all four lanes)
	// The atomics of a view's element (compute.go): Dst the u# (and, for
	// imm_atomic_*, first the temp that receives the old value), Src the
	// address and the value (cmp_store, cmp_exch: the comparand, then the
	// value).
	OpAtomicIadd
	OpAtomicAnd
	OpAtomicOr
	OpAtomicXor
	OpAtomicImax
	OpAtomicImin
	OpAtomicUmax
	OpAtomicUmin
	OpAtomicCmpStore
	OpImmAtomicIadd
	OpImmAtomicAnd
	OpImmAtomicOr
	OpImmAtomicXor
	OpImmAtomicImax
	OpImmAtomicImin
	OpImmAtomicUmax
	OpImmAtomicUmin
	OpImmAtomicExch
	OpImmAtomicCmpExch
	// Structured and byte-address buffers and groupshared memory
	// (buffers.go). The view (t#, u# or g#) is the last source of a load
	// and the destination of a store.
	OpLdRaw            // ld_raw dst, byte address, view
	OpStoreRaw         // store_raw view.mask, byte address, value
	OpLdStructured     // ld_structured dst, element, byte offset, view
	OpStoreStructured  // store_structured view.mask, element, byte offset, value
	OpSync             // sync (Instr.Sync: the _uglobal, _g and _t flags)
	OpImmAtomicAlloc   // imm_atomic_alloc dst, u#: IncrementCounter
	OpImmAtomicConsume // imm_atomic_consume dst, u#: DecrementCounter
	OpSamplePos        // samplepos dst, t# or rasterizer, index (samplepos.go)
	OpEmit             // emit (emit_stream m#: Instr.Stream; gs.go)
	OpCut              // cut (cut_stream m#)
	// Doubles (double.go): each writes one double in a pair of lanes (xy),
	// or, for the comparisons and dtof, one 32-bit lane from one.
	OpDadd
	OpDmul
	OpDmin
	OpDmax
	OpDmov
	OpDeq
	OpDge
	OpDlt
	OpDne
	OpDtof
	OpFtod
	OpDdiv // Direct3D 11.1's extended doubles
	OpDfma
	numOps
)

var opNames = [numOps]string{
	"nop", "mov", "movc", "add", "mul", "mad", "div", "dp2", "dp3", "dp4", "min", "max", "rsq", "sqrt", "exp", "log",
	"sincos", "frc", "round_ni", "round_pi", "round_z", "lt", "ge", "eq", "ne", "and", "or", "xor", "not",
	"itof", "ftoi", "utof", "ftou", "iadd", "imul", "ineg", "imin", "imax", "umin", "umax", "ilt", "ige", "ieq",
	"ine", "ult", "uge", "ishl", "ishr", "ushr", "udiv", "if", "else", "endif", "loop", "endloop", "break",
	"breakc", "continue", "ret", "discard", "sample", "sample_l", "ld", "sample_b", "sample_d", "resinfo",
	"switch", "case", "default", "endswitch", "round_ne", "countbits", "firstbit_hi", "firstbit_lo", "firstbit_shi", "bfrev",
	"f32tof16", "f16tof32", "deriv_rtx", "deriv_rty", "deriv_rtx_coarse", "deriv_rtx_fine", "deriv_rty_coarse", "deriv_rty_fine",
	"rcp", "sample_c", "sample_c_lz", "gather4", "gather4_c", "gather4_po", "gather4_po_c", "lod", "ldms", "bufinfo", "sampleinfo",
	"ld_uav_typed", "store_uav_typed",
	"atomic_iadd", "atomic_and", "atomic_or", "atomic_xor", "atomic_imax", "atomic_imin", "atomic_umax", "atomic_umin", "atomic_cmp_store",
	"imm_atomic_iadd", "imm_atomic_and", "imm_atomic_or", "imm_atomic_xor", "imm_atomic_imax", "imm_atomic_imin", "imm_atomic_umax",
	"imm_atomic_umin", "imm_atomic_exch", "imm_atomic_cmp_exch",
	"ld_raw", "store_raw", "ld_structured", "store_structured", "sync", "imm_atomic_alloc", "imm_atomic_consume",
	"samplepos", "emit", "cut",
	"dadd", "dmul", "dmin", "dmax", "dmov", "deq", "dge", "dlt", "dne", "dtof", "ftod", "ddiv", "dfma",
}

func (o Op) String() string {
	if o < numOps {
		return opNames[o]
	}
	return fmt.Sprintf("op(%d)", o)
}

// File is an operand's register file.
type File uint8

// The register files of SM4 that the front end uses.
const (
	FileNull      File = iota // null: a discarded destination (sincos's unused half)
	FileTemp                  // r#
	FileInput                 // v#
	FileOutput                // o#
	FileCB                    // cb#[n]
	FileImm                   // l(...)
	FileTex                   // t#
	FileSamp                  // s#
	FileIndexable             // x#[n]: an indexable temp array (Index the array, Elem the element, Rel a dynamic index)
	FileUAV                   // u#: an unordered access view (compute.go)
	FileTGSM                  // g#: groupshared memory (buffers.go)
)

// Operand is one source or destination of an instruction. For a source,
// Swz picks a component of the register for each of the four lanes; for a
// destination, Mask says which components are written (bit 0 = x).
type Operand struct {
	File  File
	Index int       // register number; for FileCB the buffer slot, for FileIndexable the array
	Elem  int       // FileCB: the 16-byte register inside the buffer; FileIndexable: the element
	Rel   *Operand  // FileCB, FileIndexable: a scalar temp added to Elem (dynamic indexing)
	Swz   [4]uint8  // source swizzle
	Mask  uint8     // destination write mask
	Imm   [4]uint32 // FileImm: the four lanes' bits
	Neg   bool      // source modifier -x
	Abs   bool      // source modifier |x|
	Float bool      // FileImm: print lanes as floats
}

// Test is the condition of if, breakc and discard: non-zero or zero.
type Test uint8

// Conditions of conditional instructions.
const (
	TestNZ Test = iota
	TestZ
)

// Instr is one IR instruction: Dst receive the result (two for sincos), Src
// are read. Sat is the _sat modifier of the result.
type Instr struct {
	Op   Op
	Sat  bool
	Test Test
	Uint bool // resinfo, sample_info: the _uint return type (else float)
	// Offs is an immediate texel offset (aoffimmi) of a sample, ld or
	// gather, when HasOffs is set.
	Offs    [3]int8
	HasOffs bool
	// Dim is the dimension of the texture a texture instruction reads:
	// how many address lanes it reads.
	Dim TexDim
	// Sync is a sync instruction's flags, as the token holds them
	// (1 _t, 2 _g, 8 _uglobal).
	Sync uint8
	// Stream is the stream an emit or cut of a geometry shader is for
	// (gs.go).
	Stream uint8
	// Unroll is what a loop's attributes ask: 1 unrolled ([unroll]), -1
	// kept a loop ([loop], [fastopt]), 0 the optimiser's choice
	// (opt_unroll.go).
	Unroll int8
	Dst    []Operand
	Src    []Operand
	Line   int // source line the instruction comes from
}

// Program is a lowered shader: declarations as fxc's disassembly lists
// them, then the instructions.
type Program struct {
	Target   string // vs_4_0, vs_5_0, ps_4_0, ps_5_0
	Stage    Stage
	Major    int
	Minor    int
	CBSizes  []CBDecl   // dcl_constantbuffer
	Samplers []SampDecl // dcl_sampler s#
	Textures []TexDecl  // dcl_resource_* t#
	UAVs     []TexDecl  // dcl_uav_typed_* u#
	Inputs   []IODecl
	Outputs  []IODecl
	Temps    int // dcl_temps
	// Indexables are the x# arrays (dcl_indexableTemp x#[Count], 4).
	Indexables []int
	Code       []Instr
	immFloats  bool
	// ThreadGroup is a compute shader's [numthreads] (dcl_thread_group).
	ThreadGroup [3]int
	// TGSM is a compute shader's groupshared memory: g# is TGSM[#], Count
	// elements of Stride bytes (dcl_tgsm_structured).
	TGSM []TGSMDecl
	// EarlyDepth: a pixel shader's [earlydepthstencil], the
	// forceEarlyDepthStencil global flag.
	EarlyDepth bool
	// Tess: a domain shader's tessellator domain, control points and
	// the special inputs it reads (domain.go).
	Tess *TessDecl
	// Hull: a hull shader's declarations and fork phase (hull.go); fork
	// marks the fork phase's program while it is encoded.
	Hull *HullDecl
	fork bool
	// GS: a geometry shader's declarations (gs.go).
	GS *GSDecl
}

// TGSMDecl declares groupshared memory g#: Count elements of Stride bytes.
type TGSMDecl struct{ Stride, Count int }

// TexDecl declares texture t<Slot>: its dimension and element type.
type TexDecl struct {
	Slot int
	Dim  TexDim
	Base Base
	// Buf: a structured (Stride bytes an element) or byte-address buffer
	// (buffers.go); Counter: a RWStructuredBuffer with its hidden counter.
	Buf     BufKind
	Stride  int
	Counter bool
	// Samples: a Texture2DMS<T, N>'s N, 0 when not given (msaa.go).
	Samples int
	ROV     bool // rasterizer ordered (the declaration's _rov)
}

// SampDecl declares sampler s<Slot>; Cmp is mode_comparison.
type SampDecl struct {
	Slot int
	Cmp  bool
}

// Stage is the pipeline stage a target compiles for.
type Stage uint8

// The stages.
const (
	Vertex Stage = iota
	Pixel
	Compute  // compute.go
	Domain   // domain.go
	Hull     // hull.go
	Geometry // gs.go
)

// CBDecl declares constant buffer Slot with Regs 16-byte registers; Dynamic
// is set when some access indexes it with a register.
type CBDecl struct {
	Slot    int
	Regs    int
	Dynamic bool
}

// IODecl declares an input or output register and its system value.
type IODecl struct {
	Reg    int
	Mask   uint8
	SysVal SysVal
	Interp string // pixel inputs: linear, constant, linear noperspective
}

func maskString(m uint8) string {
	var b strings.Builder
	for i := 0; i < 4; i++ {
		if m&(1<<i) != 0 {
			b.WriteByte("xyzw"[i])
		}
	}
	return b.String()
}

func (o Operand) srcString(n int) string {
	var s string
	switch o.File {
	case FileNull:
		return "null"
	case FileImm:
		var parts []string
		for i := 0; i < n; i++ {
			if o.Float {
				parts = append(parts, fmtFloat(math.Float32frombits(o.Imm[i])))
			} else {
				parts = append(parts, fmtInt(o.Imm[i]))
			}
		}
		s = "l(" + strings.Join(parts, ", ") + ")"
	case FileTemp:
		s = fmt.Sprintf("r%d", o.Index)
	case FileInput:
		s = fmt.Sprintf("v%d", o.Index)
		if o.Index == coverageReg {
			s = "vCoverage"
		}
	case FileOutput:
		s = fmt.Sprintf("o%d", o.Index)
	case FileTex:
		s = fmt.Sprintf("t%d", o.Index)
	case FileUAV:
		s = fmt.Sprintf("u%d", o.Index)
	case FileTGSM:
		s = fmt.Sprintf("g%d", o.Index)
	case FileSamp:
		return fmt.Sprintf("s%d", o.Index)
	case FileRasterizer:
		s = "rasterizer"
	case FileCB:
		if o.Rel != nil {
			s = fmt.Sprintf("cb%d[%s + %d]", o.Index, o.Rel.srcString(1), o.Elem)
		} else {
			s = fmt.Sprintf("cb%d[%d]", o.Index, o.Elem)
		}
	case FileIndexable:
		s = o.xName()
	}
	if o.File != FileImm {
		s += "." + swzString(o.Swz, n)
	}
	if o.Abs {
		s = "|" + s + "|"
	}
	if o.Neg {
		s = "-" + s
	}
	return s
}

func swzString(z [4]uint8, n int) string {
	if n <= 0 || n > 4 {
		n = 4
	}
	b := make([]byte, n)
	for i := 0; i < n; i++ {
		b[i] = "xyzw"[z[i]&3]
	}
	return string(b)
}

func fmtFloat(f float32) string {
	if f == float32(int32(f)) && math.Abs(float64(f)) < 1e7 {
		return fmt.Sprintf("%.6f", f)
	}
	return fmt.Sprintf("%g", f)
}

func fmtInt(u uint32) string {
	if int32(u) < 0 && int32(u) > -65536 {
		return fmt.Sprintf("%d", int32(u))
	}
	if u > 0xffff {
		return fmt.Sprintf("0x%08x", u)
	}
	return fmt.Sprintf("%d", u)
}

// xName is x#[n] or x#[r#.c + n].
func (o Operand) xName() string {
	if o.Rel != nil {
		return fmt.Sprintf("x%d[%s + %d]", o.Index, o.Rel.srcString(1), o.Elem)
	}
	return fmt.Sprintf("x%d[%d]", o.Index, o.Elem)
}

func (o Operand) dstString() string {
	switch o.File {
	case FileNull:
		return "null"
	case FileIndexable:
		return o.xName() + "." + maskString(o.Mask)
	case FileTemp:
		return fmt.Sprintf("r%d.%s", o.Index, maskString(o.Mask))
	case FileOutput:
		if s, ok := specialOutput(o.Index); ok {
			return s.name
		}
		return fmt.Sprintf("o%d.%s", o.Index, maskString(o.Mask))
	}
	return "?"
}

// lanes is how many source lanes the printer shows: as many as the widest
// destination mask reaches, as fxc prints them.
func (in *Instr) lanes() int {
	n := 0
	for _, d := range in.Dst {
		if d.File == FileNull {
			continue
		}
		c := 0
		for i := 0; i < 4; i++ {
			if d.Mask&(1<<i) != 0 {
				c++
			}
		}
		n = max(n, c)
	}
	return n
}

func (in *Instr) String() string {
	name := in.Op.String()
	switch in.Op {
	case OpIf, OpBreakc, OpDiscard:
		if in.Test == TestZ {
			name += "_z"
		} else {
			name += "_nz"
		}
	}
	if in.Op == OpResinfo && in.Uint {
		name += "_uint"
	}
	if in.Sat {
		name += "_sat"
	}
	var parts []string
	for _, d := range in.Dst {
		parts = append(parts, d.dstString())
	}
	n := in.lanes()
	for i, s := range in.Src {
		k := n
		switch {
		case in.Op == OpIf || in.Op == OpBreakc || in.Op == OpDiscard || in.Op == OpSwitch || in.Op == OpCase:
			k = 1
		case in.Op == OpDp2 || in.Op == OpDp3 || in.Op == OpDp4:
			k = int(in.Op-OpDp2) + 2
		case in.Op == OpResinfo && i == 0:
			k = 1
		case (texOp(in.Op)) && (i == 0 || i == 1):
			k = 4
		case (in.Op == OpSampleL || in.Op == OpSampleB) && i == 3:
			k = 1
		case in.Op == OpSampleD && i >= 3:
			k = 4
		}
		parts = append(parts, s.srcString(k))
	}
	if len(parts) == 0 {
		return name
	}
	return name + " " + strings.Join(parts, ", ")
}

// String prints the program in the style of fxc's disassembly.
func (p *Program) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", p.Target)
	for _, c := range p.CBSizes {
		kind := "immediateIndexed"
		if c.Dynamic {
			kind = "dynamicIndexed"
		}
		fmt.Fprintf(&b, "dcl_constantbuffer cb%d[%d], %s\n", c.Slot, c.Regs, kind)
	}
	for _, s := range p.Samplers {
		mode := "mode_default"
		if s.Cmp {
			mode = "mode_comparison"
		}
		fmt.Fprintf(&b, "dcl_sampler s%d, %s\n", s.Slot, mode)
	}
	for _, t := range p.Textures {
		r := retName(t.Base)
		fmt.Fprintf(&b, "dcl_resource_%s (%s,%s,%s,%s) t%d\n", strings.ToLower(t.Dim.String()), r, r, r, r, t.Slot)
	}
	for _, in := range p.Inputs {
		switch {
		case p.Stage == Pixel && in.SysVal == SysPosition:
			fmt.Fprintf(&b, "dcl_input_ps_siv linear noperspective v%d.%s, position\n", in.Reg, maskString(in.Mask))
		case p.Stage == Pixel && in.SysVal == SysFrontFace:
			fmt.Fprintf(&b, "dcl_input_ps_sgv constant v%d.%s, is_front_face\n", in.Reg, maskString(in.Mask))
		case p.Stage == Pixel && in.SysVal == SysSampleIndex:
			fmt.Fprintf(&b, "dcl_input_ps_sgv constant v%d.%s, sampleIndex\n", in.Reg, maskString(in.Mask))
		case in.SysVal == SysCoverage:
			b.WriteString("dcl_input vCoverage\n")
		case p.Stage == Pixel:
			fmt.Fprintf(&b, "dcl_input_ps %s v%d.%s\n", in.Interp, in.Reg, maskString(in.Mask))
		case in.SysVal == SysVertexID:
			fmt.Fprintf(&b, "dcl_input_sgv v%d.%s, vertex_id\n", in.Reg, maskString(in.Mask))
		case in.SysVal == SysInstanceID:
			fmt.Fprintf(&b, "dcl_input_sgv v%d.%s, instance_id\n", in.Reg, maskString(in.Mask))
		default:
			fmt.Fprintf(&b, "dcl_input v%d.%s\n", in.Reg, maskString(in.Mask))
		}
	}
	for _, o := range p.Outputs {
		if o.SysVal == SysPosition {
			fmt.Fprintf(&b, "dcl_output_siv o%d.%s, position\n", o.Reg, maskString(o.Mask))
		} else if s, ok := specialOutput(o.Reg); ok && s.sv == o.SysVal {
			b.WriteString("dcl_output " + s.name + "\n")
		} else {
			fmt.Fprintf(&b, "dcl_output o%d.%s\n", o.Reg, maskString(o.Mask))
		}
	}
	if p.Temps > 0 {
		fmt.Fprintf(&b, "dcl_temps %d\n", p.Temps)
	}
	for i, n := range p.Indexables {
		fmt.Fprintf(&b, "dcl_indexableTemp x%d[%d], 4\n", i, n)
	}
	depth := 0
	for i := range p.Code {
		in := &p.Code[i]
		if in.Op == OpElse || in.Op == OpEndif || in.Op == OpEndloop || in.Op == OpEndswitch || in.Op == OpCase || in.Op == OpDefault {
			depth--
		}
		b.WriteString(strings.Repeat("  ", max(depth, 0)))
		b.WriteString(in.String())
		b.WriteByte('\n')
		if in.Op == OpIf || in.Op == OpElse || in.Op == OpLoop || in.Op == OpSwitch || in.Op == OpCase || in.Op == OpDefault {
			depth++
		}
	}
	return b.String()
}

// texOp reports the texture instructions.
func texOp(o Op) bool {
	t, _ := resPos(o)
	return t >= 0
}

// resPos is where an instruction's texture and sampler operands are among
// its sources (-1: none).
func resPos(o Op) (tex, samp int) {
	switch o {
	case OpSample, OpSampleL, OpSampleB, OpSampleD, OpSampleC, OpSampleCLz, OpGather4, OpGather4C, OpLod:
		return 1, 2
	case OpGather4Po, OpGather4PoC:
		return 2, 3
	case OpLd, OpResinfo, OpLdMS:
		return 1, -1
	case OpBufinfo, OpSampleInfo, OpSamplePos:
		return 0, -1
	}
	return -1, -1
}

func retName(b Base) string {
	switch b {
	case Int:
		return "sint"
	case Uint:
		return "uint"
	}
	return "float"
}
