package d3d11

import (
	"d3dsim/core/ddi"
	"d3dsim/core/rules"
)

// driverContext is the part the immediate context and a deferred context of
// a driver with command lists share: each API call is validated, then maps
// onto its DDI on the context's own table, with the context's handles
// (local).
type driverContext struct{ *DeviceContext }

// simple runs an API call that maps to one DDI with no result.
//
// The DDI event names the driver handle of the first object passed, so the
// verifier can follow handles (rule LIFE-DANGLING).
func (c driverContext) simple(api, ddiName, obj string, check []Object, do func()) error {
	return c.simpleArgs(api, ddiName, obj, "", check, do)
}

// simpleArgs is simple with arguments on the DDI event.
func (c driverContext) simpleArgs(api, ddiName, obj, args string, check []Object, do func()) error {
	done := c.api(api, obj)
	if err := c.checkAll(api, check...); err != nil {
		done.end(err)
		return err
	}
	if c.discarding() {
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

// invalidCall fails an API call with E_INVALIDARG before it reaches the
// driver.
func (c driverContext) invalidCall(call, obj, format string, args ...any) error {
	err := c.dev.invalid(call, obj, format, args...)
	c.api(call, obj).end(err)
	return err
}

func (c driverContext) IASetVertexBuffers(slot uint32, vb *Resource, stride, offset uint32) error {
	if vb != nil && !vb.Desc.BindFlags.Has(ddi.BindVertexBuffer) {
		return c.invalidCall("IASetVertexBuffers", vb.name, "the buffer was not created with VERTEX_BUFFER")
	}
	return c.simple("IASetVertexBuffers", "IaSetVertexBuffers", objName(vb), []Object{vb}, func() {
		if slot == 0 {
			bind(c.DeviceContext, &c.vb, vb, nilRes)
			c.vbStride, c.vbOffset = stride, offset
		}
		c.umd.IaSetVertexBuffers(c.h, slot, []ddi.HRESOURCE{c.resH(vb)}, []uint32{stride}, []uint32{offset})
	})
}

func (c driverContext) IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error {
	if f != ddi.FormatR16Uint && f != ddi.FormatR32Uint {
		return c.invalidCall("IASetIndexBuffer", objName(ib), "index Format must be R16_UINT or R32_UINT")
	}
	return c.simple("IASetIndexBuffer", "IaSetIndexBuffer", objName(ib), []Object{ib}, func() {
		bind(c.DeviceContext, &c.ib, ib, nilRes)
		c.umd.IaSetIndexBuffer(c.h, c.resH(ib), f, offset)
	})
}

func (c driverContext) IASetPrimitiveTopology(t ddi.Topology) error {
	return c.simple("IASetPrimitiveTopology", "IaSetTopology", "", nil, func() { c.topo = t; c.umd.IaSetTopology(c.h, t) })
}

func (c driverContext) VSSetShader(s *Shader) error {
	return c.simple("VSSetShader", "VsSetShader", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.vs, s, nilShader)
		c.umd.VsSetShader(c.h, c.shH(s))
	})
}

func (c driverContext) PSSetShader(s *Shader) error {
	return c.simple("PSSetShader", "PsSetShader", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.ps, s, nilShader)
		c.umd.PsSetShader(c.h, c.shH(s))
	})
}

func (c driverContext) setCB(api, ddiName string, slots *[4]*Resource, slot uint32, b *Resource, set func(uint32, []ddi.HRESOURCE)) error {
	if slot >= 4 {
		return c.invalidCall(api, objName(b), "slot %d is outside 0..3", slot)
	}
	if b != nil && !b.Desc.BindFlags.Has(ddi.BindConstantBuffer) {
		return c.invalidCall(api, b.name, "the buffer was not created with CONSTANT_BUFFER")
	}
	return c.simple(api, ddiName, objName(b), []Object{b}, func() {
		bind(c.DeviceContext, &slots[slot], b, nilRes)
		set(slot, []ddi.HRESOURCE{c.resH(b)})
	})
}

func (c driverContext) VSSetConstantBuffers(slot uint32, b *Resource) error {
	return c.setCB("VSSetConstantBuffers", "VsSetConstantBuffers", &c.vsCB, slot, b, func(s uint32, h []ddi.HRESOURCE) {
		c.umd.VsSetConstantBuffers(c.h, s, h)
	})
}

