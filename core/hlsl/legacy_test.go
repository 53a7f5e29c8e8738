package hlsl

import (
	"strings"
	"testing"
)

// TestLegacySampling: tex2D and its siblings read a texture made for the
// sampler, bound before the shader's own textures by decreasing bind count
// (the highest element read, plus one), then first use, as fxc allocates
// them; lod, bias, grad and proj become sample_l, sample_b, sample_d and a
// divide.
func TestLegacySampling(t *testing.T) {
	r := compileCompat(t, `
Texture2D tex;
sampler a;
sampler arr[3];
sampler2D s2 : register(s5);
float4 main(float4 uv : TEXCOORD) : SV_Target
{
    return tex2D(a, uv.xy) + tex2D(arr[1], uv.xy) + tex.Sample(a, uv.xy)
        + tex2Dlod(s2, uv) + tex2Dbias(s2, uv) + tex2Dgrad(s2, uv.xy, uv.zw, uv.wz) + tex2Dproj(s2, uv);
}`, "main", "ps_4_0")
	var binds []string
	for _, b := range r.Bindings {
		if b.Kind == BindTexture {
			binds = append(binds, b.Name+" t"+string(rune('0'+b.Slot))+" "+string(rune('0'+b.Count)))
		}
	}
	// arr (two: arr[1] read) first, then a and s2 by first use, then tex.
	if got := strings.Join(binds, ", "); got != "arr t0 2, a t2 1, s2 t3 1, tex t4 1" {
		t.Errorf("textures %s", got)
	}
	text := listing(t, r.Bytecode)
	for _, want := range []string{"sample r", "t1.xyzw, s2", "sample_l", "sample_b", "sample_d", "div r"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"sampler2D s; float4 main() : SV_Target { return tex3D(s, 0); }", "'tex3D': no matching 2 parameter intrinsic function"},
		{"sampler s; float4 main() : SV_Target { return tex2D(s, 0) + tex3D(s, 0); }", "sampler 's' is read as a Texture2D and as a Texture3D"},
		{"sampler s; float4 main() : SV_Target { return tex1D(s, 0) + tex2D(s, 0); }", "read by tex1D before tex2D"},
		{"Texture2D t; float4 main() : SV_Target { return tex2D(t, 0); }", "'tex2D': no matching 2 parameter intrinsic function"},
	} {
		_, err := CompileWith([]byte(c.src), "l.hlsl", "main", "ps_4_0", Limits{Flags: FlagBackCompat})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestBackCompat: without fxc's /Gec (FlagBackCompat) a shader model 4 or
// 5 target refuses tex2D and its siblings and a half uniform, naming the
// option, as fxc does (vkd3d's half.shader_test and the files that ask for
// "options: backcompat"); with it, both compile. A sampler2D declared and
// read by Sample compiles either way, and a static or local half too.
func TestBackCompat(t *testing.T) {
	for _, c := range []struct {
		src, want string // want: the error without /Gec ("" compiles)
	}{
		{"sampler s; float4 main(float2 uv : UV) : SV_Target { return tex2D(s, uv); }", "(1,61): error X3000: 'tex2D': shader model 1-3 sampling"},
		{"sampler2D s; float4 main(float4 uv : UV) : SV_Target { return tex2Dlod(s, uv); }", "'tex2Dlod': shader model 1-3 sampling"},
		{"samplerCUBE s; float4 main(float3 uv : UV) : SV_Target { return texCUBE(s, uv); }", "'texCUBE'"},
		{"uniform half h;\nfloat4 main() : SV_Target { return h; }", "(1,14): error X3020: 'h': a uniform of type half"},
		{"half4 h[2];\nfloat4 main() : SV_Target { return h[1]; }", "'h': a uniform of type half"},
		{"half3x3 m;\nfloat4 main() : SV_Target { return m[0].xyzz; }", "'m': a uniform of type half"},
		{"sampler2D s : register(s1); Texture2D t;\nfloat4 main(float2 uv : UV) : SV_Target { return t.Sample(s, uv); }", ""},
		{"static half h = 2;\nfloat4 main() : SV_Target { half k = h * 2; return k; }", ""},
		{"cbuffer C { float f; }\nfloat4 main() : SV_Target { return f; }", ""},
	} {
		_, err := Compile([]byte(c.src), "b.hlsl", "main", "ps_5_0")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "/Gec")):
			t.Errorf("%s: %v, want %q naming /Gec", c.src, err, c.want)
		}
		if _, err := CompileWith([]byte(c.src), "b.hlsl", "main", "ps_5_0", Limits{Flags: FlagBackCompat}); err != nil {
			t.Errorf("/Gec: %s: %v", c.src, err)
		}
	}
	// The cache tells the two apart.
	cache := NewCache(4, 1<<20)
	src := []byte("uniform half h; float4 main() : SV_Target { return h; }")
	if _, _, _, err := cache.Compile(src, "b.hlsl", "main", "ps_4_0", Limits{}); err == nil {
		t.Errorf("cache: a half uniform without /Gec compiled")
	}
	if _, _, fresh, err := cache.Compile(src, "b.hlsl", "main", "ps_4_0", Limits{Flags: FlagBackCompat}); err != nil || !fresh {
		t.Errorf("cache: /Gec: fresh %v, %v", fresh, err)
	}
	for _, c := range []struct {
		in   string
		want Flags
		err  string
	}{
		{"ENABLE_BACKWARDS_COMPATIBILITY", FlagBackCompat, ""},
		{"d3dcompile_enable_backwards_compatibility", FlagBackCompat, ""},
		{"SKIP_OPTIMIZATION", 0, `unknown compile flag "SKIP_OPTIMIZATION" (known: ENABLE_BACKWARDS_COMPATIBILITY)`},
	} {
		f, err := ParseFlag(c.in)
		if f != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("ParseFlag(%q) = %v, %v; want %v, %q", c.in, f, err, c.want, c.err)
		}
	}
	if s := (FlagBackCompat | 2).String(); s != "ENABLE_BACKWARDS_COMPATIBILITY|0x2" {
		t.Errorf("String: %s", s)
	}
}
