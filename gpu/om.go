package gpu

import (
	"encoding/binary"
	"math"

	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
)

// The general output merger: one pixel at a time, for the draws the fast
// paths do not take (pipe.generic). In the order of "Output-Merger Stage"
// and "Configuring Depth-Stencil Functionality" (Direct3D 11
// documentation): the pixel's coverage (the sample mask's bit 0 and, with
// alpha-to-coverage, o0's alpha at one sample), then the stencil test, the
// depth test (against SV_Depth when the pixel program writes it) and their
// writes, then each render target's blend and write mask.

// laneOut reads output register r of lane l of the pixel program.
func laneOut(p *pipe, r, l int) [4]uint32 {
	o := p.m.Out(r)
	return [4]uint32{o[0][l], o[1][l], o[2][l], o[3][l]}
}

// mergeLane merges lane l of the pixel program at (x, y), or with l -1 a
// pixel with no program (a faulted draw's warning colour, or depth and
// stencil only); b1, b2 are its weights.
func (p *pipe) mergeLane(t *tri, x, y, l int, b1, b2 float64) {
	if w := p.watch; w != nil && !w.inside && x == w.x && y == w.y {
		p.watchMerge(t, x, y, l, b1, b2)
		return
	}
	if p.ms.samples > 1 {
		p.mergeMS(t, x, y, l, b1, b2)
		return
	}
	prog := l >= 0 && p.prog != nil
	// Coverage: with one sample per pixel, the sample mask's bit 0 and,
	// with alpha-to-coverage, o0's alpha: the pixel is covered when it is
	// at least one half (the single sample's threshold).
	if p.sampleMask&1 == 0 && !p.fault {
		return
	}
	if prog && p.covOut >= 0 && p.m.Out(p.covOut)[0][l]&1 == 0 && !p.fault {
		return // SV_Coverage written without sample 0
	}
	if prog && p.a2c && p.outs > 0 && !p.fault {
		if a := math.Float32frombits(p.m.Out(0)[3][l]); !(a >= 0.5) {
			return
		}
	}
	z, own := 0.0, false
	if prog && p.depthOut >= 0 {
		z, own = float64(math.Float32frombits(p.m.Out(p.depthOut)[0][l])), true
	}
	if !p.depthStencil(t, x, y, b1, b2, z, own) {
		return
	}
	p.passed++
	if !p.color {
		return
	}
	if p.fault || !prog {
		if p.fault {
			w := tfmt.FloatBits(warning)
			for k := range p.nrt {
				if rt := &p.rts[k]; rt.bound() {
					p.mergeTarget(k, x, y, w, nil, true)
				}
			}
		}
		return
	}
	var src1 [4]uint32
	if p.outs > 1 {
		src1 = laneOut(p, 1, l)
	}
	for k := range min(p.nrt, p.outs) {
		if rt := &p.rts[k]; rt.bound() && k != p.depthOut {
			var s1 *[4]uint32
			if k == 0 {
				s1 = &src1
			}
			p.mergeTarget(k, x, y, laneOut(p, k, l), s1, false)
		}
	}
}

// mergeTarget writes v (shader bits) to render target k at (x, y):
// blended in the target's numbers (not for an integer target, nor the
// warning colour of a faulted draw, which is written whole), then through
// the write mask. src1 is o1 for dual-source blending of target 0.
func (p *pipe) mergeTarget(k, x, y int, v [4]uint32, src1 *[4]uint32, whole bool) {
	rt := &p.rts[k]
	b := &p.blends[k]
	o := y*rt.pitch + x*rt.bpp
	px := rt.mem[o : o+rt.bpp : o+rt.bpp]
	mask := uint8(b.mask)
	if whole {
		mask = 0xF
	} else if b.enable && !rt.fmt.Int() {
		in := blendInputs{src: floats(v), dst: floats(tfmt.Decode(rt.fmt, px)), bf: p.blendFactor}
		if src1 != nil {
			in.src1 = floats(*src1)
		}
		v = tfmt.FloatBits(blendOps(b, &in, rt.fmt.Info().Number))
	}
	tfmt.Encode(rt.fmt, v, mask, px)
}

