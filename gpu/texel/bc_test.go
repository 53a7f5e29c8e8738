package texel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand"
	"testing"

	"d3dsim/gpu/isa"
)

// bcGolden are the SHA-256 of every texel (as its four words, little
// endian) of 4096 blocks of seeded random bytes per format, decoded by
// DecodeBlock. They were checked once against an independent decoder
// (bcdec, run as an oracle outside the repository) on 20000 random blocks
// each: bit for bit for BC6H, both kinds (its half floats), and BC7 (its
// bytes); within half an 8-bit step for BC1, BC2, BC3 and BC4 UNORM, which
// it rounds to bytes where these formulas keep float32. BC5 is two BC4
// channels; the SNORM kinds and the sRGB ones are checked by hand below and
// in codec_test.go. Random bytes reach every BC7 mode and every BC6H mode,
// the reserved ones included.
var bcGolden = map[isa.Format]string{
	isa.FmtBC1:     "5d1ceef77910259760284fce9ba12336a1323789c216af07b7ed024d069ba2ee",
	isa.FmtBC1SRGB: "e0b409c527949257be0536d2a2a4327450cdb02f2b6146272b5dfecf152dde6c",
	isa.FmtBC2:     "e441719a8e53e1667dae52fb450f2ff47edf45beb15c3960d795bbd933c242ce",
	isa.FmtBC2SRGB: "b64b62976c04e00c1572145ac1fee88aaa14ad1063e97720d47359a82d0a52ee",
	isa.FmtBC3:     "488d78cbc0d2ea1b586a6a321be3992a99eebcea95c3d2668023787ff4b7929f",
	isa.FmtBC3SRGB: "e43457873af4d0a4523b15fa8bdf9efac01f33582a7928fd6170028ca26bb1e0",
	isa.FmtBC4UN:   "13405ed1ab90616cd77668c74d9f2e0288e431711a65169a253ede11c8c4d866",
	isa.FmtBC4SN:   "3140fb465c9d9d94df914bde3c9f9606cf0de9d87e3a7d929bec13289a7e0689",
	isa.FmtBC5UN:   "9426f4acf90b3c6185850b8b217f8033e622a702709609f848438d7b58acdb99",
	isa.FmtBC5SN:   "6aacd2c23cb2ee41042debd856e48dfe8b734a15fdd4bde27173798a41fda8e7",
	isa.FmtBC6HUF:  "ca8d5c4eeca6953f13bc109ec890b65f68a4bcb1e183231db432e815e70ff854",
	isa.FmtBC6HSF:  "8d68312bd38d89ee7cec96e9f6bf7387bfe6d175e4eba6fc769bcd5edb8c99ac",
	isa.FmtBC7:     "982284cb343d0fc1a96ae84fbdd04bca8c9ec4912684dcef73a639a008396e2b",
	isa.FmtBC7SRGB: "259e19f840b1bb148191c927a7d8e60fb0c6652aad8943ed55735d78672318dc",
}

func TestBCGolden(t *testing.T) {
	for _, f := range isa.Formats() {
		if !f.Compressed() {
			continue
		}
		want, ok := bcGolden[f]
		if !ok {
			t.Errorf("%v: no golden hash", f)
			continue
		}
		r := rand.New(rand.NewSource(int64(f)))
		bs := int(f.Info().Bytes)
		blk := make([]byte, bs)
		h := sha256.New()
		var out [16][4]uint32
		var w [4]byte
		for range 4096 {
			r.Read(blk)
			DecodeBlock(f, blk, &out)
			for i := range out {
				for _, v := range out[i] {
					binary.LittleEndian.PutUint32(w[:], v)
					h.Write(w[:])
				}
			}
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("%v: decoded blocks hash to %s, want %s", f, got, want)
		}
	}
}

