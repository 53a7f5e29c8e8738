package d3d11

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"slices"
)

// DeviceContext is an ID3D11DeviceContext. The immediate context is driven
// by one thread at a time (D3D11's rule); its calls go straight to the UMD.
type DeviceContext struct {
	dev  *Device
	name string     // IC, DC1, ...
	umd  ddi.Device // this context's DDI table (a deferred context has its own)
	h    ddi.HDEVICE

	deferred

	// Bindings pin their objects: a released object stays alive while bound.
	vb, ib           *Resource
	vsCB, psCB       [4]*Resource
	srv              [8]*View
	samp             [8]*State
	vs, ps           *Shader
	rtv, dsv         *View
	blend, rs, depth *State
	vbStride         uint32
	vbOffset         uint32
	topo             ddi.Topology
	vp               ddi.Viewport
	hasVP            bool

	// pfnDraw as last read from the device function table, and the
	// table's write count then (Draw reads it again when that changed).
	drawFn   func(ddi.HDEVICE, uint32, uint32)
	drawArgs string
	drawAt   uint64
}

func (c *DeviceContext) Name() string    { return c.name }
func (c *DeviceContext) Device() *Device { return c.dev }

func (c *DeviceContext) api(name, obj string) span { return c.dev.api(name, obj, c.name) }

// bind replaces a pinned binding.
func bind[T interface {
	pin()
	unpin()
	unbind()
}](c *DeviceContext, slot *T, v T, isNil func(T) bool) {
	// The new binding is pinned before the old one lets go (AddRef before
	// Release): rebinding the object already in the slot must not drop its
	// last reference.
	if !isNil(v) {
		v.pin()
	}
	if !isNil(*slot) {
		if c.isDC {
			c.dropBinding(*slot) // a deferred context's unbind destroys at once (once its handle is closed)
		} else {
			(*slot).unbind() // the immediate context's unbind may queue
		}
	}
	*slot = v
}

func nilRes(r *Resource) bool  { return r == nil }
func nilView(v *View) bool     { return v == nil }
func nilState(s *State) bool   { return s == nil }
func nilShader(s *Shader) bool { return s == nil }

// checkAll catches a call that passes an object after its final Release
// before it reaches the UMD (rule LIFE-DANGLING, seed 004). bug=LIFE-DANGLING
// lets it through.
func (c *DeviceContext) checkAll(call string, objs ...Object) error {
	if c.dev.rt.cfg.Bugs.Has(rules.LifeDangling) {
		return nil
	}
	return checkAll(call, objs...)
}

func checkAll(call string, objs ...Object) error {
	for _, o := range objs {
		if !isNil(o) && !o.Alive() {
			return hresult.Errorf(hresult.E_INVALIDARG, "%s uses %s after its final Release (rule LIFE-DANGLING)", call, o.Name())
		}
	}
	return nil
}

// simple runs an API call that maps to one DDI with no result.
//
// The DDI event names the driver handle of the first object passed, so the
// verifier can follow handles (rule LIFE-DANGLING).
func (c *DeviceContext) simple(api, ddiName, obj string, check []Object, do func()) error {
	return c.simpleArgs(api, ddiName, obj, "", check, do)
}

// simpleArgs is simple with arguments on the DDI event.
func (c *DeviceContext) simpleArgs(api, ddiName, obj, args string, check []Object, do func()) error {
	done := c.api(api, obj)
	if err := c.checkAll(api, check...); err != nil {
		done.end(err)
		return err
	}
	if c.isDC && c.failed {
		done.end(nil) // the recording was discarded; FinishCommandList will say so
		return nil
	}
	handle := ""
	for _, o := range check {
		if isNil(o) {
			continue
		}
		if h := c.local(o); handle == "" && h != 0 { // a deferred context opens handles first (rule CLS-OPEN)
			handle = handleName(h)
		}
	}
	ret := c.ddiCallArgs(ddiName, obj, handle, args)
	do()
	ret.end(nil)
	c.afterDDI()
	done.end(nil)
	return nil
}

// isNil reports a nil interface or a typed nil object pointer.
func isNil(o any) bool {
	switch v := o.(type) {
	case nil:
		return true
	case *Resource:
		return v == nil
	case *View:
		return v == nil
	case *State:
		return v == nil
	case *Shader:
		return v == nil
	case *Query:
		return v == nil
	case *CommandList:
		return v == nil
	}
	return false
}

