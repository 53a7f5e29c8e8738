package d3d11

import (
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// deferredContext is a deferred context of a driver that supports command
// lists (D3D11DDICAPS_COMMANDLISTS_BUILD_2): it has its own DDI table and handle,
// names objects with context-local handles (localhandles.go) and turns its
// recording into a command list with the driver ("Supporting command
// lists").
type deferredContext struct {
	driverContext
	deferredOnly

	core      ddi.HRTCORELAYER       // its own, for pfnSetErrorCb (rule ERR-DC)
	open      map[Object]uint32      // context-local handles opened for the command list being recorded
	openOrder []openEntry            // in opening order (a resource before its views, rule CLS-DEP)
	unbound   []interface{ unpin() } // unbound while a handle onto them was open: let go when the handles close (rule CLS-FIRST)
	failed    bool                   // the driver reported E_OUTOFMEMORY through pfnSetErrorCb
	abandoned bool                   // and the recording has been thrown away
	recycle   []*CommandList         // destroyed lists whose handles wait for RecycleCommandList (the InterlockedSList)
	cache     []ddi.HCOMMANDLIST
	begun     []*Query
	inRecycle bool // inside RecycleCommandList (errors there are critical)
	// lost: re-creating the driver's deferred context failed
	// (RecycleCreateDeferredContext, or CreateDeferredContext without
	// recycling, returned an error): no driver object stands behind c.h
	// until the runtime re-creates it (ensure), so nothing is opened on it.
	lost bool
}

// CreateDeferredContext creates a deferred context. A driver with command
// lists: CalcPrivateDeferredContextSize and CreateDeferredContext on the
// immediate context's table, which returns the deferred context's own
// table. A driver without: the runtime records the calls itself
// (emulatedContext).
func (d *Device) CreateDeferredContext(name string) (c *DeviceContext, err error) {
	done := d.api("CreateDeferredContext", name, "")
	defer func() { done.end(err) }()
	if err := d.removedHR(); err != nil {
		return nil, err
	}
	if !d.driverLists() {
		if err := d.reserve("CreateDeferredContext", name, ObjectOverhead); err != nil {
			return nil, err
		}
		c = newEmulatedContext(d, d.nextDCName())
		c.bytes = ObjectOverhead
		return c, nil
	}
	if c, reused, err := d.reuseDeferredContext(name); reused {
		return c, err
	}
	bytes := ObjectOverhead + int64(d.ddiIC().on(name, "").CalcPrivateDeferredContextSize(d.hDev))
	if err := d.reserve("CreateDeferredContext", name, bytes); err != nil {
		return nil, err
	}
	dcName := d.nextDCName()
	h := ddi.HDEVICE(d.rt.newHandle())
	core := ddi.HRTCORELAYER(d.rt.newHandle())
	table, err := d.ddiIC().with(name, handleName(uint32(h)), strArg(trace.KeyDC, dcName)).CreateDeferredContext(d.hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: core, Obj: name}, h)
	if err != nil {
		d.unreserve(bytes)
		return nil, err
	}
	return d.newDeferredContext(dcName, h, core, table, bytes), nil
}

// newDeferredContext makes the API object of a deferred context over the
// driver's handle h and table.
func (d *Device) newDeferredContext(dcName string, h ddi.HDEVICE, core ddi.HRTCORELAYER, table ddi.Device, bytes int64) *DeviceContext {
	c := &DeviceContext{dev: d, name: dcName, h: h, refs: 1, bytes: bytes}
	c.resetScalars()
	c.ddi = ddiTable{d: d, ctx: dcName, umd: table, reported: newReported()}
	c.contextKind = &deferredContext{driverContext: driverContext{c}, deferredOnly: deferredOnly{c}, core: core, open: map[Object]uint32{}}
	d.mu.Lock()
	d.contexts[core] = c
	d.mu.Unlock()
	d.children.Add(1)
	return c
}

// nextDCName numbers the device's deferred contexts: DC1, DC2, ...
func (d *Device) nextDCName() string {
	d.mu.Lock()
	d.dcCount++
	n := d.dcCount
	d.mu.Unlock()
	return fmt.Sprintf("DC%d", n)
}

func (c *deferredContext) dropPin(p binder) { p.unpin() }
func (c *deferredContext) discarding() bool { return !c.ensure() || c.failed }

