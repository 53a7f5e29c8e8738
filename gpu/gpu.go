package gpu

import (
	"fmt"
	"strconv"

	"d3dsim/core/sim"
	"d3dsim/core/trace"
	"d3dsim/core/xsync"
	"d3dsim/gpu/isa"
)

// Segment bases of the GPU's physical address space.
const (
	VRAMBase     uint64 = 0x0000_0001_0000_0000
	ApertureBase uint64 = 0x0000_0010_0000_0000
)

// Costs is the virtual-time cost model of the GPU, in nanoseconds. A DMA
// buffer costs BufferStartNS plus, for each packet, PacketNS and the work it
// does: VertexNS per vertex and PixelNS per pixel shaded for draws (on a
// multisampled target, per covered sample: each is tested and merged),
// ClearPer16PxNS per 16 pixels cleared, CopyPer64BNS per 64 bytes copied,
// written or filled. A draw's shaders cost too: its shader instructions
// executed (one per vertex or pixel each ran for: Stats.Instructions)
// divided by ShaderInstrsPerNS, the shader cores' throughput. The fixed-function units and the shader cores work at the
// same time, so a draw costs the larger of the two: a short shader hides
// behind the vertices and pixels (every draw of a built-in shader costs
// what it cost before shaders were charged) and a long one sets the time.
// Zero ShaderInstrsPerNS charges nothing for shaders.
type Costs struct {
	PacketNS          int64
	VertexNS          int64
	PixelNS           int64
	ClearPer16PxNS    int64
	CopyPer64BNS      int64
	BufferStartNS     int64
	ShaderInstrsPerNS int64
}

// DefaultCosts is a modest GPU: a DMA buffer takes a couple of microseconds to
// get going, a 640x480 clear about 19 µs and a full-screen triangle pair about
// 0.3 ms, so GPU work shows on a timeline next to the CPU's API calls. Its
// shader cores run 1,024 instructions a nanosecond (1,024 lanes at 1 GHz): a
// pixel shader costs more than the pixel's 1 ns past 1,024 instructions a
// pixel, a vertex shader more than the vertex's 4 ns past 4,096.
func DefaultCosts() Costs {
	return Costs{
		PacketNS:          40,
		VertexNS:          4,
		PixelNS:           1,
		ClearPer16PxNS:    1,
		CopyPer64BNS:      4,
		BufferStartNS:     2000,
		ShaderInstrsPerNS: 1024,
	}
}

// Limits are what the GPU checks inside a draw, between pieces of its
// work (an instance, 64 vertices, a row of 8x8 blocks, a block of a
// shader with loops): a draw runs millions of pixels or billions of shader
// instructions in one packet, which checks between API calls never see
// until it is over (a week of real time for one DrawInstanced).
//   - MaxPixels, MaxInstructions: the run's budgets on Stats.Pixels +
//     Stats.BytesCopied/4 and on Stats.Instructions. Past one, the draw
//     stops where it is, every later draw is skipped, and Stopped says
//     which draw, which programs and which limit; the caller ends the run
//     (0: no limit).
//   - RunNS: the virtual time a DMA buffer may take from its start. Past
//     it the buffer is still running when timeout detection resets the
//     engine (Dxgkrnl's deadline: its preemption request plus the TDR
//     delay), so the GPU executes no more of it: the buffer never
//     completes, like a hung one, and the TDR that follows is the one
//     Windows would make (0: no limit).
type Limits struct {
	MaxPixels       uint64
	MaxInstructions uint64
	RunNS           int64
	// PreemptCheckNS is how often the command processor looks at its
	// engine's preemption request: at the first packet boundary after
	// each PreemptCheckNS of the buffer's work (preempt.go). 0: never
	// inside a buffer, only between buffers.
	PreemptCheckNS int64
}