// conservative is the depth a pixel program wrote as SV_DepthGreaterEqual
// or SV_DepthLessEqual, z, held to its promise ("Semantics": a depth
// greater than or equal to, or less than or equal to, the value the
// rasterizer determined): the rasterized depth where it is not, or is NaN.
func (p *pipe) conservative(t *tri, b1, b2, z float64) float64 {
	r := t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)
	if p.depthKind == isa.DepthOutGE && !(z >= r) || p.depthKind == isa.DepthOutLE && !(z <= r) {
		return r
	}
	return z
}

// depthStencil runs the stencil and depth tests of pixel (x, y) and their
// writes ("Configuring Depth-Stencil Functionality"): the stencil test
// compares the reference and the stored value, both through the read
// mask; a failing pixel takes the face's StencilFailOp, one that passes it
// and fails the depth test StencilDepthFailOp, one that passes both
// StencilPassOp; the new value is written through the write mask. The face
// is the primitive's (points and lines face front). z is the pixel
// program's SV_Depth when own, clamped to the viewport's depth range like
// the interpolated one. It reports whether the pixel survives.
func (p *pipe) depthStencil(t *tri, x, y int, b1, b2, z float64, own bool) bool {
	if !p.depth && !p.stencil || p.early && !p.earlyNow {
		return true
	}
	if !own {
		z = t.z0 + float64(b1*t.dz1) + float64(b2*t.dz2)
	} else if p.depthKind != isa.DepthOutAny {
		z = p.conservative(t, b1, b2, z)
	}
	if !(z >= p.zmin) {
		z = p.zmin
	} else if z > p.zmax {
		z = p.zmax
	}
	ds := &p.ds
	o := y*ds.pitch + ds.bpp*x
	px := ds.mem[o : o+ds.bpp : o+ds.bpp]
	var sp *byte // the stencil byte
	var face *isa.StencilFace
	if p.stencil {
		sp = &px[3]
		if ds.fmt == isa.FmtD32FS8 {
			sp = &px[4]
		}
		face = &p.st.face[0]
		if !t.front {
			face = &p.st.face[1]
		}
		ref, rm := uint32(p.st.ref), uint32(p.st.readMask)
		if !compare(face.Func, ref&rm, uint32(*sp)&rm) {
			p.stencilOp(sp, face.Fail)
			return false
		}
	}
	if p.depth && !p.depthCompare(px, z) {
		if sp != nil {
			p.stencilOp(sp, face.DepthFail)
		}
		return false
	}
	if sp != nil {
		p.stencilOp(sp, face.Pass)
	}
	return true
}

// depthCompare is the depth test of texel px of the depth buffer and its
// write.
func (p *pipe) depthCompare(px []byte, z float64) bool {
	switch p.ds.fmt {
	case isa.FmtD32F, isa.FmtD32FS8:
		src := float32(z)
		if !compare(p.depthFn, src, math.Float32frombits(binary.LittleEndian.Uint32(px))) {
			return false
		}
		if p.depthWrite {
			binary.LittleEndian.PutUint32(px, math.Float32bits(src))
		}
	case isa.FmtD16:
		src := unorm16(z)
		if !compare(p.depthFn, src, uint32(binary.LittleEndian.Uint16(px))) {
			return false
		}
		if p.depthWrite {
			binary.LittleEndian.PutUint16(px, uint16(src))
		}
	default:
		old := binary.LittleEndian.Uint32(px)
		src := unorm24(z)
		if !compare(p.depthFn, src, old&0xFFFFFF) {
			return false
		}
		if p.depthWrite {
			binary.LittleEndian.PutUint32(px, old&0xFF000000|src)
		}
	}
	return true
}

