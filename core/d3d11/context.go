package d3d11

import (
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
	"d3dsim/core/trace"
)

// DeviceContext is an ID3D11DeviceContext: the public handle of one of three
// kinds of context, which differ only where D3D11 makes them differ.
//
//   - immediateContext (immediate.go): the device's own context. Its calls go
//     straight to the UMD; Draw goes through the device function table;
//     unbinding a released object queues it for destruction.
//   - deferredContext (deferred.go): a deferred context of a driver that
//     supports command lists. It opens context-local handles lazily
//     ("Using context-local DDI handles") and builds command lists with the
//     driver ("Supporting command lists").
//   - emulatedContext (emulated.go): a deferred context of a driver without
//     command-list support. The runtime records the calls as commands and
//     replays them on the immediate context.
//
// The binding state and validation shared by all three are here; the
// drawing and state calls the immediate and deferred kinds share are in
// pipeline.go. The kind is chosen once, by the constructor.
type DeviceContext struct {
	contextKind

	dev   *Device
	name  string   // IC, DC1, ...
	ddi   ddiTable // this context's DDI table (a deferred context has its own), traced
	h     ddi.HDEVICE
	refs  int32
	dead  bool
	bytes int64
	// internal counts the runtime's own calls in progress on the context
	// (runtimeCalls): they skip the LIFE-DANGLING check.
	internal int // the runtime and driver memory counted for a deferred context (memory.go)

	mappedHere []*Resource // mapped on this (deferred) context and not yet unmapped
	// discarded are the resources mapped WRITE_DISCARD on this (deferred)
	// context since CreateDeferredContext or FinishCommandList: the only
	// ones it may map WRITE_NO_OVERWRITE (deferredMapRule).
	discarded []*Resource

	droppedCall bool // a void call dropped without an error (TakeDropped)

	ann annotations // BeginEvent's open groups, a deferred context's recorded markers (annotation.go)

	// linked is the last vertex and pixel shader pair checkLinkage found
	// to link: a Draw with the same pair skips dxbc.Link.
	linked [2]*Shader
	// positioned is the last shader checkPosition found writing
	// SV_Position (the same: signatures never change).
	positioned *Shader
	// drawAPI is Draw's API span, the same every Draw: the recorder checks
	// a repeat of it by its id (trace.FixedPart).
	drawAPI *trace.FixedPart
	// imm: the immediate context (newImmediateContext). Its Draw calls
	// driverContext's directly: no interface call, no discarding or
	// afterDDI to ask (both do nothing there).
	imm bool

	// calls follows the application threads' calls into the context's
	// methods in virtual time, for CTX-THREAD (enterAPI).
	calls ctxCalls

	slots    // bindings pin their objects: a released object stays alive while bound
	vbStride [iaSlots]uint32
	vbOffset [iaSlots]uint32
	ibFormat ddi.Format
	ibOffset uint32
	topo     ddi.Topology
	// vps are the viewports RSSetViewports set (none: no viewport, and a
	// draw covers nothing), scissors the scissor rectangles.
	vps      []ddi.Viewport
	scissors []ddi.Rect
	// OMSetBlendState's BlendFactor and SampleMask, OMSetDepthStencilState's
	// StencilRef.
	blendFactor [4]float32
	sampleMask  uint32
	stencilRef  uint32
	predValue   bool // SetPredication's PredicateValue
}

