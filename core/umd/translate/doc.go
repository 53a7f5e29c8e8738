// Package translate is the user-mode driver's shader compiler: it turns
// the SM4/SM5 token stream of a vs_4_0..vs_5_0 or ps_4_0..ps_5_0 DXBC
// shader ("Shader Model 4 Assembly" and "Shader Model 5 Assembly" in the
// DirectX HLSL reference) into the simulated GPU's own ISA (gpu/shaderisa),
// as a Windows UMD does in CreateVertexShader and CreatePixelShader
// ("Supporting Shader Objects" in the Windows driver documentation). The
// GPU executes only the ISA; the DXBC never reaches it.
//
// # Mapping
//
// The ISA is a register machine close to SM4, so most instructions map
// one for one: r#, v# and o# keep their numbers (Shader.Inputs and
// Outputs say which signature element and system value each is, and a
// pixel shader input's interpolation mode); cb#[n] and cb#[r#.c + n] stay
// constant-buffer operands (an index held in another register file is
// copied to a temp first); swizzles, masks, _sat and the neg/abs modifiers
// carry over; exp/log are exp2/log2, round_ni/pi/z are floor/ceil/trunc,
// deriv_rtx/rty are the coarse forms. The texture instructions keep their
// operands (texture.go): sample, sample_l, sample_d, sample_b, sample_c,
// sample_c_lz, gather4, gather4_c, gather4_po, gather4_po_c, lod, ld,
// ld_raw, ld_structured, resinfo and bufinfo, for every resource kind
// dcl_resource, dcl_resource_raw and dcl_resource_structured declare (a
// Texture2DMS<T, N> or Texture2DMS<T>: ld2dms, resinfo, sampleinfo and
// samplepos of it, on the wide texture of its samples, with the bound
// view's count, which the GPU's sampleinfo reads: msaa.go). The ISA's coordinate layouts are SM4's (sample:
// u, v or a 1D array's slice, w or a 2D array's slice or a cube's
// direction, a cube array's slice; ld: the same in integers, mip in w; a
// buffer's element in x) and the view bound at the slot says the kind;
// aoffimmi's offsets are the ISA instruction's, a gather's channel the
// sampler operand's selected component (GatherRed .. GatherAlpha),
// resinfo's return type (float, _uint, _rcpFloat) the ISA op's, and the
// resource operand's swizzle picks the result's components. Texture.Dimension
// and Stride tell the UMD what each t# holds. sampleinfo and samplepos of
// the rasterizer read, in a pixel shader, the render target's sample count
// the GPU puts in an input register of their own (Shader.SampleCountReg,
// msaa.go); in the other stages they are constants: one sample, at the
// pixel's centre. A pixel shader's vCoverage (SV_Coverage's input) is that
// register's y, the pixel's covered samples, and its oMask (SV_Coverage's
// output) the ISA output shaderisa.CoverageOutput (coverage.go).
//
// # Lowering
//
// The shader model 5 bit ops (ubfe, ibfe, bfi, bfrev, countbits,
// firstbit_*, f16tof32, f32tof16) and the doubles (dadd ... ftod: a double
// in a pair of components, as DXBC keeps it) are ISA ops too (bits.go,
// double.go). What the ISA lacks is built from its ops on scratch temps
// placed after the shader's own, each source read before the destination
// is written: sincos and udiv (two destinations) as two ops; uaddc, usubb,
// imul and umul (both halves) as two ops; imad/umad as imul + iadd;
// swapc as two movc; icb[n] as an immediate; switch as a loop run once
// with a fall-through flag, and a continue inside it as a flag and a
// break (switch.go). Register arrays are the ISA's relative operands
// (indexed.go): x#[] arrays as a run of ISA temps, icb[r#.c + n] as the
// program's immediate constant buffer, v[]/o[] over a dcl_indexrange; a
// register outside the array reads 0 and is not written. Subroutines
// (call, callc, label) are the ISA's. eval_centroid and eval_sample_index
// read the input itself: the pixel's centre, where the GPU evaluates every
// input, multisampled or not.
//
// Each ISA instruction remembers the DXBC instruction it came from
// (Shader.Source), for the page's listing and for stepping.
//
// # Refused
//
// Everything else fails with an *Error naming the instruction, its word
// offset in the token stream and the reason -- the DXBC instruction by
// its fxc name and the feature this GPU lacks (refuse.go) -- never a
// panic: the UMD reports it as CreateXShader failing, and the reason
// reaches the application (pfnSetErrorCb). That is: UAVs, thread-group
// shared memory and sync (outside compute shaders), the geometry, hull and domain
// shaders' instructions outside their stages (tess.go: hull and domain shaders),
// the Direct3D 11.1 doubles (ddiv, dfma, drcp,
// dtoi, dtou, itod, utod, msad: the device is feature level 11_0),
// interfaces, eval_snapped, abort and debug_break.
package translate
