package d3d11

import (
	"slices"

	"d3dsim/core/ddi"
)

// The compute stage: CreateComputeShader (create.go), unordered access
// views (CreateUnorderedAccessView: CreateViewDesc with ddi.ViewUAV, checked
// here), CSSetShader, CS*SetConstantBuffers/ShaderResources/Samplers (the
// stages' shared code, stages.go), CSSetUnorderedAccessViews, Dispatch and
// DispatchIndirect, each through its DDI (pfnCsSetShader ... pfnDispatch,
// ddi.Compute). The immediate context runs them and a deferred context
// records them like draws; the runtime's emulation of command lists (a
// driver without them) refuses them by name.

// csUAVSlots is D3D11_PS_CS_UAV_REGISTER_COUNT at feature level 11_0.
const csUAVSlots = 8

// maxThreadGroups is D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION.
const maxThreadGroups = 65535

// checkUAVDesc checks an unordered access view's description against its
// resource ("D3D11_UNORDERED_ACCESS_VIEW_DESC structure", "D3D11_BUFFER_UAV
// structure"): a buffer's view is BUFFER with elements inside it, raw
// (R32_TYPELESS over BUFFER_ALLOW_RAW_VIEWS), structured (UNKNOWN over
// BUFFER_STRUCTURED, the only kind with APPEND or COUNTER) or typed; a 2D
// texture's is TEXTURE2D of one mip slice in a format with typed UAV
// support. Other dimensions the simulated GPU has no UAV for.
func (d *Device) checkUAVDesc(api, name string, res *Resource, desc *ViewDesc) error {
	u := &desc.UAV
	if res.Kind == KindBuffer {
		if u.Dimension != ddi.UAVDimBuffer {
			return d.invalid(api, name, "ViewDimension %d: a view of buffer %s is D3D11_UAV_DIMENSION_BUFFER", u.Dimension, res.name)
		}
		if u.Flags&^(ddi.BufferUAVRaw|ddi.BufferUAVAppend|ddi.BufferUAVCounter) != 0 {
			return d.invalid(api, name, "Buffer.Flags %#x: D3D11_BUFFER_UAV_FLAG has RAW, APPEND and COUNTER", u.Flags)
		}
		structured := res.Desc.MiscFlags.Has(ddi.ResourceMiscBufferStructured)
		if u.Flags&(ddi.BufferUAVAppend|ddi.BufferUAVCounter) != 0 {
			switch {
			case !structured:
				return d.invalid(api, name, "Buffer.Flags APPEND and COUNTER are for a structured buffer, and %s is not one", res.name)
			case u.Flags&ddi.BufferUAVAppend != 0 && u.Flags&ddi.BufferUAVCounter != 0:
				return d.invalid(api, name, "Buffer.Flags: APPEND and COUNTER exclude each other")
			}
		}
		var elem uint32
		switch {
		case u.Flags&ddi.BufferUAVRaw != 0, structured:
			var err error
			if elem, err = d.bufferViewElem(api, name, res, desc.Format, u.Flags&ddi.BufferUAVRaw != 0); err != nil {
				return err
			}
		default:
			if msg := d.typedUAVFormat(desc.Format); msg != "" {
				return d.invalid(api, name, "Format: %s", msg)
			}
			elem = uint32(ddi.Describe(desc.Format).Bytes)
		}
		if elem == 0 || u.NumElements == 0 || uint64(u.FirstElement)+uint64(u.NumElements) > uint64(res.Desc.Width/elem) {
			return d.invalid(api, name, "Buffer.FirstElement %d, NumElements %d: %s holds %d elements of %d bytes", u.FirstElement, u.NumElements, res.name, res.Desc.Width/max(elem, 1), elem)
		}
		return nil
	}
	if u.Flags != 0 || u.FirstElement != 0 || u.NumElements != 0 {
		return d.invalid(api, name, "Buffer.FirstElement, NumElements and Flags are a buffer view's")
	}
	if err := d.checkUAVTexture(api, name, res, u); err != nil {
		return err
	}
	if desc.Format == ddi.FormatUnknown {
		desc.Format = res.Desc.Format
	}
	if !ddi.SameFamily(res.Desc.Format, desc.Format) {
		return d.invalid(api, name, "Format: %s is not of the family of resource %s (%s)", formatName(desc.Format), res.name, formatName(res.Desc.Format))
	}
	if msg := d.typedUAVFormat(desc.Format); msg != "" {
		return d.invalid(api, name, "Format: %s", msg)
	}
	return nil
}

