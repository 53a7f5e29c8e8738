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
// deriv_rtx/rty are the coarse forms. sample, sample_l, sample_d,
// sample_b, ld and resinfo keep their operands: for the 2D textures and 2D
// arrays the GPU has, the ISA's coordinate layouts are SM4's (ld: x, y,
// slice, mip in w; sample_d's gradients d(u, v) in .xy), resinfo's return
// type (float, _uint, _rcpFloat) is the ISA op's, and the resource
// operand's swizzle picks the result's components in both.
//
// # Lowering
//
// What the ISA lacks is built from its ops on scratch temps placed after
// the shader's own, each source read before the destination is written:
// sincos and udiv (two destinations) as two ops; imad/umad as imul +
// iadd; imul/umul's low half as imul; swapc as two movc; ubfe, ibfe,
// bfi, countbits, firstbit_lo/hi/shi and bfrev as shifts, masks and
// movc; uaddc/usubb as iadd and ult; f16tof32 by fields; icb[n] as an immediate; switch as a loop
// run once with a fall-through flag; x#[] arrays as an ISA temp per
// element, and icb[] or x#[] indexed by a register as movc chains over the
// elements (switch.go, bits.go and indexed.go say how).
//
// # Refused
//
// Everything else fails with an *Error naming the instruction, its word
// offset in the token stream and the reason, never a panic: the UMD
// reports it as CreateXShader failing. That is sample_c, sample_c_lz,
// gather4, lod, bufinfo, texel offsets (aoffimmi), resources
// other than 2D textures and 2D arrays, multisampling, a modifier on
// resinfo's mip level, resinfo_uint with _sat, the high half of
// imul/umul, f32tof16,
// call/label, continue inside a switch, relative indexing of r#, v# and
// o#, system values other than SV_Position, SV_VertexID, SV_InstanceID
// and SV_Target, oDepth and oMask, geometry, hull, domain and compute
// shaders.
package translate
