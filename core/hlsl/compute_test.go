package hlsl

import (
	"strconv"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestComputeShader: cs_5_0 with [numthreads] and the thread identifiers,
// as fxc declares them: registers of their own (no signature), the thread
// group last; the container passes Create*Shader's checks for the stage.
func TestComputeShader(t *testing.T) {
	r := compileOK(t, `
[numthreads(8, 4, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint2 g : SV_GroupID) {}`, "main", "cs_5_0")
	if len(r.Inputs) != 0 || len(r.Outputs) != 0 {
		t.Errorf("signatures %v %v", r.Inputs, r.Outputs)
	}
	text := listing(t, r.Bytecode)
	if !strings.Contains(text, "cs_5_0\n") || !strings.HasSuffix(strings.TrimSpace(text), "dcl_thread_group 8, 4, 1\nret") {
		t.Errorf("listing:\n%s", text)
	}
	if _, err := dxbc.Validate(r.Bytecode, dxbc.ComputeShader); err != nil {
		t.Error(err)
	}
	// A thread identifier the code reads is declared with its components.
	r = compileOK(t, `
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) { if (id.y + gi == 3) return; }`, "main", "cs_5_0")
	text = listing(t, r.Bytecode)
	for _, want := range []string{"dcl_input vThreadID.y", "dcl_input vThreadIDInGroupFlattened", "iadd r0.x, vThreadID.yyyy, vThreadIDInGroupFlattened.xxxx"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestComputeRefusals: numthreads as fxc checks it, on the line of the
// attribute, and the inputs a compute shader may have.
func TestComputeRefusals(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"void main() {}", "(1,6): error X3000: 'main': compute shader entry points need a numthreads attribute"},
		{"[numthreads(1, 1)] void main() {}", "(1,2): error X3000: syntax error: numthreads takes 3 arguments"},
		{"[numthreads(0, 1, 1)] void main() {}", "numthreads(0, 1, 1): X and Y are 1 to 1024"},
		{"[numthreads(32, 32, 2)] void main() {}", "1024 threads in all"},
		{"[numthreads(1, 1, 65)] void main() {}", "Z 1 to 64"},
		{"[numthreads(float(1), 1, 1)] void main() {}", "integer constants, not 'float'"},
		{"[numthreads(uint1(1), 1, 1)] void main() {}", "integer scalars"},
		{`[numthreads("1", 1, 1)] void main() {}`, "integer scalars"},
		{"void main() {}\n[numthreads(1, 1, 1)] void main();", "need a numthreads attribute"},
		{"[numthreads(1, 1, 1)] void main(float3 id : SV_DispatchThreadID) {}", "cannot be SV_DispatchThreadID"},
		{"[numthreads(1, 1, 1)] void main(uint id : TEXCOORD) {}", "invalid compute shader input semantic 'TEXCOORD'"},
		{"[numthreads(1, 1, 1)] float4 main() : SV_Target { return 0; }", "a compute shader has no outputs"},
		// groupshared is no uniform: never initialised, never read
		// from a constant buffer (buffers_test.go).
		{"RWBuffer<float> u;\ngroupshared float s = 1;\n[numthreads(1, 1, 1)] void main() { u[0] = s; }", "(2,19): error X3000: 's': groupshared variables cannot be initialized"},
	} {
		_, err := Compile([]byte(c.src), "cs.hlsl", "main", "cs_5_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
	compileOK(t, "[numthreads(1, 1, 1)] void main();\nvoid main() {}", "main", "cs_5_0")
	compileOK(t, "[numthreads(1 + 1, uint(2), 4)] void main() {}", "main", "cs_5_0")
}

// listing is the fxc-style listing of a compiled container.
func listing(t *testing.T, b []byte) string {
	t.Helper()
	c, err := dxbc.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	text, err := dxbc.Listing(c)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestTypedUAV: RWTexture2D and RWBuffer elements read (ld_uav_typed) and
// written whole (store_uav_typed, the four lanes), a compound assignment's
// value being what it stored; the bindings are UAVs at u#, a pixel
// shader's past its render targets.
func TestTypedUAV(t *testing.T) {
	r := compileOK(t, `
RWTexture2D<float> u, v;
RWBuffer<uint4> b : register(u3);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    u[uint2(1, 0)] = (u[uint2(0, 0)] += v[id.xy]);
    b[id.x].yxwz = uint4(1, 2, 3, 4);
}`, "main", "cs_5_0")
	text := listing(t, r.Bytecode)
	for _, want := range []string{
		"dcl_uav_typed_texture2d (float,float,float,float) u0",
		"dcl_uav_typed_texture2d (float,float,float,float) u1",
		"dcl_uav_typed_buffer (uint,uint,uint,uint) u3",
		"ld_uav_typed r0.xyzw, l(0, 0, 0, 0), u0.xyzw",
		"add r2.x, r0.xxxx, r1.xxxx",
		"store_uav_typed u0.xyzw, l(0,0,0,0), r2.xxxx",
		"store_uav_typed u0.xyzw, l(1,0,0,0), r2.xxxx",
		"store_uav_typed u3.xyzw, vThreadID.xxxx, l(2,1,4,3)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	var kinds []string
	for _, b := range r.Bindings {
		kinds = append(kinds, b.Name+" "+b.Kind.String()+" "+strconv.Itoa(b.Slot))
	}
	if got := strings.Join(kinds, ", "); got != "u UAV 0, v UAV 1, b UAV 3" {
		t.Errorf("bindings %s", got)
	}
	// A pixel shader's views start past its render targets.
	r = compileOK(t, "RWTexture2D<float4> u; float4 main() : SV_Target1 { u[uint2(0, 0)] = 1; return 0; }", "main", "ps_5_0")
	if text := listing(t, r.Bytecode); !strings.Contains(text, "dcl_uav_typed_texture2d (float,float,float,float) u2") {
		t.Errorf("pixel shader's view:\n%s", text)
	}
	for _, c := range []struct{ src, target, want string }{
		{"RWTexture2D<float4> u : register(u1); float4 main() : SV_Target1 { u[uint2(0, 0)] = 1; return 0; }", "ps_5_0",
			"(1,1): error X3000: 'u': register u1 is a render target's: a pixel shader's views start at u2"},
		{"RWTexture2D<float4> u; [numthreads(1,1,1)] void main() { u[uint2(0, 0)].xy = 1; }", "cs_5_0",
			"(1,59): error X3020: a RWTexture2D<float4> element is written whole"},
		{"Texture2D<float4> u; [numthreads(1,1,1)] void main() { u[uint2(0, 0)] = 1; }", "cs_5_0", "l-value specifies const object"},
		{"RWTexture2D<float4> u; float4 main() : SV_Position { u[uint2(0, 0)] = 1; return 0; }", "vs_5_0", "in a vertex shader"},
		{"RWTexture2D<float4> u; [numthreads(1,1,1)] void main() { u[1] = 1; }", "cs_5_0", "indexed by 2 integer coordinates"},
	} {
		_, err := Compile([]byte(c.src), "u.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestInterlocked: the Interlocked functions on a typed view's int or uint
// element: atomic_* without the original value, imm_atomic_* with it (the
// signed or unsigned max and min by the element's type); anything else as
// the destination is refused by name.
func TestInterlocked(t *testing.T) {
	r := compileOK(t, `
RWTexture2D<uint> u : register(u1);
RWBuffer<int> b;
uniform uint4 v;
[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint old;
    InterlockedAnd(u[uint2(0, 0)], v.x);
    InterlockedCompareStore(u[uint2(1, 0)], v.y, v.x);
    InterlockedExchange(u[uint2(7, 0)], v.x, old);
    InterlockedMax(u[uint2(4, 0)], old);
    int o2;
    InterlockedMax(b[id.x], -3, o2);
    InterlockedCompareExchange(b[1], 2, o2, o2);
    b[2] = o2;
}`, "main", "cs_5_0")
	text := listing(t, r.Bytecode)
	for _, want := range []string{
		"atomic_and u1, l(0, 0, 0, 0), cb0[0].xxxx",
		"atomic_cmp_store u1, l(1, 0, 0, 0), cb0[0].yxxx, cb0[0].xxxx",
		"imm_atomic_exch r0.x, u1, l(7, 0, 0, 0), cb0[0].xxxx",
		"atomic_umax u1, l(4, 0, 0, 0), r0.xxxx",
		"imm_atomic_imax r0.x, u0, vThreadID.xxxx, l(-3, 0, 0, 0)",
		"imm_atomic_cmp_exch r1.x, u0, l(1, 1, 1, 1), l(2, 0, 0, 0), r0.xxxx",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"RWBuffer<uint> b; [numthreads(1,1,1)] void main() { uint x = 0; InterlockedAdd(x, 1); }", "not supported by this compiler: InterlockedAdd of anything but an element"},
		{"RWBuffer<float> b; [numthreads(1,1,1)] void main() { InterlockedAdd(b[0], 1); }", "the destination is an int or uint element"},
		{"RWBuffer<uint> b; [numthreads(1,1,1)] void main() { InterlockedExchange(b[0], 1); }", "'InterlockedExchange': no matching 2 parameter"},
		{"RWBuffer<uint> b; [numthreads(1,1,1)] void main() { InterlockedAdd(b[0], 1, 2); }", "out parameters require l-value arguments"},
	} {
		if _, err := Compile([]byte(c.src), "i.hlsl", "main", "cs_5_0"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}
