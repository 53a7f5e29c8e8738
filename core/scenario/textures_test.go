package scenario

import (
	"encoding/hex"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// Textures of several subresources, every view kind, buffer views, full
// samplers, UpdateSubresource of one subresource and GenerateMips, from
// scenarios: each value below is worked out by hand from the functional
// specification's rules (the comments say how), and the GPU's draws must
// give it.

// runTextureScenario runs src and fails the test with its failures.
func runTextureScenario(t *testing.T, name, src string) {
	t.Helper()
	s, err := Load(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
		t.Fatalf("%s:\n%s", name, strings.Join(sum.Failures, "\n"))
	}
}

// TestMipLevels: a 4x4 R32_FLOAT texture of three levels (1, 2, 4) read
// with SampleLevel at lod 0, 0.5, 1, 1.5: a point mip filter takes the
// nearest level (floor(lod + 0.5)), a linear one blends the two around
// it, MinLOD 1 and MaxLOD 1.5 clamp the lod; SampleBias of a constant
// coordinate (no derivatives: lod -inf whatever the bias) reads level 0.
func TestMipLevels(t *testing.T) {
	runTextureScenario(t, "mips.d3ds", `hlsl s {
Texture2D t : register(t0);
SamplerState sp : register(s0);
SamplerState sl : register(s1);
SamplerState sm : register(s2);
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
float4 ps(float4 pos : SV_Position) : SV_Target {
  float lod = (pos.x - 0.5) * 0.5;
  return float4(t.SampleLevel(sp, float2(0.5, 0.5), lod).x, t.SampleLevel(sl, float2(0.5, 0.5), lod).x,
                t.SampleLevel(sm, float2(0.5, 0.5), lod).x, t.SampleBias(sl, float2(0.5, 0.5), lod).x);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
rt = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
tex = dev.CreateTexture2D Width=4 Height=4 MipLevels=0 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 2 2 2 2 4]
srv = dev.CreateShaderResourceView tex
sp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
sl = dev.CreateSamplerState Filter=MIN_MAG_MIP_LINEAR
sm = dev.CreateSamplerState Filter=MIN_MAG_MIP_LINEAR MinLOD=1 MaxLOD=1.5
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
ps = dev.CreatePixelShader hlsl:s entry=ps target=ps_5_0
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetShaderResources 0 srv
imm.PSSetSamplers 0 sp
imm.PSSetSamplers 1 sl
imm.PSSetSamplers 2 sm
imm.Draw 3 0
expect pixel rt 0 0 == f32[1 1 2 1]
expect pixel rt 1 0 == f32[2 1.5 2 1]
expect pixel rt 2 0 == f32[2 2 2 1]
expect pixel rt 3 0 == f32[4 3 3 1]
expect violations == 0
`)
}

// TestTextureKinds: a cube's six faces (1..6 along +x, -x, +y, -y, +z,
// -z), a 1x1x3 volume sampled linearly along w (texel w*3 - 0.5,
// clamped), a 2D array viewed from slice 2 for 4 slices (the slice index
// clamped to the view), a 1D array, a typed buffer viewed from element 1
// (element 3 past the view reads 0), GetDimensions of the array view and
// the volume; SampleCmpLevelZero LESS_EQUAL of a 2x2 (0.1 .. 0.4) at its
// centre (the fraction of texels the reference is at most); Gather's
// order (u0v1, u1v1, u1v0, u0v0) with and without an offset (the
// footprint one texel right, clamped); Load and Sample with offsets.
func TestTextureKinds(t *testing.T) {
	runTextureScenario(t, "kinds.d3ds", `hlsl s {
TextureCube cube : register(t0);
Texture3D vol : register(t1);
Texture2DArray arr : register(t2);
Texture1DArray lin : register(t3);
Buffer<float4> buf : register(t4);
Texture2D tex : register(t5);
SamplerState sp : register(s0);
SamplerState sl : register(s1);
SamplerComparisonState sc : register(s2);
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
static const float3 dirs[6] = { float3(1, 0, 0), float3(-1, 0, 0), float3(0, 1, 0), float3(0, -1, 0), float3(0, 0, 1), float3(0, 0, -1) };
float4 ps(float4 pos : SV_Position) : SV_Target {
  uint i = (uint)pos.x;
  uint row = (uint)pos.y;
  if (row == 0) {
    return float4(cube.SampleLevel(sp, dirs[i], 0).x, vol.SampleLevel(sl, float3(0.5, 0.5, (i + 0.5) / 6.0), 0).x,
                  arr.SampleLevel(sp, float3(0.5, 0.5, i), 0).x, lin.SampleLevel(sp, float2(0.5, i), 0).x);
  }
  if (row == 1) {
    uint w, h, e, m;
    arr.GetDimensions(0, w, h, e, m);
    uint w3, h3, d3, m3;
    vol.GetDimensions(0, w3, h3, d3, m3);
    return float4(buf.Load(i).x, e, d3, tex.SampleCmpLevelZero(sc, float2(0.5, 0.5), i * 0.25));
  }
  float4 g = tex.Gather(sp, float2(0.5, 0.5));
  float4 go = tex.Gather(sp, float2(0.5, 0.5), int2(1, 0));
  if (i == 0) return g;
  if (i == 1) return go;
  return float4(tex.Load(int3(0, 0, 0), int2(1, 1)).x, tex.Load(int3(1, 1, 0)).x, tex.Sample(sp, float2(0.25, 0.25), int2(1, 0)).x, 0);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
rt = dev.CreateTexture2D Width=6 Height=3 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
cube = dev.CreateTexture2D Width=1 Height=1 ArraySize=6 MiscFlags=TEXTURECUBE Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[1 2 3 4 5 6]
cubev = dev.CreateShaderResourceView cube ViewDimension=TEXTURECUBE
vol = dev.CreateTexture3D Width=1 Height=1 Depth=3 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[10 20 30]
volv = dev.CreateShaderResourceView vol
arr = dev.CreateTexture2D Width=1 Height=1 ArraySize=8 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[100 101 102 103 104 105 106 107]
arrv = dev.CreateShaderResourceView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=2 ArraySize=4
lin = dev.CreateTexture1D Width=1 ArraySize=6 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[7 8 9 10 11 12]
linv = dev.CreateShaderResourceView lin
buf = dev.CreateBuffer ByteWidth=64 BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[0 0 0 0 1000 0 0 0 2000 0 0 0 3000 0 0 0]
bufv = dev.CreateShaderResourceView buf Format=R32G32B32A32_FLOAT ViewDimension=BUFFER FirstElement=1
tex = dev.CreateTexture2D Width=2 Height=2 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[0.1 0.2 0.3 0.4]
texv = dev.CreateShaderResourceView tex
sp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT AddressU=CLAMP AddressV=CLAMP
sl = dev.CreateSamplerState Filter=MIN_MAG_MIP_LINEAR
sc = dev.CreateSamplerState Filter=COMPARISON_MIN_MAG_MIP_LINEAR ComparisonFunc=LESS_EQUAL
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
ps = dev.CreatePixelShader hlsl:s entry=ps target=ps_5_0
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 6 3
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetShaderResources 0 cubev
imm.PSSetShaderResources 1 volv
imm.PSSetShaderResources 2 arrv
imm.PSSetShaderResources 3 linv
imm.PSSetShaderResources 4 bufv
imm.PSSetShaderResources 5 texv
imm.PSSetSamplers 0 sp
imm.PSSetSamplers 1 sl
imm.PSSetSamplers 2 sc
imm.Draw 3 0
expect pixel rt 0 0 == f32[1 10 102 7]
expect pixel rt 1 0 == f32[2 12.5 103 8]
expect pixel rt 2 0 == f32[3 17.5 104 9]
expect pixel rt 3 0 == f32[4 22.5 105 10]
expect pixel rt 4 0 == f32[5 27.5 105 11]
expect pixel rt 5 0 == f32[6 30 105 12]
expect pixel rt 0 1 == f32[1000 4 3 1]
expect pixel rt 1 1 == f32[2000 4 3 0.5]
expect pixel rt 2 1 == f32[3000 4 3 0]
expect pixel rt 3 1 == f32[0 4 3 0]
expect pixel rt 0 2 == f32[0.3 0.4 0.2 0.1]
expect pixel rt 1 2 == f32[0.4 0.4 0.2 0.2]
expect pixel rt 2 2 == f32[0.4 0.4 0.2 0]
expect violations == 0
`)
}

// TestGenerateMips: UpdateSubresource of level 1 of a 4x4 texture and of
// slice 1 of a 2x2 array, read back point-sampled at the centre; then
// GenerateMips: level 1 texel (1, 1) is the mean of level 0's (2..3,
// 2..3) (R 20, 22, 28, 30: 25), level 2 the mean of all (15), and the
// array's slice 1 level 1 the mean of its four texels.
func TestGenerateMips(t *testing.T) {
	runTextureScenario(t, "genmips.d3ds", `hlsl s {
Texture2D t : register(t0);
Texture2DArray ta : register(t1);
SamplerState sp : register(s0);
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
float4 ps(float4 pos : SV_Position) : SV_Target {
  float lod = pos.x - 0.5;
  return float4(t.SampleLevel(sp, float2(0.5, 0.5), lod).xy, ta.SampleLevel(sp, float3(0.5, 0.5, 1), lod).xy);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
rt = dev.CreateTexture2D Width=3 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
tex = dev.CreateTexture2D Width=4 Height=4 MipLevels=0 Format=R32G32_FLOAT BindFlags=SHADER_RESOURCE|RENDER_TARGET MiscFlags=GENERATE_MIPS Data=f32[0 1 2 1 4 1 6 1 8 1 10 1 12 1 14 1 16 1 18 1 20 1 22 1 24 1 26 1 28 1 30 1]
srv = dev.CreateShaderResourceView tex
arr = dev.CreateTexture2D Width=2 Height=2 MipLevels=2 ArraySize=2 Format=R32G32_FLOAT BindFlags=SHADER_RESOURCE|RENDER_TARGET MiscFlags=GENERATE_MIPS
arrv = dev.CreateShaderResourceView arr
imm.UpdateSubresource arr DstSubresource=2 Data=f32[1 2 3 4 5 6 7 8]
imm.UpdateSubresource tex DstSubresource=1 Data=f32[100 0 100 0 100 0 100 0]
sp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
ps = dev.CreatePixelShader hlsl:s entry=ps target=ps_5_0
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 3 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetShaderResources 0 srv
imm.PSSetShaderResources 1 arrv
imm.PSSetSamplers 0 sp
imm.Draw 3 0
expect pixel rt 0 0 == f32[20 1 7 8]
expect pixel rt 1 0 == f32[100 0 0 0]
expect pixel rt 2 0 == f32[0 0 0 0]
imm.GenerateMips srv
imm.GenerateMips arrv
imm.Draw 3 0
expect pixel rt 0 0 == f32[20 1 7 8]
expect pixel rt 1 0 == f32[25 1 4 5]
expect pixel rt 2 0 == f32[15 1 4 5]
expect violations == 0
`)
}

// rawStructuredPS reads a ByteAddressBuffer t0 and a StructuredBuffer t1
// (stride 8), which fxc writes as dcl_resource_raw, ld_raw,
// dcl_resource_structured, ld_structured and bufinfo: o0 = (word 1 of t0
// (ld_raw at byte 4), word 3 of t0 (the .y of ld_raw at byte 8),
// structure 1's word 1 of t1 (ld_structured 1, 4), t1's structure count
// (bufinfo)).
func rawStructuredPS(t *testing.T) string {
	t.Helper()
	b := dxbc.NewBuilder(dxbc.PixelShader, 5, 0)
	reg := func(n uint32) []dxbc.Operand {
		return []dxbc.Operand{{Type: dxbc.RegResource, Indices: []dxbc.Index{{Imm: uint64(n)}}}}
	}
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclResourceRaw, Operands: reg(0)})
	b.Declare(dxbc.Instruction{Op: dxbc.OpDclResourceStructured, Operands: reg(1), Extra: []uint32{8}})
	b.DclInputPSSIV(0, dxbc.XY, dxbc.InterpLinearNoPerspective, dxbc.SVPosition)
	b.DclOutput(0, dxbc.XYZW)
	b.DclTemps(1)
	r := dxbc.Temp
	b.Emit(dxbc.OpLdRaw, r(0).Mask(dxbc.X), dxbc.ImmUint(4), dxbc.Texture(0).Swz("xxxx"))
	b.Emit(dxbc.OpLdRaw, r(0).Mask(dxbc.Y), dxbc.ImmUint(8), dxbc.Texture(0).Swz("xyxx"))
	b.Emit(dxbc.OpLdStructured, r(0).Mask(dxbc.Z), dxbc.ImmUint(1), dxbc.ImmUint(4), dxbc.Texture(1).Swz("xxxx"))
	b.Emit(dxbc.OpBufinfo, r(0).Mask(dxbc.W), dxbc.Texture(1).Swz("xxxx"))
	b.Emit(dxbc.OpMov, dxbc.Output(0), r(0))
	b.Ret()
	in := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: dxbc.ComponentFloat32, Mask: dxbc.XYZW}}}
	out := &dxbc.Signature{Elements: []dxbc.Element{{Name: "SV_Target", ComponentType: dxbc.ComponentUint32, Mask: dxbc.XYZW}}}
	blob, err := b.Build(in, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(blob)
}

