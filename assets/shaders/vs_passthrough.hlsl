// builtin:vs_passthrough, the built-in vertex shader that draws positions as
// they are: the built-in vertex (position xyz, colour rgba, texture
// coordinate uv) goes out unchanged, the position with w = 1 in clip space.
// Without an input layout it reads the built-in 36-byte vertex.

struct VSIn
{
    float3 pos : POSITION;
    float4 col : COLOR;
    float2 uv  : TEXCOORD;
};

struct VSOut
{
    float4 pos : SV_Position;
    float4 col : COLOR;
    float2 uv  : TEXCOORD;
};

VSOut main(VSIn i)
{
    VSOut o;
    o.pos = float4(i.pos, 1);
    o.col = i.col;
    o.uv = i.uv;
    return o;
}
