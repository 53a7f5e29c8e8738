package umd

import (
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
	listIdx map[ddi.HALLOCATION]int
	ended   []*query // queries whose End rides on the recording
	clCalls int      // bug=CL-SIZE
	// onGPU: the bindings this context has set in the GPU state of the
	// buffer being recorded. A binding the context no longer has (unbound,
	// ClearState) must be unset there too, or the next draw would use it;
	// the GPU starts each buffer with nothing bound, so a fresh buffer needs
	// no unbinding. A deferred context's commands run after whatever the
	// immediate context bound, so it assumes everything set.
	onGPU gpuBindings
}

// gpuBindings is one bit per binding point the GPU keeps in its state.
type gpuBindings struct {
	rt, ds, vb, ib, vs, ps bool
	vsCB, psCB             uint8 // bit i: slot i
	tex                    uint8
	vbMore                 uint16 // bit i: vertex-buffer slot i (1..15)
	rtMore                 uint8  // bit i: render target slot i (1..7)
	// om: SET_BLEND_FACTOR sent a blend factor, sample mask or
	// alpha-to-coverage other than the default; stencil: SET_STENCIL
	// turned the stencil on.
	om, stencil bool
}

// unknownGPU is the state of a buffer whose bindings this context cannot
// know: everything may be set.
var unknownGPU = gpuBindings{rt: true, ds: true, vb: true, ib: true, vs: true, ps: true, vsCB: 0xFF, psCB: 0xFF, tex: 0xFF, vbMore: 0xFFFE,
	rtMore: 0xFE, om: true, stencil: true}

func newContext(dev *Device, h ddi.HDEVICE, rt ddi.HRTDEVICE, core ddi.HRTCORELAYER, cb ddi.DeviceCallbacks, cfg Config) context {
	return context{dev: dev, h: h, rt: rt, core: core, cb: cb, cfg: cfg,
		fail: map[string]int{}, listIdx: map[ddi.HALLOCATION]int{}, st: freshState()}
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
	vsCB     [4]ddi.HRESOURCE
	psCB     [4]ddi.HRESOURCE
	srv      [8]ddi.HSHADERRESOURCEVIEW
	samp     [8]ddi.HSAMPLER
	rtv      [isa.MaxRenderTargets]ddi.HRENDERTARGETVIEW
	dsv      ddi.HDEPTHSTENCILVIEW
	blend    ddi.HBLENDSTATE
	raster   ddi.HRASTERIZERSTATE
	depth    ddi.HDEPTHSTENCILSTATE
	// pfnSetBlendState's BlendFactor and SampleMask, pfnSetDepthStencilState's
	// StencilRef.
	blendFactor [4]float32
	sampleMask  uint32
	stencilRef  uint32
	vp          ddi.Viewport
	hasVP       bool
	dirty       bool
	// vbMore are vertex-buffer slots 1..15 (slot 0 above), layout the
	// input layout (IaSetInputLayout).
	vbMore [iaSlots - 1]vbSlot
	layout ddi.HELEMENTLAYOUT
}

// vbSlot is one vertex-buffer binding.
type vbSlot struct {
	buf            ddi.HRESOURCE
	stride, offset uint32
}

const iaSlots = 16 // D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT

func (c *context) resetState() { c.st = freshState() }

// freshState is a context's state with nothing bound: D3D11's defaults,
// blend factor 1 and every sample.
func freshState() state {
	return state{dirty: true, blendFactor: [4]float32{1, 1, 1, 1}, sampleMask: ^uint32(0)}
}

// Words and list entries reserved for one draw with all its state, so a
// command never straddles two buffers: the fixed-function state, then the
// programs' (SET_LAYOUT at its largest, two SET_PROGRAMs and vertex-buffer
// slots 1..15).
const (
	drawWords  = 160 + 2 + 3*isa.MaxVertexElements + 2*6 + (iaSlots-1)*8 + omWords
	drawAllocs = 24 + 2 + iaSlots - 1 + isa.MaxRenderTargets - 1
	writeChunk = 16 << 10 // bytes of inline data per WRITE packet
	// omWords: render targets 1..7 and their blends, the blend factor and
	// the stencil.
	omWords = (isa.MaxRenderTargets-1)*(8+10) + 7 + 13
)

