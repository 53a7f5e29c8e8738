package scenario

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"testing"

	"d3dsim/core/dxbc"
)

// pixelBytes assembles one of the translator's pixel shaders
// (core/umd/translate/testdata/pixel, with the HLSL they were written
// from) into a bytes:HEX value.
func pixelBytes(t *testing.T, name string) string {
	t.Helper()
	text, err := os.ReadFile("../umd/translate/testdata/pixel/" + name + ".asm")
	if err != nil {
		t.Fatal(err)
	}
	bc, err := dxbc.Assemble(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return "bytes:" + hex.EncodeToString(bc)
}

// covered is the pixels of an 8x8 viewport whose centres D3D11's top-left
// rule puts inside the triangle (x0,y0) (x1,y1) (x2,y2), clockwise on the
// screen, in pixel coordinates: a reference written from the
// rasterization rules, not the GPU's rasterizer.
func covered(v [3][2]float64) [][2]int {
	var out [][2]int
	edge := func(a, b [2]float64, px, py float64) (float64, bool) {
		w := (b[0]-a[0])*(py-a[1]) - (b[1]-a[1])*(px-a[0])
		dx, dy := b[0]-a[0], b[1]-a[1]
		topLeft := (dy == 0 && dx > 0) || dy < 0 // clockwise on a y-down screen: top edges go right, left edges go up
		return w, topLeft
	}
	for y := range 8 {
		for x := range 8 {
			px, py := float64(x)+0.5, float64(y)+0.5
			in := true
			for i := range 3 {
				w, tl := edge(v[i], v[(i+1)%3], px, py)
				if w < 0 || w == 0 && !tl {
					in = false
				}
			}
			if in {
				out = append(out, [2]int{x, y})
			}
		}
	}
	return out
}

// TestPixelShaderUAVs: a pixel shader (count_pixels) counts its pixels
// with InterlockedAdd on a RWByteAddressBuffer, keeps the largest x*16+y
// with InterlockedMax, writes x+100y+1 to its texel of a RWTexture2D<uint>
// and its own id at the index its InterlockedAdd returned. The views are
// bound with OMSetRenderTargetsAndUnorderedAccessViews after the render
// target (u1..u3); two draws, the full quad then the triangle, add up.
// Counts, maxima and texels are computed here from the rasterization
// rules; the order list must be every pixel once, in an order the same on
// every run.
func TestPixelShaderUAVs(t *testing.T) {
	quad := covered([3][2]float64{{0, 0}, {8, 0}, {0, 8}})
	quad = append(quad, covered([3][2]float64{{0, 8}, {8, 0}, {8, 8}})...)
	tri := covered([3][2]float64{{4, 2}, {6, 6}, {2, 6}})
	if len(quad) != 64 || len(tri) != 8 {
		t.Fatalf("reference coverage: quad %d, triangle %d pixels", len(quad), len(tri))
	}
	var mx uint32
	marks := make([]uint32, 64)
	var ids []uint32
	for _, p := range append(slices.Clone(quad), tri...) {
		mx = max(mx, uint32(p[0]*16+p[1]))
		marks[p[1]*8+p[0]] = uint32(p[0]+100*p[1]) + 1
		ids = append(ids, uint32(p[0]+100*p[1]))
	}
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
tri = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
cnt = dev.CreateBuffer ByteWidth=8 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_TYPELESS Flags=RAW
marks = dev.CreateTexture2D Width=8 Height=8 Format=R32_UINT BindFlags=UNORDERED_ACCESS|SHADER_RESOURCE
marksv = dev.CreateUnorderedAccessView marks
marks_srv = dev.CreateShaderResourceView marks
order = dev.CreateBuffer ByteWidth=512 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_STRUCTURED StructureByteStride=4
orderv = dev.CreateUnorderedAccessView order
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader ` + pixelBytes(t, "count_pixels") + `
imm.PSSetShaderResources 0 marks_srv
imm.OMSetRenderTargetsAndUnorderedAccessViews rtv cntv marksv orderv
expect calls OMSetRenderTargetsAndUnorderedAccessViews PsSetShaderResources SetRenderTargets
imm.PSGetShaderResources 0
expect got == NULL
imm.OMGetRenderTargetsAndUnorderedAccessViews 1 1 3
expect got == rtv NULL cntv marksv orderv
imm.PSSetShaderResources 0 marks_srv
imm.PSGetShaderResources 0
expect got == NULL
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.IASetVertexBuffers 0 quad
imm.Draw 6
imm.IASetVertexBuffers 0 tri
imm.Draw 3
expect probe cnt 0 0 == ` + u32List([]uint32{72, mx}) + `
`
	for i, m := range marks {
		src += "expect probe marks " + fmt.Sprint(i%8) + " " + fmt.Sprint(i/8) + " == " + u32List([]uint32{m}) + "\n"
	}
	src += "expect pixel t 0 0 == #ff0000ff\nexpect violations == 0\n"
	order := func() []uint32 {
		r := mustRun(t, src)
		_, data, ok := r.readbackRaw(&Expect{Name: "order"})
		if !ok {
			t.Fatalf("order: no readback: %q", r.Summary().Failures)
		}
		out := make([]uint32, 72)
		for i := range out {
			out[i] = binary.LittleEndian.Uint32(data[4*i:])
		}
		return out
	}
	got := order()
	sorted, want := slices.Clone(got), slices.Clone(ids)
	slices.Sort(sorted)
	slices.Sort(want)
	if !slices.Equal(sorted, want) {
		t.Fatalf("order list %v: want each covered pixel's id once, %v", got, want)
	}
	if again := order(); !slices.Equal(again, got) {
		t.Fatalf("the pixels ran in another order the second time: %v, then %v", got, again)
	}
}

// discardPS counts, with atomic_iadd on a raw view, the pixels it does
// not discard (those of even x); it takes a derivative, so the other
// lanes of each 2x2 quad run as helpers.
const discardPS = `//
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
dcl_uav_raw u1
dcl_input_ps_siv linear noperspective v0.x, position
dcl_output o0.xyzw
dcl_temps 1
deriv_rtx r0.x, v0.x
ftou r0.y, v0.x
and r0.y, r0.y, l(1)
discard_nz r0.y
atomic_iadd u1, l(0), l(1)
mov o0.xyzw, r0.xxxx
ret
`

// TestPixelUAVHelpersAndDiscard: helper lanes (the quad's other pixels a
// derivative needs, outside the triangle) and discarded pixels write
// nothing: the count is the covered pixels of even x, from the
// rasterization rules.
func TestPixelUAVHelpersAndDiscard(t *testing.T) {
	bc, err := dxbc.Assemble(discardPS)
	if err != nil {
		t.Fatal(err)
	}
	even := 0
	for _, p := range covered([3][2]float64{{4, 2}, {6, 6}, {2, 6}}) {
		if p[0]%2 == 0 {
			even++
		}
	}
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
tri = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:triangle
cnt = dev.CreateBuffer ByteWidth=4 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_TYPELESS Flags=RAW
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader bytes:`+hex.EncodeToString(bc)+`
imm.OMSetRenderTargetsAndUnorderedAccessViews rtv cntv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.IASetVertexBuffers 0 tri
imm.Draw 3
expect probe cnt 0 0 == `+u32List([]uint32{uint32(even)})+`
expect violations == 0
`)
}

