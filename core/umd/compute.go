package umd

import (
	"encoding/binary"
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/gpu/isa"
)

// The compute stage (ddi.Compute): CreateComputeShader translates cs_4_0 to
// cs_5_0 bytecode like the other stages' (shaders.go); an unordered access
// view is a SET_UAV of its resource's bytes, with a 4-byte allocation of
// its own for the hidden counter of an append, consume or counter view;
// the compute stage's bindings are sent whole before every Dispatch
// (SET_PROGRAM, SET_CB, SET_VIEW or SET_TEX_STAGE, SET_SAMPLER*, SET_UAV of
// stage isa.StageCS), the slots a dispatch of this buffer bound and the
// context has since unbound unset: the GPU keeps the compute stage's state
// apart from the draws', so a draw never needs it and a dispatch needs
// nothing of theirs.

var _ ddi.Compute = (*Device)(nil)

// uavView is an unordered access view: what SET_UAV says of it.
type uavView struct {
	kind                    uint32 // isa.ViewBuffer, ViewRawBuffer, ViewStructured, ViewTex2D
	fm                      isa.Format
	offset, bytes, stride   uint32
	elements, height, pitch uint32
	depth, slicePitch       uint32    // an array's slices or a 3D view's depth slices, and their distance (uavdims.go)
	counter                 *resource // the hidden counter's allocation, nil for none
	counterObj              string
}

// csState is the compute stage's bound state of a context; sent is what
// dispatches of the buffer being recorded have bound on the GPU.
type csState struct {
	shader ddi.HSHADER
	cbs    [ddi.ConstantBufferSlots]ddi.HRESOURCE
	srvs   [isa.MaxTexSlots]ddi.HSHADERRESOURCEVIEW
	samps  [isa.MaxSamplerSlots]ddi.HSAMPLER
	uavs   [isa.MaxUAVSlots]ddi.HUNORDEREDACCESSVIEW
	sent   csSent
}

type csSent struct {
	cb   uint16
	srv  [2]uint64
	smp  uint16
	uav  uint8
	prog bool
}

// csUnknown is a buffer's compute bindings when the context cannot know
// them: a deferred context's commands run after whatever the immediate
// context bound, and the immediate context's after a command list's.
// Every slot the context does not bind is unset before its dispatch.
var csUnknown = csSent{cb: 1<<ddi.ConstantBufferSlots - 1, srv: [2]uint64{^uint64(0), ^uint64(0)}, smp: ^uint16(0), uav: ^uint8(0)}

// defaultSamplerDesc is D3D11's default sampler state, what an unbound
// sampler slot samples with ("D3D11_SAMPLER_DESC structure").
var defaultSamplerDesc = ddi.SamplerDesc{Filter: ddi.FilterMinMagMipLinear, AddressU: ddi.AddressClamp, AddressV: ddi.AddressClamp,
	AddressW: ddi.AddressClamp, MaxAnisotropy: 1, BorderColor: [4]float32{1, 1, 1, 1}, MinLOD: -3.402823466e+38, MaxLOD: 3.402823466e+38}

func (c *context) CalcPrivateUnorderedAccessViewSize(*ddi.CreateViewArgs) int { return sizeView }

func (d *Device) CreateUnorderedAccessView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HUNORDEREDACCESSVIEW, _ uint32) {
	d.report(d.createUAV(a, uint32(h)))
}

func (d *Device) DestroyUnorderedAccessView(_ ddi.HDEVICE, h ddi.HUNORDEREDACCESSVIEW) {
	d.mu.Lock()
	v := d.views[uint32(h)]
	d.mu.Unlock()
	d.destroyView(uint32(h))
	if v != nil && v.uav != nil && v.uav.counter != nil {
		c := v.uav
		d.deferDestroy(func() {
			d.cb.PfnDeallocateCb(d.rt, &ddi.DeallocateCb{Allocations: []ddi.HALLOCATION{c.counter.alloc}, Obj: c.counterObj})
		})
	}
}

