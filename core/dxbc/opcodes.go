package dxbc

import "fmt"

// Opcode is D3D10_SB_OPCODE_TYPE / D3D11_SB_OPCODE_TYPE from the Windows
// DDK header d3d11tokenizedprogramformat.hpp: bits 0..10 of an opcode token.
type Opcode uint32

// The opcodes a shader model 4/5 vertex or pixel shader uses, numbered as
// in the DDK header.
const (
	OpAdd                     Opcode = 0
	OpAnd                     Opcode = 1
	OpBreak                   Opcode = 2
	OpBreakc                  Opcode = 3
	OpCall                    Opcode = 4
	OpCallc                   Opcode = 5
	OpCase                    Opcode = 6
	OpContinue                Opcode = 7
	OpContinuec               Opcode = 8
	OpCut                     Opcode = 9
	OpDefault                 Opcode = 10
	OpDerivRtx                Opcode = 11
	OpDerivRty                Opcode = 12
	OpDiscard                 Opcode = 13
	OpDiv                     Opcode = 14
	OpDp2                     Opcode = 15
	OpDp3                     Opcode = 16
	OpDp4                     Opcode = 17
	OpElse                    Opcode = 18
	OpEmit                    Opcode = 19
	OpEmitThenCut             Opcode = 20
	OpEndif                   Opcode = 21
	OpEndloop                 Opcode = 22
	OpEndswitch               Opcode = 23
	OpEq                      Opcode = 24
	OpExp                     Opcode = 25
	OpFrc                     Opcode = 26
	OpFtoi                    Opcode = 27
	OpFtou                    Opcode = 28
	OpGe                      Opcode = 29
	OpIadd                    Opcode = 30
	OpIf                      Opcode = 31
	OpIeq                     Opcode = 32
	OpIge                     Opcode = 33
	OpIlt                     Opcode = 34
	OpImad                    Opcode = 35
	OpImax                    Opcode = 36
	OpImin                    Opcode = 37
	OpImul                    Opcode = 38
	OpIne                     Opcode = 39
	OpIneg                    Opcode = 40
	OpIshl                    Opcode = 41
	OpIshr                    Opcode = 42
	OpItof                    Opcode = 43
	OpLabel                   Opcode = 44
	OpLd                      Opcode = 45
	OpLdMS                    Opcode = 46
	OpLog                     Opcode = 47
	OpLoop                    Opcode = 48
	OpLt                      Opcode = 49
	OpMad                     Opcode = 50
	OpMin                     Opcode = 51
	OpMax                     Opcode = 52
	OpCustomData              Opcode = 53
	OpMov                     Opcode = 54
	OpMovc                    Opcode = 55
	OpMul                     Opcode = 56
	OpNe                      Opcode = 57
	OpNop                     Opcode = 58
	OpNot                     Opcode = 59
	OpOr                      Opcode = 60
	OpResinfo                 Opcode = 61
	OpRet                     Opcode = 62
	OpRetc                    Opcode = 63
	OpRoundNE                 Opcode = 64
	OpRoundNI                 Opcode = 65
	OpRoundPI                 Opcode = 66
	OpRoundZ                  Opcode = 67
	OpRsq                     Opcode = 68
	OpSample                  Opcode = 69
	OpSampleC                 Opcode = 70
	OpSampleCLZ               Opcode = 71
	OpSampleL                 Opcode = 72
	OpSampleD                 Opcode = 73
	OpSampleB                 Opcode = 74
	OpSqrt                    Opcode = 75
	OpSwitch                  Opcode = 76
	OpSincos                  Opcode = 77
	OpUdiv                    Opcode = 78
	OpUlt                     Opcode = 79
	OpUge                     Opcode = 80
	OpUmul                    Opcode = 81
	OpUmad                    Opcode = 82
	OpUmax                    Opcode = 83
	OpUmin                    Opcode = 84
	OpUshr                    Opcode = 85
	OpUtof                    Opcode = 86
	OpXor                     Opcode = 87
	OpDclResource             Opcode = 88
	OpDclConstantBuffer       Opcode = 89
	OpDclSampler              Opcode = 90
	OpDclIndexRange           Opcode = 91
	OpDclOutputTopology       Opcode = 92
	OpDclInputPrimitive       Opcode = 93
	OpDclMaxOutputVertexCount Opcode = 94
	OpDclInput                Opcode = 95
	OpDclInputSGV             Opcode = 96
	OpDclInputSIV             Opcode = 97
	OpDclInputPS              Opcode = 98
	OpDclInputPSSGV           Opcode = 99
	OpDclInputPSSIV           Opcode = 100
	OpDclOutput               Opcode = 101
	OpDclOutputSGV            Opcode = 102
	OpDclOutputSIV            Opcode = 103
	OpDclTemps                Opcode = 104
	OpDclIndexableTemp        Opcode = 105
	OpDclGlobalFlags          Opcode = 106
	OpLod                     Opcode = 108
	OpGather4                 Opcode = 109
	OpSamplePos               Opcode = 110
	OpSampleInfo              Opcode = 111
	OpBufinfo                 Opcode = 121
	OpDerivRtxCoarse          Opcode = 122
	OpDerivRtxFine            Opcode = 123
	OpDerivRtyCoarse          Opcode = 124
	OpDerivRtyFine            Opcode = 125
	OpGather4C                Opcode = 126
	OpGather4PO               Opcode = 127
	OpGather4POC              Opcode = 128
	OpRcp                     Opcode = 129
	OpF32toF16                Opcode = 130
	OpF16toF32                Opcode = 131
	OpUaddc                   Opcode = 132
	OpUsubb                   Opcode = 133
	OpCountbits               Opcode = 134
	OpFirstbitHi              Opcode = 135
	OpFirstbitLo              Opcode = 136
	OpFirstbitShi             Opcode = 137
	OpUbfe                    Opcode = 138
	OpIbfe                    Opcode = 139
	OpBfi                     Opcode = 140
	OpBfrev                   Opcode = 141
	OpSwapc                   Opcode = 142
)

