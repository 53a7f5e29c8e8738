package d3d11

import (
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
)

// The context's bindings as a whole: saved, cleared, pinned and restored
// (FinishCommandList, ExecuteCommandList and ClearState work on them all).

// iaSlots is D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT: the vertex-buffer
// slots a context has (the simulated GPU fetches from all 32).
const iaSlots = ddi.IAVertexInputResourceSlotCount

// slots are the objects a context binds.
type slots struct {
	vb               [iaSlots]*Resource
	vbN              uint8 // one past the highest vertex-buffer slot bound since the last unbinding of all (bindVB)
	ib               *Resource
	stages           [NumStages]stageSlots
	vs, ps           *Shader
	layout           *InputLayout
	rtv              [maxRTVs]*View
	dsv              *View
	blend, rs, depth *State
	pred             *Query // SetPredication's predicate
	cs               *Shader
	uav              [csUAVSlots]*View  // CSSetUnorderedAccessViews (compute.go)
	omUAV            [psUAVSlots]*View  // OMSetRenderTargetsAndUnorderedAccessViews (omuav.go)
	gs               *Shader            // GSSetShader (geometry.go)
	hs, ds           *Shader            // HSSetShader, DSSetShader (tess.go)
	so               [soSlots]*Resource // SOSetTargets (stream.go)
}

// binding is a saved context state: every binding, with the vertex
// buffer's stride and offset and the index buffer's format and offset.
type binding struct {
	slots
	vbStride, vbOffset [iaSlots]uint32
	ibFormat           ddi.Format
	ibOffset           uint32
	topo               ddi.Topology
	vps                []ddi.Viewport
	scissors           []ddi.Rect
	blendFactor        [4]float32
	sampleMask         uint32
	stencilRef         uint32
	predValue          bool
}

// maxRTVs is D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT.
const maxRTVs = 8

func (c *DeviceContext) bindings() binding {
	return binding{slots: c.slots, vbStride: c.vbStride, vbOffset: c.vbOffset, ibFormat: c.ibFormat, ibOffset: c.ibOffset,
		topo: c.topo, vps: slices.Clone(c.vps), scissors: slices.Clone(c.scissors), blendFactor: c.blendFactor, sampleMask: c.sampleMask, stencilRef: c.stencilRef,
		predValue: c.predValue}
}

// renderTargets is the bound render target views up to the last one bound
// (nil when none).
func (c *DeviceContext) renderTargets() []*View {
	n := 0
	for i, v := range c.rtv {
		if v != nil {
			n = i + 1
		}
	}
	if n == 0 {
		return nil
	}
	return slices.Clone(c.rtv[:n])
}

// bindRenderTargets binds the views to the slots, unbinding the rest.
func (c *DeviceContext) bindRenderTargets(rtvs []*View, dsv *View) {
	for i := range c.rtv {
		var v *View
		if i < len(rtvs) {
			v = rtvs[i]
		}
		bind(c, &c.rtv[i], v, nilView)
	}
	bind(c, &c.dsv, dsv, nilView)
}

// checkTopology is IASetPrimitiveTopology's validation: a
// D3D11_PRIMITIVE_TOPOLOGY value (the patch lists, 33..64, are checked
// against the hull and domain shaders at the draw: tess.go).
func (c *DeviceContext) checkTopology(t ddi.Topology) error {
	msg := ""
	switch {
	case t.ControlPoints() != 0:
		return nil
	case enumName("Topology", uint32(t)) == "":
		msg = fmt.Sprintf("Topology %d is not a D3D11_PRIMITIVE_TOPOLOGY value", t)
	default:
		return nil
	}
	err := c.dev.invalid("IASetPrimitiveTopology", "", "%s", msg)
	c.api("IASetPrimitiveTopology", "").end(err)
	return err
}

