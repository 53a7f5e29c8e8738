// builtin:vs_transform, the built-in vertex shader with one matrix: the
// position, a row vector (x y z 1), times the row-major 4x4 matrix in
// constant buffer slot 0 (sixteen floats, one row per register). The
// colour and texture coordinate go out unchanged.
//
// mul(row vector, row_major matrix) compiles to mul, mad, mad, mad: x times
// row 0, then y, z and 1 times rows 1 to 3 added in that order. No step
// is fused, so the sums round as x*M[0] + y*M[1] + z*M[2] + M[3] does.

cbuffer Transform : register(b0)
{
    row_major float4x4 M;
};

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
    o.pos = mul(float4(i.pos, 1), M);
    o.col = i.col;
    o.uv = i.uv;
    return o;
}
