package kmd

import "d3dsim/core/dxgkddi"

// DxgkDdiInterruptRoutine is the ISR (WDDM operation flow, step 15): it reads the
// engine's fence register, tells Dxgkrnl which DMA buffers are done
// (DxgkCbNotifyInterrupt) and queues the DPC (DxgkCbQueueDpc, step 16). When
// the fault register says a page fault stopped the engine, it reports that
// instead (DXGK_INTERRUPT_DMA_PAGE_FAULTED, with the faulting buffer's
// fence). The display's line is a vertical blank: it reports
// DXGK_INTERRUPT_CRTC_VSYNC with the blank and the address scanned out. It
// runs at interrupt level: no waiting, no allocation records touched.
func (d *KMD) DxgkDdiInterruptRoutine(a *dxgkddi.InterruptRoutineArgs) bool {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	cb := d.cb
	d.mu.Unlock()
	if cb == nil {
		return false
	}
	if a.Engine == dxgkddi.DisplayInterruptLine {
		vblank, addr, ok := d.hw.TakeVSync()
		if !ok {
			return false
		}
		cb.DxgkCbNotifyCrtcVsync(0, vblank, addr)
		cb.DxgkCbQueueDpc()
		return true
	}
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return false
	}
	if fence, faulted := d.hw.PageFault(a.Engine); faulted {
		cb.DxgkCbNotifyDmaPageFaulted(a.Engine, fence)
	} else if pf, last, ok := d.hw.Preempted(a.Engine); ok {
		cb.DxgkCbNotifyDmaPreempted(a.Engine, pf, last)
	} else {
		cb.DxgkCbNotifyInterrupt(a.Engine, d.hw.CompletedFence(a.Engine))
	}
	cb.DxgkCbQueueDpc()
	return true
}

// DxgkDdiDpcRoutine is the driver's DPC. The simulated hardware needs no
// deferred work of the driver's own; it calls DxgkCbNotifyDpc, in which
// Dxgkrnl processes what the ISR reported ("DXGKCB_NOTIFY_DPC": "The
// display miniport driver must call DxgkCbNotifyDpc from its
// DxgkDdiDpcRoutine").
func (d *KMD) DxgkDdiDpcRoutine() {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	cb := d.cb
	d.mu.Unlock()
	if cb != nil {
		cb.DxgkCbNotifyDpc()
	}
}

// DxgkDdiControlInterrupt turns the display's vertical-blank interrupt on or
// off; it is the only interrupt type Dxgkrnl controls
// ("DXGKDDI_CONTROLINTERRUPT").
func (d *KMD) DxgkDdiControlInterrupt(a *dxgkddi.ControlInterruptArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Type != dxgkddi.InterruptCrtcVsync {
		return dxgkddi.Errorf(dxgkddi.STATUS_NOT_SUPPORTED, "kmd: DxgkDdiControlInterrupt: %v, only DXGK_INTERRUPT_CRTC_VSYNC is controlled", a.Type)
	}
	d.hw.EnableVSync(a.Enable)
	return nil
}

// DxgkDdiSetVidPnSourceAddress programs the scan-out address of the one
// video present source ("DXGKDDI_SETVIDPNSOURCEADDRESS": it "sets the
// address of the primary surface"): a flip. The display engine shows the
// primary from then on.
func (d *KMD) DxgkDdiSetVidPnSourceAddress(a *dxgkddi.SetVidPnSourceAddressArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.VidPnSourceID != 0 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiSetVidPnSourceAddress: video present source %d, the adapter has one (0)", a.VidPnSourceID)
	}
	d.mu.Lock()
	r := d.allocs[a.PrimaryAllocation]
	d.mu.Unlock()
	if r == nil || !r.flags.Primary {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiSetVidPnSourceAddress: %v is not a primary", a.PrimaryAllocation)
	}
	switch {
	case a.PrimaryAddress == 0:
	case a.FlipImmediate:
		d.hw.ScanOut(a.PrimaryAddress, r.desc.Width, r.desc.Height, r.desc.Pitch, r.desc.Format)
	default:
		// "must program the DAC and start scanning out, at the following
		// vertical sync, the primary surface": the ISR reports that sync.
		d.hw.FlipOnVSync(a.PrimaryAddress, r.desc.Width, r.desc.Height, r.desc.Pitch, r.desc.Format)
	}
	return nil
}

