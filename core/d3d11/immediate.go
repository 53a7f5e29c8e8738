package d3d11

import (
	"errors"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
)

// immediateContext is the device's immediate context, driven by one thread
// at a time (D3D11's rule). Its calls go straight to the UMD with the
// immediate handles; an unbinding that drops a released object's last
// reference queues the object in the runtime's destruction queue.
type immediateContext struct {
	driverContext
	// retired holds the driver handles of released deferred contexts,
	// kept for RecycleCreateDeferredContext (recycle.go).
	retired []retiredDC
}

func newImmediateContext(d *Device) *DeviceContext {
	c := &DeviceContext{dev: d, name: "IC", h: d.hDev, imm: true}
	c.resetScalars()
	c.ddi = ddiTable{d: d, ctx: "IC", umd: d.umd, funcs: d.table, reported: newReported()}
	c.contextKind = &immediateContext{driverContext: driverContext{c}}
	return c
}

func (c *immediateContext) Deferred() bool { return false }

// Release: the immediate context lives with its device (an API call in
// the trace all the same).
func (c *immediateContext) Release() uint32 {
	c.api("Release", c.name).end(nil)
	return 1
}

func (c *immediateContext) dropBinding(p binder)                 { p.unbind() } // may queue (object.unbind)
func (c *immediateContext) dropPin(p binder)                     { p.unbind() }
func (c *immediateContext) local(o Object) uint32                { h, _ := ddiHandle(o); return h }
func (c *immediateContext) discarding() bool                     { return false }
func (c *immediateContext) afterDDI()                            {}
func (c *immediateContext) mapped(*Resource, ddi.MapType)        {}
func (c *immediateContext) queryBegun(*Query)                    {}
func (c *immediateContext) queryEnded(*Query)                    {}
func (c *immediateContext) outOfMemory()                         {}
func (c *immediateContext) recycling() bool                      { return false }
func (c *immediateContext) mapRule(*Resource, ddi.MapType) error { return nil }

// unmapDDI calls ResourceUnmap.
func (c driverContext) unmapDDI(r *Resource) {
	hr := c.resH(r)
	if r.unmapEntry == "" {
		return // mapped on a removed device: the driver never saw the map (mapRemoved)
	}
	c.ddi.on(r.name, handleName(uint32(hr))).ResourceUnmap(r.unmapEntry, c.h, hr)
}

// ClearState: when the application released the device before clearing
// what it still bound, the unbound objects go now, and the device with them
// (maybeDestroy).
func (c *immediateContext) ClearState() error {
	return c.clearState(func() {
		if c.dev.refs.Load() == 0 {
			c.dev.maybeDestroy()
		}
	})
}

// GetData returns S_FALSE while the GPU has not reached the query's End.
func (c *immediateContext) GetData(q *Query) (v QueryData, hr hresult.HRESULT, err error) {
	done := c.api("GetData", objName(q))
	defer func() {
		if hr == hresult.S_OK && err == nil {
			done.ev.Args = v.args()
		}
		done.end(getDataErr(hr, err))
	}()
	if hr, err := c.getDataPrologue(q); err != nil {
		return v, hr, err
	}
	if q.inLists.Load() > 0 {
		// Ended in a command list the runtime recorded that has not run
		// yet: not signalled until the list is executed and the GPU passes
		// the End.
		return v, hresult.S_FALSE, nil
	}
	if !q.issued {
		err := c.dev.invalid("GetData", q.name, "the query was never ended")
		return v, hresult.E_INVALIDARG, err
	}
	if q.began {
		// "ID3D11DeviceContext::GetData": between Begin and End the data
		// is not available (the debug layer says the query is building).
		err := c.dev.invalid("GetData", q.name, "the query is between its Begin and its End")
		return v, hresult.E_INVALIDARG, err
	}
	v, err = c.getQueryData(q)
	switch {
	case errors.Is(err, hresult.DXGI_DDI_ERR_WASSTILLDRAWING):
		return QueryData{}, hresult.S_FALSE, nil // not finished yet: S_FALSE for the application
	case err != nil:
		if e := c.dev.removedHR(); e != nil {
			return QueryData{}, hresult.Of(e), e
		}
		return QueryData{}, hresult.Of(err), err
	}
	return v, hresult.S_OK, nil
}

// getDataErr is what GetData's Return event reports.
func getDataErr(hr hresult.HRESULT, err error) error {
	if err == nil && hr != hresult.S_OK {
		return hr
	}
	return err
}

// getDataPrologue is the validation every kind of context does first in
// GetData.
func (c *DeviceContext) getDataPrologue(q *Query) (hresult.HRESULT, error) {
	if err := c.checkAll("GetData", q); err != nil {
		return hresult.Of(err), err
	}
	if err := c.dev.removedHR(); err != nil {
		return hresult.DXGI_ERROR_DEVICE_REMOVED, err
	}
	return hresult.S_OK, nil
}

// getDataDeferred is GetData on a deferred context, which has none.
func (c *DeviceContext) getDataDeferred(q *Query) (v QueryData, hr hresult.HRESULT, err error) {
	done := c.api("GetData", objName(q))
	defer func() { done.end(getDataErr(hr, err)) }()
	if hr, err := c.getDataPrologue(q); err != nil {
		return v, hr, err
	}
	return v, hresult.E_INVALIDARG, c.dev.invalid("GetData", q.name, "GetData is not available on a deferred context")
}

// Flush drains the runtime's destruction queue and submits the command
// buffer (pfnRenderCb, "WDDM operation flow"). It returns nothing in D3D11:
// on a removed device it only destroys what the runtime queued.
func (c *immediateContext) Flush() error {
	done := c.api("Flush", "")
	if !c.dev.rt.cfg.Bugs.Has(rules.DDSync) { // the bug: only amortized processing drains the runtime's queue
		// Flush is the official way to destroy synchronously (Release;
		// ClearState; Flush): the runtime first destroys what it queued --
		// what ClearState unbound -- so that the driver's Flush, which
		// processes its own deferred-destruction queue even with nothing
		// to submit, deallocates it too (rules DD-SYNC, DD-FLUSH).
		c.dev.drainDestroyQueue("IC", "Flush")
	}
	if c.dev.Removed() != nil {
		done.end(nil)
		return nil
	}
	c.ddi.on("", "").Flush(c.h)
	done.end(nil)
	return nil
}

func (c *immediateContext) FinishCommandList(name string, restore bool) (*CommandList, error) {
	return nil, c.refuse("FinishCommandList", name, name, "only a deferred context records command lists")
}

// checkList validates ExecuteCommandList's command list (either kind of
// context).
func (c *DeviceContext) checkList(l *CommandList) error {
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
	return nil
}

// ExecuteCommandList runs a command list on the immediate context. The
// context is left cleared (rule CL-EXEC), or restored with restore.
func (c *immediateContext) ExecuteCommandList(l *CommandList, restore bool) (err error) {
	done := c.api("ExecuteCommandList", objName(l))
	defer func() { done.end(err) }()
	if err := c.checkList(l); err != nil {
		return err
	}
	c.replayMarkers(l)
	saved := c.bindings()
	if restore {
		// RestoreContextState: the bindings survive the reset, released
		// objects among them included (they are not queued meanwhile).
		defer c.pinBindings()()
	}
	if err := l.body.execute(c); err != nil {
		return err
	}
	if restore {
		c.restore(saved)
	}
	return nil
}
