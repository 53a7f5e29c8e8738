package texel

import (
	"encoding/binary"
	"math"

	"d3dsim/gpu/isa"
)

// A format's channels: for each of red, green, blue and alpha, where its
// field is in the texel (bit offset and width, little endian) and what
// number it holds. A width of 0 is a channel the format lacks.
type field struct {
	off, bits uint8
	num       isa.Number
}

type layout struct {
	ch  [4]field
	int bool // absent alpha reads integer 1
	// xbyte: the byte at this offset is an unused X channel, written 0xFF
	// (B8G8R8X8); 0xFF: none.
	xbyte uint8
	// special: decoded by code of its own (shared exponent, blocks).
	special uint8
}

const (
	specNone = iota
	specRGB9E5
	specBC
)

var layouts = func() (t [256]layout) {
	plain := func(n isa.Number, bits uint8, chans ...int) layout {
		l := layout{int: n == isa.NumUInt || n == isa.NumSInt, xbyte: 0xFF}
		for i, c := range chans {
			l.ch[c] = field{off: uint8(i) * bits, bits: bits, num: n}
		}
		return l
	}
	u, s, ui, si, f := isa.NumUNorm, isa.NumSNorm, isa.NumUInt, isa.NumSInt, isa.NumFloat
	rgba, rgb, rg, r := []int{0, 1, 2, 3}, []int{0, 1, 2}, []int{0, 1}, []int{0}
	set := func(fm isa.Format, l layout) { t[fm] = l }
	for _, e := range []struct {
		fm    isa.Format
		n     isa.Number
		bits  uint8
		chans []int
	}{
		{isa.FmtRGBA8, u, 8, rgba}, {isa.FmtBGRA8, u, 8, []int{2, 1, 0, 3}}, {isa.FmtR32F, f, 32, r},
		{isa.FmtR16UI, ui, 16, r}, {isa.FmtR32UI, ui, 32, r},
		{isa.FmtRGBA32F, f, 32, rgba}, {isa.FmtRGBA32UI, ui, 32, rgba}, {isa.FmtRGBA32SI, si, 32, rgba},
		{isa.FmtRGB32F, f, 32, rgb}, {isa.FmtRGB32UI, ui, 32, rgb}, {isa.FmtRGB32SI, si, 32, rgb},
		{isa.FmtRGBA16F, f, 16, rgba}, {isa.FmtRGBA16UN, u, 16, rgba}, {isa.FmtRGBA16UI, ui, 16, rgba},
		{isa.FmtRGBA16SN, s, 16, rgba}, {isa.FmtRGBA16SI, si, 16, rgba},
		{isa.FmtRG32F, f, 32, rg}, {isa.FmtRG32UI, ui, 32, rg}, {isa.FmtRG32SI, si, 32, rg},
		{isa.FmtRGBA8SRGB, isa.NumSRGB, 8, rgba}, {isa.FmtRGBA8UI, ui, 8, rgba}, {isa.FmtRGBA8SN, s, 8, rgba},
		{isa.FmtRGBA8SI, si, 8, rgba},
		{isa.FmtRG16F, f, 16, rg}, {isa.FmtRG16UN, u, 16, rg}, {isa.FmtRG16UI, ui, 16, rg}, {isa.FmtRG16SN, s, 16, rg},
		{isa.FmtRG16SI, si, 16, rg}, {isa.FmtR32SI, si, 32, r},
		{isa.FmtRG8UN, u, 8, rg}, {isa.FmtRG8UI, ui, 8, rg}, {isa.FmtRG8SN, s, 8, rg}, {isa.FmtRG8SI, si, 8, rg},
		{isa.FmtR16F, f, 16, r}, {isa.FmtR16UN, u, 16, r}, {isa.FmtR16SN, s, 16, r}, {isa.FmtR16SI, si, 16, r},
		{isa.FmtR8UN, u, 8, r}, {isa.FmtR8UI, ui, 8, r}, {isa.FmtR8SN, s, 8, r}, {isa.FmtR8SI, si, 8, r},
		{isa.FmtD32F, f, 32, r}, {isa.FmtD16, u, 16, r},
		{isa.FmtBGRA8SRGB, isa.NumSRGB, 8, []int{2, 1, 0, 3}},
	} {
		set(e.fm, plain(e.n, e.bits, e.chans...))
	}
	bgrx := plain(u, 8, 2, 1, 0)
	bgrx.xbyte = 3
	set(isa.FmtBGRX8, bgrx)
	bgrx.ch[0].num, bgrx.ch[1].num, bgrx.ch[2].num = isa.NumSRGB, isa.NumSRGB, isa.NumSRGB
	set(isa.FmtBGRX8SRGB, bgrx)
	set(isa.FmtA8UN, layout{ch: [4]field{3: {0, 8, u}}, xbyte: 0xFF})
	packed := func(n isa.Number, int bool, fs ...[2]uint8) layout {
		l := layout{int: int, xbyte: 0xFF}
		for c, x := range fs {
			if x[1] != 0 {
				l.ch[c] = field{off: x[0], bits: x[1], num: n}
			}
		}
		return l
	}
	set(isa.FmtRGB10A2UN, packed(u, false, [2]uint8{0, 10}, [2]uint8{10, 10}, [2]uint8{20, 10}, [2]uint8{30, 2}))
	set(isa.FmtRGB10A2UI, packed(ui, true, [2]uint8{0, 10}, [2]uint8{10, 10}, [2]uint8{20, 10}, [2]uint8{30, 2}))
	set(isa.FmtRG11B10F, packed(f, false, [2]uint8{0, 11}, [2]uint8{11, 11}, [2]uint8{22, 10}))
	set(isa.FmtB5G6R5, packed(u, false, [2]uint8{11, 5}, [2]uint8{5, 6}, [2]uint8{0, 5}))
	set(isa.FmtBGR5A1, packed(u, false, [2]uint8{10, 5}, [2]uint8{5, 5}, [2]uint8{0, 5}, [2]uint8{15, 1}))
	set(isa.FmtBGRA4, packed(u, false, [2]uint8{8, 4}, [2]uint8{4, 4}, [2]uint8{0, 4}, [2]uint8{12, 4}))
	// Depth and stencil: the depth reads as red, the stencil as green.
	set(isa.FmtD24S8, layout{ch: [4]field{{0, 24, u}}, xbyte: 0xFF})
	set(isa.FmtR24X8, layout{ch: [4]field{{0, 24, u}}, xbyte: 0xFF})
	set(isa.FmtX24S8UI, layout{ch: [4]field{1: {24, 8, ui}}, int: true, xbyte: 0xFF})
	set(isa.FmtD32FS8, layout{ch: [4]field{{0, 32, f}}, xbyte: 0xFF})
	set(isa.FmtR32FX32, layout{ch: [4]field{{0, 32, f}}, xbyte: 0xFF})
	set(isa.FmtX32S8UI, layout{ch: [4]field{1: {32, 8, ui}}, int: true, xbyte: 0xFF})
	set(isa.FmtRGB9E5, layout{special: specRGB9E5, xbyte: 0xFF})
	for _, fm := range []isa.Format{isa.FmtBC1, isa.FmtBC1SRGB, isa.FmtBC2, isa.FmtBC2SRGB, isa.FmtBC3, isa.FmtBC3SRGB,
		isa.FmtBC4UN, isa.FmtBC4SN, isa.FmtBC5UN, isa.FmtBC5SN, isa.FmtBC6HUF, isa.FmtBC6HSF, isa.FmtBC7, isa.FmtBC7SRGB} {
		set(fm, layout{special: specBC, xbyte: 0xFF})
	}
	return t
}()

