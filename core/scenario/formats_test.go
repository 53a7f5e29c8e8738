package scenario

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"d3dsim/core/d3d11"
	"d3dsim/core/trace"
)

// fmtRef is an independent reference of what a render-target format holds
// of a shader's output and how it reads back: per channel, its kind and
// bits (0: the format lacks the channel). It follows "Data Conversion
// Rules" in float64: UNORM rounds v*max to nearest, SNORM too (halves away
// from zero), FLOAT16 rounds towards zero, integers clamp.
type fmtRef struct {
	name string
	kind byte // 'u' UNORM, 's' SNORM, 'f' FLOAT, 'U' UINT, 'I' SINT, 'S' sRGB
	bits [4]int
}

var rtFormats = []fmtRef{
	{"R32G32B32A32_FLOAT", 'f', [4]int{32, 32, 32, 32}}, {"R32G32B32A32_UINT", 'U', [4]int{32, 32, 32, 32}},
	{"R32G32B32A32_SINT", 'I', [4]int{32, 32, 32, 32}}, {"R16G16B16A16_FLOAT", 'f', [4]int{16, 16, 16, 16}},
	{"R16G16B16A16_UNORM", 'u', [4]int{16, 16, 16, 16}}, {"R16G16B16A16_UINT", 'U', [4]int{16, 16, 16, 16}},
	{"R16G16B16A16_SNORM", 's', [4]int{16, 16, 16, 16}}, {"R16G16B16A16_SINT", 'I', [4]int{16, 16, 16, 16}},
	{"R32G32_FLOAT", 'f', [4]int{32, 32}}, {"R32G32_UINT", 'U', [4]int{32, 32}}, {"R32G32_SINT", 'I', [4]int{32, 32}},
	{"R10G10B10A2_UNORM", 'u', [4]int{10, 10, 10, 2}}, {"R10G10B10A2_UINT", 'U', [4]int{10, 10, 10, 2}},
	{"R11G11B10_FLOAT", 'f', [4]int{11, 11, 10}},
	{"R8G8B8A8_UNORM", 'u', [4]int{8, 8, 8, 8}}, {"R8G8B8A8_UNORM_SRGB", 'S', [4]int{8, 8, 8, 8}},
	{"R8G8B8A8_UINT", 'U', [4]int{8, 8, 8, 8}}, {"R8G8B8A8_SNORM", 's', [4]int{8, 8, 8, 8}},
	{"R8G8B8A8_SINT", 'I', [4]int{8, 8, 8, 8}},
	{"R16G16_FLOAT", 'f', [4]int{16, 16}}, {"R16G16_UNORM", 'u', [4]int{16, 16}}, {"R16G16_UINT", 'U', [4]int{16, 16}},
	{"R16G16_SNORM", 's', [4]int{16, 16}}, {"R16G16_SINT", 'I', [4]int{16, 16}},
	{"R32_FLOAT", 'f', [4]int{32}}, {"R32_UINT", 'U', [4]int{32}}, {"R32_SINT", 'I', [4]int{32}},
	{"R8G8_UNORM", 'u', [4]int{8, 8}}, {"R8G8_UINT", 'U', [4]int{8, 8}}, {"R8G8_SNORM", 's', [4]int{8, 8}},
	{"R8G8_SINT", 'I', [4]int{8, 8}},
	{"R16_FLOAT", 'f', [4]int{16}}, {"R16_UNORM", 'u', [4]int{16}}, {"R16_UINT", 'U', [4]int{16}},
	{"R16_SNORM", 's', [4]int{16}}, {"R16_SINT", 'I', [4]int{16}},
	{"R8_UNORM", 'u', [4]int{8}}, {"R8_UINT", 'U', [4]int{8}}, {"R8_SNORM", 's', [4]int{8}}, {"R8_SINT", 'I', [4]int{8}},
	{"A8_UNORM", 'u', [4]int{3: 8}},
	{"B5G6R5_UNORM", 'u', [4]int{5, 6, 5}}, {"B5G5R5A1_UNORM", 'u', [4]int{5, 5, 5, 1}},
	{"B8G8R8A8_UNORM", 'u', [4]int{8, 8, 8, 8}}, {"B8G8R8A8_UNORM_SRGB", 'S', [4]int{8, 8, 8, 8}},
	{"B8G8R8X8_UNORM", 'u', [4]int{8, 8, 8}}, {"B8G8R8X8_UNORM_SRGB", 'S', [4]int{8, 8, 8}},
	{"B4G4R4A4_UNORM", 'u', [4]int{4, 4, 4, 4}},
}

