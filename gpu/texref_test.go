package gpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"d3dsim/gpu/isa"
	"d3dsim/gpu/shader"
	tfmt "d3dsim/gpu/texel"
)

// The reference: sampling as "Direct3D 11.3 Functional Specification"
// (7.18, Texture sampling) words it, written without the texture unit's
// arithmetic. A filter is a sum over every texel of the level of the
// texel's weight (the tent of its centre's distance from the sample
// point, 1 - |d| per axis), addressing by the modes' definitions, the
// level of detail log2 of the longer texel-space gradient (the longer
// over the number of probes for anisotropy), the levels by rounding or
// interpolating it. The unit's general path must agree within 2^-16.

// refView is a view with its texels as floats, one slice at a time.
type refView struct {
	v    texView
	sm   sampler
	kind uint32
}

// refAddr is an address mode by its definition: the texel index i of n
// that coordinate index i names, or -1 for the border colour.
func refAddr(mode uint32, i, n int) int {
	switch mode {
	case isa.AddrWrap:
		return ((i % n) + n) % n
	case isa.AddrMirror:
		m := ((i % (2 * n)) + 2*n) % (2 * n)
		if m < n {
			return m
		}
		return 2*n - 1 - m
	case isa.AddrClamp:
		return max(0, min(i, n-1))
	case isa.AddrMirrorOnce:
		if i < 0 {
			i = -i - 1
		}
		return min(i, n-1)
	}
	if i < 0 || i >= n {
		return -1
	}
	return i
}

// refTexel is texel (x, y, z) of subresource s of view v as floats.
func refTexel(v *texView, s *isa.Subresource, x, y, z int) [4]float64 {
	b := tfmt.Load(v.fm, v.mem[s.Offset+uint64(z)*uint64(s.DepthPitch):], int(s.RowPitch), x, y)
	return [4]float64{float64(math.Float32frombits(b[0])), float64(math.Float32frombits(b[1])),
		float64(math.Float32frombits(b[2])), float64(math.Float32frombits(b[3]))}
}

// refFilter filters subresource s at normalized coordinates c (dims axes)
// with integer offsets off: the weighted sum over the texels.
func refFilter(v *texView, sm *sampler, s *isa.Subresource, dims int, c [3]float64, off [3]int, linear bool, cmp bool, ref float64) [4]float64 {
	n := [3]int{int(s.W), int(s.H), int(s.D)}
	modes := [3]uint32{sm.u, sm.v, sm.addrW()}
	// The coordinate indices whose texels touch the sample point, with
	// their weights, per axis.
	type tap struct {
		i int
		w float64
	}
	var taps [3][]tap
	for k := range 3 {
		if k >= dims {
			taps[k] = []tap{{0, 1}}
			continue
		}
		x := c[k] * float64(n[k])
		if !linear {
			taps[k] = []tap{{int(math.Floor(x)) + off[k], 1}}
			continue
		}
		lo := int(math.Floor(x-0.5)) + off[k]
		for i := lo; i <= lo+1; i++ {
			d := math.Abs(float64(i-off[k]) + 0.5 - x)
			if w := 1 - d; w > 0 {
				taps[k] = append(taps[k], tap{i, w})
			}
		}
	}
	var out [4]float64
	for _, tx := range taps[0] {
		for _, ty := range taps[1] {
			for _, tz := range taps[2] {
				w := tx.w * ty.w * tz.w
				x, y, z := refAddr(modes[0], tx.i, n[0]), refAddr(modes[1], ty.i, n[1]), refAddr(modes[2], tz.i, n[2])
				if dims < 2 {
					y = 0
				}
				if dims < 3 {
					z = 0
				}
				var t [4]float64
				if x < 0 || y < 0 || z < 0 {
					for k := range t {
						t[k] = float64(sm.border[k])
					}
				} else {
					t = refTexel(v, s, x, y, z)
				}
				if cmp {
					r := 0.0
					if compareF(sm.cmp, ref, t[0]) {
						r = 1
					}
					t = [4]float64{r, r, r, r}
				}
				for k := range out {
					out[k] += w * t[k]
				}
			}
		}
	}
	return out
}

