package scenario

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
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
		if holds, applies := voidHolds(e.Name, t.lastDropped); t.lastVoid && applies {
			if !holds {
				got := "S_OK (carried out)"
				if t.lastDropped {
					got = Dropped + " (" + errMsgOf(t.lastErr) + ")"
				}
				r.failf(e.Pos, "expected hr == %s, the previous call (line %d), a void method, was %s", e.Name, t.lastPos.Line, got)
			}
			break
		}
		if e.Name == Dropped {
			r.failf(e.Pos, "expected hr == %s, but the previous call (line %d) is not a void method the runtime dropped: it returned %s", Dropped, t.lastPos.Line, t.lastHR.Name())
			break
		}
		want, _ := hresult.Parse(e.Name)
		if t.lastHR != want {
			r.failf(e.Pos, "expected hr == %s, the previous call (line %d) returned %s", e.Name, t.lastPos.Line, t.lastHR.Name())
		}
	case ExpectPixel:
		res, data, ok := r.readbackRaw(e)
		if !ok {
			return
		}
		w, h := int(res.Desc.Width), int(res.Desc.Height)
		if e.X < 0 || e.Y < 0 || e.X >= w || e.Y >= h {
			r.failf(e.Pos, "pixel (%d, %d) is outside %s (%dx%d)", e.X, e.Y, e.Name, w, h)
			return
		}
		as := res.Desc.Format
		if e.As != "" {
			as = d3d11.Format(d3d11.Enum("Format")[e.As])
			if !d3d11.SameFamily(res.Desc.Format, as) {
				r.failf(e.Pos, "%s is %s: it cannot be read as %s (a typed format of a typeless resource's family)", e.Name, d3d11.FormatName(res.Desc.Format), e.As)
				return
			}
		}
		tx, ok := r.mach.ReadTexel(res, as, data, e.X, e.Y)
		if !ok {
			r.failf(e.Pos, "%s's format %s has no texels to read", e.Name, d3d11.FormatName(as))
			return
		}
		if e.Texel != nil {
			if msg := texelMismatch(e, tx); msg != "" {
				r.failf(e.Pos, "pixel (%d, %d) of %s (%s) %s", e.X, e.Y, e.Name, d3d11.FormatName(as), msg)
			}
			break
		}
		if got := tx.RGBA8; got != e.Color {
			r.failf(e.Pos, "pixel (%d, %d) of %s is %s, expected %s", e.X, e.Y, e.Name, colorString(got), colorString(e.Color))
		}
	case ExpectProbe:
		r.probe(e)
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
		if n := r.verifier.Count(); n != e.N {
			var rules []string
			for _, v := range r.verifier.Violations() {
				if v.Severity == verify.Error { // warnings do not count
					rules = append(rules, v.Rule)
				}
			}
			r.failf(e.Pos, "expected %d violations, found %d %v", e.N, n, rules)
		}
	case ExpectViolation:
		r.check()
		r.expected[e.Name] = true
		found := false
		for _, v := range r.verifier.Violations() { // a warning of the rule counts too (warnings are listed with them)
			found = found || v.Rule == e.Name
		}
		if !found {
			r.failf(e.Pos, "expected a violation of %s, the verifier found none", e.Name)
		}
	case ExpectLive:
		if n, detail := r.live(); n != e.N {
			r.failf(e.Pos, "expected %d live objects, found %d (%s)", e.N, n, detail)
		}
	case ExpectSupport:
		if !r.support.done {
			r.failf(e.Pos, "expect support %s: no CheckFormatSupport has run", e.Name)
			break
		}
		var want d3d11.FormatSupport
		for _, f := range e.Flags {
			want |= d3d11.FormatSupport(d3d11.Enum("FormatSupport")[f])
		}
		got := r.support.s
		if (e.Name == "has" && got&want != want) || (e.Name == "lacks" && got&want != 0) {
			r.failf(e.Pos, "expected support of %s %s %s; CheckFormatSupport answered %s", d3d11.FormatName(r.support.f), e.Name,
				strings.Join(e.Flags, "|"), d3d11.SupportString(got))
		}
	case ExpectGot:
		if !gotEqual(r.got, e.Names) {
			r.failf(e.Pos, "expected the getter to return %s; it returned %s", strings.Join(e.Names, " "), gotString(r.got))
		}
	case ExpectData:
		ok, now, missing := r.compareData(e.Data)
		switch {
		case missing != "":
			r.failf(e.Pos, "expect data %s: %s (poll it: until hr == S_OK max N { ctx.GetData %s })", e.Data, now, missing)
		case !ok:
			r.failf(e.Pos, "expected data %s, %s", e.Data, now)
		}
	}
}