// checkViewports is RSSetViewports' validation ("D3D11_VIEWPORT
// structure", "ID3D11DeviceContext::RSSetViewports"): at most sixteen, each
// with Width and Height not negative, its corners within
// D3D11_VIEWPORT_BOUNDS_MIN..MAX (-32768..32767) and MinDepth and MaxDepth
// in [0, 1]. The message names the field.
func (c *DeviceContext) checkViewports(vps []ddi.Viewport) error {
	bad := func(format string, a ...any) error {
		err := c.dev.invalid("RSSetViewports", "", format, a...)
		c.api("RSSetViewports", "").end(err)
		return err
	}
	if len(vps) > ddi.MaxViewports {
		return bad("NumViewports %d is more than %d", len(vps), ddi.MaxViewports)
	}
	for i, v := range vps {
		switch {
		case !(v.Width >= 0) || !(v.Height >= 0):
			return bad("pViewports[%d]: Width %g and Height %g must not be negative", i, v.Width, v.Height)
		case !(v.X >= -32768 && v.Y >= -32768 && v.X+v.Width <= 32767 && v.Y+v.Height <= 32767):
			return bad("pViewports[%d]: %g,%g to %g,%g is outside D3D11_VIEWPORT_BOUNDS_MIN..MAX (-32768..32767)", i, v.X, v.Y, v.X+v.Width, v.Y+v.Height)
		case !(v.MinDepth >= 0 && v.MinDepth <= 1 && v.MaxDepth >= 0 && v.MaxDepth <= 1):
			return bad("pViewports[%d]: MinDepth %g and MaxDepth %g must be in [0, 1]", i, v.MinDepth, v.MaxDepth)
		}
	}
	return nil
}

// checkScissors is RSSetScissorRects' validation: at most sixteen, each
// with left <= right and top <= bottom.
func (c *DeviceContext) checkScissors(rects []ddi.Rect) error {
	bad := func(format string, a ...any) error {
		err := c.dev.invalid("RSSetScissorRects", "", format, a...)
		c.api("RSSetScissorRects", "").end(err)
		return err
	}
	if len(rects) > ddi.MaxViewports {
		return bad("NumRects %d is more than %d", len(rects), ddi.MaxViewports)
	}
	for i, r := range rects {
		if r.Left > r.Right || r.Top > r.Bottom {
			return bad("pRects[%d]: left %d, top %d, right %d, bottom %d: left may not pass right, nor top bottom", i, r.Left, r.Top, r.Right, r.Bottom)
		}
	}
	return nil
}

// checkRenderTargets is OMSetRenderTargets' validation
// ("ID3D11DeviceContext::OMSetRenderTargets" and the debug layer): at most
// eight render target views, each one, and the depth-stencil view, of the
// right kind, all the same size, and no resource bound twice.
func (c *DeviceContext) checkRenderTargets(rtvs []*View, dsv *View) error {
	return c.checkRenderTargetsFor("OMSetRenderTargets", rtvs, dsv)
}

// checkRenderTargetsFor is checkRenderTargets for call.
func (c *DeviceContext) checkRenderTargetsFor(call string, rtvs []*View, dsv *View) error {
	bad := func(obj, format string, a ...any) error {
		err := c.dev.invalid(call, obj, format, a...)
		c.api(call, obj).end(err)
		return err
	}
	if len(rtvs) > maxRTVs {
		return bad("", "NumViews %d is more than the %d render targets (D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT)", len(rtvs), maxRTVs)
	}
	if dsv != nil && dsv.ViewKind != ddi.ViewDSV {
		return bad(dsv.name, "pDepthStencilView: %s is not a depth stencil view", dsv.name)
	}
	var size *View = dsv
	for i, v := range rtvs {
		if v == nil {
			continue
		}
		if v.ViewKind != ddi.ViewRTV {
			return bad(v.name, "ppRenderTargetViews[%d]: %s is not a render target view", i, v.name)
		}
		for j, u := range rtvs[:i] {
			if u != nil && viewsOverlap(u, v) {
				return bad(v.name, "ppRenderTargetViews[%d] and [%d] are both views of resource %s: a subresource is bound to one slot at a time", j, i, v.Res.name)
			}
		}
		if dsv != nil && viewsOverlap(dsv, v) {
			return bad(v.name, "ppRenderTargetViews[%d] and pDepthStencilView are both views of resource %s", i, v.Res.name)
		}
		if size == nil {
			size = v
			continue
		}
		vw, vh := v.TargetSize()
		if sw, sh := size.TargetSize(); vw != sw || vh != sh {
			what := "depth buffer"
			if size.ViewKind == ddi.ViewRTV {
				what = "render target"
			}
			return bad(v.name, "render target %dx%d (ppRenderTargetViews[%d]) and %s %dx%d differ in size", vw, vh, i, what, sw, sh)
		}
		if msg := targetSlicesError(i, v, size); msg != "" { // (rtvdesc.go)
			return bad(v.name, "%s", msg)
		}
	}
	if msg := checkTargetSamples(rtvs, dsv); msg != "" {
		return bad("", "%s", msg)
	}
	return nil
}

