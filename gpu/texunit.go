package gpu

import (
	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	tfmt "d3dsim/gpu/texel"
	"encoding/binary"
	"math"
	"math/bits"
)

// The texture unit's views and its general path: mip levels and the level
// of detail, point/linear/anisotropic filters, every address mode and
// border colour, comparison sampling, gather, texel offsets, 1D, 3D and
// cube textures and arrays, buffer views ("Direct3D 11.3 Functional
// Specification", chapter 7.18, "Texture sampling"). A view of one 2D
// level with a sampler SET_SAMPLER could describe (sample.go's surface and
// sampler, the fused block) keeps the fast path it always had; everything
// else comes here, one lane at a time, in float64 rounded to float32 once
// at the end. texref_test.go holds it to a slower reference written from
// the specification's words.

// texView is a bound SET_VIEW (or SET_TEX: a 2D view of one level).
type texView struct {
	kind   uint32 // isa.View*; 0: unbound
	fm     isa.Format
	mem    []byte // the resource's bytes
	subs   []isa.Subresource
	mips   uint32 // the resource's levels
	w, h   uint32 // level 0
	d      uint32 // a 3D texture's depth
	slices uint32 // the resource's array slices (six per cube)
	mip0   uint32 // the view's most detailed level, and its levels
	nmips  uint32
	slice0 uint32 // the view's first slice, and its slices
	nslice uint32
	// buffers: the first element and the count, and the element's size
	first, count, stride uint32
	// samples a pixel (1: one; a multisampled view's w counts its samples:
	// isa.ViewWord)
	samples uint32
}

func (v *texView) bound() bool { return v.kind != 0 }

// setView runs SET_VIEW.
func (ex *executor) setView(p isa.Packet) {
	s, a := &ex.st, p.Args
	stage, slot := isa.SplitStageSlot(a[0])
	if !ex.stageOK(&stage) {
		return
	}
	if slot >= numTex {
		ex.fault("slot %d outside 0..%d", slot, numTex-1)
		return
	}
	s.tex[stage][slot], s.view[stage][slot] = surface{}, nil
	if p.Addr(1) == 0 {
		return
	}
	s.texN[stage] = max(s.texN[stage], int(slot)+1)
	kind, samples := isa.SplitViewWord(a[3])
	fm, w, h, d, mips := isa.Format(a[4]), a[5], a[6], a[7], a[8]
	v := texView{kind: kind, fm: fm, samples: samples}
	if samples > 1 && (!isa.SampleCountOK(samples) || kind != isa.ViewTex2D && kind != isa.ViewTex2DArray || w%samples != 0 || mips != 1) {
		ex.fault("a view of %d samples of kind %s, %d texels wide, %d levels: a multisampled view is a 2D texture or array of 2 or 4 samples a pixel side by side, one level", samples, isa.ViewKindName(kind), w, mips)
		return
	}
	if isa.IsBuffer(kind) {
		v.first, v.count = a[9], a[10]
		switch kind {
		case isa.ViewBuffer:
			if !fm.Known() || fm.Compressed() {
				ex.fault("buffer view: format %v", fm)
				return
			}
			v.stride = uint32(fm.Info().Bytes)
		case isa.ViewRawBuffer:
			v.stride = 4
		default:
			v.stride = h
			if h == 0 || h > 2048 {
				ex.fault("structured buffer view: stride %d outside 1..2048", h)
				return
			}
		}
		mem, ok := ex.bytes("buffer view", p.Addr(1), uint64(w))
		if !ok {
			return
		}
		v.mem, v.w = mem, w
		s.view[stage][slot] = &v
		return
	}
	if kind == 0 || kind > isa.ViewTexCubeArray {
		ex.fault("view kind %d", kind)
		return
	}
	slices := d
	if kind == isa.ViewTex3D {
		slices = 1
	} else {
		d = 1
	}
	subs, size, err := isa.Subresources(fm, w, h, d, mips, slices)
	cube := kind == isa.ViewTexCube || kind == isa.ViewTexCubeArray
	switch {
	case err != nil:
		ex.fault("view: %v", err)
		return
	case (kind == isa.ViewTex1D || kind == isa.ViewTex1DArray) && h != 1:
		ex.fault("a 1D view of height %d", h)
		return
	case cube && (w != h || slices%6 != 0):
		ex.fault("a cube view of %dx%d, %d slices (square faces, six per cube)", w, h, slices)
		return
	}
	v.mip0, v.nmips = isa.ViewRange(a[9])
	v.slice0, v.nslice = isa.ViewRange(a[10])
	one := kind == isa.ViewTex1D || kind == isa.ViewTex2D || kind == isa.ViewTex3D
	if v.nmips == 0 || uint64(v.mip0)+uint64(v.nmips) > uint64(mips) || v.nslice == 0 || uint64(v.slice0)+uint64(v.nslice) > uint64(slices) ||
		cube && v.nslice%6 != 0 || kind == isa.ViewTexCube && v.nslice != 6 || one && v.nslice != 1 {
		ex.fault("view of levels %d+%d, slices %d+%d of a resource of %d levels, %d slices", v.mip0, v.nmips, v.slice0, v.nslice, mips, slices)
		return
	}
	mem, ok := ex.bytes("texture view", p.Addr(1), size)
	if !ok {
		return
	}
	v.mem, v.subs, v.mips, v.w, v.h, v.d, v.slices = mem, subs, mips, w, h, d, slices
	s.view[stage][slot] = &v
	if kind == isa.ViewTex2D && v.nmips == 1 {
		// One 2D level: the fast path's surface too.
		sub := subs[v.slice0*mips+v.mip0]
		s.tex[stage][slot] = surface{mem: mem[sub.Offset : sub.Offset+uint64(sub.DepthPitch)], w: int(sub.W), h: int(sub.H),
			pitch: int(sub.RowPitch), fmt: fm, bpp: int(fm.Info().Bytes)}
	}
}

