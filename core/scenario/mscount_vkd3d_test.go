package scenario

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVkd3dMultisampleBlobs runs two real fxc blobs of vkd3d's tests
// (tests/d3d12.c, a fetched copy's: never part of the repository; found
// beside the tests/hlsl directory D3DSIM_SHADERTEST names, docs/shaders.md)
// through the whole stack: ps_color writes each sample of a 4-sample
// target by its SV_SampleIndex (red, green, blue, black), and ps_resolve,
// declared Texture2DMS<float4> (dcl_resource_texture2dms(0): no count),
// reads its size with GetDimensions and sample `sample` with Load. Each
// sample read back is the colour vkd3d's test expects of it
// (expected_colors). Skipped without the copy.
func TestVkd3dMultisampleBlobs(t *testing.T) {
	dir := os.Getenv("D3DSIM_SHADERTEST")
	if dir == "" {
		t.Skip("set D3DSIM_SHADERTEST to a vkd3d copy's tests/hlsl directory (its tests/d3d12.c has the blobs)")
	}
	src, err := os.ReadFile(filepath.Join(dir, "..", "d3d12.c"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(src)
	at := strings.Index(text, "t.GetDimensions(p.x, p.y, p.z);")
	if at < 0 {
		t.Fatal("no ps_resolve of Texture2DMS<float4> in d3d12.c")
	}
	resolve := dwordArray(t, text, "ps_resolve_code[]", at-2000)
	color := dwordArray(t, text, "ps_color_code[]", strings.LastIndex(text[:at], "ps_color_code[]")-1)
	var sb strings.Builder
	fmt.Fprintf(&sb, `dev, imm = D3D11CreateDevice Flags=DEBUG
vs = dev.CreateVertexShader builtin:vs_passthrough
color = dev.CreatePixelShader bytes:%s
resolve = dev.CreatePixelShader bytes:%s
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
ms = dev.CreateTexture2D Width=32 Height=32 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET|SHADER_RESOURCE SampleCount=4
msrt = dev.CreateRenderTargetView ms
srv = dev.CreateShaderResourceView ms
out = dev.CreateTexture2D Width=32 Height=32 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
ort = dev.CreateRenderTargetView out
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
imm.RSSetViewports 0 0 32 32
imm.ClearRenderTargetView msrt 1 1 1 1
imm.OMSetRenderTargets msrt
imm.PSSetShader color
imm.Draw 6 0
imm.OMSetRenderTargets ort
imm.PSSetShader resolve
imm.PSSetShaderResources 0 srv
`, color, resolve)
	for s, want := range []string{"#ff0000ff", "#00ff00ff", "#0000ffff", "#000000ff"} {
		fmt.Fprintf(&sb, `cb%[1]d = dev.CreateBuffer Usage=IMMUTABLE BindFlags=CONSTANT_BUFFER Data=u32[%[1]d 32 0 0]
imm.PSSetConstantBuffers 0 cb%[1]d
imm.Draw 6 0
expect pixel out 5 7 == %[2]s
expect pixel out 31 31 == %[2]s
`, s, want)
	}
	r := runOK(t, sb.String())
	for _, m := range r.Summary().Messages {
		t.Errorf("debug layer: %s", m)
	}
}

// dwordArray reads the C array `static const DWORD NAME = { 0x..., };`
// found from offset from in text, as little-endian bytes in hexadecimal.
func dwordArray(t *testing.T, text, name string, from int) string {
	t.Helper()
	i := strings.Index(text[max(from, 0):], name)
	if i < 0 {
		t.Fatalf("no %s", name)
	}
	body := text[max(from, 0)+i:]
	body = body[strings.Index(body, "#endif")+len("#endif"):]
	body = body[:strings.Index(body, "};")]
	var b []byte
	for _, w := range strings.FieldsFunc(body, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' }) {
		v, err := strconv.ParseUint(w, 0, 32)
		if err != nil {
			t.Fatalf("%s: %q: %v", name, w, err)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	return hex.EncodeToString(b)
}
