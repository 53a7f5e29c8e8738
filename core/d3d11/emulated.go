package d3d11

import (
	"fmt"
	"slices"

	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/trace"
)

// emulatedContext is a deferred context of a driver that does not report
// command-list support (option driver.commandlists=false): it gets none of
// the deferred-context DDIs. The runtime records each API call as a command
// and replays the commands on the immediate context at ExecuteCommandList,
// as the D3D11 runtime does for such drivers -- the same path as calls made
// on the immediate context, later. The pixels are the same.
type emulatedContext struct {
	*DeviceContext
	deferredOnly
	cmds   []command // the calls recorded so far
	held   []pinner  // the objects they name
	lastOK bool      // the last call was recorded
	ends   []*Query  // the queries the recording ends
	// versions are the bytes each resource's last Map in the recording
	// handed out: a WRITE_NO_OVERWRITE Map starts from them, as the
	// driver's aliased resource would ("Mapping on Deferred Contexts").
	versions map[*Resource][]byte
}

// command is one API call recorded on an emulated deferred context.
type command struct {
	name string
	do   func(ic *DeviceContext) error
}

func (c command) String() string { return c.name }

type pinner interface {
	pin()
	unpin()
}

func newEmulatedContext(d *Device, name string) *DeviceContext {
	c := &DeviceContext{dev: d, name: name, refs: 1}
	c.resetScalars()
	c.contextKind = &emulatedContext{DeviceContext: c, deferredOnly: deferredOnly{c}}
	d.children.Add(1)
	return c
}

// track returns what follows a recorded state call with the state it
// sets: the emulated context keeps its bindings as a deferred context of a
// driver does, for FinishCommandList(RestoreDeferredContextState=TRUE).
// It does so only when the call was recorded (lastOK).
func (c *emulatedContext) track(set func()) func() {
	return func() {
		if c.lastOK {
			set()
		}
	}
}

// record stores an API call. The objects it names are held until the
// command list dies, as a command list's references are.
func (c *emulatedContext) record(name string, do func(ic *DeviceContext) error, objs ...any) error {
	cfg := c.dev.rt.cfg
	c.lastOK = false
	cfg.Sim.Charge(cfg.Costs.APICall)
	cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Call, Name: name, Ctx: c.name, Args: recorded})
	for _, o := range objs {
		if p, ok := o.(pinner); ok && !isNil(p) {
			if alive, ok := o.(interface{ Alive() bool }); ok && !alive.Alive() {
				err := fmt.Errorf("%s uses a released object (rule LIFE-DANGLING)", name)
				cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: name, Ctx: c.name, HR: "E_INVALIDARG", Msg: err.Error()})
				return err
			}
			p.pin()
			c.held = append(c.held, p)
		}
	}
	c.cmds = append(c.cmds, command{name, do})
	c.lastOK = true
	cfg.Rec.Emit(trace.Event{From: trace.App, Layer: trace.Runtime, Kind: trace.Return, Name: name, Ctx: c.name, HR: "S_OK", Args: recorded})
	return nil
}

func (c *emulatedContext) IASetVertexBuffersRange(start uint32, vbs []*Resource, strides, offsets []uint32) error {
	if err := c.checkVertexBuffers(start, vbs, strides, offsets); err != nil {
		return err
	}
	vbs, strides, offsets = slices.Clone(vbs), slices.Clone(strides), slices.Clone(offsets)
	defer c.track(func() {
		for i, vb := range vbs {
			slot := int(start) + i
			c.bindVB(slot, vb)
			c.vbStride[slot], c.vbOffset[slot] = strides[i], offsets[i]
		}
	})()
	return c.record("IASetVertexBuffers", func(ic *DeviceContext) error { return ic.IASetVertexBuffersRange(start, vbs, strides, offsets) }, anys(vbs)...)
}

func (c *emulatedContext) SetConstantBuffers(stage Stage, start uint32, bufs []*Resource) error {
	if err := c.checkCBs(stage, start, bufs); err != nil {
		return err
	}
	bufs = slices.Clone(bufs)
	defer c.track(func() {
		for i, b := range bufs {
			c.stages[stage].bindCB(c.DeviceContext, int(start)+i, b)
		}
	})()
	return c.record(stage.setCBs(), func(ic *DeviceContext) error { return ic.SetConstantBuffers(stage, start, bufs) }, anys(bufs)...)
}

