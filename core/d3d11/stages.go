package d3d11

import (
	"fmt"
	"slices"
	"strings"

	"d3dsim/core/ddi"
	"d3dsim/core/trace"
)

// Each shader stage's bindings: constant buffers, shader resource views and
// samplers ("ID3D11DeviceContext" *SetConstantBuffers, *SetShaderResources,
// *SetSamplers and their Get*), kept for all six stages. The driver and the
// GPU have the vertex, pixel, geometry and compute stages; the hull and
// domain stages' tables are here for when they come, and the calls that
// would bind in them are refused.

// Stage is a shader stage, numbered as the GPU's stage words (isa.StageVS
// and so on).
type Stage uint8

const (
	StageVS Stage = iota
	StagePS
	StageGS
	StageHS
	StageDS
	StageCS
	NumStages
)

var stageNames = [NumStages]string{"VS", "PS", "GS", "HS", "DS", "CS"}

// String is the stage's method prefix: VS, PS, GS, HS, DS, CS.
func (s Stage) String() string {
	if s < NumStages {
		return stageNames[s]
	}
	return fmt.Sprintf("Stage(%d)", uint8(s))
}

// driven reports whether the driver has the stage's DDIs (pfnVsSet*,
// pfnPsSet*, pfnGsSet*, pfnCsSet*): the vertex, pixel, geometry and
// compute stages.
func (s Stage) driven() bool { return s < NumStages }

// ddiPrefix is the stage in DDI names: Vs, Ps.
func (s Stage) ddiPrefix() string { return s.String()[:1] + strings.ToLower(s.String()[1:]) }

var stageLongNames = [NumStages]string{"vertex", "pixel", "geometry", "hull", "domain", "compute"}

// stageSlots are one stage's binding tables.
type stageSlots struct {
	cb   [ddi.ConstantBufferSlots]*Resource
	srv  [ddi.ShaderResourceSlots]*View
	samp [ddi.SamplerSlots]*State
	// The tables' marks: one past the highest slot bound since the tables
	// were last emptied (unbindStages). The slots at and above a mark are
	// empty, so a state refresh, an unbinding or a pin looks no further
	// (most contexts bind a few low slots of 128).
	cbN, srvN, sampN uint8
}

// bindCB, bindSRV and bindSampler bind one slot of a stage and move its
// table's mark: every binding of an object to a stage's slot goes through
// them.
func (t *stageSlots) bindCB(c *DeviceContext, i int, r *Resource) {
	bind(c, &t.cb[i], r, nilRes)
	if r != nil && i >= int(t.cbN) {
		t.cbN = uint8(i + 1)
	}
}

func (t *stageSlots) bindSRV(c *DeviceContext, i int, v *View) {
	bind(c, &t.srv[i], v, nilView)
	if v != nil && i >= int(t.srvN) {
		t.srvN = uint8(i + 1)
	}
}

func (t *stageSlots) bindSampler(c *DeviceContext, i int, s *State) {
	bind(c, &t.samp[i], s, nilState)
	if s != nil && i >= int(t.sampN) {
		t.sampN = uint8(i + 1)
	}
}

// bindVB binds vertex-buffer slot i and moves the mark vbN.
func (c *DeviceContext) bindVB(i int, r *Resource) {
	bind(c, &c.vb[i], r, nilRes)
	if r != nil && i >= int(c.vbN) {
		c.vbN = uint8(i + 1)
	}
}

// The per-stage API names.
func (s Stage) setCBs() string      { return s.String() + "SetConstantBuffers" }
func (s Stage) setSRVs() string     { return s.String() + "SetShaderResources" }
func (s Stage) setSamplers() string { return s.String() + "SetSamplers" }

// dropCall drops an API call before it reaches the driver (the debug
// layer's message; E_INVALIDARG to the Go caller, DROPPED in a scenario).
func (c *DeviceContext) dropCall(call, obj, format string, a ...any) error {
	err := c.dev.invalid(call, obj, format, a...)
	c.api(call, obj).end(err)
	return err
}

// firstName is the name of the first object that is not nil ("" for none).
func firstName[T Object](objs []T) string {
	for _, o := range objs {
		if !isNil(o) {
			return objName(o)
		}
	}
	return ""
}

