package scenario

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/hlsl"
	"d3dsim/core/memlimit"
)

// TestHLSLCompiledOnce: 10,000 references to one hlsl block compile it
// once (each compiled it again: 312 s and 4.7 GB for a 1,611-character
// link), and every reference gets the same bytecode.
func TestHLSLCompiledOnce(t *testing.T) {
	body := "float4 main() : SV_Target { float4 s = 0; " + strings.Repeat("s = s * s + normalize(s);", 200) + " return s; }"
	// A block no other test has: its compile is this test's miss.
	src := "hlsl s {\n// TestHLSLCompiledOnce\n" + body + "\n}\ndev, imm = D3D11CreateDevice\nrepeat 1 {\n" + strings.Repeat("ps = dev.CreatePixelShader hlsl:s\n", 10_000) + "}\n"
	before := hlsl.SharedCache.Stats()
	var s *Script
	var err error
	memlimit.Check(t, 256<<20, "loading 10,000 references", func() {
		s, err = Load("t.d3ds", []byte(src))
	})
	if err != nil {
		t.Fatal(err)
	}
	after := hlsl.SharedCache.Stats()
	if miss := after.Misses - before.Misses; miss != 1 {
		t.Errorf("%d compiles, want 1", miss)
	}
	if hits := after.Hits - before.Hits; hits < 9_999 {
		t.Errorf("%d cache hits, want 9,999", hits)
	}
	var first []byte
	n := 0
	var walk func([]Stmt)
	walk = func(list []Stmt) {
		for _, st := range list {
			switch x := st.(type) {
			case *Repeat:
				walk(x.Body)
			case *Call:
				if x.Method == "CreatePixelShader" {
					b := x.Args[0].Value.Bytes
					if first == nil {
						first = b
					} else if &b[0] != &first[0] {
						t.Fatal("a reference got its own copy of the bytecode")
					}
					n++
				}
			}
		}
	}
	walk(s.Stmts)
	if n != 10_000 {
		t.Errorf("%d references", n)
	}
}

// TestHLSLLoadBudget: distinct compiles of one load are bounded together
// (MaxHLSLShaders shaders at the compiler's limits); the options raise the
// compiler's budgets within their ranges.
func TestHLSLLoadBudget(t *testing.T) {
	// Each entry point calls a chain that lowers 2^15 bodies, about
	// 160,000 nodes a compile: with hlsl.nodes=300000 a load may lower
	// 4 x 300,000, and the eighth distinct entry passes it.
	var b strings.Builder
	b.WriteString("void f0(float x) { x; }\n")
	for i := 1; i <= 15; i++ {
		fmt.Fprintf(&b, "void f%d(float x) { f%d(x); f%d(x); }\n", i, i-1, i-1)
	}
	for e := 0; e < 40; e++ {
		fmt.Fprintf(&b, "float4 e%d(float4 p : P) : SV_Target { f15(p.x); return p * %d; }\n", e, e)
	}
	var refs strings.Builder
	for e := 0; e < 40; e++ {
		fmt.Fprintf(&refs, "ps%d = dev.CreatePixelShader hlsl:s entry=e%d\n", e, e)
	}
	src := "option hlsl.nodes=300000\nhlsl s {\n// TestHLSLLoadBudget\n" + b.String() + "}\ndev, imm = D3D11CreateDevice\n" + refs.String()
	_, err := Load("t.d3ds", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "past the budget of a load (") || !strings.Contains(err.Error(), "option hlsl.tokens and hlsl.nodes raise it") {
		t.Fatalf("err = %v", err)
	}
	// One entry alone compiles within the raised budget, and not within
	// a lowered one.
	one := "option hlsl.nodes=300000\nhlsl s {\n" + b.String() + "}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s entry=e1\n"
	if _, err := Load("t.d3ds", []byte(one)); err != nil {
		t.Errorf("raised: %v", err)
	}
	low := strings.Replace(one, "hlsl.nodes=300000", "hlsl.nodes=1000", 1)
	if _, err := Load("t.d3ds", []byte(low)); err == nil || !strings.Contains(err.Error(), "Limits.Nodes") {
		t.Errorf("lowered: %v", err)
	}
	if _, err := Load("t.d3ds", []byte("option hlsl.instructions=0\n")); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Errorf("out of range: %v", err)
	}
}
