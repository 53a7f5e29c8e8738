package gpu

import (
	"encoding/binary"
	"math"
)

// The pixel half of a draw: depth test, pixel program, blending and the write
// to the render target, for one pixel at a time.

// warning is the colour of a faulting draw's pixels: opaque magenta.
var warning = [4]float32{1, 0, 1, 1}

// pipe is the pixel pipeline of one draw, resolved from the state.
type pipe struct {
	sx0, sy0, sx1, sy1 int // scissor: viewport ∩ targets, x1/y1 exclusive
	lo, hi             int // attributes the pixel program reads

	rt    surface
	color bool // a colour is written
	fast  bool // no blending, all four channels written
	ps    uint32
	fault bool
	solid [4]float32
	tex   surface
	smp   sampler
	blend blendState

	ds         surface
	depth      bool // depth test on (enabled and a depth buffer bound)
	depthWrite bool
	depthFn    uint32
	zmin, zmax float64

	shaded uint64 // pixels covered
	passed uint64 // samples that passed the depth test (occlusion)
}

// preparePipe resolves the draw's viewport and pixel pipeline. It reports
// false when there is no render target or depth buffer to draw to.
func (ex *executor) preparePipe(faulted bool) bool {
	s, d := &ex.st, &ex.draw
	p := &d.pipe
	*p = pipe{}
	var w, h int
	switch {
	case s.rt.bound() && s.ds.bound():
		w, h = min(s.rt.w, s.ds.w), min(s.rt.h, s.ds.h)
	case s.rt.bound():
		w, h = s.rt.w, s.rt.h
	case s.ds.bound():
		w, h = s.ds.w, s.ds.h
	default:
		return false
	}
	d.vp = s.vp
	if !s.vpSet {
		d.vp = viewport{w: float64(w), h: float64(h), maxZ: 1}
	}
	// A pixel is inside the viewport when its centre is.
	vp := &d.vp
	p.sx0 = max(0, int(math.Ceil(vp.x-0.5)))
	p.sy0 = max(0, int(math.Ceil(vp.y-0.5)))
	p.sx1 = min(w, int(math.Ceil(vp.x+vp.w-0.5)))
	p.sy1 = min(h, int(math.Ceil(vp.y+vp.h-0.5)))
	if p.sx0 >= p.sx1 || p.sy0 >= p.sy1 {
		return false
	}

	p.rt, p.ps, p.fault, p.blend = s.rt, s.ps, faulted, s.blend
	if faulted {
		p.color, p.fast = s.rt.bound(), true
	} else {
		p.color = s.rt.bound() && s.ps != ProgNone && s.blend.mask != 0
		p.fast = !s.blend.enable && s.blend.mask == 0xF
		p.ds = s.ds
		p.depth = s.depth.enable && s.ds.bound()
		p.depthWrite, p.depthFn = s.depth.write, s.depth.fn
		p.zmin, p.zmax = min(vp.minZ, vp.maxZ), max(vp.minZ, vp.maxZ)
	}
	switch {
	case faulted:
	case s.ps == ProgPSVertexColor:
		p.lo, p.hi = 0, 4
	case s.ps == ProgPSTexture:
		p.lo, p.hi = 4, 6
		p.tex, p.smp = s.tex[0], s.smp[0]
	case s.ps == ProgPSSolid:
		cb := s.cb[StagePS][0]
		for i := range p.solid {
			p.solid[i] = readF32(cb, 4*i)
		}
	}
	return true
}

// order returns the byte offsets of red and blue in a target pixel.
func (p *pipe) order() (ri, bi int) {
	if p.rt.fmt == FmtBGRA8 {
		return 2, 0
	}
	return 0, 2
}

// span runs the pipeline for the covered pixels x0..x1-1 of row y; w1 and w2
// are the values, at x0, of the edges opposite vertices 1 and 2 (their
// barycentric weights times the area), exact integers.
func (p *pipe) span(t *tri, y, x0, x1 int, w1, w2 int64) {
	p.shaded += uint64(x1 - x0)
	s1, s2 := t.e[1].a, t.e[2].a
	ri, bi := p.order()

	// The common case in a loop of its own: Gouraud shading, no depth
	// test, no blending, no perspective.
	if p.color && p.fast && !p.depth && !p.fault && p.ps == ProgPSVertexColor && !t.persp {
		p.passed += uint64(x1 - x0)
		row := p.rt.mem[y*p.rt.pitch : y*p.rt.pitch+4*p.rt.w]
		a0, d1, d2, inv := &t.a0, &t.d1, &t.d2, t.invArea
		for x := x0; x < x1; x++ {
			b1, b2 := float64(w1)*inv, float64(w2)*inv
			px := row[4*x : 4*x+4 : 4*x+4]
			px[ri] = unorm8(float32(a0[0] + float64(b1*d1[0]) + float64(b2*d2[0])))
			px[1] = unorm8(float32(a0[1] + float64(b1*d1[1]) + float64(b2*d2[1])))
			px[bi] = unorm8(float32(a0[2] + float64(b1*d1[2]) + float64(b2*d2[2])))
			px[3] = unorm8(float32(a0[3] + float64(b1*d1[3]) + float64(b2*d2[3])))
			w1 += s1
			w2 += s2
		}
		return
	}
	for x := x0; x < x1; x, w1, w2 = x+1, w1+s1, w2+s2 {
		p.pixel(t, x, y, float64(w1)*t.invArea, float64(w2)*t.invArea, ri, bi)
	}
}

