package inspect

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"d3dsim/core/d3d11"
	"d3dsim/core/machine"
	"d3dsim/core/scenario"
	"d3dsim/core/trace"
	"d3dsim/gpu/isa"
)

// Journal follows a run as it goes and keeps what the state query needs
// at any event without running anything again: every API call (its event,
// its context, where the immediate context's command buffer stood after
// it), each context's bindings whenever a call changed them, and every
// DMA buffer the kernel-mode driver wrote (its packets, allocation list and
// patch locations). It is what makes selecting an event cheap: a binary
// search, however long the run.
//
// Bounds: at most MaxCalls calls and MaxDMAWords words of DMA buffers are
// kept (past them the oldest buffers' packets are let go, and calls are
// no longer journaled: Truncated says so).
type Journal struct {
	run  *scenario.Run
	mach *machine.Machine
	rec  *trace.Recorder

	calls   callList
	methods []string
	method  map[string]uint16
	ctxs    []*d3d11.DeviceContext
	ctxIdx  map[*d3d11.DeviceContext]int16
	states  []stateRec
	last    map[int16]int32 // per context: its latest entry in states
	devs    []*d3d11.Device
	devIdx  map[*d3d11.Device]int16
	hctxDev map[uint32]int16 // kernel context -> the device whose immediate context submits to it

	dmas      []dmaRec
	dmaByID   map[uint64]int
	dmaWords  int // words of DMA buffers kept
	dmaFirst  int // dmas before it have let their words go
	Truncated bool

	byDev    map[int16][]int32 // deviceCalls' index, for byDevLen calls
	byDevLen int

	after []func() // called after each call is journaled (the queries' own hooks)

	decoded map[int]map[int]isa.Packet // packetText's decoded buffers

	// charges: what each draw charged for its pixels, by DMA buffer and
	// packet word (the GPU's draw log, on its thread): a pixel history
	// replays them for the draws it clips (history.go).
	chargeMu sync.Mutex
	charges  map[uint64]*dmaCharges // by DMA buffer
	nCharges int                    // draws whose charge is kept
}

// dmaCharges are the charges of one DMA buffer's draws, by packet word in
// increasing order (the order the GPU runs them in, so a draw log only
// appends). One map entry a draw grew the map a thousand times a frame of
// the page's draws figure: 164 bytes allocated a draw, the journal's
// largest garbage (wasm BenchmarkPageFrame); these take about 32.
type dmaCharges struct {
	words   []int
	charges []machine.DrawCharge
}

// logDraw is the GPU's draw log.
func (j *Journal) logDraw(dma uint64, word int, c machine.DrawCharge) {
	j.chargeMu.Lock()
	defer j.chargeMu.Unlock()
	d := j.charges[dma]
	if d == nil {
		d = &dmaCharges{}
		j.charges[dma] = d
	}
	if n := len(d.words); n == 0 || d.words[n-1] < word {
		if j.nCharges < MaxDrawCharges {
			d.words = append(d.words, word)
			d.charges = append(d.charges, c)
			j.nCharges++
		}
		return
	}
	// A word at or before the last (a buffer run again): in its place.
	i, found := slices.BinarySearch(d.words, word)
	if found {
		d.charges[i] = c
		return
	}
	if j.nCharges < MaxDrawCharges {
		d.words = slices.Insert(d.words, i, word)
		d.charges = slices.Insert(d.charges, i, c)
		j.nCharges++
	}
}

// charge is what the draw at a DMA buffer's word charged in the run.
func (j *Journal) charge(dma uint64, word int) (machine.DrawCharge, bool) {
	j.chargeMu.Lock()
	defer j.chargeMu.Unlock()
	d := j.charges[dma]
	if d == nil {
		return machine.DrawCharge{}, false
	}
	i, found := slices.BinarySearch(d.words, word)
	if !found {
		return machine.DrawCharge{}, false
	}
	return d.charges[i], true
}

// Bounds of a journal.
const (
	MaxCalls    = 1 << 23  // API calls journaled
	MaxDMAWords = 16 << 20 // words of DMA buffers kept (64 MiB)
	// MaxDrawCharges: draws whose charge is kept (a history clips no draw
	// past them, and costs the whole copy there).
	MaxDrawCharges = 1 << 18
)

