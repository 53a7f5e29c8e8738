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
	r := compileOK(t, `
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
		_, err := Compile([]byte(c.src), "l.hlsl", "main", "ps_4_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