// TestRawAndStructuredBuffers: raw and structured buffer views, as
// rawStructuredPS reads them: (11, 13, 23, 3).
func TestRawAndStructuredBuffers(t *testing.T) {
	runTextureScenario(t, "buffers.d3ds", `hlsl s {
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
rt = dev.CreateTexture2D Width=1 Height=1 Format=R32G32B32A32_UINT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
raw = dev.CreateBuffer BindFlags=SHADER_RESOURCE MiscFlags=BUFFER_ALLOW_RAW_VIEWS Usage=IMMUTABLE Data=u32[10 11 12 13 14 15]
rawv = dev.CreateShaderResourceView raw Format=R32_TYPELESS ViewDimension=BUFFEREX Flags=RAW
st = dev.CreateBuffer BindFlags=SHADER_RESOURCE MiscFlags=BUFFER_STRUCTURED StructureByteStride=8 Usage=IMMUTABLE Data=u32[20 21 22 23 24 25]
stv = dev.CreateShaderResourceView st ViewDimension=BUFFER
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
ps = dev.CreatePixelShader `+rawStructuredPS(t)+`
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 1 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetShaderResources 0 rawv
imm.PSSetShaderResources 1 stv
imm.Draw 3 0
expect pixel rt 0 0 == u32[11 13 23 3]
expect violations == 0
`)
}

