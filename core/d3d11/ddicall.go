package d3d11

import (
	"errors"
	"strings"
	"sync"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// The runtime↔UMD boundary. Every DDI the runtime calls goes through one
// context's ddiTable: a wrapper around the UMD's table (the way Mesa's trace
// driver wraps a pipe_context) whose calls
//
//   - emit the DDI's Call event before and its Return event, with the
//     HRESULT's name, after (events the driver emits inside nest between
//     them),
//   - hold the device's DDI lock from one to the other for a driver without
//     D3D11DDICAPS_FREETHREADED, but for the CalcPrivate* and
//     CalcDeferredContextHandleSize DDIs (rules FT-CAP, FT-CALC), and
//   - charge the DDI's cost.
//
// The runtime's logic labels a call with what only it knows -- the name of
// the object concerned, the handle and the arguments worth tracing -- and
// makes it: c.ddi.on(obj, handle).ResourceUnmap(h, r). ddiCall implements
// ddi.Device, so each call has the DDI's own signature.

// ddiTable is one context's DDI table as the runtime calls it.
type ddiTable struct {
	d   *Device
	ctx string     // the context's name on the events: IC, DC1, ...
	umd ddi.Device // the driver's table

	// The immediate context's table is the device function table, whose
	// entries the driver may hot-swap (rule FT-TABLE): Draw reads pfnDraw
	// from it, again only when it was written since.
	funcs    *ddi.FuncTable
	drawFn   func(ddi.HDEVICE, uint32, uint32)
	drawArgs trace.Args
	drawAt   uint64
	drawPart *trace.FixedPart // Draw's DDI span, of drawArgs (trace.FixedPart)

	// reported holds what the driver reported through pfnSetErrorCb with
	// this context's core-layer handle, per simulated thread: the only way
	// a create DDI fails ("Using context-local DDI handles").
	reported *reportedErrors
}

// reportedErrors is a context's pfnSetErrorCb reports not yet taken, by
// thread (free-threaded creates run on several at once).
type reportedErrors struct {
	mu    sync.Mutex
	hr    map[string]hresult.HRESULT
	cause map[string]error // what a runtime callback answered the driver, when that made it fail
}

func newReported() *reportedErrors {
	return &reportedErrors{hr: map[string]hresult.HRESULT{}, cause: map[string]error{}}
}

// noteCause keeps the error a callback (pfnAllocateCb) gave the driver on
// thread: when the driver then reports that HRESULT, the API error says why
// (the limit that was reached, the kernel's status).
func (t *ddiTable) noteCause(thread string, err error) {
	if t.reported == nil || err == nil {
		return
	}
	t.reported.mu.Lock()
	t.reported.cause[thread] = err
	t.reported.mu.Unlock()
}

// noteError keeps a pfnSetErrorCb report for the create DDI in progress on
// thread (the first failure of the call counts).
func (t *ddiTable) noteError(thread string, hr hresult.HRESULT) {
	if t.reported == nil || !hr.Failed() {
		return
	}
	t.reported.mu.Lock()
	if _, ok := t.reported.hr[thread]; !ok {
		t.reported.hr[thread] = hr
	}
	t.reported.mu.Unlock()
}

func (w ddiCall) thread() string {
	if s := w.d.rt.cfg.Sim; s != nil {
		return s.Thread()
	}
	return ""
}

// watchErrors forgets earlier reports of this thread before a create DDI.
func (w ddiCall) watchErrors() {
	if w.reported == nil {
		return
	}
	w.reported.mu.Lock()
	delete(w.reported.hr, w.thread())
	delete(w.reported.cause, w.thread())
	w.reported.mu.Unlock()
}

// reportedError is the error the driver reported through pfnSetErrorCb
// during the create DDI name, or nil.
func (w ddiCall) reportedError(name string) error {
	if w.reported == nil {
		return nil
	}
	th := w.thread()
	w.reported.mu.Lock()
	hr, ok := w.reported.hr[th]
	cause := w.reported.cause[th]
	delete(w.reported.hr, th)
	delete(w.reported.cause, th)
	w.reported.mu.Unlock()
	if !ok {
		return nil
	}
	if e, isErr := cause.(*hresult.Error); isErr && e.Code == hr {
		return hresult.Errorf(hr, "%s (reported by the driver through pfnSetErrorCb in %s)", e.Msg, name)
	}
	return hresult.Errorf(hr, "the driver reported %s through pfnSetErrorCb in %s", hr.Name(), name)
}

// on labels the next DDI call with the object it concerns and a handle
// (either may be empty).
func (t *ddiTable) on(obj, handle string) ddiCall {
	return ddiCall{ddiTable: t, obj: obj, handle: handle}
}

// with is on with the arguments worth tracing.
func (t *ddiTable) with(obj, handle string, args trace.Args) ddiCall {
	return ddiCall{ddiTable: t, obj: obj, handle: handle, args: args}
}

// ddiCall is one labelled DDI call.
type ddiCall struct {
	*ddiTable
	obj, handle string
	args        trace.Args
}

// ddiCall has each DDI's signature but for the create DDIs, which return
// the error the driver reported through pfnSetErrorCb during the call (the
// DDI itself returns none).

// enter emits the Call event and returns what emits the Return.
func (w ddiCall) enter(name string) span {
	var s span
	w.d.ddiEnterTo(&s, w.ctx, name, w.obj, w.handle, w.args)
	return s
}

// span is an API, DDI or callback call that is open: end emits its Return
// event (and, for a DDI of a driver that is not free-threaded, releases the
// DDI lock). A value, not a closure: nothing is allocated per call.
type span struct {
	rec    *trace.Recorder
	ev     spanEvent      // the Call event's fields; its Return repeats them
	kernel bool           // a callback: the HR is the kernel error's (kernelErr)
	void   bool           // a DDI that returns nothing: its Return carries no HR (returnsHRESULT)
	unlock *Device        // non-nil: release this device's DDI lock at the end
	leave  *DeviceContext // non-nil: an API call on this context (enterAPI)
}

// spanEvent is what a span keeps of its Call event: the fields its Return
// repeats (the recorder stamps the rest; end sets HR and Msg), emitted with
// Recorder.EmitPart. Half a trace.Event's size: a span is returned and
// passed by value two or three times a call, and each copy is of it (issue
// 32's draw rate).
type spanEvent = trace.Part

// keep is what a span keeps of the Call event e.
func keep(e *trace.Event) spanEvent {
	return spanEvent{Name: e.Name, Ctx: e.Ctx, Obj: e.Obj, Handle: e.Handle, Msg: e.Msg, Args: e.Args, Fence: e.Fence, From: e.From, Layer: e.Layer}
}

// end emits the Return event with err's HRESULT.
func (s span) end(err error) { s.finish(err) }

// finish is end of the span at s, which it changes: no copy of it (Device.apiTo).
func (s *span) finish(err error) {
	if s.void {
		// A void DDI returns nothing: the driver reported any error through
		// pfnSetErrorCb during the call, and the message says which.
		s.ev.Msg = errMsg(err)
		s.rec.EmitPart(&s.ev, trace.Return, "")
		if s.unlock != nil {
			s.unlock.unserialise()
		}
		return
	}
	hr := "S_OK" // (hresult.S_OK.Name() without the call: nearly every span)
	if err != nil && s.kernel {
		hr = hresult.Of(kernelErr(err)).Name()
	} else if err != nil {
		hr = hresult.Of(err).Name()
	}
	s.ev.Msg = errMsg(err)
	if err != nil && s.ev.From == trace.App && s.ev.Layer == trace.Runtime && VoidMethod(s.ev.Name) && errors.Is(err, hresult.E_INVALIDARG) {
		// A void method returns no HRESULT: the call was dropped (VoidMethod).
		hr, s.ev.Msg = "", "dropped: "+err.Error()
	}
	s.rec.EmitPart(&s.ev, trace.Return, hr)
	if s.unlock != nil {
		s.unlock.unserialise()
	}
	if s.leave != nil {
		s.leave.leaveAPI()
	}
}

// returnsHRESULT: the DDIs that return an HRESULT. Every other DDI of the
// D3D10/11 DDI is VOID (or returns a size): it reports an error through
// pfnSetErrorCb ("Using context-local DDI handles"; "PFND3D10DDI_RESOURCEMAP",
// "PFND3D10DDI_QUERYGETDATA"), and its Return event carries no HR. Escape,
// Signal and Wait are the simulated driver's own entries.
func returnsHRESULT(name string) bool {
	// (a switch, not a map: WebAssembly hashes strings in software, and
	// every DDI call asks)
	switch name {
	case "CreateDevice", "PresentDXGI", "SetDisplayModeDXGI", "RecycleCreateCommandList",
		"RecycleCreateDeferredContext", "Escape", "Signal", "Wait":
		return true
	}
	return false
}

// ddiEnter emits a DDI's Call event and returns what emits its Return. For a
// driver that is not free-threaded, it holds the device's DDI lock from one
// to the other.
func (d *Device) ddiEnter(ctx, name, obj, handle string, args trace.Args) span {
	var s span
	d.ddiEnterTo(&s, ctx, name, obj, handle, args)
	return s
}

// ddiEnterTo is ddiEnter into s, which is zero (Device.apiTo).
func (d *Device) ddiEnterTo(s *span, ctx, name, obj, handle string, args trace.Args) {
	void, calc := true, false // (Draw's, without the look-ups: every Draw)
	if name != "Draw" {
		void = !returnsHRESULT(name)
		calc = strings.HasPrefix(name, "CalcPrivate") || name == "CalcDeferredContextHandleSize"
	}
	c := &d.rt.cfg // (a pointer: the Config is 15 words to copy)
	s.rec = c.Rec
	s.ev.From, s.ev.Layer, s.ev.Name, s.ev.Obj, s.ev.Handle, s.ev.Ctx, s.ev.Args = trace.Runtime, trace.UMD, name, obj, handle, ctx, args
	s.void = void
	// (bug=FT-CAP: the runtime forgets to serialise)
	if !c.FreeThreaded && !c.Bugs.Has(rules.FTCap) && !calc {
		d.serialise()
		s.unlock = d
	}
	c.Sim.Charge(c.Costs.DDICall)
	c.Rec.EmitPart(&s.ev, trace.Call, "")
	if calc && d.rt.preempt != nil && d.ddiHeld.Load() == 0 && d.imm != nil && !d.dead.Load() {
		// The CalcPrivate* DDIs run without the DDI lock even for a driver
		// that is not free-threaded (rule FT-CALC): a thread descheduled in
		// one leaves the others free to enter any DDI.
		d.rt.preempt()
	}
}

// serialise takes the runtime's DDI lock for a driver that is not
// free-threaded (rule FT-CAP); unserialise releases it. Objects whose last
// reference drops while it is held are destroyed after it is released:
// their destroy DDIs need the lock too.
func (d *Device) serialise() {
	d.ddiLock.Lock()
	d.ddiHeld.Add(1)
}

func (d *Device) unserialise() {
	d.ddiHeld.Add(-1)
	d.ddiLock.Unlock()
	d.drainAfterDDI()
}

// drainAfterDDI destroys the objects kill put off, once no DDI holds the
// lock.
func (d *Device) drainAfterDDI() {
	if d.ddiHeld.Load() > 0 {
		return
	}
	d.mu.Lock()
	q := d.afterDDI
	d.afterDDI = nil
	d.mu.Unlock()
	for _, o := range q {
		o.finish()
	}
}

// draw calls the context's Draw; on the immediate context, the function
// pfnDraw points at, named on the event when it is not the one CreateDevice
// put there. It is the ddiCall on("", "")'s Draw without the call built
// and passed by value (seven words, every Draw).
func (t *ddiTable) draw(h ddi.HDEVICE, count, start uint32) {
	if t.funcs == nil {
		sp := t.on("", "").enter("Draw")
		t.umd.Draw(h, count, start)
		sp.end(nil)
		return
	}
	if n := t.funcs.Writes(); t.drawFn == nil || n != t.drawAt {
		t.drawFn, t.drawArgs, t.drawAt = t.umd.Draw, trace.Args{}, n
		e := t.funcs.Get("pfnDraw")
		if f, ok := e.Fn.(func(ddi.HDEVICE, uint32, uint32)); ok {
			t.drawFn = f
		}
		if e.Impl != "" && e.Impl != "Draw" {
			var b trace.ArgBuilder
			t.drawArgs = b.Str(trace.KeyImpl, e.Impl).Args()
		}
		t.drawPart = trace.NewFixedPart(trace.Part{From: trace.Runtime, Layer: trace.UMD, Name: "Draw", Ctx: t.ctx, Args: t.drawArgs})
	}
	// ddiEnterTo and span.finish of Draw's span (void, not a CalcPrivate
	// DDI), with no span built: its part never changes.
	d := t.d
	c := &d.rt.cfg
	lock := !c.FreeThreaded && !c.Bugs.Has(rules.FTCap) // (bug=FT-CAP: the runtime forgets to serialise)
	if lock {
		d.serialise()
	}
	c.Sim.Charge(c.Costs.DDICall)
	c.Rec.EmitFixed(t.drawPart, trace.Call, "")
	t.drawFn(h, count, start)
	c.Rec.EmitFixed(t.drawPart, trace.Return, "")
	if lock {
		d.unserialise()
	}
}

var viewDDINames = map[ddi.ViewKind]string{ddi.ViewRTV: "RenderTargetView", ddi.ViewSRV: "ShaderResourceView", ddi.ViewDSV: "DepthStencilView",
	ddi.ViewUAV: "UnorderedAccessView"}

// CalcPrivateViewSize is traced under the view kind's own name
// (CalcPrivateRenderTargetViewSize, ...).
func (w ddiCall) CalcPrivateViewSize(a *ddi.CreateViewArgs) int {
	sp := w.enter("CalcPrivate" + viewDDINames[a.Kind] + "Size")
	n := w.umd.CalcPrivateViewSize(a)
	sp.end(nil)
	return n
}

// CalcPrivateDeferredContextSize, CalcPrivateCommandListSize,
// CalcDeferredContextHandleSize and the second
// CheckDeferredContextHandleSizes are traced once they returned, with the
// size they answered.
func (w ddiCall) CalcPrivateDeferredContextSize(h ddi.HDEVICE) int {
	n := w.umd.CalcPrivateDeferredContextSize(h)
	w.args = trace.IntArg(trace.KeySize, int64(n))
	w.enter("CalcPrivateDeferredContextSize").end(nil)
	return n
}

func (w ddiCall) CalcPrivateCommandListSize(h ddi.HDEVICE, args *ddi.CreateCommandListArgs) int {
	n := w.umd.CalcPrivateCommandListSize(h, args)
	w.args = trace.IntArg(trace.KeySize, int64(n))
	w.enter("CalcPrivateCommandListSize").end(nil)
	return n
}

func (w ddiCall) CalcDeferredContextHandleSize(h ddi.HDEVICE, t ddi.HandleType, obj uint32) int {
	n := w.umd.CalcDeferredContextHandleSize(h, t, obj)
	var b trace.ArgBuilder
	w.args = b.Int(trace.KeyType, int64(t)).Int(trace.KeySize, int64(n)).Args()
	w.enter("CalcDeferredContextHandleSize").end(nil)
	return n
}

// CheckDeferredContextHandleSizes: the count poll (sizes nil) and the call
// that fills the array ("Supporting command lists", rule CLS-SIZES).
func (w ddiCall) CheckDeferredContextHandleSizes(h ddi.HDEVICE, sizes []ddi.HandleSize) int {
	if sizes == nil {
		w.args = sizesNULL
		sp := w.enter("CheckDeferredContextHandleSizes")
		n := w.umd.CheckDeferredContextHandleSizes(h, nil)
		sp.end(nil)
		return n
	}
	n := w.umd.CheckDeferredContextHandleSizes(h, sizes)
	var b trace.ArgBuilder
	b.Int(trace.KeyCount, int64(len(sizes))).Pairs(trace.KeySizes, len(sizes))
	for _, s := range sizes {
		b.Pair(uint64(s.Type), uint64(s.Size))
	}
	w.args = b.Args()
	w.enter("CheckDeferredContextHandleSizes").end(nil)
	return n
}

// Escape is the driver's private entry (ddi.Escaper), outside the table.
func (w ddiCall) Escape(h ddi.HDEVICE, code uint32) (uint64, error) {
	sp := w.enter("Escape")
	r, err := w.umd.(ddi.Escaper).Escape(h, code)
	sp.end(err)
	return r, err
}

// CreateDevice is the adapter's entry (OpenAdapter10_2's pfnCreateDevice),
// traced like the table's.
func (w ddiCall) CreateDevice(a ddi.Adapter, h ddi.HDEVICE, args *ddi.CreateDeviceArgs) (ddi.Device, error) {
	sp := w.enter("CreateDevice")
	umd, err := a.CreateDevice(h, args)
	sp.end(err)
	return umd, err
}

// sizesNULL is the payload of the count poll of
// CheckDeferredContextHandleSizes.
var sizesNULL = func() trace.Args {
	var b trace.ArgBuilder
	return b.Str(trace.KeySizes, "NULL").Args()
}()

// strArg is the payload key=v.
func strArg(k trace.Key, v string) trace.Args {
	var b trace.ArgBuilder
	return b.Str(k, v).Args()
}
