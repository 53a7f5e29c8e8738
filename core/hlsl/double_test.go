package hlsl

import (
	"strings"
	"testing"
)

// TestDoubles: what double compiles to (the shader model 5 instructions,
// a double in a pair of lanes, the global flag fxc sets) and what is
// refused, on its line (fxc's errors where fxc has one; "not supported
// by this compiler" where shader model 5.0 has no instruction).
func TestDoubles(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // in the listing, in order
	}{
		{"arithmetic", `uniform double2 a;
float4 main() : SV_Target { double x = a.x, y = a.y; return float4(x + y, x - y, x * y, x < y); }`,
			[]string{"dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps", "dadd r", ", r0.xyxy, -r1.xyxy",
				"dmul r", "dlt r", "dtof r"}},
		{"constant buffer layout", `cbuffer c { float f; double d; double2 e; double3 g; };
float4 main() : SV_Target { return float4(d, e.y, g.z, f); }`,
			// d at byte 8 (cb0[0].zw), e in cb0[1], g from cb0[2] to cb0[3].xy
			[]string{"dtof r0.x, cb0[0].zwzw", "dtof r1.x, cb0[1].zwzw", "dtof r2.x, cb0[3].xyxy"}},
		{"conversions and literals", `uniform float f;
float4 main() : SV_Target { double d = f; d = d * 2.5L + 1.0lf; return (float)d; }`,
			[]string{"ftod r1.xy, cb0[0].xxxx", "dmul r", "d(2.500000l, 2.500000l)", "dadd r", "d(1.000000l, 1.000000l)", "dtof r"}},
		{"intrinsics", `uniform double2 a;
float4 main() : SV_Target { return float4(min(a.x, a.y), max(a.x, a.y), abs(a.y), -a.x); }`,
			[]string{"dmin r", "dmax r", "|cb0[0].zwzw|", "-cb0[0].xyxy"}},
		{"select and copy", `uniform double2 a; uniform bool b;
float4 main() : SV_Target { double2 v = b ? a : a.yx; v.x += 1; return float4(v, 0, 0); }`,
			[]string{"movc r", "dadd r"}},
		{"asuint and asdouble", `uniform uint2 u;
uint4 main() : SV_Target { uint4 r; double d = asdouble(u.x, u.y); asuint(d, r.x, r.y); r.zw = 0; return r; }`,
			// the words go back where they came from (no double instruction: optimised)
			[]string{"mov o0.xy, cb0[0].xyxx"}},
		{"constants folded", `RWByteAddressBuffer u : register(u1);
float4 main() : SV_Target { u.Store(0, (double)12.2); return (float)(1.5L * 2); }`,
			[]string{"store_raw u1.x, l(0), l(12)", "mov o0.xyzw, l(3.000000,3.000000,3.000000,3.000000)"}},
		{"extended doubles", `uniform double2 a;
float4 main() : SV_Target { return float4(a.x / a.y, fma(a.x, a.y, a.x), 0, 0); }`,
			[]string{"enable11_1DoubleExtensions", "ddiv r", "dfma r"}},
	} {
		r, err := Compile([]byte(c.src), "d.hlsl", "main", "ps_5_0")
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		text := listing(t, r.Bytecode)
		at := 0
		for _, w := range c.want {
			i := strings.Index(text[at:], w)
			if i < 0 {
				t.Errorf("%s: no %q (in order) in\n%s", c.name, w, text)
				break
			}
			at += i + len(w)
		}
	}
}

// TestDoublesRefused: the uses fxc rejects, and those this compiler
// cannot make at shader model 5.0, each named on its line.
func TestDoublesRefused(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"float4 main() : SV_Target {\n    double d = 1.0;\n    return asfloat(d);\n}", "d.hlsl(3,12): error X3013: 'asfloat': no matching 1 parameter intrinsic function"},
		{"double2 main() : SV_Target\n{\n    return 0;\n}", "d.hlsl(1,9): error X3020: 'SV_Target': a signature element cannot be of type 'double2'"},
		{"uniform int i;\nfloat4 main() : SV_Target {\n    double d = i;\n    return (float)d;\n}", "d.hlsl(3,1): error X3000: not supported by this compiler: a conversion from int to double that is not a constant"},
		{"uniform double2 a;\nfloat4 main() : SV_Target {\n    return (float)(a.x % a.y);\n}", "d.hlsl(3,24): error X3000: not supported by this compiler: % on doubles"},
		{"uniform double2 a;\nfloat4 main() : SV_Target {\n    return (float)sin(a.x);\n}", "d.hlsl(3,19): error X3000: not supported by this compiler: 'sin' of a double"},
		{"StructuredBuffer<double> b;\nfloat4 main() : SV_Target { return 0; }", "not supported by this compiler: doubles in a structured buffer's element"},
		{"uniform int i; uniform double2 a;\nfloat4 main() : SV_Target {\n    double2 v = a;\n    return (float)v[i];\n}", "d.hlsl(4,20): error X3000: not supported by this compiler: doubles in a variable indexed at run time"},
		{"uniform double2 a;\nfloat4 main() : SV_Target {\n    return (float)(a.x & a.y);\n}", "d.hlsl(3,24): error X3020: type mismatch"},
	} {
		_, err := Compile([]byte(c.src), "d.hlsl", "main", "ps_5_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestDoublesOverload: a float argument prefers a double parameter (C is
// a promoted type of the argument) to an int one, and a float2 one (the
// same base, more components) to a double one, as vkd3d's
// function-overload tests record of fxc.
func TestDoublesOverload(t *testing.T) {
	for _, c := range []struct {
		src  string
		want uint32
	}{
		{"float4 func(double x) { return 2.0; }\nfloat4 func(int x) { return 1.0; }\nfloat4 main() : SV_Target { return func(float(0)); }", 0x40000000},
		{"float4 func(float2 x) { return 2.0; }\nfloat4 func(double x) { return 1.0; }\nfloat4 main() : SV_Target { return func(float(0)); }", 0x40000000},
	} {
		r, err := Compile([]byte(c.src), "d.hlsl", "main", "ps_5_0")
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		text := listing(t, r.Bytecode)
		if !strings.Contains(text, "l(2.000000,2.000000,2.000000,2.000000)") {
			t.Errorf("%q: the other overload:\n%s", c.src, text)
		}
	}
}
