package scenario

import (
	"errors"
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/hresult"
	"d3dsim/core/machine"
	"d3dsim/core/trace"
	"d3dsim/core/verify"
)

func (r *Run) expect(t *thread, e *Expect) {
	switch e.Kind {
	case ExpectHR:
		want, _ := hresult.Parse(e.Name)
		if t.lastHR != want {
			r.failf(e.Pos, "expected hr == %s, the previous call (line %d) returned %s", e.Name, t.lastPos.Line, t.lastHR.Name())
		}
	case ExpectPixel:
		data, w, h, ok := r.readback(e)
		if !ok {
			return
		}
		if e.X < 0 || e.Y < 0 || e.X >= w || e.Y >= h {
			r.failf(e.Pos, "pixel (%d, %d) is outside %s (%dx%d)", e.X, e.Y, e.Name, w, h)
			return
		}
		i := (e.Y*w + e.X) * 4
		got := [4]byte{data[i], data[i+1], data[i+2], data[i+3]}
		if got != e.Color {
			r.failf(e.Pos, "pixel (%d, %d) of %s is %s, expected %s", e.X, e.Y, e.Name, colorString(got), colorString(e.Color))
		}
	case ExpectHash:
		data, _, _, ok := r.readback(e)
		if !ok {
			return
		}
		got := HashBytes(data)
		if !strings.HasPrefix(got, strings.ToLower(e.Hex)) {
			r.failf(e.Pos, "hash of %s is %s, expected %s", e.Name, got, e.Hex)
		}
	case ExpectCalls:
		r.deferCalls(e, t.from, t.to)
	case ExpectViolations:
		r.check()
		if n := len(r.verifier.Violations()); n != e.N {
			var rules []string
			for _, v := range r.verifier.Violations() {
				rules = append(rules, v.Rule)
			}
			r.failf(e.Pos, "expected %d violations, found %d %v", e.N, n, rules)
		}
	case ExpectViolation:
		r.check()
		r.expected[e.Name] = true
		found := false
		for _, v := range r.verifier.Violations() {
			found = found || v.Rule == e.Name
		}
		if !found {
			r.failf(e.Pos, "expected a violation of %s, the verifier found none", e.Name)
		}
	case ExpectLive:
		if n, detail := r.live(); n != e.N {
			r.failf(e.Pos, "expected %d live objects, found %d (%s)", e.N, n, detail)
		}
	}
}

func colorString(c [4]byte) string { return fmt.Sprintf("#%02x%02x%02x%02x", c[0], c[1], c[2], c[3]) }

// readback waits until the GPU has finished all work on the resource's
// device and returns its contents as the GPU left them (RGBA for textures).
func (r *Run) readback(e *Expect) (data []byte, w, h int, ok bool) {
	v := r.vars[e.Name]
	if sc, isSC := v.(*d3d11.SwapChain); isSC {
		v = sc.Buffers[0]
	}
	res, isRes := v.(*d3d11.Resource)
	if !isRes || res == nil {
		r.failf(e.Pos, "%s is not a resource here", e.Name)
		return nil, 0, 0, false
	}
	if !res.Alive() {
		r.failf(e.Pos, "%s was released (rule LIFE-DANGLING)", e.Name)
		return nil, 0, 0, false
	}
	dev := res.Device()
	// Flush and wait once per stretch of API calls: consecutive expectations
	// read the same finished GPU state.
	if r.readbackStep != r.steps || r.readbackDev != dev {
		if dev.Alive() && dev.Removed() == nil {
			dev.ImmediateContext().Flush()
		}
		r.mach.Idle()
		r.readbackStep, r.readbackDev = r.steps, dev
	}
	data, err := r.mach.ReadBack(res)
	if errors.Is(err, machine.ErrNoMemory) {
		r.failf(e.Pos, "%s has no memory", e.Name)
		return nil, 0, 0, false
	}
	if err != nil {
		r.failf(e.Pos, "cannot read %s: %v", e.Name, err)
		return nil, 0, 0, false
	}
	r.other += len(data) >> 10 // reading back costs a step per KiB (step budget)
	w, h = int(res.Desc.Width), int(res.Desc.Height)
	if res.Desc.Format == d3d11.FormatB8G8R8A8Unorm {
		for i := 0; i+3 < len(data); i += 4 {
			data[i], data[i+2] = data[i+2], data[i]
		}
	}
	if n := w * h * 4; res.Kind == d3d11.KindTexture2D && len(data) > n {
		data = data[:n]
	}
	return data, w, h, true
}

// deferCalls starts an `expect calls`: it takes the statement's own events
// (seq from+1 .. to) and those already caused, then follows the caused ones
// as they are written (onEvent), so the trace ring may drop them before the
// check at the end of the run.
func (r *Run) deferCalls(e *Expect, from, to uint64) {
	d := &deferredCalls{e: e, dmas: map[uint64]bool{}}
	r.rec.ViewSince(from, func(held []trace.Event) {
		if to > from && (len(held) == 0 || held[0].Seq > from+1) {
			d.lost = true // one statement made more events than the ring holds
		}
		for i := range held {
			switch ev := &held[i]; {
			case ev.Seq <= from:
			case ev.Seq <= to:
				d.seq = append(d.seq, *ev)
				if ev.DMA != 0 {
					d.dmas[ev.DMA] = true
				}
			default:
				d.follow(ev)
			}
		}
		r.deferred = append(r.deferred, d)
	})
}

