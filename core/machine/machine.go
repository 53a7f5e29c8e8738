package machine

import (
	"fmt"
	"strings"
	"sync"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/rules"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/umd"
	"d3dsim/core/xsync"
	"d3dsim/gpu"
)

// Sizes of the GPU's memory segments.
const (
	ApertureSize = 1 << 30 // the system-memory segment the GPU reaches through its aperture
	MaxVRAM      = 1 << 30 // the most VRAM a machine may have
)

// Config is what a machine is built with. The zero value of a field is not a
// default: the scenario's option decoding fills every one.
type Config struct {
	Seed          uint64    // the simulation's seed: thread interleavings and every seeded choice
	VRAM          uint64    // bytes of video memory (at most MaxVRAM)
	Engines       int       // GPU engines, each with its own ring and fence
	CommandBuffer uint64    // bytes of a UMD command buffer and of a KMD DMA buffer
	OutOfOrder    bool      // the GPU scheduler runs independent DMA buffers out of order
	Bugs          rules.Set // the bugs each layer is asked to have
	Recycle       bool      // D3D11DDICAPS_COMMANDLISTS_BUILD_2: the runtime recycles command lists
	CommandLists  bool      // the driver records command lists itself
	FreeThreaded  bool      // D3D11DDICAPS_FREETHREADED
	NoEngineReset bool      // the KMD lacks SupportPerEngineTDR: a TDR resets the adapter
	// PaintPageFaults: a GPU page fault only paints and is recorded, as in
	// the SamBookshelf article's illustration, instead of stopping the
	// engine and being reported to Dxgkrnl (Windows' behaviour, the default).
	PaintPageFaults bool
	// PaintEndlessLoops: a shader loop that never ends stops at the GPU's
	// step limit and paints, as in the same illustration, instead of
	// never reaching its boundary and being reset by timeout detection
	// (Windows' behaviour, the default).
	PaintEndlessLoops bool
	// TDRDelay is the delay a preemption request may wait before timeout
	// detection resets the engine (Windows' TdrDelay; 0: 2 s), in virtual
	// ns.
	TDRDelay int64
	// ResidencyBudget runs WDDM 2.0's residency model with this process
	// budget in bytes: the UMD makes allocations resident and evicts
	// (pfnMakeResidentCb, pfnEvictCb), Dxgkrnl charges the budget (0: WDDM
	// 1.x residency).
	ResidencyBudget uint64
	MaxAllocBytes   uint64 // system memory the runtime's objects may hold
	MaxObjects      int    // API objects the runtime may hold
	// MaxPixels and MaxInstructions are the run's GPU budgets, checked
	// inside draws (SetGPUBudgets; 0: none).
	MaxPixels, MaxInstructions uint64
	// GPUCosts is the GPU's virtual-time cost model (nil: DefaultGPUCosts);
	// a slower GPU lets a test reach a timeout with little real work.
	GPUCosts  *GPUCosts
	RefreshHz int // the display's vertical blanks per second (0: 60)
	// MonitoredFences: fences are WDDM 2.0 monitored fences ("Context
	// Monitoring"; d3d11.Config.MonitoredFences, umd.Config.MonitoredFences).
	MonitoredFences bool

	// Preempt, when set, is called by the runtime inside the kernel
	// callbacks: a simulated thread may be descheduled there
	// (d3d11.Runtime.SetPreempt).
	Preempt func()
	// OnFrame receives every frame the display engine scans out, on the
	// GPU's simulated thread.
	OnFrame func(Frame)
}

// Frame is a surface the display engine scanned out: RGBA8, row-major,
// Width*4 bytes a row, owned by the receiver.
type Frame = gpu.Frame

// GPUStats are the GPU's counters since the machine was built.
type GPUStats = gpu.Stats

// GPUCosts is the GPU's virtual-time cost model (gpu.Costs).
type GPUCosts = gpu.Costs

// DefaultGPUCosts is the simulated GPU's cost model.
func DefaultGPUCosts() GPUCosts { return gpu.DefaultCosts() }

// Machine is one simulated PC: a D3D11 runtime over the UMD, Dxgkrnl with
// its KMD, and one GPU, sharing one simulation and one trace recorder.
type Machine struct {
	sim    *sim.Sim
	rec    *trace.Recorder
	gpu    *gpu.GPU
	kernel *dxgk.Dxgkrnl
	rt     *d3d11.Runtime
	drv    *kmd.KMD
	mem    *committedMemory // the GPU's memory as Dxgkrnl commits in it
}