var (
	one   = math.Float32bits(1)
	zero4 = [4]uint32{}
)

// Defaults is what the channels a format lacks read: 0, 0, 0, 1 (integer 1
// for an integer format).
func Defaults(f isa.Format) [4]uint32 {
	if f.Int() {
		return [4]uint32{0, 0, 0, 1}
	}
	return [4]uint32{0, 0, 0, one}
}

// Decode reads the texel at the start of src (a whole texel of f, not a
// block-compressed one: Load reads those) as a shader sees it.
func Decode(f isa.Format, src []byte) [4]uint32 {
	if int(f) >= len(layouts) {
		return zero4
	}
	l := &layouts[f]
	switch l.special {
	case specRGB9E5:
		c := RGB9E5ToFloat(binary.LittleEndian.Uint32(src))
		return [4]uint32{math.Float32bits(c[0]), math.Float32bits(c[1]), math.Float32bits(c[2]), one}
	case specBC:
		return zero4
	}
	out := [4]uint32{0, 0, 0, one}
	if l.int {
		out[3] = 1
	}
	for c := range l.ch {
		fd := &l.ch[c]
		if fd.bits == 0 {
			continue
		}
		out[c] = toShader(fd, c, readField(src, fd.off, fd.bits))
	}
	return out
}

// Load reads texel (x, y) of a surface of format f whose rows (of blocks,
// for a block-compressed format) are pitch bytes apart; (x, y) must be
// inside it.
func Load(f isa.Format, mem []byte, pitch, x, y int) [4]uint32 {
	i := f.Info()
	if i.Block == 4 {
		o := (y>>2)*pitch + (x>>2)*int(i.Bytes)
		return DecodeBlockTexel(f, mem[o:o+int(i.Bytes)], x&3, y&3)
	}
	o := y*pitch + x*int(i.Bytes)
	return Decode(f, mem[o:o+int(i.Bytes)])
}