// The shader outputs the test writes: away from rounding ties for every
// width, inside and outside the formats' ranges.
var (
	outF = [4]float64{0.3, -0.6, 0.7, 2.5}
	outU = [4]int64{7, 300, 70000, 1}
	outI = [4]int64{-7, 200, -40000, 3}
)

// expected is what the format reads back of the test's output, as the
// texel list expect pixel compares.
func (f fmtRef) expected() string {
	var parts []string
	for c, b := range f.bits {
		switch f.kind {
		case 'U':
			v := uint64(outU[c])
			if b == 0 {
				v = map[bool]uint64{true: 1, false: 0}[c == 3]
			} else {
				v = min(v, 1<<b-1)
			}
			parts = append(parts, fmt.Sprint(v))
		case 'I':
			v := outI[c]
			if b == 0 {
				v = map[bool]int64{true: 1, false: 0}[c == 3]
			} else {
				v = min(max(v, -(1<<(b-1))), 1<<(b-1)-1)
			}
			parts = append(parts, fmt.Sprint(v))
		default:
			parts = append(parts, fmt.Sprint(f.refFloat(c, b)))
		}
	}
	typ := map[byte]string{'U': "u32", 'I': "i32"}[f.kind]
	if typ == "" {
		typ = "f32"
	}
	return typ + "[" + strings.Join(parts, " ") + "]"
}

func (f fmtRef) refFloat(c, b int) float32 {
	v := outF[c]
	if b == 0 {
		if c == 3 {
			return 1
		}
		return 0
	}
	if f.name == "B8G8R8X8_UNORM" || f.name == "B8G8R8X8_UNORM_SRGB" {
		if c == 3 {
			return 1
		}
	}
	switch k := f.kind; {
	case k == 'f' && b == 32:
		return float32(v)
	case k == 'f':
		// a smaller float: rounded towards zero to mant bits, negatives 0
		// without a sign bit (11 and 10 bits)
		mant := map[int]int{16: 10, 11: 6, 10: 5}[b]
		if b != 16 && v < 0 {
			return 0
		}
		e := math.Floor(math.Log2(math.Abs(v)))
		q := math.Ldexp(1, int(e)-mant)
		return float32(math.Copysign(math.Floor(math.Abs(v)/q)*q, v))
	case k == 'u' || (k == 'S' && c == 3):
		max := float64(int64(1)<<b - 1)
		q := math.Floor(math.Min(math.Max(v, 0), 1)*max + 0.5)
		return float32(q / max)
	case k == 's':
		max := float64(int64(1)<<(b-1) - 1)
		x := math.Min(math.Max(v, -1), 1) * max
		q := math.Copysign(math.Floor(math.Abs(x)+0.5), x)
		return float32(q / max)
	}
	// sRGB: encoded with the curve, 8 bits, decoded again
	l := math.Min(math.Max(v, 0), 1)
	s := 12.92 * l
	if l > 0.0031308 {
		s = 1.055*math.Pow(l, 1/2.4) - 0.055
	}
	code := math.Floor(s*255+0.5) / 255
	if code <= 0.04045 {
		return float32(code / 12.92)
	}
	return float32(math.Pow((code+0.055)/1.055, 2.4))
}

