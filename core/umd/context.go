package umd

import (
	"math/bits"
	"sync"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/gpu/isa"
)

// context is what the immediate context (immediateContext) and a deferred
// context (deferredContext) share: the bound state, the encoder writing the GPU's
// packets, and the allocation list its addresses are relative to (low word:
// list index, high word: byte offset). The two kinds differ in how a command
// makes room and how it references a resource (recorder), and in what
// happens to the recording: the immediate context submits it with
// pfnRenderCb, a deferred context hands it to a command list.
type context struct {
	dev  *Device // owner of the object tables
	h    ddi.HDEVICE
	rt   ddi.HRTDEVICE
	core ddi.HRTCORELAYER // the context's own, for pfnSetErrorCb and pfnPerformAmortizedProcessingCb
	cb   ddi.DeviceCallbacks
	cfg  Config

	mu      sync.Mutex       // guards fail; on the Device, the object tables too
	fail    map[string]int   // injected failures: DDI name -> count
	failErr map[string]error // and the error, when not E_OUTOFMEMORY

	st      state
	cmd     isa.Builder
	list    []ddi.AllocationListEntry
	listIdx firstUse[ddi.HALLOCATION] // c.list's allocations, numbered as in it
	ended   []*query                  // queries whose End rides on the recording
	// Predication (queries.go): what SetPredication set (pred nil: none),
	// and what the recording's last SET_PREDICATION set on the GPU.
	pred, gpuPred           *query
	predValue, gpuPredValue bool
	clCalls                 int // bug=CL-SIZE
	// onGPU: the bindings this context has set in the GPU state of the
	// buffer being recorded. A binding the context no longer has (unbound,
	// ClearState) must be unset there too, or the next draw would use it;
	// the GPU starts each buffer with nothing bound, so a fresh buffer needs
	// no unbinding. A deferred context's commands run after whatever the
	// immediate context bound, so it assumes everything set.
	onGPU gpuBindings
	// cs is the compute stage's state (compute.go).
	cs csState
}

// gpuBindings is one bit per binding point the GPU keeps in its state.
type gpuBindings struct {
	rt, ds, vb, ib, vs, ps, gs, so bool
	hs, dsh                        bool  // the hull and domain stages' programs (tess.go)
	soT                            uint8 // bit i: stream-output target i (stream.go)
	// Each stage's (isa.StageVS, isa.StagePS, isa.StageGS, isa.StageHS, isa.StageDS): bit i slot i of the
	// constant buffers, textures (tex[s][i/64] bit i%64) and samplers.
	// Pixel sampler slot 0 is sent with every state and has no bit.
	cb     [numStages]uint16
	tex    [numStages][2]uint64
	smp    [numStages]uint16
	vbMore uint32 // bit i: vertex-buffer slot i (1..31)
	rtMore uint8  // bit i: render target slot i (1..7)
	// om: SET_BLEND_FACTOR sent a blend factor, sample mask or
	// alpha-to-coverage other than the default; stencil: SET_STENCIL
	// turned the stencil on; bias: SET_DEPTH_BIAS sent a bias; clip:
	// SET_CLIP_DIST sent distances (clipdist.go).
	om, stencil, bias, clip bool
	psUAV                   uint8 // bit i: SET_UAV of pixel slot i (psuav.go)
	samples                 uint8 // SET_SAMPLES sent this count (msaa.go); 0: none, one sample
}

// unknownGPU is the state of a buffer whose bindings this context cannot
// know: everything may be set. The later state (render targets 1..7, the
// blend factor and sample mask, the stencil, the depth bias: newState) is
// known, its defaults: a context that splices a command list in resets it
// first (resetNewState), so a list that uses none of it carries none of
// its packets.
var unknownGPU = gpuBindings{rt: true, ds: true, vb: true, ib: true, vs: true, ps: true, gs: true, so: true, hs: true, dsh: true,
	cb: [numStages]uint16{oldCBs, oldCBs, oldCBs, oldCBs, oldCBs}, tex: [numStages][2]uint64{isa.StagePS: {oldTex, 0}}, vbMore: 0xFFFFFFFE}

// The binding slots a context had before the later state: constant
// buffers 0..3 of each stage, pixel textures 0..7. The others (constant
// buffers 4..13, pixel textures 8..127, vertex textures, every sampler
// but pixel slot 0) are later state, which a command list starts without.
const (
	oldCBs = 0xF
	oldTex = 0xFF
)

// numStages are the stages the driver binds for at a draw: the GPU runs
// programs in isa.StageVS, isa.StagePS, isa.StageGS, isa.StageHS and
// isa.StageDS (the compute stage's bindings are compute.go's).
const numStages = 5

// newState is the part of g the later packets set.
func (g *gpuBindings) newState() gpuBindings {
	n := gpuBindings{rtMore: g.rtMore, om: g.om, stencil: g.stencil, bias: g.bias, clip: g.clip, smp: g.smp, psUAV: g.psUAV, samples: g.samples}
	for s := range numStages {
		n.cb[s] = g.cb[s] &^ oldCBs
		n.tex[s] = g.tex[s]
	}
	n.tex[isa.StagePS][0] &^= oldTex
	return n
}

