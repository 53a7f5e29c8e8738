package d3d11

import (
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// Context-local handles ("Using context-local DDI handles"): a deferred
// context names objects to its driver with handles of its own, opened on
// first use in each command list and closed when the list is made.

// openEntry is one context-local handle opened for an object.
type openEntry struct {
	o Object
	h uint32
}

// ddiHandle is the immediate context's driver handle of an object and the
// DDI handle type it is.
func ddiHandle(o Object) (uint32, ddi.HandleType) {
	switch v := o.(type) {
	case *Resource:
		return uint32(v.h), ddi.HTResource
	case *View:
		return v.h, map[ddi.ViewKind]ddi.HandleType{ddi.ViewRTV: ddi.HTRenderTargetView, ddi.ViewSRV: ddi.HTShaderResourceView, ddi.ViewDSV: ddi.HTDepthStencilView,
			ddi.ViewUAV: ddi.HTUnorderedAccessView}[v.ViewKind]
	case *Shader:
		return uint32(v.h), ddi.HTShader // every stage: D3D10DDI_HT_SHADER
	case *State:
		return v.h, map[string]ddi.HandleType{"blend": ddi.HTBlendState, "rasterizer": ddi.HTRasterizerState, "depthstencil": ddi.HTDepthStencilState, "sampler": ddi.HTSamplerState}[v.Kind]
	case *Query:
		return uint32(v.h), ddi.HTQuery
	case *CommandList:
		return uint32(v.h), ddi.HTCommandList
	case *InputLayout:
		return v.h, ddi.HTElementLayout
	}
	return 0, 0
}

// local returns the handle this context uses for o, opened lazily, on first
// bind per command list (rule CLS-OPEN): DC::pfnCreate* with HDEVICE = the
// deferred context, no args but the context-local dependency handle, and
// rt = the immediate handle.
func (c *deferredContext) local(o Object) uint32 {
	h, _ := ddiHandle(o)
	if h == 0 || c.dev.rt.cfg.Bugs.Has(rules.CLSOpen) { // the bug: hand the immediate handle to the deferred context
		return h
	}
	if l, ok := c.open[o]; ok && !c.dev.rt.cfg.Bugs.Has(rules.CLSOne) { // the bug: a new handle on every bind
		return l
	}
	if !c.ensure() || c.failed {
		return 0
	}
	if v, isView := o.(*View); isView && !c.dev.rt.cfg.Bugs.Has(rules.CLSDep) {
		c.local(v.Res) // the resource's handle first (rule CLS-DEP; the bug skips it)
	}
	l := c.dev.rt.newHandle()
	name := o.Name()
	var err error
	switch v := o.(type) {
	case *Resource:
		err = c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h))).CreateResource(c.h, nil, ddi.HRESOURCE(l), ddi.HRTRESOURCE(h))
	case *View:
		args := &ddi.CreateViewArgs{Kind: v.ViewKind, Resource: ddi.HRESOURCE(c.open[v.Res])} // only the dependency
		w := c.ddi.with(name, handleName(l), rtDep(handleName(h), handleName(uint32(args.Resource))))
		switch v.ViewKind {
		case ddi.ViewRTV:
			err = w.CreateRenderTargetView(c.h, args, ddi.HRENDERTARGETVIEW(l), h)
		case ddi.ViewSRV:
			err = w.CreateShaderResourceView(c.h, args, ddi.HSHADERRESOURCEVIEW(l), h)
		case ddi.ViewDSV:
			err = w.CreateDepthStencilView(c.h, args, ddi.HDEPTHSTENCILVIEW(l), h)
		case ddi.ViewUAV:
			err = w.CreateUnorderedAccessView(c.h, args, ddi.HUNORDEREDACCESSVIEW(l), h)
		}
	case *Shader:
		w := c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h)))
		switch v.Stage {
		case "vs":
			err = w.CreateVertexShader(c.h, nil, ddi.HSHADER(l), h)
		case "cs":
			err = w.CreateComputeShader(c.h, nil, ddi.HSHADER(l), h)
		case "gs":
			err = w.CreateGeometryShader(c.h, nil, ddi.HSHADER(l), h)
		case "hs":
			err = w.CreateHullShader(c.h, nil, ddi.HSHADER(l), h)
		case "ds":
			err = w.CreateDomainShader(c.h, nil, ddi.HSHADER(l), h)
		default:
			err = w.CreatePixelShader(c.h, nil, ddi.HSHADER(l), h)
		}
	case *State:
		w := c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h)))
		switch v.Kind {
		case "blend":
			err = w.CreateBlendState(c.h, nil, ddi.HBLENDSTATE(l), h)
		case "rasterizer":
			err = w.CreateRasterizerState(c.h, nil, ddi.HRASTERIZERSTATE(l), h)
		case "depthstencil":
			err = w.CreateDepthStencilState(c.h, nil, ddi.HDEPTHSTENCILSTATE(l), h)
		case "sampler":
			err = w.CreateSampler(c.h, nil, ddi.HSAMPLER(l), h)
		}
	case *Query:
		err = c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h))).CreateQuery(c.h, v.Type, ddi.HQUERY(l), h)
	case *InputLayout:
		err = c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h))).CreateElementLayout(c.h, nil, ddi.HELEMENTLAYOUT(l), h)
	case *CommandList: // executed on this deferred context
		err = c.ddi.with(name, handleName(l), strArg(trace.KeyRT, handleName(h))).CreateCommandList(c.h, nil, ddi.HCOMMANDLIST(l), ddi.HCOMMANDLIST(h))
	}
	if err != nil || c.failed {
		return 0
	}
	c.open[o] = l
	c.openOrder = append(c.openOrder, openEntry{o, l})
	c.dev.clsAlloc(o) // a slot of the size CalcDeferredContextHandleSize gave (memory.go)
	return l
}

