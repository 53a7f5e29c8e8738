package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// The hull and domain stages (ddi.Tessellation): CreateHullShader and
// CreateDomainShader translate hs_5_0 and ds_5_0 bytecode like the other
// stages' (shaders.go, package translate's tess.go); their constant
// buffers, shader resource views and samplers are the draw state's
// fourth and fifth stages (isa.StageHS, isa.StageDS), sent with the
// others at a draw, and their programs with SET_PROGRAM of those stages
// (none bound: the stages unbound, the vertex shader's outputs go on as
// before).

var _ ddi.Tessellation = (*Device)(nil)

// tessWords and tessAllocs are what a draw may add for the two programs:
// two SET_PROGRAM packets (header and five words) and their code.
const (
	tessWords  = 2 * 6
	tessAllocs = 2
)

func (d *Device) CreateHullShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StageHS, "CreateHullShader"))
}

func (d *Device) CreateDomainShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StageDS, "CreateDomainShader"))
}

func (c *context) HsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) { c.st.hs = s; c.st.dirty = true }
func (c *context) DsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) { c.st.ds = s; c.st.dirty = true }

func (c *context) HsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	c.setCBs(isa.StageHS, start, bufs)
}

func (c *context) HsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	c.setSRVs(isa.StageHS, start, views)
}

func (c *context) HsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	c.setSamplers(isa.StageHS, start, s)
}

func (c *context) DsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	c.setCBs(isa.StageDS, start, bufs)
}

func (c *context) DsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	c.setSRVs(isa.StageDS, start, views)
}

func (c *context) DsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	c.setSamplers(isa.StageDS, start, s)
}

// emitTess binds the hull and domain shaders with SET_PROGRAM, or unbinds
// a stage the GPU may hold a program in.
func (c *context) emitTess(rec recorder, hs, ds *shader) {
	b := &c.cmd
	g := &c.onGPU
	if hs != nil {
		b.SetProgram(isa.StageHS, rec.ref(hs.code, false, 0), hs.words, hs.sysReg)
		g.hs = true
	} else if g.hs {
		b.SetProgram(isa.StageHS, isa.NullAddress, 0, isa.NoReg)
		g.hs = false
	}
	if ds != nil {
		b.SetProgram(isa.StageDS, rec.ref(ds.code, false, 0), ds.words, ds.sysReg)
		g.dsh = true
	} else if g.dsh {
		b.SetProgram(isa.StageDS, isa.NullAddress, 0, isa.NoReg)
		g.dsh = false
	}
}

// A deferred context records the hull and domain stages' calls as it
// records the other stages'.

var _ ddi.Tessellation = (*deferredContext)(nil)

func (c *deferredContext) CreateHullShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateHullShader", uint32(h), rt))
}

func (c *deferredContext) CreateDomainShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateDomainShader", uint32(h), rt))
}

func (c *deferredContext) HsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("HsSetShader") {
		c.context.HsSetShader(h, s)
	}
}

func (c *deferredContext) DsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("DsSetShader") {
		c.context.DsSetShader(h, s)
	}
}

func (c *deferredContext) HsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if !c.stopped("HsSetConstantBuffers") {
		c.context.HsSetConstantBuffers(h, start, bufs)
	}
}

func (c *deferredContext) HsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("HsSetShaderResources") {
		c.context.HsSetShaderResources(h, start, views)
	}
}

func (c *deferredContext) HsSetSamplers(h ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	if !c.stopped("HsSetSamplers") {
		c.context.HsSetSamplers(h, start, s)
	}
}

func (c *deferredContext) DsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if !c.stopped("DsSetConstantBuffers") {
		c.context.DsSetConstantBuffers(h, start, bufs)
	}
}

func (c *deferredContext) DsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("DsSetShaderResources") {
		c.context.DsSetShaderResources(h, start, views)
	}
}

func (c *deferredContext) DsSetSamplers(h ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	if !c.stopped("DsSetSamplers") {
		c.context.DsSetSamplers(h, start, s)
	}
}
