package hlsl

import (
	"strings"
	"testing"
)

// TestLanguage compiles small programs covering the language and checks
// each one's result on fixed inputs (a = (1,2,3,4), b = (0.5,0.25,2,-1)).
func TestLanguage(t *testing.T) {
	a := [4]float32{1, 2, 3, 4}
	b := [4]float32{0.5, 0.25, 2, -1}
	tests := []struct {
		desc string
		src  string // whole program; entry main, ps_4_0, inputs a : A, b : B
		want [4]float32
	}{
		{"object-like #define and #if 0", `
#define SCALE 2.0
#define OFFSET (SCALE + 1)
#if 0
this is not HLSL at all
#endif
float4 main(float4 a : A) : SV_Target { return a * SCALE + OFFSET; }`, [4]float32{5, 7, 9, 11}},
		{"#ifdef, #else, #elif, defined()", `
#define FOO
#ifdef FOO
#define V 1
#else
#define V 2
#endif
#if defined(BAR)
#define W 10
#elif V == 1 && !defined(BAR)
#define W 20
#else
#define W 30
#endif
float4 main() : SV_Target { return float4(V, W, 0, 0); }`, [4]float32{1, 20, 0, 0}},
		{"an array sized by its initializer", `
struct S { float2 p; float4 q[2]; };
static const float2 k[] = {1, 2, 3, 4};
float4 main(float4 a : A) : SV_Target {
	float4 arr[] = {10, 20, 30, 40, a};
	float2 m[][2] = {1, 2, 3, 4, 5, 6, 7, 8};
	S s[] = {0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 3, 3, 3, 3, 4, 4, 4, 4};
	return arr[1] + float4(m[1][1], k[1]) + s[1].q[1];
}`, [4]float32{1 + 7 + 4, 2 + 8 + 4, 3 + 3 + 4, 4 + 4 + 4}},
		{"unsigned int and precise as a name", `
unsigned int2 g;
float4 precise;
float4 main(float4 a : A) : SV_Target {
	unsigned int u = 0xffffffff;
	precise float4 p = a;
	return float4(u > 5, u >> 31, p.x, 0);
}`, [4]float32{1, 1, 1, 0}},
		{"vectors with one-row, one-column and same-size matrices", `
float4 main(float4 a : A) : SV_Target {
	float1x4 r = float1x4(1, 2, 3, 4);
	float4x1 c = float4x1(1, 2, 3, 4);
	float2x2 m = float2x2(1, 2, 3, 4);
	float2 t = a.xy + c;
	return (a + r) + (c + a) + (m + a) - a - float4(t, 0, 0);
}`, [4]float32{3*2 - 1 - 2, 3*4 - 2 - 4, 3*6 - 3, 3*8 - 4}},
		{"function-like macro and line continuation", `
#define MADD(x, y, z) ((x) * (y) + \
                       (z))
float4 main(float4 a : A, float4 b : B) : SV_Target { return MADD(a, b, 1); }`, [4]float32{1.5, 1.5, 7, -3}},
		{"comments everywhere", `/* block
comment */ float4 main(float4 a : A) // line
: SV_Target { return /* inline */ a; }`, a},
		{"struct local, member writes", `
struct S { float2 p; float q; };
float4 main(float4 a : A) : SV_Target { S s; s.p = a.yx; s.q = a.w; return float4(s.p, s.q, 0); }`, [4]float32{2, 1, 4, 0}},
		{"struct initialiser list", `
struct S { float2 p; float q; };
float4 main() : SV_Target { S s = { 1, 2, 3 }; float2 v = { 4, 5 }; return float4(s.p + v, s.q, 0); }`, [4]float32{5, 7, 3, 0}},
		{"rgba swizzle and scalar splat swizzle", `
float4 main(float4 a : A) : SV_Target { float x = a.g; return a.abgr + x.xxxx; }`, [4]float32{6, 5, 4, 3}},
		{"matrix subscripts and swizzles", `
float4 main(float4 a : A, float4 b : B) : SV_Target {
  float4x4 m = float4x4(a, b, a + b, a - b);
  return float4(m[1].z, m._m21, m._44, m[0][3]);
}`, [4]float32{2, 2.25, 5, 4}},
		{"row_major and column_major locals read alike", `
float4 main(float4 a : A) : SV_Target { row_major float2x2 r = float2x2(a.xy, a.zw); column_major float2x2 c = r; return float4(c[0], c[1]); }`, a},
		{"int arithmetic, bit ops, uint division", `
float4 main(float4 a : A) : SV_Target {
  int i = (int)a.w;  uint u = 17;
  int j = (i << 2) | 1; int k = j ^ 3; uint q = u / 5u; uint r = u % 5u;
  return float4(j, k, q, r);
}`, [4]float32{17, 18, 3, 2}},
		{"prefix and postfix", `
float4 main() : SV_Target { int i = 5; int j = i++; int k = ++i; i--; return float4(i, j, k, --i); }`, [4]float32{6, 5, 7, 5}},
		{"function with out parameter and early return", `
float pick(float x, out float y) { y = x * 2; if (x > 1) return 10; return 20; }
float4 main(float4 a : A) : SV_Target { float y0, y1; float r0 = pick(a.x, y0); float r1 = pick(a.y, y1); return float4(r0, y0, r1, y1); }`, [4]float32{20, 2, 10, 4}},
		{"inout parameter and overloads", `
void bump(inout float2 v) { v += 1; }
float f(float x) { return x; }
float f(float2 x) { return x.x + x.y; }
float4 main(float4 a : A) : SV_Target { float2 v = a.xy; bump(v); return float4(v, f(a.z), f(a.zw)); }`, [4]float32{2, 3, 3, 7}},
		{"static const and static globals", `
static const float K = 3;
static float g = 2;
float4 main(float4 a : A) : SV_Target { g += 1; return a * K + g; }`, [4]float32{6, 9, 12, 15}},
		{"do-while and nested loops", `
float4 main() : SV_Target {
  float s = 0; int i = 0;
  do { for (int j = 0; j < 3; j++) { s += 1; } i++; } while (i < 2);
  return s;
}`, [4]float32{6, 6, 6, 6}},
		{"ternary, comparisons, logical not", `
float4 main(float4 a : A, float4 b : B) : SV_Target { return float4(a.x >= 1 ? 1 : 0, !(a.y == 2) ? 1 : 0, a.z != b.z ? 3 : 4, b.w <= 0); }`, [4]float32{1, 0, 3, 1}},
		{"bool vectors, any and all", `
float4 main(float4 a : A, float4 b : B) : SV_Target { bool4 c = a > b.wzyx; return float4(any(c), all(c), c.w, (float)c.x); }`, [4]float32{1, 0, 1, 1}},
		{"implicit int to float and float to int", `
float4 main(float4 a : A) : SV_Target { int i = a.z; uint u = 7; float f = i + u; return float4(i, u, f, 1.5 + 1); }`, [4]float32{3, 7, 10, 2.5}},
		{"vector truncation on assignment", `
float4 main(float4 a : A) : SV_Target { float2 v = (float2)a; return float4(v, 0, 0); }`, [4]float32{1, 2, 0, 0}},
		{"global uniform goes to $Globals", `
float4 tint;
float4 main(float4 a : A) : SV_Target { return a * 1; }`, a},
		{"transpose and matrix product", `
float4 main(float4 a : A, float4 b : B) : SV_Target {
  float2x2 m = float2x2(1, 2, 3, 4); float2x2 n = mul(m, transpose(m));
  return float4(n[0], n[1]);
}`, [4]float32{5, 11, 11, 25}},
		{"hex literals and suffixes", `
float4 main() : SV_Target { return float4(0x10, 2u, 1.5f, .5); }`, [4]float32{16, 2, 1.5, 0.5}},
		{"signed integer division and remainder", `
float4 main(float4 a : A, float4 b : B) : SV_Target { int4 i = int4(-7, 7, -7, 7); int4 d = int4(2, -2, -2, 2); int4 q = i / d; int4 r = i % d; return float4(q.x, q.y, r.x, r.y + q.w); }`, [4]float32{-3, -3, -1, 4}},
		{"continue in for and do-while loops", `
float4 main() : SV_Target {
  float s = 0; float t = 0; int j = 0;
  for (int i = 0; i < 6; i++) { if (i == 2 || i == 4) continue; s += i; }
  do { j++; if (j == 3) continue; t += j; } while (j < 5);
  return float4(s, t, j, 0);
}`, [4]float32{9, 12, 5, 0}},
		{"attributes are accepted", `
float4 main() : SV_Target { float s = 0; [unroll] for (int i = 0; i < 4; ++i) s += i; [branch] if (s > 1) s = -s; return s; }`, [4]float32{-6, -6, -6, -6}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := compileOK(t, tc.src, "main", "ps_4_0")
			in := make([][4]uint32, 2)
			for _, e := range r.Inputs {
				if e.Semantic == "A" {
					in[e.Register] = bits4(a)
				} else if e.Semantic == "B" {
					for len(in) <= e.Register {
						in = append(in, [4]uint32{})
					}
					in[e.Register] = bits4(b)
				}
			}
			out, err := Run(r.Program, &Env{Inputs: in, CB: make([][][4]uint32, 2)})
			if err != nil {
				t.Fatalf("run: %v\n%s", err, r.Program)
			}
			if got := floats4(out.Regs[0]); got != tc.want {
				t.Errorf("got %v, want %v\n%s", got, tc.want, r.Program)
			}
		})
	}
}

