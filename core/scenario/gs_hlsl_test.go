package scenario

import (
	"strings"
	"testing"
)

// gsBillboardHLSL is the billboard geometry shader of gsScene written in
// HLSL (the listing core/umd/translate/testdata/geometry/billboard.asm
// shows): each even point a square of cb0's half size, in its colour.
const gsBillboardHLSL = `hlsl billboard {
cbuffer C { float2 size; };
struct V { float4 pos : SV_Position; float4 col : COLOR; };
[maxvertexcount(4)]
void main(point V p[1], uint id : SV_PrimitiveID, inout TriangleStream<V> s)
{
    if (id & 1)
        return;
    const float2 c[4] = { {-1, 1}, {1, 1}, {-1, -1}, {1, -1} };
    for (int i = 0; i < 4; i++) {
        V o;
        o.pos = p[0].pos + float4(c[i] * size, 0, 0);
        o.col = p[0].col;
        s.Append(o);
    }
    s.RestartStrip();
}
}
`

// TestGeometryHLSLBillboard: gsScene with its geometry shader from HLSL
// (CreateGeometryShader hlsl:NAME, gs_5_0) draws the bytecode's pixels
// (TestGeometryBillboardScenario's): 8x8 squares in the points' colours,
// none for the odd primitives; the shader list names the block's target.
func TestGeometryHLSLBillboard(t *testing.T) {
	var b strings.Builder
	b.WriteString(gsBillboardHLSL)
	b.WriteString(strings.Replace(gsScene, "GS", "hlsl:billboard", 1))
	b.WriteString(`imm.Draw 4 0
expect pixel bb 12 12 == #ff0000ff
expect pixel bb 19 19 == #ff0000ff
expect pixel bb 11 12 == #000000ff
expect pixel bb 20 19 == #000000ff
expect pixel bb 12 20 == #000000ff
expect pixel bb 44 44 == #0000ffff
expect pixel bb 51 51 == #0000ffff
expect pixel bb 52 51 == #000000ff
expect pixel bb 48 16 == #000000ff
expect pixel bb 16 48 == #000000ff
expect violations == 0
`)
	r := mustRun(t, b.String())
	list, _ := r.Shaders()
	for _, s := range list {
		if s.Block == "billboard" && s.Target != "gs_5_0" {
			t.Errorf("billboard's target %s, want gs_5_0", s.Target)
		}
	}
}

// TestGeometryHLSLStreamOutput: the HLSL billboard created with a
// stream-output declaration (CreateGeometryShaderWithStreamOutput
// hlsl:NAME) writes the first square's two triangles to the buffer as the
// bytecode does (TestStreamOutputScenario's values, computed there: the
// corners of a square of half size 0.125 around clip (-0.5, 0.5)), four
// primitives in all.
func TestGeometryHLSLStreamOutput(t *testing.T) {
	var b strings.Builder
	b.WriteString(gsBillboardHLSL)
	b.WriteString(strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
gs = dev.CreateGeometryShaderWithStreamOutput hlsl:billboard Decl="SV_Position.xy; $SKIP.zw; COLOR.xyz" Strides=u32[28] RasterizedStream=4294967295
expect hr == S_OK`, 1))
	b.WriteString(`q = dev.CreateQuery Query=SO_STATISTICS
imm.SOSetTargets so
imm.Begin q
imm.Draw 4 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.NumPrimitivesWritten == 4
expect pixel bb 16 16 == #000000ff
`)
	x0, y0, x1, y1 := float32(-0.625), float32(0.625), float32(-0.375), float32(0.375)
	var want []float32
	for _, c := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x0, y1}, {x1, y0}, {x1, y1}} {
		want = append(want, c[0], c[1], 0, 0, 1, 0, 0)
	}
	b.WriteString("expect probe so 0 0 == " + f32Words(want...) + "\nexpect violations == 0\n")
	mustRun(t, b.String())
}

// TestGeometryHLSLTwoTriangles: a geometry shader that draws each
// triangle twice, moved half the target left in red and right in blue
// (two strips, RestartStrip between). The triangle (-0.4, -0.4),
// (-0.4, 0.4), (0.4, -0.4) becomes one with its right angle at clip
// (-0.9, -0.4) and one at (0.1, -0.4), legs 0.8 long; on the 64x64
// target pixel (6, 42) is clip (-0.797, -0.328), inside the red one
// ((0.103 + 0.072) / 0.8 < 1), pixel (38, 42) clip (0.203, -0.328) inside
// the blue one; pixel (32, 40), where the triangle itself was, is in
// neither (x between -0.1 and 0.1), nor is (26, 22), past the red one's
// hypotenuse.
func TestGeometryHLSLTwoTriangles(t *testing.T) {
	mustRun(t, `hlsl twice {
struct V { float4 pos : SV_Position; float4 col : COLOR; };
[maxvertexcount(6)]
void main(triangle V v[3], inout TriangleStream<V> s)
{
    const float4 colours[2] = { float4(1, 0, 0, 1), float4(0, 0, 1, 1) };
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 3; i++) {
            V o;
            o.pos = v[i].pos + float4(k - 0.5, 0, 0, 0);
            o.col = colours[k];
            s.Append(o);
        }
        s.RestartStrip();
    }
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[-0.4 -0.4 0 1 1 1 1 0 0  -0.4 0.4 0 1 1 1 1 0 0  0.4 -0.4 0 1 1 1 1 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
gs = dev.CreateGeometryShader hlsl:twice
expect hr == S_OK
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.GSSetShader gs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
imm.Draw 3 0
expect pixel bb 6 42 == #ff0000ff
expect pixel bb 38 42 == #0000ffff
expect pixel bb 32 40 == #000000ff
expect pixel bb 26 22 == #000000ff
expect violations == 0
`)
}