// Stop is the draw that stopped at a limit (Limits).
type Stop struct {
	DMA    uint64 // the DMA buffer's id
	Packet int    // the draw packet's ordinal in it
	Op     string // the draw packet: DRAW, DRAW_INDEXED_INSTANCED, ...
	Limit  string // "pixels" or "instructions"
	// VS and PS are the GPU addresses of the draw's programs (0: none);
	// VSWords and PSWords their sizes.
	VS, PS           uint64
	VSWords, PSWords uint32
	Instance         uint32 // the instance it was drawing
}

// Config sizes the GPU. Engines is the number of engines (rings), at least 1;
// a zero Costs means DefaultCosts. RasterWorkers is how many goroutines
// rasterize a large draw (tile-parallel, same pixels as one; see
// tiles.go): 0 means one per CPU natively and 1 in WebAssembly.
type Config struct {
	VRAM, Aperture uint64
	Engines        int
	Costs          Costs
	RasterWorkers  int
	// PaintPageFaults is the SamBookshelf article's illustration of a
	// tolerated GPU error: a page fault is only recorded (and a faulting
	// draw paints the warning colour), the buffer completes, nothing is
	// reported. Off (the default), a page fault stops the engine as on
	// Windows: the buffer never completes and the interrupt reports the
	// fault (PageFault), for the driver to tell Dxgkrnl (pagefault.go).
	PaintPageFaults bool
	// PaintEndlessLoops keeps the same illustration for a shader loop
	// that never ends: the program stops at the step limit, the draw's
	// pixels get the warning colour and the buffer completes. Off (the
	// default), such a draw never reaches its boundary: the buffer neither
	// completes nor answers a preemption request, and timeout detection
	// resets the engine, as on Windows (preempt.go).
	PaintEndlessLoops bool
	// RefreshHz is the display's refresh rate: a vertical blank every
	// 1/RefreshHz s of virtual time (display.go). Zero is 60.
	RefreshHz int
}

// Frame is a surface the display engine scanned out: RGBA8, row-major,
// Width*4 bytes a row. Its pixels are read-only: a frame with the same
// pixels as the one the display made before it shares them (scanFrame).
type Frame struct {
	Width, Height int
	Pix           []byte
}

// Fault is one error the GPU found while executing a DMA buffer: the buffer
// id given to Submit, the ordinal of the packet in the buffer (0-based) and
// what was wrong.
type Fault struct {
	DMA    uint64
	Packet int
	Reason string
	Page   bool // a memory access outside what is committed or bound (a page fault)
}

func (f Fault) String() string {
	return fmt.Sprintf("dma %d packet %d: %s", f.DMA, f.Packet, f.Reason)
}

// Stats are the GPU's counters since New.
type Stats struct {
	Buffers     uint64 // DMA buffers executed (hung ones excluded)
	Packets     uint64 // packets executed
	Draws       uint64 // DRAW and DRAW_INDEXED packets
	Vertices    uint64 // vertices processed
	Pixels      uint64 // pixels shaded (covered by a triangle inside the viewport and target)
	BytesCopied uint64 // bytes moved by COPY, WRITE and FILL
	Faults      uint64 // faults found (including ones not kept by Faults)
	// Instructions are the shader instructions executed, vertex and
	// pixel, counted once per vertex or pixel each ran for (not for a
	// quad's helper pixels): a program of 10 instructions on 64 pixels
	// counts 640, however the pixels were grouped into blocks. The fast
	// paths that compute what a straight-line program computes without
	// running it count its instructions the same way.
	Instructions uint64
}

