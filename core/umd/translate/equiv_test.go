package translate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/gpu/shader"
	"d3dsim/gpu/shaderisa"
)

// randWord is a register value: mostly floats (small, halves, special
// values), some small integers and raw bits, so that compares, shifts,
// conversions and NaN rules are all exercised.
func randWord(r *rand.Rand) uint32 {
	specials := []uint32{0, 0x80000000, u(1), u(-1), u(0.5), 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
		0x7F800001, 1, 0x807FFFFF, u(math.MaxFloat32), u(3e9), u(-3e9), u(65536.5), 0xFFFFFFFF, 31, 32, 33}
	switch r.IntN(11) {
	case 10:
		return u(float32(r.IntN(5)))
	case 0:
		return specials[r.IntN(len(specials))]
	case 1, 2:
		return uint32(r.IntN(13) - 4)
	case 3:
		return r.Uint32()
	case 4, 5:
		return u(float32(r.IntN(33)-16) / 4)
	}
	return u(float32(r.Float64()*16 - 8))
}

// checkEquiv translates p and runs it on the ISA machine and on the
// reference over blocks of random inputs (seeded), comparing outputs bit
// for bit, and for pixel shaders which lanes survive discard.
func checkEquiv(t *testing.T, p *dxbc.Program, seed uint64, rounds int) {
	t.Helper()
	sh, err := translateProgram(p, nil, nil)
	if err != nil {
		t.Fatalf("translate: %v", err)
	}
	dec, err := shaderisa.Decode(sh.Code)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if !slices.Equal(dec.Encode(), sh.Code) {
		t.Fatal("Decode(Code).Encode() differs from Code")
	}
	r := rand.New(rand.NewPCG(seed, 21))
	m := shader.NewMachine(sh.Program)
	var env *refEnv
	for block := range 2 * rounds {
		if block%2 == 0 {
			// New constants every other block: branches on them go both ways.
			env = &refEnv{cb: map[[2]uint32]vec{}}
			for _, c := range sh.ConstantBuffers {
				for e := range c.Vec4s {
					env.cb[[2]uint32{c.Slot, e}] = vec{randWord(r), randWord(r), randWord(r), randWord(r)}
				}
			}
			if err := m.Bind(env, env); err != nil {
				t.Fatal(err)
			}
		}
		ref := newRef(p, env, shader.Lanes, sh.Program.Inputs, sh.Program.Outputs, sh.Program.Temps)
		for i := range sh.Program.Inputs {
			in := m.In(i)
			for l := range shader.Lanes {
				for c := range 4 {
					w := randWord(r)
					if uint32(i)+1 == sh.SampleCountReg {
						// The render target's sample count, which the GPU
						// gives (msaa.go): the reference's one sample.
						w = map[bool]uint32{true: 1, false: 0}[c == 0]
					}
					in[c][l] = w
					ref.lanes[l].v[i][c] = w
				}
			}
		}
		alive, err := m.Run(shader.AllLanes)
		if err != nil {
			t.Fatalf("block %d: run: %v", block, err)
		}
		ref.run()
		for l := range shader.Lanes {
			lane := &ref.lanes[l]
			if got := alive>>l&1 != 0; got == lane.dead && sh.Stage == shaderisa.StagePixel {
				t.Fatalf("block %d lane %d: alive %v, reference discarded %v\n%s", block, l, got, lane.dead, sh.Listing())
			}
			if lane.dead {
				continue
			}
			for o := range sh.Program.Outputs {
				for c := range 4 {
					if got, want := m.Out(o)[c][l], lane.o[o][c]; got != want {
						t.Fatalf("block %d lane %d: o%d.%c = %#08x (%g), reference %#08x (%g); inputs %#08x\n%s",
							block, l, o, "xyzw"[c], got, f(got), want, f(want), lane.v, sh.Listing())
					}
				}
			}
		}
	}
}

// newTestBuilder declares what the opcode programs use: cb0[8], cb1[4],
// inputs v0..v3, outputs o0..o3, r0..r5; pixel shaders also s0, s1, a 2D
// texture t0 and a 2D array t1. The prologue moves v0..v3 to r0..r3.
func newTestBuilder(stage dxbc.ProgramType) *dxbc.Builder {
	b := dxbc.NewBuilder(stage, 5, 0)
	b.DclConstantBuffer(0, 8, true)
	b.DclConstantBuffer(1, 4, false)
	b.DclSampler(0, dxbc.SamplerDefault)
	b.DclSampler(1, dxbc.SamplerDefault)
	b.DclResource(0, dxbc.DimTexture2D, dxbc.ReturnFloat)
	b.DclResource(1, dxbc.DimTexture2DArray, dxbc.ReturnFloat)
	for i := range uint32(4) {
		if stage == dxbc.PixelShader {
			b.DclInputPS(i, dxbc.XYZW, dxbc.InterpLinear)
			b.DclOutput(i, dxbc.XYZW)
		} else {
			b.DclInput(i, dxbc.XYZW)
			if i == 0 {
				b.DclOutputSIV(0, dxbc.XYZW, dxbc.SVPosition)
			} else {
				b.DclOutput(i, dxbc.XYZW)
			}
		}
	}
	b.DclTemps(6)
	for i := range uint32(4) {
		b.Emit(dxbc.OpMov, dxbc.Temp(i), dxbc.Input(i))
	}
	b.Emit(dxbc.OpMov, dxbc.Temp(4), dxbc.CB(1, 2))
	b.Emit(dxbc.OpMov, dxbc.Temp(5), dxbc.ImmUint(1, 2, 3, 0xFFFFFFFF))
	return b
}

