package scenario

import (
	"strings"
	"testing"
)

// tessDomainHLSL is the quad domain shader of tessScene written in HLSL:
// the point placed bilinearly between the four control points, coloured
// with its domain location.
const tessDomainHLSL = `hlsl quadds {
struct CP { float4 pos : POSITION; float2 tc : TEXCOORD; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
struct DSOut { float4 pos : SV_Position; float4 color : COLOR; };
[domain("quad")]
DSOut main(PC pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> patch)
{
    DSOut o;
    float4 a = lerp(patch[0].pos, patch[1].pos, uv.x);
    float4 b = lerp(patch[3].pos, patch[2].pos, uv.x);
    o.pos = lerp(a, b, uv.y);
    o.color = float4(uv, 0, 1);
    return o;
}
}
`

// TestTessellationHLSLDomain: the tessellated quad of
// TestTessellationScenario with its domain shader compiled from HLSL by
// CreateDomainShader hlsl:NAME (ds_5_0) draws the same pixels as the
// bytecode one: 9 domain-shader invocations, each pixel its domain
// location.
func TestTessellationHLSLDomain(t *testing.T) {
	scene := tessScene(t)
	i := strings.Index(scene, "ds = dev.CreateDomainShader ")
	j := i + strings.Index(scene[i:], "\n")
	var b strings.Builder
	b.WriteString(tessDomainHLSL)
	b.WriteString(scene[:i] + "ds = dev.CreateDomainShader hlsl:quadds" + scene[j:])
	b.WriteString(`q = dev.CreateQuery Query=PIPELINE_STATISTICS
imm.Begin q
imm.Draw 4 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.DSInvocations == 9
expect data q.CInvocations == 8
expect data q.PSInvocations == 4096
`)
	for _, p := range [][2]int{{0, 0}, {8, 40}, {63, 0}, {31, 32}, {63, 63}} {
		r := int(float64(p[0])*255/64 + 255/128.0 + 0.5)
		g := int(float64(p[1])*255/64 + 255/128.0 + 0.5)
		b.WriteString("expect pixel bb " + itoa(p[0]) + " " + itoa(p[1]) + " == #" + hex2(r) + hex2(g) + "00ff\n")
	}
	b.WriteString("expect violations == 0\n")
	mustRun(t, b.String())
}