// GPU is the simulated graphics processor: memory, one ring per engine, the
// command processor, the rasterizer and the shader cores, a fence register
// per engine and an interrupt line.
//
// Threading: every method is safe for concurrent use. Buffers execute on the
// simulated threads "gpu0", "gpu1", ... as events of the sim.Sim; the
// interrupt and scanout hooks are called on those threads, with no GPU lock
// held, so they may call back into the GPU (Submit, CompletedFence, ...).
type GPU struct {
	mu        xsync.Mutex
	sim       *sim.Sim
	rec       *trace.Recorder
	costs     Costs
	mem       *Memory
	engines   []*engine
	interrupt func(engine int)
	scanout   func(f Frame)
	hangNext  bool
	faultNext bool
	paintPF   bool // Config.PaintPageFaults
	// paintLoops is Config.PaintEndlessLoops.
	paintLoops bool
	watch      *PixelWatch                              // SetPixelWatch's (watch.go), nil when none
	drawLog    func(dma uint64, word int, c DrawCharge) // SetDrawLog's (watchclip.go)
	swatch     *ShaderWatch                             // SetShaderWatch's (shaderwatch.go), nil when none
	limits     Limits
	stopped    *Stop       // the draw that stopped at a limit (Stopped)
	yield      func() bool // SetYield
	abandoned  bool        // the host said stop (SetYield): every draw is skipped
	faults     []Fault
	stats      Stats
	ex         executor // scratch of the command processor, used under mu
	disp       display  // the display controller's vertical-blank interrupt (display.go)

	// lastScan is the last frame the display made, and scanScratch a row
	// of scratch to compare the next with it (scanFrame).
	lastScan    Frame
	scanScratch []byte

	// The samples-passed counter and the open occlusion queries are the
	// GPU's, not an engine's: when Dxgkrnl runs buffers out of order on
	// several engines, a query's begin, its draws and its end may
	// run on different engines. Each engine's counter is loaded from it
	// before a buffer runs and stored back after (buffers run one at a time).
	ctr  counters
	open []openQuery

	// paused holds the buffers preempted inside, by DMA buffer id, until
	// they are submitted again (preempt.go).
	paused map[uint64]*job
}

// maxFaults bounds the faults Faults keeps (Stats.Faults counts them all).
const maxFaults = 4096

type engine struct {
	idx     int
	thread  string
	ring    []*job
	cur     *job // started or about to start; nil when idle
	freeAt  int64
	fence   uint64
	gen     uint64   // bumped by Reset: events of dropped buffers are ignored
	faulted bool     // a page fault stopped the engine (until Reset)
	pfFence uint64   // the FENCE value of the buffer that faulted
	ctr     counters // the GPU's counters while a buffer runs (GPU.ctr between buffers)
	// preemptReq is the preemption fence id of the driver's pending
	// request (0: none); preempted the answer the ISR reads (preempt.go).
	preemptReq uint64
	preempted  *preemptReport
}

type job struct {
	id       uint64
	dma      []uint32
	submitAt int64
	hang     bool
	// Where the buffer goes on (preempt.go): the word and the packet
	// ordinal of its next packet, and the state its packets set so far
	// (nil: it has not run yet). resumed: it was preempted there and
	// submitted again.
	pc, pkt int
	saved   *state
	resumed bool
	engine  int
}

// New returns a GPU driven by s and tracing to rec (which may be nil).
func New(cfg Config, s *sim.Sim, rec *trace.Recorder) *GPU {
	if cfg.Engines < 1 {
		cfg.Engines = 1
	}
	if cfg.Costs == (Costs{}) {
		cfg.Costs = DefaultCosts()
	}
	g := &GPU{sim: s, rec: rec, costs: cfg.Costs, mem: newMemory(cfg.VRAM, cfg.Aperture), paintPF: cfg.PaintPageFaults, paintLoops: cfg.PaintEndlessLoops}
	g.disp.hz = int64(cfg.RefreshHz)
	for i := 0; i < cfg.Engines; i++ {
		g.engines = append(g.engines, &engine{idx: i, thread: "gpu" + strconv.Itoa(i)})
	}
	g.ex.g = g
	g.ex.draw.check = g.ex.checkpoint
	g.ex.draw.ahead = g.ex.runAhead
	g.ex.draw.workers = rasterWorkers(cfg.RasterWorkers)
	g.ex.draw.tp.own(g, g.ex.draw.workers)
	return g
}

// Memory is the GPU's physical memory.
func (g *GPU) Memory() *Memory { return g.mem }

