package ddi

// DXGI formats: every DXGI_FORMAT of Direct3D 11 with its name and layout,
// the typeless family it belongs to, and what a feature level 11.0 device
// supports of it ("Format support for Direct3D feature level 11.0
// hardware"): the one table that CheckFormatSupport answers from (the
// driver's pfnCheckFormatSupport) and the runtime validates resources and
// views against.

// FormatSupport mirrors D3D11_FORMAT_SUPPORT (the bits of
// D3D11_FORMAT_SUPPORT the simulated device models).
type FormatSupport uint32

const (
	SupportBuffer               FormatSupport = 0x1
	SupportIAVertexBuffer       FormatSupport = 0x2
	SupportIAIndexBuffer        FormatSupport = 0x4
	SupportSOBuffer             FormatSupport = 0x8
	SupportTexture1D            FormatSupport = 0x10
	SupportTexture2D            FormatSupport = 0x20
	SupportTexture3D            FormatSupport = 0x40
	SupportTextureCube          FormatSupport = 0x80
	SupportShaderLoad           FormatSupport = 0x100
	SupportShaderSample         FormatSupport = 0x200
	SupportShaderSampleCmp      FormatSupport = 0x400
	SupportMip                  FormatSupport = 0x1000
	SupportRenderTarget         FormatSupport = 0x4000
	SupportBlendable            FormatSupport = 0x8000
	SupportDepthStencil         FormatSupport = 0x10000
	SupportCPULockable          FormatSupport = 0x20000
	SupportDisplay              FormatSupport = 0x80000
	SupportCastWithinBitLayout  FormatSupport = 0x100000
	SupportMultisampleRT        FormatSupport = 0x200000
	SupportShaderGather         FormatSupport = 0x800000
	SupportTypedUnorderedAccess FormatSupport = 0x2000000
)

func (s FormatSupport) Has(f FormatSupport) bool { return s&f == f }

// FormatSupportNames are the D3D11_FORMAT_SUPPORT flags by scenario name.
var FormatSupportNames = map[string]uint32{
	"BUFFER": 0x1, "IA_VERTEX_BUFFER": 0x2, "IA_INDEX_BUFFER": 0x4, "SO_BUFFER": 0x8, "TEXTURE1D": 0x10,
	"TEXTURE2D": 0x20, "TEXTURE3D": 0x40, "TEXTURECUBE": 0x80, "SHADER_LOAD": 0x100, "SHADER_SAMPLE": 0x200,
	"SHADER_SAMPLE_COMPARISON": 0x400, "MIP": 0x1000, "RENDER_TARGET": 0x4000, "BLENDABLE": 0x8000,
	"DEPTH_STENCIL": 0x10000, "CPU_LOCKABLE": 0x20000, "DISPLAY": 0x80000, "CAST_WITHIN_BIT_LAYOUT": 0x100000,
	"MULTISAMPLE_RENDERTARGET": 0x200000, "SHADER_GATHER": 0x800000, "TYPED_UNORDERED_ACCESS_VIEW": 0x2000000,
}

// FormatDesc describes a DXGI format.
type FormatDesc struct {
	Name string
	// Bytes of one element: a texel, or a 4x4 block of a block-compressed
	// format (Block 4).
	Bytes, Block uint8
	// Family is the format's typeless format (itself for a typeless one,
	// FormatUnknown for a format in no family, such as B5G6R5_UNORM).
	Family Format
	// Typeless: a typeless format (R32_TYPELESS ...): resources only; a
	// view names a typed format of its family. The partly typed view
	// formats (R24_UNORM_X8_TYPELESS ...) are not typeless here.
	Typeless bool
	Kind     FormatKind
	// Required is what every feature level 11.0 device supports of the
	// format (of the targets the simulated device models), Optional what
	// a device may support: the driver says which (CheckFormatSupport),
	// and the runtime leaves a resource that needs it to the driver.
	Required, Optional FormatSupport
}

