package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/gpu/isa"
	"fmt"
	"math"
	"math/bits"
)

// deferredContext is a deferred context: the DDI table CreateDeferredContext
// returns. It records with the same encoder as the immediate context but
// never submits: its recording becomes a command list (CreateCommandList),
// which CommandListExecute splices into immediate command buffers. It
// records in groups that each carry their full pipeline state, so the splice
// may split between groups when a buffer fills up.
//
// Its object handles are context-local ("Using context-local DDI handles"):
// each is opened by a Create* call on the deferred context with the
// immediate context's handle as rt, and translates to that object; Destroy*
// only closes it. A deferred context reports errors through its own
// pfnSetErrorCb, never by a return value, and after one it stops recording
// until it is recycled.
type deferredContext struct {
	context
	local      map[uint32]uint32             // context-local handle -> immediate handle (guarded by mu)
	groups     []int                         // word offsets of self-contained packet groups
	used       firstUse[*resource]           // resources recorded and renamed, in first-use order
	written    []bool                        // written[i]: the recording writes used.keys[i]
	versions   map[*resource]ddi.HALLOCATION // resources renamed by Map(WRITE_DISCARD)
	superseded []version                     // versions a later WRITE_DISCARD replaced after the recording used them
	failed     bool                          // reported an error: the recording is discarded
	chunks     int                           // command-buffer's worths recorded so far
	nested     []*commandList                // lists executed into the recording
}

var (
	_ ddi.Device = (*deferredContext)(nil)
	_ recorder   = (*deferredContext)(nil)
)

// deferredCmdCap bounds a recording (words); it is not a command buffer.
const deferredCmdCap = 1 << 28

func newDeferredContext(d *Device, h ddi.HDEVICE, core ddi.HRTCORELAYER) *deferredContext {
	c := &deferredContext{context: newContext(d, h, d.rt, core, d.cb, d.cfg),
		local: map[uint32]uint32{}, versions: map[*resource]ddi.HALLOCATION{}}
	c.onGPU = unknownGPU // its commands run after the immediate context's
	c.cs.sent = csUnknown
	return c
}

// ensure never submits: it marks where a self-contained group of packets
// starts, for CommandListExecute to split at. Each time the recording
// outgrows another command-buffer's worth, the context is out of space and
// lets the runtime work (rule AM-DC).
//
// A group carries its predication: while predication is on every group
// sends SET_PREDICATION (the splice may put it in a fresh buffer, which
// starts without), and the first group after it is turned off sends it off.
func (c *deferredContext) ensure(words, _ int) {
	c.groups = append(c.groups, len(c.cmd.Words))
	if chunks := (len(c.cmd.Words) + words) / c.dev.cmdCap; chunks > c.chunks {
		c.chunks = chunks
		if !c.cfg.Bugs.Has(rules.AMDC) { // the bug: a deferred context never lets the runtime work
			c.cb.PfnPerformAmortizedProcessingCb(c.core)
		}
	}
	if c.pred != nil || c.gpuPred != nil {
		c.emitPredication()
	}
}

// ref records r as used by the command list, naming the list's own version
// of r when a Map(WRITE_DISCARD) on this context renamed it.
func (c *deferredContext) ref(r *resource, write bool, offset uint32) uint64 {
	c.use(r, write)
	a := r.alloc
	if v, ok := c.versions[r]; ok {
		a = v
	}
	return c.refAlloc(a, write, offset)
}

// use notes r as used by the recording, and written if write.
func (c *deferredContext) use(r *resource, write bool) {
	i, ok := c.used.index(r)
	if !ok {
		i = c.used.add(r)
		c.written = append(c.written, false)
	}
	c.written[i] = c.written[i] || write
}

// unknownHandle stands for a context-local handle that is not open: it names
// no object, yet a bound slot holding it is not empty.
const unknownHandle = ^uint32(0)

// icHandle translates a context-local handle to the immediate context's.
func (c *deferredContext) icHandle(h uint32) uint32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.icHandleLocked(h)
}

