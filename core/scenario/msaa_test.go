package scenario

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"d3dsim/core/dxbc"
)

// msaaRect is two triangles of the built-in vertex format covering x in
// [x0, x1] and y in [y0, y1] (normalized device coordinates) at depth z,
// white.
func msaaRect(x0, y0, x1, y1, z float32) string {
	return msaaQuad(x0, y0, x1, y1, z, z, [4]float32{1, 1, 1, 1})
}

// msaaQuad is msaaRect of colour c whose depth goes from zl at x0 to zr
// at x1.
func msaaQuad(x0, y0, x1, y1, zl, zr float32, c [4]float32) string {
	v := func(x, y, z float32) string {
		return fmt.Sprintf("%g %g %g %g %g %g %g 0 0", x, y, z, c[0], c[1], c[2], c[3])
	}
	return "f32[" + strings.Join([]string{v(x0, y1, zl), v(x1, y1, zr), v(x0, y0, zl), v(x0, y0, zl), v(x1, y1, zr), v(x1, y0, zr)}, "  ") + "]"
}

// msaaPrelude sets up a 4x1 viewport, the built-in passthrough shaders and
// a 4x1 R8G8B8A8 target ms of n samples (rtv), cleared black, with out to
// resolve it into.
func msaaPrelude(n int) string {
	return fmt.Sprintf(`dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.RSSetViewports 0 0 4 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
ms = dev.CreateTexture2D Width=4 Height=1 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=%d
rtv = dev.CreateRenderTargetView ms
out = dev.CreateTexture2D Width=4 Height=1 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
imm.ClearRenderTargetView rtv #000000ff
`, n)
}

func runOK(t *testing.T, src string) *Run {
	t.Helper()
	r := runSource(t, src+"expect violations == 0\n")
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	return r
}

// TestMultisampleDepthPerSample: a full-target draw at depth 0.5, then one
// whose depth goes from 0.35 at x = 0 to 0.75 at x = 4 pixels (0.5 at x =
// 1.5, pixel 1's centre) with depth LESS: at one sample per pixel pixel 1
// fails whole (0.5 is not less than 0.5); at 4 samples the depth is
// interpolated at each sample, and the two left of the centre pass (0.5
// resolved); each sample of a multisampled depth buffer holds its own.
func TestMultisampleDepthPerSample(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{1, "#000000ff"}, {4, "#808080ff"}} {
		src := msaaPrelude(c.n) + fmt.Sprintf(`d = dev.CreateTexture2D Width=4 Height=1 Format=D32_FLOAT BindFlags=DEPTH_STENCIL SampleCount=%d
dsv = dev.CreateDepthStencilView d
imm.ClearDepthStencilView dsv 1
imm.OMSetRenderTargets rtv dsv
a = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
b = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.IASetVertexBuffers 0 a Stride=36
imm.Draw 6 0
imm.IASetVertexBuffers 0 b Stride=36
imm.Draw 6 0
`, c.n, msaaQuad(-1, -1, 1, 1, 0.5, 0.5, [4]float32{0, 0, 0, 1}), msaaQuad(-1, -1, 1, 1, 0.35, 0.75, [4]float32{1, 1, 1, 1}))
		if c.n == 1 {
			src += "imm.CopyResource out ms\n"
		} else {
			src += "imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM\n"
		}
		src += "expect pixel out 0 0 == #ffffffff\nexpect pixel out 1 0 == " + c.want + "\nexpect pixel out 2 0 == #000000ff\n"
		runOK(t, src)
	}
}

