package hlsl

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/memlimit"
)

// FuzzCompile feeds arbitrary sources to the whole compiler and runs what
// compiles: no panic, a bounded heap (the compiler's own limits on source,
// tokens, nesting and instructions, and the evaluator's step budget, bound
// the work; time is measured only in benchmarks), every failure an Errors
// whose lines are in fxc's format and none an internal compiler error, and
// every compiled shader's bytecode valid for its stage and re-encoding to
// the same bytes.
func FuzzCompile(f *testing.F) {
	seeds := []string{
		"float4 main() : SV_Target { return 0; }",
		"#define A(x) x*x\n#if A(2) == 4\nfloat4 main(float4 a : A) : SV_Target { return A(a); }\n#endif",
		"struct S { float4 p : SV_Position; }; S main(float4 a : P) { S s = (S)0; s.p = a; return s; }",
		"float4 main(float4 a : A) : SV_Target { for (int i = 0; i < 3; i++) { a += i; if (a.x > 2) break; } return a; }",
		"cbuffer C { float4 v[4]; row_major float3x3 m; } float4 main(uint i : I) : SV_Target { return v[i] + m[1].x; }",
		"float f(float x) { if (x > 0) return 1; return 2; } float4 main() : SV_Target { return f(3); }",
		"#define X X\nX",
		"float4 main() : SV_Target { return ((((((((((1)))))))))); }",
	}
	for _, s := range seeds {
		f.Add([]byte(s), "main", "ps_4_0")
	}
	f.Add([]byte("Texture2D t : register(t1); SamplerState s; float4 main(float4 p : SV_Position, float2 uv : UV) : SV_Target { return t.Load(int3(p.xy, 0)) + t.SampleLevel(s, uv, 1) + t.Sample(s, uv).wzyx; }"), "main", "ps_5_0")
	f.Add([]byte("Texture2D t; SamplerState s; float4 main(float2 uv : UV, float b : B) : SV_Target { uint w, h, n; float fw, fh; t.GetDimensions(w, h); t.GetDimensions(1, fw, fh, n); return t.SampleGrad(s, uv, uv, uv.yx) + t.SampleBias(s, uv, b) + float4(w, h, fw, fh) + n; }"), "main", "ps_4_0")
	f.Add([]byte("cbuffer C { float4 v[4]; } float4 main(uint id : SV_VertexID) : SV_Position { return v[id & 3] * id; }"), "main", "vs_5_0")
	f.Add([]byte("struct D { float f; uint2 u; }; RWStructuredBuffer<D> sb; RWByteAddressBuffer rb; groupshared D m[4]; [numthreads(4, 1, 1)] void main(uint i : SV_GroupIndex) { m[i].f = sb[i].f; GroupMemoryBarrierWithGroupSync(); InterlockedAdd(m[0].u.x, 1); rb.Store2(8 * i, m[3 - i].u); sb.IncrementCounter(); }"), "main", "cs_5_0")
	f.Add([]byte("struct V { float4 p : SV_Position; uint l : L; }; struct O { float4 p : SV_Position; uint l : SV_RenderTargetArrayIndex; }; [instance(2)] [maxvertexcount(6)] void main(triangle V v[3], uint i : SV_GSInstanceID, uint q : SV_PrimitiveID, inout TriangleStream<O> s) { for (uint k = 0; k < 3; k++) { O o; o.p = v[k + q % 2].p; o.l = i; s.Append(o); } s.RestartStrip(); }"), "main", "gs_5_0")
	f.Add([]byte("sampler s[2]; sampler2D t; float4 main(float4 uv : UV) : SV_Target { return tex2D(s[1], uv.xy) + tex2Dlod(t, uv) + tex2Dproj(t, uv); }"), "main", "ps_4_0")
	for _, name := range []string{"imgui_vs.hlsl", "phong.hlsl", "tutorial06.hlsl"} {
		if b, err := os.ReadFile(filepath.Join("testdata", name)); err == nil {
			f.Add(b, "main", "vs_4_0")
		}
	}
	f.Fuzz(func(t *testing.T, src []byte, entry, target string) {
		memlimit.Check(t, compileCeiling, "FuzzCompile", func() {
			// With /Gec, which takes more (tex2D and the rest).
			r, err := CompileWith(src, "f.hlsl", entry, target, Limits{Flags: FlagBackCompat})
			if err != nil {
				var es Errors
				if !errors.As(err, &es) || len(es) == 0 {
					t.Fatalf("error %v is not Errors", err)
				}
				for _, line := range strings.Split(err.Error(), "\n") {
					if !strings.Contains(line, "error X") {
						t.Fatalf("error line %q is not in fxc's form", line)
					}
					if strings.Contains(line, "internal compiler error") {
						t.Fatalf("%s", line)
					}
				}
				return
			}
			sh, err := dxbc.Validate(r.Bytecode, stageOf(r.Program))
			if err != nil {
				t.Fatalf("the bytecode does not validate: %v\n%s", err, r.Program)
			}
			if again, err := sh.Container.Build(); err != nil || !bytes.Equal(again, r.Bytecode) {
				t.Fatalf("the container does not rebuild to the same bytes (err %v)", err)
			}
			if code, err := sh.Program.Bytes(); err != nil || !bytes.Equal(code, sh.Container.Chunk(sh.Program.FourCC()).Data) {
				t.Fatalf("the program does not re-encode to the same bytes (err %v)", err)
			}
			if r.Program.Stage == Geometry || r.Program.Stage == Hull || r.Program.Stage == Domain {
				return // their special inputs and emit are no registers the evaluator has
			}
			env := &Env{MaxSteps: 1 << 16, Inputs: make([][4]uint32, 32), CB: make([][][4]uint32, 16),
				Sample: func(int, int, float32, float32, float32) [4]float32 { return [4]float32{} },
				Load:   func(int, int32, int32, int32) [4]uint32 { return [4]uint32{} },
				Info:   func(int) (uint32, uint32, uint32) { return 64, 32, 7 }}
			if _, err := Run(r.Program, env); err != nil && !errors.Is(err, ErrSteps) {
				t.Fatalf("run: %v\n%s", err, r.Program)
			}
			_ = r.Program.String()
		})
	})
}

