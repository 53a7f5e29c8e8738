package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// SampleGrad and SampleBias compile to sample_d and sample_b with fxc's
// operands: the gradients d(uv)/dx and d(uv)/dy, the bias one component.
func TestSampleGradBias(t *testing.T) {
	n := len(extraShaders)
	for _, c := range extraShaders[n-3:] {
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
			Inputs: [][4]uint32{bits4([4]float32{0.25, 0.5}), bits4([4]float32{tc.bias})},
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
