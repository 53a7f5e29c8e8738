package hlsl

import (
	"math"
	"os"
	"strings"
	"testing"
)

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRealWorldShadersCompile compiles the shaders of well-known D3D11
// code: the ImGui and Nuklear backends, an SDK-style lighting tutorial and
// a Phong/normal-mapping lesson.
func TestRealWorldShadersCompile(t *testing.T) {
	tests := []struct {
		file, entry, target string
		ins, outs           string // semantic:register:mask lists
		bindings            string
	}{
		{"imgui_vs.hlsl", "main", "vs_4_0", "POSITION0:0:xy COLOR0:1:xyzw TEXCOORD0:2:xy", "SV_POSITION0:0:xyzw COLOR0:1:xyzw TEXCOORD0:2:xy", "cbuffer vertexBuffer b0"},
		{"imgui_ps.hlsl", "main", "ps_4_0", "SV_POSITION0:0:xyzw COLOR0:1:xyzw TEXCOORD0:2:xy", "SV_Target0:0:xyzw", "sampler sampler0 s0, texture texture0 t0"},
		{"nuklear.hlsl", "vs", "vs_5_0", "POSITION0:0:xy COLOR0:1:xyzw TEXCOORD0:2:xy", "SV_POSITION0:0:xyzw COLOR0:1:xyzw TEXCOORD0:2:xy", "cbuffer buffer0 b0"},
		{"nuklear.hlsl", "ps", "ps_5_0", "SV_POSITION0:0:xyzw COLOR0:1:xyzw TEXCOORD0:2:xy", "SV_Target0:0:xyzw", "sampler sampler0 s0, texture texture0 t0"},
		{"tutorial06.hlsl", "VS", "vs_4_0", "POSITION0:0:xyzw NORMAL0:1:xyz", "SV_POSITION0:0:xyzw TEXCOORD0:1:xyz", "cbuffer ConstantBuffer b0"},
		{"tutorial06.hlsl", "PS", "ps_4_0", "SV_POSITION0:0:xyzw TEXCOORD0:1:xyz", "SV_Target0:0:xyzw", "cbuffer ConstantBuffer b0"},
		{"tutorial06.hlsl", "PSSolid", "ps_5_0", "SV_POSITION0:0:xyzw TEXCOORD0:1:xyz", "SV_Target0:0:xyzw", "cbuffer ConstantBuffer b0"},
		{"phong.hlsl", "VSMain", "vs_5_0", "POSITION0:0:xyz NORMAL0:1:xyz TANGENT0:2:xyz TEXCOORD0:3:xy", "SV_Position0:0:xyzw TEXCOORD1:1:xyz NORMAL0:2:xyz TANGENT0:3:xyz TEXCOORD0:4:xy", "cbuffer PerObject b0"},
		{"phong.hlsl", "PSMain", "ps_5_0", "SV_Position0:0:xyzw TEXCOORD1:1:xyz NORMAL0:2:xyz TANGENT0:3:xyz TEXCOORD0:4:xy", "SV_Target0:0:xyzw", "sampler Linear s0, texture DiffuseMap t0, texture NormalMap t1, cbuffer PerFrame b1"},
	}
	sig := func(els []SigElement) string {
		var s []string
		for _, e := range els {
			s = append(s, e.Semantic+string(rune('0'+e.Index))+":"+string(rune('0'+e.Register))+":"+maskString(e.Mask))
		}
		return strings.Join(s, " ")
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.entry, func(t *testing.T) {
			r := compileOK(t, string(readTestdata(t, tc.file)), tc.entry, tc.target)
			if got := sig(r.Inputs); got != tc.ins {
				t.Errorf("inputs %q, want %q", got, tc.ins)
			}
			if got := sig(r.Outputs); got != tc.outs {
				t.Errorf("outputs %q, want %q", got, tc.outs)
			}
			var b []string
			for _, x := range r.Bindings {
				prefix := map[BindKind]string{BindCBuffer: "b", BindTexture: "t", BindSampler: "s"}[x.Kind]
				b = append(b, x.Kind.String()+" "+x.Name+" "+prefix+string(rune('0'+x.Slot)))
			}
			if got := strings.Join(b, ", "); got != tc.bindings {
				t.Errorf("bindings %q, want %q", got, tc.bindings)
			}
			if len(r.Warnings) != 0 {
				t.Errorf("warnings: %v", r.Warnings)
			}
		})
	}
}

