package hlsl_test

import (
	"fmt"
	"strings"

	"d3dsim/core/dxbc"
	"d3dsim/core/hlsl"
)

func ExampleCompile() {
	src := `
cbuffer vertexBuffer : register(b0) { float4x4 ProjectionMatrix; };
struct VS_INPUT { float2 pos : POSITION; float4 col : COLOR0; };
struct PS_INPUT { float4 pos : SV_POSITION; float4 col : COLOR0; };
PS_INPUT main(VS_INPUT input) {
    PS_INPUT output;
    output.pos = mul(ProjectionMatrix, float4(input.pos.xy, 0.f, 1.f));
    output.col = input.col;
    return output;
}`
	r, err := hlsl.Compile([]byte(src), "imgui.hlsl", "main", "vs_4_0")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(r.Program)
	for _, e := range r.Outputs {
		fmt.Printf("output %s%d o%d %v\n", e.Semantic, e.Index, e.Register, e.SysVal)
	}
	// Output:
	// vs_4_0
	// dcl_constantbuffer cb0[4], immediateIndexed
	// dcl_input v0.xy
	// dcl_input v1.xyzw
	// dcl_output_siv o0.xyzw, position
	// dcl_output o1.xyzw
	// dcl_temps 2
	// mul r0.xyzw, cb0[0].xyzw, v0.xxxx
	// mad r1.xyzw, cb0[1].xyzw, v0.yyyy, r0.xyzw
	// add o0.xyzw, cb0[3].xyzw, r1.xyzw
	// mov o1.xyzw, v1.xyzw
	// ret
	// output SV_POSITION0 o0 POS
	// output COLOR0 o1 NONE
}

func ExampleCompile_error() {
	_, err := hlsl.Compile([]byte("float4 main() : SV_Target {\n  return foo;\n}"), "bad.hlsl", "main", "ps_4_0")
	fmt.Println(err)
	// Output: bad.hlsl(2,10): error X3004: undeclared identifier 'foo'
}

// The bytecode is what CreatePixelShader takes; the dxbc package lists it
// as fxc's /Fc does.
func ExampleResult_bytecode() {
	src := `Texture2D tex : register(t0); SamplerState smp : register(s0);
float4 main(float4 pos : SV_Position, float2 uv : TEXCOORD0) : SV_Target { return tex.Sample(smp, uv); }`
	r, err := hlsl.Compile([]byte(src), "ps.hlsl", "main", "ps_5_0")
	if err != nil {
		fmt.Println(err)
		return
	}
	sh, err := dxbc.Validate(r.Bytecode, dxbc.PixelShader)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(r.Bytecode[:4]), len(sh.Container.Chunks), "chunks")
	fmt.Print(strings.Join(strings.Split(sh.Program.Disassemble(), "\n")[:3], "\n"))
	// Output:
	// DXBC 4 chunks
	// ps_5_0
	// dcl_globalFlags refactoringAllowed
	// dcl_sampler s0, mode_default
}