func (d *Device) CreateComputeShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StageCS, "CreateComputeShader"))
}

// createUAV lays the view out: a buffer's elements from FirstElement, or
// one mip level of a 2D texture. The runtime validated the description.
func (d *Device) createUAV(a *ddi.CreateViewArgs, h uint32) error {
	if err := d.injectedErr("CreateUnorderedAccessView"); err != nil {
		return err
	}
	d.mu.Lock()
	r := d.res[a.Resource]
	d.mu.Unlock()
	if r == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "umd: view onto unknown resource handle %d", a.Resource)
	}
	f := a.Format
	if f == ddi.FormatUnknown {
		f = r.args.Format
	}
	u := &uavView{}
	desc := a.UAV
	switch desc.Dimension {
	case ddi.UAVDimBuffer:
		switch {
		case desc.Flags&ddi.BufferUAVRaw != 0:
			u.kind, u.stride = isa.ViewRawBuffer, 4
		case r.args.StructureByteStride != 0:
			u.kind, u.stride = isa.ViewStructured, r.args.StructureByteStride
		default:
			u.kind, u.fm = isa.ViewBuffer, gpuFormat(f)
			u.stride = uint32(u.fm.Info().Bytes)
		}
		if u.stride == 0 {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: a typed UAV of format %d: not a format this GPU writes", f)
		}
		off, n := uint64(desc.FirstElement)*uint64(u.stride), uint64(desc.NumElements)*uint64(u.stride)
		if off+n > r.size || n == 0 {
			return hresult.Errorf(hresult.E_INVALIDARG, "umd: UAV elements %d+%d of %d bytes past the buffer's %d bytes",
				desc.FirstElement, desc.NumElements, u.stride, r.size)
		}
		u.offset, u.bytes, u.elements = uint32(off), uint32(n), desc.NumElements
	default:
		if err := textureUAV(u, r, gpuFormat(f), &desc); err != nil {
			return err
		}
	}
	if desc.Flags&(ddi.BufferUAVAppend|ddi.BufferUAVCounter) != 0 {
		u.counterObj = fmt.Sprintf("%s.counter", a.Obj)
		cb := ddi.AllocateCb{Allocations: []ddi.AllocationInfo{{Size: 4, Width: 4, Height: 1, Pitch: 4, InitData: make([]byte, 4), Obj: u.counterObj}}}
		if err := d.cb.PfnAllocateCb(d.rt, &cb); err != nil {
			return err
		}
		u.counter = &resource{args: ddi.CreateResourceArgs{Dimension: ddi.DimBuffer, Width: 4, Obj: u.counterObj}, alloc: cb.Allocations[0].Allocation, size: 4, pitch: 4}
	}
	d.mu.Lock()
	d.views[h] = &view{kind: ddi.ViewUAV, res: a.Resource, format: f, gpu: u.fm, uav: u}
	d.mu.Unlock()
	return nil
}

func (d *immediateContext) CsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) { d.cs.shader = s }

func (d *immediateContext) CsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	for i, b := range bufs {
		if k := int(start) + i; k < len(d.cs.cbs) {
			d.cs.cbs[k] = b
		}
	}
}

func (d *immediateContext) CsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	for i, v := range views {
		if k := int(start) + i; k < len(d.cs.srvs) {
			d.cs.srvs[k] = v
		}
	}
}

func (d *immediateContext) CsSetSamplers(_ ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	for i, s := range samplers {
		if k := int(start) + i; k < len(d.cs.samps) {
			d.cs.samps[k] = s
		}
	}
}

// CsSetUnorderedAccessViews binds the views; an initial count other than
// NoInitialCount is written to the view's hidden counter in the stream, so
// the dispatches after it start from it.
func (d *immediateContext) CsSetUnorderedAccessViews(_ ddi.HDEVICE, start uint32, views []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	d.busy()
	d.csSetUAVs(d, start, views, counts)
}