// afterList is the GPU's state after a command list whose own ended at
// end: the earlier bindings unknown, the later state the list's.
func afterList(end gpuBindings) gpuBindings {
	g := unknownGPU
	n := end.newState()
	g.rtMore, g.om, g.stencil, g.bias, g.clip, g.smp, g.psUAV, g.samples = n.rtMore, n.om, n.stencil, n.bias, n.clip, n.smp, n.psUAV, n.samples
	for s := range numStages {
		g.cb[s] |= n.cb[s]
		g.tex[s][0] |= n.tex[s][0]
		g.tex[s][1] |= n.tex[s][1]
	}
	return g
}

// laterBindings counts the binding packets the later slots of g (or,
// with st, of st and g) take: words and allocations at most. With st it
// adds what the earlier slots take beyond the room drawWords keeps for
// them (oldBindingWords), and the vertex-buffer slots past 15.
func laterBindings(g *gpuBindings, st *state) (words, allocs int) {
	if st != nil {
		old := 6 // pixel sampler 0
		for s := range numStages {
			ss := &st.stages[s]
			old += 6*bits.OnesCount16((ss.cbs|g.cb[s])&oldCBs) + 6*bits.OnesCount16((ss.samps|g.smp[s])&0xFE)
		}
		old += 8 * bits.OnesCount64((st.stages[isa.StagePS].srvs[0]|g.tex[isa.StagePS][0])&oldTex)
		words += max(old-oldBindingWords, 0)
		n := bits.OnesCount32((st.vbBound | g.vbMore) >> oldVBSlots)
		words, allocs = words+7*n, allocs+n
	}
	for s := range numStages {
		cb, t0, t1, sm := g.cb[s], g.tex[s][0], g.tex[s][1], g.smp[s]
		if st != nil {
			ss := &st.stages[s]
			cb, t0, t1, sm = cb|ss.cbs, t0|ss.srvs[0], t1|ss.srvs[1], sm|ss.samps
		}
		cb &^= oldCBs
		texWords, smpWords := 9, 7 // SET_TEX_STAGE, SET_SAMPLER_STAGE
		if s == isa.StagePS {
			t0 &^= oldTex
			sm &^= 1 // slot 0 is in drawWords
			if st != nil {
				sm &^= 0xFF // and for a draw slots 1..7 (oldBindingWords)
			}
			texWords, smpWords = 8, 6
		}
		n := bits.OnesCount16(cb)
		words, allocs = words+6*n, allocs+n
		n = bits.OnesCount64(t0) + bits.OnesCount64(t1)
		words, allocs = words+texWords*n, allocs+n
		words += smpWords * bits.OnesCount16(sm)
	}
	w, a := pixelUAVWords(g, st)
	return words + w, allocs + a
}

// resetNewState puts the later state the GPU holds from this context back
// to its defaults, before a command list is spliced in.
func (c *context) resetNewState(rec recorder) {
	g := &c.onGPU
	if *g == (gpuBindings{}) || g.newState() == (gpuBindings{}) {
		return
	}
	w, _ := laterBindings(g, nil)
	rec.ensure(omWords+w, 0)
	b := &c.cmd
	// Unbind the later slots: an empty state holds nothing there.
	c.emitBindings(rec, &state{}, true)
	for i := 1; i < isa.MaxRenderTargets; i++ {
		if g.rtMore>>i&1 != 0 {
			b.SetRTSlot(uint32(i), isa.NullAddress, 0, 0, 0, 0)
		}
	}
	if g.om {
		b.SetBlendFactor([4]float32{1, 1, 1, 1}, ^uint32(0), 0)
	}
	if g.stencil {
		c.stencilOff()
	}
	if g.bias {
		b.SetDepthBias(0, 0, 0)
	}
	if g.clip {
		b.SetClipDist(0)
	}
	c.unsetPixelUAVs()
	if g.samples != 0 {
		b.SetSamples(1)
	}
	g.rtMore, g.om, g.stencil, g.bias, g.clip, g.samples = 0, false, false, false, false, 0
}

// extraWords bounds what emitState writes beyond drawWords for the later
// state (0 when st uses none of it and the GPU holds none), so a draw
// reserves for the packets it will write.
func (c *context) extraWords(st *state) (words, allocs int) {
	g := &c.onGPU
	words, allocs = laterBindings(g, st)
	for i := 1; i < isa.MaxRenderTargets; i++ {
		if st.rtv[i] != 0 || g.rtMore>>i&1 != 0 {
			words, allocs = words+8, allocs+1
		}
	}
	if st.blendFactor != [4]float32{1, 1, 1, 1} || st.sampleMask != ^uint32(0) || g.om {
		words += 7 // SET_BLEND_FACTOR
	}
	if g.stencil {
		words += 13
	}
	if g.bias {
		words += 4
	}
	words += 2 // SET_SAMPLES (msaa.go)
	words += 2 // SET_CLIP_DIST (clipdist.go)
	if st.blend != 0 || st.depth != 0 || st.raster != 0 {
		o := c.dev
		o.mu.Lock()
		if bl := o.blends[st.blend]; bl != nil {
			if bl.IndependentBlendEnable {
				words += (isa.MaxRenderTargets - 1) * 10 // SET_BLEND_RT
			}
			if bl.AlphaToCoverageEnable {
				words += 7
			}
		}
		if ds := o.dss[st.depth]; ds != nil && ds.StencilEnable {
			words += 13 // SET_STENCIL
		}
		if rs := o.rasts[st.raster]; rs != nil {
			if rs.ScissorEnable {
				words += ddi.MaxViewports * 6 // SET_SCISSOR
			}
			if rs.DepthBias != 0 || rs.SlopeScaledDepthBias != 0 {
				words += 4 // SET_DEPTH_BIAS
			}
		}
		o.mu.Unlock()
	}
	if st.gs != 0 || st.soSet || c.onGPU.so || c.onGPU.soT != 0 {
		words, allocs = words+soWords, allocs+soAllocs // the stream-output stage's (stream.go)
	}
	if st.hs != 0 || st.ds != 0 || c.onGPU.hs || c.onGPU.dsh {
		words, allocs = words+tessWords, allocs+tessAllocs // the hull and domain programs (tess.go)
	}
	return words + max(st.nvp-1, 0)*8 + c.layerWords(st), allocs
}

