package hlsl

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/memlimit"
)

// The compiler fuzzed stage by stage: FuzzCompile's sources mostly die in
// the lexer or the parser, so a crasher in a later stage hides behind an
// earlier rejection. Each target here feeds one stage what the stages
// before it accept: the preprocessor raw text, the parser what the
// preprocessor makes of generated macros, and the type checker, the
// constant-buffer layout and the code generator programs that parse,
// written by progGen from the fuzzer's bytes, valid but hostile (deep
// structs and arrays, long loops, calls nested to the limit). Each input
// must end in a result or in Errors in fxc's form, never an internal
// compiler error, within its heap ceiling, with at most 32 diagnostics
// and a count.

// checkOutcome checks what a compile gave.
func checkOutcome(t *testing.T, res *Result, err error, src string) {
	t.Helper()
	if err != nil {
		var es Errors
		if !errors.As(err, &es) || len(es) == 0 {
			t.Fatalf("error %v is not Errors", err)
		}
		if len(es) > MaxDiagnostics+1 {
			t.Fatalf("%d diagnostics", len(es))
		}
		for _, d := range es {
			if len(d.Msg) > 2*maxDiagText {
				t.Fatalf("a message of %d bytes", len(d.Msg))
			}
		}
		if strings.Contains(err.Error(), "internal compiler error") {
			t.Fatalf("%v\n%s", err, src)
		}
		return
	}
	if _, err := dxbc.Validate(res.Bytecode, stageOf(res.Program)); err != nil {
		t.Fatalf("invalid bytecode: %v\n%s", err, src)
	}
}

// FuzzPreprocess: directives and macros on arbitrary text, the tokens
// after expansion bounded (small limits here, so the fuzzer reaches them).
func FuzzPreprocess(f *testing.F) {
	for _, s := range []string{
		"#define A(x) x x\n#define B A(A(A(1)))\nB B",
		"#if defined(X) || (1 << 62) / 0\n#elif 1\n#else\n#endif",
		"#define F(a,b) a##b\nF(1)\n#error e\n#line 3",
		"#define X \\\n 1 \\\n 2\nX",
		"#ifdef\n#ifndef\n#undef\n#endif\n#endif",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		memlimit.Check(t, 64<<20, "FuzzPreprocess", func() {
			var diags []Diag
			lx := &lexer{file: "f.hlsl", diags: &diags, lim: Limits{Tokens: 4096}.withDefaults()}
			toks := lx.tokenize([]byte(src))
			if len(toks) > 4096+len(src) {
				t.Fatalf("%d tokens past the limit", len(toks))
			}
			if len(diags) > MaxDiagnostics {
				t.Fatalf("%d diagnostics kept", len(diags))
			}
		})
	})
}

// FuzzParseStage: sources made of well-formed pieces in any order, so the
// parser, not the lexer, decides.
func FuzzParseStage(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{9, 9, 9, 9, 1, 1, 1})
	pieces := []string{"float4", "main", "(", ")", "{", "}", ";", ":", "SV_Target", "return", "1", "+", "struct", "S",
		"cbuffer", "C", "[", "]", "for", "if", "else", "=", ",", "x", ".", "xyzw", "float", "int", "static", "const",
		"while", "break", "continue", "discard", "register", "(b0)", "<", ">", "?", "!", "-", "*", "/", "uint", "row_major"}
	f.Fuzz(func(t *testing.T, b []byte) {
		var sb strings.Builder
		for _, c := range b {
			sb.WriteString(pieces[int(c)%len(pieces)])
			sb.WriteByte(' ')
		}
		src := sb.String()
		memlimit.Check(t, 64<<20, "FuzzParseStage", func() {
			res, err := Compile([]byte(src), "f.hlsl", "main", "ps_5_0")
			checkOutcome(t, res, err, src)
		})
	})
}