// ConnectInterrupt connects the interrupt line: fn is called with the engine
// number at the virtual time a DMA buffer completes (on that engine's thread).
func (g *GPU) ConnectInterrupt(fn func(engine int)) {
	g.mu.Lock()
	g.interrupt = fn
	g.mu.Unlock()
}

// OnScanout connects the display engine: fn is called with a copy of the
// surface of each SCANOUT packet when its buffer completes (read-only, and
// shared with the frame before when the pixels are the same: Frame).
func (g *GPU) OnScanout(fn func(f Frame)) {
	g.mu.Lock()
	g.scanout = fn
	g.mu.Unlock()
}

// SetLimits sets the limits the GPU checks inside draws (Limits).
func (g *GPU) SetLimits(l Limits) {
	g.mu.Lock()
	g.limits = l
	g.mu.Unlock()
}

// Stopped is the draw that stopped at a limit, nil when none did: the
// first; every draw after it was skipped.
func (g *GPU) Stopped() *Stop {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped == nil {
		return nil
	}
	s := *g.stopped
	return &s
}

// SetYield gives the host a turn inside long draws: fn is called between
// pieces of a draw's work (where Limits are checked), on the GPU's
// thread with the GPU's lock held, so it must not call the GPU. The page
// gives the browser's event loop a turn there, so its panel answers during
// a draw of seconds. Where it is called depends only on the draw, and it
// changes nothing of what the draw computes, unless it returns false: the
// host is done with the run (the page loads another scenario), and the draw
// stops there with every later one skipped.
func (g *GPU) SetYield(fn func() bool) {
	g.mu.Lock()
	g.yield = fn
	g.mu.Unlock()
}

// InjectHang makes the next DMA buffer submitted hang: it starts but never
// completes (no fence write, no interrupt) and its engine stays busy until
// Reset.
func (g *GPU) InjectHang() {
	g.mu.Lock()
	g.hangNext = true
	g.mu.Unlock()
}

// InjectFault makes the next draw the GPU executes fault.
func (g *GPU) InjectFault() {
	g.mu.Lock()
	g.faultNext = true
	g.mu.Unlock()
}

// Submit queues a DMA buffer on an engine's ring; id names it in traces and
// faults. The GPU keeps its own copy of dma.
func (g *GPU) Submit(engine int, id uint64, dma []uint32) {
	g.mu.Lock()
	e := g.engine(engine)
	if e == nil {
		f := g.addFaultLocked(Fault{DMA: id, Reason: fmt.Sprintf("submit to engine %d: the GPU has %d engines", engine, len(g.engines))})
		g.mu.Unlock()
		g.emitFault("", f)
		return
	}
	j := &job{id: id, dma: append([]uint32(nil), dma...), submitAt: g.sim.Now(), hang: g.hangNext}
	g.hangNext = false
	if p := g.paused[id]; p != nil {
		// A buffer preempted inside: it resumes where it stopped, with
		// the state its packets had set (preempt.go).
		delete(g.paused, id)
		j.pc, j.pkt, j.saved, j.resumed = p.pc, p.pkt, p.saved, true
	}
	e.ring = append(e.ring, j)
	g.kickLocked(e)
	g.mu.Unlock()
}

// CompletedFence is the engine's fence register: the value of the FENCE
// packet of the last buffer that completed with one.
func (g *GPU) CompletedFence(engine int) uint64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if e := g.engine(engine); e != nil {
		return e.fence
	}
	return 0
}

// Busy reports whether the engine has a buffer running, hung or queued.
func (g *GPU) Busy(engine int) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	e := g.engine(engine)
	return e != nil && (e.cur != nil || len(e.ring) > 0)
}

