package gpu

import (
	"d3dsim/gpu/isa"
	"encoding/binary"
	"math"
	"testing"
)

func TestDepth(t *testing.T) {
	red, green := [4]float32{1, 0, 0, 1}, [4]float32{0, 1, 0, 1}
	tests := []struct {
		desc      string
		fmt       isa.Format
		clear     float32
		fn        uint32
		write     bool
		greenNear bool // green (z=0.3) drawn first, red (z=0.6) second
		want      [4]byte
	}{
		{"less, near first", isa.FmtD32F, 1, isa.CmpLess, true, true, [4]byte{0, 255, 0, 255}},
		{"less, far first", isa.FmtD32F, 1, isa.CmpLess, true, false, [4]byte{0, 255, 0, 255}},
		{"less, D24S8", isa.FmtD24S8, 1, isa.CmpLess, true, true, [4]byte{0, 255, 0, 255}},
		{"greater", isa.FmtD32F, 0, isa.CmpGreater, true, true, [4]byte{255, 0, 0, 255}},
		{"greater, D24S8", isa.FmtD24S8, 0, isa.CmpGreater, true, true, [4]byte{255, 0, 0, 255}},
		{"less without writes: both pass the clear", isa.FmtD32F, 1, isa.CmpLess, false, true, [4]byte{255, 0, 0, 255}},
		{"never", isa.FmtD24S8, 1, isa.CmpNever, true, true, [4]byte{0, 0, 0, 0}},
		{"always", isa.FmtD32F, 1, isa.CmpAlways, true, true, [4]byte{255, 0, 0, 255}},
		{"equal to the clear: nothing", isa.FmtD32F, 1, isa.CmpEqual, true, true, [4]byte{0, 0, 0, 0}},
		{"less-equal", isa.FmtD24S8, 0.6, isa.CmpLessEqual, true, false, [4]byte{0, 255, 0, 255}},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			r := newRig(t)
			rt := r.target(16, 16, isa.FmtRGBA8)
			ds := r.target(16, 16, tc.fmt)
			near := quadVerts(0, 0, 16, 16, 16, 16, green)
			far := quadVerts(0, 0, 16, 16, 16, 16, red)
			for i := range near {
				near[i][2], far[i][2] = 0.3, 0.6
			}
			vs := append(near, far...)
			if !tc.greenNear {
				vs = append(far, near...)
			}
			b := r.scene(rt, "ps_vertexcolor", vs)
			rt.clear(b, [4]float32{})
			b.Fill(ds.addr, 16*16*4, 0xAB000000) // stencil bits the depth clear keeps
			b.ClearDS(ds.addr, 16, 16, 64, tc.fmt, tc.clear)
			ds.setDS(b)
			b.SetDepth(true, tc.write, tc.fn)
			b.Draw(12, 0)
			r.mustExec(b)
			if got := r.px(rt, 5, 5); got != tc.want {
				t.Errorf("pixel %v, want %v", got, tc.want)
			}
			if tc.fmt == isa.FmtD24S8 {
				if got := r.px(ds, 5, 5)[3]; got != 0xAB {
					t.Errorf("stencil %#x, want 0xab", got)
				}
			}
		})
	}
}

func TestDepthValues(t *testing.T) {
	// The depth written is the viewport-mapped z/w.
	r := newRig(t)
	rt := r.target(8, 8, isa.FmtRGBA8)
	ds := r.target(8, 8, isa.FmtD32F)
	vs := quadVerts(0, 0, 8, 8, 8, 8, white)
	for i := range vs {
		vs[i][2] = 0.5
	}
	b := r.scene(rt, "ps_vertexcolor", vs)
	b.SetViewport(0, 0, 8, 8, 0.2, 0.6)
	ds.setDS(b)
	b.ClearDS(ds.addr, 8, 8, 32, isa.FmtD32F, 1)
	b.Draw(6, 0)
	r.mustExec(b)
	got := math.Float32frombits(binary.LittleEndian.Uint32(r.mem(ds.addr+4*9, 4)))
	if got != 0.4 {
		t.Errorf("depth %v, want 0.4", got)
	}
}