// queryData is what the last GetData of a query answered, for `expect
// data` and `until data`.
type queryData struct {
	line  int             // the GetData statement
	hr    hresult.HRESULT // its HRESULT (S_OK: value is the data)
	value uint64
	data  d3d11.QueryData // the whole of it (expect data q.Field)
	ended int             // > 0: the line of an End of the query after that GetData
}

// String is the comparison as written: q >= 1, t1 < t2.
func (d *DataCmp) String() string {
	if d.Text != "" {
		return d.Text
	}
	if d.Ref != "" {
		return d.Query + " " + d.Op.String() + " " + d.Ref
	}
	return fmt.Sprintf("%s %s %d", d.Query, d.Op, d.Value)
}

// compareData compares the data of d's query (the last GetData's, with
// S_OK) with d's value or with the data of d's other query. now says what
// was seen; missing names a query that has no data yet (no GetData,
// S_FALSE, or ended again since), and now then says why.
func (r *Run) compareData(d *DataCmp) (ok bool, now, missing string) {
	v, now, has := r.dataOf(d.Query, d.Field)
	if !has {
		return false, now, d.Query
	}
	want := d.Value
	if d.Ref != "" {
		w, nowRef, has := r.dataOf(d.Ref, d.RefField)
		if !has {
			return false, nowRef, d.Ref
		}
		want, now = w, now+", "+nowRef
	}
	return d.Op.holds(v, want), now, ""
}

// dataOf is the data of query name, with what was seen in words; has is
// false when it has none yet.
func (r *Run) dataOf(name, field string) (v uint64, now string, has bool) {
	q, _ := r.vars[name].(*d3d11.Query)
	if q == nil {
		return 0, name + " is not set (its creating call failed or has not run yet on this thread's path)", false
	}
	qd, ok := r.qdata[q]
	switch {
	case !ok:
		return 0, name + " has no data yet: no GetData of it has run", false
	case qd.ended > 0:
		return 0, fmt.Sprintf("%s has no data yet: it was ended again on line %d, after its last GetData (line %d)", name, qd.ended, qd.line), false
	case qd.hr != hresult.S_OK:
		return 0, fmt.Sprintf("%s has no data yet: its last GetData (line %d) returned %s", name, qd.line, qd.hr.Name()), false
	}
	if field != "" {
		f, ok := qd.data.Field(field)
		if !ok {
			return 0, fmt.Sprintf("%s is a %s query: its data has no member %s (it has %s)", name, q.Type, field, fieldList(q.Type)), false
		}
		return f, fmt.Sprintf("%s.%s is %d (GetData on line %d)", name, field, f, qd.line), true
	}
	return qd.value, fmt.Sprintf("data of %s is %d (GetData on line %d)", name, qd.value, qd.line), true
}

// fieldList names the members of a kind's data, for messages.
func fieldList(t d3d11.QueryType) string {
	if fs := d3d11.QueryFieldNames(t); len(fs) > 0 {
		return strings.Join(fs, ", ")
	}
	return "one value: compare it without .FIELD"
}

// queryEnded notes an End of q: its data, if any, is from before.
func (r *Run) queryEnded(q *d3d11.Query, line int) {
	if qd, ok := r.qdata[q]; ok {
		qd.ended = line
		r.qdata[q] = qd
	}
}

