package hlsl

import (
	"strings"
	"testing"
)

// TestStructObjects: a struct holding textures and samplers as a global,
// in a cbuffer and as the entry point's parameter. Its objects take no
// bytes of the buffer, are bound by their path, and take one run of
// registers per class: every texture of the struct once one is read, the
// samplers up to the last one read; globals first, then the parameters.
func TestStructObjects(t *testing.T) {
	load := func(tex int, x, y, mip int32) [4]uint32 {
		f := float32(tex + 1)
		return bits4([4]float32{f, 10 * f, 100 * f, 1})
	}
	cb := [][4]uint32{fl4(1, 2, 3, 4), fl4(5, 6, 7, 8), fl4(9, 10, 11, 12)}
	for _, c := range []struct {
		name, src string
		want      [4]float32 // o0 (binds empty: not run)
		binds     string
		err       string
	}{
		{name: "global, objects take no bytes", src: `struct pear { float2 a; Texture2D t; SamplerState s; float b; };
pear g;
float4 main() : sv_target { return float4(g.a, g.b, 0) + g.t.Load(int3(0, 0, 0)); }`,
			want: [4]float32{2, 12, 103, 1}, binds: "g.t@t0x1 $Globals@b0x1"},
		{name: "a member struct of objects only still starts a register", src: `struct objs { Texture2D t; SamplerState s; };
struct plum { float2 a; objs o; float b; };
uniform plum g;
float4 main() : sv_target { return float4(g.a, g.b, 0); }`,
			want: [4]float32{1, 2, 5, 0}, binds: "$Globals@b0x1"},
		{name: "in a cbuffer with packoffset", src: `struct kiwi { float2 a; Texture2D t; float b; };
cbuffer c { float4 x : packoffset(c2); kiwi k : packoffset(c1); kiwi unused : register(u3); }
float4 main() : sv_target { return x + float4(k.a, k.b, 0) + k.t.Load(int3(0, 0, 0)); }`,
			want: [4]float32{9 + 5 + 1, 10 + 6 + 10, 11 + 7 + 100, 12 + 1}, binds: "k.t@t0x1 c@b0x1"},
		{name: "objects only: no $Globals", src: `struct { Texture2D t; SamplerState s; } lone;
float4 main() : sv_target { return lone.t.Load(int3(0, 0, 0)); }`,
			want: [4]float32{1, 10, 100, 1}, binds: "lone.t@t0x1"},
		{name: "a register of each class", src: `struct { Texture2D t; SamplerState s; } two : register(t3) : register(s2);
float4 main() : sv_target { return two.t.Sample(two.s, float2(0, 0)); }`,
			binds: "two.s@s2x1 two.t@t3x1"},
		{name: "a register of one class for a struct using two", src: `struct { Texture2D t; SamplerState s; } two : register(t3);
float4 main() : sv_target { return two.t.Sample(two.s, float2(0, 0)); }`,
			err: "(1,41): error X3000: 'two': the struct's samplers are used and it has a register of another class only (t3)"},
		{name: "the class not read needs no register", src: `struct { Texture2D t; SamplerState s; } two : register(t3);
float4 main() : sv_target { return two.t.Load(int3(0, 0, 0)); }`,
			want: [4]float32{4, 40, 400, 1}, binds: "two.t@t3x1"},
		{name: "entry parameter: the textures of the struct as one run, after the globals", src: `Texture2D first;
struct fig { Texture2D skip; Texture2D arr[2]; Texture2D last; float4 pos : SV_Position; };
float4 main(fig f) : sv_target { return 100 * f.arr[1].Load(int3(0, 0, 0)) + 10 * first.Load(int3(0, 0, 0)) + f.last.Load(int3(0, 0, 0)); }`,
			want: [4]float32{415, 4150, 41500, 111}, binds: "first@t0x1 f.arr@t2x2 f.last@t4x1"},
		{name: "entry parameter: the samplers up to the last one read, then an object parameter", src: `Texture2D tex;
struct date { SamplerState none; SamplerState s[3]; SamplerState after; };
float4 main(date d, SamplerState q) : sv_target { return tex.Sample(q, float2(0, 0)) + tex.Sample(d.s[1], float2(0, 0)); }`,
			binds: "d.s@s1x2 q@s3x1 tex@t0x1"},
		{name: "an entry parameter's object written to itself", src: `struct lime { Texture2D t; };
float4 main(lime l) : sv_target { l.t = l.t; return l.t.Load(int3(0, 0, 0)); }`,
			want: [4]float32{1, 10, 100, 1}, binds: "l.t@t0x1"},
		{name: "a struct holding a texture passed as another of its shape", src: `struct A { int2 a; Texture2D t; float c; };
struct B { int b[2]; Texture2D u; float d; };
Texture2D tex;
float4 f(B b) { return b.d + b.u.Load(int3(0, 0, 0)); }
float4 main() : sv_target { A a = {1, 2, tex, 5}; return f(a); }`,
			want: [4]float32{6, 15, 105, 6}, binds: "tex@t0x1"},
		{name: "a struct holding an effect's shader", src: `float f;
float4 ps(uniform float r) : sv_target { return r; }
struct fx { float4 v; PixelShader p; } e = {1, 2, 3, 4, compile ps_4_0 ps(f)};
technique { pass { PixelShader = e.p; } }
float4 main() : sv_target { return e.v; }`,
			want: [4]float32{5, 6, 7, 8}, binds: "$Globals@b0x1"}, // e after f
	} {
		r, err := Compile([]byte(c.src), "t.hlsl", "main", "ps_5_0")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []string
		for _, b := range r.Bindings {
			got = append(got, b.Name+"@"+map[BindKind]string{BindCBuffer: "b", BindTexture: "t", BindSampler: "s", BindUAV: "u"}[b.Kind]+itoa(b.Slot)+"x"+itoa(b.Count))
		}
		if s := strings.Join(got, " "); s != c.binds {
			t.Errorf("%s: bindings %s, want %s", c.name, s, c.binds)
		}
		if c.want == ([4]float32{}) {
			continue
		}
		out, err := Run(r.Program, &Env{Load: load, CB: [][][4]uint32{cb}})
		if err != nil {
			t.Errorf("%s: run: %v\n%s", c.name, err, r.Program)
			continue
		}
		if g := floats4(out.Regs[0]); g != c.want {
			t.Errorf("%s: %v, want %v\n%s", c.name, g, c.want, r.Program)
		}
	}
}

