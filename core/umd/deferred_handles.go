package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
)

// The object DDIs of a deferred context open and close context-local
// handles onto the device's objects; the runtime passes the immediate
// context's handle as rt and no description.

func (c *deferredContext) CalcPrivateResourceSize(*ddi.CreateResourceArgs) int { return sizeResource }

func (c *deferredContext) CreateResource(_ ddi.HDEVICE, _ *ddi.CreateResourceArgs, h ddi.HRESOURCE, rt ddi.HRTRESOURCE) {
	c.report(c.open("CreateResource", uint32(h), uint32(rt)))
}
func (c *deferredContext) DestroyResource(_ ddi.HDEVICE, h ddi.HRESOURCE) { c.close(uint32(h)) }

func (c *deferredContext) CreateRenderTargetView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HRENDERTARGETVIEW, rt uint32) {
	c.report(c.open(viewDDI[a.Kind], uint32(h), rt))
}
func (c *deferredContext) DestroyRenderTargetView(_ ddi.HDEVICE, h ddi.HRENDERTARGETVIEW) {
	c.close(uint32(h))
}
func (c *deferredContext) CreateShaderResourceView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HSHADERRESOURCEVIEW, rt uint32) {
	c.report(c.open(viewDDI[a.Kind], uint32(h), rt))
}
func (c *deferredContext) DestroyShaderResourceView(_ ddi.HDEVICE, h ddi.HSHADERRESOURCEVIEW) {
	c.close(uint32(h))
}
func (c *deferredContext) CreateDepthStencilView(_ ddi.HDEVICE, a *ddi.CreateViewArgs, h ddi.HDEPTHSTENCILVIEW, rt uint32) {
	c.report(c.open(viewDDI[a.Kind], uint32(h), rt))
}
func (c *deferredContext) DestroyDepthStencilView(_ ddi.HDEVICE, h ddi.HDEPTHSTENCILVIEW) {
	c.close(uint32(h))
}

func (c *deferredContext) CreateVertexShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateVertexShader", uint32(h), rt))
}
func (c *deferredContext) CreatePixelShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreatePixelShader", uint32(h), rt))
}
func (c *deferredContext) DestroyShader(_ ddi.HDEVICE, h ddi.HSHADER) { c.close(uint32(h)) }

func (c *deferredContext) CreateElementLayout(_ ddi.HDEVICE, _ *ddi.CreateElementLayoutArgs, h ddi.HELEMENTLAYOUT, rt uint32) {
	c.report(c.open("CreateElementLayout", uint32(h), rt))
}
func (c *deferredContext) DestroyElementLayout(_ ddi.HDEVICE, h ddi.HELEMENTLAYOUT) {
	c.close(uint32(h))
}

func (c *deferredContext) CreateBlendState(_ ddi.HDEVICE, _ *ddi.BlendDesc, h ddi.HBLENDSTATE, rt uint32) {
	c.report(c.open("CreateBlendState", uint32(h), rt))
}
func (c *deferredContext) DestroyBlendState(_ ddi.HDEVICE, h ddi.HBLENDSTATE) { c.close(uint32(h)) }

func (c *deferredContext) CreateRasterizerState(_ ddi.HDEVICE, _ *ddi.RasterizerDesc, h ddi.HRASTERIZERSTATE, rt uint32) {
	c.report(c.open("CreateRasterizerState", uint32(h), rt))
}
func (c *deferredContext) DestroyRasterizerState(_ ddi.HDEVICE, h ddi.HRASTERIZERSTATE) {
	c.close(uint32(h))
}

func (c *deferredContext) CreateDepthStencilState(_ ddi.HDEVICE, _ *ddi.DepthStencilDesc, h ddi.HDEPTHSTENCILSTATE, rt uint32) {
	c.report(c.open("CreateDepthStencilState", uint32(h), rt))
}
func (c *deferredContext) DestroyDepthStencilState(_ ddi.HDEVICE, h ddi.HDEPTHSTENCILSTATE) {
	c.close(uint32(h))
}

func (c *deferredContext) CreateSampler(_ ddi.HDEVICE, _ *ddi.SamplerDesc, h ddi.HSAMPLER, rt uint32) {
	c.report(c.open("CreateSampler", uint32(h), rt))
}
func (c *deferredContext) DestroySampler(_ ddi.HDEVICE, h ddi.HSAMPLER) { c.close(uint32(h)) }

func (c *deferredContext) CreateQuery(_ ddi.HDEVICE, _ ddi.QueryType, h ddi.HQUERY, rt uint32) {
	c.report(c.open("CreateQuery", uint32(h), rt))
}
func (c *deferredContext) DestroyQuery(_ ddi.HDEVICE, h ddi.HQUERY) { c.close(uint32(h)) }

// The DDIs below belong to the immediate context (the device). The runtime
// never calls them on a deferred context's table; they fail or do nothing.

func errImmediateOnly(name string) error {
	return hresult.Errorf(hresult.E_INVALIDARG, "umd: %s is not a deferred-context DDI", name)
}

func (c *deferredContext) Flush(ddi.HDEVICE) {}
func (c *deferredContext) QueryGetData(ddi.HDEVICE, ddi.HQUERY, []byte, uint32) {
	c.report(errImmediateOnly("QueryGetData"))
}
func (c *deferredContext) PresentDXGI(ddi.HDEVICE, *ddi.PresentArg) error {
	return errImmediateOnly("PresentDXGI")
}
func (c *deferredContext) RotateResourceIdentitiesDXGI(ddi.HDEVICE, []ddi.HRESOURCE) {
	c.report(errImmediateOnly("RotateResourceIdentitiesDXGI"))
}
func (c *deferredContext) SetDisplayModeDXGI(ddi.HDEVICE, ddi.HRESOURCE) error {
	return errImmediateOnly("SetDisplayModeDXGI")
}
func (c *deferredContext) CreateDeferredContext(ddi.HDEVICE, *ddi.CreateDeferredContextArgs, ddi.HDEVICE) ddi.Device {
	c.report(errImmediateOnly("CreateDeferredContext"))
	return nil
}
func (c *deferredContext) RecycleCreateDeferredContext(ddi.HDEVICE, ddi.HDEVICE) error {
	return errImmediateOnly("RecycleCreateDeferredContext")
}

// CreateCommandList on a deferred context opens its handle onto a command
// list it is about to execute.
func (c *deferredContext) CreateCommandList(_ ddi.HDEVICE, _ *ddi.CreateCommandListArgs, h ddi.HCOMMANDLIST, rt ddi.HCOMMANDLIST) {
	c.report(c.open("CreateCommandList", uint32(h), uint32(rt)))
}
func (c *deferredContext) RecycleCreateCommandList(ddi.HDEVICE, *ddi.CreateCommandListArgs, ddi.HCOMMANDLIST) error {
	return errImmediateOnly("RecycleCreateCommandList")
}
func (c *deferredContext) DestroyCommandList(_ ddi.HDEVICE, h ddi.HCOMMANDLIST)    { c.close(uint32(h)) }
func (c *deferredContext) RecycleDestroyCommandList(ddi.HDEVICE, ddi.HCOMMANDLIST) {}
