package d3d11

import (
	"fmt"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// The DDIs ddiCall passes through as they are: the Call event, the driver's
// function, the Return event (with the error's HRESULT). The ones traced
// differently are in ddicall.go.

func (w ddiCall) CalcPrivateResourceSize(a0 *ddi.CreateResourceArgs) int {
	sp := w.enter("CalcPrivateResourceSize")
	n := w.umd.CalcPrivateResourceSize(a0)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateResource(a0 ddi.HDEVICE, a1 *ddi.CreateResourceArgs, a2 ddi.HRESOURCE, a3 ddi.HRTRESOURCE) error {
	sp := w.enter("CreateResource")
	w.watchErrors()
	w.umd.CreateResource(a0, a1, a2, a3)
	err := w.reportedError("CreateResource")
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
	w.watchErrors()
	w.umd.CreateRenderTargetView(h, a, v, rt)
	err := w.reportedError("CreateRenderTargetView")
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
	w.watchErrors()
	w.umd.CreateShaderResourceView(h, a, v, rt)
	err := w.reportedError("CreateShaderResourceView")
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
	w.watchErrors()
	w.umd.CreateDepthStencilView(h, a, v, rt)
	err := w.reportedError("CreateDepthStencilView")
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
	w.watchErrors()
	w.umd.CreateVertexShader(h, a, s, rt)
	err := w.reportedError("CreateVertexShader")
	sp.end(err)
	return err
}

func (w ddiCall) CreatePixelShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreatePixelShader")
	w.watchErrors()
	w.umd.CreatePixelShader(h, a, s, rt)
	err := w.reportedError("CreatePixelShader")
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
	w.watchErrors()
	w.umd.CreateBlendState(h, d, s, rt)
	err := w.reportedError("CreateBlendState")
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
	w.watchErrors()
	w.umd.CreateRasterizerState(h, d, s, rt)
	err := w.reportedError("CreateRasterizerState")
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
	w.watchErrors()
	w.umd.CreateDepthStencilState(h, d, s, rt)
	err := w.reportedError("CreateDepthStencilState")
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
	w.watchErrors()
	w.umd.CreateSampler(h, d, s, rt)
	err := w.reportedError("CreateSampler")
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
	w.watchErrors()
	w.umd.CreateQuery(h, t, q, rt)
	err := w.reportedError("CreateQuery")
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

func (w ddiCall) VsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("VsSetShaderResources")
	w.umd.VsSetShaderResources(h, start, views)
	sp.end(nil)
}

func (w ddiCall) VsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("VsSetSamplers")
	w.umd.VsSetSamplers(h, start, samplers)
	sp.end(nil)
}

func (w ddiCall) DrawInstancedIndirect(h ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	sp := w.enter("DrawInstancedIndirect")
	w.umd.DrawInstancedIndirect(h, buf, offset)
	sp.end(nil)
}

func (w ddiCall) DrawIndexedInstancedIndirect(h ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	sp := w.enter("DrawIndexedInstancedIndirect")
	w.umd.DrawIndexedInstancedIndirect(h, buf, offset)
	sp.end(nil)
}

func (w ddiCall) PsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("PsSetSamplers")
	w.umd.PsSetSamplers(h, start, samplers)
	sp.end(nil)
}

// SetRenderTargets, SetBlendState and SetDepthStencilState trace their
// arguments beyond the state object when they are not the defaults (so the
// traces of a single render target, blend factor 1 and StencilRef 0 stay
// what they were): rtvs=NumRTVs, blendfactor=R,G,B,A, samplemask=0x...,
// stencilref=N.
func (w ddiCall) SetRenderTargets(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW) {
	if len(rtvs) > 1 {
		w.args = trace.IntArg(trace.KeyNumRTVs, int64(len(rtvs)))
	}
	sp := w.enter("SetRenderTargets")
	w.umd.SetRenderTargets(h, rtvs, dsv)
	sp.end(nil)
}

