package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/gpu/isa"
)

// state is what the immediate context has bound. Each command buffer the UMD
// submits is self-contained (the GPU starts every DMA buffer from its reset
// state), so after a submission the whole bound state is re-emitted before
// the next draw.
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
	rtv      ddi.HRENDERTARGETVIEW
	dsv      ddi.HDEPTHSTENCILVIEW
	blend    ddi.HBLENDSTATE
	raster   ddi.HRASTERIZERSTATE
	depth    ddi.HDEPTHSTENCILSTATE
	vp       ddi.Viewport
	hasVP    bool
	dirty    bool
}

func (d *Device) resetState() { d.st = state{dirty: true} }

// Words and list entries reserved for one draw with all its state, so a
// command never straddles two buffers.
const (
	drawWords  = 160
	drawAllocs = 24
	writeChunk = 16 << 10 // bytes of inline data per WRITE packet
)

// ensure makes room for a command: when the command buffer or the allocation
// list cannot take it, the UMD submits what it has with pfnRenderCb, without
// a Flush from the application (seed 003 step 8 note; rule WDDM-FULL).
func (d *Device) ensure(words, allocs int) {
	if d.parent != nil {
		// A deferred context never submits: it marks where a self-contained
		// group of packets starts, for CommandListExecute to split at. Each
		// time its recording outgrows another command-buffer's worth, it is
		// out of space and lets the runtime work (seed 000, rule AM-DC).
		d.groups = append(d.groups, len(d.cmd.Words))
		if chunks := (len(d.cmd.Words) + words) / d.parent.cmdCap; chunks > d.dcChunks {
			d.dcChunks = chunks
			if !d.cfg.Bugs.Has(rules.AMDC) { // the bug: a deferred context never lets the runtime work
				d.cb.PfnPerformAmortizedProcessingCb(d.core)
			}
		}
		return
	}
	if len(d.cmd.Words)+words <= d.cmdCap && len(d.list)+allocs <= d.listCap || len(d.cmd.Words) == 0 || d.cfg.Bugs.Has(rules.WDDMFull) {
		// (the WDDM-FULL bug lets the buffer grow past what
		// pfnCreateContextCb gave)
		return
	}
	d.submit(false, 0)
}

// refAlloc puts an allocation on the list and returns the list-relative
// address of offset inside it.
func (d *Device) refAlloc(a ddi.HALLOCATION, write bool, offset uint32) uint64 {
	i, ok := d.listIdx[a]
	if !ok {
		i = len(d.list)
		d.list = append(d.list, ddi.AllocationListEntry{Allocation: a})
		d.listIdx[a] = i
	}
	if write {
		d.list[i].WriteOperation = true
	}
	return uint64(i) | uint64(offset)<<32
}

func (d *Device) ref(r *resource, write bool, offset uint32) uint64 {
	if d.parent != nil {
		if _, ok := d.dcUsed[r]; !ok {
			d.dcOrder = append(d.dcOrder, r)
		}
		d.dcUsed[r] = d.dcUsed[r] || write
		a := r.alloc
		if v, ok := d.versions[r]; ok {
			a = v // renamed by a Map(WRITE_DISCARD) on this deferred context
		}
		return d.refAlloc(a, write, offset)
	}
	if !r.inBuffer {
		r.inBuffer = true
		d.used = append(d.used, r)
	}
	if write {
		r.writeInBuffer = true
	}
	if d.cfg.Bugs.Has(rules.FTAlloc) && r.shared() && len(r.extra) == 0 {
		// The bug: at its first use the driver supplements a shared
		// resource with a second allocation (say, compression metadata)
		// on the immediate context's thread, outside its CreateResource.
		// Fine for a resource nobody shares; for a shared one pfnAllocateCb
		// belongs to the thread inside CreateResource (seed 000).
		cb := ddi.AllocateCb{Resource: r.rt, Allocations: []ddi.AllocationInfo{{Size: 4096, Width: 4096, Height: 1, Pitch: 4096, Obj: r.args.Obj}}}
		if d.cb.PfnAllocateCb(d.rt, &cb) == nil {
			r.extra = append(r.extra, cb.Allocations[0].Allocation)
		}
	}
	return d.refAlloc(r.alloc, write, offset)
}

