package texel

import (
	"math"
	"math/big"
	"math/rand"
	"sort"
	"testing"

	"d3dsim/gpu/isa"
)

// halves are every finite non-negative half, by value.
var halves = func() []float64 {
	var out []float64
	for h := range uint32(0x7C00) {
		out = append(out, float64(HalfToFloat(uint16(h))))
	}
	return out
}()

// TestHalfExhaustive reads every half and writes it back: exact.
func TestHalfExhaustive(t *testing.T) {
	for h := range uint32(0x10000) {
		f := HalfToFloat(uint16(h))
		if h&0x7C00 == 0x7C00 && h&0x3FF != 0 {
			if f == f {
				t.Fatalf("half %#04x (NaN) read %v", h, f)
			}
			if FloatToHalf(f)&0x7C00 != 0x7C00 || FloatToHalf(f)&0x3FF == 0 {
				t.Fatalf("half %#04x (NaN) written back as %#04x", h, FloatToHalf(f))
			}
			continue
		}
		if got := FloatToHalf(f); got != uint16(h) {
			t.Fatalf("half %#04x read %v, written back %#04x", h, f, got)
		}
	}
	// A reference for the reading: sign, exponent and mantissa in rational
	// arithmetic.
	for h := range uint32(0x7C00) {
		e, m := int(h>>10), int64(h&0x3FF)
		r := new(big.Rat)
		if e == 0 {
			r.SetFrac64(m, 1<<24)
		} else {
			r.SetFrac64(1024+m, 1024)
			if e >= 15 {
				r.Mul(r, new(big.Rat).SetInt64(int64(1)<<(e-15)))
			} else {
				r.Quo(r, new(big.Rat).SetInt64(int64(1)<<(15-e)))
			}
		}
		if want, _ := r.Float64(); float64(HalfToFloat(uint16(h))) != want {
			t.Fatalf("half %#04x reads %v, want %v", h, HalfToFloat(uint16(h)), want)
		}
	}
}

// TestFloatToHalfTowardsZero writes random floats and compares with the
// largest half not above their magnitude, found by search ("Data
// Conversion Rules": round to zero).
func TestFloatToHalfTowardsZero(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for i := range 200000 {
		var f float32
		switch i % 3 {
		case 0:
			f = math.Float32frombits(r.Uint32())
		case 1:
			f = float32(r.NormFloat64() * 1000)
		default:
			f = float32(r.NormFloat64() * 1e-5)
		}
		if f != f || math.IsInf(float64(f), 0) {
			continue
		}
		a := math.Abs(float64(f))
		k := sort.SearchFloat64s(halves, a) // first >= a
		if k == len(halves) || halves[k] > a {
			k--
		}
		want := uint16(k)
		if f < 0 || math.Signbit(float64(f)) {
			want |= 0x8000
		}
		if got := FloatToHalf(f); got != want {
			t.Fatalf("FloatToHalf(%v) = %#04x, want %#04x", f, got, want)
		}
	}
	if FloatToHalf(float32(math.Inf(1))) != 0x7C00 || FloatToHalf(float32(math.Inf(-1))) != 0xFC00 {
		t.Error("infinities do not stay infinite")
	}
}

// TestSmallFloats checks FLOAT11 and FLOAT10 both ways: exhaustive round
// trips, negatives to 0, and rounding towards zero against a search.
func TestSmallFloats(t *testing.T) {
	for _, k := range []struct {
		name  string
		n     uint32
		read  func(uint32) float32
		write func(float32) uint32
	}{{"FLOAT11", 11, Float11ToFloat, FloatToFloat11}, {"FLOAT10", 10, Float10ToFloat, FloatToFloat10}} {
		mant := k.n - 5
		var vals []float64
		for v := range uint32(31 << mant) {
			f := k.read(v)
			vals = append(vals, float64(f))
			if got := k.write(f); got != v {
				t.Fatalf("%s %#x reads %v, written back %#x", k.name, v, f, got)
			}
		}
		if k.write(-1) != 0 || k.write(float32(math.Inf(1))) != 31<<mant {
			t.Errorf("%s: -1 or +Inf written wrong", k.name)
		}
		r := rand.New(rand.NewSource(3))
		for range 100000 {
			f := float32(math.Abs(r.NormFloat64()) * math.Pow(2, float64(r.Intn(40)-20)))
			i := sort.SearchFloat64s(vals, float64(f))
			if i == len(vals) || vals[i] > float64(f) {
				i--
			}
			if got := k.write(f); got != uint32(i) {
				t.Fatalf("%s(%v) = %#x, want %#x", k.name, f, got, i)
			}
		}
	}
}