func (c *DeviceContext) viewport() *ddi.Viewport {
	if len(c.vps) == 0 {
		return nil
	}
	vp := c.vps[0]
	return &vp
}

// restore re-binds a saved state through the API calls
// (RestoreContextState / RestoreDeferredContextState = TRUE): on an
// emulated deferred context they are recorded again.
func (c *DeviceContext) restore(b binding) {
	defer c.runtimeCalls()() // (objects the application released may be among them)
	if b.topo != ddi.TopologyUndefined {
		c.IASetPrimitiveTopology(b.topo)
	}
	if len(b.vps) > 0 {
		c.RSSetViewports(b.vps...)
	}
	if len(b.scissors) > 0 {
		c.RSSetScissorRects(b.scissors...)
	}
	for i, vb := range b.vb[:b.vbN] { // (the saved marks: nothing bound above them)
		if vb != nil && vb.Alive() {
			c.IASetVertexBuffers(uint32(i), vb, b.vbStride[i], b.vbOffset[i])
		}
	}
	if b.ib != nil && b.ib.Alive() {
		c.IASetIndexBuffer(b.ib, b.ibFormat, b.ibOffset)
	}
	if b.layout != nil && b.layout.Alive() {
		c.IASetInputLayout(b.layout)
	}
	if b.vs != nil && b.vs.Alive() {
		c.VSSetShader(b.vs)
	}
	if b.ps != nil && b.ps.Alive() {
		c.PSSetShader(b.ps)
	}
	if b.gs != nil && b.gs.Alive() {
		c.GSSetShader(b.gs)
	}
	if b.hs != nil && b.hs.Alive() {
		c.HSSetShader(b.hs)
	}
	if b.ds != nil && b.ds.Alive() {
		c.DSSetShader(b.ds)
	}
	// (one call per slot, as before the ranges: the traces of a restore
	// stay what they were; VS's then PS's, constant buffers first)
	for i := range max(b.stages[StageVS].cbN, b.stages[StagePS].cbN) {
		for st := range StagePS + 1 {
			if r := b.stages[st].cb[i]; r != nil && r.Alive() {
				c.SetConstantBuffers(st, uint32(i), []*Resource{r})
			}
		}
	}
	for i := range b.stages[StageGS].cbN {
		if r := b.stages[StageGS].cb[i]; r != nil && r.Alive() {
			c.SetConstantBuffers(StageGS, uint32(i), []*Resource{r})
		}
	}
	for st := range StageGS + 1 {
		t := &b.stages[st]
		for i := range int(max(t.srvN, t.sampN)) {
			if v := t.srv[i]; v != nil && v.Alive() {
				c.SetShaderResources(st, uint32(i), []*View{v})
			}
			if i < len(t.samp) {
				if s := t.samp[i]; s != nil && s.Alive() {
					c.SetSamplers(st, uint32(i), []*State{s})
				}
			}
		}
	}
	rtvs := b.rtv[:0]
	for i, v := range b.rtv {
		if v != nil {
			rtvs = b.rtv[:i+1]
		}
	}
	if len(rtvs) > 0 || b.dsv != nil {
		c.OMSetRenderTargets(slices.Clone(rtvs), b.dsv)
	}
	c.restoreOMUAVs(b.omUAV)
	if b.blend != nil || b.blendFactor != [4]float32{1, 1, 1, 1} || b.sampleMask != ^uint32(0) {
		c.OMSetBlendState(b.blend, b.blendFactor, b.sampleMask)
	}
	if b.rs != nil {
		c.RSSetState(b.rs)
	}
	if b.depth != nil || b.stencilRef != 0 {
		c.OMSetDepthStencilState(b.depth, b.stencilRef)
	}
	if b.pred != nil && b.pred.Alive() {
		c.SetPredication(b.pred, b.predValue)
	}
	c.restoreLater(b) // (restore_more.go)
}