func (c driverContext) PSSetConstantBuffers(slot uint32, b *Resource) error {
	return c.setCB("PSSetConstantBuffers", "PsSetConstantBuffers", &c.psCB, slot, b, func(s uint32, h []ddi.HRESOURCE) {
		c.umd.PsSetConstantBuffers(c.h, s, h)
	})
}

func (c driverContext) PSSetShaderResources(slot uint32, v *View) error {
	if slot >= 8 || (v != nil && v.ViewKind != ddi.ViewSRV) {
		return c.invalidCall("PSSetShaderResources", objName(v), "needs a shader resource view in slot 0..7")
	}
	return c.simple("PSSetShaderResources", "PsSetShaderResources", objName(v), []Object{v}, func() {
		bind(c.DeviceContext, &c.srv[slot], v, nilView)
		c.umd.PsSetShaderResources(c.h, slot, []ddi.HSHADERRESOURCEVIEW{ddi.HSHADERRESOURCEVIEW(c.viewH(v))})
	})
}

func (c driverContext) PSSetSamplers(slot uint32, s *State) error {
	if slot >= 8 || (s != nil && s.Kind != "sampler") {
		return c.invalidCall("PSSetSamplers", objName(s), "needs a sampler state in slot 0..7")
	}
	return c.simple("PSSetSamplers", "PsSetSamplers", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.samp[slot], s, nilState)
		c.umd.PsSetSamplers(c.h, slot, []ddi.HSAMPLER{ddi.HSAMPLER(c.stH(s))})
	})
}

func (c driverContext) OMSetRenderTargets(rtv, dsv *View) error {
	if (rtv != nil && rtv.ViewKind != ddi.ViewRTV) || (dsv != nil && dsv.ViewKind != ddi.ViewDSV) {
		return c.invalidCall("OMSetRenderTargets", objName(rtv), "needs a render target view and optionally a depth stencil view")
	}
	if rtv != nil && dsv != nil && (rtv.Res.Desc.Width != dsv.Res.Desc.Width || rtv.Res.Desc.Height != dsv.Res.Desc.Height) {
		return c.invalidCall("OMSetRenderTargets", rtv.name, "render target %dx%d and depth buffer %dx%d differ in size",
			rtv.Res.Desc.Width, rtv.Res.Desc.Height, dsv.Res.Desc.Width, dsv.Res.Desc.Height)
	}
	return c.simple("OMSetRenderTargets", "SetRenderTargets", objName(rtv), []Object{rtv, dsv}, func() {
		bind(c.DeviceContext, &c.rtv, rtv, nilView)
		bind(c.DeviceContext, &c.dsv, dsv, nilView)
		var rtvs []ddi.HRENDERTARGETVIEW
		if rtv != nil {
			rtvs = []ddi.HRENDERTARGETVIEW{ddi.HRENDERTARGETVIEW(c.viewH(rtv))}
		}
		c.umd.SetRenderTargets(c.h, rtvs, ddi.HDEPTHSTENCILVIEW(c.viewH(dsv)))
	})
}

func (c driverContext) OMSetBlendState(s *State) error {
	return c.simple("OMSetBlendState", "SetBlendState", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.blend, s, nilState)
		c.umd.SetBlendState(c.h, ddi.HBLENDSTATE(c.stH(s)), [4]float32{1, 1, 1, 1}, 0xffffffff)
	})
}

func (c driverContext) OMSetDepthStencilState(s *State) error {
	return c.simple("OMSetDepthStencilState", "SetDepthStencilState", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.depth, s, nilState)
		c.umd.SetDepthStencilState(c.h, ddi.HDEPTHSTENCILSTATE(c.stH(s)), 0)
	})
}

func (c driverContext) RSSetState(s *State) error {
	return c.simple("RSSetState", "SetRasterizerState", objName(s), []Object{s}, func() {
		bind(c.DeviceContext, &c.rs, s, nilState)
		c.umd.SetRasterizerState(c.h, ddi.HRASTERIZERSTATE(c.stH(s)))
	})
}

func (c driverContext) RSSetViewports(vp ddi.Viewport) error {
	return c.simple("RSSetViewports", "SetViewports", "", nil, func() {
		c.vp, c.hasVP = vp, true
		c.umd.SetViewports(c.h, []ddi.Viewport{vp})
	})
}