// contextKind is what a kind of context implements: the API calls whose
// behaviour depends on the kind, and the hooks the shared code calls where
// the kinds differ.
type contextKind interface {
	IASetVertexBuffersRange(start uint32, vbs []*Resource, strides, offsets []uint32) error
	IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error
	IASetPrimitiveTopology(t ddi.Topology) error
	VSSetShader(s *Shader) error
	PSSetShader(s *Shader) error
	SetConstantBuffers(stage Stage, start uint32, bufs []*Resource) error
	SetShaderResources(stage Stage, start uint32, views []*View) error
	SetSamplers(stage Stage, start uint32, samplers []*State) error
	OMSetRenderTargets(rtvs []*View, dsv *View) error
	OMSetBlendState(s *State, factor [4]float32, sampleMask uint32) error
	OMSetDepthStencilState(s *State, stencilRef uint32) error
	RSSetState(s *State) error
	RSSetViewports(vps ...ddi.Viewport) error
	RSSetScissorRects(rects ...ddi.Rect) error
	ClearRenderTargetView(v *View, rgba [4]float32) error
	ClearDepthStencilView(v *View, flags ddi.ClearFlag, depth float32, stencil uint8) error
	Draw(count, start uint32) error
	DrawIndexed(count, start uint32, base int32) error
	IASetInputLayout(l *InputLayout) error
	DrawInstanced(count, instances, start, startInstance uint32) error
	DrawIndexedInstanced(count, instances, start uint32, base int32, startInstance uint32) error
	DrawInstancedIndirect(buf *Resource, offset uint32) error
	DrawIndexedInstancedIndirect(buf *Resource, offset uint32) error
	CopyResource(dst, src *Resource) error
	UpdateSubresource(dst *Resource, data []byte) error
	Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) ([]byte, error)
	Begin(q *Query) error
	End(q *Query) error
	GetData(q *Query) (QueryData, hresult.HRESULT, error)
	SetPredication(q *Query, value bool) error
	Flush() error
	ClearState() error
	FinishCommandList(name string, restore bool) (*CommandList, error)
	ExecuteCommandList(l *CommandList, restore bool) error
	// Release destroys a deferred context with its last reference; the
	// immediate context lives with its device.
	Release() uint32
	// Deferred reports whether the context is a deferred context.
	Deferred() bool

	// dropBinding lets go of an object a binding pinned (rebinding,
	// unbinding, clearing).
	dropBinding(p binder)
	// dropPin lets go of a reference pinBindings took.
	dropPin(p binder)
	// local returns the driver handle this context uses for o.
	local(o Object) uint32
	// discarding says the recording in progress was thrown away: calls
	// succeed without reaching the driver.
	discarding() bool
	// afterDDI runs after each drawing or state DDI.
	afterDDI()
	// mapRule checks what the kind forbids to Map; mapped notes a
	// successful Map; unmapDDI ends one.
	mapRule(r *Resource, t ddi.MapType) error
	mapped(r *Resource, t ddi.MapType)
	unmapDDI(r *Resource)
	// queryBegun and queryEnded follow the queries open on the context.
	queryBegun(q *Query)
	queryEnded(q *Query)
	// outOfMemory takes E_OUTOFMEMORY reported through pfnSetErrorCb;
	// recycling says RecycleCommandList is in progress.
	outOfMemory()
	recycling() bool
}

// binder is an object a context binding pins.
type binder interface {
	pin()
	unpin()
	unbind()
}

// Draw is the kind's Draw; on the immediate context driverContext's,
// called directly (every Draw statement: issue 32's draw rate).
func (c *DeviceContext) Draw(count, start uint32) error {
	if c.imm {
		return driverContext{c}.Draw(count, start)
	}
	return c.contextKind.Draw(count, start)
}

func (c *DeviceContext) Name() string    { return c.name }
func (c *DeviceContext) Device() *Device { return c.dev }

// UMD returns the context's DDI table (for fault injection).
func (c *DeviceContext) UMD() ddi.Device { return c.ddi.umd }

func (c *DeviceContext) Alive() bool { return !c.dead }

func (c *DeviceContext) AddRef() uint32 {
	c.refs++
	return uint32(c.refs)
}

func (c *DeviceContext) api(name, obj string) span {
	var s span
	c.apiTo(&s, name, obj)
	return s
}

// apiTo is api into s, which is zero (Device.apiTo).
func (c *DeviceContext) apiTo(s *span, name, obj string) {
	c.dev.apiTo(s, name, obj, c.name)
	if c.dev.debug { // only the debug layer looks (CTX-THREAD's message)
		c.enterAPI(name)
		s.leave = c
	}
}

// ctxCalls is what CTX-THREAD needs: each thread's call in progress on
// the context (the outermost; calls nest inside it) and the latest finished
// calls, in virtual time.
type ctxCalls struct {
	open   []ctxCall            // one per thread inside a method
	recent [recentCalls]ctxCall // finished: a ring, next is where the next goes
	next   int                  // (recent[next-1] is the newest)
	n      int                  // how many of recent are filled
}

// ctxCall is one application call on a context: its thread, method,
// scenario line and virtual-time span.
type ctxCall struct {
	thread, name string
	line         int
	start, end   int64
	depth        int
}

// recentCalls bounds what is kept of the finished calls: a thread that
// lags further behind another than this many calls is not compared.
const recentCalls = 64

// enterAPI notes that the calling thread is inside the context's method
// name. "Introduction to a device in Direct3D 11": any context may be used
// on any thread "as long as the context is only used in one thread at a
// time"; its methods are not free-threaded. Simulated threads each keep
// their own virtual clock, so "at the same time" is an overlap of two
// threads' calls in virtual time, checked when a call ends (leaveAPI).
func (c *DeviceContext) enterAPI(name string) {
	now, th := c.dev.rt.cfg.Sim.Stamp()
	for i := range c.calls.open {
		if o := &c.calls.open[i]; o.thread == th {
			o.depth++
			return
		}
	}
	c.calls.open = append(c.calls.open, ctxCall{thread: th, name: name, line: c.dev.rt.cfg.Rec.Line(), start: now, depth: 1})
}

