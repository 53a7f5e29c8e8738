package scenario

import (
	"strings"
	"testing"
)

// rtvShaders are the subresource tests' shaders: a full-viewport triangle,
// pixel shaders writing 5, 7 and 9, and a reader whose pixel 0 loads the
// texel (0, 0) of a 2D texture's mips 0..2 and (1, 1) of mip 1, pixel 1 an
// array's slices 0..2 and (1, 1) of slice 1, pixel 2 a cube's +x, -x, +z
// and -z faces, pixel 3 a volume's depth slices 0..3.
const rtvShaders = `hlsl s {
Texture2D mips : register(t0);
Texture2DArray arr : register(t1);
TextureCube cube : register(t2);
Texture3D vol : register(t3);
SamplerState sp : register(s0);
` + fullVS + `float4 ps5() : SV_Target { return 5; }
float4 ps7() : SV_Target { return 7; }
float4 ps9() : SV_Target { return 9; }
float4 read(float4 pos : SV_Position) : SV_Target {
  if (pos.x < 1)
    return float4(mips.Load(int3(0, 0, 0)).x, mips.Load(int3(0, 0, 1)).x, mips.Load(int3(0, 0, 2)).x, mips.Load(int3(1, 1, 1)).x);
  if (pos.x < 2)
    return float4(arr.Load(int4(0, 0, 0, 0)).x, arr.Load(int4(0, 0, 1, 0)).x, arr.Load(int4(0, 0, 2, 0)).x, arr.Load(int4(1, 1, 1, 0)).x);
  if (pos.x < 3)
    return float4(cube.SampleLevel(sp, float3(1, 0, 0), 0).x, cube.SampleLevel(sp, float3(-1, 0, 0), 0).x,
                  cube.SampleLevel(sp, float3(0, 0, 1), 0).x, cube.SampleLevel(sp, float3(0, 0, -1), 0).x);
  return float4(vol.Load(int4(0, 0, 0, 0)).x, vol.Load(int4(0, 0, 1, 0)).x, vol.Load(int4(0, 0, 2, 0)).x, vol.Load(int4(1, 1, 3, 0)).x);
}
}
`

