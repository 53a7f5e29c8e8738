package umd

import (
	"math"

	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// ClearUnorderedAccessViewUint and ...Float are a CLEAR_UAV of the view's
// bytes (laid out as its SET_UAV: compute.go), the GPU converting the
// values; CopyStructureCount is a COPY of the view's hidden counter word.

var (
	_ ddi.UAVClears = (*immediateContext)(nil)
	_ ddi.UAVClears = (*deferredContext)(nil)
)

func (d *immediateContext) ClearUnorderedAccessViewUint(_ ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]uint32) {
	d.busy()
	d.clearUAV(d, uint32(v), isa.ClearUAVUint, values)
}

func (d *immediateContext) ClearUnorderedAccessViewFloat(_ ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]float32) {
	d.busy()
	d.clearUAV(d, uint32(v), isa.ClearUAVFloat, floatWords(values))
}

func (d *immediateContext) CopyStructureCount(_ ddi.HDEVICE, dst ddi.HRESOURCE, offset uint32, src ddi.HUNORDEREDACCESSVIEW) {
	d.busy()
	d.copyStructureCount(d, d.resource(dst), offset, uint32(src))
}

func (c *deferredContext) ClearUnorderedAccessViewUint(_ ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]uint32) {
	if !c.stopped("ClearUnorderedAccessViewUint") {
		c.clearUAV(c, c.icHandle(uint32(v)), isa.ClearUAVUint, values)
	}
}

func (c *deferredContext) ClearUnorderedAccessViewFloat(_ ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]float32) {
	if !c.stopped("ClearUnorderedAccessViewFloat") {
		c.clearUAV(c, c.icHandle(uint32(v)), isa.ClearUAVFloat, floatWords(values))
	}
}

func (c *deferredContext) CopyStructureCount(_ ddi.HDEVICE, dst ddi.HRESOURCE, offset uint32, src ddi.HUNORDEREDACCESSVIEW) {
	if !c.stopped("CopyStructureCount") {
		c.copyStructureCount(c, c.resource(ddi.HRESOURCE(c.icHandle(uint32(dst)))), offset, c.icHandle(uint32(src)))
	}
}

func floatWords(v [4]float32) [4]uint32 {
	return [4]uint32{math.Float32bits(v[0]), math.Float32bits(v[1]), math.Float32bits(v[2]), math.Float32bits(v[3])}
}

// clearUAV encodes CLEAR_UAV of view h (the immediate context's handle).
func (c *context) clearUAV(rec recorder, h uint32, mode uint32, values [4]uint32) {
	v, r := c.viewRes(h)
	if v == nil || r == nil || v.uav == nil {
		return
	}
	u := v.uav
	rec.ensure(17, 1)
	c.cmd.ClearUAV(rec.ref(r, true, u.offset), u.kind, u.fm, u.bytes, u.stride, u.elements, u.height, u.pitch, mode, values, max(u.depth, 1), u.slicePitch)
}

// copyStructureCount copies view h's hidden counter to dst at offset.
func (c *context) copyStructureCount(rec recorder, dst *resource, offset uint32, h uint32) {
	v, _ := c.viewRes(h)
	if dst == nil || v == nil || v.uav == nil || v.uav.counter == nil {
		return
	}
	rec.ensure(6, 2)
	c.cmd.Copy(rec.ref(dst, true, offset), rec.ref(v.uav.counter, false, 0), 4)
}
