package gpu

import (
	"math"
	"math/bits"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	tfmt "d3dsim/gpu/texel"
)

// Multisampling ("Rasterization Rules", Direct3D 11 documentation: the
// multisample anti-aliasing rasterization rules). SET_SAMPLES gives the
// output merger's targets 2 or 4 samples a pixel, kept side by side
// (isa.OpSetSamples): the rasterizer tests each triangle's edges at the
// standard sample positions (isa.SamplePositions) with the same top-left
// rule as at the pixel centre, and a pixel with any sample covered runs
// the pixel program once, its inputs at the pixel centre (a
// sample-frequency program once a covered sample: sampleRate). The depth and
// stencil tests run per covered sample, the depth interpolated at the
// sample; the colour is blended and written to each sample that passed.
// The coverage is also ANDed with the blend state's SampleMask, the pixel
// program's SV_Coverage output when it writes one (SET_PROGRAM's bit 31)
// and, with alpha-to-coverage, the first round(alpha x samples) samples;
// the program reads its pixel's coverage as SV_Coverage's input
// (laneCoverage). Lines
// and their pixels cover every sample (the aliased line algorithm: on a
// multisampled target MultisampleEnable picks quadrilateral lines in
// Direct3D 11; this GPU draws the aliased ones, every sample of each lit
// pixel). At one sample none of this runs: the draw is what it was.

// msPipe is the multisampled part of a draw's pipe.
type msPipe struct {
	samples int // 2 or 4; 0: one sample a pixel (the draw does not use msPipe)
	// pos[s] is sample s's offset from the pixel centre in 24.8 fixed
	// point, x then y.
	pos [isa.MaxSamples][2]int64
	// cov[y-y0][x] is the coverage of pixel (x, y) of the rows being
	// shaded (band): bit s for sample s. Outside a band (lines) every
	// sample is covered.
	cov  [blk][]uint8
	y0   int
	band bool
	rows []rowSpan
	// extra is the covered samples the output merger reached beyond one
	// a pixel: each costs PixelNS as a pixel does (draw.go).
	extra uint64
	// A sample-frequency pixel program (psSample) shades a band once a
	// sample: full keeps the band's coverage while cov holds sample cur's
	// bit alone (sampleRate).
	full  [blk][]uint8
	cur   int
	srows []rowSpan
}

// prepareMS sets the pipe up for a draw at ex.st.samples samples; w is the
// targets' width in texels (samples a pixel), made pixels. It reports
// false (a fault) when the width is not whole pixels.
func (ex *executor) prepareMS(w *int) bool {
	n := int(ex.st.samples)
	if *w%n != 0 {
		ex.fault("SET_SAMPLES %d: the targets' width of %d texels is not whole pixels of %d samples", n, *w, n)
		return false
	}
	*w /= n
	ms := &ex.draw.pipe.ms
	ms.samples = n
	for s, o := range isa.SamplePositions(uint32(n)) {
		// A sixteenth of a pixel is 16 units of 24.8 fixed point.
		ms.pos[s] = [2]int64{int64(o[0]) << (subBits - 4), int64(o[1]) << (subBits - 4)}
	}
	buf := make([]uint8, blk**w)
	for i := range ms.cov {
		ms.cov[i] = buf[i**w : (i+1)**w]
	}
	ms.cur = 0
	if ex.st.prog[isa.StagePS].sysReg>>30&1 != 0 { // a sample-frequency program (sampleRate)
		full := make([]uint8, blk**w)
		for i := range ms.full {
			ms.full[i] = full[i**w : (i+1)**w]
		}
	}
	return true
}

// msBounds are the pixels a triangle's samples can be in: every pixel the
// bounding box touches (samples lie within 6/16 of a pixel's centre).
func (t *tri) msBounds(minX, minY, maxX, maxY int64, p *pipe) {
	t.x0 = max(int(minX>>subBits), p.sx0)
	t.y0 = max(int(minY>>subBits), p.sy0)
	t.x1 = min(int(maxX>>subBits)+1, p.sx1)
	t.y1 = min(int(maxY>>subBits)+1, p.sy1)
}

// msEdge is what sample offset (ox, oy), in fixed point, adds to edge e:
// E(P) = (Py-yi)*dx - (Px-xi)*dy.
func msEdge(e *edgeFn, ox, oy int64) int64 { return oy*e.dx - ox*e.dy }

