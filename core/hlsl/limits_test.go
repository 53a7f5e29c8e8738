package hlsl

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/memlimit"
)

// doublingStructs declares S0 (two float4) and S1..S16, each two of the
// previous one: S16 is 2 MiB of constants, 131072 temps.
func doublingStructs() string {
	var b strings.Builder
	b.WriteString("struct S0 { float4 a; float4 b; };\n")
	for i := 1; i <= 16; i++ {
		fmt.Fprintf(&b, "struct S%d { S%d a; S%d b; };\n", i, i-1, i-1)
	}
	return b.String()
}

// voidChain is f0..fN, each calling the previous one twice: nothing is
// emitted, and a call of fN inlines 2^N bodies.
func voidChain(n int) string {
	var b strings.Builder
	b.WriteString("void f0(float x) { x; }\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "void f%d(float x) { f%d(x); f%d(x); }\n", i, i-1, i-1)
	}
	fmt.Fprintf(&b, "float4 main(float4 p : P) : SV_Target { f%d(p.x); return p; }\n", n)
	return b.String()
}

// TestLimitsNamed: each hostile source ends in an error that names its
// limit at the line that passed it, allocating a bounded amount on the
// way (each limit is checked before the allocation it guards). The most
// any case allocates (go1.26, amd64): 118 MiB for the nodes budget (a
// million inlined calls, each function's types and assigned names
// resolved once: 234 MiB before), 113 MiB for the instructions (the token
// and code slices grown by doubling: 156), 78 MiB for the long macro
// argument (98); the ceiling leaves room above them.
func TestLimitsNamed(t *testing.T) {
	longArg := strings.Repeat("x + ", 50_000) + "x"
	tests := []struct {
		desc string
		src  string
		want string // in the first error
		line int    // of the first error (0: any)
	}{
		{"product of array dimensions", "static float4 g[4096][4096];\nfloat4 main() : SV_Target { return g[1][2]; }", "array of 16777216 elements (4096x4096 float4): more than 4096", 1},
		{"array in a cbuffer past 4096 registers", "cbuffer C { float4 a[2][2049]; }\nfloat4 main() : SV_Target { return a[1][3]; }", "array of 4098 elements (2x2049 float4)", 1},
		{"cbuffer one register too big", "cbuffer C {\n float4 a[4096];\n float b;\n}\nfloat4 main() : SV_Target { return a[1] + b; }", "constant buffer 'C' needs 4097 registers (65540 bytes); a constant buffer holds at most 4096", 1},
		{"doubling structs in a cbuffer", doublingStructs() + "cbuffer C { S16 x; };\nfloat4 main() : SV_Target { return x.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a; }", "constant buffer 'C' needs 131072 registers", 18},
		{"doubling structs as a local", doublingStructs() + "float4 main() : SV_Target {\n S16 x;\n return x.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a;\n}", "a variable of type 'struct S16' needs 131072 temp registers", 19},
		{"nodes lowered after inlining", voidChain(30), "more than 1048576 expression and statement nodes lowered, each inlined call counted again, the limit (Limits.Nodes)", 0},
		{"tokens after expansion in #if lines", "#define A " + strings.Repeat("1+", 3000) + "1\n" + strings.Repeat("#if A\n#endif\n", 200) + "float4 main() : SV_Target { return 0; }", "more than 262144 tokens after expansion, the limit (Limits.Tokens)", 0},
		{"a long argument named many times", "#define F(a) " + strings.Repeat("a ", 1000) + "\nF(" + longArg + ")\n", "more than 262144 tokens after expansion, the limit (Limits.Tokens)", 2},
		{"instructions", "float4 main(float4 s : S) : SV_Target {\n" + strings.Repeat("s = s * s + normalize(s);\n", 20000) + " return s; }", "instructions, the limit (Limits.Instructions; shader model 4 and 5 guarantee 65536 instruction slots)", 0},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var err error
			memlimit.Check(t, 160<<20, tc.desc, func() {
				_, err = Compile([]byte(tc.src), "h.hlsl", "main", "ps_5_0")
			})
			var es Errors
			if !errors.As(err, &es) || len(es) == 0 {
				t.Fatalf("err = %v, want Errors", err)
			}
			if !strings.Contains(es[0].Msg, tc.want) || tc.line != 0 && es[0].Line != tc.line {
				t.Errorf("first error %q, want %q at line %d", es[0], tc.want, tc.line)
			}
			if strings.Contains(err.Error(), "internal compiler error") {
				t.Errorf("an internal error: %v", err)
			}
		})
	}
}