// FormatKind is what a format's channels hold, as a shader reads them.
type FormatKind uint8

const (
	KindNone FormatKind = iota
	KindFloat
	KindUNorm
	KindSNorm
	KindUInt
	KindSInt
	KindSRGB
	KindDepth // a depth-stencil format
)

// Int reports an integer kind.
func (k FormatKind) Int() bool { return k == KindUInt || k == KindSInt }

var formats = map[Format]FormatDesc{}

// Describe returns the format's description (the zero FormatDesc, Name
// "", for a value that is no DXGI format).
func Describe(f Format) FormatDesc { return formats[f] }

// FormatName is the format's name without DXGI_FORMAT_, as scenarios
// spell it, or "format N".
func FormatName(f Format) string {
	if d, ok := formats[f]; ok {
		return d.Name
	}
	return "format " + uitoa(uint32(f))
}

func uitoa(v uint32) string {
	var b [10]byte
	i := len(b)
	for {
		i--
		b[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			return string(b[i:])
		}
	}
}

// The support sets of the table's rows ("Format support for Direct3D
// feature level 11.0 hardware", the targets the simulated device models:
// 2D textures, their loads and samples, render targets, blending, depth
// and stencil, CPU access, vertex and index buffers, display).
const (
	tex = SupportTexture2D | SupportCPULockable | SupportCastWithinBitLayout
	// a colour format shaders load and sample
	texS = tex | SupportShaderLoad | SupportShaderSample
	// an integer format shaders load (no filtering)
	texL = tex | SupportShaderLoad
	rt   = SupportRenderTarget
	bl   = SupportRenderTarget | SupportBlendable
	vb   = SupportIAVertexBuffer
	ds   = SupportDepthStencil | SupportTexture2D | SupportCPULockable | SupportCastWithinBitLayout
)