// refSample is a sample of a 1D, 2D or 3D view (arrays included): the
// level of detail, the levels, the filters, the anisotropic probes.
func refSample(v *texView, sm *sampler, c [3]float64, slice float64, dx, dy [3]float64, bias float64, lodGiven *float64, off [3]int, cmp bool, ref float64) [4]float64 {
	dims := v.dims()
	top := v.level(0, 0)
	size := [3]float64{float64(top.W), float64(top.H), float64(top.D)}
	var lod float64
	probes := 1
	var major [3]float64
	if lodGiven != nil {
		lod = *lodGiven
	} else {
		var gx, gy [3]float64
		for k := range dims {
			gx[k], gy[k] = dx[k]*size[k], dy[k]*size[k]
		}
		lx := math.Sqrt(gx[0]*gx[0] + gx[1]*gx[1] + gx[2]*gx[2])
		ly := math.Sqrt(gy[0]*gy[0] + gy[1]*gy[1] + gy[2]*gy[2])
		rho := math.Max(lx, ly)
		if sm.aniso() {
			n := float64(sm.maxAniso)
			if r := math.Min(lx, ly); r > 0 {
				n = math.Min(n, math.Ceil(rho/r))
			}
			probes = int(math.Max(n, 1))
			rho /= float64(probes)
			major = dx
			if ly > lx {
				major = dy
			}
		}
		lod = math.Log2(rho) + bias
	}
	lod += float64(sm.biasOf())
	lo, hi := sm.lodRange()
	lod = math.Min(math.Max(lod, lo), hi)
	sl := 0
	if v.kind == isa.ViewTex1DArray || v.kind == isa.ViewTex2DArray {
		sl = int(arraySlice(slice, v.nslice))
	}
	filterAt := func(level int, p [3]float64, linear bool) [4]float64 {
		return refFilter(v, sm, v.level(uint32(level), uint32(sl)), dims, p, off, linear, cmp, ref)
	}
	var out [4]float64
	for pr := range probes {
		p := c
		if probes > 1 {
			t := (float64(pr)+0.5)/float64(probes) - 0.5
			for k := range 3 {
				p[k] += major[k] * t
			}
		}
		var r [4]float64
		switch last := float64(v.nmips - 1); {
		case !(lod > 0):
			r = filterAt(0, p, sm.linearMag())
		case !sm.linearMip():
			r = filterAt(int(math.Min(math.Floor(lod+0.5), last)), p, sm.linearMin())
		default:
			l := math.Min(lod, last)
			l0 := math.Floor(l)
			a := filterAt(int(l0), p, sm.linearMin())
			b := a
			if l0 < last {
				b = filterAt(int(l0)+1, p, sm.linearMin())
			}
			for k := range r {
				r[k] = a[k] + (b[k]-a[k])*(l-l0)
			}
		}
		for k := range out {
			out[k] += r[k] / float64(probes)
		}
	}
	return out
}

// testView builds a view of random texels (floats in [0, 1] for UNORM
// and float formats) over a whole resource.
func testView(rng *rand.Rand, kind uint32, fm isa.Format, w, h, d, mips, slices uint32) texView {
	depth := d
	if kind != isa.ViewTex3D {
		depth = slices
	}
	subs, size, err := isa.Subresources(fm, w, h, max(d, 1), mips, slices)
	if err != nil {
		panic(err)
	}
	_ = depth
	mem := make([]byte, size)
	for i := range mem {
		mem[i] = byte(rng.IntN(256))
	}
	if fm == isa.FmtR32F {
		for i := 0; i+4 <= len(mem); i += 4 {
			b := math.Float32bits(rng.Float32())
			mem[i], mem[i+1], mem[i+2], mem[i+3] = byte(b), byte(b>>8), byte(b>>16), byte(b>>24)
		}
	}
	return texView{kind: kind, fm: fm, mem: mem, subs: subs, mips: mips, w: w, h: h, d: max(d, 1), slices: slices,
		nmips: mips, nslice: slices}
}

