package scenario

import (
	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
)

// What an inspector of the run (core/inspect) needs of the runner: a word
// after each API call, the machine under the API, the objects by the
// scenario's names, and a way to let the GPU finish what was asked of it.

// CallDone is one API call a statement made, as OnCall reports it.
type CallDone struct {
	Thread string
	Line   int
	Method string
	Target any    // the object called (nil for D3D11CreateDevice)
	From   uint64 // the trace's last seq before the call: its events follow
	Err    error
}

// OnCall has fn called after every API call statement, on the statement's
// thread, once the call has returned (nil: none). It is the inspector's
// hook: cheaper than Observe, which resolves every argument, and separate
// from it, so a capture and an inspector can watch one run. The call is
// passed by value: a pointer handed to a func value escapes, and allocated
// 80 bytes a call (79 KB a frame of the page's draws figure).
func (r *Run) OnCall(fn func(CallDone)) { r.onCall = fn }

// Machine is the simulated PC the run drives.
func (r *Run) Machine() *machine.Machine { return r.mach }

// Object is the object the scenario's name names now (nil: none).
func (r *Run) Object(name string) any { return r.vars[name] }

// Devices are the devices the run created, in order.
func (r *Run) Devices() []*d3d11.Device { return r.rt.Devices() }

// Settle submits every device's recorded work (Flush on each immediate
// context) and waits, in virtual time, until the GPU has done it: what an
// inspector does to a copy of a run before it reads the resources. The run
// is changed by it (the Flush calls and the wait are in its trace).
func (r *Run) Settle() error {
	for _, d := range r.rt.Devices() {
		if d.Alive() && d.Removed() == nil {
			d.ImmediateContext().Flush()
		}
	}
	return r.mach.Idle()
}
