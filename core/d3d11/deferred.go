package d3d11

import (
	"d3dsim/core/rules"
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// Deferred contexts, context-local handles (seed 001) and command lists
// (seed 002).

// deferred is the part of a DeviceContext only a deferred context uses.
type deferred struct {
	isDC       bool
	core       ddi.HRTCORELAYER // its own, for pfnSetErrorCb (rule ERR-DC)
	refs       int32
	dead       bool
	open       map[Object]uint32      // context-local handles opened for the command list being recorded
	openOrder  []openEntry            // in opening order (a resource before its views, rule CLS-DEP)
	unbound    []interface{ unpin() } // unbound while a handle onto them was open: let go when the handles close (rule CLS-FIRST)
	failed     bool                   // the driver reported E_OUTOFMEMORY through pfnSetErrorCb
	abandoned  bool                   // and the recording has been thrown away
	recycle    []*CommandList         // destroyed lists whose handles wait for RecycleCommandList (the InterlockedSList)
	cache      []ddi.HCOMMANDLIST
	begun      []*Query
	mappedHere []*Resource // mapped on this context and not yet unmapped
	lists      int
	emulated   bool         // the runtime records API calls itself (driver.commandlists=false)
	inRecycle  bool         // inside RecycleCommandList (errors there are critical)
	ops        []recordedOp // emulated: the calls recorded so far
	held       []pinner     // emulated: the objects they name
}

// ddiCall emits a DDI Call on this context (ctx = IC, DC1, ...).
func (c *DeviceContext) ddiCall(name, obj, handle string) span {
	return c.ddiCallArgs(name, obj, handle, "")
}

func (c *DeviceContext) ddiCallArgs(name, obj, handle, args string) span {
	return c.dev.ddiEnter(c.name, name, obj, handle, args)
}

// Deferred reports whether the context is a deferred context.
func (c *DeviceContext) Deferred() bool { return c.isDC }

// UMD returns the context's DDI table (for fault injection).
func (c *DeviceContext) UMD() ddi.Device { return c.umd }

func (c *DeviceContext) Alive() bool { return !c.dead }

func (c *DeviceContext) AddRef() uint32 {
	c.refs++
	return uint32(c.refs)
}

// Release destroys a deferred context with its last reference: a recording
// in progress is abandoned (seed 002's abandon sequence), then the driver's
// deferred context is destroyed. The immediate context lives with its device.
func (c *DeviceContext) Release() uint32 {
	if !c.isDC {
		return 1
	}
	c.refs--
	if c.refs > 0 || c.dead {
		return uint32(max(c.refs, 0))
	}
	done := c.api("Release", c.name)
	if c.emulated {
		for _, p := range c.held {
			p.unpin()
		}
		c.ops, c.held = nil, nil
		c.unbindAll()
		c.dead = true
		done.end(nil)
		c.dev.childGone()
		return 0
	}
	c.abandon()
	ret := c.ddiCall("DestroyDevice", c.name, handleName(uint32(c.h)))
	c.umd.DestroyDevice(c.h)
	ret.end(nil)
	c.dead = true
	done.end(nil)
	c.dev.childGone()
	return 0
}

// CreateDeferredContext creates a deferred context: CalcPrivateDeferredContextSize
// and CreateDeferredContext on the immediate context's table, which returns
// the deferred context's own table.
func (d *Device) CreateDeferredContext(name string) (c *DeviceContext, err error) {
	done := d.api("CreateDeferredContext", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	cl, ok := d.umd.(ddi.CommandLists)
	if !ok || !d.rt.cfg.CommandLists {
		// No command-list support in the driver: the runtime emulates.
		d.mu.Lock()
		d.dcCount++
		n := d.dcCount
		d.mu.Unlock()
		c = &DeviceContext{dev: d, name: fmt.Sprintf("DC%d", n), umd: nil, h: 0}
		c.isDC, c.emulated, c.refs, c.open = true, true, 1, map[Object]uint32{}
		d.children.Add(1)
		return c, nil
	}
	ic := d.imm
	ret := ic.ddiCall("CalcPrivateDeferredContextSize", name, "")
	cl.CalcPrivateDeferredContextSize(d.hDev)
	ret.end(nil)
	d.mu.Lock()
	d.dcCount++
	n := d.dcCount
	d.mu.Unlock()
	h := ddi.HDEVICE(d.rt.newHandle())
	core := ddi.HRTCORELAYER(d.rt.newHandle())
	ret = ic.ddiCallArgs("CreateDeferredContext", name, handleName(uint32(h)), fmt.Sprintf("dc=DC%d", n))
	table, err := cl.CreateDeferredContext(d.hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: core, Obj: name}, h)
	ret.end(err)
	if err != nil {
		return nil, err
	}
	c = &DeviceContext{dev: d, name: fmt.Sprintf("DC%d", n), umd: table, h: h}
	c.isDC, c.core, c.refs, c.open = true, core, 1, map[Object]uint32{}
	d.mu.Lock()
	d.contexts[core] = c
	d.mu.Unlock()
	d.children.Add(1)
	return c, nil
}

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
		return v.h, map[ddi.ViewKind]ddi.HandleType{ddi.ViewRTV: ddi.HTRenderTargetView, ddi.ViewSRV: ddi.HTShaderResourceView, ddi.ViewDSV: ddi.HTDepthStencilView}[v.ViewKind]
	case *Shader:
		if v.Stage == "vs" {
			return uint32(v.h), ddi.HTVertexShader
		}
		return uint32(v.h), ddi.HTPixelShader
	case *State:
		return v.h, map[string]ddi.HandleType{"blend": ddi.HTBlendState, "rasterizer": ddi.HTRasterizerState, "depthstencil": ddi.HTDepthStencilState, "sampler": ddi.HTSampler}[v.Kind]
	case *Query:
		return uint32(v.h), ddi.HTQuery
	}
	return 0, 0
}

