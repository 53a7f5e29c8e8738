package scenario

import (
	"errors"

	"d3dsim/core/hresult"
)

// Void methods. Most ID3D11DeviceContext methods return void: the Set*
// calls, Clear*View, Draw, DrawIndexed, CopyResource, UpdateSubresource,
// Unmap, Begin, End, Flush, ClearState, ExecuteCommandList ("ID3D11DeviceContext
// interface"). They give the application no HRESULT. When the runtime finds
// such a call invalid (an object released or of another device, a bind flag
// missing, ...) it drops the call, and only the debug layer says why, with a
// `D3D11 ERROR` message.
//
// In a scenario, `hr` after a void method is S_OK when the runtime carried
// the call out, and the marker DROPPED when it dropped it. Earlier versions
// of the simulator reported a dropped void call as E_INVALIDARG; `expect hr
// == E_INVALIDARG` after one still holds, so old scenarios and links run.
// For the same reason a call dropped because an object belongs to another
// device (DeviceContext.TakeDropped) is DROPPED but does not stop a run
// without an `expect hr`, while the other drops still do.

// Dropped is the `expect hr` name of a void call the runtime dropped.
const Dropped = "DROPPED"

// dropped reports whether a call that returned err is a void call the
// runtime dropped: a void method (void: a method call for which
// d3d11.VoidMethod holds) refused with E_INVALIDARG (the simulated
// runtime's Go API still returns why).
func dropped(void bool, err error) bool {
	return void && err != nil && errors.Is(err, hresult.E_INVALIDARG)
}

// voidHolds says whether `expect hr == name` holds after a void call that
// was (or was not) dropped, and whether name is one a void call answers to.
func voidHolds(name string, wasDropped bool) (holds, applies bool) {
	switch name {
	case Dropped, "E_INVALIDARG": // E_INVALIDARG: the older form
		return wasDropped, true
	case "S_OK":
		return !wasDropped, true
	}
	return false, false
}
