package scenario

import (
	"encoding/hex"
	"math"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// geometryBytes assembles one of the translator's geometry shaders
// (core/umd/translate/testdata/geometry, with the HLSL they were written
// from) into a bytes:HEX value, with its text changed by the replacer's
// pairs first.
func geometryBytes(t *testing.T, name string, edits ...string) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/geometry/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(strings.NewReplacer(edits...).Replace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// gsScene draws four points through the billboard geometry shader (cb0:
// the square's half size in clip space, 0.125: four pixels of the 64x64
// target) after the lines in setup.
const gsScene = `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[-0.5 0.5 0 1 0 0 1 0 0  0.5 0.5 0 0 1 0 1 0 0  0.5 -0.5 0 0 0 1 1 0 0  -0.5 -0.5 0 1 1 1 1 0 0]
cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=f32[0.125 0.125 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
gs = dev.CreateGeometryShader GS
expect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology POINTLIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.GSSetShader gs
expect calls GSSetShader GsSetShader
imm.GSSetConstantBuffers 0 cb
expect calls GSSetConstantBuffers GsSetConstantBuffers
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
`

// TestGeometryBillboardScenario: points become squares of 8x8 pixels in
// their colour; the odd primitives (SV_PrimitiveID 1 and 3) emit nothing.
// The squares' pixels are computed here: clip (-0.5, 0.5) is pixel
// (16, 16), a half size of 0.125 four pixels, so pixels 12..19.
func TestGeometryBillboardScenario(t *testing.T) {
	var b strings.Builder
	b.WriteString(strings.Replace(gsScene, "GS", geometryBytes(t, "billboard"), 1))
	b.WriteString(`imm.Draw 4 0
imm.GSGetShader
expect got == gs
imm.GSGetConstantBuffers 0 2
expect got == cb NULL
expect pixel bb 12 12 == #ff0000ff
expect pixel bb 19 19 == #ff0000ff
expect pixel bb 11 12 == #000000ff
expect pixel bb 20 19 == #000000ff
expect pixel bb 12 20 == #000000ff
expect pixel bb 44 44 == #0000ffff
expect pixel bb 51 51 == #0000ffff
expect pixel bb 52 51 == #000000ff
expect pixel bb 48 16 == #000000ff
expect pixel bb 16 48 == #000000ff
expect violations == 0
`)
	mustRun(t, b.String())
}

// f32Words is u32[...] of the float32 bits of vs, for expect probe.
func f32Words(vs ...float32) string {
	w := make([]uint32, len(vs))
	for i, v := range vs {
		w[i] = math.Float32bits(v)
	}
	return u32List(w)
}

// TestStreamOutputScenario: the billboard geometry shader created with a
// stream-output declaration (position xy to slot 0, colour's xyz after a
// gap of z and w) and no rasterized stream; the first square (point 0 at
// clip (-0.5, 0.5), half size 0.125) is read back from the buffer as two
// triangles, the second with its first two vertices swapped, computed
// here; SO_STATISTICS counts what was written and what needed room; the
// odd primitive writes nothing; nothing is drawn. Then the buffer is
// drawn with DrawAuto as a vertex buffer of the same layout.
func TestStreamOutputScenario(t *testing.T) {
	var b strings.Builder
	scene := strings.Replace(gsScene, "gs = dev.CreateGeometryShader GS\nexpect calls CreateGeometryShader CalcPrivateShaderSize CreateGeometryShader pfnAllocateCb",
		`so = dev.CreateBuffer ByteWidth=640 BindFlags=VERTEX_BUFFER|STREAM_OUTPUT
gs = dev.CreateGeometryShaderWithStreamOutput GS Decl="SV_Position.xy; $SKIP.zw; COLOR.xyz" Strides=u32[28] RasterizedStream=4294967295
expect calls CreateGeometryShaderWithStreamOutput CalcPrivateShaderSize CreateGeometryShaderWithStreamOutput pfnAllocateCb`, 1)
	b.WriteString(strings.Replace(scene, "GS", geometryBytes(t, "billboard"), 1))
	b.WriteString(`q = dev.CreateQuery Query=SO_STATISTICS
imm.SOSetTargets so
expect calls SOSetTargets SoSetTargets
imm.Begin q
imm.Draw 4 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.NumPrimitivesWritten == 4
expect data q.PrimitivesStorageNeeded == 4
imm.SOGetTargets 2
expect got == so NULL
expect pixel bb 16 16 == #000000ff
`)
	x0, y0, x1, y1 := float32(-0.625), float32(0.625), float32(-0.375), float32(0.375)
	var want []float32
	for _, c := range [][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x0, y1}, {x1, y0}, {x1, y1}} {
		want = append(want, c[0], c[1], 0, 0, 1, 0, 0) // the gap keeps the buffer's zeros
	}
	b.WriteString("expect probe so 0 0 == " + f32Words(want...) + "\n")
	// The buffer as a vertex buffer of 28-byte vertices, the geometry
	// stage unbound: position xy (z from the gap, 0), the colour's xyz
	// after it (w the default 1), the texture coordinate from the gap.
	// Both squares come back, the odd point's still missing.
	b.WriteString(`imm.GSSetShader
imm.SOSetTargets
il = dev.CreateInputLayout vs elem[POSITION 0 R32G32B32_FLOAT 0 0] elem[COLOR 0 R32G32B32_FLOAT 0 16] elem[TEXCOORD 0 R32G32_FLOAT 0 8]
imm.IASetInputLayout il
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 so Stride=28
imm.DrawAuto
expect calls DrawAuto DrawAuto
expect pixel bb 16 16 == #ff0000ff
expect pixel bb 48 48 == #0000ffff
expect pixel bb 48 16 == #000000ff
expect violations == 0
`)
	mustRun(t, b.String())
}

// The runtime's checks of stream output, each an E_INVALIDARG naming the
// field, before any DDI: a semantic the shader does not output, a stream
// past 0 of gs_4_0, components past the output's, a stride too
// small for the entries (a stream past 0 needs gs_5_0), a target without STREAM_OUTPUT, DrawAuto without
// a stream-output buffer at input slot 0.
func TestStreamOutputValidation(t *testing.T) {
	gs := geometryBytes(t, "billboard")
	tests := []struct{ line, want string }{
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs + ` Decl="TEXCOORD.xy"`, "pSODeclaration[0].SemanticName TEXCOORD0: not an output"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs + ` Decl="SV_Position" RasterizedStream=1`, "RasterizedStream 1: a stream past 0 needs a gs_5_0 shader (this bytecode is gs_4_0)"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs + ` Decl="COLOR.yzw; 4:SV_Position"`, "pSODeclaration[1].OutputSlot 4"},
		{`gs = dev.CreateGeometryShaderWithStreamOutput ` + gs + ` Decl="SV_Position; COLOR" Strides=u32[16]`, "pBufferStrides[0] 16: the entries of output slot 0 take 32 bytes"},
		{`imm.SOSetTargets vb`, "ppSOTargets[0]: vb was not created as a buffer with BindFlags STREAM_OUTPUT"},
		{`imm.DrawAuto`, "the vertex buffer at input slot 0, vb, was not created with BindFlags STREAM_OUTPUT"},
	}
	for _, tc := range tests {
		r := mustRun(t, strings.Replace(gsScene, "GS", gs, 1)+tc.line+"\nexpect hr == E_INVALIDARG\n")
		if msgs := strings.Join(r.Summary().Messages, "\n"); !strings.Contains(msgs, tc.want) {
			t.Errorf("%s: messages\n%s\nwant one with %q", tc.line[:min(len(tc.line), 60)], msgs, tc.want)
		}
	}
}

