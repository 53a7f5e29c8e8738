package kmd

import "d3dsim/core/dxgkddi"

// DxgkDdiInterruptRoutine is the ISR (WDDM operation flow, step 15): it reads the
// engine's fence register, tells Dxgkrnl which DMA buffers are done
// (DxgkCbNotifyInterrupt) and queues the DPC (DxgkCbQueueDpc, step 16). It
// runs at interrupt level: no waiting, no allocation records touched.
func (d *KMD) DxgkDdiInterruptRoutine(a *dxgkddi.InterruptRoutineArgs) bool {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return false
	}
	d.mu.Lock()
	cb := d.cb
	d.mu.Unlock()
	if cb == nil {
		return false
	}
	fence := d.hw.CompletedFence(a.Engine)
	cb.DxgkCbNotifyInterrupt(a.Engine, fence)
	cb.DxgkCbQueueDpc()
	return true
}

// DxgkDdiDpcRoutine is the driver's DPC. The simulated hardware needs no
// deferred work of the driver's own; Dxgkrnl processes the completions the
// ISR reported after it returns.
func (d *KMD) DxgkDdiDpcRoutine() { d.charge(d.cfg.Costs.DDI) }

// DxgkDdiResetFromTimeout resets the engine that stopped answering: its ring
// and the hung buffer are dropped (TDR).
func (d *KMD) DxgkDdiResetFromTimeout(a *dxgkddi.ResetFromTimeoutArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiResetFromTimeout: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	d.hw.Reset(a.Engine)
	return nil
}

// DxgkDdiRestartFromTimeout brings the engine back after the reset; the
// simulated engine is ready as soon as it is reset.
func (d *KMD) DxgkDdiRestartFromTimeout(a *dxgkddi.RestartFromTimeoutArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiRestartFromTimeout: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	return nil
}