// numKind says how an instruction's immediates print: fxc shows float
// operations' literals as floats, integer ones as integers, and moves
// (typeless) value by value.
type numKind uint8

const (
	numFloat numKind = iota
	numInt
	numUint
	numAny
)

// opInfo is what the decoder needs to know about one opcode: its listing
// name, how many destination and source operands follow the opcode token,
// and how many literal words follow the operands (declarations).
type opInfo struct {
	name  string
	dst   int
	src   int
	extra int
	num   numKind
}

var opTable = map[Opcode]opInfo{
	OpAdd: {"add", 1, 2, 0, numFloat}, OpAnd: {"and", 1, 2, 0, numUint},
	OpBreak: {"break", 0, 0, 0, numUint}, OpBreakc: {"breakc", 0, 1, 0, numUint},
	OpCall: {"call", 0, 1, 0, numUint}, OpCallc: {"callc", 0, 2, 0, numUint},
	OpCase: {"case", 0, 1, 0, numUint}, OpContinue: {"continue", 0, 0, 0, numUint},
	OpContinuec: {"continuec", 0, 1, 0, numUint}, OpDefault: {"default", 0, 0, 0, numUint},
	OpDerivRtx: {"deriv_rtx", 1, 1, 0, numFloat}, OpDerivRty: {"deriv_rty", 1, 1, 0, numFloat},
	OpDiscard: {"discard", 0, 1, 0, numUint}, OpDiv: {"div", 1, 2, 0, numFloat},
	OpDp2: {"dp2", 1, 2, 0, numFloat}, OpDp3: {"dp3", 1, 2, 0, numFloat}, OpDp4: {"dp4", 1, 2, 0, numFloat},
	OpElse: {"else", 0, 0, 0, numUint}, OpEndif: {"endif", 0, 0, 0, numUint},
	OpEndloop: {"endloop", 0, 0, 0, numUint}, OpEndswitch: {"endswitch", 0, 0, 0, numUint},
	OpEq: {"eq", 1, 2, 0, numFloat}, OpExp: {"exp", 1, 1, 0, numFloat}, OpFrc: {"frc", 1, 1, 0, numFloat},
	OpFtoi: {"ftoi", 1, 1, 0, numFloat}, OpFtou: {"ftou", 1, 1, 0, numFloat}, OpGe: {"ge", 1, 2, 0, numFloat},
	OpIadd: {"iadd", 1, 2, 0, numInt}, OpIf: {"if", 0, 1, 0, numUint},
	OpIeq: {"ieq", 1, 2, 0, numInt}, OpIge: {"ige", 1, 2, 0, numInt}, OpIlt: {"ilt", 1, 2, 0, numInt},
	OpImad: {"imad", 1, 3, 0, numInt}, OpImax: {"imax", 1, 2, 0, numInt}, OpImin: {"imin", 1, 2, 0, numInt},
	OpImul: {"imul", 2, 2, 0, numInt}, OpIne: {"ine", 1, 2, 0, numInt}, OpIneg: {"ineg", 1, 1, 0, numInt},
	OpIshl: {"ishl", 1, 2, 0, numInt}, OpIshr: {"ishr", 1, 2, 0, numInt}, OpItof: {"itof", 1, 1, 0, numInt},
	OpLabel: {"label", 0, 1, 0, numUint}, OpLd: {"ld", 1, 2, 0, numInt}, OpLdMS: {"ld_ms", 1, 3, 0, numInt},
	OpLog: {"log", 1, 1, 0, numFloat}, OpLoop: {"loop", 0, 0, 0, numUint}, OpLt: {"lt", 1, 2, 0, numFloat},
	OpMad: {"mad", 1, 3, 0, numFloat}, OpMin: {"min", 1, 2, 0, numFloat}, OpMax: {"max", 1, 2, 0, numFloat},
	OpMov: {"mov", 1, 1, 0, numAny}, OpMovc: {"movc", 1, 3, 0, numAny}, OpMul: {"mul", 1, 2, 0, numFloat},
	OpNe: {"ne", 1, 2, 0, numFloat}, OpNop: {"nop", 0, 0, 0, numUint}, OpNot: {"not", 1, 1, 0, numUint},
	OpOr: {"or", 1, 2, 0, numUint}, OpResinfo: {"resinfo", 1, 2, 0, numUint},
	OpRet: {"ret", 0, 0, 0, numUint}, OpRetc: {"retc", 0, 1, 0, numUint},
	OpRoundNE: {"round_ne", 1, 1, 0, numFloat}, OpRoundNI: {"round_ni", 1, 1, 0, numFloat},
	OpRoundPI: {"round_pi", 1, 1, 0, numFloat}, OpRoundZ: {"round_z", 1, 1, 0, numFloat},
	OpRsq:    {"rsq", 1, 1, 0, numFloat},
	OpSample: {"sample", 1, 3, 0, numFloat}, OpSampleC: {"sample_c", 1, 4, 0, numFloat},
	OpSampleCLZ: {"sample_c_lz", 1, 4, 0, numFloat}, OpSampleL: {"sample_l", 1, 4, 0, numFloat},
	OpSampleD: {"sample_d", 1, 5, 0, numFloat}, OpSampleB: {"sample_b", 1, 4, 0, numFloat},
	OpSqrt: {"sqrt", 1, 1, 0, numFloat}, OpSwitch: {"switch", 0, 1, 0, numInt},
	OpSincos: {"sincos", 2, 1, 0, numFloat}, OpUdiv: {"udiv", 2, 2, 0, numUint},
	OpUlt: {"ult", 1, 2, 0, numUint}, OpUge: {"uge", 1, 2, 0, numUint}, OpUmul: {"umul", 2, 2, 0, numUint},
	OpUmad: {"umad", 1, 3, 0, numUint}, OpUmax: {"umax", 1, 2, 0, numUint}, OpUmin: {"umin", 1, 2, 0, numUint},
	OpUshr: {"ushr", 1, 2, 0, numUint}, OpUtof: {"utof", 1, 1, 0, numUint}, OpXor: {"xor", 1, 2, 0, numUint},
	OpDclResource: {"dcl_resource", 0, 1, 1, numUint}, OpDclConstantBuffer: {"dcl_constantbuffer", 0, 1, 0, numUint},
	OpDclSampler: {"dcl_sampler", 0, 1, 0, numUint}, OpDclIndexRange: {"dcl_indexrange", 0, 1, 1, numUint},
	OpDclMaxOutputVertexCount: {"dcl_maxout", 0, 0, 1, numUint},
	OpDclInput:                {"dcl_input", 0, 1, 0, numUint}, OpDclInputSGV: {"dcl_input_sgv", 0, 1, 1, numUint},
	OpDclInputSIV: {"dcl_input_siv", 0, 1, 1, numUint}, OpDclInputPS: {"dcl_input_ps", 0, 1, 0, numUint},
	OpDclInputPSSGV: {"dcl_input_ps_sgv", 0, 1, 1, numUint}, OpDclInputPSSIV: {"dcl_input_ps_siv", 0, 1, 1, numUint},
	OpDclOutput: {"dcl_output", 0, 1, 0, numUint}, OpDclOutputSGV: {"dcl_output_sgv", 0, 1, 1, numUint},
	OpDclOutputSIV: {"dcl_output_siv", 0, 1, 1, numUint}, OpDclTemps: {"dcl_temps", 0, 0, 1, numUint},
	OpDclIndexableTemp: {"dcl_indexableTemp", 0, 0, 3, numUint}, OpDclGlobalFlags: {"dcl_globalFlags", 0, 0, 0, numUint},
	OpLod: {"lod", 1, 3, 0, numFloat}, OpGather4: {"gather4", 1, 3, 0, numFloat},
	OpSamplePos: {"sample_pos", 1, 2, 0, numInt}, OpSampleInfo: {"sample_info", 1, 1, 0, numUint},
	OpBufinfo:        {"bufinfo", 1, 1, 0, numUint},
	OpDerivRtxCoarse: {"deriv_rtx_coarse", 1, 1, 0, numFloat}, OpDerivRtxFine: {"deriv_rtx_fine", 1, 1, 0, numFloat},
	OpDerivRtyCoarse: {"deriv_rty_coarse", 1, 1, 0, numFloat}, OpDerivRtyFine: {"deriv_rty_fine", 1, 1, 0, numFloat},
	OpGather4C: {"gather4_c", 1, 4, 0, numFloat}, OpGather4PO: {"gather4_po", 1, 4, 0, numFloat},
	OpGather4POC: {"gather4_po_c", 1, 5, 0, numFloat}, OpRcp: {"rcp", 1, 1, 0, numFloat},
	OpF32toF16: {"f32tof16", 1, 1, 0, numFloat}, OpF16toF32: {"f16tof32", 1, 1, 0, numUint},
	OpUaddc: {"uaddc", 2, 2, 0, numUint}, OpUsubb: {"usubb", 2, 2, 0, numUint},
	OpCountbits: {"countbits", 1, 1, 0, numUint}, OpFirstbitHi: {"firstbit_hi", 1, 1, 0, numUint},
	OpFirstbitLo: {"firstbit_lo", 1, 1, 0, numUint}, OpFirstbitShi: {"firstbit_shi", 1, 1, 0, numInt},
	OpUbfe: {"ubfe", 1, 3, 0, numUint}, OpIbfe: {"ibfe", 1, 3, 0, numInt}, OpBfi: {"bfi", 1, 4, 0, numUint},
	OpBfrev: {"bfrev", 1, 1, 0, numUint}, OpSwapc: {"swapc", 2, 3, 0, numAny},
	OpCustomData: {"customdata", 0, 0, 0, numAny},
}

