package gpu

import (
	"d3dsim/gpu/isa"
	tfmt "d3dsim/gpu/texel"
	"encoding/binary"
	"math"
)

// Pipeline state of one DMA buffer and the SET_* packets that change it.

// Hardware limits.
const (
	maxDim          = 16384               // surface width and height
	maxDrawVertices = 1 << 22             // vertices in one draw
	numVB           = isa.MaxVertexSlots  // vertex buffer slots
	numCB           = 16                  // constant buffer slots per stage
	numTex          = isa.MaxTexSlots     // texture slots per stage (t0..t127)
	numSamplers     = isa.MaxSamplerSlots // sampler slots per stage
	// numStages are the stages with a program on this GPU: isa.StageVS,
	// isa.StagePS, the compute stage, whose state is at index stageCS
	// (isa.StageCS on the wire: stageOK maps it), and the geometry stage
	// at stageGS (isa.StageGS on the wire), the hull and domain stages
	// at stageHS and stageDS (isa.StageHS and isa.StageDS).
	numStages   = 6
	stageCS     = 2
	stageGS     = 3
	stageHS     = 4
	stageDS     = 5
	vertexBytes = isa.VertexBytes
)

// surface is a resolved 2D surface: its bytes in memory and layout. bpp is
// the bytes of a texel (of a 4x4 block for a block-compressed format).
type surface struct {
	mem   []byte
	w, h  int
	pitch int
	fmt   isa.Format
	bpp   int
	// layers are a layered target's slices, nil for one (layers.go).
	layers *layers
}

func (s *surface) bound() bool { return s.w > 0 }

type vbuf struct {
	mem    []byte // [addr, addr+size)
	stride uint64
	offset uint64
	bound  bool
}

type ibuf struct {
	mem    []byte
	size   uint64 // bytes per index: 2 or 4
	offset uint64
	bound  bool
}

type sampler struct {
	filter, u, v uint32
	border       [4]float32
	// SET_SAMPLER_EX (texunit.go): the whole D3D11_SAMPLER_DESC. simple: the
	// fast path's filter, u and v say all (one filter, the four old
	// address modes, no anisotropy or comparison).
	ex, simple     bool
	dfilter        uint32
	w              uint32
	bias           float32
	maxAniso, cmp  uint32
	minLOD, maxLOD float32
}

type viewport struct {
	x, y, w, h, minZ, maxZ float64
}

type blendState struct {
	enable                        bool
	src, dst, op, srcA, dstA, opA uint32
	mask                          uint32
}

type depthState struct {
	enable, write bool
	fn            uint32
}

// stencilState is SET_STENCIL's: the test, masks, reference and each
// face's operations (face 0 front, 1 back).
type stencilState struct {
	enable              bool
	readMask, writeMask uint8
	ref                 uint8
	face                [2]isa.StencilFace
}

// state is a DMA buffer's pipeline state: what its SET_* packets set.
// The texture, view and sampler slots are 67 KiB of its 75 KiB: reset
// clears only the slots below texN and smpN (what the buffer may have set),
// and the rest, regs, by one copy of its defaults. Every write of a slot
// raises its mark (setTex, setView, setSampler, setSamplerEx);
// TestStateResetIsComplete fails when a slot a buffer set outlives it.
type state struct {
	regs
	tex [numStages][numTex]surface // SET_TEX (the pixel stage's) and SET_TEX_STAGE
	smp [numStages][numSamplers]sampler
	// view holds each stage's SET_VIEW views (texunit.go); nil where
	// SET_TEX bound a one-level 2D texture or nothing.
	view [numStages][numTex]*texView
	// texN: each stage's texture slots below it may be bound (one past the
	// highest slot ever bound in this buffer); smpN the same of its
	// samplers (the others are defaultSampler).
	texN, smpN [numStages]int
	// ready: reset has set the slots' defaults once (a zero state has none).
	ready bool
}