// rasterMS visits the triangle's pixels with a covered sample, a band of
// at most blk rows at a time, and shades them (spans) with the coverage in
// ms.cov for the output merger (mergeMS).
func (t *tri) rasterMS(p *pipe) {
	ms := &p.ms
	n := ms.samples
	var d [isa.MaxSamples][3]int64
	for s := range n {
		ox, oy := ms.pos[s][0], ms.pos[s][1]
		for i := range 3 {
			d[s][i] = msEdge(&t.e[i], ox, oy) + t.e[i].bias
		}
	}
	e0, e1, e2 := &t.e[0], &t.e[1], &t.e[2]
	for by := t.y0; by < t.y1 && !p.stop; by += blk {
		if by > t.y0 && p.check != nil && !p.check() {
			return
		}
		bh := min(blk, t.y1-by)
		rows := ms.rows[:0]
		for y := by; y < by+bh; y++ {
			cov := ms.cov[y-by]
			w0, w1, w2 := e0.at(t.x0, y), e1.at(t.x0, y), e2.at(t.x0, y)
			start := -1
			var s1, s2 int64
			for x := t.x0; x < t.x1; x++ {
				var m uint8
				for s := range n {
					ds := &d[s]
					if (w0+ds[0])|(w1+ds[1])|(w2+ds[2]) >= 0 {
						m |= 1 << s
					}
				}
				cov[x] = m
				switch {
				case m != 0 && start < 0:
					start, s1, s2 = x, w1, w2
				case m == 0 && start >= 0:
					rows = append(rows, rowSpan{y: y, x0: start, x1: x, w1: s1, w2: s2})
					start = -1
				}
				w0, w1, w2 = w0+e0.a, w1+e1.a, w2+e2.a
			}
			if start >= 0 {
				rows = append(rows, rowSpan{y: y, x0: start, x1: t.x1, w1: s1, w2: s2})
			}
		}
		ms.rows = rows
		if len(rows) > 0 {
			ms.y0, ms.band = by, true
			if p.prog != nil && p.prog.psSample && ms.full[0] != nil {
				t.sampleRate(p, rows, bh)
			} else {
				p.spans(t, rows)
			}
			ms.band = false
		}
	}
}

// sampleRate shades a band's spans once a sample, for a pixel program
// that runs at sample frequency ("a pixel shader that reads
// SV_SampleIndex or has an input with the sample interpolation modifier
// runs once per covered sample"): pass s sees the pixels whose sample s
// is covered, with cov holding that sample's bit alone, so the program's
// colour, its depth test and SV_Coverage's input are sample s's
// (mergeMS), its rasterizer register's z is s and its centroid-mode
// inputs (the translator's sample ones) are interpolated at sample s
// (centroidInputs).
func (t *tri) sampleRate(p *pipe, rows []rowSpan, bh int) {
	ms := &p.ms
	for i := range bh {
		copy(ms.full[i][t.x0:t.x1], ms.cov[i][t.x0:t.x1])
	}
	for s := range ms.samples {
		bit := uint8(1) << s
		sr := ms.srows[:0]
		for _, r := range rows {
			full, cov := ms.full[r.y-ms.y0], ms.cov[r.y-ms.y0]
			start := -1
			for x := r.x0; x <= r.x1; x++ {
				on := x < r.x1 && full[x]&bit != 0
				if x < r.x1 {
					cov[x] = full[x] & bit
				}
				switch {
				case on && start < 0:
					start = x
				case !on && start >= 0:
					sr = append(sr, rowSpan{y: r.y, x0: start, x1: x, w1: t.e[1].at(start, r.y), w2: t.e[2].at(start, r.y)})
					start = -1
				}
			}
		}
		ms.srows = sr
		if len(sr) > 0 && !p.stop {
			ms.cur = s
			p.spans(t, sr)
		}
	}
	ms.cur = 0
	for i := range bh {
		copy(ms.cov[i][t.x0:t.x1], ms.full[i][t.x0:t.x1])
	}
}

// a2cSamples is how many samples alpha-to-coverage keeps of n for alpha a:
// round(a x n), so that at one sample a pixel is covered from 0.5 up.
func a2cSamples(a float32, n int) int {
	if !(a > 0) {
		return 0
	}
	return min(int(float64(a)*float64(n)+0.5), n)
}

