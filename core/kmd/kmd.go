package kmd

import (
	"d3dsim/core/rules"
	"sync"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/sim"
)

// Hardware is what the driver needs of the GPU: the ring, the fence
// register, the fault register and the engine reset. *gpu.GPU implements it
// (checked in hardware_test.go); the driver reaches the hardware through
// nothing else.
type Hardware interface {
	// Submit queues dma on the engine's ring, keeping a copy: the driver
	// reuses dma once Submit returns.
	Submit(engine int, id uint64, dma []uint32)
	CompletedFence(engine int) uint64
	PageFault(engine int) (fence uint64, faulted bool)
	// Preempt asks the engine to stop at its next boundary and answer
	// with fence; Preempted reads and clears the answer: the preemption
	// fence and the last completed fence.
	Preempt(engine int, fence uint64)
	Preempted(engine int) (fence, lastCompleted uint64, ok bool)
	Reset(engine int)
	// ScanOut points the display engine's scan-out at a surface: from
	// then on the display shows it (a flip, DxgkDdiSetVidPnSourceAddress).
	ScanOut(addr uint64, width, height, pitch, format uint32)
	// FlipOnVSync programs the scan-out to change to a surface at the next
	// vertical blank (a flip that waits for the blank).
	FlipOnVSync(addr uint64, width, height, pitch, format uint32)
	// EnableVSync turns the display's vertical-blank interrupt on or off.
	EnableVSync(on bool)
	// TakeVSync reads and clears the display's vertical-blank status: the
	// blank that raised the display's line and the address it scanned out.
	TakeVSync() (vblank int64, addr uint64, ok bool)
}

var _ dxgkddi.KMD = (*KMD)(nil)

// RuleIsolate is the rule whose Bugs switch turns command-buffer validation off.
const RuleIsolate = rules.WDDMIsolate

// Costs is the virtual time the driver's DDIs take on the thread that calls
// them, in nanoseconds.
type Costs struct {
	DDI       int64 // entering any DDI
	PerPacket int64 // validating and translating one packet (Render, Present)
	PerPatch  int64 // one patch location written (Patch) or recorded (Render)
	PagingOp  int64 // one paging operation built
}

// DefaultCosts are small next to the kernel transition and the GPU's work.
func DefaultCosts() Costs {
	return Costs{DDI: 300, PerPacket: 20, PerPatch: 10, PagingOp: 200}
}

// Config configures the driver. Zero sizes take the defaults below; a zero
// Costs means DefaultCosts.
type Config struct {
	Engines               int       // engines of the GPU (default 1)
	DmaBufferSize         int       // bytes, reported in DXGK_DEVICEINFO (default 64 KiB)
	AllocationListSize    int       // entries (default 256)
	PatchLocationListSize int       // entries (default 1024)
	Bugs                  rules.Set // rule ids to break on purpose: RuleIsolate
	Costs                 Costs
	// NoEngineReset: the driver does not report SupportPerEngineTDR (as
	// before WDDM 1.2), so every TDR resets the whole adapter
	// (DxgkDdiResetFromTimeout). By default it does, as "TDR changes in
	// Windows 8" makes mandatory for WDDM 1.2 full graphics and render-only drivers.
	NoEngineReset bool
}

// Default sizes reported to Dxgkrnl.
const (
	DefaultDmaBufferSize         = 64 << 10
	DefaultAllocationListSize    = 256
	DefaultPatchLocationListSize = 1024
)

// PageSize is the alignment the driver asks for every allocation: the
// granularity of the GPU's address translation.
const PageSize = 4096