// compileCeiling is the heap one compilation may allocate in all, freed or
// not, whatever its source: the compiler's limits (maxSource, maxTokens,
// maxDepth, maxInline, maxInstrs) end a hostile source well under it.
const compileCeiling = 256 << 20

// TestHostileInputsEndInErrors covers the limits the fuzzer may not reach:
// each source must end in an error that names the limit it ran into, with
// a short message, having allocated less than compileCeiling. The bound is
// on work (bytes allocated, which grow with the tokens, nodes and
// instructions made), not on time: a limit taken away (maxInstrs raised to
// 1<<20, the token budget of the macro expansion to 1<<22) fails here on
// any machine, loaded or not.
func TestHostileInputsEndInErrors(t *testing.T) {
	deep := strings.Repeat("(", 5000) + "1" + strings.Repeat(")", 5000)
	var calls strings.Builder
	calls.WriteString("float f0(float x) { return sin(x) * cos(x) + sqrt(x); }\n")
	for i := 1; i < 31; i++ {
		fmt.Fprintf(&calls, "float f%d(float x) { return f%d(x) + f%d(x + 1); }\n", i, i-1, i-1)
	}
	calls.WriteString("float4 main() : SV_Target { return f30(1); }")
	tests := []struct{ desc, src, want string }{
		{"inlining explosion", calls.String(), "shader longer than 65536 instructions"},
		{"deep parentheses", "float4 main() : SV_Target { return " + deep + "; }", "nesting deeper than 200"},
		{"deep #if", "#if " + deep + "\n#endif", "bad #if expression"},
		{"macro bomb", "#define A B B B B B B B B\n#define B C C C C C C C C\n#define C D D D D D D D D\n#define D E E E E E E E E\n#define E F F F F F F F F\n#define F G G G G G G G G\n#define G 1 1 1 1 1 1 1 1\nA", "macro expansion too large"},
		{"huge source", strings.Repeat(" ", maxSource+1), "source larger than 1048576 bytes"},
		{"long unrolled body", "float4 main() : SV_Target { float4 s = 0; " + strings.Repeat("s = s * s + normalize(s);", 20000) + " return s; }", "shader longer than 65536 instructions"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var err error
			memlimit.Check(t, compileCeiling, tc.desc, func() {
				_, err = Compile([]byte(tc.src), "h.hlsl", "main", "ps_4_0")
			})
			if err == nil {
				t.Fatal("compiled")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not name the limit (%q)", clipText(err.Error(), 500), tc.want)
			}
			if len(err.Error()) > 10000 {
				t.Errorf("error text of %d bytes", len(err.Error()))
			}
		})
	}
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func TestEvaluatorStepLimit(t *testing.T) {
	r := compileOK(t, "float4 main() : SV_Target { float s = 0; while (true) { s += 1; } return s; }", "main", "ps_4_0")
	if _, err := Run(r.Program, &Env{MaxSteps: 1000}); !errors.Is(err, ErrSteps) {
		t.Errorf("err = %v, want ErrSteps", err)
	}
}

func TestValidateRejectsMalformed(t *testing.T) {
	tests := []struct {
		desc string
		p    Program
	}{
		{"operand count", Program{Temps: 1, Code: []Instr{{Op: OpAdd, Dst: []Operand{{File: FileTemp, Mask: 1}}, Src: []Operand{{File: FileTemp}}}}}},
		{"temp out of range", Program{Temps: 1, Code: []Instr{{Op: OpMov, Dst: []Operand{{File: FileTemp, Index: 1, Mask: 1}}, Src: []Operand{immU(0)}}}}},
		{"empty mask", Program{Temps: 1, Code: []Instr{{Op: OpMov, Dst: []Operand{{File: FileTemp}}, Src: []Operand{immU(0)}}}}},
		{"unbalanced", Program{Code: []Instr{{Op: OpLoop}}}},
		{"break outside loop", Program{Code: []Instr{{Op: OpBreak}}}},
		{"endif closing a loop", Program{Code: []Instr{{Op: OpLoop}, {Op: OpEndif}}}},
	}
	for _, tc := range tests {
		if err := tc.p.Validate(); err == nil {
			t.Errorf("%s: no error", tc.desc)
		}
		if _, err := Run(&tc.p, &Env{}); err == nil {
			t.Errorf("%s: Run accepted it", tc.desc)
		}
	}
}