// declLaterResources declares what the later texture ops read: a
// comparison sampler s2, a cube t2, a structured buffer t3 (stride 20),
// a raw one t4, a typed one t5, a 3D texture t6, an unbound 2D t7, a 1D
// array t8 and a cube array t9 (refEnv.Info gives their views).
func declLaterResources(b *dxbc.Builder) {
	b.DclSampler(2, dxbc.SamplerComparison)
	b.DclResource(2, dxbc.DimTextureCube, dxbc.ReturnFloat)
	t := func(n uint32) []dxbc.Operand {
		return []dxbc.Operand{{Type: dxbc.RegResource, Indices: []dxbc.Index{{Imm: uint64(n)}}}}
	}
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclResourceStructured, Operands: t(3), Extra: []uint32{20}})
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclResourceRaw, Operands: t(4)})
	b.DclResource(5, dxbc.DimBuffer, dxbc.ReturnUInt)
	b.DclResource(6, dxbc.DimTexture3D, dxbc.ReturnFloat)
	b.DclResource(7, dxbc.DimTexture2D, dxbc.ReturnFloat)
	b.DclResource(8, dxbc.DimTexture1DArray, dxbc.ReturnSInt)
	b.DclResource(9, dxbc.DimTextureCubeArray, dxbc.ReturnFloat)
}

// selSampler is s<n>.<c> as gather4 selects a channel (select-1).
func selSampler(n uint32, c uint8) dxbc.Operand {
	return dxbc.Operand{Type: dxbc.RegSampler, Components: 4, Mode: dxbc.SelectOne, Swiz: [4]uint8{c}, Indices: []dxbc.Index{{Imm: uint64(n)}}}
}

// finishProgram writes r0..r3 to o0..o3 (r4, r5 folded into o3's sum of
// bits where they would otherwise be lost) and returns the program.
func finishProgram(t *testing.T, b *dxbc.Builder) *dxbc.Program {
	t.Helper()
	b.Emit(dxbc.OpXor, dxbc.Temp(3), dxbc.Temp(3), dxbc.Temp(4))
	b.Emit(dxbc.OpXor, dxbc.Temp(2), dxbc.Temp(2), dxbc.Temp(5).Swz("yzwx"))
	for i := range uint32(4) {
		b.Emit(dxbc.OpMov, dxbc.Output(i), dxbc.Temp(i))
	}
	b.Ret()
	p, err := b.Program()
	if err != nil {
		t.Fatal(err)
	}
	// Through the token stream and back, as a runtime hands it over.
	w, err := p.Words()
	if err != nil {
		t.Fatal(err)
	}
	if p, err = dxbc.DecodeProgram(w); err != nil {
		t.Fatal(err)
	}
	return p
}

// floatResult are the ops _sat applies to.
func floatResult(op dxbc.Opcode) bool {
	ro, ok := refOps[op]
	return ok && (ro.arith || op == dxbc.OpMov || op == dxbc.OpMovc || op == dxbc.OpItof || op == dxbc.OpUtof)
}

// TestOpcodeEquivalence: one program per translated one-destination
// opcode and operand shape (plain, modifiers and masks, _sat with the
// destination also a source, immediates and constants), ISA against the
// reference.
func TestOpcodeEquivalence(t *testing.T) {
	ops := []dxbc.Opcode{dxbc.OpDp2, dxbc.OpDp3, dxbc.OpDp4}
	for op := range refOps {
		ops = append(ops, op)
	}
	slices.Sort(ops)
	shapes := []struct {
		desc string
		sat  bool
		dst  dxbc.Operand
		srcs []dxbc.Operand
	}{
		{"plain", false, dxbc.Temp(0), []dxbc.Operand{dxbc.Temp(1), dxbc.Temp(2), dxbc.Temp(3)}},
		{"modifiers", false, dxbc.Temp(1).Mask(dxbc.X | dxbc.Z),
			[]dxbc.Operand{dxbc.Temp(2).Swz("wzyx").Neg(), dxbc.Temp(0).Swz("y").Abs(), dxbc.CB(0, 2).Swz("zxyw").Abs().Neg()}},
		{"aliased", true, dxbc.Temp(2).Mask(dxbc.Y | dxbc.W),
			[]dxbc.Operand{dxbc.Temp(2).Swz("xxyy"), dxbc.Temp(2).Swz("wzyx"), dxbc.Temp(3).Swz("w")}},
		{"immediates", false, dxbc.Temp(3).Mask(dxbc.XYZ),
			[]dxbc.Operand{dxbc.Imm(0.5, -2, 3.25, 0), dxbc.Temp(0).Swz("zzxy"), dxbc.ImmInt(-1)}},
		{"constants", true, dxbc.Temp(0),
			[]dxbc.Operand{dxbc.CB(1, 3), dxbc.CB(0, 7).Swz("y"), dxbc.Temp(1).Neg()}},
	}
	for _, op := range ops {
		n := 2
		if ro, ok := refOps[op]; ok {
			n = ro.n
		}
		for si, s := range shapes {
			if s.sat && !floatResult(op) {
				continue
			}
			t.Run(op.String()+"/"+s.desc, func(t *testing.T) {
				for _, stage := range []dxbc.ProgramType{dxbc.VertexShader, dxbc.PixelShader} {
					b := newTestBuilder(stage)
					args := append([]dxbc.Operand{s.dst}, s.srcs[:n]...)
					if s.sat {
						b.EmitSat(op, args...)
					} else {
						b.Emit(op, args...)
					}
					checkEquiv(t, finishProgram(t, b), uint64(op)*100+uint64(si), 4)
				}
			})
		}
	}
}

