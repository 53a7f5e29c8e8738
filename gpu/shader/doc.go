// Package shader is the simulated GPU's own shader instruction set: its
// binary encoding, decoder and validator, text assembler and disassembler,
// and the executor that runs a program over a block of lanes. The UMD
// translates the SM4/SM5 token stream of a D3D11 shader ("Shader Model 4
// Assembly" and "Shader Model 5 Assembly" in the DirectX HLSL reference)
// into this ISA and places the words in a GPU-visible allocation; the GPU
// decodes them (Decode), caches the Program, and runs only this ISA. The
// package imports nothing of the simulator: gpu and core/umd both use it.
//
// # The machine
//
// A small register machine that SM4 maps onto one instruction for one:
// vec4 temporaries r#, inputs v#, outputs o#, constant-buffer elements
// cb#[n] (and cb#[r#.c + n], indexed per lane), immediates l(x, y, z, w),
// textures t# and samplers s#. Destinations have a write mask, sources a
// swizzle and the negate and absolute-value modifiers (float or
// two's-complement by the op's kind); float ops may saturate. Every register
// holds 32-bit words: floats are float32 bits, integers uint32. Ops (see
// the table in isa.go): mov, movc; add, mul, mad, div, dp2/3/4, min, max,
// rcp, rsq, sqrt, exp2, log2, sin, cos, frc, floor, ceil, round_ne, trunc;
// lt, ge, eq, ne (0xFFFFFFFF or 0); iadd, imul, ishl, ishr, ushr, and, or,
// xor, not, ineg, ilt, ige, ieq, ine, ult, uge, imin, imax, umin, umax, udiv,
// urem; itof, utof, ftoi, ftou; if/else/endif, loop/endloop, break, breakc,
// continue, continuec, ret, retc, discard (tests _z or _nz of one
// component); sample, sample_l, sample_d (explicit gradients), sample_b
// (biased), ld, resinfo (and _uint, _rcpfloat); deriv_rtx, deriv_rty (coarse) and
// their _fine forms. The D3D11 rules the ops follow ("Direct3D 11.3
// Functional Specification"): min and max return the number when one
// operand is NaN; ftoi and ftou give 0 for NaN and saturate; shifts use
// the count's low 5 bits; udiv and urem by zero give 0xFFFFFFFF; denormals
// are kept (IEEE), which D3D11 permits.
//
// # Encoding
//
// Little-endian uint32 words. The header: Magic, then Version | stage<<16,
// then inputs | outputs<<8 | temps<<16, then the code's length in words.
// Each instruction: a token (opcode in bits 0-7, its length in words in
// bits 8-15, saturate in bit 16, _nz in bit 17), the destination operand if
// the op has one, then the sources. Each operand: a token (file in bits
// 0-3, write mask in 4-7, swizzle in 8-15, negate 16, abs 17, relative 18)
// and its words: an index; or a cb slot, element and (relative) temp<<2 |
// component; or four immediate values. Unused bits must be zero, so each
// program has one encoding: Decode(w).Encode() == w. Decode refuses
// anything else with an error wrapping ErrBadCode (never a panic, linear
// time): unknown opcodes, register files where they cannot be, indices out
// of range, unbalanced control flow, pixel-only ops in a vertex program.
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
// Use, per draw and per goroutine:
//
//	p, err := shader.Decode(words)   // once per code address: cache p
//	m := shader.NewMachine(p)        // once per goroutine and program
//	err = m.Bind(constants, textures) // per draw: reads the named cb elements
//	// per block: fill m.In(i) for the lanes, then
//	alive, err := m.Run(mask)        // outputs in m.Out(i)
//
// Constants and Textures are the interfaces the gpu package implements
// over its memory: constant reads and texture accesses fault through their
// errors. Implicit-derivative sampling (sample, sample_b) hands the texture
// unit d(u,v)/dx and /dy per quad, sample_d the program's gradients per
// lane (TexSampleGrad): the unit selects the level of detail from them
// the same way, plus TexQuery.Bias for sample_b. resinfo asks
// Textures.Info for the view's TexInfo and computes its result here
// (ResInfo).
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
//
// The encoder side: Program, Inst and Operand are plain values; R, V, O,
// CB, CBRel, L, LF, T and S build operands, WithMask, WithSwizzle, WithNeg
// and WithAbs modify them, Check validates a built program as the GPU
// will, and Encode gives its words.
package shader
