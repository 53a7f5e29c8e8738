package scenario

import (
	"strconv"

	"d3dsim/core/hlsl"
	"d3dsim/core/machine"
	"d3dsim/core/rules"
)

// The values of `option scheduler=`. SchedulerWDDM, the default, is Windows'
// GPU scheduling: a context runs on the node it was created on and its DMA
// buffers run in submission order ("MCDM architecture", "Submitting a
// Command Buffer", D3DDDICB_CREATECONTEXT's NodeOrdinal). SchedulerSALVIA is the design of the
// article "Direct3D Draw函数 异步调用原理解析" (SamBookshelf), which says it
// comes from the SALVIA software renderer and from no real driver: a
// dependency graph of RAW/WAR/WAW hazards reorders DMA buffers across
// engines. `option ooo=true` is its older name and stays an alias.
const (
	SchedulerWDDM   = "wddm"
	SchedulerSALVIA = "salvia"
)

// options are a scenario's `option` lines, decoded.
type options struct {
	seed       uint64
	sync       bool
	ooo        bool // scheduler=salvia (or its alias ooo=true): the SamBookshelf article's out-of-order scheduler, not Windows'
	vram       uint64
	cmdbuf     uint64
	engines    int
	maxsteps   int
	maxevents  int
	maxtime    int64 // virtual ns a scenario thread may reach
	maxpixels  uint64
	maxinstr   uint64 // maxinstructions: shader instructions the GPU may execute
	sysmem     uint64
	maxobjects int
	bugs       rules.Set
	recycle    bool   // driver.recycle: D3D11DDICAPS_COMMANDLISTS_BUILD_2
	cmdlists   bool   // driver.commandlists: the driver records command lists itself
	freeth     bool   // driver.freethreaded: D3D11DDICAPS_FREETHREADED
	preempt    bool   // preempt: threads may be descheduled inside kernel callbacks
	noEngReset bool   // kmd.engine-reset=false: the KMD lacks SupportPerEngineTDR
	paintPF    bool   // gpu.pagefault=warning-colour: the SamBookshelf illustration, page faults only paint
	paintLoops bool   // gpu.endless=warning-colour: the same illustration for a shader loop that never ends
	tdrDelay   int64  // tdr.delay: the TDR delay in virtual ns (0: Windows' 2 s)
	budget     uint64 // wddm2.budget: WDDM 2.0 residency with this process budget
	refresh    int    // display.refresh: vertical blanks per second
	monitored  bool   // wddm2.monitored-fences: WDDM 2.0 monitored fences
	gpuCosts   *machine.GPUCosts
}

// DefaultMaxInstructions is option maxinstructions' default: the shader
// instructions a run's draws may execute (one per vertex or pixel each
// runs for). The simulator runs about XXX of them a second natively.
const DefaultMaxInstructions = 10_000_000_000

func decodeOptions(s *Script, o Overrides) options {
	opt := options{seed: 1, vram: 256 << 20, cmdbuf: 64 << 10, engines: 1, maxsteps: 10_000_000, maxevents: 1_000_000, maxtime: 10e9, maxpixels: 2e9, maxinstr: DefaultMaxInstructions, sysmem: 512 << 20, maxobjects: 100_000, refresh: 60, bugs: rules.Set{}, recycle: true, cmdlists: true, freeth: true}
	for _, op := range s.Options {
		n, _ := parseSize(op.Value)
		switch op.Key {
		case "seed":
			opt.seed = n
		case "sync":
			opt.sync = op.Value == "true"
		case "ooo": // the older name of scheduler=salvia, kept for links and tutorials
			opt.ooo = op.Value == "true"
		case "scheduler":
			opt.ooo = op.Value == SchedulerSALVIA
		case "gpu.vram":
			opt.vram = n
		case "umd.cmdbuf":
			opt.cmdbuf = n
		case "gpu.engines":
			opt.engines = max(1, min(int(n), 8))
		case "maxsteps":
			opt.maxsteps = int(min(n, 1<<40))
		case "sysmem":
			opt.sysmem = max(n, 1<<20)
		case "maxobjects":
			opt.maxobjects = int(min(max(n, 16), 1<<30))
		case "maxevents":
			opt.maxevents = int(min(max(n, 1000), 1<<40))
		case "maxpixels":
			opt.maxpixels = max(n, 1)
		case "maxinstructions":
			opt.maxinstr = max(n, 1)
		case "maxtime":
			opt.maxtime = int64(min(max(n, 1), 1_000_000_000)) * 1e6 // milliseconds
		case "bug":
			opt.bugs[rules.ID(op.Value)] = true
		case "driver.recycle":
			opt.recycle = op.Value == "true"
		case "driver.commandlists":
			opt.cmdlists = op.Value == "true"
		case "driver.freethreaded":
			opt.freeth = op.Value == "true"
		case "preempt":
			opt.preempt = op.Value == "true"
		case "kmd.engine-reset":
			opt.noEngReset = op.Value != "true"
		case "gpu.pagefault":
			opt.paintPF = op.Value == "warning-colour"
		case "wddm2.budget":
			opt.budget = max(n, 4<<10)
		case "gpu.endless":
			opt.paintLoops = op.Value == "warning-colour"
		case "tdr.delay":
			opt.tdrDelay = int64(min(max(n, 1), 10_000)) * 1e6 // milliseconds
		case "wddm2.monitored-fences":
			opt.monitored = op.Value == "true"
		case "display.refresh":
			opt.refresh = int(min(max(n, RefreshRange.Min), RefreshRange.Max))
		}
	}
	if o.Seed != nil {
		opt.seed = *o.Seed
	}
	if o.Sync != nil {
		opt.sync = *o.Sync
	}
	if o.OOO != nil {
		opt.ooo = *o.OOO
	}
	if o.Engines != nil {
		opt.engines = max(1, min(*o.Engines, 8))
	}
	if o.MaxSteps != nil {
		opt.maxsteps = int(min(max(*o.MaxSteps, 1), 1<<40))
	}
	if o.MaxEvents != nil {
		opt.maxevents = int(min(max(*o.MaxEvents, 1000), 1<<40))
	}
	if o.MaxTime != nil {
		opt.maxtime = int64(min(max(*o.MaxTime, 1), 1_000_000_000)) * 1e6
	}
	if o.MaxPixels != nil {
		opt.maxpixels = max(*o.MaxPixels, 1)
	}
	if o.MaxInstructions != nil {
		opt.maxinstr = max(*o.MaxInstructions, 1)
	}
	opt.gpuCosts = o.gpuCosts
	if o.SysMem != nil {
		opt.sysmem = max(*o.SysMem, 1<<20)
	}
	if o.MaxObjects != nil {
		opt.maxobjects = int(min(max(*o.MaxObjects, 16), 1<<30))
	}
	// At most 1 GiB of VRAM: with the 1 GiB aperture a run commits at most
	// 2 GiB of GPU memory however many devices it creates.
	opt.vram = min(max(opt.vram, 1<<20), machine.MaxVRAM)
	opt.cmdbuf = min(max(opt.cmdbuf, 4<<10), 64<<20)
	return opt
}

