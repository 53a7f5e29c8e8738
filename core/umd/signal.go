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
		if err := d.submit(false, 0); err != nil {
			return err
		}
	}
	cb := ddi.SignalSynchronizationObjectCb{Context: d.ctx, ObjectHandleArray: []ddi.HSYNCOBJECT{obj}, FenceValue: value}
	return d.cb.PfnSignalSynchronizationObjectCb(d.rt, &cb)
}
