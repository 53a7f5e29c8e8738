package dxbc

import (
	"fmt"
	"strings"
)

// Opcode is D3D10_SB_OPCODE_TYPE / D3D11_SB_OPCODE_TYPE from the Windows
// DDK header d3d11tokenizedprogramformat.hpp: bits 0..10 of an opcode token.
type Opcode uint32

// Every opcode of shader models 4.0, 4.1 and 5.0 (and the 11.1 doubles),
// numbered as in the DDK header: every stage's, so that any program fxc
// writes decodes and lists, and a feature the device lacks is refused by
// its name, not its number.
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
	// Shader model 5: declarations of the other stages, UAVs, thread-group
	// shared memory, atomics, doubles.
	OpHSDecls                     Opcode = 113
	OpHSControlPointPhase         Opcode = 114
	OpHSForkPhase                 Opcode = 115
	OpHSJoinPhase                 Opcode = 116
	OpEmitStream                  Opcode = 117
	OpCutStream                   Opcode = 118
	OpEmitThenCutStream           Opcode = 119
	OpInterfaceCall               Opcode = 120
	OpDclStream                   Opcode = 143
	OpDclFunctionBody             Opcode = 144
	OpDclFunctionTable            Opcode = 145
	OpDclInterface                Opcode = 146
	OpDclInputControlPointCount   Opcode = 147
	OpDclOutputControlPointCount  Opcode = 148
	OpDclTessDomain               Opcode = 149
	OpDclTessPartitioning         Opcode = 150
	OpDclTessOutputPrimitive      Opcode = 151
	OpDclHSMaxTessFactor          Opcode = 152
	OpDclHSForkPhaseInstanceCount Opcode = 153
	OpDclHSJoinPhaseInstanceCount Opcode = 154
	OpDclThreadGroup              Opcode = 155
	OpDclUAVTyped                 Opcode = 156
	OpDclUAVRaw                   Opcode = 157
	OpDclUAVStructured            Opcode = 158
	OpDclTGSMRaw                  Opcode = 159
	OpDclTGSMStructured           Opcode = 160
	OpDclResourceRaw              Opcode = 161
	OpDclResourceStructured       Opcode = 162
	OpLdUAVTyped                  Opcode = 163
	OpStoreUAVTyped               Opcode = 164
	OpLdRaw                       Opcode = 165
	OpStoreRaw                    Opcode = 166
	OpLdStructured                Opcode = 167
	OpStoreStructured             Opcode = 168
	OpAtomicAnd                   Opcode = 169
	OpAtomicOr                    Opcode = 170
	OpAtomicXor                   Opcode = 171
	OpAtomicCmpStore              Opcode = 172
	OpAtomicIadd                  Opcode = 173
	OpAtomicImax                  Opcode = 174
	OpAtomicImin                  Opcode = 175
	OpAtomicUmax                  Opcode = 176
	OpAtomicUmin                  Opcode = 177
	OpImmAtomicAlloc              Opcode = 178
	OpImmAtomicConsume            Opcode = 179
	OpImmAtomicIadd               Opcode = 180
	OpImmAtomicAnd                Opcode = 181
	OpImmAtomicOr                 Opcode = 182
	OpImmAtomicXor                Opcode = 183
	OpImmAtomicExch               Opcode = 184
	OpImmAtomicCmpExch            Opcode = 185
	OpImmAtomicImax               Opcode = 186
	OpImmAtomicImin               Opcode = 187
	OpImmAtomicUmax               Opcode = 188
	OpImmAtomicUmin               Opcode = 189
	OpSync                        Opcode = 190
	OpDadd                        Opcode = 191
	OpDmax                        Opcode = 192
	OpDmin                        Opcode = 193
	OpDmul                        Opcode = 194
	OpDeq                         Opcode = 195
	OpDge                         Opcode = 196
	OpDlt                         Opcode = 197
	OpDne                         Opcode = 198
	OpDmov                        Opcode = 199
	OpDmovc                       Opcode = 200
	OpDtof                        Opcode = 201
	OpFtod                        Opcode = 202
	OpEvalSnapped                 Opcode = 203
	OpEvalSampleIndex             Opcode = 204
	OpEvalCentroid                Opcode = 205
	OpDclGSInstanceCount          Opcode = 206
	OpAbort                       Opcode = 207
	OpDebugBreak                  Opcode = 208
	OpDdiv                        Opcode = 210 // Direct3D 11.1 double extensions, 210-217
	OpDfma                        Opcode = 211
	OpDrcp                        Opcode = 212
	OpMsad                        Opcode = 213
	OpDtoi                        Opcode = 214
	OpDtou                        Opcode = 215
	OpItod                        Opcode = 216
	OpUtod                        Opcode = 217
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