// TestMultisampleCoverageMasks: the blend state's SampleMask keeps the
// samples of its set bits (0x5: two of four, 0x1: one), and
// alpha-to-coverage keeps round(alpha x 4) samples: a white of alpha 0.5
// over black covers two, resolved to (0.5, 0.5, 0.5) and the alpha of
// bytes 128, 128, 255, 255: 191.5, rounded to 192 (0xc0).
func TestMultisampleCoverageMasks(t *testing.T) {
	for _, c := range []struct {
		setup string
		alpha float32
		want  string
	}{
		{"imm.OMSetBlendState NULL SampleMask=0x5", 1, "#808080ff"},
		{"imm.OMSetBlendState NULL SampleMask=0x1", 1, "#404040ff"},
		{"imm.OMSetBlendState NULL SampleMask=0x0", 1, "#000000ff"},
		{"a2c = dev.CreateBlendState AlphaToCoverageEnable=TRUE\nimm.OMSetBlendState a2c", 0.5, "#808080c0"},
		{"a2c = dev.CreateBlendState AlphaToCoverageEnable=TRUE\nimm.OMSetBlendState a2c", 0.25, "#404040cf"},
	} {
		src := msaaPrelude(4) + fmt.Sprintf(`vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.IASetVertexBuffers 0 vb Stride=36
imm.OMSetRenderTargets rtv
%s
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 3 0 == %s
`, msaaQuad(-1, -1, 1, 1, 0.5, 0.5, [4]float32{1, 1, 1, c.alpha}), c.setup, c.want)
		runOK(t, src)
	}
}