func (c *deferredContext) icHandleLocked(h uint32) uint32 {
	if h == 0 {
		return 0
	}
	if ic, ok := c.local[h]; ok {
		return ic
	}
	return unknownHandle
}

// icState is the bound state with the immediate context's handles.
func (c *deferredContext) icState() state {
	st := c.st
	c.mu.Lock()
	defer c.mu.Unlock()
	ic := c.icHandleLocked
	st.vb, st.ib = ddi.HRESOURCE(ic(uint32(st.vb))), ddi.HRESOURCE(ic(uint32(st.ib)))
	for i := range st.vbMore {
		st.vbMore[i].buf = ddi.HRESOURCE(ic(uint32(st.vbMore[i].buf)))
	}
	st.layout = ddi.HELEMENTLAYOUT(ic(uint32(st.layout)))
	st.vs, st.ps = ddi.HSHADER(ic(uint32(st.vs))), ddi.HSHADER(ic(uint32(st.ps)))
	st.gs = ddi.HSHADER(ic(uint32(st.gs)))
	for i := range st.so {
		st.so[i].buf = ddi.HRESOURCE(ic(uint32(st.so[i].buf)))
	}
	st.hs, st.ds = ddi.HSHADER(ic(uint32(st.hs))), ddi.HSHADER(ic(uint32(st.ds)))
	for s := range st.stages {
		ss := &st.stages[s]
		for m := ss.cbs; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			ss.cb[i] = ddi.HRESOURCE(ic(uint32(ss.cb[i])))
		}
		for w := range ss.srvs {
			for m := ss.srvs[w]; m != 0; m &= m - 1 {
				i := 64*w + bits.TrailingZeros64(m)
				ss.srv[i] = ddi.HSHADERRESOURCEVIEW(ic(uint32(ss.srv[i])))
			}
		}
		for m := ss.samps; m != 0; m &= m - 1 {
			i := bits.TrailingZeros16(m)
			ss.samp[i] = ddi.HSAMPLER(ic(uint32(ss.samp[i])))
		}
	}
	for i := range st.rtv {
		st.rtv[i] = ddi.HRENDERTARGETVIEW(ic(uint32(st.rtv[i])))
	}
	for i := range st.uav {
		st.uav[i] = ddi.HUNORDEREDACCESSVIEW(ic(uint32(st.uav[i])))
	}
	st.dsv = ddi.HDEPTHSTENCILVIEW(ic(uint32(st.dsv)))
	st.blend = ddi.HBLENDSTATE(ic(uint32(st.blend)))
	st.raster = ddi.HRASTERIZERSTATE(ic(uint32(st.raster)))
	st.depth = ddi.HDEPTHSTENCILSTATE(ic(uint32(st.depth)))
	return st
}

// open records a context-local handle (a Create* DDI of the deferred
// context); an injected failure is reported through pfnSetErrorCb.
func (c *deferredContext) open(name string, h, rt uint32) error {
	if c.injected(name) {
		c.setError()
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rt == 0 {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: deferred context handle %d opened without its immediate handle", h)
	}
	c.local[h] = rt
	return nil
}

// close forgets a context-local handle (a Destroy* DDI of the deferred
// context): the object belongs to the device.
func (c *deferredContext) close(h uint32) {
	c.mu.Lock()
	delete(c.local, h)
	c.mu.Unlock()
}

// setError: the deferred context ran out of memory. It says so through its
// own pfnSetErrorCb and stops recording.
func (c *deferredContext) setError() {
	c.failed = true
	c.cb.PfnSetErrorCb(c.core, hresult.E_OUTOFMEMORY)
}

// stopped applies an injected failure to a DDI that returns nothing and
// reports whether the context records no more.
func (c *deferredContext) stopped(name string) bool {
	if !c.injected(name) {
		return c.failed
	}
	c.setError()
	return true
}

func (c *deferredContext) ClearRenderTargetView(_ ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	if !c.stopped("ClearRenderTargetView") {
		c.clearRTV(c, c.icHandle(uint32(v)), rgba)
	}
}

func (c *deferredContext) ClearDepthStencilView(_ ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, stencil uint8) {
	if !c.stopped("ClearDepthStencilView") {
		c.clearDSV(c, c.icHandle(uint32(v)), flags, depth, stencil)
	}
}

// Draw emits the whole state with every draw: each group carries its state.
func (c *deferredContext) Draw(_ ddi.HDEVICE, count, start uint32) {
	if c.stopped("Draw") {
		return
	}
	if c.st.vs == 0 {
		return // no vertex shader: nothing to draw
	}
	st := c.icState()
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a)
	c.emitState(c, &st)
	c.cmd.Draw(count, start)
}

