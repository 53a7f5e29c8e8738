package dxbc

import (
	"math"
	"strings"
	"testing"
)

// Programs of the stages beyond vertex and pixel shaders, and shader model
// 5's UAVs, thread-group shared memory, atomics and doubles, written token
// by token; the want text is their listing in fxc's syntax ("Shader Model
// 5 Assembly (DirectX HLSL)": dcl_thread_group, dcl_uav_typed, sync ...).

// reg1 is a register with one immediate index and a write mask (or none).
func reg1(t RegisterType, i uint32, mask uint8) Operand {
	o := Operand{Type: t, Indices: []Index{{Imm: uint64(i)}}}
	if mask != 0 {
		o.Components, o.Mode, o.WriteMask = 4, SelectMask, mask
	}
	return o
}

// sysIn is an index-free input register (vThreadID.xy, vDomain.xy).
func sysIn(t RegisterType, mask uint8) Operand {
	return Operand{Type: t, Components: 4, Mode: SelectMask, WriteMask: mask}
}

func decl(op Opcode, controls uint32, operands []Operand, extra ...uint32) Instruction {
	return Instruction{Op: op, Controls: controls, Operands: operands, Extra: extra}
}

func inst(op Opcode, operands ...Operand) Instruction {
	info := opTable[op]
	for i := range operands {
		if i >= info.dst && operands[i].Components == 4 && operands[i].Mode == SelectMask {
			operands[i] = operands[i].asSource()
		}
	}
	return Instruction{Op: op, Operands: operands}
}