// surfaceView is SET_TEX's surface as a view of one 2D level.
func surfaceView(t *surface) texView {
	if !t.bound() {
		return texView{}
	}
	return texView{kind: isa.ViewTex2D, fm: t.fmt, mem: t.mem, mips: 1, w: uint32(t.w), h: uint32(t.h), d: 1, slices: 1,
		nmips: 1, nslice: 1, subs: []isa.Subresource{{RowPitch: uint32(t.pitch), DepthPitch: uint32(len(t.mem)), W: uint32(t.w), H: uint32(t.h), D: 1}}}
}

// setSamplerEx runs SET_SAMPLER_EX.
func (ex *executor) setSamplerEx(p isa.Packet) {
	a := p.Args
	stage, slot := isa.SplitStageSlot(a[0])
	filter := a[1]
	if !ex.stageOK(&stage) {
		return
	}
	addrOK := func(m uint32) bool { return m <= isa.AddrMirrorOnce }
	if slot >= numSamplers || filter&^isa.FilterValidMask != 0 || !addrOK(a[2]) || !addrOK(a[3]) || !addrOK(a[4]) ||
		a[6] > isa.MaxAnisotropyBits || a[7] > isa.CmpAlways {
		ex.fault("slot %d filter %#x address %d,%d,%d anisotropy %d comparison %d: out of range", slot, filter, a[2], a[3], a[4], a[6], a[7])
		return
	}
	sm := sampler{ex: true, dfilter: filter, u: a[2], v: a[3], w: a[4], bias: sanef(p.F32(5), -16, 15.99),
		maxAniso: max(a[6], 1), cmp: a[7], minLOD: sanef(p.F32(12), -1e30, 1e30), maxLOD: sanef(p.F32(13), -1e30, 1e30)}
	for k := range sm.border {
		sm.border[k] = p.F32(8 + k)
	}
	// The fast path's view of it: one filter for magnification and
	// minification, two address modes the old sampler had, no more.
	sm.filter = isa.FilterPoint
	if filter&isa.FilterMinLinear != 0 {
		sm.filter = isa.FilterLinear
	}
	sm.simple = filter&(isa.FilterAniso|isa.FilterComparison) == 0 &&
		filter&isa.FilterMinLinear != 0 == (filter&isa.FilterMagLinear != 0) && sm.u <= isa.AddrBorder && sm.v <= isa.AddrBorder
	ex.st.smpN[stage] = max(ex.st.smpN[stage], int(slot)+1)
	ex.st.smp[stage][slot] = sm
}

// sanef is a sampler's float field: NaN as 0, clamped to [lo, hi].
func sanef(v float32, lo, hi float32) float32 {
	switch {
	case v != v:
		return 0
	case v < lo:
		return lo
	case v > hi:
		return hi
	}
	return v
}

// linearMin, linearMag and linearMip read a sampler's filters (an old
// SET_SAMPLER's one filter is all three).
func (sm *sampler) linearMin() bool {
	return sm.ex && sm.dfilter&(isa.FilterMinLinear|isa.FilterAniso) != 0 || !sm.ex && sm.filter == isa.FilterLinear
}

func (sm *sampler) linearMag() bool {
	return sm.ex && sm.dfilter&(isa.FilterMagLinear|isa.FilterAniso) != 0 || !sm.ex && sm.filter == isa.FilterLinear
}

