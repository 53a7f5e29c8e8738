package hlsl

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRandomPrograms compiles and runs programs built at random from
// typed and untyped pieces of HLSL. Most are wrong on purpose: the point is
// that every one ends in a result or an fxc-style error, never a panic, and
// that what compiles validates and runs.
func TestRandomPrograms(t *testing.T) {
	next := randomPrograms(rand.New(rand.NewPCG(21, 2026)))
	env := &Env{MaxSteps: 1 << 14, Inputs: make([][4]uint32, 3), CB: [][][4]uint32{make([][4]uint32, 7)},
		Sample: func(int, int, float32, float32, float32) [4]float32 { return [4]float32{1, 2, 3, 4} },
		Load:   func(int, int32, int32, int32) [4]uint32 { return [4]uint32{} }}
	compiled := 0
	seen := map[string]int{}
	for n := 0; n < 1500; n++ {
		src := next()
		res, err := Compile([]byte(src), "rand.hlsl", "main", "ps_5_0")
		if err != nil {
			var es Errors
			if !errors.As(err, &es) || strings.Contains(err.Error(), "internal compiler error") {
				t.Fatalf("%s\n%v", src, err)
			}
			if testing.Verbose() {
				msg := es[0].Msg
				if i := strings.IndexAny(msg, "'"); i > 0 {
					msg = msg[:i]
				}
				seen[msg]++
			}
			continue
		}
		compiled++
		if _, err := Run(res.Program, env); err != nil && !errors.Is(err, ErrSteps) {
			t.Fatalf("%s\nrun: %v\n%s", src, err, res.Program)
		}
	}
	if compiled < 100 {
		t.Errorf("only %d of 1500 random programs compiled: the generator has drifted", compiled)
	}
	t.Logf("%d of 1500 compiled; first errors: %v", compiled, seen)
}

// randomPrograms returns a generator of pixel shaders (entry main) built
// at random from typed and untyped pieces of HLSL.
func randomPrograms(r *rand.Rand) func() string {
	atoms := []string{"a", "b", "c", "a.x", "b.yz", "c.wzyx", "m", "m[1]", "m._m01_m12", "i", "u", "k", "1", "2.5", "-3",
		"true", "s.p", "s.q", "arr[1]", "arr[i]", "v[1]", "v[i]", "tex.Sample(smp, a.xy)", "tex.SampleLevel(smp, b.zw, 1)",
		"tex.Load(int3(i, 1, 0))", "f(a.x)", "g(b)", "(float3)a", "(int2)b", "float4(a.xy, 1, 2)", "float2x2(1,2,3,4)"}
	unary := []string{"-", "!", "~", "+", "++", "--", "(float)", "(int)", "(uint)", "(bool)", "(float4)"}
	binary := []string{"+", "-", "*", "/", "%", "<", ">", "<=", ">=", "==", "!=", "&&", "||", "&", "|", "^", "<<", ">>", "=", "+=", "*=", ","}
	calls := []string{"dot", "cross", "normalize", "length", "distance", "lerp", "saturate", "clamp", "min", "max", "abs",
		"sign", "floor", "ceil", "frac", "step", "smoothstep", "sqrt", "rsqrt", "pow", "exp", "exp2", "log", "log2", "sin",
		"cos", "reflect", "mul", "transpose", "any", "all", "clip", "asuint", "mad", "rcp", "trunc"}
	var expr func(d int) string
	expr = func(d int) string {
		if d <= 0 {
			return atoms[r.IntN(len(atoms))]
		}
		switch r.IntN(5) {
		case 0:
			return unary[r.IntN(len(unary))] + "(" + expr(d-1) + ")"
		case 1, 2:
			return "(" + expr(d-1) + " " + binary[r.IntN(len(binary))] + " " + expr(d-1) + ")"
		case 3:
			n := 1 + r.IntN(3)
			var args []string
			for i := 0; i < n; i++ {
				args = append(args, expr(d-1))
			}
			return calls[r.IntN(len(calls))] + "(" + strings.Join(args, ", ") + ")"
		}
		return "(" + expr(d-1) + " ? " + expr(d-1) + " : " + expr(d-1) + ")"
	}
	stmts := []func() string{
		func() string { return "a = " + expr(2) + ";" },
		func() string { return "if (" + expr(2) + ") { b += " + expr(1) + "; } else { c = " + expr(1) + "; }" },
		func() string { return "for (int j = 0; j < 3; j++) { a.x += " + expr(1) + "; if (a.x > 4) break; }" },
		func() string { return "while (" + expr(1) + ") { k++; if (k > 2) break; }" },
		func() string { return "i = " + expr(2) + ";" },
		func() string { return "m = mul(m, " + expr(1) + ");" },
		func() string { return "if (" + expr(1) + ") discard;" },
		func() string { return "return " + expr(2) + ";" },
	}
	head := `cbuffer C : register(b0) { float4 v[3]; float4x4 cm; }
Texture2D tex : register(t0); SamplerState smp : register(s0);
struct S { float4 p; float q; };
float f(float x) { return x * 2; }
float4 g(float4 y) { if (y.x > 0) return y; return -y; }
float4 main(float4 a : A, float4 b : B, float4 c : C) : SV_Target {
  int i = 1; uint u = 2; int k = 0; float4x4 m = cm; S s = (S)0; float arr[3] = {1, 2, 3};
`
	return func() string {
		var body []string
		for k := 0; k < 1+r.IntN(4); k++ {
			body = append(body, stmts[r.IntN(len(stmts))]())
		}
		return head + strings.Join(body, "\n") + "\nreturn a;\n}"
	}
}
