package scenario

import (
	"fmt"
	"strings"

	"d3dsim/core/d3d11"
	"d3dsim/core/ddi"
	"d3dsim/core/dxgk"
	"d3dsim/core/hresult"
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
		r.kernel.Idle()
		r.readbackStep, r.readbackDev = r.steps, dev
	}
	allocs := dev.Allocations(res)
	if len(allocs) == 0 {
		r.failf(e.Pos, "%s has no memory", e.Name)
		return nil, 0, 0, false
	}
	mem, err := r.kernel.Lock(dev.KernelDevice(), dxgk.HAllocation(allocs[len(allocs)-1]))
	if err != nil {
		r.failf(e.Pos, "cannot read %s: %v", e.Name, err)
		return nil, 0, 0, false
	}
	data = append([]byte(nil), mem...)
	r.other += len(data) >> 10 // reading back costs a step per KiB (step budget)
	r.kernel.Unlock(dev.KernelDevice(), dxgk.HAllocation(allocs[len(allocs)-1]))
	w, h = int(res.Desc.Width), int(res.Desc.Height)
	if res.Desc.Format == ddi.FormatB8G8R8A8Unorm {
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
		r.messages = append(r.messages, fmt.Sprintf("%d: %s", e.Line, e.Msg))
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
		r.failf(d.e.Pos, "expected calls %s in order; %s not found after %s", strings.Join(d.e.Names, " "), d.e.Names[i], strings.Join(d.e.Names[:i], " "))
	}
}

// live counts what is still alive: API objects, driver objects, allocations
// and kernel objects.
func (r *Run) live() (int, string) {
	api, drv, allocs := 0, 0, 0
	for _, d := range r.rt.Devices() {
		api += d.LiveObjects()
		if d.Alive() {
			if l, ok := d.UMD().(interface{ Live() int }); ok {
				drv += l.Live()
			}
		}
		allocs += d.LiveAllocations()
	}
	kd, kc, ka := r.kernel.Live()
	detail := fmt.Sprintf("API objects %d, driver objects %d, allocations %d, kernel devices %d, contexts %d, allocations %d", api, drv, allocs, kd, kc, ka)
	return api + drv + allocs + kd + kc + ka, detail
}

func (r *Run) inject(s *Inject) {
	args := map[string]Arg{}
	for _, a := range s.Args {
		args[a.Key] = a
	}
	r.rec.Emit(trace.Event{Layer: trace.App, From: trace.App, Kind: trace.Message, Name: "inject", Msg: "inject " + s.Fault})
	switch s.Fault {
	case "gpu.hang":
		r.gpu.InjectHang()
	case "gpu.fault":
		r.gpu.InjectFault()
	case "vram.full":
		r.kernel.InjectVRAMFull()
	case "umd.foreign":
		dev, _ := r.vars[args["on"].Value.Ident].(*d3d11.Device)
		res, _ := r.vars[args["target"].Value.Ident].(*d3d11.Resource)
		if dev == nil || res == nil {
			r.failf(s.Pos, "inject umd.foreign needs target=RESOURCE on=DEVICE")
			return
		}
		allocs := res.Device().Allocations(res)
		inj, ok := dev.UMD().(interface{ InjectForeignAllocation(ddi.HALLOCATION) })
		if len(allocs) == 0 || !ok {
			r.failf(s.Pos, "cannot inject umd.foreign here")
			return
		}
		inj.InjectForeignAllocation(allocs[len(allocs)-1])
	case "E_OUTOFMEMORY":
		obj, method, _ := strings.Cut(args["at"].Value.Ident, ".")
		var table any
		switch o := r.vars[obj].(type) {
		case *d3d11.DeviceContext:
			table = o.UMD() // a deferred context has its own DDI table
		case *d3d11.Device:
			table = o.UMD()
		}
		count := 1
		if c, ok := args["count"]; ok && c.Value.Num >= 1 {
			count = int(c.Value.Num)
		}
		inj, ok := table.(interface{ InjectFailure(string, int) })
		if !ok {
			r.failf(s.Pos, "cannot inject E_OUTOFMEMORY at %s", obj)
			return
		}
		inj.InjectFailure(ddiFor(method), count)
	}
}

// ddiFor maps an API method to the DDI that implements it.
func ddiFor(method string) string {
	switch method {
	case "CreateBuffer", "CreateTexture2D":
		return "CreateResource"
	case "Map":
		return "ResourceMap"
	case "CreateSamplerState":
		return "CreateSampler"
	}
	return method
}

func parseUint(s string) uint64 {
	n, _ := parseSize(s)
	return n
}