// regs is the state but for the texture, view and sampler slots.
type regs struct {
	rt    [isa.MaxRenderTargets]surface // SET_RT (slot 0) and SET_RT_SLOT
	ds    surface
	vb    [numVB]vbuf
	ib    ibuf
	cb    [numStages][numCB][]byte
	vp    viewport
	vpSet bool
	// Viewports 1..15 (SET_VIEWPORT_N) and the scissor rectangles
	// (SET_SCISSOR): the rasterizer uses index 0, as Direct3D 11 does
	// without a geometry shader choosing another (SV_ViewportArrayIndex).
	vpN     [isa.MaxViewports]viewport
	scissor [isa.MaxViewports]rect
	// SET_RASTER's flags: the scissor test; MultisampleEnable and
	// AntialiasedLineEnable, which select the line algorithm (aaline.go:
	// quadrilateral, alpha antialiased or aliased lines).
	scissorOn, msaaLines, aaLines bool
	// SET_DEPTH_BIAS: DepthBias, DepthBiasClamp, SlopeScaledDepthBias.
	depthBias         int32
	biasClamp, biasSS float32
	cull              uint32
	wireframe         bool // fill mode WIREFRAME: triangles drawn as their edges
	frontCCW          bool
	depthClip         bool
	blend             [isa.MaxRenderTargets]blendState // SET_BLEND (all of them) and SET_BLEND_RT
	depth             depthState
	// SET_BLEND_FACTOR's: the blend factor, the sample mask and
	// alpha-to-coverage.
	blendFactor [4]float32
	sampleMask  uint32
	a2c         bool
	stencil     stencilState
	topo        uint32
	prog        [numStages]progBinding      // SET_PROGRAM (program.go)
	uav         [isa.MaxUAVSlots]uavBinding // SET_UAV (compute.go)
	psUAV       [isa.MaxUAVSlots]uavBinding // SET_UAV of the pixel stage (psuav.go)
	layout      layoutState                 // SET_LAYOUT
	so          soState                     // SET_SO_TARGET, SET_SO_DECL (so.go)
	// SET_PREDICATION: the predicate's data (0: no predication) and the
	// value that skips the predicated packets (queries.go).
	predAddr  uint64
	predValue bool
	// SET_SAMPLES: the output merger's targets' samples a pixel (0 or 1:
	// one; msaa.go).
	samples uint32
	// SET_CLIP_DIST's word: where the clip and cull distances are
	// (clipdist.go).
	clipDist uint32
}

var (
	defaultSampler = sampler{filter: isa.FilterLinear, u: isa.AddrClamp, v: isa.AddrClamp, border: [4]float32{1, 1, 1, 1}}
	defaultBlend   = blendState{src: isa.BlendOne, dst: isa.BlendZero, op: isa.BlendOpAdd, srcA: isa.BlendOne, dstA: isa.BlendZero, opA: isa.BlendOpAdd, mask: 0xF}
	defaultStencil = stencilState{readMask: 0xFF, writeMask: 0xFF, face: [2]isa.StencilFace{
		{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilKeep, Func: isa.CmpAlways},
		{Fail: isa.StencilKeep, DepthFail: isa.StencilKeep, Pass: isa.StencilKeep, Func: isa.CmpAlways}}}
)

// defaultRegs: the registers every buffer starts with: nothing bound,
// D3D11's default rasterizer (cull back, clockwise front, depth clip), blend
// (off, write all, blend factor 1, every sample) and depth-stencil (test
// LESS, write, no stencil) states, a triangle-list topology, and no
// viewport: until SET_VIEWPORT a draw covers nothing, as in Direct3D 11.
var defaultRegs = func() regs {
	r := regs{
		cull:        isa.CullBack,
		depthClip:   true,
		depth:       depthState{enable: true, write: true, fn: isa.CmpLess},
		topo:        isa.TopoTriangleList,
		blendFactor: [4]float32{1, 1, 1, 1},
		sampleMask:  ^uint32(0),
		stencil:     defaultStencil,
	}
	for i := range r.blend {
		r.blend[i] = defaultBlend
	}
	return r
}()

// reset sets the state every buffer starts with: defaultRegs, no texture
// or view bound, every sampler defaultSampler (linear, clamp, border
// white). It touches only the slots below the marks, so it costs what the
// buffer set, not the state's size (it runs twice a buffer: cp.go).
func (s *state) reset() {
	if !s.ready {
		*s = state{ready: true}
		for st := range s.smp {
			for i := range s.smp[st] {
				s.smp[st][i] = defaultSampler
			}
		}
	}
	for st := range numStages {
		if n := s.texN[st]; n > 0 {
			clear(s.tex[st][:n])
			clear(s.view[st][:n])
		}
		for i := range s.smpN[st] {
			s.smp[st][i] = defaultSampler
		}
	}
	s.texN, s.smpN = [numStages]int{}, [numStages]int{}
	s.regs = defaultRegs
}

