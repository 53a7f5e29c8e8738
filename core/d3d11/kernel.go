package d3d11

import "d3dsim/core/dxgk"

// Kernel is what the runtime asks of Dxgkrnl: the D3DKMT thunks its
// callbacks reach ("WDDM operation flow"). *dxgk.Dxgkrnl implements it; the
// runtime's tests use a fake.
type Kernel interface {
	CreateDevice(name string) (dxgk.HDevice, error)
	DestroyDevice(h dxgk.HDevice) error
	Removed(dev dxgk.HDevice) bool
	CreateContext(dev dxgk.HDevice) (dxgk.ContextInfo, error)
	DestroyContext(h dxgk.HContext) error
	CreateAllocation(dev dxgk.HDevice, d dxgk.AllocationDesc) (dxgk.HAllocation, error)
	DestroyAllocation(dev dxgk.HDevice, h dxgk.HAllocation) error
	Lock(dev dxgk.HDevice, h dxgk.HAllocation) ([]byte, error)
	Unlock(dev dxgk.HDevice, h dxgk.HAllocation) error
	// RenderNext is pfnRenderCb's: the command buffer, and the sizes asked
	// for the next one and its lists, with what is granted.
	RenderNext(ctx dxgk.HContext, cmd []uint32, list []dxgk.AllocationListEntry, next dxgk.ContextInfo) (fence uint64, granted dxgk.ContextInfo, err error)
	// Present is pfnPresentCb's: the KMD builds the present (a copy or a
	// flip) from the source and destination alone.
	Present(p dxgk.PresentInfo) (fence uint64, err error)
	WaitForFenceFor(ctx dxgk.HContext, fence uint64, why dxgk.WaitReason) error
	CompletedFence(ctx dxgk.HContext) uint64
	SubmittedFence(ctx dxgk.HContext) uint64
}

var _ Kernel = (*dxgk.Dxgkrnl)(nil)

// displayKernel is the display and frame queue of Dxgkrnl (dxgk's
// display.go): the device's maximum frame latency, and whether a present
// would wait now (DXGI_PRESENT_DO_NOT_WAIT).
// A kernel without it shows every frame at once with the default latency.
type displayKernel interface {
	SetMaximumFrameLatency(dev dxgk.HDevice, n int) error
	FrameQueueFull(ctx dxgk.HContext) bool
}

var _ displayKernel = (*dxgk.Dxgkrnl)(nil)

func (d *Device) displayKernel() (displayKernel, bool) {
	k, ok := d.rt.cfg.Kernel.(displayKernel)
	return k, ok
}
