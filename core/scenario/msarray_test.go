package scenario

import (
	"strings"
	"testing"
)

// msArrayShaders: a triangle whose right edge is x = 0.5 pixels on a 2x1
// viewport (pixel 0's 4-sample standard pattern has samples 0 and 2 left
// of it, at x offsets -2/16 and -6/16 from the centre 0.5; 1 and 3 right),
// a geometry shader sending it to the view's slice 1
// (SV_RenderTargetArrayIndex), a pixel shader writing 5, and a reader of
// a 4-sample Texture2DMSArray: pixel (s, p), s < 3, the four samples of
// texel (p, 0) of slice s; pixel (3, 0) GetDimensions' width, height,
// elements and samples; (3, 1) GetSamplePosition(1).
const msArrayShaders = `hlsl s {
struct G { float4 pos : SV_Position; uint slice : SV_RenderTargetArrayIndex; };
float4 tri(uint id : SV_VertexID) : SV_Position {
  float2 p[3] = { float2(-0.5, 3), float2(-0.5, -3), float2(-3, 0) };
  return float4(p[id], 0, 1);
}
[maxvertexcount(3)]
void gs(triangle float4 v[3] : SV_Position, inout TriangleStream<G> s) {
  for (uint i = 0; i < 3; i++) {
    G o;
    o.pos = v[i];
    o.slice = 1;
    s.Append(o);
  }
}
float4 ps5() : SV_Target { return 5; }
` + fullVS + `
Texture2DMSArray<float, 4> t : register(t0);
float4 read(float4 pos : SV_Position) : SV_Target {
  int s = (int)pos.x, p = (int)pos.y;
  if (s < 3)
    return float4(t.Load(int3(p, 0, s), 0), t.Load(int3(p, 0, s), 1), t.Load(int3(p, 0, s), 2), t.Load(int3(p, 0, s), 3));
  uint w, h, n, c;
  t.GetDimensions(w, h, n, c);
  if (p == 0)
    return float4(w, h, n, c);
  return float4(t.GetSamplePosition(1), 0, 0);
}
}
`

// TestMultisampleArraySlices: a 2x1, 3-slice, 4-sample texture
// (Texture2DMSArray) cleared whole to 1 through its default view and
// slice 1 to 2 through a TEXTURE2DMSARRAY view of that slice, then drawn
// into through a view of slices 1..2 by a geometry shader choosing the
// view's slice 1 (the texture's slice 2): samples 0 and 2 of pixel 0 of
// slice 2 become 5. The reader Loads every sample of every slice; a view
// of slices 1..2 reads slice 2 as its slice 1; ResolveSubresource of
// subresource 2 averages slice 2 ((5+1+5+1)/4 = 3 at pixel 0) into
// subresource 0 of a 2-slice texture, and of subresource 1 (2) into its
// subresource 1, which leaves subresource 0 as it was.
func TestMultisampleArraySlices(t *testing.T) {
	runTextureScenario(t, "msarray.d3ds", msArrayShaders+`dev, imm = D3D11CreateDevice Flags=DEBUG
tri = dev.CreateVertexShader hlsl:s entry=tri target=vs_5_0
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
gs = dev.CreateGeometryShader hlsl:s entry=gs target=gs_5_0
p5 = dev.CreatePixelShader hlsl:s entry=ps5 target=ps_5_0
read = dev.CreatePixelShader hlsl:s entry=read target=ps_5_0
ms = dev.CreateTexture2D Width=2 Height=1 ArraySize=3 Format=R32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=4
all = dev.CreateRenderTargetView ms
s1 = dev.CreateRenderTargetView ms ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=1
s12 = dev.CreateRenderTargetView ms ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=2
imm.ClearRenderTargetView all 1 1 1 1
imm.ClearRenderTargetView s1 2 2 2 2
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader tri
imm.GSSetShader gs
imm.PSSetShader p5
imm.RSSetViewports 0 0 2 1
imm.OMSetRenderTargets s12
imm.Draw 3 0
imm.GSSetShader NULL
out = dev.CreateTexture2D Width=4 Height=2 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv = dev.CreateRenderTargetView out
srv = dev.CreateShaderResourceView ms
imm.OMSetRenderTargets outv
imm.RSSetViewports 0 0 4 2
imm.VSSetShader vs
imm.PSSetShader read
imm.PSSetShaderResources 0 srv
imm.Draw 3 0
expect pixel out 0 0 == f32[1 1 1 1]
expect pixel out 0 1 == f32[1 1 1 1]
expect pixel out 1 0 == f32[2 2 2 2]
expect pixel out 1 1 == f32[2 2 2 2]
expect pixel out 2 0 == f32[5 1 5 1]
expect pixel out 2 1 == f32[1 1 1 1]
expect pixel out 3 0 == f32[2 1 3 4]
expect pixel out 3 1 == f32[0.375 -0.125 0 0]
part = dev.CreateShaderResourceView ms ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=2
out2 = dev.CreateTexture2D Width=4 Height=2 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
outv2 = dev.CreateRenderTargetView out2
imm.OMSetRenderTargets outv2
imm.PSSetShaderResources 0 part
imm.Draw 3 0
expect pixel out2 0 0 == f32[2 2 2 2]
expect pixel out2 1 0 == f32[5 1 5 1]
expect pixel out2 2 0 == f32[0 0 0 0]
expect pixel out2 3 0 == f32[2 1 2 4]
res = dev.CreateTexture2D Width=2 Height=1 ArraySize=2 Format=R32_FLOAT BindFlags=SHADER_RESOURCE
imm.ResolveSubresource res 0 ms 2 R32_FLOAT
imm.ResolveSubresource res 1 ms 1 R32_FLOAT
expect pixel res 0 0 == f32[3]
expect pixel res 1 0 == f32[1]
expect violations == 0
`)
}