// TestRenderTargetFormats draws into a target of every format feature level
// 11.0 requires as a render target and reads it back: integer targets hold
// integers (clamped), float targets floats, UNORM and SNORM their rounded
// values, sRGB the curve's; a clear converts its colour the same way. No
// GPU fault, no violation.
func TestRenderTargetFormats(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`hlsl shaders {
float4 psf() : SV_Target { return float4(0.3, -0.6, 0.7, 2.5); }
uint4 psu() : SV_Target { return uint4(7, 300, 70000, 1); }
int4 psi() : SV_Target { return int4(-7, 200, -40000, 3); }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
psf = dev.CreatePixelShader hlsl:shaders entry=psf
psu = dev.CreatePixelShader hlsl:shaders entry=psu
psi = dev.CreatePixelShader hlsl:shaders entry=psi
imm.RSSetViewports 0 0 8 8
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs
`)
	for i, f := range rtFormats {
		ps := map[byte]string{'U': "psu", 'I': "psi"}[f.kind]
		if ps == "" {
			ps = "psf"
		}
		fmt.Fprintf(&sb, "t%d = dev.CreateTexture2D Width=8 Height=8 Format=%s BindFlags=RENDER_TARGET|SHADER_RESOURCE\n", i, f.name)
		fmt.Fprintf(&sb, "rtv%d = dev.CreateRenderTargetView t%d\n", i, i)
		fmt.Fprintf(&sb, "imm.OMSetRenderTargets rtv%d\nimm.PSSetShader %s\nimm.Draw 6 0\n", i, ps)
		fmt.Fprintf(&sb, "expect pixel t%d 5 2 == %s\n", i, f.expected())
	}
	sb.WriteString("expect violations == 0\n")
	r := runSource(t, sb.String())
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	for _, e := range r.Events() {
		if e.Name == "GpuFault" {
			t.Fatalf("a GPU fault: %s", e.Msg)
		}
	}
}