func (c *DeviceContext) IASetVertexBuffers(slot uint32, vb *Resource, stride, offset uint32) error {
	if c.emulated {
		return c.record("IASetVertexBuffers", func(ic *DeviceContext) error { return ic.IASetVertexBuffers(slot, vb, stride, offset) }, vb)
	}
	if vb != nil && !vb.Desc.BindFlags.Has(ddi.BindVertexBuffer) {
		err := c.dev.invalid("IASetVertexBuffers", vb.name, "the buffer was not created with VERTEX_BUFFER")
		c.api("IASetVertexBuffers", vb.name).end(err)
		return err
	}
	return c.simple("IASetVertexBuffers", "IaSetVertexBuffers", objName(vb), []Object{vb}, func() {
		if slot == 0 {
			bind(c, &c.vb, vb, nilRes)
			c.vbStride, c.vbOffset = stride, offset
		}
		c.umd.IaSetVertexBuffers(c.h, slot, []ddi.HRESOURCE{c.resH(vb)}, []uint32{stride}, []uint32{offset})
	})
}

func (c *DeviceContext) IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error {
	if c.emulated {
		return c.record("IASetIndexBuffer", func(ic *DeviceContext) error { return ic.IASetIndexBuffer(ib, f, offset) }, ib)
	}
	if f != ddi.FormatR16Uint && f != ddi.FormatR32Uint {
		err := c.dev.invalid("IASetIndexBuffer", objName(ib), "index Format must be R16_UINT or R32_UINT")
		c.api("IASetIndexBuffer", objName(ib)).end(err)
		return err
	}
	return c.simple("IASetIndexBuffer", "IaSetIndexBuffer", objName(ib), []Object{ib}, func() {
		bind(c, &c.ib, ib, nilRes)
		c.umd.IaSetIndexBuffer(c.h, c.resH(ib), f, offset)
	})
}

func (c *DeviceContext) IASetPrimitiveTopology(t ddi.Topology) error {
	if c.emulated {
		return c.record("IASetPrimitiveTopology", func(ic *DeviceContext) error { return ic.IASetPrimitiveTopology(t) })
	}
	return c.simple("IASetPrimitiveTopology", "IaSetTopology", "", nil, func() { c.topo = t; c.umd.IaSetTopology(c.h, t) })
}

func (c *DeviceContext) VSSetShader(s *Shader) error {
	if c.emulated {
		return c.record("VSSetShader", func(ic *DeviceContext) error { return ic.VSSetShader(s) }, s)
	}
	return c.simple("VSSetShader", "VsSetShader", objName(s), []Object{s}, func() {
		bind(c, &c.vs, s, nilShader)
		c.umd.VsSetShader(c.h, c.shH(s))
	})
}

func (c *DeviceContext) PSSetShader(s *Shader) error {
	if c.emulated {
		return c.record("PSSetShader", func(ic *DeviceContext) error { return ic.PSSetShader(s) }, s)
	}
	return c.simple("PSSetShader", "PsSetShader", objName(s), []Object{s}, func() {
		bind(c, &c.ps, s, nilShader)
		c.umd.PsSetShader(c.h, c.shH(s))
	})
}

func (c *DeviceContext) setCB(api, ddiName string, slots *[4]*Resource, slot uint32, b *Resource, set func(uint32, []ddi.HRESOURCE)) error {
	if slot >= 4 {
		err := c.dev.invalid(api, objName(b), "slot %d is outside 0..3", slot)
		c.api(api, objName(b)).end(err)
		return err
	}
	if b != nil && !b.Desc.BindFlags.Has(ddi.BindConstantBuffer) {
		err := c.dev.invalid(api, b.name, "the buffer was not created with CONSTANT_BUFFER")
		c.api(api, b.name).end(err)
		return err
	}
	return c.simple(api, ddiName, objName(b), []Object{b}, func() {
		bind(c, &slots[slot], b, nilRes)
		set(slot, []ddi.HRESOURCE{c.resH(b)})
	})
}

