package d3d11

import (
	"errors"
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
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
func (c driverContext) simple(api, obj string, check []Object, do func(w ddiCall)) error {
	var done span // (not returned by value: Device.apiTo)
	w, ok, err := c.simpleEnter(&done, api, obj, check)
	if !ok {
		return err
	}
	do(w)
	c.afterDDI()
	done.finish(nil)
	return nil
}

// simpleEnter is simple up to its DDI: the API call's span opened in done,
// the objects checked, and the DDI call labelled; !ok when the API call
// ended there (with err). A caller that makes the DDI call itself (Draw:
// no closure built a call) then runs afterDDI and ends done.
func (c driverContext) simpleEnter(done *span, api, obj string, check []Object) (w ddiCall, ok bool, err error) {
	c.apiTo(done, api, obj)
	if len(check) > 0 { // (nothing to check: no call)
		if err := c.checkAll(api, check...); err != nil {
			done.finish(err)
			return ddiCall{}, false, err
		}
	}
	if c.discarding() {
		done.finish(nil) // the recording was discarded; FinishCommandList will say so
		return ddiCall{}, false, nil
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
	return c.ddi.on(obj, handle), true, nil
}

// invalidCall refuses an API call before it reaches the driver: the debug
// layer's message, and E_INVALIDARG to the Go caller. The calls here are void
// methods in D3D11: the application gets nothing back, the runtime drops the
// call (a scenario's `hr` DROPPED).
func (c driverContext) invalidCall(call, obj, format string, args ...any) error {
	err := c.dev.invalid(call, obj, format, args...)
	c.api(call, obj).end(err)
	return err
}

func (c driverContext) IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error {
	if f != ddi.FormatR16Uint && f != ddi.FormatR32Uint {
		return c.invalidCall("IASetIndexBuffer", objName(ib), "index Format must be R16_UINT or R32_UINT")
	}
	return c.simple("IASetIndexBuffer", objName(ib), []Object{ib}, func(w ddiCall) {
		bind(c.DeviceContext, &c.ib, ib, nilRes)
		c.ibFormat, c.ibOffset = f, offset
		w.IaSetIndexBuffer(c.h, c.resH(ib), f, offset)
	})
}

func (c driverContext) IASetPrimitiveTopology(t ddi.Topology) error {
	if err := c.checkTopology(t); err != nil {
		return err
	}
	return c.simple("IASetPrimitiveTopology", "", nil, func(w ddiCall) { c.topo = t; w.IaSetTopology(c.h, t) })
}

func (c driverContext) VSSetShader(s *Shader) error {
	return c.simple("VSSetShader", objName(s), []Object{s}, func(w ddiCall) {
		bind(c.DeviceContext, &c.vs, s, nilShader)
		w.VsSetShader(c.h, c.shH(s))
	})
}

func (c driverContext) PSSetShader(s *Shader) error {
	return c.simple("PSSetShader", objName(s), []Object{s}, func(w ddiCall) {
		bind(c.DeviceContext, &c.ps, s, nilShader)
		w.PsSetShader(c.h, c.shH(s))
	})
}

// OMSetRenderTargets is pfnSetRenderTargets with NumRTVs views: the slots
// past them are unbound (ClearSlots).
func (c driverContext) OMSetRenderTargets(rtvs []*View, dsv *View) error {
	if err := c.checkRenderTargets(rtvs, dsv); err != nil {
		return err
	}
	if err := c.unbindInputsOf(rtvs, dsv); err != nil {
		return err
	}
	objs := make([]Object, 0, len(rtvs)+1)
	for _, v := range rtvs {
		objs = append(objs, v)
	}
	objs = append(objs, dsv)
	first := dsv
	for _, v := range rtvs {
		if v != nil {
			first = v
			break
		}
	}
	return c.simple("OMSetRenderTargets", objName(first), objs, func(w ddiCall) {
		c.bindRenderTargets(rtvs, dsv)
		hs := make([]ddi.HRENDERTARGETVIEW, len(rtvs))
		for i, v := range rtvs {
			hs[i] = ddi.HRENDERTARGETVIEW(c.viewH(v))
		}
		if len(rtvs) == 1 && rtvs[0] == nil {
			hs = nil // (no views: NumRTVs 0, as before)
		}
		w.SetRenderTargets(c.h, hs, ddi.HDEPTHSTENCILVIEW(c.viewH(dsv)))
	})
}

// OMSetBlendState is pfnSetBlendState with its BlendFactor and SampleMask.
func (c driverContext) OMSetBlendState(s *State, factor [4]float32, mask uint32) error {
	return c.simple("OMSetBlendState", objName(s), []Object{s}, func(w ddiCall) {
		bind(c.DeviceContext, &c.blend, s, nilState)
		c.blendFactor, c.sampleMask = factor, mask
		w.SetBlendState(c.h, ddi.HBLENDSTATE(c.stH(s)), factor, mask)
	})
}

// OMSetDepthStencilState is pfnSetDepthStencilState with its StencilRef.
func (c driverContext) OMSetDepthStencilState(s *State, ref uint32) error {
	return c.simple("OMSetDepthStencilState", objName(s), []Object{s}, func(w ddiCall) {
		bind(c.DeviceContext, &c.depth, s, nilState)
		c.stencilRef = ref
		w.SetDepthStencilState(c.h, ddi.HDEPTHSTENCILSTATE(c.stH(s)), ref)
	})
}

func (c driverContext) RSSetState(s *State) error {
	return c.simple("RSSetState", objName(s), []Object{s}, func(w ddiCall) {
		bind(c.DeviceContext, &c.rs, s, nilState)
		w.SetRasterizerState(c.h, ddi.HRASTERIZERSTATE(c.stH(s)))
	})
}

// RSSetViewports is pfnSetViewports: NumViewports viewports (the rasterizer
// uses the first; the others are for a geometry shader's
// SV_ViewportArrayIndex).
func (c driverContext) RSSetViewports(vps ...ddi.Viewport) error {
	if err := c.checkViewports(vps); err != nil {
		return err
	}
	vps = slices.Clone(vps)
	return c.simple("RSSetViewports", "", nil, func(w ddiCall) {
		c.vps = vps
		w.SetViewports(c.h, vps)
	})
}

// RSSetScissorRects is pfnSetScissorRects: NumRects rectangles, used with
// the rasterizer state's ScissorEnable.
func (c driverContext) RSSetScissorRects(rects ...ddi.Rect) error {
	if err := c.checkScissors(rects); err != nil {
		return err
	}
	rects = slices.Clone(rects)
	return c.simple("RSSetScissorRects", "", nil, func(w ddiCall) {
		c.scissors = rects
		w.SetScissorRects(c.h, rects)
	})
}

func (c driverContext) ClearRenderTargetView(v *View, rgba [4]float32) error {
	if v != nil && v.ViewKind != ddi.ViewRTV {
		return c.invalidCall("ClearRenderTargetView", v.name, "not a render target view")
	}
	return c.simple("ClearRenderTargetView", objName(v), []Object{v}, func(w ddiCall) {
		w.ClearRenderTargetView(c.h, ddi.HRENDERTARGETVIEW(c.viewH(v)), rgba)
	})
}

// ClearDepthStencilView is pfnClearDepthStencilView: ClearFlags say what
// is cleared ("ID3D11DeviceContext::ClearDepthStencilView": D3D11_CLEAR_DEPTH,
// D3D11_CLEAR_STENCIL; the depth in [0, 1]).
func (c driverContext) ClearDepthStencilView(v *View, flags ddi.ClearFlag, depth float32, stencil uint8) error {
	switch {
	case v != nil && v.ViewKind != ddi.ViewDSV:
		return c.invalidCall("ClearDepthStencilView", v.name, "not a depth stencil view")
	case flags&^(ddi.ClearDepth|ddi.ClearStencil) != 0:
		return c.invalidCall("ClearDepthStencilView", objName(v), "ClearFlags %#x: D3D11_CLEAR_FLAG has DEPTH and STENCIL", uint32(flags))
	case flags&ddi.ClearDepth != 0 && !(depth >= 0 && depth <= 1):
		return c.invalidCall("ClearDepthStencilView", objName(v), "Depth %g is outside [0, 1]", depth)
	}
	return c.simple("ClearDepthStencilView", objName(v), []Object{v}, func(w ddiCall) {
		w.ClearDepthStencilView(c.h, ddi.HDEPTHSTENCILVIEW(c.viewH(v)), flags, depth, stencil)
	})
}

// Draw: on the immediate context, the wrapper calls the function the
// device function table's pfnDraw points at (rule FT-TABLE).
func (c driverContext) Draw(count, start uint32) error {
	c.warnNoVertexShader("Draw")
	if !c.linkedAsLast() {
		if err := c.checkLinkage("Draw"); err != nil {
			return err
		}
	}
	// (simpleEnter with nothing to check, and no ddiCall or span built:
	// every Draw. The API span's Call and Return, Device.apiTo's and
	// span.finish's of a nil error, of a part that never changes.)
	cfg := &c.dev.rt.cfg
	cfg.Sim.PollCharge(cfg.Costs.APICall) // Poll, then Charge
	if c.drawAPI == nil {
		c.drawAPI = trace.NewFixedPart(trace.Part{From: trace.App, Layer: trace.Runtime, Name: "Draw", Ctx: c.name})
	}
	cfg.Rec.EmitFixed(c.drawAPI, trace.Call, "")
	if c.dev.debug {
		c.enterAPI("Draw")
	}
	// (on a deferred context whose recording was discarded, no DDI:
	// FinishCommandList will say so)
	if c.imm || !c.discarding() {
		c.ddi.draw(c.h, count, start)
		if !c.imm {
			c.afterDDI()
		}
	}
	cfg.Rec.EmitFixed(c.drawAPI, trace.Return, "S_OK")
	if c.dev.debug {
		c.leaveAPI()
	}
	return nil
}

// warnNoVertexShader is the debug layer's warning for a draw with no
// vertex shader, which draws nothing. A draw with no pixel shader is not
// warned about: it is how a depth-only pass (a shadow map's) is drawn —
// the rasterizer and the depth test run and no colour is written
// ("ID3D11DeviceContext::PSSetShader": NULL disables the stage).
func (c driverContext) warnNoVertexShader(call string) {
	if c.dev.debug && c.vs == nil {
		c.dev.message(call, "", "D3D11 WARNING: "+call+" with no vertex shader bound draws nothing")
	}
}

// linkedAsLast is checkLinkage's common case in one test, in line in Draw
// (every Draw): no tessellation or geometry stage and a patch-free topology
// (checkTess), a vertex shader already found writing SV_Position
// (checkPosition), a pair that linked, and no debug layer. (The pixel
// shader is not nil: linked holds two or none.)
func (c driverContext) linkedAsLast() bool {
	vs := c.vs
	return c.hs == nil && c.ds == nil && c.gs == nil && vs != nil && vs == c.positioned &&
		c.linked[0] == vs && c.linked[1] == c.ps && !c.dev.debug &&
		c.topo-ddi.TopologyPatchList1 > ddi.TopologyPatchList32-ddi.TopologyPatchList1 // (ControlPoints() == 0: unsigned, one test)
}

// checkLinkage is the draw-time check of the bound shaders' signatures
// (dxbc.Link): the vertex shader's outputs must feed the pixel shader's
// inputs, semantic by semantic, or the runtime drops the draw and the
// debug layer names the semantic ("Shader signatures", D3D11 ERROR
// DEVICE_SHADER_LINKAGE_*).
func (c driverContext) checkLinkage(call string) error {
	if c.linkedAsLast() {
		return nil
	}
	if err := c.checkTess(call); err != nil {
		return err
	}
	if err := c.checkPosition(call); err != nil {
		return err
	}
	vs, ps := c.vs, c.ps
	if c.ds != nil {
		vs = c.ds // the pixel shader reads the domain shader's outputs
	}
	if c.gs != nil {
		vs = c.gs // the pixel shader reads the geometry shader's outputs
	}
	// (a pair that linked links again: signatures never change; compared
	// pointer by pointer: the arrays' != is a call to memequal)
	if vs != nil && ps != nil && (c.linked[0] != vs || c.linked[1] != ps) {
		if err := dxbc.Link(vs.Outputs, ps.Inputs); err != nil {
			return c.invalidCall(call, "", "shader linkage: %s shader %s and pixel shader %s: %v", stageLong(vs.Stage), vs.name, ps.name, err)
		}
		c.linked = [2]*Shader{vs, ps}
	}
	if c.dev.debug { // (checkSampleCounts' own test first: no stage list built a Draw)
		c.checkSampleCounts(call, StageVS, StageHS, StageDS, StageGS, StagePS) // (mscount.go)
	}
	return nil
}

func (c driverContext) DrawIndexed(count, start uint32, base int32) error {
	if c.ib == nil {
		return c.invalidCall("DrawIndexed", "", "no index buffer is bound")
	}
	if err := c.checkLinkage("DrawIndexed"); err != nil {
		return err
	}
	return c.simple("DrawIndexed", "", nil, func(w ddiCall) { w.DrawIndexed(c.h, count, start, base) })
}

func (c driverContext) IASetInputLayout(l *InputLayout) error {
	return c.simple("IASetInputLayout", objName(l), []Object{l}, func(w ddiCall) {
		bind(c.DeviceContext, &c.layout, l, nilLayout)
		var h uint32
		if l != nil {
			h = c.local(l)
		}
		w.IaSetInputLayout(c.h, ddi.HELEMENTLAYOUT(h))
	})
}

func (c driverContext) DrawInstanced(count, instances, start, startInstance uint32) error {
	c.warnNoVertexShader("DrawInstanced")
	if err := c.checkLinkage("DrawInstanced"); err != nil {
		return err
	}
	return c.simple("DrawInstanced", "", nil, func(w ddiCall) { w.DrawInstanced(c.h, count, instances, start, startInstance) })
}

func (c driverContext) DrawIndexedInstanced(count, instances, start uint32, base int32, startInstance uint32) error {
	if c.ib == nil {
		return c.invalidCall("DrawIndexedInstanced", "", "no index buffer is bound")
	}
	if err := c.checkLinkage("DrawIndexedInstanced"); err != nil {
		return err
	}
	return c.simple("DrawIndexedInstanced", "", nil, func(w ddiCall) {
		w.DrawIndexedInstanced(c.h, count, instances, start, base, startInstance)
	})
}

func (c driverContext) CopyResource(dst, src *Resource) error {
	done := c.api("CopyResource", objName(dst))
	if err := c.checkAll("CopyResource", dst, src); err != nil {
		done.end(err)
		return err
	}
	if dst == src || dst.Kind != src.Kind || dst.Desc.Width != src.Desc.Width || dst.Desc.Height != src.Desc.Height || dst.Desc.Format != src.Desc.Format ||
		dst.samples() != src.samples() {
		err := c.dev.invalid("CopyResource", dst.name, "source %s and destination must be different resources of the same kind, size, format and sample count", src.name)
		done.end(err)
		return err
	}
	if dst.Desc.Usage == ddi.UsageImmutable {
		err := c.dev.invalid("CopyResource", dst.name, "an IMMUTABLE resource cannot be a copy destination")
		done.end(err)
		return err
	}
	hd, hs := c.resH(dst), c.resH(src)
	c.ddi.with(dst.name, handleName(uint32(hd)), strArg(trace.KeySrc, handleName(uint32(hs)))).ResourceCopy(c.h, hd, hs)
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
	if dst.samples() > 1 {
		err := c.dev.invalid("UpdateSubresource", dst.name, "%s is multisampled: UpdateSubresource cannot write samples", dst.name)
		done.end(err)
		return err
	}
	hd := c.resH(dst)
	c.ddi.on(dst.name, handleName(uint32(hd))).ResourceUpdateSubresourceUP(c.h, hd, 0, nil, data, 0, 0)
	c.afterDDI()
	done.end(nil)
	return nil
}

// Map checks D3D11's usage rules (rule MAP-HAZARD: IMMUTABLE never, STAGING
// and DYNAMIC each in their own ways) and hands the rest to the UMD, whose
// pfnLockCb waits for, fails on (DO_NOT_WAIT) or renames around pending GPU
// work.
func (c driverContext) Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) (data []byte, err error) {
	done := c.api("Map", objName(r))
	var b trace.ArgBuilder
	done.ev.Args = mapArgs(&b, t, flags)
	defer func() { done.end(err) }()
	if err := c.mapPrologue(r, t, flags); err != nil {
		return nil, err
	}
	if err := mapUsage(c.dev, r, t); err != nil {
		return nil, err
	}
	if c.dev.removedHR() != nil {
		return c.mapRemoved(r), nil
	}
	hr := c.resH(r)
	entry, unmap := ddi.MapEntry(&r.Desc, t)
	m, err := c.ddi.on(r.name, handleName(uint32(hr))).ResourceMap(entry, c.h, hr, t, flags)
	if err == nil {
		c.mapped(r, t)
	}
	if err != nil {
		if e := c.dev.removedHR(); e != nil {
			return nil, e
		}
		if errors.Is(err, hresult.DXGI_DDI_ERR_WASSTILLDRAWING) {
			// The driver's answer to D3D10_DDI_MAP_FLAG_DONOTWAIT, the
			// application's DXGI_ERROR_WAS_STILL_DRAWING.
			return nil, hresult.Errorf(hresult.DXGI_ERROR_WAS_STILL_DRAWING, "Map(%s): D3D11_MAP_FLAG_DO_NOT_WAIT and the GPU still uses it (%v)", r.name, err)
		}
		return nil, err
	}
	r.mapped, r.mapCtx, r.data, r.unmapEntry = true, c.DeviceContext, m.Data, unmap
	return m.Data, nil
}

// mapPrologue is the validation every kind of context does first in Map.
// D3D11_MAP_FLAG_DO_NOT_WAIT "cannot be used with D3D11_MAP_WRITE_DISCARD or
// D3D11_MAP_WRITE_NOOVERWRITE" ("D3D11_MAP_FLAG"). On a removed device Map
// "returns DXGI_ERROR_DEVICE_REMOVED if MapType allows any CPU read access"
// ("ID3D11DeviceContext::Map method"): a map for reading fails, one for
// writing goes on (mapRemoved).
func (c *DeviceContext) mapPrologue(r *Resource, t ddi.MapType, flags ddi.MapFlag) error {
	if err := c.checkAll("Map", r); err != nil {
		return err
	}
	if flags&ddi.MapFlagDoNotWait != 0 && (t == ddi.MapWriteDiscard || t == ddi.MapWriteNoOverwrite) {
		return c.dev.invalid("Map", r.name, "D3D11_MAP_FLAG_DO_NOT_WAIT cannot be used with %s (D3D11_MAP_FLAG)", mapTypeNames[t])
	}
	if err := c.dev.removedHR(); err != nil && (t == ddi.MapRead || t == ddi.MapReadWrite) {
		return err
	}
	if r.mapped {
		return c.dev.invalid("Map", r.name, "the resource is already mapped")
	}
	return c.mapRule(r, t)
}

// mapRemoved maps r for writing on a removed device: the runtime no longer
// calls the driver ("PFND3D10DDI_RESOURCEMAP": after D3DDDIERR_DEVICEREMOVED
// "the runtime will no longer call into the user-mode display driver for
// much"), so it hands out memory of its own, which goes nowhere, and its
// Unmap calls no DDI either. The debug layer says so.
func (c driverContext) mapRemoved(r *Resource) []byte {
	n := r.Desc.Width
	if r.Kind == KindTexture2D {
		n = r.Desc.Width * r.Desc.Height * ddi.FormatSize(r.Desc.Format)
	}
	data := make([]byte, n)
	c.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "MapOnRemovedDevice", Obj: r.name, Ctx: c.name,
		Msg: fmt.Sprintf("Map(%s) for writing on a removed device returns S_OK: the runtime hands out %d bytes of its own; the driver is not called and nothing written reaches the GPU", r.name, n)})
	r.mapped, r.mapCtx, r.data, r.unmapEntry = true, c.DeviceContext, data, ""
	return data
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
	if err := c.checkBeginEnd("Begin", q); err != nil {
		return err
	}
	return c.simple("Begin", objName(q), []Object{q}, func(w ddiCall) {
		q.began = true
		c.queryBegun(q)
		w.QueryBegin(c.h, c.qH(q))
	})
}