func (d *Device) resource(h ddi.HRESOURCE) *resource {
	if h == 0 {
		return nil
	}
	o := d.owner()
	h = ddi.HRESOURCE(d.icHandle(uint32(h)))
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.res[h]
}

func (d *Device) viewRes(h uint32) (*view, *resource) {
	if h == 0 {
		return nil, nil
	}
	o := d.owner()
	h = d.icHandle(h)
	o.mu.Lock()
	defer o.mu.Unlock()
	v := o.views[h]
	if v == nil {
		return nil, nil
	}
	return v, o.res[v.res]
}

// emitState writes the whole bound pipeline state.
func (d *Device) emitState() {
	st := &d.st
	b := &d.cmd
	if _, r := d.viewRes(uint32(st.rtv)); r != nil {
		b.SetRT(d.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, r.format)
	}
	ic := func(h uint32) uint32 { return d.icHandle(h) }
	depthH, blendH, rastH := ddi.HDEPTHSTENCILSTATE(ic(uint32(st.depth))), ddi.HBLENDSTATE(ic(uint32(st.blend))), ddi.HRASTERIZERSTATE(ic(uint32(st.raster)))
	vsH, psH := ddi.HSHADER(ic(uint32(st.vs))), ddi.HSHADER(ic(uint32(st.ps)))
	var sampH [8]ddi.HSAMPLER
	for i, h := range st.samp {
		sampH[i] = ddi.HSAMPLER(ic(uint32(h)))
	}
	o := d.owner()
	o.mu.Lock()
	ds := o.dss[depthH]
	bl := o.blends[blendH]
	rs := o.rasts[rastH]
	vs := o.shaders[vsH]
	ps := o.shaders[psH]
	var samps [8]*ddi.SamplerDesc
	for i, h := range sampH {
		if h != 0 {
			samps[i] = o.samplers[h]
		}
	}
	o.mu.Unlock()
	if _, r := d.viewRes(uint32(st.dsv)); r != nil {
		b.SetDS(d.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, r.format)
		desc := ddi.DefaultDepthStencilDesc()
		if ds != nil {
			desc = *ds
		}
		b.SetDepth(desc.DepthEnable, desc.DepthWriteMask, cmpFunc[desc.DepthFunc])
	} else {
		b.SetDepth(false, false, isa.CmpAlways) // no depth buffer: no depth test
	}
	if r := d.resource(st.vb); r != nil {
		b.SetVB(0, d.ref(r, false, 0), uint32(r.size), st.vbStride, st.vbOffset)
	}
	if r := d.resource(st.ib); r != nil {
		n := uint32(2)
		if st.ibFormat == ddi.FormatR32Uint {
			n = 4
		}
		b.SetIB(d.ref(r, false, 0), uint32(r.size), n, st.ibOffset)
	}
	for i, h := range st.vsCB {
		if r := d.resource(h); r != nil {
			b.SetCB(isa.StageVS, uint32(i), d.ref(r, false, 0), uint32(r.size))
		}
	}
	for i, h := range st.psCB {
		if r := d.resource(h); r != nil {
			b.SetCB(isa.StagePS, uint32(i), d.ref(r, false, 0), uint32(r.size))
		}
	}
	for i, h := range st.srv {
		if _, r := d.viewRes(uint32(h)); r != nil {
			b.SetTex(uint32(i), d.ref(r, false, 0), r.args.Width, r.args.Height, r.pitch, r.format)
		}
	}
	for i, s := range samps {
		desc := ddi.DefaultSamplerDesc()
		if s != nil {
			desc = *s
		} else if st.samp[i] == 0 && i > 0 {
			continue
		}
		filter := uint32(isa.FilterLinear)
		if desc.Filter == ddi.FilterMinMagMipPoint {
			filter = isa.FilterPoint
		}
		c := desc.BorderColor
		border := unorm8(c[0]) | unorm8(c[1])<<8 | unorm8(c[2])<<16 | unorm8(c[3])<<24
		b.SetSampler(uint32(i), filter, addressMode[desc.AddressU], addressMode[desc.AddressV], border)
	}
	if vs != nil {
		b.SetShader(isa.StageVS, vs.Program)
	}
	if ps != nil {
		b.SetShader(isa.StagePS, ps.Program)
	}
	if st.hasVP {
		v := st.vp
		b.SetViewport(v.X, v.Y, v.Width, v.Height, v.MinDepth, v.MaxDepth)
	}
	rd := ddi.DefaultRasterizerDesc()
	if rs != nil {
		rd = *rs
	}
	b.SetRaster(cullMode[rd.CullMode], rd.FrontCounterClockwise, rd.DepthClipEnable)
	bd := ddi.DefaultBlendDesc()
	if bl != nil {
		bd = *bl
	}
	b.SetBlend(bd.BlendEnable, blendFactor[bd.SrcBlend], blendFactor[bd.DestBlend], blendOp[bd.BlendOp],
		blendFactor[bd.SrcBlendAlpha], blendFactor[bd.DestBlendAlpha], blendOp[bd.BlendOpAlpha], uint32(bd.RenderTargetWriteMask))
	b.SetTopology(uint32(st.topo))
	st.dirty = false
}