// sampleTests runs the depth and stencil tests of the samples cov of pixel
// (x, y) at their positions (inside a band; else at weights b1, b2) and
// returns those that pass.
func (p *pipe) sampleTests(t *tri, x, y int, b1, b2 float64, cov uint32, z float64, own bool) uint32 {
	ms := &p.ms
	n := ms.samples
	var pass uint32
	var c1, c2 int64
	if ms.band {
		c1, c2 = t.e[1].at(x, y), t.e[2].at(x, y)
	}
	for m := cov; m != 0; m &= m - 1 {
		s := bits.TrailingZeros32(m)
		sb1, sb2 := b1, b2
		if ms.band {
			ox, oy := ms.pos[s][0], ms.pos[s][1]
			sb1 = float64(c1+msEdge(&t.e[1], ox, oy)) * t.invArea
			sb2 = float64(c2+msEdge(&t.e[2], ox, oy)) * t.invArea
		}
		if p.depthStencil(t, x*n+s, y, sb1, sb2, z, own) {
			pass |= 1 << s
		}
	}
	return pass
}

// mergeMS is mergeLane on a multisampled target: lane l's colour (or, l
// -1, no program's) to the samples of pixel (x, y) that are covered and
// pass the depth and stencil tests.
func (p *pipe) mergeMS(t *tri, x, y, l int, b1, b2 float64) {
	ms := &p.ms
	n := ms.samples
	prog := l >= 0 && p.prog != nil
	cov := uint32(1)<<n - 1
	if ms.band {
		cov = uint32(ms.cov[y-ms.y0][x])
	}
	if !p.fault {
		cov &= p.sampleMask
		if prog && p.covOut >= 0 {
			cov &= p.m.Out(p.covOut)[0][l] // SV_Coverage's output
		}
		if prog && p.a2c && p.outs > 0 {
			cov &= uint32(1)<<a2cSamples(math.Float32frombits(p.m.Out(0)[3][l]), n) - 1
		}
	}
	if prog && p.early {
		cov &= p.earlyPass[l&(shader.Lanes-1)] // the samples that passed the early tests (early.go)
	}
	if cov == 0 {
		return
	}
	ms.extra += uint64(bits.OnesCount32(cov) - 1)
	z, own := 0.0, false
	if prog && p.depthOut >= 0 {
		z, own = float64(math.Float32frombits(p.m.Out(p.depthOut)[0][l])), true
	}
	pass := p.sampleTests(t, x, y, b1, b2, cov, z, own)
	p.passed += uint64(bits.OnesCount32(pass))
	if pass == 0 || !p.color {
		return
	}
	if p.fault || !prog {
		if p.fault {
			w := tfmt.FloatBits(warning)
			for k := range p.nrt {
				if rt := &p.rts[k]; rt.bound() {
					for m := pass; m != 0; m &= m - 1 {
						p.mergeTarget(k, x*n+bits.TrailingZeros32(m), y, w, nil, true)
					}
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
			v := laneOut(p, k, l)
			if b := &p.blends[k]; (!b.enable || rt.fmt.Int()) && b.mask&0xF == 0xF {
				// No blending, every channel written: every sample gets
				// the same bytes, encoded once and copied.
				s0 := bits.TrailingZeros32(pass)
				p.mergeTarget(k, x*n+s0, y, v, nil, false)
				o := y*rt.pitch + (x*n+s0)*rt.bpp
				src := rt.mem[o : o+rt.bpp]
				for m := pass & (pass - 1); m != 0; m &= m - 1 {
					o := y*rt.pitch + (x*n+bits.TrailingZeros32(m))*rt.bpp
					copy(rt.mem[o:o+rt.bpp], src)
				}
				continue
			}
			for m := pass; m != 0; m &= m - 1 {
				p.mergeTarget(k, x*n+bits.TrailingZeros32(m), y, v, s1, false)
			}
		}
	}
}

// resolve is RESOLVE: each destination pixel the average of the source
// pixel's samples, decoded to floats, summed in float64 and encoded in the
// format (ResolveSubresource).
func (ex *executor) resolve(p isa.Packet) {
	a := p.Args
	w, h, dp, sp, fm, n := a[4], a[5], a[6], a[7], isa.Format(a[8]), a[9]
	switch {
	case !isa.SampleCountOK(n) || n == 1:
		ex.fault("RESOLVE: %d samples (2 or 4 resolve)", n)
		return
	case !formatFor(useColor, fm) || fm.Info().Number == isa.NumUInt || fm.Info().Number == isa.NumSInt:
		ex.fault("RESOLVE: format %v does not resolve (a colour format of floats, UNORM or SNORM)", fm)
		return
	case w == 0 || h == 0 || w > maxDim || h > maxDim:
		ex.fault("RESOLVE: size %dx%d outside 1..%d", w, h, maxDim)
		return
	}
	bpp := uint32(fm.Info().Bytes)
	if dp < w*bpp || sp < w*n*bpp {
		ex.fault("RESOLVE: pitches %d and %d are smaller than rows of %d and %d bytes", dp, sp, w*bpp, w*n*bpp)
		return
	}
	dst, ok1 := ex.bytes("resolve destination", p.Addr(0), uint64(dp)*uint64(h-1)+uint64(w*bpp))
	src, ok2 := ex.bytes("resolve source", p.Addr(2), uint64(sp)*uint64(h-1)+uint64(w*n*bpp))
	if !ok1 || !ok2 {
		return
	}
	for y := range h {
		for x := range w {
			var sum [4]float64
			for s := range n {
				o := y*sp + (x*n+s)*bpp
				v := floats(tfmt.Decode(fm, src[o:o+bpp:o+bpp]))
				for c := range 4 {
					sum[c] += float64(v[c])
				}
			}
			var avg [4]float32
			for c := range 4 {
				avg[c] = float32(sum[c] / float64(n))
			}
			o := y*dp + x*bpp
			tfmt.Encode(fm, tfmt.FloatBits(avg), 0xF, dst[o:o+bpp:o+bpp])
		}
	}
	ex.chargeClear(int(w*n), int(h))
}

// centroidInputs re-interpolates the pixel program's centroid inputs
// (shaderisa.InterpCentroid) of the lanes in mask whose pixel is partly
// covered at the first covered sample, in the pattern's order ("Rasterization
// Rules": centroid sampling evaluates at a covered sample when not every
// sample is covered); a fully covered pixel keeps the centre's values.
func (p *pipe) centroidInputs(t *tri, tx, ty int, mask uint64) {
	ms, ps := &p.ms, p.prog
	full := uint8(1)<<ms.samples - 1
	for a := mask; a != 0; a &= a - 1 {
		l := bits.TrailingZeros64(a)
		x, y := tx+laneXY[l][0], ty+laneXY[l][1]
		if y < ms.y0 || y-ms.y0 >= blk || x < 0 || x >= len(ms.cov[y-ms.y0]) {
			continue
		}
		cov := ms.cov[y-ms.y0][x]
		per := ps.psSample // at sample cur (sampleRate), covered or not
		if cov == 0 || cov == full && !per {
			continue
		}
		o := ms.pos[bits.TrailingZeros8(cov)]
		if per {
			o = ms.pos[ms.cur]
		}
		b1 := float64(t.e[1].at(x, y)+msEdge(&t.e[1], o[0], o[1])) * t.invArea
		b2 := float64(t.e[2].at(x, y)+msEdge(&t.e[2], o[0], o[1])) * t.invArea
		w := 1.0
		if t.persp {
			w = 1 / (t.iw0 + float64(b1*t.diw1) + float64(b2*t.diw2))
		}
		for m := ps.cent; m != 0; m &= m - 1 {
			r := bits.TrailingZeros32(m)
			reads := ps.ps.reads[r]
			in := p.m.In(r)
			for c := range 4 {
				k := 4*r + c
				if reads>>c&1 == 0 || k < p.lo || k >= p.hi {
					continue
				}
				v := t.a0[k] + float64(b1*t.d1[k]) + float64(b2*t.d2[k])
				if t.persp {
					v *= w
				}
				in[c][l] = math.Float32bits(float32(v))
			}
		}
	}
}

// laneCoverage is SV_Coverage's input for lane l of the block at (tx, ty):
// the pixel's covered samples, a bit a sample (every sample of a line's
// pixel; at one sample bit 0), through the blend state's SampleMask, as
// Direct3D 11 hardware gives it (vkd3d's coverage test, run on it: a mask
// of 0x1 reads 0x1); 0 for a helper lane outside mask.
func (p *pipe) laneCoverage(tx, ty, l int, mask uint64) uint32 {
	if mask>>l&1 == 0 {
		return 0
	}
	ms := &p.ms
	if ms.samples <= 1 {
		return 1 & p.sampleMask
	}
	x, y := tx+laneXY[l][0], ty+laneXY[l][1]
	if !ms.band || y < ms.y0 || y-ms.y0 >= blk || x < 0 || x >= len(ms.cov[y-ms.y0]) {
		return (uint32(1)<<ms.samples - 1) & p.sampleMask
	}
	return uint32(ms.cov[y-ms.y0][x]) & p.sampleMask
}