// checkSlots is the validation every Set* of a range shares: the stage
// has a driver, and StartSlot plus the count fits the slots.
func (c *DeviceContext) checkSlots(call, obj string, stage Stage, start uint32, n int, count string, slots int, limit string) error {
	if !stage.driven() {
		return c.dropCall(call, obj, "the simulated driver and GPU have no %s-shader stage yet (its binding tables are kept; its DDIs are not there)", stageLongNames[stage])
	}
	if stage == StageCS {
		if _, err := c.computeContext(call, obj); err != nil {
			return err
		}
	}
	if stage == StageGS {
		if _, err := c.geometryContext(call, obj); err != nil {
			return err
		}
	}
	if stage == StageHS || stage == StageDS {
		if _, err := c.tessContext(call, obj); err != nil {
			return err
		}
	}
	if uint64(start)+uint64(n) > uint64(slots) {
		return c.dropCall(call, obj, "StartSlot %d + %s %d is more than the %d slots (%s)", start, count, n, slots, limit)
	}
	return nil
}

// checkVertexBuffers is IASetVertexBuffers' validation: the slots, one
// stride and offset per buffer, each buffer created with VERTEX_BUFFER.
func (c *DeviceContext) checkVertexBuffers(start uint32, vbs []*Resource, strides, offsets []uint32) error {
	obj := firstName(vbs)
	if len(strides) != len(vbs) || len(offsets) != len(vbs) {
		return c.dropCall("IASetVertexBuffers", obj, "pStrides (%d) and pOffsets (%d) need NumBuffers (%d) entries each", len(strides), len(offsets), len(vbs))
	}
	if err := c.checkSlots("IASetVertexBuffers", obj, StageVS, start, len(vbs), "NumBuffers", iaSlots, "D3D11_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT"); err != nil {
		return err
	}
	for i, vb := range vbs {
		if vb != nil && !vb.Desc.BindFlags.Has(ddi.BindVertexBuffer) {
			return c.dropCall("IASetVertexBuffers", vb.name, "ppVertexBuffers[%d]: %s was not created with VERTEX_BUFFER", i, vb.name)
		}
	}
	return nil
}

// checkCBs is *SetConstantBuffers' validation.
func (c *DeviceContext) checkCBs(stage Stage, start uint32, bufs []*Resource) error {
	call, obj := stage.setCBs(), firstName(bufs)
	if err := c.checkSlots(call, obj, stage, start, len(bufs), "NumBuffers", ddi.ConstantBufferSlots, "D3D11_COMMONSHADER_CONSTANT_BUFFER_API_SLOT_COUNT"); err != nil {
		return err
	}
	for i, b := range bufs {
		if b != nil && !b.Desc.BindFlags.Has(ddi.BindConstantBuffer) {
			return c.dropCall(call, b.name, "ppConstantBuffers[%d]: %s was not created with CONSTANT_BUFFER", i, b.name)
		}
	}
	return nil
}

// checkSRVs is *SetShaderResources' validation.
func (c *DeviceContext) checkSRVs(stage Stage, start uint32, views []*View) error {
	call, obj := stage.setSRVs(), firstName(views)
	if err := c.checkSlots(call, obj, stage, start, len(views), "NumViews", ddi.ShaderResourceSlots, "D3D11_COMMONSHADER_INPUT_RESOURCE_SLOT_COUNT"); err != nil {
		return err
	}
	for i, v := range views {
		if v != nil && v.ViewKind != ddi.ViewSRV {
			return c.dropCall(call, v.name, "ppShaderResourceViews[%d]: %s is not a shader resource view", i, v.name)
		}
	}
	return nil
}

// checkSamplers is *SetSamplers' validation.
func (c *DeviceContext) checkSamplers(stage Stage, start uint32, samplers []*State) error {
	call, obj := stage.setSamplers(), firstName(samplers)
	if err := c.checkSlots(call, obj, stage, start, len(samplers), "NumSamplers", ddi.SamplerSlots, "D3D11_COMMONSHADER_SAMPLER_SLOT_COUNT"); err != nil {
		return err
	}
	for i, s := range samplers {
		if s != nil && s.Kind != "sampler" {
			return c.dropCall(call, s.name, "ppSamplers[%d]: %s is not a sampler state", i, s.name)
		}
	}
	return nil
}