func (c *deferredContext) DrawInstanced(_ ddi.HDEVICE, count, instances, start, startInstance uint32) {
	if c.stopped("DrawInstanced") || c.st.vs == 0 {
		return
	}
	st := c.icState()
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a)
	c.emitState(c, &st)
	c.cmd.DrawInstanced(count, start, instances, startInstance)
}

func (c *deferredContext) DrawIndexedInstanced(_ ddi.HDEVICE, count, instances, start uint32, base int32, startInstance uint32) {
	if c.stopped("DrawIndexedInstanced") || c.st.vs == 0 {
		return
	}
	st := c.icState()
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a)
	c.emitState(c, &st)
	c.cmd.DrawIndexedInstanced(count, start, base, instances, startInstance)
}

// DrawInstancedIndirect and DrawIndexedInstancedIndirect record the
// draw with the address of its arguments: the GPU reads them when the
// list runs.
func (c *deferredContext) DrawInstancedIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	c.drawIndirect("DrawInstancedIndirect", buf, offset, false)
}

func (c *deferredContext) DrawIndexedInstancedIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	c.drawIndirect("DrawIndexedInstancedIndirect", buf, offset, true)
}

func (c *deferredContext) drawIndirect(name string, buf ddi.HRESOURCE, offset uint32, indexed bool) {
	if c.stopped(name) || c.st.vs == 0 {
		return
	}
	r := c.resource(ddi.HRESOURCE(c.icHandle(uint32(buf))))
	if r == nil {
		return
	}
	st := c.icState()
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a+1)
	c.emitState(c, &st)
	if indexed {
		c.cmd.DrawIndexedIndirect(c.ref(r, false, offset))
	} else {
		c.cmd.DrawIndirect(c.ref(r, false, offset))
	}
}

func (c *deferredContext) IaSetInputLayout(h ddi.HDEVICE, l ddi.HELEMENTLAYOUT) {
	if !c.stopped("IaSetInputLayout") {
		c.context.IaSetInputLayout(h, l)
	}
}

func (c *deferredContext) DrawIndexed(_ ddi.HDEVICE, count, start uint32, base int32) {
	if c.stopped("DrawIndexed") {
		return
	}
	if c.st.vs == 0 {
		return // no vertex shader: nothing to draw
	}
	st := c.icState()
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a)
	c.emitState(c, &st)
	c.cmd.DrawIndexed(count, start, base)
}

func (c *deferredContext) ResourceCopy(_ ddi.HDEVICE, dst, src ddi.HRESOURCE) {
	if !c.stopped("ResourceCopy") {
		c.copyResource(c, ddi.HRESOURCE(c.icHandle(uint32(dst))), ddi.HRESOURCE(c.icHandle(uint32(src))))
	}
}

func (c *deferredContext) ResourceUpdateSubresourceUP(_ ddi.HDEVICE, dst ddi.HRESOURCE, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32) {
	if !c.stopped("ResourceUpdateSubresourceUP") {
		c.updateSubresource(c, ddi.HRESOURCE(c.icHandle(uint32(dst))), sub, box, data, rowPitch, depthPitch, writeChunk)
	}
}