func newContext(dev *Device, h ddi.HDEVICE, rt ddi.HRTDEVICE, core ddi.HRTCORELAYER, cb ddi.DeviceCallbacks, cfg Config) context {
	return context{dev: dev, h: h, rt: rt, core: core, cb: cb, cfg: cfg,
		fail: map[string]int{}, st: freshState()}
}

// recorder is where the two kinds of context differ while encoding a
// command: how room is made for it and how a resource is referenced.
type recorder interface {
	// ensure makes room for a command of words words naming allocs
	// allocations.
	ensure(words, allocs int)
	// ref puts r on the allocation list and returns the list-relative
	// address of offset inside it.
	ref(r *resource, write bool, offset uint32) uint64
}

// state is what a context has bound. Each command buffer the UMD submits is
// self-contained (the GPU starts every DMA buffer from its reset state), so
// after a submission the whole bound state is re-emitted before the next
// draw.
type state struct {
	vb       ddi.HRESOURCE
	vbStride uint32
	vbOffset uint32
	ib       ddi.HRESOURCE
	ibFormat ddi.Format
	ibOffset uint32
	topo     ddi.Topology
	vs, ps   ddi.HSHADER
	gs       ddi.HSHADER // (geometry.go)
	hs, ds   ddi.HSHADER // (tess.go)
	// so are the stream-output targets; soSet: SoSetTargets was called
	// since they were last sent (stream.go).
	so    [isa.MaxSOTargets]soTarget
	soSet bool
	// stages are each stage's constant buffers, shader resource views
	// and samplers (isa.StageVS, isa.StagePS, isa.StageGS, isa.StageHS,
	// isa.StageDS).
	stages [numStages]stageState
	rtv    [isa.MaxRenderTargets]ddi.HRENDERTARGETVIEW
	dsv    ddi.HDEPTHSTENCILVIEW
	blend  ddi.HBLENDSTATE
	raster ddi.HRASTERIZERSTATE
	depth  ddi.HDEPTHSTENCILSTATE
	// pfnSetBlendState's BlendFactor and SampleMask, pfnSetDepthStencilState's
	// StencilRef.
	blendFactor [4]float32
	sampleMask  uint32
	stencilRef  uint32
	vp          ddi.Viewport
	hasVP       bool
	dirty       bool
	// Viewports 1..15 (vpMore[i-1]; nvp counts them all) and the scissor
	// rectangles (pfnSetViewports, pfnSetScissorRects).
	nvp      int
	vpMore   [ddi.MaxViewports - 1]ddi.Viewport
	nsc      int
	scissors [ddi.MaxViewports]ddi.Rect
	// vbMore are vertex-buffer slots 1..31 (slot 0 above), layout the
	// input layout (IaSetInputLayout).
	vbMore [iaSlots - 1]vbSlot
	// vbBound: bit i, slot i of vbMore holds a handle.
	vbBound uint32
	layout  ddi.HELEMENTLAYOUT
	// uav are the output merger's unordered access views (psuav.go);
	// uavs has bit i set when slot i holds a handle.
	uav  [isa.MaxUAVSlots]ddi.HUNORDEREDACCESSVIEW
	uavs uint8
}

// stageState is one shader stage's bindings, with a bit per slot that
// holds a handle (srvs[i/64] bit i%64 for view i).
type stageState struct {
	cb    [ddi.ConstantBufferSlots]ddi.HRESOURCE
	srv   [ddi.ShaderResourceSlots]ddi.HSHADERRESOURCEVIEW
	samp  [ddi.SamplerSlots]ddi.HSAMPLER
	cbs   uint16
	srvs  [2]uint64
	samps uint16
}

// setCBs, setSRVs and setSamplers are the pfn*Set* DDIs of one stage:
// handles from start on (slots past the last are ignored).
func (c *context) setCBs(stage int, start uint32, bufs []ddi.HRESOURCE) {
	ss := &c.st.stages[stage]
	for i, h := range bufs {
		if j := int(start) + i; j < len(ss.cb) {
			ss.cb[j] = h
			ss.cbs = setBit16(ss.cbs, j, h != 0)
		}
	}
	c.st.dirty = true
}

