package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

const quadDomainSrc = `struct CP { float4 pos : POSITION; float2 tc : TEXCOORD; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; float3 tint : TINT; };
struct DSOut { float4 pos : SV_Position; float4 color : COLOR; };
[domain("quad")]
DSOut main(PC pc, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> patch, uint id : SV_PrimitiveID)
{
    DSOut o;
    float4 a = lerp(patch[0].pos, patch[1].pos, uv.x);
    float4 b = lerp(patch[3].pos, patch[2].pos, uv.x);
    o.pos = lerp(a, b, uv.y);
    o.color = float4(uv * pc.edges[2] + patch[1].tc, pc.tint.z, id);
    return o;
}
`

// TestDomainShader: a quad domain shader compiles to what fxc's listing
// shows: the domain and control-point count declared, vDomain, vicp[4][r],
// vpc# (a tess factor with its name) and vPrim read, the patch constants
// in PCSG one register each.
func TestDomainShader(t *testing.T) {
	res, err := Compile([]byte(quadDomainSrc), "ds.hlsl", "main", "ds_5_0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := dxbc.Parse(res.Bytecode)
	if err != nil {
		t.Fatal(err)
	}
	lst, err := dxbc.Listing(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ds_5_0\ndcl_globalFlags refactoringAllowed\ndcl_input_control_point_count 4\ndcl_tessellator_domain domain_quad\n",
		"dcl_input vDomain.xy\n", "dcl_input vicp[4][0].xyzw\n", "dcl_input vicp[4][1].xy\n",
		"dcl_input_siv vpc2.x, finalQuadUeq1EdgeTessFactor\n", "dcl_input vpc6.z\n", "dcl_input vPrim\n",
		"// SV_TessFactor            3   x           3 QUADEDGE   float\n",
		"// SV_InsideTessFactor      1   x           5  QUADINT   float\n",
		"// TINT                     0   xyz         6     NONE   float     z\n",
		"vicp[3][0].xyzw", "vpc2.x",
	} {
		if !strings.Contains(lst, want) {
			t.Errorf("listing lacks %q:\n%s", want, lst)
		}
	}
}

// TestDomainShaderErrors: what a domain shader needs, named.
func TestDomainShaderErrors(t *testing.T) {
	for _, c := range []struct{ edit, want string }{
		{`[domain("quad")]`, "need a domain attribute"},
		{`"quad"`, "\"hex\" is not"},
		{"OutputPatch<CP, 4>", "a patch has 1 to 32 control points"},
		{"float inside[2] : SV_InsideTessFactor;", "SV_INSIDETESSFACTOR2: the quad domain has 2"},
		{"float2 uv : SV_DomainLocation", "SV_DomainLocation of type 'float3'"},
	} {
		repl := map[string]string{
			`[domain("quad")]`:                       "",
			`"quad"`:                                 `"hex"`,
			"OutputPatch<CP, 4>":                     "OutputPatch<CP, 33>",
			"float inside[2] : SV_InsideTessFactor;": "float inside[3] : SV_InsideTessFactor;",
			"float2 uv : SV_DomainLocation":          "float3 uv : SV_DomainLocation",
		}[c.edit]
		src := strings.Replace(quadDomainSrc, c.edit, repl, 1)
		_, err := Compile([]byte(src), "ds.hlsl", "main", "ds_5_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.edit, err, c.want)
		}
	}
}