// ResourceMap on a deferred context is Map(WRITE_DISCARD) or, after one in
// the same recording, Map(WRITE_NO_OVERWRITE) ("Mapping on Deferred
// Contexts": the runtime maps a dynamic resource on a deferred context
// because the API ensures its first use there discards). It cannot lock the
// resource's allocation, which the GPU may be using and the immediate
// context may map meanwhile: WRITE_DISCARD allocates the command list a
// fresh version of the resource (an aliased allocation, pfnAllocateCb),
// which becomes the resource's contents when the list is executed
// (CommandListExecute renames the resource to it). Draws recorded after the
// Map read it; the immediate context's draws before the execution read the
// old one. WRITE_NO_OVERWRITE locks that same version again: the list's
// earlier draws read the parts the application promised not to touch.
func (c *deferredContext) ResourceMap(_ ddi.HDEVICE, h ddi.HRESOURCE, t ddi.MapType, _ ddi.MapFlag, out *ddi.MappedSubresource) {
	m, err := c.resourceMap(h, t)
	if err != nil {
		c.report(err)
		return
	}
	*out = m
}

// resourceMap is ResourceMap with its error, which ResourceMap reports.
func (c *deferredContext) resourceMap(h ddi.HRESOURCE, t ddi.MapType) (ddi.MappedSubresource, error) {
	r := c.resource(ddi.HRESOURCE(c.icHandle(uint32(h))))
	if r == nil {
		return ddi.MappedSubresource{}, hresult.Errorf(hresult.E_INVALIDARG, "umd: Map of unknown resource")
	}
	var a ddi.HALLOCATION
	switch t {
	case ddi.MapWriteDiscard:
		cb := ddi.AllocateCb{Resource: r.rt, Allocations: []ddi.AllocationInfo{{
			Size: r.size, CPUVisible: true, Width: uint32(r.size), Height: 1, Pitch: r.pitch, Obj: r.args.Obj,
		}}}
		if err := c.cb.PfnAllocateCb(c.rt, &cb); err != nil {
			return ddi.MappedSubresource{}, err
		}
		if old, ok := c.versions[r]; ok {
			if _, used := c.listIdx.index(old); used {
				c.superseded = append(c.superseded, version{r: r, alloc: old, superseded: true})
			} else {
				c.dealloc(r.rt, old, r.args.Obj) // discarded again before any use was recorded
			}
		}
		a = cb.Allocations[0].Allocation
		c.versions[r] = a
		c.use(r, false)
		c.st.dirty = true
	case ddi.MapWriteNoOverwrite:
		v, ok := c.versions[r]
		if !ok {
			return ddi.MappedSubresource{}, hresult.Errorf(hresult.E_INVALIDARG, "umd: WRITE_NO_OVERWRITE on a deferred context before a WRITE_DISCARD of the resource in this command list")
		}
		a = v
	default:
		return ddi.MappedSubresource{}, hresult.Errorf(hresult.E_INVALIDARG, "umd: a deferred context maps only with WRITE_DISCARD or WRITE_NO_OVERWRITE")
	}
	lk := ddi.LockCb{Allocation: a}
	if err := c.cb.PfnLockCb(c.rt, &lk); err != nil {
		return ddi.MappedSubresource{}, err
	}
	return ddi.MappedSubresource{Data: lk.Data, RowPitch: r.pitch}, nil
}

func (c *deferredContext) ResourceUnmap(_ ddi.HDEVICE, h ddi.HRESOURCE) {
	r := c.resource(ddi.HRESOURCE(c.icHandle(uint32(h))))
	if r == nil {
		return
	}
	if v, ok := c.versions[r]; ok {
		c.cb.PfnUnlockCb(c.rt, v)
	}
}

func (c *deferredContext) QueryBegin(_ ddi.HDEVICE, h ddi.HQUERY) {
	if !c.stopped("QueryBegin") {
		c.queryBegin(c, c.query(ddi.HQUERY(c.icHandle(uint32(h)))))
	}
}