func init() {
	type row struct {
		f             Format
		name          string
		bytes, block  uint8
		family        Format
		kind          FormatKind
		support       FormatSupport
		typelessGroup bool
	}
	// (family: the typeless format of the group; the typeless rows list
	// themselves.)
	rows := []row{
		{1, "R32G32B32A32_TYPELESS", 16, 1, 1, KindNone, tex, true},
		{2, "R32G32B32A32_FLOAT", 16, 1, 1, KindFloat, texS | bl | vb, false},
		{3, "R32G32B32A32_UINT", 16, 1, 1, KindUInt, texL | rt | vb, false},
		{4, "R32G32B32A32_SINT", 16, 1, 1, KindSInt, texL | rt | vb, false},
		{5, "R32G32B32_TYPELESS", 12, 1, 5, KindNone, tex, true},
		{6, "R32G32B32_FLOAT", 12, 1, 5, KindFloat, texS | vb, false}, // render target: optional, not this GPU
		{7, "R32G32B32_UINT", 12, 1, 5, KindUInt, texL | vb, false},
		{8, "R32G32B32_SINT", 12, 1, 5, KindSInt, texL | vb, false},
		{9, "R16G16B16A16_TYPELESS", 8, 1, 9, KindNone, tex, true},
		{10, "R16G16B16A16_FLOAT", 8, 1, 9, KindFloat, texS | bl | vb, false},
		{11, "R16G16B16A16_UNORM", 8, 1, 9, KindUNorm, texS | bl | vb, false},
		{12, "R16G16B16A16_UINT", 8, 1, 9, KindUInt, texL | rt | vb, false},
		{13, "R16G16B16A16_SNORM", 8, 1, 9, KindSNorm, texS | bl | vb, false},
		{14, "R16G16B16A16_SINT", 8, 1, 9, KindSInt, texL | rt | vb, false},
		{15, "R32G32_TYPELESS", 8, 1, 15, KindNone, tex, true},
		{16, "R32G32_FLOAT", 8, 1, 15, KindFloat, texS | bl | vb, false},
		{17, "R32G32_UINT", 8, 1, 15, KindUInt, texL | rt | vb, false},
		{18, "R32G32_SINT", 8, 1, 15, KindSInt, texL | rt | vb, false},
		{19, "R32G8X24_TYPELESS", 8, 1, 19, KindNone, tex, true},
		{20, "D32_FLOAT_S8X24_UINT", 8, 1, 19, KindDepth, ds, false},
		{21, "R32_FLOAT_X8X24_TYPELESS", 8, 1, 19, KindFloat, texS, false},
		{22, "X32_TYPELESS_G8X24_UINT", 8, 1, 19, KindUInt, texL, false},
		{23, "R10G10B10A2_TYPELESS", 4, 1, 23, KindNone, tex, true},
		{24, "R10G10B10A2_UNORM", 4, 1, 23, KindUNorm, texS | bl | vb, false},
		{25, "R10G10B10A2_UINT", 4, 1, 23, KindUInt, texL | rt | vb, false},
		{26, "R11G11B10_FLOAT", 4, 1, 0, KindFloat, texS | bl | vb, false},
		{27, "R8G8B8A8_TYPELESS", 4, 1, 27, KindNone, tex, true},
		{28, "R8G8B8A8_UNORM", 4, 1, 27, KindUNorm, texS | bl | vb | SupportDisplay, false},
		{29, "R8G8B8A8_UNORM_SRGB", 4, 1, 27, KindSRGB, texS | bl, false},
		{30, "R8G8B8A8_UINT", 4, 1, 27, KindUInt, texL | rt | vb, false},
		{31, "R8G8B8A8_SNORM", 4, 1, 27, KindSNorm, texS | bl | vb, false},
		{32, "R8G8B8A8_SINT", 4, 1, 27, KindSInt, texL | rt | vb, false},
		{33, "R16G16_TYPELESS", 4, 1, 33, KindNone, tex, true},
		{34, "R16G16_FLOAT", 4, 1, 33, KindFloat, texS | bl | vb, false},
		{35, "R16G16_UNORM", 4, 1, 33, KindUNorm, texS | bl | vb, false},
		{36, "R16G16_UINT", 4, 1, 33, KindUInt, texL | rt | vb, false},
		{37, "R16G16_SNORM", 4, 1, 33, KindSNorm, texS | bl | vb, false},
		{38, "R16G16_SINT", 4, 1, 33, KindSInt, texL | rt | vb, false},
		{39, "R32_TYPELESS", 4, 1, 39, KindNone, tex, true},
		{40, "D32_FLOAT", 4, 1, 39, KindDepth, ds, false},
		{41, "R32_FLOAT", 4, 1, 39, KindFloat, texS | bl | vb, false},
		{42, "R32_UINT", 4, 1, 39, KindUInt, texL | rt | vb | SupportIAIndexBuffer, false},
		{43, "R32_SINT", 4, 1, 39, KindSInt, texL | rt | vb, false},
		{44, "R24G8_TYPELESS", 4, 1, 44, KindNone, tex, true},
		{45, "D24_UNORM_S8_UINT", 4, 1, 44, KindDepth, ds, false},
		{46, "R24_UNORM_X8_TYPELESS", 4, 1, 44, KindUNorm, texS, false},
		{47, "X24_TYPELESS_G8_UINT", 4, 1, 44, KindUInt, texL, false},
		{48, "R8G8_TYPELESS", 2, 1, 48, KindNone, tex, true},
		{49, "R8G8_UNORM", 2, 1, 48, KindUNorm, texS | bl | vb, false},
		{50, "R8G8_UINT", 2, 1, 48, KindUInt, texL | rt | vb, false},
		{51, "R8G8_SNORM", 2, 1, 48, KindSNorm, texS | bl | vb, false},
		{52, "R8G8_SINT", 2, 1, 48, KindSInt, texL | rt | vb, false},
		{53, "R16_TYPELESS", 2, 1, 53, KindNone, tex, true},
		{54, "R16_FLOAT", 2, 1, 53, KindFloat, texS | bl | vb, false},
		{55, "D16_UNORM", 2, 1, 53, KindDepth, ds, false},
		{56, "R16_UNORM", 2, 1, 53, KindUNorm, texS | bl | vb, false},
		{57, "R16_UINT", 2, 1, 53, KindUInt, texL | rt | vb | SupportIAIndexBuffer, false},
		{58, "R16_SNORM", 2, 1, 53, KindSNorm, texS | bl | vb, false},
		{59, "R16_SINT", 2, 1, 53, KindSInt, texL | rt | vb, false},
		{60, "R8_TYPELESS", 1, 1, 60, KindNone, tex, true},
		{61, "R8_UNORM", 1, 1, 60, KindUNorm, texS | bl | vb, false},
		{62, "R8_UINT", 1, 1, 60, KindUInt, texL | rt | vb, false},
		{63, "R8_SNORM", 1, 1, 60, KindSNorm, texS | bl | vb, false},
		{64, "R8_SINT", 1, 1, 60, KindSInt, texL | rt | vb, false},
		{65, "A8_UNORM", 1, 1, 0, KindUNorm, texS | bl, false},
		{66, "R1_UNORM", 0, 1, 0, KindUNorm, 0, false}, // (not modelled: no support)
		{67, "R9G9B9E5_SHAREDEXP", 4, 1, 0, KindFloat, texS, false},
		{68, "R8G8_B8G8_UNORM", 0, 1, 0, KindUNorm, 0, false},
		{69, "G8R8_G8B8_UNORM", 0, 1, 0, KindUNorm, 0, false},
		{70, "BC1_TYPELESS", 8, 4, 70, KindNone, tex, true},
		{71, "BC1_UNORM", 8, 4, 70, KindUNorm, texS, false},
		{72, "BC1_UNORM_SRGB", 8, 4, 70, KindSRGB, texS, false},
		{73, "BC2_TYPELESS", 16, 4, 73, KindNone, tex, true},
		{74, "BC2_UNORM", 16, 4, 73, KindUNorm, texS, false},
		{75, "BC2_UNORM_SRGB", 16, 4, 73, KindSRGB, texS, false},
		{76, "BC3_TYPELESS", 16, 4, 76, KindNone, tex, true},
		{77, "BC3_UNORM", 16, 4, 76, KindUNorm, texS, false},
		{78, "BC3_UNORM_SRGB", 16, 4, 76, KindSRGB, texS, false},
		{79, "BC4_TYPELESS", 8, 4, 79, KindNone, tex, true},
		{80, "BC4_UNORM", 8, 4, 79, KindUNorm, texS, false},
		{81, "BC4_SNORM", 8, 4, 79, KindSNorm, texS, false},
		{82, "BC5_TYPELESS", 16, 4, 82, KindNone, tex, true},
		{83, "BC5_UNORM", 16, 4, 82, KindUNorm, texS, false},
		{84, "BC5_SNORM", 16, 4, 82, KindSNorm, texS, false},
		{85, "B5G6R5_UNORM", 2, 1, 0, KindUNorm, texS | bl, false},
		{86, "B5G5R5A1_UNORM", 2, 1, 0, KindUNorm, texS | bl, false},
		{87, "B8G8R8A8_UNORM", 4, 1, 90, KindUNorm, texS | bl | vb | SupportDisplay, false},
		{88, "B8G8R8X8_UNORM", 4, 1, 92, KindUNorm, texS | bl, false},
		{89, "R10G10B10_XR_BIAS_A2_UNORM", 0, 1, 0, KindUNorm, 0, false},
		{90, "B8G8R8A8_TYPELESS", 4, 1, 90, KindNone, tex, true},
		{91, "B8G8R8A8_UNORM_SRGB", 4, 1, 90, KindSRGB, texS | bl, false},
		{92, "B8G8R8X8_TYPELESS", 4, 1, 92, KindNone, tex, true},
		{93, "B8G8R8X8_UNORM_SRGB", 4, 1, 92, KindSRGB, texS | bl, false},
		{94, "BC6H_TYPELESS", 16, 4, 94, KindNone, tex, true},
		{95, "BC6H_UF16", 16, 4, 94, KindFloat, texS, false},
		{96, "BC6H_SF16", 16, 4, 94, KindFloat, texS, false},
		{97, "BC7_TYPELESS", 16, 4, 97, KindNone, tex, true},
		{98, "BC7_UNORM", 16, 4, 97, KindUNorm, texS, false},
		{99, "BC7_UNORM_SRGB", 16, 4, 97, KindSRGB, texS, false},
		{115, "B4G4R4A4_UNORM", 2, 1, 0, KindUNorm, texS | bl, false},
	}
	for _, r := range rows {
		s := r.support
		if r.family == 0 {
			s &^= SupportCastWithinBitLayout // in no family: nothing to cast to
		}
		if r.bytes == 0 {
			s = 0
		}
		if typedUAV[r.f] {
			s |= SupportTypedUnorderedAccess
		}
		formats[r.f] = FormatDesc{Name: r.name, Bytes: r.bytes, Block: r.block, Family: r.family, Typeless: r.typelessGroup,
			Kind: r.kind, Required: s, Optional: optional[r.f]}
		Enums["Format"][r.name] = uint32(r.f)
	}
}