func (sm *sampler) linearMip() bool {
	return sm.ex && sm.dfilter&(isa.FilterMipLinear|isa.FilterAniso) != 0 || !sm.ex && sm.filter == isa.FilterLinear
}

func (sm *sampler) aniso() bool { return sm.ex && sm.dfilter&isa.FilterAniso != 0 }

func (sm *sampler) lodRange() (float64, float64) {
	if !sm.ex {
		return -1e30, 1e30
	}
	return float64(sm.minLOD), float64(sm.maxLOD)
}

func (sm *sampler) addrW() uint32 {
	if !sm.ex {
		return isa.AddrClamp
	}
	return sm.w
}

// general runs a texture query the fast path does not take, lane by lane.
func (u *texUnit) general(v *texView, sm *sampler, q *shader.TexQuery) {
	for m := q.Mask; m != 0; m &= m - 1 {
		l := trailing(m)
		var r [4]uint32
		switch q.Op {
		case shader.TexLoad:
			r = v.load(q, l)
		case shader.TexLoadRaw, shader.TexLoadStructured:
			r = v.loadWords(q, l)
		case shader.TexGather, shader.TexGatherCmp:
			r = v.gather(sm, q, l)
		case shader.TexLOD:
			if !v.bound() || isa.IsBuffer(v.kind) {
				break // no levels: zeros (a buffer's view has no subresources)
			}
			// x is clamped to the view's levels too (CalculateLevelOfDetail
			// of a 3-level view is at most 2), y is not.
			lod, raw := v.lod(sm, q, l, 0)
			lod = min(max(lod, 0), float64(max(v.nmips, 1)-1))
			r = [4]uint32{math.Float32bits(float32(lod)), math.Float32bits(float32(raw)), 0, 0}
		default:
			r = v.sample(sm, q, l)
		}
		q.Out[0][l], q.Out[1][l], q.Out[2][l], q.Out[3][l] = r[0], r[1], r[2], r[3]
	}
}

func coordF(q *shader.TexQuery, k, l int) float64 {
	return float64(math.Float32frombits(q.Coord[k][l]))
}

// offset is the lane's texel offset: gather4_po's per-lane one (the low
// six bits of each, signed), else the instruction's.
func offset(q *shader.TexQuery, l int) [3]int {
	if q.OffsetXY[0] != nil {
		s6 := func(w uint32) int { return int(int32(w<<26) >> 26) }
		return [3]int{s6(q.OffsetXY[0][l]), s6(q.OffsetXY[1][l]), 0}
	}
	return [3]int{int(q.Offset[0]), int(q.Offset[1]), int(q.Offset[2])}
}

// dims is how many of u, v, w a view's kind filters over.
func (v *texView) dims() int {
	switch v.kind {
	case isa.ViewTex1D, isa.ViewTex1DArray:
		return 1
	case isa.ViewTex3D:
		return 3
	}
	return 2
}

// arraySlice is the view-relative slice a sample reads: the coordinate
// rounded to nearest even and clamped to the view's slices (cubes for a
// cube array).
func arraySlice(c float64, n uint32) uint32 {
	if !(c > 0) { // NaN and negatives
		return 0
	}
	r := math.RoundToEven(min(c, 1e9))
	return uint32(min(r, float64(n-1)))
}

// level returns subresource (mip, slice) of the view: both view-relative.
func (v *texView) level(mip, slice uint32) *isa.Subresource {
	return &v.subs[(v.slice0+slice)*v.mips+v.mip0+mip]
}

// fetch reads texel (x, y, z), inside the subresource, as shader bits.
func (v *texView) fetch(s *isa.Subresource, x, y, z int) [4]uint32 {
	off := s.Offset + uint64(z)*uint64(s.DepthPitch)
	return tfmt.Load(v.fm, v.mem[off:], int(s.RowPitch), x, y)
}

