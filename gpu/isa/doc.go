// Package isa is the command-stream format of d3dsim's simulated GPU: the
// packets of a DMA buffer, their encoder (Builder), their decoder (Decode,
// Next), the address fields a driver relocates (AddrFields, Patch) and the
// hardware's own encodings of surface formats and fixed-function state.
//
// It is the contract three parties share, the way a real GPU's
// programming guide is shared by its drivers and its command processor:
//
//   - the user-mode driver (core/umd) encodes D3D11 DDI calls into packets
//     whose addresses are allocation-list relative;
//   - the kernel-mode driver (core/kmd) decodes and validates the UMD's
//     command buffer in DxgkDdiRender, writes a present's COPY and SCANOUT
//     in DxgkDdiPresent, paging packets in DxgkDdiBuildPagingBuffer and
//     physical addresses in
//     DxgkDdiPatch ("WDDM operation flow" in the Windows driver
//     documentation);
//   - the command processor of package gpu executes them.
//
// Programs: SET_PROGRAM binds a program in the GPU's own shader ISA (package
// gpu/shaderisa) from GPU memory through an address field the KMD validates
// and patches, and SET_LAYOUT describes the vertex fetch that feeds it
// (layout.go: both packets' words, the vertex formats, BuiltinLayout).
//
// There is no Direct3D in it: D3D's formats, blend factors and comparison
// functions are translated by the UMD into the values here. The package
// holds no state and imports nothing of the simulator, so the encoder costs
// nothing on the draw path.
package isa