func (d *Device) IaSetVertexBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides, offsets []uint32) {
	if start == 0 && len(bufs) > 0 {
		d.st.vb, d.st.vbStride, d.st.vbOffset = bufs[0], strides[0], offsets[0]
	}
	d.st.dirty = true
}

func (d *Device) IaSetIndexBuffer(_ ddi.HDEVICE, buf ddi.HRESOURCE, f ddi.Format, offset uint32) {
	d.st.ib, d.st.ibFormat, d.st.ibOffset = buf, f, offset
	d.st.dirty = true
}

func (d *Device) IaSetTopology(_ ddi.HDEVICE, t ddi.Topology) { d.st.topo = t; d.st.dirty = true }
func (d *Device) VsSetShader(_ ddi.HDEVICE, s ddi.HSHADER)    { d.st.vs = s; d.st.dirty = true }
func (d *Device) PsSetShader(_ ddi.HDEVICE, s ddi.HSHADER)    { d.st.ps = s; d.st.dirty = true }

func (d *Device) VsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	for i, b := range bufs {
		if int(start)+i < len(d.st.vsCB) {
			d.st.vsCB[int(start)+i] = b
		}
	}
	d.st.dirty = true
}

func (d *Device) PsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	for i, b := range bufs {
		if int(start)+i < len(d.st.psCB) {
			d.st.psCB[int(start)+i] = b
		}
	}
	d.st.dirty = true
}

func (d *Device) PsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	for i, v := range views {
		if int(start)+i < len(d.st.srv) {
			d.st.srv[int(start)+i] = v
		}
	}
	d.st.dirty = true
}

func (d *Device) PsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	for i, v := range s {
		if int(start)+i < len(d.st.samp) {
			d.st.samp[int(start)+i] = v
		}
	}
	d.st.dirty = true
}

func (d *Device) SetRenderTargets(_ ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	d.st.rtv = 0
	if len(rtvs) > 0 {
		d.st.rtv = rtvs[0]
	}
	d.st.dsv = dsv
	d.st.dirty = true
}

func (d *Device) SetBlendState(_ ddi.HDEVICE, s ddi.HBLENDSTATE, _ [4]float32, _ uint32) {
	d.st.blend = s
	d.st.dirty = true
}

func (d *Device) SetRasterizerState(_ ddi.HDEVICE, s ddi.HRASTERIZERSTATE) {
	d.st.raster = s
	d.st.dirty = true
}