// typedUAVFormat says why f cannot be a typed UAV's format ("" when it
// can): typed, not block-compressed, with TYPED_UNORDERED_ACCESS_VIEW
// support ("Format support for Direct3D feature level 11.0 hardware").
func (d *Device) typedUAVFormat(f ddi.Format) string {
	fd := ddi.Describe(f)
	switch {
	case f == ddi.FormatUnknown || fd.Name == "":
		return "a typed view names a format: UNKNOWN is a structured buffer's"
	case fd.Typeless:
		return formatName(f) + " is typeless: a typed view names a typed format"
	case fd.Block == 4 || (ddi.Required(f)|ddi.Optional(f))&ddi.SupportTypedUnorderedAccess == 0:
		return formatName(f) + " has no typed unordered-access support"
	}
	return ""
}

// computeContext is the context's driver kind for the compute calls (a
// deferred context of a driver without command lists records them:
// emulated_more.go).
func (c *DeviceContext) computeContext(call, obj string) (driverContext, error) {
	switch k := c.contextKind.(type) {
	case *immediateContext:
		return k.driverContext, nil
	case *deferredContext:
		return k.driverContext, nil
	}
	if dc, ok := c.emulated(); ok {
		return dc, nil // recorded (emulated_more.go)
	}
	return driverContext{}, c.dropCall(call, obj, "%s: the context is neither an immediate nor a deferred context", call)
}

// CSSetShader binds a compute shader (nil unbinds it).
func (c *DeviceContext) CSSetShader(s *Shader) error {
	if stop, err := c.checkArgs("CSSetShader", s); stop {
		return err
	}
	dc, err := c.computeContext("CSSetShader", objName(s))
	if err != nil {
		return err
	}
	if s != nil && s.Stage != "cs" {
		return c.dropCall("CSSetShader", s.name, "pComputeShader: %s is a %s shader, not a compute shader", s.name, s.Stage)
	}
	if ok, err := c.emulate("CSSetShader", func(ic *DeviceContext) error { return ic.CSSetShader(s) }, func() { bind(c, &c.cs, s, nilShader) }, s); ok {
		return err
	}
	return dc.simple("CSSetShader", objName(s), []Object{s}, func(w ddiCall) {
		bind(c, &c.cs, s, nilShader)
		w.CsSetShader(c.h, c.shH(s))
	})
}