// refAlloc puts an allocation on the list and returns the list-relative
// address of offset inside it.
func (c *context) refAlloc(a ddi.HALLOCATION, write bool, offset uint32) uint64 {
	i, ok := c.listIdx[a]
	if !ok {
		i = len(c.list)
		c.list = append(c.list, ddi.AllocationListEntry{Allocation: a})
		c.listIdx[a] = i
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
	if v, r := c.viewRes(uint32(st.rtv[0])); r != nil {
		b.SetRT(rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, v.gpu)
		g.rt = true
	} else if g.rt {
		b.SetRT(isa.NullAddress, 0, 0, 0, 0)
		g.rt = false
	}
	for i := 1; i < isa.MaxRenderTargets; i++ {
		bit := uint8(1) << i
		if v, r := c.viewRes(uint32(st.rtv[i])); r != nil {
			b.SetRTSlot(uint32(i), rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, v.gpu)
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
	layout := o.layouts[st.layout]
	var samps [8]*ddi.SamplerDesc
	for i, h := range st.samp {
		if h != 0 {
			samps[i] = o.samplers[h]
		}
	}
	o.mu.Unlock()
	if v, r := c.viewRes(uint32(st.dsv)); r != nil {
		b.SetDS(rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, v.gpu)
		desc := ddi.DefaultDepthStencilDesc()
		if ds != nil {
			desc = *ds
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
	for i, h := range st.vsCB {
		bit := uint8(1) << i
		if r := c.resource(h); r != nil {
			b.SetCB(isa.StageVS, uint32(i), rec.ref(r, false, 0), uint32(r.size))
			g.vsCB |= bit
		} else if g.vsCB&bit != 0 {
			b.SetCB(isa.StageVS, uint32(i), isa.NullAddress, 0)
			g.vsCB &^= bit
		}
	}
	for i, h := range st.psCB {
		bit := uint8(1) << i
		if r := c.resource(h); r != nil {
			b.SetCB(isa.StagePS, uint32(i), rec.ref(r, false, 0), uint32(r.size))
			g.psCB |= bit
		} else if g.psCB&bit != 0 {
			b.SetCB(isa.StagePS, uint32(i), isa.NullAddress, 0)
			g.psCB &^= bit
		}
	}
	plainViews := true // every bound view is SET_TEX's
	for i, h := range st.srv {
		bit := uint8(1) << i
		if v, r := c.viewRes(uint32(h)); r != nil {
			if v.srv != nil {
				c.setView(rec, uint32(i), v, r)
				plainViews = false
			} else {
				b.SetTex(uint32(i), rec.ref(r, false, 0), r.args.Width, r.args.Height, r.pitch, v.gpu)
			}
			g.tex |= bit
		} else if g.tex&bit != 0 {
			b.SetTex(uint32(i), isa.NullAddress, 0, 0, 0, 0)
			g.tex &^= bit
		}
	}
	for i, s := range samps {
		desc := ddi.DefaultSamplerDesc()
		if s != nil {
			desc = *s
		} else if st.samp[i] == 0 && i > 0 {
			continue
		}
		c.setSampler(uint32(i), &desc, plainViews)
	}
	c.emitVertexBuffers(rec, st, vs, layout)
	c.emitPrograms(rec, vs, ps, layout)
	switch {
	case st.hasVP:
		v := st.vp
		b.SetViewport(v.X, v.Y, v.Width, v.Height, v.MinDepth, v.MaxDepth)
	default:
		// No viewport: an empty one, which covers nothing, as in Direct3D 11
		// (after ClearState too), for the buffer may hold another state's
		// (a command list's draws after the immediate context's).
		b.SetViewport(0, 0, 0, 0, 0, 0)
	}
	rd := ddi.DefaultRasterizerDesc()
	if rs != nil {
		rd = *rs
	}
	cull := cullMode[rd.CullMode]
	if rd.FillMode == ddi.FillWireframe {
		cull |= isa.RasterWireframe
	}
	b.SetRaster(cull, rd.FrontCounterClockwise, rd.DepthClipEnable)
	bd := ddi.DefaultBlendDesc()
	if bl != nil {
		bd = *bl
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
	b.SetTopology(uint32(st.topo))
	c.st.dirty = false
}

func (c *context) IaSetVertexBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides, offsets []uint32) {
	for i := range bufs {
		slot := start + uint32(i)
		switch {
		case slot == 0:
			c.st.vb, c.st.vbStride, c.st.vbOffset = bufs[i], strides[i], offsets[i]
		case slot < iaSlots:
			c.st.vbMore[slot-1] = vbSlot{bufs[i], strides[i], offsets[i]}
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
	for i, b := range bufs {
		if int(start)+i < len(c.st.vsCB) {
			c.st.vsCB[int(start)+i] = b
		}
	}
	c.st.dirty = true
}

func (c *context) PsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	for i, b := range bufs {
		if int(start)+i < len(c.st.psCB) {
			c.st.psCB[int(start)+i] = b
		}
	}
	c.st.dirty = true
}

func (c *context) PsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	for i, v := range views {
		if int(start)+i < len(c.st.srv) {
			c.st.srv[int(start)+i] = v
		}
	}
	c.st.dirty = true
}

func (c *context) PsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	for i, v := range s {
		if int(start)+i < len(c.st.samp) {
			c.st.samp[int(start)+i] = v
		}
	}
	c.st.dirty = true
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

func (c *context) SetViewports(_ ddi.HDEVICE, vps []ddi.Viewport) {
	c.st.hasVP = len(vps) > 0
	if c.st.hasVP {
		c.st.vp = vps[0]
	}
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
	rec.ensure(16, 2)
	c.cmd.ClearRT(rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, vw.gpu, rgba)
}

// clearDSV clears the depth (CLEAR_DS) and, for a format that has one,
// the stencil (CLEAR_STENCIL) as the flags ask.
func (c *context) clearDSV(rec recorder, v uint32, flags ddi.ClearFlag, depth float32, stencil uint8) {
	vw, r := c.viewRes(v)
	if r == nil {
		return
	}
	if flags&ddi.ClearDepth != 0 {
		rec.ensure(16, 2)
		c.cmd.ClearDS(rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, vw.gpu, depth)
	}
	if flags&ddi.ClearStencil != 0 && vw.gpu.Info().Stencil {
		rec.ensure(16, 2)
		c.cmd.ClearStencil(rec.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, vw.gpu, uint32(stencil))
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

func (c *context) queryBegin(rec recorder, q *query) {
	if q == nil {
		return
	}
	q.active, q.ended = true, false
	if q.kind == ddi.QueryOcclusion {
		rec.ensure(8, 2)
		c.cmd.Query(isa.QueryOcclusionBegin, c.refAlloc(q.alloc, true, 8))
	}
}

// queryEnd encodes the End of q; the caller notes that the recording
// carries it.
func (c *context) queryEnd(rec recorder, q *query) {
	rec.ensure(8, 2)
	switch q.kind {
	case ddi.QueryOcclusion:
		c.cmd.Query(isa.QueryOcclusionEnd, c.refAlloc(q.alloc, true, 0))
	case ddi.QueryTimestamp:
		c.cmd.Query(isa.QueryTimestamp, c.refAlloc(q.alloc, true, 0))
	default:
		c.cmd.Words = append(c.cmd.Words, uint32(isa.OpNop)<<24) // the End needs a buffer to ride on
	}
	q.active, q.ended = false, true
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