// TestGeometryDeferredScenario: a deferred context records the geometry
// stage (its context-local handle of the shader, pfnGsSetShader on its
// own table); the command list executed on the immediate context draws
// the squares; ClearState unbinds the stage.
func TestGeometryDeferredScenario(t *testing.T) {
	src := strings.Replace(gsScene, "GS", geometryBytes(t, "billboard"), 1)
	src = strings.Replace(src, "imm.OMSetRenderTargets rtv", "dc = dev.CreateDeferredContext\nimm.OMSetRenderTargets rtv", 1)
	mustRun(t, src+`dc.OMSetRenderTargets rtv
dc.RSSetViewports 0 0 64 64
dc.IASetPrimitiveTopology POINTLIST
dc.IASetVertexBuffers 0 vb Stride=36
dc.VSSetShader vs
dc.GSSetShader gs
expect calls GSSetShader CreateGeometryShader GsSetShader
dc.GSSetConstantBuffers 0 cb
dc.PSSetShader ps
dc.Draw 4 0
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
expect pixel bb 12 12 == #ff0000ff
expect pixel bb 48 48 == #0000ffff
expect pixel bb 48 16 == #000000ff
imm.ClearState
imm.GSGetShader
expect got == NULL
expect violations == 0
`)
}

// TestGeometryViewportScenario: the billboard shader writes
// SV_ViewportArrayIndex 1 (dcl_output_siv o2.x, viewport_array_index);
// with two viewports, the left and right halves of the target, its
// squares are drawn in the right half only: point 0 at clip (-0.5, 0.5)
// lands at pixel (40, 16), and pixel (8, 16) of viewport 0 stays clear.
func TestGeometryViewportScenario(t *testing.T) {
	gs := geometryBytes(t, "billboard",
		"// COLOR                    0   xyzw        1     NONE   float   xyzw\n//\ngs_4_0",
		"// COLOR                    0   xyzw        1     NONE   float   xyzw\n// SV_ViewportArrayIndex     0   x           2  VPINDEX    uint   x\n//\ngs_4_0",
		"dcl_output o1.xyzw\n", "dcl_output o1.xyzw\ndcl_output_siv o2.x, viewport_array_index\n",
		"mov r0.zw, l(0,0,0,0)\n", "mov o2.x, l(1)\nmov r0.zw, l(0,0,0,0)\n")
	src := strings.Replace(gsScene, "GS", gs, 1)
	src = strings.Replace(src, "imm.RSSetViewports 0 0 64 64", "imm.RSSetViewports 0 0 32 64 32 0 32 64", 1)
	mustRun(t, src+`imm.Draw 4 0
expect pixel bb 40 16 == #ff0000ff
expect pixel bb 8 16 == #000000ff
expect violations == 0
`)
}
