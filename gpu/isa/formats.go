package isa

// The hardware's surface formats. Codes 1 to 7 are the first ones the GPU
// had and keep their numbers; the rest follow. Each is named after the DXGI
// format whose texels it holds (the UMD maps DXGI formats onto them, a
// typeless DXGI format onto the format of its bit layout), and package
// gpu/texel decodes and encodes every one.
const (
	FmtNone  Format = 0
	FmtRGBA8 Format = 1 // R8G8B8A8_UNORM: 4 bytes R, G, B, A
	FmtBGRA8 Format = 2 // B8G8R8A8_UNORM: 4 bytes B, G, R, A
	FmtD32F  Format = 3 // D32_FLOAT: float32 depth
	FmtD24S8 Format = 4 // D24_UNORM_S8_UINT: 4 bytes little endian, depth unorm24 in bits 0..23, stencil in 24..31
	FmtR32F  Format = 5 // R32_FLOAT
	FmtR16UI Format = 6 // R16_UINT (index buffers too)
	FmtR32UI Format = 7 // R32_UINT (index buffers too)

	FmtRGBA32F   Format = 8  // R32G32B32A32_FLOAT
	FmtRGBA32UI  Format = 9  // R32G32B32A32_UINT
	FmtRGBA32SI  Format = 10 // R32G32B32A32_SINT
	FmtRGB32F    Format = 11 // R32G32B32_FLOAT
	FmtRGB32UI   Format = 12 // R32G32B32_UINT
	FmtRGB32SI   Format = 13 // R32G32B32_SINT
	FmtRGBA16F   Format = 14 // R16G16B16A16_FLOAT
	FmtRGBA16UN  Format = 15 // R16G16B16A16_UNORM
	FmtRGBA16UI  Format = 16 // R16G16B16A16_UINT
	FmtRGBA16SN  Format = 17 // R16G16B16A16_SNORM
	FmtRGBA16SI  Format = 18 // R16G16B16A16_SINT
	FmtRG32F     Format = 19 // R32G32_FLOAT
	FmtRG32UI    Format = 20 // R32G32_UINT
	FmtRG32SI    Format = 21 // R32G32_SINT
	FmtD32FS8    Format = 22 // D32_FLOAT_S8X24_UINT: float32 depth, then stencil in the low byte of the next word
	FmtR32FX32   Format = 23 // R32_FLOAT_X8X24_TYPELESS: the depth of FmtD32FS8 as R32_FLOAT
	FmtX32S8UI   Format = 24 // X32_TYPELESS_G8X24_UINT: the stencil of FmtD32FS8 as green, uint
	FmtRGB10A2UN Format = 25 // R10G10B10A2_UNORM
	FmtRGB10A2UI Format = 26 // R10G10B10A2_UINT
	FmtRG11B10F  Format = 27 // R11G11B10_FLOAT
	FmtRGBA8SRGB Format = 28 // R8G8B8A8_UNORM_SRGB
	FmtRGBA8UI   Format = 29 // R8G8B8A8_UINT
	FmtRGBA8SN   Format = 30 // R8G8B8A8_SNORM
	FmtRGBA8SI   Format = 31 // R8G8B8A8_SINT
	FmtRG16F     Format = 32 // R16G16_FLOAT
	FmtRG16UN    Format = 33 // R16G16_UNORM
	FmtRG16UI    Format = 34 // R16G16_UINT
	FmtRG16SN    Format = 35 // R16G16_SNORM
	FmtRG16SI    Format = 36 // R16G16_SINT
	FmtR32SI     Format = 37 // R32_SINT
	FmtR24X8     Format = 38 // R24_UNORM_X8_TYPELESS: the depth of FmtD24S8 as red, unorm
	FmtX24S8UI   Format = 39 // X24_TYPELESS_G8_UINT: the stencil of FmtD24S8 as green, uint
	FmtRG8UN     Format = 40 // R8G8_UNORM
	FmtRG8UI     Format = 41 // R8G8_UINT
	FmtRG8SN     Format = 42 // R8G8_SNORM
	FmtRG8SI     Format = 43 // R8G8_SINT
	FmtR16F      Format = 44 // R16_FLOAT
	FmtD16       Format = 45 // D16_UNORM: unorm16 depth
	FmtR16UN     Format = 46 // R16_UNORM
	FmtR16SN     Format = 47 // R16_SNORM
	FmtR16SI     Format = 48 // R16_SINT
	FmtR8UN      Format = 49 // R8_UNORM
	FmtR8UI      Format = 50 // R8_UINT
	FmtR8SN      Format = 51 // R8_SNORM
	FmtR8SI      Format = 52 // R8_SINT
	FmtA8UN      Format = 53 // A8_UNORM: one byte, alpha
	FmtRGB9E5    Format = 54 // R9G9B9E5_SHAREDEXP
	FmtB5G6R5    Format = 55 // B5G6R5_UNORM: blue in bits 0..4, green 5..10, red 11..15
	FmtBGR5A1    Format = 56 // B5G5R5A1_UNORM: blue 0..4, green 5..9, red 10..14, alpha 15
	FmtBGRA8SRGB Format = 57 // B8G8R8A8_UNORM_SRGB
	FmtBGRX8     Format = 58 // B8G8R8X8_UNORM: alpha reads 1
	FmtBGRX8SRGB Format = 59 // B8G8R8X8_UNORM_SRGB
	FmtBGRA4     Format = 60 // B4G4R4A4_UNORM: blue 0..3, green 4..7, red 8..11, alpha 12..15
	FmtBC1       Format = 61 // BC1_UNORM: 4x4 blocks of 8 bytes
	FmtBC1SRGB   Format = 62 // BC1_UNORM_SRGB
	FmtBC2       Format = 63 // BC2_UNORM: 16 bytes
	FmtBC2SRGB   Format = 64 // BC2_UNORM_SRGB
	FmtBC3       Format = 65 // BC3_UNORM: 16 bytes
	FmtBC3SRGB   Format = 66 // BC3_UNORM_SRGB
	FmtBC4UN     Format = 67 // BC4_UNORM: 8 bytes
	FmtBC4SN     Format = 68 // BC4_SNORM
	FmtBC5UN     Format = 69 // BC5_UNORM: 16 bytes
	FmtBC5SN     Format = 70 // BC5_SNORM
	FmtBC6HUF    Format = 71 // BC6H_UF16: 16 bytes
	FmtBC6HSF    Format = 72 // BC6H_SF16
	FmtBC7       Format = 73 // BC7_UNORM: 16 bytes
	FmtBC7SRGB   Format = 74 // BC7_UNORM_SRGB
	numFormats   Format = 75
)