// closeHandles destroys the open context-local handles: views before the
// resources they depend on, then the rest, newest first (rules CL-CLOSE,
// CLS-DEP, CLS-FIRST: the immediate handles outlive them all).
func (c *deferredContext) closeHandles() {
	order := slices.Clone(c.openOrder)
	slices.Reverse(order)
	for _, oe := range order {
		o, l := oe.o, oe.h
		w := c.ddi.on(o.Name(), handleName(l))
		switch v := o.(type) {
		case *Resource:
			w.DestroyResource(c.h, ddi.HRESOURCE(l))
		case *View:
			switch v.ViewKind {
			case ddi.ViewRTV:
				w.DestroyRenderTargetView(c.h, ddi.HRENDERTARGETVIEW(l))
			case ddi.ViewSRV:
				w.DestroyShaderResourceView(c.h, ddi.HSHADERRESOURCEVIEW(l))
			case ddi.ViewDSV:
				w.DestroyDepthStencilView(c.h, ddi.HDEPTHSTENCILVIEW(l))
			case ddi.ViewUAV:
				w.DestroyUnorderedAccessView(c.h, ddi.HUNORDEREDACCESSVIEW(l))
			}
		case *Shader:
			w.DestroyShader(c.h, ddi.HSHADER(l))
		case *State:
			switch v.Kind {
			case "blend":
				w.DestroyBlendState(c.h, ddi.HBLENDSTATE(l))
			case "rasterizer":
				w.DestroyRasterizerState(c.h, ddi.HRASTERIZERSTATE(l))
			case "depthstencil":
				w.DestroyDepthStencilState(c.h, ddi.HDEPTHSTENCILSTATE(l))
			case "sampler":
				w.DestroySampler(c.h, ddi.HSAMPLER(l))
			}
		case *Query:
			w.DestroyQuery(c.h, ddi.HQUERY(l))
		case *CommandList:
			w.DestroyCommandList(c.h, ddi.HCOMMANDLIST(l))
		case *InputLayout:
			w.DestroyElementLayout(c.h, ddi.HELEMENTLAYOUT(l))
		}
	}
	c.forgetHandles()
}

// forgetHandles drops the runtime's record of the open handles (after
// closeHandles, or without closing them in the driver: only bug switches
// do that).
func (c *deferredContext) forgetHandles() {
	for _, oe := range c.openOrder {
		c.dev.clsFree(oe.o)
	}
	clear(c.open)
	c.openOrder = c.openOrder[:0]
	c.letGo()
}

// dropBinding drops a deferred context's binding. It destroys a released
// object at once -- the immediate context never bound it, so the runtime
// has nothing to defer -- but not before the context's handle onto it is
// closed: until then the context keeps its reference (rule CLS-FIRST: the
// immediate handle is destroyed last; bug=CLS-FIRST lets go at once).
func (c *deferredContext) dropBinding(p binder) {
	if o, ok := p.(Object); ok && !c.dev.rt.cfg.Bugs.Has(rules.CLSFirst) {
		if _, open := c.open[o]; open {
			c.unbound = append(c.unbound, p)
			return
		}
	}
	p.unpin()
}

// letGo drops the references dropBinding kept, once the handles are closed.
func (c *deferredContext) letGo() {
	held := c.unbound
	c.unbound = nil
	for _, p := range held {
		p.unpin()
	}
}

// rtDep is a deferred view's payload: its runtime handle and the resource
// it depends on.
func rtDep(rt, dep string) trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeyRT, rt).Str(trace.KeyDep, dep).Args()
}
