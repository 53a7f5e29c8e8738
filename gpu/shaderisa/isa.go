package shaderisa

import "fmt"

// Magic is the first word of an encoded program ("GSH0" little-endian).
const Magic = 0x30485347

// Version is the encoding's version: a program without an immediate
// constant buffer is written in it, as every program was before there was
// one. VersionICB adds a fifth header word, the immediate constant
// buffer's length in vec4s, and its data between the header and the code.
// Decode accepts both.
const (
	Version    = 1
	VersionICB = 2
)

// HeaderInterp is a bit of the header's second word: the program is a
// pixel program whose inputs are not all interpolated with perspective,
// and two words of interpolation modes follow the header's first four (2
// bits per input, v0 in the low bits of the first), before the immediate
// constant buffer's.
const HeaderInterp = 1 << 24

// Interp is how the rasterizer gives a pixel program's input register its
// value ("Interpolation Modifiers" of HLSL's variable syntax; dcl_input_ps's
// mode): the program runs once a pixel, at its centre, so a sample input
// is interpolated as its mode without it, and a linear centroid one
// (InterpCentroid) differs only at a multisampled target's partly covered
// pixels.
type Interp uint8

const (
	// InterpPerspective: perspective-correct across the primitive (linear).
	InterpPerspective Interp = iota
	// InterpNoPerspective: linear in screen space (noperspective).
	InterpNoPerspective
	// InterpConstant: the provoking vertex's value, bit for bit
	// (nointerpolation; every integer input). Direct3D 11's provoking
	// vertex is the primitive's first.
	InterpConstant
	// InterpCentroid: perspective-correct at the centroid (linear
	// centroid): on a multisampled target, a partly covered pixel's first
	// covered sample in the pattern's order; the pixel's centre otherwise,
	// as InterpPerspective.
	InterpCentroid
	numInterps
)

func (m Interp) String() string {
	switch m {
	case InterpPerspective:
		return "linear"
	case InterpNoPerspective:
		return "linear noperspective"
	case InterpConstant:
		return "constant"
	case InterpCentroid:
		return "linear centroid"
	}
	return fmt.Sprintf("interp(%d)", uint8(m))
}

// HeaderWords is the length of the header in front of the code (Version;
// VersionICB's is one word longer, HeaderInterp's two; HeaderLen says).
const HeaderWords = 4

// Limits of the machine, checked by Decode.
const (
	MaxInputs    = 32
	MaxOutputs   = 32
	MaxTemps     = 256
	MaxTextures  = 128 // t0..t127, as D3D11's shader-resource slots
	MaxSamplers  = 16  // s0..s15
	MaxCBSlots   = 14  // cb0..cb13
	MaxCBIndex   = 4096
	MaxNesting   = 64 // if and loop constructs open at once
	MaxCode      = 1 << 16
	MaxICB       = 4096 // immediate constant buffer elements (D3D11's limit)
	MaxLabels    = 4096 // subroutine labels l0..l4095
	MaxCallDepth = 32   // nested calls, as shader model 4 and 5 allow
	// The compute stage's: unordered access views u0..u7 (D3D11's CS
	// slots at feature level 11_0), groupshared declarations g0..g63 and
	// their total size (D3D11_CS_TGSM_REGISTER_COUNT's 8192 words), and
	// the thread group's limits (D3D11_CS_THREAD_GROUP_MAX_*).
	MaxUAVs          = 8
	MaxTGSM          = 64
	MaxTGSMBytes     = 32768
	MaxGroupThreads  = 1024
	MaxGroupThreadsZ = 64
)

// Stage is the pipeline stage a program is written for.
type Stage uint8

const (
	StageVertex Stage = iota
	StagePixel
	// StageCompute programs run per thread of a Dispatch's thread groups:
	// their inputs are v0 SV_DispatchThreadID, v1 SV_GroupID, v2
	// SV_GroupThreadID and v3.x SV_GroupIndex (ComputeInputs), their size
	// is the program's dcl_thread_group.
	StageCompute
	// StageGeometry programs run once per input primitive (and GS
	// instance): their inputs are the primitive's vertices, vertex n's
	// register r at v(n*stride + r), then v(n*stride...) the primitive's
	// SV_PrimitiveID and SV_GSInstanceID in .x (GSDecl); emit and cut
	// build the output strips from the o# registers.
	StageGeometry
	// StageHull programs run per patch in two phases (HSDecl): once per
	// output control point, then once for the patch constants.
	StageHull
	// StageDomain programs run once per domain point the tessellator
	// makes (DSDecl).
	StageDomain
	numStages
)