// load is ld: integer coordinates (x; y or the 1D array's slice; z or
// the 2D array's slice) and the level in w, all plus the offsets; 0 out
// of range. A typed buffer's element x.
func (v *texView) load(q *shader.TexQuery, l int) [4]uint32 {
	c := func(k int) int32 { return int32(q.Coord[k][l]) }
	if isa.IsBuffer(v.kind) {
		if v.kind != isa.ViewBuffer {
			return [4]uint32{}
		}
		i := uint32(c(0))
		if i >= v.count {
			return [4]uint32{}
		}
		off := (uint64(v.first) + uint64(i)) * uint64(v.stride)
		if off+uint64(v.stride) > uint64(len(v.mem)) {
			return [4]uint32{}
		}
		return tfmt.Decode(v.fm, v.mem[off:])
	}
	o := [3]int32{q.Offset[0], q.Offset[1], q.Offset[2]}
	mip := uint32(c(3))
	if mip >= v.nmips {
		return [4]uint32{}
	}
	x, y, z, slice := c(0)+o[0], int32(0), int32(0), int32(0)
	switch v.kind {
	case isa.ViewTex1DArray:
		slice = c(1)
	case isa.ViewTex2D:
		y = c(1) + o[1]
	case isa.ViewTex2DArray, isa.ViewTexCube, isa.ViewTexCubeArray:
		y, slice = c(1)+o[1], c(2)
	case isa.ViewTex3D:
		y, z = c(1)+o[1], c(2)+o[2]
	}
	if slice < 0 || uint32(slice) >= v.nslice {
		return [4]uint32{}
	}
	s := v.level(mip, uint32(slice))
	if x < 0 || y < 0 || z < 0 || uint32(x) >= s.W || uint32(y) >= s.H || uint32(z) >= s.D {
		return [4]uint32{}
	}
	return v.fetch(s, int(x), int(y), int(z))
}

// loadWords is ld_raw (four words from byte Coord[0]) and ld_structured
// (from structure Coord[0], byte Coord[1]): a word past the view reads 0.
func (v *texView) loadWords(q *shader.TexQuery, l int) [4]uint32 {
	var r [4]uint32
	if v.kind != isa.ViewRawBuffer && v.kind != isa.ViewStructured {
		return r
	}
	var start, end uint64 // the view's bytes
	var at uint64
	if v.kind == isa.ViewRawBuffer {
		start, end = uint64(v.first)*4, (uint64(v.first)+uint64(v.count))*4
		at = start + uint64(q.Coord[0][l]&^3)
	} else {
		idx, off := q.Coord[0][l], q.Coord[1][l]
		if idx >= v.count || off >= v.stride {
			return r
		}
		start = (uint64(v.first) + uint64(idx)) * uint64(v.stride)
		end = start + uint64(v.stride)
		at = start + uint64(off&^3)
	}
	end = min(end, uint64(len(v.mem)))
	for k := range r {
		if a := at + 4*uint64(k); a+4 <= end {
			r[k] = binary.LittleEndian.Uint32(v.mem[a:])
		}
	}
	return r
}

// texelSpace is the size of the view's most detailed level, the scale
// of the level of detail.
func (v *texView) texelSpace() (float64, float64, float64) {
	s := v.level(0, 0)
	return float64(s.W), float64(s.H), float64(s.D)
}

// lod is the level of detail of a lane's query (view-relative): the
// clamped value, and the value before the sampler's MinLOD and MaxLOD
// (with its MipLODBias and the shader's bias). ratio is the anisotropic
// filter's probe count, major its axis (texel-normalized coordinates).
func (v *texView) lod(sm *sampler, q *shader.TexQuery, l int, _ int) (float64, float64) {
	lod, raw, _, _ := v.lodAniso(sm, q, l)
	return lod, raw
}

func (v *texView) lodAniso(sm *sampler, q *shader.TexQuery, l int) (lod, raw float64, probes int, major [3]float64) {
	probes = 1
	var base float64
	switch q.Op {
	case shader.TexSampleLevel:
		base = float64(q.LOD[l])
	case shader.TexSampleCmpLevelZero:
		base = 0
	default:
		if q.DX[0] == nil {
			break // a unit that needs no gradients: level 0
		}
		dx, dy := v.gradients(q, l)
		w, h, d := v.texelSpace()
		scale := [3]float64{w, h, d}
		var lx, ly float64
		for k := range 3 {
			a, b := float64(dx[k]*scale[k]), float64(dy[k]*scale[k])
			lx += float64(a * a)
			ly += float64(b * b)
		}
		lx, ly = math.Sqrt(lx), math.Sqrt(ly)
		rho := max(lx, ly)
		if sm.aniso() {
			rmin := min(lx, ly)
			n := float64(sm.maxAniso)
			if rmin > 0 {
				n = min(n, math.Ceil(rho/rmin))
			}
			n = max(n, 1)
			probes = int(n)
			rho /= n
			if lx >= ly {
				major = dx
			} else {
				major = dy
			}
		}
		base = log2(rho)
		if q.Bias != nil {
			base += float64(q.Bias[l])
		}
	}
	raw = base + float64(sm.biasOf())
	lo, hi := sm.lodRange()
	lod = min(max(raw, lo), hi)
	if lod != lod {
		lod = 0
	}
	return lod, raw, probes, major
}