// TestRenderTargetViewSubresources: render-target views of a mip level,
// of array slices, of a cube face and of a 3D texture's depth slices,
// each cleared and drawn into, then every subresource read back. The
// values are what the clears and draws put in each subresource: a clear
// or a draw reaches the view's subresources and no other.
func TestRenderTargetViewSubresources(t *testing.T) {
	runTextureScenario(t, "rtvsub.d3ds", rtvShaders+`dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
p5 = dev.CreatePixelShader hlsl:s entry=ps5 target=ps_5_0
p7 = dev.CreatePixelShader hlsl:s entry=ps7 target=ps_5_0
p9 = dev.CreatePixelShader hlsl:s entry=ps9 target=ps_5_0
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.RSSetViewports 0 0 2 2
mips = dev.CreateTexture2D Width=4 Height=4 MipLevels=3 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
m0 = dev.CreateRenderTargetView mips
m1 = dev.CreateRenderTargetView mips ViewDimension=TEXTURE2D MipSlice=1
m2 = dev.CreateRenderTargetView mips ViewDimension=TEXTURE2D MipSlice=2
imm.ClearRenderTargetView m0 1 1 1 1
imm.ClearRenderTargetView m1 2 2 2 2
imm.ClearRenderTargetView m2 3 3 3 3
imm.OMSetRenderTargets m1
imm.PSSetShader p5
imm.Draw 3 0
arr = dev.CreateTexture2D Width=2 Height=2 ArraySize=3 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
a = dev.CreateRenderTargetView arr
a12 = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=1
a1 = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1
imm.ClearRenderTargetView a 1 1 1 1
imm.ClearRenderTargetView a12 2 2 2 2
imm.OMSetRenderTargets a1
imm.PSSetShader p7
imm.Draw 3 0
cube = dev.CreateTexture2D Width=2 Height=2 ArraySize=6 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE MiscFlags=TEXTURECUBE
c = dev.CreateRenderTargetView cube
cz = dev.CreateRenderTargetView cube ViewDimension=TEXTURE2DARRAY FirstArraySlice=4 ArraySize=1
cnx = dev.CreateRenderTargetView cube ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1
imm.ClearRenderTargetView c 0 0 0 0
imm.ClearRenderTargetView cnx 3 3 3 3
imm.OMSetRenderTargets cz
imm.PSSetShader p9
imm.Draw 3 0
vol = dev.CreateTexture3D Width=2 Height=2 Depth=4 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
v = dev.CreateRenderTargetView vol
w2 = dev.CreateRenderTargetView vol ViewDimension=TEXTURE3D FirstWSlice=2 WSize=1
w3 = dev.CreateRenderTargetView vol ViewDimension=TEXTURE3D FirstWSlice=3
imm.ClearRenderTargetView v 1 1 1 1
imm.ClearRenderTargetView w3 4 4 4 4
imm.OMSetRenderTargets w2
imm.PSSetShader p5
imm.Draw 3 0
out = dev.CreateTexture2D Width=4 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
sm = dev.CreateShaderResourceView mips
sa = dev.CreateShaderResourceView arr
sc = dev.CreateShaderResourceView cube ViewDimension=TEXTURECUBE
sv = dev.CreateShaderResourceView vol
sp = dev.CreateSamplerState Filter=MIN_MAG_MIP_POINT
imm.OMSetRenderTargets outv
imm.RSSetViewports 0 0 4 1
imm.PSSetShader read
imm.PSSetShaderResources 0 sm sa sc sv
imm.PSSetSamplers 0 sp
imm.Draw 3 0
expect pixel out 0 0 == f32[1 5 3 5]
expect pixel out 1 0 == f32[1 7 2 7]
expect pixel out 2 0 == f32[0 3 9 0]
expect pixel out 3 0 == f32[1 1 5 4]
expect violations == 0
`)
}