// leaveAPI ends what enterAPI began. When the thread's outermost call ends,
// it is compared with the other threads' calls: on a device created with
// the DEBUG flag an overlap is reported as the debug layer reports it, a
// D3D11 CORRUPTION message naming both calls. It is the application's
// error, not the stack's, so the verifier does not count it (scenarios
// that exercise the driver's one-thread-per-HCONTEXT rule do this on
// purpose). The calls go on: what a real runtime would do with the memory
// they race on is undefined, and the simulator keeps its own state
// consistent.
func (c *DeviceContext) leaveAPI() {
	now, th := c.dev.rt.cfg.Sim.Stamp()
	k := -1
	for i := range c.calls.open {
		if c.calls.open[i].thread == th {
			k = i
		}
	}
	if k < 0 {
		return
	}
	o := &c.calls.open[k]
	if o.depth--; o.depth > 0 {
		return
	}
	done := *o
	done.end = now
	c.calls.open = slices.Delete(c.calls.open, k, k+1)
	for _, x := range c.calls.recent[:c.calls.n] {
		if x.thread != th && x.start < done.end && done.start < x.end {
			c.reportThreads(done, x)
			break
		}
	}
	c.calls.recent[c.calls.next] = done
	c.calls.next = (c.calls.next + 1) % recentCalls
	c.calls.n = min(c.calls.n+1, recentCalls)
}

// reportThreads emits the debug layer's message for two overlapping calls.
func (c *DeviceContext) reportThreads(a, b ctxCall) {
	c.dev.rt.cfg.Rec.Emit(trace.Event{From: trace.Runtime, Layer: trace.Runtime, Kind: trace.Message, Name: "ContextThreads", Ctx: c.name, Line: a.line,
		Msg: fmt.Sprintf("D3D11 CORRUPTION: ID3D11DeviceContext::%s: two threads were found to be executing methods of the same context (%s) at the same time: thread %s called %s (line %d) at t=%d..%d while thread %s was inside %s (line %d) at t=%d..%d. A context is used by one thread at a time: the application must synchronise its threads",
			a.name, c.name, a.thread, a.name, a.line, a.start, a.end, b.thread, b.name, b.line, b.start, b.end)})
}

// release drops a deferred context's reference; with the last one, destroy
// runs inside the Release API call and the context goes.
func (c *DeviceContext) release(destroy func()) uint32 {
	done := c.api("Release", c.name)
	c.refs--
	if c.refs > 0 || c.dead {
		done.end(nil)
		return uint32(max(c.refs, 0))
	}
	destroy()
	c.dead = true
	done.end(nil)
	c.dev.unreserve(c.bytes)
	c.dev.childGone()
	return 0
}

// refuse fails a call this kind of context does not offer.
func (c *DeviceContext) refuse(call, obj, invalidObj, msg string) error {
	done := c.api(call, obj)
	err := c.dev.invalid(call, invalidObj, "%s", msg)
	done.end(err)
	return err
}

// bind replaces a pinned binding.
func bind[T binder](c *DeviceContext, slot *T, v T, isNil func(T) bool) {
	// The new binding is pinned before the old one lets go (AddRef before
	// Release): rebinding the object already in the slot must not drop its
	// last reference.
	if !isNil(v) {
		v.pin()
	}
	if !isNil(*slot) {
		c.dropBinding(*slot)
	}
	*slot = v
}

func nilRes(r *Resource) bool       { return r == nil }
func nilView(v *View) bool          { return v == nil }
func nilState(s *State) bool        { return s == nil }
func nilShader(s *Shader) bool      { return s == nil }
func nilLayout(l *InputLayout) bool { return l == nil }
func nilQuery(q *Query) bool        { return q == nil }

// checkAll catches a call that passes an object after its final Release
// before it reaches the UMD (rule LIFE-DANGLING). bug=LIFE-DANGLING lets it
// through, and so do the calls the runtime makes itself on the
// application's behalf (internal: restoring a saved state, replaying an
// emulated command list), which may name objects the application released
// and only the runtime still holds.
func (c *DeviceContext) checkAll(call string, objs ...Object) error {
	if c.internal > 0 {
		return nil
	}
	return c.dev.dangling(call, objs...)
}

// runtimeCalls marks the calls that follow, until the returned function
// runs, as the runtime's own (checkAll).
func (c *DeviceContext) runtimeCalls() func() {
	c.internal++
	return func() { c.internal-- }
}

