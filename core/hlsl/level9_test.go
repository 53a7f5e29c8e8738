package hlsl

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// TestLevel9Profiles: each _level_9_x rule, a source that keeps it and one
// that breaks it, the refusal in fxc's form naming the construct and the
// profile.
func TestLevel9Profiles(t *testing.T) {
	const tex = "Texture2D t; SamplerState s;\n"
	for _, c := range []struct{ target, src, want string }{
		// Accepted: what shader model 2 expresses.
		{"ps_4_0_level_9_1", tex + "float4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv) * 2; }", ""},
		{"ps_4_0_level_9_3", tex + "float4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv) + ddx(uv.x); }", ""},
		{"ps_4_0_level_9_3", tex + "struct O { float4 a : SV_Target0; float4 b : SV_Target3; };\nO main(float2 uv : TEXCOORD) { O o; o.a = uv.x; o.b = uv.y; return o; }", ""},
		{"vs_4_0_level_9_1", "float4 main(float4 p : POSITION, int i : BLENDINDICES) : SV_Position { return p * (i + 1); }", ""},
		{"ps_4_0_level_9_0", tex + "float4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }", ""},
		{"ps_4_0_level_9_1", "float4 main(float4 c : COLOR) : SV_Target { clip(c.a - 0.5); return c; }", ""},
		// Integers are floats: no bitwise operators.
		{"ps_4_0_level_9_1", "int a; int b;\nfloat4 main() : SV_Target { return a & b; }", "test.hlsl(2,38): error X3535: Bitwise operations not supported on legacy targets."},
		{"vs_4_0_level_9_3", "int a;\nfloat4 main() : SV_Position { return ~a; }", "test.hlsl(2,38): error X3535: Bitwise operations not supported on legacy targets."},
		{"ps_4_0_level_9_1", "uint a;\nfloat4 main() : SV_Target { uint b = 1; b <<= a; return b; }", "error X3535"},
		// System values shader model 2 has no register for.
		{"vs_4_0_level_9_3", "float4 main(uint id : SV_VertexID) : SV_Position { return id; }", "error X4502: invalid vs_4_0_level_9_3 input semantic 'SV_VertexID'"},
		{"vs_4_0_level_9_3", "float4 main(uint id : SV_InstanceID) : SV_Position { return id; }", "input semantic 'SV_InstanceID'"},
		{"vs_4_0_level_9_1", "struct O { float4 p : SV_Position; float c : SV_ClipDistance0; };\nO main(float4 p : POSITION) { O o; o.p = p; o.c = p.x; return o; }", "output semantic 'SV_ClipDistance'"},
		// Render targets: one on 9_1, four on 9_3.
		{"ps_4_0_level_9_1", "struct O { float4 a : SV_Target0; float4 b : SV_Target1; };\nO main() { O o; o.a = 1; o.b = 0; return o; }", "'SV_Target1': feature level 9.1 writes 1 render target(s)"},
		{"ps_4_0_level_9_3", "float4 main() : SV_Target4 { return 1; }", "'SV_Target4': feature level 9.3 writes 4 render target(s)"},
		// Textures are sampled only, 2D, 3D or cube, 16 of them.
		{"ps_4_0_level_9_3", "Texture2D t;\nfloat4 main(float4 p : SV_Position) : SV_Target { return t.Load(int3(p.xy, 0)); }", "test.hlsl(2,1): error X3000: Load: not available on ps_4_0_level_9_3"},
		{"ps_4_0_level_9_3", "Texture2D t;\nfloat4 main() : SV_Target { uint w, h; t.GetDimensions(w, h); return w; }", "GetDimensions: not available on ps_4_0_level_9_3"},
		{"ps_4_0_level_9_3", "Texture2DArray t; SamplerState s;\nfloat4 main(float3 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }", "t0: ps_4_0_level_9_3 samples 1D, 2D, 3D and cube textures only (a Texture2DArray needs shader model 4)"},
		{"ps_4_0_level_9_3", "Buffer<float4> b;\nfloat4 main() : SV_Target { return b[0]; }", "a Buffer needs shader model 4"},
		{"ps_4_0_level_9_1", "Texture2D t : register(t16); SamplerState s;\nfloat4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }", "t16: ps_4_0_level_9_1 binds 16 textures, t0-t15"},
		{"ps_4_0_level_9_1", "Texture2D t; SamplerState s : register(s16);\nfloat4 main(float2 uv : TEXCOORD) : SV_Target { return t.Sample(s, uv); }", "s16: ps_4_0_level_9_1 binds 16 samplers, s0-s15"},
		// No texture reads in a vertex shader (vertex texture fetch is vs_3_0).
		{"vs_4_0_level_9_3", tex + "float4 main(float2 uv : TEXCOORD) : SV_Position { return t.SampleLevel(s, uv, 0); }", "SampleLevel: not available on vs_4_0_level_9_3, whose vertex shaders read no textures"},
		// Gradients: ps_2_0 has none, 9_3 has them.
		{"ps_4_0_level_9_1", "float4 main(float2 uv : TEXCOORD) : SV_Target {\n return ddx(uv.x) + 1; }", "test.hlsl(2,1): error X3000: ddx: not available on ps_4_0_level_9_1"},
		{"ps_4_0_level_9_1", tex + "float4 main(float2 uv : TEXCOORD) : SV_Target { return t.SampleGrad(s, uv, 1, 1); }", "SampleGrad: not available on ps_4_0_level_9_1"},
		// No doubles.
		{"ps_4_0_level_9_3", "double d;\nfloat4 main() : SV_Target { return float(d * d); }", "double: not available on ps_4_0_level_9_3, which has no doubles"},
	} {
		keptOrRefused(t, c.target, c.target, c.src, c.want)
	}
}