// committedMemory is the GPU's memory as Dxgkrnl's video memory manager
// commits extents in it, keeping the bytes committed after each change:
// every statement of a scenario asks (GPUCommitted), and the GPU's own
// count is behind its memory's lock, a lock round trip and two calls a
// statement (issue 32's draw rate; more under WebAssembly).
type committedMemory struct {
	*gpu.Memory
	mu    sync.Mutex   // a commit and the count stored after it, together
	bytes xsync.Uint64 // VRAM and aperture committed, after the last change
}

func (c *committedMemory) Commit(addr, size uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.Memory.Commit(addr, size)
	c.note()
	return err
}

func (c *committedMemory) Decommit(addr uint64) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	err := c.Memory.Decommit(addr)
	c.note()
	return err
}

// note stores the bytes committed now. The caller holds mu.
func (c *committedMemory) note() {
	v, a := c.Memory.Committed()
	c.bytes.Store(v + a)
}

// New builds a machine. This is the one place the concrete layers are wired
// together.
func New(c Config) *Machine {
	s := sim.New(c.Seed)
	rec := trace.NewRecorder(s.Now, s.Thread)
	rec.SetStamp(s.Stamp)
	costs := gpu.DefaultCosts()
	if c.GPUCosts != nil {
		costs = *c.GPUCosts
	}
	g := gpu.New(gpu.Config{VRAM: c.VRAM, Aperture: ApertureSize, Engines: c.Engines, Costs: costs, PaintPageFaults: c.PaintPageFaults, PaintEndlessLoops: c.PaintEndlessLoops, RefreshHz: c.RefreshHz}, s, rec)
	drv := kmd.New(g, s, kmd.Config{Engines: c.Engines, DmaBufferSize: int(c.CommandBuffer), Bugs: c.Bugs, NoEngineReset: c.NoEngineReset})
	k := dxgk.New(s, rec, drv, dxgk.Config{CommandBufferSize: int(c.CommandBuffer), AllocationListSize: 256, PatchLocationListSize: 1024,
		OutOfOrder: c.OutOfOrder, Bugs: c.Bugs, RefreshHz: c.RefreshHz, TDRDelay: c.TDRDelay, ResidencyBudget: c.ResidencyBudget})
	mem := &committedMemory{Memory: g.Memory()}
	mem.note()
	k.SetSegments(gpu.VRAMBase, c.VRAM, gpu.ApertureBase, ApertureSize, mem)
	g.ConnectInterrupt(k.Interrupt)
	if c.OnFrame != nil {
		g.OnScanout(c.OnFrame)
	}
	rt := d3d11.New(d3d11.Config{Sim: s, Rec: rec, Kernel: k, Adapter: umd.NewAdapter(umd.Config{Bugs: c.Bugs, NewLock: hcontextLock(s, rec), MonitoredFences: c.MonitoredFences, Residency: c.ResidencyBudget > 0}), Bugs: c.Bugs, Recycle: c.Recycle, CommandLists: c.CommandLists, FreeThreaded: c.FreeThreaded, MonitoredFences: c.MonitoredFences,
		MaxAllocBytes: c.MaxAllocBytes, MaxObjects: c.MaxObjects})
	if c.Preempt != nil {
		rt.SetPreempt(c.Preempt)
	}
	m := &Machine{sim: s, rec: rec, gpu: g, kernel: k, rt: rt, drv: drv, mem: mem}
	m.SetGPUBudgets(c.MaxPixels, c.MaxInstructions)
	return m
}

// SetGPUBudgets bounds what the GPU's draws may do in this run, checked
// inside each draw (gpu.Limits): the pixels shaded, written or copied
// (copies a pixel per 4 bytes) and the shader instructions executed (0:
// no bound). A DMA buffer that would run past the deadline of timeout
// detection stops executing there, as the engine is reset then (the
// margin of one more preemption delay keeps it past the deadline
// whenever the buffer started). The GPU looks for a preemption request at
// a packet boundary after every tenth of the delay before the scheduler
// asks for one (gpu/preempt.go).
func (m *Machine) SetGPUBudgets(maxPixels, maxInstructions uint64) {
	t := m.kernel.TimeoutAfter()
	m.gpu.SetLimits(gpu.Limits{MaxPixels: maxPixels, MaxInstructions: maxInstructions, RunNS: t + t/100,
		PreemptCheckNS: max(m.kernel.PreemptAfter()/10, 1)})
}

// SetGPUYield gives the host a turn inside long draws (gpu.GPU.SetYield):
// fn reports whether the draw goes on.
func (m *Machine) SetGPUYield(fn func() bool) { m.gpu.SetYield(fn) }