func (c *emulatedContext) SetShaderResources(stage Stage, start uint32, views []*View) error {
	if err := c.checkSRVs(stage, start, views); err != nil {
		return err
	}
	views = slices.Clone(c.outputsDropped(stage, start, views))
	defer c.track(func() {
		for i, v := range views {
			c.stages[stage].bindSRV(c.DeviceContext, int(start)+i, v)
		}
	})()
	return c.record(stage.setSRVs(), func(ic *DeviceContext) error { return ic.SetShaderResources(stage, start, views) }, anys(views)...)
}

func (c *emulatedContext) SetSamplers(stage Stage, start uint32, samplers []*State) error {
	if err := c.checkSamplers(stage, start, samplers); err != nil {
		return err
	}
	samplers = slices.Clone(samplers)
	defer c.track(func() {
		for i, s := range samplers {
			c.stages[stage].bindSampler(c.DeviceContext, int(start)+i, s)
		}
	})()
	return c.record(stage.setSamplers(), func(ic *DeviceContext) error { return ic.SetSamplers(stage, start, samplers) }, anys(samplers)...)
}

func (c *emulatedContext) DrawInstancedIndirect(buf *Resource, offset uint32) error {
	if err := c.checkIndirect("DrawInstancedIndirect", buf, offset, 16); err != nil {
		return err
	}
	return c.record("DrawInstancedIndirect", func(ic *DeviceContext) error { return ic.DrawInstancedIndirect(buf, offset) }, buf)
}

func (c *emulatedContext) DrawIndexedInstancedIndirect(buf *Resource, offset uint32) error {
	if c.ib == nil {
		return c.dropCall("DrawIndexedInstancedIndirect", objName(buf), "no index buffer is bound")
	}
	if err := c.checkIndirect("DrawIndexedInstancedIndirect", buf, offset, 20); err != nil {
		return err
	}
	return c.record("DrawIndexedInstancedIndirect", func(ic *DeviceContext) error { return ic.DrawIndexedInstancedIndirect(buf, offset) }, buf)
}