// TestMultisampleArrayValidation: the runtime's checks of a multisampled
// array's views and resolves, each E_INVALIDARG (or a dropped call)
// naming the field.
func TestMultisampleArrayValidation(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
msa = dev.CreateTexture2D Width=4 Height=4 ArraySize=2 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=4
d = dev.CreateTexture2D Width=4 Height=4 ArraySize=2 Format=D32_FLOAT BindFlags=DEPTH_STENCIL SampleCount=4
one = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
`
	for _, c := range []struct{ src, want string }{
		{"v = dev.CreateShaderResourceView msa ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=2\n", "FirstArraySlice 1, ArraySize 2: msa has 2 slices"},
		{"v = dev.CreateShaderResourceView msa ViewDimension=TEXTURE2DMSARRAY ArraySize=0\n", "FirstArraySlice 0, ArraySize 0: msa has 2 slices"},
		{"v = dev.CreateShaderResourceView msa ViewDimension=TEXTURE2DMS FirstArraySlice=1\n", "FirstArraySlice, ArraySize: a TEXTURE2DMS view has one slice"},
		{"v = dev.CreateShaderResourceView msa ViewDimension=TEXTURE2DARRAY\n", "ViewDimension TEXTURE2DARRAY: msa has 4 samples"},
		{"v = dev.CreateRenderTargetView msa ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=2 ArraySize=1\n", "FirstArraySlice 2, ArraySize 1: msa has 2 array slices"},
		{"v = dev.CreateRenderTargetView msa ViewDimension=TEXTURE2DARRAY ArraySize=2\n", "D3D11_RTV_DIMENSION_TEXTURE2DARRAY does not view msa"},
		{"v = dev.CreateDepthStencilView d ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=2\n", "FirstArraySlice 1, ArraySize 2: d has 2 array slices"},
		{"imm.ResolveSubresource one 0 msa 2 R8G8B8A8_UNORM\n", "SrcSubresource 2: one has 1 subresource(s), msa 2"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
	// The default views of the whole array, a depth view of one slice.
	runOK(t, pre+`v = dev.CreateShaderResourceView msa
r = dev.CreateRenderTargetView msa
s = dev.CreateDepthStencilView d ViewDimension=TEXTURE2DMSARRAY FirstArraySlice=1 ArraySize=1
imm.ClearDepthStencilView s 0.5
`)
}
