package dxgk

import (
	"d3dsim/core/rules"
	"fmt"
	"sync"

	"d3dsim/core/dxgkddi"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
)

// Kernel handles (see core/dxgkddi): 0 is invalid.
type (
	HDevice     = dxgkddi.HDevice
	HContext    = dxgkddi.HContext
	HAllocation = dxgkddi.HAllocation
)

// ErrDeviceRemoved is what errors from a removed device match with
// errors.Is.
var ErrDeviceRemoved error = dxgkddi.STATUS_DEVICE_REMOVED

// Costs is the virtual time Dxgkrnl's own work takes, in nanoseconds. The
// driver charges its DDIs itself (kmd.Costs).
type Costs struct {
	Transition       int64 // entering the kernel from the app (each D3DKMT-style call), on the app thread
	SchedLatency     int64 // from Render/Present returning to the scheduler picking the buffer up on "kernel"
	Schedule         int64 // the scheduler's bookkeeping for one DMA or paging buffer
	InterruptLatency int64 // from the interrupt line to the ISR
	DPCLatency       int64 // from DxgkCbQueueDpc to the DPC
	Callback         int64 // one DxgkCb* callback
	WorkerLatency    int64 // from the DPC handing work to Dxgkrnl's worker thread to the worker running it (default 0: at once, so the next passive-level point sees it done)
}

// DefaultCosts: a kernel transition of a microsecond, a couple of
// microseconds before the scheduler sees a buffer, interrupt and DPC
// latencies of a fraction of one.
func DefaultCosts() Costs {
	return Costs{Transition: 1000, SchedLatency: 2000, Schedule: 500, InterruptLatency: 200, DPCLatency: 800, Callback: 50}
}

// Config sizes what Dxgkrnl hands out. Zero sizes take the driver's
// DXGK_DEVICEINFO values, or else the defaults below; a zero TDRDelay is 2 s
// of virtual time; a zero Costs is DefaultCosts.
type Config struct {
	CommandBufferSize     int   // bytes
	AllocationListSize    int   // entries
	PatchLocationListSize int   // entries
	TDRDelay              int64 // virtual ns
	// PreemptAfter is how long the oldest buffer of an engine may run
	// before the GPU scheduler asks to preempt it (DxgkDdiPreemptCommand);
	// the TDR delay counts from that request. A simulation figure, not
	// Windows' (zero: TDRDelay/100).
	PreemptAfter int64 // virtual ns
	// ResidencyBudget turns on WDDM 2.0's residency model with this
	// per-process budget in bytes (residency.go; 0: WDDM 1.x, residency
	// from the allocation lists alone).
	ResidencyBudget uint64
	Costs           Costs

	// OutOfOrder is the SALVIA scheduler of the SamBookshelf article on
	// asynchronous Draw, not Windows': it builds the RAW/WAR/WAW dependency
	// graph of queued DMA buffers and runs independent ones out of order,
	// on every engine the driver reports (ooo.go). Off (the default,
	// Windows' scheduling), every buffer runs on its context's node in
	// submission order.
	OutOfOrder bool
	// Bugs are the `option bug=` switches Dxgkrnl honours: ASYNC-SAME
	// (the out-of-order scheduler ignores its dependency edges) and
	// ERR-ASYNC (a TDR's removal is hidden from the device's next call).
	Bugs rules.Set
	// RefreshHz is the display's refresh rate: a vertical blank every
	// 1/RefreshHz s of virtual time (display.go). Zero is 60.
	RefreshHz int
}

// Defaults.
const (
	DefaultCommandBufferSize     = 64 << 10
	DefaultAllocationListSize    = 256
	DefaultPatchLocationListSize = 1024
	DefaultTDRDelay              = 2_000_000_000

	pagingBufferSize = 16 << 10 // bytes of one paging buffer
	defaultAlignment = 4096
)