var stagePrograms = []struct {
	desc string
	p    Program
	want string
}{
	{"compute shader: typed and structured UAVs, shared memory, sync, atomics", Program{Type: ComputeShader, Major: 5, Instructions: []Instruction{
		decl(OpDclGlobalFlags, FlagRefactoringAllowed, nil),
		decl(OpDclResourceStructured, 0, []Operand{reg1(RegResource, 0, 0)}, 16),
		decl(OpDclResourceRaw, 0, []Operand{reg1(RegResource, 1, 0)}),
		decl(OpDclUAVTyped, uint32(DimTexture2D), []Operand{reg1(RegUAV, 0, 0)}, 0x5555),
		decl(OpDclUAVStructured, 1<<12, []Operand{reg1(RegUAV, 1, 0)}, 4),
		decl(OpDclUAVRaw, 1<<5, []Operand{reg1(RegUAV, 2, 0)}),
		decl(OpDclInput, 0, []Operand{sysIn(RegInputThreadID, XY)}),
		decl(OpDclInput, 0, []Operand{{Type: RegInputThreadIDInGroupFlat, Components: 1}}),
		decl(OpDclTemps, 0, nil, 2),
		decl(OpDclTGSMRaw, 0, []Operand{reg1(RegTGSM, 0, 0)}, 256),
		decl(OpDclTGSMStructured, 0, []Operand{reg1(RegTGSM, 1, 0)}, 4, 64),
		decl(OpDclThreadGroup, 0, nil, 8, 8, 1),
		{Op: OpLdStructured, Extended: []uint32{2 | uint32(DimStructuredBuffer)<<6 | 16<<11, 3 | 0x6666<<6},
			Operands: []Operand{Temp(0).Mask(X), sysIn(RegInputThreadID, XY).Swz("x"), ImmUint(0), reg1(RegResource, 0, XYZW).Swz("x")}},
		inst(OpStoreRaw, reg1(RegTGSM, 0, X), ImmUint(0), Temp(0).Swz("x")),
		{Op: OpSync, Controls: 1 | 2},
		{Op: OpSync, Controls: 8 | 2 | 1},
		inst(OpAtomicIadd, reg1(RegUAV, 2, XYZW), ImmUint(0), ImmUint(1)),
		inst(OpImmAtomicIadd, Temp(1).Mask(X), reg1(RegUAV, 2, XYZW), ImmUint(4), ImmUint(1)),
		inst(OpImmAtomicAlloc, Temp(1).Mask(Y), reg1(RegUAV, 1, XYZW)),
		inst(OpStoreUAVTyped, reg1(RegUAV, 0, XYZW), sysIn(RegInputThreadID, XY).Swz("xyxx"), Temp(0).Swz("xxxx")),
		inst(OpStoreStructured, reg1(RegUAV, 1, X), Temp(1).Swz("y"), ImmUint(0), Temp(0).Swz("x")),
		inst(OpRet),
	}}, `cs_5_0
dcl_globalFlags refactoringAllowed
dcl_resource_structured t0, 16
dcl_resource_raw t1
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_uav_structured_opc u1, 4
dcl_uav_raw_glc u2
dcl_input vThreadID.xy
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_tgsm_structured g1, 4, 64
dcl_thread_group 8, 8, 1
ld_structured_indexable(structured_buffer, stride=16)(mixed,mixed,mixed,mixed) r0.x, vThreadID.xxxx, l(0), t0.xxxx
store_raw g0.x, l(0), r0.xxxx
sync_g_t
sync_uglobal_g_t
atomic_iadd u2, l(0), l(1)
imm_atomic_iadd r1.x, u2, l(4), l(1)
imm_atomic_alloc r1.y, u1
store_uav_typed u0.xyzw, vThreadID.xyxx, r0.xxxx
store_structured u1.x, r1.yyyy, l(0), r0.xxxx
ret
`},
	{"geometry shader: input primitive, streams, emit and cut", Program{Type: GeometryShader, Major: 5, Instructions: []Instruction{
		decl(OpDclInputSIV, 0, []Operand{{Type: RegInput, Components: 4, Mode: SelectMask, WriteMask: XYZW, Indices: []Index{{Imm: 3}, {Imm: 0}}}}, uint32(SVPosition)),
		decl(OpDclInput, 0, []Operand{{Type: RegInputGSInstanceID, Components: 1}}),
		decl(OpDclTemps, 0, nil, 1),
		decl(OpDclGSInstanceCount, 0, nil, 2),
		decl(OpDclInputPrimitive, 3, nil),
		decl(OpDclStream, 0, []Operand{reg1(RegStream, 0, 0)}),
		decl(OpDclOutputTopology, 5, nil),
		decl(OpDclOutputSIV, 0, []Operand{Output(0)}, uint32(SVPosition)),
		decl(OpDclMaxOutputVertexCount, 0, nil, 3),
		inst(OpMov, Temp(0).Mask(X), ImmInt(0)),
		inst(OpLoop),
		{Op: OpBreakc, Operands: []Operand{Temp(0).Select(0)}},
		inst(OpMov, Output(0), Operand{Type: RegInput, Components: 4, Mode: SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3}, Indices: []Index{{Imm: 0, Repr: IndexRelative, Rel: &Operand{Type: RegTemp, Components: 4, Mode: SelectOne, Indices: []Index{{Imm: 0}}}}, {Imm: 0}}}),
		inst(OpEmitStream, reg1(RegStream, 0, 0)),
		inst(OpEndloop),
		inst(OpCutStream, reg1(RegStream, 0, 0)),
		inst(OpEmitThenCut),
		inst(OpRet),
	}}, `gs_5_0
dcl_input_siv v[3][0].xyzw, position
dcl_input vGSInstanceID
dcl_temps 1
dcl_gsinstances 2
dcl_inputprimitive triangle
dcl_stream m0
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_maxout 3
mov r0.x, l(0)
loop
  breakc_z r0.x
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  emit_stream m0
endloop
cut_stream m0
emitThenCut
ret
`},
	{"hull shader: phases, tessellator declarations", Program{Type: HullShader, Major: 5, Instructions: []Instruction{
		{Op: OpHSDecls},
		decl(OpDclInputControlPointCount, 3, nil),
		decl(OpDclOutputControlPointCount, 3, nil),
		decl(OpDclTessDomain, 2, nil),
		decl(OpDclTessPartitioning, 3, nil),
		decl(OpDclTessOutputPrimitive, 3, nil),
		decl(OpDclHSMaxTessFactor, 0, nil, math.Float32bits(64)),
		{Op: OpHSForkPhase},
		decl(OpDclHSForkPhaseInstanceCount, 0, nil, 3),
		decl(OpDclInput, 0, []Operand{{Type: RegInputForkInstanceID, Components: 1}}),
		decl(OpDclOutputSIV, 0, []Operand{Output(0).Mask(X)}, 11),
		inst(OpMov, Output(0).Mask(X), Imm(4)),
		inst(OpRet),
	}}, `hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_fractional_odd
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor l(64.000000)
hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_output_siv o0.x, finalQuadUeq0EdgeTessFactor
mov o0.x, l(4.000000)
ret
`},
	{"domain shader: control points and the domain point", Program{Type: DomainShader, Major: 5, Instructions: []Instruction{
		decl(OpDclInputControlPointCount, 3, nil),
		decl(OpDclTessDomain, 2, nil),
		decl(OpDclInput, 0, []Operand{sysIn(RegInputDomainPoint, XYZ)}),
		decl(OpDclInput, 0, []Operand{{Type: RegInputControlPoint, Components: 4, Mode: SelectMask, WriteMask: XYZ, Indices: []Index{{Imm: 3}, {Imm: 0}}}}),
		decl(OpDclOutputSIV, 0, []Operand{Output(0)}, uint32(SVPosition)),
		decl(OpDclTemps, 0, nil, 1),
		inst(OpMul, Temp(0).Mask(XYZ), sysIn(RegInputDomainPoint, XYZ).Swz("yyyy"), Operand{Type: RegInputControlPoint, Components: 4, Mode: SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3}, Indices: []Index{{Imm: 1}, {Imm: 0}}}),
		inst(OpMov, Output(0), Temp(0)),
		inst(OpRet),
	}}, `ds_5_0
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyz
dcl_output_siv o0.xyzw, position
dcl_temps 1
mul r0.xyz, vDomain.yyyy, vicp[1][0].xyzw
mov o0.xyzw, r0.xyzw
ret
`},
	{"doubles, interfaces and the 11.1 double ops", Program{Type: PixelShader, Major: 5, Instructions: []Instruction{
		decl(OpDclGlobalFlags, FlagRefactoringAllowed|FlagEnableDoublePrecision|FlagEnable11_1DoubleExt, nil),
		decl(OpDclFunctionBody, 0, nil, 0),
		decl(OpDclFunctionBody, 0, nil, 1),
		decl(OpDclFunctionTable, 0, nil, 0, 1, 0),
		decl(OpDclFunctionTable, 0, nil, 1, 1, 1),
		decl(OpDclInterface, 0, nil, 0, 1, 1<<16|2, 0, 1),
		decl(OpDclOutput, 0, []Operand{Output(0)}),
		decl(OpDclTemps, 0, nil, 2),
		inst(OpFtod, Temp(0).Mask(XY), Imm(0.5).Swz("x")),
		inst(OpDadd, Temp(0).Mask(XY), Temp(0).Swz("xyxy"), Operand{Type: RegImmediate64, Components: 4, Mode: SelectSwizzle, Swiz: [4]uint8{0, 1, 0, 1}, Imm: f64words(1, 2)}),
		inst(OpDmul, Temp(1).Mask(Z|W), Temp(0).Swz("xyxy"), Temp(0).Swz("xyxy")),
		inst(OpDlt, Temp(1).Mask(X), Temp(0).Swz("xyxy"), Temp(1).Swz("zwzw")),
		inst(OpDdiv, Temp(0).Mask(XY), Temp(0).Swz("xyxy"), Temp(1).Swz("zwzw")),
		inst(OpDtof, Output(0).Mask(X), Temp(0).Swz("xyxy")),
		{Op: OpInterfaceCall, Extra: []uint32{1}, Operands: []Operand{{Type: RegInterface, Indices: []Index{{Imm: 0}, {Imm: 0}}}}},
		inst(OpRet),
	}}, `ps_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps | enable11_1DoubleExtensions
dcl_function_body fb0
dcl_function_body fb1
dcl_function_table ft0 = {fb0}
dcl_function_table ft1 = {fb1}
dcl_interface fp0[1][1] = {ft0, ft1}
dcl_output o0.xyzw
dcl_temps 2
ftod r0.xy, l(0.500000)
dadd r0.xy, r0.xyxy, d(1.000000l, 2.000000l)
dmul r1.zw, r0.xyxy, r0.xyxy
dlt r1.x, r0.xyxy, r1.zwzw
ddiv r0.xy, r0.xyxy, r1.zwzw
dtof o0.x, r0.xyxy
fcall fp0[0][1]
ret
`},
}