// Opcodes whose literal words do not fit opInfo's fixed count:
// dcl_function_table and dcl_interface end with a list (every word after
// the operands is Extra), and fcall's literal (the call site) comes
// before its operand, kept in Extra.
var (
	varExtra  = map[Opcode]bool{OpDclFunctionTable: true, OpDclInterface: true}
	leadExtra = map[Opcode]int{OpInterfaceCall: 1}
)

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
	OpLabel: {"label", 0, 1, 0, numUint}, OpLd: {"ld", 1, 2, 0, numInt}, OpLdMS: {"ldms", 1, 3, 0, numInt},
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
	OpSamplePos: {"samplepos", 1, 2, 0, numInt}, OpSampleInfo: {"sampleinfo", 1, 1, 0, numUint},
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
	OpCut:        {"cut", 0, 0, 0, numUint}, OpEmit: {"emit", 0, 0, 0, numUint},
	OpEmitThenCut:       {"emitThenCut", 0, 0, 0, numUint},
	OpDclOutputTopology: {"dcl_outputtopology", 0, 0, 0, numUint}, OpDclInputPrimitive: {"dcl_inputprimitive", 0, 0, 0, numUint},

	OpHSDecls: {"hs_decls", 0, 0, 0, numUint}, OpHSControlPointPhase: {"hs_control_point_phase", 0, 0, 0, numUint},
	OpHSForkPhase: {"hs_fork_phase", 0, 0, 0, numUint}, OpHSJoinPhase: {"hs_join_phase", 0, 0, 0, numUint},
	OpEmitStream: {"emit_stream", 0, 1, 0, numUint}, OpCutStream: {"cut_stream", 0, 1, 0, numUint},
	OpEmitThenCutStream: {"emitThenCut_stream", 0, 1, 0, numUint}, OpInterfaceCall: {"fcall", 0, 1, 1, numUint},
	OpDclStream: {"dcl_stream", 0, 1, 0, numUint}, OpDclFunctionBody: {"dcl_function_body", 0, 0, 1, numUint},
	OpDclFunctionTable: {"dcl_function_table", 0, 0, 0, numUint}, OpDclInterface: {"dcl_interface", 0, 0, 0, numUint},
	OpDclInputControlPointCount:   {"dcl_input_control_point_count", 0, 0, 0, numUint},
	OpDclOutputControlPointCount:  {"dcl_output_control_point_count", 0, 0, 0, numUint},
	OpDclTessDomain:               {"dcl_tessellator_domain", 0, 0, 0, numUint},
	OpDclTessPartitioning:         {"dcl_tessellator_partitioning", 0, 0, 0, numUint},
	OpDclTessOutputPrimitive:      {"dcl_tessellator_output_primitive", 0, 0, 0, numUint},
	OpDclHSMaxTessFactor:          {"dcl_hs_max_tessfactor", 0, 0, 1, numFloat},
	OpDclHSForkPhaseInstanceCount: {"dcl_hs_fork_phase_instance_count", 0, 0, 1, numUint},
	OpDclHSJoinPhaseInstanceCount: {"dcl_hs_join_phase_instance_count", 0, 0, 1, numUint},
	OpDclThreadGroup:              {"dcl_thread_group", 0, 0, 3, numUint},
	OpDclUAVTyped:                 {"dcl_uav_typed", 0, 1, 1, numUint}, OpDclUAVRaw: {"dcl_uav_raw", 0, 1, 0, numUint},
	OpDclUAVStructured: {"dcl_uav_structured", 0, 1, 1, numUint}, OpDclTGSMRaw: {"dcl_tgsm_raw", 0, 1, 1, numUint},
	OpDclTGSMStructured: {"dcl_tgsm_structured", 0, 1, 2, numUint}, OpDclResourceRaw: {"dcl_resource_raw", 0, 1, 0, numUint},
	OpDclResourceStructured: {"dcl_resource_structured", 0, 1, 1, numUint},
	OpLdUAVTyped:            {"ld_uav_typed", 1, 2, 0, numUint}, OpStoreUAVTyped: {"store_uav_typed", 1, 2, 0, numAny},
	OpLdRaw: {"ld_raw", 1, 2, 0, numUint}, OpStoreRaw: {"store_raw", 1, 2, 0, numAny},
	OpLdStructured: {"ld_structured", 1, 3, 0, numUint}, OpStoreStructured: {"store_structured", 1, 3, 0, numAny},
	OpAtomicAnd: {"atomic_and", 1, 2, 0, numUint}, OpAtomicOr: {"atomic_or", 1, 2, 0, numUint},
	OpAtomicXor: {"atomic_xor", 1, 2, 0, numUint}, OpAtomicCmpStore: {"atomic_cmp_store", 1, 3, 0, numUint},
	OpAtomicIadd: {"atomic_iadd", 1, 2, 0, numInt}, OpAtomicImax: {"atomic_imax", 1, 2, 0, numInt},
	OpAtomicImin: {"atomic_imin", 1, 2, 0, numInt}, OpAtomicUmax: {"atomic_umax", 1, 2, 0, numUint},
	OpAtomicUmin:     {"atomic_umin", 1, 2, 0, numUint},
	OpImmAtomicAlloc: {"imm_atomic_alloc", 1, 1, 0, numUint}, OpImmAtomicConsume: {"imm_atomic_consume", 1, 1, 0, numUint},
	OpImmAtomicIadd: {"imm_atomic_iadd", 2, 2, 0, numInt}, OpImmAtomicAnd: {"imm_atomic_and", 2, 2, 0, numUint},
	OpImmAtomicOr: {"imm_atomic_or", 2, 2, 0, numUint}, OpImmAtomicXor: {"imm_atomic_xor", 2, 2, 0, numUint},
	OpImmAtomicExch: {"imm_atomic_exch", 2, 2, 0, numUint}, OpImmAtomicCmpExch: {"imm_atomic_cmp_exch", 2, 3, 0, numUint},
	OpImmAtomicImax: {"imm_atomic_imax", 2, 2, 0, numInt}, OpImmAtomicImin: {"imm_atomic_imin", 2, 2, 0, numInt},
	OpImmAtomicUmax: {"imm_atomic_umax", 2, 2, 0, numUint}, OpImmAtomicUmin: {"imm_atomic_umin", 2, 2, 0, numUint},
	OpSync: {"sync", 0, 0, 0, numUint},
	OpDadd: {"dadd", 1, 2, 0, numFloat}, OpDmax: {"dmax", 1, 2, 0, numFloat}, OpDmin: {"dmin", 1, 2, 0, numFloat},
	OpDmul: {"dmul", 1, 2, 0, numFloat}, OpDeq: {"deq", 1, 2, 0, numFloat}, OpDge: {"dge", 1, 2, 0, numFloat},
	OpDlt: {"dlt", 1, 2, 0, numFloat}, OpDne: {"dne", 1, 2, 0, numFloat}, OpDmov: {"dmov", 1, 1, 0, numAny},
	OpDmovc: {"dmovc", 1, 3, 0, numAny}, OpDtof: {"dtof", 1, 1, 0, numFloat}, OpFtod: {"ftod", 1, 1, 0, numFloat},
	OpEvalSnapped: {"eval_snapped", 1, 2, 0, numInt}, OpEvalSampleIndex: {"eval_sample_index", 1, 2, 0, numInt},
	OpEvalCentroid: {"eval_centroid", 1, 1, 0, numFloat}, OpDclGSInstanceCount: {"dcl_gsinstances", 0, 0, 1, numUint},
	OpAbort: {"abort", 0, 0, 0, numUint}, OpDebugBreak: {"debug_break", 0, 0, 0, numUint},
	OpDdiv: {"ddiv", 1, 2, 0, numFloat}, OpDfma: {"dfma", 1, 3, 0, numFloat}, OpDrcp: {"drcp", 1, 1, 0, numFloat},
	OpMsad: {"msad", 1, 3, 0, numUint}, OpDtoi: {"dtoi", 1, 1, 0, numFloat}, OpDtou: {"dtou", 1, 1, 0, numFloat},
	OpItod: {"itod", 1, 1, 0, numInt}, OpUtod: {"utod", 1, 1, 0, numUint},
}