func (sm *sampler) biasOf() float32 {
	if !sm.ex {
		return 0
	}
	return sm.bias
}

// gradients are a lane's d(u, v, w)/dx and /dy in normalized texture
// coordinates; for a cube, those of the face coordinates (s, t).
func (v *texView) gradients(q *shader.TexQuery, l int) (dx, dy [3]float64) {
	g := func(p *[shader.Lanes]float32) float64 {
		if p == nil {
			return 0
		}
		return float64(p[l])
	}
	dx = [3]float64{g(q.DX[0]), g(q.DX[1]), g(q.DXW)}
	dy = [3]float64{g(q.DY[0]), g(q.DY[1]), g(q.DYW)}
	switch v.kind {
	case isa.ViewTex1D, isa.ViewTex1DArray:
		dx[1], dx[2], dy[1], dy[2] = 0, 0, 0, 0
	case isa.ViewTex2D, isa.ViewTex2DArray:
		dx[2], dy[2] = 0, 0
	case isa.ViewTexCube, isa.ViewTexCubeArray:
		dir := [3]float64{coordF(q, 0, l), coordF(q, 1, l), coordF(q, 2, l)}
		dx, dy = cubeGradients(dir, dx), cubeGradients(dir, dy)
	}
	return dx, dy
}

// cubeGradients turns a direction's derivative into that of the face
// coordinates (s, t) of the face the direction selects (the quotient
// rule on s = (sc/|ma| + 1)/2).
func cubeGradients(dir, d [3]float64) [3]float64 {
	face, sc, tc, ma := cubeFace(dir)
	dsc, dtc, dma := cubeFaceParts(face, d)
	m := math.Abs(ma)
	if m == 0 {
		return [3]float64{}
	}
	sign := 1.0
	if ma < 0 {
		sign = -1
	}
	dm := sign * dma
	ds := (float64(dsc*m) - float64(sc*dm)) / (2 * float64(m*m))
	dt := (float64(dtc*m) - float64(tc*dm)) / (2 * float64(m*m))
	return [3]float64{ds, dt, 0}
}

// cubeFace selects the face of a direction (the major axis; ties go to
// z, then y, as Direct3D's table orders them) and returns its sc, tc and
// the major axis' signed value, from which s = (sc/|ma| + 1)/2, t the
// same (the faces: 0 +x, 1 -x, 2 +y, 3 -y, 4 +z, 5 -z).
func cubeFace(r [3]float64) (face int, sc, tc, ma float64) {
	ax, ay, az := math.Abs(r[0]), math.Abs(r[1]), math.Abs(r[2])
	switch {
	case az >= ax && az >= ay:
		if r[2] >= 0 {
			return 4, r[0], -r[1], r[2]
		}
		return 5, -r[0], -r[1], r[2]
	case ay >= ax:
		if r[1] >= 0 {
			return 2, r[0], r[2], r[1]
		}
		return 3, r[0], -r[2], r[1]
	}
	if r[0] >= 0 {
		return 0, -r[2], -r[1], r[0]
	}
	return 1, r[2], -r[1], r[0]
}

// cubeFaceParts is cubeFace's (sc, tc, ma) of a vector on a given face.
func cubeFaceParts(face int, r [3]float64) (sc, tc, ma float64) {
	switch face {
	case 0:
		return -r[2], -r[1], r[0]
	case 1:
		return r[2], -r[1], r[0]
	case 2:
		return r[0], r[2], r[1]
	case 3:
		return r[0], -r[2], r[1]
	case 4:
		return r[0], -r[1], r[2]
	}
	return -r[0], -r[1], r[2]
}

// cubeDir is the direction through face coordinates (s, t) of a face:
// cubeFace's inverse.
func cubeDir(face int, s, t float64) [3]float64 {
	sc, tc := 2*s-1, 2*t-1
	switch face {
	case 0:
		return [3]float64{1, -tc, -sc}
	case 1:
		return [3]float64{-1, -tc, sc}
	case 2:
		return [3]float64{sc, 1, tc}
	case 3:
		return [3]float64{sc, -1, -tc}
	case 4:
		return [3]float64{sc, -tc, 1}
	}
	return [3]float64{-sc, -tc, -1}
}

