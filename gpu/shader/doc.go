// Package shader is the simulated GPU's shader executor: it runs a program
// of the GPU's instruction set (package gpu/shaderisa, which defines its
// encoding, decoding and assembly) over a block of lanes. Only the gpu
// package uses it; the drivers know the ISA, never this machine. The
// executor speaks in the ISA's names (it dot-imports gpu/shaderisa: the
// two halves were one package, and the executor's code reads as the ISA's
// own).
//
// # The executor
//
// A Machine (one per goroutine; Programs are shared) holds the registers
// structure-of-arrays: per register, per component, an array of Lanes
// words. A pixel block is an 8x8 tile whose lanes are its 16 quads in order
// (QuadLane); the vertex stage uses the same machine with 64 vertices. Run
// takes the mask of live lanes and executes one instruction at a time over
// the whole block: each op is a tight loop over the lanes per component,
// writing straight into the destination when every lane is active and
// under the execution mask otherwise. Control flow keeps a per-lane mask:
// if/else narrow it, break/continue/ret/discard take lanes out until their
// construct ends, and a construct with no active lane is skipped. Every
// instruction executed counts against StepLimit: a loop that never ends
// faults (ErrStepLimit) instead of hanging the GPU.
//
// Built with GOEXPERIMENT=simd on amd64 with AVX2, the hot kernels run
// eight lanes a pass (kernels_simd.go: the scalar kernels' operations in
// their order, the same bits, which TestVectorKernels holds), and Run ends
// with VZEROUPPER. Over a whole block, integer ops on values every lane
// holds alike (a counted loop's counter) run once (uniform.go).
//
// Use, per draw and per goroutine:
//
//	p, err := shaderisa.Decode(words) // once per code address: cache p
//	m := shader.NewMachine(p)        // once per goroutine and program
//	err = m.Bind(constants, textures) // per draw: reads the named cb elements
//	// per block: fill m.In(i) for the lanes, then
//	alive, err := m.Run(mask)        // outputs in m.Out(i)
//
// Constants and Textures are the interfaces the gpu package implements
// over its memory: constant reads and texture accesses fault through their
// errors. Relative operands gather per lane (a cb element through
// Constants, an array register from the register file or the program's
// icb) and relative destinations scatter; call pushes a frame that its
// label's ret pops, the lanes that called coming back together (those
// discarded inside it gone). Implicit-derivative sampling (sample, sample_b) hands the texture
// unit d(u,v)/dx and /dy per quad, sample_d the program's gradients per
// lane (TexSampleGrad): the unit selects the level of detail from them
// the same way, plus TexQuery.Bias for sample_b (and d(w) for 3D and cube
// views). The later queries go the same way: sample_c and sample_c_lz
// (TexQuery.Ref), gather4 and gather4_c (Channel, the instruction's; the
// offsets of gather4_po per lane in OffsetXY), lod (the quad's
// derivatives even when the unit ignores them otherwise), ld_raw and
// ld_structured; every texture op but gather4_po takes the instruction's
// immediate Offset. resinfo and bufinfo ask Textures.Info for the view's
// TexInfo (its kind, sizes, levels, array size, elements) and compute
// their results here (ResInfo).
//
// # Determinism
//
// The same program and inputs give the same bits natively and in
// WebAssembly (TestGoldenHash, run under both): float32 arithmetic is
// IEEE single precision on both, every product feeding a sum is rounded
// first (float32(a*b) + c) so no compiler fuses a multiply-add, and the
// transcendentals are this package's own routines (mathf.go; math.Exp and
// math.Log are assembly on amd64 and Go elsewhere). NaN results of float
// arithmetic are made canonical (0x7FC00000), because CPUs propagate
// different NaN payloads; registers read before any write, and outputs
// not written on every path, start each block at zero.
//
// Speed (bench_test.go, per 8x8 block, inputs already interpolated, one
// goroutine; figures per CPU-second, measured on a shared and loaded
// 2-core machine, so rough): BenchmarkVertexColor ("out = vertex colour")
// about 2,000 Mpixels/s; BenchmarkTexturedColor (the ImGui pixel shader,
// sample × colour, with a point-sampling test texture unit) about 200;
// BenchmarkVertexColorBlock (vertex colour with a sketch of interpolation
// and RGBA8 packing around it) about 245, where gpu's fill scene
// (BenchmarkFill/1), which draws this copy program with its Gouraud spans,
// makes about 520 by the same measure.
package shader