// csSetUAVs binds views (the immediate context's handles) from start.
func (c *context) csSetUAVs(rec recorder, start uint32, views []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	for i, v := range views {
		k := int(start) + i
		if k >= len(c.cs.uavs) {
			break
		}
		c.cs.uavs[k] = v
		if i >= len(counts) || counts[i] == ddi.NoInitialCount {
			continue
		}
		if vw, _ := c.viewRes(uint32(v)); vw != nil && vw.uav != nil && vw.uav.counter != nil {
			rec.ensure(8, 1)
			var b [4]byte
			binary.LittleEndian.PutUint32(b[:], counts[i])
			c.cmd.Write(rec.ref(vw.uav.counter, true, 0), b[:])
		}
	}
}

func (d *immediateContext) Dispatch(_ ddi.HDEVICE, x, y, z uint32) {
	d.busy()
	if d.computeState(d) {
		d.cmd.Dispatch(x, y, z)
	}
}

func (d *immediateContext) DispatchIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	d.busy()
	r := d.resource(buf)
	if r == nil {
		return
	}
	if d.computeState(d) {
		d.ensure(3, 1)
		d.cmd.DispatchIndirect(d.ref(r, false, offset))
	}
}

// computeState makes room for a dispatch and sends the compute stage's
// bindings; false: no compute shader bound (the dispatch does nothing, as
// in D3D11).
func (c *context) computeState(rec recorder) bool {
	cs := &c.cs
	o := c.dev
	o.mu.Lock()
	sh := o.shaders[cs.shader]
	o.mu.Unlock()
	if sh == nil {
		return false
	}
	nsrv := 0
	for i := range cs.srvs {
		if cs.srvs[i] != 0 || cs.sent.srv[i/64]>>(i%64)&1 != 0 {
			nsrv++
		}
	}
	rec.ensure(6+len(cs.cbs)*6+nsrv*12+len(cs.samps)*15+len(cs.uavs)*(13+4)+4+8, 1+len(cs.cbs)+nsrv+2*len(cs.uavs)+1)
	b := &c.cmd
	b.SetProgram(isa.StageCS, rec.ref(sh.code, false, 0), sh.words, 0)
	for i, h := range cs.cbs {
		bit := uint16(1) << i
		if r := c.resource(h); r != nil {
			b.SetCB(isa.StageCS, uint32(i), rec.ref(r, false, 0), uint32(min(r.size, 65536)))
			cs.sent.cb |= bit
		} else if cs.sent.cb&bit != 0 {
			b.SetCB(isa.StageCS, uint32(i), isa.NullAddress, 0)
			cs.sent.cb &^= bit
		}
	}
	for i, h := range cs.srvs {
		bit := uint64(1) << (i % 64)
		sent := &cs.sent.srv[i/64]
		v, r := c.viewRes(uint32(h))
		switch {
		case v != nil && r != nil && v.srv != nil:
			c.setView(rec, isa.StageCS, i, v, r)
			*sent |= bit
		case v != nil && r != nil:
			b.SetTexStage(isa.StageCS, uint32(i), rec.ref(r, false, 0), r.args.Width, r.args.Height, r.pitch, v.gpu)
			*sent |= bit
		case *sent&bit != 0:
			b.SetTexStage(isa.StageCS, uint32(i), isa.NullAddress, 0, 0, 0, 0)
			*sent &^= bit
		}
	}
	for i, h := range cs.samps {
		o.mu.Lock()
		desc := o.samplers[h]
		o.mu.Unlock()
		bit := uint16(1) << i
		switch {
		case desc != nil:
			c.setSampler(isa.StageCS, i, desc, false)
			cs.sent.smp |= bit
		case cs.sent.smp&bit != 0:
			c.setSampler(isa.StageCS, i, &defaultSamplerDesc, false)
			cs.sent.smp &^= bit
		}
	}
	for i, h := range cs.uavs {
		bit := uint8(1) << i
		v, r := c.viewRes(uint32(h))
		if v == nil || r == nil || v.uav == nil {
			if cs.sent.uav&bit != 0 {
				b.SetUAV(uint32(i), isa.NullAddress, 0, 0, 0, 0, 0, 0, 0, isa.NullAddress)
				cs.sent.uav &^= bit
			}
			continue
		}
		u := v.uav
		counter := isa.NullAddress
		if u.counter != nil {
			counter = rec.ref(u.counter, true, 0)
		}
		b.SetUAV(uint32(i), rec.ref(r, true, u.offset), u.kind, u.fm, u.bytes, u.stride, u.elements, u.height, u.pitch, counter)
		c.sendSlices(uint32(i), u)
		cs.sent.uav |= bit
	}
	return true
}