func randSampler(rng *rand.Rand) sampler {
	filters := []uint32{0, isa.FilterMipLinear, isa.FilterMagLinear, isa.FilterMinLinear, 0x15, 0x14, 0x11, 0x05, isa.FilterAniso | 0x15}
	sm := sampler{ex: true, dfilter: filters[rng.IntN(len(filters))], u: uint32(rng.IntN(5)), v: uint32(rng.IntN(5)), w: uint32(rng.IntN(5)),
		maxAniso: uint32(1 + rng.IntN(16)), minLOD: -1e30, maxLOD: 1e30}
	if rng.IntN(3) == 0 {
		sm.bias = float32(rng.IntN(9)-4) / 2
	}
	if rng.IntN(4) == 0 {
		sm.minLOD, sm.maxLOD = float32(rng.IntN(3))/2, float32(1+rng.IntN(4))/1.5
	}
	for k := range sm.border {
		sm.border[k] = float32(rng.IntN(5)) / 4
	}
	return sm
}

// query is a one-lane texture query over a view in slot 0 and a sampler
// in slot 0 of a fresh unit.
type oneLane struct {
	u     texUnit
	st    state
	q     shader.TexQuery
	c     [4][shader.Lanes]uint32
	dx    [3][shader.Lanes]float32
	dy    [3][shader.Lanes]float32
	lod   [shader.Lanes]float32
	bias  [shader.Lanes]float32
	ref   [shader.Lanes]float32
	out   shader.Vec
	offxy [2][shader.Lanes]uint32
}

func newOneLane(v texView, sm sampler) *oneLane {
	o := &oneLane{}
	o.st.reset()
	if v.bound() {
		o.st.view[isa.StagePS][0] = &v
		o.st.texN[isa.StagePS] = 1
	}
	o.st.smp[isa.StagePS][0] = sm
	o.u = texUnit{st: &o.st, stage: isa.StagePS}
	o.q = shader.TexQuery{Mask: 1, Out: &o.out}
	for k := range 4 {
		o.q.Coord[k] = &o.c[k]
	}
	o.q.DX = [2]*[shader.Lanes]float32{&o.dx[0], &o.dx[1]}
	o.q.DY = [2]*[shader.Lanes]float32{&o.dy[0], &o.dy[1]}
	o.q.DXW, o.q.DYW = &o.dx[2], &o.dy[2]
	return o
}

func (o *oneLane) run(t *testing.T) [4]float64 {
	t.Helper()
	if err := o.u.Texture(&o.q); err != nil {
		t.Fatal(err)
	}
	return [4]float64{float64(math.Float32frombits(o.out[0][0])), float64(math.Float32frombits(o.out[1][0])),
		float64(math.Float32frombits(o.out[2][0])), float64(math.Float32frombits(o.out[3][0]))}
}

func near(a, b [4]float64) bool {
	for k := range a {
		if math.Abs(a[k]-b[k]) > 1.0/65536 {
			return false
		}
	}
	return true
}

