package scenario

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// computeBytes assembles one of the translator's compute shaders
// (core/umd/translate/testdata/compute, with the HLSL they were written
// from) into a bytes:HEX value.
func computeBytes(t *testing.T, name string) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/compute/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

func u32List(v []uint32) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "u32[" + strings.Join(s, " ") + "]"
}

// TestComputePrefixSumScenario: a raw UAV of a buffer, CreateComputeShader,
// Dispatch of two groups of 256 threads with groupshared memory and
// barriers; each group's words become their prefix sums, computed here
// independently. The DDIs are traced with their names.
func TestComputePrefixSumScenario(t *testing.T) {
	in := make([]uint32, 512)
	want := make([]uint32, 512)
	var sum uint32
	for i := range in {
		in[i] = uint32(i*7%13) + 1
		if i%256 == 0 {
			sum = 0
		}
		sum += in[i]
		want[i] = sum
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
buf = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS Data=`+u32List(in)+`
uav = dev.CreateUnorderedAccessView buf Format=R32_TYPELESS Flags=RAW
expect calls CreateUnorderedAccessView CalcPrivateUnorderedAccessViewSize CreateUnorderedAccessView
cs = dev.CreateComputeShader `+computeBytes(t, "prefix_sum")+`
expect calls CreateComputeShader CalcPrivateShaderSize CreateComputeShader pfnAllocateCb
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 uav
expect calls CSSetUnorderedAccessViews CsSetUnorderedAccessViews
imm.Dispatch 2
expect calls Dispatch Dispatch
imm.Flush
expect calls Flush pfnRenderCb DxgkDdiRender DxgkDdiSubmitCommand
expect probe buf 0 0 == `+u32List(want)+`
imm.CSGetUnorderedAccessViews 0 2
expect got == uav NULL
expect violations == 0
`)
}

// TestComputeHistogramScenario: a structured UAV read by the threads, a
// raw one their atomics add to, an append view whose counter
// CSSetUnorderedAccessViews sets (UAVInitialCounts) and imm_atomic_alloc
// advances, groupshared atomics, DispatchIndirect from a buffer the
// arguments were written into.
func TestComputeHistogramScenario(t *testing.T) {
	const n = 192
	vals := make([]uint32, n)
	var bins [17]uint32
	var small []uint32
	for i := range vals {
		vals[i] = uint32(i*i*5+3) % 89
		bins[vals[i]&15]++
		if vals[i] < 8 {
			small = append(small, uint32(i))
		}
	}
	for g := range n / 64 {
		var b [16]uint32
		for _, v := range vals[g*64 : g*64+64] {
			b[v&15]++
		}
		for _, c := range b {
			bins[16] = max(bins[16], c)
		}
	}
	// The appended list starts after the 5 the initial count says are there.
	list := append([]uint32{0, 0, 0, 0, 0}, small...)
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
vals = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4 Data=`+u32List(vals)+`
valsv = dev.CreateUnorderedAccessView vals
hist = dev.CreateBuffer ByteWidth=68 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
histv = dev.CreateUnorderedAccessView hist Format=R32_TYPELESS Flags=RAW
small = dev.CreateBuffer ByteWidth=`+fmt.Sprint(4*n)+` BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
smallv = dev.CreateUnorderedAccessView small Flags=APPEND
args = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=DRAWINDIRECT_ARGS Data=u32[0 0 0 `+fmt.Sprint(n/64)+` 1 1]
cs = dev.CreateComputeShader `+computeBytes(t, "histogram")+`
imm.CSSetShader cs
imm.CSSetUnorderedAccessViews 0 valsv histv smallv UAVInitialCounts=u32[4294967295 4294967295 5]
imm.DispatchIndirect args 12
expect probe hist 0 0 == `+u32List(bins[:])+`
expect probe small 0 0 == `+u32List(list)+`
expect violations == 0
`)
}

