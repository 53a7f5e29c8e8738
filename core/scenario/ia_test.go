package scenario

import (
	"strings"
	"testing"
)

// iaShaders: a vertex shader fed from three slots (the docs' instancing
// example), one reading SV_VertexID and SV_InstanceID, one sampling a
// texture in the vertex stage, and a pixel shader reading constant buffer
// b13, t127 and s15.
const iaShaders = `hlsl inst {
struct VSIn  { float2 pos : POSITION; float4 col : COLOR; float2 off : OFFSET; };
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(VSIn i)
{
    VSOut o;
    o.pos = float4(i.pos + i.off, 0.5, 1);
    o.col = i.col;
    return o;
}
float4 psmain(VSOut i) : SV_Target { return i.col; }
}
hlsl ids {
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(uint vid : SV_VertexID, uint iid : SV_InstanceID)
{
    // a quad per instance in column iid of four; vertex vid of its six
    uint k = vid % 6;
    float2 p = float2(k == 1 || k == 3 || k == 4 ? 1 : 0, k == 2 || k == 4 || k == 5 ? 1 : 0);
    VSOut o;
    o.pos = float4((p.x + iid) * 0.5 - 1, 1 - p.y * 2, 0.5, 1);
    o.col = float4(iid * 0.25, vid / 6.0, 0, 1);
    return o;
}
float4 psmain(VSOut i) : SV_Target { return i.col; }
}
hlsl vstex {
Texture2D<float4> tv : register(t3);
SamplerState sv : register(s2);
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(float3 pos : POSITION)
{
    VSOut o;
    o.pos = float4(pos, 1);
    o.col = tv.SampleLevel(sv, float2(0.5, 0.5), 0) + tv.Load(int3(1, 0, 0));
    return o;
}
float4 psmain(VSOut i) : SV_Target { return i.col; }
}
hlsl slots {
cbuffer C : register(b13) { float4 k; };
Texture2D<float4> t : register(t127);
SamplerState s : register(s15);
float4 main(float4 pos : SV_Position) : SV_Target { return k + t.Sample(s, float2(0.75, 0.5)); }
}
`

const iaPrelude = `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5  1 1 0.5  -1 -1 0.5  1 1 0.5  1 -1 0.5  -1 -1 0.5]
`

