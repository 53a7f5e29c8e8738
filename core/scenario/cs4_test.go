package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// TestComputeShaderModel4: a cs_4_0 and a cs_4_1 compute shader from the
// compiler (the profiles for Direct3D 10.x hardware, which a Direct3D 11
// device runs too) created and dispatched: each group of 64 threads writes
// its thread's value into groupshared memory by SV_GroupIndex, waits at
// the barrier, and reads it back reversed into the one structured view a
// cs_4_x shader may bind (u0).
func TestComputeShaderModel4(t *testing.T) {
	for _, target := range []string{"cs_4_0", "cs_4_1"} {
		t.Run(target, func(t *testing.T) {
			want := make([]uint32, 128)
			for i := range want {
				g, gi := i/64, i%64
				want[i] = uint32((g*64+63-gi)*3 + 1)
			}
			mustRun(t, `hlsl rev {
RWStructuredBuffer<uint> output : register(u0);
groupshared uint cache[64];
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex, uint3 id : SV_DispatchThreadID) {
	cache[gi] = id.x * 3 + 1;
	GroupMemoryBarrierWithGroupSync();
	output[id.x] = cache[63 - gi];
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
buf = dev.CreateBuffer ByteWidth=512 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
uav = dev.CreateUnorderedAccessView buf
cs = dev.CreateComputeShader hlsl:rev target=`+target+`
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 uav
imm.Dispatch 2
imm.Flush
expect probe buf 0 0 == `+u32List(want)+`
expect violations == 0
`)
		})
	}
}

// TestComputeShaderModel4Refusals: what Direct3D 10.x hardware cannot do
// is refused when a cs_4_x shader compiles, naming the rule; the same
// source compiles for cs_5_0.
func TestComputeShaderModel4Refusals(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"threads", `RWStructuredBuffer<uint> o : register(u0);
[numthreads(32, 32, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }`, "X and Y are 1 to 768, Z 1, 768 threads in all"},
		{"z", `RWStructuredBuffer<uint> o : register(u0);
[numthreads(8, 8, 2)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }`, "Z 1,"},
		{"typed", `RWBuffer<uint> o : register(u0);
[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }`, "a typed unordered access view needs cs_5_0"},
		{"second view", `RWStructuredBuffer<uint> o : register(u1);
[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[id.x] = 1; }`, "binds one unordered access view, u0"},
		{"atomics", `RWBuffer<uint> o : register(u0);
[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { InterlockedAdd(o[0], 1); }`, "no atomic instructions"},
		{"counter", `RWStructuredBuffer<uint> o : register(u0);
[numthreads(8, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { o[o.IncrementCounter()] = 1; }`, "hidden counter"},
		{"tgsm size", `RWStructuredBuffer<uint> o : register(u0);
groupshared uint4 s[1100];
[numthreads(8, 1, 1)] void main(uint gi : SV_GroupIndex) { s[gi] = 1; GroupMemoryBarrierWithGroupSync(); o[gi] = s[1099 - gi].x; }`, "take 17600 bytes"},
		{"tgsm index", `RWStructuredBuffer<uint> o : register(u0);
groupshared uint s[64];
[numthreads(8, 1, 1)] void main(uint gi : SV_GroupIndex) { s[gi + 1] = 1; GroupMemoryBarrierWithGroupSync(); o[gi] = s[gi]; }`, "a thread writes only its own element"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, target := range []string{"cs_4_0", "cs_5_0"} {
				src := fmt.Sprintf("hlsl k {\n%s\n}\ndev, imm = D3D11CreateDevice\ncs = dev.CreateComputeShader hlsl:k target=%s\n", c.src, target)
				s, err := Load("cs4.d3ds", []byte(src))
				if target == "cs_5_0" {
					if err != nil {
						t.Fatalf("cs_5_0: %v", err)
					}
					r := NewRun(s, Overrides{})
					r.Finish()
					if sum := r.Summary(); !sum.OK() {
						t.Fatalf("cs_5_0: %q", sum.Failures)
					}
					continue
				}
				msg := ""
				if err != nil {
					msg = err.Error()
				} else {
					r := NewRun(s, Overrides{})
					r.Finish()
					msg = fmt.Sprint(r.Summary().Failures)
				}
				if !strings.Contains(msg, c.want) {
					t.Errorf("cs_4_0: %s, want %q", msg, c.want)
				}
			}
		})
	}
}