// TestPixelUAVsDeferred: a deferred context records the views with its
// render target and a draw; the command list, executed, counts the 64
// pixels of the quad, and again from the counter's value then; the
// immediate context's own draw after it, with no views bound, counts
// nothing (a command list's bindings end with it).
func TestPixelUAVsDeferred(t *testing.T) {
	mustRun(t, `dev, imm = D3D11CreateDevice Flags=DEBUG
t = dev.CreateTexture2D Width=8 Height=8 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView t
quad = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
cnt = dev.CreateBuffer ByteWidth=8 BindFlags=UNORDERED_ACCESS MiscFlags=BUFFER_ALLOW_RAW_VIEWS
cntv = dev.CreateUnorderedAccessView cnt Format=R32_TYPELESS Flags=RAW
vs = dev.CreateVertexShader builtin:vs_passthrough
ps = dev.CreatePixelShader `+pixelBytes(t, "count_pixels")+`
dc = dev.CreateDeferredContext
dc.OMSetRenderTargetsAndUnorderedAccessViews rtv cntv
dc.RSSetViewports 0 0 8 8
dc.IASetPrimitiveTopology TRIANGLELIST
dc.VSSetShader vs
dc.PSSetShader ps
dc.IASetVertexBuffers 0 quad
dc.Draw 6
cl = dc.FinishCommandList
imm.ExecuteCommandList cl
expect probe cnt 0 0 == u32[64 119]
imm.ExecuteCommandList cl
expect probe cnt 0 0 == u32[128 119]
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.VSSetShader vs
imm.PSSetShader ps
imm.IASetVertexBuffers 0 quad
imm.Draw 6
expect probe cnt 0 0 == u32[128 119]
expect violations == 0
`)
}