// The kinds of surface a packet names, and the formats each may have.
const (
	useColor   = iota // a render target: a colour format the output merger writes (tfmt.Writable)
	useDepth          // a depth buffer: FmtD32F, FmtD24S8, FmtD16, FmtD32FS8
	useTexture        // a texture: any format the texture unit decodes
	useScanout        // what the display engine shows (isa.Displayable)
)

// formatFor reports whether format f may be a surface of the kind use.
func formatFor(use int, f isa.Format) bool {
	i := f.Info()
	switch use {
	case useColor:
		return tfmt.Writable(f) && !i.Depth
	case useDepth:
		return i.Depth
	case useTexture:
		return f.Known()
	}
	return isa.Displayable(f)
}

// surface resolves the addr(2) w h pitch fmt fields at a[i:] of p; the format
// must suit use.
func (ex *executor) surface(p isa.Packet, i int, what string, use int) (surface, bool) {
	a := p.Args
	addr := p.Addr(i)
	w, h, pitch, fm := a[i+2], a[i+3], a[i+4], isa.Format(a[i+5])
	if !formatFor(use, fm) {
		ex.fault("%s: format %v not supported", what, fm)
		return surface{}, false
	}
	if w == 0 || h == 0 || w > maxDim || h > maxDim {
		ex.fault("%s: size %dx%d outside 1..%d", what, w, h, maxDim)
		return surface{}, false
	}
	row := fm.RowBytes(w)
	if uint64(pitch) < row {
		ex.fault("%s: pitch %d smaller than a row of %d bytes", what, pitch, row)
		return surface{}, false
	}
	mem, ok := ex.bytes(what, addr, uint64(pitch)*uint64(fm.Rows(h)-1)+row)
	if !ok {
		return surface{}, false
	}
	return surface{mem: mem, w: int(w), h: int(h), pitch: int(pitch), fmt: fm, bpp: int(fm.Info().Bytes)}, true
}

// stageOK reports whether stage has a program on this GPU (it faults
// when not).
// isa.StageCS becomes stageCS, the index of the compute stage's state,
// isa.StageGS stageGS, the geometry stage's.
func (ex *executor) stageOK(stage *uint32) bool {
	switch *stage {
	case isa.StageVS, isa.StagePS:
		return true
	case isa.StageCS:
		*stage = stageCS
		return true
	case isa.StageGS:
		*stage = stageGS
		return true
	case isa.StageHS:
		*stage = stageHS
		return true
	case isa.StageDS:
		*stage = stageDS
		return true
	}
	ex.fault("stage %d: this GPU runs programs in stages %d (vertex), %d (pixel), %d (geometry), %d (hull), %d (domain) and %d (compute) only", *stage, isa.StageVS, isa.StagePS, isa.StageGS, isa.StageHS, isa.StageDS, isa.StageCS)
	return false
}

// setTex binds texture slot of stage to the surface at a[i:] of p (unbinds
// it for address 0).
func (ex *executor) setTex(p isa.Packet, stage, slot uint32, i int) {
	s := &ex.st
	if slot >= numTex {
		ex.fault("slot %d outside 0..%d", slot, numTex-1)
		return
	}
	s.tex[stage][slot], s.view[stage][slot] = surface{}, nil
	if p.Addr(i) != 0 {
		s.tex[stage][slot], _ = ex.surface(p, i, "texture", useTexture)
		s.texN[stage] = max(s.texN[stage], int(slot)+1)
	}
}

// setSampler sets a sampler of stage from a: slot filter addressU
// addressV borderRGBA8.
func (ex *executor) setSampler(stage uint32, a []uint32) {
	slot, filter, u, v, b := a[0], a[1], a[2], a[3], a[4]
	if slot >= numSamplers || filter > isa.FilterLinear || u > isa.AddrBorder || v > isa.AddrBorder {
		ex.fault("slot %d filter %d address %d,%d: out of range", slot, filter, u, v)
		return
	}
	ex.st.smpN[stage] = max(ex.st.smpN[stage], int(slot)+1)
	ex.st.smp[stage][slot] = sampler{filter: filter, u: u, v: v, border: [4]float32{
		float32(b&0xFF) / 255, float32(b>>8&0xFF) / 255, float32(b>>16&0xFF) / 255, float32(b>>24) / 255}}
}