func (c *context) setSRVs(stage int, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	ss := &c.st.stages[stage]
	if lo := int(start); lo < len(ss.srv) {
		// (The runtime's state refresh sends all 128 slots, nearly all
		// empty: the range's bits are cleared a word at a time, then set
		// for the handles.)
		n := copy(ss.srv[lo:], views)
		hi := lo + n
		for w := lo / 64; w*64 < hi; w++ {
			a, b := max(lo, w*64)-w*64, min(hi, w*64+64)-w*64
			ss.srvs[w] &^= ^uint64(0) >> (64 - (b - a)) << a
		}
		for i, h := range views[:n] {
			if h != 0 {
				j := lo + i
				ss.srvs[j/64] |= 1 << (j % 64)
			}
		}
	}
	c.st.dirty = true
}

func (c *context) setSamplers(stage int, start uint32, samplers []ddi.HSAMPLER) {
	ss := &c.st.stages[stage]
	for i, h := range samplers {
		if j := int(start) + i; j < len(ss.samp) {
			ss.samp[j] = h
			ss.samps = setBit16(ss.samps, j, h != 0)
		}
	}
	c.st.dirty = true
}

func setBit16(m uint16, i int, on bool) uint16 {
	if on {
		return m | 1<<i
	}
	return m &^ (1 << i)
}

// vbSlot is one vertex-buffer binding.
type vbSlot struct {
	buf            ddi.HRESOURCE
	stride, offset uint32
}

const iaSlots = ddi.IAVertexInputResourceSlotCount

func (c *context) resetState() {
	c.st, c.pred, c.predValue = freshState(), nil, false
	c.cs = csState{sent: c.cs.sent} // the compute stage's bindings too; what the GPU has stays known
}

// freshState is a context's state with nothing bound: D3D11's defaults,
// blend factor 1 and every sample.
func freshState() state {
	return state{dirty: true, blendFactor: [4]float32{1, 1, 1, 1}, sampleMask: ^uint32(0)}
}

// Words and list entries reserved for one draw with all its state, so a
// command never straddles two buffers: the fixed-function state, then the
// programs' (SET_LAYOUT at its largest, three SET_PROGRAMs and vertex-buffer
// slots 1..31). The later bindings (laterBindings) come on top.
const (
	drawWords  = 160 + 2 + 3*isa.MaxVertexElements + 3*6 + (oldVBSlots-1)*8
	drawAllocs = 24 + 3 + oldVBSlots - 1
	// oldVBSlots: vertex-buffer slots 16..31 are reserved for as the later
	// bindings are; oldBindingWords: what of drawWords' 160 the earlier
	// constant buffers, textures and samplers may take (the other
	// fixed-function packets take 59 at most).
	oldVBSlots      = 16
	oldBindingWords = 160 - 59
	writeChunk      = 16 << 10 // bytes of inline data per WRITE packet
	// omWords: the most the later state takes (extraWords): render
	// targets 1..7 and their blends, the blend factor and the stencil; the
	// viewports 1..15, the scissor rectangles and the depth bias.
	omWords = (isa.MaxRenderTargets-1)*(8+10) + 7 + 13 + (ddi.MaxViewports-1)*8 + ddi.MaxViewports*6 + 4
)

// refAlloc puts an allocation on the list and returns the list-relative
// address of offset inside it.
func (c *context) refAlloc(a ddi.HALLOCATION, write bool, offset uint32) uint64 {
	i, ok := c.listIdx.index(a)
	if !ok {
		i = c.listIdx.add(a)
		c.list = append(c.list, ddi.AllocationListEntry{Allocation: a})
	}
	if write {
		c.list[i].WriteOperation = true
	}
	return uint64(i) | uint64(offset)<<32
}

// resource, viewRes and query look an immediate-context handle up in the
// device's tables.
func (c *context) resource(h ddi.HRESOURCE) *resource {
	if h == 0 {
		return nil
	}
	o := c.dev
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.res[h]
}

func (c *context) viewRes(h uint32) (*view, *resource) {
	if h == 0 {
		return nil, nil
	}
	o := c.dev
	o.mu.Lock()
	defer o.mu.Unlock()
	v := o.views[h]
	if v == nil {
		return nil, nil
	}
	return v, o.res[v.res]
}

func (c *context) query(h ddi.HQUERY) *query {
	o := c.dev
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queries[h]
}