// checkIndirect is Draw*InstancedIndirect's validation
// ("ID3D11DeviceContext::DrawInstancedIndirect"): a buffer created with
// D3D11_RESOURCE_MISC_DRAWINDIRECT_ARGS, the offset a multiple of 4 and
// the arguments inside the buffer.
func (c *DeviceContext) checkIndirect(call string, buf *Resource, offset uint32, size uint32) error {
	switch {
	case buf == nil:
		return c.dropCall(call, "", "pBufferForArgs is NULL")
	case buf.Kind != KindBuffer:
		return c.dropCall(call, buf.name, "pBufferForArgs: %s is not a buffer", buf.name)
	case !buf.Desc.MiscFlags.Has(ddi.ResourceMiscDrawIndirectArgs):
		return c.dropCall(call, buf.name, "pBufferForArgs: %s was not created with MiscFlags DRAWINDIRECT_ARGS", buf.name)
	case offset%4 != 0:
		return c.dropCall(call, buf.name, "AlignedByteOffsetForArgs %d is not a multiple of 4", offset)
	case uint64(offset)+uint64(size) > uint64(buf.Desc.Width):
		return c.dropCall(call, buf.name, "AlignedByteOffsetForArgs %d + the %d bytes of the arguments is past the end of %s (%d bytes)", offset, size, buf.name, buf.Desc.Width)
	}
	return nil
}

// The generic setters of a context with a driver.

// IASetVertexBuffersRange is pfnIaSetVertexBuffers with NumBuffers buffers
// from StartSlot.
func (c driverContext) IASetVertexBuffersRange(start uint32, vbs []*Resource, strides, offsets []uint32) error {
	if err := c.checkVertexBuffers(start, vbs, strides, offsets); err != nil {
		return err
	}
	vbs, strides, offsets = slices.Clone(vbs), slices.Clone(strides), slices.Clone(offsets)
	return c.simple("IASetVertexBuffers", firstName(vbs), asObjects(vbs), func(w ddiCall) {
		hs := make([]ddi.HRESOURCE, len(vbs))
		for i, vb := range vbs {
			slot := int(start) + i
			c.bindVB(slot, vb)
			c.vbStride[slot], c.vbOffset[slot] = strides[i], offsets[i]
			hs[i] = c.resH(vb)
		}
		w.IaSetVertexBuffers(c.h, start, hs, strides, offsets)
	})
}

// SetConstantBuffers is pfnVsSetConstantBuffers / pfnPsSetConstantBuffers.
func (c driverContext) SetConstantBuffers(stage Stage, start uint32, bufs []*Resource) error {
	if err := c.checkCBs(stage, start, bufs); err != nil {
		return err
	}
	bufs = slices.Clone(bufs)
	return c.simple(stage.setCBs(), firstName(bufs), asObjects(bufs), func(w ddiCall) {
		t := &c.stages[stage]
		hs := make([]ddi.HRESOURCE, len(bufs))
		for i, b := range bufs {
			t.bindCB(c.DeviceContext, int(start)+i, b)
			hs[i] = c.resH(b)
		}
		switch stage {
		case StageVS:
			w.VsSetConstantBuffers(c.h, start, hs)
		case StageCS:
			w.CsSetConstantBuffers(c.h, start, hs)
		case StageGS:
			w.GsSetConstantBuffers(c.h, start, hs)
		case StageHS:
			w.HsSetConstantBuffers(c.h, start, hs)
		case StageDS:
			w.DsSetConstantBuffers(c.h, start, hs)
		default:
			w.PsSetConstantBuffers(c.h, start, hs)
		}
	})
}

// SetShaderResources is pfnVsSetShaderResources / pfnPsSetShaderResources.
func (c driverContext) SetShaderResources(stage Stage, start uint32, views []*View) error {
	if err := c.checkSRVs(stage, start, views); err != nil {
		return err
	}
	views = slices.Clone(c.outputsDropped(stage, start, views))
	return c.simple(stage.setSRVs(), firstName(views), asObjects(views), func(w ddiCall) {
		t := &c.stages[stage]
		hs := make([]ddi.HSHADERRESOURCEVIEW, len(views))
		for i, v := range views {
			t.bindSRV(c.DeviceContext, int(start)+i, v)
			hs[i] = ddi.HSHADERRESOURCEVIEW(c.viewH(v))
		}
		switch stage {
		case StageVS:
			w.VsSetShaderResources(c.h, start, hs)
		case StageCS:
			w.CsSetShaderResources(c.h, start, hs)
		case StageGS:
			w.GsSetShaderResources(c.h, start, hs)
		case StageHS:
			w.HsSetShaderResources(c.h, start, hs)
		case StageDS:
			w.DsSetShaderResources(c.h, start, hs)
		default:
			w.PsSetShaderResources(c.h, start, hs)
		}
	})
}