// TestSampleAgainstReference: sample, sample_l, sample_b, sample_d and
// sample_c over random views (1D, 2D, 3D, arrays; mip chains; UNORM and
// float texels), samplers (every filter, anisotropy, every address mode,
// border colours, MipLODBias, MinLOD and MaxLOD, comparison functions),
// coordinates, gradients and offsets: the unit's general path against
// the reference.
func TestSampleAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	kinds := []uint32{isa.ViewTex1D, isa.ViewTex1DArray, isa.ViewTex2D, isa.ViewTex2DArray, isa.ViewTex3D}
	for n := range 4000 {
		kind := kinds[rng.IntN(len(kinds))]
		fm := []isa.Format{isa.FmtRGBA8, isa.FmtR32F}[rng.IntN(2)]
		w, h, d, slices := uint32(1+rng.IntN(24)), uint32(1+rng.IntN(24)), uint32(1), uint32(1)
		switch kind {
		case isa.ViewTex1D:
			h = 1
		case isa.ViewTex1DArray:
			h, slices = 1, uint32(1+rng.IntN(4))
		case isa.ViewTex2DArray:
			slices = uint32(1 + rng.IntN(4))
		case isa.ViewTex3D:
			d = uint32(1 + rng.IntN(12))
		}
		mips := uint32(1 + rng.IntN(int(isa.MaxMips(w, h, d))))
		v := testView(rng, kind, fm, w, h, d, mips, slices)
		sm := randSampler(rng)
		o := newOneLane(v, sm)
		c := [3]float64{rng.Float64()*3 - 1, rng.Float64()*3 - 1, rng.Float64()*3 - 1}
		slice := rng.Float64()*float64(slices+1) - 0.5
		for k := range 3 {
			o.c[k][0] = math.Float32bits(float32(c[k]))
			c[k] = float64(float32(c[k]))
		}
		sliceAt := 1
		if kind == isa.ViewTex2DArray {
			sliceAt = 2
		}
		if kind == isa.ViewTex1DArray || kind == isa.ViewTex2DArray {
			o.c[sliceAt][0] = math.Float32bits(float32(slice))
			slice = float64(float32(slice))
		}
		var dx, dy [3]float64
		for k := range 3 {
			s := math.Pow(2, float64(rng.IntN(8)-6))
			dx[k], dy[k] = float64(float32(rng.NormFloat64()*s)), float64(float32(rng.NormFloat64()*s))
			o.dx[k][0], o.dy[k][0] = float32(dx[k]), float32(dy[k])
		}
		var off [3]int
		if rng.IntN(3) == 0 {
			for k := range v.dims() {
				off[k] = rng.IntN(16) - 8
				o.q.Offset[k] = int32(off[k])
			}
		}
		var lodGiven *float64
		bias := 0.0
		cmp := false
		ref := 0.0
		switch rng.IntN(5) {
		case 0:
			o.q.Op = shader.TexSampleLevel
			l := float64(float32(rng.Float64()*8 - 2))
			o.lod[0] = float32(l)
			o.q.LOD = &o.lod
			lodGiven = &l
		case 1:
			o.q.Op = shader.TexSample
			bias = float64(float32(rng.Float64()*4 - 2))
			o.bias[0] = float32(bias)
			o.q.Bias = &o.bias
		case 2:
			o.q.Op, cmp = shader.TexSampleCmp, true
			o.st.smp[isa.StagePS][0].dfilter &^= isa.FilterAniso
			o.st.smp[isa.StagePS][0].dfilter |= isa.FilterComparison
			o.st.smp[isa.StagePS][0].cmp = uint32(rng.IntN(8))
			ref = float64(float32(rng.Float64()))
			o.ref[0] = float32(ref)
			o.q.Ref = &o.ref
		default:
			o.q.Op = shader.TexSampleGrad
		}
		sm = o.st.smp[isa.StagePS][0]
		got := o.run(t)
		if cmp {
			ref = v.clampRef(ref)
		}
		want := refSample(&v, &sm, c, slice, dx, dy, bias, lodGiven, off, cmp, ref)
		if !near(got, want) {
			t.Fatalf("case %d: %s %v %dx%dx%d mips %d slices %d, sampler %+v, op %d, coord %v slice %v, dx %v dy %v, bias %v, offset %v: got %v, reference %v",
				n, isa.ViewKindName(kind), fm, w, h, d, mips, slices, sm, o.q.Op, c, slice, dx, dy, bias, off, got, want)
		}
	}
}