// emitState writes the whole pipeline state st, whose handles are the
// immediate context's, with rec's allocation references.
func (c *context) emitState(rec recorder, st *state) {
	b := &c.cmd
	g := &c.onGPU
	samples := uint32(1) // the targets' (msaa.go)
	if v, r := c.viewRes(uint32(st.rtv[0])); r != nil {
		c.bindTarget(rec, 0, v, r) // (rtview.go)
		samples = r.samples()
		g.rt = true
	} else if g.rt {
		b.SetRT(isa.NullAddress, 0, 0, 0, 0)
		g.rt = false
	}
	for i := 1; i < isa.MaxRenderTargets; i++ {
		bit := uint8(1) << i
		if v, r := c.viewRes(uint32(st.rtv[i])); r != nil {
			c.bindTarget(rec, uint32(i), v, r)
			samples = r.samples()
			g.rtMore |= bit
		} else if g.rtMore&bit != 0 {
			b.SetRTSlot(uint32(i), isa.NullAddress, 0, 0, 0, 0)
			g.rtMore &^= bit
		}
	}
	o := c.dev
	o.mu.Lock()
	ds := o.dss[st.depth]
	bl := o.blends[st.blend]
	rs := o.rasts[st.raster]
	vs := o.shaders[st.vs]
	ps := o.shaders[st.ps]
	gs := o.shaders[st.gs]
	hs, dsh := o.shaders[st.hs], o.shaders[st.ds]
	layout := o.layouts[st.layout]
	o.mu.Unlock()
	if v, r := c.viewRes(uint32(st.dsv)); r != nil {
		c.bindTarget(rec, isa.DSLayers, v, r)
		samples = r.samples()
		desc := &defaultDepthStencil
		if ds != nil {
			desc = ds
		}
		// A read-only view ("D3D11_DSV_FLAG") tests and never writes.
		write := desc.DepthWriteMask && v.flags&ddi.DSVReadOnlyDepth == 0
		b.SetDepth(desc.DepthEnable, write, cmpFunc[desc.DepthFunc])
		g.ds = true
		if desc.StencilEnable && v.gpu.Info().Stencil {
			wm := uint32(desc.StencilWriteMask)
			if v.flags&ddi.DSVReadOnlyStencil != 0 {
				wm = 0
			}
			b.SetStencil(true, uint32(desc.StencilReadMask), wm, st.stencilRef&0xFF, stencilFace(&desc.FrontFace), stencilFace(&desc.BackFace))
			g.stencil = true
		} else if g.stencil {
			c.stencilOff()
		}
	} else {
		if g.ds {
			b.SetDS(isa.NullAddress, 0, 0, 0, 0)
			g.ds = false
		}
		b.SetDepth(false, false, isa.CmpAlways) // no depth buffer: no depth test
		if g.stencil {
			c.stencilOff()
		}
	}
	c.emitSamples(samples)
	// Unbound buffers read zeros (Direct3D 11's input assembler rules).
	if r := c.resource(st.vb); r != nil {
		b.SetVB(0, rec.ref(r, false, 0), uint32(r.size), st.vbStride, st.vbOffset)
		g.vb = true
	} else if g.vb {
		b.SetVB(0, isa.NullAddress, 0, 0, 0)
		g.vb = false
	}
	if r := c.resource(st.ib); r != nil {
		n := uint32(2)
		if st.ibFormat == ddi.FormatR32Uint {
			n = 4
		}
		b.SetIB(rec.ref(r, false, 0), uint32(r.size), n, st.ibOffset)
		g.ib = true
	} else if g.ib {
		b.SetIB(isa.NullAddress, 0, 0, 0)
		g.ib = false
	}
	c.emitBindings(rec, st, false)
	c.emitPixelUAVs(rec, st)
	c.emitVertexBuffers(rec, st, vs, layout)
	c.emitPrograms(rec, vs, ps, layout)
	c.emitGeometry(rec, gs)
	c.emitTess(rec, hs, dsh)
	c.emitClipDist(vs, gs, hs, dsh)
	switch {
	case st.hasVP:
		v := st.vp
		b.SetViewport(v.X, v.Y, v.Width, v.Height, v.MinDepth, v.MaxDepth)
		for i := 1; i < st.nvp; i++ {
			v := &st.vpMore[i-1]
			b.SetViewportN(uint32(i), v.X, v.Y, v.Width, v.Height, v.MinDepth, v.MaxDepth)
		}
	default:
		// No viewport: an empty one, which covers nothing, as in Direct3D 11
		// (after ClearState too), for the buffer may hold another state's
		// (a command list's draws after the immediate context's).
		b.SetViewport(0, 0, 0, 0, 0, 0)
	}
	rd := &defaultRasterizer
	if rs != nil {
		rd = rs
	}
	cull := cullMode[rd.CullMode]
	if rd.FillMode == ddi.FillWireframe {
		cull |= isa.RasterWireframe
	}
	if rd.MultisampleEnable {
		cull |= isa.RasterMultisample
	}
	if rd.AntialiasedLineEnable {
		cull |= isa.RasterAALine
	}
	if rd.ScissorEnable {
		// The rectangles go with the flag (a buffer that never enables the
		// scissor never carries them); with none set, rectangle 0 is
		// empty and culls everything.
		cull |= isa.RasterScissor
		for i := range max(st.nsc, 1) {
			r := &st.scissors[i]
			b.SetScissor(uint32(i), r.Left, r.Top, r.Right, r.Bottom)
		}
	}
	b.SetRaster(cull, rd.FrontCounterClockwise, rd.DepthClipEnable)
	if rd.DepthBias != 0 || rd.SlopeScaledDepthBias != 0 {
		b.SetDepthBias(rd.DepthBias, rd.DepthBiasClamp, rd.SlopeScaledDepthBias)
		g.bias = true
	} else if g.bias {
		b.SetDepthBias(0, 0, 0)
		g.bias = false
	}
	bd := &defaultBlend
	if bl != nil {
		bd = bl
	}
	// SET_BLEND sets every target's blend; with IndependentBlendEnable
	// SET_BLEND_RT then sets those of the targets that differ.
	t0 := &bd.RenderTarget[0]
	b.SetBlend(t0.BlendEnable, blendFactor[t0.SrcBlend], blendFactor[t0.DestBlend], blendOp[t0.BlendOp],
		blendFactor[t0.SrcBlendAlpha], blendFactor[t0.DestBlendAlpha], blendOp[t0.BlendOpAlpha], uint32(t0.RenderTargetWriteMask))
	if bd.IndependentBlendEnable {
		for i := 1; i < isa.MaxRenderTargets; i++ {
			if t := &bd.RenderTarget[i]; *t != *t0 {
				b.SetBlendRT(uint32(i), t.BlendEnable, blendFactor[t.SrcBlend], blendFactor[t.DestBlend], blendOp[t.BlendOp],
					blendFactor[t.SrcBlendAlpha], blendFactor[t.DestBlendAlpha], blendOp[t.BlendOpAlpha], uint32(t.RenderTargetWriteMask))
			}
		}
	}
	// The blend factor, the sample mask and alpha-to-coverage, only when
	// one of them is not the default (a buffer starts with those).
	var flags uint32
	if bd.AlphaToCoverageEnable {
		flags |= isa.BlendAlphaToCoverage
	}
	if st.blendFactor != [4]float32{1, 1, 1, 1} || st.sampleMask != ^uint32(0) || flags != 0 {
		b.SetBlendFactor(st.blendFactor, st.sampleMask, flags)
		g.om = true
	} else if g.om {
		b.SetBlendFactor(st.blendFactor, st.sampleMask, 0)
		g.om = false
	}
	b.SetTopology(topology(st.topo))
	c.st.dirty = false
}