// sample filters one lane: the level of detail, the levels it picks, and
// each level filtered (anisotropic probes averaged).
func (v *texView) sample(sm *sampler, q *shader.TexQuery, l int) [4]uint32 {
	if !v.bound() || isa.IsBuffer(v.kind) {
		return [4]uint32{}
	}
	lod, _, probes, major := v.lodAniso(sm, q, l)
	c := [3]float64{coordF(q, 0, l), coordF(q, 1, l), coordF(q, 2, l)}
	var ref float64
	cmp := q.Op == shader.TexSampleCmp || q.Op == shader.TexSampleCmpLevelZero
	if cmp {
		ref = v.clampRef(float64(q.Ref[l]))
	}
	// The levels: magnification reads level 0 with the magnification
	// filter; minification the nearest level (point mip filter) or the
	// two around lod (linear), with the minification filter.
	linear := sm.linearMag()
	lv0, lv1, frac := 0, 0, 0.0
	if lod > 0 {
		linear = sm.linearMin()
		top := float64(v.nmips - 1)
		if sm.linearMip() {
			f := math.Floor(min(lod, top))
			lv0, frac = int(f), min(lod, top)-f
			lv1 = min(lv0+1, int(top))
		} else {
			lv0 = int(min(math.Floor(lod+0.5), top))
			lv1 = lv0
		}
	}
	var out [4]float64
	for p := range probes {
		pc := c
		if probes > 1 {
			t := (float64(p)+0.5)/float64(probes) - 0.5
			for k := range 3 {
				pc[k] += float64(major[k] * t)
			}
		}
		a := v.filter(sm, q, l, uint32(lv0), pc, linear, cmp, ref)
		if frac > 0 && lv1 != lv0 {
			b := v.filter(sm, q, l, uint32(lv1), pc, linear, cmp, ref)
			for k := range a {
				a[k] += float64((b[k] - a[k]) * frac)
			}
		}
		for k := range out {
			out[k] += a[k]
		}
	}
	if v.fm.Int() && !cmp {
		// An integer format is not filtered: the texel's bits.
		return v.nearestBits(sm, q, l, uint32(lv0), c)
	}
	var r [4]uint32
	for k := range r {
		r[k] = math.Float32bits(float32(out[k] / float64(probes)))
	}
	return r
}

// clampRef clamps a comparison's reference to [0, 1] for a UNORM format
// (depth included), as the texel it meets is.
func (v *texView) clampRef(ref float64) float64 {
	if v.fm.Info().Number == isa.NumUNorm {
		return min(max(ref, 0), 1)
	}
	return ref
}

// texelF reads a texel (after addressing; ok false: the border colour)
// as floats, or for a comparison its red channel compared with ref.
func (v *texView) texelF(sm *sampler, s *isa.Subresource, x, y, z int, ok bool, cmp bool, ref float64, fn uint32) [4]float64 {
	var t [4]float64
	if ok {
		b := v.fetch(s, x, y, z)
		for k := range t {
			t[k] = float64(math.Float32frombits(b[k]))
		}
	} else {
		for k := range t {
			t[k] = float64(sm.border[k])
		}
	}
	if cmp {
		r := 0.0
		if compareF(fn, ref, t[0]) {
			r = 1
		}
		return [4]float64{r, r, r, r}
	}
	return t
}

// compareF is a comparison sampler's function: the reference against the
// texel.
func compareF(fn uint32, ref, tex float64) bool {
	switch fn {
	case isa.CmpLess:
		return ref < tex
	case isa.CmpEqual:
		return ref == tex
	case isa.CmpLessEqual:
		return ref <= tex
	case isa.CmpGreater:
		return ref > tex
	case isa.CmpNotEqual:
		return ref != tex
	case isa.CmpGreaterEqual:
		return ref >= tex
	case isa.CmpAlways:
		return true
	}
	return false
}

// addr is an address mode applied to texel index i of n (ok false: the
// border colour), as address does, with mirror-once too.
func addr(mode uint32, i, n int) (int, bool) {
	if mode == isa.AddrMirrorOnce {
		if i < 0 {
			i = -1 - i
		}
		return min(i, n-1), true
	}
	return address(mode, i, n)
}