// DxgkDdiPreemptCommand asks the engine to stop at its next packet
// boundary: between two draws, the granularity the GPU honours for graphics
// (D3DKMDT_GRAPHICS_PREEMPTION_PRIMITIVE_BOUNDARY), and between two
// dispatches for compute, a DISPATCH packet being one packet too
// (D3DKMDT_COMPUTE_PREEMPTION_DISPATCH_BOUNDARY: "The driver cannot stop
// currently executing compute shader commands that were dispatched from a
// thread group but can prevent all pending commands from being
// dispatched").
// The engine answers with its interrupt, which the ISR reports as
// DXGK_INTERRUPT_DMA_PREEMPTED with the preemption fence id; an engine that
// finished everything answers at once, as the page asks of the driver
// ("DXGKDDI_PREEMPTCOMMAND": "Inform the GPU scheduler about the
// preemption information"). A draw that never reaches its boundary never
// answers, which is what the scheduler's timeout detection waits for
// ("Timeout Detection and Recovery (TDR)").
func (d *KMD) DxgkDdiPreemptCommand(a *dxgkddi.PreemptCommandArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiPreemptCommand: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	d.mu.Lock()
	d.preemptFence[a.Engine] = d.hw.CompletedFence(a.Engine)
	d.mu.Unlock()
	d.hw.Preempt(a.Engine, a.PreemptionFenceID)
	return nil
}

// DxgkDdiQueryEngineStatus reports a node responsive while it makes
// progress: it completed a buffer since the scheduler asked it to preempt,
// and it has not stopped on a page fault (DXGK_ENGINESTATUS).
func (d *KMD) DxgkDdiQueryEngineStatus(a *dxgkddi.QueryEngineStatusArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiQueryEngineStatus: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	_, faulted := d.hw.PageFault(a.Engine)
	d.mu.Lock()
	asked := d.preemptFence[a.Engine]
	d.mu.Unlock()
	a.Responsive = !faulted && d.hw.CompletedFence(a.Engine) > asked
	return nil
}

// DxgkDdiQueryDependentEngineGroup: the simulated GPU's engines share no
// state, so resetting one resets that one alone
// (DXGKARG_QUERYDEPENDENTENGINEGROUP: the mask includes the node itself).
func (d *KMD) DxgkDdiQueryDependentEngineGroup(a *dxgkddi.QueryDependentEngineGroupArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiQueryDependentEngineGroup: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	a.DependentNodeOrdinalMask = 1 << a.Engine
	return nil
}

// DxgkDdiResetEngine resets one engine (per-engine TDR, "TDR changes in
// Windows 8"): its ring and the buffer it was running are dropped, and it
// reports that buffer's fence as the last one aborted mid-execution.
func (d *KMD) DxgkDdiResetEngine(a *dxgkddi.ResetEngineArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if d.cfg.NoEngineReset {
		return dxgkddi.Errorf(dxgkddi.STATUS_NOT_SUPPORTED, "kmd: DxgkDdiResetEngine: the driver did not report SupportPerEngineTDR")
	}
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiResetEngine: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	a.LastAbortedFenceID = d.hw.CompletedFence(a.Engine) + 1
	d.hw.Reset(a.Engine)
	return nil
}

// DxgkDdiResetFromTimeout resets the adapter: every engine's ring is
// dropped, and the GPU reads and writes no memory once it returns
// (DXGKDDI_RESETFROMTIMEOUT).
func (d *KMD) DxgkDdiResetFromTimeout(*dxgkddi.ResetFromTimeoutArgs) error {
	d.charge(d.cfg.Costs.DDI)
	for e := range d.cfg.Engines {
		d.hw.Reset(e)
	}
	return nil
}

// DxgkDdiRestartFromTimeout says the driver may use the GPU again after the
// adapter reset; the simulated GPU is ready as soon as it is reset, so there
// is nothing to do (DXGKDDI_RESTARTFROMTIMEOUT allows that).
func (d *KMD) DxgkDdiRestartFromTimeout(*dxgkddi.RestartFromTimeoutArgs) error {
	d.charge(d.cfg.Costs.DDI)
	return nil
}