// QueryEnd rides on the command list: its fence is the one of the buffer
// that carries the executed list.
func (c *deferredContext) QueryEnd(_ ddi.HDEVICE, h ddi.HQUERY) {
	q := c.query(ddi.HQUERY(c.icHandle(uint32(h))))
	if q == nil || c.stopped("QueryEnd") {
		return
	}
	c.queryEnd(c, q)
	// Not signalled until the list is executed and the GPU passes the End:
	// the buffer that carries the executed list gives the real fence.
	q.fence = math.MaxUint64
	c.ended = append(c.ended, q)
}

// discard drops what the context recorded.
func (c *deferredContext) discard() {
	c.cmd.Words = c.cmd.Words[:0]
	c.pred, c.gpuPred = nil, nil
	c.onGPU = unknownGPU // the next list runs after whatever was bound before it
	c.cs.sent = csUnknown
	c.list = c.list[:0]
	c.listIdx.reset()
	c.groups = c.groups[:0]
	for _, r := range c.used.keys { // an abandoned recording's renames
		if a, ok := c.versions[r]; ok {
			c.dealloc(r.rt, a, r.args.Obj)
		}
	}
	clear(c.versions)
	for _, v := range c.superseded {
		c.dealloc(v.r.rt, v.alloc, v.r.args.Obj)
	}
	c.superseded = nil
	c.used.reset()
	c.written = c.written[:0]
	c.nested = nil
	c.ended = c.ended[:0]
	c.failed = false
	c.chunks = 0
	c.resetState()
}

// AbandonCommandList throws away the recording.
func (c *deferredContext) AbandonCommandList(ddi.HDEVICE) { c.discard() }

// DestroyDevice of a deferred context forgets it; what it recorded is the
// command lists'.
func (c *deferredContext) DestroyDevice(ddi.HDEVICE) {
	c.dev.mu.Lock()
	delete(c.dev.dcs, c.h)
	c.dev.mu.Unlock()
}

// The state DDIs of a deferred context can fail too: its memory grows with
// every call, so any of them may report E_OUTOFMEMORY through the context's
// pfnSetErrorCb ("Using context-local DDI handles": "Draw, SetBlendState, and
// so on"); the context then records nothing more.

func (c *deferredContext) IaSetVertexBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides, offsets []uint32) {
	if !c.stopped("IaSetVertexBuffers") {
		c.context.IaSetVertexBuffers(h, start, bufs, strides, offsets)
	}
}

func (c *deferredContext) IaSetIndexBuffer(h ddi.HDEVICE, buf ddi.HRESOURCE, f ddi.Format, offset uint32) {
	if !c.stopped("IaSetIndexBuffer") {
		c.context.IaSetIndexBuffer(h, buf, f, offset)
	}
}

func (c *deferredContext) IaSetTopology(h ddi.HDEVICE, t ddi.Topology) {
	if !c.stopped("IaSetTopology") {
		c.context.IaSetTopology(h, t)
	}
}

func (c *deferredContext) VsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("VsSetShader") {
		c.context.VsSetShader(h, s)
	}
}

func (c *deferredContext) PsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("PsSetShader") {
		c.context.PsSetShader(h, s)
	}
}

func (c *deferredContext) VsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if !c.stopped("VsSetConstantBuffers") {
		c.context.VsSetConstantBuffers(h, start, bufs)
	}
}

func (c *deferredContext) PsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if !c.stopped("PsSetConstantBuffers") {
		c.context.PsSetConstantBuffers(h, start, bufs)
	}
}

func (c *deferredContext) PsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("PsSetShaderResources") {
		c.context.PsSetShaderResources(h, start, views)
	}
}

func (c *deferredContext) VsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("VsSetShaderResources") {
		c.context.VsSetShaderResources(h, start, views)
	}
}

func (c *deferredContext) VsSetSamplers(h ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	if !c.stopped("VsSetSamplers") {
		c.context.VsSetSamplers(h, start, s)
	}
}