// filter filters level lv (view-relative) at normalized coordinates c,
// with the lane's array slice or cube face.
func (v *texView) filter(sm *sampler, q *shader.TexQuery, l int, lv uint32, c [3]float64, linear, cmp bool, ref float64) [4]float64 {
	off := offset(q, l)
	fn := sm.cmp
	if v.kind == isa.ViewTexCube || v.kind == isa.ViewTexCubeArray {
		return v.filterCube(sm, q, l, lv, c, linear, cmp, ref)
	}
	slice := uint32(0)
	switch v.kind {
	case isa.ViewTex1DArray:
		slice = arraySlice(coordF(q, 1, l), v.nslice)
	case isa.ViewTex2DArray:
		slice = arraySlice(coordF(q, 2, l), v.nslice)
	}
	s := v.level(lv, slice)
	n := [3]int{int(s.W), int(s.H), int(s.D)}
	modes := [3]uint32{sm.u, sm.v, sm.addrW()}
	dims := v.dims()
	var i0 [3]int
	var f [3]float64
	for k := range dims {
		x := clampCoord(float64(c[k] * float64(n[k])))
		if linear {
			x -= 0.5
		}
		fl := math.Floor(x)
		i0[k], f[k] = int(fl)+off[k], x-fl
		if !linear {
			f[k] = 0
		}
	}
	corners := 1 << dims
	if !linear {
		corners = 1
	}
	var out [4]float64
	for corner := range corners {
		w := 1.0
		var at [3]int
		ok := true
		for k := range dims {
			hi := corner>>k&1 == 1
			at[k] = i0[k]
			if hi {
				at[k]++
				w = float64(w * f[k])
			} else if linear {
				w = float64(w * (1 - f[k]))
			}
			var okk bool
			at[k], okk = addr(modes[k], at[k], n[k])
			ok = ok && okk
		}
		t := v.texelF(sm, s, at[0], at[1], at[2], ok, cmp, ref, fn)
		for k := range out {
			out[k] += float64(t[k] * w)
		}
	}
	return out
}

// clampCoord keeps a texel-space coordinate finite and small enough to
// convert the same way on every platform.
func clampCoord(x float64) float64 {
	const lim = 1 << 30
	switch {
	case !(x >= -lim):
		return -lim
	case x > lim:
		return lim
	}
	return x
}

// filterCube filters a cube level: the face the direction selects, its
// texels, and a texel past the face's edge read from the face the
// direction through its centre meets (seamless, as Direct3D 11 filters
// cubes).
func (v *texView) filterCube(sm *sampler, q *shader.TexQuery, l int, lv uint32, c [3]float64, linear, cmp bool, ref float64) [4]float64 {
	cube := uint32(0)
	if v.kind == isa.ViewTexCubeArray {
		cube = arraySlice(coordF(q, 3, l), v.nslice/6)
	}
	face, sc, tc, ma := cubeFace(c)
	m := math.Abs(ma)
	if m == 0 || m != m {
		return [4]float64{}
	}
	st := [2]float64{(sc/m + 1) / 2, (tc/m + 1) / 2}
	n := int(v.level(lv, 0).W)
	var i0 [2]int
	var f [2]float64
	for k := range 2 {
		x := clampCoord(float64(st[k] * float64(n)))
		if linear {
			x -= 0.5
		}
		fl := math.Floor(x)
		i0[k], f[k] = int(fl), x-fl
	}
	corners := 4
	if !linear {
		corners = 1
	}
	var out [4]float64
	for corner := range corners {
		w := 1.0
		at := i0
		for k := range 2 {
			if corner>>k&1 == 1 {
				at[k]++
				w = float64(w * f[k])
			} else if linear {
				w = float64(w * (1 - f[k]))
			}
		}
		fc, x, y := cubeTexel(face, at[0], at[1], n)
		s := v.level(lv, 6*cube+uint32(fc))
		t := v.texelF(sm, s, x, y, 0, true, cmp, ref, sm.cmp)
		for k := range out {
			out[k] += float64(t[k] * w)
		}
	}
	return out
}

// cubeTexel maps texel (x, y) of a face of n x n texels, perhaps past its
// edge, to a face and a texel on it.
func cubeTexel(face, x, y, n int) (int, int, int) {
	if x >= 0 && y >= 0 && x < n && y < n {
		return face, x, y
	}
	s, t := (float64(x)+0.5)/float64(n), (float64(y)+0.5)/float64(n)
	f2, sc, tc, ma := cubeFace(cubeDir(face, s, t))
	m := math.Abs(ma)
	x2 := int(math.Floor((sc/m + 1) / 2 * float64(n)))
	y2 := int(math.Floor((tc/m + 1) / 2 * float64(n)))
	return f2, min(max(x2, 0), n-1), min(max(y2, 0), n-1)
}