// TestVertexBufferRanges: IASetVertexBuffers binds a range of buffers in
// one call (the docs' three-slot instancing example, with the same
// picture), slot 31 is a slot, and the runtime drops a range past the 32
// slots and a buffer without VERTEX_BUFFER, naming the field.
func TestVertexBufferRanges(t *testing.T) {
	src := iaShaders + `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
pos = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[0 0.25  0.25 -0.25  -0.25 -0.25]
col = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=u32[0xff0000ff 0xff00ff00 0xffff0000]
off = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-0.5 0.5  0.5 0.5  0 -0.5]
vs = dev.CreateVertexShader hlsl:inst entry=vsmain
ps = dev.CreatePixelShader hlsl:inst entry=psmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32_FLOAT 0] elem[COLOR 0 R8G8B8A8_UNORM 1] elem[OFFSET 0 R32G32_FLOAT 2 0 PER_INSTANCE 1]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 pos col off Strides=u32[8 4 8]
expect calls IASetVertexBuffers IaSetVertexBuffers
imm.IASetInputLayout il
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
imm.DrawInstanced 3 3 0 0
sc.Present
expect hash bb == 275ff4ff2c40c3f4
imm.IAGetVertexBuffers 0 4
expect got == pos col off NULL

# the offsets from slot 31
il31 = dev.CreateInputLayout vs elem[POSITION 0 R32G32_FLOAT 0] elem[COLOR 0 R8G8B8A8_UNORM 1] elem[OFFSET 0 R32G32_FLOAT 31 0 PER_INSTANCE 1]
imm.IASetInputLayout il31
imm.IASetVertexBuffers 2 NULL
imm.IASetVertexBuffers 31 off Stride=8
imm.ClearRenderTargetView rtv 0 0 0 1
imm.DrawInstanced 3 3 0 0
sc.Present
expect hash bb == 275ff4ff2c40c3f4

imm.IASetVertexBuffers 31 pos col
expect hr == DROPPED
tex = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
cb = dev.CreateBuffer ByteWidth=16 BindFlags=CONSTANT_BUFFER
imm.IASetVertexBuffers 0 pos cb
expect hr == DROPPED
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	msgs := strings.Join(r.Summary().Messages, "\n")
	for _, want := range []string{"StartSlot 31 + NumBuffers 2 is more than the 32 slots (D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT)",
		"ppVertexBuffers[1]: cb was not created with VERTEX_BUFFER"} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no debug message %q in\n%s", want, msgs)
		}
	}
}

// TestVertexAndInstanceIDs: a vertex shader with no input layout and no
// vertex buffer draws from SV_VertexID and SV_InstanceID alone (column i
// is instance i; green counts the vertex).
func TestVertexAndInstanceIDs(t *testing.T) {
	src := iaShaders + iaPrelude + `vs = dev.CreateVertexShader hlsl:ids entry=vsmain
ps = dev.CreatePixelShader hlsl:ids entry=psmain
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 0
imm.DrawInstanced 6 4 0 0
expect pixel t 0 0 == f32[0 0.125 0 1] within 0.000001
expect pixel t 1 3 == f32[0.25 0.5 0 1] within 0.5
expect pixel t 3 2 == f32[0.75 0.5 0 1] within 0.5
# STARTINSTANCE: SV_InstanceID starts at 0 whatever it is (Direct3D 11)
imm.ClearRenderTargetView rtv 0 0 0 0
imm.DrawInstanced 6 1 0 3
expect pixel t 0 0 == f32[0 0.125 0 1] within 0.000001
expect pixel t 3 0 == f32[0 0 0 0]
# START: SV_VertexID starts there (vertices 6..11: green 1..)
imm.DrawInstanced 6 1 6 0
expect pixel t 0 3 == f32[0 1.5 0 1] within 0.35
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestStageSlots: a vertex shader samples its own texture and sampler
// (VSSetShaderResources, VSSetSamplers: pfnVsSetShaderResources,
// pfnVsSetSamplers); a pixel shader reads b13, t127 and s15; the getters
// return what is bound; the runtime drops ranges past the slots and
// objects of the wrong kind, naming the field.
func TestStageSlots(t *testing.T) {
	src := iaShaders + iaPrelude + `tv = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32A32_FLOAT BindFlags=SHADER_RESOURCE Data=f32[0.25 0 0 0.5  0 0.5 0 0.5]
srvv = dev.CreateShaderResourceView tv
point = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
vs = dev.CreateVertexShader hlsl:vstex entry=vsmain
ps = dev.CreatePixelShader hlsl:vstex entry=psmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0]
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 quad Stride=12
imm.VSSetShader vs
imm.PSSetShader ps
imm.VSSetShaderResources 3 srvv
expect calls VSSetShaderResources VsSetShaderResources
imm.VSSetSamplers 2 point
expect calls VSSetSamplers VsSetSamplers
imm.PSSetShaderResources 3 NULL
imm.Draw 6
# SampleLevel at u 0.5 with a point sampler: texel 1; Load: texel 1
expect pixel t 2 2 == f32[0 1 0 1]
imm.VSSetSamplers 2 NULL
imm.Draw 6
# the default sampler is linear: half of each texel
expect pixel t 2 2 == f32[0.125 0.75 0 1]

tp = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32A32_FLOAT BindFlags=SHADER_RESOURCE Data=f32[9 9 9 9  0 0.5 0 0]
srvp = dev.CreateShaderResourceView tp
k = dev.CreateBuffer ByteWidth=16 BindFlags=CONSTANT_BUFFER Data=f32[0.25 0 0.5 1]
ps2 = dev.CreatePixelShader hlsl:slots
imm.PSSetShader ps2
imm.PSSetConstantBuffers 13 k
imm.PSSetShaderResources 127 srvp
imm.PSSetSamplers 15 point
imm.Draw 6
expect pixel t 1 1 == f32[0.25 0.5 0.5 1]

imm.VSGetShaderResources 2 3
expect got == NULL srvv NULL
imm.VSGetSamplers 2
expect got == NULL
imm.PSGetSamplers 14 2
expect got == NULL point
imm.PSGetConstantBuffers 13
expect got == k
imm.PSGetShaderResources 126 2
expect got == NULL srvp
imm.VSGetShader
expect got == vs
imm.PSGetShader
expect got == ps2
imm.IAGetInputLayout
expect got == il
imm.IAGetPrimitiveTopology
expect got == TRIANGLELIST
imm.OMGetRenderTargets 2
expect got == rtv NULL NULL
imm.RSGetViewports
expect got == 0 0 4 4
imm.IAGetIndexBuffer
expect got == NULL
imm.OMGetBlendState
expect got == NULL
imm.OMGetDepthStencilState
expect got == NULL 0
imm.RSGetState
expect got == NULL
imm.RSGetScissorRects
expect calls RSGetScissorRects
imm.PSGetShaderResources 127 2
expect hr == DROPPED

# the runtime's checks
imm.PSSetConstantBuffers 13 k k
expect hr == DROPPED
imm.VSSetShaderResources 127 srvv srvv
expect hr == DROPPED
imm.VSSetSamplers 16 point
expect hr == DROPPED
imm.PSSetConstantBuffers 0 quad
expect hr == DROPPED
imm.ClearState
imm.PSGetShaderResources 127
expect got == NULL
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	msgs := strings.Join(r.Summary().Messages, "\n")
	for _, want := range []string{
		"StartSlot 13 + NumBuffers 2 is more than the 14 slots (D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT)",
		"StartSlot 127 + NumViews 2 is more than the 128 slots (D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT)",
		"StartSlot 16 + NumSamplers 1 is more than the 16 slots (D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT)",
		"ppConstantBuffers[0]: quad was not created with CONSTANT_BUFFER",
	} {
		if !strings.Contains(msgs, want) {
			t.Errorf("no debug message %q in\n%s", want, msgs)
		}
	}
}

// TestDrawIndirect: DrawInstancedIndirect and DrawIndexedInstancedIndirect
// draw with the arguments the GPU reads from a DRAWINDIRECT_ARGS buffer
// when the draw runs (a CopyResource into it before the draw counts), on
// the immediate context, a deferred context with command lists and one
// without (the runtime's emulation); the runtime drops a buffer without
// the flag, an unaligned offset and arguments past the end.
func TestDrawIndirect(t *testing.T) {
	body := `vs = dev.CreateVertexShader hlsl:ids entry=vsmain
ps = dev.CreatePixelShader hlsl:ids entry=psmain
args = dev.CreateBuffer ByteWidth=64 BindFlags=VERTEX_BUFFER MiscFlags=DRAWINDIRECT_ARGS Data=u32[6 2 0 0  0 0 0 0  6 1 0 0 0  0 0 0]
other = dev.CreateBuffer ByteWidth=64 BindFlags=VERTEX_BUFFER MiscFlags=DRAWINDIRECT_ARGS Data=u32[6 4 0 0  0 0 0 0  0 0 0 0  0 0 0 0]
ib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u32[0 1 2 3 4 5]
CTX.VSSetShader vs
CTX.PSSetShader ps
CTX.ClearRenderTargetView rtv 0 0 0 0
CTX.DrawInstancedIndirect args
CTX.IASetIndexBuffer ib Format=R32_UINT
CTX.RSSetViewports 2 2 4 4
CTX.DrawIndexedInstancedIndirect args 32
CTX.RSSetViewports 0 0 4 4
CTX.CopyResource args other
CTX.RSSetViewports 0 -2 4 4
CTX.DrawInstancedIndirect args
CTX.RSSetViewports 0 0 4 4
CTX.DrawInstancedIndirect quad
expect hr == DROPPED
CTX.DrawInstancedIndirect args 2
expect hr == DROPPED
CTX.DrawIndexedInstancedIndirect args 48
expect hr == DROPPED
`
	// columns 0 and 1 from the first draw, column 2's rows 2 and 3 from
	// the indexed one (instance 0), rows 0 and 1 of all four from the
	// third (the copied arguments: four instances)
	check := `expect pixel t 1 3 == f32[0.25 0.5 0 1] within 0.5
expect pixel t 2 3 == f32[0 0.5 0 1] within 0.5
expect pixel t 3 1 == f32[0.75 0.5 0 1] within 0.5
expect pixel t 3 3 == f32[0 0 0 0]
expect violations == 0
`
	for _, c := range []struct{ name, pre, post string }{
		{"immediate", "", ""},
		{"deferred", "dc = dev.CreateDeferredContext\ndc.OMSetRenderTargets rtv\ndc.RSSetViewports 0 0 4 4\ndc.IASetPrimitiveTopology TRIANGLELIST\n",
			"cl = dc.FinishCommandList\nimm.ExecuteCommandList cl\n"},
		{"emulated", "option driver.commandlists=false\n", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := "imm"
			pre := c.pre
			if c.name != "immediate" {
				ctx = "dc"
			}
			if c.name == "emulated" {
				pre = ""
			}
			b := strings.ReplaceAll(body, "CTX.", ctx+".")
			src := iaShaders + iaPrelude + pre + b + c.post + check
			if c.name == "emulated" {
				src = "option driver.commandlists=false\n" + iaShaders + iaPrelude +
					"dc = dev.CreateDeferredContext\ndc.OMSetRenderTargets rtv\ndc.RSSetViewports 0 0 4 4\ndc.IASetPrimitiveTopology TRIANGLELIST\n" +
					b + "cl = dc.FinishCommandList\nimm.ExecuteCommandList cl\n" + check
			}
			r := runSource(t, src)
			if sum := r.Summary(); !sum.OK() {
				t.Fatalf("failures: %q", sum.Failures)
			}
			msgs := strings.Join(r.Summary().Messages, "\n")
			for _, want := range []string{"pBufferForArgs: quad was not created with MiscFlags DRAWINDIRECT_ARGS",
				"AlignedByteOffsetForArgs 2 is not a multiple of 4", "AlignedByteOffsetForArgs 48 + the 20 bytes of the arguments is past the end of args (64 bytes)"} {
				if !strings.Contains(msgs, want) {
					t.Errorf("no debug message %q in\n%s", want, msgs)
				}
			}
		})
	}
}

// TestStageSlotsAroundCommandLists: a command list starts without the
// vertex textures and samplers the immediate context bound (the executing
// context unbinds them on the GPU first), and the immediate context's
// next draw binds them again.
func TestStageSlotsAroundCommandLists(t *testing.T) {
	src := iaShaders + iaPrelude + `tv = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32A32_FLOAT BindFlags=SHADER_RESOURCE Data=f32[0.25 0 0 0.5  0 0.5 0 0.5]
srvv = dev.CreateShaderResourceView tv
point = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
vs = dev.CreateVertexShader hlsl:vstex entry=vsmain
ps = dev.CreatePixelShader hlsl:vstex entry=psmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0]
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 quad Stride=12
imm.VSSetShader vs
imm.PSSetShader ps
imm.VSSetShaderResources 3 srvv
imm.VSSetSamplers 2 point
imm.PSSetSamplers 1 point
imm.Draw 6
dc = dev.CreateDeferredContext
dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 4 4
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetInputLayout il
dc.IASetVertexBuffers 0 quad Stride=12
dc.VSSetShader vs
dc.PSSetShader ps
dc.ClearRenderTargetView rtv 1 1 1 1
dc.Draw 6
cl = dc.FinishCommandList
imm.ExecuteCommandList cl TRUE
expect pixel t 2 2 == f32[0 0 0 0]
imm.Draw 6
expect pixel t 2 2 == f32[0 1 0 1]
expect violations == 0
`
	for _, opt := range []string{"", "option driver.commandlists=false\n"} {
		r := runSource(t, opt+src)
		if sum := r.Summary(); !sum.OK() {
			t.Fatalf("%sfailures: %q", opt, sum.Failures)
		}
	}
}
