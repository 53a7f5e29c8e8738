// Package hlsl is d3dsim's HLSL compiler front end: the part of fxc (the
// D3DCompile of d3dcompiler_47) that turns a shader's source into code. It
// preprocesses, lexes and parses the source, checks types with HLSL's
// conversion rules, lays out constant buffers with fxc's packing, and
// lowers one entry point to an IR whose instructions are Shader Model 4/5
// instructions one for one (mov, mad, dp4, sample, if_nz, loop, ...) on
// SM4 registers (v#, o#, r#, cb#[n], t#, s#, l(...)) with swizzles and
// write masks. Functions are inlined, as fxc inlines them. The texture
// objects (Texture1D/2D/3D/Cube and their arrays, Texture2DMS) and their
// methods: Sample, SampleLevel, SampleBias, SampleGrad, SampleCmp,
// SampleCmpLevelZero, Gather*, Load, CalculateLevelOfDetail and
// GetDimensions (sample, sample_l, sample_b, sample_d, sample_c,
// sample_c_lz, gather4*, ld, ldms, lod, resinfo).
//
// Compile returns the program, its input and output signatures, the
// reflection data RDEF carries (constant buffers with variable offsets
// and sizes, bound resources) and the bytecode: the back end writes the
// IR through the dxbc package's Builder as the container fxc writes
// (RDEF, ISGN, OSGN, then SHDR for *_4_0 or SHEX for *_5_0), one SM4/SM5
// instruction per IR instruction, and Compile returns only bytecode that
// dxbc.Validate accepts for its stage. Errors and warnings use fxc's format and
// numbers: "file(line,col): error X3004: undeclared identifier 'foo'".
//
// Run is a reference evaluator of the IR: float32 IEEE arithmetic without
// fused multiply-add, so that the simulated GPU's shader core can be
// checked against it bit for bit. Its texels come from Env.Sample, at
// level 0 for the implicit-derivative and explicit-gradient forms (one
// invocation has no quad) and at the clamped bias for SampleBias.
//
// What it follows, by page title:
//   - "Packing Rules for Constant Variables" (HLSL reference): 16-byte
//     registers, no straddling, arrays and structs start a register.
//   - "Variable Syntax", "Per-Component Math Operations", "Matrix Ordering"
//     and "Semantics" (HLSL reference): declarations, swizzles, default
//     column_major matrices, SV_Position / SV_Target / SV_VertexID.
//   - "Intrinsic Functions (DirectX HLSL)": the intrinsics and their types.
//   - "Shader Model 4 Assembly (DirectX HLSL)": the instruction set the IR
//     mirrors and its disassembly syntax.
//   - "packoffset (DirectX HLSL)" and "register (DirectX HLSL)".
//
// Signatures are packed as fxc packs them (a vertex shader's outputs and
// a pixel shader's inputs share registers: float2 and float2 in .xy and
// .zw; elements of different interpolation modes never share), so d3dsim's
// and fxc's shaders link both ways.
//
// The optimiser (opt.go, one pass per file) rewrites the generated IR:
// webs get registers of their own, then copy propagation with constant
// folding, dead code, results (and a vector's lanes) written where a mov
// would copy them, mul and add fused into mad, common subexpressions,
// short ifs flattened into movc, movs merged, conditions read through a
// not, ifs around a discard folded into it, one-lane instructions
// vectorised, [unroll] loops unrolled, copies coalesced and temps
// renumbered. Every pass keeps
// each instruction's HLSL line (Instr.Line). Before it, the generator
// lays a local matrix out as fxc does (matlayout.go: a column_major one
// summed from column_major constants a register per column).
//
// Differences from fxc, on purpose or not yet done: loops without
// [unroll] are kept as loop/endloop (an [unroll] loop whose trips are
// known is unrolled, opt_unroll.go); code after an unconditional
// break, continue or ret is dropped, so is a continue that ends a loop,
// and a break that ends one is written breakc_nz l(-1) (vkd3d-shader 1.2,
// the tests' independent reader, mistranslates those patterns); #include,
// geometry shaders and doubles are refused with an error that says "not
// supported by this compiler" and names the construct. Compute shaders
// (cs_5_0, compute.go; cs_4_0 and cs_4_1 within their limits, cs4.go) take [numthreads], the thread identifiers, typed
// views (RWTexture*, RWBuffer, also in pixel shaders) and the Interlocked
// functions on their elements; structured and byte-address buffers and
// groupshared memory (buffers.go) are loads and stores of their words, a
// store writing only the components it changes; rasterizer-ordered views
// and views of matrices or structs are texelem.go's; shader model 1-3
// sampling (tex2D of a sampler2D) is legacy.go's; domain shaders (ds_5_0:
// OutputPatch, the patch constants, SV_DomainLocation) are domain.go's,
// hull shaders (hs_5_0: a control-point phase and a fork phase) hull.go's. The effects framework's syntax
// (state blocks, sampler_state, techniques, effect objects; states.go) is
// checked as fxc checks it for a shader profile and emits nothing.
//
// Bounds (limits.go): the source, the tokens after macro expansion (the
// #if lines' included), nesting, inlining depth, the nodes lowered after
// inlining, the elements of an array (every dimension multiplied), the
// size of a constant buffer, temps and instructions are all capped, each
// checked before the allocation it guards, so hostile input ends in an
// error naming the limit and the line, never a hang, a panic or an
// exhausted heap. CompileWith raises the budgets that are this compiler's
// own (Limits); the first 32 diagnostics of every stage are kept in full
// and the rest counted in a last line.
package hlsl
