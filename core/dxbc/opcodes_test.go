package dxbc

import (
	"strings"
	"testing"
)

// everyOpcode emits each instruction a shader model 4/5 vertex or pixel
// shader uses once, with operands of the right count; the want column is
// its listing line.
var everyOpcode = []struct {
	op   Opcode
	ops  []Operand
	want string
}{
	{OpMov, []Operand{Temp(0), Imm(1, 2, 3, 4)}, "mov r0.xyzw, l(1.000000,2.000000,3.000000,4.000000)"},
	{OpMovc, []Operand{Temp(1), Temp(0).Swz("x"), Temp(0), Imm(0)}, "movc r1.xyzw, r0.xxxx, r0.xyzw, l(0)"},
	{OpAdd, []Operand{Temp(1), Temp(1), Temp(0).Neg()}, "add r1.xyzw, r1.xyzw, -r0.xyzw"},
	{OpMul, []Operand{Temp(1), Temp(1), Temp(0).Abs()}, "mul r1.xyzw, r1.xyzw, |r0.xyzw|"},
	{OpMad, []Operand{Temp(1), Temp(1), Temp(0), Temp(0).Abs().Neg()}, "mad r1.xyzw, r1.xyzw, r0.xyzw, -|r0.xyzw|"},
	{OpDiv, []Operand{Temp(1), Temp(1), Imm(2)}, "div r1.xyzw, r1.xyzw, l(2.000000)"},
	{OpDp2, []Operand{Temp(2).Mask(X), Temp(1), Temp(0)}, "dp2 r2.x, r1.xyzw, r0.xyzw"},
	{OpDp3, []Operand{Temp(2).Mask(Y), Temp(1), Temp(0)}, "dp3 r2.y, r1.xyzw, r0.xyzw"},
	{OpDp4, []Operand{Temp(2).Mask(Z), Temp(1), Temp(0)}, "dp4 r2.z, r1.xyzw, r0.xyzw"},
	{OpMin, []Operand{Temp(1), Temp(1), Temp(0)}, "min r1.xyzw, r1.xyzw, r0.xyzw"},
	{OpMax, []Operand{Temp(1), Temp(1), Temp(0)}, "max r1.xyzw, r1.xyzw, r0.xyzw"},
	{OpRsq, []Operand{Temp(1), Temp(1)}, "rsq r1.xyzw, r1.xyzw"},
	{OpSqrt, []Operand{Temp(1), Temp(1)}, "sqrt r1.xyzw, r1.xyzw"},
	{OpExp, []Operand{Temp(1), Temp(1)}, "exp r1.xyzw, r1.xyzw"},
	{OpLog, []Operand{Temp(1), Temp(1)}, "log r1.xyzw, r1.xyzw"},
	{OpSincos, []Operand{Temp(2).Mask(X), Temp(2).Mask(Y), Temp(1).Swz("x")}, "sincos r2.x, r2.y, r1.xxxx"},
	{OpFrc, []Operand{Temp(1), Temp(1)}, "frc r1.xyzw, r1.xyzw"},
	{OpRoundNE, []Operand{Temp(1), Temp(1)}, "round_ne r1.xyzw, r1.xyzw"},
	{OpRoundNI, []Operand{Temp(1), Temp(1)}, "round_ni r1.xyzw, r1.xyzw"},
	{OpRoundPI, []Operand{Temp(1), Temp(1)}, "round_pi r1.xyzw, r1.xyzw"},
	{OpRoundZ, []Operand{Temp(1), Temp(1)}, "round_z r1.xyzw, r1.xyzw"},
	{OpLt, []Operand{Temp(3), Temp(1), Temp(0)}, "lt r3.xyzw, r1.xyzw, r0.xyzw"},
	{OpGe, []Operand{Temp(3), Temp(1), Temp(0)}, "ge r3.xyzw, r1.xyzw, r0.xyzw"},
	{OpEq, []Operand{Temp(3), Temp(1), Temp(0)}, "eq r3.xyzw, r1.xyzw, r0.xyzw"},
	{OpNe, []Operand{Temp(3), Temp(1), Temp(0)}, "ne r3.xyzw, r1.xyzw, r0.xyzw"},
	{OpAnd, []Operand{Temp(3), Temp(3), ImmUint(1, 2, 3, 4)}, "and r3.xyzw, r3.xyzw, l(1, 2, 3, 4)"},
	{OpOr, []Operand{Temp(3), Temp(3), Temp(3)}, "or r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpXor, []Operand{Temp(3), Temp(3), Temp(3)}, "xor r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpNot, []Operand{Temp(3), Temp(3)}, "not r3.xyzw, r3.xyzw"},
	{OpIshl, []Operand{Temp(3), Temp(3), ImmInt(1)}, "ishl r3.xyzw, r3.xyzw, l(1)"},
	{OpIshr, []Operand{Temp(3), Temp(3), ImmInt(-1)}, "ishr r3.xyzw, r3.xyzw, l(-1)"},
	{OpUshr, []Operand{Temp(3), Temp(3), ImmUint(1)}, "ushr r3.xyzw, r3.xyzw, l(1)"},
	{OpIadd, []Operand{Temp(3), Temp(3), Temp(3).Neg()}, "iadd r3.xyzw, r3.xyzw, -r3.xyzw"},
	{OpImul, []Operand{Null(), Temp(3), Temp(3), Temp(3)}, "imul null, r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpImad, []Operand{Temp(3), Temp(3), Temp(3), Temp(3)}, "imad r3.xyzw, r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpIneg, []Operand{Temp(3), Temp(3)}, "ineg r3.xyzw, r3.xyzw"},
	{OpImin, []Operand{Temp(3), Temp(3), Temp(3)}, "imin r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpImax, []Operand{Temp(3), Temp(3), Temp(3)}, "imax r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpUmin, []Operand{Temp(3), Temp(3), Temp(3)}, "umin r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpUmax, []Operand{Temp(3), Temp(3), Temp(3)}, "umax r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpIlt, []Operand{Temp(3), Temp(3), Temp(3)}, "ilt r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpIge, []Operand{Temp(3), Temp(3), Temp(3)}, "ige r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpIeq, []Operand{Temp(3), Temp(3), Temp(3)}, "ieq r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpIne, []Operand{Temp(3), Temp(3), Temp(3)}, "ine r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpUlt, []Operand{Temp(3), Temp(3), Temp(3)}, "ult r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpUge, []Operand{Temp(3), Temp(3), Temp(3)}, "uge r3.xyzw, r3.xyzw, r3.xyzw"},
	{OpUdiv, []Operand{Temp(3), Null(), Temp(3), ImmUint(3)}, "udiv r3.xyzw, null, r3.xyzw, l(3)"},
	{OpItof, []Operand{Temp(1), Temp(3)}, "itof r1.xyzw, r3.xyzw"},
	{OpUtof, []Operand{Temp(1), Temp(3)}, "utof r1.xyzw, r3.xyzw"},
	{OpFtoi, []Operand{Temp(3), Temp(1)}, "ftoi r3.xyzw, r1.xyzw"},
	{OpFtou, []Operand{Temp(3), Temp(1)}, "ftou r3.xyzw, r1.xyzw"},
	{OpF32toF16, []Operand{Temp(3), Temp(1)}, "f32tof16 r3.xyzw, r1.xyzw"},
	{OpF16toF32, []Operand{Temp(1), Temp(3)}, "f16tof32 r1.xyzw, r3.xyzw"},
	{OpSample, []Operand{Temp(1), Input(1).Swz("xyxx"), Texture(0), Sampler(0)}, "sample r1.xyzw, v1.xyxx, t0.xyzw, s0"},
	{OpSampleL, []Operand{Temp(1), Input(1).Swz("xyxx"), Texture(0), Sampler(0), Imm(0)}, "sample_l r1.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)"},
	{OpSampleB, []Operand{Temp(1), Input(1).Swz("xyxx"), Texture(0), Sampler(0), Imm(-1)}, "sample_b r1.xyzw, v1.xyxx, t0.xyzw, s0, l(-1.000000)"},
	{OpSampleD, []Operand{Temp(1), Input(1).Swz("xyxx"), Texture(0), Sampler(0), Temp(2).Swz("xyxx"), Temp(2).Swz("zwzz")}, "sample_d r1.xyzw, v1.xyxx, t0.xyzw, s0, r2.xyxx, r2.zwzz"},
	{OpSampleC, []Operand{Temp(1).Mask(X), Input(1).Swz("xyxx"), Texture(1).Swz("x"), Sampler(1), Imm(0.5)}, "sample_c r1.x, v1.xyxx, t1.xxxx, s1, l(0.500000)"},
	{OpSampleCLZ, []Operand{Temp(1).Mask(X), Input(1).Swz("xyxx"), Texture(1).Swz("x"), Sampler(1), Imm(0.5)}, "sample_c_lz r1.x, v1.xyxx, t1.xxxx, s1, l(0.500000)"},
	{OpLd, []Operand{Temp(1), ImmInt(0, 0, 0, 0), Texture(0)}, "ld r1.xyzw, l(0, 0, 0, 0), t0.xyzw"},
	{OpResinfo, []Operand{Temp(1), ImmUint(0), Texture(0)}, "resinfo r1.xyzw, l(0), t0.xyzw"},
	{OpDerivRtx, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rtx r1.xyzw, v1.xyxx"},
	{OpDerivRty, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rty r1.xyzw, v1.xyxx"},
	{OpDerivRtxCoarse, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rtx_coarse r1.xyzw, v1.xyxx"},
	{OpDerivRtxFine, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rtx_fine r1.xyzw, v1.xyxx"},
	{OpDerivRtyCoarse, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rty_coarse r1.xyzw, v1.xyxx"},
	{OpDerivRtyFine, []Operand{Temp(1), Input(1).Swz("xyxx")}, "deriv_rty_fine r1.xyzw, v1.xyxx"},
	{OpNop, nil, "nop"},
}

// allOpcodesShader is a ps_5_0 emitting everything in everyOpcode, then
// the flow control (loop, switch, call/label, discard), writing o0.
// vkd3d-compiler 1.2 does not know call and label: calls false leaves the
// subroutine out.
func allOpcodesShader(calls bool) *Builder {
	b := NewBuilder(PixelShader, 5, 0)
	b.DclSampler(0, SamplerDefault)
	b.DclSampler(1, SamplerComparison)
	b.DclResource(0, DimTexture2D, ReturnFloat)
	b.DclResource(1, DimTexture2D, ReturnFloat)
	b.DclInputPSSIV(0, XYZW, InterpLinearNoPerspective, SVPosition)
	b.DclInputPS(1, XY, InterpLinear)
	b.DclOutput(0, XYZW)
	for _, e := range everyOpcode {
		b.Emit(e.op, e.ops...)
	}
	b.Emit(OpLoop)
	b.EmitTest(OpBreakc, TestZero, Temp(3).Select(0))
	b.Emit(OpIadd, Temp(3).Mask(X), Temp(3).Swz("x"), ImmInt(-1))
	b.EmitTest(OpContinuec, TestNonZero, Temp(3).Select(1))
	b.EmitTest(OpIf, TestZero, Temp(3).Select(2))
	b.Emit(OpContinue)
	b.Emit(OpEndif)
	b.Emit(OpMov, Temp(3).Mask(Y), ImmInt(0))
	b.Emit(OpEndloop)
	b.Emit(OpSwitch, Temp(3).Select(2))
	b.Emit(OpCase, ImmInt(0))
	b.Emit(OpCase, ImmInt(1))
	b.Emit(OpMov, Temp(1), Imm(0))
	b.Emit(OpBreak)
	b.Emit(OpDefault)
	b.Emit(OpBreak)
	b.Emit(OpEndswitch)
	b.EmitTest(OpIf, TestZero, Temp(3).Select(3))
	b.EmitTest(OpDiscard, TestNonZero, Temp(3).Select(3))
	b.Emit(OpEndif)
	if calls {
		b.Emit(OpCall, Operand{Type: RegLabel, Indices: []Index{{Imm: 0}}})
	}
	b.EmitTest(OpRetc, TestNonZero, Temp(3).Select(0))
	b.Emit(OpMov, Output(0), Temp(1))
	b.Ret()
	if calls {
		b.Emit(OpLabel, Operand{Type: RegLabel, Indices: []Index{{Imm: 0}}})
		b.Emit(OpMov, Temp(1), Imm(1))
		b.Ret()
	}
	return b
}

func TestEveryOpcode(t *testing.T) {
	p, err := allOpcodesShader(true).Program()
	if err != nil {
		t.Fatal(err)
	}
	text := p.Disassemble()
	for _, e := range everyOpcode {
		if !strings.Contains(text, "\n"+e.want+"\n") {
			t.Errorf("%s: listing lacks %q", e.op, e.want)
		}
	}
	for _, want := range []string{"\nloop\n  breakc_z r3.x\n  iadd r3.x, r3.xxxx, l(-1)\n  continuec_nz r3.y\n  if_z r3.z\n    continue\n  endif\n", "\nswitch r3.z\n  case l(0)\n  case l(1)\n",
		"\nif_z r3.w\n  discard_nz r3.w\nendif\ncall l0\nretc_nz r3.x\n", "\nret\nlabel l0\nmov r1.xyzw, l(1.000000)\nret\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("listing lacks %q", want)
		}
	}
	w, err := p.Words()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeProgram(w)
	if err != nil {
		t.Fatal(err)
	}
	if back.Disassemble() != text {
		t.Error("decode(encode) lists differently")
	}
	in, out := kitchenSignatures()
	blob, err := BuildShader(p, in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Validate(blob, PixelShader); err != nil {
		t.Fatal(err)
	}
}

func TestImmediateConstantBuffer(t *testing.T) {
	b := NewBuilder(VertexShader, 4, 0)
	b.DclImmediateConstantBuffer([][4]uint32{{0x3f800000, 0, 0, 0}, {0, 0x3f800000, 0, 0}})
	b.DclInputSGV(0, X, SVVertexID)
	b.DclOutputSIV(0, XYZW, SVPosition)
	b.Emit(OpMov, Output(0), ICB(0).Rel(Input(0).Select(0)))
	b.Ret()
	p, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	want := `vs_4_0
dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},
                              { 0, 1.000000, 0, 0} }
dcl_input_sgv v0.x, vertex_id
dcl_output_siv o0.xyzw, position
mov o0.xyzw, icb[v0.x + 0].xyzw
ret
`
	if got := p.Disassemble(); got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	in := &Signature{Elements: []Element{{Name: "SV_VertexID", SystemValue: SVVertexID, ComponentType: ComponentUint32, Mask: X, ReadWrite: X}}}
	out := &Signature{Elements: []Element{{Name: "SV_Position", SystemValue: SVPosition, ComponentType: ComponentFloat32, Mask: XYZW}}}
	blob, err := BuildShader(p, in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Validate(blob, VertexShader); err != nil {
		t.Fatal(err)
	}
}
