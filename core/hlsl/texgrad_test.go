package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// SampleGrad and SampleBias compile to sample_d and sample_b with fxc's
// operands: the gradients d(uv)/dx and d(uv)/dy, the bias one component.
func TestSampleGradBias(t *testing.T) {
	for _, c := range extraShaders {
		if !strings.HasPrefix(c.name, "sample grad") {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			r := compileOK(t, c.src, c.entry, c.target)
			stage := dxbc.PixelShader
			if strings.HasPrefix(c.target, "vs") {
				stage = dxbc.VertexShader
			}
			sh, err := dxbc.Validate(r.Bytecode, stage)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[dxbc.Opcode]int{}
			for _, in := range sh.Program.Instructions {
				counts[in.Op]++
				switch in.Op {
				case dxbc.OpSampleD:
					if len(in.Operands) != 6 || in.Operands[4].Type == dxbc.RegNull || in.Operands[5].Type == dxbc.RegNull {
						t.Errorf("sample_d operands %d", len(in.Operands))
					}
				case dxbc.OpSampleB:
					if b := in.Operands[4]; len(in.Operands) != 5 || b.Mode != dxbc.SelectOne && b.Components != 1 {
						t.Errorf("sample_b bias operand %+v: want one component", b)
					}
				}
			}
			wantD, wantB := 2, 1
			if stage == dxbc.VertexShader {
				wantD, wantB = 1, 0
			}
			if counts[dxbc.OpSampleD] != wantD || counts[dxbc.OpSampleB] != wantB {
				t.Errorf("%d sample_d, %d sample_b; want %d, %d\n%s", counts[dxbc.OpSampleD], counts[dxbc.OpSampleB], wantD, wantB, sh.Program.Disassemble())
			}
		})
	}
	// SampleBias needs the quad's derivatives: not in a vertex shader.
	_, err := Compile([]byte(`Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0) : SV_Position { return t.SampleBias(s, uv, 1); }`), "t.hlsl", "main", "vs_4_0")
	if err == nil || !strings.Contains(err.Error(), "SampleBias needs derivatives") {
		t.Errorf("SampleBias in a vertex shader: %v", err)
	}
	for _, bad := range []string{"t.SampleGrad(s, uv, uv)", "t.SampleBias(s, uv)", "t.SampleGrad(uv, uv, uv, uv)"} {
		_, err := Compile([]byte(`Texture2D t; SamplerState s;
float4 main(float2 uv : TEXCOORD0) : SV_Target { return `+bad+`; }`), "t.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), "no matching") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// The evaluator: SampleBias samples at its (clamped) bias, SampleGrad at
// level 0 as Sample does (Env.Sample's contract).
func TestEvalSampleGradBias(t *testing.T) {
	r := compileOK(t, `Texture2D t : register(t2); SamplerState s : register(s1);
float4 main(float2 uv : TEXCOORD0, float b : B) : SV_Target {
	return t.SampleBias(s, uv, b) + 10 * t.SampleGrad(s, uv, uv, uv);
}`, "main", "ps_4_0")
	for _, tc := range []struct{ bias, want float32 }{{1.5, 1.5}, {-40, -16}, {99, 15.99}} {
		var lods []float32
		env := &Env{
			// uv and b packed into v0, as fxc packs a pixel shader's inputs.
			Inputs: [][4]uint32{bits4([4]float32{0.25, 0.5, tc.bias})},
			Sample: func(tex, samp int, u, v, lod float32) [4]float32 {
				if tex != 2 || samp != 1 || u != 0.25 || v != 0.5 {
					t.Errorf("Sample(%d, %d, %g, %g)", tex, samp, u, v)
				}
				lods = append(lods, lod)
				return [4]float32{lod, 1, 2, 3}
			},
		}
		if _, err := Run(r.Program, env); err != nil {
			t.Fatal(err)
		}
		if len(lods) != 2 || lods[0] != tc.want || lods[1] != 0 {
			t.Errorf("bias %g: levels %v, want [%g 0]", tc.bias, lods, tc.want)
		}
	}
}

// GetDimensions: resinfo_uint for integer outs, resinfo for float outs,
// the mip level from the four-argument form; the evaluator per "resinfo
// (sm4 - asm)" through Env.Info.
func TestGetDimensions(t *testing.T) {
	var src string
	for _, c := range extraShaders {
		if c.name == "texture dimensions" {
			src = c.src
		}
	}
	r := compileOK(t, src, "main", "ps_4_0")
	text := r.Program.String()
	for _, want := range []string{"resinfo_uint r", "resinfo r", ", l(0), t1"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	sh, err := dxbc.Validate(r.Bytecode, dxbc.PixelShader)
	if err != nil {
		t.Fatal(err)
	}
	if d := sh.Program.Disassemble(); strings.Count(d, "resinfo_uint") != 2 || strings.Count(d, "resinfo ") != 1 {
		t.Errorf("disassembly:\n%s", d)
	}
	for _, tc := range []struct {
		mip  uint32
		want [8]float32 // w, h, fw, fh, fn, iw, ih, n
	}{
		{0, [8]float32{300, 40, 300, 40, 4, 150, 20, 4}},
		{2, [8]float32{300, 40, 75, 10, 4, 37, 5, 4}},
		{3, [8]float32{300, 40, 37, 5, 4, 0, 0, 4}},
		{9, [8]float32{300, 40, 0, 0, 4, 0, 0, 4}},
	} {
		env := &Env{
			Inputs: [][4]uint32{bits4([4]float32{4, 8}), {tc.mip}},
			Sample: func(int, int, float32, float32, float32) [4]float32 { return [4]float32{} },
			Info: func(tex int) (uint32, uint32, uint32) {
				if tex != 1 {
					t.Errorf("Info(%d)", tex)
				}
				return 300, 40, 4
			},
		}
		out, err := Run(r.Program, env)
		if err != nil {
			t.Fatal(err)
		}
		o := out.Regs[0]
		w := tc.want
		want := [4]float32{w[0] + w[4], w[1] + w[5], w[2] + w[6], w[3] + w[7]}
		if got := [4]float32{f32(o[0]), f32(o[1]), f32(o[2]), f32(o[3])}; got != want {
			t.Errorf("mip %d: %v, want %v", tc.mip, got, want)
		}
	}
	for _, bad := range []struct{ call, want string }{
		{"t.GetDimensions(w)", "no matching"},
		{"t.GetDimensions(1, w)", "l-value"},
		{"t.GetDimensions(w, 3)", "l-value"},
		{"t.GetDimensions(0, w, w, v)", "l-value"},
		{"float2 q; t.GetDimensions(0, w, w, q)", "no matching"},
	} {
		_, err := Compile([]byte(`Texture2D t; float4 v;
float4 main(float2 uv : TEXCOORD0) : SV_Target { uint w; `+bad.call+`; return w; }`), "t.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.call, err, bad.want)
		}
	}
}