// FuzzTypeCheckLayoutGen: programs that parse, from progGen: the type
// checker, the layout and the code generator decide.
func FuzzTypeCheckLayoutGen(f *testing.F) {
	for _, s := range [][]byte{
		{}, {1, 2, 3}, {255, 255, 255, 255, 255, 255}, {7, 0, 7, 0, 7, 0, 7},
		[]byte("structs and arrays and loops, nested"),
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Add([]byte("72200"), true) // 192 inlined copies of f0 before progGen's bounds
	f.Fuzz(func(t *testing.T, b []byte, vertex bool) {
		src := progGen(b, vertex)
		target := "ps_5_0"
		if vertex {
			target = "vs_5_0"
		}
		memlimit.Check(t, 256<<20, "FuzzTypeCheckLayoutGen", func() {
			res, err := Compile([]byte(src), "f.hlsl", "main", target)
			checkOutcome(t, res, err, src)
		})
	})
}

// TestProgGenCompiles: most of what progGen writes compiles (so the
// stages after the parser are the ones fuzzed), and none of it is an
// internal error.
func TestProgGenCompiles(t *testing.T) {
	ok := 0
	const n = 300
	for i := 0; i < n; i++ {
		b := []byte(fmt.Sprintf("%d seed %d %x", i, i*7919, i*i))
		src := progGen(b, i%2 == 0)
		target := "ps_5_0"
		if i%2 == 0 {
			target = "vs_5_0"
		}
		res, err := Compile([]byte(src), "f.hlsl", "main", target)
		checkOutcome(t, res, err, src)
		if err == nil {
			ok++
		}
	}
	if ok < n/2 {
		t.Errorf("only %d of %d generated programs compile", ok, n)
	}
}

// progGen's bounds on the calls: a function's weight and main's.
const (
	progGenWeight     = 16
	progGenMainWeight = 32
)

// progGen writes an HLSL program from bytes: structs nested and arrayed,
// a constant buffer of them, statics, functions calling the previous ones,
// loops and branches over them, and an entry point that uses it all. Its
// shapes are valid HLSL; its types' sizes come from the bytes, so they
// reach the limits (array elements, constant-buffer size, temps). The
// calls are bounded: each function's weight (the copies of f0 it inlines,
// a loop counted as unrolled) stays under progGenWeight, and main's calls
// under progGenMainWeight, so that no input costs the optimizer more than
// a few tens of milliseconds (an input that inlined 192 copies took 4.75 s under
// load and the fuzzer's 10 s deadline gave up on it). The node and
// instruction limits are TestLimits' to reach.
func progGen(b []byte, vertex bool) string {
	pos := 0
	next := func(n int) int {
		if len(b) == 0 || n <= 0 {
			return 0
		}
		v := int(b[pos%len(b)])
		pos++
		return v % n
	}
	dims := []int{1, 2, 3, 4, 16, 64, 256, 1024, 2049, 4096}
	var sb strings.Builder
	structs := 1 + next(6)
	fmt.Fprintf(&sb, "struct S0 { float4 a; float b; };\n")
	for i := 1; i < structs; i++ {
		fmt.Fprintf(&sb, "struct S%d { S%d a", i, i-1)
		if d := next(4); d > 0 {
			fmt.Fprintf(&sb, "[%d]", dims[next(len(dims))])
		}
		fmt.Fprintf(&sb, "; float%d v; S%d c; };\n", 1+next(4), i-1)
	}
	top := structs - 1 - next(structs)
	fmt.Fprintf(&sb, "cbuffer C : register(b%d) { S%d cs", next(14), top)
	csIndex := ""
	if next(2) == 1 {
		fmt.Fprintf(&sb, "[%d]", dims[next(5)])
		csIndex = "[0]"
	}
	fmt.Fprintf(&sb, "; float4 k[%d]; row_major float4x4 m; };\n", dims[next(len(dims))])
	if next(3) == 0 {
		fmt.Fprintf(&sb, "static float4 g[%d];\n", dims[next(len(dims))])
	}
	funcs := 1 + next(8)
	weight := make([]int, funcs) // copies of f0 each function inlines
	weight[0] = 1
	sb.WriteString("float4 f0(float4 x) { return x * 0.5 + k[0]; }\n")
	for i := 1; i < funcs; i++ {
		kind, iters, w := next(3), 1, weight[i-1]
		if kind == 1 {
			iters = 1 + next(50)
		}
		if kind != 1 && 2*w > progGenWeight {
			kind = 1 // one call, not two
		}
		if kind == 1 {
			iters = max(1, min(iters, progGenWeight/w))
			weight[i] = iters * w
		} else {
			weight[i] = 2 * w
		}
		switch kind {
		case 0:
			fmt.Fprintf(&sb, "float4 f%d(float4 x) { return f%d(x) + f%d(x.wzyx); }\n", i, i-1, i-1)
		case 1:
			fmt.Fprintf(&sb, "float4 f%d(float4 x) { float4 s = x; for (int i = 0; i < %d; i++) { s = f%d(s); if (s.x > %d) break; } return s; }\n", i, iters, i-1, next(9))
		default:
			fmt.Fprintf(&sb, "float4 f%d(float4 x) { [branch] if (x.y < 0) { return f%d(-x); } return mul(m, x) + f%d(x); }\n", i, i-1, i-1)
		}
	}
	mainWeight := 0
	in, out := "float4 p : SV_Position", "SV_Target"
	if vertex {
		in, out = "float4 p : POSITION", "SV_Position"
	}
	fmt.Fprintf(&sb, "float4 main(%s) : %s {\n  float4 s = p;\n", in, out)
	stmts := 1 + next(10)
	for i := 0; i < stmts; i++ {
		switch next(6) {
		case 0:
			f := next(funcs)
			for f > 0 && mainWeight+weight[f] > progGenMainWeight {
				f--
			}
			mainWeight += weight[f]
			fmt.Fprintf(&sb, "  s = f%d(s);\n", f)
		case 1:
			if k := next(structs); k == 0 {
				sb.WriteString("  { S0 t; t.a = s; t.b = s.y; s += t.a * t.b; }\n")
			} else {
				fmt.Fprintf(&sb, "  { S%d t; t.v = s.x; s.x += t.v.x; }\n", k)
			}
		case 2:
			fmt.Fprintf(&sb, "  for (uint j = 0; j < %du; j++) { s.x += k[j %% %d].x; }\n", next(1000), 1+next(3))
		case 3:
			if top == 0 {
				fmt.Fprintf(&sb, "  s += cs%s.a * cs%s.b;\n", csIndex, csIndex)
			} else {
				fmt.Fprintf(&sb, "  s.x += cs%s.v.x;\n", csIndex)
			}
		case 4:
			fmt.Fprintf(&sb, "  float%d w%d[%d]; w%d[0] = s.x; s.y += w%d[0].x;\n", 1+next(4), i, dims[next(len(dims))], i, i)
		default:
			fmt.Fprintf(&sb, "  while (s.z < %d) { s.z += 1; if (s.w > 2) continue; }\n", next(100))
		}
	}
	sb.WriteString("  return s;\n}\n")
	return sb.String()
}
