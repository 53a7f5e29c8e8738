package hlsl

import (
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// runCB compiles a pixel shader taking no inputs and runs it with
// constant buffer 0 holding cb; it returns o0.
func runCB(t *testing.T, src, target string, cb ...[4]uint32) [4]uint32 {
	t.Helper()
	r := compileOK(t, src, "main", target)
	out, err := Run(r.Program, &Env{CB: [][][4]uint32{cb}})
	if err != nil {
		t.Fatalf("run: %v\n%s", err, r.Program)
	}
	return out.Regs[0]
}

func fl4(a, b, c, d float32) [4]uint32 { return bits4([4]float32{a, b, c, d}) }

// TestPackMatrixPragma: #pragma pack_matrix(row_major) packs the matrices
// declared after it by rows, a struct member keeps the packing of where
// the struct is declared, and SDL's vertex shader (which starts with the
// pragma) lays out its constant buffer as fxc's blob of it does.
func TestPackMatrixPragma(t *testing.T) {
	src := `#pragma pack_matrix(row_major)
uniform float2x2 r;
#pragma pack_matrix(column_major)
uniform float2x2 c;
float4 main() : sv_target
{
    float4 ret;
    ret.xy = mul(r, float2(0.5, 0.6));
    ret.zw = mul(c, float2(0.5, 0.6));
    return ret;
}`
	got := floats4(runCB(t, src, "ps_4_0", fl4(0.1, 0.2, 0, 0), fl4(0.3, 0.4, 0, 0), fl4(0.1, 0.3, 0, 0), fl4(0.2, 0.4, 0, 0)))
	want := [4]float32{0.1*0.5 + 0.2*0.6, 0.3*0.5 + 0.4*0.6, 0.1*0.5 + 0.2*0.6, 0.3*0.5 + 0.4*0.6}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Errorf("result %v, want %v", got, want)
			break
		}
	}
	st := `#pragma pack_matrix(row_major)
struct apple { float2x2 m; };
#pragma pack_matrix(column_major)
uniform struct apple a;
float4 main() : sv_target { return float4(a.m[0], a.m[1]); }`
	if got := floats4(runCB(t, st, "ps_4_0", fl4(0.1, 0.2, 0, 0), fl4(0.3, 0.4, 0, 0))); got != [4]float32{0.1, 0.2, 0.3, 0.4} {
		t.Errorf("struct member %v", got)
	}
	// SDL's vertex shader against fxc's compile of it.
	hlslSrc, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_VertexShader.hlsl")
	if err != nil {
		t.Fatal(err)
	}
	hdr, err := os.ReadFile("../dxbc/testdata/sdl_D3D11_VertexShader.h")
	if err != nil {
		t.Fatal(err)
	}
	blob, err := dxbc.ParseFxcHeader(string(hdr))
	if err != nil {
		t.Fatal(err)
	}
	fxc, err := dxbc.Parse(blob)
	if err != nil {
		t.Fatal(err)
	}
	ours := compileOK(t, string(hlslSrc), "main", "vs_4_0")
	theirs, err := dxbc.ParseRDEF(fxc.Chunk("RDEF").Data)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"model", "projectionAndView"} {
		var a, b *dxbc.Variable
		for i, v := range theirs.ConstantBuffer("VertexShaderConstants").Variables {
			if v.Name == name {
				b = &theirs.ConstantBuffer("VertexShaderConstants").Variables[i]
			}
		}
		for _, cb := range ours.CBuffers {
			for _, v := range cb.Vars {
				if v.Name == name {
					a = &dxbc.Variable{Offset: uint32(v.Offset), Type: &dxbc.Type{Class: map[bool]dxbc.VariableClass{true: dxbc.ClassMatrixRows, false: dxbc.ClassMatrixColumns}[v.RowMajor]}}
				}
			}
		}
		if a == nil || b == nil || a.Offset != b.Offset || a.Type.Class != b.Type.Class {
			t.Errorf("%s: d3dsim %+v, fxc %+v", name, a, b)
		}
	}
	// The code reads the rows: pos times an identity model and a
	// projection that scales x by 2 and moves y by 0.25.
	var cb [][4]uint32
	for i := 0; i < 4; i++ {
		var row [4]float32
		row[i] = 1
		cb = append(cb, bits4(row))
	}
	proj := [][4]float32{{2, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0.25, 0, 1}}
	for _, r := range proj {
		cb = append(cb, bits4(r))
	}
	out, err := Run(ours.Program, &Env{Inputs: [][4]uint32{fl4(0.5, 0.5, 0, 0), {}, {}}, CB: [][][4]uint32{cb}})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{1, 0.75, 0, 1} {
		t.Errorf("SDL vertex shader position %v, want [1 0.75 0 1]", got)
	}
}