// ComputeInputs is a compute program's input count: the four thread
// identifiers the GPU fills (v0..v3).
const ComputeInputs = 4

func (s Stage) String() string {
	switch s {
	case StageVertex:
		return "vs"
	case StagePixel:
		return "ps"
	case StageCompute:
		return "cs"
	case StageGeometry:
		return "gs"
	case StageHull:
		return "hs"
	case StageDomain:
		return "ds"
	}
	return fmt.Sprintf("stage(%d)", uint8(s))
}

// File is an operand's register file.
type File uint8

const (
	FileNone    File = iota
	FileTemp         // r#: vec4 temporaries
	FileInput        // v#: inputs (vertex attributes, interpolated values)
	FileOutput       // o#: outputs (vertex outputs, render-target colours)
	FileCB           // cb#[n]: a constant buffer element
	FileImm          // l(x, y, z, w): an immediate vec4
	FileTex          // t#: a texture
	FileSampler      // s#: a sampler
	FileICB          // icb[r#.c + n]: the program's immediate constant buffer, indexed per lane
	FileUAV          // u#: an unordered access view (compute stage)
	FileTGSM         // g#: a groupshared declaration (compute stage)
	numFiles
)

var filePrefix = [numFiles]string{"", "r", "v", "o", "cb", "l", "t", "s", "icb", "u", "g"}

// Kind says how an op reads its operands, for the source modifiers: float
// ops negate and take the absolute value of floats, integer ops of
// two's-complement integers.
type Kind uint8

const (
	KindFloat Kind = iota
	KindInt
	KindFlow
	KindTex
	// KindDouble ops read and write doubles in pairs of components (xy
	// and zw, low word first): a modifier negates or takes the absolute
	// value of the double, the high word's sign.
	KindDouble
)

// Op is an instruction's opcode.
type Op uint8

