package hlsl

import (
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// sigRows lists a container's signature as fxc's listing has it, one
// "NAME INDEX MASK REGISTER SYSVALUE FORMAT USED" row per element (the used
// column of an output listed as fxc lists it: the components written).
func sigRows(t *testing.T, bytecode []byte, input bool) string {
	t.Helper()
	c, err := dxbc.Parse(bytecode)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Signature(input)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, e := range s.Elements {
		used := e.ReadWrite
		if !input {
			used = e.Mask &^ e.ReadWrite
		}
		rows = append(rows, fmt.Sprintf("%s %d %s %d %s %s %s", e.Name, e.Index, maskString(e.Mask), e.Register,
			e.Listed(), e.ComponentType, maskString(used)))
	}
	return strings.Join(rows, "\n")
}

// TestSignatureLayoutAsFxc: the signatures of a vertex and a pixel shader
// written like DirectXTK's DualTextureEffect (two float4 colours, two
// float2 texture coordinates, the position last) are, row by row, the ones
// fxc 10.1 wrote for DualTextureEffect_VSDualTexture and _PSDualTexture
// (DirectXTK's Src/Shaders/Compiled, July 2020): the two float2 share
// register 2, TEXCOORD1 in its zw. The output's never-written column is
// fxc's too, counted over the whole register (a float2 in o2.xy has zw
// never written, though TEXCOORD1 writes them).
func TestSignatureLayoutAsFxc(t *testing.T) {
	const src = `
struct VSOutputTx2 { float4 Diffuse : COLOR0; float4 Specular : COLOR1; float2 TexCoord : TEXCOORD0; float2 TexCoord2 : TEXCOORD1; float4 PositionPS : SV_Position; };
struct PSInputTx2 { float4 Diffuse : COLOR0; float4 Specular : COLOR1; float2 TexCoord : TEXCOORD0; float2 TexCoord2 : TEXCOORD1; };
Texture2D<float4> Texture : register(t0);
Texture2D<float4> Texture2 : register(t1);
sampler Sampler : register(s0);
sampler Sampler2 : register(s1);
VSOutputTx2 vs(float4 Position : SV_Position, float2 TexCoord : TEXCOORD0, float2 TexCoord2 : TEXCOORD1)
{
    VSOutputTx2 o;
    o.PositionPS = Position;
    o.Diffuse = 1;
    o.Specular = float4(0, 0, 0, saturate(Position.z));
    o.TexCoord = TexCoord;
    o.TexCoord2 = TexCoord2;
    return o;
}
float4 ps(PSInputTx2 pin) : SV_Target0
{
    float4 color = Texture.Sample(Sampler, pin.TexCoord);
    color *= Texture2.Sample(Sampler2, pin.TexCoord2) * pin.Diffuse;
    return float4(lerp(color.rgb, 0, pin.Specular.w), color.a);
}`
	v := compileOK(t, src, "vs", "vs_4_0")
	p := compileOK(t, src, "ps", "ps_4_0")
	for _, c := range []struct {
		name string
		got  string
		want string
	}{
		{"vertex outputs", sigRows(t, v.Bytecode, false), `COLOR 0 xyzw 0 NONE float xyzw
COLOR 1 xyzw 1 NONE float xyzw
TEXCOORD 0 xy 2 NONE float xy
TEXCOORD 1 zw 2 NONE float zw
SV_Position 0 xyzw 3 POS float xyzw`},
		{"pixel inputs", sigRows(t, p.Bytecode, true), `COLOR 0 xyzw 0 NONE float xyzw
COLOR 1 xyzw 1 NONE float w
TEXCOORD 0 xy 2 NONE float xy
TEXCOORD 1 zw 2 NONE float zw`},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n%s\nwant (fxc's)\n%s", c.name, c.got, c.want)
		}
	}
	// fxc's never-written bytes: zw for TEXCOORD0, xy for TEXCOORD1.
	c, _ := dxbc.Parse(v.Bytecode)
	out, _ := c.Signature(false)
	if rw := [2]uint8{out.Elements[2].ReadWrite, out.Elements[3].ReadWrite}; rw != [2]uint8{0xC, 0x3} {
		t.Errorf("never-written masks %#x, want fxc's [0xc 0x3]", rw)
	}
	if err := dxbc.Link(mustParse(t, v.Bytecode).Outputs, mustParse(t, p.Bytecode).Inputs); err != nil {
		t.Errorf("link: %v", err)
	}
}

// TestSignatureAlignment: fxc starts a register for each element of an
// array, each column of a matrix and a struct's first member (later
// elements still fill the registers' free components, the one with the
// most free first), and elements of another interpolation mode never share
// a register. vkd3d-shader's allocator documents the same rules, from fxc.
func TestSignatureAlignment(t *testing.T) {
	const src = `
struct Inner { float y : Y; float z : Z; };
struct Outer { float4 pos : SV_Position; float a[2] : A; float3 b : B; float2 c : C; float2x2 m : M; float d : D;
    nointerpolation float n : N; float e : E; };
void vs(float3 p : POSITION, out float x : X, out Inner in1, out Outer o)
{
    x = p.x; in1.y = p.y; in1.z = p.z;
    o.pos = float4(p, 1); o.a[0] = 1; o.a[1] = 2; o.b = p; o.c = p.xy; o.m = float2x2(p.xy, p.yz); o.d = 3; o.n = 4; o.e = 5;
}
float4 ps(float x : X, Inner in1, Outer o) : SV_Target
{
    return float4(x + in1.y + in1.z + o.a[0] + o.a[1], o.b + o.c.x + o.m[1][1] + o.d + o.n + o.e);
}`
	layout := func(els []SigElement) string {
		var s []string
		for _, e := range els {
			s = append(s, fmt.Sprintf("%s%d:%d.%s", e.Semantic, e.Index, e.Register, maskString(e.Mask)))
		}
		return strings.Join(s, " ")
	}
	// x in o0.x; Inner's first member starts o1, its second goes where
	// most is free (o0.y: o0 and o1 have three, the lower first); the
	// position o2; A0 and A1 o3.x and o4.x; B, three components, in o1.yzw
	// (o0 has two); C where most is free, o3.yz; the matrix's columns o5
	// and o6 (.xy); D in o4.y (three free); N, of another mode, a register
	// of its own; E in o0.z (o0, o4, o5 and o6 have two free, o0 first).
	const want = "X0:0.x Y0:1.x Z0:0.y SV_Position0:2.xyzw A0:3.x A1:4.x B0:1.yzw C0:3.yz M0:5.xy M1:6.xy D0:4.y N0:7.x E0:0.z"
	v := compileOK(t, src, "vs", "vs_4_0")
	p := compileOK(t, src, "ps", "ps_4_0")
	if got := layout(v.Outputs); got != want {
		t.Errorf("vertex outputs\n%s\nwant\n%s", got, want)
	}
	if got := layout(p.Inputs); got != want {
		t.Errorf("pixel inputs\n%s\nwant\n%s", got, want)
	}
	if err := dxbc.Link(mustParse(t, v.Bytecode).Outputs, mustParse(t, p.Bytecode).Inputs); err != nil {
		t.Errorf("link: %v", err)
	}
}

// TestTextureTypeNameAsVariable: fxc reads the shader model 1-3 texture
// type's name in any case (texture, Texture, teXture) and takes it as a
// variable's name (DirectXTK's effects declare Texture2D<float4> Texture).
func TestTextureTypeNameAsVariable(t *testing.T) {
	for _, src := range []string{
		"Texture2D<float4> Texture : register(t0);\nsampler Sampler;\nfloat4 main(float2 uv : TEXCOORD0) : SV_Target { return Texture.Sample(Sampler, uv); }",
		"teXture t1; Texture t2;\nsampler s;\nfloat4 main(float2 uv : TEXCOORD0) : SV_Target { return tex2D(s, uv); }",
		"typedef float4 texturE;\ntexturE v;\nfloat4 main() : SV_Target { return v; }",
	} {
		compileCompat(t, src, "main", "ps_4_0") // tex2D: /Gec
	}
}

// TestInputsOfOneSemantic: two inputs of one semantic and layout read one
// register, as fxc reads them, each a variable of its own (writing one
// leaves the other as read); int2 and uint2 share one, as float2 and half2
// do; another layout is refused.
func TestInputsOfOneSemantic(t *testing.T) {
	r := compileOK(t, `float4 main(float4 t1 : TEXCOORD0, float4 t2 : TEXCOORD0, float2 c : TEXCOORD1, uint2 u : U, int2 i : U) : sv_target
{
    t1 = 99;
    return float4(t1.xy, t2.x + c.y, u.y + i.x);
}`, "main", "ps_4_0")
	var got []string
	for _, e := range r.Inputs {
		got = append(got, fmt.Sprintf("%s%d:%d.%s", e.Semantic, e.Index, e.Register, maskString(e.Mask)))
	}
	if want := "TEXCOORD0:0.xyzw TEXCOORD1:1.xy U0:2.xy"; strings.Join(got, " ") != want {
		t.Errorf("inputs %s, want %s", strings.Join(got, " "), want)
	}
	in := [][4]uint32{fl4(10, 11, 12, 13), fl4(0, 20, 0, 0), {3, 4}}
	out, err := Run(r.Program, &Env{Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{99, 99, 30, 7} {
		t.Errorf("o0 = %v, want [99 99 30 7]", got)
	}
	for _, src := range []string{
		"float4 main(float2 a : T, float3 b : T) : sv_target { return 0; }",
		"float4 main(float2 a : T, int2 b : T) : sv_target { return 0; }",
	} {
		if _, err := Compile([]byte(src), "s.hlsl", "main", "ps_4_0"); err == nil || !strings.Contains(err.Error(), "two inputs of different layouts") {
			t.Errorf("%s: %v", src, err)
		}
	}
}