// TestFoldedObjectIndex: an array of objects indexed by an expression of
// locals set to constants is indexed by its value, as fxc folds it; an
// index only known when the shader runs is still refused at shader model 4.
func TestFoldedObjectIndex(t *testing.T) {
	load := func(tex int, x, y, mip int32) [4]uint32 { return bits4([4]float32{float32(tex + 1), 0, 0, 0}) }
	for _, c := range []struct {
		name, body string
		want       float32 // o0.x: the slot read plus one (0: refused)
	}{
		{"a sum of constant locals", "int4 k = {0, 1, 0, 0}; Texture2D a[2]; a[(int)k.x + (int)k.y] = t[2]; a[0] = t[0]; return a[1].Load(int3(0, 0, 0));", 3},
		{"a float local, scaled", "float f = 0.5; return t[(int)(f * 4) - 1].Load(int3(0, 0, 0));", 2},
		{"a negated local", "int n = -2; return t[-n].Load(int3(0, 0, 0));", 3},
		{"a uniform", "return t[u].Load(int3(0, 0, 0));", 0},
		{"a local set under a condition", "int n = 0; if (u > 0) n = 1; return t[n].Load(int3(0, 0, 0));", 0},
	} {
		src := "Texture2D t[3] : register(t0); uniform int u;\nfloat4 main() : sv_target { " + c.body + " }"
		r, err := Compile([]byte(src), "t.hlsl", "main", "ps_4_0")
		if c.want == 0 {
			if err == nil || !strings.Contains(err.Error(), "indexed only by a literal") {
				t.Errorf("%s: %v, want the refusal", c.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		out, err := Run(r.Program, &Env{Load: load})
		if err != nil {
			t.Fatalf("%s: run: %v", c.name, err)
		}
		if got := floats4(out.Regs[0])[0]; got != c.want {
			t.Errorf("%s: read t%v, want t%v\n%s", c.name, got-1, c.want-1, r.Program)
		}
	}
}
