package d3d11

import (
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// The runtime↔UMD boundary. Every DDI the runtime calls goes through one
// context's ddiTable: a wrapper around the UMD's table (the way Mesa's trace
// driver wraps a pipe_context) whose calls
//
//   - emit the DDI's Call event before and its Return event, with the
//     HRESULT's name, after (events the driver emits inside nest between
//     them),
//   - hold the device's DDI lock from one to the other for a driver without
//     D3D11DDICAPS_FREETHREADED, but for the CalcPrivate* and
//     CalcDeferredContextHandleSize DDIs (rules FT-CAP, FT-CALC), and
//   - charge the DDI's cost.
//
// The runtime's logic labels a call with what only it knows -- the name of
// the object concerned, the handle and the arguments worth tracing -- and
// makes it: c.ddi.on(obj, handle).ResourceUnmap(h, r). ddiCall implements
// ddi.Device, so each call has the DDI's own signature.

// ddiTable is one context's DDI table as the runtime calls it.
type ddiTable struct {
	d   *Device
	ctx string     // the context's name on the events: IC, DC1, ...
	umd ddi.Device // the driver's table

	// The immediate context's table is the device function table, whose
	// entries the driver may hot-swap (rule FT-TABLE): Draw reads pfnDraw
	// from it, again only when it was written since.
	funcs    *ddi.FuncTable
	drawFn   func(ddi.HDEVICE, uint32, uint32)
	drawArgs string
	drawAt   uint64
}

// on labels the next DDI call with the object it concerns and a handle
// (either may be empty).
func (t *ddiTable) on(obj, handle string) ddiCall {
	return ddiCall{ddiTable: t, obj: obj, handle: handle}
}

// with is on with the arguments worth tracing.
func (t *ddiTable) with(obj, handle, args string) ddiCall {
	return ddiCall{ddiTable: t, obj: obj, handle: handle, args: args}
}

// ddiCall is one labelled DDI call.
type ddiCall struct {
	*ddiTable
	obj, handle, args string
}

var _ ddi.Device = ddiCall{}

// enter emits the Call event and returns what emits the Return.
func (w ddiCall) enter(name string) span {
	return w.d.ddiEnter(w.ctx, name, w.obj, w.handle, w.args)
}

// span is an API, DDI or callback call that is open: end emits its Return
// event (and, for a DDI of a driver that is not free-threaded, releases the
// DDI lock). A value, not a closure: nothing is allocated per call.
type span struct {
	rec    *trace.Recorder
	ev     trace.Event // the Call event; its Return repeats it
	kernel bool        // a callback: the HR is the kernel error's (kernelErr)
	unlock *Device     // non-nil: release this device's DDI lock at the end
}

// end emits the Return event with err's HRESULT.
func (s span) end(err error) {
	s.ev.Kind = trace.Return
	if s.kernel {
		s.ev.HR = hresult.Of(kernelErr(err)).Name()
	} else {
		s.ev.HR = hresult.Of(err).Name()
	}
	s.ev.Msg = errMsg(err)
	s.rec.Emit(s.ev)
	if s.unlock != nil {
		s.unlock.unserialise()
	}
}

// ddiEnter emits a DDI's Call event and returns what emits its Return. For a
// driver that is not free-threaded, it holds the device's DDI lock from one
// to the other.
func (d *Device) ddiEnter(ctx, name, obj, handle, args string) span {
	c := d.rt.cfg
	s := span{rec: c.Rec, ev: trace.Event{From: trace.Runtime, Layer: trace.UMD, Kind: trace.Call, Name: name, Obj: obj, Handle: handle, Ctx: ctx, Args: args}}
	calc := strings.HasPrefix(name, "CalcPrivate") || name == "CalcDeferredContextHandleSize"
	// (bug=FT-CAP: the runtime forgets to serialise)
	if !c.FreeThreaded && !c.Bugs.Has(rules.FTCap) && !calc {
		d.serialise()
		s.unlock = d
	}
	c.Sim.Charge(c.Costs.DDICall)
	c.Rec.Emit(s.ev)
	if calc && d.rt.preempt != nil && d.ddiHeld.Load() == 0 && d.imm != nil && !d.dead.Load() {
		// The CalcPrivate* DDIs run without the DDI lock even for a driver
		// that is not free-threaded (rule FT-CALC): a thread descheduled in
		// one leaves the others free to enter any DDI.
		d.rt.preempt()
	}
	return s
}

// serialise takes the runtime's DDI lock for a driver that is not
// free-threaded (rule FT-CAP); unserialise releases it. Objects whose last
// reference drops while it is held are destroyed after it is released:
// their destroy DDIs need the lock too.
func (d *Device) serialise() {
	d.ddiLock.Lock()
	d.ddiHeld.Add(1)
}

func (d *Device) unserialise() {
	d.ddiHeld.Add(-1)
	d.ddiLock.Unlock()
	d.drainAfterDDI()
}

// drainAfterDDI destroys the objects kill put off, once no DDI holds the
// lock.
func (d *Device) drainAfterDDI() {
	if d.ddiHeld.Load() > 0 {
		return
	}
	d.mu.Lock()
	q := d.afterDDI
	d.afterDDI = nil
	d.mu.Unlock()
	for _, o := range q {
		o.finish()
	}
}

// Draw calls the context's Draw; on the immediate context, the function
// pfnDraw points at, named on the event when it is not the one CreateDevice
// put there.
func (w ddiCall) Draw(h ddi.HDEVICE, count, start uint32) {
	if w.funcs == nil {
		sp := w.enter("Draw")
		w.umd.Draw(h, count, start)
		sp.end(nil)
		return
	}
	t := w.ddiTable
	if n := t.funcs.Writes(); t.drawFn == nil || n != t.drawAt {
		t.drawFn, t.drawArgs, t.drawAt = t.umd.Draw, "", n
		e := t.funcs.Get("pfnDraw")
		if f, ok := e.Fn.(func(ddi.HDEVICE, uint32, uint32)); ok {
			t.drawFn = f
		}
		if e.Impl != "" && e.Impl != "Draw" {
			t.drawArgs = "impl=" + e.Impl
		}
	}
	w.args = t.drawArgs
	sp := w.enter("Draw")
	t.drawFn(h, count, start)
	sp.end(nil)
}

var viewDDINames = map[ddi.ViewKind]string{ddi.ViewRTV: "RenderTargetView", ddi.ViewSRV: "ShaderResourceView", ddi.ViewDSV: "DepthStencilView"}

// CalcPrivateViewSize is traced under the view kind's own name
// (CalcPrivateRenderTargetViewSize, ...).
func (w ddiCall) CalcPrivateViewSize(a *ddi.CreateViewArgs) int {
	sp := w.enter("CalcPrivate" + viewDDINames[a.Kind] + "Size")
	n := w.umd.CalcPrivateViewSize(a)
	sp.end(nil)
	return n
}

// CalcPrivateCommandListSize, CalcDeferredContextHandleSize and the second
// CheckDeferredContextHandleSizes are traced once they returned, with the
// size they answered.
func (w ddiCall) CalcPrivateCommandListSize(h ddi.HDEVICE, args *ddi.CreateCommandListArgs) int {
	n := w.umd.CalcPrivateCommandListSize(h, args)
	w.args = fmt.Sprintf("size=%d", n)
	w.enter("CalcPrivateCommandListSize").end(nil)
	return n
}

func (w ddiCall) CalcDeferredContextHandleSize(h ddi.HDEVICE, t ddi.HandleType, obj uint32) int {
	n := w.umd.CalcDeferredContextHandleSize(h, t, obj)
	w.args = fmt.Sprintf("type=%d size=%d", t, n)
	w.enter("CalcDeferredContextHandleSize").end(nil)
	return n
}

// CheckDeferredContextHandleSizes: the count poll (sizes nil) and the call
// that fills the array ("Supporting command lists", rule CLS-SIZES).
func (w ddiCall) CheckDeferredContextHandleSizes(h ddi.HDEVICE, sizes []ddi.HandleSize) int {
	if sizes == nil {
		w.args = "sizes=NULL"
		sp := w.enter("CheckDeferredContextHandleSizes")
		n := w.umd.CheckDeferredContextHandleSizes(h, nil)
		sp.end(nil)
		return n
	}
	n := w.umd.CheckDeferredContextHandleSizes(h, sizes)
	list := make([]string, len(sizes))
	for i, s := range sizes {
		list[i] = fmt.Sprintf("%d:%d", s.Type, s.Size)
	}
	w.args = fmt.Sprintf("count=%d sizes=%s", len(sizes), strings.Join(list, ","))
	w.enter("CheckDeferredContextHandleSizes").end(nil)
	return n
}

// Escape is the driver's private entry (ddi.Escaper), outside the table.
func (w ddiCall) Escape(h ddi.HDEVICE, code uint32) (uint64, error) {
	sp := w.enter("Escape")
	r, err := w.umd.(ddi.Escaper).Escape(h, code)
	sp.end(err)
	return r, err
}

// CreateDevice is the adapter's entry (OpenAdapter10_2's pfnCreateDevice),
// traced like the table's.
func (w ddiCall) CreateDevice(a ddi.Adapter, h ddi.HDEVICE, args *ddi.CreateDeviceArgs) (ddi.Device, error) {
	sp := w.enter("CreateDevice")
	umd, err := a.CreateDevice(h, args)
	sp.end(err)
	return umd, err
}

// The rest: Call, the DDI, Return.

func (w ddiCall) CalcPrivateResourceSize(a0 *ddi.CreateResourceArgs) int {
	sp := w.enter("CalcPrivateResourceSize")
	n := w.umd.CalcPrivateResourceSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateResource(a0 ddi.HDEVICE, a1 *ddi.CreateResourceArgs, a2 ddi.HRESOURCE, a3 ddi.HRTRESOURCE) error {
	sp := w.enter("CreateResource")
	err := w.umd.CreateResource(a0, a1, a2, a3)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyResource(a0 ddi.HDEVICE, a1 ddi.HRESOURCE) {
	sp := w.enter("DestroyResource")
	w.umd.DestroyResource(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CreateRenderTargetView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HRENDERTARGETVIEW, rt uint32) error {
	sp := w.enter("CreateRenderTargetView")
	err := w.umd.CreateRenderTargetView(h, a, v, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyRenderTargetView(a0 ddi.HDEVICE, a1 ddi.HRENDERTARGETVIEW) {
	sp := w.enter("DestroyRenderTargetView")
	w.umd.DestroyRenderTargetView(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CreateShaderResourceView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HSHADERRESOURCEVIEW, rt uint32) error {
	sp := w.enter("CreateShaderResourceView")
	err := w.umd.CreateShaderResourceView(h, a, v, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyShaderResourceView(a0 ddi.HDEVICE, a1 ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("DestroyShaderResourceView")
	w.umd.DestroyShaderResourceView(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CreateDepthStencilView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HDEPTHSTENCILVIEW, rt uint32) error {
	sp := w.enter("CreateDepthStencilView")
	err := w.umd.CreateDepthStencilView(h, a, v, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyDepthStencilView(a0 ddi.HDEVICE, a1 ddi.HDEPTHSTENCILVIEW) {
	sp := w.enter("DestroyDepthStencilView")
	w.umd.DestroyDepthStencilView(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateShaderSize(a0 *ddi.ShaderArgs) int {
	sp := w.enter("CalcPrivateShaderSize")
	n := w.umd.CalcPrivateShaderSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateVertexShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateVertexShader")
	err := w.umd.CreateVertexShader(h, a, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) CreatePixelShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreatePixelShader")
	err := w.umd.CreatePixelShader(h, a, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	sp := w.enter("DestroyShader")
	w.umd.DestroyShader(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateBlendStateSize(a0 *ddi.BlendDesc) int {
	sp := w.enter("CalcPrivateBlendStateSize")
	n := w.umd.CalcPrivateBlendStateSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateBlendState(h ddi.HDEVICE, d *ddi.BlendDesc, s ddi.HBLENDSTATE, rt uint32) error {
	sp := w.enter("CreateBlendState")
	err := w.umd.CreateBlendState(h, d, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyBlendState(a0 ddi.HDEVICE, a1 ddi.HBLENDSTATE) {
	sp := w.enter("DestroyBlendState")
	w.umd.DestroyBlendState(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateRasterizerStateSize(a0 *ddi.RasterizerDesc) int {
	sp := w.enter("CalcPrivateRasterizerStateSize")
	n := w.umd.CalcPrivateRasterizerStateSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateRasterizerState(h ddi.HDEVICE, d *ddi.RasterizerDesc, s ddi.HRASTERIZERSTATE, rt uint32) error {
	sp := w.enter("CreateRasterizerState")
	err := w.umd.CreateRasterizerState(h, d, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyRasterizerState(a0 ddi.HDEVICE, a1 ddi.HRASTERIZERSTATE) {
	sp := w.enter("DestroyRasterizerState")
	w.umd.DestroyRasterizerState(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateDepthStencilStateSize(a0 *ddi.DepthStencilDesc) int {
	sp := w.enter("CalcPrivateDepthStencilStateSize")
	n := w.umd.CalcPrivateDepthStencilStateSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateDepthStencilState(h ddi.HDEVICE, d *ddi.DepthStencilDesc, s ddi.HDEPTHSTENCILSTATE, rt uint32) error {
	sp := w.enter("CreateDepthStencilState")
	err := w.umd.CreateDepthStencilState(h, d, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyDepthStencilState(a0 ddi.HDEVICE, a1 ddi.HDEPTHSTENCILSTATE) {
	sp := w.enter("DestroyDepthStencilState")
	w.umd.DestroyDepthStencilState(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateSamplerSize(a0 *ddi.SamplerDesc) int {
	sp := w.enter("CalcPrivateSamplerSize")
	n := w.umd.CalcPrivateSamplerSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateSampler(h ddi.HDEVICE, d *ddi.SamplerDesc, s ddi.HSAMPLER, rt uint32) error {
	sp := w.enter("CreateSampler")
	err := w.umd.CreateSampler(h, d, s, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroySampler(a0 ddi.HDEVICE, a1 ddi.HSAMPLER) {
	sp := w.enter("DestroySampler")
	w.umd.DestroySampler(a0, a1)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateQuerySize(a0 ddi.QueryType) int {
	sp := w.enter("CalcPrivateQuerySize")
	n := w.umd.CalcPrivateQuerySize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateQuery(h ddi.HDEVICE, t ddi.QueryType, q ddi.HQUERY, rt uint32) error {
	sp := w.enter("CreateQuery")
	err := w.umd.CreateQuery(h, t, q, rt)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyQuery(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	sp := w.enter("DestroyQuery")
	w.umd.DestroyQuery(a0, a1)
	sp.end(nil)
}

func (w ddiCall) IaSetVertexBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE, strides []uint32, offsets []uint32) {
	sp := w.enter("IaSetVertexBuffers")
	w.umd.IaSetVertexBuffers(h, start, bufs, strides, offsets)
	sp.end(nil)
}

func (w ddiCall) IaSetIndexBuffer(h ddi.HDEVICE, buf ddi.HRESOURCE, f ddi.Format, offset uint32) {
	sp := w.enter("IaSetIndexBuffer")
	w.umd.IaSetIndexBuffer(h, buf, f, offset)
	sp.end(nil)
}

func (w ddiCall) IaSetTopology(a0 ddi.HDEVICE, a1 ddi.Topology) {
	sp := w.enter("IaSetTopology")
	w.umd.IaSetTopology(a0, a1)
	sp.end(nil)
}

func (w ddiCall) VsSetShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	sp := w.enter("VsSetShader")
	w.umd.VsSetShader(a0, a1)
	sp.end(nil)
}

func (w ddiCall) VsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("VsSetConstantBuffers")
	w.umd.VsSetConstantBuffers(h, start, bufs)
	sp.end(nil)
}

func (w ddiCall) PsSetShader(a0 ddi.HDEVICE, a1 ddi.HSHADER) {
	sp := w.enter("PsSetShader")
	w.umd.PsSetShader(a0, a1)
	sp.end(nil)
}

func (w ddiCall) PsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("PsSetConstantBuffers")
	w.umd.PsSetConstantBuffers(h, start, bufs)
	sp.end(nil)
}

func (w ddiCall) PsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("PsSetShaderResources")
	w.umd.PsSetShaderResources(h, start, views)
	sp.end(nil)
}

func (w ddiCall) PsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("PsSetSamplers")
	w.umd.PsSetSamplers(h, start, samplers)
	sp.end(nil)
}

func (w ddiCall) SetRenderTargets(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	sp := w.enter("SetRenderTargets")
	w.umd.SetRenderTargets(h, rtvs, dsv)
	sp.end(nil)
}

func (w ddiCall) SetBlendState(h ddi.HDEVICE, s ddi.HBLENDSTATE, factor [4]float32, sampleMask uint32) {
	sp := w.enter("SetBlendState")
	w.umd.SetBlendState(h, s, factor, sampleMask)
	sp.end(nil)
}

func (w ddiCall) SetRasterizerState(a0 ddi.HDEVICE, a1 ddi.HRASTERIZERSTATE) {
	sp := w.enter("SetRasterizerState")
	w.umd.SetRasterizerState(a0, a1)
	sp.end(nil)
}

func (w ddiCall) SetDepthStencilState(h ddi.HDEVICE, s ddi.HDEPTHSTENCILSTATE, stencilRef uint32) {
	sp := w.enter("SetDepthStencilState")
	w.umd.SetDepthStencilState(h, s, stencilRef)
	sp.end(nil)
}

func (w ddiCall) SetViewports(h ddi.HDEVICE, vps []ddi.Viewport) {
	sp := w.enter("SetViewports")
	w.umd.SetViewports(h, vps)
	sp.end(nil)
}

func (w ddiCall) ClearRenderTargetView(h ddi.HDEVICE, v ddi.HRENDERTARGETVIEW, rgba [4]float32) {
	sp := w.enter("ClearRenderTargetView")
	w.umd.ClearRenderTargetView(h, v, rgba)
	sp.end(nil)
}

func (w ddiCall) ClearDepthStencilView(h ddi.HDEVICE, v ddi.HDEPTHSTENCILVIEW, flags ddi.ClearFlag, depth float32, stencil uint8) {
	sp := w.enter("ClearDepthStencilView")
	w.umd.ClearDepthStencilView(h, v, flags, depth, stencil)
	sp.end(nil)
}

func (w ddiCall) DrawIndexed(h ddi.HDEVICE, count uint32, start uint32, base int32) {
	sp := w.enter("DrawIndexed")
	w.umd.DrawIndexed(h, count, start, base)
	sp.end(nil)
}

func (w ddiCall) ResourceCopy(h ddi.HDEVICE, dst ddi.HRESOURCE, src ddi.HRESOURCE) {
	sp := w.enter("ResourceCopy")
	w.umd.ResourceCopy(h, dst, src)
	sp.end(nil)
}

func (w ddiCall) ResourceUpdateSubresourceUP(h ddi.HDEVICE, dst ddi.HRESOURCE, data []byte) {
	sp := w.enter("ResourceUpdateSubresourceUP")
	w.umd.ResourceUpdateSubresourceUP(h, dst, data)
	sp.end(nil)
}

func (w ddiCall) ResourceMap(h ddi.HDEVICE, r ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag) (ddi.MappedSubresource, error) {
	sp := w.enter("ResourceMap")
	v, err := w.umd.ResourceMap(h, r, t, flags)
	sp.end(err)
	return v, err
}

func (w ddiCall) ResourceUnmap(a0 ddi.HDEVICE, a1 ddi.HRESOURCE) {
	sp := w.enter("ResourceUnmap")
	w.umd.ResourceUnmap(a0, a1)
	sp.end(nil)
}

func (w ddiCall) QueryBegin(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	sp := w.enter("QueryBegin")
	w.umd.QueryBegin(a0, a1)
	sp.end(nil)
}

func (w ddiCall) QueryEnd(a0 ddi.HDEVICE, a1 ddi.HQUERY) {
	sp := w.enter("QueryEnd")
	w.umd.QueryEnd(a0, a1)
	sp.end(nil)
}

func (w ddiCall) QueryGetData(h ddi.HDEVICE, q ddi.HQUERY, flags uint32) (uint64, hresult.HRESULT) {
	sp := w.enter("QueryGetData")
	v, hr := w.umd.QueryGetData(h, q, flags)
	sp.end(nil)
	return v, hr
}

func (w ddiCall) Flush(a0 ddi.HDEVICE) {
	sp := w.enter("Flush")
	w.umd.Flush(a0)
	sp.end(nil)
}

func (w ddiCall) PresentDXGI(h ddi.HDEVICE, src ddi.HRESOURCE, syncInterval uint32) error {
	sp := w.enter("PresentDXGI")
	err := w.umd.PresentDXGI(h, src, syncInterval)
	sp.end(err)
	return err
}

func (w ddiCall) SetDisplayModeDXGI(h ddi.HDEVICE, primary ddi.HRESOURCE) error {
	sp := w.enter("SetDisplayModeDXGI")
	err := w.umd.SetDisplayModeDXGI(h, primary)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyDevice(a0 ddi.HDEVICE) {
	sp := w.enter("DestroyDevice")
	w.umd.DestroyDevice(a0)
	sp.end(nil)
}

func (w ddiCall) CalcPrivateDeferredContextSize(h ddi.HDEVICE) int {
	sp := w.enter("CalcPrivateDeferredContextSize")
	n := w.umd.CalcPrivateDeferredContextSize(h)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateDeferredContext(h ddi.HDEVICE, args *ddi.CreateDeferredContextArgs, dc ddi.HDEVICE) (ddi.Device, error) {
	sp := w.enter("CreateDeferredContext")
	v, err := w.umd.CreateDeferredContext(h, args, dc)
	sp.end(err)
	return v, err
}

func (w ddiCall) RecycleCreateDeferredContext(h ddi.HDEVICE, dc ddi.HDEVICE) error {
	sp := w.enter("RecycleCreateDeferredContext")
	err := w.umd.RecycleCreateDeferredContext(h, dc)
	sp.end(err)
	return err
}

func (w ddiCall) AbandonCommandList(dc ddi.HDEVICE) {
	sp := w.enter("AbandonCommandList")
	w.umd.AbandonCommandList(dc)
	sp.end(nil)
}

func (w ddiCall) CreateCommandList(h ddi.HDEVICE, args *ddi.CreateCommandListArgs, cl ddi.HCOMMANDLIST) error {
	sp := w.enter("CreateCommandList")
	err := w.umd.CreateCommandList(h, args, cl)
	sp.end(err)
	return err
}

func (w ddiCall) RecycleCreateCommandList(h ddi.HDEVICE, args *ddi.CreateCommandListArgs, cl ddi.HCOMMANDLIST) error {
	sp := w.enter("RecycleCreateCommandList")
	err := w.umd.RecycleCreateCommandList(h, args, cl)
	sp.end(err)
	return err
}

func (w ddiCall) DestroyCommandList(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	sp := w.enter("DestroyCommandList")
	w.umd.DestroyCommandList(h, cl)
	sp.end(nil)
}

func (w ddiCall) RecycleDestroyCommandList(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	sp := w.enter("RecycleDestroyCommandList")
	w.umd.RecycleDestroyCommandList(h, cl)
	sp.end(nil)
}

func (w ddiCall) RecycleCommandList(dc ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	sp := w.enter("RecycleCommandList")
	w.umd.RecycleCommandList(dc, cl)
	sp.end(nil)
}

func (w ddiCall) CommandListExecute(h ddi.HDEVICE, cl ddi.HCOMMANDLIST) {
	sp := w.enter("CommandListExecute")
	w.umd.CommandListExecute(h, cl)
	sp.end(nil)
}