// KMD is the driver. Create it with New and hand it to Dxgkrnl.
type KMD struct {
	hw  Hardware
	s   *sim.Sim
	cfg Config

	mu       sync.Mutex
	cb       dxgkddi.DxgkrnlInterface
	devices  map[dxgkddi.HDevice]string
	contexts map[dxgkddi.HContext]context
	allocs   map[dxgkddi.HAllocation]*allocation
	// preemptFence is each engine's completed fence when the scheduler
	// last asked it to preempt (DxgkDdiQueryEngineStatus's progress).
	preemptFence []uint64
	// hangNext is an injected hang waiting for the next submission of its
	// kind (InjectHang).
	hangNext *hangInjection
	// submitWords is DxgkDdiSubmitCommand's buffer with the FENCE appended,
	// kept for the next submission: the Hardware keeps a copy of its own
	// (gpu.Submit), so a new one a submission was garbage (13 KB a frame of
	// the page's draws figure). Taken under mu; nil while one is in use.
	submitWords []uint32
}

type hangInjection struct {
	paging bool
	hang   func()
}

// InjectHang arranges for the driver's next DxgkDdiSubmitCommand of a
// paging buffer (paging true) or of a device's DMA buffer (false) to call
// hang right before it puts the buffer on the ring: the fault injection's
// hook (the machine passes the GPU's InjectHang, so that buffer never
// completes).
func (d *KMD) InjectHang(paging bool, hang func()) {
	d.mu.Lock()
	d.hangNext = &hangInjection{paging, hang}
	d.mu.Unlock()
}

type context struct {
	dev    dxgkddi.HDevice
	engine int
}

// allocation is the driver's record of an allocation (its
// hDeviceSpecificAllocation).
type allocation struct {
	dev   dxgkddi.HDevice
	size  uint64
	desc  dxgkddi.SurfaceDesc
	flags dxgkddi.AllocationFlags
}

// New returns a driver for hw. s (may be nil in tests) is charged the DDIs'
// costs.
func New(hw Hardware, s *sim.Sim, cfg Config) *KMD {
	if cfg.Engines < 1 {
		cfg.Engines = 1
	}
	if cfg.DmaBufferSize <= 0 {
		cfg.DmaBufferSize = DefaultDmaBufferSize
	}
	if cfg.AllocationListSize <= 0 {
		cfg.AllocationListSize = DefaultAllocationListSize
	}
	if cfg.PatchLocationListSize <= 0 {
		cfg.PatchLocationListSize = DefaultPatchLocationListSize
	}
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	return &KMD{
		hw: hw, s: s, cfg: cfg,
		devices:  map[dxgkddi.HDevice]string{},
		contexts: map[dxgkddi.HContext]context{},
		allocs:   map[dxgkddi.HAllocation]*allocation{},

		preemptFence: make([]uint64, cfg.Engines),
	}
}

func (d *KMD) charge(ns int64) {
	if d.s != nil && ns > 0 {
		d.s.Charge(ns)
	}
}

func (d *KMD) checking() bool { return !d.cfg.Bugs.Has(rules.WDDMIsolate) }

// DxgkDdiStartDevice keeps Dxgkrnl's callback table.
func (d *KMD) DxgkDdiStartDevice(a *dxgkddi.StartDeviceArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.DxgkInterface == nil {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiStartDevice without a DXGKRNL_INTERFACE")
	}
	d.mu.Lock()
	d.cb = a.DxgkInterface
	d.mu.Unlock()
	a.NumberOfEngines = d.cfg.Engines
	a.SupportPerEngineTDR = !d.cfg.NoEngineReset
	a.FlipOnVSyncMmIo = true
	return nil
}

// DxgkDdiCreateDevice records the device and reports the DMA buffer and list
// sizes its contexts should use (WDDM operation flow, step 1: pInfo).
func (d *KMD) DxgkDdiCreateDevice(a *dxgkddi.CreateDeviceArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Device == 0 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateDevice: handle 0")
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, dup := d.devices[a.Device]; dup {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateDevice: %v exists", a.Device)
	}
	d.devices[a.Device] = a.Name
	a.Info = d.info()
	return nil
}