// setState runs the SET_* packets. An invalid packet faults and leaves the
// state as it was.
func (ex *executor) setState(p isa.Packet) {
	s := &ex.st
	a := p.Args
	switch p.Op {
	case isa.OpSetRT:
		s.rt[0] = surface{}
		if p.Addr(0) != 0 {
			s.rt[0], _ = ex.surface(p, 0, "render target", useColor)
		}
	case isa.OpSetRTSlot:
		slot := a[0]
		if slot == 0 || slot >= isa.MaxRenderTargets {
			ex.fault("slot %d outside 1..%d", slot, isa.MaxRenderTargets-1)
			return
		}
		s.rt[slot] = surface{}
		if p.Addr(1) != 0 {
			s.rt[slot], _ = ex.surface(p, 1, "render target", useColor)
		}
	case isa.OpSetDS:
		s.ds = surface{}
		if p.Addr(0) != 0 {
			s.ds, _ = ex.surface(p, 0, "depth buffer", useDepth)
		}
	case isa.OpSetVB:
		slot, addr, size := a[0], p.Addr(1), uint64(a[3])
		if slot >= numVB {
			ex.fault("slot %d outside 0..%d", slot, numVB-1)
			return
		}
		s.vb[slot] = vbuf{}
		if addr == 0 && size == 0 {
			return
		}
		if mem, ok := ex.bytes("vertex buffer", addr, size); ok {
			s.vb[slot] = vbuf{mem: mem, stride: uint64(a[4]), offset: uint64(a[5]), bound: true}
		}
	case isa.OpSetIB:
		addr, size, ib := p.Addr(0), uint64(a[2]), uint64(a[3])
		s.ib = ibuf{}
		if addr == 0 && size == 0 {
			return
		}
		if ib != 2 && ib != 4 {
			ex.fault("index size %d, want 2 or 4", ib)
			return
		}
		if mem, ok := ex.bytes("index buffer", addr, size); ok {
			s.ib = ibuf{mem: mem, size: ib, offset: uint64(a[4]), bound: true}
		}
	case isa.OpSetCB:
		stage, slot, addr, size := a[0], a[1], p.Addr(2), uint64(a[4])
		if !ex.stageOK(&stage) {
			return
		}
		if slot >= numCB {
			ex.fault("slot %d outside 0..%d", slot, numCB-1)
			return
		}
		s.cb[stage][slot] = nil
		if addr == 0 && size == 0 {
			return
		}
		if mem, ok := ex.bytes("constant buffer", addr, size); ok {
			s.cb[stage][slot] = mem
		}
	case isa.OpSetTex:
		ex.setTex(p, isa.StagePS, a[0], 1)
	case isa.OpSetTexStage:
		if st := a[0]; ex.stageOK(&st) {
			ex.setTex(p, st, a[1], 2)
		}
	case isa.OpSetView:
		ex.setView(p)
	case isa.OpSetSamplerEx:
		ex.setSamplerEx(p)
	case isa.OpSetSampler:
		ex.setSampler(isa.StagePS, a)
	case isa.OpSetSamplerStage:
		if st := a[0]; ex.stageOK(&st) {
			ex.setSampler(st, a[1:])
		}
	case isa.OpSetProgram, isa.OpSetLayout:
		ex.setProgramState(p)
	case isa.OpSetViewport:
		s.vp = viewport{
			x: sane(p.F32(0), -32768, 32767), y: sane(p.F32(1), -32768, 32767),
			w: sane(p.F32(2), 0, 32768), h: sane(p.F32(3), 0, 32768),
			minZ: sane(p.F32(4), 0, 1), maxZ: sane(p.F32(5), 0, 1),
		}
		s.vpSet = true
	case isa.OpSetRaster:
		cull := a[0] &^ isa.RasterFlags
		if cull > isa.CullBack {
			ex.fault("cull mode %d", a[0])
			return
		}
		s.cull, s.wireframe, s.frontCCW, s.depthClip = cull, a[0]&isa.RasterWireframe != 0, a[1] != 0, a[2] != 0
		s.scissorOn, s.msaaLines, s.aaLines = a[0]&isa.RasterScissor != 0, a[0]&isa.RasterMultisample != 0, a[0]&isa.RasterAALine != 0
	case isa.OpSetScissor:
		if a[0] >= isa.MaxViewports {
			ex.fault("scissor rectangle %d outside 0..%d", a[0], isa.MaxViewports-1)
			return
		}
		s.scissor[a[0]] = rect{x0: int32(a[1]), y0: int32(a[2]), x1: int32(a[3]), y1: int32(a[4])}
	case isa.OpSetViewportN:
		if a[0] == 0 || a[0] >= isa.MaxViewports {
			ex.fault("viewport %d outside 1..%d", a[0], isa.MaxViewports-1)
			return
		}
		s.vpN[a[0]] = viewport{
			x: sane(p.F32(1), -32768, 32767), y: sane(p.F32(2), -32768, 32767),
			w: sane(p.F32(3), 0, 32768), h: sane(p.F32(4), 0, 32768),
			minZ: sane(p.F32(5), 0, 1), maxZ: sane(p.F32(6), 0, 1),
		}
	case isa.OpSetClipDist:
		s.clipDist = a[0]
	case isa.OpSetDepthBias:
		s.depthBias = int32(a[0])
		s.biasClamp, s.biasSS = saneF32(p.F32(1)), saneF32(p.F32(2))
	case isa.OpSetBlend:
		b, ok := ex.blendOf(a)
		if !ok {
			return
		}
		for i := range s.blend {
			s.blend[i] = b
		}
	case isa.OpSetBlendRT:
		if a[0] >= isa.MaxRenderTargets {
			ex.fault("slot %d outside 0..%d", a[0], isa.MaxRenderTargets-1)
			return
		}
		if b, ok := ex.blendOf(a[1:]); ok {
			s.blend[a[0]] = b
		}
	case isa.OpSetBlendFactor:
		s.blendFactor = [4]float32{p.F32(0), p.F32(1), p.F32(2), p.F32(3)}
		s.sampleMask, s.a2c = a[4], a[5]&isa.BlendAlphaToCoverage != 0
	case isa.OpSetStencil:
		for _, w := range a[4:] {
			if w >= isa.NumStencilOps || w > isa.CmpAlways {
				ex.fault("stencil operation or function %d", w)
				return
			}
		}
		s.stencil = stencilState{enable: a[0] != 0, readMask: uint8(a[1]), writeMask: uint8(a[2]), ref: uint8(a[3]),
			face: [2]isa.StencilFace{{Fail: a[4], DepthFail: a[5], Pass: a[6], Func: a[7]}, {Fail: a[8], DepthFail: a[9], Pass: a[10], Func: a[11]}}}
	case isa.OpSetDepth:
		if a[2] > isa.CmpAlways {
			ex.fault("depth function %d", a[2])
			return
		}
		s.depth = depthState{enable: a[0] != 0, write: a[1] != 0, fn: a[2]}
	case isa.OpSetTopology:
		if a[0] >= isa.NumTopologies && isa.PatchControlPoints(a[0]) == 0 {
			ex.fault("topology %d", a[0])
			return
		}
		s.topo = a[0]
	}
}