// Dxgkrnl is the kernel subsystem for one adapter.
type Dxgkrnl struct {
	s   *sim.Sim
	rec *trace.Recorder
	drv dxgkddi.KMD
	cfg Config

	mu         sync.Mutex
	onDMA      func(DMAInfo) // ObserveDMA's observer (inspect.go), nil when none
	devices    map[HDevice]*device
	contexts   map[HContext]*context
	allocs     map[HAllocation]*allocation
	instances  map[HAllocation]*allocation // handles of renamed instances (rename.go)
	lastDevice uint32
	lastCtx    uint32
	lastAlloc  uint32
	lastDMA    uint64
	engines    []*engine
	removals   int                         // devices removed by TDR so far
	syncs      map[HSyncObject]*syncObject // synchronization objects (sync.go)
	lastSync   uint32
	wakeAt     int64 // when the last fence was signalled or cancelled: a waiter resumes no earlier

	// Video memory manager.
	mem        dxgkddi.Memory
	vram       segment
	aperture   segment
	vramFull   bool   // InjectVRAMFull: VRAM use may not grow past vramBudget
	vramBudget uint64 //
	lru        uint64

	// GPU scheduler.
	schedQ []*dmaBuffer // by (readyAt, id)
	// resubmitQ: buffers a preemption took off an engine, in ring order,
	// which the scheduler submits again before anything else (preempt.go).
	resubmitQ []*dmaBuffer
	// charged: the bytes on the devices' residency lists (residency.go).
	charged      uint64
	scheduling   bool
	dpcQueued    bool
	perEngineTDR bool // the driver reported SupportPerEngineTDR
	// flipOnVSyncMmIo: the driver reported FlipOnVSyncMmIo (flips need no
	// DMA buffer, present.go).
	flipOnVSyncMmIo bool
	scanout         HAllocation // what the display's scan-out points at since the last flip (0: nothing flipped yet)
	workerQueued    int         // allocations handed to the worker thread and not freed yet
	lastNotified    [2]uint64   // DMA buffer and fence DxgkCbNotifyInterrupt last reported (for DxgkCbQueueDpc's event)
	// The display's vertical blanks (display.go): whether Dxgkrnl turned
	// their interrupt on (DxgkDdiControlInterrupt), the last blank the
	// driver reported (DXGK_INTERRUPT_CRTC_VSYNC), and one the ISR
	// reported and the DPC has not processed yet.
	vsyncOn    bool
	vsyncCalls int // DxgkDdiControlInterrupt calls scheduled and not made yet
	vsyncSeen  int64
	vsyncNew   *vsyncReport
	deps       depGraph // OutOfOrder only
}

type device struct {
	h         HDevice
	hs        string // h.String(): the trace names it every buffer
	name      string
	info      dxgkddi.DeviceInfo
	contexts  []*context
	removed   bool
	reason    string
	why       RemovalReason
	destroyed bool
	hidden    bool // bug ERR-ASYNC: the removal is not reported until the device's next submission
	// maxLatency is the maximum frame latency SetMaximumFrameLatency set
	// (0: the default).
	maxLatency int
}

// reportsRemoval is whether calls on the device are told it was removed.
func (d *device) reportsRemoval() bool { return d.removed && !d.hidden }

type context struct {
	h         HContext
	hs        string // h.String(): the trace names it several times a buffer
	dev       *device
	engine    int
	info      ContextInfo       // the sizes of its command buffer and lists now (RenderNext changes them)
	first     ContextInfo       // as CreateContext gave them
	submitted uint64            // last fence handed out
	completed uint64            // last fence whose buffer the GPU finished
	signalled uint64            // what CompletedFence reports: completed, or everything after a removal
	dma       map[uint64]uint64 // pending fence -> DMA buffer id
	destroyed bool
	early     map[uint64]uint64 // OutOfOrder: fences done before an earlier one -> DMA buffer id
	presents  []frame           // presents queued and not shown, oldest first (display.go)
	lastDMA   uint64            // the id of its last DMA buffer (a flip follows it)
	lastSeq   uint64            // the number of the context's last present
	shown     uint64            // the number of its last present shown
	lastFlip  int64             // the vertical blank of its last flip scheduled
	flipping  *pendingFlip      // its flip programmed and not latched yet (display.go)
	gpuWaits  []gpuWait         // waits queued in the context's stream (gpuwait.go)
}

// ContextInfo is what CreateContext returns to the runtime
// (D3DDDICB_CREATECONTEXT's outputs).
type ContextInfo struct {
	Context               HContext
	CommandBufferSize     int // bytes
	AllocationListSize    int // entries
	PatchLocationListSize int // entries
}

type engine struct {
	idx        int
	sub        uint64       // last submission fence id handed out
	inflight   []*dmaBuffer // submitted to the GPU, in ring order
	notified   uint64       // highest submission fence reported by DxgkCbNotifyInterrupt
	lastRetire int64
	tdrPending bool
	preempted  *dmaBuffer // the buffer a DxgkDdiPreemptCommand was issued for
	pageFault  uint64     // submission fence of the buffer DXGK_INTERRUPT_DMA_PAGE_FAULTED reported (0: none)
	preemptAt  int64      // when: the TDR delay counts from it
	// preemptFence is the preemption fence id of the pending request (0:
	// none); answered, the DMA_PREEMPTED report the DPC processes.
	preemptFence uint64
	answered     *preemptAnswer
	// held: buffers scheduled while a preemption request is pending, kept
	// from the engine until it answers (preempt.go).
	held []*dmaBuffer
	load int // OutOfOrder: DMA buffers placed on the engine and not retired
}

// dmaBuffer is a DMA or paging buffer from Render/Present (or the video
// memory manager) to retirement.
type dmaBuffer struct {
	id     uint64
	ctx    *context // nil for paging buffers
	dev    *device  // the owner; for paging buffers the device whose buffer needed it
	engine int
	fence  uint64 // the context's fence (0 for paging)
	sub    uint64 // submission fence of the latest submission
	// patchSub is the submission fence id DxgkDdiPatch got, which
	// DxgkDdiSubmitCommand then carries (0 once submitted).
	patchSub uint64
	words    []uint32
	patches  []dxgkddi.PatchLocation
	list     []dxgkddi.AllocationListEntry
	entries  []*allocation // per list entry
	inst     []uint64      // per list entry: the instance current at submission (rename.go)
	allocs   []*allocation // distinct; each holds a reference (refs)
	paging   bool
	forDMA   uint64 // paging buffers: the DMA buffer whose allocations they move
	present  bool

	readyAt     int64
	waitVBlank  int64 // a bitblt present with a SyncInterval: the vertical blank it waits for (present.go)
	submittedAt int64
	resubmits   int
	keepSub     bool // a paging buffer resubmitted after a TDR keeps its submission fence id (wait.go)
	retired     bool

	// OutOfOrder (ooo.go): what the buffer reads and writes, the queued
	// buffers it must follow, and whether the scheduler placed it.
	res    []resAccess
	preds  []*dmaBuffer
	placed bool
	draws  bool
	occlQ  bool
}