// local returns the handle this context uses for o. On a deferred context
// the handle is opened lazily, on first bind per command list (rule
// CLS-OPEN): DC::pfnCreate* with HDEVICE = the deferred context, no args but
// the context-local dependency handle, and rt = the immediate handle.
func (c *DeviceContext) local(o Object) uint32 {
	h, t := ddiHandle(o)
	if !c.isDC || h == 0 || c.dev.rt.cfg.Bugs.Has(rules.CLSOpen) { // the bug: hand the immediate handle to the deferred context
		return h
	}
	if l, ok := c.open[o]; ok && !c.dev.rt.cfg.Bugs.Has(rules.CLSOne) { // the bug: a new handle on every bind
		return l
	}
	if c.failed {
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
		ret := c.ddiCallArgs("CreateResource", name, handleName(l), "rt="+handleName(h))
		err = c.umd.CreateResource(c.h, nil, ddi.HRESOURCE(l), ddi.HRTRESOURCE(h))
		ret.end(err)
	case *View:
		args := &ddi.CreateViewArgs{Kind: v.ViewKind, Resource: ddi.HRESOURCE(c.open[v.Res])} // only the dependency (seed 001)
		api := map[ddi.ViewKind]string{ddi.ViewRTV: "CreateRenderTargetView", ddi.ViewSRV: "CreateShaderResourceView", ddi.ViewDSV: "CreateDepthStencilView"}[v.ViewKind]
		ret := c.ddiCallArgs(api, name, handleName(l), "rt="+handleName(h)+" dep="+handleName(uint32(args.Resource)))
		switch v.ViewKind {
		case ddi.ViewRTV:
			err = c.umd.CreateRenderTargetView(c.h, args, ddi.HRENDERTARGETVIEW(l), h)
		case ddi.ViewSRV:
			err = c.umd.CreateShaderResourceView(c.h, args, ddi.HSHADERRESOURCEVIEW(l), h)
		case ddi.ViewDSV:
			err = c.umd.CreateDepthStencilView(c.h, args, ddi.HDEPTHSTENCILVIEW(l), h)
		}
		ret.end(err)
	case *Shader:
		api := map[string]string{"vs": "CreateVertexShader", "ps": "CreatePixelShader"}[v.Stage]
		ret := c.ddiCallArgs(api, name, handleName(l), "rt="+handleName(h))
		if v.Stage == "vs" {
			err = c.umd.CreateVertexShader(c.h, nil, ddi.HSHADER(l), h)
		} else {
			err = c.umd.CreatePixelShader(c.h, nil, ddi.HSHADER(l), h)
		}
		ret.end(err)
	case *State:
		suffix := map[string]string{"blend": "BlendState", "rasterizer": "RasterizerState", "depthstencil": "DepthStencilState", "sampler": "Sampler"}[v.Kind]
		ret := c.ddiCallArgs("Create"+suffix, name, handleName(l), "rt="+handleName(h))
		switch v.Kind {
		case "blend":
			err = c.umd.CreateBlendState(c.h, nil, ddi.HBLENDSTATE(l), h)
		case "rasterizer":
			err = c.umd.CreateRasterizerState(c.h, nil, ddi.HRASTERIZERSTATE(l), h)
		case "depthstencil":
			err = c.umd.CreateDepthStencilState(c.h, nil, ddi.HDEPTHSTENCILSTATE(l), h)
		case "sampler":
			err = c.umd.CreateSampler(c.h, nil, ddi.HSAMPLER(l), h)
		}
		ret.end(err)
	case *Query:
		ret := c.ddiCallArgs("CreateQuery", name, handleName(l), "rt="+handleName(h))
		err = c.umd.CreateQuery(c.h, v.Type, ddi.HQUERY(l), h)
		ret.end(err)
	}
	_ = t
	if err != nil || c.failed {
		return 0
	}
	c.open[o] = l
	c.openOrder = append(c.openOrder, openEntry{o, l})
	c.dev.mu.Lock()
	c.dev.clsOpen++
	c.dev.clsHigh = max(c.dev.clsHigh, c.dev.clsOpen)
	c.dev.mu.Unlock()
	return l
}