// blendOf decodes the eight words of a blend (SET_BLEND's, SET_BLEND_RT's
// after its slot), faulting on a bad factor or operation.
func (ex *executor) blendOf(a []uint32) (blendState, bool) {
	for _, f := range []uint32{a[1], a[2], a[4], a[5]} {
		if f >= isa.NumBlendFactors {
			ex.fault("blend factor %d", f)
			return blendState{}, false
		}
	}
	if a[3] > isa.BlendOpMax || a[6] > isa.BlendOpMax {
		ex.fault("blend op %d,%d", a[3], a[6])
		return blendState{}, false
	}
	return blendState{enable: a[0] != 0, src: a[1], dst: a[2], op: a[3], srcA: a[4], dstA: a[5], opA: a[6], mask: a[7] & 0xF}, true
}

// rect is a scissor rectangle: pixels x0..x1-1, y0..y1-1.
type rect struct{ x0, y0, x1, y1 int32 }

// saneF32 is a float from a packet, NaN as 0 and infinities as the
// largest finite values.
func saneF32(v float32) float32 {
	switch {
	case v != v:
		return 0
	case v > math.MaxFloat32:
		return math.MaxFloat32
	case v < -math.MaxFloat32:
		return -math.MaxFloat32
	}
	return v
}

// sane clamps a float from a packet into [lo, hi]; NaN becomes lo.
func sane(v float32, lo, hi float64) float64 {
	f := float64(v)
	if !(f >= lo) {
		return lo
	}
	if f > hi {
		return hi
	}
	return f
}