// ensure re-creates the driver's deferred context if the last attempt
// failed (lost), before any DDI reaches it: RecycleCreateDeferredContext
// "clears out the pipeline state for a deferred context" and may fail with
// E_OUTOFMEMORY ("PFND3D11DDI_RECYCLECREATEDEFERREDCONTEXT"), and a handle
// opened on a context the driver could not re-create would name nothing.
// When it fails again the call is dropped and the recording counts as
// failed: FinishCommandList returns E_OUTOFMEMORY.
func (c *deferredContext) ensure() bool {
	if !c.lost {
		return true
	}
	if err := c.recycleContext(c.name); err != nil {
		c.failed, c.abandoned = true, true // nothing recorded to abandon
		return false
	}
	return true
}
func (c *deferredContext) mapped(r *Resource, t ddi.MapType) {
	c.mappedHere = append(c.mappedHere, r)
	c.mappedOnList(r, t)
}
func (c *deferredContext) queryBegun(q *Query) { c.begun = append(c.begun, q) }
func (c *deferredContext) outOfMemory()        { c.failed = true }
func (c *deferredContext) recycling() bool     { return c.inRecycle }

func (c *deferredContext) queryEnded(q *Query) {
	if i := slices.Index(c.begun, q); i >= 0 {
		c.begun = slices.Delete(c.begun, i, i+1)
	}
}

// deferredMapRule: a deferred context maps only DYNAMIC resources, with
// WRITE_DISCARD or WRITE_NO_OVERWRITE, and the first Map of a resource in
// each command list is WRITE_DISCARD ("ID3D11DeviceContext::Map method";
// else D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD, "D3D11
// Return Codes"). The discard is what lets the driver give the list a
// fresh version of the resource ("Mapping on Deferred Contexts"); the
// command list carries the new contents.
func (c *DeviceContext) deferredMapRule(r *Resource, t ddi.MapType) error {
	if r.Desc.Usage != ddi.UsageDynamic {
		return c.dev.invalid("Map", r.name, "a deferred context maps only DYNAMIC resources (ID3D11DeviceContext::Map)")
	}
	if t != ddi.MapWriteDiscard && t != ddi.MapWriteNoOverwrite {
		return c.dev.invalid("Map", r.name, "a deferred context maps only with WRITE_DISCARD or WRITE_NO_OVERWRITE, not %s", mapTypeNames[t])
	}
	if t == ddi.MapWriteNoOverwrite && !slices.Contains(c.discarded, r) {
		msg := "the first Map of a resource on a deferred context after CreateDeferredContext or FinishCommandList must be WRITE_DISCARD, not WRITE_NO_OVERWRITE"
		if c.dev.debug {
			c.dev.message("Map", r.name, "D3D11 ERROR: "+msg)
		}
		return hresult.Errorf(hresult.D3D11_ERROR_DEFERRED_CONTEXT_MAP_WITHOUT_INITIAL_DISCARD, "Map(%s): %s", r.name, msg)
	}
	return nil
}

// mappedOnList notes a successful Map on a deferred context.
func (c *DeviceContext) mappedOnList(r *Resource, t ddi.MapType) {
	if t == ddi.MapWriteDiscard && !slices.Contains(c.discarded, r) {
		c.discarded = append(c.discarded, r)
	}
}

func (c *deferredContext) mapRule(r *Resource, t ddi.MapType) error { return c.deferredMapRule(r, t) }

// afterDDI: when the driver reported E_OUTOFMEMORY through this deferred
// context's pfnSetErrorCb, the runtime throws the partial command list away;
// FinishCommandList will return E_OUTOFMEMORY.
func (c *deferredContext) afterDDI() {
	if c.failed && !c.abandoned {
		c.abandon()
	}
}

// deferredOnly is what both kinds of deferred context answer alike: they
// are deferred, and the immediate context's own calls fail on them.
type deferredOnly struct{ c *DeviceContext }

func (d deferredOnly) Deferred() bool { return true }

func (d deferredOnly) GetData(q *Query) (QueryData, hresult.HRESULT, error) {
	return d.c.getDataDeferred(q)
}

func (d deferredOnly) Flush() error {
	return d.c.refuse("Flush", "", d.c.name, "Flush is an immediate-context call")
}

