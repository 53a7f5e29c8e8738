package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// Sixteen output registers through the pipeline: Direct3D 11 gives a
// vertex, geometry or domain shader 32 (D3D11_VS_OUTPUT_REGISTER_COUNT and
// the others), and real programs pass 9 to 14 interpolants. The shaders
// here write SV_Position and fifteen float4 varyings (t[k] = c*a_k + b_k of
// the vertex's colour c), the pixel shader sums them with a weight each
// (w_k, its sign alternating), so that a register lost, swapped or
// interpolated wrong changes the colour; the expected pixels come from a
// Go reference of D3D11's perspective-correct interpolation at the pixel
// centres (varyRef), not from the simulator.

const varyN = 15 // varyings besides the position

func varyA(k int) float64 { return float64(k+1) / 8 }
func varyB(k int) [4]float64 {
	b := float64(k) / 16
	return [4]float64{b, 2 * b, -b, b / 2}
}
func varyW(k int) float64 {
	if k%2 == 1 {
		return -float64(k+1) / 4
	}
	return float64(k+1) / 4
}

// varyVerts is the triangle: NDC x, y, clip w and colour of each vertex
// (dyadic values: the shaders' products are exact in float32).
var varyVerts = [3]struct {
	x, y, w float64
	c       [4]float64
}{
	{-0.9, -0.9, 1, [4]float64{1, 0.25, 0.5, 0.75}},
	{-0.9, 0.9, 2, [4]float64{0.5, 1, 0.25, 0}},
	{0.9, -0.9, 4, [4]float64{0, 0.5, 1, 0.25}},
}

// varyingsHLSL is the shaders: vsmain (the varyings from the vertex
// shader), vspass with gsmain (from a geometry shader) or with hsmain and
// dsmain (from a domain shader, the tri domain at factor 1: the triangle
// itself), psmain the sum.
func varyingsHLSL() string {
	var shade, sum strings.Builder
	for k := range varyN {
		b := varyB(k)
		fmt.Fprintf(&shade, "    o.t[%d] = c * %g + float4(%g, %g, %g, %g);\n", k, varyA(k), b[0], b[1], b[2], b[3])
		fmt.Fprintf(&sum, "    s += i.t[%d] * %g;\n", k, varyW(k))
	}
	return `hlsl many {
struct VIn { float4 pos : POSITION; float4 c : COLOR; };
struct V { float4 pos : SV_Position; float4 t[` + fmt.Sprint(varyN) + `] : TEXCOORD; };
V shade(float4 pos, float4 c)
{
    V o;
    o.pos = pos;
` + shade.String() + `    return o;
}
V vsmain(VIn v) { return shade(v.pos, v.c); }
VIn vspass(VIn v) { return v; }
[maxvertexcount(3)]
void gsmain(triangle VIn p[3], inout TriangleStream<V> s)
{
    s.Append(shade(p[0].pos, p[0].c));
    s.Append(shade(p[1].pos, p[1].c));
    s.Append(shade(p[2].pos, p[2].c));
}
struct PC { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
PC consts(InputPatch<VIn, 3> ip)
{
    PC o;
    o.e[0] = 1; o.e[1] = 1; o.e[2] = 1; o.i = 1;
    return o;
}
[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("consts")]
[maxtessfactor(1.0)]
VIn hsmain(InputPatch<VIn, 3> ip, uint id : SV_OutputControlPointID) { return ip[id]; }
[domain("tri")]
V dsmain(PC pc, float3 uvw : SV_DomainLocation, const OutputPatch<VIn, 3> p)
{
    return shade(p[0].pos * uvw.x + p[1].pos * uvw.y + p[2].pos * uvw.z, p[0].c * uvw.x + p[1].c * uvw.y + p[2].c * uvw.z);
}
float4 psmain(V i) : SV_Target
{
    float4 s = 0;
` + sum.String() + `    return s;
}
}
`
}