func TestBlend(t *testing.T) {
	src := [4]float32{1, 0.45, 0.34, 0.6}
	dst := [4]byte{50, 100, 150, 200}
	d := func(i int) float64 { return float64(dst[i]) / 255 }
	s := func(i int) float64 { return float64(src[i]) }
	tests := []struct {
		desc                          string
		src, dst, op, srcA, dstA, opA uint32
		mask                          uint32
		want                          func(i int) float64 // channel i result
	}{
		{"alpha blend", isa.BlendSrcAlpha, isa.BlendInvSrcAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF,
			func(i int) float64 {
				if i == 3 {
					return s(3)
				}
				return s(i)*s(3) + d(i)*(1-s(3))
			}},
		{"additive", isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, isa.BlendOne, isa.BlendOne, isa.BlendOpAdd, 0xF,
			func(i int) float64 { return s(i) + d(i) }},
		{"subtract", isa.BlendOne, isa.BlendOne, isa.BlendOpSubtract, isa.BlendOne, isa.BlendOne, isa.BlendOpSubtract, 0xF,
			func(i int) float64 { return s(i) - d(i) }},
		{"reverse subtract", isa.BlendOne, isa.BlendOne, isa.BlendOpRevSubtract, isa.BlendOne, isa.BlendOne, isa.BlendOpRevSubtract, 0xF,
			func(i int) float64 { return d(i) - s(i) }},
		{"min", isa.BlendZero, isa.BlendZero, isa.BlendOpMin, isa.BlendZero, isa.BlendZero, isa.BlendOpMin, 0xF,
			func(i int) float64 { return min(s(i), d(i)) }},
		{"max", isa.BlendZero, isa.BlendZero, isa.BlendOpMax, isa.BlendZero, isa.BlendZero, isa.BlendOpMax, 0xF,
			func(i int) float64 { return max(s(i), d(i)) }},
		{"modulate", isa.BlendDestColor, isa.BlendZero, isa.BlendOpAdd, isa.BlendInvDestAlpha, isa.BlendDestAlpha, isa.BlendOpAdd, 0xF,
			func(i int) float64 {
				if i == 3 {
					return s(3)*(1-d(3)) + d(3)*d(3)
				}
				return s(i) * d(i)
			}},
		{"src colour and inverse dest colour", isa.BlendSrcColor, isa.BlendInvDestColor, isa.BlendOpAdd, isa.BlendInvSrcAlpha, isa.BlendOne, isa.BlendOpAdd, 0xF,
			func(i int) float64 {
				if i == 3 {
					return s(3)*(1-s(3)) + d(3)
				}
				return s(i)*s(i) + d(i)*(1-d(i))
			}},
		{"inverse src colour, dest alpha", isa.BlendInvSrcColor, isa.BlendDestAlpha, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0xF,
			func(i int) float64 {
				if i == 3 {
					return s(3)
				}
				return s(i)*(1-s(i)) + d(i)*d(3)
			}},
		{"write mask red and alpha", isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, isa.BlendOne, isa.BlendZero, isa.BlendOpAdd, 0x9,
			func(i int) float64 {
				if i == 0 || i == 3 {
					return s(i)
				}
				return d(i)
			}},
	}
	for _, fm := range []isa.Format{isa.FmtRGBA8, isa.FmtBGRA8} {
		for _, tc := range tests {
			t.Run(tc.desc, func(t *testing.T) {
				r := newRig(t)
				rt := r.target(4, 4, fm)
				b := r.scene(rt, "ps_solid", quadVerts(0, 0, 4, 4, 4, 4, white))
				rgba := [4]float32{float32(d(0)), float32(d(1)), float32(d(2)), float32(d(3))}
				rt.clear(b, rgba)
				b.SetCB(isa.StagePS, 0, r.buffer(f32bytes(src[:]...)), 16)
				b.SetBlend(true, tc.src, tc.dst, tc.op, tc.srcA, tc.dstA, tc.opA, tc.mask)
				b.Draw(6, 0)
				r.mustExec(b)
				got := r.rgba(rt)[:4]
				for i := 0; i < 4; i++ {
					v := min(max(tc.want(i), 0), 1) * 255
					if f := v - math.Floor(v); f > 0.49 && f < 0.51 {
						t.Fatalf("channel %d: expected %v is too close to a rounding boundary for the test", i, v)
					}
					if want := byte(math.Floor(v + 0.5)); got[i] != want {
						t.Errorf("%v channel %d = %d, want %d", fm, i, got[i], want)
					}
				}
			})
		}
	}
}