func (c *DeviceContext) resH(r *Resource) ddi.HRESOURCE {
	if r == nil {
		return 0
	}
	return ddi.HRESOURCE(c.local(r))
}

func (c *DeviceContext) viewH(v *View) uint32 {
	if v == nil {
		return 0
	}
	return c.local(v)
}

func (c *DeviceContext) stH(s *State) uint32 {
	if s == nil {
		return 0
	}
	return c.local(s)
}

func (c *DeviceContext) shH(s *Shader) ddi.HSHADER {
	if s == nil {
		return 0
	}
	return ddi.HSHADER(c.local(s))
}

func (c *DeviceContext) qH(q *Query) ddi.HQUERY { return ddi.HQUERY(c.local(q)) }

// closeHandles destroys the open context-local handles: views before the
// resources they depend on, then the rest, newest first (rules CL-CLOSE,
// CLS-DEP, CLS-FIRST: the immediate handles outlive them all).
func (c *DeviceContext) closeHandles() {
	order := slices.Clone(c.openOrder)
	slices.Reverse(order)
	for _, oe := range order {
		o, l := oe.o, oe.h
		name := o.Name()
		switch v := o.(type) {
		case *Resource:
			ret := c.ddiCall("DestroyResource", name, handleName(l))
			c.umd.DestroyResource(c.h, ddi.HRESOURCE(l))
			ret.end(nil)
		case *View:
			api := map[ddi.ViewKind]string{ddi.ViewRTV: "DestroyRenderTargetView", ddi.ViewSRV: "DestroyShaderResourceView", ddi.ViewDSV: "DestroyDepthStencilView"}[v.ViewKind]
			ret := c.ddiCall(api, name, handleName(l))
			switch v.ViewKind {
			case ddi.ViewRTV:
				c.umd.DestroyRenderTargetView(c.h, ddi.HRENDERTARGETVIEW(l))
			case ddi.ViewSRV:
				c.umd.DestroyShaderResourceView(c.h, ddi.HSHADERRESOURCEVIEW(l))
			case ddi.ViewDSV:
				c.umd.DestroyDepthStencilView(c.h, ddi.HDEPTHSTENCILVIEW(l))
			}
			ret.end(nil)
		case *Shader:
			ret := c.ddiCall("DestroyShader", name, handleName(l))
			c.umd.DestroyShader(c.h, ddi.HSHADER(l))
			ret.end(nil)
		case *State:
			suffix := map[string]string{"blend": "BlendState", "rasterizer": "RasterizerState", "depthstencil": "DepthStencilState", "sampler": "Sampler"}[v.Kind]
			ret := c.ddiCall("Destroy"+suffix, name, handleName(l))
			switch v.Kind {
			case "blend":
				c.umd.DestroyBlendState(c.h, ddi.HBLENDSTATE(l))
			case "rasterizer":
				c.umd.DestroyRasterizerState(c.h, ddi.HRASTERIZERSTATE(l))
			case "depthstencil":
				c.umd.DestroyDepthStencilState(c.h, ddi.HDEPTHSTENCILSTATE(l))
			case "sampler":
				c.umd.DestroySampler(c.h, ddi.HSAMPLER(l))
			}
			ret.end(nil)
		case *Query:
			ret := c.ddiCall("DestroyQuery", name, handleName(l))
			c.umd.DestroyQuery(c.h, ddi.HQUERY(l))
			ret.end(nil)
		}
	}
	c.dev.mu.Lock()
	c.dev.clsOpen -= len(c.openOrder)
	c.dev.mu.Unlock()
	clear(c.open)
	c.openOrder = c.openOrder[:0]
	c.letGo()
}