// A deferred context records the compute stage as it records draws: its
// handles are context-local ones, each the immediate context's object
// (icHandle), and the recording assumes nothing of the GPU's compute
// bindings (csUnknown).

func (c *deferredContext) CreateUnorderedAccessView(_ ddi.HDEVICE, _ *ddi.CreateViewArgs, h ddi.HUNORDEREDACCESSVIEW, rt uint32) {
	c.report(c.open("CreateUnorderedAccessView", uint32(h), rt))
}

func (c *deferredContext) DestroyUnorderedAccessView(_ ddi.HDEVICE, h ddi.HUNORDEREDACCESSVIEW) {
	c.close(uint32(h))
}

func (c *deferredContext) CreateComputeShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateComputeShader", uint32(h), rt))
}

func (c *deferredContext) CsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("CsSetShader") {
		c.cs.shader = ddi.HSHADER(c.icHandle(uint32(s)))
	}
}

func (c *deferredContext) CsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if c.stopped("CsSetConstantBuffers") {
		return
	}
	for i, b := range bufs {
		if k := int(start) + i; k < len(c.cs.cbs) {
			c.cs.cbs[k] = ddi.HRESOURCE(c.icHandle(uint32(b)))
		}
	}
}

func (c *deferredContext) CsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if c.stopped("CsSetShaderResources") {
		return
	}
	for i, v := range views {
		if k := int(start) + i; k < len(c.cs.srvs) {
			c.cs.srvs[k] = ddi.HSHADERRESOURCEVIEW(c.icHandle(uint32(v)))
		}
	}
}

func (c *deferredContext) CsSetSamplers(_ ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	if c.stopped("CsSetSamplers") {
		return
	}
	for i, s := range samplers {
		if k := int(start) + i; k < len(c.cs.samps) {
			c.cs.samps[k] = ddi.HSAMPLER(c.icHandle(uint32(s)))
		}
	}
}

func (c *deferredContext) CsSetUnorderedAccessViews(_ ddi.HDEVICE, start uint32, views []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	if c.stopped("CsSetUnorderedAccessViews") {
		return
	}
	ic := make([]ddi.HUNORDEREDACCESSVIEW, len(views))
	for i, v := range views {
		ic[i] = ddi.HUNORDEREDACCESSVIEW(c.icHandle(uint32(v)))
	}
	c.csSetUAVs(c, start, ic, counts)
}

func (c *deferredContext) Dispatch(_ ddi.HDEVICE, x, y, z uint32) {
	if !c.stopped("Dispatch") && c.computeState(c) {
		c.cmd.Dispatch(x, y, z)
	}
}

func (c *deferredContext) DispatchIndirect(_ ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	if c.stopped("DispatchIndirect") {
		return
	}
	r := c.resource(ddi.HRESOURCE(c.icHandle(uint32(buf))))
	if r != nil && c.computeState(c) {
		c.ensure(3, 1)
		c.cmd.DispatchIndirect(c.ref(r, false, offset))
	}
}

var _ ddi.Compute = (*deferredContext)(nil)