// ortho is the projection ImGui's backend uploads (column vectors: the
// translation in the last column, which column_major storage puts in cb0[3]).
func imguiOrtho(l, r, top, b float32) [4][4]uint32 {
	m := [4][4]float32{
		{2 / (r - l), 0, 0, 0},
		{0, 2 / (top - b), 0, 0},
		{0, 0, 0.5, 0},
		{(r + l) / (l - r), (top + b) / (b - top), 0.5, 1},
	}
	var u [4][4]uint32
	for i := range m {
		u[i] = bits4(m[i])
	}
	return u
}

func TestImGuiShadersRun(t *testing.T) {
	vs := compileOK(t, string(readTestdata(t, "imgui_vs.hlsl")), "main", "vs_4_0")
	m := imguiOrtho(0, 800, 0, 600)
	cb := [][4]uint32{m[0], m[1], m[2], m[3]}
	out, err := Run(vs.Program, &Env{
		Inputs: [][4]uint32{bits4([4]float32{400, 150, 0, 0}), bits4([4]float32{1, 0.5, 0.25, 1}), bits4([4]float32{0.5, 0.75, 0, 0})},
		CB:     [][][4]uint32{cb},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Column-major storage: cb0[c] is column c of the matrix; mul(M, v)
	// is the sum over columns.
	mf := func(c, r int) float32 { return math.Float32frombits(m[c][r]) }
	v := [4]float32{400, 150, 0, 1}
	var want [4]float32
	for r := 0; r < 4; r++ {
		acc := float32(mf(0, r) * v[0])
		for c := 1; c < 4; c++ {
			acc = float32(mf(c, r)*v[c]) + acc
		}
		want[r] = acc
	}
	if got := floats4(out.Regs[0]); got != want {
		t.Errorf("position %v, want %v\n%s", got, want, vs.Program)
	}
	if got := floats4(out.Regs[1]); got != [4]float32{1, 0.5, 0.25, 1} {
		t.Errorf("colour %v", got)
	}
	if got := floats4(out.Regs[2]); got[0] != 0.5 || got[1] != 0.75 {
		t.Errorf("uv %v", got)
	}

	ps := compileOK(t, string(readTestdata(t, "imgui_ps.hlsl")), "main", "ps_4_0")
	var sampled [3]float32
	pout, err := Run(ps.Program, &Env{
		Inputs: [][4]uint32{{}, bits4([4]float32{1, 0.5, 0.25, 1}), bits4([4]float32{0.5, 0.75, 0, 0})},
		Sample: func(tex, samp int, u, v, lod float32) [4]float32 {
			sampled = [3]float32{u, v, lod}
			return [4]float32{0.5, 0.5, 0.5, 0.25}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if sampled != [3]float32{0.5, 0.75, 0} {
		t.Errorf("sampled at %v", sampled)
	}
	if got := floats4(pout.Regs[0]); got != [4]float32{0.5, 0.25, 0.125, 0.25} {
		t.Errorf("pixel %v", got)
	}
}

func TestTutorialLoopOverConstantArray(t *testing.T) {
	ps := compileOK(t, string(readTestdata(t, "tutorial06.hlsl")), "PS", "ps_4_0")
	cb := make([][4]uint32, 17)
	dirs := [2][4]float32{{0, 0, -1, 0}, {0.5, 0.5, -0.5, 0}}
	cols := [2][4]float32{{1, 0.5, 0, 1}, {0, 0.5, 2, 1}}
	cb[12], cb[13] = bits4(dirs[0]), bits4(dirs[1])
	cb[14], cb[15] = bits4(cols[0]), bits4(cols[1])
	n := [4]float32{0.25, 0.5, -0.75, 0}
	out, err := Run(ps.Program, &Env{Inputs: [][4]uint32{{}, bits4(n)}, CB: [][][4]uint32{cb}})
	if err != nil {
		t.Fatal(err)
	}
	var want [4]float32
	for i := 0; i < 2; i++ {
		d := dp(dirs[i], n, 3)
		for k := 0; k < 4; k++ {
			want[k] = want[k] + sat(d*cols[i][k])
		}
	}
	want[3] = 1
	if got := floats4(out.Regs[0]); got != want {
		t.Errorf("got %v, want %v\n%s", got, want, ps.Program)
	}
}

func TestPhongPixelShaderRuns(t *testing.T) {
	ps := compileOK(t, string(readTestdata(t, "phong.hlsl")), "PSMain", "ps_5_0")
	cb1 := [][4]uint32{
		bits4([4]float32{0, -1, 0, 16}),     // LightDir, SpecPower
		bits4([4]float32{0, 5, 5, 0}),       // EyePos
		bits4([4]float32{0.1, 0.1, 0.1, 0}), // Ambient
		bits4([4]float32{0.8, 0.8, 0.8, 1}), // Diffuse
		bits4([4]float32{1, 1, 1, 1}),       // Specular
	}
	alpha := float32(1)
	env := &Env{
		Inputs: [][4]uint32{{}, bits4([4]float32{0, 0, 0, 0}), bits4([4]float32{0, 1, 0, 0}), bits4([4]float32{1, 0, 0, 0}), bits4([4]float32{0.5, 0.5, 0, 0})},
		CB:     [][][4]uint32{nil, cb1},
		Sample: func(tex, samp int, u, v, lod float32) [4]float32 {
			if tex == 1 {
				return [4]float32{0.5, 0.5, 1, 1} // flat normal map
			}
			return [4]float32{1, 0.5, 0.25, alpha}
		},
	}
	out, err := Run(ps.Program, env)
	if err != nil {
		t.Fatal(err)
	}
	// Float64 reference: n = (0,1,0), l = (0,1,0), v = normalize(0,5,5).
	diff := 1.0
	r := [3]float64{0, 1, 0}
	vv := [3]float64{0, 5 / math.Sqrt(50), 5 / math.Sqrt(50)}
	spec := math.Pow(r[1]*vv[1], 16)
	tex := [4]float64{1, 0.5, 0.25, 1}
	want := [4]float64{}
	for k := 0; k < 4; k++ {
		amb := []float64{0.1, 0.1, 0.1, 0}[k]
		dif := []float64{0.8, 0.8, 0.8, 1}[k]
		want[k] = tex[k] * (amb + dif*diff)
		if k < 3 {
			want[k] += spec
		}
	}
	got := floats4(out.Regs[0])
	for k := range got {
		if math.Abs(float64(got[k])-want[k]) > 1e-5 {
			t.Errorf("lane %d = %v, want %v\n%s", k, got[k], want[k], ps.Program)
		}
	}
	if out.Discarded {
		t.Error("discarded an opaque pixel")
	}
	alpha = 0.05
	out, err = Run(ps.Program, env)
	if err != nil || !out.Discarded {
		t.Errorf("a transparent pixel: discarded %v, err %v", out != nil && out.Discarded, err)
	}
}

func TestTextureMethods(t *testing.T) {
	src := `Texture2D t0 : register(t2); SamplerState s0 : register(s1);
float4 main(float4 p : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
	float4 a = t0.Load(int3(p.xy, 1));
	float4 b = t0.SampleLevel(s0, uv, 2.5);
	return a + b.wzyx;
}`
	r := compileOK(t, src, "main", "ps_5_0")
	var loadAt [4]int32
	var sampleAt [5]float32
	out, err := Run(r.Program, &Env{
		Inputs: [][4]uint32{bits4([4]float32{3.5, 7.5, 0, 1}), bits4([4]float32{0.25, 0.75, 0, 0})},
		Load: func(tex int, x, y, mip int32) [4]uint32 {
			loadAt = [4]int32{int32(tex), x, y, mip}
			return bits4([4]float32{1, 2, 3, 4})
		},
		Sample: func(tex, samp int, u, v, lod float32) [4]float32 {
			sampleAt = [5]float32{float32(tex), float32(samp), u, v, lod}
			return [4]float32{10, 20, 30, 40}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if loadAt != [4]int32{2, 3, 7, 1} || sampleAt != [5]float32{2, 1, 0.25, 0.75, 2.5} {
		t.Errorf("load at %v, sample at %v\n%s", loadAt, sampleAt, r.Program)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{41, 32, 23, 14} {
		t.Errorf("got %v", got)
	}
}

func TestTextureElementTypesAndInterpolation(t *testing.T) {
	src := `Texture2D<float> shadow : register(t0); Texture2D<float2> flow : register(t1); SamplerState s : register(s0);
struct PSIn { float4 p : SV_Position; nointerpolation uint id : ID; noperspective float2 uv : TEXCOORD0; };
float4 main(PSIn i) : SV_Target {
	float d = shadow.Sample(s, i.uv);
	float2 f = flow.Sample(s, i.uv);
	return float4(d, f, i.id);
}`
	r := compileOK(t, src, "main", "ps_4_0")
	text := r.Program.String()
	for _, want := range []string{"dcl_input_ps constant v1.x", "dcl_input_ps linear noperspective v2.xy"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
	out, err := Run(r.Program, &Env{Inputs: [][4]uint32{{}, {9}, {}},
		Sample: func(tex, samp int, u, v, lod float32) [4]float32 { return [4]float32{float32(tex + 1), 5, 6, 7} }})
	if err != nil {
		t.Fatal(err)
	}
	if got := floats4(out.Regs[0]); got != [4]float32{1, 2, 5, 9} {
		t.Errorf("got %v", got)
	}
}
