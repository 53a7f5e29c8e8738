package gpu

import (
	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
	"math"
)

// Texture sampling of the texture unit (program.go's texUnit, for the
// pixel programs' sample instructions): point or bilinear filtering, address
// modes wrap, clamp, mirror and border, textures of every format package
// texel decodes (8-bit RGBA and BGRA read here directly). An unbound
// texture samples as zero (D3D11).

// sample filters the texture at (u, v).
func (s *surface) sample(sm *sampler, u, v float64) [4]float32 {
	if !s.bound() {
		return [4]float32{}
	}
	if sm.filter == isa.FilterPoint {
		x, _ := texel(u * float64(s.w))
		y, _ := texel(v * float64(s.h))
		return s.fetch(sm, x, y)
	}
	x, fx := texel(float64(u*float64(s.w)) - 0.5)
	y, fy := texel(float64(v*float64(s.h)) - 0.5)
	var c00, c10, c01, c11 [4]float32
	if x >= 0 && y >= 0 && x+1 < s.w && y+1 < s.h && (s.fmt == isa.FmtRGBA8 || s.fmt == isa.FmtBGRA8) {
		// All four texels inside: every address mode leaves them be.
		// fetch's arithmetic (a table lookup) without its calls.
		o := y*s.pitch + 4*x
		r0, r1 := s.mem[o:o+8:o+8], s.mem[o+s.pitch:o+s.pitch+8:o+s.pitch+8]
		ri, bi := 0, 2
		if s.fmt == isa.FmtBGRA8 {
			ri, bi = 2, 0
		}
		c00 = [4]float32{unormF32[r0[ri]], unormF32[r0[1]], unormF32[r0[bi]], unormF32[r0[3]]}
		c10 = [4]float32{unormF32[r0[4+ri]], unormF32[r0[5]], unormF32[r0[4+bi]], unormF32[r0[7]]}
		c01 = [4]float32{unormF32[r1[ri]], unormF32[r1[1]], unormF32[r1[bi]], unormF32[r1[3]]}
		c11 = [4]float32{unormF32[r1[4+ri]], unormF32[r1[5]], unormF32[r1[4+bi]], unormF32[r1[7]]}
	} else {
		c00, c10 = s.fetch(sm, x, y), s.fetch(sm, x+1, y)
		c01, c11 = s.fetch(sm, x, y+1), s.fetch(sm, x+1, y+1)
	}
	var out [4]float32
	for i := range out {
		out[i] = lerpTexels(c00[i], c10[i], c01[i], c11[i], fx, fy)
	}
	return out
}

// lerpTexels is the bilinear filter of one channel: texels c00 and c10 of
// the top row, c01 and c11 of the bottom, weighed by the fractions fx and
// fy; each product rounded before its sum, so that no compiler fuses them.
func lerpTexels(c00, c10, c01, c11, fx, fy float32) float32 {
	top, bot := lerpRows(c00, c10, c01, c11, fx)
	return lerpCols(top, bot, fy)
}

// lerpRows is the filter along x: the top and bottom rows' values.
func lerpRows(c00, c10, c01, c11, fx float32) (top, bot float32) {
	return c00 + float32((c10-c00)*fx), c01 + float32((c11-c01)*fx)
}

// lerpCols is the filter along y between the rows' values.
func lerpCols(top, bot, fy float32) float32 {
	return top + float32((bot-top)*fy)
}

// texel splits a texel-space coordinate into its integer part (floor) and
// fraction. It clamps first, so that huge, infinite or NaN coordinates
// convert the same way on every platform.
func texel(c float64) (int, float32) {
	const lim = 1 << 30
	if !(c >= -lim) {
		c = -lim
	} else if c > lim {
		c = lim
	}
	f := math.Floor(c)
	return int(f), float32(c - f)
}

// address applies an address mode to texel index i of a dimension of n
// texels; ok is false for a border texel.
func address(mode uint32, i, n int) (int, bool) {
	switch mode {
	case isa.AddrWrap:
		i %= n
		if i < 0 {
			i += n
		}
	case isa.AddrMirror:
		i %= 2 * n
		if i < 0 {
			i += 2 * n
		}
		if i >= n {
			i = 2*n - 1 - i
		}
	case isa.AddrClamp:
		i = min(max(i, 0), n-1)
	default: // border
		if i < 0 || i >= n {
			return 0, false
		}
	}
	return i, true
}

// fetch reads texel (x, y) after addressing, as RGBA floats.
func (s *surface) fetch(sm *sampler, x, y int) [4]float32 {
	x, okx := address(sm.u, x, s.w)
	y, oky := address(sm.v, y, s.h)
	if !okx || !oky {
		return sm.border
	}
	switch s.fmt {
	case isa.FmtRGBA8:
		o := y*s.pitch + 4*x
		px := s.mem[o : o+4 : o+4]
		return [4]float32{unormF32[px[0]], unormF32[px[1]], unormF32[px[2]], unormF32[px[3]]}
	case isa.FmtBGRA8:
		o := y*s.pitch + 4*x
		px := s.mem[o : o+4 : o+4]
		return [4]float32{unormF32[px[2]], unormF32[px[1]], unormF32[px[0]], unormF32[px[3]]}
	}
	// Every other format through the shared decoder (integer formats
	// read as their bits: a sample of them is not filtered, ld reads them).
	return floats(tfmt.Load(s.fmt, s.mem, s.pitch, x, y))
}

// load reads texel (x, y), inside the surface, as the shader's bits: what
// ld returns (integers for an integer format).
func (s *surface) load(x, y int) [4]uint32 {
	return tfmt.Load(s.fmt, s.mem, s.pitch, x, y)
}

// unormF32[i] is float32(i) / 255: a unorm8 channel as a float, looked up
// rather than divided (the same bits).
var unormF32 = func() (t [256]float32) {
	for i := range t {
		t[i] = float32(i) / 255
	}
	return t
}()