// dropBinding drops a deferred context's binding. It destroys a released
// object at once -- the immediate context never bound it, so the runtime
// has nothing to defer -- but not before the context's handle onto it is
// closed: until then the context keeps its reference (rule CLS-FIRST: the
// immediate handle is destroyed last; bug=CLS-FIRST lets go at once).
func (c *DeviceContext) dropBinding(p interface{ unpin() }) {
	if o, ok := p.(Object); ok && !c.dev.rt.cfg.Bugs.Has(rules.CLSFirst) {
		if _, open := c.open[o]; open {
			c.unbound = append(c.unbound, p)
			return
		}
	}
	p.unpin()
}

// letGo drops the references dropBinding kept, once the handles are closed.
func (c *DeviceContext) letGo() {
	held := c.unbound
	c.unbound = nil
	for _, p := range held {
		p.unpin()
	}
}

// hold keeps the bound objects alive until the deferred context's handles
// onto them are closed: unbinding drops the context's references, and an
// object the application already released would otherwise lose its
// immediate-context handle first (rule CLS-FIRST; bug=CLS-FIRST skips it).
// The returned function lets go.
func (c *DeviceContext) hold() func() {
	if c.dev.rt.cfg.Bugs.Has(rules.CLSFirst) {
		return func() {}
	}
	return c.pinBindings()
}

// pinBindings takes a reference on everything bound and returns what drops
// them: as an immediate-context unbinding (which may queue, see unbind) on
// the immediate context, at once on a deferred context.
func (c *DeviceContext) pinBindings() func() {
	type pinned interface {
		pin()
		unpin()
		unbind()
	}
	var held []pinned
	add := func(o pinned) {
		o.pin()
		held = append(held, o)
	}
	b := c.bindings()
	for _, r := range append([]*Resource{b.vb, b.ib}, append(b.vsCB[:], b.psCB[:]...)...) {
		if r != nil {
			add(r)
		}
	}
	for _, v := range append(b.srv[:], b.rtv, b.dsv) {
		if v != nil {
			add(v)
		}
	}
	for _, s := range append(b.samp[:], b.blend, b.rs, b.depth) {
		if s != nil {
			add(s)
		}
	}
	for _, s := range []*Shader{b.vs, b.ps} {
		if s != nil {
			add(s)
		}
	}
	return func() {
		for _, o := range held {
			if c.isDC {
				o.unpin()
			} else {
				o.unbind()
			}
		}
	}
}

// forgetHandles drops the runtime's record of the open handles without
// closing them in the driver (only bug switches do this).
func (c *DeviceContext) forgetHandles() {
	c.dev.mu.Lock()
	c.dev.clsOpen -= len(c.openOrder)
	c.dev.mu.Unlock()
	clear(c.open)
	c.openOrder = c.openOrder[:0]
	c.letGo()
}