// Reset is the engine reset of a TDR: the ring and the running or hung
// buffer are dropped and the engine is idle. The fence register keeps its
// value; the memory effects of a buffer that already started stay.
func (g *GPU) Reset(engine int) {
	g.mu.Lock()
	e := g.engine(engine)
	if e == nil {
		g.mu.Unlock()
		return
	}
	dropped := len(e.ring)
	if e.cur != nil {
		dropped++
	}
	e.gen++
	e.ring = nil
	e.cur = nil
	e.faulted = false
	e.preemptReq, e.preempted = 0, nil
	for id, j := range g.paused {
		if j.engine == engine {
			delete(g.paused, id) // its saved state went with the engine
		}
	}
	// The open queries' begins may never see their ends (their buffers
	// are dropped), except a TIMESTAMP_DISJOINT's: the reset is what it
	// reports (queries.go).
	kept := g.open[:0]
	for _, q := range g.open {
		if q.family == isa.QueryDisjointBegin {
			kept = append(kept, q)
		}
	}
	g.open = kept
	g.ctr[ctrResets]++
	if now := g.sim.Now(); now > e.freeAt {
		e.freeAt = now
	}
	g.mu.Unlock()
	g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Message,
		Name: "EngineReset", Args: engineDropped(engine, dropped)})
}

func engineDropped(engine, dropped int) trace.Args {
	var b trace.ArgBuilder
	return b.Int(trace.KeyEngine, int64(engine)).Int(trace.KeyDropped, int64(dropped)).Args()
}

// Faults returns the faults found so far (the first 4096).
func (g *GPU) Faults() []Fault {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]Fault(nil), g.faults...)
}

// Stats returns the GPU's counters.
func (g *GPU) Stats() Stats {
	g.mu.Lock()
	st := g.stats // (no defer: every statement reads it, for the budgets)
	g.mu.Unlock()
	return st
}

// Budgeted is Stats' Pixels plus a pixel per 4 BytesCopied, and its
// Instructions: what a scenario's pixel and instruction budgets count,
// read after every statement without copying the whole Stats (about 60
// instructions a statement; issue 32's draw rate).
func (g *GPU) Budgeted() (pixels, instructions uint64) {
	g.mu.Lock()
	pixels, instructions = g.stats.Pixels+g.stats.BytesCopied/4, g.stats.Instructions
	g.mu.Unlock()
	return pixels, instructions
}

func (g *GPU) engine(i int) *engine {
	if i < 0 || i >= len(g.engines) {
		return nil
	}
	return g.engines[i]
}

func (g *GPU) addFaultLocked(f Fault) Fault {
	g.stats.Faults++
	return g.keepFaultLocked(f)
}

// keepFaultLocked keeps f for Faults without counting it.
func (g *GPU) keepFaultLocked(f Fault) Fault {
	if len(g.faults) < maxFaults {
		g.faults = append(g.faults, f)
	}
	return f
}

func (g *GPU) emitFault(thread string, f Fault) {
	g.rec.Emit(trace.Event{Thread: thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Message,
		Name: "GpuFault", DMA: f.DMA, Msg: f.Reason, Args: faultArgs(f)})
}

// faultArgs are a GpuFault event's typed arguments: the packet, and whether
// it is a page fault (the verifier's WDDM-ISOLATE reads that flag).
func faultArgs(f Fault) trace.Args {
	var b trace.ArgBuilder
	b.Int(trace.KeyPacket, int64(f.Packet))
	if f.Page {
		b.Flag(trace.KeyPageFault)
	}
	return b.Args()
}

// kickLocked starts the buffer at the front of the ring if the engine is
// idle: it runs at max(its submit time, the time the engine became free).
func (g *GPU) kickLocked(e *engine) {
	if e.cur != nil || len(e.ring) == 0 {
		return
	}
	j := e.ring[0]
	e.ring[0] = nil
	e.ring = e.ring[1:]
	e.cur = j
	at := max(j.submitAt, e.freeAt)
	gen := e.gen
	g.sim.Schedule(at, e.thread, func() { g.start(e, gen, j) })
}

