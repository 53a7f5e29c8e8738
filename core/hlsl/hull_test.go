package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

const quadHullSrc = `cbuffer C { float2 factors; };
Texture2D<float> tex;
struct CP { float4 pos : POSITION; float2 tc : TEXCOORD; };
struct PC { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; };
PC consts(InputPatch<CP, 4> ip, uint pid : SV_PrimitiveID)
{
    PC o;
    o.edges[0] = factors.x; o.edges[1] = factors.x; o.edges[2] = ip[2].pos.x; o.edges[3] = factors.x;
    o.inside[0] = factors.y + tex[uint2(1, 1)];
    o.inside[1] = pid;
    return o;
}
[domain("quad")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("consts")]
[maxtessfactor(15.0)]
CP main(InputPatch<CP, 4> ip, uint id : SV_OutputControlPointID)
{
    return ip[id];
}
`

// TestHullShader: a quad hull shader compiles as fxc lays one out
// (core/umd/translate/testdata/tess/quad_hs.asm): hs_decls with the
// tessellator's declarations and the constant buffer, the control-point
// phase copying point vOutputControlPointID through v[r0.x + 0][r], and a
// fork phase writing the tess factors with their names, reading the input
// patch as vicp and the primitive id.
func TestHullShader(t *testing.T) {
	res, err := Compile([]byte(quadHullSrc), "hs.hlsl", "main", "hs_5_0")
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
		"hs_5_0\nhs_decls\ndcl_input_control_point_count 4\ndcl_output_control_point_count 4\ndcl_tessellator_domain domain_quad\n" +
			"dcl_tessellator_partitioning partitioning_fractional_odd\ndcl_tessellator_output_primitive output_triangle_cw\ndcl_hs_max_tessfactor l(15.000000)\n",
		"dcl_constantbuffer CB0[1], immediateIndexed\ndcl_resource_texture2d (float,float,float,float) t0\nhs_control_point_phase\ndcl_input vOutputControlPointID\ndcl_input v[4][0].xyzw\ndcl_input v[4][1].xy\n",
		"mov r0.x, vOutputControlPointID\nmov o0.xyzw, v[r0.x + 0][0].xyzw\nmov o1.xy, v[r0.x + 0][1].xyxx\nret\nhs_fork_phase\n",
		"dcl_input vPrim\n", "dcl_input vicp[4][0].x\n",
		"dcl_output_siv o2.x, finalQuadUeq1EdgeTessFactor\n", "dcl_output_siv o5.x, finalQuadVInsideTessFactor\n",
		"mov o2.x, vicp[2][0].x", "utof o5.x, vPrim",
		"// SV_InsideTessFactor      1   x           5  QUADINT   float   x\n",
	} {
		if !strings.Contains(lst, want) {
			t.Errorf("listing lacks %q:\n%s", want, lst)
		}
	}
	if chunks := c.Chunks; len(chunks) != 5 || chunks[1].FourCC != "ISGN" || chunks[2].FourCC != "OSGN" || chunks[3].FourCC != "PCSG" {
		t.Errorf("chunks %v, want RDEF ISGN OSGN PCSG SHEX", chunks)
	}
}

// TestHullShaderErrors: what a hull shader needs, named.
func TestHullShaderErrors(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		{`[patchconstantfunc("consts")]`, "", "needs the patchconstantfunc attribute"},
		{`[partitioning("fractional_odd")]`, `[partitioning("fractional")]`, `partitioning "fractional" is not one of`},
		{`"consts"`, `"nothere"`, "patch constant function 'nothere' not found"},
		{"uint id : SV_OutputControlPointID", "float4 id : COLOR", "not 'COLOR'"},
		{"o.edges[0] = factors.x;", "for (int i = 0; i < 4; i++) o.edges[i] = factors.x;", "indexed by a variable in a hull shader"},
		{"[maxtessfactor(15.0)]", "[maxtessfactor(65.0)]", "1 to 64"},
		{`"consts"`, `"main"`, "cannot be the entry point"},
		{"uint pid : SV_PrimitiveID", "uint pid : SV_PrimitiveID, uniform float k", "takes no uniform parameters ('k')"},
	} {
		src := strings.Replace(quadHullSrc, c.from, c.to, 1)
		_, err := Compile([]byte(src), "hs.hlsl", "main", "hs_5_0")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.from, err, c.want)
		}
	}
}
