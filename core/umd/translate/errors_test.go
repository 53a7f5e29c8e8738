package translate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestUnsupported: what the ISA lacks fails with an *Error naming the
// instruction and its word offset (the opcode token really is there),
// never a panic and never a silent mistranslation.
func TestUnsupported(t *testing.T) {
	r := dxbc.Temp
	tests := []struct {
		desc  string
		stage dxbc.ProgramType
		body  func(b *dxbc.Builder)
		want  string
	}{
		{"sample_b in a vertex shader", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleB, r(0), r(1), dxbc.Texture(0), dxbc.Sampler(0), r(2).Swz("x"))
		}, "sample_b (implicit derivatives) in a vertex shader"},
		{"sample_d with an undeclared sampler", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleD, r(0), r(1), dxbc.Texture(0), dxbc.Sampler(5), r(2), r(3))
		}, "not a declared s#"},
		{"sample_c of a 3D texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.DclResource(5, dxbc.DimTexture3D, dxbc.ReturnFloat)
			b.Emit(dxbc.OpSampleC, r(0), r(1), dxbc.Texture(5), dxbc.Sampler(0), r(2).Swz("x"))
		}, "sample_c of t5, a texture3d resource: comparison sampling reads 1D, 2D and cube"},
		{"gather4 of a 1D texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.DclResource(5, dxbc.DimTexture1D, dxbc.ReturnFloat)
			b.Emit(dxbc.OpGather4, r(0), r(1), dxbc.Texture(5), dxbc.Sampler(0))
		}, "gather reads 2D and cube"},
		{"ld_raw of a texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpLdRaw, r(0), r(1).Swz("x"), dxbc.Texture(0))
		}, "ld_raw reads ByteAddressBuffers"},
		{"resinfo of a buffer", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.DclResource(5, dxbc.DimBuffer, dxbc.ReturnFloat)
			b.Emit(dxbc.OpResinfo, r(0), r(1).Swz("x"), dxbc.Texture(5))
		}, "buffers have bufinfo"},
		{"gather4_po with aoffimmi", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpGather4PO, r(0), r(1), r(2), dxbc.Texture(0), dxbc.Sampler(0))
			b.Offset(1, 0, 0)
		}, "immediate texel offsets"},
		{"lod in a vertex shader", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpLod, r(0), r(1), dxbc.Texture(0), dxbc.Sampler(0))
		}, "lod (implicit derivatives) in a vertex shader"},
		{"sampleinfo of a texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleInfo, r(0), dxbc.Texture(0))
		}, "sampleinfo of t0: not a declared Texture2DMS"},
		{"structured stride", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Declare(dxbc.Instruction{Op: dxbc.OpDclResourceStructured, Operands: []dxbc.Operand{{Type: dxbc.RegResource, Indices: []dxbc.Index{{Imm: 3}}}}, Extra: []uint32{6}})
		}, "multiple of 4"},
		{"resinfo with a negated mip", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpResinfo, r(0), r(1).Swz("x").Neg(), dxbc.Texture(0))
		}, "resinfo's mip level"},
		{"resinfo_uint_sat", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.EmitResinfo(dxbc.ResinfoUint, true, r(0), r(1).Swz("x"), dxbc.Texture(0))
		}, "resinfo_uint with _sat"},
		{"resinfo of an undeclared texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpResinfo, r(0), r(1).Swz("x"), dxbc.Texture(9))
		}, "t9 is not declared"},
		{"bufinfo", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpBufinfo, r(0), dxbc.Texture(0))
		}, "bufinfo"},
		{"case outside switch", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpCase, dxbc.ImmInt(1))
		}, "outside a switch"},
		{"call of no label", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpCall, dxbc.Operand{Type: dxbc.RegLabel, Indices: []dxbc.Index{{Imm: 0}}})
		}, "no label defines"},
		{"a double into three components", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpDadd, r(0).Mask(dxbc.XYZ), r(1), r(2))
		}, "xy, zw or xyzw"},
		{"ddiv of Direct3D 11.1", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpDdiv, r(0).Mask(dxbc.XY), r(1), r(2))
		}, "ddiv: a Direct3D 11.1 instruction"},
		{"eval_snapped", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpEvalSnapped, r(0), dxbc.Input(1), dxbc.ImmInt(1, 1, 0, 0))
		}, "EvaluateAttributeSnapped"},
		{"a UAV", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Declare(dxbc.Instruction{Op: dxbc.OpDclUAVRaw, Operands: []dxbc.Operand{{Type: dxbc.RegUAV, Indices: []dxbc.Index{{Imm: 0}}}}})
		}, "dcl_uav_raw: unordered access views"},
		{"indexable temp too big", dxbc.VertexShader, func(b *dxbc.Builder) { b.DclIndexableTemp(0, 4096, 4) }, "the GPU has 256 temporaries"},
		{"indexable temp past its end", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.DclIndexableTemp(0, 4, 4)
			b.Emit(dxbc.OpMov, dxbc.IndexableTemp(0, 4), r(0))
		}, "x0[4]"},
		{"relative input without dcl_indexrange", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpMov, r(0), dxbc.Input(1).Rel(r(1).Select(0)))
		}, "no dcl_indexrange holds register 1"},
		{"icb past end", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.DclImmediateConstantBuffer([][4]uint32{{1, 2, 3, 4}})
			b.Emit(dxbc.OpMov, r(0), dxbc.ICB(1))
		}, "icb[1]"},
		{"primitive id", dxbc.PixelShader, func(b *dxbc.Builder) { b.DclInputPSSGV(5, dxbc.X, dxbc.SVPrimitiveID) }, "PRIMID"},
		{"discard in vs", dxbc.VertexShader, func(b *dxbc.Builder) { b.EmitTest(dxbc.OpDiscard, dxbc.TestNonZero, r(0).Select(0)) }, "vertex"},
		{"deriv in vs", dxbc.VertexShader, func(b *dxbc.Builder) { b.Emit(dxbc.OpDerivRtx, r(0), r(1)) }, "vertex shader"},
		{"sample in vs", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSample, r(0), r(1), dxbc.Texture(0), dxbc.Sampler(0))
		}, "vertex shader"},
		{"condition modifier", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(0).Select(0).Neg())
			b.Emit(dxbc.OpEndif)
		}, "modifier"},
		{"undeclared temp", dxbc.VertexShader, func(b *dxbc.Builder) { b.Emit(dxbc.OpMov, r(0), r(6)) }, "r6"},
		{"undeclared texture", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSample, r(0), r(1), dxbc.Texture(9), dxbc.Sampler(0))
		}, "t9"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			b := newTestBuilder(tc.stage)
			tc.body(b)
			b.Ret()
			p, err := b.Program()
			if err != nil {
				t.Fatal(err)
			}
			_, err = translateProgram(p, nil, nil)
			var te *Error
			if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an *Error mentioning %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "translate: ") {
				t.Fatalf("%q lacks the package prefix", err)
			}
			if te.Index < 0 {
				return
			}
			words, err := p.Words()
			if err != nil {
				t.Fatal(err)
			}
			op := p.Instructions[te.Index].Op
			if te.Offset >= len(words) || dxbc.Opcode(words[te.Offset]&0x7ff) != op || te.Inst == "" {
				t.Fatalf("error %q: word %d is not the %s token", err, te.Offset, op)
			}
		})
	}
}

