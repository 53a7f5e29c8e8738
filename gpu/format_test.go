package gpu

import (
	"encoding/binary"
	"math"
	"testing"

	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// fmtTarget is a w x h surface of any format.
func (r *rig) fmtTarget(w, h int, fm isa.Format) target {
	t := target{w: w, h: h, pitch: int(fm.RowBytes(uint32(w))), fmt: fm}
	t.addr = r.alloc(t.pitch * h)
	return t
}

// texelAt is the bytes of texel (x, y) of t.
func (r *rig) texelAt(t target, x, y int) []byte {
	n := int(t.fmt.Info().Bytes)
	return r.mem(t.addr+uint64(y*t.pitch+n*x), n)
}

// solidQuad draws a full-target quad whose pixel program writes the
// constant v (bits: floats, or integers for an integer target).
func (r *rig) solidQuad(b *isa.Builder, t target, v [4]uint32) {
	var cb []byte
	for _, x := range v {
		cb = binary.LittleEndian.AppendUint32(cb, x)
	}
	b.SetCB(isa.StagePS, 0, r.buffer(cb), 16)
	w := [4]float32{1, 1, 1, 1}
	data := vbytes(pxv(0, 0, t.w, t.h, w), pxv(float32(t.w), 0, t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w),
		pxv(float32(t.w), 0, t.w, t.h, w), pxv(float32(t.w), float32(t.h), t.w, t.h, w), pxv(0, float32(t.h), t.w, t.h, w))
	b.SetVB(0, r.buffer(data), uint32(len(data)), vertexBytes, 0)
	b.Draw(6, 0)
}

// TestTargetFormats draws a solid colour into a target of every colour
// format the output merger writes and reads each texel back: what the
// format holds of the colour (tfmt.Encode, whose conversions codec_test.go
// checks against references), and by hand for a few.
func TestTargetFormats(t *testing.T) {
	r := newRig(t)
	fl := [4]uint32{math.Float32bits(0.25), math.Float32bits(-0.5), math.Float32bits(3), math.Float32bits(1.0 / 3)}
	in := [4]uint32{7, 300, 0xFFFFFFFE, 1 << 20}
	for _, fm := range isa.Formats() {
		if !formatFor(useColor, fm) {
			continue
		}
		v := fl
		if fm.Int() {
			v = in
		}
		tg := r.fmtTarget(8, 8, fm)
		b := r.scene(tg, "ps_solid", nil)
		tg.clear(b, [4]float32{9, 9, 9, 9})
		r.solidQuad(b, tg, v)
		r.mustExec(b)
		want := tfmt.Pixel(fm, v)
		for _, xy := range [][2]int{{0, 0}, {7, 7}, {3, 5}} {
			if got := r.texelAt(tg, xy[0], xy[1]); string(got) != string(want) {
				t.Errorf("%v: texel %v is % x, want % x", fm, xy, got, want)
			}
		}
	}
	// By hand.
	for _, c := range []struct {
		fm   isa.Format
		v    [4]uint32
		want []byte
	}{
		{isa.FmtRGBA32F, fl, binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, fl[0]), fl[1]), fl[2]), fl[3])},
		{isa.FmtR32F, fl, binary.LittleEndian.AppendUint32(nil, fl[0])},
		{isa.FmtRGBA8UI, in, []byte{7, 255, 255, 255}},
		{isa.FmtRGBA8SI, in, []byte{7, 127, 0xFE, 127}},
		{isa.FmtR16UI, in, []byte{7, 0}},
		{isa.FmtRGBA16F, fl, []byte{0x00, 0x34, 0x00, 0xB8, 0x00, 0x42, 0x55, 0x35}}, // 0.25, -0.5, 3, 1/3 rounded down
		{isa.FmtRGBA16UN, fl, []byte{0x00, 0x40, 0, 0, 0xFF, 0xFF, 0x55, 0x55}},      // 16384, 0, 65535, 21845
		{isa.FmtRGBA8SN, fl, []byte{32, 0xC0, 127, 42}},                              // 31.75 -> 32, -63.5 -> -64 (halves away from 0)
		{isa.FmtRGB10A2UN, fl, []byte{0x00, 0x01, 0xF0, 0x7F}},                       // 256, 0, 1023, 1
	} {
		tg := r.fmtTarget(2, 2, c.fm)
		b := r.scene(tg, "ps_solid", nil)
		r.solidQuad(b, tg, c.v)
		r.mustExec(b)
		if got := r.texelAt(tg, 1, 1); string(got) != string(c.want) {
			t.Errorf("%v: % x, want % x", c.fm, got, c.want)
		}
	}
}

