package hlsl

import (
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/internal/oracle"
)

// The geometry shaders of these tests: a point made a quad (gs_4_0, as
// the billboard listing fxc printed), a triangle sent to the render-target
// slice and viewport of its instance (gs_5_0), two point streams, and a
// helper function appending to a line strip.
const (
	gsQuadSrc = `struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
struct GSOut { float4 pos : SV_Position; float4 col : COLOR; float2 uv : TEXCOORD; };
cbuffer C { float2 size; };
[maxvertexcount(4)]
void main(point VSOut p[1], uint id : SV_PrimitiveID, inout TriangleStream<GSOut> s)
{
    if (id & 1)
        return;
    const float2 c[4] = { {-1, 1}, {1, 1}, {-1, -1}, {1, -1} };
    for (int i = 0; i < 4; i++) {
        GSOut o;
        o.pos = p[0].pos + float4(c[i] * size, 0, 0);
        o.col = p[0].col;
        o.uv = c[i] * float2(0.5, -0.5) + 0.5;
        s.Append(o);
    }
    s.RestartStrip();
}
`
	gsLayerSrc = `cbuffer C { float4x4 m[6]; };
struct V { float4 pos : SV_Position; float3 n : NORMAL; };
struct O { float4 pos : SV_Position; float3 n : NORMAL; uint layer : SV_RenderTargetArrayIndex; uint vp : SV_ViewportArrayIndex; };
[instance(6)]
[maxvertexcount(3)]
void main(triangle V v[3], uint id : SV_GSInstanceID, inout TriangleStream<O> s)
{
    [unroll] for (int i = 0; i < 3; i++) {
        O o;
        o.pos = mul(v[i].pos, m[id]);
        o.n = v[i].n;
        o.layer = id;
        o.vp = id / 2;
        s.Append(o);
    }
}
`
	gsStreamsSrc = `struct V { float4 pos : SV_Position; };
struct A { float4 p : POSITION; };
struct B { float2 q : TEXCOORD; };
[maxvertexcount(2)]
void main(point V v[1], inout PointStream<A> s0, inout PointStream<B> s1)
{
    A a; a.p = v[0].pos; s0.Append(a);
    B b; b.q = v[0].pos.xy; s1.Append(b);
    s1.RestartStrip();
}
`
	gsHelperSrc = `struct V { float4 pos : SV_Position; float4 c : COLOR; };
void emitv(inout LineStream<V> s, V v, float d) { v.pos.x += d; s.Append(v); }
[maxvertexcount(4)]
void main(lineadj V v[4], inout LineStream<V> s)
{
    for (uint i = 1; i < 3; i++)
        emitv(s, v[i], 0.1);
    s.RestartStrip();
}
`
)

