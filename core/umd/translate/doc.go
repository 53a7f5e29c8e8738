// Package translate is the user-mode driver's shader compiler: it turns
// the SM4/SM5 token stream of a vs_4_0..vs_5_0 or ps_4_0..ps_5_0 DXBC
// shader ("Shader Model 4 Assembly" and "Shader Model 5 Assembly" in the
// DirectX HLSL reference) into the simulated GPU's own ISA (gpu/shader),
// as a Windows UMD does in CreateVertexShader and CreatePixelShader
// ("Supporting Shader Objects" in the Windows driver documentation). The
// GPU executes only the ISA; the DXBC never reaches it.
//
// The ISA is a register machine close to SM4, so most instructions map
// one for one: r#, v#, o# keep their numbers, cb#[n] and cb#[r#.c + n]
// stay constant-buffer operands, swizzles, masks, _sat and the neg/abs
// modifiers carry over. What the ISA lacks is lowered (sincos, udiv with
// two destinations, imad/umad, swapc, round_ni/pi/z, icb[] with a constant
// index) into extra ISA instructions on scratch temporaries above the
// shader's own, or refused with an error naming the instruction and its
// word offset: the UMD reports it as CreateXShader failing. The mapping
// decisions are listed in translate.go and ops.go.
package translate