func (d *Device) SetDepthStencilState(_ ddi.HDEVICE, s ddi.HDEPTHSTENCILSTATE, _ uint32) {
	d.st.depth = s
	d.st.dirty = true
}

func (d *Device) SetViewports(_ ddi.HDEVICE, vps []ddi.Viewport) {
	d.st.hasVP = len(vps) > 0
	if d.st.hasVP {
		d.st.vp = vps[0]
	}
	d.st.dirty = true
}

func (d *Device) ClearRenderTargetView(_ ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	d.busy()
	if d.voidFailed("ClearRenderTargetView") {
		return
	}
	_, r := d.viewRes(uint32(v))
	if r == nil {
		return
	}
	d.ensure(16, 2)
	d.cmd.ClearRT(d.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, r.format, rgba)
}

func (d *Device) ClearDepthStencilView(_ ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, _ uint8) {
	d.busy()
	if d.voidFailed("ClearDepthStencilView") {
		return
	}
	_, r := d.viewRes(uint32(v))
	if r == nil || flags&ddi.ClearDepth == 0 {
		return
	}
	d.ensure(16, 2)
	d.cmd.ClearDS(d.ref(r, true, 0), r.args.Width, r.args.Height, r.pitch, r.format, depth)
}

func (d *Device) Draw(_ ddi.HDEVICE, count, start uint32) {
	d.busy()
	if d.voidFailed("Draw") {
		return
	}
	d.ensure(drawWords, drawAllocs)
	if d.st.dirty {
		d.emitState()
	}
	d.cmd.Draw(count, start)
	d.st.dirty = d.st.dirty || d.parent != nil // deferred: every group carries its state
}

func (d *Device) DrawIndexed(_ ddi.HDEVICE, count, start uint32, base int32) {
	d.busy()
	if d.voidFailed("DrawIndexed") {
		return
	}
	d.ensure(drawWords, drawAllocs)
	if d.st.dirty {
		d.emitState()
	}
	d.cmd.DrawIndexed(count, start, base)
	d.st.dirty = d.st.dirty || d.parent != nil
}

func (d *Device) ResourceCopy(_ ddi.HDEVICE, dst, src ddi.HRESOURCE) {
	d.busy()
	if d.voidFailed("ResourceCopy") {
		return
	}
	rd, rs := d.resource(dst), d.resource(src)
	if rd == nil || rs == nil {
		return
	}
	n := min(rd.size, rs.size)
	d.ensure(8, 4)
	d.cmd.Copy(d.ref(rd, true, 0), d.ref(rs, false, 0), uint32(n))
}

// ResourceUpdateSubresourceUP carries the data inline in the command buffer,
// in chunks that fit.
func (d *Device) ResourceUpdateSubresourceUP(_ ddi.HDEVICE, dst ddi.HRESOURCE, data []byte) {
	d.busy()
	if d.voidFailed("ResourceUpdateSubresourceUP") {
		return
	}
	r := d.resource(dst)
	if r == nil {
		return
	}
	if uint64(len(data)) > r.size {
		data = data[:r.size]
	}
	chunk := min(writeChunk, (d.cmdCap-16)*4/2)
	for off := 0; off < len(data); off += chunk {
		end := min(off+chunk, len(data))
		d.ensure(4+(end-off+3)/4, 2)
		d.cmd.Write(d.ref(r, true, uint32(off)), data[off:end])
	}
}