func (w ddiCall) SetBlendState(h ddi.HDEVICE, s ddi.HBLENDSTATE, factor [4]float32, sampleMask uint32) {
	var b trace.ArgBuilder
	if factor != [4]float32{1, 1, 1, 1} {
		b.Str(trace.KeyBlendFactor, fmt.Sprintf("%g,%g,%g,%g", factor[0], factor[1], factor[2], factor[3]))
	}
	if sampleMask != ^uint32(0) {
		b.Str(trace.KeySampleMask, fmt.Sprintf("%#x", sampleMask))
	}
	if a := b.Args(); a != (trace.Args{}) {
		w.args = a
	}
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
	if stencilRef != 0 {
		w.args = trace.IntArg(trace.KeyStencilRef, int64(stencilRef))
	}
	sp := w.enter("SetDepthStencilState")
	w.umd.SetDepthStencilState(h, s, stencilRef)
	sp.end(nil)
}

func (w ddiCall) SetViewports(h ddi.HDEVICE, vps []ddi.Viewport) {
	if len(vps) > 1 {
		w.args = trace.IntArg(trace.KeyCount, int64(len(vps)))
	}
	sp := w.enter("SetViewports")
	w.umd.SetViewports(h, vps)
	sp.end(nil)
}

func (w ddiCall) SetScissorRects(h ddi.HDEVICE, rects []ddi.Rect) {
	w.args = trace.IntArg(trace.KeyCount, int64(len(rects)))
	sp := w.enter("SetScissorRects")
	w.umd.SetScissorRects(h, rects)
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

func (w ddiCall) ResourceUpdateSubresourceUP(h ddi.HDEVICE, dst ddi.HRESOURCE, sub uint32, box *ddi.Box, data []byte, rowPitch, depthPitch uint32) {
	sp := w.enter("ResourceUpdateSubresourceUP")
	w.umd.ResourceUpdateSubresourceUP(h, dst, sub, box, data, rowPitch, depthPitch)
	sp.end(nil)
}

func (w ddiCall) GenerateMips(h ddi.HDEVICE, v ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("GenerateMips")
	w.umd.GenerateMips(h, v)
	sp.end(nil)
}

// ResourceMap calls the map entry the runtime picked (ddi.MapEntry), traced
// under the entry's name with impl= naming the driver function behind it
// when that is another (the simulated UMD points five entries at its
// multipurpose ResourceMap). The DDI returns nothing: the error is what the
// driver reported through pfnSetErrorCb.
func (w ddiCall) ResourceMap(entry string, h ddi.HDEVICE, r ddi.HRESOURCE, t ddi.MapType, flags ddi.MapFlag) (ddi.MappedSubresource, error) {
	var b trace.ArgBuilder
	mapArgs(&b, t, flags)
	sp := w.entryEnter(entry, &b)
	w.watchErrors()
	var m ddi.MappedSubresource
	w.umd.ResourceMap(h, r, t, flags, &m)
	err := w.reportedError(sp.ev.Name)
	sp.end(err)
	return m, err
}

// ResourceUnmap calls the unmap entry paired with the map's.
func (w ddiCall) ResourceUnmap(entry string, a0 ddi.HDEVICE, a1 ddi.HRESOURCE) {
	var b trace.ArgBuilder
	sp := w.entryEnter(entry, &b)
	w.umd.ResourceUnmap(a0, a1)
	sp.end(nil)
}

// entryEnter enters the DDI behind a table entry: the event is named after
// the entry, and impl= names the driver function it points at when that has
// another name.
func (w ddiCall) entryEnter(entry string, b *trace.ArgBuilder) span {
	name := strings.TrimPrefix(entry, "pfn")
	if w.funcs != nil {
		if e := w.funcs.Get(entry); e.Impl != "" && e.Impl != name {
			b.Str(trace.KeyImpl, e.Impl)
		}
	}
	w.args = b.Args()
	return w.enter(name)
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

// QueryGetData returns nothing: a query not finished yet is the driver's
// DXGI_DDI_ERR_WASSTILLDRAWING through pfnSetErrorCb.
func (w ddiCall) QueryGetData(h ddi.HDEVICE, q ddi.HQUERY, flags uint32) (uint64, error) {
	sp := w.enter("QueryGetData")
	w.watchErrors()
	var v uint64
	w.umd.QueryGetData(h, q, flags, &v)
	err := w.reportedError("QueryGetData")
	sp.end(err)
	return v, err
}

func (w ddiCall) Flush(a0 ddi.HDEVICE) {
	sp := w.enter("Flush")
	w.umd.Flush(a0)
	sp.end(nil)
}

func (w ddiCall) PresentDXGI(h ddi.HDEVICE, a *ddi.PresentArg) error {
	sp := w.enter("PresentDXGI")
	err := w.umd.PresentDXGI(h, a)
	sp.end(err)
	return err
}

func (w ddiCall) RotateResourceIdentitiesDXGI(h ddi.HDEVICE, res []ddi.HRESOURCE) {
	sp := w.enter("RotateResourceIdentitiesDXGI")
	w.umd.RotateResourceIdentitiesDXGI(h, res)
	sp.end(nil)
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

func (w ddiCall) CreateDeferredContext(h ddi.HDEVICE, args *ddi.CreateDeferredContextArgs, dc ddi.HDEVICE) (ddi.Device, error) {
	sp := w.enter("CreateDeferredContext")
	w.watchErrors()
	v := w.umd.CreateDeferredContext(h, args, dc)
	err := w.reportedError("CreateDeferredContext")
	if err == nil && v == nil {
		err = hresult.Errorf(hresult.E_FAIL, "the driver's CreateDeferredContext returned no table")
	}
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

func (w ddiCall) CreateCommandList(h ddi.HDEVICE, args *ddi.CreateCommandListArgs, cl, rt ddi.HCOMMANDLIST) error {
	sp := w.enter("CreateCommandList")
	w.watchErrors()
	w.umd.CreateCommandList(h, args, cl, rt)
	err := w.reportedError("CreateCommandList")
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

func (w ddiCall) CalcPrivateElementLayoutSize(a *ddi.CreateElementLayoutArgs) int {
	sp := w.enter("CalcPrivateElementLayoutSize")
	n := w.umd.CalcPrivateElementLayoutSize(a)
	sp.end(nil)
	return n
}

func (w ddiCall) CreateElementLayout(h ddi.HDEVICE, a *ddi.CreateElementLayoutArgs, l ddi.HELEMENTLAYOUT, rt uint32) error {
	sp := w.enter("CreateElementLayout")
	w.watchErrors()
	w.umd.CreateElementLayout(h, a, l, rt)
	err := w.reportedError("CreateElementLayout")
	sp.end(err)
	return err
}

func (w ddiCall) DestroyElementLayout(h ddi.HDEVICE, l ddi.HELEMENTLAYOUT) {
	sp := w.enter("DestroyElementLayout")
	w.umd.DestroyElementLayout(h, l)
	sp.end(nil)
}

func (w ddiCall) IaSetInputLayout(h ddi.HDEVICE, l ddi.HELEMENTLAYOUT) {
	sp := w.enter("IaSetInputLayout")
	w.umd.IaSetInputLayout(h, l)
	sp.end(nil)
}

func (w ddiCall) DrawInstanced(h ddi.HDEVICE, count, instances, start, startInstance uint32) {
	sp := w.enter("DrawInstanced")
	w.umd.DrawInstanced(h, count, instances, start, startInstance)
	sp.end(nil)
}

func (w ddiCall) DrawIndexedInstanced(h ddi.HDEVICE, count, instances, start uint32, base int32, startInstance uint32) {
	sp := w.enter("DrawIndexedInstanced")
	w.umd.DrawIndexedInstanced(h, count, instances, start, base, startInstance)
	sp.end(nil)
}

func (w ddiCall) CheckFormatSupport(h ddi.HDEVICE, f ddi.Format) ddi.FormatSupport {
	sp := w.enter("CheckFormatSupport")
	s := w.umd.CheckFormatSupport(h, f)
	sp.ev.Args = supportArgs(f, s)
	sp.end(nil)
	return s
}
