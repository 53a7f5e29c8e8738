// builtin:ps_texture, the built-in pixel shader that samples the texture in
// shader-resource slot 0 with the sampler in slot 0 at the interpolated
// texture coordinate. It takes the vertex shaders' colour too, unused, so
// that TEXCOORD is in the register the built-in vertex shaders write it to
// (v2): the signatures link.

Texture2D tex : register(t0);
SamplerState smp : register(s0);

struct PSIn
{
    float4 pos : SV_Position;
    float4 col : COLOR;
    float2 uv  : TEXCOORD;
};

float4 main(PSIn i) : SV_Target
{
    return tex.Sample(smp, i.uv);
}