const (
	OpNop Op = iota
	OpMov
	OpMovc // dst = src0 != 0 ? src1 : src2, per component (bits)
	OpAdd
	OpMul
	OpMad // src0*src1 + src2, rounded after the product (never fused)
	OpDiv
	OpDp2
	OpDp3
	OpDp4
	OpMin
	OpMax
	OpRcp
	OpRsq
	OpSqrt
	OpExp2
	OpLog2
	OpSin
	OpCos
	OpFrc
	OpFloor
	OpCeil
	OpRoundNE
	OpTrunc
	OpLt // float compares give 0xFFFFFFFF or 0
	OpGe
	OpEq
	OpNe
	OpIAdd
	OpIMul
	OpIShl
	OpIShr
	OpUShr
	OpAnd
	OpOr
	OpXor
	OpNot
	OpINeg
	OpILt
	OpIGe
	OpIEq
	OpINe
	OpULt
	OpUGe
	OpIToF
	OpUToF
	OpFToI
	OpFToU
	OpIMin
	OpIMax
	OpUMin
	OpUMax
	OpUDiv
	OpURem
	OpIf // if_z / if_nz src.c
	OpElse
	OpEndIf
	OpLoop
	OpEndLoop
	OpBreak
	OpBreakc // breakc_z / breakc_nz src.c
	OpContinue
	OpContinuec
	OpRet
	OpRetc
	OpDiscard // discard_z / discard_nz src.c (pixel stage)
	OpSample  // sample dst, coord, t#, s# (pixel stage: derivatives of the quad)
	OpSampleL // sample_l dst, coord, t#, s#, lod
	OpLd      // ld dst, icoord (xy, mip in w), t#
	OpDerivX  // deriv_rtx: coarse, one value per quad
	OpDerivY
	OpDerivXFine // one value per quad row
	OpDerivYFine // one value per quad column
	OpSampleD    // sample_d dst, coord, t#, s#, ddx, ddy (gradients of u, v in .xy)
	OpSampleB    // sample_b dst, coord, t#, s#, bias (pixel stage)
	OpResInfo    // resinfo dst, mip, t#: dimensions as floats
	OpResInfoUint
	OpResInfoRcp // resinfo_rcpfloat: 1/width, 1/height, 1/depth
	// Bit operations of shader model 5, as the Direct3D 11.3 functional
	// specification defines them.
	OpUBfe        // ubfe dst, width, offset, value: the field, zero-extended
	OpIBfe        // ibfe: the field, sign-extended
	OpBfi         // bfi dst, width, offset, insert, base
	OpBfrev       // the bits reversed
	OpCountbits   // the bits set
	OpFirstbitHi  // the first set bit from the top, counted from bit 31 (0xFFFFFFFF for 0)
	OpFirstbitLo  // the first set bit from bit 0 (0xFFFFFFFF for 0)
	OpFirstbitShi // the first bit from the top that differs from the sign (0xFFFFFFFF for 0 and -1)
	OpUAddc       // the carry of a + b: 1 or 0
	OpUSubb       // the borrow of a - b: 1 or 0
	OpUMulHi      // the high 32 bits of the unsigned 64-bit product
	OpIMulHi      // the high 32 bits of the signed 64-bit product
	OpF16ToF32    // the low 16 bits as a half, to float
	OpF32ToF16    // float to half bits in the low 16 (round to nearest even), the high 16 zero
	// Doubles: components xy and zw each hold one (low word in x or z).
	// Double results take a mask of whole pairs; deq..dne and dtof write
	// 32-bit components x and y from the source's doubles 0 and 1.
	OpDAdd
	OpDMul
	OpDMin
	OpDMax
	OpDEq
	OpDGe
	OpDLt
	OpDNe
	OpDMov
	OpDMovc // dmovc dst, cond, a, b: cond component k picks double k
	OpDToF
	OpFToD // ftod dst, src: double k from src component k
	// Subroutines: call and callc jump to their label and come back at its
	// ret; a ret inside a subroutine returns from it.
	OpCall
	OpCallc
	OpLabel
	// The texture unit's other queries. sample_c and sample_c_lz compare
	// each texel with the reference before filtering (a comparison
	// sampler); gather4 returns one channel (Inst.Channel) of the four
	// texels of a bilinear footprint at the view's most detailed level,
	// gather4_c their comparisons, the _po forms with a per-lane offset;
	// lod is CalculateLevelOfDetail (clamped, unclamped); bufinfo a buffer
	// view's element count; ld_raw and ld_structured read words of raw and
	// structured buffers. Immediate texel offsets (Inst.Offset) apply to
	// sample*, ld and gather4 (not _po).
	OpSampleC      // sample_c dst, coord, t#, s#, ref (pixel stage)
	OpSampleCLZ    // sample_c_lz dst, coord, t#, s#, ref: level 0
	OpGather4      // gather4 dst, coord, t#, s#
	OpGather4C     // gather4_c dst, coord, t#, s#, ref
	OpGather4PO    // gather4_po dst, coord, t#, s#, offset (xy: texels)
	OpGather4POC   // gather4_po_c dst, coord, t#, s#, offset, ref
	OpLod          // lod dst, coord, t#, s# (pixel stage)
	OpBufInfo      // bufinfo dst, t# (or u#): the element count (a raw view's bytes), in every component
	OpLdRaw        // ld_raw dst, byteOffset, t#
	OpLdStructured // ld_structured dst, index, byteOffset, t# (or u#, g#)
	// The compute stage ("Shader Model 5 Assembly"). Declarations are
	// instructions that do nothing when run: dcl_thread_group l(x, y, z,
	// 0), exactly one per compute program; dcl_tgsm g#, l(bytes, stride,
	// 0, 0) (stride 0: raw). sync is GroupMemoryBarrierWithGroupSync: every
	// thread of the group reaches it before any goes on. Stores and the
	// atomics without a result name the view or groupshared memory as
	// their destination (its mask: the words written); the imm_ atomics
	// return the value before the operation. Addresses: typed views the
	// integer coordinates, raw a byte offset (.x), structured the index
	// (.x) and byte offset (.y) -- ld_structured and store_structured take
	// them as two sources, as SM5 does.
	OpDclThreadGroup // dcl_thread_group l(x, y, z, 0)
	OpDclTGSM        // dcl_tgsm g#, l(bytes, stride, 0, 0)
	OpSync           // sync_g_t
	OpLdUAVTyped     // ld_uav_typed dst, coord, u#
	OpStoreUAVTyped  // store_uav_typed u#, coord, value
	OpStoreRaw       // store_raw u#|g#, byteOffset, value
	OpStoreStructured
	OpAtomicAnd // atomic_and u#|g#, address, value
	OpAtomicOr
	OpAtomicXor
	OpAtomicCmpStore // atomic_cmp_store u#|g#, address, compare, value
	OpAtomicIAdd
	OpAtomicIMax
	OpAtomicIMin
	OpAtomicUMax
	OpAtomicUMin
	OpImmAtomicAlloc   // imm_atomic_alloc dst, u#: the hidden counter, then incremented
	OpImmAtomicConsume // imm_atomic_consume dst, u#: the counter decremented, then read
	OpImmAtomicIAdd    // imm_atomic_iadd dst, u#|g#, address, value
	OpImmAtomicAnd
	OpImmAtomicOr
	OpImmAtomicXor
	OpImmAtomicExch
	OpImmAtomicCmpExch // imm_atomic_cmp_exch dst, u#|g#, address, compare, value
	OpImmAtomicIMax
	OpImmAtomicIMin
	OpImmAtomicUMax
	OpImmAtomicUMin
	// The geometry stage ("Geometry-Shader Stage"): dcl_gs l(input
	// primitive | instances<<8, output topology, max vertices, stride),
	// exactly one per geometry program (GSDecl); emit hands the o#
	// registers of the active lanes to the stage as one vertex of the
	// current strip, cut ends the strip.
	OpDclGS
	OpEmit
	OpCut
	// The hull and domain stages (tess.go): dcl_hs and dcl_ds, exactly one
	// per hull or domain program.
	OpDclHS
	OpDclDS
	// sampleinfo dst, t#: the bound view's samples a pixel, an integer, in
	// .x (1 for a view of one sample, 0 for an unbound slot), 0 in .yzw:
	// the count comes from the view (SET_VIEW's), not the program, as
	// Direct3D 11 reads Texture2DMS's count from the bound resource.
	OpSampleInfo
	numOps
)