func (c *DeviceContext) VSSetConstantBuffers(slot uint32, b *Resource) error {
	if c.emulated {
		return c.record("VSSetConstantBuffers", func(ic *DeviceContext) error { return ic.VSSetConstantBuffers(slot, b) }, b)
	}
	return c.setCB("VSSetConstantBuffers", "VsSetConstantBuffers", &c.vsCB, slot, b, func(s uint32, h []ddi.HRESOURCE) {
		c.umd.VsSetConstantBuffers(c.h, s, h)
	})
}

func (c *DeviceContext) PSSetConstantBuffers(slot uint32, b *Resource) error {
	if c.emulated {
		return c.record("PSSetConstantBuffers", func(ic *DeviceContext) error { return ic.PSSetConstantBuffers(slot, b) }, b)
	}
	return c.setCB("PSSetConstantBuffers", "PsSetConstantBuffers", &c.psCB, slot, b, func(s uint32, h []ddi.HRESOURCE) {
		c.umd.PsSetConstantBuffers(c.h, s, h)
	})
}

func (c *DeviceContext) PSSetShaderResources(slot uint32, v *View) error {
	if c.emulated {
		return c.record("PSSetShaderResources", func(ic *DeviceContext) error { return ic.PSSetShaderResources(slot, v) }, v)
	}
	if slot >= 8 || (v != nil && v.ViewKind != ddi.ViewSRV) {
		err := c.dev.invalid("PSSetShaderResources", objName(v), "needs a shader resource view in slot 0..7")
		c.api("PSSetShaderResources", objName(v)).end(err)
		return err
	}
	return c.simple("PSSetShaderResources", "PsSetShaderResources", objName(v), []Object{v}, func() {
		bind(c, &c.srv[slot], v, nilView)
		c.umd.PsSetShaderResources(c.h, slot, []ddi.HSHADERRESOURCEVIEW{ddi.HSHADERRESOURCEVIEW(c.viewH(v))})
	})
}

func (c *DeviceContext) PSSetSamplers(slot uint32, s *State) error {
	if c.emulated {
		return c.record("PSSetSamplers", func(ic *DeviceContext) error { return ic.PSSetSamplers(slot, s) }, s)
	}
	if slot >= 8 || (s != nil && s.Kind != "sampler") {
		err := c.dev.invalid("PSSetSamplers", objName(s), "needs a sampler state in slot 0..7")
		c.api("PSSetSamplers", objName(s)).end(err)
		return err
	}
	return c.simple("PSSetSamplers", "PsSetSamplers", objName(s), []Object{s}, func() {
		bind(c, &c.samp[slot], s, nilState)
		c.umd.PsSetSamplers(c.h, slot, []ddi.HSAMPLER{ddi.HSAMPLER(c.stH(s))})
	})
}

func (c *DeviceContext) OMSetRenderTargets(rtv, dsv *View) error {
	if c.emulated {
		return c.record("OMSetRenderTargets", func(ic *DeviceContext) error { return ic.OMSetRenderTargets(rtv, dsv) }, rtv, dsv)
	}
	if (rtv != nil && rtv.ViewKind != ddi.ViewRTV) || (dsv != nil && dsv.ViewKind != ddi.ViewDSV) {
		err := c.dev.invalid("OMSetRenderTargets", objName(rtv), "needs a render target view and optionally a depth stencil view")
		c.api("OMSetRenderTargets", objName(rtv)).end(err)
		return err
	}
	if rtv != nil && dsv != nil && (rtv.Res.Desc.Width != dsv.Res.Desc.Width || rtv.Res.Desc.Height != dsv.Res.Desc.Height) {
		err := c.dev.invalid("OMSetRenderTargets", rtv.name, "render target %dx%d and depth buffer %dx%d differ in size",
			rtv.Res.Desc.Width, rtv.Res.Desc.Height, dsv.Res.Desc.Width, dsv.Res.Desc.Height)
		c.api("OMSetRenderTargets", rtv.name).end(err)
		return err
	}
	return c.simple("OMSetRenderTargets", "SetRenderTargets", objName(rtv), []Object{rtv, dsv}, func() {
		bind(c, &c.rtv, rtv, nilView)
		bind(c, &c.dsv, dsv, nilView)
		var rtvs []ddi.HRENDERTARGETVIEW
		if rtv != nil {
			rtvs = []ddi.HRENDERTARGETVIEW{ddi.HRENDERTARGETVIEW(c.viewH(rtv))}
		}
		c.umd.SetRenderTargets(c.h, rtvs, ddi.HDEPTHSTENCILVIEW(c.viewH(dsv)))
	})
}