// TestClearFormats clears targets of integer, float and sRGB formats: an
// integer target takes the colour's values as integers, rounded to nearest
// even; an sRGB one the curve's encoding of the linear colour.
func TestClearFormats(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice
u = dev.CreateTexture2D Width=4 Height=4 Format=R16G16B16A16_UINT BindFlags=RENDER_TARGET
i = dev.CreateTexture2D Width=4 Height=4 Format=R8G8_SINT BindFlags=RENDER_TARGET
f = dev.CreateTexture2D Width=4 Height=4 Format=R16G16_FLOAT BindFlags=RENDER_TARGET
s = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM_SRGB BindFlags=RENDER_TARGET
ru = dev.CreateRenderTargetView u
ri = dev.CreateRenderTargetView i
rf = dev.CreateRenderTargetView f
rs = dev.CreateRenderTargetView s
imm.ClearRenderTargetView ru 2.5 3.5 -1 70000
imm.ClearRenderTargetView ri -2.5 300 0 0
imm.ClearRenderTargetView rf 0.1 -70000 0 0
imm.ClearRenderTargetView rs 0.5 0 1 0.5
expect pixel u 1 1 == u32[2 4 0 65535]
expect pixel i 1 1 == i32[-2 127 0 1]
expect pixel f 1 1 == f32[0.099975586 -65504]
expect pixel s 1 1 == #bc00ff80
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestTextureFormats reads textures of several formats in a pixel shader
// (ld through the GPU's shared decoder) and writes what it read to a float
// target: the values each format's texels mean. (Integer textures need
// Texture2D<uint4>, which the HLSL compiler does not take yet: the GPU's
// TestLoadFormats reads them.)
func TestTextureFormats(t *testing.T) {
	src := `hlsl shaders {
Texture2D<float4> tf : register(t0);
float4 psf(float4 p : SV_Position) : SV_Target { return tf.Load(int3(1, 0, 0)); }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
vb = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=mesh:quad
vs = dev.CreateVertexShader builtin:vs_passthrough
psf = dev.CreatePixelShader hlsl:shaders entry=psf
of = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rf = dev.CreateRenderTargetView of
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 vb Stride=36
imm.VSSetShader vs

# R16G16B16A16_UNORM: texel 1 is 65535 0 32768 13107
a = dev.CreateTexture2D Width=2 Height=1 Format=R16G16B16A16_UNORM BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=u16[0 0 0 0  65535 0 32768 13107]
sa = dev.CreateShaderResourceView a
imm.OMSetRenderTargets rf
imm.PSSetShader psf
imm.PSSetShaderResources 0 sa
imm.Draw 6 0
expect pixel of 2 2 == f32[1 0 0.50000763 0.2]

# R32G32B32_FLOAT (a 96-bit texel: no longer an internal error of the driver)
b = dev.CreateTexture2D Width=2 Height=1 Format=R32G32B32_FLOAT BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=f32[0 0 0  1.5 -2 1e10]
sb = dev.CreateShaderResourceView b
imm.PSSetShaderResources 0 sb
imm.Draw 6 0
expect pixel of 2 2 == f32[1.5 -2 1e10 1]

# R8G8_SNORM: -128 reads -1 like -127
c = dev.CreateTexture2D Width=2 Height=1 Format=R8G8_SNORM BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=i8[0 0  -128 64]
sc = dev.CreateShaderResourceView c
imm.PSSetShaderResources 0 sc
imm.Draw 6 0
expect pixel of 2 2 == f32[-1 0.503937 0 1] within 0.000001

# R10G10B10A2_UNORM: 1023, 0, 512, 3 = 0xE00003FF
d = dev.CreateTexture2D Width=2 Height=1 Format=R10G10B10A2_UNORM BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=u32[0 0xE00003FF]
sd = dev.CreateShaderResourceView d
imm.PSSetShaderResources 0 sd
imm.Draw 6 0
expect pixel of 2 2 == f32[1 0 0.5004888 1] within 0.0000001

# B8G8R8A8_UNORM_SRGB: sRGB 188 reads linear 0.5029, alpha linear
e = dev.CreateTexture2D Width=2 Height=1 Format=B8G8R8A8_UNORM_SRGB BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=u8[0 0 0 0  255 0 188 51]
se = dev.CreateShaderResourceView e
imm.PSSetShaderResources 0 se
imm.Draw 6 0
expect pixel of 2 2 == f32[0.5028865 0 1 0.2] within 0.0000001

# BC1: a block of red (color_0 0xF800) and blue (color_1 0x001F), indices
# 0 1 2 3 along the first row; texel 1 is blue
k = dev.CreateTexture2D Width=4 Height=4 Format=BC1_UNORM BindFlags=SHADER_RESOURCE Usage=IMMUTABLE Data=u8[0x00 0xF8 0x1F 0x00 0xE4 0 0 0]
sk = dev.CreateShaderResourceView k
imm.OMSetRenderTargets rf
imm.PSSetShader psf
imm.PSSetShaderResources 0 sk
imm.Draw 6 0
expect pixel of 1 1 == f32[0 0 1 1]
expect violations == 0
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}

// TestFormatSupport asks CheckFormatSupport and checks the runtime's and
// the driver's validation against the same table.
func TestFormatSupport(t *testing.T) {
	src := `dev, imm = D3D11CreateDevice Flags=DEBUG
dev.CheckFormatSupport R32G32B32A32_FLOAT
expect support has TEXTURE2D|SHADER_LOAD|SHADER_SAMPLE|RENDER_TARGET|BLENDABLE|IA_VERTEX_BUFFER
expect support lacks DEPTH_STENCIL
dev.CheckFormatSupport R32G32B32A32_UINT
expect support has RENDER_TARGET|SHADER_LOAD
expect support lacks BLENDABLE|SHADER_SAMPLE
dev.CheckFormatSupport D24_UNORM_S8_UINT
expect support has DEPTH_STENCIL
expect support lacks SHADER_LOAD|RENDER_TARGET
dev.CheckFormatSupport R32G32B32_FLOAT
expect support has SHADER_SAMPLE
expect support lacks RENDER_TARGET
dev.CheckFormatSupport BC7_UNORM_SRGB
expect support has SHADER_SAMPLE
expect support lacks RENDER_TARGET
dev.CheckFormatSupport R8G8B8A8_UNORM
expect support has DISPLAY
dev.CheckFormatSupport R1_UNORM
expect hr == E_FAIL
# bind flags the table refuses
x = dev.CreateTexture2D Width=4 Height=4 Format=BC1_UNORM BindFlags=RENDER_TARGET
expect hr == E_INVALIDARG
x = dev.CreateTexture2D Width=6 Height=4 Format=BC1_UNORM BindFlags=SHADER_RESOURCE
expect hr == E_INVALIDARG
x = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UINT BindFlags=DEPTH_STENCIL
expect hr == E_INVALIDARG
# a typeless texture takes the binds of its family, and its views name formats
d = dev.CreateTexture2D Width=4 Height=4 Format=R24G8_TYPELESS BindFlags=DEPTH_STENCIL|SHADER_RESOURCE
dsv = dev.CreateDepthStencilView d
expect hr == E_INVALIDARG
dsv = dev.CreateDepthStencilView d Format=D24_UNORM_S8_UINT Flags=READ_ONLY_DEPTH|READ_ONLY_STENCIL
srv = dev.CreateShaderResourceView d Format=R24_UNORM_X8_TYPELESS
srv2 = dev.CreateShaderResourceView d Format=R32_FLOAT
expect hr == E_INVALIDARG
srv2 = dev.CreateShaderResourceView d Format=D24_UNORM_S8_UINT
expect hr == E_INVALIDARG
c = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_TYPELESS BindFlags=RENDER_TARGET|SHADER_RESOURCE
rtv = dev.CreateRenderTargetView c Format=R8G8B8A8_UNORM_SRGB
rtvu = dev.CreateRenderTargetView c Format=R8G8B8A8_UINT
u = dev.CreateTexture2D Width=4 Height=4 Format=R8G8B8A8_UNORM BindFlags=RENDER_TARGET
rtv3 = dev.CreateRenderTargetView u Format=R8G8B8A8_UNORM_SRGB
expect hr == E_INVALIDARG
z = dev.CreateTexture2D Width=4 Height=4 Format=D16_UNORM BindFlags=DEPTH_STENCIL
dz = dev.CreateDepthStencilView z Flags=READ_ONLY_STENCIL
expect hr == E_INVALIDARG
`
	r := runSource(t, src)
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
	// The debug layer names the field.
	want := []string{"Format: resource d is R24G8_TYPELESS, typeless", "Format: R32_FLOAT is not of the family",
		"Format: R8G8B8A8_UNORM_SRGB differs from resource u's R8G8B8A8_UNORM", "READ_ONLY_STENCIL needs a format with stencil",
		"must be multiples of 4", "cannot be bound as a RenderTarget"}
	msgs := ""
	for _, e := range r.Events() {
		if e.Kind == trace.Message {
			msgs += e.Msg + "\n"
		}
	}
	for _, w := range want {
		if !strings.Contains(msgs, w) {
			t.Errorf("no debug message says %q", w)
		}
	}
	_ = d3d11.FormatName
}

// TestVertexFormats fetches a vertex attribute of several formats the
// input assembler reads at feature level 11.0 (the texture unit's decoder,
// the same numbers) and writes it to a float target: the element's bytes
// as the format means them, missing components 0, 0, 0, 1.
func TestVertexFormats(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`hlsl shaders {
struct V { float4 pos : SV_Position; float4 c : COLOR; };
V vs(float3 p : POSITION, float4 c : COLOR) { V o; o.pos = float4(p, 1); o.c = c; return o; }
V vsu(float3 p : POSITION, uint4 c : COLOR) { V o; o.pos = float4(p, 1); o.c = float4(c); return o; }
V vsi(float3 p : POSITION, int4 c : COLOR) { V o; o.pos = float4(p, 1); o.c = float4(c); return o; }
float4 ps(V i) : SV_Target { return i.c; }
}
dev, imm = D3D11CreateDevice Flags=DEBUG
pos = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=f32[-1 1 0  1 1 0  -1 -1 0  1 1 0  1 -1 0  -1 -1 0]
vs = dev.CreateVertexShader hlsl:shaders entry=vs
vsu = dev.CreateVertexShader hlsl:shaders entry=vsu
vsi = dev.CreateVertexShader hlsl:shaders entry=vsi
ps = dev.CreatePixelShader hlsl:shaders entry=ps
o = dev.CreateTexture2D Width=4 Height=4 Format=R32G32B32A32_FLOAT BindFlags=RENDER_TARGET
rtv = dev.CreateRenderTargetView o
imm.OMSetRenderTargets rtv
imm.RSSetViewports 0 0 4 4
imm.IASetPrimitiveTopology TRIANGLELIST
imm.IASetVertexBuffers 0 pos Stride=12
imm.PSSetShader ps
`)
	for i, c := range []struct {
		format, vs, data, want string
		stride                 int
	}{
		{"R16G16B16A16_SNORM", "vs", "i16[32767 -32768 16384 0]", "f32[1 -1 0.50001526 0]", 8},
		{"R10G10B10A2_UNORM", "vs", "u32[0xE00003FF]", "f32[1 0 0.5004888 1]", 4},
		{"R8G8_UNORM", "vs", "u8[255 51 0 0]", "f32[1 0.2 0 1]", 4},
		{"R16G16_FLOAT", "vs", "u16[0x3E00 0xC000]", "f32[1.5 -2 0 1]", 4},
		{"R11G11B10_FLOAT", "vs", "u32[0x000003C0]", "f32[1 0 0 1]", 4},
		{"B8G8R8A8_UNORM", "vs", "u8[255 0 51 255]", "f32[0.2 0 1 1]", 4},
		{"R16G16B16A16_UINT", "vsu", "u16[1 2 65535 4]", "f32[1 2 65535 4]", 8},
		{"R8G8B8A8_SINT", "vsi", "i8[-128 127 -1 5]", "f32[-128 127 -1 5]", 4},
		{"R32G32_SINT", "vsi", "i32[-70000 9]", "f32[-70000 9 0 1]", 8},
	} {
		n := 6 * c.stride
		data := strings.Repeat(strings.TrimSuffix(strings.SplitN(c.data, "[", 2)[1], "]")+" ", n/(c.stride))
		data = strings.SplitN(c.data, "[", 2)[0] + "[" + data + "]"
		fmt.Fprintf(&sb, "cb%d = dev.CreateBuffer Usage=IMMUTABLE BindFlags=VERTEX_BUFFER Data=%s\n", i, data)
		fmt.Fprintf(&sb, "il%d = dev.CreateInputLayout %s elem[POSITION 0 R32G32B32_FLOAT 0 0 PER_VERTEX 0] elem[COLOR 0 %s 1 0 PER_VERTEX 0]\n", i, c.vs, c.format)
		fmt.Fprintf(&sb, "imm.IASetInputLayout il%d\nimm.VSSetShader %s\nimm.IASetVertexBuffers 1 cb%d Stride=%d\nimm.Draw 6 0\n", i, c.vs, i, c.stride)
		fmt.Fprintf(&sb, "expect pixel o 1 2 == %s within 0.0000001\n", c.want)
	}
	sb.WriteString("expect violations == 0\n")
	r := runSource(t, sb.String())
	if sum := r.Summary(); !sum.OK() {
		t.Fatalf("failures: %q", sum.Failures)
	}
}