// String is the opcode's name in fxc's listing, or "opcode(N)".
func (o Opcode) String() string {
	if info, ok := opTable[o]; ok {
		return info.name
	}
	return fmt.Sprintf("opcode(%d)", uint32(o))
}

// Known reports whether the decoder and encoder handle the opcode.
func (o Opcode) Known() bool {
	_, ok := opTable[o]
	return ok
}

// Operand and declaration vocabularies.

// ProgramType is the stage in a program's version token (D3D10_SB_TOKENIZED_PROGRAM_TYPE).
type ProgramType uint16

const (
	PixelShader    ProgramType = 0
	VertexShader   ProgramType = 1
	GeometryShader ProgramType = 2
	HullShader     ProgramType = 3
	DomainShader   ProgramType = 4
	ComputeShader  ProgramType = 5
)

// Prefix is the stage's two letters in a profile name: "ps", "vs" ...
func (t ProgramType) Prefix() string {
	switch t {
	case PixelShader:
		return "ps"
	case VertexShader:
		return "vs"
	case GeometryShader:
		return "gs"
	case HullShader:
		return "hs"
	case DomainShader:
		return "ds"
	case ComputeShader:
		return "cs"
	}
	return fmt.Sprintf("stage%d", uint16(t))
}

// Test is the condition of if, breakc, continuec, retc, callc and discard.
type Test uint8

