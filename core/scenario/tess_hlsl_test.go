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

// tessHullHLSL is tessScene's quad hull shader in HLSL: the control
// points passed on (ip[id]: v[r0.x + 0][r]), cb0's factors (edges .x,
// inside .y) as the patch constants.
const tessHullHLSL = `hlsl quadhs {
cbuffer C { float2 factors; };
struct CP { float4 pos : POSITION; float2 tc : TEXCOORD; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
PC consts(InputPatch<CP, 4> ip, uint pid : SV_PrimitiveID)
{
    PC o;
    o.edges[0] = factors.x; o.edges[1] = factors.x; o.edges[2] = factors.x; o.edges[3] = factors.x;
    o.inside[0] = factors.y;
    o.inside[1] = factors.y;
    return o;
}
[domain("quad")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("consts")]
[maxtessfactor(64.0)]
CP main(InputPatch<CP, 4> ip, uint id : SV_OutputControlPointID)
{
    return ip[id];
}
}
`

// TestTessellationHLSLDomain: the tessellated quad of
// TestTessellationScenario with its domain shader compiled from HLSL by
// CreateDomainShader hlsl:NAME (ds_5_0) draws the same pixels as the
// bytecode one: 9 domain-shader invocations, each pixel its domain
// location.
func TestTessellationHLSLDomain(t *testing.T) {
	tessHLSLRun(t, false)
}

// TestTessellationHLSLHull: the same with the hull shader from HLSL too
// (hs_5_0: a control-point phase and a fork phase): the same pixels.
func TestTessellationHLSLHull(t *testing.T) {
	tessHLSLRun(t, true)
}

func tessHLSLRun(t *testing.T, hull bool) {
	t.Helper()
	scene := tessScene(t)
	swap := func(method, with string) {
		i := strings.Index(scene, method)
		j := i + strings.Index(scene[i:], "\n")
		scene = scene[:i] + method + with + scene[j:]
	}
	var b strings.Builder
	b.WriteString(tessDomainHLSL)
	swap("ds = dev.CreateDomainShader ", "hlsl:quadds")
	if hull {
		b.WriteString(tessHullHLSL)
		swap("hs = dev.CreateHullShader ", "hlsl:quadhs")
	}
	b.WriteString(scene)
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
	r := mustRun(t, b.String())
	// The shader list (the page's Shaders view) names each block's target.
	list, _ := r.Shaders()
	found := map[string]string{}
	for _, s := range list {
		found[s.Block] = s.Target
	}
	if found["quadds"] != "ds_5_0" || hull && found["quadhs"] != "hs_5_0" {
		t.Errorf("shader targets %v, want quadds ds_5_0 and quadhs hs_5_0", found)
	}
}