// TestSRGB checks the curve against math.Pow and the 8-bit round trip.
func TestSRGB(t *testing.T) {
	for i := range 256 {
		c := float64(i) / 255
		want := c / 12.92
		if c > 0.04045 {
			want = math.Pow((c+0.055)/1.055, 2.4)
		}
		if got := SRGBToLinear(c); math.Abs(got-want) > 1e-14 {
			t.Errorf("SRGBToLinear(%d/255) = %v, want %v", i, got, want)
		}
		if got := encodeSRGB8(srgbToLinear8[i]); got != uint32(i) {
			t.Errorf("sRGB code %d decodes to %v and encodes back to %d", i, srgbToLinear8[i], got)
		}
	}
	for _, l := range []float64{0.001, 0.0031308, 0.01, 0.2, 0.5, 0.9} {
		want := 12.92 * l
		if l > 0.0031308 {
			want = 1.055*math.Pow(l, 1/2.4) - 0.055
		}
		if got := LinearToSRGB(l); math.Abs(got-want) > 1e-14 {
			t.Errorf("LinearToSRGB(%v) = %v, want %v", l, got, want)
		}
	}
}

// TestNorm checks UNORM and SNORM of every width the formats use: every
// code reads c/max and writes back to c, and values between codes round to
// the nearer one.
func TestNorm(t *testing.T) {
	for _, bits := range []uint8{1, 2, 4, 5, 6, 8, 10, 16, 24} {
		max := uint32(1)<<bits - 1
		for c := uint32(0); c <= max; c += 1 + max/4096 {
			f := UNormToFloat(c, bits)
			if want := float32(float64(c) / float64(max)); f != want {
				t.Fatalf("UNORM%d %d reads %v, want %v", bits, c, f, want)
			}
			if got := quantizeUNorm(f, max); got != c {
				t.Fatalf("UNORM%d %d reads %v, writes back %d", bits, c, f, got)
			}
			if c < max && bits <= 16 {
				if got := quantizeUNorm((float32(c)+0.25)/float32(max), max); got != c {
					t.Fatalf("UNORM%d: (%d+0.25)/max writes %d", bits, c, got)
				}
				if got := quantizeUNorm((float32(c)+0.75)/float32(max), max); got != c+1 {
					t.Fatalf("UNORM%d: (%d+0.75)/max writes %d", bits, c, got)
				}
			}
		}
		if quantizeUNorm(float32(math.NaN()), max) != 0 || quantizeUNorm(-3, max) != 0 || quantizeUNorm(7, max) != max {
			t.Errorf("UNORM%d: NaN, -3 or 7 not clamped", bits)
		}
	}
	for _, bits := range []uint8{8, 16} {
		max := int32(1)<<(bits-1) - 1
		for c := -max - 1; c <= max; c += 1 + max/4096 {
			f := SNormToFloat(uint32(c)&(1<<bits-1), bits)
			want := float32(float64(c) / float64(max))
			if c == -max-1 {
				want = -1
			}
			if f != want {
				t.Fatalf("SNORM%d %d reads %v, want %v", bits, c, f, want)
			}
			if got := quantizeSNorm(f, max); got != c && !(c == -max-1 && got == -max) {
				t.Fatalf("SNORM%d %d reads %v, writes back %d", bits, c, f, got)
			}
		}
	}
}

