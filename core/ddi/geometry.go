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

// SODeclEntry is D3D11DDIARG_STREAM_OUTPUT_DECLARATION_ENTRY: the runtime
// resolves each D3D11_SO_DECLARATION_ENTRY's semantic to the output
// register and components it names (SORegisterGap and a mask of the
// components skipped for a gap).
type SODeclEntry struct {
	Stream, OutputSlot, RegisterIndex uint32
	RegisterMask                      uint8
}

// SORegisterGap is the RegisterIndex of a gap
// (D3D11_SO_DDI_REGISTER_INDEX_DENOTING_GAP).
const SORegisterGap = 0xFFFFFFFF

// NoRasterizedStream is D3D11_SO_NO_RASTERIZED_STREAM.
const NoRasterizedStream = 0xFFFFFFFF

// SOShaderArgs is D3D11DDIARG_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT: the
// bytecode (a geometry shader's, or a vertex shader's for stream output
// without a geometry shader), the declaration, the buffers' strides
// (BufferStridesInBytes, NumStrides) and RasterizedStream.
type SOShaderArgs struct {
	ShaderArgs
	Decl             []SODeclEntry
	Strides          []uint32
	RasterizedStream uint32
}

// StreamOutput is the stream-output part of the device function table
// (pfnCreateGeometryShaderWithStreamOutput, pfnSoSetTargets,
// pfnDrawAuto).
type StreamOutput interface {
	CreateGeometryShaderWithStreamOutput(h HDEVICE, a *SOShaderArgs, s HSHADER, rt uint32)
	// SoSetTargets binds bufs to slots 0.. with their offsets in bytes
	// (^uint32(0): append at the buffer's filled size); the slots past
	// them are unbound.
	SoSetTargets(h HDEVICE, bufs []HRESOURCE, offsets []uint32)
	DrawAuto(h HDEVICE)
}