// TestLimitsRaised: the budgets that are this compiler's own may be
// raised for a shader that needs more, and lowered.
func TestLimitsRaised(t *testing.T) {
	src := voidChain(18) // 2^18 inlined bodies: ~1.3M nodes
	if _, err := Compile([]byte(src), "h.hlsl", "main", "ps_5_0"); err == nil || !strings.Contains(err.Error(), "Limits.Nodes") {
		t.Fatalf("default limits: err = %v", err)
	}
	if _, err := CompileWith([]byte(src), "h.hlsl", "main", "ps_5_0", Limits{Nodes: 4 << 20}); err != nil {
		t.Fatalf("raised: %v", err)
	}
	small := "float4 main(float4 p : P) : SV_Target { return p * 2 + 1; }"
	if _, err := CompileWith([]byte(small), "h.hlsl", "main", "ps_5_0", Limits{Instructions: 1}); err == nil || !strings.Contains(err.Error(), "shader longer than 1 instructions") {
		t.Errorf("lowered instructions: err = %v", err)
	}
	if _, err := CompileWith([]byte(small), "h.hlsl", "main", "ps_5_0", Limits{Tokens: 5}); err == nil || !strings.Contains(err.Error(), "more than 5 tokens") {
		t.Errorf("lowered tokens: err = %v", err)
	}
	if l := (Limits{Tokens: 1 << 40}).withDefaults(); l.Tokens != MaxTokens || l.Nodes != DefaultNodes {
		t.Errorf("withDefaults = %+v", l)
	}
}

// TestDiagnosticsBounded: at every stage the first 32 errors are kept in
// full and the rest counted; a message quoting a 60 KB name is cut.
func TestDiagnosticsBounded(t *testing.T) {
	big := strings.Repeat("M", 60_000)
	tests := []struct {
		desc string
		src  string
	}{
		{"preprocessor: wrong argument counts", "#define F(a,b) a\n#define A F(1) F(1) F(1) F(1)\n#define B A A A A A A A A\n#define C B B B B B B B B\n#define D C C C C C C C C\nD D D D\n"},
		{"preprocessor: a 60 KB macro name", "#define " + big + "(a,b) a\n#define A " + big + "(1) " + big + "(1)\n#define B A A A A A A A A A A\nB B B B\n"},
		{"lexer: bad characters", strings.Repeat("@", 5000)},
		{"type checker", "float4 main() : SV_Target {\n" + strings.Repeat(" x = y;\n", 5000) + " return 0; }"},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var err error
			memlimit.Check(t, 64<<20, tc.desc, func() {
				_, err = Compile([]byte(tc.src), "h.hlsl", "main", "ps_5_0")
			})
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("err = %v", err)
			}
			if len(es) != MaxDiagnostics+1 {
				t.Fatalf("%d diagnostics, want %d and a count", len(es), MaxDiagnostics)
			}
			last := es[len(es)-1].String()
			if !strings.Contains(last, "more errors not shown (the first 32 are)") || !strings.HasPrefix(last, "error X3000: ") {
				t.Errorf("last line %q", last)
			}
			for _, d := range es {
				if len(d.Msg) > 400 {
					t.Errorf("a message of %d bytes", len(d.Msg))
				}
			}
		})
	}
}

// TestLineContinuationsLinear: a 240 KB run of backslash continuations
// is joined once (it was joined quadratically: seconds, and gigabytes
// copied).
func TestLineContinuationsLinear(t *testing.T) {
	src := "#define X 1 \\\n" + strings.Repeat("1 \\\n", 60_000) + "\nfloat4 main() : SV_Target { return 1; }\n"
	memlimit.Check(t, 32<<20, "continuations", func() {
		if _, err := Compile([]byte(src), "h.hlsl", "main", "ps_5_0"); err != nil {
			t.Fatal(err)
		}
	})
	// The joined line keeps its first line's number, and the text joins.
	lines := logicalLines([]byte("a \\\nb \\\r\nc\nd"))
	if len(lines) != 2 || lines[0].text != "a  b  c" || lines[0].line != 1 || lines[1].line != 4 {
		t.Errorf("logicalLines = %+v", lines)
	}
}

// TestErrorDirective: #error prints its text once ("#error foo", not
// "#errorerror foo").
func TestErrorDirective(t *testing.T) {
	for _, src := range []string{"#error foo bar\n", "#  error foo bar\n"} {
		_, err := Compile([]byte(src), "h.hlsl", "main", "ps_5_0")
		if err == nil || !strings.Contains(err.Error(), "h.hlsl(1,1): error X3000: #error foo bar") || strings.Contains(err.Error(), "errorerror") {
			t.Errorf("%q: %v", src, err)
		}
	}
}