// SetSamplers is pfnVsSetSamplers / pfnPsSetSamplers.
func (c driverContext) SetSamplers(stage Stage, start uint32, samplers []*State) error {
	if err := c.checkSamplers(stage, start, samplers); err != nil {
		return err
	}
	samplers = slices.Clone(samplers)
	return c.simple(stage.setSamplers(), firstName(samplers), asObjects(samplers), func(w ddiCall) {
		t := &c.stages[stage]
		hs := make([]ddi.HSAMPLER, len(samplers))
		for i, s := range samplers {
			t.bindSampler(c.DeviceContext, int(start)+i, s)
			hs[i] = ddi.HSAMPLER(c.stH(s))
		}
		switch stage {
		case StageVS:
			w.VsSetSamplers(c.h, start, hs)
		case StageCS:
			w.CsSetSamplers(c.h, start, hs)
		case StageGS:
			w.GsSetSamplers(c.h, start, hs)
		case StageHS:
			w.HsSetSamplers(c.h, start, hs)
		case StageDS:
			w.DsSetSamplers(c.h, start, hs)
		default:
			w.PsSetSamplers(c.h, start, hs)
		}
	})
}

// DrawInstancedIndirect is pfnDrawInstancedIndirect: the GPU reads
// D3D11_DRAW_INSTANCED_INDIRECT_ARGS (16 bytes) from buf at offset when the
// draw runs.
func (c driverContext) DrawInstancedIndirect(buf *Resource, offset uint32) error {
	if err := c.checkIndirect("DrawInstancedIndirect", buf, offset, 16); err != nil {
		return err
	}
	if err := c.checkLinkage("DrawInstancedIndirect"); err != nil {
		return err
	}
	return c.simple("DrawInstancedIndirect", buf.name, []Object{buf}, func(w ddiCall) {
		w.DrawInstancedIndirect(c.h, c.resH(buf), offset)
	})
}

// DrawIndexedInstancedIndirect is pfnDrawIndexedInstancedIndirect:
// D3D11_DRAW_INDEXED_INSTANCED_INDIRECT_ARGS (20 bytes).
func (c driverContext) DrawIndexedInstancedIndirect(buf *Resource, offset uint32) error {
	if c.ib == nil {
		return c.invalidCall("DrawIndexedInstancedIndirect", objName(buf), "no index buffer is bound")
	}
	if err := c.checkIndirect("DrawIndexedInstancedIndirect", buf, offset, 20); err != nil {
		return err
	}
	if err := c.checkLinkage("DrawIndexedInstancedIndirect"); err != nil {
		return err
	}
	return c.simple("DrawIndexedInstancedIndirect", buf.name, []Object{buf}, func(w ddiCall) {
		w.DrawIndexedInstancedIndirect(c.h, c.resH(buf), offset)
	})
}

