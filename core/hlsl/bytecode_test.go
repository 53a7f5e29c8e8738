package hlsl

import (
	"bytes"
	"d3dsim/core/internal/oracle"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// corpusShader is one entry point of the back end's test corpus.
type corpusShader struct {
	name, src, entry, target string
}

// extraShaders cover what the real-world shaders and the intrinsic table
// do not: system values, integer and unsigned operations, dynamic
// constant-buffer indexing, texture methods, discard, do-while loops.
var extraShaders = []corpusShader{
	{"vertex id", `float4 main(uint id : SV_VertexID, uint inst : SV_InstanceID) : SV_Position {
	float2 uv = float2((id << 1) & 2, id & 2);
	return float4(uv * float2(2, -2) + float2(-1, 1), inst, 1);
}`, "main", "vs_4_0"},
	{"integer ops", `cbuffer C : register(b2) { int4 k; uint4 u; float4 v[8]; };
float4 main(nointerpolation int4 a : A, nointerpolation uint4 b : B) : SV_Target {
	int4 p = a * k + (a >> 1) - min(a, k) + max(-a, 3);
	uint4 q = b / (u | 1) + b % (u | 1) + (b >> 2) ^ ~b;
	float4 r = (float4)p + (float4)q + v[a.x & 7] + v[b.y & 3].wzyx;
	return r + (abs(a) == k ? 1 : 0) + (b < u ? 2 : 0);
}`, "main", "ps_4_0"},
	{"texture methods", `Texture2D t0 : register(t2); SamplerState s0 : register(s1);
float4 main(float4 p : SV_Position, float2 uv : TEXCOORD0) : SV_Target {
	float4 a = t0.Load(int3(p.xy, 1));
	float4 b = t0.SampleLevel(s0, uv, 2.5);
	float4 c = t0.Sample(s0, uv * 2);
	return a + b.wzyx + c;
}`, "main", "ps_5_0"},
	{"texture element types", `Texture2D<float> shadow : register(t0); Texture2D<float2> flow : register(t1); SamplerState s : register(s0);
struct PSIn { float4 p : SV_Position; nointerpolation uint id : ID; noperspective float2 uv : TEXCOORD0; centroid float3 n : NORMAL; };
float4 main(PSIn i) : SV_Target {
	float d = shadow.Sample(s, i.uv);
	float2 f = flow.Sample(s, i.uv);
	return float4(d, f, i.id) + i.n.xyzz;
}`, "main", "ps_4_0"},
	{"discard and do-while", `cbuffer P { float cut; int n; };
float4 main(float4 c : COLOR0) : SV_Target {
	if (c.a < cut) discard;
	clip(c.r - 0.5);
	float4 s = 0; int i = 0;
	do { i++; if (i == 2) continue; s += c; } while (i < n);
	return s;
}`, "main", "ps_5_0"},
	{"continue at loop end", `float4 main(float4 c : COLOR0) : SV_Target {
	float4 s = 0;
	for (int i = 0; i < 4; i++) { s += c; continue; }
	[loop] while (s.x < 10) { s += 1; if (s.y > 3) { s.y = 0; continue; } }
	return s;
}`, "main", "ps_4_0"},
	{"trig and bits", `bool4 b(float4 x) { return x != 0; }
float4 main(float4 a : A) : SV_Target {
	float4 s = sin(a) * cos(a.yxwz) + trunc(a) + rcp(a.x) + transpose(float2x2(a.xy, a.zw))[1].xyxy;
	return any(a > 1) ? s : all(b(a)) ? asfloat(asuint(s) ^ 1) : lerp(s, exp(a), 0.5);
}`, "main", "ps_5_0"},
	{"struct constants", `struct Light { float3 dir; float power; float4 color; };
cbuffer Lights : register(b1) { Light lights[3]; row_major float3x4 world; float2 pad; bool enabled; };
float4 main(float3 n : NORMAL, uint i : INDEX) : SV_Target {
	float4 c = 0;
	for (uint k = 0; k < 3; k++) c += saturate(dot(n, -lights[k].dir)) * lights[k].color * lights[k].power;
	return enabled ? c + mul(world, float4(n, 1)).xyzz : lights[i].color;
}`, "main", "ps_5_0"},
	{"early returns", `float4 g(float4 y) { if (y.x > 0) return y; return -y; }
float h(float x) { if (x > 2) { if (x > 3) return 3; return 2; } return x; }
float4 main(float4 a : A) : SV_Target { for (int i = 0; i < 3; i++) { if (a.x < i) return i; } return g(a) + h(a.x); }`, "main", "ps_5_0"},
	{"index by an input", `cbuffer C { float4 v[4]; row_major float3x3 m; }
float4 main(uint i : I) : SV_Position { return v[i] + m[1].x; }`, "main", "vs_4_0"},
	{"vertex passthrough sm5", `cbuffer M { float4x4 mvp; };
struct V { float4 p : SV_Position; float4 c : COLOR0; float2 t : TEXCOORD0; };
V main(float3 p : POSITION, float4 c : COLOR0, float2 t : TEXCOORD0, uint id : SV_InstanceID) {
	V o; o.p = mul(float4(p, 1), mvp); o.p.x += id; o.c = c; o.t = t; return o;
}`, "main", "vs_5_0"},
	{"sample grad and bias", `Texture2D t0 : register(t0); SamplerState s0 : register(s1);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, float4 k : K) : SV_Target {
	float2 dx = uv * 3 * k.w, dy = uv.yx - k.zw;
	return t0.SampleGrad(s0, uv, dx, dy) + t0.SampleBias(s0, uv * 2, k.z) * t0.SampleGrad(s0, uv, float2(0.01, 0), k.xy).wzyx;
}`, "main", "ps_4_0"},
	{"sample grad and bias sm5", `Texture2D t0 : register(t0); SamplerState s0 : register(s1);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0, float4 k : K) : SV_Target {
	float2 dx = uv * 3 * k.w, dy = uv.yx - k.zw;
	return t0.SampleGrad(s0, uv, dx, dy) + t0.SampleBias(s0, uv * 2, k.z) * t0.SampleGrad(s0, uv, float2(0.01, 0), k.xy).wzyx;
}`, "main", "ps_5_0"},
	{"texture dimensions", `Texture2D t : register(t1); SamplerState s;
float4 main(float4 p : SV_Position, nointerpolation uint m : M) : SV_Target {
	uint w, h, n; float fw, fh, fn; int iw, ih;
	t.GetDimensions(w, h);
	t.GetDimensions(m, fw, fh, fn);
	t.GetDimensions(m + 1, iw, ih, n);
	return float4(w, h, fw, fh) + float4(fn, iw, ih, n) + t.Sample(s, p.xy / float2(w, h));
}`, "main", "ps_4_0"},
	{"texture dimensions sm5 vertex", `Texture2D t : register(t0);
float4 main(uint id : SV_VertexID) : SV_Position {
	float w, h; t.GetDimensions(w, h);
	return float4(id / w, id / h, 0, 1);
}`, "main", "vs_5_0"},
	{"switch", `cbuffer C { uint4 v; };
float4 main(float4 c : COLOR0) : SV_Target {
	switch (v.x) { case 0: c *= 2; break; case 1: case 2: c += 1; break; default: c = c.wzyx; break; }
	[loop] for (int i = 0; i < 3; i++) { switch (v.y) { case 5: c.x += i; break; default: c.y -= 1; break; } }
	return c;
}`, "main", "ps_4_0"},
	{"index local arrays", `cbuffer C { uint4 u; };
struct S { float2 a; float b; };
float4 main(float4 c : COLOR0) : SV_Target {
	float t[4] = { c.x, c.y, c.z, c.w };
	S s[3];
	for (int i = 0; i < 3; i++) { s[i].a = c.xy * i; s[i].b = t[i + 1]; }
	t[u.x & 3] = 7;
	float4 v = c; for (int j = 0; j < 1; j++) v[u.y & 3] += 1; // (outside a loop fxc refuses it)
	float2x2 m = float2x2(c); m[u.z & 1] = s[u.w % 3].a;
	return float4(t[u.y & 3], s[u.x % 3].b, m[1]) + v;
}`, "main", "ps_5_0"},
	{"sample grad in a vertex shader", `Texture2D t : register(t3); SamplerState s : register(s0);
float4 main(float4 p : POSITION, float2 uv : TEXCOORD0) : SV_Position { return p + t.SampleGrad(s, uv, uv * 0.5, float2(0, 0.25)); }`, "main", "vs_4_0"},
}

// realWorld are the shaders of testdata/, by entry point and target.
var realWorld = []struct{ file, entry, target string }{
	{"imgui_vs.hlsl", "main", "vs_4_0"},
	{"imgui_ps.hlsl", "main", "ps_4_0"},
	{"nuklear.hlsl", "vs", "vs_5_0"},
	{"nuklear.hlsl", "ps", "ps_5_0"},
	{"tutorial06.hlsl", "VS", "vs_4_0"},
	{"tutorial06.hlsl", "PS", "ps_4_0"},
	{"tutorial06.hlsl", "PSSolid", "ps_5_0"},
	{"phong.hlsl", "VSMain", "vs_5_0"},
	{"phong.hlsl", "PSMain", "ps_5_0"},
}

// corpus is every shader the back-end tests compile: the real-world
// shaders, each intrinsic-table body for ps_4_0 and ps_5_0, and the extras.
func corpus(t *testing.T) []corpusShader {
	t.Helper()
	var out []corpusShader
	for _, r := range realWorld {
		out = append(out, corpusShader{r.file + "/" + r.entry, string(readTestdata(t, r.file)), r.entry, r.target})
	}
	for _, c := range intrinsicCases {
		src := "float4 main(float4 a : TEXCOORD0, float4 b : TEXCOORD1, float4 c : TEXCOORD2) : SV_Target {\n" + c.body + "\n}"
		for _, target := range []string{"ps_4_0", "ps_5_0"} {
			out = append(out, corpusShader{"intrinsic " + c.desc + " " + target, src, "main", target})
		}
	}
	return append(out, extraShaders...)
}

func stageOf(p *Program) dxbc.ProgramType { return p.Stage.programType() }

// TestBytecodeValidatesAndRoundTrips: every compiled shader is a container
// the runtime's checks accept for its stage, in SHDR for *_4_0 and SHEX
// (with dcl_globalFlags) for *_5_0, whose chunks decode and re-encode to
// the same bytes.
func TestBytecodeValidatesAndRoundTrips(t *testing.T) {
	for _, s := range corpus(t) {
		t.Run(s.name, func(t *testing.T) {
			r := compileOK(t, s.src, s.entry, s.target)
			sh, err := dxbc.Validate(r.Bytecode, stageOf(r.Program))
			if err != nil {
				t.Fatalf("%v\n%s", err, r.Program)
			}
			if got := sh.Program.Profile(); got != s.target {
				t.Errorf("profile %s, want %s", got, s.target)
			}
			code := "SHDR"
			if strings.HasSuffix(s.target, "_5_0") {
				code = "SHEX"
				if sh.Program.Instructions[0].Op != dxbc.OpDclGlobalFlags {
					t.Errorf("a shader model 5 program starts with %s, not dcl_globalFlags", sh.Program.Instructions[0].Op)
				}
			}
			var names []string
			for _, ch := range sh.Container.Chunks {
				names = append(names, ch.FourCC)
			}
			if got, want := strings.Join(names, " "), "RDEF ISGN OSGN "+code; got != want {
				t.Errorf("chunks %s, want %s", got, want)
			}
			again, err := sh.Container.Build()
			if err != nil || !bytes.Equal(again, r.Bytecode) {
				t.Errorf("the container rebuilds differently (err %v)", err)
			}
			words, err := sh.Program.Bytes()
			if err != nil || !bytes.Equal(words, sh.Container.Chunk(code).Data) {
				t.Errorf("the program re-encodes differently (err %v)", err)
			}
			if !bytes.Equal(sh.Inputs.Bytes(), sh.Container.Chunk("ISGN").Data) || !bytes.Equal(sh.Outputs.Bytes(), sh.Container.Chunk("OSGN").Data) {
				t.Error("a signature re-encodes differently")
			}
			if !bytes.Equal(sh.Reflection.Bytes(), sh.Container.Chunk("RDEF").Data) {
				t.Error("RDEF re-encodes differently")
			}
			if _, err := dxbc.Listing(sh.Container); err != nil {
				t.Errorf("listing: %v", err)
			}
		})
	}
}

// TestCompiledPairsLink: the vertex shader of each pair feeds its pixel
// shader, as the runtime checks at draw time.
func TestCompiledPairsLink(t *testing.T) {
	pairs := []struct{ file, vs, vsTarget, ps, psTarget string }{
		{"imgui", "main", "vs_4_0", "main", "ps_4_0"},
		{"nuklear.hlsl", "vs", "vs_5_0", "ps", "ps_5_0"},
		{"tutorial06.hlsl", "VS", "vs_4_0", "PS", "ps_4_0"},
		{"tutorial06.hlsl", "VS", "vs_4_0", "PSSolid", "ps_5_0"},
		{"phong.hlsl", "VSMain", "vs_5_0", "PSMain", "ps_5_0"},
	}
	for _, p := range pairs {
		t.Run(p.file+"/"+p.ps, func(t *testing.T) {
			vsFile, psFile := p.file, p.file
			if p.file == "imgui" {
				vsFile, psFile = "imgui_vs.hlsl", "imgui_ps.hlsl"
			}
			vs := compileOK(t, string(readTestdata(t, vsFile)), p.vs, p.vsTarget)
			ps := compileOK(t, string(readTestdata(t, psFile)), p.ps, p.psTarget)
			v, err := dxbc.Validate(vs.Bytecode, dxbc.VertexShader)
			if err != nil {
				t.Fatal(err)
			}
			f, err := dxbc.Validate(ps.Bytecode, dxbc.PixelShader)
			if err != nil {
				t.Fatal(err)
			}
			if err := dxbc.Link(v.Outputs, f.Inputs); err != nil {
				t.Error(err)
			}
		})
	}
	// And a pair that must not link: the pixel shader reads a semantic
	// the vertex shader does not write.
	vs := compileOK(t, "float4 main(float4 p : POSITION) : SV_Position { return p; }", "main", "vs_4_0")
	ps := compileOK(t, "float4 main(float4 c : COLOR0) : SV_Target { return c; }", "main", "ps_4_0")
	v, _ := dxbc.Validate(vs.Bytecode, dxbc.VertexShader)
	f, _ := dxbc.Validate(ps.Bytecode, dxbc.PixelShader)
	if err := dxbc.Link(v.Outputs, f.Inputs); err == nil || !strings.Contains(err.Error(), "COLOR0") {
		t.Errorf("COLOR0 linked: %v", err)
	}
}

// TestReflectionChunk reads the RDEF, ISGN and OSGN of the Phong pixel
// shader back through the dxbc package.
func TestReflectionChunk(t *testing.T) {
	r := compileOK(t, string(readTestdata(t, "phong.hlsl")), "PSMain", "ps_5_0")
	sh, err := dxbc.Validate(r.Bytecode, dxbc.PixelShader)
	if err != nil {
		t.Fatal(err)
	}
	rf := sh.Reflection
	if rf.Creator != Creator || rf.Major != 5 || rf.ProgramType != 0xffff {
		t.Errorf("header %q %d %#x", rf.Creator, rf.Major, rf.ProgramType)
	}
	var binds []string
	for _, b := range rf.Bindings {
		binds = append(binds, fmt.Sprintf("%s %s %d flags %d", b.Name, b.Type, b.BindPoint, b.Flags))
	}
	if got, want := strings.Join(binds, ", "), "Linear sampler 0 flags 0, DiffuseMap texture 0 flags 12, NormalMap texture 1 flags 12, PerFrame cbuffer 1 flags 0"; got != want {
		t.Errorf("bindings %s, want %s", got, want)
	}
	cb := rf.ConstantBuffer("PerFrame")
	if cb == nil {
		t.Fatal("no PerFrame")
	}
	for i, v := range r.CBuffers[len(r.CBuffers)-1].Vars {
		x := cb.Variables[i]
		if x.Name != v.Name || int(x.Offset) != v.Offset || int(x.Size) != v.Size || (x.Flags&dxbc.VariableUsed != 0) != v.Used || x.Type.Name != v.Type {
			t.Errorf("variable %d: %+v %+v, want %+v", i, x, *x.Type, v)
		}
	}
	if e := sh.Outputs.Elements[0]; e.Name != "SV_Target" || e.SystemValue != dxbc.SVUndefined || e.Mask != dxbc.XYZW || e.ReadWrite != 0 {
		t.Errorf("output %+v", e)
	}
	if e := sh.Inputs.Elements[0]; e.SystemValue != dxbc.SVPosition || e.ReadWrite != 0 {
		t.Errorf("SV_Position input %+v (the shader does not read it)", e)
	}

	// Texture2D<float2> has two components (flags 4); a struct's type
	// lists its members.
	r = compileOK(t, extraShaders[3].src, "main", "ps_4_0")
	sh, _ = dxbc.Validate(r.Bytecode, dxbc.PixelShader)
	if f := sh.Reflection.Bindings[2].Flags; sh.Reflection.Bindings[2].Name != "flow" || f != 4 {
		t.Errorf("flow binding %+v", sh.Reflection.Bindings[2])
	}
	r = compileOK(t, extraShaders[7].src, "main", "ps_5_0")
	sh, _ = dxbc.Validate(r.Bytecode, dxbc.PixelShader)
	lights := sh.Reflection.ConstantBuffer("Lights").Variables[0]
	if lt := lights.Type; lt.Class != dxbc.ClassStruct || lt.Elements != 3 || len(lt.Members) != 3 || lt.Members[2].Offset != 16 || lt.Name != "Light" || lt.Columns != 8 {
		t.Errorf("lights type %+v", *lt)
	}
	if w := sh.Reflection.ConstantBuffer("Lights").Variables[1].Type; w.Class != dxbc.ClassMatrixRows || w.Rows != 3 || w.Columns != 4 {
		t.Errorf("world type %+v", *w)
	}
}

// TestBytecodeOracle hands every compiled shader to vkd3d-compiler (DXBC
// to SPIR-V) and its output to spirv-val: an independent reader accepts
// what the back end writes. Skipped without the tools, except under CI=true.
func TestBytecodeOracle(t *testing.T) {
	vkd3d := oracle.Tool(t, "vkd3d-compiler")
	spirvVal := oracle.Tool(t, "spirv-val")
	dir := t.TempDir()
	passed := 0
	shaders := corpus(t)
	for _, s := range shaders {
		t.Run(s.name, func(t *testing.T) {
			r := compileOK(t, s.src, s.entry, s.target)
			if oracleAccepts(t, vkd3d, spirvVal, dir, r) {
				passed++
			}
		})
	}
	t.Logf("%d of %d shaders passed vkd3d-compiler and spirv-val", passed, len(shaders))
}

// oracleAccepts runs the shader through vkd3d-compiler and spirv-val,
// failing the test with the program when either refuses.
func oracleAccepts(t *testing.T, vkd3d, spirvVal, dir string, r *Result) bool {
	t.Helper()
	in := filepath.Join(dir, "in.dxbc")
	spv := filepath.Join(dir, "out.spv")
	if err := os.WriteFile(in, r.Bytecode, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(vkd3d, "-x", "dxbc-tpf", "-b", "spirv-binary", "-o", spv, in).CombinedOutput(); err != nil {
		t.Errorf("vkd3d-compiler refused it: %v\n%s\n%s", err, out, r.Program)
		return false
	}
	if out, err := exec.Command(spirvVal, spv).CombinedOutput(); err != nil {
		t.Errorf("spirv-val refused vkd3d's translation: %v\n%s\n%s", err, out, r.Program)
		return false
	}
	return true
}

// TestRandomProgramsBackEnd puts the random programs that compile through
// the same checks as the corpus: the bytes carry the IR, and vkd3d and
// spirv-val accept them.
func TestRandomProgramsBackEnd(t *testing.T) {
	vkd3d := oracle.Tool(t, "vkd3d-compiler")
	spirvVal := oracle.Tool(t, "spirv-val")
	dir := t.TempDir()
	next := randomPrograms(rand.New(rand.NewPCG(5, 2026)))
	compiled, passed := 0, 0
	for n := 0; n < 1500 && compiled < 150; n++ {
		src := next()
		target := []string{"ps_4_0", "ps_5_0"}[n%2]
		r, err := Compile([]byte(src), "rand.hlsl", "main", target)
		if err != nil {
			continue
		}
		compiled++
		checkCarriesIR(t, r)
		if oracleAccepts(t, vkd3d, spirvVal, dir, r) {
			passed++
		}
		if t.Failed() {
			t.Fatalf("program %d (%s):\n%s", n, target, src)
		}
	}
	if compiled < 100 {
		t.Errorf("only %d random programs compiled", compiled)
	}
	t.Logf("%d of %d random programs passed vkd3d-compiler and spirv-val", passed, compiled)
}

// irOps maps an SM4 opcode back to the IR's.
var irOps = func() map[dxbc.Opcode]Op {
	m := map[dxbc.Opcode]Op{}
	for o := Op(0); o < numOps; o++ {
		m[opcodes[o]] = o
	}
	return m
}()

// decodeIR reads a DXBC program back into the IR: the declarations and
// the code, written independently of the encoder from the token fields.
func decodeIR(t *testing.T, d *dxbc.Program) *Program {
	t.Helper()
	p := &Program{Major: int(d.Major), Minor: int(d.Minor), Stage: Vertex, Target: d.Profile()}
	if d.Type == dxbc.PixelShader {
		p.Stage = Pixel
	}
	interp := map[uint32]string{1: "constant", 2: "linear", 3: "linear centroid", 4: "linear noperspective"}
	for _, in := range d.Instructions {
		var reg int
		var mask uint8
		if len(in.Operands) > 0 && len(in.Operands[0].Indices) > 0 {
			reg, mask = int(in.Operands[0].Indices[0].Imm), in.Operands[0].WriteMask
		}
		switch in.Op {
		case dxbc.OpDclGlobalFlags:
		case dxbc.OpDclConstantBuffer:
			p.CBSizes = append(p.CBSizes, CBDecl{Slot: reg, Regs: int(in.Operands[0].Indices[1].Imm), Dynamic: in.Controls&1 != 0})
		case dxbc.OpDclSampler:
			p.Samplers = append(p.Samplers, SampDecl{Slot: reg, Cmp: in.Controls == uint32(dxbc.SamplerComparison)})
		case dxbc.OpDclResource:
			dims := map[uint32]TexDim{}
			for d, x := range dxbcDim {
				dims[uint32(x)] = d
			}
			bases := map[uint32]Base{uint32(dxbc.ReturnFloat): Float, uint32(dxbc.ReturnSInt): Int, uint32(dxbc.ReturnUInt): Uint}
			p.Textures = append(p.Textures, TexDecl{Slot: reg, Dim: dims[in.Controls], Base: bases[in.Extra[0]&0xf]})
		case dxbc.OpDclInput:
			p.Inputs = append(p.Inputs, IODecl{Reg: reg, Mask: mask})
		case dxbc.OpDclInputSGV:
			p.Inputs = append(p.Inputs, IODecl{Reg: reg, Mask: mask, SysVal: SysVal(in.Extra[0])})
		case dxbc.OpDclInputPS:
			p.Inputs = append(p.Inputs, IODecl{Reg: reg, Mask: mask, Interp: interp[in.Controls]})
		case dxbc.OpDclInputPSSIV:
			p.Inputs = append(p.Inputs, IODecl{Reg: reg, Mask: mask, SysVal: SysVal(in.Extra[0])})
		case dxbc.OpDclOutput:
			p.Outputs = append(p.Outputs, IODecl{Reg: reg, Mask: mask})
		case dxbc.OpDclOutputSIV:
			p.Outputs = append(p.Outputs, IODecl{Reg: reg, Mask: mask, SysVal: SysVal(in.Extra[0])})
		case dxbc.OpDclTemps:
			p.Temps = int(in.Extra[0])
		case dxbc.OpDclIndexableTemp:
			p.Indexables = append(p.Indexables, int(in.Extra[1]))
		default:
			op, ok := irOps[in.Op]
			if !ok {
				t.Fatalf("instruction %s is not an IR instruction", &in)
			}
			x := Instr{Op: op, Sat: in.Saturate()}
			if op == OpResinfo {
				// The return type is in the controls (a test bit is not).
				x.Uint = in.Controls&3 == dxbc.ResinfoUint
			} else if in.Test() == dxbc.TestZero {
				x.Test = TestZ
			}
			nd, _ := operandCounts(op)
			for k, o := range in.Operands {
				if k < nd {
					x.Dst = append(x.Dst, decodeDst(t, o))
				} else {
					x.Src = append(x.Src, decodeSrc(t, o))
				}
			}
			p.Code = append(p.Code, x)
		}
	}
	return p
}

func decodeDst(t *testing.T, o dxbc.Operand) Operand {
	t.Helper()
	switch o.Type {
	case dxbc.RegNull:
		return Operand{File: FileNull}
	case dxbc.RegTemp:
		return Operand{File: FileTemp, Index: int(o.Indices[0].Imm), Mask: o.WriteMask}
	case dxbc.RegOutput:
		return Operand{File: FileOutput, Index: int(o.Indices[0].Imm), Mask: o.WriteMask}
	case dxbc.RegIndexableTemp:
		x := Operand{File: FileIndexable, Index: int(o.Indices[0].Imm), Elem: int(o.Indices[1].Imm), Mask: o.WriteMask}
		if rel := o.Indices[1].Rel; rel != nil {
			r := decodeSrc(t, *rel)
			x.Rel = &r
		}
		return x
	}
	t.Fatalf("destination of register type %d", o.Type)
	return Operand{}
}

func decodeSrc(t *testing.T, o dxbc.Operand) Operand {
	t.Helper()
	var x Operand
	switch o.Type {
	case dxbc.RegImmediate32:
		x.File = FileImm
		for i := range x.Imm {
			x.Imm[i] = o.Imm[min(i, len(o.Imm)-1)] // one value: replicated
		}
	case dxbc.RegTemp:
		x.File = FileTemp
	case dxbc.RegInput:
		x.File = FileInput
	case dxbc.RegOutput:
		x.File = FileOutput
	case dxbc.RegConstantBuffer:
		x.File, x.Elem = FileCB, int(o.Indices[1].Imm)
		if rel := o.Indices[1].Rel; rel != nil {
			r := decodeSrc(t, *rel)
			x.Rel = &r
		}
	case dxbc.RegIndexableTemp:
		x.File, x.Elem = FileIndexable, int(o.Indices[1].Imm)
		if rel := o.Indices[1].Rel; rel != nil {
			r := decodeSrc(t, *rel)
			x.Rel = &r
		}
	case dxbc.RegResource:
		x.File = FileTex
	case dxbc.RegSampler:
		x.File = FileSamp
	default:
		t.Fatalf("source of register type %d", o.Type)
	}
	if len(o.Indices) > 0 {
		x.Index = int(o.Indices[0].Imm)
	}
	switch o.Mode {
	case dxbc.SelectSwizzle:
		x.Swz = o.Swiz
	case dxbc.SelectOne:
		x.Swz = [4]uint8{o.Swiz[0], o.Swiz[0], o.Swiz[0], o.Swiz[0]}
	}
	x.Neg = o.Modifier&dxbc.ModNeg != 0
	x.Abs = o.Modifier&dxbc.ModAbs != 0
	return x
}

// sameSrc compares two sources on the lanes the instruction reads.
func sameSrc(a, b Operand, lanes uint8) bool {
	if a.File != b.File || a.Index != b.Index || a.Elem != b.Elem || a.Neg != b.Neg || a.Abs != b.Abs || (a.Rel == nil) != (b.Rel == nil) {
		return false
	}
	if a.Rel != nil && !sameSrc(*a.Rel, *b.Rel, 1) {
		return false
	}
	if a.File == FileSamp {
		return true
	}
	for i := 0; i < 4; i++ {
		if lanes&(1<<i) == 0 {
			continue
		}
		if a.File == FileImm && a.Imm[i] != b.Imm[i] || a.File != FileImm && a.Swz[i] != b.Swz[i] {
			return false
		}
	}
	return true
}

// TestBytecodeCarriesTheIR decodes each compiled shader's bytes back into
// the IR and checks that the declarations and every instruction are the
// ones Compile lowered (sources compared on the lanes the instruction
// reads), then runs both programs on the same inputs: the bytes carry
// exactly what Run evaluates.
func TestBytecodeCarriesTheIR(t *testing.T) {
	for _, s := range corpus(t) {
		t.Run(s.name, func(t *testing.T) {
			checkCarriesIR(t, compileOK(t, s.src, s.entry, s.target))
		})
	}
}

// checkCarriesIR decodes the shader's bytes into the IR, compares, and
// runs both on the same inputs.
func checkCarriesIR(t *testing.T, r *Result) {
	t.Helper()
	c, err := dxbc.Parse(r.Bytecode)
	if err != nil {
		t.Fatal(err)
	}
	d, err := c.Program()
	if err != nil {
		t.Fatal(err)
	}
	got, want := decodeIR(t, d), r.Program
	norm := func(p *Program) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%s %d %d cb %v samp %v tex %v temps %d\n", p.Target, p.Stage, p.Major, p.CBSizes, p.Samplers, p.Textures, p.Temps)
		for _, io := range [][]IODecl{p.Inputs, p.Outputs} {
			for _, x := range io {
				if p.Stage == Vertex || x.SysVal != SysNone {
					x.Interp = ""
				}
				if x.SysVal == SysTarget {
					x.SysVal = SysNone // dcl_output has no system value
				}
				fmt.Fprintf(&b, "%+v\n", x)
			}
		}
		return b.String()
	}
	if norm(got) != norm(want) {
		t.Errorf("declarations decode as\n%s\nwant\n%s", norm(got), norm(want))
	}
	if len(got.Code) != len(want.Code) {
		t.Fatalf("%d instructions decoded, the IR has %d", len(got.Code), len(want.Code))
	}
	for i := range want.Code {
		g, w := &got.Code[i], &want.Code[i]
		same := g.Op == w.Op && g.Sat == w.Sat && len(g.Dst) == len(w.Dst) && len(g.Src) == len(w.Src)
		if w.Op == OpIf || w.Op == OpBreakc || w.Op == OpDiscard {
			same = same && g.Test == w.Test
		}
		for k := 0; same && k < len(w.Dst); k++ {
			a, b := g.Dst[k], w.Dst[k]
			same = a.File == b.File && (a.File == FileNull || a.Index == b.Index && a.Mask == b.Mask && a.Elem == b.Elem &&
				(a.Rel == nil) == (b.Rel == nil) && (a.Rel == nil || sameSrc(*a.Rel, *b.Rel, 1)))
		}
		for k := 0; same && k < len(w.Src); k++ {
			same = sameSrc(g.Src[k], w.Src[k], w.readLanes(k))
		}
		if !same {
			t.Errorf("instruction %d decodes as %s, the IR has %s", i, g, w)
		}
	}
	if t.Failed() {
		return
	}
	for seed := uint32(1); seed <= 3; seed++ {
		env := randomEnv(want, seed)
		o1, err1 := Run(want, env)
		o2, err2 := Run(got, env)
		if !errors.Is(err1, err2) && fmt.Sprint(err1) != fmt.Sprint(err2) {
			t.Fatalf("seed %d: IR %v, decoded %v", seed, err1, err2)
		}
		if err1 == nil && !reflect.DeepEqual(o1, o2) {
			t.Errorf("seed %d: IR gives %v, the decoded bytes %v", seed, o1, o2)
		}
	}
}

// randomEnv fills the inputs, the declared constant buffers and the
// texture fetches with deterministic values of a small range (so loops
// bounded by a constant end).
func randomEnv(p *Program, seed uint32) *Env {
	x := seed * 2654435761
	next := func() uint32 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	val := func() uint32 {
		v := next()
		if v&1 == 0 {
			return v >> 28 // a small integer
		}
		return math.Float32bits(float32(int32(v>>8)%2000) / 256)
	}
	env := &Env{MaxSteps: 1 << 16, Inputs: make([][4]uint32, 32), CB: make([][][4]uint32, 14)}
	for i := range env.Inputs {
		for k := range env.Inputs[i] {
			env.Inputs[i][k] = val()
		}
	}
	for _, c := range p.CBSizes {
		env.CB[c.Slot] = make([][4]uint32, c.Regs)
		for i := range env.CB[c.Slot] {
			for k := range env.CB[c.Slot][i] {
				env.CB[c.Slot][i][k] = val()
			}
		}
	}
	env.Sample = func(tex, samp int, u, v, lod float32) [4]float32 {
		return [4]float32{u + float32(tex), v * float32(samp+1), lod, 0.5}
	}
	env.Load = func(tex int, x, y, mip int32) [4]uint32 {
		return [4]uint32{uint32(x), uint32(y), uint32(mip), uint32(tex)}
	}
	return env
}
