package d3d11

import (
	"fmt"

	"d3dsim/core/ddi"
	"d3dsim/core/dxbc"
)

// The hull and domain stages: CreateHullShader and CreateDomainShader
// (create.go), HSSetShader and DSSetShader, HS*/DS*SetConstantBuffers,
// SetShaderResources and SetSamplers (the stages' shared code,
// stages.go, with D3D11's slot counts) and the getters, each through its
// DDI (pfnCreateHullShader, pfnHsSetShader ..., ddi.Tessellation). At a
// draw the runtime checks what "Tessellation Stages" and the
// IASetPrimitiveTopology page require: a patch-list topology needs a hull
// and a domain shader, a hull shader a domain shader (and the other way
// round) and a patch-list topology, and the patch's control points are
// the hull shader's input control points; the debug layer names the
// rule. The immediate context runs the calls and a deferred context
// records them, as does the runtime's emulation of command lists
// (emulated_more.go).

// tessContext is the context's driver kind for the hull and domain calls.
func (c *DeviceContext) tessContext(call, obj string) (driverContext, error) {
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

// HSSetShader binds a hull shader (nil unbinds it).
func (c *DeviceContext) HSSetShader(s *Shader) error {
	return c.setTessShader("HSSetShader", "hs", "hull", &c.hs, s)
}

// DSSetShader binds a domain shader (nil unbinds it).
func (c *DeviceContext) DSSetShader(s *Shader) error {
	return c.setTessShader("DSSetShader", "ds", "domain", &c.ds, s)
}

func (c *DeviceContext) setTessShader(call, stage, long string, slot **Shader, s *Shader) error {
	if stop, err := c.checkArgs(call, s); stop {
		return err
	}
	dc, err := c.tessContext(call, objName(s))
	if err != nil {
		return err
	}
	if s != nil && s.Stage != stage {
		return c.dropCall(call, s.name, "pShader: %s is a %s shader, not a %s shader", s.name, stageLong(s.Stage), long)
	}
	if ok, err := c.emulate(call, func(ic *DeviceContext) error {
		if stage == "hs" {
			return ic.HSSetShader(s)
		}
		return ic.DSSetShader(s)
	}, func() { bind(c, slot, s, nilShader) }, s); ok {
		return err
	}
	return dc.simple(call, objName(s), []Object{s}, func(w ddiCall) {
		bind(c, slot, s, nilShader)
		if stage == "hs" {
			w.HsSetShader(c.h, c.shH(s))
		} else {
			w.DsSetShader(c.h, c.shH(s))
		}
	})
}

// HSGetShader is the bound hull shader (nil for none).
func (c *DeviceContext) HSGetShader() *Shader { return c.hs }

// DSGetShader is the bound domain shader (nil for none).
func (c *DeviceContext) DSGetShader() *Shader { return c.ds }

// checkTess is the draw's check of the tessellation stages (D3D11's
// debug layer: DEVICE_DRAW_HS_DS_*, DEVICE_DRAW_HS_XOR_DS_MISMATCH,
// DEVICE_DRAW_HS_DS_CONTROL_POINT_COUNT_MISMATCH and the patch topology
// without a hull shader): the runtime drops the draw and says which.
func (c driverContext) checkTess(call string) error {
	cp := c.topo.ControlPoints()
	hs, ds := c.hs, c.ds
	switch {
	case hs == nil && ds == nil && cp == 0:
		return nil
	case hs != nil && ds == nil:
		return c.invalidCall(call, "", "hull shader %s is bound without a domain shader: the tessellator's output has nowhere to go", hs.name)
	case hs == nil && ds != nil:
		return c.invalidCall(call, "", "domain shader %s is bound without a hull shader", ds.name)
	case hs == nil:
		return c.invalidCall(call, "", "the topology is a %d-control-point patch list, which needs a hull and a domain shader", cp)
	case cp == 0:
		return c.invalidCall(call, "", "hull shader %s is bound, so the topology must be a patch list (D3D11_PRIMITIVE_TOPOLOGY_N_CONTROL_POINT_PATCHLIST), not %s", hs.name, topologyName(c.topo))
	}
	if n := hs.InputControlPoints(); n != cp {
		return c.invalidCall(call, "", "hull shader %s takes patches of %d control points, but the topology's have %d", hs.name, n, cp)
	}
	return nil
}

func topologyName(t ddi.Topology) string {
	if n := enumName("Topology", uint32(t)); n != "" {
		return n
	}
	return fmt.Sprintf("topology %d", t)
}

func (w ddiCall) tess() ddi.Tessellation {
	u, _ := w.umd.(ddi.Tessellation)
	return u
}

func (w ddiCall) CreateHullShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateHullShader")
	w.watchErrors()
	if u := w.tess(); u != nil {
		u.CreateHullShader(h, a, s, rt)
	}
	err := w.reportedError("CreateHullShader")
	sp.end(err)
	return err
}

