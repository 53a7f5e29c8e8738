package d3d11

import "d3dsim/core/ddi"

// The geometry stage: CreateGeometryShader (create.go), GSSetShader,
// GS*SetConstantBuffers/ShaderResources/Samplers (the stages' shared code,
// stages.go) and the GSGet* getters, each through its DDI
// (pfnCreateGeometryShader, pfnGsSetShader ..., ddi.Geometry). The
// immediate context runs them and a deferred context records them like
// the other stages', as does the runtime's emulation of command lists (a
// driver without them: emulated_more.go).

// geometryContext is the context's driver kind for the geometry calls.
func (c *DeviceContext) geometryContext(call, obj string) (driverContext, error) {
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

// GSSetShader binds a geometry shader (nil unbinds it: the vertex
// shader's outputs go to the rasterizer).
func (c *DeviceContext) GSSetShader(s *Shader) error {
	if stop, err := c.checkArgs("GSSetShader", s); stop {
		return err
	}
	dc, err := c.geometryContext("GSSetShader", objName(s))
	if err != nil {
		return err
	}
	if s != nil && s.Stage != "gs" {
		return c.dropCall("GSSetShader", s.name, "pShader: %s is a %s shader, not a geometry shader", s.name, s.Stage)
	}
	if ok, err := c.emulate("GSSetShader", func(ic *DeviceContext) error { return ic.GSSetShader(s) }, func() { bind(c, &c.gs, s, nilShader) }, s); ok {
		return err
	}
	return dc.simple("GSSetShader", objName(s), []Object{s}, func(w ddiCall) {
		bind(c, &c.gs, s, nilShader)
		w.GsSetShader(c.h, c.shH(s))
	})
}

// GSGetShader is the bound geometry shader (nil for none).
func (c *DeviceContext) GSGetShader() *Shader { return c.gs }

func (w ddiCall) geometry() ddi.Geometry {
	u, _ := w.umd.(ddi.Geometry)
	return u
}

func (w ddiCall) CreateGeometryShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateGeometryShader")
	w.watchErrors()
	if u := w.geometry(); u != nil {
		u.CreateGeometryShader(h, a, s, rt)
	}
	err := w.reportedError("CreateGeometryShader")
	sp.end(err)
	return err
}

func (w ddiCall) GsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	sp := w.enter("GsSetShader")
	if u := w.geometry(); u != nil {
		u.GsSetShader(h, s)
	}
	sp.end(nil)
}

func (w ddiCall) GsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("GsSetConstantBuffers")
	if u := w.geometry(); u != nil {
		u.GsSetConstantBuffers(h, start, bufs)
	}
	sp.end(nil)
}

func (w ddiCall) GsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("GsSetShaderResources")
	if u := w.geometry(); u != nil {
		u.GsSetShaderResources(h, start, views)
	}
	sp.end(nil)
}

func (w ddiCall) GsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("GsSetSamplers")
	if u := w.geometry(); u != nil {
		u.GsSetSamplers(h, start, samplers)
	}
	sp.end(nil)
}