// Number is what the channels of a format hold, as a shader reads them:
// normalized integers and floats read as floats, integers as integers.
type Number uint8

const (
	NumNone  Number = iota
	NumUNorm        // unsigned normalized: 0..2^n-1 reads 0..1
	NumSNorm        // signed normalized: -(2^(n-1)-1)..2^(n-1)-1 reads -1..1 (the minimum also -1)
	NumUInt         // unsigned integer
	NumSInt         // signed integer
	NumFloat        // floating point (32, 16, 11, 10 bits or shared exponent)
	NumSRGB         // unsigned normalized, sRGB-encoded red, green and blue (alpha linear)
)

// FormatInfo describes a format: its name (the DXGI format it holds), the
// bytes of a texel (of a 4x4 block for a block-compressed format: Block
// 4), the channels it stores and their numbers, and whether it holds depth
// or stencil for the depth test.
type FormatInfo struct {
	Name     string
	Bytes    uint8
	Block    uint8 // 1, or 4 for block compression (BC1..BC7)
	Channels uint8
	Number   Number
	Depth    bool // a depth buffer format (FmtD32F, FmtD24S8, FmtD16, FmtD32FS8)
	Stencil  bool // with a stencil channel
}

var formatInfo = [numFormats]FormatInfo{
	FmtRGBA8: {"R8G8B8A8_UNORM", 4, 1, 4, NumUNorm, false, false}, FmtBGRA8: {"B8G8R8A8_UNORM", 4, 1, 4, NumUNorm, false, false},
	FmtD32F: {"D32_FLOAT", 4, 1, 1, NumFloat, true, false}, FmtD24S8: {"D24_UNORM_S8_UINT", 4, 1, 2, NumUNorm, true, true},
	FmtR32F: {"R32_FLOAT", 4, 1, 1, NumFloat, false, false}, FmtR16UI: {"R16_UINT", 2, 1, 1, NumUInt, false, false},
	FmtR32UI: {"R32_UINT", 4, 1, 1, NumUInt, false, false},

	FmtRGBA32F: {"R32G32B32A32_FLOAT", 16, 1, 4, NumFloat, false, false}, FmtRGBA32UI: {"R32G32B32A32_UINT", 16, 1, 4, NumUInt, false, false},
	FmtRGBA32SI: {"R32G32B32A32_SINT", 16, 1, 4, NumSInt, false, false}, FmtRGB32F: {"R32G32B32_FLOAT", 12, 1, 3, NumFloat, false, false},
	FmtRGB32UI: {"R32G32B32_UINT", 12, 1, 3, NumUInt, false, false}, FmtRGB32SI: {"R32G32B32_SINT", 12, 1, 3, NumSInt, false, false},
	FmtRGBA16F: {"R16G16B16A16_FLOAT", 8, 1, 4, NumFloat, false, false}, FmtRGBA16UN: {"R16G16B16A16_UNORM", 8, 1, 4, NumUNorm, false, false},
	FmtRGBA16UI: {"R16G16B16A16_UINT", 8, 1, 4, NumUInt, false, false}, FmtRGBA16SN: {"R16G16B16A16_SNORM", 8, 1, 4, NumSNorm, false, false},
	FmtRGBA16SI: {"R16G16B16A16_SINT", 8, 1, 4, NumSInt, false, false}, FmtRG32F: {"R32G32_FLOAT", 8, 1, 2, NumFloat, false, false},
	FmtRG32UI: {"R32G32_UINT", 8, 1, 2, NumUInt, false, false}, FmtRG32SI: {"R32G32_SINT", 8, 1, 2, NumSInt, false, false},
	FmtD32FS8: {"D32_FLOAT_S8X24_UINT", 8, 1, 2, NumFloat, true, true}, FmtR32FX32: {"R32_FLOAT_X8X24_TYPELESS", 8, 1, 1, NumFloat, false, false},
	FmtX32S8UI: {"X32_TYPELESS_G8X24_UINT", 8, 1, 2, NumUInt, false, false}, FmtRGB10A2UN: {"R10G10B10A2_UNORM", 4, 1, 4, NumUNorm, false, false},
	FmtRGB10A2UI: {"R10G10B10A2_UINT", 4, 1, 4, NumUInt, false, false}, FmtRG11B10F: {"R11G11B10_FLOAT", 4, 1, 3, NumFloat, false, false},
	FmtRGBA8SRGB: {"R8G8B8A8_UNORM_SRGB", 4, 1, 4, NumSRGB, false, false}, FmtRGBA8UI: {"R8G8B8A8_UINT", 4, 1, 4, NumUInt, false, false},
	FmtRGBA8SN: {"R8G8B8A8_SNORM", 4, 1, 4, NumSNorm, false, false}, FmtRGBA8SI: {"R8G8B8A8_SINT", 4, 1, 4, NumSInt, false, false},
	FmtRG16F: {"R16G16_FLOAT", 4, 1, 2, NumFloat, false, false}, FmtRG16UN: {"R16G16_UNORM", 4, 1, 2, NumUNorm, false, false},
	FmtRG16UI: {"R16G16_UINT", 4, 1, 2, NumUInt, false, false}, FmtRG16SN: {"R16G16_SNORM", 4, 1, 2, NumSNorm, false, false},
	FmtRG16SI: {"R16G16_SINT", 4, 1, 2, NumSInt, false, false}, FmtR32SI: {"R32_SINT", 4, 1, 1, NumSInt, false, false},
	FmtR24X8: {"R24_UNORM_X8_TYPELESS", 4, 1, 1, NumUNorm, false, false}, FmtX24S8UI: {"X24_TYPELESS_G8_UINT", 4, 1, 2, NumUInt, false, false},
	FmtRG8UN: {"R8G8_UNORM", 2, 1, 2, NumUNorm, false, false}, FmtRG8UI: {"R8G8_UINT", 2, 1, 2, NumUInt, false, false},
	FmtRG8SN: {"R8G8_SNORM", 2, 1, 2, NumSNorm, false, false}, FmtRG8SI: {"R8G8_SINT", 2, 1, 2, NumSInt, false, false},
	FmtR16F: {"R16_FLOAT", 2, 1, 1, NumFloat, false, false}, FmtD16: {"D16_UNORM", 2, 1, 1, NumUNorm, true, false},
	FmtR16UN: {"R16_UNORM", 2, 1, 1, NumUNorm, false, false}, FmtR16SN: {"R16_SNORM", 2, 1, 1, NumSNorm, false, false},
	FmtR16SI: {"R16_SINT", 2, 1, 1, NumSInt, false, false}, FmtR8UN: {"R8_UNORM", 1, 1, 1, NumUNorm, false, false},
	FmtR8UI: {"R8_UINT", 1, 1, 1, NumUInt, false, false}, FmtR8SN: {"R8_SNORM", 1, 1, 1, NumSNorm, false, false},
	FmtR8SI: {"R8_SINT", 1, 1, 1, NumSInt, false, false}, FmtA8UN: {"A8_UNORM", 1, 1, 1, NumUNorm, false, false},
	FmtRGB9E5: {"R9G9B9E5_SHAREDEXP", 4, 1, 3, NumFloat, false, false}, FmtB5G6R5: {"B5G6R5_UNORM", 2, 1, 3, NumUNorm, false, false},
	FmtBGR5A1: {"B5G5R5A1_UNORM", 2, 1, 4, NumUNorm, false, false}, FmtBGRA8SRGB: {"B8G8R8A8_UNORM_SRGB", 4, 1, 4, NumSRGB, false, false},
	FmtBGRX8: {"B8G8R8X8_UNORM", 4, 1, 3, NumUNorm, false, false}, FmtBGRX8SRGB: {"B8G8R8X8_UNORM_SRGB", 4, 1, 3, NumSRGB, false, false},
	FmtBGRA4: {"B4G4R4A4_UNORM", 2, 1, 4, NumUNorm, false, false},
	FmtBC1:   {"BC1_UNORM", 8, 4, 4, NumUNorm, false, false}, FmtBC1SRGB: {"BC1_UNORM_SRGB", 8, 4, 4, NumSRGB, false, false},
	FmtBC2: {"BC2_UNORM", 16, 4, 4, NumUNorm, false, false}, FmtBC2SRGB: {"BC2_UNORM_SRGB", 16, 4, 4, NumSRGB, false, false},
	FmtBC3: {"BC3_UNORM", 16, 4, 4, NumUNorm, false, false}, FmtBC3SRGB: {"BC3_UNORM_SRGB", 16, 4, 4, NumSRGB, false, false},
	FmtBC4UN: {"BC4_UNORM", 8, 4, 1, NumUNorm, false, false}, FmtBC4SN: {"BC4_SNORM", 8, 4, 1, NumSNorm, false, false},
	FmtBC5UN: {"BC5_UNORM", 16, 4, 2, NumUNorm, false, false}, FmtBC5SN: {"BC5_SNORM", 16, 4, 2, NumSNorm, false, false},
	FmtBC6HUF: {"BC6H_UF16", 16, 4, 3, NumFloat, false, false}, FmtBC6HSF: {"BC6H_SF16", 16, 4, 3, NumFloat, false, false},
	FmtBC7: {"BC7_UNORM", 16, 4, 4, NumUNorm, false, false}, FmtBC7SRGB: {"BC7_UNORM_SRGB", 16, 4, 4, NumSRGB, false, false},
}