// ResourceMap gives the CPU the resource's memory. Seed 004: a map that
// conflicts with queued GPU work submits it and waits for its fence (or
// returns DXGI_ERROR_WAS_STILL_DRAWING with DO_NOT_WAIT); WRITE_DISCARD
// renames the resource to a fresh allocation instead; WRITE_NO_OVERWRITE
// never waits.
func (d *Device) ResourceMap(_ ddi.HDEVICE, h ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag) (ddi.MappedSubresource, error) {
	r := d.resource(h)
	if r == nil {
		return ddi.MappedSubresource{}, hresult.Errorf(hresult.E_INVALIDARG, "umd: Map of unknown resource")
	}
	if d.parent != nil {
		return d.mapDeferred(r, t)
	}
	d.busy()
	if d.injected("ResourceMap") {
		return ddi.MappedSubresource{}, hresult.E_OUTOFMEMORY
	}
	switch t {
	case ddi.MapWriteDiscard:
		if r.inBuffer || r.lastFence > d.cb.CompletedFence(d.rt, d.ctx) {
			if err := d.rename(r); err != nil {
				return ddi.MappedSubresource{}, err
			}
		}
	case ddi.MapWriteNoOverwrite:
	default:
		need := r.lastFence // writes wait for GPU reads and writes (WAR, WAW)
		if t == ddi.MapRead {
			need = r.lastWriteFence // reads wait for GPU writes (RAW)
		}
		if r.inBuffer && (t != ddi.MapRead || r.writeInBuffer) {
			if flags&ddi.MapFlagDoNotWait != 0 {
				d.submit(false, 0)
				return ddi.MappedSubresource{}, hresult.DXGI_ERROR_WAS_STILL_DRAWING
			}
			d.submit(false, 0)
			need = r.lastFence
			if t == ddi.MapRead {
				need = r.lastWriteFence
			}
		}
		if need > d.cb.CompletedFence(d.rt, d.ctx) && !d.cfg.Bugs.Has(rules.MapHazard) { // the bug: map without waiting
			if flags&ddi.MapFlagDoNotWait != 0 {
				return ddi.MappedSubresource{}, hresult.DXGI_ERROR_WAS_STILL_DRAWING
			}
			// The wait names what it waits for (seed 004's hazards): a
			// read waits for a GPU write (RAW); a write for a GPU read
			// (WAR) or, when the command at that fence writes, a write (WAW).
			hz := "RAW"
			if t != ddi.MapRead {
				hz = map[bool]string{false: "WAR", true: "WAW"}[r.lastWriteFence == need]
			}
			w := ddi.WaitForSynchronizationObjectCb{Context: d.ctx, FenceValue: need, Allocation: r.alloc, Obj: r.args.Obj, Hazard: hz}
			if err := d.cb.PfnWaitForSynchronizationObjectCb(d.rt, &w); err != nil {
				return ddi.MappedSubresource{}, err
			}
		}
	}
	lk := ddi.LockCb{Allocation: r.alloc}
	if err := d.cb.PfnLockCb(d.rt, &lk); err != nil {
		return ddi.MappedSubresource{}, err
	}
	r.mapped = true
	return ddi.MappedSubresource{Data: lk.Data, RowPitch: r.pitch}, nil
}

// rename gives r a fresh allocation; the old one is freed once the GPU is
// done with it (Dxgkrnl defers the real free to its fence).
func (d *Device) rename(r *resource) error {
	cb := ddi.AllocateCb{Resource: r.rt, Allocations: []ddi.AllocationInfo{{
		Size: r.size, CPUVisible: true, Width: uint32(r.size), Height: 1, Pitch: r.pitch, Obj: r.args.Obj,
	}}}
	if r.args.Dimension == ddi.DimTexture2D {
		cb.Allocations[0].Width, cb.Allocations[0].Height, cb.Allocations[0].GPUFormat = r.args.Width, r.args.Height, uint32(r.format)
	}
	if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
		return err
	}
	old := r.alloc
	r.alloc = cb.Allocations[0].Allocation
	if r.inBuffer {
		d.pendingDealloc = append(d.pendingDealloc, pendingFree{alloc: old, obj: r.args.Obj, rt: r.rt})
		// The buffer's list still names the old allocation; new uses of r
		// must name the new one.
		r.inBuffer = false
		r.writeInBuffer = false
		for i, u := range d.used {
			if u == r {
				d.used = append(d.used[:i], d.used[i+1:]...)
				break
			}
		}
	} else {
		d.dealloc(r.rt, old, r.args.Obj)
	}
	r.lastFence, r.lastWriteFence = 0, 0
	d.st.dirty = true
	return nil
}