// readField reads bits bits at bit offset off of the little-endian texel.
func readField(src []byte, off, bits uint8) uint32 {
	if off%8 == 0 {
		b := src[off/8:]
		switch bits {
		case 8:
			return uint32(b[0])
		case 16:
			return uint32(binary.LittleEndian.Uint16(b))
		case 32:
			return binary.LittleEndian.Uint32(b)
		}
	}
	// A packed field: inside the texel's first 32 bits (or 16).
	var w uint32
	if len(src) >= 4 {
		w = binary.LittleEndian.Uint32(src)
	} else {
		w = uint32(binary.LittleEndian.Uint16(src))
	}
	return w >> off & (1<<bits - 1)
}

// writeField writes v (already bits bits wide) at bit offset off.
func writeField(dst []byte, off, bits uint8, v uint32) {
	if off%8 == 0 {
		b := dst[off/8:]
		switch bits {
		case 8:
			b[0] = byte(v)
			return
		case 16:
			binary.LittleEndian.PutUint16(b, uint16(v))
			return
		case 32:
			binary.LittleEndian.PutUint32(b, v)
			return
		}
	}
	m := uint32(1<<bits-1) << off
	if len(dst) >= 4 {
		w := binary.LittleEndian.Uint32(dst)
		binary.LittleEndian.PutUint32(dst, w&^m|v<<off&m)
		return
	}
	w := uint32(binary.LittleEndian.Uint16(dst))
	binary.LittleEndian.PutUint16(dst, uint16(w&^m|v<<off&m))
}

// toShader converts the stored field v of channel c to the shader's bits.
func toShader(fd *field, c int, v uint32) uint32 {
	switch fd.num {
	case isa.NumUNorm:
		return math.Float32bits(UNormToFloat(v, fd.bits))
	case isa.NumSNorm:
		return math.Float32bits(SNormToFloat(v, fd.bits))
	case isa.NumSRGB:
		if c == 3 {
			return math.Float32bits(UNormToFloat(v, fd.bits))
		}
		return math.Float32bits(srgbToLinear8[v&0xFF])
	case isa.NumSInt:
		return uint32(int32(v<<(32-fd.bits)) >> (32 - fd.bits)) // sign-extend
	case isa.NumFloat:
		switch fd.bits {
		case 16:
			return math.Float32bits(HalfToFloat(uint16(v)))
		case 11:
			return math.Float32bits(Float11ToFloat(v))
		case 10:
			return math.Float32bits(Float10ToFloat(v))
		}
	}
	return v // UINT, FLOAT32
}

// fromShader converts the shader's bits s for channel c to the stored field.
func fromShader(fd *field, c int, s uint32) uint32 {
	max := uint32(1<<fd.bits - 1)
	switch fd.num {
	case isa.NumUNorm:
		return quantizeUNorm(math.Float32frombits(s), max)
	case isa.NumSRGB:
		if c == 3 {
			return quantizeUNorm(math.Float32frombits(s), max)
		}
		return encodeSRGB8(math.Float32frombits(s))
	case isa.NumSNorm:
		return uint32(quantizeSNorm(math.Float32frombits(s), int32(max>>1))) & max
	case isa.NumUInt:
		return min(s, max)
	case isa.NumSInt:
		hi := int32(max >> 1)
		return uint32(min(max32(int32(s), -hi-1), hi)) & max
	case isa.NumFloat:
		f := math.Float32frombits(s)
		switch fd.bits {
		case 16:
			return uint32(FloatToHalf(f))
		case 11:
			return FloatToFloat11(f)
		case 10:
			return FloatToFloat10(f)
		}
	}
	return s
}

func max32(a, b int32) int32 {
	if a > b {
		return a
	}
	return b
}

