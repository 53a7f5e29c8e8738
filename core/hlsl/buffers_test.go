package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestBuffersAndGroupshared: structured and byte-address buffers and
// groupshared memory compile to the loads and stores of their words, a
// store writing only the components it changes, at their byte offsets.
func TestBuffersAndGroupshared(t *testing.T) {
	r := compileOK(t, `
struct data { float f; uint2 u; };
RWByteAddressBuffer raw : register(u1);
RWStructuredBuffer<data> sb : register(u2);
StructuredBuffer<float4> in4;
ByteAddressBuffer rin;
groupshared data m[4];
groupshared uint total;

[numthreads(4, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    if (!gi)
        total = 0;
    m[gi].f = in4[gi].y;
    m[gi].u.y = rin.Load(4 * gi);
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(total, m[3 - gi].u.y);
    GroupMemoryBarrierWithGroupSync();
    sb[gi].u.y = total;
    raw.Store2(8 * gi, uint2(sb.IncrementCounter(), m[gi].f));
}`, "main", "cs_5_0")
	text := listing(t, r.Bytecode)
	for _, want := range []string{
		"dcl_resource_structured t0, 16",
		"dcl_resource_raw t1",
		"dcl_uav_raw u1",
		"dcl_uav_structured_opc u2, 12",
		"dcl_tgsm_structured g0, 12, 4",
		"dcl_tgsm_structured g1, 4, 1",
		"store_structured g1.x, l(0), l(0), l(0)",
		"ld_structured r0.xyzw, vThreadIDInGroupFlattened.x, l(0), t0.xyzw",
		"store_structured g0.x, vThreadIDInGroupFlattened.x, l(0), r0.y",
		"ld_raw r",
		"store_structured g0.x, vThreadIDInGroupFlattened.x, l(8),",
		"sync_g_t",
		"atomic_iadd g1, l(0, 0, 0, 0),",
		"store_structured u2.x, vThreadIDInGroupFlattened.x, l(8),",
		"imm_atomic_alloc r",
		"store_raw u1.xy,",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	if _, err := dxbc.Validate(r.Bytecode, dxbc.ComputeShader); err != nil {
		t.Error(err)
	}
	// A pixel shader writes a byte-address buffer; the vertex stage has no
	// views, and groupshared memory is a compute shader's.
	compileOK(t, "RWByteAddressBuffer u : register(u1); float4 main() : SV_Target { u.Store3(4, float3(1, 2, 3)); return 0; }", "main", "ps_5_0")
	for _, c := range []struct{ src, target, want string }{
		{"groupshared float s; float4 main() : SV_Target { return s; }", "ps_5_0", "(1,19): error X3000: 's': groupshared memory is a compute shader's"},
		{"RWByteAddressBuffer u; float4 main() : SV_Position { u.Store(0, 1); return 0; }", "vs_5_0", "in a vertex shader"},
		{"struct s { Texture2D t; }; RWStructuredBuffer<s> u; float4 main() : SV_Target { return 0; }", "ps_5_0", "not an object"},
		{"RWStructuredBuffer<float2x2> u; float4 main() : SV_Target { return u[0][0].x; }", "ps_5_0", "a matrix in a structured buffer"},
		{"ByteAddressBuffer b; float4 main() : SV_Target { return b[0]; }", "ps_5_0", "read with its Load methods"},
		{"StructuredBuffer<float> b; float4 main() : SV_Target { b.GetDimensions(); return 0; }", "ps_5_0", "GetDimensions of a StructuredBuffer<float>"},
		{"groupshared float s; [numthreads(1, 1, 1)] void main() { GroupMemoryBarrier(1); }", "cs_5_0", "no matching 1 parameter"},
		{"RWBuffer<float> u; float4 main() : SV_Target { AllMemoryBarrier(); return 0; }", "ps_5_0", "AllMemoryBarrier outside a compute shader"},
	} {
		_, err := Compile([]byte(c.src), "b.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