// TestSamplerModes: MIRROR_ONCE (u -0.25 reads u 0.25, -0.75 reads 0.75,
// -1.5 clamps to the far edge), BORDER with a border colour, a 3D
// texture's AddressW BORDER, and an anisotropic sampler of a constant
// texture.
func TestSamplerModes(t *testing.T) {
	runTextureScenario(t, "samplers.d3ds", `hlsl s {
Texture2D t : register(t0);
Texture3D v : register(t1);
SamplerState mo : register(s0);
SamplerState bo : register(s1);
SamplerState an : register(s2);
float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
static const float us[4] = { -0.25, -0.75, -1.5, 1.5 };
float4 ps(float4 pos : SV_Position) : SV_Target {
  float u = us[(uint)pos.x];
  return float4(t.SampleLevel(mo, float2(u, 0.5), 0).x, t.SampleLevel(bo, float2(u, 0.5), 0).x,
                v.SampleLevel(bo, float3(0.5, 0.5, u + 1), 0).x, t.Sample(an, float2(0.5, 0.5)).y);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
rt = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
tex = dev.CreateTexture2D Width=2 Height=1 Format=R32G32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[1 7 2 7]
srv = dev.CreateShaderResourceView tex
vol = dev.CreateTexture3D Width=1 Height=1 Depth=2 Format=R32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[5 6]
volv = dev.CreateShaderResourceView vol
mo = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT AddressU=MIRROR_ONCE
bo = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT AddressU=BORDER AddressW=BORDER BorderColor=#ff0000ff
an = dev.CreateSamplerState Filter=ANISOTROPIC MaxAnisotropy=16
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
ps = dev.CreatePixelShader hlsl:s entry=ps target=ps_5_0
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.PSSetShaderResources 0 srv
imm.PSSetShaderResources 1 volv
imm.PSSetSamplers 0 mo
imm.PSSetSamplers 1 bo
imm.PSSetSamplers 2 an
imm.Draw 3 0
expect pixel rt 0 0 == f32[1 1 6 7]
expect pixel rt 1 0 == f32[2 1 5 7]
expect pixel rt 2 0 == f32[2 1 1 7]
expect pixel rt 3 0 == f32[2 1 1 7]
expect violations == 0
`)
}

