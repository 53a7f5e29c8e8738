package scenario

import (
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// tessBytes assembles one of the translator's hull or domain shaders
// (core/umd/translate/testdata/tess) into a bytes:HEX value, its text
// changed by the replacer's pairs first.
func tessBytes(t *testing.T, name string, edits ...string) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/tess/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(strings.NewReplacer(edits...).Replace(string(text)))
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// tessScene draws one quad patch whose four control points are the
// corners of the 64x64 target, (0,0) of the domain top left: the hull
// shader passes the points on with cb0's factors (edges .x, inside .y),
// the domain shader places each domain point bilinearly and colours it
// with its domain location (red u, green v).
func tessScene(t *testing.T) string {
	ds := tessBytes(t, "quad_ds",
		"// TEXCOORD                 0   xy          1     NONE   float   xy", "// COLOR                    0   xyzw        1     NONE   float   xyzw",
		"dcl_output o1.xy", "dcl_output o1.xyzw",
		"mov o1.xy, vDomain.xyxx", "mov o1.xy, vDomain.xyxx\nmov o1.zw, l(0,0,0,1.000000)")
	return `dev, imm = D3D11CreateDevice Flags=DEBUG
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer BindFlags=VERTEX_BUFFER Data=f32[-1 1 0.5 1 1 1 1 0 0  1 1 0.5 1 1 1 1 0 0  1 -1 0.5 1 1 1 1 0 0  -1 -1 0.5 1 1 1 1 0 0]
cb = dev.CreateBuffer BindFlags=CONSTANT_BUFFER Data=f32[2 2 0 0]
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
hs = dev.CreateHullShader ` + tessBytes(t, "quad_hs") + `
expect calls CreateHullShader CalcPrivateShaderSize CreateHullShader pfnAllocateCb
ds = dev.CreateDomainShader ` + ds + `
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology PATCHLIST_4
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.HSSetShader hs
expect calls HSSetShader HsSetShader
imm.HSSetConstantBuffers 0 cb
expect calls HSSetConstantBuffers HsSetConstantBuffers
imm.DSSetShader ds
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0 0 0 1
`
}

// TestTessellationScenario: a quad patch at integer factor 2 is 9 domain
// points and 8 triangles that cover the target; each pixel's colour is
// its domain location as the domain shader computed it at the points
// and the rasterizer interpolated it (an affine mapping: exactly
// ((x+0.5)/64, (y+0.5)/64) in 8 bits, worked out here).
func TestTessellationScenario(t *testing.T) {
	var b strings.Builder
	b.WriteString(tessScene(t))
	b.WriteString(`q = dev.CreateQuery Query=PIPELINE_STATISTICS
imm.Begin q
imm.Draw 4 0
imm.End q
until hr == S_OK max 100 {
  imm.GetData q
}
expect data q.IAVertices == 4
expect data q.IAPrimitives == 1
expect data q.VSInvocations == 4
expect data q.HSInvocations == 1
expect data q.DSInvocations == 9
expect data q.CInvocations == 8
expect data q.PSInvocations == 4096
imm.HSGetShader
expect got == hs
imm.DSGetShader
expect got == ds
imm.HSGetConstantBuffers 0 2
expect got == cb NULL
`)
	for _, p := range [][2]int{{0, 0}, {8, 40}, {63, 0}, {31, 32}, {63, 63}} {
		r := int(float64(p[0])*255/64 + 255/128.0 + 0.5)
		g := int(float64(p[1])*255/64 + 255/128.0 + 0.5)
		b.WriteString("expect pixel bb " + itoa(p[0]) + " " + itoa(p[1]) + " == #" + hex2(r) + hex2(g) + "00ff\n")
	}
	b.WriteString("expect violations == 0\n")
	mustRun(t, b.String())
}

// TestTessellationValidation: the runtime drops a draw whose stages do
// not go together, with E_INVALIDARG naming the rule.
func TestTessellationValidation(t *testing.T) {
	cases := []struct{ setup, want string }{
		{"imm.DSSetShader", "without a domain shader"},
		{"imm.HSSetShader", "domain shader ds is bound without a hull shader"},
		{"imm.IASetPrimitiveTopology TRIANGLELIST", "must be a patch list"},
		{"imm.IASetPrimitiveTopology PATCHLIST_3", "patches of 4 control points, but the topology's have 3"},
		{"imm.HSSetShader\nimm.DSSetShader", "needs a hull and a domain shader"},
	}
	for _, c := range cases {
		src := tessScene(t) + c.setup + "\nimm.Draw 4 0\nexpect hr == E_INVALIDARG\n"
		res := runSource(t, src)
		sum := res.Summary()
		found := false
		for _, e := range res.Events() {
			found = found || strings.Contains(fmt.Sprintf("%+v", e), c.want)
		}
		if !sum.OK() || !found {
			t.Errorf("%s: failures %q; no event says %q", c.setup, sum.Failures, c.want)
		}
	}
}

func hex2(v int) string {
	const h = "0123456789abcdef"
	return string([]byte{h[v>>4], h[v&15]})
}