func (c *DeviceContext) OMSetBlendState(s *State) error {
	if c.emulated {
		return c.record("OMSetBlendState", func(ic *DeviceContext) error { return ic.OMSetBlendState(s) }, s)
	}
	return c.simple("OMSetBlendState", "SetBlendState", objName(s), []Object{s}, func() {
		bind(c, &c.blend, s, nilState)
		c.umd.SetBlendState(c.h, ddi.HBLENDSTATE(c.stH(s)), [4]float32{1, 1, 1, 1}, 0xffffffff)
	})
}

func (c *DeviceContext) OMSetDepthStencilState(s *State) error {
	if c.emulated {
		return c.record("OMSetDepthStencilState", func(ic *DeviceContext) error { return ic.OMSetDepthStencilState(s) }, s)
	}
	return c.simple("OMSetDepthStencilState", "SetDepthStencilState", objName(s), []Object{s}, func() {
		bind(c, &c.depth, s, nilState)
		c.umd.SetDepthStencilState(c.h, ddi.HDEPTHSTENCILSTATE(c.stH(s)), 0)
	})
}

func (c *DeviceContext) RSSetState(s *State) error {
	if c.emulated {
		return c.record("RSSetState", func(ic *DeviceContext) error { return ic.RSSetState(s) }, s)
	}
	return c.simple("RSSetState", "SetRasterizerState", objName(s), []Object{s}, func() {
		bind(c, &c.rs, s, nilState)
		c.umd.SetRasterizerState(c.h, ddi.HRASTERIZERSTATE(c.stH(s)))
	})
}

func (c *DeviceContext) RSSetViewports(vp ddi.Viewport) error {
	if c.emulated {
		return c.record("RSSetViewports", func(ic *DeviceContext) error { return ic.RSSetViewports(vp) })
	}
	return c.simple("RSSetViewports", "SetViewports", "", nil, func() {
		c.vp, c.hasVP = vp, true
		c.umd.SetViewports(c.h, []ddi.Viewport{vp})
	})
}

func (c *DeviceContext) ClearRenderTargetView(v *View, rgba [4]float32) error {
	if c.emulated {
		return c.record("ClearRenderTargetView", func(ic *DeviceContext) error { return ic.ClearRenderTargetView(v, rgba) }, v)
	}
	if v != nil && v.ViewKind != ddi.ViewRTV {
		err := c.dev.invalid("ClearRenderTargetView", v.name, "not a render target view")
		c.api("ClearRenderTargetView", v.name).end(err)
		return err
	}
	return c.simple("ClearRenderTargetView", "ClearRenderTargetView", objName(v), []Object{v}, func() {
		c.umd.ClearRenderTargetView(c.h, ddi.HRENDERTARGETVIEW(c.viewH(v)), rgba)
	})
}

func (c *DeviceContext) ClearDepthStencilView(v *View, depth float32) error {
	if c.emulated {
		return c.record("ClearDepthStencilView", func(ic *DeviceContext) error { return ic.ClearDepthStencilView(v, depth) }, v)
	}
	if v != nil && v.ViewKind != ddi.ViewDSV {
		err := c.dev.invalid("ClearDepthStencilView", v.name, "not a depth stencil view")
		c.api("ClearDepthStencilView", v.name).end(err)
		return err
	}
	return c.simple("ClearDepthStencilView", "ClearDepthStencilView", objName(v), []Object{v}, func() {
		c.umd.ClearDepthStencilView(c.h, ddi.HDEPTHSTENCILVIEW(c.viewH(v)), ddi.ClearDepth, depth, 0)
	})
}