// follow keeps a later event when it belongs to a DMA buffer the statement
// submitted. Paging buffers built for those DMA buffers say so with for=N.
func (d *deferredCalls) follow(e *trace.Event) {
	if e.DMA == 0 {
		return
	}
	if !d.dmas[e.DMA] {
		if f := verify.Arg(e.Args, "for"); f == "" || !d.dmas[parseUint(f)] {
			return
		}
		d.dmas[e.DMA] = true
	}
	d.seq = append(d.seq, *e)
}

// onEvent sees every event as it is written, with the recorder's lock held
// (trace.Recorder.Subscribe): it feeds the pending `expect calls` and
// collects the debug-layer messages, so neither depends on what the ring
// still holds at the end.
func (r *Run) onEvent(e *trace.Event) {
	for _, d := range r.deferred {
		d.follow(e)
	}
	if e.Kind == trace.Message && e.Layer == trace.Runtime && strings.HasPrefix(e.Msg, "D3D11") {
		if r.messages.full() { // counted only: not even formatted
			r.messages.count(e.Line)
		} else {
			r.messages.add(e.Line, fmt.Sprintf("%d: %s", e.Line, e.Msg))
		}
	}
}

// checkCalls checks that the names occur in order among the events the
// statement produced: its own events, plus the later events of the DMA
// buffers it submitted (the kernel, GPU, ISR and DPC work it caused).
func (r *Run) checkCalls(d *deferredCalls) {
	if d.lost {
		r.failf(d.e.Pos, "expect calls: the trace ring dropped events of the statement before they were read (it made more than a quarter of option maxevents=%d)", r.opt.maxevents)
		return
	}
	i := 0
	for _, e := range d.seq {
		if i < len(d.e.Names) && e.Kind != trace.Return && e.Name == d.e.Names[i] {
			i++
		}
	}
	if i < len(d.e.Names) {
		if i > 0 {
			r.failf(d.e.Pos, "expected calls %s in order; %s not found after %s", strings.Join(d.e.Names, " "), d.e.Names[i], strings.Join(d.e.Names[:i], " "))
			return
		}
		r.failf(d.e.Pos, "expected calls %s in order; %s not found: %s", strings.Join(d.e.Names, " "), d.e.Names[i], produced(d.seq))
	}
}

// produced says which calls the events of a statement name, in order and
// each once, at most 12 ("the previous statement produced no events" when
// none).
func produced(seq []trace.Event) string {
	var names []string
	seen := map[string]bool{}
	for _, e := range seq {
		if e.Kind == trace.Return || seen[e.Name] {
			continue
		}
		seen[e.Name] = true
		names = append(names, e.Name)
	}
	switch {
	case len(names) == 0:
		return "the previous statement produced no events"
	case len(names) > 12:
		return fmt.Sprintf("the previous statement produced %s and %d more", strings.Join(names[:12], " "), len(names)-12)
	}
	return "the previous statement produced " + strings.Join(names, " ")
}

// live counts what is still alive: API objects, driver objects, allocations
// and kernel objects.
func (r *Run) live() (int, string) {
	l := r.mach.Live()
	return l.Total(), l.String()
}

func (r *Run) inject(s *Inject) {
	args := map[string]Arg{}
	for _, a := range s.Args {
		args[a.Key] = a
	}
	r.rec.Emit(trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Message, Name: "inject", Msg: "inject " + string(s.Fault)})
	switch s.Fault {
	case machine.FaultGPUHang:
		r.mach.InjectGPUHang()
	case machine.FaultGPUFault:
		r.mach.InjectGPUFault()
	case machine.FaultVRAMFull:
		r.mach.InjectVRAMFull()
	case machine.FaultForeignAllocation:
		dev, _ := r.vars[args["on"].Value.Ident].(*d3d11.Device)
		res, _ := r.vars[args["target"].Value.Ident].(*d3d11.Resource)
		if dev == nil || res == nil {
			r.failf(s.Pos, "inject %s needs target=RESOURCE on=DEVICE", machine.FaultForeignAllocation)
			r.badInput = true
			return
		}
		if r.mach.InjectForeignAllocation(dev, res) != nil {
			r.failf(s.Pos, "cannot inject %s here", machine.FaultForeignAllocation)
		}
	case machine.FaultOutOfMemory:
		obj, method, _ := strings.Cut(args["at"].Value.Ident, ".")
		count := 1
		if c, ok := args["count"]; ok && c.Value.Num >= 1 {
			count = int(c.Value.Num)
		}
		if r.mach.InjectOutOfMemory(r.vars[obj], method, count) != nil {
			r.failf(s.Pos, "cannot inject %s at %s", machine.FaultOutOfMemory, obj)
		}
	}
}

func parseUint(s string) uint64 {
	n, _ := parseSize(s)
	return n
}
