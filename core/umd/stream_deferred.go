package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// Stream output in command lists: a deferred context records SoSetTargets
// and DrawAuto as the immediate context runs them. Its draws with a
// stream-output declaration send all four SET_SO_TARGETs, a bound buffer's
// (at its offset the first time, then appending at its filled size) or
// none: the list may run after any targets and may be split into several
// DMA buffers at its groups, each of which starts with none. The list
// remembers the targets it leaves on the GPU (commandList.endNew.soT), and
// the context that executes it sends its own again, or unbinds them, at
// its next draw (afterSOList).

// CreateGeometryShaderWithStreamOutput opens the deferred context's handle
// of a shader the immediate context created (rt).
func (c *deferredContext) CreateGeometryShaderWithStreamOutput(_ ddi.HDEVICE, _ *ddi.SOShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateGeometryShaderWithStreamOutput", uint32(h), rt))
}

func (c *deferredContext) SoSetTargets(h ddi.HDEVICE, bufs []ddi.HRESOURCE, offsets []uint32) {
	if !c.stopped("SoSetTargets") {
		c.context.SoSetTargets(h, bufs, offsets)
	}
}

// DrawAuto records the draw of what the stream-output buffer at input slot
// 0 holds, counted by the GPU when the list runs.
func (c *deferredContext) DrawAuto(_ ddi.HDEVICE) {
	if c.stopped("DrawAuto") || c.st.vs == 0 {
		return
	}
	st := c.icState()
	r := c.resource(st.vb)
	if r == nil || r.soFilled == 0 || st.vbStride == 0 {
		return // nothing a stream-output buffer filled is bound at slot 0
	}
	w, a := c.extraWords(&st)
	c.ensure(drawWords+w, drawAllocs+a+1)
	c.emitState(c, &st)
	c.cmd.DrawAuto(c.ref(r, false, uint32(r.soFilled)), st.vbStride)
}

// sendSOTarget sends target slot i of a command list's draw: r (nil or a
// buffer without stream output: none) from t's offset.
func (c *deferredContext) sendSOTarget(rec recorder, i uint32, r *resource, t *soTarget) {
	if r == nil || r.soFilled == 0 {
		c.cmd.SetSOTarget(i, isa.NullAddress, 0, isa.NullAddress, 0)
		c.onGPU.soT &^= 1 << i
		return
	}
	c.cmd.SetSOTarget(i, rec.ref(r, true, 0), uint32(r.size), rec.ref(r, true, uint32(r.soFilled)), t.offset)
	t.offset = isa.SOAppend
	c.onGPU.soT |= 1 << i
}

// afterSOList: a list that left stream-output targets on the GPU makes
// the executing context send its own at its next draw (unbinding the
// others).
func (c *context) afterSOList(cl *commandList) {
	if cl.endNew.soT != 0 {
		c.onGPU.soT |= cl.endNew.soT
		c.st.soSet, c.st.dirty = true, true
	}
}

var _ ddi.StreamOutput = (*deferredContext)(nil)