func f64words(v ...float64) []uint32 {
	var w []uint32
	for _, f := range v {
		b := math.Float64bits(f)
		w = append(w, uint32(b), uint32(b>>32))
	}
	return w
}

// Every stage's program encodes, decodes back to the same words and lists
// as fxc lists it.
func TestStagePrograms(t *testing.T) {
	for _, tc := range stagePrograms {
		t.Run(tc.desc, func(t *testing.T) {
			w, err := tc.p.Words()
			if err != nil {
				t.Fatal(err)
			}
			back, err := DecodeProgram(w)
			if err != nil {
				t.Fatal(err)
			}
			if got := back.Disassemble(); got != tc.want {
				t.Errorf("listing:\n%s\nwant:\n%s", got, tc.want)
			}
			w2, err := back.Words()
			if err != nil {
				t.Fatal(err)
			}
			if !slicesEqual(w, w2) {
				t.Error("encode(decode(words)) differs")
			}
		})
	}
}

func slicesEqual(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Every opcode of the table has a name that is not a number, and an
// opcode outside it is refused with its number and no panic.
func TestOpcodeNames(t *testing.T) {
	for op := range opTable {
		if n := op.String(); strings.HasPrefix(n, "opcode(") || n == "" {
			t.Errorf("opcode %d has no name", uint32(op))
		}
	}
	for _, n := range []Opcode{OpDclUAVTyped, OpDclThreadGroup, OpImmAtomicCmpExch, OpDmovc, OpHSForkPhase, OpEmitThenCutStream} {
		if !n.Known() {
			t.Errorf("%s is not known", n)
		}
	}
	if Opcode(107).Known() || Opcode(209).Known() {
		t.Error("a reserved opcode is known")
	}
}