const (
	TestZero    Test = 0 // the _z form: taken when the value is 0
	TestNonZero Test = 1 // the _nz form
)

// ResourceDimension is D3D10_SB_RESOURCE_DIMENSION, in dcl_resource and in
// the resource-dimension extended opcode token.
type ResourceDimension uint32

const (
	DimUnknown ResourceDimension = iota
	DimBuffer
	DimTexture1D
	DimTexture2D
	DimTexture2DMS
	DimTexture3D
	DimTextureCube
	DimTexture1DArray
	DimTexture2DArray
	DimTexture2DMSArray
	DimTextureCubeArray
	DimRawBuffer
	DimStructuredBuffer
)

var dimNames = []string{"unknown", "buffer", "texture1d", "texture2d", "texture2dms", "texture3d", "texturecube",
	"texture1darray", "texture2darray", "texture2dmsarray", "texturecubearray", "raw_buffer", "structured_buffer"}

func (d ResourceDimension) String() string {
	if int(d) < len(dimNames) {
		return dimNames[d]
	}
	return fmt.Sprintf("dim(%d)", uint32(d))
}

// ReturnType is D3D10_SB_RESOURCE_RETURN_TYPE, one per component.
type ReturnType uint8

const (
	ReturnUNorm ReturnType = 1 + iota
	ReturnSNorm
	ReturnSInt
	ReturnUInt
	ReturnFloat
	ReturnMixed
	ReturnDouble
	ReturnContinued
	ReturnUnused
)