// NumOps is the number of opcodes: every Op below it is defined.
const NumOps = int(numOps)

// Arg is the class of a source operand in the op table: the register
// files it may name.
type Arg uint8

const (
	ArgReg  Arg = iota // r, v, cb, l
	ArgTex             // t#
	ArgSmp             // s#
	ArgRes             // t#, u# or g#: what ld_raw and ld_structured read
	ArgUAV             // u#
	ArgMem             // u# or g#: what an atomic changes
	ArgTGSM            // g#
	ArgImm             // l(): a declaration's values
)

const (
	argReg = ArgReg
	argTex = ArgTex
	argSmp = ArgSmp
	argRes = ArgRes
	argUAV = ArgUAV
	argMem = ArgMem
)

// opInfo describes an opcode for the decoder, assembler and executor.
type opInfo struct {
	name string
	dst  bool
	srcs []Arg
	kind Kind
	test bool // has a _z/_nz condition
	ps   bool // pixel stage only
	cs   bool // compute stage only
	gs   bool // geometry stage only
	hs   bool // hull stage only
	ds   bool // domain stage only
	// mem: the destination is a view or groupshared memory (u#, or g#
	// unless uavOnly), not a register.
	mem, uavOnly bool
}

var (
	r4 = []Arg{argReg, argReg, argReg, argReg}
	r1 = []Arg{argReg}
	r2 = []Arg{argReg, argReg}
	r3 = []Arg{argReg, argReg, argReg}
)