// TestRegisterCN: register(cN) places a loose uniform in $Globals, and the
// others pack around it (vkd3d's register-reservations-numeric).
func TestRegisterCN(t *testing.T) {
	offsets := func(src string) string {
		r := compileOK(t, src, "main", "ps_4_0")
		var s []string
		for _, v := range r.CBuffers[0].Vars {
			s = append(s, v.Name+"@"+itoa(v.Offset))
		}
		return strings.Join(s, " ")
	}
	for _, c := range []struct{ src, want string }{
		{"float4 a; float4 b : register(c0);\nfloat4 main() : sv_target { return float4(a.xw, b.yz); }", "a@16 b@0"},
		{"float4 a[3]; float4 b[2] : register(c1);\nfloat4 main() : sv_target { return float4(a[1].xy, b[0].zw); }", "a@48 b@16"},
		{"float a : register(c2); float b;\nfloat4 main() : sv_target { return float4(a, b, 0, 0); }", "a@32 b@36"},
		{"float a : register(c1manymanyletters);\nfloat4 main() : sv_target { return a; }", "a@16"},
	} {
		if got := offsets(c.src); got != c.want {
			t.Errorf("%s\noffsets %s, want %s", c.src, got, c.want)
		}
	}
	got := floats4(runCB(t, "float4 a; float4 b : register(c0);\nfloat4 main() : sv_target { return float4(a.xw, b.yz); }", "ps_4_0",
		fl4(0.1, 0.2, 0.3, 0.4), fl4(1.1, 1.2, 1.3, 1.4)))
	if got != [4]float32{1.1, 1.4, 0.2, 0.3} {
		t.Errorf("values %v", got)
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestShiftTakesLeftType: int >> uint shifts arithmetically (-12 >> 1 is
// -6): a shift has the type of its left operand.
func TestShiftTakesLeftType(t *testing.T) {
	src := `uniform uint4 nonconst;
float4 main() : sv_target
{
    int a = 5, b = -12;
    uint r = 1;
    int sa = a; sa >>= nonconst.x;
    int sb = b; sb >>= nonconst.x;
    a >>= r;
    b >>= r;
    return float4(a, b, sa, sb);
}`
	if got := floats4(runCB(t, src, "ps_4_0", [4]uint32{1})); got != [4]float32{2, -6, 2, -6} {
		t.Errorf("%v, want [2 -6 2 -6]", got)
	}
}

// TestBoolInConstantBuffer: a bool holding 2 (or 0x80000000) in a constant
// buffer is true.
func TestBoolInConstantBuffer(t *testing.T) {
	src := `uniform bool4 b;
float4 main() : sv_target { return (float4)b + (float4)(int4)b; }`
	if got := floats4(runCB(t, src, "ps_4_0", [4]uint32{1, 2, 0x80000000, 0})); got != [4]float32{2, 2, 2, 0} {
		t.Errorf("%v, want [2 2 2 0]", got)
	}
	src = "uniform bool b;\nfloat4 main() : sv_target { return b ? 1 : 0.5; }"
	if got := floats4(runCB(t, src, "ps_4_0", [4]uint32{2})); got[0] != 1 {
		t.Errorf("b ? 1 : 0.5 with b = 2: %v", got)
	}
}

// TestStaticZeroInit: a static without an initialiser is zero, even when
// another static is set by a call (its temps are not left behind).
func TestStaticZeroInit(t *testing.T) {
	src := `float myfunc() { return 0.6; }
static float a = myfunc() + 0.2;
static float b;
static const float c;
float4 main() : sv_target { return float4(a, b, c, 0); }`
	if got := floats4(runCB(t, src, "ps_4_0")); got != [4]float32{0.8, 0, 0, 0} {
		t.Errorf("%v, want [0.8 0 0 0]", got)
	}
}

// TestOverloadRanks: overloads are ranked as fxc ranks them; a tie is
// ambiguous.
func TestOverloadRanks(t *testing.T) {
	src := `float func(int arg) { return 0.1; }
float func(uint arg) { return 0.2; }
float4 main() : sv_target
{
    int i = 1;
    uint u = 1;
    return float4(func(i), func(u), func(int2(1, 1)), func(uint2(1, 1)));
}`
	if got := floats4(runCB(t, src, "ps_4_0")); got != [4]float32{0.1, 0.2, 0.1, 0.2} {
		t.Errorf("%v, want [0.1 0.2 0.1 0.2]", got)
	}
	for _, c := range []struct {
		decls, call string
		want        float32
	}{
		{"float4 func(uint x) { return 2.0; } float4 func(min16int x) { return 1.0; }", "func(int(0))", 2},
		{"float4 func(int x) { return 2.0; } float4 func(min16uint x) { return 1.0; }", "func(uint(0))", 2},
		{"float4 func(min16int x) { return 2.0; } float4 func(float x) { return 1.0; }", "func(int(0))", 2},
		{"float4 func(float4 x) { return 0.0; } float4 func(int2 x) { return 1.0; }", "func(int4(0, 0, 0, 0))", 0},
		{"float4 func(float4 x[1]) { return 1.0; } float4 func(float2 x[2]) { return 2.0; } float4 func(float4 x) { return 42.0; }", "func(float4(0, 0, 0, 0))", 42},
	} {
		src := c.decls + "\nfloat4 main() : sv_target { return " + c.call + "; }"
		if got := floats4(runCB(t, src, "ps_4_0")); got[0] != c.want {
			t.Errorf("%s: %v, want %v", src, got, c.want)
		}
	}
	for _, src := range []string{
		"float func(int a) { return 1.0; } float func(uint a) { return 2.0; }\nfloat4 main() : sv_target { return func(3); }",
		"void func(float a) {} void func(float1 a) {}\nfloat4 main() : sv_target { float x = 1.0; func(x); return 1.0; }",
		"float4 func(float3 x) { return 0.0; } float4 func(float2 x) { return 1.0; }\nfloat4 main() : sv_target { return func(float4(0, 0, 0, 0)); }",
		"float4 func(float2x2 x) { return 2.0; } float4 func(float4 x) { return 1.0; }\nfloat4 main() : sv_target { return func(float4(0, 0, 0, 0)); }",
	} {
		if _, err := Compile([]byte(src), "t.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), "ambiguous function call") {
			t.Errorf("%s: %v, want an ambiguous call", src, err)
		}
	}
	if _, err := Compile([]byte("float f(int a) { return 0.1; }\nfloat f(int a) { return 0.1; }\nfloat4 main() : sv_target { return 0; }"), "t.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), "(2,7): error X3003") {
		t.Errorf("a second body: %v", err)
	}
}

// TestNotInvertsComparison: !(a < b) compiles to a >= b, as fxc's shader
// model 4 and 5 code does (it differs for NaN).
func TestNotInvertsComparison(t *testing.T) {
	src := `uniform float4 f;
float4 main() : sv_target
{
    float n = f.x / f.w;
    return float4(!(n < f.x) ? 1 : 0, !(n >= f.x) ? 1 : 0, !(n == f.y) ? 1 : 0, 0);
}`
	// n is 0/0: NaN. NaN >= 0 is false, NaN < 0 is false, NaN != 1.5 is true.
	if got := floats4(runCB(t, src, "ps_4_0", fl4(0, 1.5, 1.5, 0))); got != [4]float32{0, 0, 1, 0} {
		t.Errorf("%v, want [0 0 1 0]", got)
	}
}

// TestLiteralFolding: integer literal arithmetic folds as fxc folds it.
func TestLiteralFolding(t *testing.T) {
	for _, c := range []struct {
		expr string
		want float32
	}{
		{"int x = 3000000000 + 3000000000; return float4(x, 0, 0, 0);", -2147483648},
		{"uint x = 3000000000 + 3000000000; return float4(x, 0, 0, 0);", 2147483648},
		{"return float4(3000000000u + 3000000000u, 0, 0, 0);", 1705032704},
		{"int x = 3000000000; return float4(x, 0, 0, 0);", -1294967296},
		{"return float4(7 * 6 - 2, 0, 0, 0);", 40},
	} {
		src := "float4 main() : sv_target { " + c.expr + " }"
		if got := floats4(runCB(t, src, "ps_4_0")); got[0] != c.want {
			t.Errorf("%s: %v, want %v", c.expr, got[0], c.want)
		}
	}
}

// TestUnrollCount: [unroll(N)] ends the loop after N trips, as fxc's
// unrolled code does.
func TestUnrollCount(t *testing.T) {
	for _, c := range []struct {
		loop string
		want float32
	}{
		{"[unroll(4)] for (i = 0; i < 8; ++i);", 4},
		{"[unroll(1337)] for (i = 0; i < 1337; ++i);", 1337},
		{"[unroll] for (i = 0; i < 10; ++i);", 10},
		{"[unroll(2)] while (i < 5) i++;", 2},
	} {
		src := "float4 main() : sv_target { int i = 0; " + c.loop + " return float4(i, 0, 0, 0); }"
		if got := floats4(runCB(t, src, "ps_4_0")); got[0] != c.want {
			t.Errorf("%s: %v, want %v", c.loop, got[0], c.want)
		}
	}
}

// TestSwitch: switch with fall-through groups, default anywhere, breaks
// inside ifs, inside loops, returns from a called function's switch; and
// the switches fxc rejects.
func TestSwitch(t *testing.T) {
	src := `uniform uint4 v;
float f(uint x)
{
    switch (x)
    {
    case 5:
        return 50;
    default:
        for (uint i = 0; ; i++)
            if (i == x)
                return 10 * i;
        return -1;
    }
}
float4 main() : sv_target
{
    float4 c = {1.0f, 2.0f, 3.0f, 4.0f};
    switch (v.x)
    {
    case 2:
        c += 1.0f;
        if (true) break;
        c = 9.0f;
    case 1:
        c -= 1.0f;
        break;
    case 3:
    default:
    case 0:
        c += 3.0f;
        break;
    }
    for (int i = 0; i < 2; ++i)
    {
        switch (v.y)
        {
        case 1+1:
            c.w += 10;
            break;
        case 0.9f:
            break;
        }
        c.w += 100;
    }
    c.x += f(v.z);
    return c;
}`
	for _, tc := range []struct {
		v    [4]uint32
		want [4]float32
	}{
		{[4]uint32{2, 2, 5}, [4]float32{52, 3, 4, 225}},
		{[4]uint32{1, 0, 3}, [4]float32{30, 1, 2, 203}},
		{[4]uint32{7, 5, 0}, [4]float32{4, 5, 6, 207}},
		{[4]uint32{0, 2, 1}, [4]float32{14, 5, 6, 227}},
	} {
		if got := floats4(runCB(t, src, "ps_4_0", tc.v)); got != tc.want {
			t.Errorf("v = %v: %v, want %v", tc.v, got, tc.want)
		}
	}
	for _, c := range []struct{ body, want string }{
		{"switch (v.x) { }", "empty switch"},
		{"switch (v.x) { case 0: c = 1; case 1: c = 2; break; }", "falls through"},
		{"switch (v.x) { case 0: return 3; case 2: }", "has no statements"},
		{"switch (v.x) { case 0: discard; case 1: return 4; }", "falls through"},
		{"switch (v.x) { case 2: break; case 1+1: break; }", "appears twice"},
		{"switch (v.x) { default: break; case 1: break; default: break; }", "more than one default"},
		{"uint a = 1; switch (v.x) { case 1+a: break; }", "constant scalar"},
		{"switch (v.x) { case 0: c = 1; break; default: discard; }", "falls through"},
		{"for (int i = 0; i < 2; i++) switch (v.x) { case 0: continue; default: break; }", "'continue' inside a switch"},
	} {
		src := "uniform uint4 v;\nfloat4 main() : sv_target { float4 c = 0; " + c.body + " return c; }"
		if _, err := Compile([]byte(src), "t.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.body, err, c.want)
		}
	}
}

// TestDynamicIndexing: local arrays indexed by a register live in x#
// (read and written there), vectors and matrices and arrays in temps are
// read and written (vectors in a loop) through movc chains; structs and nested arrays too.
func TestDynamicIndexing(t *testing.T) {
	src := `uniform uint4 u;
struct S { float2 a; float b; };
float4 main() : sv_target
{
    float t[4] = { 1, 2, 3, 4 };
    S s[3];
    for (int i = 0; i < 3; i++) { s[i].a = float2(i, 10 * i); s[i].b = t[i + 1]; }
    t[u.x] = 70;
    float4 v = float4(5, 6, 7, 8);
    float2x2 m = float2x2(1, 2, 3, 4);
    // A vector's component picked by a variable is written only in a
    // loop (fxc refuses it elsewhere: TestFxcRefuses).
    for (int j = 0; j < 1; j++) { v[u.y] += 100; m[u.z][u.w] = -1; }
    int k[2][3] = { 1, 2, 3, 4, 5, 6 };
    k[u.x & 1][u.y] *= 10;
    return float4(t[u.y] + t[u.x], s[u.z].a.y + s[u.w].b, m[0][1] + m[1][0], v[u.y] + k[1][u.y] + k[0][0]);
}`
	r := compileOK(t, src, "main", "ps_4_0")
	if len(r.Program.Indexables) == 0 || !strings.Contains(r.Program.String(), "x0[r") {
		t.Errorf("no x# array indexed by a register:\n%s", r.Program)
	}
	for _, tc := range []struct {
		u    [4]uint32
		want [4]float32
	}{
		// t = {1, 2, 70, 4}; s[1].a.y = 10, s[0].b = 2; m[1][0] = -1 -> 2 + -1; v.y = 106, k[0][1] = 20, k[0][0] = 1.
		{[4]uint32{2, 1, 1, 0}, [4]float32{2 + 70, 10 + 2, 2 - 1, 106 + 5 + 1}},
		// t = {1, 70, 3, 4}, u.y = 0: t[0] + t[1]; s[0].a.y = 0, s[1].b = 3; m[0][1] = -1; v.x = 105, k[1][0] = 40, k[0][0] = 1.
		{[4]uint32{1, 0, 0, 1}, [4]float32{1 + 70, 0 + 3, -1 + 3, 105 + 40 + 1}},
	} {
		if got := floats4(runCB(t, src, "ps_4_0", tc.u)); got != tc.want {
			t.Errorf("u = %v: %v, want %v", tc.u, got, tc.want)
		}
	}
	// A function's static is one variable for every call.
	st := `float4 f() { static uint i; i += 1; return float4(0.1, 0.2, 0.3, 0.4) + i; }
float4 main() : sv_target { return f()[f().x]; }`
	if got := floats4(runCB(t, st, "ps_4_0")); got != [4]float32{2.2, 2.2, 2.2, 2.2} {
		t.Errorf("func()[func().x]: %v, want all 2.2 (the index first, one static)", got)
	}
}

// TestObjects: local texture variables, arrays of them and struct members
// holding them are references the compiler resolves; arrays of textures
// take consecutive slots; an unused array with a register reserves its
// slots; bindings get their slots in declaration order.
func TestObjects(t *testing.T) {
	load := func(tex int, x, y, mip int32) [4]uint32 {
		f := float32(tex + 1)
		return bits4([4]float32{f, 10 * f, 100 * f, 1})
	}
	run := func(src string) ([4]float32, *Result) {
		t.Helper()
		r := compileOK(t, src, "main", "ps_4_0")
		out, err := Run(r.Program, &Env{Load: load})
		if err != nil {
			t.Fatalf("run: %v\n%s", err, r.Program)
		}
		return floats4(out.Regs[0]), r
	}
	slots := func(r *Result) string {
		var s []string
		for _, b := range r.Bindings {
			s = append(s, b.Name+"@"+itoa(b.Slot)+"x"+itoa(b.Count))
		}
		return strings.Join(s, " ")
	}
	got, r := run(`Texture2D tex1; Texture2D tex2;
float4 main() : sv_target { Texture2D q[2] = {tex1, tex2}; return q[0].Load(int3(0, 0, 0)) + q[1].Load(int3(0, 0, 0)); }`)
	if got != [4]float32{3, 30, 300, 2} || slots(r) != "tex1@0x1 tex2@1x1" {
		t.Errorf("local array of textures: %v, bindings %s", got, slots(r))
	}
	got, r = run(`Texture2D tex[3]; struct foo { float4 f; Texture2D t; };
float4 main() : sv_target { struct foo s[3]; s[0].t = tex[0]; s[1].t = tex[1]; s[2].t = tex[2];
    return 100 * s[2].t.Load(0) + 10 * s[0].t.Load(0) + s[1].t.Load(0); }`)
	if got[0] != 312 || slots(r) != "tex@0x3" {
		t.Errorf("struct members: %v, bindings %s", got, slots(r))
	}
	_, r = run(`Texture2D unused[2][2] : register(t0); Texture2D tex;
float4 main() : sv_target { return tex.Load(int3(0, 0, 0)); }`)
	if slots(r) != "tex@4x1" {
		t.Errorf("an unused array with a register reserves its slots: %s", slots(r))
	}
	_, r = run(`Texture2D partially_used[2][2]; Texture2D tex;
float4 main() : sv_target { return 10 * tex.Load(int3(0, 0, 0)) + partially_used[0][1].Load(int3(0, 0, 0)); }`)
	if slots(r) != "partially_used@0x4 tex@4x1" {
		t.Errorf("declaration order: %s", slots(r))
	}
	for _, c := range []struct{ src, want string }{
		{"Texture2D a, b; uniform float k;\nfloat4 main() : sv_target { Texture2D t = a; if (k > 0) t = b; return t.Load(0); }", "inside a condition or loop"},
		{"Texture2D a[2]; uniform int k;\nfloat4 main() : sv_target { return a[k].Load(0); }", "indexed only by a literal"},
		{"float4 main() : sv_target { Texture2D t; return t.Load(0); }", "used before it is given a texture"},
	} {
		if _, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestSignaturePacking: a vertex shader's outputs and a pixel shader's
// inputs pack into registers as fxc packs them; its inputs and a pixel
// shader's outputs take a register each; the two sides link.
func TestSignaturePacking(t *testing.T) {
	vs := `struct V { float4 pos : SV_Position; float2 a : A; float2 b : B; float3 n : N; float f : F; nointerpolation uint id : ID; float c : C; };
V main(float2 p : POSITION, float q : Q) { V o; o.pos = float4(p, q, 1); o.a = p; o.b = p; o.n = q; o.f = q; o.id = 1; o.c = 2; return o; }`
	ps := `float4 main(float4 pos : SV_Position, float2 a : A, float2 b : B, float3 n : N, float f : F, nointerpolation uint id : ID, float c : C) : SV_Target
{ return float4(a + b, n.x + f + c, id); }`
	layout := func(els []SigElement) string {
		var s []string
		for _, e := range els {
			s = append(s, e.Semantic+":"+itoa(e.Register)+"."+maskString(e.Mask))
		}
		return strings.Join(s, " ")
	}
	v := compileOK(t, vs, "main", "vs_4_0")
	p := compileOK(t, ps, "main", "ps_4_0")
	if got, want := layout(v.Inputs), "POSITION:0.xy Q:1.x"; got != want {
		t.Errorf("vertex inputs %s, want %s", got, want)
	}
	want := "SV_Position:0.xyzw A:1.xy B:1.zw N:2.xyz F:2.w ID:3.x C:4.x"
	if got := layout(v.Outputs); got != want {
		t.Errorf("vertex outputs %s, want %s", got, want)
	}
	if got := layout(p.Inputs); got != want {
		t.Errorf("pixel inputs %s, want %s", got, want)
	}
	if err := dxbc.Link(mustParse(t, v.Bytecode).Outputs, mustParse(t, p.Bytecode).Inputs); err != nil {
		t.Errorf("link: %v", err)
	}
	// The code reads the packed components.
	in := [][4]uint32{fl4(0, 0, 0, 1), fl4(0.25, 0.5, 1, 2), fl4(3, 0, 0, 4), {7}, fl4(5, 0, 0, 0)}
	out, err := Run(p.Program, &Env{Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{1.25, 2.5, 12, 7} {
		t.Errorf("pixel shader read %v, want [1.25 2.5 12 7]", got)
	}
}

func mustParse(t *testing.T, b []byte) *dxbc.Shader {
	t.Helper()
	s, err := dxbc.Validate(b, dxbc.VertexShader)
	if err != nil {
		s, err = dxbc.Validate(b, dxbc.PixelShader)
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}