// The runtime's checks, each with the field the debug layer names.
func TestComputeValidation(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
raw = dev.CreateBuffer ByteWidth=64 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
srvonly = dev.CreateBuffer ByteWidth=64 BindFlags=SHADER_RESOURCE
st = dev.CreateBuffer ByteWidth=64 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=16
`
	for _, c := range []struct{ src, want string }{
		{"u = dev.CreateUnorderedAccessView srvonly Format=R32_UINT\n", "was not created with BindFlags UNORDERED_ACCESS"},
		{"u = dev.CreateUnorderedAccessView raw Format=R32_UINT Flags=RAW\n", "a raw view's is R32_TYPELESS"},
		{"u = dev.CreateUnorderedAccessView raw Format=R32_TYPELESS Flags=APPEND\n", "APPEND and COUNTER are for a structured buffer"},
		{"u = dev.CreateUnorderedAccessView st NumElements=5\n", "st holds 4 elements of 16 bytes"},
		{"u = dev.CreateUnorderedAccessView raw Format=R8G8B8A8_UNORM_SRGB\n", "no typed unordered-access support"},
		{"u = dev.CreateUnorderedAccessView raw Format=R32_TYPELESS Flags=RAW\nimm.Dispatch 65536\n", "ThreadGroupCountX 65536, Y 1, Z 1: each at most 65535"},
		{"u = dev.CreateUnorderedAccessView raw Format=R32_TYPELESS Flags=RAW\nimm.CSSetUnorderedAccessViews 7 u u\n", "StartSlot 7 + NumUAVs 2 is more than the 8 slots"},
		{"cs = dev.CreateComputeShader " + bigGroup(t) + "\n", "numthreads(32, 32, 2): x and y 1..1024, z 1..64, at most 1024 threads a group"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
}

// Binding a resource's UAV unbinds its shader resource views, as the
// runtime does (the debug layer's "Forcing to NULL").
func TestComputeUAVUnbindsSRV(t *testing.T) {
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
b = dev.CreateBuffer ByteWidth=64 BindFlags=UNORDERED_ACCESS|SHADER_RESOURCE MiscFlags=BUFFER_ALLOW_RAW_VIEWS
s = dev.CreateShaderResourceView b Format=R32_TYPELESS ViewDimension=BUFFEREX Flags=RAW
u = dev.CreateUnorderedAccessView b Format=R32_TYPELESS Flags=RAW
imm.PSSetShaderResources 3 s
imm.CSSetShaderResources 0 s
imm.CSSetUnorderedAccessViews 0 u
expect calls CSSetUnorderedAccessViews PSSetShaderResources PsSetShaderResources CSSetShaderResources CsSetShaderResources CsSetUnorderedAccessViews
imm.PSGetShaderResources 3
expect got == NULL
imm.CSGetShaderResources 0
expect got == NULL
`)
}

// A typed view of a texture's mip slice (RWTexture2D<float4>) written by
// store_uav_typed at each thread's (x, y), constant buffer 0's scale, and
// a typed buffer view (RWBuffer<uint>) read with ld_uav_typed.
const texCS = `cs_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer CB0[1], immediateIndexed
dcl_uav_typed_texture2d (float,float,float,float) u0
dcl_uav_typed_buffer (uint,uint,uint,uint) u1
dcl_input vThreadID.xy
dcl_temps 2
dcl_thread_group 4, 2, 1
utof r0.xy, vThreadID.xyxx
mul r0.xy, r0.xyxx, cb0[0].xxxx
ld_uav_typed r1.x, vThreadID.xxxx, u1.xyzw
utof r0.z, r1.x
mov r0.w, l(1.000000)
store_uav_typed u0.xyzw, vThreadID.xyyy, r0.xyzw
ret
`

