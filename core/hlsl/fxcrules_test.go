package hlsl

import (
	"strings"
	"testing"
)

// TestComponentwiseCasts: casts and conversions between structs, arrays,
// vectors and matrices as fxc allows them for shader models 4 and 5, the
// values checked on the reference evaluator.
func TestComponentwiseCasts(t *testing.T) {
	in := [4]float32{1, 2, 3, 4}
	for _, c := range []struct {
		body string
		want [4]float32
	}{
		// A constructor takes an array's components in order.
		{"float f[4] = {a.w, a.z, a.y, a.x}; return float4(f);", [4]float32{4, 3, 2, 1}},
		// Arrays and structs of the same components convert implicitly.
		{"struct s { float3 p; float q; }; float f[4] = {a.x, a.y, a.z, a.w}; s v; v = f; return float4(v.q, v.p);", [4]float32{4, 1, 2, 3}},
		// A 1xN matrix truncates as a vector does.
		{"int1x3 m = (int1x3)a; return float4(m, 0);", [4]float32{1, 2, 3, 0}},
		{"float f[5] = {a.x, a.y, a.z, a.w, 5}; int1x4 m = (int1x4)f; return float4(m);", [4]float32{1, 2, 3, 4}},
		{"float4x1 m = a; int f[3] = (int[3])m; return float4(f[0], f[1], f[2], 0);", [4]float32{1, 2, 3, 0}},
	} {
		if got := runPS(t, c.body, in, in, in); got != c.want {
			t.Errorf("%s: %v, want %v", c.body, got, c.want)
		}
	}
	for _, c := range []struct{ body, want string }{
		{"float f[5] = {1, 2, 3, 4, 5}; float2x2 m = (float2x2)f; return 0;", "cannot convert from 'float[5]' to 'float2x2': 5 components to 4"},
		{"float2x2 m = 0; int f[3] = (int[3])m; return 0;", "cannot convert from 'float2x2' to 'int[3]'"},
		{"int f[4] = {1, 2, 3, 4}; float g[4]; g = f; return 0;", "cannot implicitly convert from 'int[4]' to 'float[4]'"},
		{"float f[4] = {1, 2, 3, 4}; float4 v; v = f; return 0;", "cannot implicitly convert from 'float[4]' to 'float4'"},
	} {
		src := "float4 main() : SV_Target {\n" + c.body + "\n}"
		_, err := Compile([]byte(src), "c.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
}

// TestDeclarationRules: registers, packoffsets, annotations, modifiers,
// attributes and default values as fxc takes them.
func TestDeclarationRules(t *testing.T) {
	for _, c := range []struct{ src, check string }{
		// register(c) alone is c0, packoffset(c0.b) is c0.z.
		{"float a : register(c); float4 main() : SV_Target { return a; }", "cb0[0].xxxx"},
		{"cbuffer b { float2 c : packoffset(c0.b); } float4 main() : SV_Target { return c.xyxy; }", "cb0[0].zwzw"},
		// A register of another class binds nothing: tex takes t0.
		{"Texture2D unused : register(s0); Texture2D tex; float4 main() : SV_Target { return tex.Load(0); }", "t0.xyzw"},
		{"cbuffer cb : register(b1) < int i = 1; > { float4 m; } export float4 main() : SV_Target { return m; }", "cb1[0]"},
		// fxc ignores attributes it does not read, arguments and all.
		{"float f; static int i = 1; [one(i++)] [numthreads(1, \"x\", f)] float4 main() : SV_Target { return 0; }", "ret"},
		{"float4 f(float4 b = {1, 2, 3, 4}) { return b; } float4 main() : SV_Target { return f(); }", "l(1.000000,2.000000,3.000000,4.000000)"},
	} {
		r := compileOK(t, c.src, "main", "ps_4_0")
		if text := listing(t, r.Bytecode); !strings.Contains(text, c.check) {
			t.Errorf("%s: no %q in\n%s", c.src, c.check, text)
		}
	}
	_, err := Compile([]byte("[numthreads(f)] float4 main() : SV_Target { return 0; }"), "a.hlsl", "main", "ps_4_0")
	if err == nil || !strings.Contains(err.Error(), "undeclared identifier 'f'") {
		t.Errorf("numthreads(f): %v", err)
	}
}

// TestFxcRejectsMore: what fxc refuses for shader models 4 and 5 and the
// compiler used to take.
func TestFxcRejectsMore(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"cbuffer buf : register(b0manymanyletters) { float a; } float4 main() : SV_Target { return a; }", "bad register 'b0manymanyletters' for a cbuffer"},
		{"float3x1 f() { return float4(1, 2, 3, 4); } float4 main() : SV_Target { return float4(f(), 0); }", "cannot implicitly convert from 'float4' to 'float3x1'"},
	} {
		_, err := Compile([]byte(c.src), "r.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
	compileOK(t, "float1x3 f() { return float4(1, 2, 3, 4); } float4 main() : SV_Target { return float4(f(), 0); }", "main", "ps_4_0")
}

// TestNormModifiersAndFloatAddresses: unorm and snorm modify float types
// only; a texture indexed by floats reads at their conversion to uint.
func TestNormModifiersAndFloatAddresses(t *testing.T) {
	compileOK(t, "unorm float v; RWTexture2D<snorm float> u; float4 main() : SV_Target { u[uint2(0, 0)] = v; return v; }", "main", "ps_5_0")
	r := compileOK(t, "Texture2D t; float4 main(float4 p : SV_Position) : SV_Target { return t[p.yx]; }", "main", "ps_4_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "ftou") || !strings.Contains(text, "ld ") {
		t.Errorf("t[float2]:\n%s", text)
	}
	for _, src := range []string{"unorm uint4 v; float4 main() : SV_Target { return 0; }", "float4 unorm; float4 main() : SV_Target { return 0; }"} {
		if _, err := Compile([]byte(src), "n.hlsl", "main", "ps_5_0"); err == nil {
			t.Errorf("%s compiled", src)
		}
	}
}

// TestTernaryRules: objects of one type picked by a constant; matrices of
// which neither is as large as the other in both dimensions do not mix.
func TestTernaryRules(t *testing.T) {
	r := compileOK(t, "Texture2D t, u; float4 main() : SV_Target { Texture2D x = 1 ? u : t; return x.Load(0); }", "main", "ps_4_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "t0.xyzw") {
		t.Errorf("1 ? u : t:\n%s", text)
	}
	_, err := Compile([]byte("float2x4 a; float3x2 b; float4 main() : SV_Target { 0 ? a : b; return 0; }"), "t.hlsl", "main", "ps_4_0")
	if err == nil || !strings.Contains(err.Error(), "neither matrix is as large as the other") {
		t.Errorf("float2x4 ? float3x2: %v", err)
	}
	compileOK(t, "float2x4 a; float2x2 b; float4 main() : SV_Target { return (a + b)[0].xyxy; }", "main", "ps_4_0")
}

// TestIntrinsicsMixMatrices: the intrinsics take matrices of which
// neither is as large as the other (their common part), where ?: does not.
func TestIntrinsicsMixMatrices(t *testing.T) {
	compileOK(t, "float2x3 a; float3x2 b; float4 main() : SV_Target { return max(a, b)[0].xyxy; }", "main", "ps_4_0")
}

// TestOffsetsThroughVariables: a texel offset read from a variable that
// straight-line code set to constants (through swizzles and copies) is
// that constant; one set in a branch is not known, and refused.
func TestOffsetsThroughVariables(t *testing.T) {
	r := compileOK(t, "Texture2D t; int i; float4 main() : SV_Target { int4 a = {1, 2, i, i}; int4 b = a.yxww; return t.Load(int3(0, 0, 0), b.yx); }", "main", "ps_4_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "ld_aoffimmi(1,2,0)") {
		t.Errorf("offset (1, 2):\n%s", text)
	}
	_, err := Compile([]byte("Texture2D t; int i; float4 main() : SV_Target { int2 a = 1; if (i) a.x = 2; return t.Load(int3(0, 0, 0), a); }"), "o.hlsl", "main", "ps_4_0")
	if err == nil || !strings.Contains(err.Error(), "a texel offset that is not a constant") {
		t.Errorf("offset set in a branch: %v", err)
	}
}

// TestNumthreadsStatics: numthreads takes a static of a constant value;
// another function's attributes are not the entry point's.
func TestNumthreadsStatics(t *testing.T) {
	r := compileOK(t, "static int x = 2; [numthreads(x, 1, 1)] void main() {}", "main", "cs_5_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "dcl_thread_group 2, 1, 1") {
		t.Errorf("numthreads(x):\n%s", text)
	}
	compileOK(t, "static int x = 1; [numthreads(++x, 1, 1)] void f() {} [numthreads(1, 1, 1)] void main() { f(); }", "main", "cs_5_0")
	if _, err := Compile([]byte("static int x = 1; [numthreads(x++, 1, 1)] void main() {}"), "n.hlsl", "main", "cs_5_0"); err == nil {
		t.Error("numthreads(x++) compiled")
	}
}

// TestStructInheritance: struct b : a holds a's members first; a member
// of the derived struct shadows the base's of its name; a derived struct
// whose base ends inside a register stays out of constant buffers.
func TestStructInheritance(t *testing.T) {
	in := [4]float32{1, 2, 3, 4}
	// v.y is B's y (a.wzyx), not A's, which stays 0 (the cast to A reads it).
	body := "struct A { float4 x; float4 y; }; struct B : A { float4 z; float4 y; }; B v = (B)0; v.x = a; v.y = a.wzyx; v.z = 2; " +
		"A u = (A)v; return v.y + v.z + v.x + 10 * u.y;"
	if got := runPS(t, body, in, in, in); got != [4]float32{7, 7, 7, 7} {
		t.Errorf("got %v, want 7 7 7 7", got)
	}
	r := compileOK(t, "struct A { float4 p; }; struct B : A { float4 q; }; B b; float4 main() : SV_Target { return b.p + b.q; }", "main", "ps_4_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "cb0[0]") || !strings.Contains(text, "cb0[1]") {
		t.Errorf("B's members:\n%s", text)
	}
	_, err := Compile([]byte("struct A { float p; }; struct B : A { float q; }; B b; float4 main() : SV_Target { return b.q; }"), "s.hlsl", "main", "ps_4_0")
	if err == nil || !strings.Contains(err.Error(), "a struct derived from one whose size is not whole registers") {
		t.Errorf("unaligned base: %v", err)
	}
}

// TestInputArraysOfStructs: every element of an input array of structs
// reads the registers of the first (fxc gives them the same semantics),
// and writing one element leaves the others; the last of a function's
// semantics counts.
func TestInputArraysOfStructs(t *testing.T) {
	src := "struct S { float4 a : TEXCOORD0; }; float4 main(in S s[2][2]) : BOGUS : SV_Target { s[1][1].a.x = 7; return float4(s[0][0].a.x, s[1][1].a.x, s[0][1].a.yz); }"
	r := compileOK(t, src, "main", "ps_4_0")
	if len(r.Inputs) != 1 || r.Outputs[0].Semantic != "SV_Target" {
		t.Fatalf("signatures %v %v", r.Inputs, r.Outputs)
	}
	out, err := Run(r.Program, &Env{Inputs: [][4]uint32{bits4([4]float32{1, 2, 3, 4})}})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{1, 7, 2, 3} {
		t.Errorf("got %v, want 1 7 2 3", got)
	}
}