// pixel runs the pipeline for one covered pixel; b1 and b2 are the
// screen-space weights of vertices 1 and 2.
func (p *pipe) pixel(t *tri, x, y int, b1, b2 float64, ri, bi int) {

	// depth test
	if p.depth {
		z := t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)
		if !(z >= p.zmin) {
			z = p.zmin
		} else if z > p.zmax {
			z = p.zmax
		}
		o := y*p.ds.pitch + 4*x
		px := p.ds.mem[o : o+4 : o+4]
		old := binary.LittleEndian.Uint32(px)
		if p.ds.fmt == FmtD32F {
			src := float32(z)
			if !compare(p.depthFn, src, math.Float32frombits(old)) {
				return
			}
			if p.depthWrite {
				binary.LittleEndian.PutUint32(px, math.Float32bits(src))
			}
		} else {
			src := unorm24(z)
			if !compare(p.depthFn, src, old&0xFFFFFF) {
				return
			}
			if p.depthWrite {
				binary.LittleEndian.PutUint32(px, old&0xFF000000|src)
			}
		}
	}
	p.passed++
	if !p.color {
		return
	}

	// pixel program
	var c [4]float32
	var a [numAttr]float64
	switch {
	case p.fault:
		c = warning
	case p.ps == ProgPSVertexColor:
		t.interp(b1, b2, &a, 0, 4)
		c = [4]float32{float32(a[0]), float32(a[1]), float32(a[2]), float32(a[3])}
	case p.ps == ProgPSSolid:
		c = p.solid
	case p.ps == ProgPSTexture:
		t.interp(b1, b2, &a, 4, 6)
		c = p.tex.sample(&p.smp, a[4], a[5])
	}

	// output merger
	o := y*p.rt.pitch + 4*x
	px := p.rt.mem[o : o+4 : o+4]
	if p.fast {
		px[ri], px[1], px[bi], px[3] = unorm8(c[0]), unorm8(c[1]), unorm8(c[2]), unorm8(c[3])
		return
	}
	if p.blend.enable {
		dst := [4]float32{float32(px[ri]) / 255, float32(px[1]) / 255, float32(px[bi]) / 255, float32(px[3]) / 255}
		c = blend(&p.blend, c, &dst)
	}
	m := p.blend.mask
	if m&1 != 0 {
		px[ri] = unorm8(c[0])
	}
	if m&2 != 0 {
		px[1] = unorm8(c[1])
	}
	if m&4 != 0 {
		px[bi] = unorm8(c[2])
	}
	if m&8 != 0 {
		px[3] = unorm8(c[3])
	}
}

// compare is the depth function fn applied to the incoming and stored depth.
func compare[T float32 | uint32](fn uint32, src, dst T) bool {
	switch fn {
	case CmpLess:
		return src < dst
	case CmpEqual:
		return src == dst
	case CmpLessEqual:
		return src <= dst
	case CmpGreater:
		return src > dst
	case CmpNotEqual:
		return src != dst
	case CmpGreaterEqual:
		return src >= dst
	case CmpAlways:
		return true
	}
	return false
}

// blend combines the pixel program's colour with the target's (D3D11: the
// source is clamped to [0, 1] for a unorm target; colour and alpha have their
// own factors and operation; min and max ignore the factors).
func blend(b *blendState, src [4]float32, dst *[4]float32) [4]float32 {
	for i := range src {
		src[i] = clamp01(src[i])
	}
	var out [4]float32
	for i := 0; i < 4; i++ {
		sf, df, op := b.src, b.dst, b.op
		if i == 3 {
			sf, df, op = b.srcA, b.dstA, b.opA
		}
		s, d := src[i], dst[i]
		switch op {
		case BlendOpMin:
			out[i] = min(s, d)
			continue
		case BlendOpMax:
			out[i] = max(s, d)
			continue
		}
		s = float32(s * factor(sf, &src, dst, i))
		d = float32(d * factor(df, &src, dst, i))
		switch op {
		case BlendOpAdd:
			out[i] = s + d
		case BlendOpSubtract:
			out[i] = s - d
		case BlendOpRevSubtract:
			out[i] = d - s
		}
	}
	return out
}

func factor(f uint32, src, dst *[4]float32, i int) float32 {
	switch f {
	case BlendOne:
		return 1
	case BlendSrcColor:
		return src[i]
	case BlendInvSrcColor:
		return 1 - src[i]
	case BlendSrcAlpha:
		return src[3]
	case BlendInvSrcAlpha:
		return 1 - src[3]
	case BlendDestAlpha:
		return dst[3]
	case BlendInvDestAlpha:
		return 1 - dst[3]
	case BlendDestColor:
		return dst[i]
	case BlendInvDestColor:
		return 1 - dst[i]
	}
	return 0
}

func clamp01(v float32) float32 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}