func (c *deferredContext) PsSetSamplers(h ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	if !c.stopped("PsSetSamplers") {
		c.context.PsSetSamplers(h, start, s)
	}
}

func (c *deferredContext) SetRenderTargets(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	if !c.stopped("SetRenderTargets") {
		c.context.SetRenderTargets(h, rtvs, dsv)
	}
}

func (c *deferredContext) SetBlendState(h ddi.HDEVICE, s ddi.HBLENDSTATE, factor [4]float32, mask uint32) {
	if !c.stopped("SetBlendState") {
		c.context.SetBlendState(h, s, factor, mask)
	}
}

func (c *deferredContext) SetRasterizerState(h ddi.HDEVICE, s ddi.HRASTERIZERSTATE) {
	if !c.stopped("SetRasterizerState") {
		c.context.SetRasterizerState(h, s)
	}
}

func (c *deferredContext) SetDepthStencilState(h ddi.HDEVICE, s ddi.HDEPTHSTENCILSTATE, ref uint32) {
	if !c.stopped("SetDepthStencilState") {
		c.context.SetDepthStencilState(h, s, ref)
	}
}

func (c *deferredContext) SetViewports(h ddi.HDEVICE, vps []ddi.Viewport) {
	if !c.stopped("SetViewports") {
		c.context.SetViewports(h, vps)
	}
}

func (c *deferredContext) SetScissorRects(h ddi.HDEVICE, rects []ddi.Rect) {
	if !c.stopped("SetScissorRects") {
		c.context.SetScissorRects(h, rects)
	}
}

// CommandListExecute on a deferred context records the command list into the
// recording (ExecuteCommandList is legal on a deferred context): its packet
// groups with their allocations re-referenced in this recording, its
// resources and its queries. Like on the immediate context it is a
// clear-state operation: the list starts from the default state and leaves
// the context in it.
func (c *deferredContext) CommandListExecute(_ ddi.HDEVICE, h ddi.HCOMMANDLIST) {
	if c.stopped("CommandListExecute") {
		return
	}
	o := c.dev
	o.mu.Lock()
	cl := o.cls[ddi.HCOMMANDLIST(c.icHandle(uint32(h)))]
	o.mu.Unlock()
	if cl == nil || cl.state != clValid {
		return
	}
	c.resetNewState(c) // the nested list starts from the later state's defaults
	c.pred = nil       // and without predication
	bounds := append(append([]int(nil), cl.groups...), len(cl.words))
	for i := 0; i+1 < len(bounds); i++ {
		group := cl.words[bounds[i]:bounds[i+1]]
		pkts, err := isa.Decode(group)
		if err != nil {
			panic(fmt.Sprintf("umd: recorded command list is malformed: %v", err)) // the UMD wrote it: a bug here
		}
		c.ensure(len(group), 0) // a group boundary
		base := len(c.cmd.Words)
		c.cmd.Words = append(c.cmd.Words, group...)
		for _, p := range pkts {
			for _, f := range isa.AddrFields(p.Op) {
				w := base + p.At + 1 + f
				idx, off := c.cmd.Words[w], c.cmd.Words[w+1]
				if uint64(idx) == isa.NullAddress {
					continue // an unbound slot names no allocation
				}
				e := cl.list[idx]
				a := c.refAlloc(e.Allocation, e.WriteOperation, off)
				c.cmd.Words[w], c.cmd.Words[w+1] = uint32(a), uint32(a>>32)
			}
		}
	}
	soT := c.onGPU.soT
	c.onGPU = afterList(cl.endNew) // what the nested list bound is still set
	c.onGPU.soT = soT
	c.afterSOList(cl)
	c.cs.sent = csUnknown
	for _, u := range cl.used {
		c.use(u.r, u.write)
	}
	for _, q := range cl.ended {
		q.fence = math.MaxUint64 // signalled once the outer list runs
		c.ended = append(c.ended, q)
	}
	c.nested = append(c.nested, cl)
	c.resetState()
}
