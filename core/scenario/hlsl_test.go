package scenario

import (
	"encoding/hex"
	"strings"
	"testing"

	"d3dsim/core/hlsl"
)

// hlslShaders are the built-ins vs_passthrough and ps_vertexcolor in HLSL:
// the same math, so the same pixels.
const hlslShaders = `hlsl shaders {
struct VSIn { float3 pos : POSITION; float4 col : COLOR; };
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(VSIn i)
{
    VSOut o;
    o.pos = float4(i.pos, 1);
    o.col = i.col;
    return o;
}
float4 psmain(VSOut i) : SV_Target
{
    return i.col;
}
// A pixel shader that wants what vsmain does not write.
float4 psuv(float4 pos : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    return float4(uv, 0, 1);
}
}
`

// triangleScene draws mesh:triangle with vs and ps on ctx (imm, or dc
// recorded into a command list the immediate context executes).
func triangleScene(opts, vs, ps string, deferred bool) string {
	ctx := "imm"
	if deferred {
		ctx = "dc"
	}
	var b strings.Builder
	b.WriteString(opts + hlslShaders + `dev, imm = D3D11CreateDevice Flags=DEBUG
dc = dev.CreateDeferredContext
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader ` + vs + `
ps = dev.CreatePixelShader ` + ps + `
`)
	for _, l := range []string{"OMSetRenderTargets rtv", "RSSetViewports 0 0 64 64", "IASetPrimitiveTopology TRIANGLELIST",
		"IASetVertexBuffers 0 vb Stride=36", "VSSetShader vs", "PSSetShader ps", "ClearRenderTargetView rtv 0.1 0.1 0.2 1", "Draw 3 0"} {
		b.WriteString(ctx + "." + l + "\n")
	}
	if deferred {
		b.WriteString("cl = dc.FinishCommandList FALSE\nimm.ExecuteCommandList cl FALSE\n")
	}
	b.WriteString("sc.Present 0\nimm.ClearState\ndc.ClearState\nvs.Release\nps.Release\nimm.Flush\n")
	return b.String()
}

// TestHLSLTriangleMatchesBuiltin: the triangle drawn by HLSL shaders
// (compiled when the scenario loads, translated by the UMD, run from GPU
// memory) has the pixels of the built-in one, on the immediate context
// and through command lists (the driver's and the runtime's), with and
// without asynchrony.
func TestHLSLTriangleMatchesBuiltin(t *testing.T) {
	const builtin = "f9164f2f3c182eef" // hello-triangle.d3ds
	for _, opts := range []string{"", "option sync=true\n", "option driver.commandlists=false\n"} {
		for _, deferred := range []bool{false, true} {
			src := triangleScene(opts, "hlsl:shaders entry=vsmain target=vs_5_0", "hlsl:shaders entry=psmain target=ps_4_0", deferred) +
				"expect hash bb == " + builtin + "\nexpect violations == 0\n"
			s, err := Load("hlsl.d3ds", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
				t.Errorf("%q deferred=%v: %q", opts, deferred, sum.Failures)
			}
		}
	}
}

// TestShaderCodeAllocation: CreateVertexShader with bytecode puts the
// translated program in an allocation of its own, and the draw names it.
func TestShaderCodeAllocation(t *testing.T) {
	src := triangleScene("", "hlsl:shaders entry=vsmain", "hlsl:shaders entry=psmain", false)
	src = strings.Replace(src, "ps = dev.CreatePixelShader", "expect calls CreateVertexShader CalcPrivateShaderSize CreateVertexShader pfnAllocateCb DxgkDdiCreateAllocation\nps = dev.CreatePixelShader", 1)
	src = strings.Replace(src, "vs.Release\n", "vs.Release\nexpect calls Release DestroyShader\nimm.Flush\nexpect calls Flush pfnDeallocateCb\n", 1)
	s, err := Load("alloc.d3ds", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
		t.Fatal(sum.Failures)
	}
}