// New creates Dxgkrnl over the driver and starts it (DxgkDdiStartDevice with
// the callback table).
func New(s *sim.Sim, rec *trace.Recorder, drv dxgkddi.KMD, cfg Config) *Dxgkrnl {
	if cfg.TDRDelay <= 0 {
		cfg.TDRDelay = DefaultTDRDelay
	}
	if cfg.PreemptAfter <= 0 {
		cfg.PreemptAfter = max(cfg.TDRDelay/100, 1)
	}
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	k := &Dxgkrnl{
		s: s, rec: rec, drv: drv, cfg: cfg,
		devices:   map[HDevice]*device{},
		contexts:  map[HContext]*context{},
		allocs:    map[HAllocation]*allocation{},
		instances: map[HAllocation]*allocation{},
	}
	args := dxgkddi.StartDeviceArgs{DxgkInterface: (*callbacks)(k)}
	err := k.ddi("DxgkDdiStartDevice", trace.Event{}, func() error { return drv.DxgkDdiStartDevice(&args) })
	n := args.NumberOfEngines
	if err != nil || n < 1 {
		n = 1
	}
	for i := 0; i < n; i++ {
		k.engines = append(k.engines, &engine{idx: i})
	}
	k.perEngineTDR = err == nil && args.SupportPerEngineTDR
	k.flipOnVSyncMmIo = err == nil && args.FlipOnVSyncMmIo
	return k
}

// Live counts what is alive: devices, contexts and allocations (including
// destroyed allocations whose freeing still waits for the GPU).
func (k *Dxgkrnl) Live() (devices, contexts, allocations int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.devices), len(k.contexts), len(k.allocs)
}

// ddi traces a DDI call: a Call event (layer kmd, from dxgkrnl), the call,
// and a Return carrying the NTSTATUS name (and the error's message).
// Its event stays on the stack: ddiRet's escapes to the heap through the
// callback it hands the event to, an allocation a DDI.
func (k *Dxgkrnl) ddi(name string, ev trace.Event, call func() error) error {
	k.ddiCall(name, &ev)
	err := call()
	k.ddiReturn(&ev, err)
	return err
}

// ddiRet is ddi for a call that adds to its Return event (a fence).
func (k *Dxgkrnl) ddiRet(name string, ev trace.Event, call func(ret *trace.Event) error) error {
	k.ddiCall(name, &ev)
	err := call(&ev)
	k.ddiReturn(&ev, err)
	return err
}

func (k *Dxgkrnl) ddiCall(name string, ev *trace.Event) {
	ev.Kind, ev.Layer, ev.From, ev.Name = trace.Call, trace.KMD, trace.Dxgkrnl, name
	k.rec.Emit(*ev)
}

func (k *Dxgkrnl) ddiReturn(ev *trace.Event, err error) {
	ev.Kind, ev.HR = trace.Return, dxgkddi.StatusOf(err).Name()
	if err != nil {
		ev.Msg = dxgkddi.Message(err)
	}
	k.rec.Emit(*ev)
}

// event emits a Dxgkrnl event.
func (k *Dxgkrnl) event(kind trace.Kind, name string, ev trace.Event) {
	ev.Kind, ev.Name = kind, name
	if ev.Layer == trace.LayerNone {
		ev.Layer = trace.Dxgkrnl
	}
	if ev.From == trace.LayerNone {
		ev.From = trace.Dxgkrnl
	}
	k.rec.Emit(ev)
}

func (k *Dxgkrnl) charge(ns int64) {
	if ns > 0 {
		k.s.Charge(ns)
	}
}

func errorf(code dxgkddi.NTSTATUS, format string, args ...any) error {
	return dxgkddi.Errorf(code, "dxgk: "+format, args...)
}

func (d *device) removedErr(op string) error {
	return errorf(dxgkddi.STATUS_DEVICE_REMOVED, "%s: device %v (%s) was removed: %s", op, d.h, d.name, d.reason)
}

// describe is a buffer for messages: "DMA 12 (fence 3 of kc1)".
func (b *dmaBuffer) describe() string {
	if b.paging {
		return fmt.Sprintf("paging DMA %d", b.id)
	}
	return fmt.Sprintf("DMA %d (fence %d of %v)", b.id, b.fence, b.ctx.h)
}

func (b *dmaBuffer) handle() string {
	if b.ctx == nil {
		return ""
	}
	return b.ctx.hs
}
