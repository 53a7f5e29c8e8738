package isa

import "fmt"

// A DMA buffer is a slice of 32-bit words: a header (opcode in bits 31..24,
// payload length in words in bits 23..0) followed by the payload. Addresses
// are 64-bit GPU physical addresses in two words (low, high). In a command
// buffer the UMD writes, an address is allocation-list relative (low word:
// list index, high word: byte offset); the KMD validates it, zeroes it and
// records a patch location, and DxgkDdiPatch writes the physical address
// there. Floats are IEEE bits.

// Opcode is a packet type. 0x08 is none: a stage's program is bound from
// memory with SET_PROGRAM.
type Opcode uint8

const (
	OpNop                  Opcode = 0x00
	OpSetRT                Opcode = 0x01 // addr(2) width height pitch format
	OpSetDS                Opcode = 0x02 // addr(2) width height pitch format; addr 0 = no depth buffer
	OpSetVB                Opcode = 0x03 // slot addr(2) size stride offset
	OpSetIB                Opcode = 0x04 // addr(2) size indexBytes(2|4) offset
	OpSetCB                Opcode = 0x05 // stage slot addr(2) size
	OpSetTex               Opcode = 0x06 // slot addr(2) width height pitch format
	OpSetSampler           Opcode = 0x07 // slot filter addressU addressV borderRGBA8
	OpSetViewport          Opcode = 0x09 // x y w h minDepth maxDepth (f32)
	OpSetRaster            Opcode = 0x0A // cull(|RasterWireframe) frontCCW depthClip
	OpSetBlend             Opcode = 0x0B // enable src dst op srcAlpha dstAlpha opAlpha writeMask
	OpSetDepth             Opcode = 0x0C // enable writeMask func
	OpSetTopology          Opcode = 0x0D // topology
	OpDraw                 Opcode = 0x10 // count start
	OpDrawIndexed          Opcode = 0x11 // count start base(int32)
	OpClearRT              Opcode = 0x12 // addr(2) width height pitch format r g b a (f32)
	OpClearDS              Opcode = 0x13 // addr(2) width height pitch format depth (f32)
	OpCopy                 Opcode = 0x14 // dst(2) src(2) nbytes
	OpWrite                Opcode = 0x15 // dst(2) nbytes data(ceil(nbytes/4) words)
	OpFence                Opcode = 0x16 // value(2): on completion of the buffer, write the fence register and interrupt
	OpQuery                Opcode = 0x17 // kind addr(2): writes a uint64 at addr
	OpScanout              Opcode = 0x18 // addr(2) width height pitch format: the display engine shows this surface
	OpFill                 Opcode = 0x19 // dst(2) nbytes value: fill nbytes (a multiple of 4) with the 32-bit value (paging FILL)
	OpSetProgram           Opcode = 0x1A // stage addr(2) words sysReg: run the gpu/shaderisa program at addr (program.go)
	OpSetLayout            Opcode = 0x1B // sysRegs then 3 words per vertex element (variable, 1..49 words: layout.go)
	OpDrawInstanced        Opcode = 0x1C // count start instances startInstance
	OpDrawIndexedInstanced Opcode = 0x1D // count start base(int32) instances startInstance
	// The output merger's, rasterizer's and input assembler's later state
	// (om.go): a buffer that does not use them never carries them.
	OpSetRTSlot           Opcode = 0x1E // slot addr(2) width height pitch format: render target 1..7 (SET_RT is slot 0)
	OpSetBlendRT          Opcode = 0x1F // slot enable src dst op srcAlpha dstAlpha opAlpha writeMask: one target's blend
	OpSetBlendFactor      Opcode = 0x20 // r g b a (f32) sampleMask flags: blend factor, sample mask, alpha-to-coverage
	OpSetStencil          Opcode = 0x21 // enable readMask writeMask ref frontFail frontDepthFail frontPass frontFunc back...(4)
	OpClearStencil        Opcode = 0x22 // addr(2) width height pitch format stencil: sets the stencil, keeps the depth
	OpSetScissor          Opcode = 0x23 // index left top right bottom (int32): scissor rectangle index
	OpSetViewportN        Opcode = 0x24 // index x y w h minDepth maxDepth (f32): viewport index (SET_VIEWPORT is index 0)
	OpSetDepthBias        Opcode = 0x25 // bias(int32) clamp slope (f32)
	OpDrawIndirect        Opcode = 0x26 // addr(2): DRAW_INSTANCED's four words read from memory at the draw
	OpDrawIndexedIndirect Opcode = 0x27 // addr(2): DRAW_INDEXED_INSTANCED's five words read from memory
	OpSetTexStage         Opcode = 0x28 // stage slot addr(2) width height pitch format: a stage's texture (SET_TEX is the pixel stage's)
	OpSetSamplerStage     Opcode = 0x29 // stage slot filter addressU addressV borderRGBA8 (SET_SAMPLER is the pixel stage's)
)

