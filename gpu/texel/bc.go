package texel

import (
	"encoding/binary"
	"math"

	"d3dsim/gpu/isa"
)

// Block compression ("Texture Block Compression in Direct3D 11"): each 4x4
// block of texels is stored in 8 or 16 bytes. BC1 to BC5 follow the
// formulas of that page in float32 (endpoints expanded from their bits as
// UNORM or SNORM values, palette entries interpolated from them); BC6H and
// BC7 follow their own pages ("BC6H Format", "BC7 Format"), which define
// the arithmetic in integers.

// DecodeBlockTexel decodes texel (x, y), 0..3 each, of the block blk of
// format f as a shader sees it.
func DecodeBlockTexel(f isa.Format, blk []byte, x, y int) [4]uint32 {
	var out [16][4]uint32
	DecodeBlock(f, blk, &out)
	return out[4*y+x]
}

// DecodeBlock decodes the 16 texels of a block, row by row.
func DecodeBlock(f isa.Format, blk []byte, out *[16][4]uint32) {
	switch f {
	case isa.FmtBC1, isa.FmtBC1SRGB:
		var c [16][4]float32
		bc1Colors(blk, true, &c)
		for i := range c {
			out[i] = colorBits(c[i], f == isa.FmtBC1SRGB)
		}
	case isa.FmtBC2, isa.FmtBC2SRGB:
		var c [16][4]float32
		bc1Colors(blk[8:], false, &c)
		a := binary.LittleEndian.Uint64(blk)
		for i := range c {
			c[i][3] = UNormToFloat(uint32(a>>(4*i)&0xF), 4)
			out[i] = colorBits(c[i], f == isa.FmtBC2SRGB)
		}
	case isa.FmtBC3, isa.FmtBC3SRGB:
		var c [16][4]float32
		var a [16]float32
		bc1Colors(blk[8:], false, &c)
		bc4Channel(blk, false, &a)
		for i := range c {
			c[i][3] = a[i]
			out[i] = colorBits(c[i], f == isa.FmtBC3SRGB)
		}
	case isa.FmtBC4UN, isa.FmtBC4SN:
		var r [16]float32
		bc4Channel(blk, f == isa.FmtBC4SN, &r)
		for i := range r {
			out[i] = [4]uint32{math.Float32bits(r[i]), 0, 0, one}
		}
	case isa.FmtBC5UN, isa.FmtBC5SN:
		var r, g [16]float32
		bc4Channel(blk, f == isa.FmtBC5SN, &r)
		bc4Channel(blk[8:], f == isa.FmtBC5SN, &g)
		for i := range r {
			out[i] = [4]uint32{math.Float32bits(r[i]), math.Float32bits(g[i]), 0, one}
		}
	case isa.FmtBC6HUF, isa.FmtBC6HSF:
		var h [16][3]uint16
		bc6h(blk, f == isa.FmtBC6HSF, &h)
		for i := range h {
			out[i] = [4]uint32{math.Float32bits(HalfToFloat(h[i][0])), math.Float32bits(HalfToFloat(h[i][1])),
				math.Float32bits(HalfToFloat(h[i][2])), one}
		}
	case isa.FmtBC7, isa.FmtBC7SRGB:
		var c [16][4]uint8
		bc7(blk, &c)
		for i := range c {
			v := [4]uint32{math.Float32bits(unorm8F32[c[i][0]]), math.Float32bits(unorm8F32[c[i][1]]),
				math.Float32bits(unorm8F32[c[i][2]]), math.Float32bits(unorm8F32[c[i][3]])}
			if f == isa.FmtBC7SRGB {
				for k := range 3 {
					v[k] = math.Float32bits(srgbToLinear8[c[i][k]])
				}
			}
			out[i] = v
		}
	}
}

// colorBits is a decoded colour as shader bits, its red, green and blue
// taken from sRGB to linear when srgb.
func colorBits(c [4]float32, srgb bool) [4]uint32 {
	if srgb {
		for k := range 3 {
			c[k] = float32(SRGBToLinear(float64(c[k])))
		}
	}
	return FloatBits(c)
}

// bc1Colors decodes BC1's colour block (also BC2's and BC3's, which always
// use four colours: bc1 false). Its endpoints are B5G6R5; with color_0 >
// color_1 (as integers), or always for BC2 and BC3, color_2 = 2/3 color_0
// + 1/3 color_1 and color_3 = 1/3 color_0 + 2/3 color_1; otherwise color_2
// is their average and color_3 transparent black.
func bc1Colors(blk []byte, bc1 bool, out *[16][4]float32) {
	c0, c1 := binary.LittleEndian.Uint16(blk), binary.LittleEndian.Uint16(blk[2:])
	var pal [4][4]float32
	pal[0], pal[1] = rgb565(c0), rgb565(c1)
	if !bc1 || c0 > c1 {
		for k := range 3 {
			a, b := pal[0][k], pal[1][k]
			pal[2][k] = float32(float32(2*a)+b) / 3
			pal[3][k] = float32(a+float32(2*b)) / 3
		}
		pal[2][3], pal[3][3] = 1, 1
	} else {
		for k := range 3 {
			pal[2][k] = float32(pal[0][k]+pal[1][k]) / 2
		}
		pal[2][3] = 1
	}
	idx := binary.LittleEndian.Uint32(blk[4:])
	for i := range out {
		out[i] = pal[idx>>(2*i)&3]
	}
}

