package scenario

import (
	"encoding/hex"
	"testing"

	"d3dsim/core/dxbc"
)

// cubeGS draws its triangle six times, copy i (i = 0..5) with
// SV_RenderTargetArrayIndex i and the colour i + 1: a cube map's faces in
// one pass.
const cubeGS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   xyzw
// COLOR                    0   xyzw        1     NONE   float   xyzw
// SV_RenderTargetArrayIndex     0   x           2  RTINDEX    uint   x
//
gs_4_0
dcl_input_siv v[3][0].xyzw, position
dcl_input v[3][1].xyzw
dcl_temps 2
dcl_inputprimitive triangle
dcl_outputtopology trianglestrip
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_output_siv o2.x, rendertarget_array_index
dcl_maxout 18
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(6)
  breakc_nz r0.y
  utof r1.x, r0.x
  add r1.x, r1.x, l(1.000000)
  mov o0.xyzw, v[0][0].xyzw
  mov o1.xyzw, r1.xxxx
  mov o2.x, r0.x
  emit
  mov o0.xyzw, v[1][0].xyzw
  mov o1.xyzw, r1.xxxx
  mov o2.x, r0.x
  emit
  mov o0.xyzw, v[2][0].xyzw
  mov o1.xyzw, r1.xxxx
  mov o2.x, r0.x
  emit
  cut
  iadd r0.x, r0.x, l(1)
endloop
ret
`

// fullVS is a vertex shader's HLSL: the triangle that covers the viewport,
// from SV_VertexID.
const fullVS = `float4 vs(uint id : SV_VertexID) : SV_Position {
  float2 p = float2((id >> 1) * 4.0 - 1.0, (id & 1) * 4.0 - 1.0);
  return float4(p, 0, 1);
}
`

// cubeSetup creates a triangle covering the viewport (vb, 36-byte
// vertices), the pass-through vertex shader, the vertex-colour pixel shader
// and cubeGS (gs).
func cubeSetup(t *testing.T) string {
	t.Helper()
	bc, err := dxbc.Assemble(cubeGS)
	if err != nil {
		t.Fatal(err)
	}
	return `vb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0 1 0 0 0 0 0  -1 3 0 1 0 0 0 0 0  3 -1 0 1 0 0 0 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