// UNormToFloat reads a UNORM field of bits bits: v / (2^bits - 1), the
// division rounded once to float32.
func UNormToFloat(v uint32, bits uint8) float32 {
	if bits == 8 {
		return unorm8F32[v&0xFF]
	}
	return float32(v) / float32(uint32(1<<bits-1))
}

// SNormToFloat reads an SNORM field (two's complement, bits wide): its
// most negative code reads -1, like the one above it.
func SNormToFloat(v uint32, bits uint8) float32 {
	x := int32(v<<(32-bits)) >> (32 - bits)
	max := int32(1)<<(bits-1) - 1
	if x < -max {
		x = -max
	}
	return float32(x) / float32(max)
}

// quantizeUNorm writes v to a UNORM field whose largest code is max:
// clamped to [0, 1] (NaN as 0), scaled in float32 and rounded to nearest
// (v*max + 0.5, truncated), the arithmetic of the GPU's 8-bit targets
// (in float64 for 24 bits).
func quantizeUNorm(v float32, max uint32) uint32 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return max
	}
	if max > 0xFFFF {
		// 24-bit depth: float32 cannot tell its codes apart.
		return uint32(float64(float64(v)*float64(max)) + 0.5)
	}
	return uint32(float32(v*float32(max)) + 0.5)
}

// quantizeSNorm writes v to an SNORM field whose largest code is max:
// clamped to [-1, 1] (NaN as 0), rounded to nearest, halves away from 0.
func quantizeSNorm(v float32, max int32) int32 {
	switch {
	case !(v == v):
		return 0
	case v >= 1:
		return max
	case v <= -1:
		return -max
	}
	x := float32(v * float32(max))
	if x >= 0 {
		return int32(x + 0.5)
	}
	return -int32(-x + 0.5)
}

// unorm8F32[i] is float32(i)/255.
var unorm8F32 = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(i) / 255
	}
	return t
}()

// Writable reports whether Encode can write the format: every format but
// the shared-exponent and block-compressed ones.
func Writable(f isa.Format) bool {
	return int(f) < len(layouts) && f.Known() && layouts[f].special == specNone
}

// Encode writes the shader's value v to the texel at the start of dst,
// only the channels in mask (bit 0 red .. bit 3 alpha): a read-modify-write
// of the texel's other bits. It does nothing for a format Writable refuses.
func Encode(f isa.Format, v [4]uint32, mask uint8, dst []byte) {
	if !Writable(f) {
		return
	}
	l := &layouts[f]
	for c := range l.ch {
		fd := &l.ch[c]
		if fd.bits == 0 || mask>>c&1 == 0 {
			continue
		}
		writeField(dst, fd.off, fd.bits, fromShader(fd, c, v[c]))
	}
	if l.xbyte != 0xFF {
		dst[l.xbyte] = 0xFF
	}
}

// Pixel encodes v as a whole texel of f (all channels) into a new slice:
// what a clear fills a surface with.
func Pixel(f isa.Format, v [4]uint32) []byte {
	b := make([]byte, f.Info().Bytes)
	Encode(f, v, 0xF, b)
	return b
}

// FloatBits is v as the shader's bits for a float-typed format: a clear
// colour or blend result written to a target.
func FloatBits(v [4]float32) [4]uint32 {
	return [4]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2]), math.Float32bits(v[3])}
}

// ClearValue is a clear colour (ClearRenderTargetView's four floats) as
// the shader bits Encode writes to format f: the floats themselves, or for
// an integer format their values as integers, rounded to nearest even
// ("Data Conversion Rules": float to integer) and clamped, NaN as 0. The
// ClearRenderTargetView page warns that a float may not hold the integer
// bit pattern an application wants: this is that conversion.
func ClearValue(f isa.Format, rgba [4]float32) [4]uint32 {
	n := f.Info().Number
	if n != isa.NumUInt && n != isa.NumSInt {
		return FloatBits(rgba)
	}
	var out [4]uint32
	for c, v := range rgba {
		x := math.RoundToEven(float64(v))
		switch {
		case x != x:
			x = 0
		case n == isa.NumUInt:
			x = min(max(x, 0), math.MaxUint32)
		default:
			x = min(max(x, math.MinInt32), math.MaxInt32)
		}
		if n == isa.NumUInt {
			out[c] = uint32(x)
		} else {
			out[c] = uint32(int32(x))
		}
	}
	return out
}