// TestMultisampleResolve draws the left 1.5 pixels of a 4x1 target white
// at 1, 2 and 4 samples and resolves: pixel 1's centre is on the edge (a
// right edge: not covered at one sample), and of the standard positions
// ("D3D11_STANDARD_MULTISAMPLE_QUALITY_LEVELS enumeration") x = -2/16,
// 6/16, -6/16, 2/16 of 4 samples two are left of it (0.5 resolved: 0x80),
// of 2 samples (4/16, -4/16) one.
func TestMultisampleResolve(t *testing.T) {
	var sb strings.Builder
	fmt.Fprintf(&sb, `dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.RSSetViewports 0 0 4 1
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
`, msaaRect(-1, -1, -0.25, 1, 0.5))
	for _, c := range []struct {
		n    int
		want string
	}{{1, "#000000ff"}, {2, "#808080ff"}, {4, "#808080ff"}} {
		fmt.Fprintf(&sb, `ms%[1]d = dev.CreateTexture2D Width=4 Height=1 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=%[1]d
rtv%[1]d = dev.CreateRenderTargetView ms%[1]d
out%[1]d = dev.CreateTexture2D Width=4 Height=1 Format=R8G8B8A8_UNORM BindFlags=SHADER_RESOURCE
imm.OMSetRenderTargets rtv%[1]d
imm.ClearRenderTargetView rtv%[1]d #000000ff
imm.Draw 6 0
`, c.n)
		if c.n == 1 {
			fmt.Fprintf(&sb, "imm.CopyResource out1 ms1\n")
		} else {
			fmt.Fprintf(&sb, "imm.ResolveSubresource out%[1]d 0 ms%[1]d 0 R8G8B8A8_UNORM\n", c.n)
		}
		fmt.Fprintf(&sb, "expect pixel out%[1]d 0 0 == #ffffffff\nexpect pixel out%[1]d 1 0 == %[2]s\nexpect pixel out%[1]d 2 0 == #000000ff\n", c.n, c.want)
	}
	sb.WriteString("expect violations == 0\n")
	r := runSource(t, sb.String())
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestMultisampleQualityLevels: CheckMultisampleQualityLevels answers from
// the format table: one level at 1, 2 and 4 samples for a format that can
// be a multisampled render target or depth buffer, none at 8 (this GPU's
// patterns are the standard 2 and 4) nor for a format that cannot
// (block-compressed), and a count outside 1..32 is an error.
func TestMultisampleQualityLevels(t *testing.T) {
	src := "dev, imm = D3D11CreateDevice\n"
	for _, c := range []struct {
		f     string
		n     int
		level int
	}{
		{"R8G8B8A8_UNORM", 1, 1}, {"R8G8B8A8_UNORM", 2, 1}, {"R8G8B8A8_UNORM", 4, 1}, {"R8G8B8A8_UNORM", 8, 0},
		{"R16G16B16A16_FLOAT", 4, 1}, {"D24_UNORM_S8_UINT", 4, 1}, {"D32_FLOAT", 2, 1}, {"R32_UINT", 4, 1},
		{"R8G8B8A8_TYPELESS", 4, 1}, {"R32G32B32A32_FLOAT", 4, 1}, {"BC1_UNORM", 4, 0}, {"BC1_UNORM", 1, 1}, {"R8G8B8A8_UNORM", 3, 0},
	} {
		src += fmt.Sprintf("dev.CheckMultisampleQualityLevels %s %d\nexpect got == %d\n", c.f, c.n, c.level)
	}
	src += "dev.CheckMultisampleQualityLevels R8G8B8A8_UNORM 33\nexpect hr == E_INVALIDARG\n"
	runOK(t, src)
}

// TestMultisampleValidation: the runtime's checks of a multisampled
// texture ("D3D11_TEXTURE2D_DESC structure", "DXGI_SAMPLE_DESC
// structure"), its views, the output merger's sample counts and
// ResolveSubresource, each an E_INVALIDARG naming the field.
func TestMultisampleValidation(t *testing.T) {
	pre := `dev, imm = D3D11CreateDevice Flags=DEBUG
ms = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=4
ms2 = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=2
one = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE
small = dev.CreateTexture2D Width=2 Height=2 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
ui = dev.CreateTexture2D Width=4 Height=4 Format=R32_UINT BindFlags=RENDER_TARGET SampleCount=4
ui1 = dev.CreateTexture2D Width=4 Height=4 Format=R32_UINT BindFlags=RENDER_TARGET
`
	for _, c := range []struct{ src, want string }{
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=8\n", "SampleDesc.Count 8: the device has no quality level of R8G8B8A8_UNORM at 8 samples"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=4 SampleQuality=1\n", "SampleDesc.Quality 1: R8G8B8A8_UNORM at 4 samples has 1 quality level(s)"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleQuality=1\n", "SampleDesc.Quality 1: one sample has quality level 0 only"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=4 MipLevels=2\n", "MipLevels 2: a multisampled texture has one level"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM Usage=STAGING CPUAccessFlags=READ SampleCount=4\n", "Usage: a multisampled texture is DEFAULT"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|UNORDERED_ACCESS SampleCount=4\n", "BindFlags UNORDERED_ACCESS: a multisampled texture cannot be"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=BC1_UNORM BindFlags=SHADER_RESOURCE SampleCount=4\n", "no quality level of BC1_UNORM at 4 samples"},
		{"t = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET SampleCount=4 Data=u8[1 2 3 4]\n", "pInitialData: a multisampled texture is created without data"},
		{"v = dev.CreateShaderResourceView ms ViewDimension=TEXTURE2D\n", "ViewDimension TEXTURE2D: ms has 4 samples (TEXTURE2DMS or TEXTURE2DMSARRAY views it)"},
		{"v = dev.CreateShaderResourceView one ViewDimension=TEXTURE2DMS\n", "ViewDimension TEXTURE2DMS: one has one sample"},
		{"a = dev.CreateRenderTargetView ms\nb = dev.CreateRenderTargetView ms2\nimm.OMSetRenderTargets a b\n", "ppRenderTargetViews[1] (b) has 2 sample(s) and a 4"},
		{"imm.ResolveSubresource one 0 one 0 R8G8B8A8_UNORM\n", "source and destination are both one"},
		{"imm.ResolveSubresource one 0 ms2 0 R8G8B8A8_UNORM\nimm.ResolveSubresource one 0 small 0 R8G8B8A8_UNORM\n", "pSrcResource small has one sample"},
		{"imm.ResolveSubresource ms2 0 ms 0 R8G8B8A8_UNORM\n", "pDstResource ms2 has 2 samples: the destination has one"},
		{"imm.ResolveSubresource small 0 ms 0 R8G8B8A8_UNORM\n", "small's subresource 0 is 2x2 and ms 4x4"},
		{"imm.ResolveSubresource ui1 0 ui 0 R32_UINT\n", "Format R32_UINT does not resolve"},
		{"imm.ResolveSubresource one 0 ms 0 B8G8R8A8_UNORM\n", "Format B8G8R8A8_UNORM: ms is R8G8B8A8_UNORM"},
		{"imm.UpdateSubresource ms Data=u8[1 2 3 4]\n", "ms is multisampled: UpdateSubresource cannot write samples"},
		{"imm.CopyResource one ms\n", "the same kind, size, format and sample count"},
	} {
		r := runSource(t, pre+c.src)
		if sum := r.Summary(); sum.OK() || !strings.Contains(strings.Join(sum.Failures, "\n"), c.want) {
			t.Errorf("%q: failures %q, want %q", c.src, sum.Failures, c.want)
		}
	}
}

// loadMSPS reads a 4-sample Texture2DMS into a target four times as
// wide: pixel X is sample X%4 of pixel X/4 (Load, ld2dms), beside the
// texture's width (GetDimensions, resinfo_uint), its sample count
// (sampleinfo) and the sample's x position (GetSamplePosition,
// samplepos).
const loadMSPS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float   x
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_resource_texture2dms(4) (float,float,float,float) t0
dcl_input_ps_siv linear noperspective v0.x, position
dcl_output o0.xyzw
dcl_temps 3
ftou r0.x, v0.x
ushr r1.x, r0.x, l(2)
and r1.z, r0.x, l(3)
mov r1.yw, l(0,0,0,0)
ldms r2.xyzw, r1.xyww, t0.xyzw, r1.z
resinfo_uint r0.y, l(0), t0.yxzw
utof r0.y, r0.y
sampleinfo r0.z, t0.x
samplepos r0.w, t0.yzwx, r1.z
mov r0.x, r2.x
mov o0.xyzw, r0.xyzw
ret
`

// TestMultisampleLoad renders sample s of every pixel of a 4-sample
// R32G32_FLOAT texture with (s+1)/8 (a full draw with SampleMask 1<<s)
// and reads each sample back through a Texture2DMS: Load of sample s is
// (s+1)/8, GetDimensions' width 4 (pixels, not samples), the sample count
// 4 and GetSamplePosition(s).x the standard pattern's -2/16, 6/16, -6/16,
// 2/16.
func TestMultisampleLoad(t *testing.T) {
	bc, err := dxbc.Assemble(loadMSPS)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString(`dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader builtin:ps_vertexcolor
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
ms = dev.CreateTexture2D Width=4 Height=1 Format=R32G32_FLOAT BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=4
rtv = dev.CreateRenderTargetView ms
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 1
`)
	for s := range 4 {
		v := float32(s+1) / 8
		fmt.Fprintf(&sb, "vb%d = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s\n", s, msaaQuad(-1, -1, 1, 1, 0.5, 0.5, [4]float32{v, 0, 0, 1}))
		fmt.Fprintf(&sb, "imm.IASetVertexBuffers 0 vb%d Stride=36\nimm.OMSetBlendState NULL SampleMask=%d\nimm.Draw 6 0\n", s, 1<<s)
	}
	fmt.Fprintf(&sb, `out = dev.CreateTexture2D Width=16 Height=1 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
orv = dev.CreateRenderTargetView out
srv = dev.CreateShaderResourceView ms ViewDimension=TEXTURE2DMS
load = dev.CreatePixelShader bytes:%s
imm.OMSetBlendState NULL
imm.OMSetRenderTargets orv
imm.RSSetViewports 0 0 16 1
imm.PSSetShader load
imm.PSSetShaderResources 0 srv
imm.IASetVertexBuffers 0 vb0 Stride=36
imm.Draw 6 0
`, hex.EncodeToString(bc))
	pos := []float32{-2, 6, -6, 2}
	for x := range 16 {
		s := x % 4
		fmt.Fprintf(&sb, "expect pixel out %d 0 == f32[%g 4 4 %g]\n", x, float32(s+1)/8, pos[s]/16)
	}
	// The same from HLSL: Texture2DMS<float4, 4>'s Load and GetDimensions.
	sb.WriteString(`hlsl msload {
Texture2DMS<float4, 4> t : register(t0);
float4 main(float4 p : SV_Position) : SV_Target {
    uint x = (uint)p.x;
    uint w, h, n;
    t.GetDimensions(w, h, n);
    return float4(t.Load(int2(x / 4, 0), x % 4).x, (float)w, (float)h, (float)n);
}
}
hl = dev.CreatePixelShader hlsl:msload entry=main target=ps_5_0
imm.PSSetShader hl
imm.Draw 6 0
`)
	for x := range 16 {
		fmt.Fprintf(&sb, "expect pixel out %d 0 == f32[%g 4 1 4]\n", x, float32(x%4+1)/8)
	}
	runOK(t, sb.String())
}

// TestMultisampleStencilOcclusion: the stencil is tested and written per
// sample, and an OCCLUSION query counts samples. The left 1.5 pixels of a
// 4x1 target of 4 samples write stencil 1 (REPLACE); a full draw where the
// stencil EQUAL 0 then passes at none of pixel 0's samples, two of pixel
// 1's (the two right of its centre) and all of pixels 2 and 3's: 10
// samples, and pixel 1 resolves to half white.
func TestMultisampleStencilOcclusion(t *testing.T) {
	runOK(t, msaaPrelude(4)+fmt.Sprintf(`d = dev.CreateTexture2D Width=4 Height=1 Format=D24_UNORM_S8_UINT BindFlags=DEPTH_STENCIL SampleCount=4
dsv = dev.CreateDepthStencilView d
imm.ClearDepthStencilView dsv 1 0
imm.OMSetRenderTargets rtv dsv
left = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
full = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
mark = dev.CreateDepthStencilState DepthEnable=FALSE StencilEnable=TRUE FrontFaceStencilPassOp=REPLACE
none = dev.CreateBlendState RenderTargetWriteMask=0
imm.OMSetBlendState none
imm.OMSetDepthStencilState mark 1
imm.IASetVertexBuffers 0 left Stride=36
imm.Draw 6 0
test = dev.CreateDepthStencilState DepthEnable=FALSE StencilEnable=TRUE FrontFaceStencilFunc=EQUAL
occ = dev.CreateQuery Query=OCCLUSION
imm.OMSetBlendState NULL
imm.OMSetDepthStencilState test 0
imm.IASetVertexBuffers 0 full Stride=36
imm.Begin occ
imm.Draw 6 0
imm.End occ
until hr == S_OK max 1000 {
  imm.GetData occ
}
expect data occ == 10
imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 0 0 == #000000ff
expect pixel out 1 0 == #808080ff
expect pixel out 2 0 == #ffffffff
`, msaaRect(-1, -1, -0.25, 1, 0.5), msaaRect(-1, -1, 1, 1, 0.5)))
}

// TestMultisampleDeferred records a draw to a 4-sample target and its
// ResolveSubresource on a deferred context: executed (the immediate
// context's state restored), the command list
// sends SET_SAMPLES and RESOLVE as the immediate context does (pixel 1
// half covered), and the immediate context's next draw, to a one-sample
// target, is at one sample again (its pixel 1, centre on the edge, stays
// black).
func TestMultisampleDeferred(t *testing.T) {
	runOK(t, msaaPrelude(4)+fmt.Sprintf(`vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
one = dev.CreateTexture2D Width=4 Height=1 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
onev = dev.CreateRenderTargetView one
dc = dev.CreateDeferredContext
dc.IASetPrimitiveTopology TRIANGLELIST
dc.VSSetShader vs
dc.PSSetShader ps
dc.RSSetViewports 0 0 4 1
dc.IASetVertexBuffers 0 vb Stride=36
dc.OMSetRenderTargets rtv
dc.Draw 6 0
dc.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
cl = dc.FinishCommandList
imm.ExecuteCommandList cl TRUE
expect pixel out 0 0 == #ffffffff
expect pixel out 1 0 == #808080ff
expect pixel out 2 0 == #000000ff
imm.IASetVertexBuffers 0 vb Stride=36
imm.OMSetRenderTargets onev
imm.ClearRenderTargetView onev #000000ff
imm.Draw 6 0
expect pixel one 0 0 == #ffffffff
expect pixel one 1 0 == #000000ff
`, msaaRect(-1, -1, -0.25, 1, 0.5)))
}

// TestMultisampleCentroid: an input declared centroid is interpolated, on
// a partly covered pixel of a 4-sample target, at its first covered
// sample: the left 1.5 pixels of a 4x1 R32G32_FLOAT target, red = x/4
// (x in pixels, linear on the screen), cover samples 0 and 2 of pixel 1,
// and sample 0 is at x = 1.375: a centroid input gives 0.34375 there (0.375
// at the centre, what a linear input gives), resolved with the two black
// samples to half of it. Pixel 0 is split by the rectangle's diagonal
// (x/1.5 + y = 1): its first triangle covers samples 0, 1 and 2, each
// given the value at sample 0 (x = 0.375: 0.09375), the second sample 3
// (x = 0.625: 0.15625), resolved to 0.109375; linear gives the centre's
// 0.125 to all four.
func TestMultisampleCentroid(t *testing.T) {
	red := func(x, y float32) string { return fmt.Sprintf("%g %g 0.5 %g 0 0 1 0 0", x, y, (x+1)*2/4) }
	quad := "f32[" + strings.Join([]string{red(-1, 1), red(-0.25, 1), red(-1, -1), red(-1, -1), red(-0.25, 1), red(-0.25, -1)}, "  ") + "]"
	runOK(t, fmt.Sprintf(`hlsl cent {
struct PSIn { float4 pos : SV_Position; centroid float4 col : COLOR; };
float4 main(PSIn i) : SV_Target { return i.col; }
float4 lin(float4 pos : SV_Position, float4 col : COLOR) : SV_Target { return col; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
pc = dev.CreatePixelShader hlsl:cent entry=main target=ps_5_0
pl = dev.CreatePixelShader hlsl:cent entry=lin target=ps_5_0
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
ms = dev.CreateTexture2D Width=4 Height=1 Format=R32G32_FLOAT BindFlags=RENDER_TARGET SampleCount=4
rtv = dev.CreateRenderTargetView ms
out = dev.CreateTexture2D Width=4 Height=1 Format=R32G32_FLOAT BindFlags=SHADER_RESOURCE
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.RSSetViewports 0 0 4 1
imm.OMSetRenderTargets rtv
imm.ClearRenderTargetView rtv 0 0 0 0
imm.PSSetShader pc
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R32G32_FLOAT
expect pixel out 0 0 == f32[0.109375 0]
expect pixel out 1 0 == f32[0.171875 0]
imm.ClearRenderTargetView rtv 0 0 0 0
imm.PSSetShader pl
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R32G32_FLOAT
expect pixel out 0 0 == f32[0.125 0]
expect pixel out 1 0 == f32[0.1875 0]
`, quad))
}

// rastInfoPS is GetRenderTargetSampleCount and
// GetRenderTargetSamplePosition(1) (sampleinfo and samplepos of the
// rasterizer): (count, x, y, 0).
const rastInfoPS = `//
// Input signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Position              0   xyzw        0      POS   float
//
//
// Output signature:
//
// Name                 Index   Mask Register SysValue  Format   Used
// -------------------- ----- ------ -------- -------- ------- ------
// SV_Target                0   xyzw        0   TARGET   float   xyzw
//
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_output o0.xyzw
dcl_temps 1
sampleinfo r0.x, rasterizer.x
samplepos r0.yz, rasterizer.xxyx, l(1)
mov r0.w, l(0)
mov o0.xyzw, r0.xyzw
ret
`

// TestMultisampleRasterizerInfo: GetRenderTargetSampleCount and
// GetRenderTargetSamplePosition answer for the render target bound at the
// draw: 1 and (0, 0) at one sample, 2 and sample 1's (-4/16, -4/16) at
// two, 4 and (6/16, -2/16) at four (the same program, translated once).
func TestMultisampleRasterizerInfo(t *testing.T) {
	bc, err := dxbc.Assemble(rastInfoPS)
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader bytes:%s
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.PSSetShader ps
imm.RSSetViewports 0 0 2 2
`, hex.EncodeToString(bc))
	for _, c := range []struct {
		n    int
		want string
	}{{1, "0 0"}, {2, "-0.25 -0.25"}, {4, "0.375 -0.125"}} {
		fmt.Fprintf(&sb, `t%[1]d = dev.CreateTexture2D Width=2 Height=2 Format=R16G16B16A16_FLOAT BindFlags=RENDER_TARGET SampleCount=%[1]d
v%[1]d = dev.CreateRenderTargetView t%[1]d
imm.OMSetRenderTargets v%[1]d
imm.Draw 6 0
`, c.n)
		src := fmt.Sprintf("t%d", c.n)
		if c.n > 1 {
			fmt.Fprintf(&sb, "o%[1]d = dev.CreateTexture2D Width=2 Height=2 Format=R16G16B16A16_FLOAT BindFlags=SHADER_RESOURCE\nimm.ResolveSubresource o%[1]d 0 t%[1]d 0 R16G16B16A16_FLOAT\n", c.n)
			src = fmt.Sprintf("o%d", c.n)
		}
		fmt.Fprintf(&sb, "expect pixel %s 1 1 == f32[%d %s 0]\n", src, c.n, c.want)
	}
	runOK(t, sb.String())
}

// TestMultisampleBlendPerSample: blending reads and writes each sample:
// the left 1.5 pixels drawn white, then the whole target white at alpha
// 0.5 with SRC_ALPHA / INV_SRC_ALPHA over black: pixel 1's two white
// samples stay 255, its two black ones become 128 (0.5), resolved to
// (255+255+128+128)/4 = 191.5, 192 (0xc0); pixel 3 all 128; alpha is the
// source's 0.5 (SrcBlendAlpha ONE, DestBlendAlpha ZERO). A write mask
// of red alone keeps the other channels of each sample as they were.
func TestMultisampleBlendPerSample(t *testing.T) {
	runOK(t, msaaPrelude(4)+fmt.Sprintf(`left = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
half = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s
imm.OMSetRenderTargets rtv
imm.IASetVertexBuffers 0 left Stride=36
imm.Draw 6 0
b = dev.CreateBlendState BlendEnable=TRUE SrcBlend=SRC_ALPHA DestBlend=INV_SRC_ALPHA
imm.OMSetBlendState b
imm.IASetVertexBuffers 0 half Stride=36
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 0 0 == #ffffff80
expect pixel out 1 0 == #c0c0c080
expect pixel out 3 0 == #80808080
red = dev.CreateBlendState RenderTargetWriteMask=1
imm.OMSetBlendState red
imm.ClearRenderTargetView rtv #000000ff
imm.IASetVertexBuffers 0 left Stride=36
imm.Draw 6 0
imm.ResolveSubresource out 0 ms 0 R8G8B8A8_UNORM
expect pixel out 1 0 == #800000ff
`, msaaRect(-1, -1, -0.25, 1, 0.5), msaaQuad(-1, -1, 1, 1, 0.5, 0.5, [4]float32{1, 1, 1, 0.5})))
}