func (c *DeviceContext) Draw(count, start uint32) error {
	if c.emulated {
		return c.record("Draw", func(ic *DeviceContext) error { return ic.Draw(count, start) })
	}
	if c.dev.debug && (c.vs == nil || c.ps == nil) {
		c.dev.message("Draw", "", "D3D11 WARNING: Draw with no vertex or pixel shader bound draws nothing")
	}
	// The immediate context calls Draw through the device function table,
	// whose entry the driver may hot-swap (rule FT-TABLE); the DDI event
	// names the function when it is not the one CreateDevice put there.
	draw, args := c.umd.Draw, ""
	if !c.isDC {
		if w := c.dev.table.Writes(); c.drawFn == nil || w != c.drawAt {
			c.drawFn, c.drawArgs, c.drawAt = c.umd.Draw, "", w
			e := c.dev.table.Get("pfnDraw")
			if f, ok := e.Fn.(func(ddi.HDEVICE, uint32, uint32)); ok {
				c.drawFn = f
			}
			if e.Impl != "" && e.Impl != "Draw" {
				c.drawArgs = "impl=" + e.Impl
			}
		}
		draw, args = c.drawFn, c.drawArgs
	}
	return c.simpleArgs("Draw", "Draw", "", args, nil, func() { draw(c.h, count, start) })
}

func (c *DeviceContext) DrawIndexed(count, start uint32, base int32) error {
	if c.emulated {
		return c.record("DrawIndexed", func(ic *DeviceContext) error { return ic.DrawIndexed(count, start, base) })
	}
	if c.ib == nil {
		err := c.dev.invalid("DrawIndexed", "", "no index buffer is bound")
		c.api("DrawIndexed", "").end(err)
		return err
	}
	return c.simple("DrawIndexed", "DrawIndexed", "", nil, func() { c.umd.DrawIndexed(c.h, count, start, base) })
}

func (c *DeviceContext) CopyResource(dst, src *Resource) error {
	if c.emulated {
		return c.record("CopyResource", func(ic *DeviceContext) error { return ic.CopyResource(dst, src) }, dst, src)
	}
	done := c.api("CopyResource", objName(dst))
	if err := c.checkAll("CopyResource", dst, src); err != nil {
		done.end(err)
		return err
	}
	if dst == src || dst.Kind != src.Kind || dst.Desc.Width != src.Desc.Width || dst.Desc.Height != src.Desc.Height || dst.Desc.Format != src.Desc.Format {
		err := c.dev.invalid("CopyResource", dst.name, "source %s and destination must be different resources of the same kind, size and format", src.name)
		done.end(err)
		return err
	}
	if dst.Desc.Usage == ddi.UsageImmutable {
		err := c.dev.invalid("CopyResource", dst.name, "an IMMUTABLE resource cannot be a copy destination")
		done.end(err)
		return err
	}
	hd, hs := c.resH(dst), c.resH(src)
	ret := c.ddiCallArgs("ResourceCopy", dst.name, handleName(uint32(hd)), "src="+handleName(uint32(hs)))
	c.umd.ResourceCopy(c.h, hd, hs)
	ret.end(nil)
	c.afterDDI()
	done.end(nil)
	return nil
}

func (c *DeviceContext) UpdateSubresource(dst *Resource, data []byte) error {
	if c.emulated {
		data = append([]byte(nil), data...)
		return c.record("UpdateSubresource", func(ic *DeviceContext) error { return ic.UpdateSubresource(dst, data) }, dst)
	}
	done := c.api("UpdateSubresource", objName(dst))
	if err := c.checkAll("UpdateSubresource", dst); err != nil {
		done.end(err)
		return err
	}
	if dst.Desc.Usage != ddi.UsageDefault {
		err := c.dev.invalid("UpdateSubresource", dst.name, "only DEFAULT resources can be updated with UpdateSubresource")
		done.end(err)
		return err
	}
	hd := c.resH(dst)
	ret := c.ddiCall("ResourceUpdateSubresourceUP", dst.name, handleName(uint32(hd)))
	c.umd.ResourceUpdateSubresourceUP(c.h, hd, data)
	ret.end(nil)
	c.afterDDI()
	done.end(nil)
	return nil
}

