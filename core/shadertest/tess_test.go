package shadertest

import (
	"strings"
	"testing"
)

// tessCases: a quad patch whose four control points are the target's
// corners, tessellated at the uniform's factor; the domain shader places
// each point bilinearly and colours it with the patch's edge factor (blue
// 2/4), so the probe sees the domain shader's pixels over the whole target (attributes
// are indented: a line that starts with a bracket opens a section).
const tessCases = `[require]
shader model >= 5.0

[vertex shader]
struct cp { float4 pos : SV_Position; };
cp main(uint id : SV_VertexID)
{
    cp o;
    float2 c = float2(id == 1 || id == 2, id >= 2);
    o.pos = float4(c * float2(2, -2) + float2(-1, 1), 0, 1);
    return o;
}

[hull shader]
float factor;
struct cp { float4 pos : SV_Position; };
struct pc { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
pc consts(InputPatch<cp, 4> ip)
{
    pc o;
    o.edges[0] = factor; o.edges[1] = factor; o.edges[2] = factor; o.edges[3] = factor;
    o.inside[0] = factor; o.inside[1] = factor;
    return o;
}
    [domain("quad")]
    [partitioning("integer")]
    [outputtopology("triangle_cw")]
    [outputcontrolpoints(4)]
    [patchconstantfunc("consts")]
cp main(InputPatch<cp, 4> ip, uint id : SV_OutputControlPointID)
{
    return ip[id];
}

[domain shader]
struct cp { float4 pos : SV_Position; };
struct pc { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
struct out_v { float4 pos : SV_Position; float4 color : COLOR; };
    [domain("quad")]
out_v main(pc p, float2 uv : SV_DomainLocation, const OutputPatch<cp, 4> patch)
{
    out_v o;
    o.pos = lerp(lerp(patch[0].pos, patch[1].pos, uv.x), lerp(patch[3].pos, patch[2].pos, uv.x), uv.y);
    o.color = float4(0.0, 1.0, p.edges[0] / 4, 1.0);
    return o;
}

[pixel shader]
struct out_v { float4 pos : SV_Position; float4 color : COLOR; };
float4 main(out_v i) : SV_Target
{
    return i.color;
}

[test]
uniform 0 float 2
draw 4 control point patch list 4
probe (0, 0, 640, 480) rgba(0.0, 1.0, 0.5, 1.0)
`

// noHullCase draws a patch list with no hull shader.
const noHullCase = `[vertex shader]
float4 main(uint id : SV_VertexID) : SV_Position
{
    return float4(0, 0, 0, 1);
}

[pixel shader]
float4 main() : SV_Target
{
    return 1;
}

[test]
draw 3 control point patch list 3
`

// TestTessellationCases: a case with hull and domain shaders runs
// through the whole stack and passes (the domain shader's colours where
// the probes look, the factor from the uniform); a patch list without a
// hull shader is skipped with the reason.
func TestTessellationCases(t *testing.T) {
	rep := &Report{}
	rep.RunFile("tess.shader_test", []byte(tessCases), Options{Scenarios: true})
	rep.RunFile("nohull.shader_test", []byte(noHullCase), Options{Scenarios: true})
	if len(rep.Errors) > 0 {
		t.Fatalf("unreadable: %v", rep.Errors)
	}
	if len(rep.Results) != 2 {
		t.Fatalf("%d results, want 2", len(rep.Results))
	}
	if r := rep.Results[0]; r.Outcome != Pass {
		t.Errorf("%s: %s %q\n%s", r.Name, r.Outcome, r.Reason, r.Scenario)
	}
	if r := rep.Results[1]; r.Outcome != Skip || !strings.Contains(r.Reason, "a patch-list topology without a hull shader") {
		t.Errorf("%s: %s %q, want a skip", r.Name, r.Outcome, r.Reason)
	}
}