// unbindAll drops the context's bindings (and their pins).
func (c *DeviceContext) unbindAll() {
	bind(c, &c.vb, nil, nilRes)
	bind(c, &c.ib, nil, nilRes)
	bind(c, &c.vs, nil, nilShader)
	bind(c, &c.ps, nil, nilShader)
	for i := range c.vsCB {
		bind(c, &c.vsCB[i], nil, nilRes)
		bind(c, &c.psCB[i], nil, nilRes)
	}
	for i := range c.srv {
		bind(c, &c.srv[i], nil, nilView)
		bind(c, &c.samp[i], nil, nilState)
	}
	bind(c, &c.rtv, nil, nilView)
	bind(c, &c.dsv, nil, nilView)
	bind(c, &c.blend, nil, nilState)
	bind(c, &c.rs, nil, nilState)
	bind(c, &c.depth, nil, nilState)
	c.topo, c.vp, c.hasVP = ddi.TopologyUndefined, ddi.Viewport{}, false
}

// abandon is seed 002's abandon sequence: AbandonCommandList, unbind, close
// the open handles (rule CL-ABANDON). The context is recycled or destroyed
// by the caller.
func (c *DeviceContext) abandon() {
	if !c.isDC || c.abandoned {
		return
	}
	cl := c.umd.(ddi.CommandLists)
	ret := c.ddiCall("AbandonCommandList", c.name, handleName(uint32(c.h)))
	cl.AbandonCommandList(c.h)
	ret.end(nil)
	hold := c.hold()
	c.unbindAll()
	if c.dev.rt.cfg.Bugs.Has(rules.CLAbandon) {
		c.forgetHandles() // the bug: abandon without closing the open handles
	} else {
		c.closeHandles()
	}
	hold()
	c.begun = c.begun[:0]
	c.abandoned = true
}

// afterDDI: when the driver reported E_OUTOFMEMORY through this deferred
// context's pfnSetErrorCb, the runtime throws the partial command list away
// (seed 001); FinishCommandList will return E_OUTOFMEMORY.
func (c *DeviceContext) afterDDI() {
	if c.isDC && c.failed && !c.abandoned {
		c.abandon()
	}
}

// CommandList is an ID3D11CommandList.
type CommandList struct {
	object
	h     ddi.HCOMMANDLIST
	dc    *DeviceContext
	state string
	ops   []recordedOp // emulated command lists: the recorded API calls
	held  []pinner
}

// State is the handle's state in seed 002's machine: valid, retired,
// cached or freed.
func (l *CommandList) State() string { return l.state }

func (l *CommandList) setState(s string) {
	l.state = s
	l.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "CommandListState",
		Obj: l.name, Handle: handleName(uint32(l.h)), Ctx: l.dc.name, Args: trace.TextArgs("state=" + s),
		Msg: fmt.Sprintf("command list %s (%s) is %s", l.name, handleName(uint32(l.h)), s)})
}