// typedUAV are the formats of typed unordered access views (stores)
// feature level 11.0 requires ("Format support for Direct3D feature level
// 11.0 hardware": every 1-, 2- and 4-channel UNORM, SNORM, UINT, SINT and
// FLOAT format of 8, 16 and 32 bits and the packed 10:10:10:2 and 11:11:10;
// not sRGB, BGRA, the 96-bit ones or depth).
var typedUAV = func() map[Format]bool {
	m := map[Format]bool{}
	for _, f := range []Format{2, 3, 4, 10, 11, 12, 13, 14, 16, 17, 18, 24, 25, 26, 28, 30, 31, 32, 34, 35, 36, 37, 38,
		41, 42, 43, 49, 50, 51, 52, 54, 56, 57, 58, 59, 61, 62, 63, 64} {
		m[f] = true
	}
	return m
}()

// optional is the support feature level 11.0 leaves optional, of the
// targets modelled: render targets of the 96-bit formats.
var optional = map[Format]FormatSupport{6: bl, 7: rt, 8: rt}

// Required reports what every feature level 11.0 device supports of f,
// for a typeless format what it supports of some format of its family (a
// typeless resource is bound through views of those): 0 for an unknown
// format.
func Required(f Format) FormatSupport {
	return family(f, func(d FormatDesc) FormatSupport { return d.Required })
}