var returnNames = []string{"?", "unorm", "snorm", "sint", "uint", "float", "mixed", "double", "continued", "unused"}

func (r ReturnType) String() string {
	if int(r) < len(returnNames) {
		return returnNames[r]
	}
	return fmt.Sprintf("ret(%d)", r)
}

// Interpolation is D3D10_SB_INTERPOLATION_MODE, in dcl_input_ps.
type Interpolation uint8

const (
	InterpUndefined Interpolation = iota
	InterpConstant
	InterpLinear
	InterpLinearCentroid
	InterpLinearNoPerspective
	InterpLinearNoPerspectiveCentroid
	InterpLinearSample
	InterpLinearNoPerspectiveSample
)

var interpNames = []string{"undefined", "constant", "linear", "linear centroid", "linear noperspective",
	"linear noperspective centroid", "linear sample", "linear noperspective sample"}

func (m Interpolation) String() string {
	if int(m) < len(interpNames) {
		return interpNames[m]
	}
	return fmt.Sprintf("interpolation(%d)", m)
}

// SamplerMode is D3D10_SB_SAMPLER_MODE, in dcl_sampler.
type SamplerMode uint8

const (
	SamplerDefault SamplerMode = iota
	SamplerComparison
	SamplerMono
)

// Global flags of dcl_globalFlags, as bits of Instruction.Controls.
const (
	FlagRefactoringAllowed      = 1 << 0
	FlagEnableDoublePrecision   = 1 << 1
	FlagForceEarlyDepthStencil  = 1 << 2
	FlagEnableRawStructuredBufs = 1 << 3
	FlagSkipOptimization        = 1 << 4
	FlagEnableMinimumPrecision  = 1 << 5
	FlagEnable11_1DoubleExt     = 1 << 6
	FlagEnable11_1ShaderExt     = 1 << 7
)

var globalFlagNames = []string{"refactoringAllowed", "enableDoublePrecisionFloatOps", "forceEarlyDepthStencil",
	"enableRawAndStructuredBuffers", "skipOptimization", "enableMinimumPrecision",
	"enable11_1DoubleExtensions", "enable11_1ShaderExtensions"}

// Operand system-value names (D3D10_SB_NAME) printed after dcl_*_siv/sgv.
var nameTokenNames = []string{"undefined", "position", "clip_distance", "cull_distance", "rendertarget_array_index",
	"viewport_array_index", "vertex_id", "primitive_id", "instance_id", "is_front_face", "sampleIndex"}
