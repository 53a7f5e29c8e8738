/* A Phong lesson with a diffuse texture and a normal map. */
#define PI 3.14159265
#define MAX_LIGHTS 2

cbuffer PerObject : register(b0)
{
    row_major float4x4 World;
    row_major float4x4 ViewProj;
};

cbuffer PerFrame : register(b1)
{
    float3 LightDir;
    float  SpecPower;
    float3 EyePos;
    float  pad0;
    float4 Ambient;
    float4 Diffuse;
    float4 Specular;
};

Texture2D DiffuseMap : register(t0);
Texture2D NormalMap  : register(t1);
SamplerState Linear  : register(s0);

struct VSIn
{
    float3 pos     : POSITION;
    float3 normal  : NORMAL;
    float3 tangent : TANGENT;
    float2 uv      : TEXCOORD0;
};

struct VSOut
{
    float4 pos      : SV_Position;
    float3 worldPos : TEXCOORD1;
    float3 normal   : NORMAL;
    float3 tangent  : TANGENT;
    float2 uv       : TEXCOORD0;
};

VSOut VSMain(VSIn v)
{
    VSOut o;
    float4 wp = mul(float4(v.pos, 1.0), World);
    o.worldPos = wp.xyz;
    o.pos = mul(wp, ViewProj);
    o.normal = mul(v.normal, (float3x3)World);
    o.tangent = mul(v.tangent, (float3x3)World);
    o.uv = v.uv;
    return o;
}

float3 PerturbNormal(float3 n, float3 t, float2 uv)
{
    float3 b = cross(n, t);
    float3 m = NormalMap.Sample(Linear, uv).xyz * 2.0 - 1.0;
    float3x3 tbn = float3x3(t, b, n);
    return normalize(mul(m, tbn));
}

float Specularity(float3 n, float3 l, float3 v)
{
    float3 r = reflect(-l, n);
    return pow(saturate(dot(r, v)), SpecPower);
}

float4 PSMain(VSOut i) : SV_Target
{
    float3 n = normalize(i.normal);
    float3 t = normalize(i.tangent - dot(i.tangent, n) * n);
    n = PerturbNormal(n, t, i.uv);
    float3 l = normalize(-LightDir);
    float3 v = normalize(EyePos - i.worldPos);
    float diff = saturate(dot(n, l));
    float4 tex = DiffuseMap.Sample(Linear, i.uv);
    if (tex.a < 0.1)
        discard;
    float4 color = tex * (Ambient + Diffuse * diff);
    color.rgb += Specular.rgb * Specularity(n, l, v);
    return color;
}