func TestSampling(t *testing.T) {
	// A 4x2 RGBA8 texture: texel (i, j) has red 10*i, green 100*j.
	tex := surface{mem: make([]byte, 4*4*2), w: 4, h: 2, pitch: 16, fmt: isa.FmtRGBA8, bpp: 4}
	for j := 0; j < 2; j++ {
		for i := 0; i < 4; i++ {
			copy(tex.mem[j*16+4*i:], []byte{byte(10 * i), byte(100 * j), 7, 255})
		}
	}
	border := [4]float32{0.25, 0.5, 0.75, 1}
	smp := func(filter, mode uint32) sampler { return sampler{filter: filter, u: mode, v: mode, border: border} }
	red := func(i float32) float32 { return 10 * i / 255 }
	tests := []struct {
		desc string
		s    sampler
		u, v float64
		r, g float32 // expected red and green
	}{
		{"point, texel 0", smp(isa.FilterPoint, isa.AddrWrap), 0.1, 0.1, red(0), 0},
		{"point, texel 1 row 1", smp(isa.FilterPoint, isa.AddrWrap), 0.3, 0.6, red(1), 100.0 / 255},
		{"point, on a texel edge", smp(isa.FilterPoint, isa.AddrWrap), 0.5, 0.5, red(2), 100.0 / 255},
		{"point, wrap", smp(isa.FilterPoint, isa.AddrWrap), 1.1, -0.4, red(0), 100.0 / 255},
		{"point, clamp", smp(isa.FilterPoint, isa.AddrClamp), 1.5, -3, red(3), 0},
		{"point, mirror", smp(isa.FilterPoint, isa.AddrMirror), 1.1, 0.1, red(3), 0},
		{"point, mirror twice", smp(isa.FilterPoint, isa.AddrMirror), -0.1, 0.1, red(0), 0},
		{"point, border", smp(isa.FilterPoint, isa.AddrBorder), 1.1, 0.1, 0.25, 0.5},
		{"linear, texel centre", smp(isa.FilterLinear, isa.AddrWrap), 0.375, 0.25, red(1), 0},
		{"linear, between texels", smp(isa.FilterLinear, isa.AddrClamp), 0.25, 0.25, red(0.5), 0},
		{"linear, a quarter of the way", smp(isa.FilterLinear, isa.AddrClamp), 0.125 + 0.0625, 0.25, red(0.25), 0},
		{"linear, between rows", smp(isa.FilterLinear, isa.AddrClamp), 0.125, 0.5, red(0), 50.0 / 255},
		{"linear, wrap at the edge", smp(isa.FilterLinear, isa.AddrWrap), 0, 0.25, red(1.5), 0},
		{"linear, clamp at the edge", smp(isa.FilterLinear, isa.AddrClamp), 0, 0.25, red(0), 0},
		{"linear, border at the edge", smp(isa.FilterLinear, isa.AddrBorder), 0, 0.25, 0.125, 0.25},
		{"NaN coordinates", smp(isa.FilterLinear, isa.AddrWrap), math.NaN(), math.Inf(1), red(0), 0},
	}
	for _, tc := range tests {
		c := tex.sample(&tc.s, tc.u, tc.v)
		if math.Abs(float64(c[0]-tc.r)) > 1e-6 || math.Abs(float64(c[1]-tc.g)) > 1e-6 {
			t.Errorf("%s: sample(%v, %v) = %v, want red %v green %v", tc.desc, tc.u, tc.v, c, tc.r, tc.g)
		}
	}

	// Other formats, and no texture.
	bgra := surface{mem: []byte{1, 2, 3, 4}, w: 1, h: 1, pitch: 4, fmt: isa.FmtBGRA8, bpp: 4}
	if c := bgra.sample(&tests[0].s, 0.5, 0.5); c != [4]float32{3.0 / 255, 2.0 / 255, 1.0 / 255, 4.0 / 255} {
		t.Errorf("BGRA8 sample %v", c)
	}
	r32 := surface{mem: f32bytes(0.75), w: 1, h: 1, pitch: 4, fmt: isa.FmtR32F, bpp: 4}
	if c := r32.sample(&tests[0].s, 0.5, 0.5); c != [4]float32{0.75, 0, 0, 1} {
		t.Errorf("R32F sample %v", c)
	}
	var none surface
	if c := none.sample(&tests[0].s, 0.5, 0.5); c != [4]float32{} {
		t.Errorf("unbound texture sample %v", c)
	}
}