func (c driverContext) End(q *Query) error {
	if err := c.checkBeginEnd("End", q); err != nil {
		return err
	}
	return c.simple("End", objName(q), []Object{q}, func(w ddiCall) {
		q.began, q.issued = false, true
		c.queryEnded(q)
		w.QueryEnd(c.h, c.qH(q))
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
	u := c.ddi.umd // the DDIs that reset the state are not traced one by one
	cc.unbindVBs()
	u.IaSetVertexBuffers(c.h, 0, make([]ddi.HRESOURCE, iaSlots), make([]uint32, iaSlots), make([]uint32, iaSlots))
	bind(cc, &c.ib, nil, nilRes)
	u.IaSetIndexBuffer(c.h, 0, ddi.FormatUnknown, 0)
	bind(cc, &c.vs, nil, nilShader)
	u.VsSetShader(c.h, 0)
	bind(cc, &c.ps, nil, nilShader)
	u.PsSetShader(c.h, 0)
	bind(cc, &c.layout, nil, nilLayout)
	u.IaSetInputLayout(c.h, 0)
	c.unbindStages()
	cbs, srvs, samps := make([]ddi.HRESOURCE, ddi.ConstantBufferSlots), make([]ddi.HSHADERRESOURCEVIEW, ddi.ShaderResourceSlots), make([]ddi.HSAMPLER, ddi.SamplerSlots)
	u.VsSetConstantBuffers(c.h, 0, cbs)
	u.PsSetConstantBuffers(c.h, 0, cbs)
	u.VsSetShaderResources(c.h, 0, srvs)
	u.PsSetShaderResources(c.h, 0, srvs)
	u.VsSetSamplers(c.h, 0, samps)
	u.PsSetSamplers(c.h, 0, samps)
	for i := range c.rtv {
		bind(cc, &c.rtv[i], nil, nilView)
	}
	bind(cc, &c.dsv, nil, nilView)
	u.SetRenderTargets(c.h, nil, 0)
	c.clearOMUAVs(u)
	bind(cc, &c.blend, nil, nilState)
	bind(cc, &c.rs, nil, nilState)
	bind(cc, &c.depth, nil, nilState)
	u.SetBlendState(c.h, 0, [4]float32{1, 1, 1, 1}, 0xffffffff)
	u.SetRasterizerState(c.h, 0)
	u.SetDepthStencilState(c.h, 0, 0)
	u.IaSetTopology(c.h, ddi.TopologyUndefined)
	u.SetViewports(c.h, nil)
	u.SetScissorRects(c.h, nil)
	bind(cc, &c.pred, nil, nilQuery)
	u.SetPredication(c.h, 0, false)
	// The compute stage (compute.go): its shader and views; its constant
	// buffers, views and samplers went with unbindStages.
	bind(cc, &c.cs, nil, nilShader)
	for i := range c.uav {
		bind(cc, &c.uav[i], nil, nilView)
	}
	if cu, ok := u.(ddi.Compute); ok {
		cu.CsSetShader(c.h, 0)
		cu.CsSetConstantBuffers(c.h, 0, cbs)
		cu.CsSetShaderResources(c.h, 0, srvs)
		cu.CsSetSamplers(c.h, 0, samps)
		counts := make([]uint32, csUAVSlots)
		for i := range counts {
			counts[i] = ddi.NoInitialCount
		}
		cu.CsSetUnorderedAccessViews(c.h, 0, make([]ddi.HUNORDEREDACCESSVIEW, csUAVSlots), counts)
	}
	bind(cc, &c.hs, nil, nilShader)
	bind(cc, &c.ds, nil, nilShader)
	if tu, ok := u.(ddi.Tessellation); ok {
		tu.HsSetShader(c.h, 0)
		tu.HsSetConstantBuffers(c.h, 0, cbs)
		tu.HsSetShaderResources(c.h, 0, srvs)
		tu.HsSetSamplers(c.h, 0, samps)
		tu.DsSetShader(c.h, 0)
		tu.DsSetConstantBuffers(c.h, 0, cbs)
		tu.DsSetShaderResources(c.h, 0, srvs)
		tu.DsSetSamplers(c.h, 0, samps)
	}
	bind(cc, &c.gs, nil, nilShader)
	if gu, ok := u.(ddi.Geometry); ok {
		gu.GsSetShader(c.h, 0)
		gu.GsSetConstantBuffers(c.h, 0, cbs)
		gu.GsSetShaderResources(c.h, 0, srvs)
		gu.GsSetSamplers(c.h, 0, samps)
	}
	for i := range c.so {
		bind(cc, &c.so[i], nil, nilRes)
	}
	if su, ok := u.(ddi.StreamOutput); ok {
		su.SoSetTargets(c.h, nil, nil)
	}
	c.resetScalars()
	done.end(nil)
	if then != nil {
		then()
	}
	return nil
}

// stageLong is a shader's stage in words ("vertex", "geometry").
func stageLong(stage string) string {
	switch stage {
	case "gs":
		return "geometry"
	case "ds":
		return "domain"
	case "hs":
		return "hull"
	}
	return "vertex"
}
