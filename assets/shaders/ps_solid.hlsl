// builtin:ps_solid, the built-in pixel shader that writes one colour: the
// four floats (r g b a) in constant buffer slot 0.

cbuffer Solid : register(b0)
{
    float4 color;
};

float4 main(float4 pos : SV_Position) : SV_Target
{
    return color;
}
