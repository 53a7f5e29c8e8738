package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// Shaders and state objects are immutable once created: the driver keeps a
// copy of the description, under the runtime's handle, in one table per
// kind. createObject and destroyObject are their Create* and Destroy* DDIs.

// createObject stores obj under h, unless the DDI has an injected failure
// (checked first, as a driver allocates before it validates) or invalid
// reports the description invalid.
func createObject[H ~uint32, T any](d *Device, ddiName string, table map[H]*T, h H, obj *T, invalid error) error {
	if err := d.injectedErr(ddiName); err != nil {
		return err
	}
	if invalid != nil {
		return invalid
	}
	d.mu.Lock()
	table[h] = obj
	d.mu.Unlock()
	return nil
}

// destroyObject is a free-threaded Destroy* DDI: like DestroyResource, it
// only queues the destruction, and the immediate context's thread drops
// the object once a submission follows its last use (deferDestroy, rule
// DD-ORDER). bug=DD-ORDER destroys at once, on the calling thread.
func destroyObject[H ~uint32, T any](d *Device, table map[H]*T, h H) {
	d.deferDestroy(func() {
		d.mu.Lock()
		delete(table, h)
		d.mu.Unlock()
	})
}

func clone[T any](desc *T) *T {
	if desc == nil {
		return nil
	}
	c := *desc
	return &c
}

func (c *context) CalcPrivateShaderSize(*ddi.ShaderArgs) int { return sizeShader }

func (d *Device) CreateVertexShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StageVS, "CreateVertexShader"))
}
func (d *Device) CreatePixelShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StagePS, "CreatePixelShader"))
}
func (d *Device) DestroyShader(_ ddi.HDEVICE, h ddi.HSHADER) { d.destroyShader(h) }

func (c *context) CalcPrivateBlendStateSize(*ddi.BlendDesc) int { return sizeState }
func (d *Device) CreateBlendState(_ ddi.HDEVICE, s *ddi.BlendDesc, h ddi.HBLENDSTATE, _ uint32) {
	d.report(createObject(d, "CreateBlendState", d.blends, h, clone(s), nil))
}
func (d *Device) DestroyBlendState(_ ddi.HDEVICE, h ddi.HBLENDSTATE) { destroyObject(d, d.blends, h) }

func (c *context) CalcPrivateRasterizerStateSize(*ddi.RasterizerDesc) int { return sizeState }
func (d *Device) CreateRasterizerState(_ ddi.HDEVICE, s *ddi.RasterizerDesc, h ddi.HRASTERIZERSTATE, _ uint32) {
	d.report(createObject(d, "CreateRasterizerState", d.rasts, h, clone(s), nil))
}
func (d *Device) DestroyRasterizerState(_ ddi.HDEVICE, h ddi.HRASTERIZERSTATE) {
	destroyObject(d, d.rasts, h)
}

func (c *context) CalcPrivateDepthStencilStateSize(*ddi.DepthStencilDesc) int { return sizeState }
func (d *Device) CreateDepthStencilState(_ ddi.HDEVICE, s *ddi.DepthStencilDesc, h ddi.HDEPTHSTENCILSTATE, _ uint32) {
	d.report(createObject(d, "CreateDepthStencilState", d.dss, h, clone(s), nil))
}
func (d *Device) DestroyDepthStencilState(_ ddi.HDEVICE, h ddi.HDEPTHSTENCILSTATE) {
	destroyObject(d, d.dss, h)
}

func (c *context) CalcPrivateSamplerSize(*ddi.SamplerDesc) int { return sizeState }
func (d *Device) CreateSampler(_ ddi.HDEVICE, s *ddi.SamplerDesc, h ddi.HSAMPLER, _ uint32) {
	d.report(createObject(d, "CreateSampler", d.samplers, h, clone(s), nil))
}
func (d *Device) DestroySampler(_ ddi.HDEVICE, h ddi.HSAMPLER) { destroyObject(d, d.samplers, h) }