func rgb565(c uint16) [4]float32 {
	return [4]float32{UNormToFloat(uint32(c>>11), 5), UNormToFloat(uint32(c>>5&0x3F), 6), UNormToFloat(uint32(c&0x1F), 5), 1}
}

// bc4Channel decodes one BC4 channel (BC3's alpha, BC5's red and green):
// two 8-bit endpoints, then 3-bit indices. With red_0 > red_1 six values
// are interpolated between them; otherwise four, and the last two indices
// are 0 and 1 (-1 and 1 for SNORM, whose endpoints are signed, -128 reading
// as -127).
func bc4Channel(blk []byte, snorm bool, out *[16]float32) {
	var e0, e1 float32
	var more bool
	if snorm {
		a, b := int8(blk[0]), int8(blk[1])
		e0, e1 = SNormToFloat(uint32(uint8(a)), 8), SNormToFloat(uint32(uint8(b)), 8)
		more = a > b
	} else {
		e0, e1 = unorm8F32[blk[0]], unorm8F32[blk[1]]
		more = blk[0] > blk[1]
	}
	var pal [8]float32
	pal[0], pal[1] = e0, e1
	if more {
		for i := 1; i <= 6; i++ {
			pal[i+1] = float32(float32(float32(7-i)*e0)+float32(float32(i)*e1)) / 7
		}
	} else {
		for i := 1; i <= 4; i++ {
			pal[i+1] = float32(float32(float32(5-i)*e0)+float32(float32(i)*e1)) / 5
		}
		pal[6], pal[7] = 0, 1
		if snorm {
			pal[6] = -1
		}
	}
	idx := uint64(blk[2]) | uint64(blk[3])<<8 | uint64(blk[4])<<16 | uint64(blk[5])<<24 | uint64(blk[6])<<32 | uint64(blk[7])<<40
	for i := range out {
		out[i] = pal[idx>>(3*i)&7]
	}
}

// bits reads a 128-bit block from its least significant bit up.
type bits struct {
	lo, hi uint64
	pos    uint
}

func newBits(blk []byte) bits {
	return bits{lo: binary.LittleEndian.Uint64(blk), hi: binary.LittleEndian.Uint64(blk[8:])}
}

func (b *bits) read(n uint) uint32 {
	if n == 0 {
		return 0
	}
	var v uint64
	switch p := b.pos; {
	case p >= 64:
		v = b.hi >> (p - 64)
	case p+n <= 64:
		v = b.lo >> p
	default:
		v = b.lo>>p | b.hi<<(64-p)
	}
	b.pos += n
	return uint32(v & (1<<n - 1))
}

// The 2- and 3-subset partitions of BC6H and BC7 (BC6H uses the first 32
// of the 2-subset ones): texel i's subset in bits 2i..2i+1.
var partitions2 = [64]uint32{
	0x50505050, 0x40404040, 0x54545454, 0x54505040, 0x50404000, 0x55545450, 0x55545040, 0x54504000,
	0x50400000, 0x55555450, 0x55544000, 0x54400000, 0x55555440, 0x55550000, 0x55555500, 0x55000000,
	0x55150100, 0x00004054, 0x15010000, 0x00405054, 0x00004050, 0x15050100, 0x05010000, 0x40505054,
	0x00404050, 0x05010100, 0x14141414, 0x05141450, 0x01155440, 0x00555500, 0x15014054, 0x05414150,
	0x44444444, 0x55005500, 0x11441144, 0x05055050, 0x05500550, 0x11114444, 0x41144114, 0x44111144,
	0x15055054, 0x01055040, 0x05041050, 0x05455150, 0x14414114, 0x50050550, 0x41411414, 0x00141400,
	0x00041504, 0x00105410, 0x10541000, 0x04150400, 0x50410514, 0x41051450, 0x05415014, 0x14054150,
	0x41050514, 0x41505014, 0x40011554, 0x54150140, 0x50505500, 0x00555050, 0x15151010, 0x54540404,
}

var partitions3 = [64]uint32{
	0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0, 0x5a5a5050,
	0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4, 0xa9a59450, 0x2a0a4250,
	0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454, 0x6a6a4040, 0xa4a45000, 0x1a1a0500,
	0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400, 0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200,
	0xa9a58000, 0x5090a0a8, 0xa8a09050, 0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50,
	0x500aa550, 0xaaaa4444, 0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600,
	0xaa444444, 0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
	0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44, 0x2a4a5254,
}

// The anchor texels (whose index has one bit less, its top bit 0) of
// subset 1 of the 2-subset partitions, and of subsets 1 and 2 of the
// 3-subset ones; subset 0's is texel 0.
var anchor2 = [64]uint8{
	15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2,
	15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, 6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
}

var anchor3a = [64]uint8{
	3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, 3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15,
	8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, 3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
}

var anchor3b = [64]uint8{
	15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8,
	15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, 15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
}

// The interpolation weights of 2-, 3- and 4-bit indices (out of 64).
var (
	weights2 = []int32{0, 21, 43, 64}
	weights3 = []int32{0, 9, 18, 27, 37, 46, 55, 64}
	weights4 = []int32{0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64}
)

func weightsOf(n uint) []int32 {
	switch n {
	case 2:
		return weights2
	case 3:
		return weights3
	}
	return weights4
}