// callRec is one API call.
type callRec struct {
	seq    uint64 // its app→runtime call event
	from   uint64 // the trace's last seq before the statement
	line   int32
	ctx    int16 // the context it was made on (-1: none)
	dev    int16 // the device whose immediate context's recording sub/words are (-1: none)
	method uint16
	state  int32  // the entry in states of ctx's bindings after it (-1: none)
	sub    uint32 // the immediate context's submissions after the call
	words  uint32 // and the words of the buffer it fills
	failed bool
}

// callList holds the journal's calls in chunks of callChunk: appending
// never copies what is held. One slice grown by append copied all of it at
// each growth (by a quarter, past a few hundred calls), about five times
// the journal's size in garbage over a run: 264 KB a frame of the page's
// draws figure of 1,000 draws, its largest allocation after the panel's
// batches (wasm BenchmarkPageFrame), for 48 KB of calls kept; every
// collection that garbage brings marks the page's heap on its only thread.
type callList struct {
	chunks [][]callRec
	n      int
}

// callChunk is the calls of one chunk (192 KiB).
const callChunk = 4096

// at is call i (0 <= i < n).
func (l *callList) at(i int) *callRec { return &l.chunks[i/callChunk][i%callChunk] }

// add appends r.
func (l *callList) add(r callRec) {
	if l.n%callChunk == 0 {
		// The first chunk grows as a slice does (a short run's journal
		// stays small), the others are made whole.
		var c []callRec
		if l.n > 0 {
			c = make([]callRec, 0, callChunk)
		}
		l.chunks = append(l.chunks, c)
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, r)
	l.n++
}

// stateRec is a context's bindings from one call on.
type stateRec struct {
	ctx  int16
	call int32 // the call after which the context had them first
	b    *d3d11.Bindings
}

// dmaRec is one DMA buffer.
type dmaRec struct {
	info machine.DMAInfo
	dev  int16  // the device that submitted it (-1: unknown)
	sub  uint32 // which of its immediate context's submissions it is
	seq  uint64 // the trace's last seq when it was written (a present's call precedes it)
}

// Record starts a journal of run: call it before the run's first step.
func Record(run *scenario.Run) *Journal {
	j := &Journal{run: run, mach: run.Machine(), rec: run.Recorder(), method: map[string]uint16{},
		ctxIdx: map[*d3d11.DeviceContext]int16{}, last: map[int16]int32{}, devIdx: map[*d3d11.Device]int16{},
		hctxDev: map[uint32]int16{}, dmaByID: map[uint64]int{}, charges: map[uint64]*dmaCharges{}}
	run.OnCall(j.call)
	j.mach.ObserveDMA(j.dma)
	j.mach.SetDrawLog(j.logDraw)
	return j
}

// Calls is how many API calls the journal holds.
func (j *Journal) Calls() int { return j.calls.n }

func (j *Journal) methodID(m string) uint16 {
	if i, ok := j.method[m]; ok {
		return i
	}
	i := uint16(len(j.methods))
	j.methods = append(j.methods, m)
	j.method[m] = i
	return i
}

func (j *Journal) ctxID(c *d3d11.DeviceContext) int16 {
	if i, ok := j.ctxIdx[c]; ok {
		return i
	}
	i := int16(len(j.ctxs))
	j.ctxs = append(j.ctxs, c)
	j.ctxIdx[c] = i
	return i
}

func (j *Journal) devID(d *d3d11.Device) int16 {
	if i, ok := j.devIdx[d]; ok {
		return i
	}
	i := int16(len(j.devs))
	j.devs = append(j.devs, d)
	j.devIdx[d] = i
	if h, _, _, ok := machine.Recording(d); ok {
		j.hctxDev[h] = i
	}
	return i
}

// call journals one API call (scenario.Run.OnCall).
func (j *Journal) call(c scenario.CallDone) {
	if j.calls.n >= MaxCalls {
		j.Truncated = true
		return
	}
	r := callRec{from: c.From, line: int32(c.Line), method: j.methodID(c.Method), ctx: -1, dev: -1, state: -1, failed: c.Err != nil}
	r.seq = j.callEvent(c)
	var dev *d3d11.Device
	switch t := c.Target.(type) {
	case *d3d11.DeviceContext:
		r.ctx = j.ctxID(t)
		r.state = j.snapshot(r.ctx, t, mayBind(c.Method))
		dev = t.Device()
	case *d3d11.Device:
		dev = t
	case d3d11.Object:
		dev = objDevice(t)
	}
	if c.Target == nil {
		// D3D11CreateDevice: the device it made is the run's newest.
		if ds := j.run.Devices(); len(ds) > 0 {
			dev = ds[len(ds)-1]
		}
	}
	if dev != nil {
		r.dev = j.devID(dev)
		if _, isCtx := c.Target.(*d3d11.DeviceContext); !isCtx && dev.Alive() && unbinds(c.Method) {
			// A call on another object may change what the immediate
			// context binds (a swap chain's release unbinds its buffer).
			im := dev.ImmediateContext()
			j.snapshot(j.ctxID(im), im, true)
		}
		if _, sub, words, ok := machine.Recording(dev); ok && dev.Alive() {
			r.sub, r.words = uint32(sub), uint32(words)
		}
	}
	j.calls.add(r)
	for _, fn := range j.after {
		fn()
	}
}

