package d3d11

import (
	"d3dsim/core/ddi"
)

// Clearing an unordered access view and copying its hidden counter:
// ClearUnorderedAccessViewUint, ClearUnorderedAccessViewFloat and
// CopyStructureCount, each through its DDI (ddi.UAVClears). As the
// reference pages say, the Uint clear copies the low bits of each value to
// the matching channel with no conversion, on any view (a raw or
// structured buffer's takes the first value for every 32-bit word); the
// Float clear converts, for FLOAT, UNORM and SNORM views only: on any
// other the call is invalid and does not reach the driver.

// clearView checks that v is an unordered access view of this context's
// device.
func (c *DeviceContext) clearView(call string, v *View) error {
	if v == nil || v.ViewKind != ddi.ViewUAV {
		return c.dropCall(call, objName(v), "pUnorderedAccessView: %s is not an unordered access view", objName(v))
	}
	return nil
}

// ClearUnorderedAccessViewUint clears every element of v to values,
// bit-precise.
func (c *DeviceContext) ClearUnorderedAccessViewUint(v *View, values [4]uint32) error {
	const call = "ClearUnorderedAccessViewUint"
	if stop, err := c.checkArgs(call, v); stop {
		return err
	}
	dc, err := c.omContext(call, objName(v))
	if err != nil {
		return err
	}
	if err := c.clearView(call, v); err != nil {
		return err
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.ClearUnorderedAccessViewUint(v, values) }, nil, v); ok {
		return err
	}
	return dc.simple(call, v.name, []Object{v}, func(w ddiCall) {
		w.ClearUnorderedAccessViewUint(c.h, ddi.HUNORDEREDACCESSVIEW(c.viewH(v)), values)
	})
}

// ClearUnorderedAccessViewFloat clears every element of a FLOAT, UNORM or
// SNORM view to values, converted to its format.
func (c *DeviceContext) ClearUnorderedAccessViewFloat(v *View, values [4]float32) error {
	const call = "ClearUnorderedAccessViewFloat"
	if stop, err := c.checkArgs(call, v); stop {
		return err
	}
	dc, err := c.omContext(call, objName(v))
	if err != nil {
		return err
	}
	if err := c.clearView(call, v); err != nil {
		return err
	}
	switch structured := v.Res.Kind == KindBuffer && v.Res.Desc.MiscFlags.Has(ddi.ResourceMiscBufferStructured); {
	case v.UAV.Flags&ddi.BufferUAVRaw != 0:
		return c.dropCall(call, v.name, "%s is a raw view: ClearUnorderedAccessViewFloat is for FLOAT, UNORM and SNORM views (ClearUnorderedAccessViewUint clears a raw view's words)", v.name)
	case structured:
		return c.dropCall(call, v.name, "%s is a structured view: ClearUnorderedAccessViewFloat is for FLOAT, UNORM and SNORM views (ClearUnorderedAccessViewUint clears a structured view's words)", v.name)
	default:
		switch k := ddi.Describe(v.Format).Kind; k {
		case ddi.KindFloat, ddi.KindUNorm, ddi.KindSNorm:
		default:
			return c.dropCall(call, v.name, "%s is a %s view: ClearUnorderedAccessViewFloat is for FLOAT, UNORM and SNORM views (ClearUnorderedAccessViewUint clears the others)", v.name, formatName(v.Format))
		}
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.ClearUnorderedAccessViewFloat(v, values) }, nil, v); ok {
		return err
	}
	return dc.simple(call, v.name, []Object{v}, func(w ddiCall) {
		w.ClearUnorderedAccessViewFloat(c.h, ddi.HUNORDEREDACCESSVIEW(c.viewH(v)), values)
	})
}

// CopyStructureCount copies src's hidden counter (a structured buffer's
// view created with D3D11_BUFFER_UAV_FLAG_APPEND or COUNTER) to dst at
// offset, a multiple of 4 with the 4 bytes inside dst.
func (c *DeviceContext) CopyStructureCount(dst *Resource, offset uint32, src *View) error {
	const call = "CopyStructureCount"
	if stop, err := c.checkArgs(call, dst, src); stop {
		return err
	}
	dc, err := c.omContext(call, objName(src))
	if err != nil {
		return err
	}
	switch {
	case dst == nil || dst.Kind != KindBuffer:
		return c.dropCall(call, objName(dst), "pDstBuffer: %s is not a buffer", objName(dst))
	case offset%4 != 0 || uint64(offset)+4 > uint64(dst.Desc.Width):
		return c.dropCall(call, dst.name, "DstAlignedByteOffset %d: a multiple of 4, with the count's 4 bytes inside %s (%d bytes)", offset, dst.name, dst.Desc.Width)
	case src == nil || src.ViewKind != ddi.ViewUAV:
		return c.dropCall(call, objName(src), "pSrcView: %s is not an unordered access view", objName(src))
	case src.UAV.Flags&(ddi.BufferUAVAppend|ddi.BufferUAVCounter) == 0:
		return c.dropCall(call, src.name, "pSrcView: %s has no hidden counter (a structured buffer's view with D3D11_BUFFER_UAV_FLAG_APPEND or COUNTER has one)", src.name)
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.CopyStructureCount(dst, offset, src) }, nil, dst, src); ok {
		return err
	}
	return dc.simple(call, src.name, []Object{dst, src}, func(w ddiCall) {
		w.CopyStructureCount(c.h, c.resH(dst), offset, ddi.HUNORDEREDACCESSVIEW(c.viewH(src)))
	})
}

// The DDIs, traced with their names; a driver without them does nothing.

func (w ddiCall) uavClears() ddi.UAVClears {
	u, _ := w.umd.(ddi.UAVClears)
	return u
}

func (w ddiCall) ClearUnorderedAccessViewUint(h ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]uint32) {
	sp := w.enter("ClearUnorderedAccessViewUint")
	if u := w.uavClears(); u != nil {
		u.ClearUnorderedAccessViewUint(h, v, values)
	}
	sp.end(nil)
}

func (w ddiCall) ClearUnorderedAccessViewFloat(h ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW, values [4]float32) {
	sp := w.enter("ClearUnorderedAccessViewFloat")
	if u := w.uavClears(); u != nil {
		u.ClearUnorderedAccessViewFloat(h, v, values)
	}
	sp.end(nil)
}

func (w ddiCall) CopyStructureCount(h ddi.HDEVICE, dst ddi.HRESOURCE, offset uint32, src ddi.HUNORDEREDACCESSVIEW) {
	sp := w.enter("CopyStructureCount")
	if u := w.uavClears(); u != nil {
		u.CopyStructureCount(h, dst, offset, src)
	}
	sp.end(nil)
}