// TestTranslateErrors: the whole-bytecode entry point refuses what is
// not a vertex or pixel shader of the asked stage.
func TestTranslateErrors(t *testing.T) {
	fx := loadFixtures(t)[0]
	if _, err := Translate(fx.bytes, dxbc.VertexShader); err == nil || !strings.HasPrefix(err.Error(), "translate: dxbc:") {
		t.Fatalf("pixel bytecode as a vertex shader: %v", err)
	}
	if _, err := Translate(nil, dxbc.PixelShader); err == nil {
		t.Fatal("nil bytecode translated")
	}
	if _, err := FromShader(nil); err == nil {
		t.Fatal("FromShader(nil) translated")
	}
	hs := &dxbc.Program{Type: dxbc.HullShader, Major: 5, Instructions: []dxbc.Instruction{{Op: dxbc.OpRet}}}
	if _, err := translateProgram(hs, nil, nil); err == nil || !strings.Contains(err.Error(), "an instruction before the first phase") {
		t.Fatalf("hull shader without phases: %v", err)
	}
	ds := &dxbc.Program{Type: dxbc.DomainShader, Major: 5, Instructions: []dxbc.Instruction{{Op: dxbc.OpRet}}}
	if _, err := translateProgram(ds, nil, nil); err == nil || !strings.Contains(err.Error(), "declares its control-point count and domain") {
		t.Fatalf("domain shader without declarations: %v", err)
	}
	gs := &dxbc.Program{Type: dxbc.GeometryShader, Major: 4, Instructions: []dxbc.Instruction{{Op: dxbc.OpRet}}}
	if _, err := translateProgram(gs, nil, nil); err == nil || !strings.Contains(err.Error(), "declares its input primitive, output topology and maxvertexcount") {
		t.Fatalf("geometry shader without declarations: %v", err)
	}
}

// TestHalf checks the reference's binary16 decoding against the format's
// definition, (-1)^s * 2^(e-15) * (1 + m/1024), for every finite half.
func TestHalf(t *testing.T) {
	for h := range uint32(1 << 16) {
		s, e, m := h>>15, h>>10&0x1F, h&0x3FF
		if e == 31 {
			continue
		}
		v := float64(m) / 1024
		if e == 0 {
			v = math.Ldexp(v, -14)
		} else {
			v = math.Ldexp(1+v, int(e)-15)
		}
		if s == 1 {
			v = -v
		}
		if got, want := half(h|0xABCD0000), math.Float32bits(float32(v)); got != want {
			t.Fatalf("half(%#04x) = %#08x, want %#08x", h, got, want)
		}
	}
}