// unbindAll drops the context's bindings (and their pins).
func (c *DeviceContext) unbindAll() {
	c.unbindVBs()
	bind(c, &c.ib, nil, nilRes)
	bind(c, &c.vs, nil, nilShader)
	bind(c, &c.ps, nil, nilShader)
	bind(c, &c.layout, nil, nilLayout)
	c.unbindStages()
	for i := range c.rtv {
		bind(c, &c.rtv[i], nil, nilView)
	}
	bind(c, &c.dsv, nil, nilView)
	bind(c, &c.blend, nil, nilState)
	bind(c, &c.rs, nil, nilState)
	bind(c, &c.depth, nil, nilState)
	bind(c, &c.pred, nil, nilQuery)
	bind(c, &c.cs, nil, nilShader)
	for i := range c.uav {
		if c.uav[i] != nil {
			bind(c, &c.uav[i], nil, nilView)
		}
	}
	for i := range c.omUAV {
		bind(c, &c.omUAV[i], nil, nilView)
	}
	bind(c, &c.gs, nil, nilShader)
	bind(c, &c.hs, nil, nilShader)
	bind(c, &c.ds, nil, nilShader)
	for i := range c.so {
		bind(c, &c.so[i], nil, nilRes)
	}
	c.resetScalars()
}

// unbindVBs drops the vertex buffers (those below the mark: the rest are
// empty).
func (c *DeviceContext) unbindVBs() {
	for i := range c.vb[:c.vbN] {
		if c.vb[i] != nil {
			bind(c, &c.vb[i], nil, nilRes)
		}
	}
	c.vbN = 0
}

// unbindStages drops every stage's constant buffers, views and samplers.
func (c *DeviceContext) unbindStages() {
	// (An empty slot stays empty: only the bound ones are unbound, not a
	// call for each of the 158 slots of each stage; and only below the
	// tables' marks.)
	for st := range c.stages {
		t := &c.stages[st]
		for i := range t.cb[:t.cbN] {
			if t.cb[i] != nil {
				bind(c, &t.cb[i], nil, nilRes)
			}
		}
		for i := range t.srv[:t.srvN] {
			if t.srv[i] != nil {
				bind(c, &t.srv[i], nil, nilView)
			}
		}
		for i := range t.samp[:t.sampN] {
			if t.samp[i] != nil {
				bind(c, &t.samp[i], nil, nilState)
			}
		}
		t.cbN, t.srvN, t.sampN = 0, 0, 0
	}
}

// resetScalars puts the bindings that hold no object back to the default
// state.
func (c *DeviceContext) resetScalars() {
	c.vbStride, c.vbOffset, c.ibFormat, c.ibOffset = [iaSlots]uint32{}, [iaSlots]uint32{}, ddi.FormatUnknown, 0
	c.topo, c.vps, c.scissors = ddi.TopologyUndefined, nil, nil
	c.blendFactor, c.sampleMask, c.stencilRef = [4]float32{1, 1, 1, 1}, ^uint32(0), 0
	c.predValue = false
}

// hold keeps the bound objects alive until the deferred context's handles
// onto them are closed: unbinding drops the context's references, and an
// object the application already released would otherwise lose its
// immediate-context handle first (rule CLS-FIRST; bug=CLS-FIRST skips it).
// The returned function lets go.
func (c *DeviceContext) hold() func() {
	if c.dev.rt.cfg.Bugs.Has(rules.CLSFirst) {
		return func() {}
	}
	return c.pinBindings()
}

// pinBindings takes a reference on everything bound and returns what drops
// them (dropPin: an unbinding, which may queue, on the immediate context; at
// once on a deferred context).
func (c *DeviceContext) pinBindings() func() {
	var held []binder
	add := func(o binder) {
		o.pin()
		held = append(held, o)
	}
	b := &c.slots // (read only; the tables below their marks: nothing is bound above them)
	for _, r := range append(b.vb[:b.vbN:b.vbN], b.ib) {
		if r != nil {
			add(r)
		}
	}
	for st := range b.stages {
		t := &b.stages[st]
		for _, r := range t.cb[:t.cbN] {
			if r != nil {
				add(r)
			}
		}
		for _, v := range t.srv[:t.srvN] {
			if v != nil {
				add(v)
			}
		}
		for _, s := range t.samp[:t.sampN] {
			if s != nil {
				add(s)
			}
		}
	}
	for _, v := range append(b.rtv[:], b.dsv) {
		if v != nil {
			add(v)
		}
	}
	for _, s := range []*State{b.blend, b.rs, b.depth} {
		if s != nil {
			add(s)
		}
	}
	for _, s := range []*Shader{b.vs, b.ps} {
		if s != nil {
			add(s)
		}
	}
	if b.layout != nil {
		add(b.layout)
	}
	if b.pred != nil {
		add(b.pred)
	}
	return func() {
		for _, o := range held {
			c.dropPin(o)
		}
	}
}