func TestTexturedQuad(t *testing.T) {
	// A 4x4 texture point-sampled over a 16x16 target: each texel is a 4x4
	// block of pixels.
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	var texels []byte
	for i := 0; i < 16; i++ {
		texels = append(texels, byte(16*i), byte(255-16*i), byte(i), 255)
	}
	tex := r.buffer(texels)
	vs := quadVerts(0, 0, 16, 16, 16, 16, white)
	uv := [][2]float32{{0, 0}, {1, 0}, {0, 1}, {1, 0}, {1, 1}, {0, 1}}
	for i := range vs {
		vs[i][7], vs[i][8] = uv[i][0], uv[i][1]
	}
	b := r.scene(rt, "ps_texture", vs)
	b.SetTex(0, tex, 4, 4, 16, isa.FmtRGBA8)
	b.SetSampler(0, isa.FilterPoint, isa.AddrClamp, isa.AddrClamp, 0)
	b.Draw(6, 0)
	r.mustExec(b)
	for y := 0; y < 16; y++ {
		for x := 0; x < 16; x++ {
			i := (y/4)*4 + x/4
			if got, want := r.px(rt, x, y), [4]byte(texels[4*i:4*i+4]); got != want {
				t.Fatalf("pixel (%d,%d) = %v, want texel %d %v", x, y, got, i, want)
			}
		}
	}
}

func TestFaultingDraws(t *testing.T) {
	magenta := [4]byte{255, 0, 255, 255}
	blue := [4]float32{0, 0, 1, 1}
	r := newRig(t)
	rt := r.target(16, 16, isa.FmtRGBA8)
	draw := func(ps string) []Fault {
		b := r.scene(rt, ps, quadVerts(0, 0, 16, 16, 16, 16, blue))
		rt.clear(b, [4]float32{})
		b.SetBlend(true, isa.BlendZero, isa.BlendOne, isa.BlendOpAdd, isa.BlendZero, isa.BlendOne, isa.BlendOpAdd, 0x1) // ignored by a fault
		b.Draw(6, 0)
		return r.exec(b)
	}
	// ps_fault's loop runs into the step limit: the draw faults and is
	// drawn again in the warning colour.
	if fs := draw("ps_fault"); !hasFault(fs, "step limit: covered pixels get the warning colour") || r.px(rt, 3, 3) != magenta {
		t.Errorf("ps_fault: faults %v pixel %v", fs, r.px(rt, 3, 3))
	}
	r.g.InjectFault()
	if fs := draw("ps_vertexcolor"); !hasFault(fs, "injected") || r.px(rt, 3, 3) != magenta {
		t.Errorf("injected: faults %v pixel %v", fs, r.px(rt, 3, 3))
	}
	if fs := draw("ps_vertexcolor"); len(fs) != 0 || r.px(rt, 3, 3) == magenta {
		t.Errorf("the fault outlived its draw: faults %v pixel %v", fs, r.px(rt, 3, 3))
	}
	// The draw is packet 9: SET_RT, SET_VIEWPORT, SET_LAYOUT, two
	// SET_PROGRAMs, SET_RASTER, SET_VB, CLEAR_RT, SET_BLEND.
	if f := r.g.Faults(); len(f) != 2 || f[0].DMA != 1 || f[0].Packet != 9 {
		t.Errorf("faults %v", f)
	}
}

