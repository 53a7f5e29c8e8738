package dxbc

import (
	"strings"
	"testing"
)

func fixtureChunk(t *testing.T, name, fourcc string) []byte {
	t.Helper()
	for _, f := range loadFixtures(t) {
		if f.name == name {
			c, err := Parse(f.bytes)
			if err != nil {
				t.Fatal(err)
			}
			if ch := c.Chunk(fourcc); ch != nil {
				return ch.Data
			}
			t.Fatalf("%s has no %s", name, fourcc)
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// nuklearPS is Nuklear's pixel shader, written through the builder.
func nuklearPS() *Builder {
	b := NewBuilder(PixelShader, 4, 0)
	b.DclOutput(0, XYZW) // out of order on purpose: Program sorts declarations
	b.DclSampler(0, SamplerDefault)
	b.DclResource(0, DimTexture2D, ReturnFloat)
	b.DclInputPS(1, XYZW, InterpLinear)
	b.DclInputPS(2, XY, InterpLinear)
	b.Emit(OpSample, Temp(0), Input(2).Swz("xyxx"), Texture(0), Sampler(0))
	b.Emit(OpMul, Output(0), Temp(0), Input(1))
	b.Ret()
	return b
}

// sdlVS is SDL's vertex shader (two matrix multiplies), through the builder.
func sdlVS() *Builder {
	b := NewBuilder(VertexShader, 4, 0)
	b.DclConstantBuffer(0, 8, false)
	b.DclInput(0, XYZ)
	b.DclInput(1, XY)
	b.DclInput(2, XYZW)
	b.DclOutputSIV(0, XYZW, SVPosition)
	b.DclOutput(1, XY)
	b.DclOutput(2, XYZW)
	b.Emit(OpMul, Temp(0), Input(0).Swz("y"), CB(0, 1))
	b.Emit(OpMad, Temp(0), Input(0).Swz("x"), CB(0, 0), Temp(0))
	b.Emit(OpMad, Temp(0), Input(0).Swz("z"), CB(0, 2), Temp(0))
	b.Emit(OpAdd, Temp(0), Temp(0), CB(0, 3))
	b.Emit(OpMul, Temp(1), Temp(0).Swz("y"), CB(0, 5))
	b.Emit(OpMad, Temp(1), Temp(0).Swz("x"), CB(0, 4), Temp(1))
	b.Emit(OpMad, Temp(1), Temp(0).Swz("z"), CB(0, 6), Temp(1))
	b.Emit(OpMad, Output(0), Temp(0).Swz("w"), CB(0, 7), Temp(1))
	b.Emit(OpMov, Output(1).Mask(XY), Input(1).Mask(XY))
	b.Emit(OpMov, Output(2), Input(2))
	b.Ret()
	return b
}

// The builder writes exactly the tokens fxc wrote for the same shaders.
func TestBuilderMatchesFxc(t *testing.T) {
	for _, tc := range []struct {
		desc, fixture string
		b             *Builder
	}{
		{"nuklear pixel shader", "nuklear_d3d11_pixel_shader.h", nuklearPS()},
		{"SDL vertex shader", "sdl_D3D11_VertexShader.h", sdlVS()},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			p, err := tc.b.Program()
			if err != nil {
				t.Fatal(err)
			}
			code, err := p.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			want := fixtureChunk(t, tc.fixture, "SHDR")
			if string(code) != string(want) {
				got, _ := ParseProgram(code)
				w, _ := ParseProgram(want)
				t.Errorf("tokens differ\n got:\n%s\nwant:\n%s", got.Disassemble(), w.Disassemble())
			}
			// With fxc's signatures the container validates.
			in, _ := ParseSignature("ISGN", fixtureChunk(t, tc.fixture, "ISGN"))
			out, _ := ParseSignature("OSGN", fixtureChunk(t, tc.fixture, "OSGN"))
			blob, err := tc.b.Build(in, out, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Validate(blob, p.Type); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// sm5Kitchen is a ps_5_0 using the flow control, integer and sampling
// instructions a compiler emits, for the disassembler and the oracle.
func sm5Kitchen() *Builder {
	b := NewBuilder(PixelShader, 5, 0)
	b.GlobalFlags(FlagRefactoringAllowed)
	b.DclConstantBuffer(0, 4, true)
	b.DclSampler(0, SamplerDefault)
	b.DclSampler(1, SamplerComparison)
	b.DclResource(0, DimTexture2D, ReturnFloat)
	b.DclInputPSSIV(0, XYZW, InterpLinearNoPerspective, SVPosition)
	b.DclInputPS(1, XY, InterpLinear)
	b.DclInputPS(2, X, InterpConstant)
	b.DclOutput(0, XYZW)
	b.DclIndexableTemp(0, 4, 4)
	b.Emit(OpFtoi, Temp(0).Mask(X), Input(2).Swz("x"))
	b.Emit(OpMov, Temp(1), Imm(0, 0.5, 0, 1))
	b.Emit(OpMov, IndexableTemp(0, 0).Rel(Temp(0).Select(0)), Temp(1))
	b.Emit(OpMov, Temp(1), CB(0, 0).Rel(Temp(0).Select(0)))
	b.EmitTest(OpIf, TestNonZero, Temp(0).Select(0))
	b.EmitSample(OpSampleL, DimTexture2D, ReturnFloat, Temp(2), Input(1).Swz("xyxx"), Texture(0), Sampler(0), Imm(0))
	b.Emit(OpElse)
	b.EmitSample(OpSampleCLZ, DimTexture2D, ReturnFloat, Temp(2).Mask(X), Input(1).Swz("xyxx"), Texture(0).Swz("x"), Sampler(1), Imm(0.5))
	b.Emit(OpEndif)
	b.Emit(OpMov, Temp(3).Mask(X), ImmInt(0))
	b.Emit(OpLoop)
	b.Emit(OpIge, Temp(3).Mask(Y), Temp(3).Swz("x"), ImmInt(4))
	b.EmitTest(OpBreakc, TestNonZero, Temp(3).Select(1))
	b.Emit(OpIadd, Temp(3).Mask(X), Temp(3).Swz("x"), ImmInt(1))
	b.Emit(OpIshl, Temp(3).Mask(Z), Temp(3).Swz("x"), ImmInt(2))
	b.Emit(OpUshr, Temp(3).Mask(Z), Temp(3).Swz("z"), ImmUint(1))
	b.Emit(OpAnd, Temp(3).Mask(Z), Temp(3).Swz("z"), ImmUint(0xff))
	b.Emit(OpUtof, Temp(3).Mask(W), Temp(3).Swz("z"))
	b.EmitSat(OpMad, Temp(2), Temp(2), Temp(3).Swz("w"), Temp(1).Neg())
	b.Emit(OpEndloop)
	b.Emit(OpSwitch, Temp(0).Select(0))
	b.Emit(OpCase, ImmInt(1))
	b.Emit(OpDp3, Temp(2).Mask(W), Temp(2).Abs(), Imm(0.25, 0.5, 0.25, 0))
	b.Emit(OpBreak)
	b.Emit(OpDefault)
	b.Emit(OpSqrt, Temp(2).Mask(W), Temp(2).Swz("w"))
	b.Emit(OpBreak)
	b.Emit(OpEndswitch)
	b.Emit(OpDerivRtxFine, Temp(1).Mask(XY), Input(1).Swz("xyxx"))
	b.Emit(OpLt, Temp(1).Mask(Z), Temp(1).Swz("x"), Imm(0))
	b.EmitTest(OpDiscard, TestNonZero, Temp(1).Select(2))
	b.Emit(OpSincos, Temp(1).Mask(X), Null(), Input(0).Swz("x"))
	b.Emit(OpMovc, Output(0), Temp(1).Swz("xxxx"), Temp(2), Imm(1, 0, 1, 1))
	b.Ret()
	return b
}

const sm5KitchenText = `ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[4], dynamicIndexed
dcl_sampler s0, mode_default
dcl_sampler s1, mode_comparison
dcl_resource_texture2d (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.xyzw, position
dcl_input_ps linear v1.xy
dcl_input_ps constant v2.x
dcl_output o0.xyzw
dcl_temps 4
dcl_indexableTemp x0[4], 4
ftoi r0.x, v2.xxxx
mov r1.xyzw, l(0,0.500000,0,1.000000)
mov x0[r0.x + 0].xyzw, r1.xyzw
mov r1.xyzw, cb0[r0.x + 0].xyzw
if_nz r0.x
  sample_l_indexable(texture2d)(float,float,float,float) r2.xyzw, v1.xyxx, t0.xyzw, s0, l(0.000000)
else
  sample_c_lz_indexable(texture2d)(float,float,float,float) r2.x, v1.xyxx, t0.xxxx, s1, l(0.500000)
endif
mov r3.x, l(0)
loop
  ige r3.y, r3.xxxx, l(4)
  breakc_nz r3.y
  iadd r3.x, r3.xxxx, l(1)
  ishl r3.z, r3.xxxx, l(2)
  ushr r3.z, r3.zzzz, l(1)
  and r3.z, r3.zzzz, l(255)
  utof r3.w, r3.zzzz
  mad_sat r2.xyzw, r2.xyzw, r3.wwww, -r1.xyzw
endloop
switch r0.x
  case l(1)
  dp3 r2.w, |r2.xyzw|, l(0.250000, 0.500000, 0.250000, 0.000000)
  break
  default
  sqrt r2.w, r2.wwww
  break
endswitch
deriv_rtx_fine r1.xy, v1.xyxx
lt r1.z, r1.xxxx, l(0.000000)
discard_nz r1.z
sincos r1.x, null, v0.xxxx
movc o0.xyzw, r1.xxxx, r2.xyzw, l(1.000000,0,1.000000,1.000000)
ret
`

func TestBuilderDisassembly(t *testing.T) {
	p, err := sm5Kitchen().Program()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Disassemble(); got != sm5KitchenText {
		t.Errorf("disassembly:\n%s\nwant:\n%s", got, sm5KitchenText)
	}
	// Decoding the encoded program gives it back.
	w, err := p.Words()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeProgram(w)
	if err != nil {
		t.Fatal(err)
	}
	if back.Disassemble() != sm5KitchenText {
		t.Error("decode(encode(p)) disassembles differently")
	}
}

func TestBuilderErrors(t *testing.T) {
	for _, tc := range []struct {
		desc string
		emit func(b *Builder)
		want string
	}{
		{"operand count", func(b *Builder) { b.Emit(OpAdd, Temp(0), Temp(1)) }, "add takes 3 operands"},
		{"swizzled destination", func(b *Builder) { b.Emit(OpMov, Temp(0).Swz("x"), Temp(1)) }, "destinations take a mask"},
		{"negated destination", func(b *Builder) { b.Emit(OpMov, Temp(0).Neg(), Temp(1)) }, "source modifier"},
		{"declaration through Emit", func(b *Builder) { b.Emit(OpDclTemps) }, "not dcl_temps"},
		{"bad swizzle text", func(b *Builder) { b.Emit(OpMov, Temp(0), Temp(1).Swz("xq")) }, "0, 1 or 4 components"},
		{"five immediates", func(b *Builder) { b.Emit(OpMov, Temp(0), Imm(1, 2, 3, 4, 5)) }, "needs 4 words, has 5"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			b := NewBuilder(PixelShader, 4, 0)
			tc.emit(b)
			b.Ret()
			_, err := b.Program()
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// EmitResinfo writes the return type into the controls, as fxc does.
func TestBuilderResinfo(t *testing.T) {
	for _, tc := range []struct {
		ret  uint32
		sat  bool
		want string
	}{
		{ResinfoFloat, false, "resinfo r0.xyzw, l(0), t0.xyzw"},
		{ResinfoRcpFloat, true, "resinfo_rcpFloat_sat r0.xyzw, l(0), t0.xyzw"},
		{ResinfoUint, false, "resinfo_uint r0.xyzw, l(0), t0.xyzw"},
	} {
		b := NewBuilder(PixelShader, 4, 0)
		b.DclResource(0, DimTexture2D, ReturnFloat)
		b.DclTemps(1)
		b.EmitResinfo(tc.ret, tc.sat, Temp(0), ImmInt(0), Texture(0))
		b.Ret()
		p, err := b.Program()
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Disassemble(); !strings.Contains(got, tc.want+"\n") {
			t.Errorf("ret %d sat %v:\n%s\nwant a line %q", tc.ret, tc.sat, got, tc.want)
		}
	}
}
