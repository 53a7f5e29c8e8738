package ddi

// The geometry stage: the entries of D3D11DDI_DEVICEFUNCS for it
// (pfnCreateGeometryShader, pfnGsSetShader, pfnGsSetConstantBuffers,
// pfnGsSetShaderResources, pfnGsSetSamplers). A driver that has them
// implements Geometry beside Device; the runtime asks for it by a type
// assertion, as it does for Compute, so a driver without a geometry stage
// (a test double) needs none of them.

// Geometry is the geometry part of the device function table.
type Geometry interface {
	CreateGeometryShader(h HDEVICE, a *ShaderArgs, s HSHADER, rt uint32)
	GsSetShader(HDEVICE, HSHADER)
	GsSetConstantBuffers(h HDEVICE, start uint32, bufs []HRESOURCE)
	GsSetShaderResources(h HDEVICE, start uint32, views []HSHADERRESOURCEVIEW)
	GsSetSamplers(h HDEVICE, start uint32, samplers []HSAMPLER)
}
