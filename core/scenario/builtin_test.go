package scenario

import (
	"strings"
	"testing"
)

// builtinSrc draws hello-triangle's triangle with the built-in shaders,
// then releases everything.
const builtinSrc = `dev, imm = D3D11CreateDevice
sc = dev.CreateSwapChain Width=64 Height=64
bb = sc.GetBuffer 0
rtv = dev.CreateRenderTargetView bb
vb = dev.CreateBuffer ByteWidth=108 Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
vs = dev.CreateVertexShader builtin:vs_passthrough
expect calls CreateVertexShader CalcPrivateShaderSize CreateVertexShader pfnAllocateCb DxgkDdiCreateAllocation
ps = dev.CreatePixelShader builtin:ps_vertexcolor
expect calls CreatePixelShader CalcPrivateShaderSize CreatePixelShader pfnAllocateCb DxgkDdiCreateAllocation
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 64 64
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.ClearRenderTargetView rtv 0.1 0.1 0.2 1
imm.Draw 3 0
sc.Present 0
expect calls PresentDXGI pfnPresentCb DxgkDdiPresent DxgkDdiPatch DxgkDdiSubmitCommand
expect hash bb == f9164f2f3c182eef
imm.ClearState
vs.Release
expect calls Release DestroyShader
ps.Release
imm.Flush
vb.Release
rtv.Release
bb.Release
sc.Release
dev.Release
expect live == 0
expect violations == 0
`

// TestBuiltinShaderIsBytecode: builtin:NAME takes the path of any shader
// from bytecode: the runtime's CreateVertexShader calls
// CalcPrivateShaderSize and the DDI, the UMD allocates the translated code
// (pfnAllocateCb, DxgkDdiCreateAllocation), the draw's SET_PROGRAM is
// patched like any binding, the pixels are the built-ins' as before, and
// releasing the shaders frees their code allocations: nothing is left
// live. The command stream's SET_PROGRAM per stage is the UMD's tests'
// (TestDrawEncodesPackets).
func TestBuiltinShaderIsBytecode(t *testing.T) {
	for _, opts := range []string{"", "option sync=true\n", "option driver.commandlists=false\n"} {
		r := runSource(t, opts+builtinSrc)
		if sum := r.Summary(); !sum.OK() {
			t.Errorf("%q: %s", opts, strings.Join(sum.Failures, "\n"))
		}
		freed := map[string]bool{}
		for _, e := range r.Events() {
			if e.Name == "pfnDeallocateCb" {
				freed[e.Obj] = true
			}
		}
		if !freed["vs"] || !freed["ps"] {
			t.Errorf("%q: code allocations freed %v, want vs's and ps's", opts, freed)
		}
	}
}

// TestUnknownBuiltin: a name that is not a built-in of the stage is a load
// error naming the known ones.
func TestUnknownBuiltin(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"vs = dev.CreateVertexShader builtin:ps_solid", `unknown VS built-in shader "ps_solid" (known: vs_passthrough, vs_transform)`},
		{"ps = dev.CreatePixelShader builtin:vs_transform", `unknown PS built-in shader "vs_transform" (known: ps_fault, ps_solid, ps_texture, ps_vertexcolor)`},
		{"ps = dev.CreatePixelShader builtin:ps_solid entry=main", "entry= is for hlsl:NAME"},
	} {
		_, err := Load("b.d3ds", []byte("dev, imm = D3D11CreateDevice\n"+tc.line+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.line, err, tc.want)
		}
	}
}