// loweringCase is a program body for TestLoweringEquivalence (and a
// fuzz seed).
type loweringCase struct {
	desc  string
	stage dxbc.ProgramType
	body  func(b *dxbc.Builder)
}

// loweringCases cover the instructions the translator lowers into
// several ISA ops, the operands it rewrites, and flow control.
func loweringCases() []loweringCase {
	r, cb, imm := dxbc.Temp, dxbc.CB, dxbc.ImmUint
	return []loweringCase{
		{"sincos", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSincos, r(0).Mask(dxbc.XY), r(1).Mask(dxbc.Y|dxbc.Z|dxbc.W), r(0).Swz("zwxy"))
		}},
		{"sincos_sat aliased", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.EmitSat(dxbc.OpSincos, r(1), r(0), r(1).Swz("yxwz"))
		}},
		{"sincos null sin", dxbc.VertexShader, func(b *dxbc.Builder) { b.Emit(dxbc.OpSincos, dxbc.Null(), r(2), r(2)) }},
		{"sincos null cos", dxbc.VertexShader, func(b *dxbc.Builder) { b.Emit(dxbc.OpSincos, r(2), dxbc.Null(), r(2)) }},
		{"udiv", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpUdiv, r(0), r(1), r(1), r(0).Swz("yxzw"))
		}},
		{"udiv small", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(0), r(0), imm(0xFF, 7, 0xFFFF, 3))
			b.Emit(dxbc.OpUdiv, r(2).Mask(dxbc.X|dxbc.W), dxbc.Null(), r(1), r(0))
			b.Emit(dxbc.OpUdiv, dxbc.Null(), r(3).Mask(dxbc.Y|dxbc.Z), r(1), r(0))
		}},
		{"imul umul", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpImul, dxbc.Null(), r(0), r(1), r(2).Neg())
			b.Emit(dxbc.OpUmul, dxbc.Null(), r(1).Mask(dxbc.X), r(3), r(0))
		}},
		{"imad aliased", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpImad, r(3), r(0), r(1), r(3).Swz("wzyx"))
			b.Emit(dxbc.OpUmad, r(0), r(0), r(0), r(0))
		}},
		{"swapc", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSwapc, r(0), r(1), r(2), r(0), r(1))
			b.Emit(dxbc.OpSwapc, r(3).Mask(dxbc.X), dxbc.Null(), r(2).Swz("w"), r(3), r(0))
		}},
		{"icb", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.DclImmediateConstantBuffer([][4]uint32{{1, 2, 3, 4}, {u(0.5), u(-1), 0x7FC00000, 0}})
			b.Emit(dxbc.OpAdd, r(0), r(0), dxbc.ICB(1).Swz("yxzw"))
			b.Emit(dxbc.OpIadd, r(1), r(1), dxbc.ICB(0).Neg())
		}},
		{"cb relative", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(3, 7, 1, 5))
			b.Emit(dxbc.OpAdd, r(0), cb(0, 1).Rel(r(4).Select(0)), cb(0, 0).Rel(r(4).Select(1)).Swz("wzyx"))
			b.Emit(dxbc.OpMov, r(1), cb(0, 2).Rel(r(4).Select(3)).Neg())
		}},
		{"cb relative input", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpMov, r(1), cb(0, 2).Rel(dxbc.Input(1).Select(2)))
		}},
		{"sample", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSample, r(0), r(1).Swz("xyxx"), dxbc.Texture(0), dxbc.Sampler(1))
			b.EmitSample(dxbc.OpSample, dxbc.DimTexture2DArray, dxbc.ReturnFloat, r(1).Mask(dxbc.Y|dxbc.Z), r(2), dxbc.Texture(1).Swz("wzxy"), dxbc.Sampler(0))
		}},
		{"sample_l", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleL, r(0), r(1), dxbc.Texture(1).Swz("yyzx"), dxbc.Sampler(0), r(2).Swz("z"))
			b.EmitSat(dxbc.OpSampleL, r(1), r(1), dxbc.Texture(0), dxbc.Sampler(1), dxbc.Imm(1.5))
		}},
		{"sample_d", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleD, r(0), r(1).Swz("xyxx"), dxbc.Texture(0), dxbc.Sampler(1), r(2), r(3).Swz("zwxy"))
			b.EmitSample(dxbc.OpSampleD, dxbc.DimTexture2DArray, dxbc.ReturnFloat, r(1).Mask(dxbc.Y|dxbc.Z), r(2), dxbc.Texture(1).Swz("wzxy"), dxbc.Sampler(0), r(0).Neg(), cb(0, 3))
		}},
		{"sample_d vertex", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.EmitSat(dxbc.OpSampleD, r(2), r(1), dxbc.Texture(1).Swz("yyzx"), dxbc.Sampler(0), r(2).Abs(), r(2))
		}},
		{"sample_b", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpSampleB, r(0), r(1).Swz("xyxx"), dxbc.Texture(0), dxbc.Sampler(1), r(2).Swz("w"))
			b.EmitSat(dxbc.OpSampleB, r(1).Mask(dxbc.X|dxbc.W), r(2), dxbc.Texture(1).Swz("zzxy"), dxbc.Sampler(0), dxbc.Imm(-17.5))
			b.Emit(dxbc.OpMul, r(4), r(3), imm(40, 40, 40, 40))
			b.Emit(dxbc.OpSampleB, r(2), r(0), dxbc.Texture(0), dxbc.Sampler(0), r(4).Swz("y"))
		}},
		{"sample_c", dxbc.PixelShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpSampleC, r(0), r(1), dxbc.Texture(0).Swz("yxzw"), dxbc.Sampler(2), r(2).Swz("z"))
			b.EmitSat(dxbc.OpSampleCLZ, r(1).Mask(dxbc.X|dxbc.Z), r(2), dxbc.Texture(2), dxbc.Sampler(2), cb(0, 1).Swz("w"))
			b.Offset(-3, 7, 0)
			b.Emit(dxbc.OpSampleC, r(2), r(3), dxbc.Texture(9).Swz("xxxx"), dxbc.Sampler(0), dxbc.Imm(0.25))
			b.Offset(1, -8, 2)
		}},
		{"sample_c_lz vertex", dxbc.VertexShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpSampleCLZ, r(0), r(1), dxbc.Texture(1).Swz("wzyx"), dxbc.Sampler(2), r(2).Neg().Swz("y"))
		}},
		{"gather4", dxbc.PixelShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpGather4, r(0), r(1), dxbc.Texture(0), selSampler(1, 1))
			b.Emit(dxbc.OpGather4, r(1).Mask(dxbc.Y|dxbc.W), r(2), dxbc.Texture(9).Swz("wzyx"), selSampler(0, 3))
			b.Offset(2, -2, 0)
			b.Emit(dxbc.OpGather4C, r(2), r(3), dxbc.Texture(2), selSampler(2, 0), r(0).Swz("x"))
			b.Emit(dxbc.OpAnd, r(4), r(5), dxbc.ImmInt(0x3F, 0x25, 0x1F, -1))
			b.Emit(dxbc.OpGather4PO, r(3), r(3), r(4), dxbc.Texture(1).Swz("yyxw"), selSampler(0, 2))
			b.Emit(dxbc.OpGather4POC, r(4), r(1), r(0).Swz("zwxy"), dxbc.Texture(0), selSampler(2, 0), cb(1, 3).Swz("z"))
		}},
		{"gather4 vertex", dxbc.VertexShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpGather4, r(0), r(1), dxbc.Texture(1), dxbc.Operand{Type: dxbc.RegSampler, Components: 4, Indices: []dxbc.Index{{Imm: 0}}}.Swz("wwww"))
			b.Emit(dxbc.OpGather4PO, r(2), r(1), r(5), dxbc.Texture(0), selSampler(1, 1))
		}},
		{"lod", dxbc.PixelShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpLod, r(0), r(1), dxbc.Texture(2).Swz("yxxx"), dxbc.Sampler(1))
			b.EmitSat(dxbc.OpLod, r(1).Mask(dxbc.X), r(2), dxbc.Texture(0).Swz("x"), dxbc.Sampler(0))
		}},
		{"buffers", dxbc.VertexShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpAnd, r(4), r(0), dxbc.ImmInt(0xFFC, 63, 60, 15))
			b.Emit(dxbc.OpLdRaw, r(0), r(4).Swz("x"), dxbc.Texture(4).Swz("yxzz"))
			b.Emit(dxbc.OpLdStructured, r(1).Mask(dxbc.X|dxbc.Y|dxbc.W), r(4).Swz("y"), r(4).Swz("z"), dxbc.Texture(3).Swz("wzyx"))
			b.Emit(dxbc.OpBufinfo, r(2).Mask(dxbc.X|dxbc.Z), dxbc.Texture(3))
			b.Emit(dxbc.OpBufinfo, r(2).Mask(dxbc.Y), dxbc.Texture(5).Swz("x"))
			b.Emit(dxbc.OpLd, r(3), r(4).Swz("wzyx"), dxbc.Texture(5))
			b.Emit(dxbc.OpLd, r(5), r(5), dxbc.Texture(8).Swz("zxyw"))
			b.Offset(-1, 0, 3)
		}},
		{"resinfo kinds", dxbc.PixelShader, func(b *dxbc.Builder) {
			declLaterResources(b)
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(7, 3, 1, 15))
			b.EmitResinfo(dxbc.ResinfoUint, false, r(0), r(4).Swz("x"), dxbc.Texture(6))
			b.EmitResinfo(dxbc.ResinfoFloat, false, r(1), r(4).Swz("y"), dxbc.Texture(8).Swz("wzyx"))
			b.EmitResinfo(dxbc.ResinfoRcpFloat, false, r(2), r(4).Swz("z"), dxbc.Texture(9))
			b.EmitResinfo(dxbc.ResinfoUint, false, r(3), r(4).Swz("w"), dxbc.Texture(2))
		}},
		{"sampleinfo samplepos", dxbc.PixelShader, func(b *dxbc.Builder) {
			rast := dxbc.Operand{Type: dxbc.RegRasterizer}
			rast4 := rast
			rast4.Components = 4
			b.Emit(dxbc.OpSampleInfo, r(0), rast)
			b.EmitControls(dxbc.OpSampleInfo, 1, r(1).Mask(dxbc.X|dxbc.Y), rast4.Swz("yxzw"))
			b.Emit(dxbc.OpSampleInfo, r(3).Mask(dxbc.Y|dxbc.Z), rast4.Select(0)) // fxc's "sampleinfo r3.y, rasterizer.x"
			b.Emit(dxbc.OpSamplePos, r(2).Mask(dxbc.X|dxbc.Y|dxbc.W), rast, r(1).Swz("x"))
		}},
		{"resinfo", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(15, 7, 3, 0x80000001))
			b.EmitResinfo(dxbc.ResinfoUint, false, r(0), r(4).Swz("x"), dxbc.Texture(0))
			b.EmitResinfo(dxbc.ResinfoFloat, true, r(1).Mask(dxbc.Y|dxbc.W), r(4).Swz("y"), dxbc.Texture(1).Swz("wzyx"))
			b.EmitResinfo(dxbc.ResinfoRcpFloat, false, r(2), r(4).Swz("z"), dxbc.Texture(1))
			b.EmitResinfo(dxbc.ResinfoFloat, false, r(3).Mask(dxbc.X|dxbc.Z), dxbc.ImmInt(0), dxbc.Texture(0).Swz("zxyw"))
			b.EmitResinfo(dxbc.ResinfoRcpFloat, false, r(5), r(4).Swz("w"), dxbc.Texture(0))
		}},
		{"ld", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(15, 15, 3, 2))
			b.Emit(dxbc.OpLd, r(0), r(4), dxbc.Texture(0))
			b.Emit(dxbc.OpLd, r(1).Mask(dxbc.X|dxbc.W), r(4).Swz("yxzw"), dxbc.Texture(1).Swz("zzxy"))
		}},
		{"derivatives", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpDerivRtx, r(0), r(1))
			b.Emit(dxbc.OpDerivRtyCoarse, r(1).Mask(dxbc.XY), r(2).Swz("wz"))
			b.EmitSat(dxbc.OpDerivRtxFine, r(2), r(3).Abs())
			b.Emit(dxbc.OpDerivRtyFine, r(3), r(0).Neg())
		}},
		{"nested if/else", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpLt, r(4), r(0), r(1))
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(4).Select(0))
			b.Emit(dxbc.OpAdd, r(0), r(0), r(1))
			b.EmitTest(dxbc.OpIf, dxbc.TestZero, r(4).Select(1))
			b.Emit(dxbc.OpMul, r(1), r(1), r(2))
			b.Emit(dxbc.OpElse)
			b.Emit(dxbc.OpMov, r(1), r(3).Neg())
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpElse)
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(4).Select(2))
			b.Emit(dxbc.OpSample, r(2), r(0), dxbc.Texture(0), dxbc.Sampler(0))
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpMov, r(3).Mask(dxbc.X), dxbc.Imm(7))
			b.Emit(dxbc.OpEndif)
		}},
		{"loop breakc continuec", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4).Mask(dxbc.Y), r(0).Swz("x"), imm(7))
			b.Emit(dxbc.OpMov, r(4).Mask(dxbc.X), imm(0))
			b.Emit(dxbc.OpLoop)
			b.Emit(dxbc.OpIge, r(5).Mask(dxbc.X), r(4).Swz("x"), r(4).Swz("y"))
			b.EmitTest(dxbc.OpBreakc, dxbc.TestNonZero, r(5).Select(0))
			b.Emit(dxbc.OpIadd, r(4).Mask(dxbc.X), r(4).Swz("x"), imm(1))
			b.Emit(dxbc.OpAnd, r(5).Mask(dxbc.Y), r(4).Swz("x"), imm(1))
			b.EmitTest(dxbc.OpContinuec, dxbc.TestZero, r(5).Select(1))
			b.Emit(dxbc.OpMad, r(0), r(0), dxbc.Imm(0.5), r(1))
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(2).Select(3))
			b.Emit(dxbc.OpAdd, r(1), r(1), dxbc.Imm(1))
			b.Emit(dxbc.OpLoop)
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndloop)
			b.Emit(dxbc.OpElse)
			b.Emit(dxbc.OpContinue)
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpAdd, r(2), r(2), r(0))
			b.Emit(dxbc.OpEndloop)
		}},
		{"discard", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpLt, r(4), r(0), dxbc.Imm(0))
			b.EmitTest(dxbc.OpDiscard, dxbc.TestNonZero, r(4).Select(0))
			b.EmitTest(dxbc.OpIf, dxbc.TestZero, r(4).Select(1))
			b.EmitTest(dxbc.OpDiscard, dxbc.TestZero, r(4).Select(2))
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpMov, r(1), r(2))
		}},
		{"bitfields", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpUbfe, r(4), imm(8, 0, 31, 4), imm(8, 24, 1, 30), r(0))
			b.Emit(dxbc.OpIbfe, r(5), r(1), r(2).Swz("wzyx"), r(5).Neg())
			b.Emit(dxbc.OpBfi, r(0), r(3), r(1).Swz("y"), r(0).Swz("yxwz"), r(0))
			b.Emit(dxbc.OpBfi, r(1).Mask(dxbc.X|dxbc.Z), imm(4, 0, 32, 16), imm(28, 3, 1, 16), r(2), r(1))
		}},
		{"indexable temps", dxbc.PixelShader, func(b *dxbc.Builder) {
			x := dxbc.IndexableTemp
			b.DclIndexableTemp(0, 5, 4)
			b.DclIndexableTemp(1, 3, 4)
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(7, 3, 1, 2))
			b.Emit(dxbc.OpMov, x(0, 0), r(1))
			b.Emit(dxbc.OpMov, x(0, 3).Mask(dxbc.Y|dxbc.W), r(2))
			b.Emit(dxbc.OpMov, x(0, 0).Rel(r(4).Select(0)).Mask(dxbc.X|dxbc.Y), r(3))
			b.Emit(dxbc.OpAdd, x(1, 0).Rel(r(4).Select(1)), x(0, 1).Rel(r(4).Select(2)), r(3).Neg())
			b.Emit(dxbc.OpMov, r(0), x(0, 0).Rel(r(4).Select(0)))
			b.Emit(dxbc.OpMov, r(1).Mask(dxbc.Z|dxbc.W), x(1, 2).Swz("xxyz"))
			b.Emit(dxbc.OpMul, r(2), x(0, 2).Rel(r(4).Select(3)).Neg(), x(1, 0).Rel(r(4).Select(1)))
			b.Emit(dxbc.OpSincos, x(1, 1).Rel(r(4).Select(2)), x(0, 4), r(2))
			b.Emit(dxbc.OpAdd, r(3), x(1, 1), x(0, 4))
		}},
		{"relative icb", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.DclImmediateConstantBuffer([][4]uint32{{1, 2, 3, 4}, {u(0.5), u(-1), 0x7FC00000, 0}, {5, 6, 7, 8}, {9, 10, 11, 12}})
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(7, 3, 1, 2))
			b.Emit(dxbc.OpAdd, r(0), r(0), dxbc.ICB(0).Rel(r(4).Select(0)))
			b.Emit(dxbc.OpIadd, r(1), r(1), dxbc.ICB(1).Rel(r(4).Select(1)).Swz("wzyx").Neg())
		}},
		{"uaddc usubb", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpUaddc, r(0), r(1), r(1), r(0).Swz("wzyx"))
			b.Emit(dxbc.OpUsubb, r(2).Mask(dxbc.X|dxbc.Y), r(3).Mask(dxbc.Z|dxbc.W), r(3), r(2).Neg())
			b.Emit(dxbc.OpUsubb, dxbc.Null(), r(4), r(5), r(4).Abs())
		}},
		{"switch", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(3, 7, 1, 5))
			b.Emit(dxbc.OpSwitch, r(4).Select(0))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(0))
			b.Emit(dxbc.OpMul, r(1), r(1), r(2))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpCase, dxbc.ImmInt(1))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(2))
			b.Emit(dxbc.OpAdd, r(1), r(1), r(3))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpDefault)
			b.Emit(dxbc.OpMov, r(2), r(0).Neg())
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndswitch)
		}},
		{"switch fallthrough, default first, no break at the end", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(3, 7, 1, 5))
			b.Emit(dxbc.OpSwitch, r(4).Select(1))
			b.Emit(dxbc.OpDefault)
			b.Emit(dxbc.OpAdd, r(0), r(0), dxbc.Imm(1))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(5))
			b.Emit(dxbc.OpMul, r(0), r(0), dxbc.Imm(3))
			b.EmitTest(dxbc.OpBreakc, dxbc.TestNonZero, r(1).Select(0))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(6))
			b.EmitTest(dxbc.OpIf, dxbc.TestZero, r(2).Select(2))
			b.Emit(dxbc.OpMov, r(3), r(2))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndif)
			b.EmitTest(dxbc.OpDiscard, dxbc.TestNonZero, r(2).Select(1))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(1))
			b.Emit(dxbc.OpIadd, r(1), r(1), r(4))
			b.Emit(dxbc.OpEndswitch)
		}},
		{"nested switch in a loop", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(3, 7, 1, 5))
			b.Emit(dxbc.OpMov, r(5).Mask(dxbc.X), imm(0))
			b.Emit(dxbc.OpLoop)
			b.Emit(dxbc.OpUge, r(5).Mask(dxbc.Y), r(5).Swz("x"), imm(3))
			b.EmitTest(dxbc.OpBreakc, dxbc.TestNonZero, r(5).Select(1))
			b.Emit(dxbc.OpIadd, r(5).Mask(dxbc.X), r(5).Swz("x"), imm(1))
			b.Emit(dxbc.OpSwitch, r(5).Select(0))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(1))
			b.Emit(dxbc.OpSwitch, r(4).Select(2))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(0))
			b.Emit(dxbc.OpAdd, r(0), r(0), r(1))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpDefault)
			b.Emit(dxbc.OpRet)
			b.Emit(dxbc.OpEndswitch)
			b.Emit(dxbc.OpMul, r(1), r(1), r(0))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpCase, dxbc.ImmInt(2))
			b.Emit(dxbc.OpMad, r(2), r(2), r(1), r(0))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndswitch)
			b.Emit(dxbc.OpAdd, r(3), r(3), r(2))
			b.Emit(dxbc.OpEndloop)
		}},
		{"continue inside a switch, and inside a switch inside a switch", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpAnd, r(4), r(0), imm(3, 7, 1, 5))
			b.Emit(dxbc.OpMov, r(5).Mask(dxbc.X), imm(0))
			b.Emit(dxbc.OpLoop)
			b.Emit(dxbc.OpUge, r(5).Mask(dxbc.Y), r(5).Swz("x"), imm(4))
			b.EmitTest(dxbc.OpBreakc, dxbc.TestNonZero, r(5).Select(1))
			b.Emit(dxbc.OpIadd, r(5).Mask(dxbc.X), r(5).Swz("x"), imm(1))
			b.Emit(dxbc.OpSwitch, r(4).Select(0))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(1))
			b.Emit(dxbc.OpAdd, r(0), r(0), r(1))
			b.EmitTest(dxbc.OpContinuec, dxbc.TestNonZero, r(2).Select(0))
			b.Emit(dxbc.OpMul, r(0), r(0), r(3))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpCase, dxbc.ImmInt(3))
			b.Emit(dxbc.OpSwitch, r(4).Select(1))
			b.Emit(dxbc.OpCase, dxbc.ImmInt(7))
			b.Emit(dxbc.OpContinue)
			b.Emit(dxbc.OpDefault)
			b.Emit(dxbc.OpAdd, r(1), r(1), r(2))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndswitch)
			b.Emit(dxbc.OpMul, r(1), r(1), r(1))
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpDefault)
			b.EmitTest(dxbc.OpContinuec, dxbc.TestZero, r(3).Select(2))
			b.Emit(dxbc.OpMov, r(2), r(1))
			b.Emit(dxbc.OpEndswitch)
			b.Emit(dxbc.OpAdd, r(3), r(3), r(0))
			b.Emit(dxbc.OpEndloop)
		}},
		{"subroutines: call, callc, a ret inside an if, a discard inside one, nested calls", dxbc.PixelShader, func(b *dxbc.Builder) {
			l := func(n uint64) dxbc.Operand { return dxbc.Operand{Type: dxbc.RegLabel, Indices: []dxbc.Index{{Imm: n}}} }
			b.Emit(dxbc.OpCall, l(0))
			b.Emit(dxbc.OpLt, r(4), r(1), r(2))
			b.EmitInstruction(dxbc.Instruction{Op: dxbc.OpCallc, Controls: dxbc.ControlTestNZ, Operands: []dxbc.Operand{r(4).Select(0), l(3)}})
			b.Emit(dxbc.OpAdd, r(3), r(3), r(0))
			for i := range uint32(4) {
				b.Emit(dxbc.OpMov, dxbc.Output(i), r(i))
			}
			b.Ret()
			b.Emit(dxbc.OpLabel, l(0))
			b.Emit(dxbc.OpMul, r(0), r(0), r(1))
			b.Emit(dxbc.OpGe, r(5), r(0), r(2))
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(5).Select(1))
			b.Emit(dxbc.OpAdd, r(0), r(0), imm(1))
			b.Ret()
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpMul, r(0), r(0), r(0))
			b.Ret()
			b.Emit(dxbc.OpLabel, l(3))
			b.EmitTest(dxbc.OpDiscard, dxbc.TestNonZero, r(5).Select(2))
			b.Emit(dxbc.OpCall, l(0))
			b.Emit(dxbc.OpAdd, r(2), r(2), r(0))
		}},
		{"inputs and outputs indexed by a register (dcl_indexrange)", dxbc.PixelShader, func(b *dxbc.Builder) {
			rng := func(reg dxbc.Operand, n uint32) {
				b.Declare(dxbc.Instruction{Op: dxbc.OpDclIndexRange, Operands: []dxbc.Operand{reg}, Extra: []uint32{n}})
			}
			rng(dxbc.Input(0).Mask(dxbc.XYZW), 4)
			rng(dxbc.Output(1).Mask(dxbc.XYZW), 3)
			b.Emit(dxbc.OpAnd, r(4), r(5), imm(3, 7, 1, 2))
			b.Emit(dxbc.OpMov, r(0), dxbc.Input(1).Rel(r(4).Select(0)))
			b.Emit(dxbc.OpAdd, r(1), r(1), dxbc.Input(0).Rel(r(4).Select(1)).Swz("wzyx").Neg())
			for i := range uint32(4) {
				b.Emit(dxbc.OpMov, dxbc.Output(i), r(i))
			}
			b.Emit(dxbc.OpMov, dxbc.Output(1).Rel(r(4).Select(2)), r(2).Swz("yyxx"))
			b.Emit(dxbc.OpMov, dxbc.Output(1).Rel(r(4).Select(1)), r(3))
			b.Ret()
		}},
		{"doubles", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.GlobalFlags(dxbc.FlagRefactoringAllowed | dxbc.FlagEnableDoublePrecision)
			b.Emit(dxbc.OpFtod, r(4), r(0).Swz("xyxx"))
			b.Emit(dxbc.OpFtod, r(5).Mask(dxbc.Z|dxbc.W), r(1).Swz("zzzz"))
			b.Emit(dxbc.OpDadd, r(4).Mask(dxbc.X|dxbc.Y), r(4).Swz("xyxy"), r(5).Swz("zwzw").Neg())
			b.Emit(dxbc.OpDmul, r(5).Mask(dxbc.XY), r(4).Swz("zwzw").Abs(), r(4).Swz("xyxy"))
			b.Emit(dxbc.OpDmin, r(4).Mask(dxbc.Z|dxbc.W), r(4).Swz("zwzw"), r(5).Swz("xyxy"))
			b.Emit(dxbc.OpDmax, r(2), r(4), r(5).Swz("xyxy"))
			b.Emit(dxbc.OpDlt, r(3).Mask(dxbc.Z|dxbc.W), r(4), r(5).Swz("zwxy"))
			b.Emit(dxbc.OpDeq, r(3).Mask(dxbc.X), r(4).Swz("zwzw"), r(4).Swz("zwzw"))
			b.Emit(dxbc.OpDtof, r(0).Mask(dxbc.Y|dxbc.W), r(4))
			b.Emit(dxbc.OpDmovc, r(1), r(3).Swz("zwzw"), r(4), r(5))
			b.Emit(dxbc.OpDne, r(0).Mask(dxbc.X), r(1), r(2))
			b.Emit(dxbc.OpDge, r(0).Mask(dxbc.Z), r(2), r(1).Swz("zwzw"))
			// d(2.5l, -0.75l), as fxc writes a double constant
			d := dxbc.Operand{Type: dxbc.RegImmediate64, Components: 4, Mode: dxbc.SelectSwizzle, Swiz: [4]uint8{0, 1, 2, 3},
				Imm: []uint32{0, 0x40040000, 0, 0xbfe80000}}
			b.Emit(dxbc.OpDmul, r(3), r(2), d)
			b.Emit(dxbc.OpDadd, r(1).Mask(dxbc.Z|dxbc.W), d.Neg(), r(2).Swz("xyxy"))
		}},
		{"eval_centroid and eval_sample_index at one sample", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpEvalCentroid, r(0).Mask(dxbc.XY), dxbc.Input(1).Swz("yxxx"))
			b.Emit(dxbc.OpEvalSampleIndex, r(1), dxbc.Input(2), dxbc.ImmInt(0))
		}},
		{"imul and umul with both halves", dxbc.VertexShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpImul, r(0), r(1), r(2), r(3).Neg())
			b.Emit(dxbc.OpUmul, r(2).Mask(dxbc.X|dxbc.Y), r(3).Mask(dxbc.Z), r(1).Swz("wzyx"), r(0))
			b.Emit(dxbc.OpF32toF16, r(4), r(0))
			b.Emit(dxbc.OpF16toF32, r(5), r(4).Swz("yxwz"))
		}},
		{"ret in branches", dxbc.PixelShader, func(b *dxbc.Builder) {
			b.Emit(dxbc.OpGe, r(4), r(0), r(1))
			b.EmitTest(dxbc.OpIf, dxbc.TestNonZero, r(4).Select(0))
			b.Emit(dxbc.OpMov, dxbc.Output(0), r(1))
			b.Emit(dxbc.OpMov, dxbc.Output(3), r(2))
			b.Ret()
			b.Emit(dxbc.OpElse)
			b.EmitTest(dxbc.OpRetc, dxbc.TestNonZero, r(4).Select(1))
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpLoop)
			b.EmitTest(dxbc.OpIf, dxbc.TestZero, r(4).Select(3))
			b.Ret()
			b.Emit(dxbc.OpEndif)
			b.Emit(dxbc.OpBreak)
			b.Emit(dxbc.OpEndloop)
		}},
	}
}

// TestLoweringEquivalence runs loweringCases, ISA against the reference.
func TestLoweringEquivalence(t *testing.T) {
	for i, tc := range loweringCases() {
		t.Run(tc.desc, func(t *testing.T) {
			b := newTestBuilder(tc.stage)
			tc.body(b)
			checkEquiv(t, finishProgram(t, b), uint64(1000+i), 4)
		})
	}
}

// TestFixtureEquivalence runs fxc's own output, every fixture (SDL's
// advanced and PQ shaders with their sample_d too: flow control on
// constants, derivatives inside branches, exp/log/dp3/movc_sat).
func TestFixtureEquivalence(t *testing.T) {
	for i, fx := range loadFixtures(t) {
		t.Run(fx.name, func(t *testing.T) {
			s, err := dxbc.Validate(fx.bytes, fx.stage)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, in := range s.Program.Instructions {
				if in.Op == dxbc.OpSampleD {
					n++
				}
			}
			if n > 0 != hasSampleD[fx.name] {
				t.Fatalf("%d sample_d in the fixture", n)
			}
			checkEquiv(t, s.Program, uint64(5000+i), 40)
		})
	}
}