// TestCubeSampling: cube and cube array views sampled in the inside of a
// face against the reference on that face's texels; gather of the four
// texels in Direct3D's order; and directions along each axis picking
// their face.
func TestCubeSampling(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	compared := 0
	defer func() {
		if compared < 400 {
			t.Errorf("only %d of the cube cases compared", compared)
		}
	}()
	for n := range 1500 {
		kind := []uint32{isa.ViewTexCube, isa.ViewTexCubeArray}[rng.IntN(2)]
		size := uint32(4 + rng.IntN(13))
		cubes := uint32(1)
		if kind == isa.ViewTexCubeArray {
			cubes = uint32(1 + rng.IntN(3))
		}
		mips := uint32(1 + rng.IntN(int(isa.MaxMips(size, size, 1))))
		v := testView(rng, kind, isa.FmtRGBA8, size, size, 1, mips, 6*cubes)
		sm := randSampler(rng)
		sm.dfilter &^= isa.FilterAniso
		o := newOneLane(v, sm)
		// A direction well inside a face: the major axis, the others
		// small.
		face := rng.IntN(6)
		s, tt := 0.25+rng.Float64()*0.5, 0.25+rng.Float64()*0.5
		dir := cubeDir(face, s, tt)
		scale := 0.5 + rng.Float64()*3
		for k := range 3 {
			o.c[k][0] = math.Float32bits(float32(dir[k] * scale))
			dir[k] = float64(float32(dir[k] * scale))
		}
		cube := uint32(0)
		if kind == isa.ViewTexCubeArray {
			cube = uint32(rng.IntN(int(cubes)))
			o.c[3][0] = math.Float32bits(float32(cube))
		}
		o.q.Op = shader.TexSampleLevel
		l := float32(rng.Float64() * float64(mips))
		o.lod[0] = l
		o.q.LOD = &o.lod
		got := o.run(t)
		f, sc, tc, ma := cubeFace(dir)
		if f != face {
			t.Fatalf("case %d: direction %v picks face %d, want %d", n, dir, f, face)
		}
		// The reference: the face's level as a 2D texture (the footprint
		// stays inside it, so clamping changes nothing).
		fv := v
		fv.kind, fv.slice0, fv.nslice = isa.ViewTex2D, 6*cube+uint32(face), 1
		fsm := sm
		fsm.u, fsm.v = isa.AddrClamp, isa.AddrClamp
		lg := float64(l)
		st := [3]float64{(sc/math.Abs(ma) + 1) / 2, (tc/math.Abs(ma) + 1) / 2, 0}
		// Only where the levels' bilinear footprints stay inside the face
		// (the reference knows no seams; TestCubeSeams checks them).
		inside := true
		lo, hi := sm.lodRange()
		el := max(0, math.Min(math.Max(float64(l)+float64(sm.bias), lo), hi))
		for _, lv := range []int{int(math.Floor(el)), int(math.Floor(el)) + 1} {
			nl := float64(isa.MipSize(size, uint32(min(lv, int(mips)-1))))
			for _, x := range st[:2] {
				if f := math.Floor(x*nl - 0.5); f < 0 || f+1 > nl-1 {
					inside = false
				}
			}
		}
		if !inside {
			continue
		}
		compared++
		want := refSample(&fv, &fsm, st, 0, [3]float64{}, [3]float64{}, 0, &lg, [3]int{}, false, 0)
		if !near(got, want) {
			t.Fatalf("case %d: cube %d face %d st %v lod %v size %d mips %d sampler %+v: got %v, reference %v", n, cube, face, st, l, size, mips, sm, got, want)
		}
	}
}