// dangling returns E_INVALIDARG for the first object of objs the
// application has released (object.released), and the debug layer names it
// and the call: in Windows such a call is undefined behaviour, the
// simulator's runtime always catches it (rule LIFE-DANGLING). The message
// event carries the scenario line. nil with bug=LIFE-DANGLING.
func (d *Device) dangling(call string, objs ...Object) error {
	if d.rt.cfg.Bugs.Has(rules.LifeDangling) {
		return nil
	}
	for _, o := range objs {
		if isNil(o) || !isReleased(o) {
			continue
		}
		msg := call + " names " + o.Name() + " after the application's final Release of it"
		if o.Alive() {
			msg += " (a binding still holds it inside the runtime, which does not make it the application's again)"
		}
		d.message(call, o.Name(), "D3D11 ERROR: "+msg+" (rule LIFE-DANGLING)")
		return hresult.Errorf(hresult.E_INVALIDARG, "%s uses %s after its final Release (rule LIFE-DANGLING)", call, o.Name())
	}
	return nil
}

// isReleased reports whether the application gave up its last reference
// on o.
func isReleased(o Object) bool {
	if r, ok := o.(interface{ released() bool }); ok {
		return r.released()
	}
	return !o.Alive()
}

// isNil reports a nil interface or a typed nil object pointer.
func isNil(o any) bool {
	switch v := o.(type) {
	case nil:
		return true
	case *Resource:
		return v == nil
	case *View:
		return v == nil
	case *State:
		return v == nil
	case *Shader:
		return v == nil
	case *Query:
		return v == nil
	case *CommandList:
		return v == nil
	case *InputLayout:
		return v == nil
	}
	return false
}

func objName(o interface{ Name() string }) string {
	if isNil(o) {
		return ""
	}
	return o.Name()
}

func (c *DeviceContext) Unmap(r *Resource) error {
	if c.dropForeign("Unmap", r) { // (void in D3D11: owner.go)
		return nil
	}
	done := c.api("Unmap", objName(r))
	if err := c.checkAll("Unmap", r); err != nil {
		done.end(err)
		return err
	}
	if !r.mapped || r.mapCtx != c {
		err := c.dev.invalid("Unmap", r.name, "the resource is not mapped on %s", c.name)
		done.end(err)
		return err
	}
	c.unmap(r)
	done.end(nil)
	return nil
}

// unmap ends a map on this context (also FinishCommandList's implicit
// ResourceUnmap, rule CL-IMPLICIT).
func (c *DeviceContext) unmap(r *Resource) {
	if i := slices.Index(c.mappedHere, r); i >= 0 {
		c.mappedHere = slices.Delete(c.mappedHere, i, i+1)
	}
	c.unmapDDI(r)
	r.mapped, r.mapCtx, r.data = false, nil, nil
}

// Write copies data into a mapped resource (the scenario's RES.Write).
func (r *Resource) Write(data []byte, offset uint32) error {
	if err := r.dev.dangling("Write", r); err != nil {
		return err // (the memory of a released resource: rule LIFE-DANGLING)
	}
	if !r.mapped {
		return r.dev.invalid("Write", r.name, "the resource is not mapped")
	}
	if uint64(offset)+uint64(len(data)) > uint64(len(r.data)) {
		return r.dev.invalid("Write", r.name, "%d bytes at offset %d overflow the mapped %d bytes", len(data), offset, len(r.data))
	}
	copy(r.data[offset:], data)
	return nil
}

// Mapped returns the mapped bytes (nil when not mapped).
func (r *Resource) Mapped() []byte {
	if !r.mapped {
		return nil
	}
	return r.data
}

func (c *DeviceContext) resH(r *Resource) ddi.HRESOURCE {
	if r == nil {
		return 0
	}
	return ddi.HRESOURCE(c.local(r))
}

func (c *DeviceContext) viewH(v *View) uint32 {
	if v == nil {
		return 0
	}
	return c.local(v)
}

func (c *DeviceContext) stH(s *State) uint32 {
	if s == nil {
		return 0
	}
	return c.local(s)
}

func (c *DeviceContext) shH(s *Shader) ddi.HSHADER {
	if s == nil {
		return 0
	}
	return ddi.HSHADER(c.local(s))
}

func (c *DeviceContext) qH(q *Query) ddi.HQUERY { return ddi.HQUERY(c.local(q)) }

var mapTypeNames = map[ddi.MapType]string{ddi.MapRead: "READ", ddi.MapWrite: "WRITE", ddi.MapReadWrite: "READ_WRITE",
	ddi.MapWriteDiscard: "WRITE_DISCARD", ddi.MapWriteNoOverwrite: "WRITE_NO_OVERWRITE"}

func mapArgs(b *trace.ArgBuilder, t ddi.MapType, flags ddi.MapFlag) trace.Args {
	b.Str(trace.KeyType, mapTypeNames[t])
	if flags&ddi.MapFlagDoNotWait != 0 {
		b.Str(trace.KeyFlags, "DO_NOT_WAIT")
	}
	return b.Args()
}

// ddiIC is the immediate context's DDI table: the device's own DDIs
// (object creation and destruction, Present) are traced on it.
func (d *Device) ddiIC() *ddiTable { return &d.imm.ddi }