func colorString(c [4]byte) string { return fmt.Sprintf("#%02x%02x%02x%02x", c[0], c[1], c[2], c[3]) }

// texelMismatch compares a texel with an expect pixel's list: an f32 list
// with a float format's values (exactly, or within the tolerance), a u32
// or i32 list with an integer format's; the channels listed only. It
// returns what differs, or "".
func texelMismatch(e *Expect, tx machine.Texel) string {
	v := e.Texel
	switch {
	case v.Kind == VF32 && tx.Int:
		return "holds integers: compare it with u32[...] or i32[...]"
	case v.Kind != VF32 && !tx.Int:
		return "holds floats: compare it with f32[...]"
	case v.Kind == VU32 && tx.Signed:
		return "holds signed integers: compare it with i32[...]"
	case v.Kind == VI32 && !tx.Signed:
		return "holds unsigned integers: compare it with u32[...]"
	}
	var got, want []string
	bad := false
	for c := range max(len(v.F32), len(v.U32)) {
		switch v.Kind {
		case VF32:
			g := math.Float32frombits(tx.Bits[c])
			d := math.Abs(float64(g) - float64(v.F32[c]))
			if !(d <= e.Within) && !(g != g && v.F32[c] != v.F32[c]) {
				bad = true
			}
			got, want = append(got, fmt.Sprint(g)), append(want, fmt.Sprint(v.F32[c]))
		case VU32:
			bad = bad || tx.Bits[c] != v.U32[c]
			got, want = append(got, fmt.Sprint(tx.Bits[c])), append(want, fmt.Sprint(v.U32[c]))
		default:
			bad = bad || tx.Bits[c] != v.U32[c]
			got, want = append(got, fmt.Sprint(int32(tx.Bits[c]))), append(want, fmt.Sprint(int32(v.U32[c])))
		}
	}
	if !bad {
		return ""
	}
	typ := map[ValueKind]string{VF32: "f32", VU32: "u32", VI32: "i32"}[v.Kind]
	msg := fmt.Sprintf("is %s[%s], expected %s[%s]", typ, strings.Join(got, " "), typ, strings.Join(want, " "))
	if e.Within > 0 {
		msg += fmt.Sprintf(" within %g", e.Within)
	}
	return msg
}

// readbackRaw waits until the GPU has finished all work on the resource's
// device and returns the texture and its bytes as the GPU left them.
func (r *Run) readbackRaw(e *Expect) (res *d3d11.Resource, data []byte, ok bool) {
	v := r.vars[e.Name]
	if sc, isSC := v.(*d3d11.SwapChain); isSC {
		v = sc.Buffers[0]
	}
	res, _ = v.(*d3d11.Resource)
	data, _, _, ok = r.readbackOf(e, res, false)
	return res, data, ok
}

// readback waits until the GPU has finished all work on the resource's
// device and returns its contents as the GPU left them (RGBA for textures).
func (r *Run) readback(e *Expect) (data []byte, w, h int, ok bool) {
	v := r.vars[e.Name]
	if sc, isSC := v.(*d3d11.SwapChain); isSC {
		v = sc.Buffers[0]
	}
	res, _ := v.(*d3d11.Resource)
	return r.readbackOf(e, res, true)
}