// TestGatherOrder: gather4 returns channel Channel of texels (u0, v1),
// (u1, v1), (u1, v0), (u0, v0) of the bilinear footprint, with offsets
// (immediate and per lane); gather4_c their comparisons.
func TestGatherOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for n := range 500 {
		v := testView(rng, isa.ViewTex2D, isa.FmtRGBA8, uint32(2+rng.IntN(20)), uint32(2+rng.IntN(20)), 1, 1, 1)
		sm := randSampler(rng)
		o := newOneLane(v, sm)
		u, vv := rng.Float64()*1.4-0.2, rng.Float64()*1.4-0.2
		o.c[0][0], o.c[1][0] = math.Float32bits(float32(u)), math.Float32bits(float32(vv))
		u, vv = float64(float32(u)), float64(float32(vv))
		ox, oy := rng.IntN(16)-8, rng.IntN(16)-8
		if rng.IntN(2) == 0 {
			o.q.Offset = [3]int32{int32(ox), int32(oy), 0}
		} else {
			o.offxy[0][0], o.offxy[1][0] = uint32(ox), uint32(oy)
			o.q.OffsetXY = [2]*[shader.Lanes]uint32{&o.offxy[0], &o.offxy[1]}
		}
		o.q.Op, o.q.Channel = shader.TexGather, uint8(rng.IntN(4))
		cmp := rng.IntN(3) == 0
		if cmp {
			o.q.Op = shader.TexGatherCmp
			o.st.smp[isa.StagePS][0].cmp = uint32(rng.IntN(8))
			o.ref[0] = rng.Float32()
			o.q.Ref = &o.ref
		}
		if err := o.u.Texture(&o.q); err != nil {
			t.Fatal(err)
		}
		s := &v.subs[0]
		x0 := int(math.Floor(u*float64(s.W)-0.5)) + ox
		y0 := int(math.Floor(vv*float64(s.H)-0.5)) + oy
		for k, at := range [4][2]int{{0, 1}, {1, 1}, {1, 0}, {0, 0}} {
			x, y := refAddr(sm.u, x0+at[0], int(s.W)), refAddr(sm.v, y0+at[1], int(s.H))
			var tex [4]float64
			if x < 0 || y < 0 {
				for c := range tex {
					tex[c] = float64(sm.border[c])
				}
			} else {
				tex = refTexel(&v, s, x, y, 0)
			}
			want := tex[o.q.Channel]
			if cmp {
				want = 0
				if compareF(o.st.smp[isa.StagePS][0].cmp, float64(o.ref[0]), tex[0]) {
					want = 1
				}
			}
			if got := float64(math.Float32frombits(o.out[k][0])); got != want {
				t.Fatalf("case %d: gather component %d = %v, want %v (texel %d,%d)", n, k, got, want, x, y)
			}
		}
	}
}

// TestLoadsAndBuffers: ld of every kind at a level and with offsets (0
// outside), and the buffer views' loads: typed, raw, structured.
func TestLoadsAndBuffers(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	v := testView(rng, isa.ViewTex2DArray, isa.FmtRGBA8, 9, 7, 1, 3, 4)
	o := newOneLane(v, loadSampler)
	o.q.Op = shader.TexLoad
	for range 300 {
		x, y, sl, mip := rng.IntN(12)-1, rng.IntN(10)-1, rng.IntN(5), rng.IntN(4)
		ox, oy := rng.IntN(5)-2, rng.IntN(5)-2
		o.c[0][0], o.c[1][0], o.c[2][0], o.c[3][0] = uint32(int32(x)), uint32(int32(y)), uint32(sl), uint32(mip)
		o.q.Offset = [3]int32{int32(ox), int32(oy), 0}
		got := o.run(t)
		var want [4]float64
		if mip < 3 && sl < 4 {
			s := v.level(uint32(mip), uint32(sl))
			if tx, ty := x+ox, y+oy; tx >= 0 && ty >= 0 && tx < int(s.W) && ty < int(s.H) {
				want = refTexel(&v, s, tx, ty, 0)
			}
		}
		if got != want {
			t.Fatalf("ld (%d,%d) slice %d mip %d offset %d,%d = %v, want %v", x, y, sl, mip, ox, oy, got, want)
		}
	}
	mem := make([]byte, 256)
	for i := range mem {
		mem[i] = byte(i)
	}
	word := func(at int) uint32 { return uint32(at) | uint32(at+1)<<8 | uint32(at+2)<<16 | uint32(at+3)<<24 }
	// A typed buffer of R32_FLOAT: elements 4.. of 10.
	typed := texView{kind: isa.ViewBuffer, fm: isa.FmtR32F, mem: mem, w: 256, first: 4, count: 10, stride: 4}
	o = newOneLane(typed, loadSampler)
	o.q.Op = shader.TexLoad
	for i := range 12 {
		o.c[0][0] = uint32(i)
		o.run(t)
		want := uint32(0)
		if i < 10 {
			want = word(4 * (4 + i))
		}
		if o.out[0][0] != want {
			t.Fatalf("typed element %d = %#x, want %#x", i, o.out[0][0], want)
		}
	}
	raw := texView{kind: isa.ViewRawBuffer, mem: mem, w: 256, first: 2, count: 8, stride: 4}
	o = newOneLane(raw, loadSampler)
	o.q.Op = shader.TexLoadRaw
	for _, at := range []int{0, 4, 20, 28, 40} {
		o.c[0][0] = uint32(at)
		o.run(t)
		for k := range 4 {
			want := uint32(0)
			if b := 8 + at + 4*k; b+4 <= 8+32 {
				want = word(b)
			}
			if o.out[k][0] != want {
				t.Fatalf("raw at %d word %d = %#x, want %#x", at, k, o.out[k][0], want)
			}
		}
	}
	st := texView{kind: isa.ViewStructured, mem: mem, w: 256, first: 1, count: 5, stride: 12}
	o = newOneLane(st, loadSampler)
	o.q.Op = shader.TexLoadStructured
	for _, c := range [][2]int{{0, 0}, {2, 4}, {4, 8}, {5, 0}, {1, 12}} {
		o.c[0][0], o.c[1][0] = uint32(c[0]), uint32(c[1])
		o.run(t)
		for k := range 4 {
			want := uint32(0)
			if c[0] < 5 && c[1] < 12 {
				start := 12 * (1 + c[0])
				if b := start + c[1] + 4*k; b+4 <= start+12 {
					want = word(b)
				}
			}
			if o.out[k][0] != want {
				t.Fatalf("structured %v word %d = %#x, want %#x", c, k, o.out[k][0], want)
			}
		}
	}
}

