package umd

import (
	"d3dsim/core/ddi"
	"d3dsim/gpu/isa"
)

// The geometry stage (ddi.Geometry): CreateGeometryShader translates
// gs_4_0 to gs_5_0 bytecode like the other stages' (shaders.go); its
// constant buffers, shader resource views and samplers are the draw
// state's third stage (isa.StageGS), sent with the vertex and pixel
// stages' at a draw, and its program with SET_PROGRAM of stage
// isa.StageGS (no geometry shader: the stage unbound, the vertex
// shader's outputs go to the rasterizer).

var _ ddi.Geometry = (*Device)(nil)

func (d *Device) CreateGeometryShader(_ ddi.HDEVICE, a *ddi.ShaderArgs, h ddi.HSHADER, _ uint32) {
	d.reportWhy(d.createShader(a, h, isa.StageGS, "CreateGeometryShader"))
}

func (c *context) GsSetShader(_ ddi.HDEVICE, s ddi.HSHADER) { c.st.gs = s; c.st.dirty = true }

func (c *context) GsSetConstantBuffers(_ ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	c.setCBs(isa.StageGS, start, bufs)
}

func (c *context) GsSetShaderResources(_ ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	c.setSRVs(isa.StageGS, start, views)
}

func (c *context) GsSetSamplers(_ ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	c.setSamplers(isa.StageGS, start, s)
}

// emitGeometry binds the geometry shader with SET_PROGRAM, or unbinds
// the stage when the GPU may hold one.
func (c *context) emitGeometry(rec recorder, gs *shader) {
	b := &c.cmd
	g := &c.onGPU
	if gs != nil {
		b.SetProgram(isa.StageGS, rec.ref(gs.code, false, 0), gs.words, gs.sysReg)
		g.gs = true
	} else if g.gs {
		b.SetProgram(isa.StageGS, isa.NullAddress, 0, isa.NoReg)
		g.gs = false
	}
}

// A deferred context records the geometry stage's calls as it records
// the other stages'.

func (c *deferredContext) GsSetShader(h ddi.HDEVICE, s ddi.HSHADER) {
	if !c.stopped("GsSetShader") {
		c.context.GsSetShader(h, s)
	}
}

func (c *deferredContext) GsSetConstantBuffers(h ddi.HDEVICE, start uint32, bufs []ddi.HRESOURCE) {
	if !c.stopped("GsSetConstantBuffers") {
		c.context.GsSetConstantBuffers(h, start, bufs)
	}
}

func (c *deferredContext) GsSetShaderResources(h ddi.HDEVICE, start uint32, views []ddi.HSHADERRESOURCEVIEW) {
	if !c.stopped("GsSetShaderResources") {
		c.context.GsSetShaderResources(h, start, views)
	}
}

func (c *deferredContext) GsSetSamplers(h ddi.HDEVICE, start uint32, s []ddi.HSAMPLER) {
	if !c.stopped("GsSetSamplers") {
		c.context.GsSetSamplers(h, start, s)
	}
}

var _ ddi.Geometry = (*deferredContext)(nil)

func (c *deferredContext) CreateGeometryShader(_ ddi.HDEVICE, _ *ddi.ShaderArgs, h ddi.HSHADER, rt uint32) {
	c.report(c.open("CreateGeometryShader", uint32(h), rt))
}
