package dxbc

import (
	"strings"
	"testing"
)

func TestValidateRejects(t *testing.T) {
	psIn, psOut := kitchenSignatures()
	for _, tc := range []struct {
		desc  string
		build func(b *Builder)
		stage ProgramType
		want  string
	}{
		{"wrong stage", func(b *Builder) { b.Ret() }, VertexShader, "is a pixel shader (ps_4_0), not the vertex shader"},
		{"no ret", func(b *Builder) { b.DclOutput(0, XYZW); b.Emit(OpMov, Output(0), Imm(1)) }, PixelShader, "does not end with ret"},
		{"unclosed if", func(b *Builder) { b.EmitTest(OpIf, TestNonZero, Imm(1)); b.Ret() }, PixelShader, "if is never closed"},
		{"stray endif", func(b *Builder) { b.Emit(OpEndif); b.Ret() }, PixelShader, "endif without if"},
		{"break outside loop", func(b *Builder) { b.Emit(OpBreak); b.Ret() }, PixelShader, "break outside a loop"},
		{"else twice", func(b *Builder) {
			b.EmitTest(OpIf, TestZero, Imm(1))
			b.Emit(OpElse)
			b.Emit(OpElse)
			b.Emit(OpEndif)
			b.Ret()
		}, PixelShader, "else without if"},
		{"undeclared temp", func(b *Builder) { b.DclTemps(1); b.Emit(OpMov, Temp(1), Imm(1)); b.Ret() }, PixelShader, "r1 is not declared (dcl_temps 1)"},
		{"undeclared input", func(b *Builder) { b.Emit(OpMov, Temp(0), Input(1)); b.Ret() }, PixelShader, "v1 is not declared"},
		{"undeclared output", func(b *Builder) { b.Emit(OpMov, Output(0), Imm(1)); b.Ret() }, PixelShader, "o0 is not declared"},
		{"output mask", func(b *Builder) { b.DclOutput(0, XY); b.Emit(OpMov, Output(0), Imm(1)); b.Ret() }, PixelShader, "writes o0.xyzw, declared .xy"},
		{"cb bounds", func(b *Builder) { b.DclConstantBuffer(0, 2, false); b.Emit(OpMov, Temp(0), CB(0, 2)); b.Ret() }, PixelShader, "cb0[2] is past the declared 2 vectors"},
		{"cb undeclared", func(b *Builder) { b.Emit(OpMov, Temp(0), CB(1, 0)); b.Ret() }, PixelShader, "cb1 is not declared"},
		{"sampler undeclared", func(b *Builder) {
			b.DclResource(0, DimTexture2D, ReturnFloat)
			b.Emit(OpSample, Temp(0), Imm(0, 0, 0, 0), Texture(0), Sampler(0))
			b.Ret()
		}, PixelShader, "s0 is not declared"},
		{"input not in signature", func(b *Builder) { b.DclInputPS(5, XY, InterpLinear); b.Ret() }, PixelShader, "declares v5.xy, the input signature has no element in that register"},
		{"input mask over signature", func(b *Builder) { b.DclInputPS(1, XYZ, InterpLinear); b.Ret() }, PixelShader, "declares v1.xyz, the input signature has .xy"},
		{"output not in signature", func(b *Builder) { b.DclOutput(1, XYZW); b.Ret() }, PixelShader, "declares o1.xyzw, the output signature has no element"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			b := NewBuilder(PixelShader, 4, 0)
			tc.build(b)
			blob, err := b.Build(psIn, psOut, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Validate(blob, tc.stage)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestValidateContainer(t *testing.T) {
	p, _ := nuklearPS().Program()
	code, _ := p.Bytes()
	in, out := kitchenSignatures()
	for _, tc := range []struct {
		desc   string
		chunks []Chunk
		want   string
	}{
		{"no code", []Chunk{{"ISGN", in.Bytes()}, {"OSGN", out.Bytes()}}, "no SHDR or SHEX chunk"},
		{"no input signature", []Chunk{{"OSGN", out.Bytes()}, {"SHDR", code}}, "no input signature (ISGN)"},
		{"no output signature", []Chunk{{"ISGN", in.Bytes()}, {"SHDR", code}}, "no output signature (OSGN)"},
		{"SM4 code in SHEX", []Chunk{{"ISGN", in.Bytes()}, {"OSGN", out.Bytes()}, {"SHEX", code}}, "a ps_4_0 program must be in a SHDR chunk"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			blob, err := (&Container{Chunks: tc.chunks}).Build()
			if err != nil {
				t.Fatal(err)
			}
			_, err = Validate(blob, PixelShader)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestLinkRules(t *testing.T) {
	pos := Element{Name: "SV_Position", SystemValue: SVPosition, ComponentType: ComponentFloat32, Register: 0, Mask: XYZW}
	uv := Element{Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 1, Mask: XY}
	vs := &Signature{Elements: []Element{pos, uv}}
	for _, tc := range []struct {
		desc string
		vs   *Signature
		ps   []Element
		want string
	}{
		{"matching", vs, []Element{pos, uv}, ""},
		{"pixel shader takes fewer", vs, []Element{pos}, ""},
		{"semantic case", vs, []Element{pos, {Name: "texcoord", ComponentType: ComponentFloat32, Register: 1, Mask: X, ReadWrite: X}}, ""},
		{"front face is the rasterizer's", vs, []Element{pos, uv, {Name: "SV_IsFrontFace", SystemValue: SVIsFrontFace, ComponentType: ComponentUint32, Register: 2, Mask: X}}, ""},
		{"no SV_Position", &Signature{Elements: []Element{uv}}, []Element{uv}, "does not output SV_Position"},
		{"missing semantic", vs, []Element{pos, {Name: "COLOR", ComponentType: ComponentFloat32, Register: 1, Mask: XYZW}}, "input COLOR0 (v1) is not a vertex shader output"},
		{"register", vs, []Element{pos, {Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 2, Mask: XY}}, "TEXCOORD0 is o1 in the vertex shader but v2"},
		{"component type", vs, []Element{pos, {Name: "TEXCOORD", ComponentType: ComponentUint32, Register: 1, Mask: XY}}, "is float in the vertex shader but uint"},
		{"mask", vs, []Element{pos, {Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 1, Mask: XYZ}}, "the pixel shader takes .xyz, the vertex shader outputs .xy"},
		{"reads unwritten", &Signature{Elements: []Element{pos, {Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 1, Mask: XY, ReadWrite: Y}}},
			[]Element{pos, {Name: "TEXCOORD", ComponentType: ComponentFloat32, Register: 1, Mask: XY, ReadWrite: XY}}, "reads .xy, the vertex shader writes .x"},
		{"SV_Position fed by another", &Signature{Elements: []Element{pos, {Name: "SV_POSITION", Index: 1, ComponentType: ComponentFloat32, Register: 1, Mask: XYZW}}},
			[]Element{{Name: "SV_Position", Index: 1, SystemValue: SVPosition, ComponentType: ComponentFloat32, Register: 1, Mask: XYZW}}, "is fed by SV_POSITION1, which is not SV_Position"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			err := Link(tc.vs, &Signature{Elements: tc.ps})
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