// Optional is Required's counterpart for the optional support.
func Optional(f Format) FormatSupport {
	return family(f, func(d FormatDesc) FormatSupport { return d.Optional })
}

func family(f Format, of func(FormatDesc) FormatSupport) FormatSupport {
	d := formats[f]
	s := of(d)
	if d.Typeless {
		for _, m := range formats {
			if m.Family == f && !m.Typeless {
				s |= of(m)
			}
		}
	}
	return s
}

// SameFamily reports whether a view of format v may look at a resource of
// format r: the same format, or a typed member of the typeless resource's
// family.
func SameFamily(r, v Format) bool {
	if r == v {
		return true
	}
	dr, dv := formats[r], formats[v]
	return dr.Typeless && !dv.Typeless && dv.Family == r
}

// RowBytes is the bytes of one row of a w-texel-wide surface of format f
// (a row of 4x4 blocks for a block-compressed one), and Rows the rows of
// memory an h-texel-high one takes.
func RowBytes(f Format, w uint32) uint32 {
	d := formats[f]
	if d.Block == 4 {
		return (w + 3) / 4 * uint32(d.Bytes)
	}
	return w * uint32(d.Bytes)
}

func Rows(f Format, h uint32) uint32 {
	if formats[f].Block == 4 {
		return (h + 3) / 4
	}
	return h
}