// D3D11's default state objects, for emitState to read (never written).
var (
	defaultDepthStencil = ddi.DefaultDepthStencilDesc()
	defaultRasterizer   = ddi.DefaultRasterizerDesc()
	defaultBlend        = ddi.DefaultBlendDesc()
)

// emitBindings writes each stage's constant buffers, textures and
// samplers (the vertex stage's with SET_TEX_STAGE and SET_SAMPLER_STAGE):
// the bound ones, and an unbinding for each slot the GPU holds from this
// context that st does not bind (for a sampler, the default one; pixel
// sampler 0 is always sent). laterOnly limits it to the later slots
// (resetNewState).
func (c *context) emitBindings(rec recorder, st *state, laterOnly bool) {
	b := &c.cmd
	g := &c.onGPU
	for s := range numStages {
		ss := &st.stages[s]
		m := ss.cbs | g.cb[s]
		if laterOnly {
			m &^= oldCBs
		}
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			bit := uint16(1) << i
			if r := c.resource(ss.cb[i]); r != nil {
				b.SetCB(uint32(s), uint32(i), rec.ref(r, false, 0), uint32(r.size))
				g.cb[s] |= bit
			} else if g.cb[s]&bit != 0 {
				b.SetCB(uint32(s), uint32(i), isa.NullAddress, 0)
				g.cb[s] &^= bit
			}
		}
	}
	plainViews := [numStages]bool{true, true, true, true, true} // every bound view of the stage is SET_TEX's
	for s := range numStages {
		ss := &st.stages[s]
		for w := range 2 {
			m := ss.srvs[w] | g.tex[s][w]
			if laterOnly && s == isa.StagePS && w == 0 {
				m &^= oldTex
			}
			for ; m != 0; m &= m - 1 {
				i := 64*w + bits.TrailingZeros64(m)
				bit := uint64(1) << (i % 64)
				if v, r := c.viewRes(uint32(ss.srv[i])); r != nil {
					if v.srv != nil {
						c.setView(rec, s, i, v, r) // (texture.go)
						plainViews[s] = false
					} else {
						c.setTex(s, i, rec.ref(r, false, 0), r.texels(), r.args.Height, r.pitch, v.gpu)
					}
					g.tex[s][w] |= bit
				} else if g.tex[s][w]&bit != 0 {
					c.setTex(s, i, isa.NullAddress, 0, 0, 0, 0)
					g.tex[s][w] &^= bit
				}
			}
		}
	}
	var descs [numStages][ddi.SamplerSlots]*ddi.SamplerDesc
	if st.stages[0].samps|st.stages[1].samps|st.stages[2].samps|st.stages[3].samps|st.stages[4].samps != 0 {
		o := c.dev
		o.mu.Lock()
		for s := range numStages {
			ss := &st.stages[s]
			for m := ss.samps; m != 0; m &= m - 1 {
				i := bits.TrailingZeros16(m)
				descs[s][i] = o.samplers[ss.samp[i]]
			}
		}
		o.mu.Unlock()
	}
	for s := range numStages {
		ss := &st.stages[s]
		m := ss.samps | g.smp[s]
		if s == isa.StagePS && !laterOnly {
			m |= 1
		}
		for ; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			desc := ddi.DefaultSamplerDesc()
			if d := descs[s][i]; d != nil {
				desc = *d
			}
			c.setSampler(s, i, &desc, plainViews[s]) // (texture.go)
			if s == isa.StagePS && i == 0 {
				continue // sent with every state: no bit
			}
			g.smp[s] = setBit16(g.smp[s], i, ss.samp[i] != 0)
		}
	}
}

