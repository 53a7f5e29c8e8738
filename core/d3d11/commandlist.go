package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// CommandList is an ID3D11CommandList: made by a deferred context's
// FinishCommandList, run by the immediate context's ExecuteCommandList.
type CommandList struct {
	object
	h     ddi.HCOMMANDLIST
	dc    *DeviceContext // the deferred context that recorded it
	state string
	body  listBody
	// private is what CalcPrivateCommandListSize answered (0 for a
	// recycled handle or an emulated list).
	private int
	// markers are the annotation calls the recording made, replayed where
	// the list is executed (annotation.go).
	markers []Marker
}

// listBody is what a command list holds: a driver's command list handle
// (driverList) or the runtime's own recording (recordedList).
type listBody interface {
	// execute runs the list on the immediate context.
	execute(ic *immediateContext) error
	// destroy frees the list with its last reference.
	destroy()
}

// State is the handle's state in the command-list handle machine of
// "Supporting command lists": valid, retired, cached or freed.
func (l *CommandList) State() string { return l.state }

func (l *CommandList) setState(s string) {
	l.state = s
	l.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "CommandListState",
		Obj: l.name, Handle: handleName(uint32(l.h)), Ctx: l.dc.name, Args: strArg(trace.KeyState, s),
		Msg: fmt.Sprintf("command list %s (%s) is %s", l.name, handleName(uint32(l.h)), s)})
}

// driverList is a command list the driver built (CreateCommandList).
type driverList struct {
	l    *CommandList
	dc   *deferredContext
	held []pinner // every object the recording used: a command list holds a reference on each, as D3D11's does
}

// execute calls CommandListExecute, which leaves the immediate context
// cleared (rule CL-EXEC).
func (b *driverList) execute(ic *immediateContext) error {
	l := b.l
	ic.ddi.on(l.name, handleName(uint32(l.h))).CommandListExecute(ic.h, l.h)
	if !ic.dev.rt.cfg.Bugs.Has(rules.CLExec) { // the bug: the context keeps its bindings
		ic.unbindAll()
	}
	return nil
}

// destroy is CommandList::Destroy of "Supporting command lists": a light
// RecycleDestroyCommandList while its deferred context lives (the handle
// then waits on the context's recycle list), else DestroyCommandList (rule
// CL-DESTROY).
func (b *driverList) destroy() {
	defer b.release()
	l, dc := b.l, b.dc
	d := l.dev
	if dc.Alive() && (d.rt.cfg.Recycle || d.rt.cfg.Bugs.Has(rules.CLCaps)) && !d.rt.cfg.Bugs.Has(rules.CLDestroy) { // CL-CAPS bug: recycle without the cap; CL-DESTROY bug: never recycle
		d.ddiIC().on(l.name, handleName(uint32(l.h))).RecycleDestroyCommandList(d.hDev, l.h)
		l.setState("retired")
		if d.rt.cfg.Bugs.Has(rules.CLRecycleThread) { // the bug: fold it back here, on the releasing thread
			dc.ddi.on(l.name, handleName(uint32(l.h))).RecycleCommandList(dc.h, l.h)
			l.setState("cached")
			dc.cache = append(dc.cache, l.h)
			return
		}
		dc.recycle = append(dc.recycle, l)
		return
	}
	d.ddiIC().on(l.name, handleName(uint32(l.h))).DestroyCommandList(d.hDev, l.h)
	l.setState("freed")
}

// release drops the references the list held on what its recording used,
// after its handle is destroyed or retired: the immediate handles outlive
// the list's (rule CLS-FIRST).
func (b *driverList) release() {
	held := b.held
	b.held = nil
	for i := len(held) - 1; i >= 0; i-- { // newest first: a view before its resource
		held[i].unpin()
	}
}
