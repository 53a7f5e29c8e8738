package d3d11

import (
	"fmt"
	"slices"

	"d3dsim/core/ddi"
)

// The output merger's unordered access views
// ("ID3D11DeviceContext::OMSetRenderTargetsAndUnorderedAccessViews"): a
// pixel shader's u# registers, bound with the render targets through
// pfnSetRenderTargets (ddi.OutputMergerUAVs). The render targets and the
// views share the output merger's eight slots
// (D3D11_PS_CS_UAV_REGISTER_COUNT): the views start at UAVStartSlot, at or
// after the last render target. NumRTVs
// D3D11_KEEP_RENDER_TARGETS_AND_DEPTH_STENCIL keeps the render targets and
// the depth-stencil view, NumUAVs D3D11_KEEP_UNORDERED_ACCESS_VIEWS the
// views; otherwise every slot the call does not name is unbound.
// UAVInitialCounts set the hidden counters of append, consume and counter
// views (-1 keeps one). A resource bound for input is unbound there first,
// as for CSSetUnorderedAccessViews ("Forcing to NULL").

// omContext is the context's driver kind for the output merger's views (a
// deferred context of a driver without command lists records them:
// emulated_more.go).
func (c *DeviceContext) omContext(call, obj string) (driverContext, error) {
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

// OMSetRenderTargetsAndUnorderedAccessViews binds numRTVs render targets
// (rtvs, numRTVs long) and dsv, and numUAVs views (uavs) from slot
// uavStart with their initial counts (nil: every counter kept). numRTVs or
// numUAVs ddi.KeepRenderTargetsAndDepthStencil / KeepUnorderedAccessViews
// leave those bound as they are.
func (c *DeviceContext) OMSetRenderTargetsAndUnorderedAccessViews(numRTVs uint32, rtvs []*View, dsv *View, uavStart, numUAVs uint32, uavs []*View, counts []uint32) error {
	const call = "OMSetRenderTargetsAndUnorderedAccessViews"
	keepRT, keepUAV := numRTVs == ddi.KeepRenderTargetsAndDepthStencil, numUAVs == ddi.KeepUnorderedAccessViews
	if keepRT {
		rtvs, dsv = nil, nil
	}
	if keepUAV {
		uavs, counts = nil, nil
	}
	var objs []Object
	for _, v := range rtvs {
		objs = append(objs, v)
	}
	objs = append(objs, dsv)
	for _, v := range uavs {
		objs = append(objs, v)
	}
	if stop, err := c.checkArgs(call, objs...); stop {
		return err
	}
	obj := firstName(append(slices.Clone(rtvs), append([]*View{dsv}, uavs...)...))
	dc, err := c.omContext(call, obj)
	if err != nil {
		return err
	}
	if err := c.checkOMUAVs(call, numRTVs, rtvs, dsv, uavStart, numUAVs, uavs, counts); err != nil {
		return err
	}
	if !keepRT {
		if err := c.checkRenderTargetsFor(call, rtvs, dsv); err != nil {
			return err
		}
		if err := c.unbindInputsOf(rtvs, dsv); err != nil {
			return err
		}
	}
	// The hazard: a resource written through a view is not read through
	// one bound for input at the same time.
	for i, v := range uavs {
		if v == nil {
			continue
		}
		for _, st := range []Stage{StageVS, StagePS, StageCS} {
			for slot, srv := range c.stages[st].srv {
				if srv != nil && srv.Res == v.Res {
					if c.dev.debug {
						c.dev.message(call, v.name, fmt.Sprintf("D3D11 WARNING: %s: Resource being set to OM UnorderedAccessView slot %d is still bound on input (%s shader resource slot %d)! Forcing to NULL",
							call, int(uavStart)+i, st, slot))
					}
					if err := c.SetShaderResources(st, uint32(slot), []*View{nil}); err != nil {
						return err
					}
				}
			}
		}
	}
	rtvs, uavs, counts = slices.Clone(rtvs), slices.Clone(uavs), slices.Clone(counts)
	if ok, err := c.emulate(call, func(ic *DeviceContext) error {
		return ic.OMSetRenderTargetsAndUnorderedAccessViews(numRTVs, rtvs, dsv, uavStart, numUAVs, uavs, counts)
	}, func() {
		if !keepRT {
			c.bindRenderTargets(rtvs, dsv)
		}
		if !keepUAV {
			for i := range c.omUAV {
				var v *View
				if k := i - int(uavStart); k >= 0 && k < len(uavs) {
					v = uavs[k]
				}
				bind(c, &c.omUAV[i], v, nilView)
			}
		}
	}, anys(objs)...); ok {
		return err
	}
	return dc.simple(call, obj, objs, func(w ddiCall) {
		if keepRT {
			rtvs, dsv = c.renderTargets(), c.dsv
		} else {
			c.bindRenderTargets(rtvs, dsv)
		}
		hs := make([]ddi.HRENDERTARGETVIEW, len(rtvs))
		for i, v := range rtvs {
			hs[i] = ddi.HRENDERTARGETVIEW(c.viewH(v))
		}
		start := uavStart
		if keepUAV {
			start, uavs, counts = 0, slices.Clone(c.omUAV[:]), nil
		} else {
			for i := range c.omUAV {
				var v *View
				if k := i - int(uavStart); k >= 0 && k < len(uavs) {
					v = uavs[k]
				}
				bind(c, &c.omUAV[i], v, nilView)
			}
		}
		us := make([]ddi.HUNORDEREDACCESSVIEW, len(uavs))
		for i, v := range uavs {
			us[i] = ddi.HUNORDEREDACCESSVIEW(c.viewH(v))
		}
		if counts == nil {
			counts = make([]uint32, len(uavs))
			for i := range counts {
				counts[i] = ddi.NoInitialCount
			}
		}
		w.SetRenderTargetsAndUAVs(c.h, hs, ddi.HDEPTHSTENCILVIEW(c.viewH(dsv)), start, us, counts)
	})
}

// checkOMUAVs is the reference page's and the debug layer's validation of
// the counts, the slots and the views.
func (c *DeviceContext) checkOMUAVs(call string, numRTVs uint32, rtvs []*View, dsv *View, uavStart, numUAVs uint32, uavs []*View, counts []uint32) error {
	keepRT, keepUAV := numRTVs == ddi.KeepRenderTargetsAndDepthStencil, numUAVs == ddi.KeepUnorderedAccessViews
	nrt := uint32(len(c.renderTargets()))
	if !keepRT {
		switch {
		case numRTVs > maxRTVs:
			return c.dropCall(call, "", "NumRTVs %d is more than the %d render targets (D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT)", numRTVs, maxRTVs)
		case int(numRTVs) != len(rtvs):
			return c.dropCall(call, "", "NumRTVs %d, but ppRenderTargetViews has %d views", numRTVs, len(rtvs))
		}
		nrt = numRTVs
	}
	if keepUAV {
		// The views kept must stay after the render targets.
		for i, v := range c.omUAV {
			if v != nil && uint32(i) < nrt {
				return c.dropCall(call, v.name, "render target slot %d: unordered access view %s is bound there (D3D11_KEEP_UNORDERED_ACCESS_VIEWS): the render targets and the views share the output merger's slots", i, v.name)
			}
		}
		return nil
	}
	switch {
	case int(numUAVs) != len(uavs):
		return c.dropCall(call, "", "NumUAVs %d, but ppUnorderedAccessViews has %d views", numUAVs, len(uavs))
	case numUAVs > 0 && uint64(uavStart)+uint64(numUAVs) > psUAVSlots:
		return c.dropCall(call, "", "UAVStartSlot %d + NumUAVs %d is more than the %d slots (D3D11_PS_CS_UAV_REGISTER_COUNT)", uavStart, numUAVs, psUAVSlots)
	case numUAVs > 0 && uavStart < nrt:
		return c.dropCall(call, "", "UAVStartSlot %d is below the %d render targets: the views take the output merger's slots after the render targets (UAVStartSlot at least NumRTVs)", uavStart, nrt)
	case counts != nil && len(counts) != len(uavs):
		return c.dropCall(call, "", "pUAVInitialCounts has %d entries, NumUAVs is %d", len(counts), len(uavs))
	}
	out := rtvs
	if keepRT {
		out = c.renderTargets()
		dsv = c.dsv
	}
	for i, v := range uavs {
		if v == nil {
			continue
		}
		if v.ViewKind != ddi.ViewUAV {
			return c.dropCall(call, v.name, "ppUnorderedAccessViews[%d]: %s is not an unordered access view", i, v.name)
		}
		for j, r := range out {
			if r != nil && r.Res == v.Res {
				return c.dropCall(call, v.name, "ppUnorderedAccessViews[%d] and render target slot %d are both views of resource %s: a resource is written through one binding at a time", i, j, v.Res.name)
			}
		}
		if dsv != nil && dsv.Res == v.Res {
			return c.dropCall(call, v.name, "ppUnorderedAccessViews[%d] and the depth-stencil view are both views of resource %s", i, v.Res.name)
		}
	}
	return nil
}

// psUAVSlots is D3D11_PS_CS_UAV_REGISTER_COUNT at feature level 11_0: the
// output merger's slots, render targets and views together.
const psUAVSlots = csUAVSlots

// OMGetRenderTargetsAndUnorderedAccessViews returns numRTVs render
// targets, the depth-stencil view and numUAVs views from uavStart.
func (c *DeviceContext) OMGetRenderTargetsAndUnorderedAccessViews(numRTVs, uavStart, numUAVs uint32) ([]*View, *View, []*View, error) {
	const call = "OMGetRenderTargetsAndUnorderedAccessViews"
	if numRTVs > maxRTVs {
		return nil, nil, nil, c.dropCall(call, "", "NumRTVs %d is more than the %d render targets", numRTVs, maxRTVs)
	}
	if uint64(uavStart)+uint64(numUAVs) > psUAVSlots {
		return nil, nil, nil, c.dropCall(call, "", "UAVStartSlot %d + NumUAVs %d is more than the %d slots", uavStart, numUAVs, psUAVSlots)
	}
	rtvs := slices.Clone(c.rtv[:numRTVs])
	dsv := c.dsv
	uavs := slices.Clone(c.omUAV[uavStart : uavStart+numUAVs])
	c.got(call, gotObjects(append(append(slices.Clone(rtvs), dsv), uavs...)))
	return rtvs, dsv, uavs, nil
}

// clearOMUAVs is ClearState's part: the views unbound, through
// pfnSetRenderTargets with none.
func (c driverContext) clearOMUAVs(u any) {
	for i := range c.omUAV {
		bind(c.DeviceContext, &c.omUAV[i], nil, nilView)
	}
	if m, ok := u.(ddi.OutputMergerUAVs); ok {
		m.SetRenderTargetsAndUAVs(c.h, nil, 0, 0, nil, nil)
	}
}

// SetRenderTargetsAndUAVs is pfnSetRenderTargets with the views; a driver
// without them (a test double) does nothing.
func (w ddiCall) SetRenderTargetsAndUAVs(h ddi.HDEVICE, rtvs []ddi.HRENDERTARGETVIEW, dsv ddi.HDEPTHSTENCILVIEW, start uint32, uavs []ddi.HUNORDEREDACCESSVIEW, counts []uint32) {
	sp := w.enter("SetRenderTargets")
	if u, ok := w.umd.(ddi.OutputMergerUAVs); ok {
		u.SetRenderTargetsAndUAVs(h, rtvs, dsv, start, uavs, counts)
	} else {
		w.umd.SetRenderTargets(h, rtvs, dsv)
	}
	sp.end(nil)
}

// restoreOMUAVs binds a saved state's views again (restore), when it had
// any: from the first to the last, the render targets kept.
func (c *DeviceContext) restoreOMUAVs(saved [psUAVSlots]*View) {
	first, last := -1, -1
	for i, v := range saved {
		if v != nil && v.Alive() {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return
	}
	views := slices.Clone(saved[first : last+1])
	for i, v := range views {
		if v != nil && !v.Alive() {
			views[i] = nil
		}
	}
	c.OMSetRenderTargetsAndUnorderedAccessViews(ddi.KeepRenderTargetsAndDepthStencil, nil, nil, uint32(first), uint32(len(views)), views, nil)
}

// The KEEP values and the scenario language's Keep= flags, for the layers
// above (ddi's).
const (
	KeepRenderTargetsAndDepthStencil = ddi.KeepRenderTargetsAndDepthStencil
	KeepUnorderedAccessViews         = ddi.KeepUnorderedAccessViews
	OMKeepTargets                    = ddi.OMKeepTargets
	OMKeepViews                      = ddi.OMKeepViews
)