// TestTextureRefusals: the runtime names the field of a descriptor it
// refuses.
func TestTextureRefusals(t *testing.T) {
	for _, tc := range []struct{ call, want string }{
		{"x = dev.CreateTexture2D Width=4 Height=4 ArraySize=5 MiscFlags=TEXTURECUBE Format=R32_FLOAT BindFlags=SHADER_RESOURCE", "ArraySize a multiple of 6"},
		{"x = dev.CreateTexture2D Width=4 Height=4 MipLevels=4 Format=R32_FLOAT BindFlags=SHADER_RESOURCE", "MipLevels 4"},
		{"x = dev.CreateTexture3D Width=4 Height=4 Depth=4000 Format=R32_FLOAT BindFlags=SHADER_RESOURCE", "outside 1..2048"},
		{"x = dev.CreateTexture1D Width=4 Format=R32_FLOAT BindFlags=SHADER_RESOURCE MiscFlags=GENERATE_MIPS", "GENERATE_MIPS needs"},
		{"x = dev.CreateBuffer ByteWidth=12 BindFlags=SHADER_RESOURCE MiscFlags=BUFFER_STRUCTURED StructureByteStride=8", "whole structures"},
		{"x = dev.CreateSamplerState Filter=ANISOTROPIC MaxAnisotropy=17", "MaxAnisotropy"},
		{"x = dev.CreateSamplerState MinLOD=2 MaxLOD=1", "MinLOD is above MaxLOD"},
		{"x = dev.CreateShaderResourceView tex ViewDimension=TEXTURECUBE", "TEXTURECUBE"},
		{"x = dev.CreateShaderResourceView tex ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=3", "has 2 slices"},
		{"x = dev.CreateShaderResourceView tex MostDetailedMip=0 MipLevels=3 ViewDimension=TEXTURE2DARRAY", "has 2 levels"},
		{"x = dev.CreateShaderResourceView buf ViewDimension=BUFFER Format=R32_FLOAT NumElements=5", "holds 4 elements"},
		{"imm.UpdateSubresource tex DstSubresource=4 Data=f32[1]", "DstSubresource 4"},
		{"imm.GenerateMips srv", "GENERATE_MIPS"},
	} {
		src := `dev, imm = D3D11CreateDevice
tex = dev.CreateTexture2D Width=2 Height=2 MipLevels=2 ArraySize=2 Format=R32_FLOAT BindFlags=SHADER_RESOURCE
srv = dev.CreateShaderResourceView tex
buf = dev.CreateBuffer ByteWidth=16 BindFlags=SHADER_RESOURCE
` + tc.call + "\n"
		s, err := Load("refuse.d3ds", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		sum := NewRun(s, Overrides{}).Finish()
		if got := strings.Join(sum.Failures, "\n"); sum.OK() || !strings.Contains(got, tc.want) || !strings.Contains(got, "E_INVALIDARG") {
			t.Errorf("%s: failures %q, want E_INVALIDARG naming %q", tc.call, got, tc.want)
		}
	}
}
