package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// Deferred contexts are recycled like command lists ("Supporting command
// lists", small command lists): with D3D11DDICAPS_COMMANDLISTS_BUILD_2 a
// released deferred context's driver handle is not destroyed (no
// DestroyDevice) but kept, and the next CreateDeferredContext makes it fresh
// with RecycleCreateDeferredContext instead of CalcPrivateDeferredContextSize
// and CreateDeferredContext -- the calls whose overhead the page's recycling
// DDIs exist to avoid. What is still kept goes with the device.

// retiredDC is a released deferred context's driver handle, kept for reuse.
type retiredDC struct {
	name    string // the context's name when it was released (its DDIs were traced under it)
	h       ddi.HDEVICE
	core    ddi.HRTCORELAYER // the driver keeps it: the reused context reports through the same
	table   ddi.Device
	private int64 // what CalcPrivateDeferredContextSize answered
}

// recycles reports whether the runtime uses the Recycle* DDIs (rule CL-CAPS;
// the bug switch uses them without the cap).
func (d *Device) recycles() bool {
	return d.rt.cfg.Recycle || d.rt.cfg.Bugs.Has(rules.CLCaps)
}

func (d *Device) icKind() *immediateContext { return d.imm.contextKind.(*immediateContext) }

// retire keeps a released deferred context's driver handle (its handles are
// closed and its lists freed by then).
func (c *deferredContext) retire() {
	ic := c.dev.icKind()
	ic.retired = append(ic.retired, retiredDC{name: c.name, h: c.h, core: c.core, table: c.ddi.umd, private: c.bytes - ObjectOverhead})
	c.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "DeferredContextState",
		Obj: c.name, Ctx: c.name, Handle: handleName(uint32(c.h)), Args: strArg(trace.KeyState, "retired"),
		Msg: fmt.Sprintf("deferred context %s (%s) is retired: its driver handle waits for RecycleCreateDeferredContext", c.name, handleName(uint32(c.h)))})
}

// reuseDeferredContext makes the oldest retired driver handle a new
// deferred context (RecycleCreateDeferredContext). reused is false when
// there is none to reuse; a failing RecycleCreateDeferredContext destroys
// the handle and fails the call (E_OUTOFMEMORY, returned by the DDI itself:
// rule CL-OOM).
func (d *Device) reuseDeferredContext(name string) (c *DeviceContext, reused bool, err error) {
	ic := d.icKind()
	if !d.recycles() || len(ic.retired) == 0 {
		return nil, false, nil
	}
	r := ic.retired[0]
	ic.retired = ic.retired[1:]
	bytes := ObjectOverhead + r.private
	if err := d.reserve("CreateDeferredContext", name, bytes); err != nil {
		d.destroyRetired(r)
		return nil, true, err
	}
	dcName := d.nextDCName()
	err = d.ddiIC().with(dcName, handleName(uint32(r.h)), strArg(trace.KeyDC, dcName)).RecycleCreateDeferredContext(d.hDev, r.h)
	if err != nil {
		d.unreserve(bytes)
		d.destroyRetired(r)
		return nil, true, err
	}
	return d.newDeferredContext(dcName, r.h, r.core, r.table, bytes), true, nil
}

// destroyRetired destroys a kept driver handle (DestroyDevice on its table).
func (d *Device) destroyRetired(r retiredDC) {
	t := ddiTable{d: d, ctx: r.name, umd: r.table}
	t.on(r.name, handleName(uint32(r.h))).DestroyDevice(r.h)
}

// freeRetiredContexts destroys the kept deferred-context handles: the
// device is going (its DestroyDevice comes next).
func (d *Device) freeRetiredContexts() {
	if d.imm == nil {
		return
	}
	ic := d.icKind()
	for _, r := range ic.retired {
		d.destroyRetired(r)
	}
	ic.retired = nil
}
