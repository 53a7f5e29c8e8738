package scenario

import (
	"encoding/hex"
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
