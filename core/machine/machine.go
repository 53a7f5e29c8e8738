package machine

import (
	"fmt"
	"sync"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/kmd"
	"d3dsim/core/rules"
	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/umd"
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
	MaxAllocBytes   uint64 // system memory the runtime's objects may hold
	MaxObjects      int    // API objects the runtime may hold
	RefreshHz       int    // the display's vertical blanks per second (0: 60)

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

// Machine is one simulated PC: a D3D11 runtime over the UMD, Dxgkrnl with
// its KMD, and one GPU, sharing one simulation and one trace recorder.
type Machine struct {
	sim    *sim.Sim
	rec    *trace.Recorder
	gpu    *gpu.GPU
	kernel *dxgk.Dxgkrnl
	rt     *d3d11.Runtime
}

// New builds a machine. This is the one place the concrete layers are wired
// together.
func New(c Config) *Machine {
	s := sim.New(c.Seed)
	rec := trace.NewRecorder(s.Now, s.Thread)
	rec.SetStamp(s.Stamp)
	g := gpu.New(gpu.Config{VRAM: c.VRAM, Aperture: ApertureSize, Engines: c.Engines, Costs: gpu.DefaultCosts(), PaintPageFaults: c.PaintPageFaults, RefreshHz: c.RefreshHz}, s, rec)
	drv := kmd.New(g, s, kmd.Config{Engines: c.Engines, DmaBufferSize: int(c.CommandBuffer), Bugs: c.Bugs, NoEngineReset: c.NoEngineReset})
	k := dxgk.New(s, rec, drv, dxgk.Config{CommandBufferSize: int(c.CommandBuffer), AllocationListSize: 256, PatchLocationListSize: 1024,
		OutOfOrder: c.OutOfOrder, Bugs: c.Bugs, RefreshHz: c.RefreshHz})
	k.SetSegments(gpu.VRAMBase, c.VRAM, gpu.ApertureBase, ApertureSize, g.Memory())
	g.ConnectInterrupt(k.Interrupt)
	if c.OnFrame != nil {
		g.OnScanout(c.OnFrame)
	}
	rt := d3d11.New(d3d11.Config{Sim: s, Rec: rec, Kernel: k, Adapter: umd.NewAdapter(umd.Config{Bugs: c.Bugs, NewLock: hcontextLock(s, rec)}), Bugs: c.Bugs, Recycle: c.Recycle, CommandLists: c.CommandLists, FreeThreaded: c.FreeThreaded,
		MaxAllocBytes: c.MaxAllocBytes, MaxObjects: c.MaxObjects})
	if c.Preempt != nil {
		rt.SetPreempt(c.Preempt)
	}
	return &Machine{sim: s, rec: rec, gpu: g, kernel: k, rt: rt}
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

// GPUCommitted is the GPU memory committed for allocations, VRAM and
// aperture together: what the run's allocations hold, all devices counted.
func (m *Machine) GPUCommitted() uint64 {
	v, a := m.gpu.Memory().Committed()
	return v + a
}

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
