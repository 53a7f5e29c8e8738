package umd

import "d3dsim/core/ddi"

var _ ddi.Signaler = (*Device)(nil)

// Signal is the immediate context's fence signal
// (ID3D11DeviceContext4::Signal). pfnSignalSynchronizationObjectCb inserts
// the signal in the context's DMA stream, behind what was submitted before
// it, so the driver first submits what it has recorded: the fence then
// covers every call made before Signal.
func (d *immediateContext) Signal(_ ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	d.busy()
	if len(d.cmd.Words) > 0 || d.foreign != 0 {
		if err := d.submit(); err != nil {
			return err
		}
	}
	cb := ddi.SignalSynchronizationObjectCb{Context: d.ctx, ObjectHandleArray: []ddi.HSYNCOBJECT{obj}, FenceValue: value}
	if d.cfg.MonitoredFences {
		// WDDM 2.0: a software signal packet queued to the context
		// ("Context Monitoring", GPU signal).
		return d.cb.PfnSignalSynchronizationObjectFromGpuCb(d.rt, &cb)
	}
	return d.cb.PfnSignalSynchronizationObjectCb(d.rt, &cb)
}

var _ ddi.Waiter = (*Device)(nil)

// Wait is the immediate context's GPU-side fence wait
// (ID3D11DeviceContext4::Wait). pfnWaitForSynchronizationObjectCb inserts
// the wait in the context's DMA stream: work submitted after it waits on
// the GPU; the call returns at once. What was recorded before Wait is
// submitted first, so it is not held by the wait.
func (d *immediateContext) Wait(_ ddi.HDEVICE, obj ddi.HSYNCOBJECT, value uint64) error {
	d.busy()
	if len(d.cmd.Words) > 0 || d.foreign != 0 {
		if err := d.submit(); err != nil {
			return err
		}
	}
	cb := ddi.WaitForSynchronizationObjectCb{Context: d.ctx, ObjectHandleArray: []ddi.HSYNCOBJECT{obj}, FenceValue: value}
	if d.cfg.MonitoredFences {
		return d.cb.PfnWaitForSynchronizationObjectFromGpuCb(d.rt, &cb)
	}
	return d.cb.PfnWaitForSynchronizationObjectCb(d.rt, &cb)
}