// ExecuteCommandList on a deferred context (legal in D3D11) records the
// list's commands into the recording: through the driver's
// CommandListExecute on the context's own handle onto the list (opened like
// any context-local handle), or, emulated, as a recorded replay. The list is
// held by the recording. Like on the immediate context the context is left
// in the default state, or, with restore, in the state it had.
func (c *deferredContext) ExecuteCommandList(l *CommandList, restore bool) (err error) {
	done := c.api("ExecuteCommandList", objName(l))
	defer func() { done.end(err) }()
	if err := c.checkList(l); err != nil {
		return err
	}
	if c.discarding() {
		return nil // the recording was discarded; FinishCommandList will say so
	}
	c.replayMarkers(l)
	saved := c.bindings()
	hold := c.hold()
	lh := c.local(l)
	c.ddi.on(l.name, handleName(lh)).CommandListExecute(c.h, ddi.HCOMMANDLIST(lh))
	c.afterDDI()
	c.unbindAll()
	if restore && !c.discarding() {
		c.restore(saved)
	}
	hold()
	return nil
}

// Release destroys the deferred context with its last reference: a
// recording in progress is abandoned, then the driver's deferred context is
// destroyed.
func (c *deferredContext) Release() uint32 {
	return c.release(func() {
		c.abandon()
		c.freeLists()
		if c.dev.recycles() {
			c.retire() // kept for the next CreateDeferredContext (recycle.go)
			return
		}
		c.ddi.on(c.name, handleName(uint32(c.h))).DestroyDevice(c.h)
	})
}

// freeLists destroys the command-list handles the context retired (waiting
// for RecycleCommandList) or cached: with the context gone nothing can
// recycle them.
func (c *deferredContext) freeLists() {
	ic := c.dev.ddiIC()
	for _, old := range c.recycle {
		ic.on(old.name, handleName(uint32(old.h))).DestroyCommandList(c.dev.hDev, old.h)
		old.setState("freed")
	}
	for _, h := range c.cache {
		ic.on(c.name, handleName(uint32(h))).DestroyCommandList(c.dev.hDev, h)
	}
	c.recycle, c.cache = nil, nil
}