// objDevice is the device an object belongs to (nil: none).
func objDevice(o d3d11.Object) *d3d11.Device {
	if d, ok := o.(interface{ Device() *d3d11.Device }); ok {
		return d.Device()
	}
	return nil
}

// callEvent finds the call's app→runtime call event among those its
// statement wrote (0: none, a call the runtime never saw).
func (j *Journal) callEvent(c scenario.CallDone) uint64 {
	end := uint64(j.rec.Len())
	for s := c.From + 1; s <= end && s <= c.From+64; s++ {
		e := j.rec.Get(s)
		if e != nil && e.Kind == trace.Call && e.From == trace.App && e.Thread == c.Thread {
			return s
		}
	}
	return 0
}

// mayBind reports whether a context method may change the context's
// bindings: the Set calls, ClearState, and the command-list calls (which
// clear or restore them). Other calls leave the bindings as they were, and
// the journal does not look (a million draws cost no copies).
func mayBind(m string) bool {
	switch m {
	case "ClearState", "ExecuteCommandList", "FinishCommandList", "Release":
		return true
	}
	return strings.Contains(m, "Set")
}

// unbinds reports whether a call on another object may change what a
// context binds (a release unbinds the object: a swap chain's buffer).
func unbinds(m string) bool {
	return m == "Release" || m == "ResizeBuffers" || m == "SetFullscreenState"
}

// snapshot journals context c's bindings if they may have changed (look)
// and did, and returns the context's entry.
func (j *Journal) snapshot(ci int16, c *d3d11.DeviceContext, look bool) int32 {
	i, ok := j.last[ci]
	if ok && !look {
		return i
	}
	b := c.Bindings()
	if ok && j.states[i].b.Equal(b) {
		return i
	}
	i = int32(len(j.states))
	j.states = append(j.states, stateRec{ctx: ci, call: int32(j.calls.n), b: b})
	j.last[ci] = i
	return i
}

// dma journals one DMA buffer (machine.ObserveDMA), on the submitting
// thread: for a DxgkDdiRender buffer the immediate context has not yet
// counted the submission, so its count is this buffer's index.
func (j *Journal) dma(in machine.DMAInfo) {
	d := dmaRec{info: in, dev: -1, seq: uint64(j.rec.Len())}
	d.info.Words = append([]uint32(nil), in.Words...)
	d.info.Allocations = append(d.info.Allocations[:0:0], in.Allocations...)
	d.info.Patches = append(d.info.Patches[:0:0], in.Patches...)
	if di, ok := j.hctxDev[uint32(in.Context)]; ok {
		d.dev = di
	} else {
		for _, dev := range j.run.Devices() {
			j.devID(dev)
		}
		if di, ok := j.hctxDev[uint32(in.Context)]; ok {
			d.dev = di
		}
	}
	if d.dev >= 0 && !in.Present {
		if _, sub, _, ok := machine.Recording(j.devs[d.dev]); ok {
			d.sub = uint32(sub)
		}
	}
	j.dmaByID[in.ID] = len(j.dmas)
	j.dmas = append(j.dmas, d)
	j.dmaWords += len(d.info.Words)
	for j.dmaWords > MaxDMAWords && j.dmaFirst < len(j.dmas)-1 {
		old := &j.dmas[j.dmaFirst]
		j.dmaWords -= len(old.info.Words)
		old.info.Words = nil
		j.dmaFirst++
	}
}

// callAt is the index of the API call an event belongs to: the last call
// whose event is at or before seq (-1: none).
func (j *Journal) callAt(seq uint64) int {
	i := sort.Search(j.calls.n, func(i int) bool { return j.calls.at(i).seq > seq })
	for i--; i >= 0 && j.calls.at(i).seq == 0; i-- {
	}
	return i
}