// stencilOp applies a stencil operation ("D3D11_STENCIL_OP enumeration")
// to the stored value, written through the write mask.
func (p *pipe) stencilOp(sp *byte, op uint32) {
	s := *sp
	var n byte
	switch op {
	case isa.StencilKeep:
		return
	case isa.StencilZero:
		n = 0
	case isa.StencilReplace:
		n = p.st.ref
	case isa.StencilIncrSat:
		n = s
		if s < 0xFF {
			n = s + 1
		}
	case isa.StencilDecrSat:
		n = s
		if s > 0 {
			n = s - 1
		}
	case isa.StencilInvert:
		n = ^s
	case isa.StencilIncr:
		n = s + 1
	case isa.StencilDecr:
		n = s - 1
	}
	wm := p.st.writeMask
	*sp = s&^wm | n&wm
}

// clearStencil sets the stencil of a depth buffer that has one, keeping its
// depth.
func (ex *executor) clearStencil(p isa.Packet) {
	s, ok := ex.surface(p, 0, "depth buffer", useDepth)
	if !ok {
		return
	}
	if !s.fmt.Info().Stencil {
		ex.fault("%v has no stencil", s.fmt)
		return
	}
	v := byte(p.Args[6])
	at := 3
	if s.fmt == isa.FmtD32FS8 {
		at = 4
	}
	for y := 0; y < s.h; y++ {
		row := s.mem[y*s.pitch : y*s.pitch+s.bpp*s.w]
		for i := at; i < len(row); i += s.bpp {
			row[i] = v
		}
	}
	ex.chargeClear(s.w, s.h)
}

// Depth bias ("Depth Bias", Direct3D 11 documentation): a constant per
// primitive, added to the depth of its vertices after clipping, computed
// in 32-bit floats: DepthBias * r + SlopeScaledDepthBias * MaxDepthSlope,
// clamped by DepthBiasClamp (its sign says which way). r is, for a UNORM
// depth buffer, its smallest step (1/65535 for D16_UNORM, 1/16777215 for
// D24_UNORM_S8_UINT), for a float one 2^(exponent(max z in the primitive)
// - 23); MaxDepthSlope is the larger of the depth's slopes along x and y in
// pixels. Triangles only (and wireframe triangles' edges), never points or
// lines; only with a depth buffer bound.

// biasUnit is r of a UNORM depth format, 0 for a float one (per primitive).
func biasUnit(f isa.Format) float32 {
	switch f {
	case isa.FmtD16:
		return float32(1) / 65535
	case isa.FmtD24S8:
		return float32(1) / 16777215
	}
	return 0
}

// triBias is the depth bias of the triangle v0 v1 v2 (on the screen).
func (p *pipe) triBias(v0, v1, v2 *svert) float64 {
	const s = 1 << subBits
	x1, y1 := float64(v1.x-v0.x)/s, float64(v1.y-v0.y)/s
	x2, y2 := float64(v2.x-v0.x)/s, float64(v2.y-v0.y)/s
	z1, z2 := v1.z-v0.z, v2.z-v0.z
	area := float64(x1*y2) - float64(x2*y1)
	var slope float32
	if area != 0 {
		dzdx := (float64(z1*y2) - float64(z2*y1)) / area
		dzdy := (float64(z2*x1) - float64(z1*x2)) / area
		slope = float32(max(math.Abs(dzdx), math.Abs(dzdy)))
	}
	r := p.biasR
	if r == 0 {
		_, e := math.Frexp(max(math.Abs(v0.z), math.Abs(v1.z), math.Abs(v2.z))) // z = m 2^e, m in [0.5, 1)
		r = float32(math.Ldexp(1, max(e-1, -126)-23))
	}
	b := float32(float32(p.depthBias)*r) + float32(p.biasSS*slope)
	switch c := p.biasClamp; {
	case c > 0:
		b = min(b, c)
	case c < 0:
		b = max(b, c)
	}
	return float64(b)
}
