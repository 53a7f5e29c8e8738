package scenario

import (
	"encoding/hex"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

// Regression tests for what running real fxc shaders found (TestFxcCorpusRun).

// TestDrawWithoutPosition: a vertex shader written for a hull shader or for
// stream output writes no SV_Position; drawn with nothing after it, the
// runtime drops the draw, naming DEVICE_DRAW_POSITION_NOT_PRESENT, where
// the GPU used to fault and the device was removed.
func TestDrawWithoutPosition(t *testing.T) {
	r := runSource(t, `hlsl s {
float4 vsmain(float4 p : POSITION) : TEXCOORD0 { return p; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
tex = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView tex
vs = dev.CreateVertexShader hlsl:s entry=vsmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1  -1 3 0.5 1  3 -1 0.5 1]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb Stride=16
imm.VSSetShader vs
imm.Draw 3
expect hr == DROPPED
imm.DrawInstanced 3 2
expect hr == DROPPED
imm.Flush
dev.GetDeviceRemovedReason
expect hr == S_OK
`)
	sum := r.Summary()
	if !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	if len(sum.Messages) != 2 || !strings.Contains(sum.Messages[0], "vertex shader vs writes no SV_Position") ||
		!strings.Contains(sum.Messages[0], "DEVICE_DRAW_POSITION_NOT_PRESENT") {
		t.Errorf("messages: %q", sum.Messages)
	}
	for _, e := range r.Events() {
		if e.Name == "GpuFault" || e.Name == "DeviceRemoved" {
			t.Fatalf("%s: %s", e.Name, e.Msg)
		}
	}
}

// TestHullPassThroughWholePoints: a hull shader with no control-point
// phase, as fxc writes one whose control-point function returns its input
// point (it declares none of the points' registers), passes the points
// through whole: the domain shader reads their second register, the
// colour. The driver sized the points from the registers the hull shader
// declared (one), and the GPU faulted.
func TestHullPassThroughWholePoints(t *testing.T) {
	cp := &dxbc.Signature{Elements: []dxbc.Element{
		{Name: "SV_Position", SystemValue: dxbc.SVPosition, ComponentType: 3, Mask: dxbc.XYZW},
		{Name: "COLOR", ComponentType: 3, Register: 1, Mask: dxbc.XYZW}}}
	pcsg := &dxbc.Signature{}
	for i := range 4 {
		e := dxbc.Element{Name: "SV_TessFactor", Index: uint32(i), SystemValue: dxbc.SVTriEdgeTess, ComponentType: 3, Register: uint32(i), Mask: dxbc.X}
		if i == 3 {
			e.Name, e.Index, e.SystemValue = "SV_InsideTessFactor", 0, dxbc.SVTriInsideTess
		}
		pcsg.Elements = append(pcsg.Elements, e)
	}
	ds, err := corpusAssemble(`ds_5_0
dcl_input_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_input vDomain.xyz
dcl_input vicp[3][0].xyzw
dcl_input vicp[3][1].xyzw
dcl_output_siv o0.xyzw, position
dcl_output o1.xyzw
dcl_temps 1
mul r0.xyzw, vDomain.yyyy, vicp[1][0].xyzw
mad r0.xyzw, vDomain.xxxx, vicp[0][0].xyzw, r0.xyzw
mad o0.xyzw, vDomain.zzzz, vicp[2][0].xyzw, r0.xyzw
mov o1.xyzw, vicp[0][1].xyzw
ret
`, func(p *dxbc.Program) ([]byte, error) { return dxbc.BuildShaderPatch(p, cp, cp, pcsg, nil) })
	if err != nil {
		t.Fatal(err)
	}
	c, err := dxbc.Parse(ds)
	if err != nil {
		t.Fatal(err)
	}
	dsProg, err := c.Program()
	if err != nil {
		t.Fatal(err)
	}
	hs, err := corpusHullFor(dsProg, 3, cp, pcsg)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(dxbcListing(t, hs), "dcl_input v") {
		t.Fatal("the hull shader declares its points' registers")
	}
	mustRun(t, `hlsl s {
struct V { float4 pos : SV_Position; float4 col : COLOR; };
V vsmain(float4 p : POSITION) { V o; o.pos = p; o.col = float4(0, 1, 0, 1); return o; }
float4 psmain(V v) : SV_Target { return v.col; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
tex = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView tex
vs = dev.CreateVertexShader hlsl:s entry=vsmain
hs = dev.CreateHullShader bytes:`+hex.EncodeToString(hs)+`
ds = dev.CreateDomainShader bytes:`+hex.EncodeToString(ds)+`
ps = dev.CreatePixelShader hlsl:s entry=psmain
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 -1 0.5 1  -1 3 0.5 1  3 -1 0.5 1]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology PATCHLIST_3
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb Stride=16
imm.VSSetShader vs
imm.HSSetShader hs
imm.DSSetShader ds
imm.PSSetShader ps
imm.Draw 3
expect pixel tex 1 1 == #00ff00ff
dev.GetDeviceRemovedReason
expect hr == S_OK
`)
}

// dxbcListing is a blob's listing.
func dxbcListing(t *testing.T, blob []byte) string {
	t.Helper()
	c, err := dxbc.Parse(blob)
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Program()
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, in := range p.Instructions {
		b.WriteString(in.String() + "\n")
	}
	return b.String()
}

// TestStreamOutVertexShaderWithoutPosition: a vertex shader written for
// stream output alone writes no SV_Position; streamed out with
// D3D11_SO_NO_RASTERIZED_STREAM it needs none. The GPU faulted on the
// missing position it would never have used.
func TestStreamOutVertexShaderWithoutPosition(t *testing.T) {
	vs := compileHLSLBytes(t, "float4 main(float4 p : POSITION) : TEXCOORD0 { return p * 2; }", "vs_4_0")
	r := mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader `+vs+`
so = dev.CreateGeometryShaderWithStreamOutput `+vs+` Decl="TEXCOORD0.xyzw" RasterizedStream=4294967295
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32A32_FLOAT 0]
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[1 2 3 4  5 6 7 8  9 10 11 12]
sob = dev.CreateBuffer ByteWidth=64 BindFlags=STREAM_OUTPUT
imm.SOSetTargets sob
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetInputLayout il
imm.IASetVertexBuffers 0 vb Stride=16
imm.VSSetShader vs
imm.GSSetShader so
imm.Draw 3
expect probe sob 0 0 == f32[2 4 6 8  10 12 14 16  18 20 22 24]
dev.GetDeviceRemovedReason
expect hr == S_OK
`)
	for _, e := range r.Events() {
		if e.Name == "GpuFault" {
			t.Fatalf("%s: %s", e.Name, e.Msg)
		}
	}
}

// compileHLSLBytes compiles an entry main as bytes:HEX.
func compileHLSLBytes(t *testing.T, src, target string) string {
	t.Helper()
	res, err := hlsl.Compile([]byte(src), "t.hlsl", "main", target)
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(res.Bytecode)
}