// setTex binds texture slot of stage: SET_TEX for the pixel stage (as
// ever), SET_TEX_STAGE for the others.
func (c *context) setTex(stage, slot int, addr uint64, w, h, pitch uint32, f isa.Format) {
	if stage == isa.StagePS {
		c.cmd.SetTex(uint32(slot), addr, w, h, pitch, f)
		return
	}
	c.cmd.SetTexStage(uint32(stage), uint32(slot), addr, w, h, pitch, f)
}

func (c *context) IaSetVertexBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides, offsets []uint32) {
	for i := range bufs {
		slot := start + uint32(i)
		switch {
		case slot == 0:
			c.st.vb, c.st.vbStride, c.st.vbOffset = bufs[i], strides[i], offsets[i]
		case slot < iaSlots:
			c.st.vbMore[slot-1] = vbSlot{bufs[i], strides[i], offsets[i]}
			if bufs[i] != 0 {
				c.st.vbBound |= 1 << slot
			} else {
				c.st.vbBound &^= 1 << slot
			}
		}
	}
	c.st.dirty = true
}

func (c *context) IaSetIndexBuffer(_ ddi.HDEVICE, buf ddi.HRESOURCE, f ddi.Format, offset uint32) {
	c.st.ib, c.st.ibFormat, c.st.ibOffset = buf, f, offset
	c.st.dirty = true
}

func (c *context) IaSetTopology(_ ddi.HDEVICE, t ddi.Topology) { c.st.topo = t; c.st.dirty = true }
func (c *context) VsSetShader(_ ddi.HDEVICE, s ddi.HSHADER)    { c.st.vs = s; c.st.dirty = true }
func (c *context) IaSetInputLayout(_ ddi.HDEVICE, l ddi.HELEMENTLAYOUT) {
	c.st.layout = l
	c.st.dirty = true
}
func (c *context) PsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) { c.st.ps = s; c.st.dirty = true }

func (c *context) VsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	c.setCBs(isa.StageVS, start, bufs)
}

func (c *context) PsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	c.setCBs(isa.StagePS, start, bufs)
}

func (c *context) VsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	c.setSRVs(isa.StageVS, start, views)
}

func (c *context) PsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	c.setSRVs(isa.StagePS, start, views)
}

func (c *context) VsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	c.setSamplers(isa.StageVS, start, s)
}

func (c *context) PsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	c.setSamplers(isa.StagePS, start, s)
}

// SetRenderTargets is pfnSetRenderTargets: NumRTVs views (the rest of the
// slots unbound, as ClearSlots asks) and the depth-stencil view.
func (c *context) SetRenderTargets(_ ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	c.st.rtv = [isa.MaxRenderTargets]ddi.HRENDERTARGETVIEW{}
	copy(c.st.rtv[:], rtvs)
	c.st.dsv = dsv
	c.st.dirty = true
}

// SetBlendState is pfnSetBlendState, with its BlendFactor and SampleMask.
func (c *context) SetBlendState(_ ddi.HDEVICE, s ddi.HBLENDSTATE, factor [4]float32, mask uint32) {
	c.st.blend, c.st.blendFactor, c.st.sampleMask = s, factor, mask
	c.st.dirty = true
}

func (c *context) SetRasterizerState(_ ddi.HDEVICE, s ddi.HRASTERIZERSTATE) {
	c.st.raster = s
	c.st.dirty = true
}

// SetDepthStencilState is pfnSetDepthStencilState, with its StencilRef.
func (c *context) SetDepthStencilState(_ ddi.HDEVICE, s ddi.HDEPTHSTENCILSTATE, ref uint32) {
	c.st.depth, c.st.stencilRef = s, ref
	c.st.dirty = true
}

// stencilOff sends the default stencil state: off.
func (c *context) stencilOff() {
	d := ddi.DefaultDepthStencilDesc()
	c.cmd.SetStencil(false, 0xFF, 0xFF, 0, stencilFace(&d.FrontFace), stencilFace(&d.BackFace))
	c.onGPU.stencil = false
}

func stencilFace(f *ddi.DepthStencilOpDesc) isa.StencilFace {
	return isa.StencilFace{Fail: stencilOps[f.StencilFailOp], DepthFail: stencilOps[f.StencilDepthFailOp], Pass: stencilOps[f.StencilPassOp],
		Func: cmpFunc[f.StencilFunc]}
}

// SetViewports is pfnSetViewports: NumViewports viewports, the rest
// cleared (ClearViewports).
func (c *context) SetViewports(_ ddi.HDEVICE, vps []ddi.Viewport) {
	vps = vps[:min(len(vps), ddi.MaxViewports)]
	c.st.hasVP, c.st.nvp = len(vps) > 0, len(vps)
	if c.st.hasVP {
		c.st.vp = vps[0]
		copy(c.st.vpMore[:], vps[1:])
	}
	c.st.dirty = true
}