// stateAt is context ci's bindings entry as of call index k (-1: none
// journaled: the context did not exist yet, or made no call).
func (j *Journal) stateAt(ci int16, k int) int32 {
	i := sort.Search(len(j.states), func(i int) bool { return int(j.states[i].call) > k })
	for i--; i >= 0; i-- {
		if j.states[i].ctx == ci {
			return int32(i)
		}
	}
	return -1
}

// packetCall is the API call that encoded the packet at word w of DMA
// buffer id (-1: not known: a paging buffer, or a buffer of a context
// the journal does not follow). A present's buffer is its Present's.
func (j *Journal) packetCall(id uint64, w int) int {
	di, ok := j.dmaByID[id]
	if !ok {
		return -1
	}
	d := &j.dmas[di]
	if d.info.Present {
		return j.callAt(d.seq)
	}
	if d.dev < 0 {
		return -1
	}
	// After each call of the device, (submissions, words) of its immediate
	// context only grow: the first call past (d.sub, w) wrote the packet.
	idx := j.deviceCalls(d.dev)
	k := sort.Search(len(idx), func(i int) bool {
		c := j.calls.at(int(idx[i]))
		return c.sub > d.sub || c.sub == d.sub && int(c.words) > w
	})
	if k == len(idx) {
		return -1
	}
	return int(idx[k])
}

// deviceCalls are the indices of device di's calls, in order.
func (j *Journal) deviceCalls(di int16) []int32 {
	if j.byDev == nil || j.byDevLen != j.calls.n {
		j.byDev = map[int16][]int32{}
		for i := range j.calls.n {
			if d := j.calls.at(i).dev; d >= 0 {
				j.byDev[d] = append(j.byDev[d], int32(i))
			}
		}
		j.byDevLen = j.calls.n
	}
	return j.byDev[di]
}

// Resolve names an event: a seq ("104"), the K-th call of a method
// ("Draw#2", 1 the first; "Draw" alone the last), or the last call made on
// a scenario line ("line:24"). It returns the event's seq.
func (j *Journal) Resolve(at string) (uint64, error) {
	at = strings.TrimSpace(at)
	if n, err := strconv.ParseUint(at, 10, 64); err == nil {
		if j.callAt(n) < 0 {
			return 0, fmt.Errorf("inspect: event %d is before the first API call", n)
		}
		return n, nil
	}
	if l, ok := strings.CutPrefix(at, "line:"); ok {
		line, err := strconv.Atoi(l)
		if err != nil {
			return 0, fmt.Errorf("inspect: %q: line:N takes a line number", at)
		}
		for i := j.calls.n - 1; i >= 0; i-- {
			if int(j.calls.at(i).line) == line && j.calls.at(i).seq != 0 {
				return j.calls.at(i).seq, nil
			}
		}
		return 0, fmt.Errorf("inspect: no API call was made on line %d", line)
	}
	name, nth, hasN := strings.Cut(at, "#")
	k := -1
	if hasN {
		n, err := strconv.Atoi(nth)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("inspect: %q: NAME#K counts calls from 1", at)
		}
		k = n
	}
	var seqs []uint64
	for i := range j.calls.n {
		if j.methods[j.calls.at(i).method] == name && j.calls.at(i).seq != 0 {
			seqs = append(seqs, j.calls.at(i).seq)
		}
	}
	switch {
	case len(seqs) == 0:
		return 0, fmt.Errorf("inspect: %q: no call of %s was made (an event is a seq, NAME#K or line:N)", at, name)
	case k < 0:
		return seqs[len(seqs)-1], nil
	case k > len(seqs):
		return 0, fmt.Errorf("inspect: %q: %s was called %d times", at, name, len(seqs))
	}
	return seqs[k-1], nil
}

// packetText is the packet at word w of DMA buffer di as text, the buffer
// decoded once (the pixel history asks for many packets of one buffer).
func (j *Journal) packetText(di, w int) (string, bool) {
	if j.decoded == nil {
		j.decoded = map[int]map[int]isa.Packet{}
	}
	pk, ok := j.decoded[di]
	if !ok {
		pk = map[int]isa.Packet{}
		if words := j.dmas[di].info.Words; words != nil {
			if list, err := isa.Decode(words); err == nil {
				for _, p := range list {
					pk[p.At] = p
				}
			}
		}
		if len(j.decoded) > 64 {
			clear(j.decoded)
		}
		j.decoded[di] = pk
	}
	p, ok := pk[w]
	if !ok {
		return "", false
	}
	return p.String(), true
}