// GPUStop is the draw the GPU stopped at a budget of the run, named for
// a message: which budget ("pixels", "instructions"), the draw packet
// and its DMA buffer, and the shaders (the API objects whose code the
// draw's programs are, "" for none).
type GPUStop struct {
	Limit    string
	Draw     string // "DRAW_INSTANCED (packet 14 of DMA buffer 3 of device dev, at instance 12)"
	VS, PS   string
	Instance uint32
}

// GPUStopped reports the draw the GPU stopped at a budget, if one did.
func (m *Machine) GPUStopped() (GPUStop, bool) {
	s := m.gpu.Stopped()
	if s == nil {
		return GPUStop{}, false
	}
	out := GPUStop{Limit: s.Limit, Instance: s.Instance}
	name := func(addr uint64) (string, string) {
		if addr == 0 {
			return "", ""
		}
		obj, dev, ok := m.kernel.AllocationAt(addr)
		if !ok {
			return fmt.Sprintf("the program at %#x", addr), ""
		}
		return obj, dev
	}
	var dev string
	out.VS, dev = name(s.VS)
	ps, dev2 := name(s.PS)
	out.PS = ps
	if dev == "" {
		dev = dev2
	}
	out.Draw = fmt.Sprintf("%s (packet %d of DMA buffer %d", s.Op, s.Packet, s.DMA)
	if dev != "" {
		out.Draw += " of device " + dev
	}
	if strings.HasSuffix(s.Op, "INSTANCED") {
		out.Draw += fmt.Sprintf(", at instance %d", s.Instance)
	}
	out.Draw += ")"
	return out, true
}

// Runtime is the D3D11 runtime: the API the application calls.
func (m *Machine) Runtime() *d3d11.Runtime { return m.rt }

// Sim is the simulation every layer runs on: virtual time and the simulated
// threads (the application's among them).
func (m *Machine) Sim() *sim.Sim { return m.sim }

// Recorder is the trace every layer writes.
func (m *Machine) Recorder() *trace.Recorder { return m.rec }

// GPUStats returns the GPU's counters.
func (m *Machine) GPUStats() GPUStats { return m.gpu.Stats() }

// GPUBudgeted is what the run's budgets count of the GPU's work
// (gpu.GPU.Budgeted): every statement asks.
func (m *Machine) GPUBudgeted() (pixels, instructions uint64) { return m.gpu.Budgeted() }

// GPUCommitted is the GPU memory committed for allocations, VRAM and
// aperture together: what the run's allocations hold, all devices counted.
// Dxgkrnl commits every extent through the machine (committedMemory), which
// keeps the count.
func (m *Machine) GPUCommitted() uint64 { return m.mem.bytes.Load() }

// Idle waits, in virtual time, until the GPU has finished all the work
// submitted to it. Its error matches ErrHeld when some of that work never
// can run (a GPU-side wait nothing signals).
func (m *Machine) Idle() error { return m.kernel.Idle() }

// ErrHeld: queued work a GPU-side wait holds for good (Idle).
var ErrHeld = dxgk.ErrHeld

// hcontextLock makes the UMD's lock on an HCONTEXT a simulated threads'
// lock: a thread run while another is descheduled inside the context's
// callbacks waits for it, with a wait on its lane naming the holder.
func hcontextLock(s *sim.Sim, rec *trace.Recorder) func(ddi.HCONTEXT) sync.Locker {
	return func(h ddi.HCONTEXT) sync.Locker {
		ctx := fmt.Sprintf("c%d", h)
		return &sim.Mutex{Sim: s, OnBlock: func(holder string, done bool) {
			ev := trace.Event{Layer: trace.UMD, From: trace.UMD, Kind: trace.Wait, Name: "HContextLock", Obj: ctx,
				Args: hctxArgs(ctx, holder, done),
				Msg:  fmt.Sprintf("waits for HCONTEXT %s: thread %s is inside its kernel callbacks (one thread at a time per HCONTEXT)", ctx, holder)}
			if done {
				ev.Msg = fmt.Sprintf("HCONTEXT %s released by thread %s", ctx, holder)
			}
			rec.Emit(ev)
		}}
	}
}

func hctxArgs(ctx, holder string, done bool) trace.Args {
	var b trace.ArgBuilder
	b.Str(trace.KeyHctx, ctx).Str(trace.KeyWhy, holder)
	if done {
		b.Flag(trace.KeyDone)
	}
	return b.Args()
}