// Map checks D3D11's usage rules (rule MAP-HAZARD: IMMUTABLE never, STAGING
// and DYNAMIC each in their own ways) and hands the rest to the UMD, which
// waits for or renames around pending GPU work (seed 004).
func (c *DeviceContext) Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) (data []byte, err error) {
	done := c.api("Map", objName(r))
	defer func() { done.end(err) }()
	if err := c.checkAll("Map", r); err != nil {
		return nil, err
	}
	if err := c.dev.removedHR(); err != nil {
		return nil, err
	}
	if r.mapped {
		return nil, c.dev.invalid("Map", r.name, "the resource is already mapped")
	}
	if c.isDC {
		// D3D11: a deferred context maps only DYNAMIC resources, with
		// WRITE_DISCARD; the command list carries the new contents.
		if r.Desc.Usage != ddi.UsageDynamic || t != ddi.MapWriteDiscard {
			return nil, c.dev.invalid("Map", r.name, "a deferred context maps only DYNAMIC resources with WRITE_DISCARD")
		}
		if c.emulated {
			n := r.Desc.Width
			if r.Kind == KindTexture2D {
				n = r.Desc.Width * r.Desc.Height * ddi.FormatSize(r.Desc.Format)
			}
			data := make([]byte, n)
			r.mapped, r.mapCtx, r.data = true, c, data
			c.mappedHere = append(c.mappedHere, r)
			// Recorded where it happens; the bytes are what the application
			// has written by the time the list is replayed.
			err := c.record("Map", func(ic *DeviceContext) error {
				m, err := ic.Map(r, ddi.MapWriteDiscard, 0)
				if err != nil {
					return err
				}
				copy(m, data)
				return ic.Unmap(r)
			}, r)
			return data, err
		}
	}
	cpu := r.Desc.CPUAccessFlags
	switch r.Desc.Usage {
	case ddi.UsageImmutable:
		return nil, c.dev.invalid("Map", r.name, "an IMMUTABLE resource can never be mapped")
	case ddi.UsageDefault:
		return nil, c.dev.invalid("Map", r.name, "a DEFAULT resource cannot be mapped (no CPUAccessFlags)")
	case ddi.UsageDynamic:
		if t != ddi.MapWriteDiscard && t != ddi.MapWriteNoOverwrite {
			return nil, c.dev.invalid("Map", r.name, "a DYNAMIC resource maps only with WRITE_DISCARD or WRITE_NO_OVERWRITE")
		}
	case ddi.UsageStaging:
		if t == ddi.MapWriteDiscard || t == ddi.MapWriteNoOverwrite {
			return nil, c.dev.invalid("Map", r.name, "a STAGING resource maps with READ, WRITE or READ_WRITE")
		}
		if (t == ddi.MapRead || t == ddi.MapReadWrite) && !cpu.Has(ddi.CPUAccessRead) {
			return nil, c.dev.invalid("Map", r.name, "mapping for read needs CPUAccessFlags=READ")
		}
		if (t == ddi.MapWrite || t == ddi.MapReadWrite) && !cpu.Has(ddi.CPUAccessWrite) {
			return nil, c.dev.invalid("Map", r.name, "mapping for write needs CPUAccessFlags=WRITE")
		}
	}
	hr := c.resH(r)
	ret := c.ddiCallArgs("ResourceMap", r.name, handleName(uint32(hr)), mapArgs(t, flags))
	m, err := c.umd.ResourceMap(c.h, hr, t, flags)
	ret.end(err)
	if err == nil && c.isDC {
		c.mappedHere = append(c.mappedHere, r)
	}
	if err != nil {
		if e := c.dev.removedHR(); e != nil {
			return nil, e
		}
		return nil, err
	}
	r.mapped, r.mapCtx, r.data = true, c, m.Data
	return m.Data, nil
}

// Write copies data into a mapped resource (the scenario's RES.Write).
func (r *Resource) Write(data []byte, offset uint32) error {
	if !r.mapped {
		return r.dev.invalid("Write", r.name, "the resource is not mapped")
	}
	if uint64(offset)+uint64(len(data)) > uint64(len(r.data)) {
		return r.dev.invalid("Write", r.name, "%d bytes at offset %d overflow the mapped %d bytes", len(data), offset, len(r.data))
	}
	copy(r.data[offset:], data)
	return nil
}

// Mapped returns the mapped bytes (nil when not mapped).
func (r *Resource) Mapped() []byte {
	if !r.mapped {
		return nil
	}
	return r.data
}

func (c *DeviceContext) Unmap(r *Resource) error {
	done := c.api("Unmap", objName(r))
	if err := c.checkAll("Unmap", r); err != nil {
		done.end(err)
		return err
	}
	if !r.mapped || r.mapCtx != c {
		err := c.dev.invalid("Unmap", r.name, "the resource is not mapped on %s", c.name)
		done.end(err)
		return err
	}
	c.unmap(r)
	done.end(nil)
	return nil
}