// varyRef is the colour the pixel shader writes at the centre of pixel
// (x, y) of a size x size target, and whether the centre is inside the
// triangle by a margin (the edges' pixels are left to the rasterizer's
// rules, tested elsewhere).
func varyRef(x, y, size int) ([4]float64, bool) {
	var sx, sy [3]float64
	for i, v := range varyVerts {
		sx[i] = (v.x + 1) / 2 * float64(size)
		sy[i] = (1 - v.y) / 2 * float64(size)
	}
	px, py := float64(x)+0.5, float64(y)+0.5
	area := (sx[1]-sx[0])*(sy[2]-sy[0]) - (sx[2]-sx[0])*(sy[1]-sy[0])
	var l [3]float64
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		l[i] = ((sx[k]-sx[j])*(py-sy[j]) - (sy[k]-sy[j])*(px-sx[j])) / area
	}
	if min(l[0], l[1], l[2]) < 0.02 {
		return [4]float64{}, max(-l[0], -l[1], -l[2]) < 0.02 // outside by a margin: the clear colour
	}
	// Perspective-correct: each attribute over w, interpolated in
	// screen space, divided by the interpolated 1/w.
	var iw float64
	for i, v := range varyVerts {
		iw += l[i] / v.w
	}
	var out [4]float64
	for k := range varyN {
		b := varyB(k)
		for c := range 4 {
			var t float64
			for i, v := range varyVerts {
				t += l[i] * (v.c[c]*varyA(k) + b[c]) / v.w
			}
			out[c] += float64(float32(t/iw)) * varyW(k)
		}
	}
	return out, true
}

// varyScene draws the triangle through the stages in stages (the
// shaders' creation and binding lines) and expects the reference's
// pixels.
func varyScene(stages string, topology string) string {
	const size = 16
	var b strings.Builder
	b.WriteString(varyingsHLSL())
	b.WriteString(`dev, imm = D3D11CreateDevice Flags=DEBUG
ps = dev.CreatePixelShader hlsl:many entry=psmain target=ps_5_0
` + stages + `il = dev.CreateInputLayout hlsl:many entry=vspass target=vs_5_0 elem[POSITION 0 R32G32B32A32_FLOAT] elem[COLOR 0 R32G32B32A32_FLOAT]
rs = dev.CreateRasterizerState CullMode=NONE
`)
	var data []string
	for _, v := range varyVerts {
		data = append(data, fmt.Sprintf("%g %g 0 %g %g %g %g %g", v.x*v.w, v.y*v.w, v.w, v.c[0], v.c[1], v.c[2], v.c[3]))
	}
	fmt.Fprintf(&b, `vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[%s]
rt = dev.CreateTexture2D Width=%d Height=%d Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView rt
imm.IASetPrimitiveTopology %s
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb Stride=32
imm.PSSetShader ps
imm.RSSetState rs
imm.RSSetViewports 0 0 %d %d
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 0 0 0
imm.Draw 3 0
`, strings.Join(data, "  "), size, size, topology, size, size)
	n := 0
	for y := 1; y < size; y += 2 {
		for x := 1; x < size; x += 2 {
			want, ok := varyRef(x, y, size)
			if !ok {
				continue
			}
			fmt.Fprintf(&b, "expect pixel rt %d %d == f32[%g %g %g %g] within 0.001\n", x, y, want[0], want[1], want[2], want[3])
			n++
		}
	}
	return b.String()
}

// TestSixteenInterpolants: SV_Position and fifteen varyings (sixteen
// output registers, past the eight this GPU once had) from a vertex
// shader, from a geometry shader and from a domain shader draw the
// reference's pixels, each one inside the triangle the weighted sum of
// its fifteen interpolated registers, outside it the clear colour.
func TestSixteenInterpolants(t *testing.T) {
	for _, c := range []struct{ name, stages, topo string }{
		{"vertex", "vs = dev.CreateVertexShader hlsl:many entry=vsmain target=vs_5_0\nimm.VSSetShader vs\n", "TRIANGLELIST"},
		{"geometry", "vs = dev.CreateVertexShader hlsl:many entry=vspass target=vs_5_0\ngs = dev.CreateGeometryShader hlsl:many entry=gsmain target=gs_5_0\nimm.VSSetShader vs\nimm.GSSetShader gs\n", "TRIANGLELIST"},
		{"domain", "vs = dev.CreateVertexShader hlsl:many entry=vspass target=vs_5_0\nhs = dev.CreateHullShader hlsl:many entry=hsmain target=hs_5_0\nds = dev.CreateDomainShader hlsl:many entry=dsmain target=ds_5_0\nimm.VSSetShader vs\nimm.HSSetShader hs\nimm.DSSetShader ds\n", "PATCHLIST_3"},
	} {
		t.Run(c.name, func(t *testing.T) { runOK(t, varyScene(c.stages, c.topo)) })
	}
}
