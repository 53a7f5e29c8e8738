// Package shaderisa is the simulated GPU's own shader instruction set: its
// binary encoding, its decoder and validator, and its text assembler and
// disassembler. It is the contract between the user-mode driver, which
// translates the SM4/SM5 token stream of a D3D11 shader ("Shader Model 4
// Assembly" and "Shader Model 5 Assembly" in the DirectX HLSL reference)
// into this ISA and places the words in a GPU-visible allocation
// (core/umd/translate), and the GPU, which decodes them (Decode), caches
// the Program, and runs only this ISA on its executor (package gpu/shader).
// The UMD imports this package and never the executor, as a real driver
// knows its hardware's instruction encoding but not the hardware's
// internals. The package imports nothing of the simulator.
//
// # The machine the ISA describes
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
// (biased), sample_c and sample_c_lz (comparison), gather4, gather4_c,
// gather4_po and gather4_po_c (one channel of the bilinear footprint; _po:
// per-lane offsets), lod, ld, ld_raw, ld_structured, resinfo (and _uint,
// _rcpfloat), bufinfo -- the coordinates SM4's for every view kind, the
// kind the bound view's; deriv_rtx, deriv_rty (coarse) and
// their _fine forms; shader model 5's bit ops ubfe, ibfe, bfi (four
// sources), bfrev, countbits, firstbit_hi, firstbit_lo, firstbit_shi, the
// carry and borrow of uaddc and usubb, the high halves umul_hi and
// imul_hi, and the half conversions f16tof32 and f32tof16 (round to
// nearest even); doubles (dadd, dmul, dmin, dmax, deq, dge, dlt, dne, dmov,
// dmovc, dtof, ftod), each in a pair of components, xy or zw, low word
// first; subroutines (call l#, callc_z/_nz, label l#: a ret inside one
// returns from it; no recursion, at most MaxCallDepth nested). The D3D11
// rules the ops follow ("Direct3D 11.3 Functional Specification"): min and
// max return the number when one operand is NaN; ftoi and ftou give 0 for
// NaN and saturate; shifts use the count's low 5 bits; udiv and urem by
// zero give 0xFFFFFFFF; denormals are kept (IEEE), which D3D11 permits.
//
// Arrays: a temp, input or output operand may be relative, register
// Elem + r#.c of an array of Len registers from Index (the SM4 indexable
// temps x#[r#.c + n], and v[r#.c + n] of dcl_indexrange), and so may the
// program's immediate constant buffer, icb[r#.c + n] (Program.ICB,
// dcl_immediateConstantBuffer). A register outside its array reads 0 and
// is not written.
//
// # Encoding
//
// Little-endian uint32 words. The header: Magic, then Version | stage<<16,
// then inputs | outputs<<8 | temps<<16, then the code's length in words;
// a pixel program with inputs not interpolated with perspective sets
// HeaderInterp (bit 24 of the second word) and two words of modes follow
// (Interp, 2 bits per input: v0..v15, then v16..v31); a program with an
// immediate constant buffer is VersionICB, its header one word longer (the
// buffer's length in vec4s) and followed by the buffer's words. Each instruction: a token (opcode in bits 0-7, its
// length in words in bits 8-15, saturate in bit 16, _nz in bit 17, the
// label of call, callc and label in bits 18-29, a texture op's immediate
// texel offsets u, v, w in bits 18-21, 22-25, 26-29 (4-bit two's
// complement, aoffimmi's) and a gather's channel in bits 30-31), the destination operand
// if the op has one, then the sources. Each operand: a token (file in
// bits 0-3, write mask in 4-7, swizzle in 8-15, negate 16, abs 17,
// relative 18) and its words: an index; or a cb slot, element and
// (relative) temp<<2 | component; or four immediate values; or, relative,
// the array's first register, the element, temp<<2 | component and the
// array's length. Unused bits must be zero, so each
// program has one encoding: Decode(w).Encode() == w. Decode refuses
// anything else with an error wrapping ErrBadCode (never a panic, linear
// time): unknown opcodes, register files where they cannot be, indices out
// of range, unbalanced control flow, pixel-only ops in a vertex program.
// Program.Flow gives the matched control flow an executor follows.
//
// # Building programs
//
// The encoder side: Program, Inst and Operand are plain values; R, V, O,
// CB, CBRel, L, LF, T and S build operands, WithMask, WithSwizzle, WithNeg
// and WithAbs modify them, Check validates a built program as the GPU
// will, and Encode gives its words. Assemble reads the text form (see
// asm.go) and String, Listing and Disassemble print it; the op table is
// read through Op's methods (HasDst, Srcs, Kind, HasTest, PixelOnly,
// FloatResult) and OpByName.
package shaderisa