// TestLevel9Bytecode: a _level_9_x profile's blob is the Aon9 chunk, then
// its base profile's chunks byte for byte (the shader model 4 program a
// feature level 10+ device runs does not change), for the sources of SDL's and
// Nuklear's renderers, which fxc compiles with these profiles.
func TestLevel9Bytecode(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile("../dxbc/testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, c := range []struct{ src, entry, target, base string }{
		{read("sdl_D3D11_VertexShader.hlsl"), "main", "vs_4_0_level_9_1", "vs_4_0"},
		{read("nuklear_d3d11.hlsl"), "vs", "vs_4_0_level_9_0", "vs_4_0"},
		{read("nuklear_d3d11.hlsl"), "ps", "ps_4_0_level_9_0", "ps_4_0"},
		{read("nuklear_d3d11.hlsl"), "ps", "ps_4_0_level_9_3", "ps_4_0"},
	} {
		l9 := compileOK(t, c.src, c.entry, c.target)
		base := compileOK(t, c.src, c.entry, c.base)
		a, err := dxbc.Parse(l9.Bytecode)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := dxbc.Parse(base.Bytecode)
		if a.Chunks[0].FourCC != "Aon9" || len(a.Chunks) != len(b.Chunks)+1 {
			t.Errorf("%s %s: the chunks are not Aon9 and %s's", c.entry, c.target, c.base)
			continue
		}
		for i, ch := range b.Chunks {
			if a.Chunks[i+1].FourCC != ch.FourCC || !bytes.Equal(a.Chunks[i+1].Data, ch.Data) {
				t.Errorf("%s %s: chunk %s differs from %s's", c.entry, c.target, ch.FourCC, c.base)
			}
		}
	}
}