// start executes a buffer: all its packets run now (memory effects happen
// here), and completion is scheduled after their cost. A buffer that
// pauses at a packet boundary (Limits.PreemptCheckNS) goes on in an event
// at the boundary's time, where a pending preemption request stops it
// (preempt.go); so does one about to start.
func (g *GPU) start(e *engine, gen uint64, j *job) {
	g.mu.Lock()
	if e.gen != gen || e.cur != j {
		g.mu.Unlock()
		return
	}
	if e.preemptReq != 0 && !j.hang {
		g.preemptLocked(e, j)
		return
	}
	t0 := g.sim.Now()
	began, resumed := j.pc == 0, j.resumed && j.saved != nil
	j.resumed = false
	var res result
	if j.hang {
		res.packets = countPackets(j.dma)
	} else {
		res = g.ex.run(e, j, t0)
	}
	pf := !j.hang && !g.paintPF && hasPageFault(res.faults)
	g.mu.Unlock()

	switch {
	case began:
		n := res.packets
		if res.paused {
			n = countPackets(j.dma)
		}
		g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Exec,
			Name: "DmaBufferStart", DMA: j.id, Args: trace.IntArg(trace.KeyPackets, int64(n))})
	case resumed:
		g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Exec,
			Name: "DmaBufferResume", DMA: j.id, Args: trace.IntArg(trace.KeyPackets, int64(res.packets)),
			Msg: "the preempted buffer goes on where it stopped, with the state its earlier packets set"})
	}
	for _, f := range res.faults {
		g.emitFault(e.thread, f)
	}
	if res.overrun != "" {
		// Still running at the deadline of timeout detection: the engine
		// stays busy until Reset, as for a hang.
		g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Message,
			Name: "DmaBufferOverrun", DMA: j.id, Msg: res.overrun})
		return
	}
	if j.hang {
		return // never completes: the engine stays busy until Reset
	}
	if pf {
		g.sim.Schedule(t0+res.cost, e.thread, func() { g.pageFaulted(e, gen, j, res.fence) })
		return
	}
	if res.paused {
		g.sim.Schedule(t0+res.cost, e.thread, func() { g.boundary(e, gen, j, res.frames) })
		return
	}
	g.sim.Schedule(t0+res.cost, e.thread, func() { g.complete(e, gen, j, &res) })
}

// boundary is a buffer reaching the packet boundary it paused at: the
// frames its packets scanned out are shown and it goes on (start).
func (g *GPU) boundary(e *engine, gen uint64, j *job, frames []Frame) {
	g.mu.Lock()
	scan := g.scanout
	live := e.gen == gen && e.cur == j
	g.mu.Unlock()
	if !live {
		return
	}
	if scan != nil {
		for _, f := range frames {
			scan(f)
		}
	}
	g.start(e, gen, j)
}

// complete writes the fence register, traces, shows scanned-out frames,
// raises the interrupt and starts the next buffer.
func (g *GPU) complete(e *engine, gen uint64, j *job, res *result) {
	g.mu.Lock()
	if e.gen != gen || e.cur != j {
		g.mu.Unlock()
		return
	}
	if res.hasFence {
		e.fence = res.fence
	}
	e.cur = nil
	e.freeAt = g.sim.Now()
	g.kickLocked(e)
	if e.cur == nil && e.preemptReq != 0 {
		// Asked to preempt a buffer that has just completed, with
		// nothing behind it: the answer reports that completion.
		e.preempted = &preemptReport{fence: e.preemptReq, last: e.fence}
		e.preemptReq = 0
	}
	intr, scan := g.interrupt, g.scanout
	g.mu.Unlock()

	if res.hasFence {
		g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Fence,
			Name: "FenceWrite", Fence: res.fence, DMA: j.id})
	}
	g.rec.Emit(trace.Event{Thread: e.thread, From: trace.KMD, Layer: trace.GPU, Kind: trace.Interrupt,
		Name: "Interrupt", Fence: res.fence, DMA: j.id})
	if scan != nil {
		for _, f := range res.frames {
			scan(f)
		}
	}
	if intr != nil {
		intr(e.idx)
	}
}