// TestLODQuery: lod returns the level of detail clamped by the sampler
// and the view's levels in x, unclamped (with MipLODBias) in y.
func TestLODQuery(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	v := testView(rng, isa.ViewTex2D, isa.FmtRGBA8, 64, 32, 1, 5, 1)
	for range 200 {
		sm := randSampler(rng)
		sm.dfilter &^= isa.FilterAniso
		o := newOneLane(v, sm)
		o.q.Op = shader.TexLOD
		dx := [2]float64{rng.NormFloat64() / 8, rng.NormFloat64() / 8}
		dy := [2]float64{rng.NormFloat64() / 8, rng.NormFloat64() / 8}
		for k := range 2 {
			o.dx[k][0], o.dy[k][0] = float32(dx[k]), float32(dy[k])
		}
		got := o.run(t)
		lx := math.Hypot(float64(float32(dx[0]))*64, float64(float32(dx[1]))*32)
		ly := math.Hypot(float64(float32(dy[0]))*64, float64(float32(dy[1]))*32)
		raw := math.Log2(math.Max(lx, ly)) + float64(sm.bias)
		lo, hi := sm.lodRange()
		want := math.Min(math.Max(raw, lo), hi)
		if math.Abs(got[1]-raw) > 1e-5 || math.Abs(got[0]-want) > 1e-5 {
			t.Fatalf("lod = %v, want %v (unclamped %v), sampler %+v", got[:2], want, raw, sm)
		}
	}
}

// The view kinds of package shader are the GPU's.
func TestViewKindsAgree(t *testing.T) {
	for _, k := range [][2]uint32{{shader.ViewTex1D, isa.ViewTex1D}, {shader.ViewTex1DArray, isa.ViewTex1DArray},
		{shader.ViewTex2D, isa.ViewTex2D}, {shader.ViewTex2DArray, isa.ViewTex2DArray}, {shader.ViewTex3D, isa.ViewTex3D},
		{shader.ViewTexCube, isa.ViewTexCube}, {shader.ViewTexCubeArray, isa.ViewTexCubeArray}, {shader.ViewBuffer, isa.ViewBuffer},
		{shader.ViewRawBuffer, isa.ViewRawBuffer}, {shader.ViewStructured, isa.ViewStructured}} {
		if k[0] != k[1] {
			t.Errorf("shader's view kind %d is the GPU's %d", k[0], k[1])
		}
	}
}