// anys is objs as record's arguments.
func anys[T any](objs []T) []any {
	out := make([]any, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

func (c *emulatedContext) IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error {
	defer c.track(func() { bind(c.DeviceContext, &c.ib, ib, nilRes); c.ibFormat, c.ibOffset = f, offset })()
	return c.record("IASetIndexBuffer", func(ic *DeviceContext) error { return ic.IASetIndexBuffer(ib, f, offset) }, ib)
}

func (c *emulatedContext) IASetPrimitiveTopology(t ddi.Topology) error {
	if err := c.checkTopology(t); err != nil {
		return err
	}
	defer c.track(func() { c.topo = t })()
	return c.record("IASetPrimitiveTopology", func(ic *DeviceContext) error { return ic.IASetPrimitiveTopology(t) })
}

func (c *emulatedContext) IASetInputLayout(l *InputLayout) error {
	defer c.track(func() { bind(c.DeviceContext, &c.layout, l, nilLayout) })()
	return c.record("IASetInputLayout", func(ic *DeviceContext) error { return ic.IASetInputLayout(l) }, l)
}

func (c *emulatedContext) DrawInstanced(count, instances, start, startInstance uint32) error {
	return c.record("DrawInstanced", func(ic *DeviceContext) error { return ic.DrawInstanced(count, instances, start, startInstance) })
}

func (c *emulatedContext) DrawIndexedInstanced(count, instances, start uint32, base int32, startInstance uint32) error {
	if c.ib == nil {
		err := c.dev.invalid("DrawIndexedInstanced", "", "no index buffer is bound")
		c.api("DrawIndexedInstanced", "").end(err)
		return err
	}
	return c.record("DrawIndexedInstanced", func(ic *DeviceContext) error {
		return ic.DrawIndexedInstanced(count, instances, start, base, startInstance)
	})
}

func (c *emulatedContext) VSSetShader(s *Shader) error {
	defer c.track(func() { bind(c.DeviceContext, &c.vs, s, nilShader) })()
	return c.record("VSSetShader", func(ic *DeviceContext) error { return ic.VSSetShader(s) }, s)
}

func (c *emulatedContext) PSSetShader(s *Shader) error {
	defer c.track(func() { bind(c.DeviceContext, &c.ps, s, nilShader) })()
	return c.record("PSSetShader", func(ic *DeviceContext) error { return ic.PSSetShader(s) }, s)
}

func (c *emulatedContext) OMSetRenderTargets(rtvs []*View, dsv *View) error {
	if err := c.checkRenderTargets(rtvs, dsv); err != nil {
		return err
	}
	if err := c.unbindInputsOf(rtvs, dsv); err != nil {
		return err
	}
	rtvs = slices.Clone(rtvs)
	defer c.track(func() { c.bindRenderTargets(rtvs, dsv) })()
	objs := []any{dsv}
	for _, v := range rtvs {
		objs = append(objs, v)
	}
	return c.record("OMSetRenderTargets", func(ic *DeviceContext) error { return ic.OMSetRenderTargets(rtvs, dsv) }, objs...)
}

func (c *emulatedContext) OMSetBlendState(s *State, factor [4]float32, mask uint32) error {
	defer c.track(func() { bind(c.DeviceContext, &c.blend, s, nilState); c.blendFactor, c.sampleMask = factor, mask })()
	return c.record("OMSetBlendState", func(ic *DeviceContext) error { return ic.OMSetBlendState(s, factor, mask) }, s)
}

func (c *emulatedContext) OMSetDepthStencilState(s *State, ref uint32) error {
	defer c.track(func() { bind(c.DeviceContext, &c.depth, s, nilState); c.stencilRef = ref })()
	return c.record("OMSetDepthStencilState", func(ic *DeviceContext) error { return ic.OMSetDepthStencilState(s, ref) }, s)
}

func (c *emulatedContext) RSSetState(s *State) error {
	defer c.track(func() { bind(c.DeviceContext, &c.rs, s, nilState) })()
	return c.record("RSSetState", func(ic *DeviceContext) error { return ic.RSSetState(s) }, s)
}

func (c *emulatedContext) RSSetViewports(vps ...ddi.Viewport) error {
	if err := c.checkViewports(vps); err != nil {
		return err
	}
	vps = slices.Clone(vps)
	defer c.track(func() { c.vps = vps })()
	return c.record("RSSetViewports", func(ic *DeviceContext) error { return ic.RSSetViewports(vps...) })
}

func (c *emulatedContext) RSSetScissorRects(rects ...ddi.Rect) error {
	if err := c.checkScissors(rects); err != nil {
		return err
	}
	rects = slices.Clone(rects)
	defer c.track(func() { c.scissors = rects })()
	return c.record("RSSetScissorRects", func(ic *DeviceContext) error { return ic.RSSetScissorRects(rects...) })
}

func (c *emulatedContext) ClearRenderTargetView(v *View, rgba [4]float32) error {
	return c.record("ClearRenderTargetView", func(ic *DeviceContext) error { return ic.ClearRenderTargetView(v, rgba) }, v)
}

func (c *emulatedContext) ClearDepthStencilView(v *View, flags ddi.ClearFlag, depth float32, stencil uint8) error {
	return c.record("ClearDepthStencilView", func(ic *DeviceContext) error { return ic.ClearDepthStencilView(v, flags, depth, stencil) }, v)
}

func (c *emulatedContext) Draw(count, start uint32) error {
	return c.record("Draw", func(ic *DeviceContext) error { return ic.Draw(count, start) })
}

func (c *emulatedContext) DrawIndexed(count, start uint32, base int32) error {
	if c.ib == nil { // the bindings are tracked (track): the same check as a driver's deferred context
		err := c.dev.invalid("DrawIndexed", "", "no index buffer is bound")
		c.api("DrawIndexed", "").end(err)
		return err
	}
	return c.record("DrawIndexed", func(ic *DeviceContext) error { return ic.DrawIndexed(count, start, base) })
}

func (c *emulatedContext) CopyResource(dst, src *Resource) error {
	return c.record("CopyResource", func(ic *DeviceContext) error { return ic.CopyResource(dst, src) }, dst, src)
}

func (c *emulatedContext) UpdateSubresource(dst *Resource, data []byte) error {
	data = append([]byte(nil), data...)
	return c.record("UpdateSubresource", func(ic *DeviceContext) error { return ic.UpdateSubresource(dst, data) }, dst)
}

func (c *emulatedContext) Begin(q *Query) error {
	return c.record("Begin", func(ic *DeviceContext) error { return ic.Begin(q) }, q)
}

func (c *emulatedContext) End(q *Query) error {
	err := c.record("End", func(ic *DeviceContext) error { return ic.End(q) }, q)
	if err == nil && q != nil {
		q.inLists.Add(1) // GetData: S_FALSE until the list has run (recordedList.ran)
		c.ends = append(c.ends, q)
	}
	return err
}

func (c *emulatedContext) ClearState() error {
	defer c.track(c.unbindAll)()
	return c.record("ClearState", func(ic *DeviceContext) error { return ic.ClearState() })
}

// Map hands out runtime memory and records the Map where it happens; the
// bytes are what the application has written by the time the list is
// replayed. WRITE_DISCARD's start undefined (zero here); WRITE_NO_OVERWRITE's
// hold what the list's earlier Maps of the resource wrote, and replay as a
// WRITE_NO_OVERWRITE Map of the immediate context, which does not disturb
// the list's draws before it.
func (c *emulatedContext) Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) (data []byte, err error) {
	done := c.api("Map", objName(r))
	defer func() { done.end(err) }()
	if err := c.mapPrologue(r, t, flags); err != nil {
		return nil, err
	}
	n := r.Desc.Width
	if r.Kind == KindTexture2D {
		n = ddi.RowBytes(r.Desc.Format, r.Desc.Width) * ddi.Rows(r.Desc.Format, r.Desc.Height)
	}
	data = make([]byte, n)
	if c.versions == nil {
		c.versions = map[*Resource][]byte{}
	}
	if t == ddi.MapWriteNoOverwrite {
		copy(data, c.versions[r])
	}
	c.versions[r] = data
	r.mapped, r.mapCtx, r.data = true, c.DeviceContext, data
	c.mappedHere = append(c.mappedHere, r)
	c.mappedOnList(r, t)
	err = c.record("Map", func(ic *DeviceContext) error {
		m, err := ic.Map(r, t, 0)
		if err != nil {
			return err
		}
		copy(m, data)
		return ic.Unmap(r)
	}, r)
	return data, err
}

// FinishCommandList turns the recording into a command list the runtime
// owns, after the implicit Unmaps (rule CL-IMPLICIT).
func (c *emulatedContext) FinishCommandList(name string, restore bool) (l *CommandList, err error) {
	done := c.api("FinishCommandList", name)
	defer func() { done.end(err) }()
	if err := c.dev.removedHR(); err != nil {
		return nil, err
	}
	for len(c.mappedHere) > 0 {
		c.unmap(c.mappedHere[0])
	}
	c.discarded = c.discarded[:0]
	clear(c.versions)
	l = &CommandList{dc: c.DeviceContext, markers: c.takeMarkers()}
	body := &recordedList{l: l, cmds: c.cmds, held: c.held, ends: c.ends, queried: slices.Clone(c.ends)}
	l.body = body
	c.cmds, c.held, c.ends = nil, nil, nil
	saved := c.bindings()
	hold := c.hold()
	c.unbindAll()
	if restore {
		c.restore(saved) // recorded again: the next list starts from this state
	}
	hold()
	c.dev.initChild(&l.object, name, c.dev.charge(ObjectOverhead), body.destroy)
	l.setState("valid")
	return l, nil
}

// Release destroys the context with its last reference, dropping what its
// recording held.
func (c *emulatedContext) Release() uint32 {
	return c.release(func() {
		for _, q := range c.ends {
			q.inLists.Add(-1)
		}
		for _, p := range c.held {
			p.unpin()
		}
		c.cmds, c.held, c.ends = nil, nil, nil
		c.unbindAll()
	})
}

// GetData and ExecuteCommandList are the deferred contexts' own
// (deferredOnly), named here because DeviceContext has its own of each too
// (owner.go).
func (c *emulatedContext) GetData(q *Query) (QueryData, hresult.HRESULT, error) {
	return c.deferredOnly.GetData(q)
}

// SetPredication is recorded (validated now) and replayed on the
// immediate context.
func (c *emulatedContext) SetPredication(q *Query, value bool) error {
	if err := c.checkPredication(q); err != nil {
		return err
	}
	err := c.record("SetPredication", func(ic *DeviceContext) error { return ic.SetPredication(q, value) }, q)
	if err == nil {
		bind(c.DeviceContext, &c.pred, q, nilQuery)
		c.predValue = value
	}
	return err
}

// ExecuteCommandList records the list's replay: it starts from and leaves
// the default state, as on the immediate context; with restore the
// context's state is recorded again after it. The recording holds the list.
func (c *emulatedContext) ExecuteCommandList(l *CommandList, restore bool) error {
	if err := c.checkList(l); err != nil {
		c.api("ExecuteCommandList", objName(l)).end(err)
		return err
	}
	inner, ok := l.body.(*recordedList)
	if !ok {
		err := c.dev.invalid("ExecuteCommandList", l.name, "the command list was not recorded by the runtime")
		c.api("ExecuteCommandList", objName(l)).end(err)
		return err
	}
	saved := c.bindings()
	err := c.record("ExecuteCommandList", func(ic *DeviceContext) error { return inner.replay(ic) }, l)
	if err != nil {
		return err
	}
	c.replayMarkers(l)
	for _, q := range inner.queries() {
		q.inLists.Add(1) // GetData: S_FALSE until the outer list has run
		c.ends = append(c.ends, q)
	}
	hold := c.pinBindings()
	c.unbindAll()
	if restore {
		c.restore(saved)
	}
	hold()
	return nil
}

func (c *emulatedContext) dropBinding(p binder)                     { p.unpin() } // no context-local handles to wait for
func (c *emulatedContext) dropPin(p binder)                         { p.unpin() }
func (c *emulatedContext) local(o Object) uint32                    { h, _ := ddiHandle(o); return h }
func (c *emulatedContext) discarding() bool                         { return false }
func (c *emulatedContext) afterDDI()                                {}
func (c *emulatedContext) mapRule(r *Resource, t ddi.MapType) error { return c.deferredMapRule(r, t) }
func (c *emulatedContext) mapped(*Resource, ddi.MapType)            {}
func (c *emulatedContext) unmapDDI(*Resource)                       {} // the Map was recorded with its bytes
func (c *emulatedContext) queryBegun(*Query)                        {}
func (c *emulatedContext) queryEnded(*Query)                        {}
func (c *emulatedContext) outOfMemory()                             {}
func (c *emulatedContext) recycling() bool                          { return false }

// recordedList is an emulated command list: the recorded commands and the
// objects they hold.
type recordedList struct {
	l       *CommandList
	cmds    []command
	held    []pinner
	ends    []*Query // ended in the list: pending (Query.inLists) until it first runs
	queried []*Query // every query the list ends
}

// ran lets the queries the list ends answer GetData from the driver: their
// End has now reached the immediate context.
func (b *recordedList) ran() {
	for _, q := range b.ends {
		q.inLists.Add(-1)
	}
	b.ends = nil
}

// execute replays the commands on the immediate context, starting from and
// leaving the cleared state.
func (b *recordedList) execute(ic *immediateContext) error { return b.replay(ic.DeviceContext) }

// queries lists the queries the list ends, those of the lists it executes
// included.
func (b *recordedList) queries() []*Query { return b.queried }

// replay runs the commands on the immediate context c.
func (b *recordedList) replay(c *DeviceContext) error {
	defer c.runtimeCalls()() // the list holds what it names, released or not
	if err := c.ClearState(); err != nil {
		return err
	}
	defer b.ran()
	for _, cmd := range b.cmds {
		if err := cmd.do(c); err != nil {
			return fmt.Errorf("replaying %s of %s: %w", cmd, b.l.name, err)
		}
	}
	return c.ClearState()
}

func (b *recordedList) destroy() {
	b.ran() // never executed: its queries are no longer waited for in the runtime
	for _, p := range b.held {
		p.unpin()
	}
	b.held = nil
	b.l.setState("freed")
}

// recorded is the payload of an emulated context's calls: recorded, not run.
var recorded = trace.FlagArgs(trace.KeyRecorded)