// FinishCommandList records a command list from the deferred context:
// seed 002's pseudo-code, step by step (rule CL-FINISH).
func (c *DeviceContext) FinishCommandList(name string, restore bool) (l *CommandList, err error) {
	done := c.api("FinishCommandList", name)
	defer func() { done.end(err) }()
	if !c.isDC {
		return nil, c.dev.invalid("FinishCommandList", name, "only a deferred context records command lists")
	}
	if err := c.dev.removedHR(); err != nil {
		return nil, err
	}
	if c.emulated {
		for len(c.mappedHere) > 0 {
			c.unmap(c.mappedHere[0]) // rule CL-IMPLICIT
		}
		return c.finishEmulated(name, restore)
	}
	d := c.dev
	cls := c.umd.(ddi.CommandLists)
	icCL := d.umd.(ddi.CommandLists)
	ic := d.imm
	// FinishCommandList ends the queries begun on the context (rule
	// CL-IMPLICIT; the bug leaves them open).
	if d.rt.cfg.Bugs.Has(rules.CLImplicit) {
		c.begun = c.begun[:0]
	}
	for _, q := range c.begun {
		ret := c.ddiCall("QueryEnd", q.name, handleName(c.local(q)))
		c.umd.QueryEnd(c.h, c.qH(q))
		ret.end(nil)
		q.began, q.issued = false, true
	}
	c.begun = c.begun[:0]
	// ... and unmaps what was mapped on it (rule CL-IMPLICIT).
	for len(c.mappedHere) > 0 && !d.rt.cfg.Bugs.Has(rules.CLImplicit) {
		c.unmap(c.mappedHere[0])
	}
	c.afterDDI()
	if c.failed && d.rt.cfg.Bugs.Has(rules.ErrDC) {
		c.failed, c.abandoned = false, false // the bug: forget the deferred context's error
	}
	if c.failed {
		return nil, c.reset(name, hresult.Errorf(hresult.E_OUTOFMEMORY, "the driver ran out of memory recording on %s (reported through pfnSetErrorCb)", c.name))
	}
	// Empty the recycle list, integrating into the cache (on this thread).
	for _, old := range c.recycle {
		ret := c.ddiCall("RecycleCommandList", old.name, handleName(uint32(old.h)))
		c.inRecycle = true
		cls.RecycleCommandList(c.h, old.h)
		c.inRecycle = false
		ret.end(nil)
		old.setState("cached")
		c.cache = append(c.cache, old.h)
	}
	c.recycle = c.recycle[:0]
	args := &ddi.CreateCommandListArgs{DeferredContext: c.h}
	l = &CommandList{dc: c}
	earlyClose := d.rt.cfg.Bugs.Has(rules.CLFinish) // the bug: close the handles before the command list exists
	var saved binding
	var hold func()
	if earlyClose {
		saved, hold = c.bindings(), c.hold()
		c.unbindAll()
		c.closeHandles()
	}
	if len(c.cache) > 0 && (d.rt.cfg.Recycle || d.rt.cfg.Bugs.Has(rules.CLCaps)) {
		l.h = c.cache[0]
		c.cache = c.cache[1:]
		ret := ic.ddiCall("RecycleCreateCommandList", name, handleName(uint32(l.h)))
		err = icCL.RecycleCreateCommandList(d.hDev, args, l.h)
		ret.end(err)
	} else {
		n := icCL.CalcPrivateCommandListSize(d.hDev, args)
		ic.ddiCallArgs("CalcPrivateCommandListSize", name, "", fmt.Sprintf("size=%d", n)).end(nil)
		l.h = ddi.HCOMMANDLIST(d.rt.newHandle())
		ret := ic.ddiCall("CreateCommandList", name, handleName(uint32(l.h)))
		err = icCL.CreateCommandList(d.hDev, args, l.h)
		ret.end(err)
		if err == nil {
			n := icCL.CalcDeferredContextHandleSize(d.hDev, ddi.HTCommandList, uint32(l.h))
			ic.ddiCallArgs("CalcDeferredContextHandleSize", name, handleName(uint32(l.h)), fmt.Sprintf("type=%d size=%d", ddi.HTCommandList, n)).end(nil)
		}
	}
	if err != nil {
		// E_OUTOFMEMORY straight from the DDI, never through pfnSetErrorCb (rule CL-OOM).
		c.abandon()
		return nil, c.reset(name, err)
	}
	// Close the open context-local handles, then recycle the context.
	if !earlyClose {
		saved, hold = c.bindings(), c.hold()
		c.unbindAll()
	}
	if earlyClose {
		if err := c.recycleContext(name); err != nil {
			return nil, err
		}
	} else if d.rt.cfg.Bugs.Has(rules.CLClose) { // the bug: recycle the context with its handles open
		if err := c.recycleContext(name); err != nil {
			return nil, err
		}
		c.forgetHandles()
	} else {
		c.closeHandles()
		if err := c.recycleContext(name); err != nil {
			return nil, err
		}
	}
	if restore {
		c.restore(saved)
	}
	hold()
	d.initChild(&l.object, name, func() { l.destroy() })
	l.setState("valid")
	c.lists++
	return l, nil
}

