package d3d11

import "slices"

// The output merger's read-write hazard: a resource is not bound for
// output (a render target or depth-stencil view) and for input (a shader
// resource view) at once. The runtime resolves it as D3D11 does, by the
// call that binds last: OMSetRenderTargets unbinds the shader resource
// views of the resources it binds, on every stage ("Resource being set to
// OM DepthStencil is still bound on input! Forcing PS shader resource slot
// 0 to NULL", DEVICE_OMSETRENDERTARGETS_HAZARD), and *SetShaderResources
// binds NULL in place of a view of a resource bound for output ("Resource
// being set to PS shader resource slot 0 is still bound on output! Forcing
// to NULL", DEVICE_PSSETSHADERRESOURCES_HAZARD). A shadow map is the usual
// case: its depth-stencil view is bound for the first pass and its shader
// resource view for the second.

// unbindInputsOf unbinds, before the output merger binds them, every shader
// resource view of the resources of rtvs and dsv, through the stage's
// *SetShaderResources (in the trace and the driver's DDIs, as the runtime
// makes the calls).
func (c *DeviceContext) unbindInputsOf(rtvs []*View, dsv *View) error {
	for i, v := range append(slices.Clone(rtvs), dsv) {
		if v == nil {
			continue
		}
		what := "OM DepthStencil"
		if i < len(rtvs) {
			what = "OM RenderTarget slot " + itoa(i)
		}
		for _, st := range []Stage{StageVS, StagePS, StageCS} {
			t := &c.stages[st]
			for slot, srv := range t.srv[:t.srvN] { // (below the mark: no copy of the 128 slots, nothing bound above it)
				if srv == nil || !viewsOverlap(srv, v) {
					continue
				}
				if c.dev.debug {
					c.dev.message("OMSetRenderTargets", v.name, "D3D11 WARNING: OMSetRenderTargets: Resource being set to "+what+
						" is still bound on input! Forcing "+st.String()+" shader resource slot "+itoa(slot)+" to NULL")
				}
				if err := c.SetShaderResources(st, uint32(slot), []*View{nil}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// outputsDropped returns views with NULL in place of each view of a
// resource bound as a render target or the depth-stencil view.
func (c *DeviceContext) outputsDropped(stage Stage, start uint32, views []*View) []*View {
	out := views
	for i, v := range views {
		if v == nil || !c.boundForOutput(v) {
			continue
		}
		if c.dev.debug {
			c.dev.message(stage.setSRVs(), v.name, "D3D11 WARNING: "+stage.setSRVs()+": Resource being set to "+stage.String()+
				" shader resource slot "+itoa(int(start)+i)+" is still bound on output! Forcing to NULL")
		}
		if &out[0] == &views[0] {
			out = slices.Clone(views)
		}
		out[i] = nil
	}
	return out
}

// boundForOutput reports whether a subresource of in is bound as a render
// target, the depth-stencil view or a pixel shader's UAV (rtvdesc.go: a
// shader may read mip 0 while the output merger writes mip 1).
func (c *DeviceContext) boundForOutput(in *View) bool {
	if c.dsv != nil && viewsOverlap(c.dsv, in) {
		return true
	}
	for _, v := range c.rtv {
		if v != nil && viewsOverlap(v, in) {
			return true
		}
	}
	for _, v := range c.omUAV {
		if v != nil && v.Res == in.Res {
			return true // a pixel shader's unordered access view (omuav.go)
		}
	}
	return false
}
