package d3d11

import (
	"d3dsim/core/ddi"
	"d3dsim/core/hresult"
	"d3dsim/core/rules"
)

// Objects belong to the device that created them. Direct3D 11 does not let
// an object of one device be used with another: a resource, view, shader,
// state, query or command list passed to a context of another device is
// refused before anything reaches the driver, whose handles name only its
// own device's objects.
//
//   - A method that returns an HRESULT (Map, GetData, CreateRenderTargetView
//     and the other view creations) returns E_INVALIDARG.
//   - A void method (the Set* calls, Clear*View, CopyResource,
//     UpdateSubresource, Begin, End, Unmap, ExecuteCommandList) does
//     nothing: the call is traced and returns, with no error, as a void
//     method must.
//
// In both cases the debug layer (a device created with
// D3D11_CREATE_DEVICE_DEBUG) says so, naming the method, the object and
// both devices.
//
// The check is made here, once, by the public methods of DeviceContext,
// before they hand the call to the kind of context: the immediate, the
// deferred and the emulated contexts all refuse alike.

// foreign returns the first object of objs that another device than d
// created, or nil.
func (d *Device) foreign(objs ...Object) Object {
	for _, o := range objs {
		if isNil(o) {
			continue
		}
		if od, ok := o.(interface{ Device() *Device }); ok && od.Device() != d {
			return o
		}
	}
	return nil
}

// foreignMsg is the debug layer's text for an object of another device.
func (d *Device) foreignMsg(call string, o Object) string {
	other := ""
	if od, ok := o.(interface{ Device() *Device }); ok && od.Device() != nil {
		other = od.Device().name
	}
	return call + ": " + o.Name() + " was created by device " + other + ", not by device " + d.name +
		", whose context the call is made on: an object of one device cannot be used with another"
}

// dropForeign is the check of a void method: when an object argument
// belongs to another device, the call is traced, the debug layer says why,
// and the call does nothing (true).
func (c *DeviceContext) dropForeign(call string, objs ...Object) bool {
	o := c.dev.foreign(objs...)
	if o == nil {
		return false
	}
	done := c.api(call, o.Name())
	if c.dev.debug {
		c.dev.message(call, o.Name(), "D3D11 ERROR: "+c.dev.foreignMsg(call, o))
	}
	done.end(nil)
	c.droppedCall = true
	return true
}

// TakeDropped reports whether the runtime dropped a void call on the
// context since the last TakeDropped without an error to its Go caller (an
// object of another device), and clears it: a scenario's `hr` DROPPED.
func (c *DeviceContext) TakeDropped() bool {
	d := c.droppedCall
	c.droppedCall = false
	return d
}

// refuseForeign is the check of a method that returns an HRESULT:
// E_INVALIDARG (traced as the call's Return) when an object argument
// belongs to another device, else nil.
func (c *DeviceContext) refuseForeign(call string, objs ...Object) error {
	o := c.dev.foreign(objs...)
	if o == nil {
		return nil
	}
	done := c.api(call, o.Name())
	err := c.dev.invalid(call, o.Name(), "%s", c.dev.foreignMsg(call, o))
	done.end(err)
	return err
}

// checkArgs is the argument check of a void method: an object of another
// device drops the call (dropForeign); an object the application released
// stops it before it reaches the driver with the debug layer's message
// (refuseDangling, rule LIFE-DANGLING). A void method returns nothing to the
// application: the E_INVALIDARG returned here is the Go API's way of saying
// the runtime dropped the call, which a scenario sees as `hr` DROPPED
// (core/scenario/void.go). stop says the call ends here, with err.
func (c *DeviceContext) checkArgs(call string, objs ...Object) (stop bool, err error) {
	if c.dropForeign(call, objs...) {
		return true, nil
	}
	if err := c.refuseDangling(call, objs...); err != nil {
		return true, err
	}
	return false, nil
}

// refuseDangling traces the call and returns E_INVALIDARG when an object
// argument was released by the application (Device.dangling), else nil.
// The check is made here for every kind of context, the emulated one
// included, whose recording would otherwise hold the object; the runtime's
// own calls (runtimeCalls) skip it.
func (c *DeviceContext) refuseDangling(call string, objs ...Object) error {
	if c.internal > 0 || c.dev.rt.cfg.Bugs.Has(rules.LifeDangling) {
		return nil
	}
	first := ""
	bad := false
	for _, o := range objs {
		if isNil(o) {
			continue
		}
		if first == "" {
			first = o.Name()
		}
		bad = bad || isReleased(o)
	}
	if !bad {
		return nil
	}
	done := c.api(call, first)
	err := c.dev.dangling(call, objs...)
	done.end(err)
	return err
}

func (c *DeviceContext) IASetIndexBuffer(ib *Resource, f ddi.Format, offset uint32) error {
	if stop, err := c.checkArgs("IASetIndexBuffer", ib); stop {
		return err
	}
	return c.contextKind.IASetIndexBuffer(ib, f, offset)
}