// CSSetUnorderedAccessViews binds views to u# slots from start, with their
// UAVInitialCounts (nil: every counter kept; ddi.NoInitialCount, D3D11's
// -1, keeps one). A resource bound as a shader resource view on any stage
// is unbound there first, as the runtime does ("Resource being set to CS
// UnorderedAccessView slot N is still bound on input! Forcing to NULL").
func (c *DeviceContext) CSSetUnorderedAccessViews(start uint32, views []*View, counts []uint32) error {
	const call = "CSSetUnorderedAccessViews"
	objs := make([]Object, 0, len(views))
	for _, v := range views {
		objs = append(objs, v)
	}
	if stop, err := c.checkArgs(call, objs...); stop {
		return err
	}
	obj := firstName(views)
	dc, err := c.computeContext(call, obj)
	if err != nil {
		return err
	}
	switch {
	case uint64(start)+uint64(len(views)) > csUAVSlots:
		return c.dropCall(call, obj, "StartSlot %d + NumUAVs %d is more than the %d slots (D3D11_PS_CS_UAV_REGISTER_COUNT)", start, len(views), csUAVSlots)
	case counts != nil && len(counts) != len(views):
		return c.dropCall(call, obj, "pUAVInitialCounts has %d entries, NumUAVs is %d", len(counts), len(views))
	}
	for i, v := range views {
		if v != nil && v.ViewKind != ddi.ViewUAV {
			return c.dropCall(call, v.name, "ppUnorderedAccessViews[%d]: %s is not an unordered access view", i, v.name)
		}
	}
	// The hazard: a resource written through a UAV is not read through a
	// view bound for input at the same time.
	for _, v := range views {
		if v == nil {
			continue
		}
		for _, st := range []Stage{StageVS, StagePS, StageCS} {
			for slot, srv := range c.stages[st].srv {
				if srv != nil && srv.Res == v.Res {
					if c.dev.debug {
						c.dev.message(call, v.name, "D3D11 WARNING: "+call+": Resource being set to CS UnorderedAccessView is still bound on input ("+
							st.String()+" shader resource slot "+itoa(slot)+")! Forcing to NULL")
					}
					if err := c.SetShaderResources(st, uint32(slot), []*View{nil}); err != nil {
						return err
					}
				}
			}
		}
	}
	views, counts = slices.Clone(views), slices.Clone(counts)
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.CSSetUnorderedAccessViews(start, views, counts) }, func() {
		for i, v := range views {
			bind(c, &c.uav[int(start)+i], v, nilView)
		}
	}, anys(views)...); ok {
		return err
	}
	return dc.simple(call, obj, objs, func(w ddiCall) {
		hs := make([]ddi.HUNORDEREDACCESSVIEW, len(views))
		for i, v := range views {
			bind(c, &c.uav[int(start)+i], v, nilView)
			hs[i] = ddi.HUNORDEREDACCESSVIEW(c.viewH(v))
		}
		if counts == nil {
			counts = make([]uint32, len(views))
			for i := range counts {
				counts[i] = ddi.NoInitialCount
			}
		}
		w.CsSetUnorderedAccessViews(c.h, start, hs, counts)
	})
}

// Dispatch runs x*y*z thread groups of the bound compute shader. A count
// past 65535 is dropped, as the debug layer says; with no compute shader
// bound it does nothing.
func (c *DeviceContext) Dispatch(x, y, z uint32) error {
	const call = "Dispatch"
	dc, err := c.computeContext(call, "")
	if err != nil {
		return err
	}
	if x > maxThreadGroups || y > maxThreadGroups || z > maxThreadGroups {
		return c.dropCall(call, "", "ThreadGroupCountX %d, Y %d, Z %d: each at most %d (D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION)", x, y, z, maxThreadGroups)
	}
	if c.dev.debug && c.cs == nil {
		c.dev.message(call, "", "D3D11 WARNING: Dispatch with no compute shader bound does nothing")
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.Dispatch(x, y, z) }, nil); ok {
		return err
	}
	dc.checkSampleCounts(call, StageCS) // (mscount.go)
	return dc.simple(call, "", nil, func(w ddiCall) { w.Dispatch(c.h, x, y, z) })
}

// DispatchIndirect dispatches with the three group counts in buf at
// offset, read when the GPU runs it (buf created with DRAWINDIRECT_ARGS).
func (c *DeviceContext) DispatchIndirect(buf *Resource, offset uint32) error {
	const call = "DispatchIndirect"
	if stop, err := c.checkArgs(call, buf); stop {
		return err
	}
	dc, err := c.computeContext(call, objName(buf))
	if err != nil {
		return err
	}
	if err := c.checkIndirect(call, buf, offset, 12); err != nil {
		return err
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error { return ic.DispatchIndirect(buf, offset) }, nil, buf); ok {
		return err
	}
	return dc.simple(call, buf.name, []Object{buf}, func(w ddiCall) { w.DispatchIndirect(c.h, c.resH(buf), offset) })
}

