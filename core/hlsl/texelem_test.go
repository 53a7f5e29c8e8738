package hlsl

import (
	"strings"
	"testing"
)

// TestViewElementsAndROVs: views of a matrix, a struct or double2 are
// declared and refused where used; rasterizer-ordered views are a pixel
// shader's UAVs, declared _rov.
func TestViewElementsAndROVs(t *testing.T) {
	r := compileOK(t, `
struct s { float3 a; };
RWTexture1D<float2x2> m;
RWBuffer<struct s> st;
RWBuffer<double2> d;
RasterizerOrderedTexture2D<float4> rov : register(u1);
RasterizerOrderedStructuredBuffer<uint> rsb : register(u2);
float4 main() : SV_Target { rov[uint2(0, 0)] += 1; rsb[0] = 2; return 0; }`, "main", "ps_5_0")
	text := listing(t, r.Bytecode)
	for _, want := range []string{"dcl_uav_typed_texture2d_rov (float,float,float,float) u1", "dcl_uav_structured_rov u2, 4"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for _, c := range []struct{ src, target, want string }{
		{"RWTexture1D<float2x2> m; float4 main() : SV_Target { m[0] = 1; return 0; }", "ps_5_0",
			"not supported by this compiler: reading or writing a RWTexture1D<float2x2> (elements of type float2x2)"},
		{"struct s { float3 a; float2 b; }; RWBuffer<s> u; float4 main() : SV_Target { return 0; }", "ps_5_0", "element type of Buffer"},
		{"RWBuffer<double3> u; float4 main() : SV_Target { return 0; }", "ps_5_0", "element type of Buffer"},
		{"typedef float arr[2]; RWBuffer<arr> u; float4 main() : SV_Target { return 0; }", "ps_5_0", "element type of Buffer"},
		{"RasterizerOrderedBuffer<float> u; [numthreads(1, 1, 1)] void main() { u[0] = 1; }", "cs_5_0", "rasterizer-ordered views are a pixel shader's"},
	} {
		_, err := Compile([]byte(c.src), "e.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