func TestComputeTexture2DUAV(t *testing.T) {
	bc, err := dxbc.Assemble(texCS)
	if err != nil {
		t.Fatal(err)
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
tex = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=UNORDERED_ACCESS MipLevels=2
tv = dev.CreateUnorderedAccessView tex MipSlice=1
full = dev.CreateUnorderedAccessView tex
ids = dev.CreateBuffer BindFlags=UNORDERED_ACCESS Data=u32[7 8 9 10]
idv = dev.CreateUnorderedAccessView ids Format=R32_UINT
cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=f32[0.5 0 0 0]
cs = dev.CreateComputeShader bytes:`+hex.EncodeToString(bc)+`
imm.CSSetShader cs
imm.CSSetConstantBuffers 0 cb
imm.CSSetUnorderedAccessViews 0 full idv
imm.Dispatch 1 2 1
expect probe tex 0 0 == f32[0 0 7 1]
expect probe tex 3 3 == f32[1.5 1.5 10 1]
expect probe tex 2 1 == f32[1 0.5 9 1]
imm.CSSetUnorderedAccessViews 0 tv
imm.Dispatch 1 1 1
expect violations == 0
`)
}

// bigGroup is a compute shader of 2048 threads a group: bytecode the
// runtime's container checks pass and the driver refuses, naming the limit.
func bigGroup(t *testing.T) string {
	bc, err := dxbc.Assemble("cs_5_0\ndcl_thread_group 32, 32, 2\nret\n")
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// A deferred context records the compute stage like draws: the command
// list, executed, runs the dispatch (the prefix sum) on the immediate
// context's buffer; a UAV the immediate context had bound in another slot
// is not seen by the list's dispatch.
func TestComputeDeferredContext(t *testing.T) {
	in := make([]uint32, 256)
	want := make([]uint32, 256)
	var sum uint32
	for i := range in {
		in[i] = uint32(i % 5)
		sum += in[i]
		want[i] = sum
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
buf = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS Data=`+u32List(in)+`
uav = dev.CreateUnorderedAccessView buf Format=R32_TYPELESS Flags=RAW
cs = dev.CreateComputeShader `+computeBytes(t, "prefix_sum")+`
dc = dev.CreateDeferredContext
dc.CSSetShader cs
dc.CSSetUnorderedAccessViews 0 uav
expect calls CSSetUnorderedAccessViews CreateUnorderedAccessView CsSetUnorderedAccessViews
dc.Dispatch 1
cl = dc.FinishCommandList
expect probe buf 0 0 == u32[0 1 2 3 4]
imm.ExecuteCommandList cl
expect probe buf 0 0 == `+u32List(want)+`
expect violations == 0
`)
}

// With a driver that has no command lists the runtime emulates deferred
// contexts: its emulation records the compute stage too and runs it again
// on the immediate context at ExecuteCommandList (the prefix sum of
// TestComputeDeferredContext, the same values).
func TestComputeEmulatedDeferred(t *testing.T) {
	in := make([]uint32, 256)
	want := make([]uint32, 256)
	var sum uint32
	for i := range in {
		in[i] = uint32(i % 5)
		sum += in[i]
		want[i] = sum
	}
	mustRun(t, `option driver.commandlists=false
dev, imm = D3D11CreateDevice Flags=DEBUG
buf = dev.CreateBuffer BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS Data=`+u32List(in)+`
uav = dev.CreateUnorderedAccessView buf Format=R32_TYPELESS Flags=RAW
cs = dev.CreateComputeShader `+computeBytes(t, "prefix_sum")+`
dc = dev.CreateDeferredContext
dc.CSSetShader cs
dc.CSSetUnorderedAccessViews 0 uav
dc.CSGetShader
expect got == cs
dc.Dispatch 1
cl = dc.FinishCommandList
expect probe buf 0 0 == u32[0 1 2 3 4]
imm.ExecuteCommandList cl
expect calls ExecuteCommandList ClearState CSSetShader CsSetShader CSSetUnorderedAccessViews CsSetUnorderedAccessViews Dispatch Dispatch
expect probe buf 0 0 == `+u32List(want)+`
expect violations == 0
`)
}