func (d *Device) ResourceUnmap(_ ddi.HDEVICE, h ddi.HRESOURCE) {
	r := d.resource(h)
	if r == nil {
		return
	}
	if d.parent != nil {
		if v, ok := d.versions[r]; ok {
			d.cb.PfnUnlockCb(d.rt, v)
		}
		return
	}
	if !r.mapped {
		return
	}
	r.mapped = false
	d.cb.PfnUnlockCb(d.rt, r.alloc)
}

// mapDeferred is Map(WRITE_DISCARD) recorded on a deferred context: the
// command list gets a fresh version of the resource, which becomes the
// resource's contents when the list is executed.
func (d *Device) mapDeferred(r *resource, t ddi.MapType) (ddi.MappedSubresource, error) {
	if t != ddi.MapWriteDiscard {
		return ddi.MappedSubresource{}, hresult.Errorf(hresult.E_INVALIDARG, "umd: a deferred context maps only with WRITE_DISCARD")
	}
	cb := ddi.AllocateCb{Resource: r.rt, Allocations: []ddi.AllocationInfo{{
		Size: r.size, CPUVisible: true, Width: uint32(r.size), Height: 1, Pitch: r.pitch, Obj: r.args.Obj,
	}}}
	if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
		return ddi.MappedSubresource{}, err
	}
	if old, ok := d.versions[r]; ok {
		d.dealloc(r.rt, old, r.args.Obj) // discarded again before any use was submitted
	}
	a := cb.Allocations[0].Allocation
	d.versions[r] = a
	if _, ok := d.dcUsed[r]; !ok {
		d.dcOrder = append(d.dcOrder, r)
		d.dcUsed[r] = false
	}
	d.st.dirty = true
	lk := ddi.LockCb{Allocation: a}
	if err := d.cb.PfnLockCb(d.rt, &lk); err != nil {
		return ddi.MappedSubresource{}, err
	}
	return ddi.MappedSubresource{Data: lk.Data, RowPitch: r.pitch}, nil
}

func (d *Device) query(h ddi.HQUERY) *query {
	o := d.owner()
	h = ddi.HQUERY(d.icHandle(uint32(h)))
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.queries[h]
}

func (d *Device) QueryBegin(_ ddi.HDEVICE, h ddi.HQUERY) {
	q := d.query(h)
	if q == nil {
		return
	}
	q.active, q.ended = true, false
	if q.kind == ddi.QueryOcclusion {
		d.ensure(8, 2)
		d.cmd.Query(isa.QueryOcclusionBegin, d.refAlloc(q.alloc, true, 8))
	}
}

func (d *Device) QueryEnd(_ ddi.HDEVICE, h ddi.HQUERY) {
	q := d.query(h)
	if q == nil {
		return
	}
	d.ensure(8, 2)
	switch q.kind {
	case ddi.QueryOcclusion:
		d.cmd.Query(isa.QueryOcclusionEnd, d.refAlloc(q.alloc, true, 0))
	case ddi.QueryTimestamp:
		d.cmd.Query(isa.QueryTimestamp, d.refAlloc(q.alloc, true, 0))
	default:
		d.cmd.Words = append(d.cmd.Words, uint32(isa.OpNop)<<24) // the End needs a buffer to ride on
	}
	q.active, q.ended = false, true
	if d.parent != nil {
		d.ended = append(d.ended, q)
		return
	}
	if !q.inBuffer {
		q.inBuffer = true
		d.ended = append(d.ended, q)
	}
}

