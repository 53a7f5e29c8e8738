package scenario

import (
	"d3dsim/core/machine"
	"d3dsim/core/rules"
)

// options are a scenario's `option` lines, decoded.
type options struct {
	seed       uint64
	sync       bool
	ooo        bool // the GPU scheduler runs independent DMA buffers out of order
	vram       uint64
	cmdbuf     uint64
	engines    int
	maxsteps   int
	maxevents  int
	maxtime    int64 // virtual ns a scenario thread may reach
	maxpixels  uint64
	sysmem     uint64
	maxobjects int
	bugs       rules.Set
	recycle    bool // driver.recycle: D3D11DDICAPS_COMMANDLISTS_BUILD_2
	cmdlists   bool // driver.commandlists: the driver records command lists itself
	freeth     bool // driver.freethreaded: D3D11DDICAPS_FREETHREADED
	preempt    bool // preempt: threads may be descheduled inside kernel callbacks
}

func decodeOptions(s *Script, o Overrides) options {
	opt := options{seed: 1, vram: 256 << 20, cmdbuf: 64 << 10, engines: 1, maxsteps: 10_000_000, maxevents: 1_000_000, maxtime: 10e9, maxpixels: 2e9, sysmem: 512 << 20, maxobjects: 100_000, bugs: rules.Set{}, recycle: true, cmdlists: true, freeth: true}
	for _, op := range s.Options {
		n, _ := parseSize(op.Value)
		switch op.Key {
		case "seed":
			opt.seed = n
		case "sync":
			opt.sync = op.Value == "true"
		case "ooo":
			opt.ooo = op.Value == "true"
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
		Recycle: o.recycle, CommandLists: o.cmdlists, FreeThreaded: o.freeth, MaxAllocBytes: o.sysmem, MaxObjects: o.maxobjects, OnFrame: onFrame}
	if o.preempt {
		c.Preempt = preempt
	}
	return c
}