// reset finishes a failed recording: the context is made fresh again and err
// returned.
func (c *DeviceContext) reset(name string, err error) error {
	if e := c.recycleContext(name); e != nil {
		return e
	}
	return err
}

func (c *DeviceContext) recycleContext(name string) error {
	cls := c.dev.umd.(ddi.CommandLists)
	if !c.dev.rt.cfg.Recycle && !c.dev.rt.cfg.Bugs.Has(rules.CLCaps) {
		// Without D3D11DDICAPS_COMMANDLISTS_BUILD_2 (rule CL-CAPS): destroy
		// the deferred context and create it again.
		ret := c.ddiCall("DestroyDevice", c.name, handleName(uint32(c.h)))
		c.umd.DestroyDevice(c.h)
		ret.end(nil)
		ic := c.dev.imm
		ret = ic.ddiCall("CalcPrivateDeferredContextSize", c.name, "")
		cls.CalcPrivateDeferredContextSize(c.dev.hDev)
		ret.end(nil)
		c.h = ddi.HDEVICE(c.dev.rt.newHandle())
		ret = ic.ddiCallArgs("CreateDeferredContext", c.name, handleName(uint32(c.h)), "dc="+c.name)
		table, err := cls.CreateDeferredContext(c.dev.hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: c.core, Obj: c.name}, c.h)
		ret.end(err)
		if err == nil {
			c.umd = table
		}
		c.failed, c.abandoned = false, false
		return err
	}
	ret := c.dev.imm.ddiCall("RecycleCreateDeferredContext", c.name, handleName(uint32(c.h)))
	err := cls.RecycleCreateDeferredContext(c.dev.hDev, c.h)
	ret.end(err)
	c.failed, c.abandoned = false, false
	return err
}

// destroy is CommandList::Destroy of seed 002: a light RecycleDestroyCommandList
// while its deferred context lives (the handle then waits on the context's
// recycle list), else DestroyCommandList (rule CL-DESTROY).
func (l *CommandList) destroy() {
	d := l.dev
	cls := d.umd.(ddi.CommandLists)
	if l.dc.Alive() && (d.rt.cfg.Recycle || d.rt.cfg.Bugs.Has(rules.CLCaps)) && !d.rt.cfg.Bugs.Has(rules.CLDestroy) { // CL-CAPS bug: recycle without the cap; CL-DESTROY bug: never recycle
		ret := d.imm.ddiCall("RecycleDestroyCommandList", l.name, handleName(uint32(l.h)))
		cls.RecycleDestroyCommandList(d.hDev, l.h)
		ret.end(nil)
		l.setState("retired")
		if d.rt.cfg.Bugs.Has(rules.CLRecycleThread) { // the bug: fold it back here, on the releasing thread
			ret := l.dc.ddiCall("RecycleCommandList", l.name, handleName(uint32(l.h)))
			l.dc.umd.(ddi.CommandLists).RecycleCommandList(l.dc.h, l.h)
			ret.end(nil)
			l.setState("cached")
			l.dc.cache = append(l.dc.cache, l.h)
			return
		}
		l.dc.recycle = append(l.dc.recycle, l)
		return
	}
	ret := d.imm.ddiCall("DestroyCommandList", l.name, handleName(uint32(l.h)))
	cls.DestroyCommandList(d.hDev, l.h)
	ret.end(nil)
	l.setState("freed")
}