// TestGeometryShader: each shader (and one writing its input vertices,
// which are then a copy, as fxc takes them) compiles to what fxc's listing of it
// shows (the declarations in fxc's order: inputs v[N][r], vPrim and
// vGSInstanceID, temps, dcl_gsinstances, dcl_inputprimitive, per stream
// dcl_stream, dcl_outputtopology and the outputs, dcl_maxout; emit and cut,
// emit_stream and cut_stream at shader model 5), its output signature
// OSG5 at shader model 5 with each element's stream; vkd3d-compiler reads
// each and spirv-val accepts its translation.
func TestGeometryShader(t *testing.T) {
	vkd3d := oracle.Tool(t, "vkd3d-compiler")
	spirvVal := oracle.Tool(t, "spirv-val")
	dir := t.TempDir()
	for _, c := range []struct {
		name, src, target string
		want              []string
		streams           []uint32 // the output elements' streams (OSG5)
	}{
		{"quad", gsQuadSrc, "gs_4_0", []string{
			"gs_4_0\ndcl_constantbuffer CB0[1], immediateIndexed\ndcl_input_siv v[1][0].xyzw, position\ndcl_input v[1][1].xyzw\n" +
				"dcl_input vPrim\ndcl_temps 3\ndcl_indexableTemp x0[4], 4\ndcl_inputprimitive point\ndcl_outputtopology trianglestrip\n" +
				"dcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\ndcl_output o2.xy\ndcl_maxout 4\n",
			"and r0.x, vPrim, l(1)\n", "  emit\n", "endloop\ncut\nret\n",
		}, nil},
		{"quad 4.1", gsQuadSrc, "gs_4_1", []string{"gs_4_1\n", "  emit\n", "\ncut\n"}, nil},
		{"layers", gsLayerSrc, "gs_5_0", []string{
			"dcl_input_siv v[3][0].xyzw, position\ndcl_input v[3][1].xyz\ndcl_input vGSInstanceID\n",
			"dcl_gsinstances 6\ndcl_inputprimitive triangle\ndcl_stream m0\ndcl_outputtopology trianglestrip\n" +
				"dcl_output_siv o0.xyzw, position\ndcl_output o1.xyz\ndcl_output_siv o2.x, rendertarget_array_index\n" +
				"dcl_output_siv o2.y, viewport_array_index\ndcl_maxout 3\n",
			"emit_stream m0\n", "// SV_RenderTargetArrayIndex     0   x           2  RTINDEX    uint   x\n",
		}, []uint32{0, 0, 0, 0}},
		{"streams", gsStreamsSrc, "gs_5_0", []string{
			"dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output o0.xyzw\ndcl_stream m1\ndcl_outputtopology pointlist\ndcl_output o0.xy\ndcl_maxout 2\n",
			"mov o0.xyzw, v[0][0].xyzw\nemit_stream m0\nmov o0.xy, v[0][0].xyxx\nemit_stream m1\ncut_stream m1\n",
		}, []uint32{0, 1}},
		{"streams of one vertex type", `struct V { float4 pos : SV_Position; float4 col : COLOR; };
[maxvertexcount(2)]
void main(point V p[1], inout PointStream<V> s0, inout PointStream<V> s1)
{
    s0.Append(p[0]);
    V o;
    o.pos = p[0].pos + float4(0.25, 0, 0, 0);
    o.col = float4(1, 1, 0, 1);
    s1.Append(o);
}`, "gs_5_0", []string{
			"dcl_stream m0\ndcl_outputtopology pointlist\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\n" +
				"dcl_stream m1\ndcl_outputtopology pointlist\ndcl_output_siv o0.xyzw, position\ndcl_output o1.xyzw\ndcl_maxout 2\n",
			"mov o0.xyzw, v[0][0].xyzw\nmov o1.xyzw, v[0][1].xyzw\nemit_stream m0\nadd o0.xyzw, v[0][0].xyzw, l(0.250000, 0.000000, 0.000000, 0.000000)\n",
		}, []uint32{0, 0, 1, 1}},
		{"written input", `struct V { float4 pos : SV_Position; };
[maxvertexcount(3)]
void main(triangle V v[3], inout TriangleStream<V> s)
{
    v[0].pos.x += 1;
    for (int i = 0; i < 3; i++) s.Append(v[i]);
}`, "gs_4_0", []string{"add r0.x, v[0][0].xxxx, l(1.000000)\n", "v[2][0].xyzw", "  emit\n"}, nil},
		{"helper", gsHelperSrc, "gs_4_0", []string{
			"dcl_input_siv v[4][0].xyzw, position\ndcl_input v[4][1].xyzw\n", "dcl_inputprimitive lineadj\ndcl_outputtopology linestrip\n",
			"add o0.x, v[r0.x + 0][0].xxxx, l(0.100000)\n", "  emit\n", "endloop\ncut\n",
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := compileOK(t, c.src, "main", c.target)
			ct, _ := listingHas(t, r, c.want)
			osg5 := ct.Chunk("OSG5")
			if (osg5 != nil) != (c.streams != nil) {
				t.Fatalf("OSG5 chunk present %v, want %v", osg5 != nil, c.streams != nil)
			}
			if osg5 != nil {
				sig, err := dxbc.ParseSignature("OSG5", osg5.Data)
				if err != nil {
					t.Fatal(err)
				}
				if len(sig.Elements) != len(c.streams) {
					t.Fatalf("%d output elements, want %d", len(sig.Elements), len(c.streams))
				}
				for i, e := range sig.Elements {
					if e.Stream != c.streams[i] || e.Name != r.Outputs[i].Semantic {
						t.Errorf("element %d: %s stream %d, want %s stream %d", i, e.Name, e.Stream, r.Outputs[i].Semantic, c.streams[i])
					}
				}
			}
			if _, err := dxbc.Validate(r.Bytecode, dxbc.GeometryShader); err != nil {
				t.Error(err)
			}
			if c.streams == nil || c.streams[len(c.streams)-1] == 0 { // vkd3d-shader 1.2 takes one stream
				oracleAccepts(t, vkd3d, spirvVal, dir, r)
			}
		})
	}
}