// machine is the machine the options describe. onFrame receives the
// presented frames; preempt, when option preempt is on, is called inside
// the runtime's kernel callbacks.
func (o options) machine(onFrame func(machine.Frame), preempt func()) machine.Config {
	c := machine.Config{Seed: o.seed, VRAM: o.vram, Engines: o.engines, CommandBuffer: o.cmdbuf, OutOfOrder: o.ooo, Bugs: o.bugs,
		Recycle: o.recycle, CommandLists: o.cmdlists, FreeThreaded: o.freeth, NoEngineReset: o.noEngReset, PaintPageFaults: o.paintPF, PaintEndlessLoops: o.paintLoops, TDRDelay: o.tdrDelay, ResidencyBudget: o.budget, MaxAllocBytes: o.sysmem, MaxObjects: o.maxobjects, RefreshHz: o.refresh, MonitoredFences: o.monitored, OnFrame: onFrame,
		MaxPixels: o.maxpixels, MaxInstructions: o.maxinstr, GPUCosts: o.gpuCosts}
	if o.preempt {
		c.Preempt = preempt
	}
	return c
}

// Range is the values a budget option may take in a scenario or a link: one
// outside it is refused when the scenario loads, with a message naming the
// option and the range. The maxima keep any scenario within the promise in
// docs/security.md (memory and time); the CLI can go past them with its
// --max-* flags (Overrides), a link cannot.
type Range struct {
	Min, Max uint64
	Size     bool // a size in bytes (printed 1MiB), else a count
}

// String is "MIN..MAX", sizes with their unit.
func (r Range) String() string {
	f := func(n uint64) string { return strconv.FormatUint(n, 10) }
	if r.Size {
		f = formatSize
	}
	return f(r.Min) + ".." + f(r.Max)
}

// formatSize prints n in the largest unit that divides it (1GiB, 64KiB, 12).
func formatSize(n uint64) string {
	for _, u := range []struct {
		s string
		m uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.m && n%u.m == 0 {
			return strconv.FormatUint(n/u.m, 10) + u.s
		}
	}
	return strconv.FormatUint(n, 10)
}

// RefreshRange is the refresh rates `option display.refresh=HZ` accepts:
// from a slow 1 Hz (to watch frames wait) to 1000 Hz.
var RefreshRange = Range{1, 1000, false}

// Ranges are the budget options' ranges (docs/security.md, "Limits").
var Ranges = map[string]Range{
	"maxsteps":  {1, 100_000_000, false},
	"maxevents": {1000, 4_000_000, false},
	"maxtime":   {1, 60_000, false}, // milliseconds of virtual time
	"maxpixels": {1, 20_000_000_000, false},
	// shader instructions executed, one per vertex or pixel each runs for
	"maxinstructions": {1, 100_000_000_000, false},
	"maxobjects":      {16, 250_000, false},
	"sysmem":          {1 << 20, 512 << 20, true},
	"gpu.vram":        {1 << 20, machine.MaxVRAM, true},
	"gpu.engines":     {1, 8, false},
	"umd.cmdbuf":      {4 << 10, 64 << 20, true},
	// The HLSL compiler's own budgets (core/hlsl Limits), up to their
	// ceilings.
	"hlsl.tokens":       {1, hlsl.MaxTokens, false},
	"hlsl.nodes":        {1, hlsl.MaxNodes, false},
	"hlsl.instructions": {1, hlsl.MaxInstructions, false},
}