gs = dev.CreateGeometryShader bytes:` + hex.EncodeToString(bc) + "\n"
}

// TestLayeredCubeRendering: a cube map drawn in one pass by a geometry
// shader writing SV_RenderTargetArrayIndex, with a layered depth buffer
// (a view of six slices) tested LESS: face i holds i + 1 (each copy at
// depth 0 passes against its own slice's 1; had they all gone to slice 0,
// copies 2..6 would fail the test there). Then the same shader into a view
// of slices 2 and 3 of another six: index 0 draws slice 2, 1 slice 3, and
// 2..5, past the view's two slices, slice 0 of the view (slice 2) as D3D11
// specifies -- the last, 6, stays there; the slices outside the view keep
// their clear.
func TestLayeredCubeRendering(t *testing.T) {
	src := `hlsl s {
TextureCube cube : register(t0);
Texture2DArray arr : register(t1);
SamplerState sp : register(s0);
` + fullVS + `float4 read(float4 pos : SV_Position) : SV_Target {
  if (pos.x < 1)
    return float4(cube.SampleLevel(sp, float3(1, 0, 0), 0).x, cube.SampleLevel(sp, float3(-1, 0, 0), 0).x,
                  cube.SampleLevel(sp, float3(0, 1, 0), 0).x, cube.SampleLevel(sp, float3(0, -1, 0), 0).x);
  if (pos.x < 2)
    return float4(cube.SampleLevel(sp, float3(0, 0, 1), 0).x, cube.SampleLevel(sp, float3(0, 0, -1), 0).x, 0, 0);
  if (pos.x < 3)
    return float4(arr.Load(int4(0, 0, 0, 0)).x, arr.Load(int4(0, 0, 1, 0)).x, arr.Load(int4(0, 0, 2, 0)).x, arr.Load(int4(1, 1, 3, 0)).x);
  return float4(arr.Load(int4(0, 0, 4, 0)).x, arr.Load(int4(0, 0, 5, 0)).x, 0, 0);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
` + cubeSetup(t) + `cube = dev.CreateTexture2D Width=2 Height=2 ArraySize=6 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE MiscFlags=TEXTURECUBE
faces = dev.CreateRenderTargetView cube
depth = dev.CreateTexture2D Width=2 Height=2 ArraySize=6 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
dfaces = dev.CreateDepthStencilView depth
dss = dev.CreateDepthStencilState DepthEnable=TRUE DepthFunc=LESS
imm.ClearRenderTargetView faces 0 0 0 0
imm.ClearDepthStencilView dfaces 1
imm.OMSetRenderTargets faces dfaces
imm.OMSetDepthStencilState dss
imm.RSSetViewports 0 0 2 2
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.GSSetShader gs
imm.PSSetShader ps
imm.Draw 3 0
arr = dev.CreateTexture2D Width=2 Height=2 ArraySize=6 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
all = dev.CreateRenderTargetView arr
two = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=2 ArraySize=2
imm.ClearRenderTargetView all 9 9 9 9
imm.OMSetDepthStencilState NULL
imm.OMSetRenderTargets two
imm.Draw 3 0
out = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
sc = dev.CreateShaderResourceView cube ViewDimension=TEXTURECUBE
sa = dev.CreateShaderResourceView arr
sp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
vs2 = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
imm.GSSetShader
imm.VSSetShader vs2
imm.PSSetShader read
imm.OMSetRenderTargets outv
imm.PSSetShaderResources 0 sc sa
imm.PSSetSamplers 0 sp
imm.RSSetViewports 0 0 4 1
imm.Draw 3 0
expect pixel out 0 0 == f32[1 2 3 4]
expect pixel out 1 0 == f32[5 6 0 0]
expect pixel out 2 0 == f32[9 9 6 2]
expect pixel out 3 0 == f32[9 9 0 0]
expect violations == 0
`
	runTextureScenario(t, "layers.d3ds", src)
}

// TestLayered3DSlices: the same shader into a view of a 3D texture's depth
// slices 1..3 (TEXTURE3D FirstWSlice=1 WSize=3): SV_RenderTargetArrayIndex
// picks the view's depth slice, so index 0 draws w 1, 1 w 2, 2 w 3, and
// 3..5, past the view's three, its first (w 1: the last there is 6); w 0,
// outside the view, keeps its clear.
func TestLayered3DSlices(t *testing.T) {
	runTextureScenario(t, "layers3d.d3ds", `hlsl s {
Texture3D vol : register(t0);
`+fullVS+`float4 read() : SV_Target {
  return float4(vol.Load(int4(0, 0, 0, 0)).x, vol.Load(int4(1, 1, 1, 0)).x, vol.Load(int4(0, 1, 2, 0)).x, vol.Load(int4(1, 0, 3, 0)).x);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
`+cubeSetup(t)+`vol = dev.CreateTexture3D Width=2 Height=2 Depth=4 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
all = dev.CreateRenderTargetView vol
ws = dev.CreateRenderTargetView vol ViewDimension=TEXTURE3D FirstWSlice=1 WSize=3
imm.ClearRenderTargetView all 9 9 9 9
imm.OMSetRenderTargets ws
imm.RSSetViewports 0 0 2 2
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.GSSetShader gs
imm.PSSetShader ps
imm.Draw 3 0
out = dev.CreateTexture2D Width=1 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
sv = dev.CreateShaderResourceView vol
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
vs2 = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
imm.GSSetShader
imm.OMSetRenderTargets outv
imm.VSSetShader vs2
imm.PSSetShader read
imm.PSSetShaderResources 0 sv
imm.RSSetViewports 0 0 1 1
imm.Draw 3 0
expect pixel out 0 0 == f32[9 6 2 3]
expect violations == 0
`)
}

// TestLayeredInCommandList: the cube map's layered draw and a clear of one
// face's view recorded on a deferred context and executed: the command
// list's SET_RT_LAYERS and its per-slice clears are relocated into the
// immediate context's buffer like any packet with an address.
func TestLayeredInCommandList(t *testing.T) {
	mustRun(t, `hlsl s {
Texture2DArray arr : register(t0);
`+fullVS+`float4 read(float4 pos : SV_Position) : SV_Target {
  int s = (int)pos.x * 3;
  return float4(arr.Load(int4(0, 0, s, 0)).x, arr.Load(int4(1, 1, s + 1, 0)).x, arr.Load(int4(1, 0, s + 2, 0)).x, 0);
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
`+cubeSetup(t)+`arr = dev.CreateTexture2D Width=2 Height=2 ArraySize=6 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
all = dev.CreateRenderTargetView arr
f5 = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=5 ArraySize=1
dc = dev.CreateDeferredContext
dc.ClearRenderTargetView all 0 0 0 0
dc.OMSetRenderTargets all
dc.RSSetViewports 0 0 2 2
dc.IASetPrimitiveTopology TRIANGLELIST
dc.IASetVertexBuffers 0 vb Stride=36
dc.VSSetShader vs
dc.GSSetShader gs
dc.PSSetShader ps
dc.Draw 3 0
dc.ClearRenderTargetView f5 8 8 8 8
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
out = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
sa = dev.CreateShaderResourceView arr
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
vs2 = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
imm.OMSetRenderTargets outv
imm.RSSetViewports 0 0 2 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs2
imm.PSSetShader read
imm.PSSetShaderResources 0 sa
imm.Draw 3 0
expect pixel out 0 0 == f32[1 2 3 0]
expect pixel out 1 0 == f32[4 5 8 0]
expect violations == 0
`)
}