// listingHas parses r's bytecode and lists it (failing the test on an
// error), reporting each of want that the listing lacks.
func listingHas(t *testing.T, r *Result, want []string) (*dxbc.Container, string) {
	t.Helper()
	ct, err := dxbc.Parse(r.Bytecode)
	if err != nil {
		t.Fatal(err)
	}
	lst, err := dxbc.Listing(ct)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range want {
		if !strings.Contains(lst, w) {
			t.Errorf("listing lacks %q:\n%s", w, lst)
		}
	}
	return ct, lst
}

// TestGeometryShaderErrors: what a geometry shader needs, named.
func TestGeometryShaderErrors(t *testing.T) {
	for _, c := range []struct{ src, edit, repl, target, want string }{
		{gsQuadSrc, "[maxvertexcount(4)]", "", "gs_4_0", "need a maxvertexcount attribute"},
		{gsQuadSrc, "[maxvertexcount(4)]", "[maxvertexcount(2000)]", "gs_4_0", "maxvertexcount(2000): 1 to 1024"},
		{gsQuadSrc, "[maxvertexcount(4)]", "[maxvertexcount(103)]", "gs_4_0", "maxvertexcount(103) times the 10 output components is past the 1024 scalars"},
		{gsQuadSrc, "point VSOut p[1]", "point VSOut p[3]", "gs_4_0", "a point input is an array of 1 vertices"},
		{gsQuadSrc, "point VSOut p[1]", "VSOut p[1]", "gs_4_0", "a geometry shader's inputs are the primitive's vertices"},
		{gsQuadSrc, "inout TriangleStream", "TriangleStream", "gs_4_0", "a stream parameter is inout"},
		{gsQuadSrc, "void main", "GSOut main", "gs_4_0", "a geometry shader returns void"},
		{gsQuadSrc, "s.Append(o);", "s.Append(p[0]);", "gs_4_0", "cannot convert from 'struct VSOut' to 'struct GSOut'"},
		{gsQuadSrc, "s.RestartStrip();", "s.RestartStrip(1);", "gs_4_0", "'RestartStrip': no matching 1 parameter"},
		{gsLayerSrc, "[instance(6)]", "[instance(40)]", "gs_5_0", "instance(40): 1 to 32"},
		{gsLayerSrc, "", "", "gs_4_0", "the instance attribute needs gs_5_0"},
		{gsLayerSrc, "[instance(6)]", "", "gs_4_0", "SV_GSInstanceID needs gs_5_0"},
		{gsStreamsSrc, "", "", "gs_4_0", "several output streams need gs_5_0"},
		{gsStreamsSrc, "PointStream<B>", "LineStream<B>", "gs_5_0", "with several streams each is a PointStream"},
		{gsQuadSrc, "uint id : SV_PrimitiveID", "float id : SV_PrimitiveID", "gs_4_0", "SV_PrimitiveID of type 'float'"},
	} {
		src := strings.Replace(c.src, c.edit, c.repl, 1)
		if c.edit == "" {
			src = c.src
		}
		_, err := Compile([]byte(src), "gs.hlsl", "main", c.target)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q -> %q (%s): error %v, want %q", c.edit, c.repl, c.target, err, c.want)
		}
	}
}
