package shadertest

import (
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

// computeFile is a shader_test file of the suite's form with a compute
// shader, a raw UAV, a dispatch and probes of the view. d3dsim's compiler
// does not make cs_5_0 yet: the test hands the runner the bytecode the
// HLSL compiles to (the prefix sum of core/umd/translate/testdata/compute).
const computeFile = `[require]
shader model >= 5.0

[uav 0]
format r32-uint
size (raw_buffer, 512)

1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1

[compute shader]
RWByteAddressBuffer data : register(u0);
groupshared uint s[256];
    [numthreads(256, 1, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    s[gi] = data.Load(tid.x * 4);
    GroupMemoryBarrierWithGroupSync();
    for (uint off = 1; off < 256; off *= 2)
    {
        uint v = s[gi];
        if (gi >= off)
            v += s[gi - off];
        GroupMemoryBarrierWithGroupSync();
        s[gi] = v;
        GroupMemoryBarrierWithGroupSync();
    }
    data.Store(tid.x * 4, s[gi]);
}

[test]
dispatch 2 1 1
probe uav 0 (0) rui (1)
probe uav 0 (31) rui (32)
probe uav 0 (255) rui (32)
probe uav 0 (256) rui (0)
probe uav 0 (20) rui (7)
`

// TestComputeCase: a compute case runs as a scenario (the raw view, the
// dispatch, a probe per element) and passes, but for its deliberately
// wrong last probe, which reads what the shader wrote.
func TestComputeCase(t *testing.T) {
	text, err := os.ReadFile("../umd/translate/testdata/compute/prefix_sum.asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse("compute.shader_test", []byte(computeFile))
	if err != nil {
		t.Fatal(err)
	}
	cases, err := f.Cases()
	if err != nil {
		t.Fatal(err)
	}
	var got *Result
	for _, c := range cases {
		if c.Kind == KindCompile {
			continue
		}
		got = Run(c, Options{Scenarios: true, Compile: func(stage, profile, source string, _ hlsl.Flags) ([]byte, error) { return bc, nil }})
	}
	if got == nil || got.Outcome != Wrong || !strings.Contains(got.Reason, "word 20 is u32[21], expected u32[7]") {
		t.Fatalf("result %+v", got)
	}
	for _, w := range []string{"uav0 = dev.CreateUnorderedAccessView uav0_tex Format=R32_TYPELESS Flags=RAW", "imm.Dispatch 2 1 1",
		"expect probe uav0_tex 31 0 == u32[32]", "cs = dev.CreateComputeShader bytes:"} {
		if !strings.Contains(got.Scenario, w) {
			t.Errorf("the scenario lacks %q:\n%s", w, got.Scenario)
		}
	}
}

// TestComputeCompiled: a compute case whose shader d3dsim's compiler makes
// (cs_5_0, the thread identifiers, typed views read and written) runs on
// the compute stage and writes what the source says.
func TestComputeCompiled(t *testing.T) {
	const file = `[require]
shader model >= 5.0
format r32-float uav-load

[uav 0]
format r32-float
size (2d, 4, 2)

1.0 2.0 3.0 4.0
5.0 6.0 7.0 8.0

[uav 1]
format r32-uint
size (buffer, 8)

0 0 0 0 0 0 0 0

[compute shader]
RWTexture2D<float> u;
RWBuffer<uint> b : register(u1);

    [numthreads(2, 2, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 g : SV_GroupID)
{
    u[id.xy] = u[id.xy] * 10 + id.x;
    b[id.y * 4 + id.x] = gi + 100 * g.x;
}

[test]
dispatch 2 1 1
probe uav 0 (0, 0) r (10.0)
probe uav 0 (3, 0) r (43.0)
probe uav 0 (2, 1) r (72.0)
probe uav 1 (0) rui (0)
probe uav 1 (3) rui (101)
probe uav 1 (6) rui (102)
probe uav 1 (7) rui (103)
`
	// Atomics: 2 x 64 threads add 1 and their index (the max and the
	// exchange run too; what they leave depends on the threads' order,
	// which the probes do not read).
	const atomics = `[require]
shader model >= 5.0

[uav 0]
format r32-uint
size (buffer, 4)

0 0 0 0

[compute shader]
RWBuffer<uint> b;

    [numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex)
{
    uint old;
    InterlockedAdd(b[0], 1);
    InterlockedAdd(b[1], id.x, old);
    InterlockedMax(b[2], old);
    InterlockedExchange(b[3], gi, old);
}

[test]
dispatch 2 1 1
probe uav 0 (0) rui (128)
probe uav 0 (1) rui (8128)
`
	for name, src := range map[string]string{"compute.shader_test": file, "atomics.shader_test": atomics} {
		rep := &Report{}
		rep.RunFile(name, []byte(src), Options{})
		if len(rep.Errors) > 0 || len(rep.Results) != 1 {
			t.Fatalf("%v %v", rep.Errors, rep.Results)
		}
		if r := rep.Results[0]; r.Outcome != Pass {
			t.Errorf("%s: %s %s", r.Name, r.Outcome, r.Reason)
		}
	}
}
