package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/internal/oracle"
)

// TestDepthAndClipOutputs: SV_Depth (and at shader model 5
// SV_DepthGreaterEqual, SV_DepthLessEqual) written to oDepth, oDepthGE,
// oDepthLE, one component each, declared with dcl_output and listed with no
// register, beside oMask (and the listing assembles back to the same
// signature); SV_ClipDistance and SV_CullDistance packed into a
// register of their own (a float2 and two floats in o2), declared with
// dcl_output_siv; SV_SampleIndex a pixel shader's input declared
// dcl_input_ps_sgv ... sampleIndex. vkd3d-compiler reads each and spirv-val
// accepts it.
func TestDepthAndClipOutputs(t *testing.T) {
	vkd3d := oracle.Tool(t, "vkd3d-compiler")
	spirvVal := oracle.Tool(t, "spirv-val")
	dir := t.TempDir()
	for _, c := range []struct {
		name, src, target string
		want              []string
	}{
		{"depth", `struct O { float4 c : SV_Target; float d : SV_Depth; };
O main(float4 pos : SV_Position) { O o; o.c = pos; o.d = pos.z * 0.5; return o; }`, "ps_4_0", []string{
			"// SV_Depth                 0    N/A   oDepth    DEPTH   float    YES\n",
			"dcl_output o0.xyzw\ndcl_output oDepth\n", "mul oDepth, v0.z, l(0.500000)\n",
		}},
		{"conservative depth and coverage", `float4 main(float4 pos : SV_Position, out float d : SV_DepthGreaterEqual, out float e : SV_DepthLessEqual, out uint m : SV_Coverage) : SV_Target
{ d = pos.z + 0.1; e = pos.z; m = 3; return 1; }`, "ps_5_0", []string{
			"// SV_DepthGreaterEqual     0    N/A oDepthGE  DEPTHGE   float    YES\n",
			"// SV_DepthLessEqual        0    N/A oDepthLE  DEPTHLE   float    YES\n",
			"// SV_Coverage              0    N/A    oMask COVERAGE    uint    YES\n",
			"dcl_output oDepthGE\ndcl_output oDepthLE\ndcl_output oMask\n", "add oDepthGE, v0.z, l(0.100000)\n", "mov oDepthLE, v0.z\n", "mov oMask, l(3)\n",
		}},
		{"sample index", `float4 main(float4 pos : SV_Position, uint id : SV_SampleIndex) : SV_Target { return float4(1u << id, 0.25f, pos.x, 1.0f); }`, "ps_4_1", []string{
			"// SV_SampleIndex           0   x           1   SAMPLE    uint   x\n",
			"dcl_input_ps_siv linear noperspective v0.x, position\ndcl_input_ps_sgv constant v1.x, sampleIndex\n", "ishl r0.x, l(1), v1.x",
		}},
		{"clip, a variable named as its struct", `struct input { float4 position : POSITION; float distance : CLIP_DISTANCE; };
struct vertex { float4 position : SV_POSITION; float clip : SV_ClipDistance; };
void main(input vin, out vertex vertex) { vertex.position = vin.position; vertex.clip = vin.distance; }`, "vs_4_0", []string{
			"// SV_ClipDistance          0   x           1  CLIPDST   float   x\n", "dcl_output_siv o1.x, clip_distance\n", "mov o1.x, v1.x",
		}},
		{"clip and cull", `struct O { float4 pos : SV_Position; float2 uv : TEXCOORD; float2 c0 : SV_ClipDistance0; float c1 : SV_ClipDistance1; float k : SV_CullDistance0; };
O main(float4 p : POSITION) { O o; o.pos = p; o.uv = p.xy; o.c0 = p.xy; o.c1 = p.z; o.k = p.w; return o; }`, "vs_4_0", []string{
			"// SV_ClipDistance          0   xy          2  CLIPDST   float   xy\n",
			"// SV_ClipDistance          1     z         2  CLIPDST   float     z\n",
			"// SV_CullDistance          0      w        2  CULLDST   float      w\n",
			"dcl_output o1.xy\ndcl_output_siv o2.xy, clip_distance\ndcl_output_siv o2.z, clip_distance\ndcl_output_siv o2.w, cull_distance\n",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := compileOK(t, c.src, "main", c.target)
			ct, lst := listingHas(t, r, c.want)
			// The listing assembles back to the same output signature.
			bc, err := dxbc.Assemble(lst)
			if err != nil {
				t.Fatalf("the listing does not assemble: %v", err)
			}
			back, err := dxbc.Parse(bc)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := back.Chunk("OSGN"), ct.Chunk("OSGN"); a == nil || string(a.Data) != string(b.Data) {
				t.Errorf("the assembled listing's output signature differs")
			}
			oracleAccepts(t, vkd3d, spirvVal, dir, r)
		})
	}
}

// TestDepthAndClipErrors: where these outputs are refused, named.
func TestDepthAndClipErrors(t *testing.T) {
	for _, c := range []struct{ src, target, want string }{
		{"float4 main(out float d : SV_DepthGreaterEqual) : SV_Target { d = 0; return 0; }", "ps_4_0", "SV_DepthGreaterEqual needs shader model 5"},
		{"float4 main(out int d : SV_Depth) : SV_Target { d = 0; return 0; }", "ps_4_0", "SV_Depth of type 'int': a float"},
		{"float4 main(float d : SV_Depth) : SV_Target { return d; }", "ps_4_0", "SV_Depth is a pixel shader's output"},
		{"float4 main(out float d : SV_Depth) : SV_Position { d = 0; return 0; }", "vs_4_0", "SV_Depth is a pixel shader's output"},
		{"float4 main(float c : SV_ClipDistance) : SV_Target { return c; }", "ps_4_0", "SV_ClipDistance other than as a vertex, domain or geometry shader's output"},
		{"float4 main(uint s : SV_SampleIndex) : SV_Target { return s; }", "ps_4_0", "SV_SampleIndex is a pixel shader input of type uint, from ps_4_1 on"},
		{"float4 main(float s : SV_SampleIndex) : SV_Target { return s; }", "ps_5_0", "SV_SampleIndex is a pixel shader input of type uint"},
		{"float4 main(out uint c : SV_CullDistance) : SV_Position { c = 0; return 0; }", "vs_4_0", "SV_CullDistance of type 'uint'"},
	} {
		_, err := Compile([]byte(c.src), "t.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.src, err, c.want)
		}
	}
}