// opcodes describes every opcode: its name and fixed payload length (OpWrite
// and SET_LAYOUT are variable: at least 3 and 1 words).
var opcodes = []struct {
	op      Opcode
	name    string
	payload int
}{
	{OpNop, "NOP", 0}, {OpSetRT, "SET_RT", 6}, {OpSetDS, "SET_DS", 6}, {OpSetVB, "SET_VB", 6},
	{OpSetIB, "SET_IB", 5}, {OpSetCB, "SET_CB", 5}, {OpSetTex, "SET_TEX", 7}, {OpSetSampler, "SET_SAMPLER", 5},
	{OpSetViewport, "SET_VIEWPORT", 6}, {OpSetRaster, "SET_RASTER", 3},
	{OpSetBlend, "SET_BLEND", 8}, {OpSetDepth, "SET_DEPTH", 3}, {OpSetTopology, "SET_TOPOLOGY", 1},
	{OpDraw, "DRAW", 2}, {OpDrawIndexed, "DRAW_INDEXED", 3}, {OpClearRT, "CLEAR_RT", 10},
	{OpClearDS, "CLEAR_DS", 7}, {OpCopy, "COPY", 5}, {OpWrite, "WRITE", 3}, {OpFence, "FENCE", 2},
	{OpQuery, "QUERY", 3}, {OpScanout, "SCANOUT", 6}, {OpFill, "FILL", 4},
	{OpSetProgram, "SET_PROGRAM", 5}, {OpSetLayout, "SET_LAYOUT", 1},
	{OpDrawInstanced, "DRAW_INSTANCED", 4}, {OpDrawIndexedInstanced, "DRAW_INDEXED_INSTANCED", 5},
	{OpSetRTSlot, "SET_RT_SLOT", 7}, {OpSetBlendRT, "SET_BLEND_RT", 9}, {OpSetBlendFactor, "SET_BLEND_FACTOR", 6},
	{OpSetStencil, "SET_STENCIL", 12}, {OpClearStencil, "CLEAR_STENCIL", 7}, {OpSetScissor, "SET_SCISSOR", 5},
	{OpSetViewportN, "SET_VIEWPORT_N", 7}, {OpSetDepthBias, "SET_DEPTH_BIAS", 3}, {OpDrawIndirect, "DRAW_INDIRECT", 2},
	{OpDrawIndexedIndirect, "DRAW_INDEXED_INDIRECT", 2}, {OpSetTexStage, "SET_TEX_STAGE", 8}, {OpSetSamplerStage, "SET_SAMPLER_STAGE", 6},
	{OpSetView, "SET_VIEW", 11}, {OpSetSamplerEx, "SET_SAMPLER_EX", 14},
	{OpSetPredication, "SET_PREDICATION", 3},
	{OpSetUAV, "SET_UAV", 12}, {OpDispatch, "DISPATCH", 3}, {OpDispatchIndirect, "DISPATCH_INDIRECT", 2},
	{OpSetSOTarget, "SET_SO_TARGET", 7}, {OpSetSODecl, "SET_SO_DECL", 5}, {OpDrawAuto, "DRAW_AUTO", 3},
	{OpClearUAV, "CLEAR_UAV", 16}, {OpSetUAVSlices, "SET_UAV_SLICES", 3},
	{OpSetSamples, "SET_SAMPLES", 1}, {OpResolve, "RESOLVE", 10}, {OpSetRTLayers, "SET_RT_LAYERS", 9},
	{OpSetClipDist, "SET_CLIP_DIST", 1},
}

// Opcodes lists every opcode the hardware knows, in numeric order.
func Opcodes() []Opcode {
	out := make([]Opcode, len(opcodes))
	for i, o := range opcodes {
		out[i] = o.op
	}
	return out
}

// payloadLens is the fixed payload length indexed by opcode, -1 for an
// unknown one: the command processor looks up every packet, so an array, not
// a map.
var payloadLens, opNames = func() (lens [256]int16, names [256]string) {
	for i := range lens {
		lens[i] = -1
	}
	for _, o := range opcodes {
		lens[o.op], names[o.op] = int16(o.payload), o.name
	}
	return lens, names
}()

// fixedLens is payloadLens with -1 for the opcodes of a variable length
// too (WRITE, SET_LAYOUT, SET_SO_DECL): a header whose length is its
// opcode's here is well formed if its payload is inside the buffer (Next).
var fixedLens = func() [256]int16 {
	l := payloadLens
	l[OpWrite], l[OpSetLayout], l[OpSetSODecl] = -1, -1, -1
	return l
}()

func (o Opcode) String() string {
	if s := opNames[o]; s != "" {
		return s
	}
	return fmt.Sprintf("OP_%#02x", uint8(o))
}