// unmap ends a map on this context (also FinishCommandList's implicit
// ResourceUnmap, rule CL-IMPLICIT).
func (c *DeviceContext) unmap(r *Resource) {
	if i := slices.Index(c.mappedHere, r); i >= 0 {
		c.mappedHere = slices.Delete(c.mappedHere, i, i+1)
	}
	if c.emulated {
		r.mapped, r.mapCtx, r.data = false, nil, nil // the Map was recorded with its bytes
		return
	}
	hr := c.resH(r)
	ret := c.ddiCall("ResourceUnmap", r.name, handleName(uint32(hr)))
	c.umd.ResourceUnmap(c.h, hr)
	ret.end(nil)
	r.mapped, r.mapCtx, r.data = false, nil, nil
}

func (c *DeviceContext) Begin(q *Query) error {
	if c.emulated {
		return c.record("Begin", func(ic *DeviceContext) error { return ic.Begin(q) }, q)
	}
	if q != nil && q.Type == ddi.QueryEvent {
		err := c.dev.invalid("Begin", q.name, "an EVENT query has no Begin")
		c.api("Begin", q.name).end(err)
		return err
	}
	return c.simple("Begin", "QueryBegin", objName(q), []Object{q}, func() {
		q.began = true
		if c.isDC {
			c.begun = append(c.begun, q)
		}
		c.umd.QueryBegin(c.h, c.qH(q))
	})
}

func (c *DeviceContext) End(q *Query) error {
	if c.emulated {
		return c.record("End", func(ic *DeviceContext) error { return ic.End(q) }, q)
	}
	if q != nil && q.Type == ddi.QueryOcclusion && !q.began {
		err := c.dev.invalid("End", q.name, "End without Begin on an OCCLUSION query")
		c.api("End", q.name).end(err)
		return err
	}
	return c.simple("End", "QueryEnd", objName(q), []Object{q}, func() {
		q.began, q.issued = false, true
		if i := slices.Index(c.begun, q); i >= 0 {
			c.begun = slices.Delete(c.begun, i, i+1)
		}
		c.umd.QueryEnd(c.h, c.qH(q))
	})
}

// GetData returns S_FALSE while the GPU has not reached the query's End.
func (c *DeviceContext) GetData(q *Query) (v uint64, hr hresult.HRESULT, err error) {
	done := c.api("GetData", objName(q))
	defer func() {
		if err == nil && hr != hresult.S_OK {
			done.end(hr)
		} else {
			done.end(err)
		}
	}()
	if err := c.checkAll("GetData", q); err != nil {
		return 0, hresult.Of(err), err
	}
	if err := c.dev.removedHR(); err != nil {
		return 0, hresult.DXGI_ERROR_DEVICE_REMOVED, err
	}
	if c.isDC {
		err := c.dev.invalid("GetData", q.name, "GetData is not available on a deferred context")
		return 0, hresult.E_INVALIDARG, err
	}
	if !q.issued {
		err := c.dev.invalid("GetData", q.name, "the query was never ended")
		return 0, hresult.E_INVALIDARG, err
	}
	ret := c.ddiCall("QueryGetData", q.name, handleName(uint32(q.h)))
	v, hr = c.umd.QueryGetData(c.h, q.h, 0)
	ret.end(nil)
	if hr.Failed() {
		return 0, hr, hr
	}
	return v, hr, nil
}

// Flush drains the runtime's destruction queue and submits the command
// buffer (seed 003 step 8 -> pfnRenderCb). It returns nothing in D3D11: on
// a removed device it only destroys what the runtime queued.
func (c *DeviceContext) Flush() error {
	done := c.api("Flush", "")
	if c.isDC {
		err := c.dev.invalid("Flush", c.name, "Flush is an immediate-context call")
		done.end(err)
		return err
	}
	if !c.dev.rt.cfg.Bugs.Has(rules.DDSync) { // the bug: only amortized processing drains the runtime's queue
		// Flush is the official way to destroy synchronously (seed 000:
		// Release; ClearState; Flush): the runtime first destroys what it
		// queued -- what ClearState unbound -- so that the driver's
		// Flush, which processes its own deferred-destruction queue even
		// with nothing to submit, deallocates it too (rules DD-SYNC,
		// DD-FLUSH).
		c.dev.drainDestroyQueue("IC", "Flush")
	}
	if c.dev.Removed() != nil {
		done.end(nil)
		return nil
	}
	ret := c.ddiCall("Flush", "", "")
	c.umd.Flush(c.h)
	ret.end(nil)
	done.end(nil)
	return nil
}