func (c driverContext) ClearRenderTargetView(v *View, rgba [4]float32) error {
	if v != nil && v.ViewKind != ddi.ViewRTV {
		return c.invalidCall("ClearRenderTargetView", v.name, "not a render target view")
	}
	return c.simple("ClearRenderTargetView", "ClearRenderTargetView", objName(v), []Object{v}, func() {
		c.umd.ClearRenderTargetView(c.h, ddi.HRENDERTARGETVIEW(c.viewH(v)), rgba)
	})
}

func (c driverContext) ClearDepthStencilView(v *View, depth float32) error {
	if v != nil && v.ViewKind != ddi.ViewDSV {
		return c.invalidCall("ClearDepthStencilView", v.name, "not a depth stencil view")
	}
	return c.simple("ClearDepthStencilView", "ClearDepthStencilView", objName(v), []Object{v}, func() {
		c.umd.ClearDepthStencilView(c.h, ddi.HDEPTHSTENCILVIEW(c.viewH(v)), ddi.ClearDepth, depth, 0)
	})
}

// Draw calls the context table's Draw (the immediate context overrides it
// to go through the device function table).
func (c driverContext) Draw(count, start uint32) error {
	return c.draw(c.umd.Draw, "", count, start)
}

func (c driverContext) draw(fn func(ddi.HDEVICE, uint32, uint32), args string, count, start uint32) error {
	if c.dev.debug && (c.vs == nil || c.ps == nil) {
		c.dev.message("Draw", "", "D3D11 WARNING: Draw with no vertex or pixel shader bound draws nothing")
	}
	return c.simpleArgs("Draw", "Draw", "", args, nil, func() { fn(c.h, count, start) })
}

func (c driverContext) DrawIndexed(count, start uint32, base int32) error {
	if c.ib == nil {
		return c.invalidCall("DrawIndexed", "", "no index buffer is bound")
	}
	return c.simple("DrawIndexed", "DrawIndexed", "", nil, func() { c.umd.DrawIndexed(c.h, count, start, base) })
}