// SetScissorRects is pfnSetScissorRects: NumRects rectangles, the rest
// cleared (ClearRects).
func (c *context) SetScissorRects(_ ddi.HDEVICE, rects []ddi.Rect) {
	rects = rects[:min(len(rects), ddi.MaxViewports)]
	c.st.nsc = len(rects)
	c.st.scissors = [ddi.MaxViewports]ddi.Rect{}
	copy(c.st.scissors[:], rects)
	c.st.dirty = true
}

// The commands below are encoded the same way on both kinds of context;
// each context's DDI translates its handles and calls them with itself as
// the recorder.

func (c *context) clearRTV(rec recorder, v uint32, rgba [4]float32) {
	vw, r := c.viewRes(v)
	if r == nil {
		return
	}
	c.targetSlices(rec, vw, r, func(addr uint64, t *targetView) { c.cmd.ClearRT(addr, t.w, t.h, t.pitch, vw.gpu, rgba) })
}

// clearDSV clears the depth (CLEAR_DS) and, for a format that has one,
// the stencil (CLEAR_STENCIL) as the flags ask.
func (c *context) clearDSV(rec recorder, v uint32, flags ddi.ClearFlag, depth float32, stencil uint8) {
	vw, r := c.viewRes(v)
	if r == nil {
		return
	}
	if flags&ddi.ClearDepth != 0 {
		c.targetSlices(rec, vw, r, func(addr uint64, t *targetView) { c.cmd.ClearDS(addr, t.w, t.h, t.pitch, vw.gpu, depth) })
	}
	if flags&ddi.ClearStencil != 0 && vw.gpu.Info().Stencil {
		c.targetSlices(rec, vw, r, func(addr uint64, t *targetView) { c.cmd.ClearStencil(addr, t.w, t.h, t.pitch, vw.gpu, uint32(stencil)) })
	}
}

func (c *context) copyResource(rec recorder, dst, src ddi.HRESOURCE) {
	rd, rs := c.resource(dst), c.resource(src)
	if rd == nil || rs == nil {
		return
	}
	n := min(rd.size, rs.size)
	rec.ensure(8, 4)
	c.cmd.Copy(rec.ref(rd, true, 0), rec.ref(rs, false, 0), uint32(n))
}

// updateSubresource carries the data inline in the command buffer, in WRITE
// packets of at most chunk bytes (texture.go: where subresource sub and
// the box lie).
func (c *context) updateSubresource(rec recorder, dst ddi.HRESOURCE, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32, chunk int) {
	r := c.resource(dst)
	if r == nil {
		return
	}
	c.updateRegion(rec, r, sub, box, data, rowPitch, depthPitch, chunk)
}

// report passes a create DDI's error to the runtime the only way a create
// DDI has: pfnSetErrorCb, with this context's core-layer handle ("Using
// context-local DDI handles").
func (c *context) report(err error) {
	if err != nil {
		c.cb.PfnSetErrorCb(c.core, hresult.Of(err))
	}
}

// reportWhy is report with the reason too: what the runtime shows the
// application of a refused shader (the instruction and the feature).
func (c *context) reportWhy(err error) {
	if err != nil {
		c.cb.PfnSetErrorCb(c.core, err)
	}
}

// InjectFailure makes the next count calls of the named DDI on this context
// fail (`inject E_OUTOFMEMORY at=CTX.Method`).
func (c *context) InjectFailure(ddiName string, count int) {
	c.mu.Lock()
	c.fail[ddiName] += count
	c.mu.Unlock()
}

// InjectError makes the next count calls of the named DDI on this context
// fail with err (`inject E_INVALIDARG at=CTX.Method`: a driver with a bug);
// the DDIs that create objects and ResourceMap return it, the others
// E_OUTOFMEMORY.
func (c *context) InjectError(ddiName string, count int, err error) {
	c.mu.Lock()
	c.fail[ddiName] += count
	if c.failErr == nil {
		c.failErr = map[string]error{}
	}
	c.failErr[ddiName] = err
	c.mu.Unlock()
}

func (c *context) injected(name string) bool { return c.injectedErr(name) != nil }

// injectedErr consumes an injected failure of the DDI: its error, nil for
// none.
func (c *context) injectedErr(name string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail[name] > 0 {
		c.fail[name]--
		if err := c.failErr[name]; err != nil {
			return err
		}
		return hresult.E_OUTOFMEMORY
	}
	return nil
}

func (c *context) dealloc(rt ddi.HRTRESOURCE, a ddi.HALLOCATION, obj string) {
	c.cb.PfnDeallocateCb(c.rt, &ddi.DeallocateCb{Resource: rt, Allocations: []ddi.HALLOCATION{a}, Obj: obj})
}

// RecycleCommandList folds a retired handle into its deferred context's
// cache; the runtime calls it on the deferred context's thread.
func (c *context) RecycleCommandList(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	if c.cfg.Bugs.Has(rules.CLRecycleErr) {
		// the bug: report an error RecycleCommandList may not report
		c.cb.PfnSetErrorCb(c.core, hresult.E_OUTOFMEMORY)
	}
	o := c.dev
	o.mu.Lock()
	defer o.mu.Unlock()
	if cl := o.cls[h]; cl != nil && cl.state == clRetired {
		cl.state = clCached
	}
}