// ClearState unbinds everything, releasing the context's pins.
func (c *DeviceContext) ClearState() error {
	if c.emulated {
		return c.record("ClearState", func(ic *DeviceContext) error { return ic.ClearState() })
	}
	done := c.api("ClearState", "")
	if cfg := c.dev.rt.cfg; !cfg.FreeThreaded && !cfg.Bugs.Has(rules.FTCap) {
		// ClearState's DDIs are serialised like any other (rule FT-CAP).
		c.dev.serialise()
		defer c.dev.unserialise()
	}
	steps := []func(){
		func() {
			bind(c, &c.vb, nil, nilRes)
			c.umd.IaSetVertexBuffers(c.h, 0, []ddi.HRESOURCE{0}, []uint32{0}, []uint32{0})
		},
		func() { bind(c, &c.ib, nil, nilRes); c.umd.IaSetIndexBuffer(c.h, 0, ddi.FormatUnknown, 0) },
		func() { bind(c, &c.vs, nil, nilShader); c.umd.VsSetShader(c.h, 0) },
		func() { bind(c, &c.ps, nil, nilShader); c.umd.PsSetShader(c.h, 0) },
		func() {
			for i := range c.vsCB {
				bind(c, &c.vsCB[i], nil, nilRes)
				bind(c, &c.psCB[i], nil, nilRes)
			}
			c.umd.VsSetConstantBuffers(c.h, 0, make([]ddi.HRESOURCE, 4))
			c.umd.PsSetConstantBuffers(c.h, 0, make([]ddi.HRESOURCE, 4))
		},
		func() {
			for i := range c.srv {
				bind(c, &c.srv[i], nil, nilView)
				bind(c, &c.samp[i], nil, nilState)
			}
			c.umd.PsSetShaderResources(c.h, 0, make([]ddi.HSHADERRESOURCEVIEW, 8))
			c.umd.PsSetSamplers(c.h, 0, make([]ddi.HSAMPLER, 8))
		},
		func() {
			bind(c, &c.rtv, nil, nilView)
			bind(c, &c.dsv, nil, nilView)
			c.umd.SetRenderTargets(c.h, nil, 0)
		},
		func() {
			bind(c, &c.blend, nil, nilState)
			bind(c, &c.rs, nil, nilState)
			bind(c, &c.depth, nil, nilState)
			c.umd.SetBlendState(c.h, 0, [4]float32{1, 1, 1, 1}, 0xffffffff)
			c.umd.SetRasterizerState(c.h, 0)
			c.umd.SetDepthStencilState(c.h, 0, 0)
			c.umd.IaSetTopology(c.h, ddi.TopologyUndefined)
		},
	}
	for _, s := range steps {
		s()
	}
	c.topo, c.hasVP = ddi.TopologyUndefined, false
	done.end(nil)
	if !c.isDC && c.dev.refs.Load() == 0 {
		// The application released the device before clearing what it
		// still bound: the unbound objects go now, and the device with
		// them (maybeDestroy).
		c.dev.maybeDestroy()
	}
	return nil
}

func objName(o interface{ Name() string }) string {
	if isNil(o) {
		return ""
	}
	return o.Name()
}

var mapTypeNames = map[ddi.MapType]string{ddi.MapRead: "READ", ddi.MapWrite: "WRITE", ddi.MapReadWrite: "READ_WRITE",
	ddi.MapWriteDiscard: "WRITE_DISCARD", ddi.MapWriteNoOverwrite: "WRITE_NO_OVERWRITE"}

func mapArgs(t ddi.MapType, flags ddi.MapFlag) string {
	s := "type=" + mapTypeNames[t]
	if flags&ddi.MapFlagDoNotWait != 0 {
		s += " flags=DO_NOT_WAIT"
	}
	return s
}