// log2 agrees with math.Log2 to a few ulps over the range levels of
// detail take.
func TestLog2(t *testing.T) {
	for x := 1e-12; x < 1e12; x *= 1.0137 {
		if d := math.Abs(log2(x) - math.Log2(x)); d > 1e-12 {
			t.Fatalf("log2(%g) = %v, math.Log2 %v", x, log2(x), math.Log2(x))
		}
	}
}

// TestCubeSeams: a cube whose faces are all one colour reads that colour
// in every direction, at every level, with every filter: a footprint
// across a seam reads the neighbouring face, never something else.
func TestCubeSeams(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	v := testView(rng, isa.ViewTexCube, isa.FmtRGBA8, 8, 8, 1, 4, 6)
	for i := 0; i+4 <= len(v.mem); i += 4 {
		v.mem[i], v.mem[i+1], v.mem[i+2], v.mem[i+3] = 51, 102, 153, 255
	}
	want := [4]float64{float64(float32(51.0 / 255)), float64(float32(102.0 / 255)), float64(float32(153.0 / 255)), 1}
	for n := range 2000 {
		sm := randSampler(rng)
		o := newOneLane(v, sm)
		for k := range 3 {
			o.c[k][0] = math.Float32bits(float32(rng.NormFloat64()))
		}
		o.q.Op = shader.TexSampleLevel
		o.lod[0] = float32(rng.Float64()*5 - 1)
		o.q.LOD = &o.lod
		if got := o.run(t); !near(got, want) {
			t.Fatalf("case %d: direction %v lod %v, sampler %+v: got %v, want %v", n, [3]uint32{o.c[0][0], o.c[1][0], o.c[2][0]}, o.lod[0], sm, got, want)
		}
	}
}

// TestGeneralMatchesFastPath: a one-level 2D texture with a sampler the
// fast path takes samples the same through the general path (SET_VIEW's
// view with a SET_SAMPLER_EX sampler of the same filter), within float32
// rounding: the two paths are one texture unit.
func TestGeneralMatchesFastPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	for n := range 300 {
		w, h := 1+rng.IntN(40), 1+rng.IntN(40)
		v := testView(rng, isa.ViewTex2D, []isa.Format{isa.FmtRGBA8, isa.FmtBGRA8, isa.FmtR32F}[rng.IntN(3)], uint32(w), uint32(h), 1, 1, 1)
		s := v.subs[0]
		fast := surface{mem: v.mem, w: w, h: h, pitch: int(s.RowPitch), fmt: v.fm, bpp: int(v.fm.Info().Bytes)}
		old := sampler{filter: uint32(rng.IntN(2)), u: uint32(rng.IntN(4)), v: uint32(rng.IntN(4)), border: [4]float32{0.25, 0.5, 0.75, 1}}
		ex := old
		ex.ex, ex.dfilter, ex.w, ex.maxAniso, ex.minLOD, ex.maxLOD = true, 0, isa.AddrClamp, 1, -1e30, 1e30
		if old.filter == isa.FilterLinear {
			ex.dfilter = 0x15
		}
		a := newOneLane(texView{}, old)
		a.st.tex[isa.StagePS][0] = fast
		a.st.texN[isa.StagePS] = 1
		b := newOneLane(v, ex)
		for _, o := range []*oneLane{a, b} {
			o.q.Op = shader.TexSample
			o.q.Mask = shader.AllLanes
		}
		for l := range shader.Lanes {
			u, vv := math.Float32bits(float32(rng.Float64()*3-1)), math.Float32bits(float32(rng.Float64()*3-1))
			a.c[0][l], a.c[1][l], b.c[0][l], b.c[1][l] = u, vv, u, vv
		}
		a.run(t)
		b.run(t)
		for l := range shader.Lanes {
			for k := range 4 {
				x, y := math.Float32frombits(a.out[k][l]), math.Float32frombits(b.out[k][l])
				if math.Abs(float64(x-y)) > 1e-6 {
					t.Fatalf("case %d lane %d channel %d: fast %v, general %v (%v %dx%d sampler %+v)", n, l, k, x, y, v.fm, w, h, old)
				}
			}
		}
	}
}