// TestBlendFormats blends in the target's own numbers: a float target is
// not clamped, a UNORM one clamps the source to [0, 1], an SNORM one to
// [-1, 1], an sRGB one blends in linear space, and an integer one is never
// blended.
func TestBlendFormats(t *testing.T) {
	r := newRig(t)
	add := func(b *isa.Builder) {
		b.SetBlend(true, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF)
	}
	f := func(v float32) uint32 { return math.Float32bits(v) }
	for _, c := range []struct {
		fm    isa.Format
		clear float32
		src   [4]uint32
		want  [4]float32
	}{
		{isa.FmtRGBA32F, 1, [4]uint32{f(2.5), f(-3), f(100), f(0.5)}, [4]float32{3.5, -2, 101, 1.5}},
		{isa.FmtRGBA16UN, 0.25, [4]uint32{f(2.5), f(-3), f(0.25), f(0.5)}, [4]float32{1, 0.25, 0.5, 0.75}},
		{isa.FmtRGBA16SN, -0.25, [4]uint32{f(-2.5), f(0.5), f(0.25), f(3)}, [4]float32{-1, 0.25, 0, 0.75}},
	} {
		tg := r.fmtTarget(4, 4, c.fm)
		b := r.scene(tg, "ps_solid", nil)
		tg.clear(b, [4]float32{c.clear, c.clear, c.clear, c.clear})
		add(b)
		r.solidQuad(b, tg, c.src)
		r.mustExec(b)
		got := floats(tfmt.Decode(c.fm, r.texelAt(tg, 2, 2)))
		for k := range got {
			if math.Abs(float64(got[k]-c.want[k])) > 1.0/65535 {
				t.Errorf("%v: blended %v, want %v", c.fm, got, c.want)
				break
			}
		}
	}
	// sRGB: the target holds the sRGB code of linear 0.5; adding linear
	// 0.25 gives the code of linear decode(code)+0.25 (math.Pow here as
	// the reference).
	tg := r.fmtTarget(4, 4, isa.FmtRGBA8SRGB)
	b := r.scene(tg, "ps_solid", nil)
	tg.clear(b, [4]float32{0.5, 0.5, 0.5, 0.5})
	add(b)
	r.solidQuad(b, tg, [4]uint32{f(0.25), f(0.25), f(0.25), f(0.25)})
	r.mustExec(b)
	enc := func(l float64) byte {
		s := 12.92 * l
		if l > 0.0031308 {
			s = 1.055*math.Pow(l, 1/2.4) - 0.055
		}
		return byte(math.Floor(s*255 + 0.5))
	}
	dec := func(c byte) float64 { return math.Pow((float64(c)/255+0.055)/1.055, 2.4) }
	c0 := enc(0.5)
	want := enc(dec(c0) + 0.25)
	if got := r.texelAt(tg, 1, 1); got[0] != want || got[3] != 192 {
		t.Errorf("sRGB blend: % x, want red %#x (linear %v + 0.25) and alpha 0xc0 (128/255 + 0.25, linear)", got, want, dec(c0))
	}
	// An integer target ignores blending.
	ti := r.fmtTarget(4, 4, isa.FmtRGBA32UI)
	b = r.scene(ti, "ps_solid", nil)
	ti.clear(b, [4]float32{5, 5, 5, 5})
	add(b)
	r.solidQuad(b, ti, [4]uint32{1, 2, 3, 4})
	r.mustExec(b)
	if got := tfmt.Decode(isa.FmtRGBA32UI, r.texelAt(ti, 0, 0)); got != [4]uint32{1, 2, 3, 4} {
		t.Errorf("UINT target with blending on holds %v, want the source 1 2 3 4", got)
	}
}

// TestClearFormats: a clear converts its floats to the format, integers
// for an integer one (rounded to nearest even, clamped).
func TestClearFormats(t *testing.T) {
	r := newRig(t)
	for _, c := range []struct {
		fm   isa.Format
		c    [4]float32
		want [4]uint32
	}{
		{isa.FmtRGBA32UI, [4]float32{7, 2.5, -3, 1e20}, [4]uint32{7, 2, 0, math.MaxUint32}},
		{isa.FmtRGBA8SI, [4]float32{-7, 3.5, 300, -300}, [4]uint32{0xFFFFFFF9, 4, 127, 0xFFFFFF80}},
		{isa.FmtRG32F, [4]float32{1.5, -2, 9, 9}, [4]uint32{math.Float32bits(1.5), math.Float32bits(-2), 0, math.Float32bits(1)}},
	} {
		tg := r.fmtTarget(3, 3, c.fm)
		b := &isa.Builder{}
		tg.clear(b, c.c)
		r.mustExec(b)
		if got := tfmt.Decode(c.fm, r.texelAt(tg, 2, 2)); got != c.want {
			t.Errorf("%v cleared to %v holds %x, want %x", c.fm, c.c, got, c.want)
		}
	}
}