// TestBC1 checks BC1's palette and its two modes by hand.
func TestBC1(t *testing.T) {
	red, blue := uint16(0xF800), uint16(0x001F)
	blk := make([]byte, 8)
	// color_0 > color_1: four opaque colours; indices 0, 1, 2, 3 in the
	// first row.
	binary.LittleEndian.PutUint16(blk, red)
	binary.LittleEndian.PutUint16(blk[2:], blue)
	blk[4] = 0b11100100
	var out [16][4]uint32
	DecodeBlock(isa.FmtBC1, blk, &out)
	third := float32(1) / 3
	want := [4][4]float32{{1, 0, 0, 1}, {0, 0, 1, 1}, {float32(2) / 3, 0, third, 1}, {third, 0, float32(2) / 3, 1}}
	for i, w := range want {
		if got := floats(out[i]); got != w {
			t.Errorf("4-colour texel %d = %v, want %v", i, got, w)
		}
	}
	// color_0 <= color_1: the average, then transparent black.
	binary.LittleEndian.PutUint16(blk, blue)
	binary.LittleEndian.PutUint16(blk[2:], red)
	DecodeBlock(isa.FmtBC1, blk, &out)
	want = [4][4]float32{{0, 0, 1, 1}, {1, 0, 0, 1}, {0.5, 0, 0.5, 1}, {0, 0, 0, 0}}
	for i, w := range want {
		if got := floats(out[i]); got != w {
			t.Errorf("3-colour texel %d = %v, want %v", i, got, w)
		}
	}
}

// TestBC4 checks both BC4 modes, UNORM and SNORM.
func TestBC4(t *testing.T) {
	var out [16][4]uint32
	// 255 > 0: eight values, 255 - k*255/7; index 2 of texel 0.
	DecodeBlock(isa.FmtBC4UN, []byte{255, 0, 2, 0, 0, 0, 0, 0}, &out)
	if got, want := math.Float32frombits(out[0][0]), float32(6)/7; math.Abs(float64(got-want)) > 1e-7 {
		t.Errorf("BC4 8-value index 2 = %v, want %v", got, want)
	}
	// 0 <= 255: six values and 0, 1; indices 6 and 7 of texels 0 and 1.
	DecodeBlock(isa.FmtBC4UN, []byte{0, 255, 6 | 7<<3, 0, 0, 0, 0, 0}, &out)
	if a, b := math.Float32frombits(out[0][0]), math.Float32frombits(out[1][0]); a != 0 || b != 1 {
		t.Errorf("BC4 6-value indices 6, 7 = %v, %v, want 0, 1", a, b)
	}
	// SNORM: -128 reads -1 like -127; index 6 of the 6-value mode is -1.
	DecodeBlock(isa.FmtBC4SN, []byte{0x80, 0x7F, 0 | 6<<3, 0, 0, 0, 0, 0}, &out)
	if a, b := math.Float32frombits(out[0][0]), math.Float32frombits(out[1][0]); a != -1 || b != -1 {
		t.Errorf("BC4 SNORM -128 and index 6 = %v, %v, want -1, -1", a, b)
	}
}

// TestBC7Mode6 decodes a mode 6 block built by hand: one subset, 7-bit
// endpoints with P-bits, 4-bit indices.
func TestBC7Mode6(t *testing.T) {
	var w bitWriter
	w.put(1<<6, 7)                                               // mode 6
	for _, v := range []uint32{127, 0, 127, 0, 127, 0, 127, 0} { // R0 R1 G0 G1 B0 B1 A0 A1
		w.put(v, 7)
	}
	w.put(1, 1)  // P-bit of endpoint 0: 255
	w.put(0, 1)  // of endpoint 1: 0
	w.put(0, 3)  // texel 0, the anchor: index 0 in 3 bits
	w.put(15, 4) // texel 1: index 15
	w.put(7, 4)  // texel 2: weight 30
	var out [16][4]uint8
	bc7(w.bytes(), &out)
	v7 := uint8((34*255 + 30*0 + 32) >> 6)
	want := [3][4]uint8{{255, 255, 255, 255}, {0, 0, 0, 0}, {v7, v7, v7, v7}}
	for i, w := range want {
		if out[i] != w {
			t.Errorf("texel %d = %v, want %v", i, out[i], w)
		}
	}
}

type bitWriter struct {
	lo, hi uint64
	n      uint
}

func (w *bitWriter) put(v uint32, bits uint) {
	for i := range bits {
		b := uint64(v>>i) & 1
		if w.n < 64 {
			w.lo |= b << w.n
		} else {
			w.hi |= b << (w.n - 64)
		}
		w.n++
	}
}

func (w *bitWriter) bytes() []byte {
	b := make([]byte, 16)
	binary.LittleEndian.PutUint64(b, w.lo)
	binary.LittleEndian.PutUint64(b[8:], w.hi)
	return b
}

func floats(v [4]uint32) [4]float32 {
	return [4]float32{math.Float32frombits(v[0]), math.Float32frombits(v[1]), math.Float32frombits(v[2]), math.Float32frombits(v[3])}
}