// ExecuteCommandList runs a command list on the immediate context. The
// context is left cleared (rule CL-EXEC), or restored with restore.
func (c *DeviceContext) ExecuteCommandList(l *CommandList, restore bool) (err error) {
	done := c.api("ExecuteCommandList", objName(l))
	defer func() { done.end(err) }()
	if c.isDC {
		return c.dev.invalid("ExecuteCommandList", objName(l), "command lists run on the immediate context")
	}
	if l == nil {
		return hresult.Errorf(hresult.E_INVALIDARG, "ExecuteCommandList needs a command list")
	}
	bug := c.dev.rt.cfg.Bugs.Has(rules.CLState) // the bug: execute whatever handle it is given
	if !l.Alive() && !bug {
		return hresult.Errorf(hresult.E_INVALIDARG, "ExecuteCommandList uses %s after its final Release (rule LIFE-DANGLING)", objName(l))
	}
	if l.state != "valid" && !bug {
		return c.dev.invalid("ExecuteCommandList", l.name, "command list handle is %s, not valid (rule CL-STATE)", l.state)
	}
	saved := c.bindings()
	if restore {
		// RestoreContextState: the bindings survive the reset, released
		// objects among them included (they are not queued meanwhile).
		defer c.pinBindings()()
	}
	if l.dc.emulated {
		if err := c.executeEmulated(l); err != nil {
			return err
		}
		if restore {
			c.restore(saved)
		}
		return nil
	}
	ret := c.ddiCall("CommandListExecute", l.name, handleName(uint32(l.h)))
	c.dev.umd.(ddi.CommandLists).CommandListExecute(c.h, l.h)
	ret.end(nil)
	if !c.dev.rt.cfg.Bugs.Has(rules.CLExec) { // the bug: the context keeps its bindings
		c.unbindAll() // CommandListExecute leaves the context cleared (rule CL-EXEC)
	}
	if restore {
		c.restore(saved)
	}
	return nil
}

// binding is a saved context state.
type binding struct {
	vb, ib           *Resource
	vsCB, psCB       [4]*Resource
	srv              [8]*View
	samp             [8]*State
	vs, ps           *Shader
	rtv, dsv         *View
	blend, rs, depth *State
	topo             ddi.Topology
	vp               *ddi.Viewport
}

func (c *DeviceContext) bindings() binding {
	return binding{vb: c.vb, ib: c.ib, vsCB: c.vsCB, psCB: c.psCB, srv: c.srv, samp: c.samp, vs: c.vs, ps: c.ps,
		rtv: c.rtv, dsv: c.dsv, blend: c.blend, rs: c.rs, depth: c.depth, topo: c.topo, vp: c.viewport()}
}

// restore re-binds a saved state through the DDIs (RestoreContextState /
// RestoreDeferredContextState = TRUE).
func (c *DeviceContext) viewport() *ddi.Viewport {
	if !c.hasVP {
		return nil
	}
	vp := c.vp
	return &vp
}

func (c *DeviceContext) restore(b binding) {
	if b.topo != ddi.TopologyUndefined {
		c.IASetPrimitiveTopology(b.topo)
	}
	if b.vp != nil {
		c.RSSetViewports(*b.vp)
	}
	if b.vb != nil && b.vb.Alive() {
		c.IASetVertexBuffers(0, b.vb, 36, 0)
	}
	if b.ib != nil && b.ib.Alive() {
		c.IASetIndexBuffer(b.ib, ddi.FormatR16Uint, 0)
	}
	if b.vs != nil && b.vs.Alive() {
		c.VSSetShader(b.vs)
	}
	if b.ps != nil && b.ps.Alive() {
		c.PSSetShader(b.ps)
	}
	for i := range b.vsCB {
		if b.vsCB[i] != nil && b.vsCB[i].Alive() {
			c.VSSetConstantBuffers(uint32(i), b.vsCB[i])
		}
		if b.psCB[i] != nil && b.psCB[i].Alive() {
			c.PSSetConstantBuffers(uint32(i), b.psCB[i])
		}
	}
	for i := range b.srv {
		if b.srv[i] != nil && b.srv[i].Alive() {
			c.PSSetShaderResources(uint32(i), b.srv[i])
		}
		if b.samp[i] != nil && b.samp[i].Alive() {
			c.PSSetSamplers(uint32(i), b.samp[i])
		}
	}
	if b.rtv != nil || b.dsv != nil {
		c.OMSetRenderTargets(b.rtv, b.dsv)
	}
	if b.blend != nil {
		c.OMSetBlendState(b.blend)
	}
	if b.rs != nil {
		c.RSSetState(b.rs)
	}
	if b.depth != nil {
		c.OMSetDepthStencilState(b.depth)
	}
}