// TestTargetViewRefusals: the runtime's checks of a render-target or
// depth-stencil view's description, each E_INVALIDARG naming the field.
func TestTargetViewRefusals(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
mips = dev.CreateTexture2D Width=4 Height=4 MipLevels=3 Format=R32_FLOAT BindFlags=RENDER_TARGET
arr = dev.CreateTexture2D Width=4 Height=4 ArraySize=3 Format=R32_FLOAT BindFlags=RENDER_TARGET
vol = dev.CreateTexture3D Width=4 Height=4 Depth=4 MipLevels=2 Format=R32_FLOAT BindFlags=RENDER_TARGET
lin = dev.CreateTexture1D Width=4 Format=R32_FLOAT BindFlags=RENDER_TARGET
buf = dev.CreateBuffer ByteWidth=64 BindFlags=RENDER_TARGET
depth = dev.CreateTexture2D Width=4 Height=4 ArraySize=2 Format=D32_FLOAT BindFlags=DEPTH_STENCIL
ms = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=4
`
	for _, c := range []struct{ src, want string }{
		{"v = dev.CreateRenderTargetView mips ViewDimension=TEXTURE2D MipSlice=3\n", "MipSlice 3: mips has 3 mip levels"},
		{"v = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=2 ArraySize=2\n", "FirstArraySlice 2, ArraySize 2: arr has 3 array slices"},
		{"v = dev.CreateRenderTargetView arr ViewDimension=TEXTURE3D\n", "ViewDimension D3D11_RTV_DIMENSION_TEXTURE3D does not view arr: its views are D3D11_RTV_DIMENSION_TEXTURE2D or D3D11_RTV_DIMENSION_TEXTURE2DARRAY"},
		{"v = dev.CreateRenderTargetView vol ViewDimension=TEXTURE3D MipSlice=1 FirstWSlice=1 WSize=2\n", "FirstWSlice 1, WSize 2: mip 1 of vol has 2 depth slices"},
		{"v = dev.CreateRenderTargetView vol ViewDimension=TEXTURE3D FirstArraySlice=1\n", "FirstArraySlice, ArraySize: a D3D11_RTV_DIMENSION_TEXTURE3D view has none"},
		{"v = dev.CreateRenderTargetView mips ViewDimension=TEXTURE2D FirstWSlice=1\n", "FirstWSlice, WSize: a D3D11_RTV_DIMENSION_TEXTURE2D view has none"},
		{"v = dev.CreateRenderTargetView lin ViewDimension=TEXTURE2D\n", "does not view lin: its views are D3D11_RTV_DIMENSION_TEXTURE1D or D3D11_RTV_DIMENSION_TEXTURE1DARRAY"},
		{"v = dev.CreateRenderTargetView buf Format=R32_FLOAT ViewDimension=BUFFER FirstElement=10 NumElements=8\n", "FirstElement 10, NumElements 8: buf holds 16 elements of 4 bytes"},
		{"v = dev.CreateRenderTargetView buf ViewDimension=BUFFER NumElements=8\n", "Format: a buffer's render target view names a typed format that renders"},
		{"v = dev.CreateRenderTargetView buf Format=R32_FLOAT\n", "ViewDimension: a render target view of buffer buf names BUFFER"},
		{"v = dev.CreateRenderTargetView mips ViewDimension=BUFFER NumElements=1\n", "ViewDimension D3D11_RTV_DIMENSION_BUFFER does not view mips"},
		{"v = dev.CreateRenderTargetView ms ViewDimension=TEXTURE2D\n", "its views are D3D11_RTV_DIMENSION_TEXTURE2DMS or D3D11_RTV_DIMENSION_TEXTURE2DMSARRAY"},
		{"v = dev.CreateRenderTargetView ms ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=1\n", "FirstArraySlice 1, ArraySize 1: ms has 1 array slices"},
		{"v = dev.CreateDepthStencilView depth ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=2\n", "FirstArraySlice 1, ArraySize 2: depth has 2 array slices"},
		{"v = dev.CreateDepthStencilView depth ViewDimension=TEXTURE2D MipSlice=1\n", "MipSlice 1: depth has 1 mip levels"},
		{"v = dev.CreateDepthStencilView depth ViewDimension=TEXTURE1D\n", "ViewDimension D3D11_DSV_DIMENSION_TEXTURE1D does not view depth"},
		{"a = dev.CreateRenderTargetView arr\nd = dev.CreateDepthStencilView depth\nimm.OMSetRenderTargets a d\n", "ppRenderTargetViews[0] (a) has 3 slices and d 2: the targets have one array size"},
		{"a = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=1\nb = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY ArraySize=2\nimm.OMSetRenderTargets a b\n", "ppRenderTargetViews[0] and [1] are both views of resource arr: a subresource is bound to one slot at a time"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
}

// TestTargetViewsBufferDepthAndDownsample: a buffer's render-target view of
// elements 4..11 drawn into (the elements around it keep their zeros); a
// depth array whose slice 1 is cleared alone and whose slice 0 is drawn
// into through a view of it (depth 0 passes LESS against 1); a mip chain
// filled level from level, the shader reading mip 0 through a view of it
// while the output merger writes mip 1 (mip 0's 6 + 1) -- different
// subresources, so the runtime leaves the view bound (it would unbind a
// view of the level being written).
func TestTargetViewsBufferDepthAndDownsample(t *testing.T) {
	runTextureScenario(t, "rtvbuf.d3ds", `hlsl s {
Texture2DArray<float> d : register(t0);
Texture2D<float> m : register(t1);
`+fullVS+`float4 ps5() : SV_Target { return 5; }
float4 down(float4 pos : SV_Position) : SV_Target { return m.Load(int3(pos.xy * 2, 0)) + 1; }
float4 read() : SV_Target { return float4(d.Load(int4(0, 0, 0, 0)), d.Load(int4(1, 1, 1, 0)), m.Load(int3(1, 1, 1)), m.Load(int3(3, 3, 0))); }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
p5 = dev.CreatePixelShader hlsl:s entry=ps5 target=ps_5_0
down = dev.CreatePixelShader hlsl:s entry=down target=ps_5_0
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
buf = dev.CreateBuffer ByteWidth=64 BindFlags=RENDER_TARGET
bv = dev.CreateRenderTargetView buf Format=R32_FLOAT ViewDimension=BUFFER FirstElement=4 NumElements=8
imm.OMSetRenderTargets bv
imm.RSSetViewports 0 0 8 1
imm.PSSetShader p5
imm.Draw 3 0
expect probe buf 0 0 == f32[0 0 0 0 5 5 5 5 5 5 5 5 0 0 0 0]
depth = dev.CreateTexture2D Width=2 Height=2 ArraySize=2 Format=R32_TYPELESS BindFlags=DEPTH_STENCIL|SHADER_RESOURCE
dall = dev.CreateDepthStencilView depth Format=D32_FLOAT
d0 = dev.CreateDepthStencilView depth Format=D32_FLOAT ViewDimension=TEXTURE2DARRAY ArraySize=1
d1 = dev.CreateDepthStencilView depth Format=D32_FLOAT ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1
imm.ClearDepthStencilView dall 1
imm.ClearDepthStencilView d1 0.25
ds = dev.CreateDepthStencilState DepthEnable=TRUE DepthFunc=LESS
imm.OMSetDepthStencilState ds
imm.OMSetRenderTargets d0
imm.RSSetViewports 0 0 2 2
imm.Draw 3 0
mips = dev.CreateTexture2D Width=4 Height=4 MipLevels=2 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE
m0 = dev.CreateRenderTargetView mips
m1 = dev.CreateRenderTargetView mips ViewDimension=TEXTURE2D MipSlice=1
s0 = dev.CreateShaderResourceView mips ViewDimension=TEXTURE2D MipLevels=1
imm.ClearRenderTargetView m0 6 6 6 6
imm.OMSetRenderTargets m1
imm.PSSetShader down
imm.PSSetShaderResources 1 s0
imm.Draw 3 0
out = dev.CreateTexture2D Width=1 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
sd = dev.CreateShaderResourceView depth Format=R32_FLOAT
sall = dev.CreateShaderResourceView mips
imm.OMSetDepthStencilState NULL
imm.OMSetRenderTargets outv
imm.RSSetViewports 0 0 1 1
imm.PSSetShader read
imm.PSSetShaderResources 0 sd sall
imm.Draw 3 0
expect pixel out 0 0 == f32[0 0.25 7 6]
expect violations == 0
`)
}

// TestTargetViewsOfOneResource: views of different slices of one texture
// are bound to two slots at once ("you can set multiple non-overlapping
// resource views of a single resource as simultaneous multiple render
// targets", ID3D11DeviceContext::OMSetRenderTargets), and cleared apart.
func TestTargetViewsOfOneResource(t *testing.T) {
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
arr = dev.CreateTexture2D Width=2 Height=2 ArraySize=2 Format=R32_FLOAT BindFlags=RENDER_TARGET
a0 = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY ArraySize=1
a1 = dev.CreateRenderTargetView arr ViewDimension=TEXTURE2DARRAY FirstArraySlice=1 ArraySize=1
imm.OMSetRenderTargets a0 a1
expect hr == S_OK
imm.ClearRenderTargetView a1 3 3 3 3
imm.ClearRenderTargetView a0 2 2 2 2
expect probe arr 0 0 2 2 == f32[2]
expect violations == 0
`)
}