func compileHex(t *testing.T, entry, target string, edit func([]byte) []byte) string {
	t.Helper()
	src := hlslShaders[strings.Index(hlslShaders, "\n")+1 : strings.LastIndex(hlslShaders, "}")]
	res, err := hlsl.Compile([]byte(src), "t.hlsl", entry, target)
	if err != nil {
		t.Fatal(err)
	}
	b := append([]byte(nil), res.Bytecode...)
	if edit != nil {
		b = edit(b)
	}
	return "bytes:" + hex.EncodeToString(b)
}

// TestBadShaderBytecode: bytecode the runtime refuses is E_INVALIDARG at
// the create, naming what is wrong; signatures that do not link drop the
// draw with the debug layer's message naming the semantic. Never a crash.
func TestBadShaderBytecode(t *testing.T) {
	psOK := compileHex(t, "psmain", "ps_5_0", nil)
	tests := []struct {
		desc, vs, ps string
		body         string // after the scene, or "" for a run that stops
		failure      string // in the failures
	}{
		{"good bytes", compileHex(t, "vsmain", "vs_5_0", nil), psOK, "expect hash bb == f9164f2f3c182eef\n", ""},
		{"wrong checksum", compileHex(t, "vsmain", "vs_5_0", func(b []byte) []byte { b[5] ^= 1; return b }), psOK, "", "checksum"},
		{"truncated chunk", compileHex(t, "vsmain", "vs_5_0", func(b []byte) []byte { return b[:len(b)-8] }), psOK, "", "E_INVALIDARG"},
		{"vs bytecode to CreatePixelShader", compileHex(t, "vsmain", "vs_5_0", nil), compileHex(t, "vsmain", "vs_5_0", nil), "", "not the pixel shader this call creates"},
		{"not DXBC", "bytes:00112233", psOK, "", "E_INVALIDARG"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("bad.d3ds", []byte(triangleScene("", tt.vs, tt.ps, false)+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			sum := r.Finish()
			if ok := tt.failure == ""; sum.OK() != ok {
				t.Fatalf("ok %v, want %v: %q", sum.OK(), ok, sum.Failures)
			}
			if f := strings.Join(sum.Failures, "\n"); !strings.Contains(f, tt.failure) {
				t.Errorf("failures %q do not say %q", f, tt.failure)
			}
		})
	}
}

// TestShaderLinkage: a pixel shader input the vertex shader does not
// output drops the draw (DROPPED), the debug layer naming the semantic; a
// built-in shader links by its signatures like any other.
func TestShaderLinkage(t *testing.T) {
	tests := []struct{ desc, vs, ps, msg string }{
		{"missing semantic", "hlsl:shaders entry=vsmain", "hlsl:shaders entry=psuv", "TEXCOORD0"},
		{"bytecode with built-in", "hlsl:shaders entry=vsmain", "builtin:ps_texture", "TEXCOORD0"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			src := strings.Replace(triangleScene("", tt.vs, tt.ps, false), "imm.Draw 3 0\n", "imm.Draw 3 0\nexpect hr == DROPPED\n", 1) +
				"expect pixel bb 32 40 == #1a1a33ff\n"
			r := runSource(t, src)
			if sum := r.Finish(); !sum.OK() {
				t.Fatal(sum.Failures)
			}
			found := false
			for _, e := range r.Events() {
				if e.Name == "Draw" && strings.Contains(e.Msg, "D3D11 ERROR") && strings.Contains(e.Msg, tt.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("no debug message naming %q", tt.msg)
			}
		})
	}
}

// TestShaderSourceErrors: load-time errors of source blocks and shader
// values name the scenario's line, in fxc's form for HLSL.
func TestShaderSourceErrors(t *testing.T) {
	tests := []struct{ desc, src, want string }{
		{"compile error at the scenario's line", "# a comment\nhlsl s {\nfloat4 main() : SV_Target\n{\n    return undefinedThing;\n}\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s\n",
			"x.d3ds:5:12: hlsl block s (entry main, target ps_5_0): x.d3ds(5,12): error X3004: undeclared identifier 'undefinedThing'"},
		{"unknown block", "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:nope\n", "x.d3ds:2:28: no hlsl block named nope"},
		{"unclosed block", "hlsl s {\nfloat4 main() : SV_Target { return 0; }\n", "unclosed '{'"},
		{"text after the brace", "hlsl s { float4 x;\n}\n", "x.d3ds:1:10: expected end of line after '{'"},
		{"block in a block", "repeat 2 {\nhlsl s {\n}\n}\n", "x.d3ds:2:1: hlsl blocks go at the top level"},
		{"defined twice", "hlsl s {\n}\nhlsl s {\n}\n", "x.d3ds:3:1: source block s is already defined at line 1"},
		{"odd hex", "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader bytes:123\n", "an even number of hexadecimal digits"},
		{"bad hex", "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader bytes:12zz\n", "not hexadecimal"},
		{"entry= with bytes", "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader bytes:1234 entry=main\n", "entry= is for hlsl:NAME"},
		{"bad fxc header", "fxc h {\nconst BYTE g[] = { 1, 2, x };\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader fxc:h\n", "x.d3ds:1:1: fxc block h"},
		{"tex2D without flags=", "hlsl s {\nsampler sm;\nfloat4 main(float2 uv : UV) : SV_Target { return tex2D(sm, uv); }\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s\n",
			"x.d3ds:3:50: hlsl block s (entry main, target ps_5_0): x.d3ds(3,50): error X3000: 'tex2D': shader model 1-3 sampling"},
		{"tex2D with flags=ENABLE_BACKWARDS_COMPATIBILITY", "hlsl s {\nsampler sm;\nfloat4 main(float2 uv : UV) : SV_Target { return tex2D(sm, uv); }\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s flags=ENABLE_BACKWARDS_COMPATIBILITY\nps.Release\n", ""},
		{"half uniform with flags= as D3DCOMPILE_ name", "hlsl s {\nhalf h;\nfloat4 main() : SV_Target { return h; }\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s target=ps_4_0 flags=D3DCOMPILE_ENABLE_BACKWARDS_COMPATIBILITY\nps.Release\n", ""},
		{"unknown flag", "hlsl s {\nfloat4 main() : SV_Target { return 1; }\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s flags=ENABLE_BACKWARDS_COMPATIBILITY|DEBUG\n",
			`x.d3ds:5:41: flags= of CreatePixelShader: unknown compile flag "DEBUG" (known: ENABLE_BACKWARDS_COMPATIBILITY)`},
		{"flags= with bytes", "dev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader bytes:1234 flags=ENABLE_BACKWARDS_COMPATIBILITY\n", "flags= is for hlsl:NAME"},
		{"braces in comments and strings", "hlsl s {\n// }\n/* } */\n#define X \"}\"\nfloat4 main() : SV_Target { return 1; }\n}\ndev, imm = D3D11CreateDevice\nps = dev.CreatePixelShader hlsl:s\nps.Release\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			_, err := Load("x.d3ds", []byte(tt.src))
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestFxcBlock: bytecode from an fxc /Fh header draws like the HLSL.
func TestFxcBlock(t *testing.T) {
	src := hlslShaders[strings.Index(hlslShaders, "\n")+1 : strings.LastIndex(hlslShaders, "}")]
	res, err := hlsl.Compile([]byte(src), "t.hlsl", "psmain", "ps_5_0")
	if err != nil {
		t.Fatal(err)
	}
	var h strings.Builder
	h.WriteString("fxc header {\n// generated by fxc /Fh\nconst BYTE g_psmain[] =\n{\n")
	for i, b := range res.Bytecode {
		if i > 0 {
			h.WriteString(", ")
		}
		if i%16 == 15 {
			h.WriteString("\n")
		}
		h.WriteString(strings.TrimSpace(strings.Repeat(" ", 1) + itoa(int(b))))
	}
	h.WriteString("\n};\n}\n")
	scene := h.String() + triangleScene("", "hlsl:shaders entry=vsmain", "fxc:header", false) + "expect hash bb == f9164f2f3c182eef\n"
	s, err := Load("fxc.d3ds", []byte(scene))
	if err != nil {
		t.Fatal(err)
	}
	if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
		t.Fatal(sum.Failures)
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// TestShaderCodePaged: with VRAM full the code allocations live in the
// aperture segment; SET_PROGRAM's address is patched there and the
// triangle is the same.
func TestShaderCodePaged(t *testing.T) {
	src := strings.Replace(triangleScene("", "hlsl:shaders entry=vsmain", "hlsl:shaders entry=psmain", false), "imm.OMSetRenderTargets", "inject vram.full\nimm.OMSetRenderTargets", 1) +
		"expect hash bb == f9164f2f3c182eef\n"
	r := runSource(t, src)
	if sum := r.Finish(); !sum.OK() {
		t.Fatal(sum.Failures)
	}
	paged := map[string]bool{}
	for _, e := range r.Events() {
		for _, obj := range []string{"vs", "ps"} {
			if strings.Contains(e.Msg, "("+obj+", ") && strings.Contains(e.Msg, "aperture segment") {
				paged[obj] = true
			}
		}
	}
	if !paged["vs"] || !paged["ps"] {
		t.Errorf("code allocations in the aperture: %v, want vs and ps", paged)
	}
}

// layoutScene is an HLSL triangle drawn through an input layout, then
// three instances of a small one whose vertices come from three slots.
const layoutScene = `hlsl s {
struct VSIn  { float3 pos : POSITION; float4 col : COLOR; };
struct VSOut { float4 pos : SV_Position; float4 col : COLOR; };
VSOut vsmain(VSIn i) { VSOut o; o.pos = float4(i.pos, 1); o.col = i.col; return o; }
float4 psmain(VSOut i) : SV_Target { return i.col; }
struct VSIn2 { float2 pos : POSITION; float4 col : COLOR; float2 off : OFFSET; };
VSOut vsinst(VSIn2 i) { VSOut o; o.pos = float4(i.pos + i.off, 0.5, 1); o.col = i.col; return o; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
dc = dev.CreateDeferredContext
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader hlsl:s entry=vsmain
ps = dev.CreatePixelShader hlsl:s entry=psmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 0 PER_VERTEX 0] elem[COLOR, 0, R32G32B32A32_FLOAT, 0, APPEND_ALIGNED, PER_VERTEX, 0]
expect calls CreateInputLayout CalcPrivateElementLayoutSize CreateElementLayout
CTX.OMSetRenderTargets rtv
CTX.RSSetViewports 0 0 64 64
CTX.IASetPrimitiveTopology TRIANGLELIST
CTX.IASetVertexBuffers 0 vb Stride=36
CTX.IASetInputLayout il
CTX.VSSetShader vs
CTX.PSSetShader ps
CTX.ClearRenderTargetView rtv 0.1 0.1 0.2 1
CTX.Draw 3 0
FINISH
sc.Present 0
expect hash bb == f9164f2f3c182eef
pos = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[0 0.25  0.25 -0.25  -0.25 -0.25]
col = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=u32[0xff0000ff 0xff00ff00 0xffff0000]
off = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-0.5 0.5  0.5 0.5  0 -0.5]
vs2 = dev.CreateVertexShader hlsl:s entry=vsinst
il2 = dev.CreateInputLayout vs2 elem[POSITION 0 R32G32_FLOAT 0] elem[COLOR 0 R8G8B8A8_UNORM 1] elem[OFFSET 0 R32G32_FLOAT 2 0 PER_INSTANCE 1]
CTX.OMSetRenderTargets rtv
CTX.RSSetViewports 0 0 64 64
CTX.IASetPrimitiveTopology TRIANGLELIST
CTX.PSSetShader ps
CTX.IASetVertexBuffers 0 pos Stride=8
CTX.IASetVertexBuffers 1 col Stride=4
CTX.IASetVertexBuffers 2 off Stride=8
CTX.IASetInputLayout il2
CTX.VSSetShader vs2
CTX.ClearRenderTargetView rtv 0 0 0 1
CTX.DrawInstanced 3 3 0 0
FINISH
sc.Present 0
expect hash bb == 275ff4ff2c40c3f4
expect pixel bb 32 32 == #000000ff
expect violations == 0
`

// TestInputLayout: an input layout feeds the HLSL vertex shader (the
// built-in triangle's pixels), several vertex-buffer slots and a
// per-instance element draw instances, on the immediate context and
// through command lists (the driver's and the runtime's).
func TestInputLayout(t *testing.T) {
	indexed := strings.Replace(layoutScene, "CTX.DrawInstanced 3 3 0 0\n",
		"ib = dev.CreateBuffer Usage=IMMUTABLE BindFlags=INDEX_BUFFER Data=u16[0 1 2]\nCTX.IASetIndexBuffer ib Format=R16_UINT\nCTX.DrawIndexedInstanced 3 3 0 0 0\n", 1)
	// The real call takes the vertex shader's bytecode, not a shader: the
	// same layouts from hlsl: give the same pixels.
	fromCode := strings.Replace(layoutScene, "il = dev.CreateInputLayout vs ", "il = dev.CreateInputLayout hlsl:s entry=vsmain ", 1)
	fromCode = strings.Replace(fromCode, "il2 = dev.CreateInputLayout vs2 ", "il2 = dev.CreateInputLayout hlsl:s entry=vsinst target=vs_4_0 ", 1)
	if fromCode == layoutScene {
		t.Fatal("the bytecode variant changed nothing")
	}
	for _, scene := range []string{layoutScene, indexed, fromCode} {
		testLayoutScene(t, scene)
	}
}

func testLayoutScene(t *testing.T, layoutScene string) {
	t.Helper()
	for _, opts := range []string{"", "option driver.commandlists=false\n"} {
		for _, deferred := range []bool{false, true} {
			src := strings.ReplaceAll(layoutScene, "FINISH\n", "")
			src = strings.ReplaceAll(src, "CTX.", "imm.")
			if deferred {
				src = strings.ReplaceAll(layoutScene, "CTX.", "dc.")
				src = strings.ReplaceAll(src, "FINISH\n", "cl = dc.FinishCommandList FALSE\nimm.ExecuteCommandList cl FALSE\n")
			}
			s, err := Load("layout.d3ds", []byte(opts+src))
			if err != nil {
				t.Fatal(err)
			}
			if sum := NewRun(s, Overrides{}).Finish(); !sum.OK() {
				t.Errorf("%q deferred=%v: %q", opts, deferred, sum.Failures)
			}
		}
	}
}

// TestBuiltinsLinkWithHLSL: a built-in shader is bytecode with signatures,
// so it draws with a shader from HLSL whose signature matches, either way
// round, and gives the pixels of the built-in pair.
func TestBuiltinsLinkWithHLSL(t *testing.T) {
	for _, tt := range []struct{ vs, ps string }{
		{"builtin:vs_passthrough", "hlsl:shaders entry=psmain"},
		{"hlsl:shaders entry=vsmain", "builtin:ps_vertexcolor"},
		{"builtin:vs_passthrough", "builtin:ps_vertexcolor"},
	} {
		src := triangleScene("", tt.vs, tt.ps, false) + "expect hash bb == f9164f2f3c182eef\nexpect violations == 0\n"
		if sum := runSource(t, src).Finish(); !sum.OK() {
			t.Errorf("%s with %s: %q", tt.vs, tt.ps, sum.Failures)
		}
	}
}

// TestInputLayoutErrors: CreateInputLayout refuses what
// ID3D11Device::CreateInputLayout refuses, E_INVALIDARG naming the
// element or the missing semantic; the scenario's elem[...] is checked
// when it loads.
func TestInputLayoutErrors(t *testing.T) {
	const head = "hlsl s {\nfloat4 main(float3 p : POSITION, float4 c : COLOR) : SV_Position { return float4(p, 1) + c; }\n}\n" +
		"dev, imm = D3D11CreateDevice Flags=DEBUG\nvs = dev.CreateVertexShader hlsl:s\nbvs = dev.CreateVertexShader builtin:vs_passthrough\n"
	tests := []struct{ desc, line, fail, load string }{
		{"missing semantic", "il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT]", "SemanticName/Index 'COLOR'/0", ""},
		{"not a vertex format", "il = dev.CreateInputLayout vs elem[POSITION 0 D32_FLOAT] elem[COLOR 0 R8G8B8A8_UNORM]", "format D32_FLOAT cannot be fetched", ""},
		{"step rate per vertex", "il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 0 PER_VERTEX 1] elem[COLOR 0 R8G8B8A8_UNORM]", "InstanceDataStepRate must be 0", ""},
		{"twice", "il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT] elem[POSITION 0 R32G32B32_FLOAT] elem[COLOR 0 R8G8B8A8_UNORM]", "is also element 0", ""},
		{"slot", "il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 32] elem[COLOR 0 R8G8B8A8_UNORM]", "InputSlot 32 is outside 0..31", ""},
		{"built-in shader", "il = dev.CreateInputLayout bvs elem[POSITION 0 R32G32B32_FLOAT] elem[COLOR 0 R32G32B32A32_FLOAT]", "SemanticName/Index 'TEXCOORD'/0", ""},
		{"bytecode missing semantic", "il = dev.CreateInputLayout hlsl:s elem[POSITION 0 R32G32B32_FLOAT]", "the input signature of the shader bytecode expects to read an element with SemanticName/Index 'COLOR'/0", ""},
		{"built-in bytecode", "il = dev.CreateInputLayout builtin:vs_passthrough elem[POSITION 0 R32G32B32_FLOAT] elem[COLOR 0 R32G32B32A32_FLOAT]", "SemanticName/Index 'TEXCOORD'/0", ""},
		{"pixel shader built-in", "il = dev.CreateInputLayout builtin:ps_vertexcolor elem[POSITION 0 R32G32B32_FLOAT]", "", "unknown VS built-in shader \"ps_vertexcolor\""},
		{"not DXBC", "il = dev.CreateInputLayout bytes:00112233 elem[POSITION 0 R32G32B32_FLOAT]", "invalid vertex shader bytecode", ""},
		{"no such block", "il = dev.CreateInputLayout hlsl:nosuch elem[POSITION 0 R32G32B32_FLOAT]", "", "no hlsl block named nosuch"},
		{"entry on an object", "il = dev.CreateInputLayout vs entry=main elem[POSITION 0 R32G32B32_FLOAT]", "", "entry= is for hlsl:NAME"},
		{"unknown format", "il = dev.CreateInputLayout vs elem[POSITION 0 R9_FLOAT]", "", "unknown Format R9_FLOAT"},
		{"too few fields", "il = dev.CreateInputLayout vs elem[POSITION 0]", "", "at least SemanticName"},
		{"bad class", "il = dev.CreateInputLayout vs elem[POSITION 0 R32_FLOAT 0 0 PER_PIXEL]", "", "PER_VERTEX or PER_INSTANCE"},
		{"unterminated", "il = dev.CreateInputLayout vs elem[POSITION 0 R32_FLOAT", "", "unterminated elem["},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			s, err := Load("il.d3ds", []byte(head+tt.line+"\nexpect hr == E_INVALIDARG\n"))
			if tt.load != "" {
				if err == nil || !strings.Contains(err.Error(), tt.load) {
					t.Fatalf("load error %v, want %q", err, tt.load)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r := NewRun(s, Overrides{})
			if sum := r.Finish(); !sum.OK() {
				t.Fatal(sum.Failures)
			}
			found := false
			for _, e := range r.Events() {
				if e.Name == "CreateInputLayout" && strings.Contains(e.Msg, tt.fail) {
					found = true
				}
			}
			if !found {
				t.Errorf("no CreateInputLayout message saying %q", tt.fail)
			}
		})
	}
}