func (r *Run) readbackOf(e *Expect, res *d3d11.Resource, rgba bool) (data []byte, w, h int, ok bool) {
	if res == nil {
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
		err := r.mach.Idle()
		r.readbackStep, r.readbackDev = r.steps, dev
		if errors.Is(err, machine.ErrHeld) {
			// Work no event can ever run: a GPU-side wait (imm.Wait)
			// nothing signals holds it.
			r.readbackStep = 0
			r.failf(e.Pos, "the GPU cannot finish the work queued before reading %s: %v", e.Name, err)
			return nil, 0, 0, false
		}
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
	if !rgba {
		return data, w, h, true
	}
	if res.Desc.Format == d3d11.FormatB8G8R8A8Unorm {
		for i := 0; i+3 < len(data); i += 4 {
			data[i], data[i+2] = data[i+2], data[i]
		}
	}
	if n := w * h * texelBytes(res.Desc.Format); res.Kind == d3d11.KindTexture2D && len(data) > n {
		data = data[:n]
	}
	return data, w, h, true
}

// deferCalls starts an `expect calls`: it takes the statement's own events
// (seq from+1 .. to) and those already caused, then follows the caused ones
// as they are written (onEvent), so the trace ring may drop them before the
// check at the end of the run. A statement that submitted no DMA buffer
// causes nothing later: its expectation is checked at once, so a loop of
// `expect calls` keeps nothing pending. At most maxPendingCalls wait; past
// that the oldest is checked early with what it has seen.
func (r *Run) deferCalls(e *Expect, from, to uint64) {
	d := &deferredCalls{e: e, dmas: map[uint64]bool{}}
	var now []*deferredCalls
	r.rec.ViewSince(from, func(held []trace.Event) {
		if to > from && (len(held) == 0 || held[0].Seq > from+1) {
			d.lost = true // one statement made more events than the ring holds
		}
		for i := range held {
			switch ev := &held[i]; {
			case ev.Seq <= from:
			case ev.Seq <= to:
				d.see(ev)
				if ev.DMA != 0 {
					d.dmas[ev.DMA] = true
				}
			default:
				d.follow(ev)
			}
		}
		if len(d.dmas) == 0 || d.found() {
			now = append(now, d)
			return
		}
		if len(r.deferred) >= maxPendingCalls {
			// The ones found in full pass whatever comes later.
			r.deferred = slices.DeleteFunc(r.deferred, (*deferredCalls).found)
		}
		if len(r.deferred) >= maxPendingCalls {
			now = append(now, r.deferred[0])
			r.deferred = slices.Delete(r.deferred, 0, 1)
		}
		r.deferred = append(r.deferred, d)
	})
	for _, d := range now {
		r.checkCalls(d)
	}
}

// maxPendingCalls bounds the `expect calls` waiting for the work their
// statement submitted (each is looked at for every event of a DMA buffer).
const maxPendingCalls = 1000

// follow keeps a later event when it belongs to a DMA buffer the statement
// submitted. Paging buffers built for those DMA buffers say so with for=N.
func (d *deferredCalls) follow(e *trace.Event) {
	if e.DMA == 0 {
		return
	}
	if !d.dmas[e.DMA] {
		if f, ok := e.Args.Uint(trace.KeyFor); !ok || !d.dmas[f] {
			return
		}
		d.dmas[e.DMA] = true
	}
	d.see(e)
}

// see matches one more event of the statement against the names, in order
// (the expectation needs the names in order, so matching as the events come
// is the same as matching them all at the end), and keeps the first few
// names for the message.
func (d *deferredCalls) see(e *trace.Event) {
	if e.Kind == trace.Return {
		return
	}
	if d.i < len(d.e.Names) && e.Name == d.e.Names[d.i] {
		d.i++
	}
	if len(d.seen) <= maxSeen && !slices.Contains(d.seen, e.Name) {
		d.seen = append(d.seen, e.Name)
	}
}

// found reports whether every name was found, in order.
func (d *deferredCalls) found() bool { return d.i == len(d.e.Names) && !d.lost }

// onEvent sees every event as it is written, with the recorder's lock held
// (trace.Recorder.Subscribe): it feeds the pending `expect calls` and
// collects the debug-layer messages, so neither depends on what the ring
// still holds at the end. It looks only at events with a DMA buffer id
// (follow) and messages: the recorder calls it for those alone (run.go).
func (r *Run) onEvent(e *trace.Event) {
	for _, d := range r.deferred {
		d.follow(e)
	}
	if e.Kind == trace.Message && e.Layer == trace.Runtime && (strings.HasPrefix(e.Msg, "D3D11") || strings.HasPrefix(e.Msg, "DXGI ")) {
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
	if i := d.i; i < len(d.e.Names) {
		if i > 0 {
			r.failf(d.e.Pos, "expected calls %s in order; %s not found after %s", strings.Join(d.e.Names, " "), d.e.Names[i], strings.Join(d.e.Names[:i], " "))
			return
		}
		r.failf(d.e.Pos, "expected calls %s in order; %s not found: %s", strings.Join(d.e.Names, " "), d.e.Names[i], produced(d.seen))
	}
}

// maxSeen is how many names of what a statement produced a failed `expect
// calls` lists.
const maxSeen = 12

// produced says which calls the events of a statement name, in order and
// each once ("the previous statement produced no events" when none).
func produced(names []string) string {
	switch {
	case len(names) == 0:
		return "the previous statement produced no events"
	case len(names) > maxSeen:
		return fmt.Sprintf("the previous statement produced %s and more", strings.Join(names[:maxSeen], " "))
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
	r.observeInject(s)
	switch s.Fault {
	case machine.FaultGPUHang:
		r.mach.InjectGPUHang()
	case machine.FaultGPUHangPaging:
		r.mach.InjectGPUHangPaging()
	case machine.FaultGPUFault:
		r.mach.InjectGPUFault()
	case machine.FaultVRAMFull:
		r.mach.InjectVRAMFull()
	case machine.FaultOverrun:
		res, _ := r.vars[args["target"].Value.Ident].(*d3d11.Resource)
		if res == nil {
			r.failf(s.Pos, "inject %s needs target=RESOURCE", machine.FaultOverrun)
			r.badInput = true
			return
		}
		if r.mach.InjectOverrun(res) != nil {
			r.failf(s.Pos, "cannot inject %s here", machine.FaultOverrun)
		}
	case machine.FaultNoMakeResident:
		dev, _ := r.vars[args["on"].Value.Ident].(*d3d11.Device)
		if dev == nil {
			r.failf(s.Pos, "inject %s needs on=DEVICE", machine.FaultNoMakeResident)
			r.badInput = true
			return
		}
		if r.mach.InjectNoMakeResident(dev) != nil {
			r.failf(s.Pos, "cannot inject %s here: the driver runs WDDM 2.0 residency only with option wddm2.budget", machine.FaultNoMakeResident)
		}
	case machine.FaultBudget:
		dev, _ := r.vars[args["on"].Value.Ident].(*d3d11.Device)
		size := args["size"].Value
		if dev == nil || size.Kind != VNumber || size.Num < 1 || size.Num > 1<<40 {
			r.failf(s.Pos, "inject %s needs on=DEVICE size=BYTES (1 to 1TiB)", machine.FaultBudget)
			r.badInput = true
			return
		}
		if r.mach.InjectBudget(dev, uint64(size.Num)) != nil {
			r.failf(s.Pos, "cannot inject %s here: residency budgets are WDDM 2.0's, option wddm2.budget", machine.FaultBudget)
		}
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
	case machine.FaultOutOfMemory, machine.FaultInvalidArg:
		obj, method, _ := strings.Cut(args["at"].Value.Ident, ".")
		count := 1
		if c, ok := args["count"]; ok && c.Value.Num >= 1 {
			count = int(c.Value.Num)
		}
		var err error
		if s.Fault == machine.FaultInvalidArg {
			err = hresult.E_INVALIDARG
		}
		if r.mach.InjectError(r.vars[obj], method, count, err) != nil {
			r.failf(s.Pos, "cannot inject %s at %s", s.Fault, obj)
		}
	}
}

func parseUint(s string) uint64 {
	n, _ := parseSize(s)
	return n
}

func errMsgOf(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// gotEqual compares what a getter returned with expect got's words:
// numbers as numbers, the rest as written.
func gotEqual(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, gerr := strconv.ParseFloat(got[i], 64)
		w, werr := strconv.ParseFloat(want[i], 64)
		if gerr == nil && werr == nil {
			if g != w {
				return false
			}
			continue
		}
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

func gotString(got []string) string {
	if len(got) == 0 {
		return "nothing (no getter has run, or it was dropped)"
	}
	return strings.Join(got, " ")
}