// TestDepthFormats tests and writes depth in each depth format.
func TestDepthFormats(t *testing.T) {
	r := newRig(t)
	for _, fm := range []isa.Format{isa.FmtD32F, isa.FmtD24S8, isa.FmtD16, isa.FmtD32FS8} {
		rt := r.target(4, 4, isa.FmtRGBA8)
		ds := r.fmtTarget(4, 4, fm)
		// The stencil (D24S8, D32FS8) must survive a clear and a depth write.
		if fm == isa.FmtD24S8 || fm == isa.FmtD32FS8 {
			for y := range 4 {
				for x := range 4 {
					b := r.texelAt(ds, x, y)
					b[map[isa.Format]int{isa.FmtD24S8: 3, isa.FmtD32FS8: 4}[fm]] = 0x5A
				}
			}
		}
		b := r.scene(rt, "ps_solid", nil)
		b.SetDS(ds.addr, 4, 4, uint32(ds.pitch), fm)
		b.ClearDS(ds.addr, 4, 4, uint32(ds.pitch), fm, 0.75)
		b.SetDepth(true, true, isa.CmpLess)
		r.solidQuad(b, rt, [4]uint32{math.Float32bits(1), 0, 0, math.Float32bits(1)}) // z 0.5 passes
		r.mustExec(b)
		if got := r.px(rt, 1, 1); got != [4]byte{255, 0, 0, 255} {
			t.Errorf("%v: z 0.5 against 0.75 did not pass: %v", fm, got)
		}
		d := math.Float32frombits(tfmt.Decode(fm, r.texelAt(ds, 1, 1))[0])
		if math.Abs(float64(d)-0.5) > 1.0/65535 {
			t.Errorf("%v: depth %v written, want 0.5", fm, d)
		}
		if fm == isa.FmtD24S8 || fm == isa.FmtD32FS8 {
			if s := r.texelAt(ds, 1, 1)[map[isa.Format]int{isa.FmtD24S8: 3, isa.FmtD32FS8: 4}[fm]]; s != 0x5A {
				t.Errorf("%v: stencil %#x after a clear and a depth write, want 0x5a", fm, s)
			}
		}
	}
}

// TestLoadFormats: ld of a texel of every format the texture unit reads
// returns what the format's texel means (tfmt.Load), integers as integers;
// and, by hand, a few.
func TestLoadFormats(t *testing.T) {
	r := newRig(t)
	a, n := r.program("ps inputs=1 outputs=1\nld o0, l(1, 1, 0, 0), t0")
	for _, c := range []struct {
		fm   isa.Format
		data []byte // texel (1, 1) of a 4x4 texture (block (0, 0) of a block-compressed one)
		want [4]uint32
	}{
		{isa.FmtRGBA16UI, []byte{1, 0, 2, 0, 0xFF, 0xFF, 4, 0}, [4]uint32{1, 2, 65535, 4}},
		{isa.FmtRGBA8SI, []byte{0x80, 0x7F, 0xFF, 5}, [4]uint32{0xFFFFFF80, 127, 0xFFFFFFFF, 5}},
		{isa.FmtRG32SI, []byte{0xFE, 0xFF, 0xFF, 0xFF, 9, 0, 0, 0}, [4]uint32{0xFFFFFFFE, 9, 0, 1}},
		{isa.FmtR16UI, []byte{0x10, 0x27}, [4]uint32{10000, 0, 0, 1}},
		{isa.FmtRGB10A2UI, []byte{0xFF, 0x03, 0, 0xC0}, [4]uint32{1023, 0, 0, 3}},
		{isa.FmtX24S8UI, []byte{0, 0, 0, 77}, [4]uint32{0, 77, 0, 1}},
		{isa.FmtR32F, []byte{0, 0, 0xC0, 0x3F}, [4]uint32{math.Float32bits(1.5), 0, 0, math.Float32bits(1)}},
	} {
		tex := r.fmtTarget(4, 4, c.fm)
		copy(r.texelAt(tex, 1, 1), c.data)
		rt := r.fmtTarget(2, 2, isa.FmtRGBA32UI)
		b := r.scene(rt, "ps_solid", nil)
		b.SetProgram(isa.StagePS, a, n, isa.NoReg)
		b.SetTex(0, tex.addr, 4, 4, uint32(tex.pitch), c.fm)
		r.solidQuad(b, rt, [4]uint32{})
		r.mustExec(b)
		if got := tfmt.Decode(isa.FmtRGBA32UI, r.texelAt(rt, 1, 0)); got != c.want {
			t.Errorf("%v: ld read %x, want %x", c.fm, got, c.want)
		}
	}
}