// abandon is the abandon sequence of "Supporting command lists":
// AbandonCommandList, unbind, close the open handles (rule CL-ABANDON). The
// context is recycled or destroyed by the caller.
func (c *deferredContext) abandon() {
	if c.abandoned {
		return
	}
	c.ddi.on(c.name, handleName(uint32(c.h))).AbandonCommandList(c.h)
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

// FinishCommandList records a command list from the deferred context, step
// by step as "Supporting command lists" lays it out (rule CL-FINISH).
func (c *deferredContext) FinishCommandList(name string, restore bool) (l *CommandList, err error) {
	done := c.api("FinishCommandList", name)
	defer func() { done.end(err) }()
	if err := c.dev.removedHR(); err != nil {
		return nil, err
	}
	d := c.dev
	ic := d.ddiIC()
	if c.lost {
		// Re-created now, with nothing recorded on it since it was lost
		// (each call in between re-created it first or was dropped).
		if err := c.recycleContext(name); err != nil {
			return nil, err
		}
	}
	// FinishCommandList ends the queries begun on the context (rule
	// CL-IMPLICIT; the bug leaves them open).
	if d.rt.cfg.Bugs.Has(rules.CLImplicit) {
		c.begun = c.begun[:0]
	}
	for _, q := range c.begun {
		c.ddi.on(q.name, handleName(c.local(q))).QueryEnd(c.h, c.qH(q))
		q.began, q.issued = false, true
	}
	c.begun = c.begun[:0]
	// ... and unmaps what was mapped on it (rule CL-IMPLICIT).
	for len(c.mappedHere) > 0 && !d.rt.cfg.Bugs.Has(rules.CLImplicit) {
		c.unmap(c.mappedHere[0])
	}
	c.discarded = c.discarded[:0] // the next list's first Maps discard again
	c.afterDDI()
	if c.failed && d.rt.cfg.Bugs.Has(rules.ErrDC) {
		c.failed, c.abandoned = false, false // the bug: forget the deferred context's error
	}
	if c.failed {
		return nil, c.reset(name, hresult.Errorf(hresult.E_OUTOFMEMORY, "the driver ran out of memory recording on %s (reported through pfnSetErrorCb)", c.name))
	}
	// Empty the recycle list, integrating into the cache (on this thread).
	for _, old := range c.recycle {
		c.inRecycle = true
		c.ddi.on(old.name, handleName(uint32(old.h))).RecycleCommandList(c.h, old.h)
		c.inRecycle = false
		old.setState("cached")
		c.cache = append(c.cache, old.h)
	}
	c.recycle = c.recycle[:0]
	args := &ddi.CreateCommandListArgs{DeferredContext: c.h}
	l = &CommandList{dc: c.DeviceContext, markers: c.takeMarkers()}
	// The list holds a reference on every object its recording used, so the
	// application may release them before it executes the list.
	body := &driverList{l: l, dc: c}
	for _, oe := range c.openOrder {
		if d.rt.cfg.Bugs.Has(rules.CLSFirst) {
			break // the bug: the list keeps nothing, so a released object's immediate handle goes first
		}
		if p, ok := oe.o.(pinner); ok {
			p.pin()
			body.held = append(body.held, p)
		}
	}
	earlyClose := d.rt.cfg.Bugs.Has(rules.CLFinish) // the bug: close the handles before the command list exists
	var saved binding
	var hold func()
	if earlyClose {
		saved, hold = c.bindings(), c.hold()
		c.unbindAll()
		c.closeHandles()
	}
	recycled := len(c.cache) > 0 && (d.rt.cfg.Recycle || d.rt.cfg.Bugs.Has(rules.CLCaps))
	if recycled {
		l.h = c.cache[0]
		c.cache = c.cache[1:]
		err = ic.on(name, handleName(uint32(l.h))).RecycleCreateCommandList(d.hDev, args, l.h)
	} else {
		l.private = ic.on(name, "").CalcPrivateCommandListSize(d.hDev, args)
		l.h = ddi.HCOMMANDLIST(d.rt.newHandle())
		err = ic.on(name, handleName(uint32(l.h))).CreateCommandList(d.hDev, args, l.h, 0)
		if err == nil {
			ic.on(name, handleName(uint32(l.h))).CalcDeferredContextHandleSize(d.hDev, ddi.HTCommandList, uint32(l.h))
		}
	}
	if err != nil {
		// E_OUTOFMEMORY straight from the DDI, never through pfnSetErrorCb (rule CL-OOM).
		if recycled {
			// The cached handle could not be made valid: the driver still
			// holds its memory, which goes now (nothing leaks).
			ic.on(name, handleName(uint32(l.h))).DestroyCommandList(d.hDev, l.h)
		}
		c.abandon()
		body.release()
		if hold != nil {
			hold()
		}
		return nil, c.reset(name, err)
	}
	// Close the open context-local handles, then recycle the context.
	if !earlyClose {
		saved, hold = c.bindings(), c.hold()
		c.unbindAll()
	}
	var rerr error
	if earlyClose {
		rerr = c.recycleContext(name)
	} else if d.rt.cfg.Bugs.Has(rules.CLClose) { // the bug: recycle the context with its handles open
		rerr = c.recycleContext(name)
		c.forgetHandles()
	} else {
		c.closeHandles()
		rerr = c.recycleContext(name)
	}
	if rerr != nil {
		// RecycleCreateDeferredContext failed: FinishCommandList fails, so
		// the list just made goes with what it held (nothing leaks).
		ic.on(name, handleName(uint32(l.h))).DestroyCommandList(d.hDev, l.h)
		hold()
		body.release()
		return nil, rerr
	}
	if restore {
		c.restore(saved)
	}
	hold()
	l.body = body
	d.initChild(&l.object, name, d.charge(ObjectOverhead+int64(l.private)), l.body.destroy)
	l.setState("valid")
	return l, nil
}

// reset finishes a failed recording: the context is made fresh again and err
// returned.
func (c *deferredContext) reset(name string, err error) error {
	if e := c.recycleContext(name); e != nil {
		return e
	}
	return err
}

func (c *deferredContext) recycleContext(name string) error {
	ic := c.dev.ddiIC()
	if !c.dev.rt.cfg.Recycle && !c.dev.rt.cfg.Bugs.Has(rules.CLCaps) {
		// Without D3D11DDICAPS_COMMANDLISTS_BUILD_2 (rule CL-CAPS): destroy
		// the deferred context and create it again.
		c.ddi.on(c.name, handleName(uint32(c.h))).DestroyDevice(c.h)
		ic.on(c.name, "").CalcPrivateDeferredContextSize(c.dev.hDev)
		c.h = ddi.HDEVICE(c.dev.rt.newHandle())
		table, err := ic.with(c.name, handleName(uint32(c.h)), strArg(trace.KeyDC, c.name)).CreateDeferredContext(c.dev.hDev, &ddi.CreateDeferredContextArgs{HRTCoreLayer: c.core, Obj: c.name}, c.h)
		if err == nil {
			c.ddi.umd = table
		}
		c.failed, c.abandoned = false, false
		c.lost = err != nil
		return err
	}
	err := ic.on(c.name, handleName(uint32(c.h))).RecycleCreateDeferredContext(c.dev.hDev, c.h)
	c.failed, c.abandoned = false, false
	c.lost = err != nil
	return err
}