func (d *KMD) info() dxgkddi.DeviceInfo {
	return dxgkddi.DeviceInfo{
		DmaBufferSize:         d.cfg.DmaBufferSize,
		AllocationListSize:    d.cfg.AllocationListSize,
		PatchLocationListSize: d.cfg.PatchLocationListSize,
	}
}

// DxgkDdiDestroyDevice forgets the device.
func (d *KMD) DxgkDdiDestroyDevice(h dxgkddi.HDevice) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.devices[h]; !ok {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiDestroyDevice: %v is not a device", h)
	}
	delete(d.devices, h)
	return nil
}

// DxgkDdiCreateContext records a GPU context on an engine (WDDM operation flow, step 3).
func (d *KMD) DxgkDdiCreateContext(a *dxgkddi.CreateContextArgs) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.devices[a.Device]; !ok {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateContext: %v is not a device", a.Device)
	}
	if a.Engine < 0 || a.Engine >= d.cfg.Engines {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateContext: engine %d, the GPU has %d", a.Engine, d.cfg.Engines)
	}
	if a.Context == 0 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateContext: handle 0")
	}
	d.contexts[a.Context] = context{dev: a.Device, engine: a.Engine}
	a.Info = d.info()
	return nil
}

// DxgkDdiDestroyContext forgets the context.
func (d *KMD) DxgkDdiDestroyContext(h dxgkddi.HContext) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.contexts[h]; !ok {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiDestroyContext: %v is not a context", h)
	}
	delete(d.contexts, h)
	return nil
}

// DxgkDdiCreateAllocation checks the private driver data (the surface
// description), records the allocation and says how to place it: page
// aligned, in the aperture if the CPU must reach it, else in VRAM (WDDM
// operation flow, step 6).
func (d *KMD) DxgkDdiCreateAllocation(a *dxgkddi.CreateAllocationArgs) error {
	d.charge(d.cfg.Costs.DDI)
	if a.Size == 0 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateAllocation %v: size 0", a.Allocation)
	}
	if a.Allocation == 0 {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateAllocation: handle 0")
	}
	if desc := a.PrivateDriverData; !desc.Empty() {
		if err := checkSurface(desc, a.Size); err != nil {
			return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateAllocation %v: private driver data: %v", a.Allocation, err)
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if _, ok := d.devices[a.Device]; !ok {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateAllocation %v: %v is not a device", a.Allocation, a.Device)
	}
	if _, dup := d.allocs[a.Allocation]; dup {
		return dxgkddi.Errorf(dxgkddi.STATUS_INVALID_PARAMETER, "kmd: DxgkDdiCreateAllocation: %v exists", a.Allocation)
	}
	d.allocs[a.Allocation] = &allocation{dev: a.Device, size: a.Size, desc: a.PrivateDriverData, flags: a.Flags}
	seg := dxgkddi.SegmentVRAM
	if a.Flags.CPUVisible {
		seg = dxgkddi.SegmentAperture
	}
	a.Info = dxgkddi.AllocationInfo{Size: a.Size, Alignment: PageSize, PreferredSegment: seg}
	return nil
}

// DxgkDdiDestroyAllocation forgets the allocation.
func (d *KMD) DxgkDdiDestroyAllocation(a *dxgkddi.DestroyAllocationArgs) error {
	d.charge(d.cfg.Costs.DDI)
	d.mu.Lock()
	defer d.mu.Unlock()
	rec, ok := d.allocs[a.Allocation]
	if !ok {
		return dxgkddi.Errorf(dxgkddi.STATUS_GRAPHICS_INVALID_ALLOCATION_HANDLE, "kmd: DxgkDdiDestroyAllocation: %v is not an allocation", a.Allocation)
	}
	if rec.dev != a.Device {
		return dxgkddi.Errorf(dxgkddi.STATUS_GRAPHICS_WRONG_ALLOCATION_DEVICE, "kmd: DxgkDdiDestroyAllocation: %v belongs to %v, not %v", a.Allocation, rec.dev, a.Device)
	}
	delete(d.allocs, a.Allocation)
	return nil
}