func (w ddiCall) CreateDomainShader(h ddi.HDEVICE, a *ddi.ShaderArgs, s ddi.HSHADER, rt uint32) error {
	sp := w.enter("CreateDomainShader")
	w.watchErrors()
	if u := w.tess(); u != nil {
		u.CreateDomainShader(h, a, s, rt)
	}
	err := w.reportedError("CreateDomainShader")
	sp.end(err)
	return err
}

func (w ddiCall) HsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	sp := w.enter("HsSetShader")
	if u := w.tess(); u != nil {
		u.HsSetShader(h, s)
	}
	sp.end(nil)
}

func (w ddiCall) DsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	sp := w.enter("DsSetShader")
	if u := w.tess(); u != nil {
		u.DsSetShader(h, s)
	}
	sp.end(nil)
}

func (w ddiCall) HsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("HsSetConstantBuffers")
	if u := w.tess(); u != nil {
		u.HsSetConstantBuffers(h, start, bufs)
	}
	sp.end(nil)
}

func (w ddiCall) HsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("HsSetShaderResources")
	if u := w.tess(); u != nil {
		u.HsSetShaderResources(h, start, views)
	}
	sp.end(nil)
}

func (w ddiCall) HsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("HsSetSamplers")
	if u := w.tess(); u != nil {
		u.HsSetSamplers(h, start, samplers)
	}
	sp.end(nil)
}

func (w ddiCall) DsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	sp := w.enter("DsSetConstantBuffers")
	if u := w.tess(); u != nil {
		u.DsSetConstantBuffers(h, start, bufs)
	}
	sp.end(nil)
}

func (w ddiCall) DsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	sp := w.enter("DsSetShaderResources")
	if u := w.tess(); u != nil {
		u.DsSetShaderResources(h, start, views)
	}
	sp.end(nil)
}

func (w ddiCall) DsSetSamplers(h ddi.HDEVICE, start uint32, samplers []ddi.HSAMPLER) {
	sp := w.enter("DsSetSamplers")
	if u := w.tess(); u != nil {
		u.DsSetSamplers(h, start, samplers)
	}
	sp.end(nil)
}

// InputControlPoints is a hull shader's dcl_input_control_point_count
// (0 for another stage's shader).
func (s *Shader) InputControlPoints() uint32 {
	if s == nil {
		return 0
	}
	return s.cps
}

// hullControlPoints reads dcl_input_control_point_count from validated
// hull-shader bytecode.
func hullControlPoints(code []byte) uint32 {
	c, err := dxbc.Parse(code)
	if err != nil {
		return 0
	}
	p, err := c.Program()
	if err != nil {
		return 0
	}
	for i := range p.Instructions {
		if in := &p.Instructions[i]; in.Op == dxbc.OpDclInputControlPointCount {
			return in.Controls & 0x3f
		}
	}
	return 0
}