func (c *DeviceContext) IASetInputLayout(l *InputLayout) error {
	if stop, err := c.checkArgs("IASetInputLayout", l); stop {
		return err
	}
	return c.contextKind.IASetInputLayout(l)
}

func (c *DeviceContext) VSSetShader(s *Shader) error {
	if stop, err := c.checkArgs("VSSetShader", s); stop {
		return err
	}
	return c.contextKind.VSSetShader(s)
}

func (c *DeviceContext) PSSetShader(s *Shader) error {
	if stop, err := c.checkArgs("PSSetShader", s); stop {
		return err
	}
	return c.contextKind.PSSetShader(s)
}

// OMSetRenderTargets binds NumViews render target views (rtvs, nil
// entries unbinding their slots) and a depth-stencil view.
func (c *DeviceContext) OMSetRenderTargets(rtvs []*View, dsv *View) error {
	objs := make([]Object, 0, len(rtvs)+1)
	for _, v := range rtvs {
		objs = append(objs, v)
	}
	if stop, err := c.checkArgs("OMSetRenderTargets", append(objs, dsv)...); stop {
		return err
	}
	return c.contextKind.OMSetRenderTargets(rtvs, dsv)
}

// OMSetBlendState binds a blend state with its BlendFactor and SampleMask.
func (c *DeviceContext) OMSetBlendState(s *State, factor [4]float32, sampleMask uint32) error {
	if stop, err := c.checkArgs("OMSetBlendState", s); stop {
		return err
	}
	return c.contextKind.OMSetBlendState(s, factor, sampleMask)
}

// OMSetDepthStencilState binds a depth-stencil state with its StencilRef.
func (c *DeviceContext) OMSetDepthStencilState(s *State, stencilRef uint32) error {
	if stop, err := c.checkArgs("OMSetDepthStencilState", s); stop {
		return err
	}
	return c.contextKind.OMSetDepthStencilState(s, stencilRef)
}

func (c *DeviceContext) RSSetState(s *State) error {
	if stop, err := c.checkArgs("RSSetState", s); stop {
		return err
	}
	return c.contextKind.RSSetState(s)
}

func (c *DeviceContext) ClearRenderTargetView(v *View, rgba [4]float32) error {
	if stop, err := c.checkArgs("ClearRenderTargetView", v); stop {
		return err
	}
	return c.contextKind.ClearRenderTargetView(v, rgba)
}

// ClearDepthStencilView clears the depth and the stencil as ClearFlags
// say (D3D11_CLEAR_DEPTH, D3D11_CLEAR_STENCIL).
func (c *DeviceContext) ClearDepthStencilView(v *View, flags ddi.ClearFlag, depth float32, stencil uint8) error {
	if stop, err := c.checkArgs("ClearDepthStencilView", v); stop {
		return err
	}
	return c.contextKind.ClearDepthStencilView(v, flags, depth, stencil)
}

func (c *DeviceContext) CopyResource(dst, src *Resource) error {
	if stop, err := c.checkArgs("CopyResource", dst, src); stop {
		return err
	}
	return c.contextKind.CopyResource(dst, src)
}

func (c *DeviceContext) UpdateSubresource(dst *Resource, data []byte) error {
	if stop, err := c.checkArgs("UpdateSubresource", dst); stop {
		return err
	}
	return c.contextKind.UpdateSubresource(dst, data)
}

func (c *DeviceContext) Begin(q *Query) error {
	if stop, err := c.checkArgs("Begin", q); stop {
		return err
	}
	return c.contextKind.Begin(q)
}

func (c *DeviceContext) End(q *Query) error {
	if stop, err := c.checkArgs("End", q); stop {
		return err
	}
	return c.contextKind.End(q)
}

func (c *DeviceContext) ExecuteCommandList(l *CommandList, restore bool) error {
	if c.dropForeign("ExecuteCommandList", l) {
		return nil
	}
	// (a released command list: the kind's own check, which bug=CL-STATE
	// turns off)
	return c.contextKind.ExecuteCommandList(l, restore)
}

// Map returns an HRESULT: E_INVALIDARG for a resource of another device.
func (c *DeviceContext) Map(r *Resource, t ddi.MapType, flags ddi.MapFlag) ([]byte, error) {
	if err := c.refuseForeign("Map", r); err != nil {
		return nil, err
	}
	if err := c.refuseDangling("Map", r); err != nil {
		return nil, err
	}
	return c.contextKind.Map(r, t, flags)
}

// GetQueryData is GetData with the whole of the query's data. It returns
// an HRESULT: E_INVALIDARG for a query of another device.
func (c *DeviceContext) GetQueryData(q *Query) (QueryData, hresult.HRESULT, error) {
	if err := c.refuseForeign("GetData", q); err != nil {
		return QueryData{}, hresult.E_INVALIDARG, err
	}
	if err := c.refuseDangling("GetData", q); err != nil {
		return QueryData{}, hresult.E_INVALIDARG, err
	}
	return c.contextKind.GetData(q)
}

func (c *DeviceContext) SetPredication(q *Query, value bool) error {
	if c.dropForeign("SetPredication", q) {
		return nil
	}
	return c.contextKind.SetPredication(q, value)
}