// QueryGetData submits a pending End (as GetData does without
// D3D11_ASYNC_GETDATA_DONOTFLUSH) and returns S_FALSE until the GPU has
// passed it.
func (d *Device) QueryGetData(_ ddi.HDEVICE, h ddi.HQUERY, _ uint32) (uint64, hresult.HRESULT) {
	q := d.query(h)
	if q == nil || !q.ended {
		return 0, hresult.DXGI_ERROR_INVALID_CALL
	}
	d.busy()
	if q.inBuffer {
		d.submit(false, 0)
	}
	if q.fence > d.cb.CompletedFence(d.rt, d.ctx) {
		return 0, hresult.S_FALSE
	}
	if q.kind == ddi.QueryEvent {
		return 1, hresult.S_OK
	}
	lk := ddi.LockCb{Allocation: q.alloc}
	if err := d.cb.PfnLockCb(d.rt, &lk); err != nil {
		return 0, hresult.Of(err)
	}
	var v uint64
	for i := 0; i < 8 && i < len(lk.Data); i++ {
		v |= uint64(lk.Data[i]) << (8 * i)
	}
	d.cb.PfnUnlockCb(d.rt, q.alloc)
	return v, hresult.S_OK
}

// Flush submits the command buffer with pfnRenderCb (seed 003 step 9).
// Flush submits the command buffer with pfnRenderCb (seed 003 step 9) and
// processes the deferred-destruction queue even when there was nothing to
// submit (seed 000, rule DD-FLUSH).
func (d *Device) Flush(ddi.HDEVICE) {
	d.busy()
	if d.parent != nil {
		return
	}
	if len(d.cmd.Words) > 0 || d.foreign != 0 {
		if d.cfg.Bugs.Has(rules.FTPresent) && len(d.list) > 0 {
			d.submit(true, d.list[0].Allocation) // the bug: submit a Flush with pfnPresentCb
			return
		}
		d.submit(false, 0)
		return
	}
	if !d.cfg.Bugs.Has(rules.DDFlush) { // the bug: only a submission drains the queue
		d.processDestroyQueue()
	}
	d.freePending()
}

// SetDisplayModeDXGI switches the display to a primary's mode with
// pfnSetDisplayModeCb, the one DDI allowed to call it (seed 000, rule
// FT-MODE).
func (d *Device) SetDisplayModeDXGI(_ ddi.HDEVICE, h ddi.HRESOURCE) error {
	r := d.resource(h)
	if r == nil || !r.args.Primary {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: SetDisplayModeDXGI needs a primary")
	}
	d.displayMode = r.alloc
	d.fullscreenDraw()
	if d.cfg.Bugs.Has(rules.FTMode) {
		return nil // the bug: switch the mode later, from PresentDXGI
	}
	return d.cb.PfnSetDisplayModeCb(d.rt, r.alloc)
}

// fullscreenDraw hot-swaps the immediate context's pfnDraw entry for the
// full-screen path. This is legal: SetDisplayModeDXGI runs on the immediate
// context's thread, and only that thread calls the context's entries (seed
// 000, rule FT-TABLE). (The simulated GPU draws the same either way; a real
// driver would, say, render straight into the scanned-out primary.)
func (d *Device) fullscreenDraw() {
	if d.table == nil || d.table.Get("pfnDraw").Impl == "DrawFullscreen" {
		return
	}
	d.table.Set("pfnDraw", "DrawFullscreen", func(h ddi.HDEVICE, count, start uint32) { d.Draw(h, count, start) })
	if d.cfg.Bugs.Has(rules.FTTable) {
		// The bug: a create entry swapped too, while other threads may be
		// inside CreateResource.
		d.table.Set("pfnCreateResource", "CreateResourceFullscreen", nil)
	}
}

// PresentDXGI submits the command buffer with pfnPresentCb, naming the
// surface to show (seed 003 step 9).
func (d *Device) PresentDXGI(_ ddi.HDEVICE, src ddi.HRESOURCE, _ uint32) error {
	d.busy()
	if d.cfg.Bugs.Has(rules.FTMode) && d.displayMode != 0 {
		d.cb.PfnSetDisplayModeCb(d.rt, d.displayMode)
		d.displayMode = 0
	}
	r := d.resource(src)
	if r == nil || d.parent != nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: Present of unknown resource (or on a deferred context)")
	}
	d.ensure(8, 2)
	d.ref(r, false, 0)
	return d.submit(true, r.alloc)
}