func TestSystemValues(t *testing.T) {
	src := `
struct VSOut { float4 pos : SV_Position; nointerpolation uint id : BLENDINDICES0; };
VSOut main(uint vid : SV_VertexID, uint iid : SV_InstanceID) {
	VSOut o;
	float2 uv = float2((vid << 1) & 2, vid & 2);
	o.pos = float4(uv * float2(2, -2) + float2(-1, 1), 0, 1);
	o.id = iid;
	return o;
}`
	r := compileOK(t, src, "main", "vs_5_0")
	if r.Inputs[0].SysVal != SysVertexID || r.Inputs[1].SysVal != SysInstanceID || r.Inputs[0].Type != CompUint32 {
		t.Errorf("inputs %+v", r.Inputs)
	}
	if r.Outputs[0].SysVal != SysPosition || r.Outputs[1].Type != CompUint32 {
		t.Errorf("outputs %+v", r.Outputs)
	}
	if !strings.Contains(r.Program.String(), "dcl_input_sgv v0.x, vertex_id") {
		t.Errorf("no vertex_id declaration:\n%s", r.Program)
	}
	// The full-screen triangle trick: vertex 2 is at (-1, -3).
	out, err := Run(r.Program, &Env{Inputs: [][4]uint32{{2}, {7}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{-1, -3, 0, 1} || out.Regs[1][0] != 7 {
		t.Errorf("pos %v id %d\n%s", got, out.Regs[1][0], r.Program)
	}
}

func TestMultipleRenderTargets(t *testing.T) {
	src := `
struct PSOut { float4 c0 : SV_Target0; float4 c2 : SV_Target2; };
PSOut main(float4 a : COLOR0) { PSOut o; o.c0 = a; o.c2 = a * 2; return o; }`
	r := compileOK(t, src, "main", "ps_5_0")
	if len(r.Outputs) != 2 || r.Outputs[0].Register != 0 || r.Outputs[1].Register != 2 || r.Outputs[1].SysVal != SysTarget {
		t.Errorf("outputs %+v", r.Outputs)
	}
}

func TestRefusedClearly(t *testing.T) {
	tests := []struct{ src, want string }{
		{"#include \"common.hlsli\"\nfloat4 main() : SV_Target { return 0; }", "not supported by this compiler: #include"},
		{"float f(float x) { return f(x); }\nfloat4 main() : SV_Target { return f(1); }", "recursive functions are not allowed"},
	}
	for _, tc := range tests {
		_, err := Compile([]byte(tc.src), "t.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.src, err, tc.want)
		}
	}
}