// nearestBits is an integer texture's sample: the texel nearest the
// coordinates, unfiltered.
func (v *texView) nearestBits(sm *sampler, q *shader.TexQuery, l int, lv uint32, c [3]float64) [4]uint32 {
	if v.kind == isa.ViewTexCube || v.kind == isa.ViewTexCubeArray {
		face, sc, tc, ma := cubeFace(c)
		m := math.Abs(ma)
		if m == 0 || m != m {
			return [4]uint32{}
		}
		n := int(v.level(lv, 0).W)
		fc, x, y := cubeTexel(face, int(math.Floor(clampCoord((sc/m+1)/2*float64(n)))), int(math.Floor(clampCoord((tc/m+1)/2*float64(n)))), n)
		return v.fetch(v.level(lv, uint32(fc)), x, y, 0)
	}
	slice := uint32(0)
	switch v.kind {
	case isa.ViewTex1DArray:
		slice = arraySlice(coordF(q, 1, l), v.nslice)
	case isa.ViewTex2DArray:
		slice = arraySlice(coordF(q, 2, l), v.nslice)
	}
	s := v.level(lv, slice)
	n := [3]int{int(s.W), int(s.H), int(s.D)}
	modes := [3]uint32{sm.u, sm.v, sm.addrW()}
	off := offset(q, l)
	var at [3]int
	for k := range v.dims() {
		var ok bool
		at[k], ok = addr(modes[k], int(math.Floor(clampCoord(c[k]*float64(n[k]))))+off[k], n[k])
		if !ok {
			return tfmt.FloatBits(sm.border)
		}
	}
	return v.fetch(s, at[0], at[1], at[2])
}

// gather returns channel Channel (red for a comparison) of the four texels
// of the bilinear footprint at the view's most detailed level, in
// Direct3D's order: (u0, v1), (u1, v1), (u1, v0), (u0, v0), or their
// comparisons with Ref.
func (v *texView) gather(sm *sampler, q *shader.TexQuery, l int) [4]uint32 {
	if !v.bound() || v.dims() != 2 {
		return [4]uint32{}
	}
	cmp := q.Op == shader.TexGatherCmp
	ch := int(q.Channel)
	var ref float64
	if cmp {
		ch, ref = 0, v.clampRef(float64(q.Ref[l]))
	}
	c := [3]float64{coordF(q, 0, l), coordF(q, 1, l), coordF(q, 2, l)}
	pick := func(t [4]uint32) uint32 {
		if cmp {
			if compareF(sm.cmp, ref, float64(math.Float32frombits(t[0]))) {
				return math.Float32bits(1)
			}
			return 0
		}
		return t[ch]
	}
	order := [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}}
	var r [4]uint32
	if v.kind == isa.ViewTexCube || v.kind == isa.ViewTexCubeArray {
		cube := uint32(0)
		if v.kind == isa.ViewTexCubeArray {
			cube = arraySlice(coordF(q, 3, l), v.nslice/6)
		}
		face, sc, tc, ma := cubeFace(c)
		m := math.Abs(ma)
		if m == 0 || m != m {
			return r
		}
		n := int(v.level(0, 0).W)
		x0 := int(math.Floor(clampCoord((sc/m+1)/2*float64(n) - 0.5)))
		y0 := int(math.Floor(clampCoord((tc/m+1)/2*float64(n) - 0.5)))
		for k, o := range order {
			fc, x, y := cubeTexel(face, x0+o[0], y0+o[1], n)
			r[k] = pick(v.fetch(v.level(0, 6*cube+uint32(fc)), x, y, 0))
		}
		return r
	}
	slice := uint32(0)
	if v.kind == isa.ViewTex2DArray {
		slice = arraySlice(c[2], v.nslice)
	}
	s := v.level(0, slice)
	off := offset(q, l)
	x0 := int(math.Floor(clampCoord(c[0]*float64(s.W)-0.5))) + off[0]
	y0 := int(math.Floor(clampCoord(c[1]*float64(s.H)-0.5))) + off[1]
	for k, o := range order {
		x, okx := addr(sm.u, x0+o[0], int(s.W))
		y, oky := addr(sm.v, y0+o[1], int(s.H))
		var t [4]uint32
		if okx && oky {
			t = v.fetch(s, x, y, 0)
		} else {
			t = tfmt.FloatBits(sm.border)
		}
		r[k] = pick(t)
	}
	return r
}

// log2 is log2(x) computed the same way on every platform (math.Log is
// assembly on some and Go on others): the exponent from Frexp, exact, and
// log2 of the mantissa by the series of atanh, its products rounded before
// each sum.
func log2(x float64) float64 {
	switch {
	case x != x || x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	case math.IsInf(x, 1):
		return x
	}
	m, e := math.Frexp(x) // x = m * 2^e, m in [0.5, 1)
	m *= 2
	e--
	// ln(m) = 2 atanh(z), z = (m-1)/(m+1), |z| <= 1/3
	z := (m - 1) / (m + 1)
	z2 := float64(z * z)
	sum, term := 0.0, z
	for k := 1; k < 60; k += 2 {
		sum += term / float64(k)
		term = float64(term * z2)
	}
	return float64(e) + float64(2*sum)/math.Ln2
}

func trailing(m uint64) int { return bits.TrailingZeros64(m) }