func asObjects[T Object](objs []T) []Object {
	out := make([]Object, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

// The public setters: the one-slot forms of the D3D11 calls, and the
// ranges.

// IASetVertexBuffersRange binds NumBuffers vertex buffers from StartSlot
// (ID3D11DeviceContext::IASetVertexBuffers; nil entries unbind).
func (c *DeviceContext) IASetVertexBuffersRange(start uint32, vbs []*Resource, strides, offsets []uint32) error {
	if stop, err := c.checkArgs("IASetVertexBuffers", asObjects(vbs)...); stop {
		return err
	}
	return c.contextKind.IASetVertexBuffersRange(start, vbs, strides, offsets)
}

// IASetVertexBuffers binds one vertex buffer (NumBuffers 1).
func (c *DeviceContext) IASetVertexBuffers(slot uint32, vb *Resource, stride, offset uint32) error {
	return c.IASetVertexBuffersRange(slot, []*Resource{vb}, []uint32{stride}, []uint32{offset})
}

// SetConstantBuffers is stage's *SetConstantBuffers: NumBuffers buffers
// from StartSlot (nil entries unbind).
func (c *DeviceContext) SetConstantBuffers(stage Stage, start uint32, bufs []*Resource) error {
	if stop, err := c.checkArgs(stage.setCBs(), asObjects(bufs)...); stop {
		return err
	}
	return c.contextKind.SetConstantBuffers(stage, start, bufs)
}

// SetShaderResources is stage's *SetShaderResources.
func (c *DeviceContext) SetShaderResources(stage Stage, start uint32, views []*View) error {
	if stop, err := c.checkArgs(stage.setSRVs(), asObjects(views)...); stop {
		return err
	}
	return c.contextKind.SetShaderResources(stage, start, views)
}

// SetSamplers is stage's *SetSamplers.
func (c *DeviceContext) SetSamplers(stage Stage, start uint32, samplers []*State) error {
	if stop, err := c.checkArgs(stage.setSamplers(), asObjects(samplers)...); stop {
		return err
	}
	return c.contextKind.SetSamplers(stage, start, samplers)
}

func (c *DeviceContext) VSSetConstantBuffers(slot uint32, b *Resource) error {
	return c.SetConstantBuffers(StageVS, slot, []*Resource{b})
}

func (c *DeviceContext) PSSetConstantBuffers(slot uint32, b *Resource) error {
	return c.SetConstantBuffers(StagePS, slot, []*Resource{b})
}

func (c *DeviceContext) VSSetShaderResources(slot uint32, v *View) error {
	return c.SetShaderResources(StageVS, slot, []*View{v})
}

func (c *DeviceContext) PSSetShaderResources(slot uint32, v *View) error {
	return c.SetShaderResources(StagePS, slot, []*View{v})
}

func (c *DeviceContext) VSSetSamplers(slot uint32, s *State) error {
	return c.SetSamplers(StageVS, slot, []*State{s})
}

func (c *DeviceContext) PSSetSamplers(slot uint32, s *State) error {
	return c.SetSamplers(StagePS, slot, []*State{s})
}

// DrawInstancedIndirect draws with the arguments in buf at offset.
func (c *DeviceContext) DrawInstancedIndirect(buf *Resource, offset uint32) error {
	if stop, err := c.checkArgs("DrawInstancedIndirect", buf); stop {
		return err
	}
	return c.contextKind.DrawInstancedIndirect(buf, offset)
}

// DrawIndexedInstancedIndirect draws indexed with the arguments in buf at
// offset.
func (c *DeviceContext) DrawIndexedInstancedIndirect(buf *Resource, offset uint32) error {
	if stop, err := c.checkArgs("DrawIndexedInstancedIndirect", buf); stop {
		return err
	}
	return c.contextKind.DrawIndexedInstancedIndirect(buf, offset)
}

// The getters (ID3D11DeviceContext::*Get*): what the context has bound, on
// an immediate or a deferred context. As in D3D11 every object returned
// has had AddRef: the caller releases it. Each is an API call in the
// trace whose return event says what it returned (`bound`: names, or
// "none").

// got ends a getter's span saying what it returned.
func (c *DeviceContext) got(call string, what string) {
	sp := c.api(call, "")
	sp.ev.Args = strArg(trace.KeyBound, what)
	sp.end(nil)
}

// gotObjects AddRefs the objects a getter returns and names them.
func gotObjects[T Object](objs []T) string {
	var names []string
	for _, o := range objs {
		if isNil(o) {
			names = append(names, "NULL")
			continue
		}
		o.AddRef()
		names = append(names, objName(o))
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, " ")
}

// getRange checks a getter's StartSlot and count against slots.
func (c *DeviceContext) getRange(call string, start, n uint32, slots int) error {
	if uint64(start)+uint64(n) > uint64(slots) {
		return c.dropCall(call, "", "StartSlot %d + %d is more than the %d slots", start, n, slots)
	}
	return nil
}

// IAGetVertexBuffers returns n vertex buffers from start, with their
// strides and offsets.
func (c *DeviceContext) IAGetVertexBuffers(start, n uint32) ([]*Resource, []uint32, []uint32, error) {
	if err := c.getRange("IAGetVertexBuffers", start, n, iaSlots); err != nil {
		return nil, nil, nil, err
	}
	vbs := slices.Clone(c.vb[start : start+n])
	c.got("IAGetVertexBuffers", gotObjects(vbs))
	return vbs, slices.Clone(c.vbStride[start : start+n]), slices.Clone(c.vbOffset[start : start+n]), nil
}

// IAGetIndexBuffer returns the index buffer, its format and offset.
func (c *DeviceContext) IAGetIndexBuffer() (*Resource, ddi.Format, uint32) {
	ib := c.ib
	c.got("IAGetIndexBuffer", gotObjects([]*Resource{ib}))
	return ib, c.ibFormat, c.ibOffset
}

// IAGetInputLayout returns the input layout.
func (c *DeviceContext) IAGetInputLayout() *InputLayout {
	l := c.layout
	c.got("IAGetInputLayout", gotObjects([]*InputLayout{l}))
	return l
}

// IAGetPrimitiveTopology returns the topology.
func (c *DeviceContext) IAGetPrimitiveTopology() ddi.Topology {
	c.got("IAGetPrimitiveTopology", enumNameOr("Topology", uint32(c.topo)))
	return c.topo
}

// GetShader returns stage's shader (VSGetShader, PSGetShader; nil for the
// stages the simulator does not have).
func (c *DeviceContext) GetShader(stage Stage) *Shader {
	var s *Shader
	switch stage {
	case StageVS:
		s = c.vs
	case StagePS:
		s = c.ps
	}
	c.got(stage.String()+"GetShader", gotObjects([]*Shader{s}))
	return s
}

// GetConstantBuffers returns n of stage's constant buffers from start.
func (c *DeviceContext) GetConstantBuffers(stage Stage, start, n uint32) ([]*Resource, error) {
	call := stage.String() + "GetConstantBuffers"
	if stage >= NumStages {
		return nil, c.dropCall(call, "", "no stage %d", stage)
	}
	if err := c.getRange(call, start, n, ddi.ConstantBufferSlots); err != nil {
		return nil, err
	}
	out := slices.Clone(c.stages[stage].cb[start : start+n])
	c.got(call, gotObjects(out))
	return out, nil
}

// GetShaderResources returns n of stage's shader resource views from start.
func (c *DeviceContext) GetShaderResources(stage Stage, start, n uint32) ([]*View, error) {
	call := stage.String() + "GetShaderResources"
	if stage >= NumStages {
		return nil, c.dropCall(call, "", "no stage %d", stage)
	}
	if err := c.getRange(call, start, n, ddi.ShaderResourceSlots); err != nil {
		return nil, err
	}
	out := slices.Clone(c.stages[stage].srv[start : start+n])
	c.got(call, gotObjects(out))
	return out, nil
}

// GetSamplers returns n of stage's samplers from start.
func (c *DeviceContext) GetSamplers(stage Stage, start, n uint32) ([]*State, error) {
	call := stage.String() + "GetSamplers"
	if stage >= NumStages {
		return nil, c.dropCall(call, "", "no stage %d", stage)
	}
	if err := c.getRange(call, start, n, ddi.SamplerSlots); err != nil {
		return nil, err
	}
	out := slices.Clone(c.stages[stage].samp[start : start+n])
	c.got(call, gotObjects(out))
	return out, nil
}

// OMGetRenderTargets returns n render target views and the depth-stencil
// view.
func (c *DeviceContext) OMGetRenderTargets(n uint32) ([]*View, *View, error) {
	if err := c.getRange("OMGetRenderTargets", 0, n, maxRTVs); err != nil {
		return nil, nil, err
	}
	rtvs := slices.Clone(c.rtv[:n])
	dsv := c.dsv
	c.got("OMGetRenderTargets", gotObjects(append(slices.Clone(rtvs), dsv)))
	return rtvs, dsv, nil
}

// OMGetBlendState returns the blend state, BlendFactor and SampleMask.
func (c *DeviceContext) OMGetBlendState() (*State, [4]float32, uint32) {
	s := c.blend
	c.got("OMGetBlendState", gotObjects([]*State{s}))
	return s, c.blendFactor, c.sampleMask
}

// OMGetDepthStencilState returns the depth-stencil state and StencilRef.
func (c *DeviceContext) OMGetDepthStencilState() (*State, uint32) {
	s := c.depth
	c.got("OMGetDepthStencilState", gotObjects([]*State{s}))
	return s, c.stencilRef
}

// RSGetState returns the rasterizer state.
func (c *DeviceContext) RSGetState() *State {
	s := c.rs
	c.got("RSGetState", gotObjects([]*State{s}))
	return s
}

// RSGetViewports returns the viewports.
func (c *DeviceContext) RSGetViewports() []ddi.Viewport {
	c.got("RSGetViewports", fmt.Sprintf("%d viewports", len(c.vps)))
	return slices.Clone(c.vps)
}

// RSGetScissorRects returns the scissor rectangles.
func (c *DeviceContext) RSGetScissorRects() []ddi.Rect {
	c.got("RSGetScissorRects", fmt.Sprintf("%d rects", len(c.scissors)))
	return slices.Clone(c.scissors)
}

// enumNameOr is the enum's name of v, or v.
func enumNameOr(enum string, v uint32) string {
	if n := enumName(enum, v); n != "" {
		return n
	}
	return fmt.Sprint(v)
}