// String is the opcode's name in fxc's listing, or "opcode(N)".
func (o Opcode) String() string {
	if info, ok := opTable[o]; ok {
		return info.name
	}
	return fmt.Sprintf("opcode(%d)", uint32(o))
}

// IsDeclaration reports whether the opcode declares (dcl_*, and customdata,
// which holds the immediate constant buffer) rather than computes.
func (o Opcode) IsDeclaration() bool {
	info, ok := opTable[o]
	return ok && (o == OpCustomData || strings.HasPrefix(info.name, "dcl_"))
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

// RDEFType is the stage as the RDEF chunk's version word writes it: 0xfffe
// for a vertex shader, 0xffff for a pixel shader (the Direct3D 9 values),
// the profile's two letters in ASCII for the stages Direct3D 10 and 11 added
// ("GS" 0x4753 ...), as fxc writes them.
func (t ProgramType) RDEFType() uint16 {
	switch t {
	case PixelShader:
		return 0xffff
	case GeometryShader:
		return 0x4753
	case HullShader:
		return 0x4853
	case DomainShader:
		return 0x4453
	case ComputeShader:
		return 0x4353
	}
	return 0xfffe
}

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
	"viewport_array_index", "vertex_id", "primitive_id", "instance_id", "is_front_face", "sampleIndex",
	"finalQuadUeq0EdgeTessFactor", "finalQuadVeq0EdgeTessFactor", "finalQuadUeq1EdgeTessFactor",
	"finalQuadVeq1EdgeTessFactor", "finalQuadUInsideTessFactor", "finalQuadVInsideTessFactor",
	"finalTriUeq0EdgeTessFactor", "finalTriVeq0EdgeTessFactor", "finalTriWeq0EdgeTessFactor",
	"finalTriInsideTessFactor", "finalLineDetailTessFactor", "finalLineDensityTessFactor"}
