package isa

// The later fixed-function state: several render targets and their blends,
// the blend factor and sample mask, stencil, scissor rectangles, several
// viewports, depth bias, draws whose arguments are in memory, and the
// textures and samplers of the stages other than the pixel stage. A UMD
// sends these packets only when the state they carry is not the default
// one, so buffers that use none of it are what they always were.

// Limits of the output merger and the rasterizer.
const (
	MaxRenderTargets = 8  // D3D11_SIMULTANEOUS_RENDER_TARGET_COUNT
	MaxViewports     = 16 // D3D11_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE
	MaxTexSlots      = 128
	MaxSamplerSlots  = 16
)

// More blend factors (SET_BLEND's and SET_BLEND_RT's, after
// BlendInvDestColor): the source alpha saturated, the blend factor of
// SET_BLEND_FACTOR and its inverse, and the pixel program's second output
// (o1) for dual-source blending of render target 0.
const (
	BlendSrcAlphaSat = BlendInvDestColor + 1 + iota
	BlendFactor
	BlendInvFactor
	BlendSrc1Color
	BlendInvSrc1Color
	BlendSrc1Alpha
	BlendInvSrc1Alpha
	NumBlendFactors
)

// SET_BLEND_FACTOR's flags.
const BlendAlphaToCoverage = 1 // the coverage of a pixel comes from o0's alpha

// Stencil operations (SET_STENCIL's).
const (
	StencilKeep = iota
	StencilZero
	StencilReplace
	StencilIncrSat
	StencilDecrSat
	StencilInvert
	StencilIncr
	StencilDecr
	NumStencilOps
)

// Flags ORed into SET_RASTER's cull word, beside RasterWireframe.
const (
	RasterScissor      = 1 << 9  // ScissorEnable: pixels outside the scissor rectangle are discarded
	RasterMultisample  = 1 << 10 // MultisampleEnable (lines: quadrilateral lines)
	RasterAALine       = 1 << 11 // AntialiasedLineEnable (lines: alpha-antialiased, with MultisampleEnable off)
	RasterFlags        = RasterWireframe | RasterScissor | RasterMultisample | RasterAALine
	TopoLineListAdj    = 6
	TopoLineStripAdj   = 7
	TopoTriangleAdj    = 8 // triangle list with adjacency
	TopoTriStripAdj    = 9 // triangle strip with adjacency
	NumTopologies      = 10
	StageGS, StageHS   = 2, 3 // stage words of SET_TEX_STAGE and SET_SAMPLER_STAGE beyond StageVS and StagePS
	StageDS, StageCS   = 4, 5
	NumStages          = 6
	IndirectDrawBytes  = 16 // DRAW_INDIRECT's arguments: count instances start startInstance
	IndirectIndexBytes = 20 // DRAW_INDEXED_INDIRECT's: count instances start base startInstance
)

// SetRTSlot binds render target slot (1..7; SET_RT binds 0).
func (b *Builder) SetRTSlot(slot uint32, addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpSetRTSlot, 7)
	b.Words = append(b.Words, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

// SetBlendRT sets the blend of one render target (SET_BLEND sets all).
func (b *Builder) SetBlendRT(slot uint32, enable bool, src, dst, op, srcA, dstA, opA, writeMask uint32) {
	b.header(OpSetBlendRT, 9)
	b.Words = append(b.Words, slot, b2u(enable), src, dst, op, srcA, dstA, opA, writeMask)
}

// SetBlendFactor sets the blend factor, the sample mask and the flags.
func (b *Builder) SetBlendFactor(rgba [4]float32, sampleMask, flags uint32) {
	b.header(OpSetBlendFactor, 6)
	b.Words = append(b.Words, f(rgba[0]), f(rgba[1]), f(rgba[2]), f(rgba[3]), sampleMask, flags)
}

// StencilFace is one face's stencil operations and function.
type StencilFace struct{ Fail, DepthFail, Pass, Func uint32 }

// SetStencil sets the stencil test.
func (b *Builder) SetStencil(enable bool, readMask, writeMask, ref uint32, front, back StencilFace) {
	b.header(OpSetStencil, 12)
	b.Words = append(b.Words, b2u(enable), readMask, writeMask, ref, front.Fail, front.DepthFail, front.Pass, front.Func,
		back.Fail, back.DepthFail, back.Pass, back.Func)
}

// ClearStencil sets the stencil of a depth buffer with stencil.
func (b *Builder) ClearStencil(addr uint64, w, h, pitch uint32, fm Format, stencil uint32) int {
	b.header(OpClearStencil, 7)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm), stencil)
	return at
}

// SetScissor sets scissor rectangle index (right and bottom exclusive).
func (b *Builder) SetScissor(index uint32, left, top, right, bottom int32) {
	b.header(OpSetScissor, 5)
	b.Words = append(b.Words, index, uint32(left), uint32(top), uint32(right), uint32(bottom))
}

// SetViewportN sets viewport index (1..15; SET_VIEWPORT sets 0).
func (b *Builder) SetViewportN(index uint32, x, y, w, h, minZ, maxZ float32) {
	b.header(OpSetViewportN, 7)
	b.Words = append(b.Words, index, f(x), f(y), f(w), f(h), f(minZ), f(maxZ))
}

// SetDepthBias sets the depth bias.
func (b *Builder) SetDepthBias(bias int32, clamp, slope float32) {
	b.header(OpSetDepthBias, 3)
	b.Words = append(b.Words, uint32(bias), f(clamp), f(slope))
}

// DrawIndirect draws with DRAW_INSTANCED's arguments read from addr.
func (b *Builder) DrawIndirect(addr uint64) int {
	b.header(OpDrawIndirect, 2)
	return b.addr(addr)
}

// DrawIndexedIndirect draws with DRAW_INDEXED_INSTANCED's arguments read
// from addr.
func (b *Builder) DrawIndexedIndirect(addr uint64) int {
	b.header(OpDrawIndexedIndirect, 2)
	return b.addr(addr)
}

// SetTexStage binds texture slot of stage.
func (b *Builder) SetTexStage(stage, slot uint32, addr uint64, w, h, pitch uint32, fm Format) int {
	b.header(OpSetTexStage, 8)
	b.Words = append(b.Words, stage, slot)
	at := b.addr(addr)
	b.Words = append(b.Words, w, h, pitch, uint32(fm))
	return at
}

// SetSamplerStage sets sampler slot of stage.
func (b *Builder) SetSamplerStage(stage, slot, filter, addrU, addrV, borderRGBA8 uint32) {
	b.header(OpSetSamplerStage, 6)
	b.Words = append(b.Words, stage, slot, filter, addrU, addrV, borderRGBA8)
}
