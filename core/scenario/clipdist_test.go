package scenario

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// psClip is a pixel shader (as fxc /T ps_4_0 lists it: d3dsim's HLSL
// compiler takes SV_ClipDistance as an output only) that returns the
// SV_ClipDistance it reads in red, green 1.
const psClip = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
// SV_ClipDistance          0   x           1  CLIPDST   float   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_4_0
dcl_input_ps_siv linear v1.x, clip_distance
dcl_output o0.xyzw
mov o0.x, v1.x
mov o0.yzw, l(0, 1.000000, 0, 1.000000)
ret
`

// clipScene: an 8x8 target and an HLSL vertex shader that writes its
// vertex's u as SV_ClipDistance0 and v as SV_CullDistance0; the pixel
// shader (psClip, PSCLIP its bytes) returns the interpolated clip
// distance it reads as an input in red (green 1), so a pixel shows the
// distance the rasterizer clipped by.
const clipScene = `hlsl s {
struct O { float4 pos : SV_Position; float clip : SV_ClipDistance0; float cull : SV_CullDistance0; };
O vsmain(float3 p : POSITION, float4 c : COLOR, float2 uv : TEXCOORD) {
    O o;
    o.pos = float4(p, 1);
    o.clip = uv.x;
    o.cull = uv.y;
    return o;
}
}
dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
vs = dev.CreateVertexShader hlsl:s entry=vsmain
ps = dev.CreatePixelShader bytes:PSCLIP
rs = dev.CreateRasterizerState CullMode=NONE
imm.RSSetState rs
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
`

// quadData is a full-target quad of the built-in vertex whose u goes u0
// at the left edge to u1 at the right and whose v is v everywhere.
func quadData(u0, u1, v float64) string {
	corner := func(x, y, u float64) string { return fmt.Sprintf("%g %g 0.5 1 1 1 1 %g %g", x, y, u, v) }
	return "f32[" + strings.Join([]string{corner(-1, 1, u0), corner(1, 1, u1), corner(-1, -1, u0),
		corner(1, 1, u1), corner(1, -1, u1), corner(-1, -1, u0)}, "  ") + "]"
}

// TestClipDistanceScenario: SV_ClipDistance from an HLSL vertex shader
// clips, through every layer, the pixels whose interpolated distance is
// below 0 (expected here from the distance at each pixel centre, u0 + (x
// + 1/2)(u1 - u0)/8, in red as the pixel shader reads it, quantized as
// UNORM8 stores it); SV_CullDistance below 0 at every vertex culls the
// quad. PIPELINE_STATISTICS: CInvocations counts the culled triangles,
// CPrimitives and PSInvocations do not.
func TestClipDistanceScenario(t *testing.T) {
	const u0, u1 = -0.3, 0.7
	bc, err := dxbc.Assemble(psClip)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(strings.Replace(clipScene, "PSCLIP", hex.EncodeToString(bc), 1))
	sb.WriteString("clipq = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=" + quadData(u0, u1, 1) + "\n")
	sb.WriteString("culled = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=" + quadData(1, 1, -0.5) + "\n")
	sb.WriteString("whole = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=" + quadData(1, 1, 0.5) + "\n")
	sb.WriteString("imm.ClearRenderTargetView rtv #000000ff\nimm.IASetVertexBuffers 0 clipq Stride=36\nimm.Draw 6 0\n")
	drawn := 0
	for y := range 8 {
		for x := range 8 {
			d := u0 + (float64(x)+0.5)*(u1-u0)/8
			want := "#000000ff"
			if d >= 0 {
				want = fmt.Sprintf("#%02xff00ff", int(d*255+0.5))
				drawn++
			}
			fmt.Fprintf(&sb, "expect pixel t %d %d == %s\n", x, y, want)
		}
	}
	if drawn == 0 || drawn == 64 {
		t.Fatalf("the clip plane must cut the quad: %d pixels drawn", drawn)
	}
	sb.WriteString(`q = dev.CreateQuery Query=PIPELINE_STATISTICS
imm.ClearRenderTargetView rtv #000000ff
imm.Begin q
imm.IASetVertexBuffers 0 culled Stride=36
imm.Draw 6 0
imm.IASetVertexBuffers 0 whole Stride=36
imm.Draw 6 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.CInvocations == 4
expect data q.CPrimitives == 2
expect data q.PSInvocations == 64
expect pixel t 0 0 == #ffff00ff
expect violations == 0
`)
	r := runSource(t, sb.String())
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestClipDistanceFromGeometryShader: the geometry shader is the last
// stage before the rasterizer, so its SV_ClipDistance clips (the vertex
// shader writes none): the distance is the vertex's x, so the quad's left
// half (pixel centres at x < 0) is clipped away, pixel by pixel as computed
// here.
func TestClipDistanceFromGeometryShader(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`hlsl s {
struct V { float4 pos : SV_Position; };
struct G { float4 pos : SV_Position; float clip : SV_ClipDistance0; };
V vs(float3 p : POSITION) { V o; o.pos = float4(p, 1); return o; }
[maxvertexcount(3)]
void gs(triangle V v[3], inout TriangleStream<G> s) {
  for (uint i = 0; i < 3; i++) {
    G g;
    g.pos = v[i].pos;
    g.clip = v[i].pos.x;
    s.Append(g);
  }
}
float4 ps(float4 pos : SV_Position) : SV_Target { return float4(0, 1, 0, 1); }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader hlsl:s entry=vs target=vs_5_0
gs = dev.CreateGeometryShader hlsl:s entry=gs target=gs_5_0
ps = dev.CreatePixelShader hlsl:s entry=ps target=ps_5_0
rs = dev.CreateRasterizerState CullMode=NONE
imm.RSSetState rs
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 quad
imm.VSSetShader vs
imm.GSSetShader gs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv #000000ff
imm.Draw 6 0
`)
	for y := range 8 {
		for x := range 8 {
			want := "#000000ff"
			if (float64(x)+0.5)/4-1 >= 0 {
				want = "#00ff00ff"
			}
			fmt.Fprintf(&sb, "expect pixel t %d %d == %s\n", x, y, want)
		}
	}
	sb.WriteString("expect violations == 0\n")
	mustRun(t, sb.String())
}
