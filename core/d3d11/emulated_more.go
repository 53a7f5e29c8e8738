package d3d11

// The runtime's emulation of command lists (emulatedContext, a driver
// without them) records the geometry stage, stream output, the compute
// stage and the output merger's unordered access views as it records the
// rest: each call is validated when it is made, its bindings kept by the
// recording context (for the Get* calls and FinishCommandList's
// RestoreDeferredContextState), and at ExecuteCommandList it is made again
// on the immediate context, through the same DDIs as a call made there.

// emulate records call on an emulated deferred context and reports that it
// did (false: the context is not one, the caller goes on to the driver).
// do makes the call again on the immediate context; set applies its
// bindings to the recording context once it is recorded (nil: none).
func (c *DeviceContext) emulate(call string, do func(ic *DeviceContext) error, set func(), objs ...any) (bool, error) {
	e, ok := c.contextKind.(*emulatedContext)
	if !ok {
		return false, nil
	}
	if set == nil {
		set = func() {}
	}
	defer e.track(set)()
	return true, e.record(call, do, objs...)
}

// emulated is the driver kind for a call's validation on an emulated
// deferred context: the caller records the call with emulate before it
// would reach a driver.
func (c *DeviceContext) emulated() (driverContext, bool) {
	_, ok := c.contextKind.(*emulatedContext)
	return driverContext{c}, ok
}