var ops = [numOps]opInfo{
	OpNop:          {name: "nop", kind: KindFlow},
	OpMov:          {name: "mov", dst: true, srcs: r1},
	OpMovc:         {name: "movc", dst: true, srcs: r3},
	OpAdd:          {name: "add", dst: true, srcs: r2},
	OpMul:          {name: "mul", dst: true, srcs: r2},
	OpMad:          {name: "mad", dst: true, srcs: r3},
	OpDiv:          {name: "div", dst: true, srcs: r2},
	OpDp2:          {name: "dp2", dst: true, srcs: r2},
	OpDp3:          {name: "dp3", dst: true, srcs: r2},
	OpDp4:          {name: "dp4", dst: true, srcs: r2},
	OpMin:          {name: "min", dst: true, srcs: r2},
	OpMax:          {name: "max", dst: true, srcs: r2},
	OpRcp:          {name: "rcp", dst: true, srcs: r1},
	OpRsq:          {name: "rsq", dst: true, srcs: r1},
	OpSqrt:         {name: "sqrt", dst: true, srcs: r1},
	OpExp2:         {name: "exp2", dst: true, srcs: r1},
	OpLog2:         {name: "log2", dst: true, srcs: r1},
	OpSin:          {name: "sin", dst: true, srcs: r1},
	OpCos:          {name: "cos", dst: true, srcs: r1},
	OpFrc:          {name: "frc", dst: true, srcs: r1},
	OpFloor:        {name: "floor", dst: true, srcs: r1},
	OpCeil:         {name: "ceil", dst: true, srcs: r1},
	OpRoundNE:      {name: "round_ne", dst: true, srcs: r1},
	OpTrunc:        {name: "trunc", dst: true, srcs: r1},
	OpLt:           {name: "lt", dst: true, srcs: r2},
	OpGe:           {name: "ge", dst: true, srcs: r2},
	OpEq:           {name: "eq", dst: true, srcs: r2},
	OpNe:           {name: "ne", dst: true, srcs: r2},
	OpIAdd:         {name: "iadd", dst: true, srcs: r2, kind: KindInt},
	OpIMul:         {name: "imul", dst: true, srcs: r2, kind: KindInt},
	OpIShl:         {name: "ishl", dst: true, srcs: r2, kind: KindInt},
	OpIShr:         {name: "ishr", dst: true, srcs: r2, kind: KindInt},
	OpUShr:         {name: "ushr", dst: true, srcs: r2, kind: KindInt},
	OpAnd:          {name: "and", dst: true, srcs: r2, kind: KindInt},
	OpOr:           {name: "or", dst: true, srcs: r2, kind: KindInt},
	OpXor:          {name: "xor", dst: true, srcs: r2, kind: KindInt},
	OpNot:          {name: "not", dst: true, srcs: r1, kind: KindInt},
	OpINeg:         {name: "ineg", dst: true, srcs: r1, kind: KindInt},
	OpILt:          {name: "ilt", dst: true, srcs: r2, kind: KindInt},
	OpIGe:          {name: "ige", dst: true, srcs: r2, kind: KindInt},
	OpIEq:          {name: "ieq", dst: true, srcs: r2, kind: KindInt},
	OpINe:          {name: "ine", dst: true, srcs: r2, kind: KindInt},
	OpULt:          {name: "ult", dst: true, srcs: r2, kind: KindInt},
	OpUGe:          {name: "uge", dst: true, srcs: r2, kind: KindInt},
	OpIToF:         {name: "itof", dst: true, srcs: r1, kind: KindInt},
	OpUToF:         {name: "utof", dst: true, srcs: r1, kind: KindInt},
	OpFToI:         {name: "ftoi", dst: true, srcs: r1},
	OpFToU:         {name: "ftou", dst: true, srcs: r1},
	OpIMin:         {name: "imin", dst: true, srcs: r2, kind: KindInt},
	OpIMax:         {name: "imax", dst: true, srcs: r2, kind: KindInt},
	OpUMin:         {name: "umin", dst: true, srcs: r2, kind: KindInt},
	OpUMax:         {name: "umax", dst: true, srcs: r2, kind: KindInt},
	OpUDiv:         {name: "udiv", dst: true, srcs: r2, kind: KindInt},
	OpURem:         {name: "urem", dst: true, srcs: r2, kind: KindInt},
	OpIf:           {name: "if", srcs: r1, kind: KindFlow, test: true},
	OpElse:         {name: "else", kind: KindFlow},
	OpEndIf:        {name: "endif", kind: KindFlow},
	OpLoop:         {name: "loop", kind: KindFlow},
	OpEndLoop:      {name: "endloop", kind: KindFlow},
	OpBreak:        {name: "break", kind: KindFlow},
	OpBreakc:       {name: "breakc", srcs: r1, kind: KindFlow, test: true},
	OpContinue:     {name: "continue", kind: KindFlow},
	OpContinuec:    {name: "continuec", srcs: r1, kind: KindFlow, test: true},
	OpRet:          {name: "ret", kind: KindFlow},
	OpRetc:         {name: "retc", srcs: r1, kind: KindFlow, test: true},
	OpDiscard:      {name: "discard", srcs: r1, kind: KindFlow, test: true, ps: true},
	OpSample:       {name: "sample", dst: true, srcs: []Arg{argReg, argTex, argSmp}, kind: KindTex, ps: true},
	OpSampleL:      {name: "sample_l", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex},
	OpLd:           {name: "ld", dst: true, srcs: []Arg{argReg, argTex}, kind: KindTex},
	OpDerivX:       {name: "deriv_rtx", dst: true, srcs: r1, ps: true},
	OpDerivY:       {name: "deriv_rty", dst: true, srcs: r1, ps: true},
	OpDerivXFine:   {name: "deriv_rtx_fine", dst: true, srcs: r1, ps: true},
	OpDerivYFine:   {name: "deriv_rty_fine", dst: true, srcs: r1, ps: true},
	OpSampleD:      {name: "sample_d", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg, argReg}, kind: KindTex},
	OpSampleB:      {name: "sample_b", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex, ps: true},
	OpResInfo:      {name: "resinfo", dst: true, srcs: []Arg{argReg, argRes}, kind: KindTex},
	OpResInfoUint:  {name: "resinfo_uint", dst: true, srcs: []Arg{argReg, argRes}, kind: KindTex},
	OpResInfoRcp:   {name: "resinfo_rcpfloat", dst: true, srcs: []Arg{argReg, argRes}, kind: KindTex},
	OpUBfe:         {name: "ubfe", dst: true, srcs: r3, kind: KindInt},
	OpIBfe:         {name: "ibfe", dst: true, srcs: r3, kind: KindInt},
	OpBfi:          {name: "bfi", dst: true, srcs: r4, kind: KindInt},
	OpBfrev:        {name: "bfrev", dst: true, srcs: r1, kind: KindInt},
	OpCountbits:    {name: "countbits", dst: true, srcs: r1, kind: KindInt},
	OpFirstbitHi:   {name: "firstbit_hi", dst: true, srcs: r1, kind: KindInt},
	OpFirstbitLo:   {name: "firstbit_lo", dst: true, srcs: r1, kind: KindInt},
	OpFirstbitShi:  {name: "firstbit_shi", dst: true, srcs: r1, kind: KindInt},
	OpUAddc:        {name: "uaddc", dst: true, srcs: r2, kind: KindInt},
	OpUSubb:        {name: "usubb", dst: true, srcs: r2, kind: KindInt},
	OpUMulHi:       {name: "umul_hi", dst: true, srcs: r2, kind: KindInt},
	OpIMulHi:       {name: "imul_hi", dst: true, srcs: r2, kind: KindInt},
	OpF16ToF32:     {name: "f16tof32", dst: true, srcs: r1, kind: KindInt},
	OpF32ToF16:     {name: "f32tof16", dst: true, srcs: r1},
	OpDAdd:         {name: "dadd", dst: true, srcs: r2, kind: KindDouble},
	OpDMul:         {name: "dmul", dst: true, srcs: r2, kind: KindDouble},
	OpDMin:         {name: "dmin", dst: true, srcs: r2, kind: KindDouble},
	OpDMax:         {name: "dmax", dst: true, srcs: r2, kind: KindDouble},
	OpDEq:          {name: "deq", dst: true, srcs: r2, kind: KindDouble},
	OpDGe:          {name: "dge", dst: true, srcs: r2, kind: KindDouble},
	OpDLt:          {name: "dlt", dst: true, srcs: r2, kind: KindDouble},
	OpDNe:          {name: "dne", dst: true, srcs: r2, kind: KindDouble},
	OpDMov:         {name: "dmov", dst: true, srcs: r1, kind: KindDouble},
	OpDMovc:        {name: "dmovc", dst: true, srcs: r3, kind: KindDouble},
	OpDToF:         {name: "dtof", dst: true, srcs: r1, kind: KindDouble},
	OpFToD:         {name: "ftod", dst: true, srcs: r1},
	OpCall:         {name: "call", kind: KindFlow},
	OpCallc:        {name: "callc", srcs: r1, kind: KindFlow, test: true},
	OpLabel:        {name: "label", kind: KindFlow},
	OpSampleC:      {name: "sample_c", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex, ps: true},
	OpSampleCLZ:    {name: "sample_c_lz", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex},
	OpGather4:      {name: "gather4", dst: true, srcs: []Arg{argReg, argTex, argSmp}, kind: KindTex},
	OpGather4C:     {name: "gather4_c", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex},
	OpGather4PO:    {name: "gather4_po", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg}, kind: KindTex},
	OpGather4POC:   {name: "gather4_po_c", dst: true, srcs: []Arg{argReg, argTex, argSmp, argReg, argReg}, kind: KindTex},
	OpLod:          {name: "lod", dst: true, srcs: []Arg{argReg, argTex, argSmp}, kind: KindTex, ps: true},
	OpBufInfo:      {name: "bufinfo", dst: true, srcs: []Arg{argRes}, kind: KindTex},
	OpLdRaw:        {name: "ld_raw", dst: true, srcs: []Arg{argReg, argRes}, kind: KindTex},
	OpLdStructured: {name: "ld_structured", dst: true, srcs: []Arg{argReg, argReg, argRes}, kind: KindTex},

	OpDclThreadGroup:   {name: "dcl_thread_group", srcs: []Arg{ArgImm}, kind: KindFlow, cs: true},
	OpDclTGSM:          {name: "dcl_tgsm", srcs: []Arg{ArgTGSM, ArgImm}, kind: KindFlow, cs: true},
	OpSync:             {name: "sync_g_t", kind: KindFlow, cs: true},
	OpLdUAVTyped:       {name: "ld_uav_typed", dst: true, srcs: []Arg{argReg, argUAV}, kind: KindInt, cs: true},
	OpStoreUAVTyped:    {name: "store_uav_typed", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true, uavOnly: true},
	OpStoreRaw:         {name: "store_raw", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpStoreStructured:  {name: "store_structured", dst: true, srcs: r3, kind: KindInt, cs: true, mem: true},
	OpAtomicAnd:        {name: "atomic_and", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicOr:         {name: "atomic_or", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicXor:        {name: "atomic_xor", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicCmpStore:   {name: "atomic_cmp_store", dst: true, srcs: r3, kind: KindInt, cs: true, mem: true},
	OpAtomicIAdd:       {name: "atomic_iadd", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicIMax:       {name: "atomic_imax", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicIMin:       {name: "atomic_imin", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicUMax:       {name: "atomic_umax", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpAtomicUMin:       {name: "atomic_umin", dst: true, srcs: r2, kind: KindInt, cs: true, mem: true},
	OpImmAtomicAlloc:   {name: "imm_atomic_alloc", dst: true, srcs: []Arg{argUAV}, kind: KindInt, cs: true},
	OpImmAtomicConsume: {name: "imm_atomic_consume", dst: true, srcs: []Arg{argUAV}, kind: KindInt, cs: true},
	OpImmAtomicIAdd:    {name: "imm_atomic_iadd", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicAnd:     {name: "imm_atomic_and", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicOr:      {name: "imm_atomic_or", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicXor:     {name: "imm_atomic_xor", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicExch:    {name: "imm_atomic_exch", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicCmpExch: {name: "imm_atomic_cmp_exch", dst: true, srcs: []Arg{argMem, argReg, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicIMax:    {name: "imm_atomic_imax", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicIMin:    {name: "imm_atomic_imin", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicUMax:    {name: "imm_atomic_umax", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},
	OpImmAtomicUMin:    {name: "imm_atomic_umin", dst: true, srcs: []Arg{argMem, argReg, argReg}, kind: KindInt, cs: true},

	OpDclGS: {name: "dcl_gs", srcs: []Arg{ArgImm}, kind: KindFlow, gs: true},
	OpEmit:  {name: "emit", kind: KindFlow, gs: true},
	OpCut:   {name: "cut", kind: KindFlow, gs: true},
	OpDclHS: {name: "dcl_hs", srcs: []Arg{ArgImm}, kind: KindFlow, hs: true},
	OpDclDS: {name: "dcl_ds", srcs: []Arg{ArgImm}, kind: KindFlow, ds: true},

	OpSampleInfo: {name: "sampleinfo", dst: true, srcs: []Arg{argTex}, kind: KindTex},
}

// GeometryOnly reports whether the op exists in geometry programs only.
func (o Op) GeometryOnly() bool { return o < numOps && ops[o].gs }

// MemDst reports whether the op's destination is a view or groupshared
// memory (stores, atomics without a result) rather than a register.
func (o Op) MemDst() bool { return o < numOps && ops[o].mem }

// ComputeOnly reports whether the op exists in compute programs only.
func (o Op) ComputeOnly() bool { return o < numOps && ops[o].cs }

func (o Op) String() string {
	if o < numOps {
		return ops[o].name
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// What the op table says of an opcode, for the executor and the tools
// around the ISA (an Op at or past NumOps has nothing: no destination,
// no sources).

// HasDst reports whether the op writes a destination operand.
func (o Op) HasDst() bool { return o < numOps && ops[o].dst }

// Srcs returns the classes of the op's source operands, in order; the
// slice is shared and must not be modified.
func (o Op) Srcs() []Arg {
	if o < numOps {
		return ops[o].srcs
	}
	return nil
}

// Kind returns how the op reads its operands (float or integer
// modifiers), or whether it is control flow or a texture op.
func (o Op) Kind() Kind {
	if o < numOps {
		return ops[o].kind
	}
	return KindFlow
}

// HasTest reports whether the op tests one component with _z or _nz.
func (o Op) HasTest() bool { return o < numOps && ops[o].test }

// PixelOnly reports whether the op exists in pixel programs only
// (derivatives, implicit-derivative sampling, discard).
func (o Op) PixelOnly() bool { return o < numOps && ops[o].ps }

// FloatResult reports whether the op writes floats, so that _sat means
// something.
func (o Op) FloatResult() bool { return o < numOps && floatResult(o) }

// OpByName returns the op whose mnemonic is name ("mad", "sample_l"),
// without the _sat or _z/_nz suffixes.
func OpByName(name string) (Op, bool) {
	op, ok := opByName[name]
	return op, ok
}

// Instruction token: opcode in bits 0-7, the instruction's length in words
// (token included) in bits 8-15, saturate in bit 16, the _nz test in bit 17,
// for call, callc and label the label's number in bits 18-29, for the
// texture ops that take them the immediate texel offsets u, v, w in bits
// 18-21, 22-25, 26-29 (4-bit two's complement, -8..7) and for gather4 and
// gather4_c the channel in bits 30-31 (for emit and cut the stream); the
// other bits are zero.
const (
	instSat          = 1 << 16
	instNZ           = 1 << 17
	instLabelShift   = 18
	instOffsetShift  = 18
	instChannelShift = 30
	instValid        = 0x3FFFF
	instValidLabel   = 0x3FFFFFFF
	instValidOffset  = 0x3FFFFFFF
	instValidGather  = 0xFFFFFFFF
)

// TakesOffset reports whether op has immediate texel offsets.
func (o Op) TakesOffset() bool {
	switch o {
	case OpSample, OpSampleL, OpSampleD, OpSampleB, OpLd, OpSampleC, OpSampleCLZ, OpGather4, OpGather4C:
		return true
	}
	return false
}

// TakesChannel reports whether op gathers one channel (Inst.Channel), or
// is emit or cut, whose Channel is the geometry program's output stream
// (0..3, emit_stream m#).
func (o Op) TakesChannel() bool {
	switch o {
	case OpGather4, OpGather4C, OpGather4PO, OpGather4POC, OpEmit, OpCut:
		return true
	}
	return false
}

// Operand token: file in bits 0-3, write mask in bits 4-7 (destinations),
// swizzle in bits 8-15 (two bits per component, x first), negate in bit
// 16, absolute value in bit 17, relative index in bit 18; the other bits
// are zero. Words that follow: one index (r, v, o, t, s); slot and element
// (cb, then the relative register word: temp<<2 | component); the four
// values (l). A relative r, v, o or icb operand: the first register of its
// array, the element (the register index when the relative register
// holds 0), the relative register word, and the array's length; the
// register read or written is element + the register's value, and one
// outside the array reads 0 and is not written.
const (
	opndNeg   = 1 << 16
	opndAbs   = 1 << 17
	opndRel   = 1 << 18
	opndValid = 0x7FFFF
)

// SwizzleXYZW is the identity swizzle.
const SwizzleXYZW = 0b11_10_01_00

// Operand is one decoded operand.
type Operand struct {
	File    File
	Mask    uint8    // destination write mask, bit 0 = x
	Swizzle [4]uint8 // source components read for x, y, z, w
	Neg     bool     // source: negate (float or integer by the op's kind)
	Abs     bool     // source: absolute value, applied before Neg
	Index   uint32   // register, texture, sampler or cb slot number; with Rel, the array's first register
	Elem    uint32   // cb: the element; with Rel: added to the register
	Rel     bool     // the element or register is Elem + RelReg.RelComp (a temp), per lane
	RelReg  uint32
	RelComp uint8
	Len     uint32    // with Rel (not cb): the array's length from Index
	Imm     [4]uint32 // l(): the values
}

// Inst is one decoded instruction.
type Inst struct {
	Op    Op
	Sat   bool   // clamp float results to [0, 1] (NaN to 0)
	NZ    bool   // the test of if, breakc, continuec, retc, discard, callc: nonzero
	Label uint32 // call, callc and label: the label's number
	// Offset is a texture op's immediate texel offset (-8..7 each), Channel
	// the component a gather returns of each texel.
	Offset  [3]int8
	Channel uint8
	Dst     Operand
	Src     []Operand
}