// CSGetShader is the bound compute shader (nil for none), with a
// reference the caller releases, as every getter's.
func (c *DeviceContext) CSGetShader() *Shader {
	s := c.cs
	c.got("CSGetShader", gotObjects([]*Shader{s}))
	return s
}

// CSGetUnorderedAccessViews returns n views from slot start, each with a
// reference the caller releases.
func (c *DeviceContext) CSGetUnorderedAccessViews(start, n uint32) []*View {
	out := make([]*View, 0, n)
	for i := start; i < start+n && i < csUAVSlots; i++ {
		out = append(out, c.uav[i])
	}
	c.got("CSGetUnorderedAccessViews", gotObjects(out))
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

// The DDIs (ddi.Compute), traced like the others; a driver without a
// compute stage does nothing.

func (w ddiCall) compute() ddi.Compute {
	u, _ := w.umd.(ddi.Compute)
	return u
}

func (w ddiCall) CreateUnorderedAccessView(h ddi.HDEVICE, a *ddi.CreateViewArgs, v ddi.HUNORDEREDACCESSVIEW, rt uint32) error {
	sp := w.enter("CreateUnorderedAccessView")
	w.watchErrors()
	if u := w.compute(); u != nil {
		u.CreateUnorderedAccessView(h, a, v, rt)
	}
	err := w.reportedError("CreateUnorderedAccessView")
	sp.end(err)
	return err
}

func (w ddiCall) DestroyUnorderedAccessView(h ddi.HDEVICE, v ddi.HUNORDEREDACCESSVIEW) {
	sp := w.enter("DestroyUnorderedAccessView")
	if u := w.compute(); u != nil {
		u.DestroyUnorderedAccessView(h, v)
	}
	sp.end(nil)
}

func (w ddiCall) CreateComputeShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateComputeShader")
	w.watchErrors()
	if u := w.compute(); u != nil {
		u.CreateComputeShader(h, a, s, rt)
	}
	err := w.reportedError("CreateComputeShader")
	sp.end(err)
	return err
}

func (w ddiCall) CsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	sp := w.enter("CsSetShader")
	if u := w.compute(); u != nil {
		u.CsSetShader(h, s)
	}
	sp.end(nil)
}

func (w ddiCall) CsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("CsSetConstantBuffers")
	if u := w.compute(); u != nil {
		u.CsSetConstantBuffers(h, start, bufs)
	}
	sp.end(nil)
}

func (w ddiCall) CsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("CsSetShaderResources")
	if u := w.compute(); u != nil {
		u.CsSetShaderResources(h, start, views)
	}
	sp.end(nil)
}

func (w ddiCall) CsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("CsSetSamplers")
	if u := w.compute(); u != nil {
		u.CsSetSamplers(h, start, samplers)
	}
	sp.end(nil)
}

func (w ddiCall) CsSetUnorderedAccessViews(h ddi.HDEVICE, start uint32, views []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	sp := w.enter("CsSetUnorderedAccessViews")
	if u := w.compute(); u != nil {
		u.CsSetUnorderedAccessViews(h, start, views, counts)
	}
	sp.end(nil)
}

func (w ddiCall) Dispatch(h ddi.HDEVICE, x, y, z uint32) {
	sp := w.enter("Dispatch")
	if u := w.compute(); u != nil {
		u.Dispatch(h, x, y, z)
	}
	sp.end(nil)
}

func (w ddiCall) DispatchIndirect(h ddi.HDEVICE, buf ddi.HRESOURCE, offset uint32) {
	sp := w.enter("DispatchIndirect")
	if u := w.compute(); u != nil {
		u.DispatchIndirect(h, buf, offset)
	}
	sp.end(nil)
}
