package dxgk

// RemovalReason is why Dxgkrnl removed a device: what the runtime's
// GetDeviceRemovedReason reports ("ID3D11Device::GetDeviceRemovedReason",
// "DXGI_ERROR").
type RemovalReason uint8

const (
	NotRemoved RemovalReason = iota
	// RemovedHung: the device's own work timed out (TDR): the device is
	// the guilty one, DXGI_ERROR_DEVICE_HUNG.
	RemovedHung
	// RemovedReset: the adapter was reset (DxgkDdiResetFromTimeout) for
	// another device's hang; this device lost its work through no fault of
	// its own, DXGI_ERROR_DEVICE_RESET.
	RemovedReset
	// RemovedPageFault: the GPU faulted on an address while running the
	// device's buffer (DXGK_INTERRUPT_DMA_PAGE_FAULTED) and the engine was
	// reset; reported as DXGI_ERROR_DEVICE_HUNG, the code the "DXGI_ERROR"
	// page gives for badly formed commands sent by the application.
	RemovedPageFault
	// RemovedByDriver: the driver failed the device's submission
	// (DxgkDdiPatch, DxgkDdiSubmitCommand), DXGI_ERROR_DEVICE_REMOVED.
	RemovedByDriver
)

func (r RemovalReason) String() string {
	switch r {
	case NotRemoved:
		return "not removed"
	case RemovedHung:
		return "hung"
	case RemovedReset:
		return "reset"
	case RemovedPageFault:
		return "GPU page fault"
	case RemovedByDriver:
		return "removed by the driver"
	}
	return "unknown removal reason"
}

// RemovedReason reports why the device was removed (NotRemoved while it
// works, or while a removal is hidden by the ERR-ASYNC bug switch).
func (k *Dxgkrnl) RemovedReason(dev HDevice) RemovalReason {
	k.mu.Lock()
	defer k.mu.Unlock()
	d := k.devices[dev]
	if d == nil || !d.reportsRemoval() {
		return NotRemoved
	}
	return d.why
}