// submit hands the command buffer to the runtime, then records the fence on
// everything it used and performs the deallocations that waited for it.
func (d *Device) submit(present bool, src ddi.HALLOCATION) error {
	if d.foreign != 0 {
		// A rogue command: write into an allocation of another device.
		d.cmd.Write(d.refAlloc(d.foreign, true, 0), []byte{0xef, 0xbe, 0xad, 0xde})
		d.foreign = 0
	}
	words := append([]uint32(nil), d.cmd.Words...)
	list := append([]ddi.AllocationListEntry(nil), d.list...)
	var fence uint64
	var err error
	if present {
		cb := ddi.PresentCb{Context: d.ctx, Commands: words, AllocationList: list, SrcAllocation: src}
		err = d.cb.PfnPresentCb(d.rt, &cb)
		fence = cb.Fence
	} else {
		cb := ddi.RenderCb{Context: d.ctx, Commands: words, AllocationList: list}
		err = d.cb.PfnRenderCb(d.rt, &cb)
		fence = cb.Fence
	}
	d.submits++
	for _, r := range d.used {
		if fence != 0 {
			r.lastFence = fence
			if r.writeInBuffer {
				r.lastWriteFence = fence
			}
		}
		r.inBuffer, r.writeInBuffer = false, false
	}
	for _, q := range d.ended {
		q.fence = fence
		q.inBuffer = false
	}
	d.used = d.used[:0]
	d.ended = d.ended[:0]
	d.cmd.Words = d.cmd.Words[:0]
	d.list = d.list[:0]
	clear(d.listIdx)
	d.st.dirty = true
	d.processDestroyQueue() // everything destroyed before this submission is now safe
	d.freePending()
	d.amortize()
	return err
}

// amortizePeriod: without submissions, a busy driver still lets the runtime
// do its amortized work at least this often (seed 000: 1 ms).
const amortizePeriod = 1_000_000

// amortize calls pfnPerformAmortizedProcessingCb after a submission: once,
// not back to back, and only when there was work since the last call (seed
// 000, rules AM-SUBMIT and AM-BALANCE).
//
// A DDI that keeps submitting (CommandListExecute of a list that fills
// several command buffers) calls it again every second submission: the
// submissions between are the work that keeps the calls from being back to
// back.
func (d *Device) amortize() {
	if d.cfg.Bugs.Has(rules.AMSubmit) {
		return
	}
	if d.amortizedEpoch == d.epoch {
		if d.submits-d.amortizedSubmits < 2 {
			return // done already in this DDI
		}
	} else if !d.workSince {
		return // nothing to amortize
	}
	d.amortizedEpoch = d.epoch
	d.amortizedSubmits = d.submits
	d.cb.PfnPerformAmortizedProcessingCb(d.core)
	if d.cfg.Bugs.Has(rules.AMBalance) {
		d.cb.PfnPerformAmortizedProcessingCb(d.core) // the bug: twice, back to back
	}
	d.workSince = false
	if d.cfg.Now != nil {
		d.amortizedAt = d.cfg.Now()
	}
}

// busy notes the entry of a DDI that does work; when a busy driver has not
// let the runtime work for amortizePeriod, it does so now.
func (d *Device) busy() {
	if d.parent != nil {
		return
	}
	if d.refreshNext {
		// The first DDI after CommandListExecute: the driver re-reads the
		// vertex-buffer binding, which the runtime now shows empty.
		d.refreshNext = false
		d.cb.PfnStateIaVertexBufCb(d.core, 0, 1)
	}
	d.epoch++
	if d.workSince && d.cfg.Now != nil && d.cfg.Now()-d.amortizedAt > amortizePeriod && !d.cfg.Bugs.Has(rules.AMBalance) {
		d.amortize()
	}
	d.workSince = true
}

func (d *Device) freePending() {
	pend := d.pendingDealloc
	d.pendingDealloc = nil
	for _, p := range pend {
		d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Resource: p.rt, Allocations: append([]ddi.HALLOCATION{p.alloc}, p.extra...), Obj: p.obj})
	}
}