// TestLevel9Corpus compiles every fxc header below D3DSIM_FXC_SOURCES
// whose blob carries an Aon9 chunk (fxc compiled it for a _level_9_x
// profile: DirectXTK's effects, /T ps_4_0_level_9_1) with that profile:
// fxc took each, so none may be refused by a level 9 rule or by the
// Direct3D 9 back end, and each one's Aon9 code must use fxc's t# (pixel)
// or oT# (vertex) registers, which the other stage's code meets, and
// hold to the Direct3D 9 validator's rules d3d9Run checks (which fxc's
// own Aon9 code holds to as well). It skips
// without the variable (the corpus is a fetched copy of a public
// project). go test ./core/hlsl -run Level9Corpus -v prints the count,
// the instruction slots beside fxc's and how many mappings are fxc's.
func TestLevel9Corpus(t *testing.T) {
	n, notMore, sameMaps := 0, 0, 0
	var slots [2]int
	for _, inc := range fxcCorpusHeaders(t) {
		src, entry, file, c, p := fxcCorpusShader(t, inc)
		if p == nil || c.Chunk("Aon9") == nil {
			continue
		}
		target := p.Profile() + "_level_9_1"
		r, err := Compile(src, file, entry, target)
		if err != nil {
			if _, err0 := Compile(src, file, entry, p.Profile()); err0 == nil {
				t.Errorf("%s (%s %s): refused by a level 9 rule fxc does not have: %v", inc, entry, target, err)
			}
			continue
		}
		n++
		// The Direct3D 9 code's size beside fxc's.
		theirs, err := dxbc.ParseLevel9(c.Chunk("Aon9").Data)
		if err != nil {
			t.Errorf("%s: fxc's Aon9: %v", inc, err)
			continue
		}
		oc, _ := dxbc.Parse(r.Bytecode)
		ours, err := dxbc.ParseLevel9(oc.Chunk("Aon9").Data)
		if err != nil {
			t.Fatalf("%s: %v", inc, err)
		}
		// The registers the two meet in: the t# a pixel shader declares,
		// the oT# a vertex shader writes.
		if a, b := level9Links(t, ours), level9Links(t, theirs); a != b {
			t.Errorf("%s (%s): the Direct3D 9 code's inputs and outputs are %s, fxc's %s", inc, entry, a, b)
		}
		if fmt.Sprint(ours.CBMaps, ours.Samplers, ours.Runtime) == fmt.Sprint(theirs.CBMaps, theirs.Samplers, theirs.Runtime) {
			sameMaps++
		}
		// The code holds to the Direct3D 9 validator's rules (d3d9Run).
		in := make([][4]float32, 16)
		for i := range in {
			in[i] = [4]float32{0.5, float32(i), 0.25, 1}
		}
		for _, l := range []*dxbc.Level9{ours, theirs} {
			// fxc's code too: the rules d3d9Run holds are not stricter than
			// fxc's.
			if _, _, err := d3d9Run(l.Code, in); err != nil {
				text, _ := dxbc.DisassembleD3D9(l.Code)
				t.Errorf("%s (%s, %s's): %v\n%s", inc, entry, map[bool]string{true: "d3dsim", false: "fxc"}[l == ours], err, text)
			}
		}
		a, _, _ := dxbc.D3D9Slots(ours.Code)
		b, _, _ := dxbc.D3D9Slots(theirs.Code)
		slots[0], slots[1] = slots[0]+a, slots[1]+b
		if a <= b {
			notMore++
		}
	}
	t.Logf("%d shaders compiled for their _level_9_1 profile, each with its Aon9 chunk: %d Direct3D 9 instruction slots in all (fxc's: %d), %d of them no more than fxc's, %d with fxc's mappings", n, slots[0], slots[1], notMore, sameMaps)
}

// level9Links lists the t# a Direct3D 9 pixel shader declares, or the
// oT# a vertex shader writes, in order.
func level9Links(t *testing.T, l *dxbc.Level9) string {
	text, err := dxbc.DisassembleD3D9(l.Code)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range strings.Fields(strings.NewReplacer(",", " ", ".", " ").Replace(text)) {
		if len(f) == 2 && f[0] == 't' || len(f) == 3 && f[:2] == "oT" {
			seen[f] = true
		}
	}
	return fmt.Sprint(slices.Sorted(maps.Keys(seen)))
}