func (c driverContext) CopyResource(dst, src *Resource) error {
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

func (c driverContext) UpdateSubresource(dst *Resource, data []byte) error {
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
// waits for or renames around pending GPU work.
func (c driverContext) Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) (data []byte, err error) {
	done := c.api("Map", objName(r))
	defer func() { done.end(err) }()
	if err := c.mapPrologue(r, t); err != nil {
		return nil, err
	}
	if err := mapUsage(c.dev, r, t); err != nil {
		return nil, err
	}
	hr := c.resH(r)
	ret := c.ddiCallArgs("ResourceMap", r.name, handleName(uint32(hr)), mapArgs(t, flags))
	m, err := c.umd.ResourceMap(c.h, hr, t, flags)
	ret.end(err)
	if err == nil {
		c.mapped(r)
	}
	if err != nil {
		if e := c.dev.removedHR(); e != nil {
			return nil, e
		}
		return nil, err
	}
	r.mapped, r.mapCtx, r.data = true, c.DeviceContext, m.Data
	return m.Data, nil
}

// mapPrologue is the validation every kind of context does first in Map.
func (c *DeviceContext) mapPrologue(r *Resource, t ddi.MapType) error {
	if err := c.checkAll("Map", r); err != nil {
		return err
	}
	if err := c.dev.removedHR(); err != nil {
		return err
	}
	if r.mapped {
		return c.dev.invalid("Map", r.name, "the resource is already mapped")
	}
	return c.mapRule(r, t)
}

// mapUsage is D3D11's rule tying a resource's usage and CPU access to the
// map types it allows.
func mapUsage(d *Device, r *Resource, t ddi.MapType) error {
	cpu := r.Desc.CPUAccessFlags
	switch r.Desc.Usage {
	case ddi.UsageImmutable:
		return d.invalid("Map", r.name, "an IMMUTABLE resource can never be mapped")
	case ddi.UsageDefault:
		return d.invalid("Map", r.name, "a DEFAULT resource cannot be mapped (no CPUAccessFlags)")
	case ddi.UsageDynamic:
		if t != ddi.MapWriteDiscard && t != ddi.MapWriteNoOverwrite {
			return d.invalid("Map", r.name, "a DYNAMIC resource maps only with WRITE_DISCARD or WRITE_NO_OVERWRITE")
		}
	case ddi.UsageStaging:
		if t == ddi.MapWriteDiscard || t == ddi.MapWriteNoOverwrite {
			return d.invalid("Map", r.name, "a STAGING resource maps with READ, WRITE or READ_WRITE")
		}
		if (t == ddi.MapRead || t == ddi.MapReadWrite) && !cpu.Has(ddi.CPUAccessRead) {
			return d.invalid("Map", r.name, "mapping for read needs CPUAccessFlags=READ")
		}
		if (t == ddi.MapWrite || t == ddi.MapReadWrite) && !cpu.Has(ddi.CPUAccessWrite) {
			return d.invalid("Map", r.name, "mapping for write needs CPUAccessFlags=WRITE")
		}
	}
	return nil
}

func (c driverContext) Begin(q *Query) error {
	if q != nil && q.Type == ddi.QueryEvent {
		return c.invalidCall("Begin", q.name, "an EVENT query has no Begin")
	}
	return c.simple("Begin", "QueryBegin", objName(q), []Object{q}, func() {
		q.began = true
		c.queryBegun(q)
		c.umd.QueryBegin(c.h, c.qH(q))
	})
}

func (c driverContext) End(q *Query) error {
	if q != nil && q.Type == ddi.QueryOcclusion && !q.began {
		return c.invalidCall("End", q.name, "End without Begin on an OCCLUSION query")
	}
	return c.simple("End", "QueryEnd", objName(q), []Object{q}, func() {
		q.began, q.issued = false, true
		c.queryEnded(q)
		c.umd.QueryEnd(c.h, c.qH(q))
	})
}

// ClearState unbinds everything, releasing the context's pins.
func (c driverContext) ClearState() error { return c.clearState(nil) }

// clearState is ClearState; then, if not nil, runs before the DDI lock is
// released.
func (c driverContext) clearState(then func()) error {
	done := c.api("ClearState", "")
	if cfg := c.dev.rt.cfg; !cfg.FreeThreaded && !cfg.Bugs.Has(rules.FTCap) {
		// ClearState's DDIs are serialised like any other (rule FT-CAP).
		c.dev.serialise()
		defer c.dev.unserialise()
	}
	cc := c.DeviceContext
	bind(cc, &c.vb, nil, nilRes)
	c.umd.IaSetVertexBuffers(c.h, 0, []ddi.HRESOURCE{0}, []uint32{0}, []uint32{0})
	bind(cc, &c.ib, nil, nilRes)
	c.umd.IaSetIndexBuffer(c.h, 0, ddi.FormatUnknown, 0)
	bind(cc, &c.vs, nil, nilShader)
	c.umd.VsSetShader(c.h, 0)
	bind(cc, &c.ps, nil, nilShader)
	c.umd.PsSetShader(c.h, 0)
	for i := range c.vsCB {
		bind(cc, &c.vsCB[i], nil, nilRes)
		bind(cc, &c.psCB[i], nil, nilRes)
	}
	c.umd.VsSetConstantBuffers(c.h, 0, make([]ddi.HRESOURCE, 4))
	c.umd.PsSetConstantBuffers(c.h, 0, make([]ddi.HRESOURCE, 4))
	for i := range c.srv {
		bind(cc, &c.srv[i], nil, nilView)
		bind(cc, &c.samp[i], nil, nilState)
	}
	c.umd.PsSetShaderResources(c.h, 0, make([]ddi.HSHADERRESOURCEVIEW, 8))
	c.umd.PsSetSamplers(c.h, 0, make([]ddi.HSAMPLER, 8))
	bind(cc, &c.rtv, nil, nilView)
	bind(cc, &c.dsv, nil, nilView)
	c.umd.SetRenderTargets(c.h, nil, 0)
	bind(cc, &c.blend, nil, nilState)
	bind(cc, &c.rs, nil, nilState)
	bind(cc, &c.depth, nil, nilState)
	c.umd.SetBlendState(c.h, 0, [4]float32{1, 1, 1, 1}, 0xffffffff)
	c.umd.SetRasterizerState(c.h, 0)
	c.umd.SetDepthStencilState(c.h, 0, 0)
	c.umd.IaSetTopology(c.h, ddi.TopologyUndefined)
	c.topo, c.hasVP = ddi.TopologyUndefined, false
	done.end(nil)
	if then != nil {
		then()
	}
	return nil
}