// TestLayouts reads known texels of every layout.
func TestLayouts(t *testing.T) {
	h := func(f float32) byte { return byte(FloatToHalf(f)) }
	hh := func(f float32) byte { return byte(FloatToHalf(f) >> 8) }
	f32 := func(v ...float32) [4]uint32 {
		out := [4]uint32{0, 0, 0, one}
		for i, x := range v {
			out[i] = math.Float32bits(x)
		}
		return out
	}
	for _, c := range []struct {
		f    isa.Format
		b    []byte
		want [4]uint32
	}{
		{isa.FmtRGBA8, []byte{255, 0, 51, 255}, f32(1, 0, 0.2, 1)},
		{isa.FmtBGRA8, []byte{255, 0, 51, 255}, f32(0.2, 0, 1, 1)},
		{isa.FmtBGRX8, []byte{255, 0, 51, 7}, f32(0.2, 0, 1, 1)},
		{isa.FmtA8UN, []byte{255}, f32(0, 0, 0, 1)},
		{isa.FmtR8UN, []byte{51}, f32(0.2)},
		{isa.FmtR8SN, []byte{0x81}, f32(-1)},
		{isa.FmtR8SI, []byte{0xFE}, [4]uint32{0xFFFFFFFE, 0, 0, 1}},
		{isa.FmtRG8UI, []byte{7, 9}, [4]uint32{7, 9, 0, 1}},
		{isa.FmtR16F, []byte{h(1.5), hh(1.5)}, f32(1.5)},
		{isa.FmtRGBA16SI, []byte{0xFF, 0xFF, 2, 0, 0, 0x80, 3, 0}, [4]uint32{0xFFFFFFFF, 2, 0xFFFF8000, 3}},
		{isa.FmtRGB10A2UN, []byte{0xFF, 0x03, 0, 0xC0}, f32(1, 0, 0, 1)},
		{isa.FmtRGB10A2UI, []byte{0x05, 0x0C, 0, 0x40}, [4]uint32{5, 3, 0, 1}},
		{isa.FmtRG11B10F, []byte{0xC0, 0x03, 0, 0}, f32(1, 0, 0)}, // red: exponent 15, mantissa 0
		{isa.FmtB5G6R5, []byte{0, 0xF8}, f32(1, 0, 0)},
		{isa.FmtBGR5A1, []byte{0x1F, 0x80}, f32(0, 0, 1, 1)},
		{isa.FmtBGRA4, []byte{0x0F, 0xF0}, f32(0, 0, 1, 1)},
		{isa.FmtD24S8, []byte{0xFF, 0xFF, 0xFF, 9}, f32(1)},
		{isa.FmtX24S8UI, []byte{0xFF, 0xFF, 0xFF, 9}, [4]uint32{0, 9, 0, 1}},
		{isa.FmtX32S8UI, []byte{0, 0, 0x80, 0x3F, 200, 0, 0, 0}, [4]uint32{0, 200, 0, 1}},
		{isa.FmtR32FX32, []byte{0, 0, 0x80, 0x3F, 200, 0, 0, 0}, f32(1)},
		{isa.FmtRGB9E5, []byte{0x00, 0x01, 0x00, 0x80}, f32(1, 0, 0)}, // 256 * 2^(16-15-9)
		{isa.FmtRGBA8SRGB, []byte{255, 0, 188, 128}, f32(1, 0, srgbToLinear8[188], float32(128)/255)},
	} {
		if got := Decode(c.f, c.b); got != c.want {
			t.Errorf("%v % x reads %x, want %x", c.f, c.b, got, c.want)
		}
	}
}

// TestEncodeRoundTrip writes random values to every writable format and
// checks that what it reads back writes the same bytes, and that the write
// mask keeps the other channels.
func TestEncodeRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	for _, f := range isa.Formats() {
		if !Writable(f) {
			continue
		}
		n := int(f.Info().Bytes)
		for range 2000 {
			var v [4]uint32
			for c := range v {
				if f.Int() {
					v[c] = r.Uint32() >> uint(r.Intn(32))
					if r.Intn(2) == 0 {
						v[c] = -v[c]
					}
				} else {
					v[c] = math.Float32bits(float32(r.NormFloat64()))
				}
			}
			a := make([]byte, n)
			Encode(f, v, 0xF, a)
			b := make([]byte, n)
			Encode(f, Decode(f, a), 0xF, b)
			if string(a) != string(b) {
				t.Fatalf("%v: %x writes % x, read back and written again % x", f, v, a, b)
			}
			// A masked write changes only its channels.
			for m := uint8(0); m < 16; m++ {
				c := append([]byte(nil), a...)
				Encode(f, [4]uint32{}, m, c)
				got, old := Decode(f, c), Decode(f, a)
				for ch := range 4 {
					if m>>ch&1 == 0 && got[ch] != old[ch] {
						t.Fatalf("%v: a write of mask %04b changed channel %d", f, m, ch)
					}
				}
			}
		}
	}
}

// TestIntegerClamp: integer formats clamp what they cannot hold.
func TestIntegerClamp(t *testing.T) {
	b := make([]byte, 4)
	Encode(isa.FmtRGBA8UI, [4]uint32{300, 7, 0xFFFFFFFF, 255}, 0xF, b)
	if string(b) != "\xff\x07\xff\xff" {
		t.Errorf("RGBA8_UINT of 300, 7, 2^32-1, 255 is % x", b)
	}
	Encode(isa.FmtRGBA8SI, [4]uint32{200, uint32(0xFFFFFF00), 5, uint32(0xFFFFFFFB)}, 0xF, b)
	if string(b) != "\x7f\x80\x05\xfb" {
		t.Errorf("RGBA8_SINT of 200, -256, 5, -5 is % x", b)
	}
}