// clearRT fills a colour surface with one colour, converted to its format
// (tfmt.ClearValue: an integer format takes the colour's values as
// integers).
func (ex *executor) clearRT(p isa.Packet) {
	s, ok := ex.surface(p, 0, "render target", useColor)
	if !ok {
		return
	}
	c := [4]float32{p.F32(6), p.F32(7), p.F32(8), p.F32(9)}
	var px [16]byte
	tfmt.Encode(s.fmt, tfmt.ClearValue(s.fmt, c), 0xF, px[:s.bpp])
	fillRect(&s, px[:s.bpp])
	ex.chargeClear(s.w, s.h)
}

// clearDS sets the depth of a depth surface, keeping its stencil.
func (ex *executor) clearDS(p isa.Packet) {
	s, ok := ex.surface(p, 0, "depth buffer", useDepth)
	if !ok {
		return
	}
	d := float64(p.F32(6))
	if !(d >= 0) {
		d = 0
	}
	d = min(d, 1)
	switch s.fmt {
	case isa.FmtD32F:
		var px [4]byte
		binary.LittleEndian.PutUint32(px[:], math.Float32bits(float32(d)))
		fillRect(&s, px[:])
	case isa.FmtD16:
		var px [2]byte
		binary.LittleEndian.PutUint16(px[:], uint16(unorm16(d)))
		fillRect(&s, px[:])
	default:
		for y := 0; y < s.h; y++ {
			row := s.mem[y*s.pitch : y*s.pitch+s.bpp*s.w]
			for i := 0; i < len(row); i += s.bpp {
				writeDepth(s.fmt, row[i:i+s.bpp], d)
			}
		}
	}
	ex.chargeClear(s.w, s.h)
}

// writeDepth stores depth d (in [0, 1]) in the texel px of a depth format,
// keeping its stencil.
func writeDepth(f isa.Format, px []byte, d float64) {
	switch f {
	case isa.FmtD32F, isa.FmtD32FS8:
		binary.LittleEndian.PutUint32(px, math.Float32bits(float32(d)))
	case isa.FmtD24S8:
		v := binary.LittleEndian.Uint32(px)
		binary.LittleEndian.PutUint32(px, v&0xFF000000|unorm24(d))
	case isa.FmtD16:
		binary.LittleEndian.PutUint16(px, uint16(unorm16(d)))
	}
}

func (ex *executor) chargeClear(w, h int) {
	ex.res.cost += int64((w*h+15)/16) * ex.g.costs.ClearPer16PxNS
}

// fillRect writes the pixel px (a texel of the surface's format) over the
// whole surface.
func fillRect(s *surface, px []byte) {
	n := len(px)
	for y := 0; y < s.h; y++ {
		row := s.mem[y*s.pitch : y*s.pitch+n*s.w]
		copy(row, px)
		for i := n; i < len(row); i *= 2 {
			copy(row[i:], row[:i])
		}
	}
}

// unorm8 converts a float to an 8-bit unorm: clamp to [0, 1], round to
// nearest. NaN becomes 0.
func unorm8(v float32) byte {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return byte(float32(v*255) + 0.5)
}

// unorm16 converts a depth in [0, 1] to 16-bit unorm (D16_UNORM).
func unorm16(d float64) uint32 {
	if !(d > 0) {
		return 0
	}
	if d >= 1 {
		return 0xFFFF
	}
	return uint32(float64(d*0xFFFF) + 0.5)
}

// unorm24 converts a depth in [0, 1] to 24-bit unorm.
func unorm24(d float64) uint32 {
	if !(d > 0) {
		return 0
	}
	if d >= 1 {
		return 0xFFFFFF
	}
	return uint32(float64(d*0xFFFFFF) + 0.5)
}