// Info describes the format (the zero FormatInfo for an unknown one: Bytes
// 0).
func (f Format) Info() FormatInfo {
	if f >= numFormats {
		return FormatInfo{}
	}
	return formatInfo[f]
}

// Known reports whether the hardware has the format.
func (f Format) Known() bool { return f != FmtNone && f < numFormats && formatInfo[f].Bytes != 0 }

func (f Format) String() string {
	if f.Known() {
		return formatInfo[f].Name
	}
	return "format " + itoa(uint32(f))
}

// Int reports whether the format's channels read as integers.
func (f Format) Int() bool {
	n := f.Info().Number
	return n == NumUInt || n == NumSInt
}

// Compressed reports a block-compressed format.
func (f Format) Compressed() bool { return f.Info().Block == 4 }

// RowBytes is the bytes one row of a surface w texels wide takes (a row of
// blocks for a block-compressed format), 0 for an unknown format.
func (f Format) RowBytes(w uint32) uint64 {
	i := f.Info()
	if i.Block == 4 {
		return uint64((w+3)/4) * uint64(i.Bytes)
	}
	return uint64(w) * uint64(i.Bytes)
}

// Rows is the rows of memory a surface h texels high takes: h, or its
// rows of 4x4 blocks.
func (f Format) Rows(h uint32) uint32 {
	if f.Info().Block == 4 {
		return (h + 3) / 4
	}
	return h
}

// Formats lists every format the hardware has, in code order.
func Formats() []Format {
	var out []Format
	for f := FmtNone + 1; f < numFormats; f++ {
		if f.Known() {
			out = append(out, f)
		}
	}
	return out
}

func itoa(v uint32) string {
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

// Displayable reports whether the display engine scans out surfaces of
// format f: the formats of a swap chain's buffers ("DXGI_SWAP_CHAIN_DESC1":
// R16G16B16A16_FLOAT, B8G8R8A8_UNORM, R8G8B8A8_UNORM and R10G10B10A2_UNORM
// for the flip model; a bitblt-model swap chain may also have the _SRGB
// variants of the 8-bit ones).
func Displayable(f Format) bool {
	switch f {
	case FmtRGBA8, FmtBGRA8, FmtRGBA8SRGB, FmtBGRA8SRGB, FmtRGB10A2UN, FmtRGBA16F:
		return true
	}
	return false
}