func TestDepthOnly(t *testing.T) {
	// No render target: a depth-only pass, with and without the depth test.
	for _, test := range []bool{true, false} {
		r := newRig(t)
		ds := r.target(8, 8, isa.FmtD32F)
		vs := quadVerts(0, 0, 8, 8, 8, 8, white)
		for i := range vs {
			vs[i][2] = 0.25
		}
		b := &isa.Builder{}
		ds.setDS(b)
		b.SetViewport(0, 0, 8, 8, 0, 1)
		b.ClearDS(ds.addr, 8, 8, 32, isa.FmtD32F, 1)
		r.builtins(b, "vs_passthrough", "ps_vertexcolor")
		b.SetDepth(test, true, isa.CmpLess)
		r.useVerts(b, vs)
		b.Draw(6, 0)
		r.mustExec(b)
		got := math.Float32frombits(binary.LittleEndian.Uint32(r.mem(ds.addr+4*9, 4)))
		if want := map[bool]float32{true: 0.25, false: 1}[test]; got != want {
			t.Errorf("depth test %v: depth %v, want %v", test, got, want)
		}
	}
}

// TestNoPixelProgram: a draw with a vertex program and no pixel program (a
// null pixel shader in Direct3D 11) writes no colour to the bound target
// and still tests and writes depth.
func TestNoPixelProgram(t *testing.T) {
	r := newRig(t)
	rt := r.target(8, 8, isa.FmtRGBA8)
	ds := r.target(8, 8, isa.FmtD32F)
	near := quadVerts(0, 0, 8, 4, 8, 8, white) // the top half at depth 0.25
	for i := range near {
		near[i][2] = 0.25
	}
	far := quadVerts(0, 0, 8, 8, 8, 8, [4]float32{0, 1, 0, 1}) // everything at 0.5
	b := r.scene(rt, "", near)
	rt.clear(b, [4]float32{1, 0, 0, 1})
	ds.setDS(b)
	b.ClearDS(ds.addr, 8, 8, 32, isa.FmtD32F, 1)
	b.SetDepth(true, true, isa.CmpLess)
	b.Draw(6, 0)
	// The same target with ps_vertexcolor: only what passes the depth
	// the first draw wrote turns green.
	r.bind(b, "ps_vertexcolor")
	r.useVerts(b, far)
	b.Draw(6, 0)
	r.mustExec(b)
	depth := func(x, y int) float32 {
		return math.Float32frombits(binary.LittleEndian.Uint32(r.mem(ds.addr+uint64(4*(8*y+x)), 4)))
	}
	if got := depth(3, 1); got != 0.25 {
		t.Errorf("depth at (3,1) = %v, want 0.25 from the draw with no pixel program", got)
	}
	if got := depth(3, 6); got != 0.5 {
		t.Errorf("depth at (3,6) = %v, want 0.5", got)
	}
	if got := r.px(rt, 3, 1); got != [4]byte{255, 0, 0, 255} {
		t.Errorf("pixel (3,1) = %v, want the clear colour: no colour written, the later draw failed the depth test", got)
	}
	if got := r.px(rt, 3, 6); got != [4]byte{0, 255, 0, 255} {
		t.Errorf("pixel (3,6) = %v, want green", got)
	}
}
